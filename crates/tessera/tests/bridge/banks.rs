//! The bridge for the checker's bank-conflict and swizzle-agreement counts (issue 28, item 4;
//! `proofs/Banks.v`): the wavefronts of one phase as `banks/analysis.rs` counts them
//! (`phase_cost` over the words of `push_words`), `swizzle_bytes` and the chunk count behind
//! `swizzle_match`. Included from `tests/bridge.rs`.

use tessera::banks::phase_wavefronts;
use tessera::check::rules::{chunk_disagreement, swizzle_bytes};

use super::{compare, Rng, CASES};

/// A phase's byte addresses as accesses make them: the phase's threads (32, 16 or 8 for `w` up to
/// 4, 8 or 16 bytes; now and then fewer), each `w` bytes (1 to 16),
/// at a stride from a base (rows of a padded or unpadded tile, a broadcast), through a 128-byte
/// swizzle now and then, or at random below 4 KiB; aligned to `w` mostly, now and then not.
fn phase(rng: &mut Rng) -> (u64, Vec<u64>) {
    let w = [1u64, 2, 4, 8, 16][rng.range(0, 4) as usize];
    // The model's phase: 32 threads up to 4 bytes, 16 of 8 bytes, 8 of 16; now and then fewer.
    let full = match w {
        16 => 8,
        8 => 16,
        _ => 32,
    };
    let threads = if rng.range(0, 4) == 0 {
        rng.range(1, full) as u64
    } else {
        full as u64
    };
    let base = w * rng.range(0, 64) as u64;
    let stride = match rng.range(0, 5) {
        0 => 0,
        1 => w,
        2 => 128,
        3 => 4 * rng.range(1, 40) as u64,
        _ => w * rng.range(1, 40) as u64,
    };
    let swizzled = rng.range(0, 3) == 0;
    let unaligned = rng.range(0, 9) == 0;
    let random = rng.range(0, 5) == 0;
    let bytes = (0..threads)
        .map(|t| {
            let mut b = if random {
                rng.range(0, 4095) as u64 / w * w
            } else {
                base + t * stride
            };
            if swizzled {
                b = swizzle_bytes(b, 128);
            }
            if unaligned {
                b += rng.range(0, 3) as u64;
            }
            b
        })
        .collect();
    (w, bytes)
}

/// `banks::phase_wavefronts` (the words each thread's bytes touch, counted by `phase_cost` as
/// `analyze`'s enumeration counts a phase) against the extracted `phase_cost (phase_words ..)`,
/// which `phase_cost_correct` proves the largest number of distinct words in one bank (and the
/// least such bank).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn phase_wavefronts_agree_with_the_extracted_proof() {
    // A quarter of the usual count: the extracted sort is an insertion sort over binary integers
    // (about 0.25 ms a phase of up to 64 words), and 25,000 phases keep the test to a few seconds.
    const PHASES: usize = CASES / 4;
    let mut rng = Rng(0xBA2C_F00D);
    let mut requests = Vec::with_capacity(PHASES);
    let mut rust = Vec::with_capacity(PHASES);
    let mut conflicted = 0;
    for _ in 0..PHASES {
        let (w, bytes) = phase(&mut rng);
        let (c, bank) = phase_wavefronts(&bytes, w);
        conflicted += usize::from(c > 1);
        let list: Vec<String> = bytes.iter().map(u64::to_string).collect();
        requests.push(format!("W {w} {} {}", bytes.len(), list.join(" ")));
        rust.push(format!("{c} {bank}"));
    }
    eprintln!("bank phases: {conflicted} of {PHASES} with more than one wavefront");
    assert!((PHASES / 5..=PHASES * 4 / 5).contains(&conflicted));
    compare("phase wavefronts", &requests, &rust);
}

/// The checker's `swizzle_bytes` and its chunk count `chunk_disagreement` (behind
/// `swizzle_match`'s fraction) against the extracted `swizzle_bytes` and `disagreement`
/// (`disagreement_counts_bytes`, `disagreement_zero_iff_same`): every pair of the named swizzles
/// (none, 32B, 64B, 128B) and of other spans (16 to 256 bytes, multiples of 16 or not, which the
/// checker treats as no swizzle), and addresses below 2^20.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn swizzle_disagreement_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x5A1A_D15A);
    let mut requests = Vec::with_capacity(2 * CASES);
    let mut rust = Vec::with_capacity(2 * CASES);
    let mut moved = 0;
    let span = |rng: &mut Rng| match rng.range(0, 5) {
        0 => 16 * rng.range(0, 16) as u64,
        1 => rng.range(0, 256) as u64,
        _ => [0u64, 32, 64, 128][rng.range(0, 3) as usize],
    };
    for _ in 0..CASES {
        let (t, m) = (span(&mut rng), span(&mut rng));
        let (diff, total, _) = chunk_disagreement(t, m);
        moved += usize::from(diff > 0);
        requests.push(format!("Y {t} {m}"));
        rust.push(format!("{diff} {total}"));
        let a = rng.range(0, 1 << 20) as u64;
        requests.push(format!("H {a} {t}"));
        rust.push(swizzle_bytes(a, t).to_string());
    }
    eprintln!("swizzle pairs: {moved} of {CASES} place some chunk differently");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&moved));
    compare("swizzle disagreement", &requests, &rust);
}
