//! The library's imports run one way (the order documented in `src/lib.rs`):
//!
//! ```text
//! error + target → layout → diagnostic → algebra → notation → obligation → domain → banks → tma → check → render
//! ```
//!
//! This test reads every file under `src/`, extracts the module paths the code names
//! (`crate::X`, `super::…`, in `use` lines and inline), maps each file and each path to its layer,
//! and fails naming the file, the line and the path of every reference that runs back up. Comments,
//! doc comments (doc links may point anywhere), string literals and `#[cfg(test)]` modules are not
//! imports and are skipped. Inside `algebra`, `check`, `notation` and `tma` the files are ordered too
//! (see [`SUB_LAYERS`]); a module's `mod.rs` (its types and re-exports) is exempt from the inner
//! order. Where files or modules share a layer they may import each other, but never in a cycle:
//! [`cycles`] names every cycle among the modules of one layer and among the files of one
//! sub-layer (or of one module without an inner order, e.g. `domain`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules, bottom first. Modules in one layer may not import each other unless the
/// layer is marked mutual (none is today), and even then not in a cycle. `error` and `target`
/// import nothing from the crate (an `Error` records its call as text, so it needs no layout type).
const LAYERS: &[(&[&str], bool)] = &[
    (&["error", "target"], false),
    (&["layout"], false),
    (&["diagnostic"], false),
    (&["algebra"], false),
    (&["notation"], false),
    (&["symbolic"], false),
    (&["obligation"], false),
    (&["domain"], false),
    (&["banks"], false),
    (&["tma"], false),
    (&["check"], false),
    (&["render"], false),
];

/// Files inside one module, bottom first (file stems; `mod` is exempt). Files in one sub-layer
/// may import each other.
const SUB_LAYERS: &[(&str, &[&[&str]])] = &[
    (
        "algebra",
        &[
            &[
                "coalesce",
                "composition",
                "complement",
                "complement_fast",
                "decide",
                "divide",
                "inverse",
                "product",
            ],
            &["swizzled", "linear", "ragged"],
            &["atoms", "gluon"],
        ],
    ),
    (
        "check",
        &[
            &["facts"],
            &["config"],
            &["derive"],
            &["cutlass"],
            &["rules"],
            &["text"],
        ],
    ),
    (
        "notation",
        &[
            &["parse", "value", "write"],
            &["ops"],
            &["direct"],
            &["expr"],
            &["ragged"],
        ],
    ),
    (
        "tma",
        &[
            &["error"],
            &["params", "tiling", "smem", "rules"],
            &["suggest"],
            &["report"],
            &["ragged", "driver", "wire", "symbolic"],
        ],
    ),
];

/// Items re-exported at the crate root, and the module they come from.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("Layout", "layout"),
    ("Error", "error"),
    ("Result", "error"),
];

/// A module position: (layer, module, sub-layer within the module when it has an inner order).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    layer: usize,
    module: String,
    sub: Option<usize>,
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(ms, _)| ms.contains(&module))
}

fn sub_of(module: &str, stem: &str) -> Option<usize> {
    let (_, subs) = SUB_LAYERS.iter().find(|(m, _)| *m == module)?;
    subs.iter().position(|s| s.contains(&stem))
}

/// The module path of a file under `src/` (`algebra/coalesce.rs` → `["algebra", "coalesce"]`,
/// `tma/mod.rs` → `["tma"]`, `lib.rs` → `[]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        if stem != "mod" && stem != "lib" {
            parts.push(stem);
        }
    }
    parts
}

/// Code with comments, string and char literals blanked out (line structure kept).
fn strip(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !b[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // Raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                out.push(blank(b[j]));
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` without the bodies of `#[cfg(test)] mod NAME { … }` (lines kept).
fn without_test_modules(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let text: String = out.iter().collect();
    let mut from = 0;
    while let Some(k) = text[from..].find("#[cfg(test)]") {
        let start = from + k;
        let rest = &text[start + "#[cfg(test)]".len()..];
        let trimmed = rest.trim_start();
        from = start + 1;
        if !trimmed.starts_with("mod ") {
            continue;
        }
        let Some(open) = text[start..].find('{').map(|o| start + o) else {
            continue;
        };
        let mut depth = 0usize;
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut end = None;
        for &(bi, ch) in chars.iter().filter(|(bi, _)| *bi >= open) {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(bi);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        // Blank by char index: convert byte offsets.
        let (s, e) = (text[..start].chars().count(), text[..=end].chars().count());
        for ch in &mut out[s..e] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        from = end;
    }
    out.into_iter().collect()
}

fn ident_at(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The first segments of every path in a `crate::{a::x, b, …}` group.
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_item = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    at_item = true;
                    continue;
                }
            }
            '}' => {
                if depth == 1 {
                    break;
                }
                depth = depth.saturating_sub(1);
            }
            ',' if depth == 1 => {
                at_item = true;
                continue;
            }
            _ => {}
        }
        if depth == 1 && at_item && !c.is_whitespace() {
            at_item = false;
            if let Some(id) = ident_at(&s[i..]) {
                heads.push(id.to_string());
            }
        }
    }
    heads
}

/// Every path the code names that leaves the file's module: (1-based line, path as absolute
/// segments, e.g. `["algebra", "coalesce"]`, the text as written).
fn references(code: &str, module: &[String]) -> Vec<(usize, Vec<String>, String)> {
    let mut out = Vec::new();
    for (ln, line) in code.lines().enumerate() {
        let mut from = 0;
        while from < line.len() {
            let rest = &line[from..];
            let c_pos = rest.find("crate::");
            let s_pos = rest.find("super::");
            let (pos, is_crate) = match (c_pos, s_pos) {
                (Some(a), Some(b)) if a <= b => (a, true),
                (Some(a), None) => (a, true),
                (_, Some(b)) => (b, false),
                (None, None) => break,
            };
            let at = from + pos;
            // A path segment, not the tail of an identifier (`$crate::`, `my_crate::`).
            let prev = line[..at].chars().last();
            if prev.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == '$') {
                from = at + 7;
                continue;
            }
            let mut base: Vec<String> = if is_crate {
                Vec::new()
            } else {
                module.to_vec()
            };
            let mut k = at;
            // Consume `crate::` or a chain of `super::`.
            if is_crate {
                k += "crate::".len();
            } else {
                while line[k..].starts_with("super::") {
                    base.pop();
                    k += "super::".len();
                }
            }
            let tail = &line[k..];
            let heads: Vec<String> = if tail.starts_with('{') {
                group_heads(tail)
            } else {
                ident_at(tail)
                    .map(|s| vec![s.to_string()])
                    .unwrap_or_default()
            };
            for h in heads {
                if h == "self" {
                    continue;
                }
                let mut p = base.clone();
                p.push(h.clone());
                // Deeper segment for sub-layer checks: `super::rules::x` → tma, rules.
                let after = &tail[h.len().min(tail.len())..];
                if p.len() == 1 && after.starts_with("::") && !tail.starts_with('{') {
                    if let Some(sub) = ident_at(&after[2..]) {
                        p.push(sub.to_string());
                    }
                }
                out.push((ln + 1, p, line[at..].trim().chars().take(60).collect()));
            }
            from = k;
        }
    }
    out
}

/// The place of a file, or `None` for the crate root.
fn place_of_file(module: &[String]) -> Option<Place> {
    let top = module.first()?;
    let layer = layer_of(top).unwrap_or_else(|| {
        panic!("module `{top}` has no layer: add it to LAYERS (and to the order in lib.rs)")
    });
    let sub = module.get(1).and_then(|stem| sub_of(top, stem));
    Some(Place {
        layer,
        module: top.clone(),
        sub,
    })
}

/// The place a path points to, or `None` when it stays at the root (re-exports are resolved by
/// [`ROOT_ITEMS`]).
fn place_of_path(path: &[String]) -> Result<Option<Place>, String> {
    let Some(top) = path.first() else {
        return Ok(None);
    };
    let top = match ROOT_ITEMS.iter().find(|(item, _)| item == top) {
        Some((_, m)) => m.to_string(),
        None => top.clone(),
    };
    let Some(layer) = layer_of(&top) else {
        return Err(format!(
            "`{top}` is neither a layered module nor a known root item"
        ));
    };
    let sub = path.get(1).and_then(|stem| sub_of(&top, stem));
    Ok(Some(Place {
        layer,
        module: top,
        sub,
    }))
}

/// Why `from` may not name `to`, if it may not.
fn violation(from: &Place, to: &Place, from_stem: Option<&str>) -> Option<String> {
    if from.module == "target" && to.module != "target" {
        // The GPU facts are leaves: they import nothing from the crate.
        return Some(format!(
            "`target` imports `{}`: it may import nothing",
            to.module
        ));
    }
    if from.module == to.module {
        // Inside one module: the inner order, when there is one (mod.rs is exempt).
        let (Some(a), Some(b)) = (from.sub, to.sub) else {
            return None;
        };
        return (b > a).then(|| {
            format!(
                "inside `{}`, `{}` (inner layer {a}) imports inner layer {b}",
                from.module,
                from_stem.unwrap_or("?")
            )
        });
    }
    if to.layer > from.layer {
        return Some(format!(
            "`{}` (layer {}) imports `{}` (layer {}), which lies above it",
            from.module, from.layer, to.module, to.layer
        ));
    }
    if to.layer == from.layer && !LAYERS[from.layer].1 {
        return Some(format!(
            "`{}` and `{}` share layer {} and may not import each other",
            from.module, to.module, from.layer
        ));
    }
    None
}

/// Every upward reference in the file `rel` (relative to `src/`) with contents `src`.
fn check_file(rel: &Path, src: &str) -> Vec<String> {
    check_file_counted(rel, src).0
}

/// An import between two nodes of one layer: (from, to, `file:line`). A node is a top-level
/// module (`layout`) or a file of a module (`algebra/composition`; `mod.rs` is not a node).
type Edge = (String, String, String);

/// [`check_file`], and how many references were checked.
fn check_file_counted(rel: &Path, src: &str) -> (Vec<String>, usize) {
    let (bad, n, _) = check_file_edges(rel, src, &BTreeMap::new());
    (bad, n)
}

/// [`check_file_counted`], and the imports between nodes of one layer (`stems`: the file stems of
/// each module, so `super::Tiler` is not taken for a file).
fn check_file_edges(
    rel: &Path,
    src: &str,
    stems: &BTreeMap<String, Vec<String>>,
) -> (Vec<String>, usize, Vec<Edge>) {
    let module = module_path(rel);
    let Some(from) = place_of_file(&module) else {
        return (Vec::new(), 0, Vec::new());
    };
    let is_file = |m: &str, stem: &str| stems.get(m).is_some_and(|v| v.iter().any(|s| s == stem));
    let mut edges = Vec::new();
    let stem = module.get(1).map(String::as_str);
    let code = without_test_modules(&strip(src));
    let mut bad = Vec::new();
    let refs = references(&code, &module);
    let n = refs.len();
    for (line, path, text) in refs {
        match place_of_path(&path) {
            Err(m) => bad.push(format!("{}:{line}: `{text}`: {m}", rel.display())),
            Ok(None) => {}
            Ok(Some(to)) => {
                if let Some(why) = violation(&from, &to, stem) {
                    bad.push(format!("{}:{line}: `{text}`: {why}", rel.display()));
                }
                let at = format!("{}:{line}", rel.display());
                if from.module != to.module && from.layer == to.layer {
                    edges.push((from.module.clone(), to.module.clone(), at));
                } else if from.module == to.module && from.sub == to.sub {
                    let (Some(a), Some(b)) = (stem, path.get(1)) else {
                        continue;
                    };
                    if a != b && is_file(&from.module, b) {
                        let m = &from.module;
                        edges.push((format!("{m}/{a}"), format!("{m}/{b}"), at));
                    }
                }
            }
        }
    }
    (bad, n, edges)
}

/// Every cycle among `edges` (a strongly connected component of two or more nodes), named with
/// its nodes and the imports that close it.
fn cycles(edges: &[Edge]) -> Vec<String> {
    let mut nodes: Vec<&str> = edges
        .iter()
        .flat_map(|(a, b, _)| [a.as_str(), b.as_str()])
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let id = |n: &str| nodes.binary_search(&n).unwrap();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (a, b, _) in edges {
        next[id(a)].push(id(b));
    }
    // Reachability by depth-first search from every node (the graphs are a few dozen nodes).
    let reach = |from: usize| {
        let mut seen = vec![false; nodes.len()];
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for &m in &next[n] {
                if !seen[m] {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        seen
    };
    let reaches: Vec<Vec<bool>> = (0..nodes.len()).map(reach).collect();
    let mut done = vec![false; nodes.len()];
    let mut out = Vec::new();
    for i in 0..nodes.len() {
        if done[i] || !reaches[i][i] {
            continue;
        }
        let scc: Vec<usize> = (0..nodes.len())
            .filter(|&j| reaches[i][j] && reaches[j][i])
            .collect();
        for &j in &scc {
            done[j] = true;
        }
        let names: Vec<&str> = scc.iter().map(|&j| nodes[j]).collect();
        let closing: Vec<String> = edges
            .iter()
            .filter(|(a, b, _)| names.contains(&a.as_str()) && names.contains(&b.as_str()))
            .map(|(a, b, at)| format!("{a} → {b} ({at})"))
            .collect();
        out.push(format!(
            "import cycle among {}: {}",
            names.join(", "),
            closing.join("; ")
        ));
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn imports_run_one_way() {
    // TESSERA_LAYERING_SRC checks another tree (e.g. an older checkout's `crates/tessera/src`).
    let src = std::env::var_os("TESSERA_LAYERING_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut bad = Vec::new();
    let mut checked = 0;
    let mut per_module: BTreeMap<String, usize> = BTreeMap::new();
    let mut stems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let path = module_path(f.strip_prefix(&src).unwrap());
        if let [m, stem, ..] = &path[..] {
            stems.entry(m.clone()).or_default().push(stem.clone());
        }
    }
    let mut edges = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let text = fs::read_to_string(f).unwrap();
        if let Some(m) = module_path(rel).first() {
            *per_module.entry(m.clone()).or_default() += 1;
        }
        let (b, n, e) = check_file_edges(rel, &text, &stems);
        bad.extend(b);
        checked += n;
        edges.extend(e);
    }
    // Inside a layer or a sub-layer imports may go either way, but never round in a cycle.
    bad.extend(cycles(&edges));
    // The extractor sees the tree's imports (about 370 references today).
    assert!(checked > 250, "only {checked} references found");
    // Every top-level module of the tree has a layer (a new one must be placed explicitly).
    for m in per_module.keys() {
        assert!(layer_of(m).is_some(), "module `{m}` has no layer in LAYERS");
    }
    assert!(
        bad.is_empty(),
        "{} import(s) run back up the layer order:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn a_wrong_import_is_named() {
    // Upward across modules, in a `use` group, inline, and through `super::`.
    let up = check_file(
        Path::new("layout/mod.rs"),
        "use crate::{error::Error, algebra::coalesce};\nfn f() { crate::notation::eval(\"x\"); }\n",
    );
    assert_eq!(up.len(), 2, "{up:?}");
    assert!(up[0].starts_with("layout/mod.rs:1: `crate::{error::Error, algebra::coalesce}"));
    assert!(up[0].contains("`layout` (layer 1) imports `algebra` (layer 3)"));
    assert!(up[1].starts_with("layout/mod.rs:2: `crate::notation::eval"));
    let inner = check_file(
        Path::new("tma/rules.rs"),
        "use super::suggest::{suggest, Suggestion};\n",
    );
    assert_eq!(inner.len(), 1, "{inner:?}");
    assert!(inner[0].contains("inside `tma`, `rules` (inner layer 1) imports inner layer 2"));
    let same = check_file(Path::new("banks/mod.rs"), "use crate::tma::Request;\n");
    assert!(same[0].contains("imports `tma` (layer 9)"), "{same:?}");
    let root = check_file(Path::new("algebra/mod.rs"), "fn f(_: crate::Nope) {}\n");
    assert!(root[0].contains("neither a layered module"), "{root:?}");
    // Not imports: comments, doc links, strings, test modules, downward.
    let fine = check_file(
        Path::new("algebra/coalesce.rs"),
        "//! see [`crate::render`]\n/* crate::tma */\nconst S: &str = \"crate::domain\";\n\
         use crate::layout::Layout;\nuse crate::Error;\n#[cfg(test)]\nmod tests {\n    use crate::notation::eval;\n}\n",
    );
    assert!(fine.is_empty(), "{fine:?}");
    // `error` is the bottom: it may not name a layout (the cycle error ⇄ layout is gone).
    let bottom = check_file(Path::new("error/mod.rs"), "use crate::layout::Value;\n");
    assert!(
        bottom[0].contains("`error` (layer 0) imports `layout` (layer 1)"),
        "{bottom:?}"
    );
    let leaf = check_file(Path::new("target/arch.rs"), "use crate::layout::Layout;\n");
    assert_eq!(leaf.len(), 1, "{leaf:?}");
}

#[test]
fn a_cycle_inside_a_layer_is_named() {
    let stems: BTreeMap<String, Vec<String>> = [(
        "algebra".to_string(),
        vec!["composition".to_string(), "decide".to_string()],
    )]
    .into();
    // Two files of one sub-layer importing each other (as composition ⇄ decide once did).
    let (bad, _, mut edges) = check_file_edges(
        Path::new("algebra/composition.rs"),
        "use super::decide::Decision;\nuse super::Tiler;\n",
        &stems,
    );
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(edges.len(), 1, "{edges:?}"); // `super::Tiler` is not a file
    let (_, _, e) = check_file_edges(
        Path::new("algebra/decide.rs"),
        "fn f() { crate::algebra::composition::admissible(); }\n",
        &stems,
    );
    edges.extend(e);
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("algebra/composition, algebra/decide")
            && found[0].contains("algebra/composition.rs:1")
            && found[0].contains("algebra/decide.rs:1"),
        "{found:?}"
    );
    // One way only is fine.
    assert!(cycles(&edges[..1]).is_empty());
    // Files of a module without an inner order.
    let stems: BTreeMap<String, Vec<String>> = [(
        "domain".to_string(),
        vec!["ir".to_string(), "eval".to_string()],
    )]
    .into();
    let (_, _, mut edges) =
        check_file_edges(Path::new("domain/ir.rs"), "use super::eval::run;\n", &stems);
    edges.extend(check_file_edges(Path::new("domain/eval.rs"), "use super::ir::Ir;\n", &stems).2);
    assert_eq!(cycles(&edges).len(), 1, "{edges:?}");
    // Modules of one layer: a cycle of three.
    let e = |a: &str, b: &str| (a.to_string(), b.to_string(), format!("{a}/mod.rs:1"));
    let three = [e("x", "y"), e("y", "z"), e("z", "x"), e("z", "w")];
    let found = cycles(&three);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("import cycle among x, y, z:"),
        "{found:?}"
    );
}
