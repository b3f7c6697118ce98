//! Where TMA puts a swizzled box when the destination is not on the swizzle's repeat, against a
//! real GPU, and `tessera check`'s `smem_alignment` verdicts against what a consumer then reads.
//!
//! `tests/data/tma_base_hw.tsv` was measured on an NVIDIA H200 by `tools/tma_base_hw/`: one
//! 16-bit box of 8 rows × one swizzle span (128-byte rows without a swizzle), loaded by
//! `cp.async.bulk.tensor` to a destination 0–1920 bytes past a 2048-byte aligned shared-memory
//! address, for the swizzles none, 32B, 64B and 128B; every element's byte offset from the
//! destination read back. What it shows:
//!
//! - a destination that is not a multiple of 128 bytes faults (`cudaErrorMisalignedAddress`),
//!   with or without a swizzle: the 128-byte rule `smem_alignment` applies to every buffer;
//! - TMA swizzles the shared-memory ADDRESS: at every destination, element `i` lands at
//!   `Sw(base + u_i) - base` (`u_i` its unswizzled offset), so a consumer that swizzles addresses
//!   (CuTe's swizzled layouts, GMMA descriptors) reads it back at any 128-byte aligned base;
//! - a consumer that swizzles OFFSETS from the buffer (a hand-written formula: the checker's
//!   `swizzle_base = "offset"`) reads the box where `box_layout` puts it only when the base is a
//!   multiple of the swizzle's repeat (256, 512, 1024 bytes); elsewhere it reads a wrong element at
//!   every position (measured: all of them).
//!
//! `tessera check` must refute `smem_alignment` exactly where the hardware faults or where the
//! consumer would read wrong elements, and prove it everywhere else.

use tessera::check::config::SwizzleBase;
use tessera::check::{check, Config, Verdict};
use tessera::tma::smem::{box_layout, byte_swizzle};
use tessera::tma::{DataType, Swizzle};

enum Outcome {
    /// Byte offset of each element from the destination.
    Loaded(Vec<i64>),
    Fault,
}

struct Case {
    line: usize,
    mode: Swizzle,
    offset: u64,
    outcome: Outcome,
}

fn cases() -> Vec<Case> {
    include_str!("../data/tma_base_hw.tsv")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let mode = Swizzle::parse(f[1]).unwrap();
            let offset = f[2].parse().unwrap();
            let outcome = match f[0] {
                "ok" => {
                    assert_eq!(f[4], "0", "line {}: stray slots", i + 1);
                    let p: Vec<i64> = f[5].split(',').map(|x| x.parse().unwrap()).collect();
                    assert_eq!(p.len(), f[3].parse::<usize>().unwrap(), "line {}", i + 1);
                    Outcome::Loaded(p)
                }
                "fault" => {
                    assert_eq!(f[3], "cudaErrorMisalignedAddress", "line {}", i + 1);
                    Outcome::Fault
                }
                s => panic!("line {}: status {s}", i + 1),
            };
            Case {
                line: i + 1,
                mode,
                offset,
                outcome,
            }
        })
        .collect()
}

/// The box of a case: 8 rows of one swizzle span (128 bytes without a swizzle), 16-bit elements.
fn box_dims(mode: Swizzle) -> [u64; 2] {
    let row_bytes = match mode {
        Swizzle::B32 => 32,
        Swizzle::B64 => 64,
        _ => 128,
    };
    [8, row_bytes / 2]
}

/// Byte offsets of the box's elements (row-major) under `box_layout` with `mode`.
fn placed(mode: Swizzle) -> Vec<i64> {
    let [rows, cols] = box_dims(mode);
    let l = box_layout(DataType::U16, &[rows, cols], mode).unwrap();
    (0..rows * cols)
        .map(|i| {
            // Row-major element i is the coordinate (i / cols, i % cols); the layout's index is
            // colexicographic.
            let j = (i % cols) * rows + i / cols;
            l.eval(j as i64).unwrap() * 2
        })
        .collect()
}

/// The address model: TMA swizzles `base + u` for the unswizzled byte offset `u`.
fn by_address(mode: Swizzle, base: i64) -> Vec<i64> {
    let sw = byte_swizzle(mode).unwrap().unwrap();
    let rows_bytes = box_dims(mode)[1] as i64 * 2;
    // Rows are exactly one span here, so the unswizzled offsets are dense.
    let [rows, cols] = box_dims(mode);
    (0..(rows * cols) as i64)
        .map(|i| {
            let u = (i / cols as i64) * rows_bytes + (i % cols as i64) * 2;
            sw.apply(base + u) - base
        })
        .collect()
}

/// The largest power of two dividing `offset` (the buffer's alignment), 2048 for offset 0.
fn alignment(offset: u64) -> u64 {
    if offset == 0 {
        2048
    } else {
        1 << offset.trailing_zeros()
    }
}

fn atom(mode: Swizzle) -> &'static str {
    match mode {
        Swizzle::None => "GMMA::Layout_K_INTER_Atom<half_t>",
        Swizzle::B32 => "GMMA::Layout_K_SW32_Atom<half_t>",
        Swizzle::B64 => "GMMA::Layout_K_SW64_Atom<half_t>",
        Swizzle::B128 => "GMMA::Layout_K_SW128_Atom<half_t>",
        _ => unreachable!(),
    }
}

/// `tessera check`'s verdict on buffer A at this base (B, C, D on 2048 bytes, out of the way).
fn alignment_refuted(mode: Swizzle, offset: u64, base: SwizzleBase) -> bool {
    let mut c = Config::sm90_example();
    c.smem_layout_a = Some(atom(mode).to_string());
    c.smem_align = [Some(alignment(offset)), Some(2048), Some(2048), Some(2048)];
    c.swizzle_base = base;
    let r = check(&c);
    let o = r
        .obligations
        .iter()
        .find(|o| o.code == "smem_alignment")
        .expect("smem_alignment is checked on sm90");
    match o.verdict {
        Verdict::Refuted => {
            assert!(o.message.contains("buffer A"), "{}", o.message);
            true
        }
        Verdict::Proved => false,
        _ => panic!("smem_alignment: {:?}", o.verdict),
    }
}

#[test]
fn tma_swizzles_the_shared_memory_address() {
    let (mut loaded, mut faults) = (0, 0);
    for c in cases() {
        let what = format!("line {}: {} at +{}", c.line, c.mode.name(), c.offset);
        match &c.outcome {
            Outcome::Loaded(p) => {
                assert_eq!(
                    c.offset % 128,
                    0,
                    "{what}: loaded at a misaligned destination"
                );
                assert_eq!(p, &by_address(c.mode, c.offset as i64), "{what}");
                loaded += 1;
            }
            Outcome::Fault => {
                assert_ne!(c.offset % 128, 0, "{what}: an aligned destination faulted");
                faults += 1;
            }
        }
    }
    // 4 swizzles × (16 aligned + 7 misaligned destinations).
    assert_eq!((loaded, faults), (64, 28));
}

#[test]
fn offset_swizzling_consumers_read_wrong_elements_off_the_repeat() {
    let (mut right, mut wrong) = (0, 0);
    for c in cases() {
        let Outcome::Loaded(p) = &c.outcome else {
            continue;
        };
        // The swizzle's repeat (its span: 256, 512, 1024 bytes); no swizzle repeats every row.
        let repeat = (byte_swizzle(c.mode).unwrap().unwrap().span() as u64).max(128);
        let relative = placed(c.mode);
        let misread = p.iter().zip(&relative).filter(|(a, b)| a != b).count();
        let what = format!("line {}: {} at +{}", c.line, c.mode.name(), c.offset);
        if c.offset % repeat == 0 {
            assert_eq!(misread, 0, "{what}");
            right += 1;
        } else {
            // Every element is misread: the base's phase moves every row.
            assert_eq!(misread, p.len(), "{what}");
            wrong += 1;
        }
    }
    // none: 16 right; 32B: 8 + 8; 64B: 4 + 12; 128B: 2 + 14.
    assert_eq!((right, wrong), (30, 34));
}

#[test]
fn check_refutes_smem_alignment_exactly_where_the_hardware_goes_wrong() {
    for c in cases() {
        let what = format!("line {}: {} at +{}", c.line, c.mode.name(), c.offset);
        let fault = matches!(c.outcome, Outcome::Fault);
        // A consumer swizzling addresses reads what TMA wrote wherever the copy ran.
        assert_eq!(
            alignment_refuted(c.mode, c.offset, SwizzleBase::Address),
            fault,
            "{what}: swizzle_base = address"
        );
        // A consumer swizzling offsets reads it only when the base is on the repeat.
        let misread = match &c.outcome {
            Outcome::Loaded(p) => p != &placed(c.mode),
            Outcome::Fault => true,
        };
        assert_eq!(
            alignment_refuted(c.mode, c.offset, SwizzleBase::Offset),
            misread,
            "{what}: swizzle_base = offset"
        );
    }
}
