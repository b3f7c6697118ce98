//! The hot path of the bindings: classifying an argument by one pointer comparison, borrowing
//! the native layout inside it, and wrapping a result layout in a new Python object with one copy.
//!
//! Measured (callgrind, `tessera.pycute.coalesce` of an MMA atom): PyO3's checked downcasts cost
//! ≈ 40 instructions each (the lazy type object, then the subclass walk when the type differs), and
//! `Py::new` moved the ≈ 400-byte layout through six copies. Here the six classes a layout argument
//! can be are looked up once at import; none of them allows subclasses, so `type(o) is C` decides
//! membership exactly.

use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

use pyo3::ffi;
use pyo3::prelude::*;

use tessera::layout::Layout;

use crate::swizzle::{ComposedP, ComposedT, SwizzleP, SwizzleT};
use crate::{CuteLayout, Face, TLayout};

/// What a Python object is, as far as the layout functions care.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// `tessera.pycute.Layout`.
    Cute,
    /// `tessera.Layout`.
    Tess,
    /// `tessera.Swizzle`.
    SwizzleT,
    /// `tessera.pycute.Swizzle`.
    SwizzleP,
    /// `tessera.ComposedLayout`.
    ComposedT,
    /// `tessera.pycute.ComposedLayout`.
    ComposedP,
    /// Anything else (ints, tuples, strings, …).
    Other,
}

const KINDS: [Kind; 6] = [
    Kind::Cute,
    Kind::Tess,
    Kind::SwizzleT,
    Kind::SwizzleP,
    Kind::ComposedT,
    Kind::ComposedP,
];

#[allow(clippy::declare_interior_mutable_const)]
const NO_TYPE: AtomicPtr<ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());
/// The type objects of [`KINDS`], set by [`init`] (the module keeps them alive).
static TYPES: [AtomicPtr<ffi::PyTypeObject>; 6] = [NO_TYPE; 6];

impl Kind {
    /// The face of a layout-like kind (`Other` counts as tessera's).
    #[inline]
    pub(crate) fn face(self) -> Face {
        match self {
            Kind::Cute | Kind::SwizzleP | Kind::ComposedP => Face::PyCute,
            _ => Face::Tessera,
        }
    }
    /// `true` for a swizzle or a composed layout of either face.
    #[inline]
    pub(crate) fn is_func(self) -> bool {
        matches!(
            self,
            Kind::SwizzleT | Kind::SwizzleP | Kind::ComposedT | Kind::ComposedP
        )
    }
}

/// The kind of `o`: its exact type compared with the six classes (no subclass is possible).
#[inline]
pub(crate) fn kind(o: &Bound<'_, PyAny>) -> Kind {
    // SAFETY: `o` is a live object; reading its type pointer is what `type(o)` does.
    let t = unsafe { ffi::Py_TYPE(o.as_ptr()) };
    for (slot, k) in TYPES.iter().zip(KINDS) {
        if slot.load(Ordering::Relaxed) == t {
            return k;
        }
    }
    Kind::Other
}

/// The layout inside `o`, borrowed, when `o` is a plain layout of either face.
#[inline]
pub(crate) fn plain<'a>(o: &'a Bound<'_, PyAny>) -> Option<(&'a Layout, Face)> {
    match kind(o) {
        // SAFETY: `kind` compared the exact type with the class's type object.
        Kind::Cute => Some((
            &unsafe { o.downcast_unchecked::<CuteLayout>() }.get().l,
            Face::PyCute,
        )),
        Kind::Tess => Some((
            &unsafe { o.downcast_unchecked::<TLayout>() }.get().l,
            Face::Tessera,
        )),
        _ => None,
    }
}

/// How to build an object of a layout class without `Py::new`'s copies: its type, its
/// `tp_alloc`, and where the Rust value sits inside the object (measured at import).
struct Alloc {
    tp: *mut ffi::PyTypeObject,
    alloc: ffi::allocfunc,
    offset: usize,
}

// SAFETY: the type object is immortal for the module's life and only used with the GIL held.
unsafe impl Send for Alloc {}
unsafe impl Sync for Alloc {}

static CUTE_ALLOC: OnceLock<Option<Alloc>> = OnceLock::new();
static TESS_ALLOC: OnceLock<Option<Alloc>> = OnceLock::new();

/// Measures where PyO3 put the Rust value (at `value`, of `size` bytes) inside `obj`, an object
/// made by `Py::new`, and accepts the shortcut only when the object is exactly a header followed
/// by the value (the class's `__basicsize__` says so; PyO3's other per-object slots are empty for
/// a frozen class without `dict`/`weakref`): otherwise results go through `Py::new`.
fn measure(obj: &Bound<'_, PyAny>, value: *const u8, size: usize) -> PyResult<Option<Alloc>> {
    let offset = (value as usize).wrapping_sub(obj.as_ptr() as usize);
    let ty = obj.get_type();
    let basic: usize = ty.getattr("__basicsize__")?.extract()?;
    if offset < std::mem::size_of::<ffi::PyObject>() || basic != offset + size {
        return Ok(None);
    }
    let tp = ty.as_type_ptr();
    // SAFETY: `tp` is a heap type (PyO3 classes are), for which `PyType_GetSlot` is allowed.
    let slot = unsafe { ffi::PyType_GetSlot(tp, ffi::Py_tp_alloc) };
    if slot.is_null() {
        return Ok(None);
    }
    // SAFETY: the `Py_tp_alloc` slot holds an `allocfunc`.
    let alloc: ffi::allocfunc = unsafe { std::mem::transmute(slot) };
    Ok(Some(Alloc { tp, alloc, offset }))
}

/// Records the classes' type objects and measures the allocation shortcut (module import).
pub(crate) fn init(py: Python<'_>) -> PyResult<()> {
    let types = [
        py.get_type::<CuteLayout>().as_type_ptr(),
        py.get_type::<TLayout>().as_type_ptr(),
        py.get_type::<SwizzleT>().as_type_ptr(),
        py.get_type::<SwizzleP>().as_type_ptr(),
        py.get_type::<ComposedT>().as_type_ptr(),
        py.get_type::<ComposedP>().as_type_ptr(),
    ];
    for (slot, t) in TYPES.iter().zip(types) {
        slot.store(t, Ordering::Relaxed);
    }
    let l = Layout::mode(1, 0).map_err(crate::raise)?;
    let c = Bound::new(py, CuteLayout { l: l.clone() })?;
    let c = measure(
        c.as_any(),
        &c.get().l as *const Layout as *const u8,
        std::mem::size_of::<Layout>(),
    )?;
    let t = Bound::new(py, TLayout { l })?;
    let t = measure(
        t.as_any(),
        &t.get().l as *const Layout as *const u8,
        std::mem::size_of::<Layout>(),
    )?;
    let _ = CUTE_ALLOC.set(c);
    let _ = TESS_ALLOC.set(t);
    Ok(())
}

/// A new object of the class `a` was measured for, holding a copy of `l` (the caller forgets
/// its `l`: the object owns it now).
///
/// # Safety
/// `a` must have been measured by [`measure`] for a class whose value is a `#[repr(transparent)]`
/// wrapper of [`Layout`].
#[inline(always)]
unsafe fn alloc_copy(py: Python<'_>, a: &Alloc, l: &Layout) -> PyResult<PyObject> {
    // SAFETY: `tp_alloc` of the class returns a zeroed object of `__basicsize__` bytes with its
    // header set (reference count 1, type set and referenced), or null with an exception.
    // `offset + size_of::<Layout>() == __basicsize__` was checked; PyO3's `tp_dealloc` drops it.
    unsafe {
        let obj = (a.alloc)(a.tp, 0);
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        std::ptr::copy_nonoverlapping(l, obj.cast::<u8>().add(a.offset).cast::<Layout>(), 1);
        Ok(PyObject::from_owned_ptr(py, obj))
    }
}

/// The result of an operation as a Python layout of `face`, or its exception. The layout is
/// copied once, from where the operation wrote it into the new object.
#[inline(always)]
pub(crate) fn new_layout_from(
    py: Python<'_>,
    face: Face,
    r: tessera::Result<Layout>,
) -> PyResult<PyObject> {
    let l = match &r {
        Ok(l) => l,
        Err(_) => return Err(crate::raise_in(face, r.expect_err("an error"))),
    };
    let a = match face {
        Face::PyCute => CUTE_ALLOC.get(),
        Face::Tessera => TESS_ALLOC.get(),
    };
    let obj = match a {
        // SAFETY: measured in `init` for `CuteLayout` / `TLayout`, both transparent wrappers.
        Some(Some(a)) => unsafe { alloc_copy(py, a, l)? },
        _ => return slow(py, face, r.expect("checked Ok")),
    };
    // The object owns the bytes of `l` now.
    std::mem::forget(r);
    Ok(obj)
}

#[cold]
fn slow(py: Python<'_>, face: Face, l: Layout) -> PyResult<PyObject> {
    Ok(match face {
        Face::PyCute => Py::new(py, CuteLayout { l })?.into_any(),
        Face::Tessera => Py::new(py, TLayout { l })?.into_any(),
    })
}

/// A new Python layout of `face` that takes over `*l` (its bytes are copied once into the
/// object, which owns its storage from then on; on an error `*l` is dropped here).
///
/// # Safety
/// `*l` must not be used or dropped after this call.
#[inline(always)]
pub(crate) unsafe fn adopt(
    py: Python<'_>,
    face: Face,
    l: &mut std::mem::ManuallyDrop<Layout>,
) -> PyResult<PyObject> {
    let a = match face {
        Face::PyCute => CUTE_ALLOC.get(),
        Face::Tessera => TESS_ALLOC.get(),
    };
    match a {
        // SAFETY: measured in `init` for `CuteLayout` / `TLayout`, both transparent wrappers;
        // on success the object owns the bytes, on failure `*l` is still ours to drop.
        Some(Some(a)) => unsafe {
            alloc_copy(py, a, l).inspect_err(|_| std::mem::ManuallyDrop::drop(l))
        },
        // SAFETY: `*l` is not used after this call.
        _ => slow(py, face, unsafe { std::mem::ManuallyDrop::take(l) }),
    }
}

/// `l` as a Python layout of `face`.
#[inline]
pub(crate) fn new_layout(py: Python<'_>, face: Face, l: Layout) -> PyResult<PyObject> {
    new_layout_from(py, face, Ok(l))
}
