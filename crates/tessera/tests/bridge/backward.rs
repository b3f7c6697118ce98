//! The bridge for `terms` and `Space::propagate` (issue 28, item 3): Rust's `plan`, `terms`
//! (`domain/equiv.rs`, through its test hook `terms_bridge`), the IR's extents and
//! `Space::propagate` against the extracted `plan`, `rterms`, `rext` and `rpropagate` of
//! `proofs/BackwardRust.v`, where `rust_backward_consistent` proves that whenever `rterms` gives
//! terms, the indices `rpropagate` computes from a loop point are the backward map of the loop
//! terms at that point (`consistent` of `proofs/NormalizeBackward.v`).

use tessera::domain::equiv::{terms_bridge, BridgeTerm};
use tessera::domain::eval::{plan, Direction, Space};
use tessera::domain::{Error, Extent, Fact, Schedule, SplitKind, Transform};

use super::{compare, random_schedule, term_request, Rng, CASES};

/// A chain of `rounds` "split by 2, merge the two outputs back" on one root: the term of the
/// last merge has `2^(rounds+2) - 3` nodes, past `MAX_TERM_NODES` (1024) from 9 rounds on.
fn doubling_schedule(rng: &mut Rng, rounds: usize) -> Schedule {
    let mut s = Schedule::new();
    let mut x = s.iter("R0", Extent::Const(rng.range(1, 12))).expect("root");
    for j in 0..rounds {
        let (o, i) = s
            .split(x, 2, SplitKind::Inner, &format!("T{j}a"), &format!("T{j}b"))
            .expect("split");
        x = s.merge(o, i, &format!("T{j}c")).expect("merge");
    }
    s.loop_domain = Some(s.leaves());
    s
}

/// `main.ml`'s `X` request for `s` (symbols bound), without the start vector.
fn schedule_request(s: &Schedule, exts: &[i64]) -> String {
    let mut req = format!("X {}", exts.len());
    for e in exts {
        req.push_str(&format!(" {e}"));
    }
    req.push_str(&format!(" {}", s.transforms.len()));
    for t in &s.transforms {
        req.push_str(&match *t {
            Transform::Split {
                input,
                outer,
                inner,
                factor,
                kind,
            } => format!(
                " 0 {input} {outer} {inner} {factor} {}",
                u8::from(kind == SplitKind::Outer)
            ),
            Transform::Merge {
                outer,
                inner,
                output,
            } => format!(" 1 {outer} {inner} {output}"),
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => format!(" 2 {input} {output} {left} {right}"),
            Transform::Swizzle { x, y, out_x, out_y } => {
                format!(" 3 {x} {y} {out_x} {out_y}")
            }
        });
    }
    let l = s.loop_domain.clone().unwrap_or_default();
    req.push_str(&format!(" {}", l.len()));
    for i in l {
        req.push_str(&format!(" {i}"));
    }
    req
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
}

/// Random schedules (`random_schedule`, up to 8 transforms, 1 in 40 a chain of 7 to 10
/// split-merge rounds that crosses `MAX_TERM_NODES`), symbols bound to 1..=12. For each: Rust's
/// `plan` (its steps and directions, or which error) must be the extracted `plan`; `terms` must
/// be `rterms` (`None` in the same cases, else the same term for every IterDomain); and when
/// `Space::new` accepts the schedule, the IR's extents must be `rext` and `Space::propagate` from
/// a start vector holding a random loop point (inside the box, holes included, or 1 in 8 outside
/// it) and garbage elsewhere must compute every index `rpropagate` does. The counts of each
/// outcome are asserted, so the generator keeps reaching all of them.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn terms_and_propagate_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x7E2A_5B4C_4B00);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    // plan errors, terms None after a plan, terms Some, propagated, root index a hole
    let mut counts = [0usize; 5];
    let mut too_large = 0;
    // terms None because of a forward step, an IterDomain used twice
    let (mut forward, mut twice) = (0, 0);
    while requests.len() < CASES {
        let mut s = if rng.range(0, 39) == 0 {
            let rounds = rng.range(7, 10) as usize;
            too_large += usize::from(rounds >= 9);
            doubling_schedule(&mut rng, rounds)
        } else {
            random_schedule(&mut rng, 8)
        };
        for k in 0..3 {
            let _ = s.assume(Fact::Equals(format!("S{k}"), rng.range(1, 12)));
        }
        let Ok(exts) = s.concrete_extents() else {
            continue;
        };
        let mut req = schedule_request(&s, &exts);
        let p = match plan(&s) {
            Ok(steps) => steps
                .iter()
                .map(|st| {
                    format!(
                        "{}:{}",
                        st.transform,
                        u8::from(st.direction == Direction::Backward)
                    )
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(Error::Overdetermined { index, .. }) => format!("EO {index}"),
            Err(Error::Undetermined(name)) => format!("EU {}", s.id(&name).expect("named id")),
            Err(_) => "EV".to_string(),
        };
        let ts = match terms_bridge(&s) {
            Ok(Some(ts)) => {
                counts[2] += 1;
                ts.iter()
                    .map(|t: &BridgeTerm| {
                        let mut out = String::new();
                        term_request(t, &mut out);
                        out.trim_start().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(" ; ")
            }
            Ok(None) => {
                counts[1] += 1;
                let steps = plan(&s).expect("terms ran the plan");
                if steps.iter().any(|st| st.direction == Direction::Forward) {
                    forward += 1;
                } else {
                    let mut uses = vec![0; s.ids.len()];
                    s.transforms
                        .iter()
                        .flat_map(Transform::inputs)
                        .for_each(|i| uses[i] += 1);
                    twice += usize::from(uses.iter().any(|&u| u > 1));
                }
                "-".to_string()
            }
            Err(_) => {
                counts[0] += 1;
                "-".to_string()
            }
        };
        let vals = match Space::new(&s) {
            Ok(space) => {
                counts[3] += 1;
                let mut idx: Vec<i64> = (0..exts.len()).map(|_| rng.range(-50, 50)).collect();
                let outside = rng.range(0, 7) == 0;
                for &l in &space.loop_ids {
                    let e = space.extents[l];
                    idx[l] = if outside {
                        rng.range(-3, e + 3)
                    } else {
                        rng.range(0, e - 1)
                    };
                }
                req.push_str(&format!(" 1 {}", join(&idx)));
                space.propagate(&mut idx).expect("small indices");
                if !outside
                    && space
                        .schedule
                        .roots()
                        .iter()
                        .any(|&r| !space.in_bound(&idx, r))
                {
                    counts[4] += 1;
                }
                format!("{} {}", join(&space.extents), join(&idx))
            }
            Err(_) => {
                req.push_str(" 0");
                "-".to_string()
            }
        };
        requests.push(req);
        rust.push(format!("{p} | {ts} | {vals}"));
    }
    eprintln!(
        "terms/propagate: plan errors {}, terms None {}, terms Some {}, propagated {} \
         (a root index out of bound at {} in-box points); None for a forward step {forward}, \
         an IterDomain used twice {twice}, doubling chains past the limit {too_large}",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    for (k, what) in ["plan errors", "None", "Some", "propagated", "holes"]
        .iter()
        .enumerate()
    {
        assert!(
            counts[k] >= CASES / 50,
            "too few cases with {what}: {}",
            counts[k]
        );
    }
    assert!(
        too_large >= CASES / 200,
        "too few terms past MAX_TERM_NODES"
    );
    // An IterDomain used twice never reaches `terms`'s own test: a plan that computes every
    // index backward writes each transform's inputs when they are still unknown, so two
    // transforms reading one IterDomain make it fail first (`backward_plan_inputs_once`).
    assert_eq!(twice, 0, "a backward plan with an IterDomain used twice");
    assert!(
        forward >= CASES / 500,
        "too few None for a forward step: {forward}"
    );
    compare("terms/propagate", &requests, &rust);
}
