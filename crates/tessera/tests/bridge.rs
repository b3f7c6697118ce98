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
//! and `swizzle` of `proofs/Swizzle.v` (an involution, `swizzle_involutive`), and `zflatten`/`zteval`
//! of the nested model `proofs/ZTree.v`, and `crd2idx`/`idx2crd` of `proofs/ZCoord.v`, and the
//! predicate rules, their forward chaining (`proofs/Closure.v`) and `derive`'s enumeration pass
//! (`proofs/EnumPass.v`), and the candidate `composition` builds (`rust_compose`,
//! `proofs/CompositionBuild.v`), `right_inverse` (`right_inverseZ`, `proofs/Inverse.v`),
//! `left_inverse` (`left_inverseZ`, `proofs/LeftInverse.v`), the kernel checker's copy coverage
//! test and its `divides` decision (`copy_decision`, `check_divides`, `proofs/Check.v`) and
//! Theorem 5 normalisation (`normalizeR`, `proofs/NormalizeNF.v`), (in `bridge/check.rs`) the
//! checker's TiledMma coverage, shared-memory byte sum and the TMA box arithmetic
//! (`proofs/Check.v`, `proofs/SmemSum.v`, `proofs/TmaBox.v`), (in `bridge/check_cover.rs`) its
//! multicast boxes and `tile_mma`'s K loop (`proofs/CheckCover.v`), (in `bridge/banks.rs`) its
//! bank-conflict and swizzle-agreement counts (`proofs/Banks.v`), (in `bridge/symbolic.rs`) the
//! symbolic facts and decisions (`facts_parse`, `decide_static`, `witness`,
//! `proofs/SymbolicFacts.v`), and (in `bridge/backward.rs`) `plan`/`terms`/`propagate`
//! (`proofs/BackwardRust.v`). This test generates layouts
//! with a fixed seed, asks both sides and
//! requires the same modes; it also requires the extracted certificate to refuse perturbed
//! candidates that are wrong by brute force (`proofs/bridge/mutate.sh` checks that loosening it
//! fails this test). It is `#[ignore]`d because it needs that executable; CI runs it with
//! `bash proofs/bridge/run.sh` (which builds the executable and sets `TESSERA_EXTRACTED`).

use std::io::Write;
use std::process::{Command, Stdio};

use tessera::algebra::decide::is_admissible;
use tessera::algebra::{
    coalesce, complement, complement1, complement_exact, composition, left_inverse, right_inverse,
};
use tessera::check::rules::{copy_covers, divides_verdict};
use tessera::check::{Extent as CheckExtent, Fact as CheckFact};
use tessera::domain::equiv::{backward_check_concrete, normalize_concrete, BridgeTerm};
use tessera::domain::eval::{plan, Direction, Space};
use tessera::domain::predicate::{derive, derive_by_theorems, rules, xor_closed};
use tessera::domain::{Decision, Extent, Fact, Facts, Schedule, SplitKind, Transform};
use tessera::layout::{idx2crd, ComposedLayout, IntTuple, Swizzle, TreeRef};
use tessera::Layout;

#[path = "bridge/backward.rs"]
mod bridge_backward;
#[path = "bridge/banks.rs"]
mod bridge_banks;
#[path = "bridge/check.rs"]
mod bridge_check;
#[path = "bridge/check_cover.rs"]
mod bridge_check_cover;
#[path = "bridge/symbolic.rs"]
mod symbolic;
#[path = "bridge/symbolic_ops.rs"]
mod symbolic_ops;

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

/// The same with signed strides: there too the extracted function keeps the function
/// (`rust_coalesceZ_preserves_eval`) and returns the unique normal form
/// (`rust_coalesceZ_unique_normal_form`, `proofs/CoalesceSignedNF.v`).
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

/// A composition case: A's modes, B's leaves as (stride, the candidate's pieces (extent, stride)
/// for that leaf), and whether Rust accepted the result by its closed-form certificate.
struct CompositionCase {
    a: Vec<(i64, i64)>,
    leaves: Vec<(i64, Vec<(i64, i64)>)>,
    rust_certified: bool,
}

/// `CASES` compositions Rust accepts (A of rank <= 4, often compact; B flat of rank 1 to 3),
/// and how many it refused on the way.
fn composition_cases() -> (Vec<CompositionCase>, usize) {
    let mut rng = Rng(0xC0_3B05_1710_0004);
    let mut cases = Vec::with_capacity(CASES);
    let mut refused = 0;
    while cases.len() < CASES {
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
        let leaves = r
            .modes()
            .zip(&b)
            .map(|(mode, &(_, d))| (d, mode.leaves().map(|p| (p.shape, p.stride)).collect()))
            .collect();
        cases.push(CompositionCase {
            a,
            leaves,
            rust_certified: dec.holds && !dec.by_enumeration,
        });
    }
    (cases, refused)
}

/// The extracted executable's request for the certificate of `leaves` against `a`.
fn certificate_request(a: &[(i64, i64)], leaves: &[(i64, Vec<(i64, i64)>)]) -> String {
    let mut req = format!("x {}", a.len());
    for (e, s) in a {
        req.push_str(&format!(" {e} {s}"));
    }
    req.push_str(&format!(" {}", leaves.len()));
    for (d, pieces) in leaves {
        req.push_str(&format!(" {d} {}", pieces.len()));
        for (r, rho) in pieces {
            req.push_str(&format!(" {r} {rho}"));
        }
    }
    req
}

/// Whenever Rust accepts a composition by its closed-form certificate (`is_admissible` reports
/// `!by_enumeration`; `composition` then returns CuTe's candidate), the extracted, proved
/// certificate accepts the same candidate: so every such result is covered by
/// `certificate_sound` (`R(c) = A(B(c))` on B's domain). On these 100,000 admissible cases the
/// converse holds too: no result that Rust did not certify is accepted by the proved certificate.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn certified_compositions_are_certified_by_the_proof() {
    let (cases, refused) = composition_cases();
    let requests: Vec<String> = cases
        .iter()
        .map(|c| certificate_request(&c.a, &c.leaves))
        .collect();
    let coq = extracted(&requests);
    let (mut both, mut coq_only, mut bad) = (0, 0, 0);
    for ((req, case), c) in requests.iter().zip(&cases).zip(&coq) {
        match (case.rust_certified, c.as_str()) {
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

/// A's function at `0 <= i < size(A)`: the colexicographic digits of `i` against the strides.
fn eval_flat(a: &[(i64, i64)], mut i: i64) -> i64 {
    let mut v = 0;
    for &(e, s) in a {
        v += (i % e) * s;
        i /= e;
    }
    v
}

/// Whether the candidate `leaves` is wrong for `A ∘ B`, B having leaf `i` of extent
/// `Π r` over the pieces of leaf `i` and stride `d_i`: some `c` in B's domain with
/// `0 <= B(c) < size(A)` has `R(c) != A(B(c))`. (Past `size(A)` the value of A is CuTe's
/// extension of its last mode, which the test does not judge.)
fn candidate_is_wrong(a: &[(i64, i64)], leaves: &[(i64, Vec<(i64, i64)>)]) -> bool {
    let size_a: i64 = a.iter().map(|m| m.0).product();
    let extents: Vec<i64> = leaves
        .iter()
        .map(|(_, p)| p.iter().map(|q| q.0).product())
        .collect();
    let total: i64 = extents.iter().product();
    for mut idx in 0..total {
        let (mut bc, mut rc) = (0, 0);
        for ((d, pieces), &s) in leaves.iter().zip(&extents) {
            let mut c = idx % s;
            idx /= s;
            bc += c * d;
            for &(r, rho) in pieces {
                rc += (c % r) * rho;
                c /= r;
            }
        }
        if (0..size_a).contains(&bc) && rc != eval_flat(a, bc) {
            return true;
        }
    }
    false
}

/// The mutation check of the certificate: each certified case is perturbed 4 times (a piece's stride
/// moved by ±1 or ±2, a piece's extent grown by 1 or 2, a leaf's stride moved by ±1, two
/// neighbouring pieces of a leaf merged or their strides swapped), and whenever the perturbed candidate is wrong (by brute force, on B's
/// values inside A's domain) the extracted certificate must refuse it. A sound certificate
/// (`certificate_sound`) always does; one loosened by dropping a test (the stride equation,
/// the digit load, the place divisibility, the zero-stride rule) accepts some of these, so the
/// bridge fails if the extracted certificate drifts from the proved one in that direction.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn the_extracted_certificate_refuses_wrong_candidates() {
    let (cases, _) = composition_cases();
    let mut rng = Rng(0x3A7A_7E5C_E271_F1ED);
    let mut requests = Vec::new();
    let mut kinds = Vec::new();
    for case in cases
        .iter()
        .filter(|c| c.rust_certified)
        .flat_map(|c| [c; 4])
    {
        let mut leaves = case.leaves.clone();
        let kind = rng.range(0, 3) as usize;
        // Merging or swapping needs a leaf of two pieces or more.
        let multi: Vec<usize> = (0..leaves.len())
            .filter(|&i| leaves[i].1.len() >= 2)
            .collect();
        let li = if kind == 3 && !multi.is_empty() {
            multi[rng.range(0, multi.len() as i64 - 1) as usize]
        } else {
            rng.range(0, leaves.len() as i64 - 1) as usize
        };
        let n = leaves[li].1.len();
        let pi = rng.range(0, n as i64 - 1) as usize;
        let kind = match kind {
            0 => {
                leaves[li].1[pi].1 += [-2, -1, 1, 2][rng.range(0, 3) as usize];
                0
            }
            1 => {
                leaves[li].1[pi].0 += rng.range(1, 2);
                1
            }
            3 if n >= 2 => {
                let pj = if pi + 1 < n { pi } else { pi - 1 };
                if rng.range(0, 1) == 0 {
                    let (r2, _) = leaves[li].1.remove(pj + 1);
                    leaves[li].1[pj].0 *= r2;
                } else {
                    let (x, y) = (leaves[li].1[pj].1, leaves[li].1[pj + 1].1);
                    leaves[li].1[pj].1 = y;
                    leaves[li].1[pj + 1].1 = x;
                }
                3
            }
            _ => {
                leaves[li].0 += if rng.range(0, 1) == 0 { -1 } else { 1 };
                2
            }
        };
        if candidate_is_wrong(&case.a, &leaves) {
            requests.push(certificate_request(&case.a, &leaves));
            kinds.push(kind);
        }
    }
    let coq = extracted(&requests);
    let mut per_kind = [0usize; 4];
    let mut bad = 0;
    for ((req, &k), c) in requests.iter().zip(&kinds).zip(&coq) {
        per_kind[k] += 1;
        if c != "0" {
            if bad < 10 {
                eprintln!("certificate: `{req}` is wrong, the extracted certificate accepts it");
            }
            bad += 1;
        }
    }
    eprintln!(
        "certificate mutation check: {} wrong candidates refused (piece stride moved {}, piece \
         extent grown {}, leaf stride moved {}, pieces merged or swapped {})",
        requests.len(),
        per_kind[0],
        per_kind[1],
        per_kind[2],
        per_kind[3]
    );
    assert_eq!(
        bad, 0,
        "{bad} wrong candidates accepted by the extracted certificate"
    );
    assert!(
        per_kind[..3].iter().all(|&k| k >= 1_000) && per_kind[3] >= 300,
        "too few wrong candidates of some kind: {per_kind:?}"
    );
}

/// A random nested layout for composition: a tree of at most `budget` leaves, each leaf's
/// (extent, stride) drawn by `leaf`; its text in CuTe's notation and its encoding for the
/// extracted `ztree` ("L e s", "N k ..."; a node of one child is that child, as Rust reads it).
fn composition_tree(
    rng: &mut Rng,
    depth: u32,
    budget: &mut usize,
    leaf: &mut dyn FnMut(&mut Rng) -> (i64, i64),
) -> (String, String, String) {
    if depth == 0 || *budget <= 1 || rng.range(0, 2) == 0 {
        *budget = budget.saturating_sub(1);
        let (e, s) = leaf(rng);
        return (e.to_string(), s.to_string(), format!("L {e} {s}"));
    }
    let k = rng.range(2, 3) as usize;
    let (mut shapes, mut strides, mut codes) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..k {
        if *budget == 0 {
            break;
        }
        let (sh, st, code) = composition_tree(rng, depth - 1, budget, leaf);
        shapes.push(sh);
        strides.push(st);
        codes.push(code);
    }
    if codes.len() == 1 {
        return (shapes.remove(0), strides.remove(0), codes.remove(0));
    }
    (
        format!("({})", shapes.join(",")),
        format!("({})", strides.join(",")),
        format!("N {} {}", codes.len(), codes.join(" ")),
    )
}

/// A layout's tree in the extracted `ztree` encoding.
fn tree_code(t: TreeRef<'_, tessera::layout::Mode>) -> String {
    match t.leaf() {
        Some(m) => format!("L {} {}", m.shape, m.stride),
        None => {
            let cs: Vec<String> = t.modes().map(tree_code).collect();
            format!("N {} {}", cs.len(), cs.join(" "))
        }
    }
}

/// Composition, constructed (`proofs/CompositionBuild.v`): for nested A and B with strides of
/// any sign, the extracted `rust_compose` (CuTe's divide-and-stride walk over `coalesce_x(A)`,
/// transcribed from `build_candidate`, with the compatibility test and the certificate) must
/// give exactly the layout Rust's `composition` returns whenever Rust decides by its certificate
/// (`is_admissible` reports `!by_enumeration`), and refuse ("E") exactly when Rust does not
/// (Rust then enumerates, synthesizes or refuses). `rust_compose_correct` proves that the
/// extracted result has B's size and computes `A ∘ B` on B's domain.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn composition_candidates_agree_with_the_extracted_proof() {
    let mut rng = Rng(0xC0_3B05_ED1D_0028);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut certified, mut nested_b, mut negative) = (0, 0, 0);
    while requests.len() < CASES {
        // A: extents 1..=8 (often 2..=6), strides compact column-major half of the time
        // (where certificates are common), else of any sign.
        let compact = rng.range(0, 1) == 0;
        let mut run = 1i64;
        let mut places = vec![1i64];
        let mut a_leaf = |rng: &mut Rng| {
            let e = match rng.range(0, 5) {
                0 => 1,
                1 => rng.range(7, 8),
                _ => rng.range(2, 6),
            };
            let s = if compact { run } else { rng.range(-12, 24) };
            run *= e;
            places.push(run);
            (e, s)
        };
        let mut budget = rng.range(1, 5) as usize;
        let (ash, ast, acode) = composition_tree(&mut rng, 2, &mut budget, &mut a_leaf);
        // B: strides from A's place values (times 1 or 2), 0, 1, small ones of any sign.
        let mut b_leaf = |rng: &mut Rng| {
            let e = match rng.range(0, 5) {
                0 => 1,
                _ => rng.range(2, 8),
            };
            let s = match rng.range(0, 7) {
                0 => 0,
                1 => 1,
                2 => -rng.range(1, 6),
                3 => rng.range(2, 24),
                _ => places[rng.range(0, places.len() as i64 - 1) as usize] * rng.range(1, 2),
            };
            (e, s)
        };
        let mut budget = rng.range(1, 4) as usize;
        let (bsh, bst, bcode) = composition_tree(&mut rng, 2, &mut budget, &mut b_leaf);
        let a: Layout = format!("{ash}:{ast}").parse().expect("A");
        let b: Layout = format!("{bsh}:{bst}").parse().expect("B");
        if b.depth() > 1 {
            nested_b += 1;
        }
        if b.leaves().any(|m| m.stride < 0) {
            negative += 1;
        }
        let by_certificate = matches!(is_admissible(&a, &b), Ok(d) if d.holds && !d.by_enumeration);
        rust.push(if by_certificate {
            certified += 1;
            tree_code(composition(&a, &b).expect("certified").tree())
        } else {
            "E".to_string()
        });
        requests.push(format!("C {acode} {bcode}"));
    }
    eprintln!(
        "composition (constructed): {certified} of {CASES} certified by Rust, {nested_b} with a \
         nested B, {negative} with a negative stride in B"
    );
    assert!(certified >= 20_000, "too few certified cases ({certified})");
    assert!(nested_b >= 10_000, "too few nested B ({nested_b})");
    compare("composition (constructed)", &requests, &rust);
}

/// `right_inverse` (`proofs/Inverse.v`): Rust's result must have exactly the modes of the
/// extracted `right_inverseZ` (coalesce, then the chain of strides from 1), which
/// `right_inverse_correct` proves a right inverse on its whole domain (`L(R(i)) = i` with `R(i)`
/// in L's domain) and `right_inverse_maximal` the largest contiguous prefix of an injective L's
/// image (strides >= 0). Half the layouts are column-major strides permuted (long chains), with
/// a gap or a repeated stride now and then; half are random with strides of any sign; one in
/// eight has 9 to 12 leaves (Rust's exact path, past the fast path's 8).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn right_inverse_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x5E_1A7E_0028);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut long, mut chains) = (0, 0);
    for _ in 0..CASES {
        let mut modes = if rng.range(0, 1) == 0 {
            let rank = rng.range(1, 7) as usize;
            let mut acc = 1i64;
            let mut m: Vec<(i64, i64)> = Vec::with_capacity(rank);
            for _ in 0..rank {
                let e = rng.range(1, 6);
                m.push((e, acc));
                acc *= e * if rng.range(0, 5) == 0 { 2 } else { 1 };
            }
            for i in (1..m.len()).rev() {
                let j = rng.range(0, i as i64) as usize;
                let (si, sj) = (m[i].1, m[j].1);
                m[i].1 = sj;
                m[j].1 = si;
            }
            if rng.range(0, 7) == 0 {
                let i = rng.range(0, m.len() as i64 - 1) as usize;
                m[i].1 = m[0].1;
            }
            m
        } else {
            random_modes(&mut rng, true)
        };
        if rng.range(0, 7) == 0 {
            long += 1;
            while modes.len() < 9 {
                modes.push((rng.range(1, 3), rng.range(-4, 64)));
            }
            modes.truncate(12);
        }
        let r = right_inverse(&layout_of(&modes)).expect("right_inverse");
        if r.size().expect("size") > 1 {
            chains += 1;
        }
        let mut req = String::from("i");
        for (e, s) in &modes {
            req.push_str(&format!(" {e} {s}"));
        }
        requests.push(req);
        rust.push(show(&r));
    }
    eprintln!("right_inverse: {chains} of {CASES} results of size > 1, {long} with 9 to 12 leaves");
    assert!(
        chains >= CASES / 3,
        "too few non-trivial right inverses ({chains})"
    );
    compare("right_inverse", &requests, &rust);
}

/// `left_inverse` (`proofs/LeftInverse.v`): where Rust returns a layout, the extracted
/// `left_inverseZ` (coalesce, refuse a negative stride, sort by stride stably, the divide walk,
/// `push_coalesced`) must give exactly its modes; where Rust refuses for divisibility (or a
/// negative stride), `left_inverseZ` must refuse; where Rust refuses as non-injective (its
/// enumeration of the postcondition failed, or the domain is too large to enumerate), the
/// extracted `left_inverse_overlaps` must say that the strides overlap, the only case in which
/// Rust enumerates. `left_inverse_correct` proves the non-overlapping results: `R(L(i))` lies in
/// L's domain and `L(R(L(i))) = L(i)`, so `R(L(i)) = i` for injective L. Half the layouts are
/// column-major strides permuted (now and then with a gap, a zero stride or a repeated stride),
/// half are random with strides of any sign; one in eight has 9 to 14 leaves (past the fast
/// path).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn left_inverse_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x1EF7_1A7E_0028);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut long = 0;
    for _ in 0..CASES {
        let mut modes = if rng.range(0, 1) == 0 {
            let rank = rng.range(1, 7) as usize;
            let mut acc = 1i64;
            let mut m: Vec<(i64, i64)> = Vec::with_capacity(rank);
            for _ in 0..rank {
                let e = rng.range(1, 6);
                m.push((e, acc));
                acc *= e * if rng.range(0, 5) == 0 { 2 } else { 1 };
            }
            for i in (1..m.len()).rev() {
                let j = rng.range(0, i as i64) as usize;
                let (si, sj) = (m[i].1, m[j].1);
                m[i].1 = sj;
                m[j].1 = si;
            }
            match rng.range(0, 9) {
                0 => {
                    let i = rng.range(0, m.len() as i64 - 1) as usize;
                    m[i].1 = m[0].1;
                }
                1 => {
                    let i = rng.range(0, m.len() as i64 - 1) as usize;
                    m[i].1 = 0;
                }
                _ => {}
            }
            m
        } else {
            random_modes(&mut rng, true)
        };
        if rng.range(0, 7) == 0 {
            long += 1;
            while modes.len() < 9 {
                modes.push((rng.range(1, 3), rng.range(0, 64)));
            }
            modes.truncate(14);
        }
        let mut req = String::from("l");
        for (e, s) in &modes {
            req.push_str(&format!(" {e} {s}"));
        }
        requests.push(req);
        rust.push(left_inverse(&layout_of(&modes)));
    }
    let coq = extracted(&requests);
    let (mut plain, mut overlap, mut refused, mut non_injective, mut bad) = (0, 0, 0, 0, 0);
    for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
        let ok = match r {
            Ok(l) => {
                let modes = c.strip_prefix("O ").unwrap_or(c);
                if modes == c {
                    plain += 1;
                } else {
                    overlap += 1;
                }
                *modes == show(l)
            }
            Err(e) if e.code() == "divisibility" => {
                refused += 1;
                c == "E"
            }
            Err(e) if e.code() == "non_injective" || e.code() == "too_large" => {
                non_injective += 1;
                c.starts_with("O ")
            }
            Err(_) => false,
        };
        if !ok {
            if bad < 10 {
                eprintln!(
                    "left_inverse: `{req}`: Rust gives `{r:?}`, the extracted Coq gives `{c}`"
                );
            }
            bad += 1;
        }
    }
    eprintln!(
        "left_inverse: {plain} results with non-overlapping strides (proved), {overlap} \
         overlapping (checked by enumeration), {refused} refused, {non_injective} non-injective; \
         {long} with 9 to 14 leaves"
    );
    assert_eq!(bad, 0, "left_inverse: {bad} of {CASES} cases differ");
    assert!(plain >= CASES / 3, "too few proved left inverses ({plain})");
    assert!(refused >= 1000 && non_injective >= 1000);
    eprintln!("left_inverse: {CASES} cases agree");
}

/// The kernel checker's gmem copy coverage test (`check::rules::copy_covers`, the one the
/// `coverage` obligation runs on SM80) against the extracted `copy_decision`, which
/// `copy_decision_iff` (`proofs/Check.v`) proves equivalent to "the copy writes every element of
/// the stage tile exactly once". Threads, threads along the row, vector widths and tile extents
/// as the checker meets them (powers of two mostly, and any value now and then).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn copy_coverage_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xC0_7E4A_6E28);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut covered = 0;
    let pick = |rng: &mut Rng, lo: i64, hi: i64| -> u64 {
        if rng.range(0, 3) == 0 {
            rng.range(lo, hi) as u64
        } else {
            let (a, b) = (
                (lo as f64).log2().ceil() as i64,
                (hi as f64).log2().floor() as i64,
            );
            1u64 << rng.range(a, b)
        }
    };
    for _ in 0..CASES {
        let tc = pick(&mut rng, 1, 64);
        let vec = pick(&mut rng, 1, 16);
        let (threads, contig, other) = if rng.range(0, 1) == 0 {
            // Built to cover (whole rows, whole vectors), then one extent moved now and then.
            let rows = pick(&mut rng, 1, 16);
            let mut t = [
                tc * rows,
                tc * vec * pick(&mut rng, 1, 8),
                rows * pick(&mut rng, 1, 32),
            ];
            if rng.range(0, 2) == 0 {
                let i = rng.range(0, 2) as usize;
                t[i] += rng.range(1, 3) as u64;
            }
            (t[0], t[1], t[2])
        } else {
            (
                pick(&mut rng, 1, 1024),
                pick(&mut rng, 1, 512),
                pick(&mut rng, 1, 512),
            )
        };
        let ok = copy_covers(threads, tc, vec, contig, other);
        covered += usize::from(ok);
        requests.push(format!("K {threads} {tc} {vec} {contig} {other}"));
        rust.push(if ok { "1" } else { "0" }.to_string());
    }
    eprintln!("copy coverage: {covered} of {CASES} copies cover their tile exactly once");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&covered));
    compare("copy coverage", &requests, &rust);
}

/// The kernel checker's `divides` (proved / refuted / runtime guard, given the `assume` facts),
/// through the hook `check::rules::divides_verdict`, against the extracted `check_divides`, which
/// `divides_sound` (`proofs/Check.v`) proves sound for every assignment of the runtime names
/// that satisfies the facts. Two names (`M`, `K`), 0 to 3 facts of each kind, static or runtime
/// extents, divisors 0 to 24.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn checker_divides_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xD1_71DE_5028);
    let names = ["M", "K"];
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut yes, mut no, mut guard) = (0, 0, 0);
    for _ in 0..CASES {
        let d = rng.range(0, 24) as u64;
        let (ext, etext) = if rng.range(0, 2) == 0 {
            let v = rng.range(0, 200) as u64;
            (CheckExtent::Static(v), format!("s {v}"))
        } else {
            let n = rng.range(0, 1) as usize;
            (CheckExtent::Runtime(names[n].into()), format!("r {n}"))
        };
        let k = rng.range(0, 3) as usize;
        let mut facts = Vec::with_capacity(k);
        let mut ftext = String::new();
        for _ in 0..k {
            let n = rng.range(0, 1) as usize;
            let v = match rng.range(0, 2) {
                0 => 1u64 << rng.range(0, 7),
                _ => rng.range(1, 96) as u64,
            };
            let (f, t) = match rng.range(0, 2) {
                0 => (CheckFact::Divisible(names[n].into(), v), "D"),
                1 => (CheckFact::AtLeast(names[n].into(), v), "A"),
                _ => (CheckFact::Equals(names[n].into(), v), "E"),
            };
            facts.push(f);
            ftext.push_str(&format!(" {t} {n} {v}"));
        }
        let verdict = divides_verdict(&ext, d, &facts);
        let answer = if verdict == "Y" || verdict.starts_with("N ") {
            verdict
        } else {
            match names
                .iter()
                .position(|n| verdict == format!("{n} % {d} == 0"))
            {
                Some(i) => format!("G {i}"),
                None => verdict,
            }
        };
        match answer.as_bytes()[0] {
            b'Y' => yes += 1,
            b'N' => no += 1,
            _ => guard += 1,
        }
        requests.push(format!("F {d} {etext} {k}{ftext}"));
        rust.push(answer);
    }
    eprintln!("checker divides: {yes} proved, {no} refuted, {guard} runtime guards");
    assert!(yes >= 10_000 && no >= 10_000 && guard >= 10_000);
    compare("checker divides", &requests, &rust);
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

/// Rust's `complement(A, cotarget)` with a shape cotarget `(M_0, ..., M_(k-1))` (rank 1 to 3,
/// each 1 to 40) against the extracted `complementSZ` (CuTe's fold of the rest mode by mode, and
/// the rest `ceil(M / reach)` when the fold falls short; `proofs/ComplementShape.v`): the same
/// modes, or both refuse. The layouts are drawn as in the integer-cotarget test.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn shape_complement_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x54_A9EC_07A2_6E70);
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
        let k = rng.range(1, 3) as usize;
        let cot: Vec<i64> = (0..k)
            .map(|_| {
                if rng.range(0, 4) == 0 {
                    rng.range(1, 3)
                } else {
                    rng.range(1, 40)
                }
            })
            .collect();
        let mut req = format!("h {k}");
        for m in &cot {
            req.push_str(&format!(" {m}"));
        }
        for (e, s) in &modes {
            req.push_str(&format!(" {e} {s}"));
        }
        requests.push(req);
        let shape = IntTuple::flat(cot.iter().copied());
        rust.push(match complement_exact(&layout_of(&modes), &shape) {
            Ok(c) => show(&c),
            Err(_) => {
                refused += 1;
                "E".to_owned()
            }
        });
    }
    eprintln!(
        "complement (shape cotarget): {refused} of {} cases refused by Rust",
        requests.len()
    );
    assert!(refused < CASES / 2, "too few complementable cases");
    compare("complement (shape cotarget)", &requests, &rust);
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

/// A random nested layout of at most `budget` leaves: its shape and stride in CuTe's notation and
/// its encoding for the extracted `ztree` ("L e s" for a leaf, "N k ..." for a node of `k`
/// children). Strides of any sign, often packed against the previous leaf, extents often 1.
fn random_tree(
    rng: &mut Rng,
    depth: u32,
    budget: &mut usize,
    prev: &mut Option<(i64, i64)>,
) -> (String, String, String) {
    if depth == 0 || *budget <= 1 || rng.range(0, 2) == 0 {
        *budget = budget.saturating_sub(1);
        let e = match rng.range(0, 9) {
            0..=2 => 1,
            3 => rng.range(9, 40),
            _ => rng.range(2, 8),
        };
        let s = match (rng.range(0, 5), *prev) {
            (0 | 1, Some((pe, ps))) => pe * ps,
            (2, _) => 0,
            _ => rng.range(-40, 40),
        };
        *prev = Some((e, s));
        return (e.to_string(), s.to_string(), format!("L {e} {s}"));
    }
    let k = rng.range(1, 3) as usize;
    let (mut shapes, mut strides, mut codes) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..k {
        if *budget == 0 {
            break;
        }
        let (sh, st, code) = random_tree(rng, depth - 1, budget, prev);
        shapes.push(sh);
        strides.push(st);
        codes.push(code);
    }
    if codes.len() == 1 {
        // Rust's notation reads `(x)` as `x`: a node of one child is that child.
        return (shapes.remove(0), strides.remove(0), codes.remove(0));
    }
    (
        format!("({})", shapes.join(",")),
        format!("({})", strides.join(",")),
        format!("N {} {}", codes.len(), codes.join(" ")),
    )
}

/// A random coordinate of the domain of the nested shape `shape` (CuTe's notation), mixing
/// integers for whole sub-tuples (a quarter of the time) with tuples: CuTe's text and the
/// encoding for the extracted `zcoord` ("I x", "U k ...").
fn random_coord(rng: &mut Rng, shape: TreeRef<'_, i64>) -> (String, String) {
    if shape.is_leaf() || rng.range(0, 3) == 0 {
        let size: i64 = shape.leaves().product();
        let x = rng.range(0, size - 1);
        return (x.to_string(), format!("I {x}"));
    }
    let (mut texts, mut codes) = (Vec::new(), Vec::new());
    for m in shape.modes() {
        let (t, c) = random_coord(rng, m);
        texts.push(t);
        codes.push(c);
    }
    (
        format!("({})", texts.join(",")),
        format!("U {} {}", codes.len(), codes.join(" ")),
    )
}

/// Nested layouts with strides of any sign (`proofs/ZTree.v`): at a random index `i` of the
/// domain, Rust's `eval(i)` and CuTe's `crd2idx(idx2crd(i, shape), stride)` must equal the
/// extracted `zteval` (the tree model, which `zflatten_preserves_eval` proves equal to the
/// flattening's function), and Rust's `coalesce` must equal the extracted
/// `rust_coalesceZ (zflatten t)` (proved the unique normal form of the tree's function for any
/// strides: `ztree_coalesce`, `rust_coalesceZ_unique_normal_form`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn nested_layouts_agree_with_the_extracted_tree_model() {
    let mut rng = Rng(0x02E5_7ED7_2EE5);
    let mut eval_req = Vec::with_capacity(CASES);
    let mut eval_rust = Vec::with_capacity(CASES);
    let mut crd_rust = Vec::with_capacity(CASES);
    let mut coal_req = Vec::with_capacity(CASES);
    let mut coal_rust = Vec::with_capacity(CASES);
    let mut nested = 0;
    for _ in 0..CASES {
        let mut budget = rng.range(1, 7) as usize;
        let (shape, stride, code) = random_tree(&mut rng, 3, &mut budget, &mut None);
        let text = format!("{shape}:{stride}");
        let l: Layout = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        if l.depth() > 1 {
            nested += 1;
        }
        let size = l.size().expect("size");
        let i = rng.range(0, size - 1);
        eval_req.push(format!("t {i} {code}"));
        eval_rust.push(l.eval(i).expect("eval").to_string());
        let crd = idx2crd(i, &l.shape()).expect("idx2crd");
        crd_rust.push(l.crd2idx(&crd).expect("crd2idx").to_string());
        coal_req.push(format!("T {code}"));
        coal_rust.push(show(&coalesce(&l).expect("coalesce")));
    }
    assert!(nested >= CASES / 4, "only {nested} nested layouts");
    eprintln!("nested layouts: {nested} of {CASES} have depth > 1");
    compare("nested eval", &eval_req, &eval_rust);
    compare("nested crd2idx(idx2crd)", &eval_req, &crd_rust);
    compare("nested coalesce", &coal_req, &coal_rust);
}

/// Nested coordinates (`proofs/ZCoord.v`): Rust's `idx2crd(i, shape)` must equal the extracted
/// `idx2crd` (proved a bijection from `[0, size)` onto the congruent coordinates of the domain:
/// `idx2crd_spec`, `idx2crd_lin`), and Rust's `crd2idx` at a random coordinate of the domain
/// (integers standing for whole sub-tuples a quarter of the time) must equal the extracted
/// `crd2idx` (proved to evaluate the coordinate as its colexicographic index: `crd2idx_lin`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn nested_coordinates_agree_with_the_extracted_model() {
    let mut rng = Rng(0x0C00_2D17_A7E5);
    let mut idx_req = Vec::with_capacity(CASES);
    let mut idx_rust = Vec::with_capacity(CASES);
    let mut crd_req = Vec::with_capacity(CASES);
    let mut crd_rust = Vec::with_capacity(CASES);
    let mut mixed = 0;
    for _ in 0..CASES {
        let mut budget = rng.range(1, 7) as usize;
        let (shape, stride, code) = random_tree(&mut rng, 3, &mut budget, &mut None);
        let text = format!("{shape}:{stride}");
        let l: Layout = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let size = l.size().expect("size");
        let i = rng.range(0, size - 1);
        idx_req.push(format!("q {i} {code}"));
        idx_rust.push(idx2crd(i, &l.shape()).expect("idx2crd").to_string());
        let shape = l.shape();
        let (crd_text, crd_code) = random_coord(&mut rng, shape.as_ref());
        let crd: IntTuple = crd_text.parse().expect("coordinate");
        if crd.as_ref().depth() < shape.as_ref().depth() {
            mixed += 1;
        }
        crd_req.push(format!("r {code} {crd_code}"));
        crd_rust.push(l.crd2idx(&crd).expect("crd2idx").to_string());
    }
    eprintln!("nested coordinates: {mixed} of {CASES} shallower than their shape");
    compare("nested idx2crd", &idx_req, &idx_rust);
    compare("nested crd2idx", &crd_req, &crd_rust);
}

/// A random extent expression over the symbols `N0`, `N1`, `N2` (built with the raw constructors,
/// not the folding ones) and its encoding for the extracted `extent`.
fn random_extent(rng: &mut Rng, depth: u32) -> (Extent, String) {
    let leaf = depth == 0 || rng.range(0, 2) == 0;
    if leaf {
        if rng.range(0, 1) == 0 {
            let c = rng.range(-3, 40);
            return (Extent::Const(c), format!("c {c}"));
        }
        let s = rng.range(0, 2);
        return (Extent::Sym(format!("N{s}")), format!("s {s}"));
    }
    match rng.range(0, 3) {
        0 => {
            let (e, code) = random_extent(rng, depth - 1);
            let c = rng.range(-5, 5);
            (Extent::Add(Box::new(e), c), format!("a {code} {c}"))
        }
        1 => {
            let (e, code) = random_extent(rng, depth - 1);
            let c = rng.range(1, 8);
            (Extent::CeilDiv(Box::new(e), c), format!("d {code} {c}"))
        }
        k => {
            let (a, ca) = random_extent(rng, depth - 1);
            let (b, cb) = random_extent(rng, depth - 1);
            if k == 2 {
                (
                    Extent::Plus(Box::new(a), Box::new(b)),
                    format!("p {ca} {cb}"),
                )
            } else {
                (
                    Extent::Mul(Box::new(a), Box::new(b)),
                    format!("m {ca} {cb}"),
                )
            }
        }
    }
}

fn decision_letter(d: Decision) -> &'static str {
    match d {
        Decision::Yes => "Y",
        Decision::No => "N",
        Decision::Unknown => "U",
    }
}

/// The symbolic decisions behind the predicate rules (`proofs/Symbolic.v`): for random facts
/// (Rust's `Facts::assume`; facts it refuses as contradictory are left out on both sides) and
/// random extents, Rust's `known_divisor`, `lower_bound`, `eval`, `Facts::divides` and
/// `Facts::at_least` must equal the extracted functions (proved: the known divisor divides every
/// allowed value, the lower bound is below it, `Yes`/`No` are sound: `known_divisor_sound`,
/// `lower_bound_sound`, `divides_yes`, `divides_no`, `at_least_yes`, `at_least_no`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn symbolic_decisions_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x5_1AB0_11C5);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut yes, mut refused) = (0, 0);
    for _ in 0..CASES {
        let mut facts = Facts::default();
        let mut codes = Vec::new();
        for _ in 0..rng.range(0, 4) {
            let s = rng.range(0, 2);
            let (fact, code) = match rng.range(0, 2) {
                0 => {
                    let m = rng.range(1, 16);
                    (Fact::Divisible(format!("N{s}"), m), format!("D {s} {m}"))
                }
                1 => {
                    let c = rng.range(-5, 20);
                    (Fact::AtLeast(format!("N{s}"), c), format!("A {s} {c}"))
                }
                _ => {
                    let c = rng.range(1, 60);
                    (Fact::Equals(format!("N{s}"), c), format!("E {s} {c}"))
                }
            };
            // A refused fact leaves the base unchanged (`Facts::assume`'s postcondition), so it
            // is simply left out on the Coq side too.
            if facts.assume(fact).is_ok() {
                codes.push(code);
            } else {
                refused += 1;
            }
        }
        let (e, ecode) = random_extent(&mut rng, 3);
        let f = rng.range(-3, 12);
        let c = rng.range(-5, 30);
        let mut req = format!("y {}", codes.len());
        for code in &codes {
            req.push(' ');
            req.push_str(code);
        }
        requests.push(format!("{req} {ecode} {f} {c}"));
        let opt = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
        let div = facts.divides(f, &e).expect("divides");
        if div == Decision::Yes {
            yes += 1;
        }
        rust.push(format!(
            "{} {} {} {} {}",
            e.known_divisor(&facts),
            opt(e.lower_bound(&facts)),
            opt(e.eval(&facts).expect("eval")),
            decision_letter(div),
            decision_letter(facts.at_least(&e, c).expect("at_least"))
        ));
    }
    eprintln!("symbolic: {yes} divisibility decisions Yes, {refused} contradictory facts left out");
    compare("symbolic decisions", &requests, &rust);
}

/// Swizzled layouts (`proofs/SwizzleLayout.v`): Rust's `ComposedLayout` `Sw<B,M,S> o O o L`, for a
/// random legal swizzle, offset and nested layout `L` (strides of any sign), at a random index of
/// `L`'s domain, must equal the extracted `swizzled` (proved one to one, and a bijection of
/// `[0, 2^k)` when `O + L` is: `swizzled_injective`, `swizzled_bijection`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn swizzled_layouts_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x5_1221_ED1A);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    while requests.len() < CASES {
        let b = rng.range(0, 4);
        let m = rng.range(0, 5);
        let mag = rng.range(b, 6);
        let sh = if rng.range(0, 1) == 0 { mag } else { -mag };
        let sw = Swizzle::new(b, m, sh).expect("legal");
        let mut budget = rng.range(1, 5) as usize;
        let (shape, stride, code) = random_tree(&mut rng, 2, &mut budget, &mut None);
        let l: Layout = format!("{shape}:{stride}").parse().expect("layout");
        let size = l.size().expect("size");
        let i = rng.range(0, size - 1);
        let o = rng.range(-64, 256);
        let c = ComposedLayout::new(sw.into(), o, l.into());
        requests.push(format!("w {b} {m} {sh} {o} {i} {code}"));
        rust.push(c.eval(i).expect("eval").to_string());
    }
    compare("swizzled layouts", &requests, &rust);
}

/// A random schedule (as `tests/domain/domain_scaling.rs` draws them): 1 to 3 roots (concrete or
/// symbolic extents), up to `ops` transforms whose operands are picked among the leaves or, now
/// and then, any IterDomain, and a loop domain of leaves, sometimes with one leaf swapped for an
/// earlier IterDomain.
fn random_schedule(rng: &mut Rng, ops: usize) -> Schedule {
    let mut s = Schedule::new();
    for k in 0..rng.range(1, 3) {
        let e = rng.range(0, 12);
        let extent = if e == 0 {
            Extent::Sym(format!("S{k}"))
        } else {
            Extent::Const(e)
        };
        s.iter(&format!("R{k}"), extent).expect("root");
    }
    for j in 0..rng.range(0, ops as i64) {
        let pick = |rng: &mut Rng, s: &Schedule| {
            let leaves = s.leaves();
            if rng.range(0, 15) == 0 || leaves.is_empty() {
                rng.range(0, s.ids.len() as i64 - 1) as usize
            } else {
                leaves[rng.range(0, leaves.len() as i64 - 1) as usize]
            }
        };
        let (x, y) = (pick(rng, &s), pick(rng, &s));
        let (o, i) = (format!("T{j}a"), format!("T{j}b"));
        let _ = match rng.range(0, 3) {
            0 => {
                let kind = if rng.range(0, 1) == 0 {
                    SplitKind::Inner
                } else {
                    SplitKind::Outer
                };
                s.split(x, rng.range(1, 4), kind, &o, &i).map(|_| ())
            }
            1 => s.merge(x, y, &o).map(|_| ()),
            2 => s
                .resize(x, rng.range(-2, 2), rng.range(-2, 2), &o)
                .map(|_| ()),
            _ => s.swizzle(x, y, &o, &i).map(|_| ()),
        };
    }
    let mut l = s.leaves();
    if rng.range(0, 7) == 0 && !l.is_empty() {
        let k = rng.range(0, l.len() as i64 - 1) as usize;
        l[k] = rng.range(0, s.ids.len() as i64 - 1) as usize;
    }
    s.loop_domain = Some(l);
    s
}

/// The propagation steps of `s` as `proofs/Predicates.v`'s `step`s, encoded for the extracted
/// `rust_rules`: Rust's `plan` gives each transform's direction, `split_divisible` and
/// `xor_closed` the flags.
fn steps_request(s: &Schedule, loops: &[usize]) -> Option<String> {
    let mut req = format!("v {}", loops.len());
    for l in loops {
        req.push_str(&format!(" {l}"));
    }
    let steps = plan(s).ok()?;
    req.push_str(&format!(" {}", steps.len()));
    for st in steps {
        let back = u8::from(st.direction == Direction::Backward);
        let yes = |d: Decision| u8::from(d == Decision::Yes);
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            } => {
                let div = yes(s.split_divisible(st.transform).ok()?);
                req.push_str(&format!(" 0 {input} {outer} {inner} {back} {div}"));
            }
            Transform::Merge {
                outer,
                inner,
                output,
            } => req.push_str(&format!(" 1 {outer} {inner} {output} {back}")),
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => req.push_str(&format!(" 2 {input} {output} {left} {right}")),
            Transform::Swizzle { x, y, out_x, out_y } => {
                let closed = yes(xor_closed(s, x, y).ok()?);
                req.push_str(&format!(" 3 {x} {y} {out_x} {out_y} {closed}"));
            }
        }
    }
    Some(req)
}

/// Rust's forward chaining (`proofs/Closure.v`): for random schedules, the dropped conditions of
/// `derive_by_theorems` (ids and premises, in Rust's order) must equal the extracted
/// `dropped rules (closure rules chosen fuel) order` on Rust's own rules, chosen set and
/// candidate order (proved acyclic and sound: `closure_acyclic`, `closure_justified`,
/// `closure_sound`). The rules themselves must be the extracted `rust_rules` (the loop axioms,
/// then `rules_of_step` of `proofs/Predicates.v` for each step of Rust's `plan`), the rule set
/// `rule_sound` proves sound.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn forward_chaining_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xC105_0BE5);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut rule_req = Vec::with_capacity(CASES);
    let mut rule_rust = Vec::with_capacity(CASES);
    let (mut total_dropped, mut conditional) = (0, 0);
    while requests.len() < CASES {
        let s = random_schedule(&mut rng, 12);
        let (Ok(rs), Ok(d), Ok(loops)) = (rules(&s), derive_by_theorems(&s), s.loop_ids()) else {
            continue;
        };
        let Some(sreq) = steps_request(&s, &loops) else {
            continue;
        };
        rule_req.push(sreq);
        let rr: Vec<String> = rs
            .iter()
            .map(|r| {
                let ps: Vec<String> = r.premises.iter().map(|p| p.to_string()).collect();
                format!("{}>{}", ps.join(","), r.conclusion)
            })
            .collect();
        rule_rust.push(rr.join(" "));
        conditional += rs
            .iter()
            .filter(|r| matches!(r.theorem, "Lemma (divisible split)" | "Lemma (closed XOR)"))
            .count();
        let n = s.ids.len();
        let order = drop_order(n, &loops, &s.roots());
        let mut req = format!("z {} {}", n + rs.len() + 1, rs.len());
        for r in &rs {
            req.push_str(&format!(" {}", r.premises.len()));
            for p in &r.premises {
                req.push_str(&format!(" {p}"));
            }
            req.push_str(&format!(" {}", r.conclusion));
        }
        req.push_str(&format!(" {}", d.chosen.len()));
        for c in &d.chosen {
            req.push_str(&format!(" {c}"));
        }
        req.push_str(&format!(" {}", order.len()));
        for o in &order {
            req.push_str(&format!(" {o}"));
        }
        requests.push(req);
        total_dropped += d.dropped.len();
        let js: Vec<String> = d
            .dropped
            .iter()
            .map(|j| {
                let ps: Vec<String> = j.premises.iter().map(|p| p.to_string()).collect();
                format!("{}:{}", j.id, ps.join(","))
            })
            .collect();
        rust.push(js.join(" "));
    }
    eprintln!(
        "forward chaining: {total_dropped} dropped conditions in {CASES} schedules; \
         {conditional} conditional rules (divisible split, closed XOR)"
    );
    compare("predicate rules", &rule_req, &rule_rust);
    compare("forward chaining", &requests, &rust);
}

/// Loop points at most, per schedule of the enumeration-pass test (keeps the requests short).
const ENUM_MAX_POINTS: u64 = 64;

/// `derive`'s enumeration pass (`proofs/EnumPass.v`): for random schedules with concrete extents
/// whose pass runs, the conditions `derive` keeps must equal the extracted
/// `enum_pass_ids pts inb ids order chosen`, given every loop point's out-of-bound IterDomains
/// (from Rust's `Space::for_each`), the checked IterDomains of `Space::valid`, the chosen set of
/// `derive_by_theorems` and the candidate order (proved sound and minimal over the points:
/// `enum_pass_sound`, `enum_pass_minimal`, `derive_iff_no_hole`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn enumeration_pass_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xE0E0_5A55);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut with_holes, mut enum_drops, mut cases_with_drops) = (0usize, 0usize, 0usize);
    while requests.len() < CASES {
        let s = random_schedule(&mut rng, 8);
        let Ok(space) = Space::new(&s) else {
            continue;
        };
        if space.points > ENUM_MAX_POINTS {
            continue;
        }
        let (Ok(d0), Ok(d), Ok(loops)) = (derive_by_theorems(&s), derive(&s), s.loop_ids()) else {
            continue;
        };
        if !d.minimal_checked {
            continue;
        }
        let n = s.ids.len();
        let mut order = drop_order(n, &loops, &s.roots());
        order.retain(|i| d0.chosen.contains(i));
        let mut req = format!("n {n} {}", space.points);
        let mut holes = 0;
        space
            .for_each(|idx| {
                let oob: Vec<usize> = (0..n).filter(|&v| !space.in_bound(idx, v)).collect();
                holes += usize::from(!space.valid(idx));
                req.push_str(&format!(" {}", oob.len()));
                for v in oob {
                    req.push_str(&format!(" {v}"));
                }
                Ok(true)
            })
            .expect("enumeration");
        with_holes += usize::from(holes > 0);
        let mut ids: Vec<usize> = space.checked.clone();
        ids.extend(space.varying.iter().map(|&k| space.loop_ids[k]));
        for list in [&ids, &d0.chosen, &order] {
            req.push_str(&format!(" {}", list.len()));
            for v in list {
                req.push_str(&format!(" {v}"));
            }
        }
        requests.push(req);
        let drops = d
            .dropped
            .iter()
            .filter(|j| j.theorem == "enumeration")
            .count();
        enum_drops += drops;
        cases_with_drops += usize::from(drops > 0);
        let kept: Vec<String> = d.chosen.iter().map(|c| c.to_string()).collect();
        rust.push(kept.join(" "));
    }
    eprintln!(
        "enumeration pass: {with_holes} of {CASES} schedules with holes; {enum_drops} conditions \
         dropped by enumeration in {cases_with_drops} schedules"
    );
    assert!(
        cases_with_drops >= 100,
        "too few enumeration drops to test the pass"
    );
    compare("enumeration pass", &requests, &rust);
}

/// Rust's candidate order for dropping conditions (`predicate.rs`'s `drop_order`): the IDs that
/// are neither loop IDs nor roots, newest first, then the roots that are not loop IDs, newest
/// first.
fn drop_order(n: usize, loops: &[usize], roots: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n)
        .rev()
        .filter(|i| !loops.contains(i) && !roots.contains(i))
        .collect();
    order.extend(
        (0..n)
            .rev()
            .filter(|i| !loops.contains(i) && roots.contains(i)),
    );
    order
}

/// One transform applied to a random loop domain `l` (a list of terms over the roots), as a
/// schedule would: a split replaces an IterDomain by its outer and inner outputs, a merge two by
/// their merge, a resize one by its resize, a swizzle two by its two outputs; "drop" removes one
/// (leaving a split's or swizzle's sibling alone, which `wfb` refuses). Split inner outputs are
/// transformed again only sometimes, so `split_inners_loop` both holds and fails often.
fn backward_step(rng: &mut Rng, l: &mut Vec<BridgeTerm>) {
    if l.is_empty() {
        return;
    }
    let i = rng.range(0, l.len() as i64 - 1) as usize;
    let inner = |t: &BridgeTerm| matches!(t, BridgeTerm::Split(_, _, _, false));
    if inner(&l[i]) && rng.range(0, 2) > 0 {
        return;
    }
    let b = |t: BridgeTerm| Box::new(t);
    let other = |rng: &mut Rng, len: usize| {
        let j = rng.range(0, len as i64 - 2) as usize;
        if j >= i {
            j + 1
        } else {
            j
        }
    };
    match rng.range(0, 19) {
        0..=6 => {
            let x = l.remove(i);
            let (f, ok) = (rng.range(1, 4), rng.range(0, 3) == 0);
            l.insert(i, BridgeTerm::Split(b(x.clone()), f, ok, false));
            l.insert(i, BridgeTerm::Split(b(x), f, ok, true));
        }
        7..=12 if l.len() >= 2 => {
            let j = other(rng, l.len());
            let (a, c) = (l[i].clone(), l[j].clone());
            l[i] = BridgeTerm::Merge(b(a), b(c));
            l.remove(j);
        }
        13..=15 => {
            let x = l.remove(i);
            l.insert(
                i,
                BridgeTerm::Resize(b(x), rng.range(-1, 2), rng.range(-1, 2)),
            );
        }
        16..=17 if l.len() >= 2 => {
            let j = other(rng, l.len());
            let (x, y) = (l[i].clone(), l[j].clone());
            l[i] = BridgeTerm::Swizzle(b(x.clone()), b(y.clone()), false);
            l[j] = BridgeTerm::Swizzle(b(x), b(y), true);
        }
        18 => {
            l.remove(i);
        }
        _ => {}
    }
}

/// A term in `main.ml`'s `b` request syntax.
fn term_request(t: &BridgeTerm, out: &mut String) {
    match t {
        BridgeTerm::Root(r) => out.push_str(&format!(" R {r}")),
        BridgeTerm::Split(x, f, ok, io) => {
            out.push_str(&format!(" S {f} {} {}", u8::from(*ok), u8::from(*io)));
            term_request(x, out);
        }
        BridgeTerm::Merge(a, c) => {
            out.push_str(" M");
            term_request(a, out);
            term_request(c, out);
        }
        BridgeTerm::Resize(x, l, r) => {
            out.push_str(&format!(" Z {l} {r}"));
            term_request(x, out);
        }
        BridgeTerm::Swizzle(x, y, is_y) => {
            out.push_str(&format!(" W {}", u8::from(*is_y)));
            term_request(x, out);
            term_request(y, out);
        }
    }
}

/// Theorem 5 normalisation (`domain/equiv.rs`'s `normalize`, through its test hook
/// `normalize_concrete`) against the extracted `normalizeR` of `proofs/NormalizeNF.v`
/// (`normalize` with `weight t` steps, which `normalize_fuel_irrelevant` proves is the unbounded
/// recursion's answer; sound, a normal form and idempotent: `normalizeR_sound`), on every term
/// of random loop domains over 1 to 3 roots with concrete extents (0 to 16), built by 1 to 6
/// random transforms (splits by 1 to 4, merges, resizes, swizzles). Rust's normal form must be
/// the extracted one, term for term.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn normalization_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x4E0_2A11_2E28);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut rewritten = 0;
    while requests.len() < CASES {
        let roots = rng.range(1, 3) as usize;
        let extents: Vec<i64> = (0..roots)
            .map(|_| match rng.range(0, 9) {
                0 => 0,
                1 => rng.range(9, 16),
                _ => rng.range(1, 8),
            })
            .collect();
        let mut l: Vec<BridgeTerm> = (0..roots).map(BridgeTerm::Root).collect();
        for _ in 0..rng.range(1, 6) {
            backward_step(&mut rng, &mut l);
        }
        for t in &l {
            if requests.len() == CASES {
                break;
            }
            let mut req = format!("N {roots}");
            for e in &extents {
                req.push_str(&format!(" {e}"));
            }
            let mut before = String::new();
            term_request(t, &mut before);
            req.push_str(&before);
            let n = normalize_concrete(t, &extents).expect("normalize");
            let mut after = String::new();
            term_request(&n, &mut after);
            if after != before {
                rewritten += 1;
            }
            requests.push(req);
            rust.push(after.trim_start().to_string());
        }
    }
    eprintln!("normalization: {rewritten} of {CASES} terms rewritten by Theorem 5");
    assert!(rewritten >= 5_000, "too few rewrites ({rewritten})");
    compare("normalization", &requests, &rust);
}

/// Rust's `backward_check` (`domain/equiv.rs`, through its test hook `backward_check_concrete`)
/// against the extracted `backward_check` of `proofs/NormalizeBackward.v` (sound by
/// `backward_check_sound`), on pairs of loop domains over 1 to 3 roots. Concrete extents only:
/// the Coq check takes `E : nat -> Z`; Rust's also takes symbolic extents under `Facts`, which
/// this test does not reach (it passes no facts and constant root extents, some 0, so that the
/// `0 < extent` test fails too). Split factors are 1 to 4 (the IR's are positive). `L1` is built
/// from the roots by random transforms; `L2` continues from `L1`, or is built afresh from the
/// roots, or is `L1` with one more transform, so every part of the check both passes and fails
/// often (the counts come from the extracted parts and are asserted).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn backward_check_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xBAC4_3A2D_C4EC);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    for _ in 0..CASES {
        let roots = rng.range(1, 3) as usize;
        let extents: Vec<i64> = (0..roots)
            .map(|_| match rng.range(0, 9) {
                0 => 0,
                1 => rng.range(9, 16),
                _ => rng.range(1, 8),
            })
            .collect();
        let start: Vec<BridgeTerm> = (0..roots).map(BridgeTerm::Root).collect();
        let mut l1 = start.clone();
        for _ in 0..rng.range(0, 4) {
            backward_step(&mut rng, &mut l1);
        }
        let mut l2 = match rng.range(0, 2) {
            0 => start,
            _ => l1.clone(),
        };
        for _ in 0..rng.range(1, 4) {
            backward_step(&mut rng, &mut l2);
        }
        if rng.range(0, 3) == 0 && !l2.is_empty() {
            // an IterDomain left out (often a split's or swizzle's output: not `wfb`)
            l2.remove(rng.range(0, l2.len() as i64 - 1) as usize);
        }
        if rng.range(0, 3) == 0 {
            std::mem::swap(&mut l1, &mut l2);
        }
        let mut req = format!("b {roots}");
        for e in &extents {
            req.push_str(&format!(" {e}"));
        }
        for l in [&l1, &l2] {
            req.push_str(&format!(" {}", l.len()));
            for t in l {
                term_request(t, &mut req);
            }
        }
        requests.push(req);
        let ok = backward_check_concrete(&l1, &l2, &extents).expect("backward_check");
        rust.push(u8::from(ok).to_string());
    }
    let coq = extracted(&requests);
    // Counts of "1" for backward_check and its three parts, and of all three parts with the
    // check's answer taken from Rust.
    let mut ones = [0usize; 4];
    // cases where that part alone fails (the other two pass)
    let mut alone = [0usize; 4];
    let mut bad = 0;
    for ((req, r), c) in requests.iter().zip(&rust).zip(&coq) {
        let bits: Vec<&str> = c.split(' ').collect();
        assert_eq!(bits.len(), 4, "`{req}`: answer `{c}`");
        for (k, b) in bits.iter().enumerate() {
            ones[k] += usize::from(*b == "1");
        }
        let parts = [bits[1] == "1", bits[2] == "1", bits[3] == "1"];
        for k in 0..3 {
            alone[k + 1] += usize::from(!parts[k] && (0..3).all(|j| j == k || parts[j]));
        }
        if bits[0] != r {
            if bad < 10 {
                eprintln!("backward_check: `{req}`: Rust gives `{r}`, the extracted Coq `{c}`");
            }
            bad += 1;
        }
    }
    eprintln!(
        "backward_check: true {} / false {} of {CASES}; split_inners_loop true {}, wfb true {}, \
         merges_in_range true {}; failing alone: {}, {}, {}",
        ones[0],
        CASES - ones[0],
        ones[1],
        ones[2],
        ones[3],
        alone[1],
        alone[2],
        alone[3]
    );
    assert_eq!(bad, 0, "backward_check: {bad} of {CASES} cases differ");
    for (k, name) in [
        "backward_check",
        "split_inners_loop",
        "wfb",
        "merges_in_range",
    ]
    .iter()
    .enumerate()
    {
        assert!(
            ones[k] >= CASES / 10 && CASES - ones[k] >= CASES / 10,
            "{name}: {} of {CASES} true: the generator does not reach both answers often",
            ones[k]
        );
        assert!(
            k == 0 || alone[k] >= CASES / 50,
            "{name} fails alone in only {} of {CASES} cases",
            alone[k]
        );
    }
    eprintln!("backward_check: {CASES} cases agree");
}
