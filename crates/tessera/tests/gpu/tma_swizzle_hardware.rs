//! Where TMA puts a box in shared memory, against a real GPU: `tests/data/tma_swizzle_hw.tsv` was
//! measured on an NVIDIA H200 by `tools/tma_swizzle_hw/` (one `cp.async.bulk.tensor` per box,
//! every element's shared-memory byte offset read back) for 16/32/64-bit elements, the four
//! sm_90 swizzle modes, rows of 16–256 bytes and 8–256 rows, rank 2 and 3. `box_layout` must give
//! every element's offset (compared through an FNV-1a hash of all offsets and the first 16
//! offsets), `Descriptor::smem_bytes` must cover every byte written, and `tessera tma` must refuse
//! exactly the boxes the driver refused.

use tessera::tma::smem::box_layout;
use tessera::tma::{descriptor, DataType, Request, Swizzle};

struct Loaded {
    line: usize,
    dtype: DataType,
    mode: Swizzle,
    box_dims: Vec<u64>,
    elements: u64,
    fnv: u64,
    footprint: u64,
    first: Vec<i64>,
}

enum Row {
    Loaded(Loaded),
    Refused {
        line: usize,
        dtype: DataType,
        mode: Swizzle,
        box_dims: Vec<u64>,
    },
}

fn rows() -> Vec<Row> {
    include_str!("../data/tma_swizzle_hw.tsv")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let dtype = DataType::parse(f[1]).unwrap();
            let mode = Swizzle::parse(f[2]).unwrap();
            let box_dims: Vec<u64> = f[3].split(',').map(|x| x.parse().unwrap()).collect();
            match f[0] {
                "ok" => {
                    assert_eq!(f.len(), 10, "line {}", i + 1);
                    assert_eq!(
                        (f[7], f[8]),
                        ("0", "0"),
                        "line {}: missing/duplicate",
                        i + 1
                    );
                    Row::Loaded(Loaded {
                        line: i + 1,
                        dtype,
                        mode,
                        box_dims,
                        elements: f[4].parse().unwrap(),
                        fnv: u64::from_str_radix(f[5], 16).unwrap(),
                        footprint: f[6].parse().unwrap(),
                        first: f[9].split(',').map(|x| x.parse().unwrap()).collect(),
                    })
                }
                "refused" => Row::Refused {
                    line: i + 1,
                    dtype,
                    mode,
                    box_dims,
                },
                s => panic!("line {}: status {s}", i + 1),
            }
        })
        .collect()
}

/// Byte offsets of the box's elements in row-major order (innermost fastest), by `box_layout`.
fn offsets(c: &Loaded) -> Vec<i64> {
    let l = box_layout(c.dtype, &c.box_dims, c.mode).unwrap();
    let bytes = (c.dtype.mem_bits() / 8) as i64;
    let n = c.box_dims.len();
    let mut out = Vec::new();
    for i in 0..c.elements {
        // Row-major coordinates (last fastest), then the colexicographic index the layout takes.
        let mut rest = i;
        let mut crd = vec![0u64; n];
        for k in (0..n).rev() {
            crd[k] = rest % c.box_dims[k];
            rest /= c.box_dims[k];
        }
        let mut j = 0u64;
        for k in (0..n).rev() {
            j = j * c.box_dims[k] + crd[k];
        }
        out.push(l.eval(j as i64).unwrap() * bytes);
    }
    out
}

fn fnv(offsets: &[i64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &o in offsets {
        for k in 0..8 {
            h ^= ((o as u64) >> (8 * k)) & 0xff;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn request(dtype: DataType, mode: Swizzle, box_dims: &[u64]) -> Request {
    let mut r = Request::new(dtype, box_dims, box_dims);
    r.swizzle = mode;
    r
}

#[test]
fn box_layout_places_every_element_where_the_hardware_does() {
    let mut loaded = 0;
    let mut padded = 0;
    for row in rows() {
        let Row::Loaded(c) = row else { continue };
        let o = offsets(&c);
        let what = format!(
            "line {}: {} {} box {:?}",
            c.line,
            c.dtype.name(),
            c.mode.name(),
            c.box_dims
        );
        assert_eq!(&o[..c.first.len()], &c.first[..], "{what}: first offsets");
        assert_eq!(fnv(&o), c.fnv, "{what}: offsets (hash)");
        let d = descriptor(&request(c.dtype, c.mode, &c.box_dims)).unwrap();
        let end = o.iter().max().unwrap() + (c.dtype.mem_bits() / 8) as i64;
        assert_eq!(end as u64, c.footprint, "{what}: last byte written");
        assert!(
            d.smem_bytes >= c.footprint,
            "{what}: smem_bytes {}",
            d.smem_bytes
        );
        assert_eq!(d.copy_bytes, c.elements * c.dtype.mem_bits() / 8, "{what}");
        if d.smem_bytes > d.copy_bytes {
            padded += 1;
        }
        loaded += 1;
    }
    assert!(loaded >= 290, "{loaded}");
    assert!(padded >= 100, "{padded}");
}

/// The dense model (no row padding) is what the hardware refutes: it differs on every box whose
/// rows are narrower than the swizzle span.
#[test]
fn a_dense_model_is_refuted_by_the_hardware() {
    let mut refuted = 0;
    for row in rows() {
        let Row::Loaded(c) = row else { continue };
        let row_bytes = c.box_dims.last().unwrap() * c.dtype.mem_bits() / 8;
        let narrower = c.mode.span().is_some_and(|s| row_bytes < s);
        // The dense offsets: the box's row-major byte offsets, swizzled by the mode.
        let sw = tessera::tma::smem::byte_swizzle(c.mode).unwrap().unwrap();
        let bytes = (c.dtype.mem_bits() / 8) as i64;
        let dense: Vec<i64> = (0..c.elements as i64)
            .map(|i| sw.apply(i * bytes))
            .collect();
        assert_eq!(fnv(&dense) != c.fnv, narrower, "line {}", c.line);
        refuted += usize::from(narrower);
    }
    assert!(refuted >= 100, "{refuted}");
}

#[test]
fn tessera_refuses_exactly_the_boxes_the_driver_refused() {
    let mut refused = 0;
    for row in rows() {
        match row {
            Row::Loaded(c) => {
                let r = request(c.dtype, c.mode, &c.box_dims);
                assert!(descriptor(&r).is_ok(), "line {}: refused", c.line);
            }
            Row::Refused {
                line,
                dtype,
                mode,
                box_dims,
            } => {
                let r = request(dtype, mode, &box_dims);
                assert!(descriptor(&r).is_err(), "line {line}: accepted");
                refused += 1;
            }
        }
    }
    assert!(refused >= 100, "{refused}");
}
