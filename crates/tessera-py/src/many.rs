//! `apply_many`: many algebra calls `(op, (A, B...))` in one crossing.
//!
//! The arguments are read once, with the GIL: layout arguments are borrowed from their objects
//! (no copy), operation names are recognised by the string object's address after the first
//! lookup. The work then runs with the GIL released, split over the cores, and the results stay
//! native in a [`Results`] sequence: a Python object is made for a result only when it is asked
//! for (`results[i]`, iteration, `tolist()`).

use pyo3::exceptions::{PyIndexError, PyTypeError};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice, PyString, PyTuple};

use tessera::algebra::{self, Tiler};
use tessera::layout::{IntTuple, Layout};

use crate::{
    err_info, fast, int_of, layout_ref, raise, raise_info, tiler_arg, to_int_tuple, Face,
    LayoutRef, Op2,
};

/// An operation `apply_many` knows.
#[derive(Clone, Copy)]
enum Op {
    /// `op(A, tiler)`; `composition` with a plain layout B goes to `algebra::composition`.
    Tiler(Op2),
    /// `op(A)`.
    One(fn(&Layout) -> tessera::Result<Layout>),
    /// `complement(A)` or `complement(A, cotarget)`.
    Complement,
}

const OPS: [(&std::ffi::CStr, Op); 14] = [
    (c"composition", Op::Tiler(algebra::composition_tiler)),
    (c"logical_divide", Op::Tiler(algebra::logical_divide)),
    (c"zipped_divide", Op::Tiler(algebra::zipped_divide)),
    (c"tiled_divide", Op::Tiler(algebra::tiled_divide)),
    (c"flat_divide", Op::Tiler(algebra::flat_divide)),
    (c"logical_product", Op::Tiler(algebra::logical_product)),
    (c"zipped_product", Op::Tiler(algebra::zipped_product)),
    (c"tiled_product", Op::Tiler(algebra::tiled_product)),
    (c"flat_product", Op::Tiler(algebra::flat_product)),
    (c"coalesce", Op::One(algebra::coalesce)),
    (c"filter", Op::One(algebra::filter)),
    (c"right_inverse", Op::One(algebra::right_inverse)),
    (c"left_inverse", Op::One(algebra::left_inverse)),
    (c"complement", Op::Complement),
];

/// The cotarget of a `complement` call.
enum Cotarget {
    Default,
    Int(i64),
    Tuple(Box<IntTuple>),
}

/// One call, its arguments native (layouts borrowed from their objects).
enum Work<'a> {
    One(fn(&Layout) -> tessera::Result<Layout>, LayoutRef<'a>),
    /// `composition(A, B)` with B a plain layout.
    Compose(LayoutRef<'a>, LayoutRef<'a>),
    /// `op(A, B)` with B a plain layout (made a tiler by the worker).
    TilerLayout(Op2, LayoutRef<'a>, LayoutRef<'a>),
    Tiler(Op2, LayoutRef<'a>, Box<Tiler>),
    /// With `true`, pycute's face: an injective layout with no tiling complement gets CuTe's
    /// disjoint complement, as `tessera.pycute.complement` (and `complement` of a pycute layout).
    Complement(LayoutRef<'a>, Cotarget, bool),
}

impl Work<'_> {
    fn run(&self) -> tessera::Result<Layout> {
        match self {
            Work::One(f, a) => f(a),
            Work::Compose(a, b) => algebra::composition(a, b),
            Work::TilerLayout(f, a, b) => f(a, &Tiler::Layout((**b).clone())),
            Work::Tiler(f, a, t) => f(a, t),
            Work::Complement(a, c, disjoint) => {
                let leaf;
                let ct = match c {
                    Cotarget::Default => None,
                    Cotarget::Int(n) => {
                        leaf = IntTuple::leaf(*n);
                        Some(&leaf)
                    }
                    Cotarget::Tuple(t) => Some(&**t),
                };
                // The same answers as `complement` of the same arguments (pycute's face:
                // the tiling complement, else pycute's disjoint one).
                match ct {
                    Some(ct) if *disjoint => algebra::complement::complement_disjoint(a, ct),
                    Some(ct) => algebra::complement(a, ct),
                    None if *disjoint => algebra::complement_exact_default(a).or_else(|e| {
                        if e.code() == "not_complementable" {
                            algebra::complement::complement_disjoint(a, &IntTuple::leaf(1))
                        } else {
                            Err(e)
                        }
                    }),
                    None => algebra::complement_default(a),
                }
            }
        }
    }
}

/// `r` with the lifetime `'a` of the whole call.
///
/// # Safety
/// The layout must live in an object that stays alive and unchanged for `'a`: `apply_many`
/// holds a tuple of the `(op, args)` tuples for the whole call, tuples are immutable and layout
/// objects are frozen, so every layout read directly from an `args` tuple qualifies.
unsafe fn for_call<'a>(r: LayoutRef<'_>) -> LayoutRef<'a> {
    match r {
        // SAFETY: see the function's contract.
        LayoutRef::Borrowed(l) => LayoutRef::Borrowed(unsafe { &*(l as *const Layout) }),
        LayoutRef::Owned(l) => LayoutRef::Owned(l),
    }
}

fn bad_call(o: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "apply_many: each call is a tuple (op, (A, ...)), got {}",
        o.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    ))
}

/// The hashes of the names in [`OPS`] (Python's `str` hash, fixed for the process).
static OP_HASHES: std::sync::OnceLock<[isize; 14]> = std::sync::OnceLock::new();

/// The operation named by `name` (a `str`): its cached hash against the names' hashes, then one
/// comparison of the text (no conversion of the string).
fn op_of(name: &Bound<'_, PyAny>, seen: &mut OpCache) -> PyResult<Op> {
    let key = name.as_ptr() as usize;
    if let Some(op) = seen.get(key) {
        return Ok(op);
    }
    let s = name.downcast::<PyString>().map_err(|_| bad_call(name))?;
    let hashes = match OP_HASHES.get() {
        Some(h) => h,
        None => {
            let mut h = [0isize; 14];
            for (slot, (n, _)) in h.iter_mut().zip(OPS) {
                *slot = PyString::new(name.py(), &n.to_string_lossy()).hash()?;
            }
            OP_HASHES.get_or_init(|| h)
        }
    };
    let h = s.hash()?;
    for (i, (n, op)) in OPS.iter().enumerate() {
        // SAFETY: `s` is a `str` and `n` a NUL-terminated ASCII name.
        if hashes[i] == h
            && unsafe { ffi::PyUnicode_CompareWithASCIIString(s.as_ptr(), n.as_ptr()) } == 0
        {
            seen.put(key, i);
            return Ok(*op);
        }
    }
    Err(raise(tessera::Error::UnknownFunction {
        name: s.to_cow()?.to_string(),
        column: 1,
    }))
}

/// One call converted to native values, and the face of its result.
///
/// # Safety
/// `call` must be held (with its `args` tuple) for `'a`, see [`for_call`].
unsafe fn prepare<'a>(call: &Bound<'_, PyAny>, seen: &mut OpCache) -> PyResult<(Work<'a>, Face)> {
    let t = call.downcast::<PyTuple>().map_err(|_| bad_call(call))?;
    if t.len() != 2 {
        return Err(bad_call(call));
    }
    let op = op_of(&*t.get_borrowed_item(0)?, seen)?;
    let args = t.get_borrowed_item(1)?;
    let args = args.downcast::<PyTuple>().map_err(|_| bad_call(call))?;
    let a0 = args.get_borrowed_item(0)?;
    let face = fast::kind(&a0).face();
    // SAFETY (each `for_call`): the layouts are read directly from `args`, held by `call`.
    let a = unsafe { for_call(layout_ref(&a0, face)?) };
    let work = match op {
        Op::One(f) => Work::One(f, a),
        Op::Tiler(f) => {
            let b = args.get_borrowed_item(1)?;
            match fast::plain(&b) {
                Some((lb, _)) => {
                    let lb = unsafe { for_call(LayoutRef::Borrowed(lb)) };
                    if op_is_composition(f) {
                        Work::Compose(a, lb)
                    } else {
                        Work::TilerLayout(f, a, lb)
                    }
                }
                None => Work::Tiler(f, a, Box::new(tiler_arg(&b, face, 0)?)),
            }
        }
        Op::Complement => {
            let c = if args.len() > 1 {
                let c = args.get_borrowed_item(1)?;
                if c.is_none() {
                    Cotarget::Default
                } else if c.is_exact_instance_of::<pyo3::types::PyInt>() {
                    Cotarget::Int(int_of(&c)?)
                } else {
                    Cotarget::Tuple(Box::new(to_int_tuple(&c)?))
                }
            } else {
                Cotarget::Default
            };
            Work::Complement(a, c, face == Face::PyCute)
        }
    };
    Ok((work, face))
}

fn op_is_composition(f: Op2) -> bool {
    f as usize == algebra::composition_tiler as Op2 as usize
}

/// Calls per unit of work handed to a thread.
const CHUNK: usize = 128;

/// A chunk of prepared calls and the slots of their results.
type Job<'a, 's> = (Vec<Work<'a>>, &'s mut [Option<tessera::Result<Layout>>]);

fn run_job((work, out): Job<'_, '_>) {
    for (w, slot) in work.iter().zip(out.iter_mut()) {
        *slot = Some(w.run());
    }
}

/// Takes jobs from `queue` until it is closed and empty.
fn drain(queue: &Mutex<Receiver<Job<'_, '_>>>) {
    loop {
        // The lock is held only to take a job, not to run it.
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
        match job {
            Ok(job) => run_job(job),
            Err(_) => return,
        }
    }
}

/// The vectorised entry point: evaluates many calls `(op, (A, B...))` in one crossing. The
/// arguments are read once, with the GIL (layouts borrowed, not copied); while this thread reads
/// them, `threads - 1` worker threads already evaluate the chunks read so far, and once all are
/// read this thread releases the GIL and joins them. Returns a [`Results`] sequence: item `i` is
/// call `i`'s layout (in the face of its first argument) or its error (an instance, not raised),
/// made into a Python object when asked for.
#[pyfunction]
#[pyo3(signature = (calls, threads = None))]
fn apply_many(
    py: Python<'_>,
    calls: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<Results> {
    // A tuple holding every call for the whole run (so that the borrowed layouts stay alive
    // even if another thread changes the caller's list while the GIL is released).
    let held: Bound<'_, PyTuple> = if let Ok(t) = calls.downcast::<PyTuple>() {
        t.clone()
    } else if let Ok(l) = calls.downcast::<PyList>() {
        l.to_tuple()
    } else {
        PyTuple::new(py, calls.try_iter()?.collect::<PyResult<Vec<_>>>()?)?
    };
    let n = held.len();
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64)
        .min(n.div_ceil(CHUNK).max(1));
    let mut items: Vec<Option<tessera::Result<Layout>>> = Vec::with_capacity(n);
    items.resize_with(n, || None);
    let mut faces = Vec::with_capacity(n);
    let mut seen = OpCache::new(n);
    let (tx, rx) = channel::<Job<'_, '_>>();
    let queue = Mutex::new(rx);
    let result = std::thread::scope(|s| -> PyResult<()> {
        let queue = &queue;
        let workers: Vec<_> = (1..threads)
            .map(|_| s.spawn(move || drain(queue)))
            .collect();
        let mut slots = items.chunks_mut(CHUNK);
        let mut start = 0;
        let read = (|| -> PyResult<()> {
            while start < n {
                let end = (start + CHUNK).min(n);
                let mut work = Vec::with_capacity(end - start);
                for i in start..end {
                    let call = held.get_borrowed_item(i)?;
                    // SAFETY: `held` keeps `call` alive until this function returns, after the
                    // scope has joined every thread that reads `work`.
                    let (w, f) = unsafe { prepare(&call, &mut seen)? };
                    work.push(w);
                    faces.push(f);
                }
                let out = slots.next().expect("one slot chunk per work chunk");
                if threads == 1 {
                    run_job((work, out));
                } else if let Err(e) = tx.send((work, out)) {
                    // Every worker is gone (only a panic does that): run it here.
                    run_job(e.0);
                }
                start = end;
            }
            Ok(())
        })();
        drop(tx);
        // This thread evaluates what is left without the GIL (on an error, the workers finish
        // the jobs already queued and the error is raised after them).
        py.allow_threads(|| {
            drain(queue);
            for w in workers {
                // A worker that panicked left `None` in its slots: reported per item.
                let _ = w.join();
            }
        });
        read
    });
    // The queue (empty and closed now) borrows the result slots.
    drop(queue);
    result?;
    Ok(Results { items, faces })
}

/// Operation names already seen in this call, by the address of their `str` object (held by the
/// call's tuple, so an address is not reused during the call): a direct-mapped table.
struct OpCache {
    slots: Vec<(usize, u8)>,
    shift: u32,
}

impl OpCache {
    fn new(n: usize) -> Self {
        let len = (2 * n).clamp(16, 4096).next_power_of_two();
        OpCache {
            slots: vec![(0, 0); len],
            shift: usize::BITS - len.trailing_zeros(),
        }
    }
    #[inline]
    fn index(&self, key: usize) -> usize {
        (key >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift
    }
    #[inline]
    fn get(&self, key: usize) -> Option<Op> {
        let (k, i) = self.slots[self.index(key)];
        (k == key).then(|| OPS[i as usize].1)
    }
    #[inline]
    fn put(&mut self, key: usize, i: usize) {
        let at = self.index(key);
        self.slots[at] = (key, i as u8);
    }
}

/// The results of [`apply_many`], native: a sequence whose items (layouts, or error instances)
/// become Python objects when read.
#[pyclass(module = "tessera._tessera", name = "Results", frozen, sequence)]
pub struct Results {
    /// `None` only where a worker thread panicked.
    items: Vec<Option<tessera::Result<Layout>>>,
    faces: Vec<Face>,
}

impl Results {
    fn item(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
        let e = match &self.items[i] {
            Some(Ok(l)) => return fast::new_layout(py, self.faces[i], l.clone()),
            Some(Err(e)) => e.clone(),
            None => tessera::Error::Type {
                op: "apply_many".into(),
                position: 1,
                expected: "a call that completes",
                found: "a worker thread that panicked".into(),
            },
        };
        Ok(raise_info(py, err_info(e)).into_value(py).into_any())
    }
}

#[pymethods]
impl Results {
    fn __len__(&self) -> usize {
        self.items.len()
    }
    /// Item `i` (negative counts from the end), or a list for a slice.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let n = self.items.len() as isize;
        if let Ok(s) = key.downcast::<PySlice>() {
            let ind = s.indices(n)?;
            let mut out = Vec::new();
            let mut i = ind.start;
            while (ind.step > 0 && i < ind.stop) || (ind.step < 0 && i > ind.stop) {
                out.push(self.item(py, i as usize)?);
                i += ind.step;
            }
            return Ok(PyList::new(py, out)?.into_any().unbind());
        }
        let k = int_of(key)?;
        let i = if k < 0 { k + n as i64 } else { k };
        if i < 0 || i >= n as i64 {
            return Err(PyIndexError::new_err(format!(
                "result {k} of {n} (apply_many)"
            )));
        }
        self.item(py, i as usize)
    }
    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(self
            .tolist(py)?
            .into_bound(py)
            .call_method0("__iter__")?
            .unbind())
    }
    /// Every item as a Python object, in a list.
    fn tolist(&self, py: Python<'_>) -> PyResult<PyObject> {
        let out = (0..self.items.len())
            .map(|i| self.item(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(py, out)?.into_any().unbind())
    }
    /// How many calls failed.
    fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|r| !matches!(r, Some(Ok(_))))
            .count()
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.Results of {} calls, {} errors>",
            self.items.len(),
            self.error_count()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Results>()?;
    m.add_function(wrap_pyfunction!(apply_many, m)?)?;
    Ok(())
}
