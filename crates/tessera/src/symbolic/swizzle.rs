//! Swizzled layouts whose inner layout is symbolic: `Sw<B,M,S> o off o L` with `L` (and `off`)
//! over runtime extents.
//!
//! The integer algebra lifts its divides, products, `tile_to_shape` and `coalesce` to a composed
//! layout by applying them to the innermost layout (`O o off o f(I)`,
//! [`crate::algebra::swizzled::by_inner`]); the symbolic ones lift the same way, with the inner
//! operation's guards. Evaluation gives `Sw(off + L(i))`, a swizzle atom of the expression
//! language (its interval, C++ and Python forms are known; it is computed for a constant).

use super::expr::{Item, Poly, Reader};
use super::facts::{Assignment, Pred};
use super::layout::{read_layout, SymLayout};
use super::ops::{c, index_expr, size_node};
use super::{Ctx, SymError};
use crate::layout::{AnyLayout, Value};
use crate::notation::ops::Lift;
use std::fmt;

/// `Sw<B,M,S> o off o L` with a symbolic offset and inner layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymComposed {
    /// The swizzle `[B, M, S]` (valid: [`crate::layout::Swizzle::new`]).
    pub swizzle: [i64; 3],
    /// The offset added to the inner layout's value.
    pub offset: Poly,
    /// The inner layout.
    pub inner: SymLayout,
}

impl fmt::Display for SymComposed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [b, m, s] = self.swizzle;
        write!(f, "Sw<{b},{m},{s}> o {} o {}", self.offset, self.inner)
    }
}

impl SymComposed {
    /// Instantiates every name: the integer composed layout.
    ///
    /// Pre: every name has a value. Post: the integer `Sw<B,M,S> o off o L`, or an error when the
    /// inner layout is not a valid integer layout. Example: `Sw<3,4,3> o 0 o (8,K):(K,1)` at
    /// `K = 64` is `Sw<3,4,3> o 0 o (8,64):(64,1)`.
    pub fn subs(&self, env: &Assignment) -> Result<Value, SymError> {
        let [b, m, s] = self.swizzle;
        let text = format!(
            "Sw<{b},{m},{s}> o {} o {}",
            self.offset.eval(env)?,
            self.inner.subs(env)?
        );
        let a: AnyLayout = text.parse().map_err(SymError::Algebra)?;
        Ok(Value::from_any_layout(a))
    }
}

/// Whether the reader is at `Sw<`.
pub(crate) fn at_swizzle(r: &mut Reader<'_>) -> bool {
    let save = r.pos;
    let yes = r.ident().as_deref() == Some("Sw") && r.peek() == Some(b'<');
    r.pos = save;
    yes
}

fn read_word(r: &mut Reader<'_>, w: &str) -> bool {
    let save = r.pos;
    if r.ident().as_deref() == Some(w) {
        true
    } else {
        r.pos = save;
        false
    }
}

/// Reads `Sw<B,M,S> o off o L` (or `Sw<B,M,S> o L`, offset 0).
pub(crate) fn read_composed(r: &mut Reader<'_>) -> Result<SymComposed, SymError> {
    if !read_word(r, "Sw") {
        return Err(r.err("expected `Sw<B,M,S>`"));
    }
    r.expect(b'<')?;
    // The parameters are read one by one (`>` would otherwise read as part of an expression).
    let mut v = [0i64; 3];
    for (k, x) in v.iter_mut().enumerate() {
        if k > 0 {
            r.expect(b',')?;
        }
        r.ws();
        let start = r.pos;
        let neg = r.eat(b'-');
        let digits = r.slice_digits();
        *x = digits
            .parse::<i64>()
            .map(|d| if neg { -d } else { d })
            .map_err(|_| SymError::Parse {
                column: start + 1,
                message: "a swizzle's parameters are integers".into(),
            })?;
    }
    r.expect(b'>')?;
    super::expr::swizzle_of(v)?;
    if !read_word(r, "o") {
        return Err(r.err("expected `o` after the swizzle"));
    }
    // `off o L` or `L`: an offset is an expression followed by `o`.
    let save = r.pos;
    let offset = match r.item() {
        Ok(Item::Expr(p)) if read_word(r, "o") => p,
        _ => {
            r.pos = save;
            c(0)
        }
    };
    let inner = read_layout(r)?;
    Ok(SymComposed {
        swizzle: v,
        offset,
        inner,
    })
}

/// `L(i)`: the value of a symbolic layout at a 1-D index (colexicographic).
///
/// Pre: `0 <= i < size(L)` (decided or guarded; the integer `eval` refuses other indices).
/// Post: the value. Example: `eval((M,K):(K,1), i)` is `K*(i%M)+i/M`.
pub fn eval_at(ctx: &mut Ctx, l: &SymLayout, i: &Poly) -> Result<Poly, SymError> {
    ctx.require(Pred::ge(i.clone(), c(0)), "eval")?;
    ctx.require(Pred::ge(size_node(&l.root)?.sub(&c(1))?, i.clone()), "eval")?;
    index_expr(i, &l.root)
}

/// `(Sw<B,M,S> o off o L)(i) = Sw(off + L(i))`.
///
/// Pre: as [`eval_at`]. Post: the swizzled value (a swizzle atom unless it is a constant).
/// Example: `eval(Sw<3,4,3> o 0 o (8,K):(K,1), i)` is `Sw<3,4,3>(K*(i%8)+i/8)`.
pub fn eval_composed(ctx: &mut Ctx, l: &SymComposed, i: &Poly) -> Result<Poly, SymError> {
    eval_at(ctx, &l.inner, i)?
        .add(&l.offset)?
        .swizzle(l.swizzle)
}

/// Whether `op` is lifted to a composed layout through its inner layout: the registry rows
/// with a symbolic form that lift to the inner layout ([`Lift::Inner`]), as the integer
/// algebra does.
///
/// Pre: none. Post: `true` for `coalesce`, the divides and products, `tile_to_shape`.
/// Example: `lifted("zipped_divide")` is `true`, `lifted("composition")` is `false`.
pub fn lifted(op: &str) -> bool {
    crate::notation::ops::lookup(op)
        .is_some_and(|o| o.symbolic.is_some() && matches!(o.lift, Lift::Inner(_)))
}
