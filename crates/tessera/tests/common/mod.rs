//! Shared helpers for the integration tests: an independent evaluator and random layouts.
#![allow(dead_code)]

use proptest::prelude::*;
use tessera::layout::IntTuple;
use tessera::notation::{self, Expr, Value};
use tessera::Layout;

/// `L(i)`, computed independently of the library: mixed radix over the flattened shape, the last
/// mode unbounded.
pub fn eval(l: &Layout, i: i64) -> i64 {
    let shape: Vec<i64> = l.shape().as_ref().leaves().collect();
    let stride: Vec<i64> = l.stride().as_ref().leaves().collect();
    let (sign, mut rest) = if i < 0 { (-1, -i) } else { (1, i) };
    let mut acc = 0;
    for k in 0..shape.len() {
        let digit = if k + 1 == shape.len() {
            rest
        } else {
            rest % shape[k]
        };
        if k + 1 < shape.len() {
            rest /= shape[k];
        }
        acc += digit * stride[k];
    }
    sign * acc
}

/// Colfax's tractability of flat modes `(shape, stride)`: after dropping size-1 and stride-0
/// modes and sorting by stride, every stride is non-negative and each `s_i·d_i` divides
/// `d_{i+1}`.
pub fn tractable_modes(modes: &[(i64, i64)]) -> bool {
    let mut f: Vec<(i64, i64)> = modes
        .iter()
        .copied()
        .filter(|&(s, d)| s != 1 && d != 0)
        .collect();
    if f.iter().any(|&(_, d)| d < 0) {
        return false;
    }
    f.sort_by_key(|&(_, d)| d);
    f.windows(2).all(|w| w[1].1 % (w[0].0 * w[0].1) == 0)
}

/// [`tractable_modes`] of a layout's leaves.
pub fn tractable(l: &Layout) -> bool {
    let modes: Vec<(i64, i64)> = l.leaves().map(|m| (m.shape, m.stride)).collect();
    tractable_modes(&modes)
}

/// The number of points of the layout's domain.
pub fn size(l: &Layout) -> i64 {
    l.shape().as_ref().leaves().product()
}

/// All values of the layout over its domain, in index order.
pub fn image(l: &Layout) -> Vec<i64> {
    (0..size(l)).map(|i| eval(l, i)).collect()
}

/// Builds a layout from flat shapes/strides and a nesting pattern: `groups` lists how many
/// consecutive leaves go into each top-level mode (1 = a plain leaf).
pub fn nested(shapes: &[i64], strides: &[i64], groups: &[usize]) -> Layout {
    let mut s = String::from("(");
    let mut d = String::from("(");
    let mut k = 0;
    for (gi, &g) in groups.iter().enumerate() {
        if gi > 0 {
            s.push(',');
            d.push(',');
        }
        if g == 1 {
            s.push_str(&shapes[k].to_string());
            d.push_str(&strides[k].to_string());
        } else {
            s.push('(');
            d.push('(');
            for j in 0..g {
                if j > 0 {
                    s.push(',');
                    d.push(',');
                }
                s.push_str(&shapes[k + j].to_string());
                d.push_str(&strides[k + j].to_string());
            }
            s.push(')');
            d.push(')');
        }
        k += g;
    }
    s.push(')');
    d.push(')');
    if groups.len() == 1 && groups[0] == 1 {
        format!("{}:{}", shapes[0], strides[0]).parse().unwrap()
    } else {
        format!("{s}:{d}").parse().unwrap()
    }
}

fn split_groups(n: usize, cuts: u8) -> Vec<usize> {
    // Bit k of `cuts` set: a group boundary after leaf k.
    let mut groups = Vec::new();
    let mut cur = 1;
    for k in 0..n - 1 {
        if cuts & (1 << k) != 0 {
            cur += 1;
        } else {
            groups.push(cur);
            cur = 1;
        }
    }
    groups.push(cur);
    groups
}

prop_compose! {
    /// A random layout in the style of CuTe's tests: shapes from {1,2,3,4,6,8}, strides a
    /// permutation of the compact strides (sometimes scaled, sometimes with a zero or a
    /// random stride), random nesting.
    pub fn arb_layout(max_rank: usize)(
        shapes in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6, 8]), 1..=max_rank),
        seed in any::<u64>(),
        kind in 0u8..6,
        cuts in any::<u8>(),
    ) -> Layout {
        let n = shapes.len();
        let mut order: Vec<usize> = (0..n).collect();
        let mut s = seed;
        for i in (1..n).rev() {
            let j = (s % (i as u64 + 1)) as usize;
            s /= i as u64 + 1;
            order.swap(i, j);
        }
        let scale = match kind { 1 => 2, 2 => 3, _ => 1 };
        let mut strides = vec![0i64; n];
        let mut cur = scale;
        for &i in &order {
            strides[i] = cur;
            cur *= shapes[i];
        }
        if kind == 3 {
            strides[(seed % n as u64) as usize] = 0;
        }
        if kind == 4 {
            strides[(seed % n as u64) as usize] = ((seed >> 8) % 24) as i64;
        }
        nested(&shapes, &strides, &split_groups(n, cuts))
    }
}

prop_compose! {
    /// A random shape (int tuple) with leaves in 1..=8.
    pub fn arb_shape(max_rank: usize)(
        shapes in prop::collection::vec(1i64..=8, 1..=max_rank),
        cuts in any::<u8>(),
    ) -> IntTuple {
        let l = nested(&shapes, &shapes, &split_groups(shapes.len(), cuts));
        l.shape()
    }
}

/// The operation name and evaluated arguments of a call expression such as `composition(A,B)`.
pub fn call_args(expr: &str) -> (String, Vec<Value>) {
    match notation::parse(expr).unwrap() {
        Expr::Call { name, args, .. } => (
            name,
            args.iter()
                .map(|a| notation::eval_expr(a).unwrap())
                .collect(),
        ),
        other => panic!("not a call: {other:?}"),
    }
}
