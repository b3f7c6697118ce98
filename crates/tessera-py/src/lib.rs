//! `tessera._tessera`: the native half of the `tessera` Python package (a thin shell over the
//! `tessera` crate).
//!
//! Layout objects stay native: a `Layout` holds the crate's inline [`tessera::Layout`]; Python
//! tuples are built only when `.shape`/`.stride` are asked for. Every error of the crate becomes an
//! instance of the `tessera.errors` class named by its code (see `python/tessera/errors.py`).

use pyo3::prelude::*;

mod banks;
mod check;
mod classes;
mod convert;
mod domain;
mod errors;
mod fast;
mod linear;
mod many;
mod operations;
mod ragged;
mod raw;
mod swizzle;
mod symbolic;
mod tma;

pub(crate) use classes::*;
pub(crate) use convert::*;
pub(crate) use errors::*;
pub(crate) use operations::*;

#[pymodule]
fn _tessera(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TLayout>()?;
    m.add("_PyCuteLayout", m.py().get_type::<CuteLayout>())?;
    m.add_class::<ErrorInfo>()?;
    m.add_function(wrap_pyfunction!(composition, m)?)?;
    m.add_function(wrap_pyfunction!(logical_divide, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_divide, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_divide, m)?)?;
    m.add_function(wrap_pyfunction!(flat_divide, m)?)?;
    m.add_function(wrap_pyfunction!(logical_product, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_product, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_product, m)?)?;
    m.add_function(wrap_pyfunction!(flat_product, m)?)?;
    m.add_function(wrap_pyfunction!(blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(raked_product, m)?)?;
    m.add_function(wrap_pyfunction!(coalesce, m)?)?;
    m.add_function(wrap_pyfunction!(filter, m)?)?;
    m.add_function(wrap_pyfunction!(complement, m)?)?;
    m.add_function(wrap_pyfunction!(complement_exact, m)?)?;
    m.add_function(wrap_pyfunction!(complement1, m)?)?;
    m.add_function(wrap_pyfunction!(right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(left_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_complement, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_left_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_raked_product, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(make_ordered_layout, m)?)?;
    m.add_function(wrap_pyfunction!(tile_to_shape, m)?)?;
    m.add_function(wrap_pyfunction!(upcast, m)?)?;
    m.add_function(wrap_pyfunction!(downcast, m)?)?;
    m.add_function(wrap_pyfunction!(nullspace, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_layout, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_vector, m)?)?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    many::register(m)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    domain::register(m)?;
    ragged::register(m)?;
    swizzle::register(m)?;
    linear::register(m)?;
    banks::register(m)?;
    tma::register(m)?;
    check::register(m)?;
    symbolic::register(m)?;
    fast::init(m.py())?;
    raw::register(m)?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(operation_rows, m)?)?;
    register_registry(m)?;
    Ok(())
}
