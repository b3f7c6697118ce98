//! The bridge for the checker's bank-conflict and swizzle-agreement counts (issue 28, item 4;
//! `proofs/Banks.v`, `proofs/BanksLinear.v`): the wavefronts of one phase as `banks/analysis.rs`
//! counts them (`phase_cost` over the words of `push_words`), the F2-rank path `analyze_linear`
//! (`linear_per_phase`), `swizzle_bytes` and the chunk count behind `swizzle_match`. Included
//! from `tests/bridge.rs`.

use tessera::algebra::linear::f2_rank;
use tessera::banks::{linear_trace, phase_wavefronts, translate_trace, Access, Dtype, Instr, Smem};
use tessera::check::rules::{chunk_disagreement, swizzle_bytes};

use super::{compare, extracted, Rng, CASES};

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

/// A power-of-two access the F2 path may take: a plain row- or column-major tile of `2^i × 2^j`
/// elements (8 to 128 each way), swizzled now and then (`Sw<B,M,S>`), of 1-, 2-, 4- or 8-byte
/// elements; a TV layout of 32 threads and 1 to 8 values, each of its bits at a distinct power of
/// two of the domain (or of an atom tile) or broadcast; `ld/st.shared` at the widest or a fixed
/// width, `cp.async` or `ldmatrix`.
fn linear_case(rng: &mut Rng) -> (Smem, Access, Dtype) {
    let (mb, nb) = (rng.range(3, 7) as u32, rng.range(3, 7) as u32);
    let (m, n) = (1u64 << mb, 1u64 << nb);
    let base: tessera::Layout = if rng.range(0, 1) == 0 {
        format!("({m},{n}):({n},1)")
    } else {
        format!("({m},{n}):(1,{m})")
    }
    .parse()
    .expect("a plain tile");
    let smem = if rng.range(0, 2) == 0 {
        let b = rng.range(1, 3) as u32;
        let mm = rng.range(0, 3) as u32;
        let s = rng.range(i64::from(b), 5) as u32;
        if b + mm + s <= mb + nb {
            Smem::Swizzled {
                bms: (b, mm, s),
                layout: base,
            }
        } else {
            Smem::Plain(base)
        }
    } else {
        Smem::Plain(base)
    };
    let atom = (rng.range(0, 2) == 0).then(|| {
        let am = 1u64 << rng.range(0, i64::from(mb));
        let an = 1u64 << rng.range(0, i64::from(nb));
        (am, an)
    });
    let bits = match atom {
        Some((am, an)) => (am * an).trailing_zeros(),
        None => mb + nb,
    };
    let vbits = rng.range(0, 3) as usize;
    // Distinct powers of two below the domain (or the atom tile), or 0 (a broadcast bit).
    let mut free: Vec<u64> = (0..bits).map(|i| 1u64 << i).collect();
    let mut strides = Vec::with_capacity(5 + vbits);
    for _ in 0..5 + vbits {
        if free.is_empty() || rng.range(0, 7) == 0 {
            strides.push(0);
        } else {
            let k = rng.range(0, free.len() as i64 - 1) as usize;
            strides.push(free.swap_remove(k));
        }
    }
    let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let tv = if vbits == 0 {
        format!("((2,2,2,2,2),1):(({}),0)", join(&strides[..5]))
    } else {
        format!(
            "((2,2,2,2,2),({})):(({}),({}))",
            vec!["2"; vbits].join(","),
            join(&strides[..5]),
            join(&strides[5..])
        )
    };
    let dtype = Dtype::parse(["u8", "f16", "f32", "f64"][rng.range(0, 3) as usize]).expect("dtype");
    let instr = match rng.range(0, 9) {
        0 | 1 => Instr::Shared {
            width: Some(1 << rng.range(0, 4)),
        },
        2 => Instr::CpAsync {
            bytes: 4 << rng.range(0, 2),
        },
        3 => Instr::Ldmatrix {
            num: 1 << rng.range(0, 2),
            trans: false,
        },
        _ => Instr::Shared { width: None },
    };
    let acc = Access {
        tv: tv.parse().expect("a TV layout"),
        instr,
        atom,
    };
    (smem, acc, dtype)
}

/// `analyze`'s F2-rank path (`analyze_linear`, through the hook `linear_trace`) on random
/// power-of-two accesses against the extracted `linear_per_phase`, which
/// `linear_per_phase_correct` proves the enumeration's count of every phase whose thread bytes are
/// a translate of the span of the phase's thread bases: Rust's per-phase count (its `worst` and
/// `wavefronts / ideal`) against the extracted transcription of its rank formula on the span Rust
/// collected, and, for one case in four, against the extracted enumeration `phase_cost
/// (phase_words ..)` of the first phase's thread bytes as Rust enumerates them (the proof's
/// hypothesis, the translate, holding on the checker's own addresses).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn linear_path_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xF2_0BA2C5);
    let mut requests = Vec::with_capacity(CASES + CASES / 4);
    let mut rust = Vec::with_capacity(CASES + CASES / 4);
    let (mut tried, mut linear, mut conflicted) = (0usize, 0usize, 0usize);
    while linear < CASES {
        tried += 1;
        assert!(tried < 20 * CASES, "too few accesses take the F2 path");
        let (smem, acc, dtype) = linear_case(&mut rng);
        let Ok(Some((r, t))) = linear_trace(&smem, &acc, dtype) else {
            continue;
        };
        assert_eq!(r.method, "f2-rank");
        assert_eq!(r.worst.wavefronts, t.per_phase);
        assert_eq!(r.wavefronts, r.ideal * t.per_phase);
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        requests.push(
            format!(
                "BL {} {} {} {} {}",
                t.elem_bits,
                t.value_bytes.len(),
                join(&t.value_bytes),
                t.thread_bytes.len(),
                join(&t.thread_bytes)
            )
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        );
        rust.push(t.per_phase.to_string());
        if linear % 4 == 0 {
            requests.push(format!(
                "W {} {} {}",
                t.vector_bytes,
                t.phase_bytes.len(),
                join(&t.phase_bytes)
            ));
            rust.push(format!("{} {}", t.per_phase, r.worst.bank));
        }
        conflicted += usize::from(t.per_phase > 1);
        linear += 1;
    }
    eprintln!(
        "linear path: {linear} of {tried} random power-of-two accesses take it, {conflicted} with \
         more than one wavefront a phase"
    );
    assert!((CASES / 10..=CASES * 9 / 10).contains(&conflicted));
    compare("linear path", &requests, &rust);
}

/// `algebra::linear::f2_rank` (the echelon `analyze_linear` ranks words and banks with) against the
/// extracted `f2_rank`, whose span `f2_rank_count` proves to have `2^rank` elements: up to 12
/// vectors below `2^20`, each random, a power of two, 0, or the XOR of two or three earlier ones
/// (so that reducing in the wrong order, or not at all, leaves a dependent vector nonzero).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn f2_rank_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x0F2_4A4C);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut deficient = 0;
    for _ in 0..CASES {
        let n = rng.range(0, 12) as usize;
        let bits = rng.range(1, 20);
        let mut vs: Vec<u64> = Vec::with_capacity(n);
        for _ in 0..n {
            let v = match (rng.range(0, 5), vs.len()) {
                (0, _) => 1u64 << rng.range(0, bits - 1),
                (1, _) => 0,
                (2 | 3, k) if k >= 2 => (0..rng.range(2, 3))
                    .map(|_| vs[rng.range(0, k as i64 - 1) as usize])
                    .fold(0, |a, b| a ^ b),
                _ => rng.range(1, (1 << bits) - 1) as u64,
            };
            vs.push(v);
        }
        let r = f2_rank(&vs);
        deficient += usize::from((r as usize) < n);
        let list: Vec<String> = vs.iter().map(u64::to_string).collect();
        requests.push(format!("FR {n} {}", list.join(" ")).trim_end().to_string());
        rust.push(r.to_string());
    }
    eprintln!("f2_rank: {deficient} of {CASES} lists are dependent");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&deficient));
    compare("f2_rank", &requests, &rust);
}

/// `analyze_translates` (through the hook `translate_trace`): atom instances on a plain
/// two-mode tile `(M,N):(a,b)` whose shifts are multiples of 16 bytes, answered by enumerating
/// instance 0 and multiplying. Every phase of every instance is sent to the extracted
/// enumeration `phase_cost (phase_words ..)`, and their sum must be Rust's total
/// (`translate_phase_cost`: each instance's phase costs instance 0's), and every phase's vectors
/// must start at a multiple of the width Rust picked on instance 0 (`aligned_translate`). Tiles of `am·bm × an·bn`
/// elements, atoms `am, an` powers of two, `bm, bn` 1 to 3 (not all 1), row- or column-major,
/// padded by 0 to 16 elements; 2,000 accesses (each sends up to 9 instances × 8 vectors × 4
/// phases).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn translates_agree_with_the_extracted_enumeration() {
    const ACCESSES: usize = 2_000;
    let mut rng = Rng(0x7A45_1A7E);
    let (mut tried, mut taken, mut conflicted) = (0usize, 0usize, 0usize);
    let mut misaligned = 0usize;
    let mut requests = Vec::new();
    let mut spans = Vec::with_capacity(ACCESSES);
    let mut totals = Vec::with_capacity(ACCESSES);
    while taken < ACCESSES {
        tried += 1;
        assert!(
            tried < 50 * ACCESSES,
            "too few accesses take the translate path"
        );
        let (amb, anb) = (rng.range(2, 5) as u32, rng.range(1, 5) as u32);
        let (am, an) = (1u64 << amb, 1u64 << anb);
        let (bm, bn) = (rng.range(1, 3) as u64, rng.range(1, 3) as u64);
        if bm * bn == 1 {
            continue;
        }
        let (m, n) = (am * bm, an * bn);
        let pad = [0u64, 1, 2, 4, 8, 16][rng.range(0, 5) as usize];
        let row_major = rng.range(0, 1) == 0;
        let layout = if row_major {
            format!("({m},{n}):({},1)", n + pad)
        } else {
            format!("({m},{n}):(1,{})", m + pad)
        };
        let smem = Smem::Plain(layout.parse().expect("a plain tile"));
        let ebits = rng.range(0, 3) as u32;
        let dtype = Dtype::parse(["u8", "f16", "f32", "f64"][ebits as usize]).expect("dtype");
        let mut free: Vec<u64> = (0..amb + anb).map(|i| 1u64 << i).collect();
        // Three times in four the values are contiguous in memory, mostly 8 or 16 bytes of them
        // (a vector wider than one element): along a row of a row-major tile (the atom-local
        // index's column bits), down a column of a column-major one.
        let first = if row_major { amb } else { 0 };
        let room = if row_major { anb } else { amb };
        let vbits = if rng.range(0, 3) == 0 {
            rng.range(0, 3) as u32
        } else {
            (rng.range(3, 4) as u32).saturating_sub(ebits).min(3)
        };
        let contiguous = rng.range(0, 3) != 0 && vbits <= room;
        let value_strides: Vec<u64> = if contiguous {
            (0..vbits).map(|k| 1u64 << (first + k)).collect()
        } else {
            Vec::new()
        };
        free.retain(|b| !value_strides.contains(b));
        // One time in four the lanes stay in one row (one column): the other instances' shifts
        // then decide alignment alone.
        if rng.range(0, 3) == 0 {
            free.retain(|&b| (b >= 1 << amb) == row_major);
        }
        let mut strides = Vec::with_capacity(5 + vbits as usize);
        for _ in 0..5 + vbits as usize - value_strides.len() {
            if free.is_empty() || rng.range(0, 7) == 0 {
                strides.push(0);
            } else {
                let k = rng.range(0, free.len() as i64 - 1) as usize;
                strides.push(free.swap_remove(k));
            }
        }
        strides.extend_from_slice(&value_strides);
        let vbits = vbits as usize;
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let tv = if vbits == 0 {
            format!("((2,2,2,2,2),1):(({}),0)", join(&strides[..5]))
        } else {
            format!(
                "((2,2,2,2,2),({})):(({}),({}))",
                vec!["2"; vbits].join(","),
                join(&strides[..5]),
                join(&strides[5..])
            )
        };
        let instr = match rng.range(0, 5) {
            0 => Instr::Shared {
                width: Some(1 << rng.range(0, 4)),
            },
            1 => Instr::CpAsync {
                bytes: 4 << rng.range(0, 2),
            },
            _ => Instr::Shared { width: None },
        };
        let acc = Access {
            tv: tv.parse().expect("a TV layout"),
            instr,
            atom: Some((am, an)),
        };
        let Ok(Some((r, w, phases))) = translate_trace(&smem, &acc, dtype) else {
            continue;
        };
        spans.push((requests.len(), phases.len()));
        // The width Rust picked on instance 0 must be every instance's (`aligned_translate`).
        misaligned += phases
            .iter()
            .filter(|bytes| bytes.iter().any(|b| b % w != 0))
            .count();
        for bytes in &phases {
            let list: Vec<String> = bytes.iter().map(u64::to_string).collect();
            requests.push(format!("W {w} {} {}", bytes.len(), list.join(" ")));
        }
        conflicted += usize::from(r.wavefronts > r.ideal);
        totals.push(r.wavefronts);
        taken += 1;
    }
    eprintln!(
        "translates: {taken} of {tried} accesses take the path, {} phases, {conflicted} with \
         conflicts",
        requests.len()
    );
    assert!((ACCESSES / 10..=ACCESSES * 9 / 10).contains(&conflicted));
    assert_eq!(
        misaligned, 0,
        "translates: {misaligned} phases start a vector off its width"
    );
    let coq = extracted(&requests);
    let mut bad = 0;
    for (&(start, len), &total) in spans.iter().zip(&totals) {
        let sum: u64 = coq[start..start + len]
            .iter()
            .map(|a| {
                a.split_whitespace()
                    .next()
                    .and_then(|c| c.parse::<u64>().ok())
                    .expect("a count")
            })
            .sum();
        if sum != total {
            if bad < 10 {
                eprintln!(
                    "translates: `{}`..: Rust's total {total}, the extracted enumeration {sum}",
                    requests[start]
                );
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "translates: {bad} of {taken} totals differ");
}
