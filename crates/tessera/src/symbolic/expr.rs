//! Symbolic integer expressions: canonical polynomials over named runtime extents and opaque
//! floor / ceiling quotients.
//!
//! A [`Poly`] is a sum of integer multiples of monomials; a monomial is a product of [`Atom`]s
//! (a name, or a quotient that did not simplify). Construction canonicalizes, so two expressions
//! equal as polynomials compare equal (`M*1 - M + K == K`), and an exact quotient simplifies
//! (`(128*K)/128 == K`). Division is Euclidean (`/` and `%` as in the seeds); for a positive
//! divisor it is floor division.

use super::SymError;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The longest name stored inline in a [`Name`] (longer ones are shared, not copied).
const INLINE: usize = 22;

/// A name of a runtime extent: a string that clones without allocating (a short name is stored
/// inline, a long one shared). It compares, orders and hashes as its text.
#[derive(Clone)]
pub struct Name(NameRepr);

#[derive(Clone)]
enum NameRepr {
    Inline(u8, [u8; INLINE]),
    Shared(Arc<str>),
}

impl Name {
    /// The name `s`.
    ///
    /// Pre: none. Post: `Name::new(s).as_str() == s`. Example: `Name::new("ldA")`.
    pub fn new(s: &str) -> Name {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..b.len()].copy_from_slice(b);
            Name(NameRepr::Inline(b.len() as u8, buf))
        } else {
            Name(NameRepr::Shared(Arc::from(s)))
        }
    }

    /// The name followed by `'` (the quotient variable of the decision procedure).
    pub(crate) fn primed(&self) -> Name {
        match &self.0 {
            NameRepr::Inline(n, buf) if usize::from(*n) < INLINE => {
                let mut buf = *buf;
                buf[usize::from(*n)] = b'\'';
                Name(NameRepr::Inline(n + 1, buf))
            }
            _ => Name::new(&format!("{}'", self.as_str())),
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.0 {
            NameRepr::Inline(n, buf) => &buf[..usize::from(*n)],
            NameRepr::Shared(s) => s.as_bytes(),
        }
    }

    /// The text.
    ///
    /// Pre: none. Post: the string the name was made from. Example: `"M"`.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Built from a `&str` (plus an ASCII `'`): always UTF-8.
            NameRepr::Inline(n, buf) => std::str::from_utf8(&buf[..usize::from(*n)]).unwrap_or(""),
            NameRepr::Shared(s) => s,
        }
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    fn eq(&self, o: &Name) -> bool {
        self.bytes() == o.bytes()
    }
}

impl Eq for Name {}

/// A name compares equal to its text (`Name::new("M") == "M"`), either way round.
macro_rules! name_eq_text {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Name {
            fn eq(&self, o: &$t) -> bool {
                self.bytes() == AsRef::<str>::as_ref(o).as_bytes()
            }
        }
        impl PartialEq<Name> for $t {
            fn eq(&self, o: &Name) -> bool {
                o == self
            }
        }
    )*};
}

name_eq_text!(str, &str, String);

impl PartialOrd for Name {
    fn partial_cmp(&self, o: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// The order of the text (UTF-8 bytes order as `str` does).
impl Ord for Name {
    fn cmp(&self, o: &Name) -> std::cmp::Ordering {
        self.bytes().cmp(o.bytes())
    }
}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A factor of a monomial.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A named runtime extent, e.g. `M`.
    Name(Name),
    /// `p / q`, Euclidean division that did not simplify.
    Floor(Arc<Poly>, Arc<Poly>),
    /// `ceil_div(p, q)` (the real quotient rounded up) that did not simplify.
    Ceil(Arc<Poly>, Arc<Poly>),
    /// `p % q`, the Euclidean remainder, that did not simplify.
    Mod(Arc<Poly>, Arc<Poly>),
    /// `Sw<B,M,S>(p)`: CuTe's swizzle of `p` (`p ⊕ ((p & yyy) ≫ S)`) that did not simplify.
    /// The swizzle is `[B, M, S]`, valid ([`crate::layout::Swizzle::new`]).
    Swizzle([i64; 3], Arc<Poly>),
}

/// A list stored inline when it has at most one element and shared (`Arc`) when longer, so a
/// clone copies no list: the storage of monomials and term lists. Compares, orders and hashes
/// as its slice.
#[derive(Clone, Default)]
enum Shared<T> {
    #[default]
    Empty,
    One(T),
    Many(Arc<[T]>),
}

impl<T> Shared<T> {
    fn as_slice(&self) -> &[T] {
        match self {
            Shared::Empty => &[],
            Shared::One(x) => std::slice::from_ref(x),
            Shared::Many(xs) => xs,
        }
    }
}

impl<T> From<Vec<T>> for Shared<T> {
    fn from(mut v: Vec<T>) -> Shared<T> {
        match v.len() {
            0 => Shared::Empty,
            1 => v.pop().map_or(Shared::Empty, Shared::One),
            _ => Shared::Many(Arc::from(v)),
        }
    }
}

impl<T: Clone, const N: usize> From<smallvec::SmallVec<[T; N]>> for Shared<T> {
    fn from(mut v: smallvec::SmallVec<[T; N]>) -> Shared<T> {
        match v.len() {
            0 => Shared::Empty,
            1 => v.pop().map_or(Shared::Empty, Shared::One),
            _ => Shared::Many(Arc::from(v.as_slice())),
        }
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, o: &Shared<T>) -> bool {
        self.as_slice() == o.as_slice()
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: Ord> PartialOrd for Shared<T> {
    fn partial_cmp(&self, o: &Shared<T>) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl<T: Ord> Ord for Shared<T> {
    fn cmp(&self, o: &Shared<T>) -> std::cmp::Ordering {
        self.as_slice().cmp(o.as_slice())
    }
}

impl<T: std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h)
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

/// A monomial: atoms with their powers, sorted by atom; empty for the constant monomial. One
/// atom is stored inline, more are shared (a clone copies no list). Compares, orders and hashes
/// as the slice of `(atom, power)`.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mono(Shared<(Atom, u32)>);

impl Mono {
    /// The constant monomial.
    ///
    /// Pre: none. Post: empty. Example: `Mono::new().is_empty()`.
    pub fn new() -> Mono {
        Mono(Shared::Empty)
    }

    /// The factors `(atom, power)`.
    ///
    /// Pre: none. Post: sorted by atom. Example: `K*M` has two.
    pub fn as_slice(&self) -> &[(Atom, u32)] {
        self.0.as_slice()
    }
}

impl std::ops::Deref for Mono {
    type Target = [(Atom, u32)];
    fn deref(&self) -> &[(Atom, u32)] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Mono {
    type Item = &'a (Atom, u32);
    type IntoIter = std::slice::Iter<'a, (Atom, u32)>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl From<Vec<(Atom, u32)>> for Mono {
    fn from(v: Vec<(Atom, u32)>) -> Mono {
        Mono(Shared::from(v))
    }
}

impl fmt::Debug for Mono {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// A term list under construction (on the stack up to four terms).
type Terms = smallvec::SmallVec<[(Mono, i64); 4]>;

/// The terms of a polynomial, shared: a clone copies no term list (a single term, the common
/// case, is stored inline; longer lists are shared).
type TermList = Shared<(Mono, i64)>;

/// A canonical integer polynomial: terms sorted by monomial, no zero coefficient.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly {
    terms: TermList,
}

fn ovf(what: &str) -> SymError {
    SymError::Overflow(what.to_string())
}

fn mono_mul(a: &Mono, b: &Mono) -> Result<Mono, SymError> {
    if a.is_empty() {
        return Ok(b.clone());
    }
    if b.is_empty() {
        return Ok(a.clone());
    }
    let mut out: smallvec::SmallVec<[(Atom, u32); 4]> =
        smallvec::SmallVec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
            out.push(a[i].clone());
            i += 1;
        } else if i == a.len() || b[j].0 < a[i].0 {
            out.push(b[j].clone());
            j += 1;
        } else {
            let p = a[i].1.checked_add(b[j].1).ok_or_else(|| ovf("power"))?;
            out.push((a[i].0.clone(), p));
            i += 1;
            j += 1;
        }
    }
    Ok(Mono(Shared::from(out)))
}

impl Poly {
    /// The constant 0.
    pub(crate) const ZERO: Poly = Poly {
        terms: Shared::Empty,
    };

    /// The constant 1.
    pub(crate) const ONE: Poly = Poly {
        terms: Shared::One((Mono(Shared::Empty), 1)),
    };

    /// The constant `c`.
    ///
    /// Pre: none. Post: `Poly::constant(c).as_const() == Some(c)`. Example: `Poly::constant(4)`.
    pub fn constant(c: i64) -> Poly {
        if c == 0 {
            Poly::default()
        } else {
            Poly {
                terms: Shared::One((Mono::new(), c)),
            }
        }
    }

    /// The single term `c * m`.
    ///
    /// Pre: `m` sorted by atom. Post: a one-term polynomial (zero when `c == 0`).
    /// Example: `Poly::from_term(vec![], 3) == Poly::constant(3)`.
    pub fn from_term(m: Mono, c: i64) -> Poly {
        if c == 0 {
            Poly::default()
        } else {
            Poly {
                terms: Shared::One((m, c)),
            }
        }
    }

    /// The name `n`.
    ///
    /// Pre: none. Post: a one-term polynomial. Example: `Poly::name("M").to_string() == "M"`.
    pub fn name(n: &str) -> Poly {
        Poly::atom(Atom::Name(Name::new(n)))
    }

    /// The name `n` (a [`Name`] already made).
    ///
    /// Pre: none. Post: a one-term polynomial. Example: `Poly::of_name(Name::new("M"))`.
    pub fn of_name(n: Name) -> Poly {
        Poly::atom(Atom::Name(n))
    }

    fn atom(a: Atom) -> Poly {
        Poly {
            terms: Shared::One((Mono(Shared::One((a, 1))), 1)),
        }
    }

    fn from_terms(mut terms: Terms) -> Result<Poly, SymError> {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Terms = Terms::with_capacity(terms.len());
        for (m, c) in terms {
            match out.last_mut() {
                Some(last) if last.0 == m => {
                    last.1 = last.1.checked_add(c).ok_or_else(|| ovf("coefficient"))?
                }
                _ => out.push((m, c)),
            }
        }
        out.retain(|t| t.1 != 0);
        Ok(Poly { terms: out.into() })
    }

    /// The terms `(monomial, coefficient)`, sorted, constant first.
    ///
    /// Pre: none. Post: no zero coefficient. Example: `M + 1` has two terms.
    pub fn terms(&self) -> &[(Mono, i64)] {
        &self.terms
    }

    /// The value when the polynomial is constant.
    ///
    /// Pre: none. Post: `Some` iff no atom occurs. Example: `Poly::constant(3).as_const() == Some(3)`.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(m, c)] if m.is_empty() => Some(*c),
            _ => None,
        }
    }

    /// `self - other` when it is a constant, computed without building the difference.
    ///
    /// Pre: none. Post: `Some(c)` iff `self - other == c` (no overflow).
    /// Example: `(M + 3).const_diff(M) == Some(3)`.
    pub fn const_diff(&self, other: &Poly) -> Option<i64> {
        let (a, b) = (&self.terms, &other.terms);
        let (ac, an) = match a.first() {
            Some((m, c)) if m.is_empty() => (*c, &a[1..]),
            _ => (0, &a[..]),
        };
        let (bc, bn) = match b.first() {
            Some((m, c)) if m.is_empty() => (*c, &b[1..]),
            _ => (0, &b[..]),
        };
        (an == bn).then(|| ac.checked_sub(bc)).flatten()
    }

    /// The constant term.
    ///
    /// Pre: none. Post: the coefficient of the empty monomial. Example: `M + 3` gives 3.
    pub fn constant_term(&self) -> i64 {
        match self.terms.first() {
            Some((m, c)) if m.is_empty() => *c,
            _ => 0,
        }
    }

    /// `self + other`.
    ///
    /// Pre: none. Post: canonical; a coefficient overflow is an error. Example: `M + M == 2*M`.
    pub fn add(&self, other: &Poly) -> Result<Poly, SymError> {
        self.merge(other, 1)
    }

    /// `self - other`.
    ///
    /// Pre: none. Post: canonical. Example: `M - M == 0`.
    pub fn sub(&self, other: &Poly) -> Result<Poly, SymError> {
        if other.terms.iter().any(|t| t.1 == i64::MIN) {
            // `-other` does not fit.
            return Err(ovf("coefficient"));
        }
        self.merge(other, -1)
    }

    /// `self + sign*other` (`sign` is 1 or -1, and `-other` fits) by merging the two sorted term
    /// lists: the canonical form of the concatenation, as [`Poly::from_terms`] would give it.
    fn merge(&self, other: &Poly, sign: i64) -> Result<Poly, SymError> {
        if other.terms.is_empty() {
            return Ok(self.clone());
        }
        if self.terms.is_empty() && sign == 1 {
            return Ok(other.clone());
        }
        let (a, b) = (&self.terms, &other.terms);
        let mut out: Terms = Terms::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let ord = match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) => x.0.cmp(&y.0),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match ord {
                std::cmp::Ordering::Less => {
                    out.push(a[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push((b[j].0.clone(), b[j].1 * sign));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let c = a[i]
                        .1
                        .checked_add(b[j].1 * sign)
                        .ok_or_else(|| ovf("coefficient"))?;
                    if c != 0 {
                        out.push((a[i].0.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        Ok(Poly { terms: out.into() })
    }

    /// `c * self`.
    ///
    /// Pre: none. Post: canonical. Example: `2 * M`.
    pub fn scale(&self, c: i64) -> Result<Poly, SymError> {
        if c == 0 {
            return Ok(Poly::default());
        }
        if c == 1 {
            return Ok(self.clone());
        }
        let mut t = Terms::with_capacity(self.terms.len());
        for (m, k) in self.terms.iter() {
            t.push((
                m.clone(),
                k.checked_mul(c).ok_or_else(|| ovf("coefficient"))?,
            ));
        }
        Ok(Poly { terms: t.into() })
    }

    /// `self * other`.
    ///
    /// Pre: none. Post: canonical. Example: `(M + 1) * 2 == 2*M + 2`.
    pub fn mul(&self, other: &Poly) -> Result<Poly, SymError> {
        if let Some(c) = other.as_const() {
            return self.scale(c);
        }
        if let Some(c) = self.as_const() {
            return other.scale(c);
        }
        if let ([(ma, ca)], [(mb, cb)]) = (self.terms.as_slice(), other.terms.as_slice()) {
            // One term times one: `from_terms` of it (nonzero coefficients have a nonzero
            // product).
            let c = ca.checked_mul(*cb).ok_or_else(|| ovf("coefficient"))?;
            return Ok(Poly {
                terms: Shared::One((mono_mul(ma, mb)?, c)),
            });
        }
        let mut t = Terms::with_capacity(self.terms.len() * other.terms.len());
        for (ma, ca) in self.terms.iter() {
            for (mb, cb) in other.terms.iter() {
                t.push((
                    mono_mul(ma, mb)?,
                    ca.checked_mul(*cb).ok_or_else(|| ovf("coefficient"))?,
                ));
            }
        }
        Poly::from_terms(t)
    }

    /// Whether the polynomial is 0.
    fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The greatest common divisor of the coefficients (0 for the zero polynomial).
    ///
    /// Pre: none. Post: non-negative. Example: `4*M + 6` gives 2.
    pub fn content(&self) -> i64 {
        self.terms.iter().fold(0, |g, t| gcd(g, t.1))
    }

    /// Euclidean quotient `self / q`.
    ///
    /// Pre: none (division by the constant 0 is an error). Post: denotes the Euclidean quotient;
    /// an exact constant division simplifies (`(128*K + 256)/128 == K + 2`), multiples of the
    /// divisor come out (`(128*K + M)/128 == K + M/128`), nested constant quotients flatten.
    /// Example: `Poly::name("M").floor_div(&Poly::constant(128))` prints `M/128`.
    pub fn floor_div(&self, q: &Poly) -> Result<Poly, SymError> {
        match q.as_const() {
            Some(0) => Err(SymError::DivisionByZero(format!("{self} / 0"))),
            Some(c) if c < 0 => self
                .floor_div(&Poly::constant(
                    c.checked_neg().ok_or_else(|| ovf("divisor"))?,
                ))?
                .scale(-1),
            Some(1) => Ok(self.clone()),
            Some(c) => {
                let (whole, rest) = self.split_multiples(c)?;
                if let Some(b) = rest.as_const() {
                    return whole.add(&Poly::constant(b.div_euclid(c)));
                }
                // floor(floor(p/a)/c) = floor(p/(a*c)) for a, c > 0.
                if let [(m, 1)] = rest.terms.as_slice() {
                    if let [(Atom::Floor(p, a), 1)] = m.as_slice() {
                        if let Some(a) = a.as_const().filter(|a| *a > 0) {
                            if let Some(ac) = a.checked_mul(c) {
                                return whole.add(&p.floor_div(&Poly::constant(ac))?);
                            }
                        }
                    }
                }
                whole.add(&Poly::atom(Atom::Floor(
                    Arc::new(rest),
                    Arc::new(Poly::constant(c)),
                )))
            }
            None => {
                if self.is_zero() {
                    return Ok(Poly::default());
                }
                if self == q {
                    return Ok(Poly::constant(1));
                }
                if let Some(k) = self.exact_div(q)? {
                    return Ok(k);
                }
                Ok(Poly::atom(Atom::Floor(
                    Arc::new(self.clone()),
                    Arc::new(q.clone()),
                )))
            }
        }
    }

    /// Ceiling quotient `ceil(self / q)` of the real quotient.
    ///
    /// Pre: none (division by the constant 0 is an error). Post: denotes the ceiling; exact
    /// divisions simplify as in [`Poly::floor_div`]. Example: `ceil_div(M, 128)`.
    pub fn ceil_div(&self, q: &Poly) -> Result<Poly, SymError> {
        match q.as_const() {
            Some(0) => Err(SymError::DivisionByZero(format!("ceil_div({self}, 0)"))),
            Some(c) if c < 0 => self.scale(-1)?.ceil_div(&Poly::constant(
                c.checked_neg().ok_or_else(|| ovf("divisor"))?,
            )),
            Some(1) => Ok(self.clone()),
            Some(c) => {
                let (whole, rest) = self.split_multiples(c)?;
                if let Some(b) = rest.as_const() {
                    return whole.add(&Poly::constant(-((-b).div_euclid(c))));
                }
                whole.add(&Poly::atom(Atom::Ceil(
                    Arc::new(rest),
                    Arc::new(Poly::constant(c)),
                )))
            }
            None => {
                if self.is_zero() {
                    return Ok(Poly::default());
                }
                if let Some(k) = self.exact_div(q)? {
                    return Ok(k);
                }
                Ok(Poly::atom(Atom::Ceil(
                    Arc::new(self.clone()),
                    Arc::new(q.clone()),
                )))
            }
        }
    }

    /// Euclidean remainder `self % q = self - q * (self / q)`.
    ///
    /// Pre: none. Post: denotes the remainder. Example: `(4*M + 3) % 4 == 3`.
    pub fn rem(&self, q: &Poly) -> Result<Poly, SymError> {
        match q.as_const() {
            Some(0) => Err(SymError::DivisionByZero(format!("{self} % 0"))),
            Some(c) => {
                let c = c.checked_abs().ok_or_else(|| ovf("divisor"))?;
                if c == 1 {
                    return Ok(Poly::default());
                }
                let (_, rest) = self.split_multiples(c)?;
                if let Some(b) = rest.as_const() {
                    return Ok(Poly::constant(b.rem_euclid(c)));
                }
                Ok(Poly::atom(Atom::Mod(
                    Arc::new(rest),
                    Arc::new(Poly::constant(c)),
                )))
            }
            None => {
                if self.is_zero() || self == q {
                    return Ok(Poly::default());
                }
                if self.exact_div(q)?.is_some() {
                    return Ok(Poly::default());
                }
                Ok(Poly::atom(Atom::Mod(
                    Arc::new(self.clone()),
                    Arc::new(q.clone()),
                )))
            }
        }
    }

    /// Splits `self = c*whole + rest` with every coefficient of `rest` in `[0, c)` (c > 0).
    fn split_multiples(&self, c: i64) -> Result<(Poly, Poly), SymError> {
        if self.terms.iter().all(|(_, k)| (1..c).contains(k)) {
            // Every coefficient is its own remainder: no multiple of `c` to take out.
            return Ok((Poly::default(), self.clone()));
        }
        let (mut w, mut r) = (Terms::new(), Terms::new());
        for (m, k) in self.terms.iter() {
            let (q, s) = (k.div_euclid(c), k.rem_euclid(c));
            if q != 0 {
                w.push((m.clone(), q));
            }
            if s != 0 {
                r.push((m.clone(), s));
            }
        }
        Ok((Poly { terms: w.into() }, Poly { terms: r.into() }))
    }

    /// `Some(k)` with `self == q * k` exactly, when `q` is a single term dividing every term.
    fn exact_div(&self, q: &Poly) -> Result<Option<Poly>, SymError> {
        let [(qm, qc)] = q.terms.as_slice() else {
            return Ok(None);
        };
        let mut out = Terms::with_capacity(self.terms.len());
        for (m, c) in self.terms.iter() {
            // `i64::MIN` by `-1`: the exact quotient does not fit; no closed form.
            let (Some(r), Some(k)) = (c.checked_rem(*qc), c.checked_div(*qc)) else {
                return Ok(None);
            };
            if r != 0 {
                return Ok(None);
            }
            let mut rest: Vec<(Atom, u32)> = m.to_vec();
            for (a, p) in qm {
                match rest.iter().position(|(b, _)| b == a) {
                    Some(i) if rest[i].1 >= *p => {
                        rest[i].1 -= p;
                        if rest[i].1 == 0 {
                            rest.remove(i);
                        }
                    }
                    _ => return Ok(None),
                }
            }
            out.push((rest.into(), k));
        }
        Ok(Some(Poly::from_terms(out)?))
    }

    /// Names occurring in the polynomial (inside quotients too), sorted.
    ///
    /// Pre: none. Post: appends each name once. Example: `K*M + M/128` gives `K, M`.
    pub fn names(&self, out: &mut Vec<String>) {
        for (m, _) in self.terms.iter() {
            for (a, _) in m {
                match a {
                    Atom::Name(n) => {
                        if !out.iter().any(|o| o.as_str() == n.as_str()) {
                            out.push(n.to_string())
                        }
                    }
                    Atom::Floor(p, q) | Atom::Ceil(p, q) | Atom::Mod(p, q) => {
                        p.names(out);
                        q.names(out);
                    }
                    Atom::Swizzle(_, p) => p.names(out),
                }
            }
        }
    }

    /// Replaces names by polynomials (`f` returns `None` to keep a name), re-canonicalizing.
    ///
    /// Pre: none. Post: denotes the substituted expression. Example: `M` with `M ↦ 4*P` gives `4*P`.
    pub fn substitute(&self, f: &dyn Fn(&str) -> Option<Poly>) -> Result<Poly, SymError> {
        let mut acc = Poly::default();
        for (m, c) in self.terms.iter() {
            let mut term = Poly::constant(*c);
            for (a, p) in m {
                let base = a.substitute(f)?;
                for _ in 0..*p {
                    term = term.mul(&base)?;
                }
            }
            acc = acc.add(&term)?;
        }
        Ok(acc)
    }

    /// Evaluates with the values of `env` (checked; Euclidean division).
    ///
    /// Pre: every name has a value. Post: the value; a missing name, a division by zero or an
    /// overflow is an error. Example: `M/128` with `M = 300` gives 2.
    pub fn eval(&self, env: &BTreeMap<String, i64>) -> Result<i64, SymError> {
        let mut acc: i64 = 0;
        for (m, c) in self.terms.iter() {
            let mut v = *c;
            for (a, p) in m {
                let x = match a {
                    Atom::Name(n) => *env
                        .get(n.as_str())
                        .ok_or_else(|| SymError::UnboundName(n.to_string()))?,
                    Atom::Floor(x, y) => {
                        let (x, y) = (x.eval(env)?, y.eval(env)?);
                        if y == 0 {
                            return Err(SymError::DivisionByZero(self.to_string()));
                        }
                        x.checked_div_euclid(y).ok_or_else(|| ovf("quotient"))?
                    }
                    Atom::Ceil(x, y) => {
                        let (x, y) = (x.eval(env)?, y.eval(env)?);
                        if y == 0 {
                            return Err(SymError::DivisionByZero(self.to_string()));
                        }
                        ceil_div_i(x, y).ok_or_else(|| ovf("quotient"))?
                    }
                    Atom::Mod(x, y) => {
                        let (x, y) = (x.eval(env)?, y.eval(env)?);
                        if y == 0 {
                            return Err(SymError::DivisionByZero(self.to_string()));
                        }
                        x.checked_rem_euclid(y).ok_or_else(|| ovf("remainder"))?
                    }
                    Atom::Swizzle(sw, x) => swizzle_of(*sw)?.apply(x.eval(env)?),
                };
                for _ in 0..*p {
                    v = v.checked_mul(x).ok_or_else(|| ovf(&self.to_string()))?;
                }
            }
            acc = acc.checked_add(v).ok_or_else(|| ovf(&self.to_string()))?;
        }
        Ok(acc)
    }

    /// `Sw<B,M,S>(self)`: the swizzle of the expression (computed for a constant, the identity
    /// for `B = 0`, else an atom).
    ///
    /// Pre: `sw` is a valid swizzle. Post: denotes the swizzled value.
    /// Example: `Poly::constant(128).swizzle([3, 4, 3])` is 144 (bit 7 XORed into bit 4).
    pub fn swizzle(&self, sw: [i64; 3]) -> Result<Poly, SymError> {
        let f = swizzle_of(sw)?;
        if f.is_identity() {
            return Ok(self.clone());
        }
        if let Some(x) = self.as_const() {
            return Ok(Poly::constant(f.apply(x)));
        }
        Ok(Poly::atom(Atom::Swizzle(sw, Arc::new(self.clone()))))
    }

    /// Whether some quotient atom occurs (the polynomial is not a plain polynomial in names).
    ///
    /// Pre: none. Post: `false` for polynomials in names. Example: `M/128` gives `true`.
    pub fn has_quotient(&self) -> bool {
        self.terms
            .iter()
            .any(|(m, _)| m.iter().any(|(a, _)| !matches!(a, Atom::Name(_))))
    }

    /// The degree (sum of powers of the largest monomial).
    ///
    /// Pre: none. Post: 0 for constants. Example: `K*M + 1` has degree 2.
    pub fn degree(&self) -> u32 {
        self.terms
            .iter()
            .map(|(m, _)| m.iter().map(|(_, p)| *p).sum::<u32>())
            .max()
            .unwrap_or(0)
    }
}

impl Atom {
    /// The atom with names replaced by polynomials (`f` returns `None` to keep a name), as a
    /// canonical polynomial: the factor [`Poly::substitute`] multiplies in.
    ///
    /// Pre: none. Post: denotes the substituted atom. Example: `M/128` with `M ↦ 128*P` gives `P`.
    pub fn substitute(&self, f: &dyn Fn(&str) -> Option<Poly>) -> Result<Poly, SymError> {
        Ok(match self {
            Atom::Name(n) => f(n).unwrap_or_else(|| Poly::of_name(n.clone())),
            Atom::Floor(x, y) => x.substitute(f)?.floor_div(&y.substitute(f)?)?,
            Atom::Ceil(x, y) => x.substitute(f)?.ceil_div(&y.substitute(f)?)?,
            Atom::Mod(x, y) => x.substitute(f)?.rem(&y.substitute(f)?)?,
            Atom::Swizzle(sw, x) => x.substitute(f)?.swizzle(*sw)?,
        })
    }
}

/// Ceiling of the real quotient `a / b` (checked).
///
/// Pre: `b != 0`. Post: `None` on overflow. Example: `ceil_div_i(300, 128) == Some(3)`.
pub fn ceil_div_i(a: i64, b: i64) -> Option<i64> {
    let (a, b) = if b < 0 {
        (a.checked_neg()?, b.checked_neg()?)
    } else {
        (a, b)
    };
    a.checked_neg()?.checked_div_euclid(b)?.checked_neg()
}

/// Greatest common divisor of absolute values (`gcd(0, x) = |x|`), saturating to 1.
///
/// Pre: none. Post: non-negative. Example: `gcd(12, -18) == 6`.
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i64::try_from(a).unwrap_or(1)
}

fn is_simple(p: &Poly) -> bool {
    match p.terms.as_slice() {
        [] => true,
        [(m, c)] if m.is_empty() => *c >= 0,
        [(m, 1)] => {
            m.len() == 1
                && m[0].1 == 1
                && matches!(m[0].0, Atom::Name(_) | Atom::Ceil(..) | Atom::Swizzle(..))
        }
        _ => false,
    }
}

fn write_operand(f: &mut fmt::Formatter<'_>, p: &Poly) -> fmt::Result {
    if is_simple(p) {
        write!(f, "{p}")
    } else {
        write!(f, "({p})")
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Name(n) => f.write_str(n),
            Atom::Floor(p, q) => {
                write_operand(f, p)?;
                f.write_str("/")?;
                write_operand(f, q)
            }
            Atom::Ceil(p, q) => write!(f, "ceil_div({p},{q})"),
            Atom::Mod(p, q) => {
                write_operand(f, p)?;
                f.write_str("%")?;
                write_operand(f, q)
            }
            Atom::Swizzle([b, m, s], p) => write!(f, "Sw<{b},{m},{s}>({p})"),
        }
    }
}

/// The integer swizzle `[B, M, S]`.
///
/// Pre: none. Post: an error naming the swizzle when it is not valid.
/// Example: `swizzle_of([3, 4, 3])` is CUTLASS's SW128 on 16-bit elements.
pub fn swizzle_of(sw: [i64; 3]) -> Result<crate::layout::Swizzle, SymError> {
    crate::layout::Swizzle::new(sw[0], sw[1], sw[2]).map_err(SymError::Algebra)
}

/// Prints compactly (`128*K`, `M/128`, `K*M+1`), in the syntax [`parse_expr`] reads back.
impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        // Non-constant terms first (highest degree first), the constant last.
        let mut order: Vec<&(Mono, i64)> = self.terms.iter().filter(|t| !t.0.is_empty()).collect();
        order.sort_by_key(|t| std::cmp::Reverse(t.0.iter().map(|a| a.1).sum::<u32>()));
        let constant = self.terms.iter().find(|t| t.0.is_empty());
        let mut first = true;
        for (m, c) in order.into_iter().chain(constant) {
            let mag = c.unsigned_abs();
            let leading = first;
            if first {
                if *c < 0 {
                    f.write_str("-")?;
                }
            } else {
                f.write_str(if *c < 0 { "-" } else { "+" })?;
            }
            first = false;
            if m.is_empty() {
                write!(f, "{mag}")?;
                continue;
            }
            if mag != 1 {
                write!(f, "{mag}*")?;
            }
            let mut firsta = true;
            for (a, p) in m {
                for _ in 0..*p {
                    if !firsta {
                        f.write_str("*")?;
                    }
                    firsta = false;
                    // A quotient inside a product is parenthesized: `2*(M/128)`, `(M/128)*K`.
                    let bare = matches!(a, Atom::Name(_) | Atom::Ceil(..) | Atom::Swizzle(..))
                        || (m.len() == 1 && *p == 1 && mag == 1 && (*c > 0 || !leading));
                    if bare {
                        write!(f, "{a}")?;
                    } else {
                        write!(f, "({a})")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Writes `(a,b,…)`: the items, comma-separated, in parentheses (CuTe's tuple notation).
///
/// Pre: none. Post: the items' `Display` joined by `,`. Example: `[M, K]` writes `(M,K)`.
pub(crate) fn write_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str(")")
}

/// Prints an expression, or a tuple as `(a,b,…)`.
impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Expr(p) => write!(f, "{p}"),
            Item::Tuple(v) => write_tuple(f, v),
        }
    }
}

/// An item of layout notation: an expression leaf or a tuple of items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An expression leaf.
    Expr(Poly),
    /// A parenthesized tuple.
    Tuple(Vec<Item>),
}

/// A small recursive-descent reader for expressions and tuples of expressions.
pub(crate) struct Reader<'a> {
    s: &'a [u8],
    pub(crate) pos: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 128;

impl<'a> Reader<'a> {
    pub(crate) fn new(s: &'a str) -> Self {
        Reader {
            s: s.as_bytes(),
            pos: 0,
            depth: 0,
        }
    }

    pub(crate) fn err(&self, msg: impl Into<String>) -> SymError {
        SymError::Parse {
            column: self.pos + 1,
            message: msg.into(),
        }
    }

    pub(crate) fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }

    pub(crate) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, c: u8) -> Result<(), SymError> {
        if self.eat(c) {
            Ok(())
        } else {
            let f = self.found();
            Err(self.err(format!("expected `{}`, found {f}", c as char)))
        }
    }

    pub(crate) fn found(&mut self) -> String {
        match self.peek() {
            Some(c) => format!("`{}`", c as char),
            None => "end of input".to_string(),
        }
    }

    pub(crate) fn unexpected(&mut self) -> SymError {
        let f = self.found();
        self.err(format!("unexpected {f}"))
    }

    pub(crate) fn slice(&self, from: usize) -> String {
        String::from_utf8_lossy(&self.s[from.min(self.pos)..self.pos]).into_owned()
    }

    /// The decimal digits at the position (possibly none), consumed.
    pub(crate) fn slice_digits(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        self.slice(start)
    }

    pub(crate) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    pub(crate) fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            if self.pos == start && self.s[self.pos].is_ascii_digit() {
                return None;
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn number(&mut self) -> Result<i64, SymError> {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        let t = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
        t.parse::<i64>().map_err(|_| SymError::Parse {
            column: start + 1,
            message: format!("integer `{t}` does not fit in 64 bits"),
        })
    }

    /// item := sum, where a primary may be a tuple; operators only between expressions.
    pub(crate) fn item(&mut self) -> Result<Item, SymError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nesting deeper than 128"));
        }
        let r = self.sum();
        self.depth -= 1;
        r
    }

    fn want_expr(&self, it: Item, col: usize) -> Result<Poly, SymError> {
        match it {
            Item::Expr(p) => Ok(p),
            Item::Tuple(_) => Err(SymError::Parse {
                column: col + 1,
                message: "a tuple cannot be an operand of an arithmetic operator".into(),
            }),
        }
    }

    fn sum(&mut self) -> Result<Item, SymError> {
        let col = self.pos;
        let mut acc = self.term()?;
        loop {
            let op = match self.peek() {
                Some(b'+') => b'+',
                Some(b'-') => b'-',
                _ => return Ok(acc),
            };
            self.pos += 1;
            let a = self.want_expr(acc, col)?;
            let c2 = self.pos;
            let t = self.term()?;
            let b = self.want_expr(t, c2)?;
            acc = Item::Expr(if op == b'+' { a.add(&b)? } else { a.sub(&b)? });
        }
    }

    fn term(&mut self) -> Result<Item, SymError> {
        let col = self.pos;
        let mut acc = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(c @ (b'*' | b'/' | b'%')) => c,
                _ => return Ok(acc),
            };
            self.pos += 1;
            let a = self.want_expr(acc, col)?;
            let c2 = self.pos;
            let u = self.unary()?;
            let b = self.want_expr(u, c2)?;
            acc = Item::Expr(match op {
                b'*' => a.mul(&b)?,
                b'/' => a.floor_div(&b).map_err(|e| self.at(c2, e))?,
                _ => a.rem(&b).map_err(|e| self.at(c2, e))?,
            });
        }
    }

    fn at(&self, col: usize, e: SymError) -> SymError {
        match e {
            SymError::DivisionByZero(m) => SymError::Parse {
                column: col + 1,
                message: format!("division by zero in {m}"),
            },
            e => e,
        }
    }

    fn unary(&mut self) -> Result<Item, SymError> {
        if self.eat(b'-') {
            let col = self.pos;
            let u = self.unary()?;
            return Ok(Item::Expr(self.want_expr(u, col)?.scale(-1)?));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Item, SymError> {
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                let mut items = vec![self.item()?];
                while self.eat(b',') {
                    items.push(self.item()?);
                }
                self.expect(b')')?;
                if items.len() == 1 {
                    if let Item::Expr(_) = items[0] {
                        return Ok(items.pop().expect("one item"));
                    }
                }
                Ok(Item::Tuple(items))
            }
            Some(c) if c.is_ascii_digit() => Ok(Item::Expr(Poly::constant(self.number()?))),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let col = self.pos;
                let name = self.ident().unwrap_or_default();
                if name == "ceil_div" || name == "cdiv" {
                    self.expect(b'(')?;
                    let c1 = self.pos;
                    let a = self.item()?;
                    let a = self.want_expr(a, c1)?;
                    self.expect(b',')?;
                    let c2 = self.pos;
                    let b = self.item()?;
                    let b = self.want_expr(b, c2)?;
                    self.expect(b')')?;
                    return Ok(Item::Expr(a.ceil_div(&b).map_err(|e| self.at(c2, e))?));
                }
                if name == "Sw" && self.peek() == Some(b'<') {
                    // `Sw<B,M,S>(x)`: a swizzle of an expression.
                    self.pos += 1;
                    let mut v = [0i64; 3];
                    for (k, x) in v.iter_mut().enumerate() {
                        if k > 0 {
                            self.expect(b',')?;
                        }
                        self.ws();
                        let c0 = self.pos;
                        let neg = self.eat(b'-');
                        let d = self.slice_digits();
                        *x = d
                            .parse::<i64>()
                            .map(|d| if neg { -d } else { d })
                            .map_err(|_| SymError::Parse {
                                column: c0 + 1,
                                message: "a swizzle's parameters are integers".into(),
                            })?;
                    }
                    self.expect(b'>')?;
                    self.expect(b'(')?;
                    let c1 = self.pos;
                    let a = self.item()?;
                    let a = self.want_expr(a, c1)?;
                    self.expect(b')')?;
                    return Ok(Item::Expr(a.swizzle(v).map_err(|e| match e {
                        SymError::Algebra(e) => SymError::Parse {
                            column: col + 1,
                            message: e.to_string(),
                        },
                        e => e,
                    })?));
                }
                if self.peek() == Some(b'(') {
                    return Err(SymError::Parse {
                        column: col + 1,
                        message: format!(
                            "unknown function `{name}` in an expression (only ceil_div and Sw<B,M,S>)"
                        ),
                    });
                }
                Ok(Item::Expr(Poly::name(&name)))
            }
            _ => Err({
                let f = self.found();
                self.err(format!("expected an expression, found {f}"))
            }),
        }
    }
}

/// Parses one integer expression over names (`+ - * / %`, `ceil_div(a,b)`, parentheses).
///
/// Pre: none. Post: the canonical polynomial, or a parse error pointing at the column.
/// Example: `parse_expr("(128*K)/128").unwrap().to_string() == "K"`.
pub fn parse_expr(s: &str) -> Result<Poly, SymError> {
    let mut r = Reader::new(s);
    let col = r.pos;
    let it = r.item()?;
    if !r.at_end() {
        return Err(r.unexpected());
    }
    r.want_expr(it, col)
}
