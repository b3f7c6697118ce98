//! Proof obligations: the vocabulary, the `Divides` proof, diagnostics, the catalogue of codes
//! (`docs/errors.md`), and the property that no suggestion ever shown fails its own check.

use proptest::prelude::*;
use tessera::algebra::{self, complement1, complement1_with};
use tessera::notation::eval;
use tessera::obligation::catalogue::{self, Example, CATALOGUE};
use tessera::obligation::{Divides, Obligation};
use tessera::Error;

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/errors.md");

fn err(expr: &str) -> Error {
    match eval(expr) {
        Ok(v) => panic!("{expr}: expected an error, got {v}"),
        Err(e) => e,
    }
}

/// Every suggestion of `e` runs without error and is not the input itself.
fn suggestions_hold(input: &str, e: &Error) -> std::result::Result<(), TestCaseError> {
    for s in e.checked_suggestions() {
        prop_assert_ne!(s.expr.replace(' ', ""), input.replace(' ', ""));
        match eval(&s.expr) {
            Ok(v) => prop_assert_eq!(v.to_string(), s.value, "{}", s.expr),
            Err(f) => prop_assert!(false, "suggestion {} for {} fails: {}", s.expr, input, f),
        }
    }
    Ok(())
}

#[test]
fn seed_bad_tile_explains_and_suggests_nearest_first() {
    let e = err("complement1(128, 16, 2040)");
    assert_eq!(e.code(), "divisibility");
    assert_eq!(e.obligation().symbolic(), "N·d ∣ M");
    assert_eq!(e.obligation().to_string(), "128·16 ∣ 2040");
    assert_eq!(
        e.to_string(),
        "complement1: failed to discharge N·d ∣ M: 128·16 ∣ 2040 is false"
    );
    assert_eq!(
        e.notes()[0],
        "128·16 = 2048, and 2048 ∣ 2040 is false (2040 mod 2048 = 2040, so 2048 ∤ 2040)"
    );
    let s = e.checked_suggestions();
    assert!(s.len() >= 3, "{s:?}");
    assert_eq!(
        (s[0].label.as_str(), s[0].expr.as_str()),
        ("M = 2048", "complement1(128,16,2048)")
    );
    assert_eq!(
        (s[1].label.as_str(), s[1].expr.as_str()),
        ("M = 2032 with N = 127", "complement1(127,16,2032)")
    );
    assert_eq!(e.suggestions()[0], "complement1(128,16,2048)");
    // The library call (no expression language) suggests the same.
    let lib = complement1(128, 16, 2040).unwrap_err();
    assert_eq!(lib.suggestions(), e.suggestions());
}

#[test]
fn divides_proof_only_from_a_check() {
    let h = Divides::check(128 * 16, 4096).unwrap();
    assert_eq!((h.divisor(), h.dividend(), h.quotient()), (2048, 4096, 2));
    assert_eq!(
        complement1_with(128, 16, 4096, h).unwrap(),
        complement1(128, 16, 4096).unwrap()
    );
    let e = Divides::check(2048, 2040).unwrap_err();
    assert_eq!(e.code(), "divisibility");
    assert_eq!(e.obligation().to_string(), "2048 ∣ 2040");
    assert_eq!(
        Divides::check(0, 4).unwrap_err().code(),
        "non_positive_shape"
    );
    // A proof of another obligation is refused.
    let other = Divides::check(8, 16).unwrap();
    let e = complement1_with(4, 2, 24, other).unwrap_err();
    assert_eq!(e.code(), "proof_mismatch");
    assert_eq!(
        e.to_string(),
        "complement1_with: the proof given certifies 8 ∣ 16, but 4·2 ∣ 24 is needed"
    );
    assert_eq!(
        complement1_with(0, 2, 8, other).unwrap_err().code(),
        "non_positive_shape"
    );
}

/// The Complementation theorem's `goodTile`: the valid static tiling compiles (its obligation is evaluated in the
/// `const` item) and equals the runtime complement. The invalid ones are `tests/ui/*.rs`.
#[test]
fn seed_good_tile_compiles_and_matches_the_runtime_complement() {
    use tessera::obligation::static_check::Complement1;
    const TILE: Complement1<128, 16, 4096> = Complement1::new();
    assert_eq!(TILE.tiled().to_string(), "(128,16,2):(16,1,2048)");
    assert_eq!(TILE.complement(), complement1(128, 16, 4096).unwrap());
}

#[test]
fn composition_names_the_mode_and_suggests_tilers_that_compose() {
    let e = err("composition((4,6,8):(2,3,5),(2,6):(1,3))");
    assert_eq!(e.code(), "inadmissible_composition");
    match e.obligation() {
        Obligation::Admissible { mode, .. } => assert_eq!(mode, Some((1, "6:3".to_string()))),
        o => panic!("{o:?}"),
    }
    let s = e.suggestions();
    assert!(!s.is_empty());
    for x in &s {
        assert!(x.starts_with("composition((4,6,8):(2,3,5),"), "{x}");
        assert!(eval(x).is_ok());
    }
    // Directly from the library, too.
    let a = "(4,6,8):(2,3,5)".parse().unwrap();
    let b = "6:3".parse().unwrap();
    let e = algebra::composition(&a, &b).unwrap_err();
    assert!(!e.suggestions().is_empty());
}

#[test]
fn complement_suggests_dropping_or_restriding_the_colliding_mode() {
    let e = err("complement((2,2):(1,1))");
    assert_eq!(e.code(), "non_injective");
    let s = e.suggestions();
    assert!(s.contains(&"complement(2:1)".to_string()), "{s:?}");
    assert!(s.contains(&"complement((2,2):(1,2))".to_string()), "{s:?}");
    let e = err("complement_exact((2,2):(1,3))");
    assert_eq!(e.code(), "not_complementable");
    assert_eq!(e.obligation().to_string(), "2·1 ∣ 3");
    assert!(e
        .suggestions()
        .contains(&"complement_exact((2,2):(1,4))".to_string()));
    // Where CuTe's quotient is 0 the plain complement refuses too; its suggestions are tilings
    // (a suggestion whose evaluation records a note is not offered).
    let e = err("complement((2,2):(2,3))");
    assert_eq!(e.code(), "not_complementable");
    for x in e.suggestions() {
        let (v, notes) = tessera::notation::eval_noted(&x);
        assert!(v.is_ok() && notes.is_empty(), "{x}");
    }
}

#[test]
fn divides_and_products_suggest_tilers() {
    let e = err("logical_divide((3,5):(5,1),2:1)");
    assert_eq!(e.code(), "inadmissible_composition");
    let s = e.suggestions();
    assert!(!s.is_empty());
    // First the ragged form of the same divide (issue 12), then nearby tilers.
    assert_eq!(s[0], "ragged_logical_divide((3,5):(5,1),2:1)");
    assert!(
        s[1..]
            .iter()
            .all(|x| x.starts_with("logical_divide((3,5):(5,1),")),
        "{s:?}"
    );
    let e = err("tile_to_shape((2,5):(5,1),(8,21))");
    assert_eq!(e.code(), "divisibility");
    assert_eq!(e.obligation().to_string(), "5 ∣ 21");
    assert!(e
        .suggestions()
        .contains(&"tile_to_shape((2,5):(5,1),(8,20))".to_string()));
    let e = err("upcast((4,8):(1,6),4)");
    assert_eq!(e.code(), "divisibility");
    assert!(!e.suggestions().is_empty());
}

#[test]
fn every_error_has_an_obligation_and_a_code() {
    for e in catalogue::one_of_each() {
        let _ = e.obligation().to_string();
        let _ = e.obligation().symbolic();
        assert!(!e.code().is_empty());
    }
}

#[test]
fn catalogue_examples_produce_their_codes() {
    for entry in CATALOGUE {
        let e = catalogue::run_example(entry)
            .unwrap_or_else(|| panic!("{}: the example did not fail", entry.code));
        assert_eq!(e.code(), entry.code, "{:?}: {e}", entry.example);
    }
}

/// The catalogue, rendered as `docs/errors.md`.
fn render_docs() -> String {
    let mut s = String::from(
        "# Error codes\n\n\
         Every error Tessera returns names a failed obligation. `Error::code()` is one of the \
         codes below (stable: `tessera batch` reports it). `tessera explain CODE` prints an \
         entry and runs its example. This file is generated from \
         `crates/tessera/src/diagnostic/catalogue.rs` (a test checks that both agree and runs \
         every example; `TESSERA_BLESS=1 cargo test -p tessera --test repo obligations::` rewrites it).\n",
    );
    for e in CATALOGUE {
        s.push_str(&format!("\n## `{}`\n\n{}.\n\n", e.code, e.title));
        s.push_str(&format!("- obligation: {}\n", e.obligation));
        match e.example {
            Example::Expr(t) => s.push_str(&format!("- example: `tessera eval '{t}'`\n")),
            Example::Rust(t) | Example::Text(t) => {
                s.push_str(&format!("- example (Rust): `{t}`\n"))
            }
        }
        s.push_str(&format!("\n{}\n", e.explanation));
    }
    s.push_str(
        "\n# Notes\n\n\
         A note is a warning that travels with a *successful* result (`Note { code, op, \
         obligation, symbolic, message, hole }` in the library, `\"notes\"` of an `ok` answer \
         of `tessera batch`, a `warning[CODE]` on stderr for `tessera eval`). Its code is one \
         of these.\n",
    );
    for n in tessera::diagnostic::catalogue::NOTES {
        let (code, explanation) = (n.code, n.explanation);
        let Example::Expr(example) = n.example else {
            panic!("{code}: a note's example is an expression")
        };
        s.push_str(&format!(
            "\n## `{code}`\n\n- example: `tessera eval '{example}'`\n\n{explanation}\n"
        ));
    }
    s
}

#[test]
fn note_examples_produce_their_notes() {
    use tessera::diagnostic::Diagnose;
    for n in tessera::diagnostic::catalogue::NOTES {
        let Example::Expr(example) = n.example else {
            panic!("{}: a note's example is an expression", n.code)
        };
        let (v, notes) = tessera::notation::eval_noted(example);
        assert!(v.is_ok(), "{example}");
        assert_eq!(notes.len(), 1, "{example}");
        assert_eq!(notes[0].code, n.code);
        let d = notes[0].diagnostic();
        assert_eq!(d.severity, tessera::diagnostic::Severity::Note);
        assert_eq!(d.entry(), Some(n));
    }
}

#[test]
fn docs_list_every_code_with_its_example() {
    // The file's first part is generated from the catalogue; the second part (the codes of the
    // schedule engine, TMA rules, simplifier and CLI) is checked by the CLI's `tests/codes.rs`.
    const OTHER: &str = "\n# Codes of the schedule engine";
    let expected = render_docs();
    let current = std::fs::read_to_string(DOCS).expect("docs/errors.md exists");
    let tail = current.find(OTHER).map_or("", |k| &current[k..]);
    if std::env::var_os("TESSERA_BLESS").is_some() {
        std::fs::write(DOCS, format!("{expected}{tail}")).unwrap();
    }
    let docs = std::fs::read_to_string(DOCS).expect("docs/errors.md exists");
    let docs = docs.find(OTHER).map_or(docs.as_str(), |k| &docs[..k]);
    assert_eq!(
        docs, expected,
        "docs/errors.md is stale: rerun with TESSERA_BLESS=1"
    );
    // Every code of every variant is catalogued and documented, once.
    let all = catalogue::one_of_each();
    for (i, e) in all.iter().enumerate() {
        assert_eq!(catalogue::variant_index(e), i);
        assert!(
            docs.contains(&format!("## `{}`", e.code())),
            "{} undocumented",
            e.code()
        );
        assert_eq!(
            CATALOGUE.iter().filter(|c| c.code == e.code()).count(),
            1,
            "{}",
            e.code()
        );
    }
    assert_eq!(CATALOGUE.len(), all.len());
}

fn small_layout() -> impl Strategy<Value = String> {
    proptest::collection::vec((1i64..7, 0i64..13), 1..4).prop_map(|modes| {
        let s: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
        let d: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
        if modes.len() == 1 {
            format!("{}:{}", s[0], d[0])
        } else {
            format!("({}):({})", s.join(","), d.join(","))
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn complement1_suggestions_hold(n in 1i64..300, d in 1i64..40, m in 1i64..5000) {
        let input = format!("complement1({n},{d},{m})");
        if let Err(e) = eval(&input) {
            prop_assert_eq!(e.code(), "divisibility");
            prop_assert!(!e.suggestions().is_empty());
            suggestions_hold(&input, &e)?;
        }
    }

    #[test]
    fn composition_suggestions_hold(a in small_layout(), b in small_layout()) {
        let input = format!("composition({a},{b})");
        if let Err(e) = eval(&input) {
            suggestions_hold(&input, &e)?;
        }
    }

    #[test]
    fn complement_suggestions_hold(a in small_layout(), m in 1i64..64) {
        let input = format!("complement({a},{m})");
        if let Err(e) = eval(&input) {
            suggestions_hold(&input, &e)?;
        }
    }

    #[test]
    fn divide_and_product_suggestions_hold(
        a in small_layout(),
        b in small_layout(),
        op in prop::sample::select(vec![
            "logical_divide", "zipped_divide", "logical_product", "blocked_product",
            "raked_product", "tiled_product",
        ]),
    ) {
        let input = format!("{op}({a},{b})");
        if let Err(e) = eval(&input) {
            suggestions_hold(&input, &e)?;
        }
    }

    #[test]
    fn divides_suggestions_hold(a in 1i64..100, b in 1i64..1000) {
        if let Err(e) = Divides::check(a, b) {
            prop_assert!(!e.suggestions().is_empty());
            suggestions_hold(&format!("divides({a},{b})"), &e)?;
        }
        let input = format!("tile_to_shape(({a},2):(1,{a}),({b},4))");
        if let Err(e) = eval(&input) {
            suggestions_hold(&input, &e)?;
        }
        let input = format!("upcast(({a},4):(1,{b}),{})", a % 9 + 1);
        if let Err(e) = eval(&input) {
            suggestions_hold(&input, &e)?;
        }
    }
}

/// A deterministic sweep: many failing inputs, every suggestion shown holds, and most failures
/// get at least one suggestion.
#[test]
fn sweep_failing_inputs_suggestions_hold() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % k) as i64
    };
    let layout = |next: &mut dyn FnMut(u64) -> i64| {
        let r = 1 + next(3) as usize;
        let modes: Vec<(i64, i64)> = (0..r).map(|_| (1 + next(6), next(13))).collect();
        let s: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
        let d: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
        format!("({}):({})", s.join(","), d.join(","))
    };
    let (mut failed, mut helped) = (0, 0);
    for i in 0..300 {
        let a = layout(&mut next);
        let b = layout(&mut next);
        let input = match i % 5 {
            0 => format!("composition({a},{b})"),
            1 => format!("complement({a})"),
            2 => format!("logical_divide({a},{b})"),
            3 => format!("blocked_product({a},{b})"),
            _ => format!(
                "complement1({},{},{})",
                1 + next(50),
                1 + next(20),
                1 + next(900)
            ),
        };
        if let Err(e) = eval(&input) {
            failed += 1;
            let s = e.checked_suggestions();
            if !s.is_empty() {
                helped += 1;
            } else if std::env::var_os("SHOW_UNHELPED").is_some() {
                eprintln!("no suggestion: {input}: {e}");
            }
            for sug in s {
                let v = eval(&sug.expr)
                    .unwrap_or_else(|f| panic!("{input}: suggestion {} fails: {f}", sug.expr));
                assert_eq!(v.to_string(), sug.value);
            }
        }
    }
    assert!(failed >= 50, "only {failed} failures");
    assert!(
        helped * 10 >= failed * 8,
        "{helped} of {failed} failures got a suggestion"
    );
}

/// Suggestions are not searched for layouts past `MAX_SUGGEST_POINTS` (each candidate check may
/// enumerate): the fuzzer's slow unit, a divide by a 3.5M-point tiler, gets its error and no
/// suggestions instead of seconds of candidate checks.
#[test]
fn no_suggestion_search_past_the_point_bound() {
    let text = "logical_divide((4,(4,8)):(59,(13,1)),(2:3,(652,5364):(650,5368)))";
    let e = tessera::notation::eval(text).unwrap_err();
    assert_eq!(e.code(), "not_complementable");
    assert!(e.suggestions().is_empty());
    // Below the bound the search runs as before.
    let e = tessera::notation::eval("complement1(128,16,2040)").unwrap_err();
    assert!(!e.suggestions().is_empty());
    const { assert!(tessera::obligation::suggest::MAX_SUGGEST_POINTS < 1 << 22) };
}

#[test]
fn one_catalogue_for_docs_diagnostics_and_python() {
    use tessera::diagnostic::{catalogue, Diagnose};
    // docs/errors.md: a section for every code of the one catalogue, and no other section.
    let docs = std::fs::read_to_string(DOCS).expect("docs/errors.md exists");
    let headings: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("## `")?.strip_suffix('`'))
        .collect();
    for c in catalogue::all() {
        assert!(
            headings.contains(&c.code),
            "{} has no section in docs/errors.md",
            c.code
        );
    }
    for h in &headings {
        assert!(
            catalogue::lookup(h).is_some(),
            "docs/errors.md documents `{h}`, not catalogued"
        );
    }
    // Each section says what the catalogue says (the hand-written sections of the second part
    // too: their explanation is the catalogue's, word for word).
    let mut stale = Vec::new();
    for c in catalogue::all() {
        let start = docs
            .find(&format!("\n## `{}`\n", c.code))
            .expect("a section");
        let body = &docs[start + 1..];
        let body = &body[..body.find("\n## ").unwrap_or(body.len())];
        if !body.contains(c.explanation) {
            stale.push(format!("`{}`: {}", c.code, c.explanation));
        }
    }
    assert!(
        stale.is_empty(),
        "{} sections of docs/errors.md do not hold the catalogue's explanation word for word:\n{}",
        stale.len(),
        stale.join("\n")
    );
    // Every error of the algebra converts to a diagnostic of its catalogue entry.
    for e in tessera::obligation::catalogue::one_of_each() {
        let d = e.diagnostic();
        assert_eq!(d.code, e.code());
        assert_eq!(
            d.entry().map(|x| x.family),
            Some(catalogue::Family::Algebra)
        );
        assert_eq!(d.to_error_json()["code"], e.code());
    }
    // Python's exception classes (errors.py): each `code = "…"` is an algebra code of the
    // catalogue or one of the engine-wide classes, and each algebra code has its class.
    let py = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tessera-py/python/tessera/errors.py"
    ))
    .unwrap();
    let classes: Vec<&str> = py
        .lines()
        .filter_map(|l| l.trim().strip_prefix("code = \"")?.strip_suffix('"'))
        .collect();
    const ENGINES: &[&str] = &["error", "domain", "tma", "banks", "picture"];
    for c in &classes {
        let algebra = catalogue::ALGEBRA.iter().any(|e| e.code == *c);
        assert!(
            algebra || ENGINES.contains(c),
            "errors.py has a class for unknown `{c}`"
        );
    }
    for e in catalogue::ALGEBRA {
        assert!(
            classes.contains(&e.code),
            "errors.py has no class for `{}`",
            e.code
        );
    }
}
