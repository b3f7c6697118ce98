//! Code generation: the emitted Python is the seed's listing, and on random DAGs it prints exactly
//! what enumeration visits (Euclidean division included), when `python3` is present.

use std::process::Command;
use tessera::domain::codegen::{emit, Lang};
use tessera::domain::eval::Space;
use tessera::domain::predicate::derive;
use tessera::domain::{parse, Extent, Id, Schedule, SplitKind};

#[test]
fn figure2_python_is_the_seed_listing_with_our_predicate() {
    let s = parse("I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\nI5, I6 = split I2 by 4\nloop I3 I4 I5 I6\n").unwrap();
    let d = derive(&s).unwrap();
    let py = emit(&s, &d.chosen, Lang::Python).unwrap();
    for line in [
        "for i3 in range(2):",
        "        for i5 in range(2):",
        "                i1 = i3 * 2 + i4",
        "                i2 = i5 * 4 + i6",
        "                i0 = i1 * 6 + i2",
        "                if i0 < 15 and i2 < 6:",
        "                    print(i0)",
    ] {
        assert!(py.lines().any(|l| l == line), "missing `{line}` in\n{py}");
    }
    let cu = emit(&s, &d.chosen, Lang::Cuda).unwrap();
    assert!(cu.contains("if (i0 < 15 && i2 < 6) {"), "{cu}");
    assert!(cu.contains("tessera_ediv"), "{cu}");
}

/// What enumeration says the program must print: the root tuples of the passing points, grouped
/// like the generated code (one line per item for one root, rows of the innermost loop else).
fn expected_output(s: &Schedule, pred: &[Id]) -> String {
    let sp = Space::new(s).unwrap();
    let roots = s.roots();
    let inner = *sp.loop_ids.last().unwrap();
    let mut out = String::new();
    let mut row: Vec<String> = Vec::new();
    sp.for_each(|idx| {
        if sp.passes(idx, pred) {
            if roots.len() == 1 {
                out.push_str(&format!("{}\n", idx[roots[0]]));
            } else {
                let items: Vec<String> = roots.iter().map(|&r| idx[r].to_string()).collect();
                row.push(format!("T[{}]", items.join(", ")));
            }
        }
        if roots.len() > 1 && idx[inner] == sp.extents[inner] - 1 {
            if !row.is_empty() {
                out.push_str(&format!("{}\n", row.join(", ")));
            }
            row.clear();
        }
        Ok(true)
    })
    .unwrap();
    out
}

/// A small deterministic pseudo-random generator (no extra dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn random_schedule(rng: &mut Lcg) -> Schedule {
    let mut s = Schedule::new();
    for k in 0..1 + rng.next(2) {
        s.iter(&format!("R{k}"), Extent::Const(1 + rng.next(9) as i64))
            .unwrap();
    }
    for t in 0..rng.next(5) {
        let leaves = s.leaves();
        let x = leaves[rng.next(leaves.len() as u64) as usize];
        let y = leaves[rng.next(leaves.len() as u64) as usize];
        let (a, b) = (format!("A{t}"), format!("B{t}"));
        let _ = match rng.next(4) {
            0 => s
                .split(
                    x,
                    1 + rng.next(4) as i64,
                    if rng.next(2) == 0 {
                        SplitKind::Inner
                    } else {
                        SplitKind::Outer
                    },
                    &a,
                    &b,
                )
                .map(|_| ()),
            1 if x != y => s.merge(x, y, &a).map(|_| ()),
            2 => s
                .resize(x, rng.next(5) as i64 - 2, rng.next(5) as i64 - 2, &a)
                .map(|_| ()),
            3 if x != y => s.swizzle(x, y, &a, &b).map(|_| ()),
            _ => Ok(()),
        };
    }
    s
}

#[test]
fn emitted_python_matches_enumeration_on_random_dags() {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("python3 not found; skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("tessera-codegen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Lcg(2026);
    let mut checked = 0;
    // One Python process runs every program (each in its own namespace) to keep the test fast.
    let mut driver = String::from("import io, contextlib\nresults = []\n");
    let mut expected = Vec::new();
    while checked < 40 {
        let s = random_schedule(&mut rng);
        if Space::new(&s).map_or(true, |sp| sp.points > 2000) {
            continue;
        }
        for pred in [derive(&s).unwrap().chosen, vec![]] {
            let code = emit(&s, &pred, Lang::Python).unwrap();
            driver.push_str(&format!(
                "buf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    exec({code:?}, {{}})\nresults.append(buf.getvalue())\n"
            ));
            expected.push(expected_output(&s, &pred));
        }
        checked += 1;
    }
    driver.push_str("import json\nprint(json.dumps(results))\n");
    let f = dir.join("driver.py");
    std::fs::write(&f, driver).unwrap();
    let out = Command::new("python3").arg(&f).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got.len(), expected.len());
    for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "program {k}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
