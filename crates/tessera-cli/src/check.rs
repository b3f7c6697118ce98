//! `tessera check`: a whole GEMM kernel configuration (a TOML file, a CUTLASS kernel name, or a
//! search space) checked obligation by obligation. A thin shell over `tessera::check`.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value as Json;
use tessera::check::config::{parse_fact, Extent, Tree};
use tessera::check::{check, check_many, cutlass, text, Config, Overall};

/// Arguments of `tessera check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The configuration file (TOML with CUTLASS's names; docs/check.md).
    pub file: Option<PathBuf>,
    /// A CUTLASS kernel name, as the library generator and cutlass_profiler print it.
    #[arg(long)]
    pub cutlass: Option<String>,
    /// With --cutlass: the problem `M,N,K[,L]` (integers or names of runtime extents).
    #[arg(long)]
    pub problem: Option<String>,
    /// A fact about a runtime extent (`K % 64 == 0`, `M >= 128`); repeatable.
    #[arg(long)]
    pub assume: Vec<String>,
    /// A search space (TOML: any field given as a list of values); prints the summary.
    #[arg(long)]
    pub space: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Print the runtime guards as a host-side `can_implement` (`cpp` or `python`).
    #[arg(long, value_name = "LANG")]
    pub emit_guard: Option<String>,
}

/// A TOML value as the library's tree.
pub fn from_toml(v: &toml::Value) -> Result<Tree, String> {
    Ok(match v {
        toml::Value::Integer(i) => Tree::Int(*i),
        toml::Value::String(s) => Tree::Str(s.clone()),
        toml::Value::Boolean(b) => Tree::Bool(*b),
        toml::Value::Array(a) => Tree::List(a.iter().map(from_toml).collect::<Result<_, _>>()?),
        toml::Value::Table(t) => Tree::Table(
            t.iter()
                .map(|(k, v)| Ok((k.clone(), from_toml(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        toml::Value::Float(f) => return Err(format!("{f}: floats are not configuration values")),
        toml::Value::Datetime(d) => return Err(format!("{d}: dates are not configuration values")),
    })
}

/// A JSON value as the library's tree.
pub fn from_json(v: &Json) -> Result<Tree, String> {
    Ok(match v {
        Json::Number(n) => Tree::Int(
            n.as_i64()
                .ok_or_else(|| format!("{n}: expected an integer"))?,
        ),
        Json::String(s) => Tree::Str(s.clone()),
        Json::Bool(b) => Tree::Bool(*b),
        Json::Array(a) => Tree::List(a.iter().map(from_json).collect::<Result<_, _>>()?),
        Json::Object(o) => Tree::Table(
            o.iter()
                .map(|(k, v)| Ok((k.clone(), from_json(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Json::Null => return Err("null is not a configuration value".into()),
    })
}

/// Parses `M,4096,K[,L]`.
pub fn parse_problem(s: &str) -> Result<[Extent; 4], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if !(3..=4).contains(&parts.len()) {
        return Err(format!("--problem `{s}`: expected M,N,K[,L]"));
    }
    let ext = |p: &str| -> Result<Extent, String> {
        match p.parse::<u64>() {
            Ok(0) => Err(format!("--problem `{s}`: extents are positive")),
            Ok(v) => Ok(Extent::Static(v)),
            Err(_) if !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Ok(Extent::Runtime(p.to_string()))
            }
            Err(_) => Err(format!(
                "--problem `{s}`: `{p}` is neither a positive integer nor a name"
            )),
        }
    };
    Ok([
        ext(parts[0])?,
        ext(parts[1])?,
        ext(parts[2])?,
        match parts.get(3) {
            Some(p) => ext(p)?,
            None => Extent::Static(1),
        },
    ])
}

/// A configuration from a CUTLASS kernel name, a problem and facts (shared with `tessera batch`).
pub fn config_from_cutlass(
    name: &str,
    problem: Option<[Extent; 4]>,
    assume: &[String],
) -> Result<(Config, Option<String>), String> {
    let p = cutlass::parse(name)?;
    let mut c = p.config;
    if let Some(pr) = problem {
        c.problem = pr;
    }
    for a in assume {
        c.assume.push(parse_fact(a).map_err(|e| e.to_string())?);
    }
    Ok((c, p.unsupported))
}

fn print_report(c: &Config, json: bool, emit: Option<&str>, note: Option<&str>) -> ExitCode {
    let r = check(c);
    if let Some(lang) = emit {
        match text::emit_guard(c, &r, lang) {
            Ok(s) => crate::out(&s),
            Err(e) => return crate::exit::fail("bad_argument", e),
        }
    } else if json {
        crate::out(&format!("{}\n", text::to_json(&r)));
    } else {
        if let Some(n) = note {
            crate::out(&format!("note: not modelled by tessera check: {n}; the obligations below treat it as the nearest modelled kernel\n"));
        }
        crate::out(&text::text(c, &r));
    }
    if r.overall() == Overall::Invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `tessera check`.
pub fn run(a: Args) -> ExitCode {
    if let Some(space) = &a.space {
        return run_space(space, a.json);
    }
    let (c, note) = match (&a.file, &a.cutlass) {
        (Some(f), None) => {
            let text = match crate::exit::read_file(f) {
                Ok(t) => t,
                Err((code, m)) => return crate::exit::fail(code, m),
            };
            let v: toml::Value = match toml::from_str(&text) {
                Ok(v) => v,
                Err(e) => return crate::exit::fail("parse", format!("{}: {e}", f.display())),
            };
            let tree = match from_toml(&v) {
                Ok(t) => t,
                Err(e) => return crate::exit::fail("parse", format!("{}: {e}", f.display())),
            };
            let mut c = match Config::from_tree(&tree) {
                Ok(c) => c,
                Err(e) => return crate::exit::fail("bad_config", e),
            };
            for s in &a.assume {
                match parse_fact(s) {
                    Ok(f) => c.assume.push(f),
                    Err(e) => return crate::exit::fail("bad_config", e),
                }
            }
            (c, None)
        }
        (None, Some(name)) => {
            let problem = match a.problem.as_deref().map(parse_problem).transpose() {
                Ok(p) => p,
                Err(e) => return crate::exit::fail("bad_argument", e),
            };
            match config_from_cutlass(name, problem, &a.assume) {
                Ok(x) => x,
                Err(e) => return crate::exit::fail("bad_config", e),
            }
        }
        _ => {
            return crate::exit::fail(
                "bad_argument",
                "give a configuration FILE, --cutlass NAME, or --space FILE",
            )
        }
    };
    print_report(&c, a.json, a.emit_guard.as_deref(), note.as_deref())
}

/// Expands a space: every field given as a list (except the fields that are lists already:
/// `tile`, `cluster`, `assume`, `atom_layout`, `problem`, `warps`) becomes one axis.
fn expand(tree: &Tree) -> Result<Vec<Tree>, String> {
    let Tree::Table(kv) = tree else {
        return Err("a space is a table".into());
    };
    let list_fields = [
        "tile",
        "cluster",
        "assume",
        "atom_layout",
        "warps",
        "problem",
        "gmem_copy_a",
        "gmem_copy_b",
    ];
    let mut out: Vec<Vec<(String, Tree)>> = vec![Vec::new()];
    for (k, v) in kv {
        let choices: Vec<Tree> = match v {
            Tree::List(items) if !list_fields.contains(&k.as_str()) => items.clone(),
            Tree::List(items)
                if list_fields.contains(&k.as_str())
                    && items.first().is_some_and(|i| matches!(i, Tree::List(_))) =>
            {
                items.clone()
            }
            other => vec![other.clone()],
        };
        let mut next = Vec::with_capacity(out.len() * choices.len());
        for base in &out {
            for ch in &choices {
                let mut b = base.clone();
                b.push((k.clone(), ch.clone()));
                next.push(b);
            }
        }
        if next.len() > 10_000_000 {
            return Err("the space has more than 10,000,000 configurations".into());
        }
        out = next;
    }
    Ok(out.into_iter().map(Tree::Table).collect())
}

fn run_space(path: &std::path::Path, json: bool) -> ExitCode {
    let text = match crate::exit::read_file(path) {
        Ok(t) => t,
        Err((code, m)) => return crate::exit::fail(code, m),
    };
    let tree = match toml::from_str::<toml::Value>(&text)
        .map_err(|e| e.to_string())
        .and_then(|v| from_toml(&v))
    {
        Ok(t) => t,
        Err(e) => return crate::exit::fail("parse", format!("{}: {e}", path.display())),
    };
    let trees = match expand(&tree) {
        Ok(t) => t,
        Err(e) => return crate::exit::fail("bad_config", e),
    };
    let mut configs = Vec::with_capacity(trees.len());
    for t in &trees {
        match Config::from_tree(t) {
            Ok(c) => configs.push(c),
            Err(e) => return crate::exit::fail("bad_config", e),
        }
    }
    let (_, s) = check_many(&configs);
    if json {
        let by: Vec<Json> = s
            .by_first_refuted
            .iter()
            .map(|(c, n)| serde_json::json!([c, n]))
            .collect();
        crate::out(&format!(
            "{}\n",
            serde_json::json!({"configs": configs.len(), "valid": s.valid, "valid_if": s.valid_if, "invalid": s.invalid, "by_first_refuted": by})
        ));
    } else {
        let mut o = format!(
            "{} configurations: {} valid, {} valid if runtime guards hold, {} invalid\n",
            configs.len(),
            s.valid,
            s.valid_if,
            s.invalid
        );
        for (code, n) in &s.by_first_refuted {
            o.push_str(&format!("  first refuted {code}: {n}\n"));
        }
        crate::out(&o);
    }
    ExitCode::SUCCESS
}

/// The batch answer to a `check` (config object) or `check_cutlass` (name) request.
pub fn batch_answer(
    config: Option<&Json>,
    name: Option<&str>,
    problem: Option<&Json>,
    assume: Option<&Json>,
) -> Json {
    let err = |code: &str, m: String| serde_json::json!({"error": {"code": code, "message": m}});
    let assume: Vec<String> = match assume {
        None => Vec::new(),
        Some(Json::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect(),
        Some(_) => return err("bad_request", "\"assume\" is a list of strings".into()),
    };
    let c = if let Some(v) = config {
        let tree = match from_json(v) {
            Ok(t) => t,
            Err(e) => return err("bad_config", e),
        };
        let mut c = match Config::from_tree(&tree) {
            Ok(c) => c,
            Err(e) => return err("bad_config", e.to_string()),
        };
        for a in &assume {
            match parse_fact(a) {
                Ok(f) => c.assume.push(f),
                Err(e) => return err("bad_config", e.to_string()),
            }
        }
        c
    } else if let Some(n) = name {
        let problem = match problem {
            None => None,
            Some(Json::String(s)) => match parse_problem(s) {
                Ok(p) => Some(p),
                Err(e) => return err("bad_request", e),
            },
            Some(Json::Array(a)) => {
                let s: Vec<String> = a
                    .iter()
                    .map(|v| match v {
                        Json::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                match parse_problem(&s.join(",")) {
                    Ok(p) => Some(p),
                    Err(e) => return err("bad_request", e),
                }
            }
            Some(_) => return err("bad_request", "\"problem\" is [M, N, K(, L)]".into()),
        };
        match config_from_cutlass(n, problem, &assume) {
            Ok((c, _)) => c,
            Err(e) => return err("bad_config", e),
        }
    } else {
        return err(
            "bad_request",
            "expected \"check\" or \"check_cutlass\"".into(),
        );
    };
    let r = check(&c);
    match serde_json::from_str::<Json>(&text::to_json(&r)) {
        Ok(j) => serde_json::json!({"ok": j}),
        Err(e) => err("internal", e.to_string()),
    }
}
