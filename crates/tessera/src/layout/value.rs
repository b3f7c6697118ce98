//! The values of the expression language: integers, `_`, tuples, layouts, swizzles and composed
//! layouts (and trace text). Defined with the layout types because an [`crate::error::Call`]
//! records its arguments as values; the expression language ([`crate::notation`]) evaluates to them
//! and adds the conversions (`to_tiler`, `to_int_tuple`, ...).

use std::fmt;

use super::{ComposedLayout, Layout, Swizzle};

/// The value of an expression.
// Layouts are stored inline (no heap up to 24 nodes), so the variants differ in size on purpose.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// `_`.
    Under,
    /// A tuple (of integers, `_`, layouts or tuples).
    Tuple(Vec<Value>),
    /// A layout.
    Layout(Layout),
    /// A swizzle `Sw<B,M,S>`.
    Swizzle(Swizzle),
    /// A composed layout `A o O o B`.
    Composed(Box<ComposedLayout>),
    /// Free text (a trace).
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Under => f.write_str("_"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Swizzle(sw) => write!(f, "{sw}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::Text(t) => f.write_str(t),
            Value::Tuple(items) => {
                f.write_str("(")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
        }
    }
}
