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
use tessera::layout::{IntTuple, Layout, Mode};

use crate::{
    err_info, fast, int_of, layout_ref, raise, raise_info, tiler_arg, to_int_tuple, Face,
    LayoutRef, Op2,
};

/// An operation of one layout.
#[derive(Clone, Copy)]
enum One {
    Coalesce,
    Filter,
    RightInverse,
    LeftInverse,
}

/// An operation of a layout and a tiler: the three with an `_into` form, the others by value.
#[derive(Clone, Copy)]
enum Two {
    /// `composition(A, B)`: [`algebra::composition_into`] for a layout B.
    Composition,
    LogicalDivide,
    LogicalProduct,
    /// The zipped, tiled and flat arrangements.
    Other(Op2),
}

/// An operation `apply_many` knows.
#[derive(Clone, Copy)]
enum Op {
    One(One),
    Two(Two),
    /// `complement(A)` or `complement(A, cotarget)`.
    Complement,
}

const OPS: [(&std::ffi::CStr, Op); 14] = [
    (c"composition", Op::Two(Two::Composition)),
    (c"logical_divide", Op::Two(Two::LogicalDivide)),
    (
        c"zipped_divide",
        Op::Two(Two::Other(algebra::zipped_divide)),
    ),
    (c"tiled_divide", Op::Two(Two::Other(algebra::tiled_divide))),
    (c"flat_divide", Op::Two(Two::Other(algebra::flat_divide))),
    (c"logical_product", Op::Two(Two::LogicalProduct)),
    (
        c"zipped_product",
        Op::Two(Two::Other(algebra::zipped_product)),
    ),
    (
        c"tiled_product",
        Op::Two(Two::Other(algebra::tiled_product)),
    ),
    (c"flat_product", Op::Two(Two::Other(algebra::flat_product))),
    (c"coalesce", Op::One(One::Coalesce)),
    (c"filter", Op::One(One::Filter)),
    (c"right_inverse", Op::One(One::RightInverse)),
    (c"left_inverse", Op::One(One::LeftInverse)),
    (c"complement", Op::Complement),
];

/// The cotarget of a `complement` call.
enum Cotarget {
    Default,
    Int(i64),
    Tuple(Box<IntTuple>),
}

/// One call, its arguments native: layouts borrowed from their objects (a layout built from an
/// integer or text, or a tiler other than a layout or a tuple of layouts, is boxed: the rare
/// case).
enum Work<'a> {
    One(One, LayoutRef<'a>),
    /// `op(A, B)` with B a layout.
    Layout(Two, LayoutRef<'a>, &'a Layout),
    /// `op(A, (B0, B1, ...))` with every `Bi` a layout: `Bi` are the job's `tiles[at..at + len]`.
    Modes(Two, LayoutRef<'a>, u32, u32),
    Tiler(Two, LayoutRef<'a>, Box<Tiler>),
    /// With `true`, pycute's face: an injective layout with no tiling complement gets CuTe's
    /// disjoint complement, as `tessera.pycute.complement` (and `complement` of a pycute layout).
    Complement(LayoutRef<'a>, Cotarget, bool),
}

/// A worker's reused buffers: the result layout, a layout tiler and a tuple tiler (their
/// storage reused from call to call: no allocation per call).
struct Scratch {
    out: Layout,
    layout: Tiler,
    tuple: Tiler,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            out: Layout::default(),
            layout: Tiler::Layout(Layout::default()),
            tuple: Tiler::Tuple(Vec::new()),
        }
    }
}

/// `out = r`, for the operations without an `_into` form.
#[inline]
fn set(out: &mut Layout, r: tessera::Result<Layout>) -> tessera::Result<()> {
    *out = r?;
    Ok(())
}

/// `op(a, t)` into `out`.
#[inline]
fn two(op: Two, a: &Layout, t: &Tiler, out: &mut Layout) -> tessera::Result<()> {
    match op {
        Two::Composition => match t {
            Tiler::Layout(b) => algebra::composition_into(a, b, out),
            _ => set(out, algebra::composition_tiler(a, t)),
        },
        Two::LogicalDivide => algebra::logical_divide_into(a, t, out),
        Two::LogicalProduct => algebra::logical_product_into(a, t, out),
        Two::Other(f) => set(out, f(a, t)),
    }
}

impl Work<'_> {
    /// Evaluates the call into `s.out` (`tiles`: the job's tuple-tiler layouts).
    fn run(&self, s: &mut Scratch, tiles: &[&Layout]) -> tessera::Result<()> {
        let out = &mut s.out;
        match self {
            Work::One(op, a) => match op {
                One::Coalesce => algebra::coalesce_into(a, out),
                One::Filter => set(out, algebra::filter(a)),
                One::RightInverse => algebra::right_inverse_into(a, out),
                One::LeftInverse => algebra::left_inverse_into(a, out),
            },
            Work::Layout(Two::Composition, a, b) => algebra::composition_into(a, b, out),
            Work::Layout(op, a, b) => {
                let Tiler::Layout(t) = &mut s.layout else {
                    unreachable!("the scratch layout tiler")
                };
                // Only the used part of B is copied.
                t.assign(b);
                two(*op, a, &s.layout, out)
            }
            Work::Modes(op, a, at, len) => {
                let Tiler::Tuple(ts) = &mut s.tuple else {
                    unreachable!("the scratch tuple tiler")
                };
                let bs = &tiles[*at as usize..(*at + *len) as usize];
                ts.truncate(bs.len());
                while ts.len() < bs.len() {
                    ts.push(Tiler::Layout(Layout::default()));
                }
                for (t, b) in ts.iter_mut().zip(bs) {
                    if let Tiler::Layout(t) = t {
                        t.assign(b);
                    }
                }
                two(*op, a, &s.tuple, out)
            }
            Work::Tiler(op, a, t) => two(*op, a, t, out),
            Work::Complement(a, c, disjoint) => complement_into(a, c, *disjoint, out),
        }
    }
}

/// `complement(a, c)` into `out`: the same answers as `complement` of the same arguments
/// (pycute's face: the tiling complement, else pycute's disjoint one).
fn complement_into(
    a: &Layout,
    c: &Cotarget,
    disjoint: bool,
    out: &mut Layout,
) -> tessera::Result<()> {
    let leaf;
    let ct = match c {
        Cotarget::Default => None,
        Cotarget::Int(n) => {
            leaf = IntTuple::leaf(*n);
            Some(&leaf)
        }
        Cotarget::Tuple(t) => Some(&**t),
    };
    match ct {
        _ if disjoint => algebra::complement::complement_pycute_into(a, ct, out),
        Some(ct) => algebra::complement_into(a, ct, out),
        None => set(out, algebra::complement_default(a)),
    }
}

/// `r` with the lifetime `'a` of the whole call.
///
/// # Safety
/// The layout must live in an object that stays alive and unchanged for `'a`: `apply_many`
/// holds a tuple of the `(op, args)` tuples for the whole call, tuples are immutable and layout
/// objects are frozen, so every layout read directly from an `args` tuple (or from a tuple in
/// it) qualifies.
unsafe fn for_call<'a>(r: LayoutRef<'_>) -> LayoutRef<'a> {
    match r {
        // SAFETY: see the function's contract.
        LayoutRef::Borrowed(l) => LayoutRef::Borrowed(unsafe { &*(l as *const Layout) }),
        LayoutRef::Owned(l) => LayoutRef::Owned(l),
    }
}

/// `l` with the lifetime `'a` of the whole call.
///
/// # Safety
/// As [`for_call`].
unsafe fn borrow_for_call<'a>(l: &Layout) -> &'a Layout {
    // SAFETY: see the function's contract.
    unsafe { &*(l as *const Layout) }
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

/// `o` as a tuple: an exact tuple by one comparison of its type, else PyO3's check.
#[inline(always)]
fn as_tuple<'a, 'py>(o: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyTuple>> {
    if o.is_exact_instance_of::<PyTuple>() {
        // SAFETY: `o` is exactly a tuple.
        Some(unsafe { o.downcast_unchecked::<PyTuple>() })
    } else {
        o.downcast::<PyTuple>().ok()
    }
}

/// Item `i` of `t`, borrowed.
///
/// # Safety
/// `i < len(t)`.
#[inline(always)]
unsafe fn item<'a, 'py>(t: &'a Bound<'py, PyTuple>, i: isize) -> Borrowed<'a, 'py, PyAny> {
    // SAFETY: `t` is a tuple and `i` in range, so the item is a live, non-null borrowed pointer.
    unsafe { Borrowed::from_ptr(t.py(), ffi::PyTuple_GetItem(t.as_ptr(), i)) }
}

/// One call converted to native values, and the face of its result; the layouts of a tuple
/// tiler are appended to `tiles`.
///
/// # Safety
/// `call` must be held (with its `args` tuple) for `'a`, see [`for_call`].
unsafe fn prepare<'a>(
    call: &Bound<'_, PyAny>,
    seen: &mut OpCache,
    tiles: &mut Vec<&'a Layout>,
) -> PyResult<(Work<'a>, Face)> {
    let t = as_tuple(call).ok_or_else(|| bad_call(call))?;
    if t.len() != 2 {
        return Err(bad_call(call));
    }
    // SAFETY (each `item`): the index is below the length just read.
    let op = op_of(&*unsafe { item(t, 0) }, seen)?;
    let args = unsafe { item(t, 1) };
    let args = as_tuple(&args).ok_or_else(|| bad_call(call))?;
    let na = args.len();
    if na == 0 {
        // The same error as reading a missing argument.
        args.get_borrowed_item(0)?;
    }
    let a0 = unsafe { item(args, 0) };
    let face = fast::kind(&a0).face();
    // SAFETY (each `for_call`, `borrow_for_call`): the layouts are read directly from `args`
    // (or from a tuple in it), held by `call`.
    let a = unsafe { for_call(layout_ref(&a0, face)?) };
    let work = match op {
        Op::One(f) => Work::One(f, a),
        Op::Two(f) => {
            let b = if na > 1 {
                unsafe { item(args, 1) }
            } else {
                args.get_borrowed_item(1)?
            };
            if let Some((lb, _)) = fast::plain(&b) {
                Work::Layout(f, a, unsafe { borrow_for_call(lb) })
            } else if let Some(w) = unsafe { tuple_of_layouts(&b, tiles) } {
                Work::Modes(f, a, w.0, w.1)
            } else {
                Work::Tiler(f, a, Box::new(tiler_arg(&b, face, 0)?))
            }
        }
        Op::Complement => {
            let c = if na > 1 {
                let c = unsafe { item(args, 1) };
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

/// When `b` is a non-empty tuple of layouts (the tiler `tiler_arg` makes a `Tiler::Tuple` of
/// `Tiler::Layout`s of), appends them to `tiles` and returns where they start and how many.
///
/// # Safety
/// As [`for_call`], for `b`.
unsafe fn tuple_of_layouts(b: &Bound<'_, PyAny>, tiles: &mut Vec<&Layout>) -> Option<(u32, u32)> {
    let t = as_tuple(b)?;
    let at = tiles.len();
    for x in t.iter_borrowed() {
        match fast::plain(&x) {
            // SAFETY: `x` is held by `b`.
            Some((l, _)) => tiles.push(unsafe { borrow_for_call(l) }),
            None => {
                tiles.truncate(at);
                return None;
            }
        }
    }
    let len = tiles.len() - at;
    if len == 0 {
        return None;
    }
    Some((u32::try_from(at).ok()?, u32::try_from(len).ok()?))
}

/// Calls per unit of work handed to a thread.
const CHUNK: usize = 128;

/// The results of a chunk of calls, compact: each result layout is its profile tokens and its
/// leaf modes appended to two buffers (no allocation per call, ≈ 20 bytes per mode instead of a
/// whole inline layout), an error kept aside with its call's index in the chunk.
#[derive(Default)]
struct Chunk {
    toks: Vec<u32>,
    leaves: Vec<Mode>,
    /// For call `j`: the ends of its tokens and leaves; an error has no tokens.
    ends: Vec<(u32, u32)>,
    /// The errors, by call index (ascending).
    errs: Vec<(u32, tessera::Error)>,
}

impl Chunk {
    /// Appends the next call's result (the layout in `out`, or the error).
    #[inline]
    fn push(&mut self, r: tessera::Result<()>, out: &Layout) {
        match r {
            Ok(()) => {
                let t = out.tree();
                self.toks.extend_from_slice(t.profile());
                self.leaves.extend_from_slice(t.leaf_slice());
            }
            Err(e) => self.errs.push((self.ends.len() as u32, e)),
        }
        self.ends
            .push((self.toks.len() as u32, self.leaves.len() as u32));
    }

    /// Call `j`'s result, or `None` when none was stored (a worker thread panicked).
    #[inline(always)]
    fn get(&self, j: usize) -> Option<Result<Layout, &tessera::Error>> {
        let &(t1, l1) = self.ends.get(j)?;
        let (t0, l0) = if j == 0 { (0, 0) } else { self.ends[j - 1] };
        if t0 == t1 {
            let k = self.errs.binary_search_by_key(&(j as u32), |e| e.0).ok()?;
            return Some(Err(&self.errs[k].1));
        }
        // Stored from a layout's own profile and leaves: always well formed.
        Layout::from_profile(
            &self.toks[t0 as usize..t1 as usize],
            &self.leaves[l0 as usize..l1 as usize],
        )
        .ok()
        .map(Ok)
    }
}

/// A chunk of prepared calls, the layouts of their tuple tilers, and where their results go.
type Job<'a, 's> = (Vec<Work<'a>>, Vec<&'a Layout>, &'s mut Chunk);

fn run_job((work, tiles, out): Job<'_, '_>, s: &mut Scratch) {
    out.toks.reserve(work.len() * 8);
    out.leaves.reserve(work.len() * 6);
    out.ends.reserve_exact(work.len());
    for w in &work {
        let r = w.run(s, &tiles);
        out.push(r, &s.out);
    }
}

/// Takes jobs from `queue` until it is closed and empty.
fn drain(queue: &Mutex<Receiver<Job<'_, '_>>>) {
    let mut s = Scratch::new();
    loop {
        // The lock is held only to take a job, not to run it.
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
        match job {
            Ok(job) => run_job(job, &mut s),
            Err(_) => return,
        }
    }
}

/// The vectorised entry point: evaluates many calls `(op, (A, B...))` in one crossing. The
/// arguments are read once, with the GIL (layouts borrowed, not copied); while this thread reads
/// them, `threads - 1` worker threads already evaluate the chunks read so far, and once all are
/// read this thread releases the GIL and joins them. Each worker writes its results compactly
/// (one reused output layout, the `_into` operations; no allocation per call). Returns a
/// [`Results`] sequence: item `i` is call `i`'s layout (in the face of its first argument) or its
/// error (an instance, not raised), made into a Python object when asked for.
///
/// Pre: each call `(name, args)` names an operation of the registry. Post: `len(results) ==
/// len(calls)`; each item equals `tessera.<name>(*args)` or is the error that call raises.
///
/// >>> r = tessera.apply_many([("coalesce", (tessera.Layout("(2,4):(1,2)"),)), ("complement", (tessera.Layout("(2,2):(1,1)"),))])
/// >>> r[0], r.error_count()
/// (Layout('8:1'), 1)
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
    let mut chunks: Vec<Chunk> = Vec::with_capacity(n.div_ceil(CHUNK));
    chunks.resize_with(n.div_ceil(CHUNK), Chunk::default);
    let mut faces = Vec::with_capacity(n);
    let mut seen = OpCache::new(n);
    let (tx, rx) = channel::<Job<'_, '_>>();
    let queue = Mutex::new(rx);
    let result = std::thread::scope(|s| -> PyResult<()> {
        let queue = &queue;
        let workers: Vec<_> = (1..threads)
            .map(|_| s.spawn(move || drain(queue)))
            .collect();
        let mut slots = chunks.iter_mut();
        let mut start = 0;
        let mut scratch = (threads == 1).then(Scratch::new);
        let read = (|| -> PyResult<()> {
            while start < n {
                let end = (start + CHUNK).min(n);
                let mut work = Vec::with_capacity(end - start);
                let mut tiles = Vec::new();
                for i in start..end {
                    let call = held.get_borrowed_item(i)?;
                    // SAFETY: `held` keeps `call` alive until this function returns, after the
                    // scope has joined every thread that reads `work`.
                    let (w, f) = unsafe { prepare(&call, &mut seen, &mut tiles)? };
                    work.push(w);
                    faces.push(f);
                }
                let out = slots.next().expect("one chunk per work chunk");
                if let Some(s) = scratch.as_mut() {
                    run_job((work, tiles, out), s);
                } else if let Err(e) = tx.send((work, tiles, out)) {
                    // Every worker is gone (only a panic does that): run it here.
                    run_job(e.0, scratch.get_or_insert_with(Scratch::new));
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
                // A worker that panicked left its chunk short: reported per item.
                let _ = w.join();
            }
        });
        read
    });
    // The queue (empty and closed now) borrows the chunks.
    drop(queue);
    result?;
    Ok(Results { chunks, faces })
}

/// Operation names already seen in this call, by the address of their `str` object (held by the
/// call's tuple, so an address is not reused during the call): a direct-mapped table.
struct OpCache {
    slots: Vec<(usize, u8)>,
    shift: u32,
}

impl OpCache {
    fn new(n: usize) -> Self {
        let len = (4 * n).clamp(64, 8192).next_power_of_two();
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
/// become Python objects when read. Stored compactly ([`Chunk`]s of [`CHUNK`] calls).
#[pyclass(module = "tessera._tessera", name = "Results", frozen, sequence)]
pub struct Results {
    chunks: Vec<Chunk>,
    faces: Vec<Face>,
}

impl Results {
    fn item(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
        let e = match self.chunks[i / CHUNK].get(i % CHUNK) {
            Some(Ok(l)) => {
                let mut l = std::mem::ManuallyDrop::new(l);
                // SAFETY: `l` is not used afterwards (the object owns it).
                return unsafe { fast::adopt(py, self.faces[i], &mut l) };
            }
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
        self.faces.len()
    }
    /// Item `i` (negative counts from the end), or a list for a slice.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let n = self.faces.len() as isize;
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
        let out = (0..self.faces.len())
            .map(|i| self.item(py, i))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(py, out)?.into_any().unbind())
    }
    /// How many calls failed.
    fn error_count(&self) -> usize {
        // Errors, and the calls of a chunk that a panicked worker left short.
        self.chunks
            .iter()
            .map(|c| c.errs.len() + (CHUNK - c.ends.len()))
            .sum::<usize>()
            - (self.chunks.len() * CHUNK - self.faces.len())
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.Results of {} calls, {} errors>",
            self.faces.len(),
            self.error_count()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // `apply_many`'s fast table names operations of the library's registry only (checked once,
    // at import: a name that left the registry fails the import, not a call).
    for (name, _) in OPS {
        let name = name.to_str().unwrap_or_default();
        if tessera::notation::ops::lookup(name).is_none() {
            return Err(PyTypeError::new_err(format!(
                "apply_many: {name} is not an operation of tessera::notation::ops"
            )));
        }
    }
    m.add_class::<Results>()?;
    m.add_function(wrap_pyfunction!(apply_many, m)?)?;
    Ok(())
}
