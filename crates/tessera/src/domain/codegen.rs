//! Code generation: the loop nest with its predicate, as Python and as CUDA C++.
//!
//! Both programs print the visited root indices in the same format: a single root prints one index
//! per line (the three-splits example's listing); several roots print `T[a, b]` items, one line per run of
//! the innermost loop (the split-then-merge and merge-then-split orders). Python's `//` and `%` are floor division,
//! which equals Euclidean division for the positive divisors used here; the C++ uses explicit
//! Euclidean helpers, since C++ `/` truncates (the seed's warning).

use super::error::{Error, Result};
use super::eval::{plan, Direction};
use super::ir::{Id, Schedule, Transform};
use super::symbolic::Extent;
use std::fmt::Write;

/// Target language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Python 3.
    Python,
    /// CUDA C++ (also compiles as host C++ with the stub `main`).
    Cuda,
}

/// Variable names for all IterDomains: `I3` becomes `i3` (as in the seed), other names `i_<name>`;
/// on any clash all names fall back to `i_<position>`.
///
/// Pre: none. Post: names are distinct valid identifiers in Python and C++.
/// Example: the three-splits example's `I0..I6` become `i0..i6`; `N0` becomes `i_N0`.
pub fn var_names(s: &Schedule) -> Vec<String> {
    let v: Vec<String> = s
        .ids
        .iter()
        .map(|d| {
            let n = &d.name;
            match n.strip_prefix('I') {
                Some(rest) if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) => {
                    format!("i{rest}")
                }
                _ => format!("i_{n}"),
            }
        })
        .collect();
    let mut sorted = v.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() == v.len() {
        v
    } else {
        (0..v.len()).map(|k| format!("i_{k}")).collect()
    }
}

/// Whether each index is provably non-negative at every loop point (so its lower bound check can
/// be omitted): loop indices are; a composition of non-negative indices is; Euclidean remainders
/// are; a Euclidean quotient of a non-negative index is; `in = out - left` is when `left <= 0`.
///
/// Pre: the loop domain determines every index. Post: `true` only for indices that are `>= 0` at
/// every loop point. Example: a left pad `resize X by 2, 0` makes `X` possibly negative.
pub fn nonnegative(s: &Schedule) -> Result<Vec<bool>> {
    let mut nn = vec![false; s.ids.len()];
    for l in s.loop_ids()? {
        nn[l] = true;
    }
    for st in plan(s)? {
        let back = st.direction == Direction::Backward;
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            } => {
                if back {
                    nn[input] = nn[outer] && nn[inner];
                } else {
                    nn[outer] = nn[input];
                    nn[inner] = true;
                }
            }
            Transform::Merge {
                outer,
                inner,
                output,
            } => {
                if back {
                    nn[outer] = nn[output];
                    nn[inner] = true;
                } else {
                    nn[output] = nn[outer] && nn[inner];
                }
            }
            Transform::Resize {
                input,
                output,
                left,
                ..
            } => {
                if back {
                    nn[input] = nn[output] && left <= 0;
                } else {
                    nn[output] = nn[input] && left >= 0;
                }
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                if back {
                    nn[x] = nn[out_x];
                    nn[y] = nn[out_x] && nn[out_y];
                } else {
                    nn[out_x] = nn[x];
                    nn[out_y] = nn[x] && nn[y];
                }
            }
        }
    }
    Ok(nn)
}

fn extent_code(e: &Extent, s: &Schedule, lang: Lang) -> String {
    match e {
        Extent::Const(c) => c.to_string(),
        Extent::Sym(n) => match s.facts.value(n) {
            Some(v) => v.to_string(),
            None => n.clone(),
        },
        Extent::Add(a, c) => format!("({} + {})", extent_code(a, s, lang), c),
        Extent::Plus(a, b) => format!(
            "({} + {})",
            extent_code(a, s, lang),
            extent_code(b, s, lang)
        ),
        Extent::Mul(a, b) => format!(
            "({} * {})",
            extent_code(a, s, lang),
            extent_code(b, s, lang)
        ),
        Extent::CeilDiv(a, c) => match lang {
            Lang::Python => format!("(-(-{} // {}))", extent_code(a, s, lang), c),
            Lang::Cuda => format!("tessera_cdiv({}, {})", extent_code(a, s, lang), c),
        },
    }
}

/// Unbound symbols, in order of first occurrence.
///
/// Pre: none. Post: symbols without an `==` fact. Example: `N0 = iter N` gives `["N"]`.
pub fn free_symbols(s: &Schedule) -> Vec<String> {
    let mut syms = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut here = Vec::new();
    for d in &s.ids {
        here.clear();
        d.extent.symbols(&mut here);
        for n in here.drain(..) {
            if seen.insert(n.clone()) {
                syms.push(n);
            }
        }
    }
    syms.retain(|n| s.facts.value(n).is_none());
    syms
}

/// The largest loop nest [`emit`] writes, counted as the bytes of its indentation (every line
/// inside `d` loops is indented `d` times, so the text grows as loops × lines: 50,000 loops of
/// extent 1 wrote 4.9 GB). 16 MiB: real nests have a handful of loops.
///
/// Pre/Post: past it [`emit`] returns [`Error::CodeTooLarge`] (code `too_large`) before writing.
/// Example: 100 loops and 200 index lines indent about 120 KB in Python.
pub const MAX_CODE_BYTES: u64 = 1 << 24;

/// Emits the loop nest of `s` guarded by "every IterDomain of `predicate` is in bound".
///
/// Pre: the loop domain determines every index; the indentation fits [`MAX_CODE_BYTES`] (else
/// [`Error::CodeTooLarge`]). Post: running the program (Python: `python3`;
/// C++: `g++ -x c++` then run, or `nvcc`) prints the root indices of every passing loop point in
/// loop order; unbound symbols are read from the command line in order of first occurrence.
/// Example: the three-splits example with predicate `{I0, I2}` prints `0` to `14`, one per line.
pub fn emit(s: &Schedule, predicate: &[Id], lang: Lang) -> Result<String> {
    let steps = plan(s)?;
    let loop_ids = s.loop_ids()?;
    let v = var_names(s);
    let nn = nonnegative(s)?;
    let roots = s.roots();
    let syms = free_symbols(s);
    let ext = |i: Id| extent_code(&s.ids[i].extent, s, lang);
    let mut body: Vec<String> = Vec::new();
    for st in &steps {
        let back = st.direction == Direction::Backward;
        let (div, rem) = match lang {
            Lang::Python => ("{a} // {b}", "{a} % {b}"),
            Lang::Cuda => ("tessera_ediv({a}, {b})", "tessera_emod({a}, {b})"),
        };
        let dv = |a: &str, b: &str| div.replace("{a}", a).replace("{b}", b);
        let md = |a: &str, b: &str| rem.replace("{a}", a).replace("{b}", b);
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            }
            | Transform::Merge {
                outer,
                inner,
                output: input,
            } => {
                let is_split = matches!(s.transforms[st.transform], Transform::Split { .. });
                let e = ext(inner);
                if back == is_split {
                    body.push(format!(
                        "{} = {} * {} + {}",
                        v[input], v[outer], e, v[inner]
                    ));
                } else {
                    body.push(format!("{} = {}", v[outer], dv(&v[input], &e)));
                    body.push(format!("{} = {}", v[inner], md(&v[input], &e)));
                }
            }
            Transform::Resize {
                input,
                output,
                left,
                ..
            } => {
                if back {
                    body.push(format!("{} = {} - ({})", v[input], v[output], left));
                } else {
                    body.push(format!("{} = {} + ({})", v[output], v[input], left));
                }
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                if back {
                    body.push(format!("{} = {}", v[x], v[out_x]));
                    body.push(format!("{} = {} ^ {}", v[y], v[out_x], v[out_y]));
                } else {
                    body.push(format!("{} = {}", v[out_x], v[x]));
                    body.push(format!("{} = {} ^ {}", v[out_y], v[x], v[y]));
                }
            }
        }
    }
    let width: u64 = match lang {
        Lang::Python => 4,
        Lang::Cuda => 2,
    };
    let lines = loop_ids.len() + body.len() + 6;
    let indent = (lines as u64)
        .saturating_mul(loop_ids.len() as u64 + 2)
        .saturating_mul(width);
    super::steps::tick(lines);
    if indent > MAX_CODE_BYTES {
        return Err(Error::CodeTooLarge {
            loops: loop_ids.len(),
            lines,
            bytes: indent,
            limit: MAX_CODE_BYTES,
        });
    }
    let conds: Vec<String> = predicate
        .iter()
        .map(|&i| match (lang, nn[i]) {
            (Lang::Python, true) => format!("{} < {}", v[i], ext(i)),
            (Lang::Python, false) => format!("0 <= {} < {}", v[i], ext(i)),
            (Lang::Cuda, true) => format!("{} < {}", v[i], ext(i)),
            (Lang::Cuda, false) => format!("(0 <= {} && {} < {})", v[i], v[i], ext(i)),
        })
        .collect();
    let names: Vec<&str> = predicate.iter().map(|&i| s.name(i)).collect();
    let loop_names: Vec<&str> = loop_ids.iter().map(|&i| s.name(i)).collect();
    let mut out = String::new();
    let single = roots.len() == 1;
    let n = loop_ids.len();
    match lang {
        Lang::Python => {
            let _ = writeln!(
                out,
                "# Generated by tessera: loop domain [{}].",
                loop_names.join(", ")
            );
            let _ = writeln!(
                out,
                "# Predicate: in-bound conditions of [{}].",
                names.join(", ")
            );
            if !syms.is_empty() {
                let _ = writeln!(out, "import sys");
                for (k, sy) in syms.iter().enumerate() {
                    let _ = writeln!(out, "{sy} = int(sys.argv[{}])", k + 1);
                }
            }
            let mut ind = String::new();
            for (k, &l) in loop_ids.iter().enumerate() {
                if k == n - 1 && !single {
                    let _ = writeln!(out, "{ind}row = []");
                }
                let _ = writeln!(out, "{ind}for {} in range({}):", v[l], ext(l));
                ind.push_str("    ");
            }
            for line in &body {
                let _ = writeln!(out, "{ind}{line}");
            }
            let print_ind = if conds.is_empty() {
                ind.clone()
            } else {
                let _ = writeln!(out, "{ind}if {}:", conds.join(" and "));
                format!("{ind}    ")
            };
            if single {
                let _ = writeln!(out, "{print_ind}print({})", v[roots[0]]);
            } else {
                let items: Vec<String> = roots.iter().map(|&r| format!("{{{}}}", v[r])).collect();
                let _ = writeln!(out, "{print_ind}row.append(f\"T[{}]\")", items.join(", "));
                let outer_ind = "    ".repeat(n - 1);
                let _ = writeln!(out, "{outer_ind}if row:");
                let _ = writeln!(out, "{outer_ind}    print(\", \".join(row))");
            }
        }
        Lang::Cuda => {
            let _ = writeln!(
                out,
                "// Generated by tessera: loop domain [{}].",
                loop_names.join(", ")
            );
            let _ = writeln!(
                out,
                "// Predicate: in-bound conditions of [{}].",
                names.join(", ")
            );
            out.push_str(CUDA_PRELUDE);
            let params: Vec<String> = syms.iter().map(|sy| format!("long long {sy}")).collect();
            let _ = writeln!(
                out,
                "__global__ void tessera_kernel({}) {{",
                if params.is_empty() {
                    "void".to_string()
                } else {
                    params.join(", ")
                }
            );
            let mut ind = String::from("  ");
            for (k, &l) in loop_ids.iter().enumerate() {
                if k == n - 1 && !single {
                    let _ = writeln!(out, "{ind}int first = 1;");
                }
                let _ = writeln!(
                    out,
                    "{ind}for (long long {x} = 0; {x} < {}; ++{x}) {{",
                    ext(l),
                    x = v[l]
                );
                ind.push_str("  ");
            }
            for line in &body {
                let _ = writeln!(out, "{ind}[[maybe_unused]] long long {line};");
            }
            let print_ind = if conds.is_empty() {
                ind.clone()
            } else {
                let _ = writeln!(out, "{ind}if ({}) {{", conds.join(" && "));
                format!("{ind}  ")
            };
            if single {
                let _ = writeln!(out, "{print_ind}printf(\"%lld\\n\", {});", v[roots[0]]);
            } else {
                let fmt: Vec<&str> = roots.iter().map(|_| "%lld").collect();
                let args: Vec<&str> = roots.iter().map(|&r| v[r].as_str()).collect();
                let _ = writeln!(
                    out,
                    "{print_ind}printf(\"%sT[{}]\", first ? \"\" : \", \", {});",
                    fmt.join(", "),
                    args.join(", ")
                );
                let _ = writeln!(out, "{print_ind}first = 0;");
            }
            if !conds.is_empty() {
                let _ = writeln!(out, "{ind}}}");
            }
            for k in (0..n).rev() {
                ind.truncate(ind.len() - 2);
                let _ = writeln!(out, "{ind}}}");
                if k == n - 1 && !single {
                    let _ = writeln!(out, "{ind}if (!first) printf(\"\\n\");");
                }
            }
            let _ = writeln!(out, "}}");
            let parse_args: String = syms
                .iter()
                .enumerate()
                .map(|(k, sy)| {
                    format!(
                        "  long long {sy} = argc > {a} ? atoll(argv[{a}]) : 0;\n  if ({sy} < 1) {{ fprintf(stderr, \"need {sy} >= 1 as argument {a}\\n\"); return 1; }}\n",
                        a = k + 1
                    )
                })
                .collect();
            let call_args = syms.join(", ");
            let _ = writeln!(out, "\nint main(int argc, char** argv) {{");
            let _ = writeln!(out, "  (void)argc; (void)argv;");
            out.push_str(&parse_args);
            let _ = writeln!(out, "#ifdef __CUDACC__");
            let _ = writeln!(out, "  tessera_kernel<<<1, 1>>>({call_args});");
            let _ = writeln!(
                out,
                "  if (cudaDeviceSynchronize() != cudaSuccess) return 1;"
            );
            let _ = writeln!(out, "#else");
            let _ = writeln!(out, "  tessera_kernel({call_args});");
            let _ = writeln!(out, "#endif");
            let _ = writeln!(out, "  return 0;\n}}");
        }
    }
    Ok(out)
}

const CUDA_PRELUDE: &str = r#"#include <cstdio>
#include <cstdlib>
#ifdef __CUDACC__
#define TESSERA_HD __host__ __device__
#else
// Host stub: the kernel runs as an ordinary function where no GPU (or nvcc) exists.
#define TESSERA_HD
#define __global__
#endif
// Euclidean division and remainder (C++ `/` and `%` truncate; the theorems need Euclid).
TESSERA_HD inline long long tessera_ediv(long long a, long long b) {
  long long q = a / b, r = a % b;
  if (r < 0) q += (b > 0) ? -1 : 1;
  return q;
}
TESSERA_HD inline long long tessera_emod(long long a, long long b) {
  long long r = a % b;
  if (r < 0) r += (b > 0) ? b : -b;
  return r;
}
TESSERA_HD inline long long tessera_cdiv(long long a, long long b) { return -tessera_ediv(-a, b); }
"#;
