//! Printing values into a caller's buffer, without the formatting machinery: the text is the
//! `Display` text (C++ notation) or pycute's, byte for byte.

use std::fmt::Write;

use super::value::Value;
use crate::layout::{Layout, Mode, TreeRef};

/// Appends the decimal text of `v`.
///
/// Pre: none. Post: appends exactly `v.to_string()`. Example: `-120` appends `"-120"`.
#[inline]
pub fn push_int(out: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    out.reserve(buf.len() - at);
    for &d in &buf[at..] {
        out.push(char::from(d));
    }
}

/// Appends `v` as its `Display` prints it.
///
/// Pre: none. Post: appends exactly `v.to_string()`. Example: the layout `(2,(2,2)):(4,(1,2))`
/// appends that text.
pub fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Int(i) => push_int(out, *i),
        Value::Under => out.push('_'),
        Value::Layout(l) => write_layout(out, l, false),
        Value::Text(t) => out.push_str(t),
        Value::Tuple(items) => {
            out.push('(');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, v);
            }
            out.push(')');
        }
        Value::Swizzle(_) | Value::Composed(_) => {
            let _ = write!(out, "{v}");
        }
    }
}

/// Appends `v` in the face asked for: as [`write_value`], or, with `pycute`, a layout, swizzle or
/// composed layout in pycute's notation ([`super::pycute_any`]; other values print as in C++).
/// The one rule `tessera eval --pycute`, batch's `"pycute": true` and Python's `batch` follow.
///
/// Pre: none. Post: appends exactly [`value_text`]`(v, pycute)`. Example: `Sw<3,4,3>` with
/// `pycute` appends `SW_3_4_3`.
pub fn write_value_face(out: &mut String, v: &Value, pycute: bool) {
    match (v, pycute) {
        (Value::Layout(l), true) => write_layout(out, l, true),
        (Value::Swizzle(_) | Value::Composed(_), true) => {
            if let Some(a) = v.to_any_layout() {
                out.push_str(&super::pycute_any(&a));
            }
        }
        _ => write_value(out, v),
    }
}

/// `v` as text in the face asked for (see [`write_value_face`]).
///
/// ```
/// let v = tessera::notation::eval("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap();
/// let t = tessera::notation::write::value_text(&v, true);
/// assert_eq!(t, "SW_3_4_3 o 0 o (8, 64):(64, 1)");
/// ```
pub fn value_text(v: &Value, pycute: bool) -> String {
    let mut s = String::new();
    write_value_face(&mut s, v, pycute);
    s
}

/// Appends the layout in C++ notation (`Display`), or in pycute's (`notation::pycute`).
///
/// Pre: none. Post: appends exactly `l.to_string()`, or `pycute(l)` when `pycute`.
/// Example: `(2,(2,2)):(4,(1,2))` appends `"(2, (2, 2)):(4, (1, 2))"` with `pycute`.
pub fn write_layout(out: &mut String, l: &Layout, pycute: bool) {
    write_modes(out, l.tree(), pycute, |m| m.shape);
    out.push(':');
    write_modes(out, l.tree(), pycute, |m| m.stride);
}

fn write_modes(out: &mut String, t: TreeRef<'_, Mode>, pycute: bool, part: fn(Mode) -> i64) {
    if let Some(m) = t.leaf() {
        return push_int(out, part(m));
    }
    out.push('(');
    let r = t.rank();
    for (i, c) in t.modes().enumerate() {
        if i > 0 {
            out.push_str(if pycute { ", " } else { "," });
        }
        write_modes(out, c, pycute, part);
    }
    if pycute && r == 1 {
        out.push(',');
    }
    out.push(')');
}
