//! The expression language's conversions of a [`Value`]: to an integer tuple, a slice
//! coordinate, a tiler or any layout, and back.

use crate::algebra::Tiler;
pub use crate::layout::Value;
use crate::layout::{self, AnyLayout, IntTuple, SliceCoord, Tree};

impl Value {
    /// The value as an integer tuple, if it is one.
    pub fn to_int_tuple(&self) -> Option<IntTuple> {
        match self {
            Value::Int(v) => Some(IntTuple::leaf(*v)),
            Value::Tuple(items) => {
                let parts = items
                    .iter()
                    .map(|v| v.to_int_tuple())
                    .collect::<Option<Vec<_>>>()?;
                Some(Tree::tuple(parts.iter().map(|p| p.as_ref())))
            }
            _ => None,
        }
    }

    /// The value as a coordinate with `_`, if it is one.
    pub fn to_slice_coord(&self) -> Option<SliceCoord> {
        match self {
            Value::Int(v) => Some(SliceCoord::leaf(Some(*v))),
            Value::Under => Some(SliceCoord::leaf(None)),
            Value::Tuple(items) => {
                let parts = items
                    .iter()
                    .map(|v| v.to_slice_coord())
                    .collect::<Option<Vec<_>>>()?;
                Some(Tree::tuple(parts.iter().map(|p| p.as_ref())))
            }
            _ => None,
        }
    }

    /// The value as a tiler: a layout, an integer, `_`, or a tuple of tilers.
    pub fn to_tiler(&self) -> Option<Tiler> {
        match self {
            Value::Layout(l) => Some(Tiler::Layout(l.clone())),
            Value::Int(n) => Some(Tiler::Int(*n)),
            Value::Under => Some(Tiler::Under),
            Value::Tuple(items) => Some(Tiler::Tuple(
                items
                    .iter()
                    .map(|v| v.to_tiler())
                    .collect::<Option<Vec<_>>>()?,
            )),
            Value::Text(_) => None,
            Value::Swizzle(_) | Value::Composed(_) => None,
        }
    }

    /// The value as a layout, swizzle or composed layout, if it is one.
    pub fn to_any_layout(&self) -> Option<AnyLayout> {
        match self {
            Value::Layout(l) => Some(AnyLayout::Plain(l.clone())),
            Value::Swizzle(s) => Some(AnyLayout::Swizzle(*s)),
            Value::Composed(c) => Some(AnyLayout::Composed(c.clone())),
            _ => None,
        }
    }

    /// The value of a layout, swizzle or composed layout.
    pub fn from_any_layout(a: AnyLayout) -> Value {
        match a {
            AnyLayout::Plain(l) => Value::Layout(l),
            AnyLayout::Swizzle(s) => Value::Swizzle(s),
            AnyLayout::Composed(c) => Value::Composed(c),
        }
    }

    /// `true` for a swizzle or a composed layout (anything the plain algebra does not take).
    pub fn is_swizzled(&self) -> bool {
        match self {
            Value::Swizzle(_) | Value::Composed(_) => true,
            Value::Tuple(items) => items.iter().any(Value::is_swizzled),
            _ => false,
        }
    }

    /// What the value is, for a type error: `the integer 4`, `the layout 4:1`, ...
    pub(crate) fn kind(&self) -> String {
        match self {
            Value::Int(v) => format!("the integer {v}"),
            Value::Under => "`_`".into(),
            Value::Tuple(_) => format!("the tuple {self}"),
            Value::Layout(l) => format!("the layout {l}"),
            Value::Swizzle(sw) => format!("the swizzle {sw}"),
            Value::Composed(c) => format!("the composed layout {c}"),
            Value::Text(_) => "text".into(),
        }
    }
}

/// An integer tuple as a value: an integer, or a tuple of values.
pub(crate) fn int_tuple_value(t: &IntTuple) -> Value {
    fn go(t: layout::TreeRef<'_, i64>) -> Value {
        match t.leaf() {
            Some(v) => Value::Int(v),
            None => Value::Tuple(t.modes().map(go).collect()),
        }
    }
    go(t.as_ref())
}
