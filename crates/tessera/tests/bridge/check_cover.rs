//! The bridge for more of the kernel checker's verdicts (issue 28, item 4; `proofs/CheckCover.v`):
//! the SM90 multicast boxes of `coverage`/`multicast` (`box_decision`) and the K loop of
//! `tile_mma` (`k_decision`), through the functions `check/rules.rs` runs and through `check`'s
//! own verdicts. Included from `tests/bridge.rs`.

use tessera::check::config::{Epilogue, Kernel, Stages};
use tessera::check::derive::gmma_name;
use tessera::check::facts::Elem;
use tessera::check::rules::{multicast_covers, tiled_extent_covers};
use tessera::check::{check, Config, Verdict};

use super::{compare, Rng, CASES};

/// A multicast factor as clusters have them (1 to 4, 8, 16; now and then 0 or any up to 24).
fn factor(rng: &mut Rng) -> u64 {
    match rng.range(0, 9) {
        0 => rng.range(0, 24) as u64,
        1 => 3,
        2 => 8,
        3 => 16,
        _ => [1, 2, 4][rng.range(0, 2) as usize],
    }
}

/// An extent built to be a multiple of `q` and then, now and then, moved by a few elements, or
/// any up to 512 (0 included).
fn extent(rng: &mut Rng, q: u64) -> u64 {
    match rng.range(0, 3) {
        0 => rng.range(0, 512) as u64,
        1 => q * rng.range(1, 8) as u64 + rng.range(1, 7) as u64,
        _ => q * rng.range(1, 8) as u64,
    }
}

/// `check::rules::multicast_covers` (the SM90 box part of `coverage`, refuted by `multicast`)
/// against the extracted `box_decision`, which `box_decision_iff` (`proofs/CheckCover.v`) proves
/// equivalent to "the multicast boxes write every element of each CTA's stage tile once".
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn multicast_box_coverage_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xB0C5_3C0F);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut covered = 0;
    for _ in 0..CASES {
        let f = factor(&mut rng);
        let unit = [1, 8, 64][rng.range(0, 2) as usize];
        let ext = extent(&mut rng, f.max(1) * unit);
        let ok = multicast_covers(ext, f);
        covered += usize::from(ok);
        requests.push(format!("U {ext} {f}"));
        rust.push(if ok { "1" } else { "0" }.to_string());
    }
    eprintln!("multicast boxes: {covered} of {CASES} cover their tile exactly once");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&covered));
    compare("multicast box coverage", &requests, &rust);
}

/// `check::rules::tiled_extent_covers` on K (`tile_mma`'s test) against the extracted
/// `k_decision`, which `k_decision_iff` proves equivalent to "every K slice of the tile is consumed
/// by exactly one (K step, atom, atom slice)".
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn tiled_mma_k_coverage_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x7113_D00C);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut covered = 0;
    for _ in 0..CASES {
        // Atom K: 8, 16, 32 (GMMA's 32 bytes of 4-, 2-, 1-byte elements; SM80's k8/k16/k32),
        // now and then 1 to 64 or 0; the atom layout's K 1 to 4 (0 now and then).
        let k = match rng.range(0, 9) {
            0 => rng.range(0, 64) as u64,
            _ => [8, 16, 32][rng.range(0, 2) as usize],
        };
        let ak = if rng.range(0, 19) == 0 {
            0
        } else {
            rng.range(1, 4) as u64
        };
        let tk = extent(&mut rng, (k * ak).max(1));
        let ok = tiled_extent_covers(tk, k, ak);
        covered += usize::from(ok);
        requests.push(format!("V {tk} {k} {ak}"));
        rust.push(if ok { "1" } else { "0" }.to_string());
    }
    eprintln!("tiled mma K: {covered} of {CASES} K loops consume their tile's K exactly once");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&covered));
    compare("tiled mma K coverage", &requests, &rust);
}

/// The same decisions read off `check`'s own verdicts on random SM90 configurations: the
/// `multicast` obligation refutes operand A (B) exactly when the extracted `box_decision` of A's
/// rows over cluster N (B's over cluster M) is false, for a factor above 1; and on random SM80
/// configurations whose M and N are whole TiledMma steps, `tile_mma` is refuted on K exactly when
/// `k_decision` of the tile's K, the atom's K and the atom layout's K is false.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn checker_multicast_and_k_verdicts_agree_with_the_extracted_proof() {
    const CONFIGS: usize = 1_000;
    let mut rng = Rng(0xC1A5_7E25);
    let mut requests = Vec::with_capacity(4 * CONFIGS);
    let mut rust = Vec::with_capacity(4 * CONFIGS);
    let (mut refuted, mut k_refuted) = (0, 0);
    for _ in 0..CONFIGS {
        // SM90: a GMMA 64 x n atom, the tile a multiple of it, a cluster of 1 to 4 (8 now and then).
        let n = 8 * rng.range(1, 16) as u64;
        let mut c = Config::sm90_example();
        c.kernel = Kernel::TmaWs;
        c.epilogue = Epilogue::NoSmem;
        c.mma = Some(gmma_name(n, 16, Elem::F32, Elem::F16, Elem::F16, false));
        c.atom_layout = Some([1, 1, 1]);
        c.stages = Stages::Fixed(2);
        let (tm, tn) = (64 * rng.range(1, 4) as u64, n * rng.range(1, 3) as u64);
        let cl = |rng: &mut Rng| [1u64, 2, 3, 4, 8][rng.range(0, 4) as usize];
        let (cm, cn) = (cl(&mut rng), cl(&mut rng));
        c.tile = [tm, tn, 64];
        c.cluster = [cm, cn, 1];
        let r = check(&c);
        for (opn, ext, f) in [("A", tm, cn), ("B", tn, cm)] {
            let refutes = r.obligations.iter().any(|o| {
                o.code == "multicast"
                    && o.verdict == Verdict::Refuted
                    && o.message
                        .split("; ")
                        .any(|m| m.starts_with(&format!("{opn} is multicast")))
            });
            refuted += usize::from(refutes);
            if f > 1 {
                requests.push(format!("U {ext} {f}"));
                rust.push(if refutes { "0" } else { "1" }.to_string());
            } else {
                assert!(!refutes, "{opn} is not multicast: {c:?}");
            }
        }
        // SM80: mma.sync m16n8k16 over warps am x an x ak; M and N whole steps; K any.
        let mut c = Config::sm90_example();
        c.sm = 80;
        c.kernel = Kernel::CpAsyncMultistage;
        c.epilogue = Epilogue::Sm80Default;
        c.cluster = [1, 1, 1];
        c.mma = Some("SM80_16x8x16_F32F16F16F32_TN".into());
        c.stages = Stages::Fixed(2);
        let (am, an, ak) = (
            rng.range(1, 2) as u64,
            rng.range(1, 2) as u64,
            rng.range(1, 4) as u64,
        );
        c.atom_layout = Some([am, an, ak]);
        let tk = extent(&mut rng, 16 * ak).max(1);
        c.tile = [
            16 * am * rng.range(1, 4) as u64,
            8 * an * rng.range(1, 8) as u64,
            tk,
        ];
        let r = check(&c);
        let k_bad = r.obligations.iter().any(|o| {
            o.code == "tile_mma"
                && o.verdict == Verdict::Refuted
                && o.message.split("; ").any(|m| m.starts_with("tile K"))
        });
        k_refuted += usize::from(k_bad);
        requests.push(format!("V {tk} 16 {ak}"));
        rust.push(if k_bad { "0" } else { "1" }.to_string());
    }
    eprintln!("checker: {refuted} multicast refutations, {k_refuted} of {CONFIGS} K refutations");
    assert!(refuted >= CONFIGS / 10 && (CONFIGS / 10..=CONFIGS * 9 / 10).contains(&k_refuted));
    compare("checker multicast and K verdicts", &requests, &rust);
}
