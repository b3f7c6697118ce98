//! Compile-time obligations for static layouts.
//!
//! Const-generic layout types whose obligations are associated constants: naming one in a
//! `const` item (or using the type's `const fn new()` in one) evaluates it at compile time, and
//! an invalid tiling fails to compile with a message that names the obligation and the values:
//!
//! ```compile_fail
//! use tessera::obligation::static_check::Complement1;
//! // the Complementation theorem's badTile: error[E0080]: evaluation panicked: obligation failed: N·d ∣ M with
//! // N = 128, d = 16, M = 2040 (2048 ∤ 2040)
//! const BAD_TILE: Complement1<128, 16, 2040> = Complement1::new();
//! ```
//!
//! (A generic function that uses the type is checked when it is monomorphized, i.e. by
//! `cargo build`; a `const` item is checked by `cargo check` too.)

use crate::error::Divides;
use crate::layout::{Layout, Mode};

/// A message built at compile time (const fns cannot format integers with `format!`).
struct Msg {
    buf: [u8; 256],
    len: usize,
}

impl Msg {
    const fn new() -> Msg {
        Msg {
            buf: [0; 256],
            len: 0,
        }
    }

    const fn push(mut self, s: &str) -> Msg {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn int(mut self, v: i64) -> Msg {
        let mut digits = [0u8; 20];
        let mut n = v.unsigned_abs();
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if v < 0 && self.len < self.buf.len() {
            self.buf[self.len] = b'-';
            self.len += 1;
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }

    const fn fail(&self) -> ! {
        // Only ASCII digits and whole UTF-8 strings are pushed; a truncated tail is cut back to
        // a character boundary.
        let mut len = self.len;
        loop {
            let (head, _) = self.buf.split_at(len);
            if let Ok(s) = core::str::from_utf8(head) {
                panic!("{}", s);
            }
            len -= 1;
        }
    }
}

const fn positive(name: &str, v: i64) {
    if v < 1 {
        Msg::new()
            .push("obligation failed: ")
            .push(name)
            .push(" ≥ 1 with ")
            .push(name)
            .push(" = ")
            .int(v)
            .fail();
    }
}

/// The obligation `N·d ∣ M` (with `N, d, M ≥ 1`), discharged at compile time.
///
/// Pre: none. Post: returns the proof, or fails const evaluation with
/// `obligation failed: N·d ∣ M with N = .., d = .., M = .. (N·d ∤ M)`.
const fn prove_nd_divides_m(n: i64, d: i64, m: i64) -> Divides {
    positive("N", n);
    positive("d", d);
    positive("M", m);
    let Some(nd) = n.checked_mul(d) else {
        Msg::new()
            .push("obligation failed: N·d < 2^63 with N = ")
            .int(n)
            .push(", d = ")
            .int(d)
            .fail();
    };
    if m % nd != 0 {
        Msg::new()
            .push("obligation failed: N·d ∣ M with N = ")
            .int(n)
            .push(", d = ")
            .int(d)
            .push(", M = ")
            .int(m)
            .push(" (")
            .int(nd)
            .push(" ∤ ")
            .int(m)
            .push(")")
            .fail();
    }
    Divides::new_unchecked(nd, m)
}

/// The obligation `A ∣ B` (with `A, B ≥ 1`), discharged at compile time.
///
/// Pre: none. Post: `StaticDivides::<A, B>::PROOF` is the [`Divides`] proof, or compilation
/// fails with `obligation failed: a ∣ b with a = A, b = B (B mod A = r)`.
///
/// ```
/// use tessera::obligation::static_check::StaticDivides;
/// const H: tessera::obligation::Divides = StaticDivides::<16, 4096>::PROOF;
/// assert_eq!(H.quotient(), 256);
/// ```
pub struct StaticDivides<const A: i64, const B: i64>;

impl<const A: i64, const B: i64> StaticDivides<A, B> {
    /// The proof of `A ∣ B`; naming it checks the obligation at compile time.
    pub const PROOF: Divides = {
        positive("a", A);
        positive("b", B);
        if B % A != 0 {
            Msg::new()
                .push("obligation failed: a ∣ b with a = ")
                .int(A)
                .push(", b = ")
                .int(B)
                .push(" (")
                .int(B)
                .push(" mod ")
                .int(A)
                .push(" = ")
                .int(B % A)
                .push(")")
                .fail();
        }
        Divides::new_unchecked(A, B)
    };
}

/// The rank-1 layout `N:D`, with `N ≥ 1` checked at compile time.
///
/// ```
/// use tessera::obligation::static_check::StaticLayout1;
/// const A: StaticLayout1<128, 16> = StaticLayout1::new();
/// assert_eq!(A.layout().to_string(), "128:16");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticLayout1<const N: i64, const D: i64>;

impl<const N: i64, const D: i64> StaticLayout1<N, D> {
    /// The obligation `N ≥ 1`.
    pub const CHECK: () = positive("N", N);

    /// The layout value; a `const` use checks the obligation at compile time.
    pub const fn new() -> Self {
        let () = Self::CHECK;
        StaticLayout1
    }

    /// `N:D` as a runtime [`Layout`].
    pub fn layout(&self) -> Layout {
        Layout::leaf(Mode::new(N, D))
    }
}

impl<const N: i64, const D: i64> Default for StaticLayout1<N, D> {
    fn default() -> Self {
        Self::new()
    }
}

/// The Complementation theorem's `complement1 N d M h`, with `h : N·d ∣ M` proved at compile time: the complement
/// `(d, M/(N·d)):(1, N·d)` of `N:d` in `[0, M)`.
///
/// Pre: `N, D, M ≥ 1`, `N·D` fits in `i64` and divides `M` (checked when the type is used in a
/// constant; otherwise compilation fails with the obligation and the values).
/// Post: [`Complement1::complement`] equals [`crate::algebra::complement1`]`(N, D, M)`;
/// [`Complement1::tiled`] is `(N, d, M/(N·d)):(d, 1, N·d)`, a bijection onto `[0, M)`.
///
/// ```
/// use tessera::obligation::static_check::Complement1;
/// const TILE: Complement1<4, 2, 24> = Complement1::new();
/// assert_eq!(TILE.complement().to_string(), "(2,3):(1,8)");
/// assert_eq!(TILE.tiled().to_string(), "(4,2,3):(2,1,8)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Complement1<const N: i64, const D: i64, const M: i64>;

impl<const N: i64, const D: i64, const M: i64> Complement1<N, D, M> {
    /// The proof of `N·D ∣ M`; evaluating it checks the obligation at compile time.
    pub const PROOF: Divides = prove_nd_divides_m(N, D, M);

    /// The tiling value; a `const` use checks the obligation at compile time.
    pub const fn new() -> Self {
        let _ = Self::PROOF;
        Complement1
    }

    /// The complement `B = (d, M/(N·d)):(1, N·d)`.
    pub fn complement(&self) -> Layout {
        let h = Self::PROOF;
        Layout::flat([Mode::new(D, 1), Mode::new(h.quotient(), h.divisor())])
    }

    /// The tiled layout `C = A ++ B = (N, d, M/(N·d)):(d, 1, N·d)`.
    pub fn tiled(&self) -> Layout {
        let h = Self::PROOF;
        Layout::flat([
            Mode::new(N, D),
            Mode::new(D, 1),
            Mode::new(h.quotient(), h.divisor()),
        ])
    }
}

impl<const N: i64, const D: i64, const M: i64> Default for Complement1<N, D, M> {
    fn default() -> Self {
        Self::new()
    }
}
