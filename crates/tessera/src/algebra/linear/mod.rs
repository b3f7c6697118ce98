//! Linear layouts over F2, as Triton defines them (`include/triton/Tools/LinearLayout.h`; the
//! paper "Linear Layouts", arXiv 2505.23819).
//!
//! A [`LinearLayout`] has named input dimensions, each with a list of *bases* (one per input bit),
//! and named output dimensions with power-of-two sizes. Each basis is a vector with one entry per
//! output dimension. The value at an input is the XOR of the bases of its set bits:
//! `L(x) = ⊕_{i : bit i of x is set} b_i`. An input dimension with `k` bases has size `2^k`.
//!
//! Internally a basis is stored *flattened*: the output dimensions' bits are concatenated, the
//! first output dimension in the low bits (the colexicographic order CuTe uses), so one basis is
//! one `u64` and the layout is a matrix over F2 with at most 63 rows. Likewise the input bits are
//! concatenated, the first input dimension in the low bits ([`LinearLayout::apply_flat`]).
//!
//! Text form (documented in `docs/banks.md`), one line, Triton's bases with the output sizes:
//! `register = [[0, 1], [0, 2]], lane = [[1, 0]] -> dim0 = 2, dim1 = 4`. An input dimension with
//! no bases (size 1) is written `name = []`. [`LinearLayout::to_json`] gives the same as JSON.
//!
//! This file is the F2 algebra (construction, application, composition, products, inverses,
//! reshapes, normal form); [`cute`] converts to and from CuTe layouts and the XOR swizzle of
//! CuTe's `Swizzle<B,M,S>` ([`LinearLayout::from_layout`], [`LinearLayout::to_layout`],
//! [`LinearLayout::from_swizzle`]); [`text`] is the text form (parser, printer) and JSON.

pub mod cute;
pub mod text;

use crate::algebra::coalesce_by;
use crate::layout::{AnyLayout, ComposedLayout, IntTuple, Layout, Mode, Swizzle, Tree};

/// The most output (or input) bits a linear layout may have in total.
pub const MAX_BITS: u32 = 63;

/// A failed obligation of a linear-layout operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinearError {
    /// A size is not a power of two (Triton's layouts are power-of-two only).
    #[error("{what} = {value} is not a power of two")]
    NotPowerOfTwo {
        /// What the value is.
        what: String,
        /// The value.
        value: u64,
    },
    /// More than [`MAX_BITS`] bits in total.
    #[error("{what} has {bits} bits in total, more than the limit {MAX_BITS}")]
    TooManyBits {
        /// Which side.
        what: &'static str,
        /// The total.
        bits: u32,
    },
    /// A basis entry is outside its output dimension.
    #[error("basis {index} of input `{input}` has {value} in output `{output}` of size {size}")]
    BasisOutOfRange {
        /// The input dimension.
        input: String,
        /// The basis index (the bit).
        index: usize,
        /// The output dimension.
        output: String,
        /// The entry.
        value: u64,
        /// The output size.
        size: u64,
    },
    /// A basis has the wrong number of entries.
    #[error("basis {index} of input `{input}` has {found} entries, but there are {expected} output dimensions")]
    BasisArity {
        /// The input dimension.
        input: String,
        /// The basis index.
        index: usize,
        /// Entries found.
        found: usize,
        /// Output dimensions.
        expected: usize,
    },
    /// Dimension names do not match (composition, inversion, product), or a name repeats.
    #[error("{op}: dimensions do not match: {detail}")]
    DimMismatch {
        /// The operation.
        op: &'static str,
        /// Which names.
        detail: String,
    },
    /// The layout must be injective (or bijective) and is not.
    #[error("{op}: the layout is not {property}: {detail}")]
    NotInvertible {
        /// The operation.
        op: &'static str,
        /// `injective`, `surjective` or `bijective`.
        property: &'static str,
        /// A witness (a dependent basis or a missed output bit).
        detail: String,
    },
    /// `invert_and_compose`: a value of `A` is not in the image of `B`.
    #[error(
        "invert_and_compose: A's basis {index} of `{input}` = {value} is not in the image of B"
    )]
    NotInImage {
        /// A's input dimension.
        input: String,
        /// The basis index.
        index: usize,
        /// The value (flattened over B's outputs).
        value: String,
    },
    /// An input value is outside its dimension.
    #[error("input `{input}` = {value} is outside its size {size}")]
    InputOutOfRange {
        /// The input dimension.
        input: String,
        /// The value.
        value: u64,
        /// The size.
        size: u64,
    },
    /// A CuTe layout is not F2-linear: two input bits' contributions carry when added.
    #[error("{layout} is not F2-linear: mode {mode} (shape {shape}, stride {stride}) bit {bit} contributes {contribution}, which shares bit {shared_bit} of the index with {other}")]
    NotLinear {
        /// The layout.
        layout: String,
        /// Index of the leaf mode (left to right) whose bit breaks linearity.
        mode: usize,
        /// Its shape.
        shape: i64,
        /// Its stride.
        stride: i64,
        /// The input bit within the mode.
        bit: u32,
        /// What that bit adds to the index.
        contribution: i64,
        /// The earlier contribution it overlaps (and where it comes from).
        other: String,
        /// The lowest index bit both set.
        shared_bit: u32,
        /// Checked suggestions: layouts, close to this one, that are F2-linear.
        suggestions: Vec<String>,
    },
    /// A CuTe layout mode that cannot be F2-linear at all (shape not a power of two, stride < 0).
    #[error("{layout} is not F2-linear: mode {mode} (shape {shape}, stride {stride}): {reason}")]
    NotLinearMode {
        /// The layout.
        layout: String,
        /// Leaf mode index.
        mode: usize,
        /// Its shape.
        shape: i64,
        /// Its stride.
        stride: i64,
        /// Why.
        reason: &'static str,
        /// Checked suggestions.
        suggestions: Vec<String>,
    },
    /// A linear layout with no CuTe (or swizzled CuTe) form.
    #[error("{layout} has no {target} form: {detail}")]
    NoCuteForm {
        /// The linear layout.
        layout: String,
        /// `CuTe layout` or `Swizzle<B,M,S> o layout`.
        target: &'static str,
        /// Why.
        detail: String,
    },
    /// Malformed text.
    #[error("parse error at column {column}: {message}")]
    Parse {
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
}

impl LinearError {
    /// A stable snake_case code.
    ///
    /// Pre: none. Post: non-empty, starts with `linear_`.
    pub fn code(&self) -> &'static str {
        match self {
            LinearError::NotPowerOfTwo { .. } => "linear_not_power_of_two",
            LinearError::TooManyBits { .. } => "linear_too_many_bits",
            LinearError::BasisOutOfRange { .. } => "linear_basis_out_of_range",
            LinearError::BasisArity { .. } => "linear_basis_arity",
            LinearError::DimMismatch { .. } => "linear_dim_mismatch",
            LinearError::NotInvertible { .. } => "linear_not_invertible",
            LinearError::NotInImage { .. } => "linear_not_in_image",
            LinearError::InputOutOfRange { .. } => "linear_input_out_of_range",
            LinearError::NotLinear { .. } => "linear_carry",
            LinearError::NotLinearMode { .. } => "linear_mode",
            LinearError::NoCuteForm { .. } => "linear_no_cute_form",
            LinearError::Parse { .. } => "linear_parse",
        }
    }

    /// The checked suggestions carried by the error (empty for most codes).
    pub fn suggestions(&self) -> &[String] {
        match self {
            LinearError::NotLinear { suggestions, .. }
            | LinearError::NotLinearMode { suggestions, .. } => suggestions,
            _ => &[],
        }
    }
}

/// Result of a linear-layout operation.
pub type LResult<T> = std::result::Result<T, LinearError>;

/// A named input dimension: one basis (flattened over the outputs) per input bit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InDim {
    /// The name, e.g. `register`, `lane`, `warp`, `block`, `offset`.
    pub name: String,
    /// `bases[i]` is the value of input `2^i`, flattened over the output dimensions.
    pub bases: Vec<u64>,
}

/// A named output dimension of size `2^bits`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OutDim {
    /// The name, e.g. `dim0`, `offset`.
    pub name: String,
    /// log2 of the size.
    pub bits: u32,
}

/// A linear layout over F2 (Triton's `LinearLayout`). See the module documentation.
///
/// Invariants: names are unique within inputs and within outputs; Σ out bits ≤ [`MAX_BITS`],
/// Σ in bits ≤ [`MAX_BITS`]; every basis is `< 2^(Σ out bits)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinearLayout {
    ins: Vec<InDim>,
    outs: Vec<OutDim>,
}

fn log2_exact(what: impl FnOnce() -> String, v: u64) -> LResult<u32> {
    if v == 0 || !v.is_power_of_two() {
        return Err(LinearError::NotPowerOfTwo {
            what: what(),
            value: v,
        });
    }
    Ok(v.trailing_zeros())
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `TooManyBits` unless `bits` output bits fit in [`MAX_BITS`].
fn check_out_bits(bits: u32) -> LResult<()> {
    if bits > MAX_BITS {
        return Err(LinearError::TooManyBits {
            what: "outputs",
            bits,
        });
    }
    Ok(())
}

/// `TooManyBits` unless `bits` input bits fit in [`MAX_BITS`].
fn check_in_bits(bits: usize) -> LResult<()> {
    if bits > MAX_BITS as usize {
        return Err(LinearError::TooManyBits {
            what: "inputs",
            bits: bits as u32,
        });
    }
    Ok(())
}

/// The one-dimensional layout `offset -> offset` with the given bases over `size_bits` bits.
fn offset_layout(bases: Vec<u64>, size_bits: u32) -> LinearLayout {
    LinearLayout {
        ins: vec![InDim {
            name: "offset".into(),
            bases,
        }],
        outs: vec![OutDim {
            name: "offset".into(),
            bits: size_bits,
        }],
    }
}

fn unique<'a>(op: &'static str, names: impl Iterator<Item = &'a str>) -> LResult<()> {
    let mut seen: Vec<&str> = Vec::new();
    for n in names {
        if seen.contains(&n) {
            return Err(LinearError::DimMismatch {
                op,
                detail: format!("`{n}` appears twice"),
            });
        }
        seen.push(n);
    }
    Ok(())
}

/// `DimMismatch` unless `order` is `n` distinct names (a permutation, given the names exist).
fn permutation(op: &'static str, order: &[&str], n: usize) -> LResult<()> {
    if order.len() != n {
        return Err(LinearError::DimMismatch {
            op,
            detail: "not a permutation".into(),
        });
    }
    unique(op, order.iter().copied())
}

/// A reduced F2 basis (row echelon by highest bit) that records, for each pivot, which original
/// vectors combine to it (as a bit mask over their indices, up to 64 of them).
#[derive(Clone, Debug, Default)]
pub(crate) struct Echelon {
    /// `(vector, combination)` with distinct leading bits.
    rows: Vec<(u64, u64)>,
}

impl Echelon {
    /// Reduces `v` by the rows: the remainder and the combination used.
    fn reduce(&self, mut v: u64) -> (u64, u64) {
        let mut comb = 0u64;
        for &(r, c) in &self.rows {
            let lead = 63 - r.leading_zeros();
            if v >> lead & 1 == 1 {
                v ^= r;
                comb ^= c;
            }
        }
        (v, comb)
    }

    /// Inserts vector number `index`; `false` if it is dependent on the earlier ones.
    pub(crate) fn insert(&mut self, v: u64, index: u32) -> bool {
        let (r, c) = self.reduce(v);
        if r == 0 {
            return false;
        }
        let c = c ^ (1u64 << index.min(63));
        // Keep rows sorted by decreasing leading bit so `reduce` is one pass.
        let lead = 63 - r.leading_zeros();
        let pos = self
            .rows
            .iter()
            .position(|&(x, _)| 63 - x.leading_zeros() < lead)
            .unwrap_or(self.rows.len());
        self.rows.insert(pos, (r, c));
        true
    }

    /// The rank.
    pub(crate) fn rank(&self) -> u32 {
        self.rows.len() as u32
    }

    /// A combination of the inserted vectors equal to `v`, if `v` is in their span.
    fn solve(&self, v: u64) -> Option<u64> {
        let (r, c) = self.reduce(v);
        (r == 0).then_some(c)
    }
}

/// The F2 rank of a set of vectors.
///
/// Pre: none. Post: `rank ≤ min(vs.len(), 64)`. Example: `f2_rank(&[1, 2, 3]) == 2`.
pub fn f2_rank(vs: &[u64]) -> u32 {
    let mut e = Echelon::default();
    for (i, &v) in vs.iter().enumerate() {
        e.insert(v, i as u32);
    }
    e.rank()
}

impl LinearLayout {
    /// A linear layout from Triton-style bases: `ins[i] = (name, bases)` where each basis has one
    /// entry per output dimension, and `outs[j] = (name, size)`.
    ///
    /// Pre: sizes are powers of two; names unique; each basis entry `< size` of its output;
    /// in total at most 63 output bits and 63 input bits.
    /// Post: `self.in_dim_size(name) == 2^bases.len()`; `self.out_dim_size(name) == size`.
    ///
    /// ```
    /// use tessera::algebra::linear::LinearLayout;
    /// let l = LinearLayout::new(&[("lane", vec![vec![0, 1], vec![1, 0]])], &[("dim0", 2), ("dim1", 2)]).unwrap();
    /// assert_eq!(l.to_string(), "lane = [[0, 1], [1, 0]] -> dim0 = 2, dim1 = 2");
    /// ```
    pub fn new(ins: &[(&str, Vec<Vec<u64>>)], outs: &[(&str, u64)]) -> LResult<LinearLayout> {
        unique("new", ins.iter().map(|d| d.0))?;
        unique("new", outs.iter().map(|d| d.0))?;
        let mut out_dims = Vec::with_capacity(outs.len());
        let mut total = 0u32;
        for &(name, size) in outs {
            let bits = log2_exact(|| format!("size of output `{name}`"), size)?;
            total += bits;
            check_out_bits(total)?;
            out_dims.push(OutDim {
                name: name.to_string(),
                bits,
            });
        }
        let mut in_dims = Vec::with_capacity(ins.len());
        let mut in_total = 0usize;
        for (name, bases) in ins {
            in_total += bases.len();
            check_in_bits(in_total)?;
            let mut flat = Vec::with_capacity(bases.len());
            for (i, b) in bases.iter().enumerate() {
                if b.len() != outs.len() {
                    return Err(LinearError::BasisArity {
                        input: name.to_string(),
                        index: i,
                        found: b.len(),
                        expected: outs.len(),
                    });
                }
                let mut v = 0u64;
                let mut shift = 0u32;
                for (j, (&e, od)) in b.iter().zip(&out_dims).enumerate() {
                    if e >> od.bits != 0 {
                        return Err(LinearError::BasisOutOfRange {
                            input: name.to_string(),
                            index: i,
                            output: outs[j].0.to_string(),
                            value: e,
                            size: 1 << od.bits,
                        });
                    }
                    v |= e << shift;
                    shift += od.bits;
                }
                flat.push(v);
            }
            in_dims.push(InDim {
                name: name.to_string(),
                bases: flat,
            });
        }
        Ok(LinearLayout {
            ins: in_dims,
            outs: out_dims,
        })
    }

    /// Triton's `identity1D(size, in, out)`: `in = i ↦ out = i`.
    ///
    /// Pre: `size` a power of two ≤ 2^63. Post: bijective, `L(x) = x`.
    pub fn identity_1d(size: u64, input: &str, output: &str) -> LResult<LinearLayout> {
        let bits = log2_exact(|| "identity size".into(), size)?;
        Ok(LinearLayout {
            ins: vec![InDim {
                name: input.into(),
                bases: (0..bits).map(|i| 1u64 << i).collect(),
            }],
            outs: vec![OutDim {
                name: output.into(),
                bits,
            }],
        })
    }

    /// Triton's `zeros1D(size, in, out)`: every input maps to 0 (`out` has size 1).
    ///
    /// Pre: `size` a power of two. Post: `L(x) = 0`.
    pub fn zeros_1d(size: u64, input: &str, output: &str) -> LResult<LinearLayout> {
        let bits = log2_exact(|| "zeros size".into(), size)?;
        Ok(LinearLayout {
            ins: vec![InDim {
                name: input.into(),
                bases: vec![0; bits as usize],
            }],
            outs: vec![OutDim {
                name: output.into(),
                bits: 0,
            }],
        })
    }

    /// Triton's `strided1D(size, stride, in, out)`: `i ↦ i·stride` (stride a power of two),
    /// with output size `size·stride`.
    ///
    /// Pre: `size`, `stride` powers of two. Post: injective.
    pub fn strided_1d(size: u64, stride: u64, input: &str, output: &str) -> LResult<LinearLayout> {
        let bits = log2_exact(|| "strided size".into(), size)?;
        let s = log2_exact(|| "stride".into(), stride)?;
        check_out_bits(bits + s)?;
        Ok(LinearLayout {
            ins: vec![InDim {
                name: input.into(),
                bases: (0..bits).map(|i| 1u64 << (i + s)).collect(),
            }],
            outs: vec![OutDim {
                name: output.into(),
                bits: bits + s,
            }],
        })
    }

    /// The input dimensions.
    pub fn in_dims(&self) -> &[InDim] {
        &self.ins
    }

    /// The output dimensions.
    pub fn out_dims(&self) -> &[OutDim] {
        &self.outs
    }

    fn in_index(&self, name: &str) -> Option<usize> {
        self.ins.iter().position(|d| d.name == name)
    }

    /// The input dimensions with every basis mapped by `f` (names and order kept).
    fn map_bases(&self, mut f: impl FnMut(u64) -> u64) -> Vec<InDim> {
        self.ins
            .iter()
            .map(|d| InDim {
                name: d.name.clone(),
                bases: d.bases.iter().map(|&b| f(b)).collect(),
            })
            .collect()
    }

    /// The input dimensions as output dimensions (names kept, one bit per basis): the outputs of
    /// an inverse.
    fn ins_as_outs(&self) -> Vec<OutDim> {
        self.ins
            .iter()
            .map(|d| OutDim {
                name: d.name.clone(),
                bits: d.bases.len() as u32,
            })
            .collect()
    }

    /// `NotInvertible` (property `surjective`, for `op`) unless the layout is surjective.
    fn require_surjective(&self, op: &'static str) -> LResult<()> {
        if !self.is_surjective() {
            return Err(LinearError::NotInvertible {
                op,
                property: "surjective",
                detail: format!(
                    "rank {} < {} output bits",
                    self.rank(),
                    self.total_out_bits()
                ),
            });
        }
        Ok(())
    }

    fn out_index(&self, name: &str) -> Option<usize> {
        self.outs.iter().position(|d| d.name == name)
    }

    /// Size of an input dimension (`None` if absent).
    pub fn in_dim_size(&self, name: &str) -> Option<u64> {
        self.in_index(name).map(|i| 1u64 << self.ins[i].bases.len())
    }

    /// Size of an output dimension (`None` if absent).
    pub fn out_dim_size(&self, name: &str) -> Option<u64> {
        self.out_index(name).map(|i| 1u64 << self.outs[i].bits)
    }

    /// Σ input bits.
    pub fn total_in_bits(&self) -> u32 {
        self.ins.iter().map(|d| d.bases.len() as u32).sum()
    }

    /// Σ output bits.
    pub fn total_out_bits(&self) -> u32 {
        self.outs.iter().map(|d| d.bits).sum()
    }

    /// All bases, flattened over inputs (first input dimension first).
    pub fn flat_bases(&self) -> impl Iterator<Item = u64> + '_ {
        self.ins.iter().flat_map(|d| d.bases.iter().copied())
    }

    /// The basis entries of input `name`, bit `i`, per output dimension (Triton's
    /// `getBasis(in, i)`).
    pub fn basis(&self, name: &str, i: usize) -> Option<Vec<u64>> {
        let d = &self.ins[self.in_index(name)?];
        d.bases.get(i).map(|&v| self.split_out(v))
    }

    /// A flattened output value split into per-dimension values.
    pub fn split_out(&self, mut v: u64) -> Vec<u64> {
        self.outs
            .iter()
            .map(|d| {
                let e = v & mask(d.bits);
                v >>= d.bits;
                e
            })
            .collect()
    }

    /// The value at a flattened input `x` (the first input dimension in the low bits), flattened
    /// over the outputs.
    ///
    /// Pre: none (bits of `x` past the inputs are ignored). Post: `< 2^total_out_bits`;
    /// `apply_flat(a ^ b) == apply_flat(a) ^ apply_flat(b)`.
    #[inline]
    pub fn apply_flat(&self, x: u64) -> u64 {
        let mut acc = 0u64;
        let mut bit = 0u32;
        for d in &self.ins {
            for &b in &d.bases {
                if bit < 64 && (x >> bit) & 1 == 1 {
                    acc ^= b;
                }
                bit += 1;
            }
        }
        acc
    }

    /// Triton's `apply`: named inputs (missing ones are 0) to named outputs.
    ///
    /// Pre: each named input exists and its value is below its size.
    /// Post: one value per output dimension, in order.
    ///
    /// ```
    /// use tessera::algebra::linear::LinearLayout;
    /// let l = LinearLayout::identity_1d(8, "lane", "dim0").unwrap();
    /// let out = l.apply(&[("lane", 5)]).unwrap();
    /// assert_eq!((out[0].0.as_str(), out[0].1), ("dim0", 5));
    /// ```
    pub fn apply(&self, ins: &[(&str, u64)]) -> LResult<Vec<(String, u64)>> {
        let mut acc = 0u64;
        for &(name, v) in ins {
            let i = self
                .in_index(name)
                .ok_or_else(|| LinearError::DimMismatch {
                    op: "apply",
                    detail: format!("no input dimension `{name}`"),
                })?;
            let d = &self.ins[i];
            if v >> d.bases.len() != 0 {
                return Err(LinearError::InputOutOfRange {
                    input: name.into(),
                    value: v,
                    size: 1 << d.bases.len(),
                });
            }
            for (k, &b) in d.bases.iter().enumerate() {
                if v >> k & 1 == 1 {
                    acc ^= b;
                }
            }
        }
        let vals = self.split_out(acc);
        Ok(self.outs.iter().map(|d| d.name.clone()).zip(vals).collect())
    }

    /// Triton's `compose`: `outer ∘ self` (apply `self`, then `outer`).
    ///
    /// Pre: `self`'s output dimensions are `outer`'s input dimensions (same names, any order;
    /// each of `self`'s outputs no larger than `outer`'s input of that name).
    /// Post: inputs of `self`, outputs of `outer`; `r(x) = outer(self(x))`.
    pub fn compose(&self, outer: &LinearLayout) -> LResult<LinearLayout> {
        if self.outs.len() != outer.ins.len() {
            return Err(LinearError::DimMismatch {
                op: "compose",
                detail: format!(
                    "outputs [{}] vs inputs [{}]",
                    names(self.outs.iter().map(|d| &d.name)),
                    names(outer.ins.iter().map(|d| &d.name))
                ),
            });
        }
        // For each of self's output bits, its image under outer.
        let mut image = Vec::with_capacity(self.total_out_bits() as usize);
        for d in &self.outs {
            let j = outer
                .in_index(&d.name)
                .ok_or_else(|| LinearError::DimMismatch {
                    op: "compose",
                    detail: format!(
                        "`{}` is an output of the inner layout but not an input of the outer",
                        d.name
                    ),
                })?;
            let od = &outer.ins[j];
            if (d.bits as usize) > od.bases.len() {
                return Err(LinearError::DimMismatch {
                    op: "compose",
                    detail: format!(
                        "`{}` has size {} as an output but {} as an input",
                        d.name,
                        1u64 << d.bits,
                        1u64 << od.bases.len()
                    ),
                });
            }
            image.extend_from_slice(&od.bases[..d.bits as usize]);
        }
        let ins = self.map_bases(|b| {
            let mut acc = 0;
            let mut b = b;
            while b != 0 {
                let k = b.trailing_zeros();
                acc ^= image[k as usize];
                b &= b - 1;
            }
            acc
        });
        Ok(LinearLayout {
            ins,
            outs: outer.outs.clone(),
        })
    }

    /// Triton's `operator*`: the product. Input and output dimensions are the union (those of
    /// `self` first); a dimension present in both gets `self`'s bits low and `outer`'s high.
    ///
    /// Pre: the union fits in 63 output and 63 input bits.
    /// Post: for dimensions present in only one factor, the product acts as that factor; with
    /// disjoint dimensions, `r(x, y) = (self(x), outer(y))`.
    pub fn product(&self, outer: &LinearLayout) -> LResult<LinearLayout> {
        // Output dims: union, sizes multiplied where shared.
        let mut outs: Vec<OutDim> = self.outs.clone();
        for d in &outer.outs {
            match outs.iter_mut().find(|o| o.name == d.name) {
                Some(o) => o.bits += d.bits,
                None => outs.push(d.clone()),
            }
        }
        let total: u32 = outs.iter().map(|d| d.bits).sum();
        check_out_bits(total)?;
        // Re-flatten a value of `l` (over l's outs) into `outs`, shifted by `shift_of(name)`.
        let offset_of = |name: &str| -> u32 {
            let mut s = 0;
            for o in &outs {
                if o.name == name {
                    return s;
                }
                s += o.bits;
            }
            s
        };
        let remap = |l: &LinearLayout, v: u64, high: bool| -> u64 {
            let mut r = 0u64;
            for (d, e) in l.outs.iter().zip(l.split_out(v)) {
                let mut s = offset_of(&d.name);
                if high {
                    if let Some(i) = self.out_index(&d.name) {
                        s += self.outs[i].bits;
                    }
                }
                r |= e << s;
            }
            r
        };
        let mut ins: Vec<InDim> = self.map_bases(|b| remap(self, b, false));
        for d in &outer.ins {
            let mapped: Vec<u64> = d.bases.iter().map(|&b| remap(outer, b, true)).collect();
            match ins.iter_mut().find(|o| o.name == d.name) {
                Some(o) => o.bases.extend(mapped),
                None => ins.push(InDim {
                    name: d.name.clone(),
                    bases: mapped,
                }),
            }
        }
        let in_total: usize = ins.iter().map(|d| d.bases.len()).sum();
        check_in_bits(in_total)?;
        Ok(LinearLayout { ins, outs })
    }

    fn echelon(&self) -> Echelon {
        let mut e = Echelon::default();
        for (i, b) in self.flat_bases().enumerate() {
            e.insert(b, i as u32);
        }
        e
    }

    /// The F2 rank of the layout's matrix.
    pub fn rank(&self) -> u32 {
        self.echelon().rank()
    }

    /// Triton's `isInjective`: distinct inputs give distinct outputs (the bases are linearly
    /// independent).
    pub fn is_injective(&self) -> bool {
        self.rank() == self.total_in_bits()
    }

    /// Triton's `isSurjective`: every output value is reached (the bases span the outputs).
    pub fn is_surjective(&self) -> bool {
        self.rank() == self.total_out_bits()
    }

    /// Injective and surjective.
    pub fn is_invertible(&self) -> bool {
        self.is_injective() && self.is_surjective()
    }

    fn first_dependent(&self) -> Option<(String, usize)> {
        let mut e = Echelon::default();
        let mut k = 0u32;
        for d in &self.ins {
            for (i, &b) in d.bases.iter().enumerate() {
                if !e.insert(b, k) {
                    return Some((d.name.clone(), i));
                }
                k += 1;
            }
        }
        None
    }

    /// Triton's `invert`: the inverse of a bijective layout (outputs become inputs).
    ///
    /// Pre: bijective. Post: `r.compose(self)` and `self.compose(r)` are identities.
    pub fn invert(&self) -> LResult<LinearLayout> {
        if let Some((n, i)) = self.first_dependent() {
            return Err(LinearError::NotInvertible {
                op: "invert",
                property: "injective",
                detail: format!("basis {i} of `{n}` is a combination of earlier bases"),
            });
        }
        self.require_surjective("invert")?;
        let e = self.echelon();
        let ins = self
            .outs
            .iter()
            .scan(0u32, |shift, d| {
                let s = *shift;
                *shift += d.bits;
                Some(InDim {
                    name: d.name.clone(),
                    bases: (0..d.bits)
                        .map(|k| e.solve(1u64 << (s + k)).unwrap_or(0))
                        .collect(),
                })
            })
            .collect();
        Ok(LinearLayout {
            ins,
            outs: self.ins_as_outs(),
        })
    }

    /// Triton's `pseudoinvert`: a right inverse of a surjective layout (outputs to inputs) that
    /// picks, for every output, the preimage with the free input bits zero.
    ///
    /// Pre: surjective. Post: `r.compose(self)` is the identity on the outputs.
    pub fn pseudo_invert(&self) -> LResult<LinearLayout> {
        self.require_surjective("pseudo_invert")?;
        let id = self.identity_on_outputs();
        self.invert_and_compose_from(&id, "pseudo_invert")
    }

    fn identity_on_outputs(&self) -> LinearLayout {
        let mut shift = 0;
        let ins = self
            .outs
            .iter()
            .map(|d| {
                let s = shift;
                shift += d.bits;
                InDim {
                    name: d.name.clone(),
                    bases: (0..d.bits).map(|k| 1u64 << (s + k)).collect(),
                }
            })
            .collect();
        LinearLayout {
            ins,
            outs: self.outs.clone(),
        }
    }

    /// Triton's `invertAndCompose`: for `A = self` and `B = outer` with the same outputs, a
    /// layout `C` from `A`'s inputs to `B`'s inputs with `B(C(x)) = A(x)` for every `x`. `B` need
    /// not be injective: among the preimages, the one with the free bits zero is used.
    ///
    /// Pre: same output dimensions (names and sizes, any order); the image of `A` lies in the
    /// image of `B`. Post: `c.compose(outer) == self` as functions (checked in tests).
    pub fn invert_and_compose(&self, outer: &LinearLayout) -> LResult<LinearLayout> {
        outer.invert_and_compose_from(self, "invert_and_compose")
    }

    /// `C` with `self(C(x)) = a(x)`.
    fn invert_and_compose_from(&self, a: &LinearLayout, op: &'static str) -> LResult<LinearLayout> {
        // Re-flatten a's outputs into self's output order.
        let mut pos = Vec::with_capacity(a.outs.len());
        if a.outs.len() != self.outs.len() {
            return Err(LinearError::DimMismatch {
                op,
                detail: format!(
                    "outputs [{}] vs [{}]",
                    names(a.outs.iter().map(|d| &d.name)),
                    names(self.outs.iter().map(|d| &d.name))
                ),
            });
        }
        for d in &a.outs {
            let j = self
                .out_index(&d.name)
                .ok_or_else(|| LinearError::DimMismatch {
                    op,
                    detail: format!("`{}` is an output of A but not of B", d.name),
                })?;
            if self.outs[j].bits != d.bits {
                return Err(LinearError::DimMismatch {
                    op,
                    detail: format!(
                        "output `{}` has size {} in A but {} in B",
                        d.name,
                        1u64 << d.bits,
                        1u64 << self.outs[j].bits
                    ),
                });
            }
            let shift: u32 = self.outs[..j].iter().map(|o| o.bits).sum();
            pos.push(shift);
        }
        let e = self.echelon();
        let mut ins = Vec::with_capacity(a.ins.len());
        for d in &a.ins {
            let mut bases = Vec::with_capacity(d.bases.len());
            for (i, &b) in d.bases.iter().enumerate() {
                let mut v = 0u64;
                for ((od, e), &s) in a.outs.iter().zip(a.split_out(b)).zip(&pos) {
                    let _ = od;
                    v |= e << s;
                }
                let c = e.solve(v).ok_or_else(|| LinearError::NotInImage {
                    input: d.name.clone(),
                    index: i,
                    value: format!("{:?}", self.split_out(v)),
                })?;
                bases.push(c);
            }
            ins.push(InDim {
                name: d.name.clone(),
                bases,
            });
        }
        Ok(LinearLayout {
            ins,
            outs: self.ins_as_outs(),
        })
    }

    /// Triton's `flattenIns`: one input dimension (named as the first) with all input bits.
    ///
    /// Post: `apply_flat` unchanged.
    pub fn flatten_ins(&self) -> LinearLayout {
        let name = self
            .ins
            .first()
            .map(|d| d.name.clone())
            .unwrap_or_else(|| "in".into());
        LinearLayout {
            ins: vec![InDim {
                name,
                bases: self.flat_bases().collect(),
            }],
            outs: self.outs.clone(),
        }
    }

    /// Triton's `flattenOuts`: one output dimension (named as the first) with all output bits.
    ///
    /// Post: `apply_flat` unchanged.
    pub fn flatten_outs(&self) -> LinearLayout {
        let name = self
            .outs
            .first()
            .map(|d| d.name.clone())
            .unwrap_or_else(|| "out".into());
        LinearLayout {
            ins: self.ins.clone(),
            outs: vec![OutDim {
                name,
                bits: self.total_out_bits(),
            }],
        }
    }

    /// Triton's `reshapeIns`: the flattened inputs split into new named dimensions.
    ///
    /// Pre: sizes are powers of two whose product is the total input size; names unique.
    /// Post: `apply_flat` unchanged.
    pub fn reshape_ins(&self, dims: &[(&str, u64)]) -> LResult<LinearLayout> {
        unique("reshape_ins", dims.iter().map(|d| d.0))?;
        let all: Vec<u64> = self.flat_bases().collect();
        let mut at = 0usize;
        let mut ins = Vec::with_capacity(dims.len());
        for &(n, size) in dims {
            let b = log2_exact(|| format!("size of `{n}`"), size)? as usize;
            let end = at + b;
            if end > all.len() {
                return Err(LinearError::DimMismatch {
                    op: "reshape_ins",
                    detail: format!(
                        "the new sizes exceed the total input size {}",
                        1u128 << all.len()
                    ),
                });
            }
            ins.push(InDim {
                name: n.into(),
                bases: all[at..end].to_vec(),
            });
            at = end;
        }
        if at != all.len() {
            return Err(LinearError::DimMismatch {
                op: "reshape_ins",
                detail: format!(
                    "the new sizes multiply to 2^{at}, not the total input size 2^{}",
                    all.len()
                ),
            });
        }
        Ok(LinearLayout {
            ins,
            outs: self.outs.clone(),
        })
    }

    /// Triton's `reshapeOuts`: the flattened outputs split into new named dimensions.
    ///
    /// Pre: sizes are powers of two whose product is the total output size; names unique.
    /// Post: `apply_flat` unchanged.
    pub fn reshape_outs(&self, dims: &[(&str, u64)]) -> LResult<LinearLayout> {
        unique("reshape_outs", dims.iter().map(|d| d.0))?;
        let mut outs = Vec::with_capacity(dims.len());
        let mut total = 0;
        for &(n, size) in dims {
            let b = log2_exact(|| format!("size of `{n}`"), size)?;
            total += b;
            outs.push(OutDim {
                name: n.into(),
                bits: b,
            });
        }
        if total != self.total_out_bits() {
            return Err(LinearError::DimMismatch {
                op: "reshape_outs",
                detail: format!(
                    "the new sizes multiply to 2^{total}, not the total output size 2^{}",
                    self.total_out_bits()
                ),
            });
        }
        Ok(LinearLayout {
            ins: self.ins.clone(),
            outs,
        })
    }

    /// Triton's `transposeIns`: the input dimensions in a new order (a permutation of names).
    ///
    /// Post: `apply` unchanged for named inputs.
    pub fn transpose_ins(&self, order: &[&str]) -> LResult<LinearLayout> {
        permutation("transpose_ins", order, self.ins.len())?;
        let ins = order
            .iter()
            .map(|n| {
                self.in_index(n)
                    .map(|i| self.ins[i].clone())
                    .ok_or_else(|| LinearError::DimMismatch {
                        op: "transpose_ins",
                        detail: format!("no input `{n}`"),
                    })
            })
            .collect::<LResult<_>>()?;
        Ok(LinearLayout {
            ins,
            outs: self.outs.clone(),
        })
    }

    /// Triton's `transposeOuts`: the output dimensions in a new order.
    ///
    /// Post: `apply` unchanged for named outputs.
    pub fn transpose_outs(&self, order: &[&str]) -> LResult<LinearLayout> {
        permutation("transpose_outs", order, self.outs.len())?;
        let mut outs = Vec::with_capacity(order.len());
        let mut shifts = Vec::with_capacity(order.len());
        for n in order {
            let i = self.out_index(n).ok_or_else(|| LinearError::DimMismatch {
                op: "transpose_outs",
                detail: format!("no output `{n}`"),
            })?;
            outs.push(self.outs[i].clone());
            shifts.push(i);
        }
        let ins = self.map_bases(|b| {
            let parts = self.split_out(b);
            let mut r = 0u64;
            let mut s = 0;
            for (&i, o) in shifts.iter().zip(&outs) {
                r |= parts[i] << s;
                s += o.bits;
            }
            r
        });
        Ok(LinearLayout { ins, outs })
    }

    /// The normal form: size-1 dimensions removed, input and output dimensions sorted by name.
    /// Two layouts are the same function on named dimensions iff their normal forms are equal
    /// ([`LinearLayout::equivalent`]).
    pub fn normal_form(&self) -> LinearLayout {
        let mut outs: Vec<OutDim> = self.outs.iter().filter(|d| d.bits > 0).cloned().collect();
        outs.sort_by(|a, b| a.name.cmp(&b.name));
        let order: Vec<&str> = outs.iter().map(|d| d.name.as_str()).collect();
        let dropped = LinearLayout {
            ins: self.ins.clone(),
            outs: self.outs.iter().filter(|d| d.bits > 0).cloned().collect(),
        };
        // Entries of size-1 outputs are 0, so dropping those dimensions keeps every basis.
        let mut l = dropped.transpose_outs(&order).unwrap_or(dropped);
        l.ins.retain(|d| !d.bases.is_empty());
        l.ins.sort_by(|a, b| a.name.cmp(&b.name));
        l
    }

    /// Equality as functions of named dimensions (equal normal forms).
    pub fn equivalent(&self, other: &LinearLayout) -> bool {
        self.normal_form() == other.normal_form()
    }
}

fn names<'a>(it: impl Iterator<Item = &'a String>) -> String {
    it.map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

impl crate::diagnostic::Diagnose for LinearError {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::new(
            self.code(),
            crate::diagnostic::Severity::Error,
            self.to_string(),
        )
        .with_suggestions(self.suggestions().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ll(s: &str) -> LinearLayout {
        LinearLayout::parse(s).unwrap()
    }

    #[test]
    fn print_and_parse() {
        let l = ll(
            "register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0]] -> dim0 = 8, dim1 = 4",
        );
        assert_eq!(
            l.to_string(),
            "register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0]] -> dim0 = 8, dim1 = 4"
        );
        assert_eq!(
            l.apply(&[("register", 3), ("lane", 5)]).unwrap(),
            vec![("dim0".into(), 5), ("dim1".into(), 3)]
        );
        assert!(l.is_invertible());
        assert!(LinearLayout::parse("a = [[3]] -> x = 2").is_err());
        assert!(LinearLayout::parse("a = [[1] -> x = 2").is_err());
    }

    #[test]
    fn compose_invert() {
        let l = ll("lane = [[1], [2], [4]] -> offset = 8");
        let sw = LinearLayout::from_swizzle(1, 0, 2, 3).unwrap();
        let c = l.compose(&sw).unwrap();
        assert_eq!(c.apply_flat(4), 5);
        let inv = c.invert().unwrap();
        for x in 0..8 {
            assert_eq!(inv.apply_flat(c.apply_flat(x)), x);
        }
    }

    #[test]
    fn invert_and_compose_noninjective() {
        let a = ll("r = [[1], [2]] -> o = 4");
        let b = ll("s = [[1], [0], [2]] -> o = 4");
        let c = a.invert_and_compose(&b).unwrap();
        for x in 0..4 {
            assert_eq!(b.apply_flat(c.apply_flat(x)), a.apply_flat(x));
        }
        let bad = ll("s = [[1], [0]] -> o = 4");
        assert_eq!(
            a.invert_and_compose(&bad).unwrap_err().code(),
            "linear_not_in_image"
        );
    }

    #[test]
    fn product_shares_dims() {
        let a = LinearLayout::identity_1d(4, "register", "dim0").unwrap();
        let b = LinearLayout::identity_1d(8, "lane", "dim0").unwrap();
        let p = a.product(&b).unwrap();
        assert_eq!(
            p.to_string(),
            "register = [[1], [2]], lane = [[4], [8], [16]] -> dim0 = 32"
        );
        let q = a.product(&a).unwrap();
        assert_eq!(
            q.to_string(),
            "register = [[1], [2], [4], [8]] -> dim0 = 16"
        );
    }

    #[test]
    fn layout_round_trip_and_errors() {
        let l: Layout = "((2,4),8):((1,64),3)".parse().unwrap();
        let e = LinearLayout::from_layout(&l).unwrap_err();
        assert_eq!(e.code(), "linear_carry");
        let l: Layout = "((2,4),8):((1,64),4)".parse().unwrap();
        let x = LinearLayout::from_layout(&l).unwrap();
        let back = x.to_layout().unwrap();
        for i in 0..l.size().unwrap() {
            assert_eq!(back.eval(i).unwrap(), l.eval(i).unwrap());
        }
        let l: Layout = "(4,3):(1,4)".parse().unwrap();
        let e = LinearLayout::from_layout(&l).unwrap_err();
        assert_eq!(e.code(), "linear_mode");
        assert!(!e.suggestions().is_empty());
        for s in e.suggestions() {
            assert!(LinearLayout::from_layout(&s.parse().unwrap()).is_ok());
        }
    }

    #[test]
    fn swizzle_round_trip() {
        let l: Layout = "(8,64):(64,1)".parse().unwrap();
        let sw = LinearLayout::from_swizzle(3, 3, 3, 9).unwrap();
        let ll = LinearLayout::from_layout(&l).unwrap().compose(&sw).unwrap();
        assert!(ll.to_layout().is_err());
        let (sw2, plain) = ll.to_swizzled_layout().unwrap();
        for x in 0..512 {
            assert_eq!(
                sw2.apply(plain.eval(x as i64).unwrap()) as u64,
                ll.apply_flat(x)
            );
        }
    }
}
