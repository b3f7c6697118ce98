//! The bridge (issue 14, item 7): a differential test of the Rust library against the functions
//! extracted from the Coq proofs (`proofs/Bridge.v`, `proofs/Extract.v`).
//!
//! The extracted executable (`proofs/bridge/tessera_extracted`, built by
//! `proofs/bridge/build.sh`) runs `rust_coalesceZ` and `complement1Z`, which `proofs/Bridge.v`
//! proves equal to the proved `nat` functions (`rust_coalesceZ_normal_form`,
//! `complement1Z_of_nat`), and `certified_composition`, the composition certificate proved sound
//! in `proofs/Composition.v` (`certificate_sound`), and `complementZ`, Rust's `complement` with an
//! integer cotarget, whose tractable branch `proofs/BridgeComplement.v` proves equal to the
//! coalesced complement of `proofs/ComplementAny.v` (`complementZ_tractable`, `complement_tiles`),
//! and `swizzle` of `proofs/Swizzle.v` (an involution, `swizzle_involutive`). This test generates layouts with a fixed seed, asks both sides and
//! requires the same modes. It is `#[ignore]`d because it needs that executable; CI runs it with
//! `bash proofs/bridge/run.sh` (which builds the executable and sets `TESSERA_EXTRACTED`).

use std::io::Write;
use std::process::{Command, Stdio};

use tessera::algebra::decide::is_admissible;
use tessera::algebra::{coalesce, complement, complement1, complement_exact, composition};
use tessera::layout::{IntTuple, Swizzle};
use tessera::Layout;

/// Cases per operation.
const CASES: usize = 100_000;

/// splitmix64: a small fixed-seed generator, so the cases are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
}

/// A random flat layout, as (extent, stride) pairs. Extents are often 1 (the unit rules) and
/// strides are often packed against the previous mode (the merge rule); `signed` allows negative
/// strides. Values stay far below 2^40, so neither side overflows.
fn random_modes(rng: &mut Rng, signed: bool) -> Vec<(i64, i64)> {
    let rank = rng.range(0, 7) as usize;
    let mut modes: Vec<(i64, i64)> = Vec::with_capacity(rank);
    for _ in 0..rank {
        let e = match rng.range(0, 9) {
            0..=2 => 1,
            3 => rng.range(9, 40),
            _ => rng.range(2, 8),
        };
        let lo = if signed { -40 } else { 0 };
        let s = match (rng.range(0, 5), modes.last()) {
            (0 | 1, Some(&(pe, ps))) => pe * ps,
            (2, _) => 0,
            (3, Some(&(_, ps))) => ps,
            _ => rng.range(lo, 40),
        };
        modes.push((e, s));
    }
    modes
}

fn layout_of(modes: &[(i64, i64)]) -> Layout {
    let shape = IntTuple::flat(modes.iter().map(|m| m.0));
    let stride = IntTuple::flat(modes.iter().map(|m| m.1));
    Layout::new(&shape, &stride).expect("positive extents")
}

fn show(l: &Layout) -> String {
    let v: Vec<String> = l
        .leaves()
        .flat_map(|m| [m.shape.to_string(), m.stride.to_string()])
        .collect();
    v.join(" ")
}

/// Runs the extracted executable on `requests` (one per line) and returns its answers.
fn extracted(requests: &[String]) -> Vec<String> {
    let exe = std::env::var("TESSERA_EXTRACTED")
        .expect("TESSERA_EXTRACTED must name proofs/bridge/tessera_extracted (see bridge/run.sh)");
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {exe}: {e}"));
    let mut input = String::new();
    for r in requests {
        input.push_str(r);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("extracted executable");
    writer.join().expect("writer").expect("write requests");
    assert!(out.status.success(), "extracted executable failed");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let answers: Vec<String> = text.lines().map(str::to_owned).collect();
    assert_eq!(answers.len(), requests.len(), "one answer per request");
    answers
}

fn compare(what: &str, requests: &[String], rust: &[String]) {
    let coq = extracted(requests);
    let mut bad = 0;
    for ((req, r), c) in requests.iter().zip(rust).zip(&coq) {
        if r != c {
            if bad < 10 {
                eprintln!("{what}: `{req}`: Rust gives `{r}`, the extracted Coq gives `{c}`");
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{what}: {bad} of {} cases differ", requests.len());
    eprintln!("{what}: {} cases agree", requests.len());
}

fn coalesce_cases(seed: u64, signed: bool) {
    let mut rng = Rng(seed);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    for _ in 0..CASES {
        let modes = random_modes(&mut rng, signed);
        let mut req = String::from("c");
        for (e, s) in &modes {
            req.push_str(&format!(" {e} {s}"));
        }
        requests.push(req);
        rust.push(show(&coalesce(&layout_of(&modes)).expect("coalesce")));
    }
    let what = if signed {
        "coalesce (signed strides)"
    } else {
        "coalesce"
    };
    compare(what, &requests, &rust);
}

/// Rust's `coalesce` against the extracted `rust_coalesceZ`, on layouts with non-negative strides
/// (where `rust_coalesceZ_normal_form` proves the extracted function returns the unique normal
/// form).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn coalesce_agrees_with_the_extracted_proof() {
    coalesce_cases(0x7E55_E7A1_C0A1_E5CE, false);
}

/// The same with signed strides: there the extracted function is proved to keep the function
/// (`rust_coalesceZ_preserves_eval`), but the unique normal form only for strides >= 0.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn coalesce_agrees_with_the_extracted_function_on_signed_strides() {
    coalesce_cases(0x5167_ED57_41DE_0001, true);
}

/// Rust's `complement1(N, d, M)` against the extracted `complement1Z`, and Rust's general
/// `complement(N:d, M)` against the extracted `rust_coalesceZ (complement1Z N d M)` (the proved
/// rank-1 complement, coalesced), for `N·d ∣ M`.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn rank1_complement_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xC0_3E1E_3E47);
    let mut req1 = Vec::with_capacity(CASES);
    let mut rust1 = Vec::with_capacity(CASES);
    let mut req2 = Vec::with_capacity(CASES);
    let mut rust2 = Vec::with_capacity(CASES);
    for _ in 0..CASES {
        let n = rng.range(1, 32);
        let d = rng.range(1, 32);
        let m = n * d * rng.range(1, 32);
        req1.push(format!("k {n} {d} {m}"));
        rust1.push(show(&complement1(n, d, m).expect("N·d ∣ M")));
        let c = complement1(n, d, m).expect("N·d ∣ M");
        let mut req = String::from("c");
        for md in c.leaves() {
            req.push_str(&format!(" {} {}", md.shape, md.stride));
        }
        req2.push(req);
        let a = Layout::mode(n, d).expect("N >= 1");
        let cot: IntTuple = m.to_string().parse().expect("cotarget");
        rust2.push(show(&complement(&a, &cot).expect("complement")));
    }
    compare("complement1", &req1, &rust1);
    compare("complement (rank 1)", &req2, &rust2);
}

/// Whenever Rust accepts a composition by its closed-form certificate (`is_admissible` reports
/// `!by_enumeration`; `composition` then returns CuTe's candidate), the extracted, proved
/// certificate accepts the same candidate: so every such result is covered by
/// `certificate_sound` (`R(c) = A(B(c))` on B's domain). On these 100,000 admissible cases the
/// converse holds too: no result that Rust did not certify is accepted by the proved certificate.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn certified_compositions_are_certified_by_the_proof() {
    let mut rng = Rng(0xC0_3B05_1710_0004);
    let mut requests = Vec::new();
    let mut rust_certified = Vec::new();
    let mut refused = 0;
    while requests.len() < CASES {
        let signed = rng.range(0, 9) == 0;
        let mut a = random_modes(&mut rng, signed);
        if a.is_empty() {
            a.push((rng.range(1, 8), rng.range(0, 8)));
        }
        a.truncate(4);
        if rng.range(0, 1) == 0 {
            // Compact column-major strides, where certificates are common.
            let mut st = 1;
            for m in &mut a {
                m.1 = st;
                st *= m.0;
            }
        }
        let rank_b = rng.range(1, 3) as usize;
        let mut b: Vec<(i64, i64)> = Vec::with_capacity(rank_b);
        for _ in 0..rank_b {
            let s = rng.range(1, 12);
            let d = match (rng.range(0, 5), b.last()) {
                (0 | 1, Some(&(ps, pd))) => ps * pd,
                (2, _) => 0,
                (3, _) => -rng.range(1, 4),
                _ => rng.range(1, 12),
            };
            b.push((s, d));
        }
        let la = layout_of(&a);
        let lb = layout_of(&b);
        let (Ok(r), Ok(dec)) = (composition(&la, &lb), is_admissible(&la, &lb)) else {
            refused += 1;
            continue;
        };
        assert_eq!(r.rank(), rank_b, "composition mirrors B's modes");
        let mut req = format!("x {}", a.len());
        for (e, s) in &a {
            req.push_str(&format!(" {e} {s}"));
        }
        req.push_str(&format!(" {rank_b}"));
        for (mode, (_, d)) in r.modes().zip(&b) {
            let pieces: Vec<_> = mode.leaves().collect();
            req.push_str(&format!(" {d} {}", pieces.len()));
            for p in pieces {
                req.push_str(&format!(" {} {}", p.shape, p.stride));
            }
        }
        requests.push(req);
        rust_certified.push(dec.holds && !dec.by_enumeration);
    }
    let coq = extracted(&requests);
    let (mut both, mut coq_only, mut bad) = (0, 0, 0);
    for ((req, &rust), c) in requests.iter().zip(&rust_certified).zip(&coq) {
        match (rust, c.as_str()) {
            (true, "1") => both += 1,
            (true, _) => {
                if bad < 10 {
                    eprintln!(
                        "composition: `{req}`: Rust certifies, the proved certificate does not"
                    );
                }
                bad += 1;
            }
            (false, "1") => coq_only += 1,
            (false, _) => {}
        }
    }
    eprintln!(
        "composition: {} cases ({refused} refused by Rust), {both} certified by both, {coq_only} \
         results certified only by the proved certificate (Rust enumerated or synthesized them)",
        requests.len()
    );
    assert_eq!(bad, 0, "{bad} Rust certificates not backed by the proof");
    assert!(
        both >= 10_000,
        "too few certified cases ({both}) to exercise the certificate"
    );
    // On these cases the two certificates agree exactly (a result Rust did not certify was its
    // candidate, refused by its certificate, or a synthesized layout no certificate accepts).
    assert_eq!(
        coq_only, 0,
        "the proved certificate accepts results Rust did not certify"
    );
}

/// Rust's `complement_exact(A, M)` (integer cotarget; the tiling complement, which
/// `complement` also returns wherever it succeeds without a note) against the extracted
/// `complementZ`: the same modes, or both refuse. Half the layouts are tractable by construction (then shuffled, since
/// complement sorts by stride), half are random (many non-tractable, some with negative strides).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn complement_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xC0_3E1E_3E47_0A11);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut refused = 0;
    for i in 0..CASES {
        let mut modes = if i % 2 == 0 {
            let rank = rng.range(0, 4) as usize;
            let mut v: Vec<(i64, i64)> = Vec::with_capacity(rank);
            let mut reach = 1;
            for _ in 0..rank {
                let e = rng.range(1, 6);
                let d = reach * rng.range(1, 3);
                v.push((e, d));
                reach = e * d;
            }
            v
        } else {
            let signed = rng.range(0, 3) == 0;
            let mut v = random_modes(&mut rng, signed);
            v.truncate(4);
            v
        };
        for k in (1..modes.len()).rev() {
            let j = rng.range(0, k as i64) as usize;
            modes.swap(j, k);
        }
        let m = rng.range(1, 600);
        let mut req = format!("g {m}");
        for (e, s) in &modes {
            req.push_str(&format!(" {e} {s}"));
        }
        requests.push(req);
        let cot: IntTuple = m.to_string().parse().expect("cotarget");
        rust.push(match complement_exact(&layout_of(&modes), &cot) {
            Ok(c) => show(&c),
            Err(_) => {
                refused += 1;
                "E".to_owned()
            }
        });
    }
    eprintln!(
        "complement: {refused} of {} cases refused by Rust",
        requests.len()
    );
    assert!(refused < CASES / 2, "too few complementable cases");
    compare("complement", &requests, &rust);
}

/// Rust's `Swizzle::apply` against the extracted `swizzle` (proved an involution and a bijection
/// of `[0, 2^k)` in `proofs/Swizzle.v`), for random legal `B, M, S` (`B + M + |S| <= 60`) and
/// offsets, a quarter of them negative.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn swizzle_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x5_1221_E000);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    while requests.len() < CASES {
        let b = rng.range(0, 8);
        let m = rng.range(0, 10);
        let mag = rng.range(b, 12);
        let sh = if rng.range(0, 1) == 0 { mag } else { -mag };
        if b + m + mag > 60 {
            continue;
        }
        let sw = Swizzle::new(b, m, sh).expect("legal");
        let bits = rng.range(1, b + m + mag + 2);
        let mut x = (rng.next() >> (64 - bits)) as i64;
        if rng.range(0, 3) == 0 {
            x = -x;
        }
        requests.push(format!("s {b} {m} {sh} {x}"));
        rust.push(sw.apply(x).to_string());
    }
    compare("swizzle", &requests, &rust);
}
