//! Direct C entry points for the commonest one-layout calls (`coalesce(L)`, `right_inverse(L)`,
//! `left_inverse(L)`, pycute's `complement(L, n)`), in front of their PyO3 functions.
//!
//! Measured (callgrind, `tessera.pycute.coalesce` of an MMA atom, ≈ 2,000 instructions a call in
//! all): PyO3's trampoline and its parsing of `(layout, profile=None, pycute=False)` cost ≈ 500
//! instructions beside the operation. Here a call whose arguments are exactly one plain layout
//! (and, for `complement`, an `int`) reads them from the argument tuple directly and runs the
//! operation; any other call (keywords, other argument kinds, swizzles) goes to the PyO3 function
//! unchanged, so the behaviour is the PyO3 function's in every case.

use std::ffi::{CStr, CString};
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyInt;

use tessera::algebra;
use tessera::layout::{IntTuple, Layout};

use crate::{fast, Face};

/// The PyO3 function each entry point falls back to, by entry.
static GENERAL: [OnceLock<PyObject>; 6] = [const { OnceLock::new() }; 6];

/// A one-layout operation into `out`.
type IntoOp = fn(&Layout, &mut Layout) -> tessera::Result<()>;

/// The layout `out` (written by `run`) as a new object of `face`, or null with the exception
/// set: `out` is copied once, into the object.
///
/// # Safety
/// The GIL is held (a C entry point called by the interpreter).
#[inline(always)]
unsafe fn finish(
    py: Python<'_>,
    face: Face,
    run: impl FnOnce(&mut Layout) -> tessera::Result<()>,
    on_error: impl FnOnce() -> *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    let mut out = ManuallyDrop::new(Layout::default());
    let r = match catch_unwind(AssertUnwindSafe(|| run(&mut out))) {
        // SAFETY: `out` is not used afterwards.
        Ok(Ok(())) => unsafe { fast::adopt(py, face, &mut out) },
        Ok(Err(_)) => {
            // SAFETY: `out` is not used afterwards.
            unsafe { ManuallyDrop::drop(&mut out) };
            // The error path: the PyO3 function raises the registry's error for the call (the
            // call recorded, its suggestions, its face).
            return on_error();
        }
        Err(_) => Err(pyo3::panic::PanicException::new_err(
            "a tessera operation panicked",
        )),
    };
    match r {
        Ok(o) => o.into_ptr(),
        Err(e) => {
            e.restore(py);
            std::ptr::null_mut()
        }
    }
}

/// The general (PyO3) function of entry `k` called with the same arguments.
///
/// # Safety
/// The GIL is held; `args` is a tuple and `kwargs` null or a dict (the interpreter's call).
#[cold]
unsafe fn general(
    k: usize,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    match GENERAL[k].get() {
        // SAFETY: as the function's contract.
        Some(f) => unsafe { ffi::PyObject_Call(f.as_ptr(), args, kwargs) },
        None => {
            // SAFETY: the GIL is held.
            unsafe {
                ffi::PyErr_SetString(
                    ffi::PyExc_RuntimeError,
                    c"tessera: entry point not set".as_ptr(),
                )
            };
            std::ptr::null_mut()
        }
    }
}

/// Argument `i` of the call when there are exactly `n` positional arguments and no keywords.
///
/// # Safety
/// The GIL is held; `args` is a tuple.
#[inline(always)]
unsafe fn positional(args: *mut ffi::PyObject, kwargs: *mut ffi::PyObject, n: isize) -> bool {
    // SAFETY: `kwargs` is null or a dict, `args` a tuple.
    (kwargs.is_null() || unsafe { ffi::PyDict_Size(kwargs) } == 0)
        && unsafe { ffi::PyTuple_Size(args) } == n
}

/// The body of the one-layout entry points: entry `k`, operation `op`, the result in the
/// layout's own face (or pycute's with `pycute`).
///
/// # Safety
/// As [`general`].
#[inline(always)]
unsafe fn one(
    k: usize,
    op: IntoOp,
    pycute: bool,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: the interpreter calls with the GIL held, `args` a tuple, `kwargs` null or a dict.
    unsafe {
        if positional(args, kwargs, 1) {
            let py = Python::assume_gil_acquired();
            let a = ffi::PyTuple_GetItem(args, 0);
            let a = Bound::from_borrowed_ptr(py, a);
            if let Some((l, lf)) = fast::plain(&a) {
                let face = if pycute { Face::PyCute } else { lf };
                return finish(py, face, |out| op(l, out), || general(k, args, kwargs));
            }
        }
        general(k, args, kwargs)
    }
}

unsafe extern "C" fn coalesce(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter.
    unsafe { one(0, algebra::coalesce_into, false, args, kwargs) }
}

unsafe extern "C" fn right_inverse(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter.
    unsafe { one(1, algebra::right_inverse_into, false, args, kwargs) }
}

unsafe extern "C" fn left_inverse(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter.
    unsafe { one(2, algebra::left_inverse_into, false, args, kwargs) }
}

unsafe extern "C" fn pycute_right_inverse(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter.
    unsafe { one(3, algebra::right_inverse_into, true, args, kwargs) }
}

unsafe extern "C" fn pycute_left_inverse(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter.
    unsafe { one(5, algebra::left_inverse_into, true, args, kwargs) }
}

/// pycute's `complement(L, n)` with `n` an `int`: `complement_pycute_into` (the one rule, as
/// `crate::complement` in the pycute face).
unsafe extern "C" fn pycute_complement(
    _m: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: called by the interpreter, with the GIL held.
    unsafe {
        if positional(args, kwargs, 2) {
            let py = Python::assume_gil_acquired();
            let a = Bound::from_borrowed_ptr(py, ffi::PyTuple_GetItem(args, 0));
            let c = Bound::from_borrowed_ptr(py, ffi::PyTuple_GetItem(args, 1));
            if let (Some((l, _)), true) = (fast::plain(&a), c.is_exact_instance_of::<PyInt>()) {
                let n = match crate::int_of(&c) {
                    Ok(n) => n,
                    Err(e) => {
                        e.restore(py);
                        return std::ptr::null_mut();
                    }
                };
                return finish(
                    py,
                    Face::PyCute,
                    |out| {
                        algebra::complement::complement_pycute_into(
                            l,
                            Some(&IntTuple::leaf(n)),
                            out,
                        )
                    },
                    || general(4, args, kwargs),
                );
            }
        }
        general(4, args, kwargs)
    }
}

type Entry = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *mut ffi::PyObject,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// Puts entry `k` (`f`) in front of the module's function `name`: the PyO3 function is kept as
/// the fallback, the new function takes its name, signature and documentation.
fn install(m: &Bound<'_, PyModule>, k: usize, name: &'static CStr, f: Entry) -> PyResult<()> {
    let py = m.py();
    let name_str = name.to_str().expect("an ASCII name");
    let old = m.getattr(name_str)?;
    let sig: Option<String> = old.getattr("__text_signature__")?.extract()?;
    let doc: Option<String> = old.getattr("__doc__")?.extract()?;
    let text = match sig {
        Some(s) => format!("{name_str}{s}\n--\n\n{}", doc.unwrap_or_default()),
        None => doc.unwrap_or_default(),
    };
    let doc = CString::new(text).unwrap_or_default();
    let _ = GENERAL[k].set(old.unbind());
    // The method definition lives as long as the function objects made from it: for ever.
    let def = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunctionWithKeywords: f,
        },
        ml_flags: ffi::METH_VARARGS | ffi::METH_KEYWORDS,
        ml_doc: Box::leak(doc.into_boxed_c_str()).as_ptr(),
    }));
    let module_name = m.name()?;
    // SAFETY: `def` is 'static; the module's name is a str; the GIL is held.
    let func = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyCFunction_NewEx(def, std::ptr::null_mut(), module_name.as_ptr()),
        )?
    };
    m.add(name_str, func)
}

/// Installs the entry points (after the PyO3 functions are registered).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    install(m, 0, c"coalesce", coalesce)?;
    install(m, 1, c"right_inverse", right_inverse)?;
    install(m, 2, c"left_inverse", left_inverse)?;
    install(m, 3, c"_pycute_right_inverse", pycute_right_inverse)?;
    install(m, 4, c"_pycute_complement", pycute_complement)?;
    install(m, 5, c"_pycute_left_inverse", pycute_left_inverse)?;
    Ok(())
}
