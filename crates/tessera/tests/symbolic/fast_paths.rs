//! The closed forms of the symbolic algebra against its general path: on random cases with
//! random facts (and guards already gathered), `logical_divide` (which divides a leaf mode by a
//! compact constant tile `t:1` in closed form) gives exactly what
//! `logical_divide_general` (always `A ∘ (T, complement(T, size(A)))`) gives, and `local_tile`
//! (whose closed form skips the divide's tree) exactly what `local_tile_general` (the tile and
//! rest of that general divide) gives: the same result, the same guards in the same order, the
//! same facts after, or the same error.

use super::symbolic_instantiation::{facts, shape_leaf, Rng, NAMES};
use tessera::symbolic::expr::Item;
use tessera::symbolic::layout::Node;
use tessera::symbolic::ops::{self, parse_tiler, Tiler};
use tessera::symbolic::{parse_expr, Ctx, Facts, Guard, Pred, SymError, SymLayout};

const BIG: &str = "9223372036854775807";

/// A shape leaf: mostly the instantiation tests' leaves, sometimes an edge (0, negative, a
/// product, a quotient, a huge constant).
fn shape(r: &mut Rng) -> String {
    if r.chance(80) {
        return shape_leaf(r, &NAMES);
    }
    r.pick(&[
        "0",
        "-M",
        "M*K",
        "ceil_div(M,3)",
        "K%8",
        BIG,
        "M+1",
        "100",
        "1",
    ])
    .to_string()
}

fn stride(r: &mut Rng) -> String {
    r.pick(&[
        "1", "1", "0", "2", "K", "2*M", "-1", "M*K", "K/2", "128*K", "N+1", BIG, "M",
    ])
    .to_string()
}

/// A layout of rank 1..=3 whose modes are leaves or (20 %) pairs, with its rank.
fn layout(r: &mut Rng) -> (String, usize) {
    let rank = 1 + r.below(3);
    let (mut ss, mut ds) = (Vec::new(), Vec::new());
    for _ in 0..rank {
        if r.chance(20) {
            ss.push(format!("({},{})", shape(r), shape(r)));
            ds.push(format!("({},{})", stride(r), stride(r)));
        } else {
            ss.push(shape(r));
            ds.push(stride(r));
        }
    }
    let text = if rank == 1 && r.chance(50) {
        format!("{}:{}", ss[0], ds[0])
    } else {
        format!("({}):({})", ss.join(","), ds.join(","))
    };
    (text, rank)
}

/// A tiler mode: mostly a compact constant tile (of every size class, the edges of the closed
/// form's domain included), else a strided or symbolic tile, `_`, or a rank-2 tile.
fn tile(r: &mut Rng) -> String {
    match r.below(10) {
        0..=6 => r
            .pick(&[
                "1",
                "2",
                "3",
                "4",
                "8",
                "16",
                "64",
                "64",
                "128",
                "128",
                "1099511627776",
                "1099511627777",
                BIG,
            ])
            .to_string(),
        7 => format!(
            "{}:{}",
            r.pick(&["2", "4", "128"]),
            r.pick(&["2", "0", "K"])
        ),
        8 => r.pick(&["T", "T:1", "4:1", "_"]).to_string(),
        _ => "(2,4):(1,2)".to_string(),
    }
}

/// A tiler for a layout of rank `rank`: one tile (10 %), or a tuple of at most `rank` tiles
/// (sometimes one more, which the divide refuses).
fn tiler(r: &mut Rng, rank: usize) -> String {
    if r.chance(10) {
        return tile(r);
    }
    let n = 1 + r.below(rank) + usize::from(r.chance(5));
    let ts: Vec<String> = (0..n).map(|_| tile(r)).collect();
    format!("({})", ts.join(","))
}

/// Whether some mode takes the closed form (a leaf mode by a compact tile `2 <= t <= 2^40`).
fn takes_closed_form(a: &Node, t: &Tiler) -> bool {
    match (a, t) {
        (Node::Leaf(..), Tiler::Layout(l)) => match &l.root {
            Node::Leaf(s, d) => {
                d.as_const() == Some(1) && s.as_const().is_some_and(|s| (2..=1 << 40).contains(&s))
            }
            _ => false,
        },
        (_, Tiler::Tuple(ts)) => {
            let modes: Vec<&Node> = match a {
                Node::Tuple(ms) => ms.iter().collect(),
                leaf => vec![leaf],
            };
            ts.iter().zip(modes).any(|(ti, m)| takes_closed_form(m, ti))
        }
        _ => false,
    }
}

/// Guards already gathered before the operation, sometimes (a guard changes how conditions are
/// decided): one on `first` (a name of the case), one with a quotient, or none.
fn prior_guards(r: &mut Rng, first: &str) -> Vec<Pred> {
    match r.below(4) {
        0 => vec![Pred::ge(
            parse_expr(first).unwrap(),
            parse_expr(if first == "N" { "5" } else { "2" }).unwrap(),
        )],
        1 => vec![Pred::ge(
            parse_expr("M*K").unwrap(),
            parse_expr("ceil_div(M,128)").unwrap(),
        )],
        _ => vec![],
    }
}

/// What one run leaves: the result, the guards, the facts after.
type Run<T> = (Result<T, SymError>, Vec<Guard>, Facts);

/// `op` run on a fresh context over `f` after `pre` is required: the closed form (`false`)
/// and the general path (`true`), which must leave the same result, guards and facts.
fn both_paths<T: PartialEq + std::fmt::Debug>(
    f: &Facts,
    pre: &[Pred],
    what: &str,
    op: impl Fn(&mut Ctx, bool) -> Result<T, SymError>,
) -> Run<T> {
    let run = |general: bool| -> Run<T> {
        let mut ctx = Ctx::new(f.clone());
        for p in pre {
            let _ = ctx.require(p.clone(), "pre");
        }
        let out = op(&mut ctx, general);
        (out, ctx.guards.clone(), ctx.facts.clone())
    };
    let (fast, general) = (run(false), run(true));
    assert_eq!(fast.0, general.0, "{what}");
    assert_eq!(fast.1, general.1, "guards of {what}");
    assert!(fast.2 == general.2, "facts after {what}");
    fast
}

const EXTRA_FACTS: [&str; 7] = [
    "M == 100",
    "K <= 64",
    "M % 128 == 5",
    "T % 4 == 0",
    "N >= 1000",
    "M <= 128",
    "K == 2*N",
];

#[test]
fn the_closed_form_divide_agrees_with_the_general_path() {
    let mut r = Rng(0x5EED_FA57_0000_0001);
    let (mut cases, mut closed, mut errors, mut guarded) = (0usize, 0usize, 0usize, 0usize);
    while cases < 10_000 {
        let mut fs = facts(&mut r, &NAMES);
        for _ in 0..r.below(3) {
            fs.push(r.pick(&EXTRA_FACTS).to_string());
        }
        let Ok(f) = Facts::parse(&fs) else { continue };
        let (at, rank) = layout(&mut r);
        let tt = tiler(&mut r, rank);
        let (Ok(a), Ok(t)) = (at.parse::<SymLayout>(), parse_tiler(&tt)) else {
            continue;
        };
        let pre = prior_guards(&mut r, "N");
        let fast = both_paths(&f, &pre, &format!("{at} by {tt} under {fs:?}"), |ctx, g| {
            if g {
                ops::logical_divide_general(ctx, &a, &t)
            } else {
                ops::logical_divide(ctx, &a, &t)
            }
        });
        cases += 1;
        closed += usize::from(takes_closed_form(&a.root, &t));
        errors += usize::from(fast.0.is_err());
        guarded += usize::from(fast.1.len() > pre.len());
    }
    eprintln!("{cases} cases: {closed} took the closed form, {errors} errors, {guarded} guarded");
    // Most cases take the closed form somewhere; some fail, some are guarded.
    assert!(closed > 3_500, "{closed} of {cases} took the closed form");
    assert!(
        errors > 100 && guarded > 100,
        "{errors} errors, {guarded} guarded"
    );
}

/// A coordinate for `local_tile`, with its text: mostly one expression per mode (names,
/// constants, edges), sometimes a single expression or a tuple of another rank.
fn coordinate(r: &mut Rng, rank: usize) -> (Item, String) {
    let one = |r: &mut Rng| {
        let t = if r.chance(80) {
            r.pick(&["bm", "bk", "bm", "bk", "0", "1"])
        } else {
            r.pick(&["3", "M", "K/64", "bm+1", "-1", "2*bk", BIG])
        };
        (Item::Expr(parse_expr(t).unwrap()), t.to_string())
    };
    let tuple = |r: &mut Rng, n: usize| {
        let (items, texts): (Vec<Item>, Vec<String>) = (0..n).map(|_| one(r)).unzip();
        (Item::Tuple(items), format!("({})", texts.join(",")))
    };
    match r.below(10) {
        0 => one(r),
        1 => {
            let n = 1 + r.below(rank + 1);
            tuple(r, n)
        }
        _ => tuple(r, rank),
    }
}

/// Whether `local_tile`'s closed form applies: every mode of A a leaf, tiled by a compact tile,
/// at a tuple of one expression per mode.
fn local_tile_closed_form(a: &Node, t: &Tiler, c: &Item) -> bool {
    let (Node::Tuple(ms), Tiler::Tuple(ts), Item::Tuple(cs)) = (a, t, c) else {
        return false;
    };
    ms.len() == ts.len()
        && cs.len() == ts.len()
        && cs.iter().all(|c| matches!(c, Item::Expr(_)))
        && ms
            .iter()
            .zip(ts)
            .all(|(m, t)| matches!(m, Node::Leaf(..)) && takes_closed_form(m, t))
}

#[test]
fn the_closed_form_local_tile_agrees_with_the_general_path() {
    let mut r = Rng(0x5EED_FA57_0000_0002);
    let (mut cases, mut closed, mut errors, mut guarded) = (0usize, 0usize, 0usize, 0usize);
    while cases < 10_000 {
        let mut fs = facts(&mut r, &NAMES);
        for _ in 0..r.below(3) {
            fs.push(r.pick(&EXTRA_FACTS).to_string());
        }
        if r.chance(30) {
            fs.push(
                r.pick(&["bm <= 3", "bk >= 1", "bm == 0", "bk <= 100"])
                    .to_string(),
            );
        }
        let Ok(f) = Facts::parse(&fs) else { continue };
        let (at, rank) = layout(&mut r);
        // (A rank-1 layout is a leaf, not the closed form's tuple: mostly drawn again.)
        if rank == 1 && r.chance(80) {
            continue;
        }
        // Mostly a tuple of compact tiles, one per mode (the closed form's domain).
        let tt = if r.chance(70) {
            let ts: Vec<String> = (0..rank)
                .map(|_| {
                    if r.chance(90) {
                        r.pick(&["2", "4", "8", "64", "128", "128", "1099511627776"])
                    } else {
                        r.pick(&["3", "1", "1099511627777"])
                    }
                    .to_string()
                })
                .collect();
            format!("({})", ts.join(","))
        } else {
            tiler(&mut r, rank)
        };
        let (c, ct) = coordinate(&mut r, rank);
        let (Ok(a), Ok(t)) = (at.parse::<SymLayout>(), parse_tiler(&tt)) else {
            continue;
        };
        let pre = prior_guards(&mut r, "bm");
        let what = format!("{at} by {tt} at {ct} under {fs:?}");
        let fast = both_paths(&f, &pre, &what, |ctx, g| {
            if g {
                ops::local_tile_general(ctx, &a, &t, &c)
            } else {
                ops::local_tile(ctx, &a, &t, &c)
            }
        });
        cases += 1;
        closed += usize::from(local_tile_closed_form(&a.root, &t, &c));
        errors += usize::from(fast.0.is_err());
        guarded += usize::from(fast.1.len() > pre.len());
    }
    eprintln!("{cases} cases: {closed} took the closed form, {errors} errors, {guarded} guarded");
    // (About a quarter take the closed form; the others, and the errors, check the fallback.)
    assert!(closed > 2_000, "{closed} of {cases} took the closed form");
    assert!(
        errors > 100 && guarded > 100,
        "{errors} errors, {guarded} guarded"
    );
}
