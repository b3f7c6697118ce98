//! CuTe's `Swizzle<B,M,S>` and `ComposedLayout` (`outer ∘ offset ∘ inner`) as values.
//!
//! A swizzle is the integer function `x ↦ x ⊕ ((x & Y) ≫ S)`, where the *yyy* mask `Y` holds the
//! `B` bits starting at bit `M + max(0, S)` and they are XORed into the *zzz* mask, the `B` bits
//! starting at `M − min(0, S)` (a negative `S` shifts left). A composed layout is the function
//! `c ↦ outer(offset + inner(c))`, as CuTe C++ prints it: `Sw<3,4,3> o 0 o (8,64):(64,1)`.
//! [`AnyLayout`] is a plain layout, a swizzle or a composed layout: the one type the swizzled
//! algebra (`crate::algebra::swizzled`) accepts.

use crate::error::{arith, Error, Result};
use crate::layout::{IntTuple, Layout};

/// The largest bit position a swizzle may touch (`B + M + |S| ≤ 62`, so that every mask and shift
/// stays inside a non-negative `i64`).
pub const MAX_SWIZZLE_BITS: i64 = 62;

/// The most `o` links (composed-layout nodes) one value may hold. Every operation on a composed
/// layout recurses once per link, so the bound is enforced before a chain is built (the
/// expression reader, every operation's result, the Python constructor): a longer chain is
/// [`Error::TooLarge`] (`too_large`), never a stack overflow. Real chains have one to three links.
pub const MAX_CHAIN_LINKS: usize = 64;

/// CuTe's `Swizzle<B,M,S>`: XOR the `B` bits at `M + max(0,S)` into the `B` bits at
/// `M − min(0,S)`.
///
/// Invariants (checked by [`Swizzle::new`]): `B ≥ 0`, `M ≥ 0`, `|S| ≥ B`, `B + M + |S| ≤ 62`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: i64,
    base: i64,
    shift: i64,
}

impl Swizzle {
    /// `Swizzle<B,M,S>`.
    ///
    /// Pre: `B ≥ 0`, `M ≥ 0`, `|S| ≥ B` (CuTe's static_asserts) and `B + M + |S| ≤ 62` (the masks
    /// fit a signed 64-bit integer); otherwise [`Error::InvalidSwizzle`].
    /// Post: `bits() == B`, `base() == M`, `shift() == S`.
    ///
    /// ```
    /// use tessera::layout::Swizzle;
    /// let s = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!((s.yyy_mask(), s.zzz_mask()), (0b11_1000_0000, 0b111_0000));
    /// assert_eq!(Swizzle::new(3, 4, 2).unwrap_err().code(), "invalid_swizzle");
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let ok = bits >= 0
            && base >= 0
            && shift.checked_abs().is_some_and(|s| s >= bits)
            && bits
                .checked_add(base)
                .and_then(|x| x.checked_add(shift.checked_abs()?))
                .is_some_and(|t| t <= MAX_SWIZZLE_BITS);
        if ok {
            Ok(Swizzle { bits, base, shift })
        } else {
            Err(Error::InvalidSwizzle { bits, base, shift })
        }
    }

    /// `B`: the number of bits XORed.
    pub fn bits(&self) -> i64 {
        self.bits
    }
    /// `M`: the number of least-significant bits left alone.
    pub fn base(&self) -> i64 {
        self.base
    }
    /// `S`: the distance between the two bit groups (negative: the yyy bits lie below).
    pub fn shift(&self) -> i64 {
        self.shift
    }
    /// The source bits (`yyy_msk` in CuTe).
    pub fn yyy_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base + self.shift.max(0))
    }
    /// The destination bits (`zzz_msk` in CuTe).
    pub fn zzz_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base - self.shift.min(0))
    }
    /// `true` for a swizzle with no bit (`B = 0`): the identity.
    pub fn is_identity(&self) -> bool {
        self.bits == 0
    }

    /// The swizzle applied to an integer: `x ⊕ ((x & yyy) ≫ S)` (two's complement for `x < 0`,
    /// as C++ computes it).
    ///
    /// Post: `apply(apply(x)) == x` (a swizzle is an involution); `apply` is a bijection of
    /// `[0, 2^k)` for every `k ≥ M + B + |S|` (`swizzle_involutive`,
    /// `swizzle_bijection_on_range` in `proofs/Swizzle.v`; checked against the extraction by
    /// `tests/bridge.rs`).
    ///
    /// ```
    /// let s = tessera::layout::Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(s.apply(0b1_1000_0000), 0b1_1011_0000);
    /// ```
    #[inline]
    pub fn apply(&self, x: i64) -> i64 {
        let y = x & self.yyy_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << (-self.shift)
        };
        x ^ moved
    }

    /// The smallest `2^k` such that the swizzle permutes `[0, 2^k)` (one past its highest bit).
    pub fn span(&self) -> i64 {
        if self.bits == 0 {
            return 1;
        }
        1i64 << (self.base + self.bits + self.shift.abs())
    }
}

/// A plain layout, a swizzle, or a composed layout: every function the swizzled algebra accepts.
// Layouts are stored inline (no heap up to 24 nodes), so the variants differ in size on purpose.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyLayout {
    /// `shape:stride`.
    Plain(Layout),
    /// `Sw<B,M,S>` (a function on integers only).
    Swizzle(Swizzle),
    /// `outer ∘ offset ∘ inner`.
    Composed(Box<ComposedLayout>),
}

/// CuTe's `ComposedLayout<A, O, B>`: the function `c ↦ A(O + B(c))`.
///
/// Shape, size, rank and depth are those of the innermost function `B` (as CuTe's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// `A`, applied last.
    pub outer: AnyLayout,
    /// `O`, added to `B`'s result.
    pub offset: i64,
    /// `B`, applied first to the coordinate.
    pub inner: AnyLayout,
}

impl ComposedLayout {
    /// `outer ∘ offset ∘ inner`.
    ///
    /// Pre: none (any functions compose). Post: `self.eval(i) == outer(offset + inner(i))`.
    ///
    /// ```
    /// use tessera::layout::{AnyLayout, ComposedLayout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(3, 4, 3).unwrap().into(), 0,
    ///     "(8,64):(64,1)".parse::<tessera::Layout>().unwrap().into());
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    /// assert_eq!(c.eval(1).unwrap(), 64);
    /// assert_eq!(c.eval(8 * 3).unwrap(), 3 ^ 0);
    /// assert_eq!(c.crd2idx(&"(1,3)".parse().unwrap()).unwrap(), (64 + 3) ^ 0);
    /// assert_eq!(c.crd2idx(&"(2,3)".parse().unwrap()).unwrap(), (128 + 3) ^ 16);
    /// ```
    pub fn new(outer: AnyLayout, offset: i64, inner: AnyLayout) -> ComposedLayout {
        ComposedLayout {
            outer,
            offset,
            inner,
        }
    }

    /// `outer(offset + inner(i))` for an integer `i`.
    pub fn eval(&self, i: i64) -> Result<i64> {
        let x = arith::add(self.offset, self.inner.eval(i)?)?;
        self.outer.eval(x)
    }

    /// `outer(offset + inner(c))` for a hierarchical coordinate `c`.
    pub fn crd2idx(&self, c: &IntTuple) -> Result<i64> {
        let x = arith::add(self.offset, self.inner.crd2idx(c)?)?;
        self.outer.eval(x)
    }
}

impl From<Layout> for AnyLayout {
    fn from(l: Layout) -> Self {
        AnyLayout::Plain(l)
    }
}

impl From<Swizzle> for AnyLayout {
    fn from(s: Swizzle) -> Self {
        AnyLayout::Swizzle(s)
    }
}

impl From<ComposedLayout> for AnyLayout {
    fn from(c: ComposedLayout) -> Self {
        AnyLayout::Composed(Box::new(c))
    }
}

impl AnyLayout {
    /// The function at an integer index (a swizzle takes any integer).
    ///
    /// ```
    /// let c: tessera::layout::AnyLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
    /// assert_eq!((0..4).map(|i| c.eval(i).unwrap()).collect::<Vec<_>>(), [0, 1, 3, 2]);
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        match self {
            AnyLayout::Plain(l) => l.eval(i),
            AnyLayout::Swizzle(s) => Ok(s.apply(i)),
            AnyLayout::Composed(c) => c.eval(i),
        }
    }

    /// The function at a hierarchical coordinate (a swizzle accepts only an integer).
    ///
    /// Pre: `c` is congruent to a prefix of the innermost layout's shape.
    pub fn crd2idx(&self, c: &IntTuple) -> Result<i64> {
        match self {
            AnyLayout::Plain(l) => l.crd2idx(c),
            AnyLayout::Swizzle(s) => match c.as_ref().leaf() {
                Some(i) => Ok(s.apply(i)),
                None => Err(Error::RankMismatch {
                    op: "crd2idx",
                    detail: format!(
                        "tuple coordinate {c} for the swizzle {s}, which takes an integer"
                    ),
                }),
            },
            AnyLayout::Composed(cl) => cl.crd2idx(c),
        }
    }

    /// The innermost plain layout (what gives the shape, size, rank and depth), if any.
    ///
    /// ```
    /// let c: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
    /// assert_eq!(c.layout().unwrap().to_string(), "(8,64):(64,1)");
    /// ```
    pub fn layout(&self) -> Option<&Layout> {
        match self {
            AnyLayout::Plain(l) => Some(l),
            AnyLayout::Swizzle(_) => None,
            AnyLayout::Composed(c) => c.inner.layout(),
        }
    }

    /// The innermost layout, or a typed error naming `op` for a bare swizzle (which has no shape).
    pub fn shape_layout(&self, op: &'static str) -> Result<&Layout> {
        self.layout().ok_or_else(|| Error::RankMismatch {
            op,
            detail: format!(
                "{self} ends in a swizzle, which has no shape (only an integer domain)"
            ),
        })
    }

    /// CuTe's `size`: that of the innermost layout.
    pub fn size(&self) -> Result<i64> {
        self.shape_layout("size")?.size()
    }

    /// The number of composed-layout nodes (`o` links) in the value, counted with an explicit
    /// stack (no recursion, whatever the depth).
    ///
    /// ```
    /// let c: tessera::layout::AnyLayout = "Sw<1,0,1> o 0 o 4:1 o 2 o 8:1".parse().unwrap();
    /// assert_eq!(c.links(), 2);
    /// ```
    pub fn links(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(v) = stack.pop() {
            if let AnyLayout::Composed(c) = v {
                n += 1;
                stack.push(&c.outer);
                stack.push(&c.inner);
            }
        }
        n
    }

    /// `Ok(self)` when the value has at most [`MAX_CHAIN_LINKS`] links, else `too_large`.
    ///
    /// Pre: none. Post: `Ok(v)` implies `v.links() <= MAX_CHAIN_LINKS`.
    ///
    /// ```
    /// let c: tessera::layout::AnyLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
    /// assert!(c.check_links("eval").is_ok());
    /// ```
    pub fn check_links(self, op: &'static str) -> Result<AnyLayout> {
        check_chain_links(op, self.links())?;
        Ok(self)
    }

    /// `true` when the value is a plain layout.
    pub fn is_plain(&self) -> bool {
        matches!(self, AnyLayout::Plain(_))
    }
}

/// `too_large` when a chain of `n` links would pass [`MAX_CHAIN_LINKS`] (checked before building it).
pub fn check_chain_links(op: &'static str, n: usize) -> Result<()> {
    if n > MAX_CHAIN_LINKS {
        return Err(Error::TooLarge {
            op,
            what: "a composed layout (counting one point per `o` link)".into(),
            size: i64::try_from(n).unwrap_or(i64::MAX),
            bound: MAX_CHAIN_LINKS as i64,
        });
    }
    Ok(())
}
