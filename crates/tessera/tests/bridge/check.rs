//! The bridge for the kernel checker's verdicts (issue 28, item 4): the TiledMma part of the
//! `coverage` obligation (`proofs/Check.v`) and the shared-storage byte sum of `smem_capacity`
//! with its stage-count suggestion (`proofs/SmemSum.v`), and the TMA box arithmetic on a swizzled
//! tile (`proofs/TmaBox.v`). Included from `tests/bridge.rs`.

use tessera::check::config::{Epilogue, Kernel, Stages};
use tessera::check::derive::gmma_name;
use tessera::check::facts::{Elem, GMMA_M, GMMA_N_MAX, GMMA_N_STEP};
use tessera::check::rules::{largest_fitting, mma_covers, smem_sum, SmemInputs};
use tessera::check::{check, Config, Verdict};
use tessera::tma::smem::box_layout;
use tessera::tma::{
    check as tma_check, descriptor, DataType, Error as TmaError, Interleave, Request,
    Swizzle as TmaSwizzle,
};

use super::{compare, Rng, CASES};

/// A tile extent as the checker meets them: built to cover `q` (a multiple of it) and then,
/// now and then, moved by a few elements or by part of an atom; or any extent up to 512.
fn tile_extent(rng: &mut Rng, q: u64, atom: u64) -> u64 {
    match rng.range(0, 3) {
        0 => rng.range(1, 512) as u64,
        1 => {
            let t = q * rng.range(1, 4) as u64;
            if rng.range(0, 1) == 0 {
                t + atom * rng.range(1, 3) as u64
            } else {
                t + rng.range(1, 7) as u64
            }
        }
        _ => q * rng.range(1, 4) as u64,
    }
}

/// An MMA atom's `(M, N)` from the target tables (GMMA `64 x N`, N a multiple of 8 up to 256;
/// SM80 `16 x 8`) and a warp layout `am x an` of 1 to 4.
fn atom(rng: &mut Rng) -> (u64, u64, u64, u64) {
    let (m, n) = if rng.range(0, 1) == 0 {
        (
            GMMA_M,
            GMMA_N_STEP * rng.range(1, (GMMA_N_MAX / GMMA_N_STEP) as i64) as u64,
        )
    } else {
        (16, 8)
    };
    (m, n, rng.range(1, 4) as u64, rng.range(1, 4) as u64)
}

/// `check::rules::mma_covers` (the C part of `coverage`) against the extracted `mma_decision`,
/// which `mma_decision_iff` (`proofs/Check.v`) proves equivalent to "every C element is computed
/// by exactly one (warp, repetition, thread, value)" for any atom whose C layout is a bijection.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn tiled_mma_coverage_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x711E_D33A);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let mut covered = 0;
    for _ in 0..CASES {
        let (m, n, am, an) = atom(&mut rng);
        let tm = tile_extent(&mut rng, m * am, m);
        let tn = tile_extent(&mut rng, n * an, n);
        let ok = mma_covers(tm, tn, m, n, am, an);
        covered += usize::from(ok);
        requests.push(format!("M {tm} {tn} {m} {n} {am} {an}"));
        rust.push(if ok { "1" } else { "0" }.to_string());
    }
    eprintln!("tiled mma: {covered} of {CASES} TiledMmas cover their C tile exactly once");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&covered));
    compare("tiled mma coverage", &requests, &rust);
}

/// The same decision read off the checker's own verdict: random SM80 and SM90 configurations
/// with the atom and the warp layout given (`mma`, `atom_layout`), run through `check`; the
/// `coverage` obligation is refuted for the C tile (its message names the TiledMma) exactly when
/// the extracted `mma_decision` says the TiledMma does not cover the tile.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn checker_coverage_verdict_agrees_with_the_extracted_proof() {
    const CONFIGS: usize = 2_000;
    let mut rng = Rng(0xC0BE_7A6E);
    let mut requests = Vec::with_capacity(CONFIGS);
    let mut rust = Vec::with_capacity(CONFIGS);
    let mut covered = 0;
    for _ in 0..CONFIGS {
        let (m, n, am, an) = atom(&mut rng);
        let mut c = Config::sm90_example();
        if m == 16 {
            c.sm = 80;
            c.kernel = Kernel::CpAsyncMultistage;
            c.epilogue = Epilogue::Sm80Default;
            c.cluster = [1, 1, 1];
            c.mma = Some("SM80_16x8x16_F32F16F16F32_TN".into());
        } else {
            c.kernel = Kernel::TmaWs;
            c.epilogue = Epilogue::NoSmem;
            c.cluster = [1, 1, 1];
            c.mma = Some(gmma_name(n, 16, Elem::F32, Elem::F16, Elem::F16, false));
        }
        c.stages = Stages::Fixed(2);
        c.atom_layout = Some([am, an, 1]);
        let tm = tile_extent(&mut rng, m * am, m);
        let tn = tile_extent(&mut rng, n * an, n);
        c.tile = [tm, tn, 64];
        let r = check(&c);
        let o = r
            .obligations
            .iter()
            .find(|o| o.code == "coverage")
            .expect("coverage");
        let c_refuted = o.verdict == Verdict::Refuted && o.message.contains("TiledMma");
        covered += usize::from(!c_refuted);
        requests.push(format!("M {tm} {tn} {m} {n} {am} {an}"));
        rust.push(if c_refuted { "0" } else { "1" }.to_string());
    }
    eprintln!("checker coverage: {covered} of {CONFIGS} configurations cover their C tile");
    assert!((CONFIGS / 5..=CONFIGS * 4 / 5).contains(&covered));
    compare("checker coverage verdict", &requests, &rust);
}

/// Random inputs of the shared-storage byte sum as the checker derives them: SM90 kernels (the
/// warp-specialized one with its union, cooperative, ping-pong; SS or RS mainloops) and SM80;
/// stage bytes of real tiles (M or N 64 to 256, K 32 to 128, 1 to 4 bytes an element) or any
/// up to 100,000; the atoms' swizzle repeats (16 for INTER, 256 to 1,024); an epilogue or none,
/// with its tensor bytes, C stages and alignment (a power of two, 1 to 1,024).
fn smem_inputs(rng: &mut Rng) -> SmemInputs {
    let tile_bytes = |rng: &mut Rng| -> u64 {
        if rng.range(0, 5) == 0 {
            rng.range(1, 100_000) as u64
        } else {
            (64 * rng.range(1, 4) * 32 * (1 << rng.range(0, 2)) * (1 << rng.range(0, 2))) as u64
        }
    };
    let repeat = |rng: &mut Rng| -> Option<u64> {
        match rng.range(0, 4) {
            0 => None,
            1 => Some(16),
            k => Some(128 << (k - 1 + rng.range(0, 1))),
        }
    };
    let sm90 = rng.range(0, 3) != 0;
    let kernel = match rng.range(0, 2) {
        0 => Kernel::TmaWs,
        1 => Kernel::TmaWsCooperative,
        _ => Kernel::TmaWsPingpong,
    };
    let (sa, sb) = (tile_bytes(rng), tile_bytes(rng));
    let epi = if rng.range(0, 3) == 0 {
        None
    } else {
        let align = 1u64 << rng.range(0, 10);
        let t = if rng.range(0, 1) == 0 {
            rng.range(1, 70_000) as u64
        } else {
            (rng.range(1, 64) as u64) * align + 1
        };
        Some((t, rng.range(1, 4) as u64, align))
    };
    SmemInputs {
        sm90,
        kernel: if sm90 {
            kernel
        } else {
            Kernel::CpAsyncMultistage
        },
        rs: rng.range(0, 2) == 0,
        sa,
        sb,
        stages: rng.range(1, 12) as u64,
        repeat_a: repeat(rng),
        repeat_b: repeat(rng),
        epi,
        stage_bytes: sa + sb,
    }
}

/// `check::rules::smem_sum` (the byte sum of `smem_capacity`) and `largest_fitting` (its
/// stage-count suggestion, over "the storage with `s` stages fits the capacity") against the
/// extracted `smem_sum` and `suggestion` of `proofs/SmemSum.v`: the sum is the end of the
/// storage's layout of disjoint, aligned buffers (`smem_sum_is_layout`, `smem_layout_sound`) and
/// the suggestion the largest stage count below the given one that fits, or 2
/// (`suggestion_correct`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn smem_byte_sum_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0x57E_35A3);
    let mut requests = Vec::with_capacity(CASES);
    let mut rust = Vec::with_capacity(CASES);
    let (mut fit, mut suggested_less) = (0, 0);
    for _ in 0..CASES {
        let s = smem_inputs(&mut rng);
        let cap = match rng.range(0, 3) {
            0 => 232_448,
            1 => 166_912,
            2 => 101_376,
            _ => rng.range(1_000, 300_000) as u64,
        };
        let n = rng.range(0, 20) as u64;
        let (total, _) = smem_sum(&s);
        let sugg = largest_fitting(n, |k| {
            let mut t = s.clone();
            t.stages = k;
            smem_sum(&t).0 <= cap
        });
        fit += usize::from(total <= cap);
        suggested_less += usize::from(sugg < n);
        let kernel = match s.kernel {
            Kernel::TmaWs => 0,
            Kernel::TmaWsPingpong => 1,
            _ => 2,
        };
        let (e, t, sc, al) = match s.epi {
            Some((t, sc, al)) => (1, t, sc, al),
            None => (0, 0, 0, 0),
        };
        requests.push(format!(
            "Q {} {kernel} {} {} {} {} {} {} {e} {t} {sc} {al} {} {cap} {n}",
            u8::from(s.sm90),
            u8::from(s.rs),
            s.sa,
            s.sb,
            s.stages,
            s.repeat_a.unwrap_or(0),
            s.repeat_b.unwrap_or(0),
            s.stage_bytes
        ));
        rust.push(format!("{total} {sugg}"));
    }
    eprintln!("smem sum: {fit} of {CASES} storages fit; {suggested_less} suggestions below n");
    assert!((CASES / 5..=CASES * 4 / 5).contains(&fit));
    compare("smem byte sum", &requests, &rust);
}

/// A TMA swizzle mode the box layout models (all but `128B_ATOM_32B_FLIP_8B`), or none.
fn tma_mode(rng: &mut Rng) -> TmaSwizzle {
    let modes = [
        TmaSwizzle::None,
        TmaSwizzle::B32,
        TmaSwizzle::B64,
        TmaSwizzle::B128,
        TmaSwizzle::B128Atom32B,
        TmaSwizzle::B128Atom64B,
    ];
    modes[rng.range(0, modes.len() as i64 - 1) as usize]
}

/// `tma::descriptor`'s `copy_bytes` (the transaction bytes) and `smem_bytes` (what one box
/// occupies, rows padded to the swizzle span) on random descriptors against the extracted
/// `copy_bits` and `smem_bits` (`proofs/TmaBox.v`): the copy moves one element per point of the
/// box (`copy_points`), and with the rows padded every element lies inside `smem_bits`
/// (`box_elements_in_smem`, `smem_bits_exact`). And the driver's `SwizzleSpan` rule, as
/// `tma::check` runs it (the `tma_descriptor` obligation), on every drawn request it applies to:
/// it passes exactly when the extracted `pitch_bits` pads the rows to exactly the span
/// (`span_rule_iff`). Every data type, rank 1 to 5, inner boxes of
/// whole 16-byte units up to the span (or past it now and then), element strides 1 to 8,
/// interleave none or (now and then) 16B/32B; the requests the driver's rules refuse are left out.
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn tma_box_bytes_agree_with_the_extracted_proof() {
    let mut rng = Rng(0x7BA_B0C5);
    let types = DataType::all();
    let (mut requests, mut rust) = (Vec::new(), Vec::new());
    let (mut span_requests, mut span_rust) = (Vec::new(), Vec::new());
    let (mut drawn, mut padded) = (0, 0);
    while requests.len() < CASES {
        drawn += 1;
        let dt = types[rng.range(0, types.len() as i64 - 1) as usize];
        let bits = dt.mem_bits();
        let rank = rng.range(1, 5) as usize;
        let mode = tma_mode(&mut rng);
        let span = mode.span().unwrap_or(128);
        // Box dimension 0 (innermost): whole 16-byte units, at most the span (mostly).
        let unit = (128 / bits).max(1);
        let max_units = (8 * span / 128).max(1) as i64;
        let units = if rng.range(0, 9) == 0 {
            rng.range(1, 2 * max_units)
        } else {
            rng.range(1, max_units)
        };
        let mut boxd = vec![(units as u64) * unit];
        for _ in 1..rank {
            boxd.push(rng.range(1, 16) as u64);
        }
        let shape: Vec<u64> = boxd.iter().map(|&b| b * rng.range(1, 3) as u64).collect();
        let estr: Vec<u64> = (0..rank)
            .map(|_| {
                if rng.range(0, 2) == 0 {
                    rng.range(1, 8) as u64
                } else {
                    1
                }
            })
            .collect();
        // Tensor order (outermost first) is the reverse of driver order.
        let rev = |v: &[u64]| v.iter().rev().copied().collect::<Vec<u64>>();
        let mut r = Request::new(dt, &rev(&shape), &rev(&boxd));
        r.element_strides = rev(&estr);
        r.swizzle = mode;
        r.interleave = match rng.range(0, 9) {
            0 => Interleave::B16,
            1 => Interleave::B32,
            _ => Interleave::None,
        };
        // The `SwizzleSpan` rule of every request with a swizzle, no interleave and an inner box
        // of whole 16-byte units (`InnerBoxBytes`), refused or not: it passes exactly when the
        // rows are padded to exactly the span (`span_rule_iff`).
        let inner_bits = boxd[0] * bits;
        if let (Some(sp), Interleave::None, 0) = (mode.span(), r.interleave, inner_bits % 128) {
            let ok = !tma_check(&r)
                .iter()
                .any(|(e, _)| matches!(e, TmaError::SwizzleSpan { .. }));
            span_requests.push(format!("J {sp} {inner_bits}"));
            span_rust.push(if ok { "1" } else { "0" }.to_string());
        }
        let Ok(d) = descriptor(&r) else { continue };
        padded += usize::from(d.smem_bytes > d.copy_bytes);
        let il = u8::from(r.interleave != Interleave::None);
        let sp = mode.span().unwrap_or(0);
        let mut req = format!("B {il} {sp} {bits} {rank}");
        for v in boxd.iter().chain(&estr) {
            req.push_str(&format!(" {v}"));
        }
        requests.push(req);
        rust.push(format!("{} {}", d.copy_bytes, d.smem_bytes));
    }
    eprintln!("tma box bytes: {CASES} descriptors of {drawn} drawn, {padded} with padded rows");
    assert!(padded >= CASES / 10);
    compare("tma box bytes", &requests, &rust);
    let refused = span_rust.iter().filter(|v| *v == "0").count();
    eprintln!(
        "tma swizzle span rule: {} requests, {refused} refused by it",
        span_requests.len()
    );
    assert!(refused >= span_requests.len() / 40);
    compare("tma swizzle span rule", &span_requests, &span_rust);
}

/// `tma::smem::box_layout` (the element offsets TMA writes a box with, rows padded to the swizzle
/// span, the byte swizzle recast to elements) at a random index of a random box against the
/// extracted `box_elem` (`proofs/TmaBox.v`): unswizzled, the offsets are one to one and inside
/// the padded box (`box_offset_injective`, `box_offset_fits`); the element swizzle is the byte
/// swizzle on the element's bytes (`recast`), which keeps every byte in its span-aligned row
/// (`swizzle_keeps_row`, `swizzled_box_fits`).
#[test]
#[ignore = "needs the extracted executable: bash proofs/bridge/run.sh"]
fn tma_box_layout_agrees_with_the_extracted_proof() {
    let mut rng = Rng(0xB0C5_1A70);
    let types = DataType::all();
    let (mut requests, mut rust) = (Vec::new(), Vec::new());
    let mut swizzled = 0;
    while requests.len() < CASES {
        let dt = types[rng.range(0, types.len() as i64 - 1) as usize];
        let mode = tma_mode(&mut rng);
        let rank = rng.range(1, 4) as usize;
        let dims: Vec<u64> = (0..rank)
            .map(|k| {
                if k + 1 == rank {
                    rng.range(1, 80) as u64
                } else {
                    rng.range(1, 12) as u64
                }
            })
            .collect();
        let Ok(l) = box_layout(dt, &dims, mode) else {
            continue;
        };
        let size: u64 = dims.iter().product();
        let i = rng.range(0, size as i64 - 1);
        swizzled += usize::from(mode != TmaSwizzle::None);
        let mut req = format!("L {} {} {i}", dt.mem_bits(), mode.cu_value());
        for d in &dims {
            req.push_str(&format!(" {d}"));
        }
        requests.push(req);
        rust.push(l.eval(i).expect("eval").to_string());
    }
    eprintln!("tma box layout: {CASES} boxes, {swizzled} swizzled");
    compare("tma box layout", &requests, &rust);
}
