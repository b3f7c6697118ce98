//! Structure-aware schedules (splits and merges over one or two small roots) checked against
//! brute-force enumeration: the closed-form hole-freedom agrees with the enumerated hole count,
//! and our predicate is equivalent to "no hole".
//!
//! Shared by the fuzz target `fuzz_targets/schedule_enum.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera/tests/algebra/fuzz_regressions.rs`).
use arbitrary::Arbitrary;
use tessera::domain::eval::{check_predicate, count, Space};
use tessera::domain::predicate::{derive, derive_by_theorems_assuming};
use tessera::domain::{parse, Decision};

#[derive(Arbitrary, Debug)]
pub struct Input {
    roots: Vec<u8>,
    ops: Vec<(bool, u8, u8, u8)>,
}

/// The checks of one input.
pub fn check(i: Input) {
    if i.roots.is_empty() || i.roots.len() > 2 || i.ops.len() > 5 {
        return;
    }
    let mut text = String::new();
    let mut live = Vec::new();
    for (k, e) in i.roots.iter().enumerate() {
        text.push_str(&format!("R{k} = iter {}\n", e % 12 + 1));
        live.push(format!("R{k}"));
    }
    for (k, &(merge, x, y, f)) in i.ops.iter().enumerate() {
        if merge && live.len() >= 2 {
            let a = live.remove(usize::from(x) % live.len());
            let b = live.remove(usize::from(y) % live.len());
            text.push_str(&format!("M{k} = merge {a}, {b}\n"));
            live.push(format!("M{k}"));
        } else {
            let a = live.remove(usize::from(x) % live.len());
            text.push_str(&format!("O{k}, N{k} = split {a} by {}\n", f % 5 + 1));
            live.push(format!("O{k}"));
            live.push(format!("N{k}"));
        }
    }
    let s = parse(&text).expect("generated schedules parse");
    let Ok(sp) = Space::new(&s) else { return };
    let c = count(&sp).unwrap();
    let theorems = derive_by_theorems_assuming(&s, &[]).unwrap();
    let closed = tessera::domain::report::hole_free_closed_form(&s, &theorems).unwrap();
    let want = if c.holes == 0 {
        Decision::Yes
    } else {
        Decision::No
    };
    assert_eq!(closed, want, "{text}");
    let d = derive(&s).unwrap();
    assert!(
        check_predicate(&sp, &d.chosen).unwrap().equivalent,
        "{text}"
    );
}
