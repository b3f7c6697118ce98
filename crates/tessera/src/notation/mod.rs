//! CuTe's text notation: parsing, printing (C++ style and pycute style), `print_layout` tables,
//! and the expression language of the `tessera` command.
//!
//! C++ notation, as Tessera prints it: no spaces, no `_` markers, a 1-tuple is `(16)`:
//! `(2,(2,2)):(4,(1,2))`, `12:1`.

pub mod direct;
pub mod expr;
pub mod ops;
pub mod parse;
pub mod ragged;
pub mod value;
pub mod write;

use std::fmt::{self, Display, Write};

use crate::error::{Error, Result};
use crate::layout::{AnyLayout, ComposedLayout, IntTuple, Layout, SliceCoord, Swizzle, TreeRef};

pub use expr::{eval, eval_expr, eval_noted, Value};
pub use parse::{parse, Expr};

fn write_tree<T: Copy>(
    f: &mut impl Write,
    t: TreeRef<'_, T>,
    sep: &str,
    one_comma: bool,
    leaf: &dyn Fn(&mut dyn Write, T) -> fmt::Result,
) -> fmt::Result {
    match t.leaf() {
        Some(v) => leaf(f, v),
        None => {
            f.write_char('(')?;
            let r = t.rank();
            for (i, c) in t.modes().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                write_tree(f, c, sep, one_comma, leaf)?;
            }
            if one_comma && r == 1 {
                f.write_char(',')?;
            }
            f.write_char(')')
        }
    }
}

impl Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, self.as_ref(), ",", false, &|w, v| write!(w, "{v}"))
    }
}

impl fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, self.as_ref(), ",", false, &|w, v| match v {
            Some(i) => write!(w, "{i}"),
            None => w.write_char('_'),
        })
    }
}

impl fmt::Debug for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, self.tree(), ",", false, &|w, m| write!(w, "{}", m.shape))?;
        f.write_char(':')?;
        write_tree(f, self.tree(), ",", false, &|w, m| {
            write!(w, "{}", m.stride)
        })
    }
}

impl Display for Swizzle {
    /// CuTe C++'s `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits(), self.base(), self.shift())
    }
}

impl Display for ComposedLayout {
    /// CuTe C++'s `A o O o B` (the `_` markers removed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.outer, self.offset, self.inner)
    }
}

impl Display for AnyLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLayout::Plain(l) => write!(f, "{l}"),
            AnyLayout::Swizzle(s) => write!(f, "{s}"),
            AnyLayout::Composed(c) => write!(f, "{c}"),
        }
    }
}

/// A layout, swizzle or composed layout in pycute's notation: `SW_3_4_3 o 0 o (8, 64):(64, 1)`.
///
/// ```
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// assert_eq!(tessera::notation::pycute_any(&a), "SW_3_4_3 o 0 o (8, 64):(64, 1)");
/// ```
pub fn pycute_any(a: &AnyLayout) -> String {
    match a {
        AnyLayout::Plain(l) => pycute(l),
        AnyLayout::Swizzle(s) => format!("SW_{}_{}_{}", s.bits(), s.base(), s.shift()),
        AnyLayout::Composed(c) => format!(
            "{} o {} o {}",
            pycute_any(&c.outer),
            c.offset,
            pycute_any(&c.inner)
        ),
    }
}

/// The layout in pycute's notation: Python tuples, `", "` between elements, `(x,)` for a 1-tuple.
///
/// ```
/// let l: tessera::Layout = "(2,(2,2)):(4,(1,2))".parse().unwrap();
/// assert_eq!(tessera::notation::pycute(&l), "(2, (2, 2)):(4, (1, 2))");
/// ```
pub fn pycute(l: &Layout) -> String {
    let mut s = String::new();
    let _ = write_tree(&mut s, l.tree(), ", ", true, &|w, m| {
        write!(w, "{}", m.shape)
    });
    s.push(':');
    let _ = write_tree(&mut s, l.tree(), ", ", true, &|w, m| {
        write!(w, "{}", m.stride)
    });
    s
}

/// An integer tuple in pycute's notation.
pub fn pycute_tuple(t: &IntTuple) -> String {
    let mut s = String::new();
    let _ = write_tree(&mut s, t.as_ref(), ", ", true, &|w, v| write!(w, "{v}"));
    s
}

impl std::str::FromStr for Layout {
    type Err = Error;
    /// Parses `shape:stride` in C++ or pycute notation (spaces and `_` markers are accepted).
    fn from_str(s: &str) -> Result<Layout> {
        match expr::eval(s)? {
            Value::Layout(l) => Ok(l),
            other => Err(Error::Parse {
                column: 1,
                message: format!("expected a layout `shape:stride`, found {other}"),
            }),
        }
    }
}

impl std::str::FromStr for AnyLayout {
    type Err = Error;
    /// Parses a layout, `Sw<B,M,S>`, or a composed layout `A o O o B` (C++ or pycute notation).
    fn from_str(s: &str) -> Result<AnyLayout> {
        eval(s)?.to_any_layout().ok_or_else(|| Error::Parse {
            column: 1,
            message: "expected a layout, a swizzle or a composed layout".into(),
        })
    }
}

impl std::str::FromStr for IntTuple {
    type Err = Error;
    /// Parses an integer or a tuple of integers, e.g. `(3,(2,4))`.
    fn from_str(s: &str) -> Result<IntTuple> {
        let v = expr::eval(s)?;
        v.to_int_tuple().ok_or_else(|| Error::Parse {
            column: 1,
            message: format!("expected an integer tuple, found {v}"),
        })
    }
}

/// Parses a coordinate that may contain `_`, e.g. `(_,(1,_))`.
pub fn parse_slice_coord(s: &str) -> Result<SliceCoord> {
    let v = expr::eval(s)?;
    v.to_slice_coord().ok_or_else(|| Error::Parse {
        column: 1,
        message: format!("expected a coordinate of integers and `_`, found {v}"),
    })
}

fn num_digits(x: i64) -> usize {
    let mut n = 1;
    let mut v = x.unsigned_abs();
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// CuTe's `print_layout(L)`: the 2-D table of `L(m, n)`, byte for byte as CuTe C++ prints it
/// (header line, then a column header that ends with a space, then bordered rows).
///
/// Pre: `rank(L)` is 2, or 1 (one column, `L(m)` in row `m`); the table has at most 2^20 cells.
///
/// ```
/// let l: tessera::Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
/// let t = tessera::notation::print_layout(&l).unwrap();
/// assert!(t.starts_with("(2,(2,2)):(4,(2,1))\n      0   1   2   3 \n"));
/// ```
pub fn print_layout(l: &Layout) -> Result<String> {
    print_layout_any(&AnyLayout::Plain(l.clone()))
}

/// CuTe's `print_layout` of any layout: the table of `f(m, n)` (for a composed layout, the
/// innermost layout gives the rows, columns and cell width, as in CuTe).
///
/// Pre: the innermost layout has rank 2 or 1 (one column); at most 2^20 cells.
///
/// ```
/// let a: tessera::layout::AnyLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let t = tessera::notation::print_layout_any(&a).unwrap();
/// assert!(t.contains(" 1  | 3 | 2 |"));
/// ```
pub fn print_layout_any(f: &AnyLayout) -> Result<String> {
    let l = f.shape_layout("print_layout")?;
    let rank1 = l.is_leaf() || l.rank() == 1;
    if l.rank() != 2 && !rank1 {
        return Err(Error::RankMismatch {
            op: "print_layout",
            detail: format!("{l} has rank {}, print_layout needs rank 1 or 2", l.rank()),
        });
    }
    // A rank-1 layout is one column: rows = its domain.
    let (m0, m1) = if rank1 {
        (l.clone(), Layout::mode(1, 0)?)
    } else {
        (l.mode_at(0).expect("rank 2"), l.mode_at(1).expect("rank 2"))
    };
    let (rows, cols) = (m0.size()?, m1.size()?);
    if rows.saturating_mul(cols) > 1 << 20 {
        return Err(Error::TooLarge {
            op: "print_layout",
            what: format!("the table of {l}"),
            size: rows.saturating_mul(cols),
            bound: 1 << 20,
        });
    }
    let w = num_digits(l.cosize()?) + 2;
    let mut out = String::new();
    let _ = writeln!(out, "{f}");
    out.push_str("    ");
    for n in 0..cols {
        let _ = write!(out, "  {:>width$} ", n, width = w - 2);
    }
    out.push('\n');
    let sep = {
        let mut s = String::from("    ");
        for _ in 0..cols {
            s.push('+');
            s.push_str(&"-".repeat(w));
        }
        s.push_str("+\n");
        s
    };
    for m in 0..rows {
        out.push_str(&sep);
        let _ = write!(out, "{m:>2}  ");
        let r0 = m0.eval(m)?;
        for n in 0..cols {
            let v = match f {
                AnyLayout::Plain(_) => r0 + m1.eval(n)?,
                _ if rank1 => f.eval(m)?,
                _ => f.crd2idx(&IntTuple::flat([m, n]))?,
            };
            let _ = write!(out, "| {:>width$} ", v, width = w - 2);
        }
        out.push_str("|\n");
    }
    out.push_str(&sep);
    Ok(out)
}
