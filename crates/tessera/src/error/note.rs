//! Notes: warnings that travel with a *successful* result.
//!
//! An [`Error`](super::Error) stops a computation; a [`Note`] does not. It records that an answer
//! was given although a stronger property the caller may expect does not hold (today: CuTe's
//! complement of a non-tractable layout, which leaves holes). The direct API returns the note next
//! to the result ([`crate::algebra::complement::complement_with_note`]); an operation built on
//! such a complement (a divide, a product, an expression) reports it through [`collect`], which
//! gathers the notes recorded on this thread while a closure runs.
//!
//! Recording costs nothing when no [`collect`] is active (the note is not even built).

use std::cell::RefCell;
use std::fmt;

/// A warning attached to a successful result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// A stable snake_case identifier (listed in `docs/errors.md`, "Notes").
    pub code: &'static str,
    /// The operation that produced the note.
    pub op: &'static str,
    /// The obligation that was not discharged, with the values (e.g. `2·1 ∣ 3`).
    pub obligation: String,
    /// The same obligation in general form (e.g. `s_i·d_i ∣ d_{i+1} (sorted by stride)`).
    pub symbolic: String,
    /// One sentence: what holds instead, with the values.
    pub message: String,
    /// The first point of `[0, cosize)` that the result does not reach, when the note is about
    /// holes.
    pub hole: Option<i64>,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

thread_local! {
    static SINK: RefCell<Option<Vec<Note>>> = const { RefCell::new(None) };
}

/// Runs `f`, returning its value and the notes recorded on this thread while it ran (in order).
/// Nested calls each see their own notes, and pass them on to the enclosing collection.
///
/// ```
/// use tessera::{algebra::complement, error::note};
/// let a: tessera::Layout = "(2,2):(1,3)".parse().unwrap();
/// let (r, notes) = note::collect(|| complement(&a, &"5".parse().unwrap()));
/// assert_eq!(r.unwrap().to_string(), "1:0");
/// assert_eq!(notes[0].code, "complement_holes");
/// ```
pub fn collect<T>(f: impl FnOnce() -> T) -> (T, Vec<Note>) {
    /// Restores the enclosing collection even if `f` unwinds.
    struct Scope(Option<Option<Vec<Note>>>);
    impl Drop for Scope {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                SINK.with(|s| *s.borrow_mut() = outer);
            }
        }
    }
    let mut scope = Scope(Some(SINK.with(|s| s.borrow_mut().replace(Vec::new()))));
    let v = f();
    let mine = SINK.with(|s| s.borrow_mut().take()).unwrap_or_default();
    if let Some(Some(mut outer)) = scope.0.take() {
        outer.extend(mine.iter().cloned());
        SINK.with(|s| *s.borrow_mut() = Some(outer));
    }
    (v, mine)
}

/// Runs `f` inside the enclosing [`collect`] (if any), passing the notes it records on only when
/// `keep(&value)`: a computation whose value is thrown away drops its notes (the expression
/// reader's fast path, when it gives up and the general path evaluates again).
///
/// Pre: none. Post: returns `f()`; the enclosing collection gains `f`'s notes iff `keep` holds.
/// Example: `collect_if(|| complement(..), |_| false)` inside `collect` leaves no note.
pub fn collect_if<T>(f: impl FnOnce() -> T, keep: impl FnOnce(&T) -> bool) -> T {
    if SINK.with(|s| s.borrow().is_none()) {
        return f();
    }
    /// Restores the enclosing collection even if `f` unwinds.
    struct Scope(Option<Option<Vec<Note>>>);
    impl Drop for Scope {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                SINK.with(|s| *s.borrow_mut() = outer);
            }
        }
    }
    let mut scope = Scope(Some(SINK.with(|s| s.borrow_mut().replace(Vec::new()))));
    let v = f();
    let mine = SINK.with(|s| s.borrow_mut().take()).unwrap_or_default();
    if let Some(Some(mut outer)) = scope.0.take() {
        if keep(&v) {
            outer.extend(mine);
        }
        SINK.with(|s| *s.borrow_mut() = Some(outer));
    }
    v
}

/// Records the note `make()` builds, if a [`collect`] is active on this thread (otherwise
/// `make` is not called).
pub fn record_with(make: impl FnOnce() -> Note) {
    if SINK.with(|s| s.borrow().is_some()) {
        let n = make();
        SINK.with(|s| {
            if let Some(v) = s.borrow_mut().as_mut() {
                v.push(n);
            }
        });
    }
}
