//! One operation, one registry row: an operation's form over runtime extents hangs off its row
//! of `tessera::notation::ops::OPS` (`Op::symbolic`, its argument kinds there), and the symbolic
//! language (`tessera eval --symbolic`, batch `"assume"`, Python `SymLayout`) reads that row and
//! nothing else. Every row that claims a symbolic form answers a sample call built from its
//! argument kinds (through its swizzled first argument too where the row lifts to the inner
//! layout); every row that does not is refused there.

use tessera::notation::ops::{Lift, SymKind, OPS};
use tessera::symbolic::eval;

const NO_FACTS: &[&str] = &[];

/// A sample argument of each kind (a second layout is an integer compact one: `local_partition`
/// takes only those as its thread layout).
fn sample(k: SymKind, first_layout: bool) -> &'static str {
    match k {
        SymKind::Layout if first_layout => "(M,4):(1,M)",
        SymKind::Layout => "(2,2):(1,2)",
        SymKind::Tiler => "(2,2)",
        SymKind::Extent => "4*M",
        SymKind::Index => "1",
        SymKind::Shape => "(4*M,8)",
        SymKind::Coord => "(1,0)",
        SymKind::SliceCoord => "(_,1)",
    }
}

/// The sample calls of a row's symbolic form: with the required arguments, and with all.
fn calls(name: &str, args: &[SymKind], required: usize, swizzled: bool) -> Vec<String> {
    let mut out = Vec::new();
    for n in [required, args.len()] {
        let mut seen_layout = false;
        let texts: Vec<String> = args[..n]
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let first = *k == SymKind::Layout && !seen_layout;
                seen_layout |= *k == SymKind::Layout;
                let t = sample(*k, first);
                if swizzled && i == 0 {
                    format!("Sw<1,2,3> o 0 o {t}")
                } else {
                    t.to_string()
                }
            })
            .collect();
        let call = format!("{name}({})", texts.join(","));
        if !out.contains(&call) {
            out.push(call);
        }
    }
    out
}

#[test]
fn every_row_claiming_a_symbolic_form_has_it() {
    let mut claimed = 0;
    for op in OPS {
        let Some(sym) = op.symbolic else {
            continue;
        };
        claimed += 1;
        assert!(
            sym.required >= 1 && sym.required <= sym.args.len(),
            "{}: required",
            op.name
        );
        for call in calls(op.name, sym.args, sym.required, false) {
            match eval(&call, NO_FACTS) {
                Ok(v) => assert!(!v.value.to_string().is_empty(), "{call}"),
                Err(e) => panic!("{call}: the row claims a symbolic form, but: {e}"),
            }
        }
        // A row lifted to the inner layout is lifted symbolically too.
        if matches!(op.lift, Lift::Inner(_)) && sym.args[0] == SymKind::Layout {
            for call in calls(op.name, sym.args, sym.required, true) {
                let v = eval(&call, NO_FACTS)
                    .unwrap_or_else(|e| panic!("{call}: the row lifts to the inner layout: {e}"));
                assert!(
                    v.value.to_string().starts_with("Sw<1,2,3>"),
                    "{call}: {}",
                    v.value
                );
            }
        }
    }
    assert!(claimed >= 30, "only {claimed} rows claim a symbolic form");
}

#[test]
fn a_row_without_a_symbolic_form_is_refused_there() {
    for op in OPS.iter().filter(|o| o.symbolic.is_none()) {
        let call = format!("{}((M,4):(1,M))", op.name);
        assert!(
            eval(&call, NO_FACTS).is_err(),
            "{call}: the row claims no symbolic form, but the symbolic language answers"
        );
    }
}
