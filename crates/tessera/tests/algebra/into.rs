//! The `_into` variants (which write into a caller's layout and are what `bench_corpus` times)
//! give exactly what the by-value functions give, whatever the output held before: fresh, a
//! previous small result, a spilled (> 16 leaves) layout, or the `1:0` left by an error.

use tessera::algebra::{self, Tiler};
use tessera::layout::IntTuple;
use tessera::notation;
use tessera::{Layout, Result};

const CASES: &str = include_str!("../../../../benches/corpus/cases.txt");

fn layout(text: &str) -> Layout {
    text.parse().unwrap()
}

fn tiler(text: &str) -> Tiler {
    notation::eval(text).unwrap().to_tiler().unwrap()
}

fn show(r: Result<Layout>) -> String {
    match r {
        Ok(l) => l.to_string(),
        Err(e) => format!("error {}", e.code()),
    }
}

fn show_into(r: Result<()>, out: &Layout) -> String {
    match r {
        Ok(()) => out.to_string(),
        Err(e) => {
            // On error the output is reset to `1:0`, never left half-written.
            assert_eq!(out.to_string(), "1:0");
            format!("error {}", e.code())
        }
    }
}

/// Runs one corpus line by value and into `out`.
fn both(line: &str, out: &mut Layout) -> (String, String) {
    let f: Vec<&str> = line.split('\t').collect();
    let a = layout(f[2]);
    match f[0] {
        "coalesce" => (
            show(algebra::coalesce(&a)),
            show_into(algebra::coalesce_into(&a, out), out),
        ),
        "right_inverse" => (
            show(algebra::right_inverse(&a)),
            show_into(algebra::right_inverse_into(&a, out), out),
        ),
        "left_inverse" => (
            show(algebra::left_inverse(&a)),
            show_into(algebra::left_inverse_into(&a, out), out),
        ),
        "composition" => {
            let b = layout(f[3]);
            (
                show(algebra::composition(&a, &b)),
                show_into(algebra::composition_into(&a, &b, out), out),
            )
        }
        "complement" => {
            let m = IntTuple::leaf(f[3].parse().unwrap());
            (
                show(algebra::complement(&a, &m)),
                show_into(algebra::complement_into(&a, &m, out), out),
            )
        }
        "logical_divide" => {
            let t = tiler(f[3]);
            (
                show(algebra::logical_divide(&a, &t)),
                show_into(algebra::logical_divide_into(&a, &t, out), out),
            )
        }
        "logical_product" => {
            let t = tiler(f[3]);
            (
                show(algebra::logical_product(&a, &t)),
                show_into(algebra::logical_product_into(&a, &t, out), out),
            )
        }
        op => panic!("unknown op {op}"),
    }
}

#[test]
fn into_variants_match_by_value_on_the_corpus_with_a_reused_output() {
    let spilled = layout(
        "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288)",
    );
    let mut reused = Layout::default();
    let mut n = 0;
    for line in CASES.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (by_value, into_reused) = both(line, &mut reused);
        assert_eq!(by_value, into_reused, "{line} (reused output)");
        let mut big = spilled.clone();
        let (_, into_spilled) = both(line, &mut big);
        assert_eq!(by_value, into_spilled, "{line} (spilled output)");
        n += 1;
    }
    assert!(n > 600, "corpus read ({n} cases)");
}

#[test]
fn into_variants_handle_layouts_past_the_inline_capacity() {
    // 20 leaves: the storage spills to the heap; results must not depend on it.
    let a = layout(
        "((2,2,2,2,2),(2,2,2,2,2),(2,2,2,2,2),(2,2,2,2,2)):((1,2,4,8,16),(32,64,128,256,512),(1024,2048,4096,8192,16384),(32768,65536,131072,262144,524288))",
    );
    let mut out = Layout::default();
    algebra::coalesce_into(&a, &mut out).unwrap();
    assert_eq!(out.to_string(), "1048576:1");
    algebra::composition_into(&a, &a, &mut out).unwrap();
    assert_eq!(
        out.to_string(),
        algebra::composition(&a, &a).unwrap().to_string()
    );
    assert_eq!(out.leaves().count(), 20);
    let t = Tiler::Layout(layout("(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536)"));
    algebra::logical_divide_into(&a, &t, &mut out).unwrap();
    assert_eq!(
        out.to_string(),
        algebra::logical_divide(&a, &t).unwrap().to_string()
    );
    algebra::right_inverse_into(&a, &mut out).unwrap();
    assert_eq!(out.to_string(), "1048576:1");
}

#[test]
fn complement_into_resets_the_output_on_an_invalid_cotarget() {
    // The documented contract of every `_into`: on error `out` is `1:0`, also when the error
    // is the cotarget's (a leaf below 1), which is checked before any work.
    let a = layout("(2,2):(1,6)");
    let mut out = Layout::default();
    algebra::complement_into(&a, &"24".parse::<IntTuple>().unwrap(), &mut out).unwrap();
    assert_eq!(out.to_string(), "(3,2):(2,12)");
    for bad in ["0", "(4,0)", "-3"] {
        let ct: IntTuple = bad.parse().unwrap();
        let r = algebra::complement_into(&a, &ct, &mut out);
        assert!(r.is_err(), "cotarget {bad}");
        assert_eq!(out.to_string(), "1:0", "cotarget {bad}");
        out = algebra::complement(&a, &"24".parse::<IntTuple>().unwrap()).unwrap();
    }
}
