//! Facts about runtime extents and the decision procedure over them.
//!
//! A fact is `X % m == r`, `X >= c`, `X > c`, `X <= c`, `X < c`, `X == c` or `X == a*Y + b`
//! (`a >= 1`) for names `X`, `Y`; every name is also `>= 1` (names are extents). The facts of a
//! name are normalized to a residue class and a range, `X = x0 + m*X'` with `0 <= X' <= ymax`
//! (the *quotient variable* `X'`), and a defined name is replaced by its definition. The
//! decision procedure works on expressions rewritten in quotient variables:
//!
//! * equality: canonical polynomial identity, then refutation by a modular argument
//!   (`gcd` of the non-constant coefficients must divide the constant) or by intervals;
//! * divisibility by a constant `c`: proved when `c` divides every coefficient, refuted when
//!   `gcd(c, coefficients)` does not divide the constant term; by a symbolic `q`: proved when
//!   `q` divides the polynomial term by term;
//! * `>=`: interval arithmetic over the quotient variables (each in `[0, ymax]`).
//!
//! What none of these decides is a *guard*, returned with a counterexample found by a bounded
//! search over assignments satisfying the facts when one exists. Everything proved holds for
//! every assignment satisfying the facts; everything refuted fails for all of them.
//!
//! Proved in Coq on a transcription (`proofs/SymbolicFacts.v`, without definitions and quotient
//! atoms): `facts_parse_exact`, `facts_parse_contra`, `facts_decide_sound`, `facts_witness_sound`;
//! bridged by `symbolic_facts_agree_with_the_extracted_proof`.

use super::expr::{gcd, Atom, Name, Poly, Reader};
use super::SymError;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// An assignment of values to names.
pub type Assignment = BTreeMap<String, i64>;

/// A relation of a [`Pred`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rel {
    /// `lhs >= rhs`.
    Ge,
    /// `lhs == rhs`.
    Eq,
    /// `lhs != rhs`.
    Ne,
    /// `rhs % lhs == 0` (`lhs` divides `rhs`).
    Divides,
    /// `rhs % lhs != 0`.
    NotDivides,
}

/// A condition over names: an obligation, or a guard returned with a result.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pred {
    /// The relation.
    pub rel: Rel,
    /// Left operand (the divisor for divisibility).
    pub lhs: Poly,
    /// Right operand.
    pub rhs: Poly,
}

/// A condition whose operands are borrowed: what the decision procedure reads (a [`Pred`] is
/// built only when a condition becomes a guard).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PredRef<'a> {
    /// The relation.
    pub rel: Rel,
    /// Left operand (the divisor for divisibility).
    pub lhs: &'a Poly,
    /// Right operand.
    pub rhs: &'a Poly,
}

impl PredRef<'_> {
    /// The owned condition.
    pub(crate) fn to_pred(self) -> Pred {
        Pred {
            rel: self.rel,
            lhs: self.lhs.clone(),
            rhs: self.rhs.clone(),
        }
    }

    /// Whether `self` is `p` (the same relation and operands).
    pub(crate) fn is(self, p: &Pred) -> bool {
        p.rel == self.rel && p.lhs == *self.lhs && p.rhs == *self.rhs
    }
}

/// How a guard or fact is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Tessera's own syntax (what `--assume` reads back).
    Plain,
    /// C++ over `int64_t`.
    Cpp,
    /// Python.
    Python,
}

impl Pred {
    /// `lhs >= rhs`.
    ///
    /// Pre: none. Post: the predicate. Example: `Pred::ge(M, 64)` prints `M >= 64`.
    pub fn ge(lhs: Poly, rhs: Poly) -> Pred {
        Pred {
            rel: Rel::Ge,
            lhs,
            rhs,
        }
    }
    /// `lhs == rhs`.
    ///
    /// Pre: none. Post: the predicate. Example: `M*1 == M`.
    pub fn eq(lhs: Poly, rhs: Poly) -> Pred {
        Pred {
            rel: Rel::Eq,
            lhs,
            rhs,
        }
    }
    /// `lhs != rhs`.
    ///
    /// Pre: none. Post: the predicate. Example: `M != 1`.
    pub fn ne(lhs: Poly, rhs: Poly) -> Pred {
        Pred {
            rel: Rel::Ne,
            lhs,
            rhs,
        }
    }
    /// `d` divides `p`.
    ///
    /// Pre: none. Post: the predicate. Example: `Pred::divides(128, M)` prints `M % 128 == 0`.
    pub fn divides(d: Poly, p: Poly) -> Pred {
        Pred {
            rel: Rel::Divides,
            lhs: d,
            rhs: p,
        }
    }

    /// The condition with borrowed operands.
    pub(crate) fn as_ref(&self) -> PredRef<'_> {
        PredRef {
            rel: self.rel,
            lhs: &self.lhs,
            rhs: &self.rhs,
        }
    }

    /// The negation.
    ///
    /// Pre: none. Post: holds exactly where `self` fails. Example: `!(M >= 2)` is `1 >= M`.
    pub fn negate(&self) -> Result<Pred, SymError> {
        Ok(match self.rel {
            Rel::Ge => Pred::ge(self.rhs.clone(), self.lhs.add(&Poly::constant(1))?),
            Rel::Eq => Pred::ne(self.lhs.clone(), self.rhs.clone()),
            Rel::Ne => Pred::eq(self.lhs.clone(), self.rhs.clone()),
            Rel::Divides => Pred {
                rel: Rel::NotDivides,
                lhs: self.lhs.clone(),
                rhs: self.rhs.clone(),
            },
            Rel::NotDivides => Pred::divides(self.lhs.clone(), self.rhs.clone()),
        })
    }

    /// Evaluates the predicate under an assignment.
    ///
    /// Pre: every name has a value. Post: the truth value; a division by zero or overflow is an
    /// error. Example: `M % 128 == 0` at `M = 256` is true.
    pub fn holds(&self, env: &Assignment) -> Result<bool, SymError> {
        let (l, r) = (self.lhs.eval(env)?, self.rhs.eval(env)?);
        Ok(match self.rel {
            Rel::Ge => l >= r,
            Rel::Eq => l == r,
            Rel::Ne => l != r,
            Rel::Divides => (l == 0 && r == 0) || (l != 0 && r.rem_euclid(l) == 0),
            Rel::NotDivides => !((l == 0 && r == 0) || (l != 0 && r.rem_euclid(l) == 0)),
        })
    }

    /// Prints the predicate in a syntax (`M % 128 == 0 && …` style atoms).
    ///
    /// Pre: none. Post: an expression of the language that evaluates as the predicate for
    /// non-negative operands. Example: `ceil_div(M,128)` prints `(M / 128 + (M % 128 != 0))` in C++.
    pub fn render(&self, syn: Syntax) -> String {
        let e = |p: &Poly| render_poly(p, syn);
        // Move to the normal form `P rel c` for comparisons (`M >= 64`, not `M-64 >= 0`).
        let (l, r) = match self.rel {
            Rel::Ge | Rel::Eq | Rel::Ne => normal_sides(&self.lhs, &self.rhs),
            _ => (self.lhs.clone(), self.rhs.clone()),
        };
        match self.rel {
            Rel::Ge => {
                // `a >= b + 1` prints `a > b` when b is not constant.
                let k = r.constant_term();
                let (r, strict) =
                    match (k >= 1 && r.as_const().is_none(), r.sub(&Poly::constant(1))) {
                        (true, Ok(r1)) => (r1, true),
                        _ => (r, false),
                    };
                let (op, rop) = if strict { (">", "<") } else { (">=", "<=") };
                if l.as_const().is_some() && r.as_const().is_none() {
                    format!("{} {rop} {}", e(&r), e(&l))
                } else {
                    format!("{} {op} {}", e(&l), e(&r))
                }
            }
            Rel::Eq | Rel::Ne => {
                let op = if self.rel == Rel::Eq { "==" } else { "!=" };
                if l.as_const().is_some() && r.as_const().is_none() {
                    format!("{} {op} {}", e(&r), e(&l))
                } else {
                    format!("{} {op} {}", e(&l), e(&r))
                }
            }
            Rel::Divides | Rel::NotDivides => {
                let op = if self.rel == Rel::Divides { "==" } else { "!=" };
                let body = format!("{} % {} {op} 0", paren(&e(&r)), paren(&e(&l)));
                if l.as_const().is_some() {
                    body
                } else {
                    // A symbolic divisor's non-zero test comes first.
                    let and = if syn == Syntax::Python { "and" } else { "&&" };
                    format!("{} != 0 {and} {body}", paren(&e(&l)))
                }
            }
        }
    }
}

fn paren(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// `l - r` rearranged for printing: positive terms on the left, negative ones on the right, the
/// constant on the side where it is positive (`M >= 64`, `ceil_div(M,128) >= bm+1`).
fn normal_sides(l: &Poly, r: &Poly) -> (Poly, Poly) {
    let Ok(d) = l.sub(r) else {
        return (l.clone(), r.clone());
    };
    let (mut pos, mut neg) = (Poly::default(), Poly::default());
    for (m, c) in d.terms() {
        let t = Poly::from_term(m.clone(), c.unsigned_abs() as i64);
        let side = if *c > 0 { &mut pos } else { &mut neg };
        match side.add(&t) {
            Ok(x) => *side = x,
            Err(_) => return (l.clone(), r.clone()),
        }
    }
    (pos, neg)
}

/// Renders a polynomial in a syntax: Tessera's own, C++ (`int64_t`, truncating `/` on
/// non-negative operands) or Python (`//`).
///
/// Pre: none. Post: evaluates as the polynomial for non-negative quotient operands.
/// Example: `M/128` renders `M // 128` in Python.
pub fn render_poly(p: &Poly, syn: Syntax) -> String {
    if syn == Syntax::Plain {
        return p.to_string();
    }
    let terms = p.terms();
    if terms.is_empty() {
        return "0".into();
    }
    let mut out = String::new();
    let mut order: Vec<_> = terms.iter().filter(|t| !t.0.is_empty()).collect();
    order.sort_by_key(|t| std::cmp::Reverse(t.0.iter().map(|a| a.1).sum::<u32>()));
    let constant = terms.iter().find(|t| t.0.is_empty());
    for (i, (m, c)) in order.into_iter().chain(constant).enumerate() {
        let mag = c.unsigned_abs();
        if i == 0 {
            if *c < 0 {
                out.push('-');
            }
        } else {
            out.push_str(if *c < 0 { " - " } else { " + " });
        }
        let mut factors: Vec<String> = Vec::new();
        if mag != 1 || m.is_empty() {
            factors.push(mag.to_string());
        }
        for (a, pw) in m {
            let s = match a {
                Atom::Name(n) => n.to_string(),
                Atom::Floor(x, y) => {
                    let (x, y) = (render_poly(x, syn), render_poly(y, syn));
                    match syn {
                        Syntax::Python => format!("({} // {})", paren(&x), paren(&y)),
                        _ => format!("({} / {})", paren(&x), paren(&y)),
                    }
                }
                Atom::Mod(x, y) => {
                    let (x, y) = (render_poly(x, syn), render_poly(y, syn));
                    format!("({} % {})", paren(&x), paren(&y))
                }
                Atom::Swizzle(sw, x) => {
                    let x = paren(&render_poly(x, syn));
                    let (yyy, sh) = match super::expr::swizzle_of(*sw) {
                        Ok(f) => (f.yyy_mask(), f.shift()),
                        Err(_) => (0, 0),
                    };
                    let dir = if sh >= 0 { ">>" } else { "<<" };
                    format!("({x} ^ (({x} & {yyy}) {dir} {}))", sh.abs())
                }
                Atom::Ceil(x, y) => {
                    let (x, y) = (render_poly(x, syn), render_poly(y, syn));
                    match syn {
                        Syntax::Python => format!("(-(-{} // {}))", paren(&x), paren(&y)),
                        _ => format!(
                            "({x2} / {y2} + ({x2} % {y2} != 0))",
                            x2 = paren(&x),
                            y2 = paren(&y)
                        ),
                    }
                }
            };
            for _ in 0..*pw {
                factors.push(s.clone());
            }
        }
        out.push_str(&factors.join(" * "));
    }
    out
}

impl fmt::Display for Pred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Syntax::Plain))
    }
}

/// The answer of the decision procedure for one condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds for every assignment satisfying the facts.
    Proved,
    /// Fails for every assignment satisfying the facts; the witness satisfies them all.
    Refuted(Assignment),
    /// Undecided: holds for some assignments at most; a counterexample satisfying the facts when
    /// the search found one.
    Unknown(Option<Assignment>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Residue(i64, i64),
    Lower(i64),
    Upper(i64),
    Value(i64),
    Def(String, i64, i64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Raw {
    src: String,
    name: String,
    kind: Kind,
}

/// The normalized facts of one free name: `X = x0 + m*X'`, `0 <= X' <= ymax`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameInfo {
    /// Modulus of the residue class.
    pub m: i64,
    /// Smallest allowed value.
    pub x0: i64,
    /// Largest value of the quotient variable (`None`: unbounded).
    pub ymax: Option<i64>,
}

/// A fact base over names. Cloning is cheap (the base is shared; strengthening a clone copies it
/// first).
#[derive(Clone, Default)]
pub struct Facts {
    b: Arc<Base>,
    /// Identifies this content among the fact bases made so far (a clone keeps it, a change
    /// takes a new one); 0 for the empty base.
    id: u64,
}

fn fresh_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Equal when the facts are (whatever their history).
impl PartialEq for Facts {
    fn eq(&self, o: &Facts) -> bool {
        self.b == o.b
    }
}

impl Eq for Facts {}

impl fmt::Debug for Facts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Facts")
            .field("raw", &self.b.raw)
            .field("free", &self.b.free)
            .field("defs", &self.b.defs)
            .field("nonneg", &self.b.nonneg)
            .field("yform", &self.b.yform)
            .finish()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Base {
    raw: Vec<Raw>,
    free: BTreeMap<String, NameInfo>,
    /// `free` keyed by [`Name`] (what the decisions look names up by).
    free_names: Vec<(Name, NameInfo)>,
    /// `X = a*Y + b` with `Y` free.
    defs: BTreeMap<String, (String, i64, i64)>,
    /// Names whose implicit lower bound is 0 (coordinates, indices), not 1 (extents).
    nonneg: Vec<String>,
    /// Each name with facts (free or defined) rewritten in quotient variables, computed once per
    /// rebuild (the decision procedure rewrites every condition with them).
    yform: BTreeMap<String, Poly>,
}

fn too_big(src: &str) -> SymError {
    SymError::Overflow(format!("a constant in fact `{src}`"))
}

fn modinv(a: i64, m: i64) -> Option<i64> {
    // Extended Euclid over i128.
    let (mut t, mut nt, mut r, mut nr) = (0i128, 1i128, m as i128, a.rem_euclid(m) as i128);
    while nr != 0 {
        let q = r / nr;
        (t, nt) = (nt, t - q * nt);
        (r, nr) = (nr, r - q * nr);
    }
    if r != 1 {
        return None;
    }
    i64::try_from(t.rem_euclid(m as i128)).ok()
}

impl Base {
    fn resolve(
        &self,
        defs: &BTreeMap<String, (String, i64, i64)>,
        n: &str,
        src: &str,
    ) -> Result<(String, i64, i64), SymError> {
        let (mut name, mut a, mut b) = (n.to_string(), 1i64, 0i64);
        for _ in 0..=defs.len() {
            match defs.get(&name) {
                None => return Ok((name, a, b)),
                Some((y, a2, b2)) => {
                    // name = a2*y + b2, so n = a*(a2*y + b2) + b.
                    b = a
                        .checked_mul(*b2)
                        .and_then(|x| x.checked_add(b))
                        .ok_or_else(|| too_big(src))?;
                    a = a.checked_mul(*a2).ok_or_else(|| too_big(src))?;
                    name = y.clone();
                }
            }
        }
        Err(SymError::UnsupportedFact {
            fact: src.to_string(),
            why: "the definitions form a cycle".into(),
        })
    }

    fn rebuild(&mut self) -> Result<(), SymError> {
        let mut defs: BTreeMap<String, (String, i64, i64)> = BTreeMap::new();
        for r in &self.raw {
            if let Kind::Def(y, a, b) = &r.kind {
                if defs.contains_key(&r.name) {
                    return Err(SymError::UnsupportedFact {
                        fact: r.src.clone(),
                        why: format!("{} is defined twice", r.name),
                    });
                }
                defs.insert(r.name.clone(), (y.clone(), *a, *b));
            }
        }
        // Resolve every definition to a free name, detecting cycles.
        let mut resolved = BTreeMap::new();
        for (x, (_, _, _)) in &defs {
            let src = self
                .raw
                .iter()
                .find(|r| &r.name == x)
                .map(|r| r.src.clone())
                .unwrap_or_default();
            resolved.insert(x.clone(), self.resolve(&defs, x, &src)?);
        }
        // Per free name: residue (m, r) with its sources, lower and upper bounds.
        struct Acc {
            m: i64,
            r: i64,
            lo: i64,
            hi: Option<i64>,
            srcs: Vec<String>,
        }
        let mut acc: BTreeMap<String, Acc> = BTreeMap::new();
        let mut names: Vec<String> = Vec::new();
        for r in &self.raw {
            names.push(r.name.clone());
            if let Kind::Def(y, _, _) = &r.kind {
                names.push(y.clone());
            }
        }
        // Every name is >= 1: a constraint on the free name behind it.
        let mut cons: Vec<(String, Kind, String)> = names
            .iter()
            .map(|n| {
                let lo = i64::from(!self.nonneg.contains(n));
                (n.clone(), Kind::Lower(lo), format!("{n} >= {lo}"))
            })
            .collect();
        for r in &self.raw {
            if !matches!(r.kind, Kind::Def(..)) {
                cons.push((r.name.clone(), r.kind.clone(), r.src.clone()));
            }
        }
        for (n, kind, src) in cons {
            let (y, a, b) = match resolved.get(&n) {
                Some(t) => t.clone(),
                None => (n.clone(), 1, 0),
            };
            let e = acc.entry(y.clone()).or_insert(Acc {
                m: 1,
                r: 0,
                lo: i64::MIN,
                hi: None,
                srcs: Vec::new(),
            });
            let contra = |srcs: &Vec<String>, detail: String| SymError::Contradiction {
                fact: src.clone(),
                with: srcs.clone(),
                detail,
            };
            // n = a*y + b with a >= 1.
            match kind {
                Kind::Residue(m, r) => {
                    // a*y + b ≡ r (mod m)  <=>  y ≡ r' (mod m / g), g = gcd(a, m).
                    let g = gcd(a, m);
                    let rhs = r.checked_sub(b).ok_or_else(|| too_big(&src))?;
                    if rhs.rem_euclid(g) != 0 {
                        return Err(contra(&e.srcs, format!("no value of {y} satisfies {src}")));
                    }
                    let m2 = m / g;
                    let inv = modinv(a / g, m2).unwrap_or(0);
                    let r2 = ((rhs / g).rem_euclid(m2) as i128 * inv as i128)
                        .rem_euclid(m2.max(1) as i128) as i64;
                    // Combine y ≡ e.r (mod e.m) with y ≡ r2 (mod m2) (CRT).
                    let g2 = gcd(e.m, m2);
                    if (r2 - e.r).rem_euclid(g2) != 0 {
                        return Err(contra(
                            &e.srcs,
                            format!(
                                "{y} ≡ {} (mod {}) and {y} ≡ {r2} (mod {m2}) have no common solution",
                                e.r, e.m
                            ),
                        ));
                    }
                    let l = (e.m / g2).checked_mul(m2).ok_or_else(|| too_big(&src))?;
                    // Find the solution by stepping e.r + k*e.m (k < m2/g2), bounded by the modulus.
                    let steps = m2 / g2;
                    if steps > 1 << 20 {
                        return Err(SymError::UnsupportedFact {
                            fact: src.clone(),
                            why: "moduli too large to combine".into(),
                        });
                    }
                    let mut x = e.r as i128;
                    let mut found = false;
                    for _ in 0..steps.max(1) {
                        if (x - r2 as i128).rem_euclid(m2 as i128) == 0 {
                            found = true;
                            break;
                        }
                        x += e.m as i128;
                    }
                    if !found {
                        return Err(contra(&e.srcs, format!("no value of {y} satisfies {src}")));
                    }
                    e.m = l;
                    e.r = (x.rem_euclid(l as i128)) as i64;
                }
                Kind::Lower(c) => {
                    let v =
                        super::expr::ceil_div_i(c.checked_sub(b).ok_or_else(|| too_big(&src))?, a)
                            .ok_or_else(|| too_big(&src))?;
                    e.lo = e.lo.max(v);
                }
                Kind::Upper(c) => {
                    let v = c.checked_sub(b).ok_or_else(|| too_big(&src))?.div_euclid(a);
                    e.hi = Some(e.hi.map_or(v, |h| h.min(v)));
                }
                Kind::Value(c) => {
                    let d = c.checked_sub(b).ok_or_else(|| too_big(&src))?;
                    if d.rem_euclid(a) != 0 {
                        return Err(contra(
                            &e.srcs,
                            format!("{n} == {c} has no solution in {y}"),
                        ));
                    }
                    let v = d / a;
                    e.lo = e.lo.max(v);
                    e.hi = Some(e.hi.map_or(v, |h| h.min(v)));
                }
                Kind::Def(..) => {}
            }
            if !(src.ends_with(">= 1") || src.ends_with(">= 0")) || !e.srcs.is_empty() {
                e.srcs.push(src.clone());
            }
            // Consistency: the smallest value >= lo in the residue class is <= hi.
            let x0 = e.lo as i128 + (e.r as i128 - e.lo as i128).rem_euclid(e.m as i128);
            if let Some(h) = e.hi {
                if x0 > h as i128 {
                    return Err(contra(
                        &e.srcs,
                        format!("no value of {y} satisfies all of its facts"),
                    ));
                }
            }
        }
        let mut free = BTreeMap::new();
        for (y, e) in acc {
            let x0 = e.lo as i128 + (e.r as i128 - e.lo as i128).rem_euclid(e.m as i128);
            let x0 = i64::try_from(x0).map_err(|_| too_big(&y))?;
            let ymax = e.hi.map(|h| (h - x0) / e.m);
            free.insert(y, NameInfo { m: e.m, x0, ymax });
        }
        // Nothing is changed before this point (a failed rebuild leaves the base as it was).
        self.free_names = free
            .iter()
            .map(|(n, i)| (Name::new(n), i.clone()))
            .collect();
        self.free = free;
        self.defs = resolved;
        let mut yform = BTreeMap::new();
        for n in self.free.keys().chain(self.defs.keys()) {
            if let Some(p) = self.y_of(n) {
                yform.insert(n.clone(), p);
            }
        }
        self.yform = yform;
        Ok(())
    }

    /// `n` in quotient variables (`x0 + m*n'`; a defined name through its definition).
    fn y_of(&self, n: &str) -> Option<Poly> {
        let (y, a, b) = self.defs.get(n).cloned().unwrap_or((n.to_string(), 1, 0));
        let i = self.info_or_default(&y);
        if i.ymax == Some(0) {
            // A name with one allowed value is that constant.
            return Poly::constant(i.x0)
                .scale(a)
                .ok()?
                .add(&Poly::constant(b))
                .ok();
        }
        let base = Poly::of_name(Name::new(&y).primed())
            .scale(i.m)
            .ok()?
            .add(&Poly::constant(i.x0))
            .ok()?;
        base.scale(a).ok()?.add(&Poly::constant(b)).ok()
    }

    fn info_or_default(&self, n: &str) -> NameInfo {
        self.free
            .get(n)
            .cloned()
            .unwrap_or_else(|| unconstrained(self.nonneg.iter().any(|x| x == n)))
    }

    /// [`Base::info_or_default`] of a [`Name`].
    fn info_of_name(&self, n: &Name) -> NameInfo {
        match self.free_names.iter().find(|(k, _)| k == n) {
            Some((_, i)) => i.clone(),
            None => unconstrained(self.nonneg.iter().any(|x| n == x)),
        }
    }
}

/// A name no fact constrains: any value from 1 (an extent), or from 0 when `nonneg` (a
/// coordinate or an index).
fn unconstrained(nonneg: bool) -> NameInfo {
    NameInfo {
        m: 1,
        x0: i64::from(!nonneg),
        ymax: None,
    }
}

impl Facts {
    /// Reads facts (`M % 128 == 0`, `K >= 64`, `M == 4*P`, `M <= 8192`).
    ///
    /// Pre: none. Post: a consistent fact base; a malformed fact is [`SymError::Parse`], a
    /// non-linear one [`SymError::NonLinearFact`], an unsupported shape
    /// [`SymError::UnsupportedFact`], and facts with no common solution
    /// [`SymError::Contradiction`] naming them.
    /// Example: `Facts::parse(&["M % 2 == 1", "M % 4 == 0"])` is a contradiction.
    pub fn parse<S: AsRef<str>>(facts: &[S]) -> Result<Facts, SymError> {
        let mut b = Base::default();
        for s in facts {
            let raw = parse_fact(s.as_ref())?;
            b.raw.extend(raw);
        }
        b.rebuild()?;
        Ok(Facts {
            b: Arc::new(b),
            id: fresh_id(),
        })
    }

    /// The facts as given.
    ///
    /// Pre: none. Post: in order, each once. Example: `["M % 128 == 0"]`.
    pub fn sources(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for r in &self.b.raw {
            if !v.contains(&r.src) {
                v.push(r.src.clone());
            }
        }
        v
    }

    /// Every name a fact mentions.
    ///
    /// Pre: none. Post: sorted, each once. Example: `M == 4*P` mentions `M` and `P`.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.b.free.keys().cloned().collect();
        v.extend(self.b.defs.keys().cloned());
        v.sort();
        v.dedup();
        v
    }

    /// Checks that every name of the facts is one of `known` or reachable from one through a
    /// definition (`M == 4*P` with `M` known makes `P` known).
    ///
    /// Pre: none. Post: [`SymError::UnknownName`] names the first fact with an unknown name.
    /// Example: facts `Q % 2 == 0` for an expression over `M` fail.
    pub fn check_known(&self, known: &[String]) -> Result<(), SymError> {
        let mut ok: Vec<String> = known.to_vec();
        loop {
            let before = ok.len();
            for (x, (y, _, _)) in &self.b.defs {
                if ok.contains(x) && !ok.contains(y) {
                    ok.push(y.clone());
                }
            }
            if ok.len() == before {
                break;
            }
        }
        for r in &self.b.raw {
            let mut names = vec![r.name.clone()];
            if let Kind::Def(y, _, _) = &r.kind {
                names.push(y.clone());
            }
            for n in names {
                if !ok.contains(&n) {
                    return Err(SymError::UnknownName {
                        name: n,
                        fact: r.src.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Adds a guard as a fact when it has the shape of one (a bound, a residue or a value of
    /// one name); other guards are ignored (they stay guards).
    ///
    /// Pre: `p` is consistent with the facts (it was not refuted). Post: the base implies `p`
    /// when it was added. Example: after the guard `M >= 129`, `M >= 100` is proved.
    pub fn strengthen(&mut self, p: &Pred) {
        let raw = match p.rel {
            Rel::Divides => match (p.lhs.as_const(), single_name(&p.rhs)) {
                (Some(m), Some((n, 1, 0))) if m > 0 => Some(Raw {
                    src: p.to_string(),
                    name: n,
                    kind: Kind::Residue(m, 0),
                }),
                _ => None,
            },
            Rel::Ge | Rel::Eq | Rel::Ne if surely_not_single_name(&p.lhs, &p.rhs) => None,
            Rel::Ge | Rel::Eq | Rel::Ne => p.lhs.sub(&p.rhs).ok().and_then(|d| {
                let (n, a, b) = single_name(&d)?;
                let kind = match (p.rel, a) {
                    (Rel::Ge, 1) => Kind::Lower(b.checked_neg()?),
                    (Rel::Ge, -1) => Kind::Upper(b),
                    (Rel::Eq, 1) => Kind::Value(b.checked_neg()?),
                    (Rel::Ne, 1 | -1) => {
                        let v = if a == 1 { b.checked_neg()? } else { b };
                        let lo = self.lower_of(&n)?;
                        (v == lo).then_some(Kind::Lower(v.checked_add(1)?))?
                    }
                    _ => return None,
                };
                Some(Raw {
                    src: p.to_string(),
                    name: n,
                    kind,
                })
            }),
            Rel::NotDivides => None,
        };
        if let Some(r) = raw {
            let b = Arc::make_mut(&mut self.b);
            b.raw.push(r);
            // A failed rebuild changes nothing but `raw`.
            if b.rebuild().is_err() {
                b.raw.pop();
            } else {
                self.id = fresh_id();
            }
        }
    }

    /// Makes the implicit lower bound of `names` 0 instead of 1 (coordinates and thread indices
    /// may be 0; extents may not).
    ///
    /// Pre: none. Post: the facts are rebuilt; an explicit bound still applies.
    /// Example: `local_tile`'s `(bm,bk)` are `>= 0`.
    pub fn set_nonnegative(&mut self, names: &[String]) -> Result<(), SymError> {
        self.id = fresh_id();
        let b = Arc::make_mut(&mut self.b);
        for n in names {
            if !b.nonneg.contains(n) {
                b.nonneg.push(n.clone());
            }
        }
        b.rebuild()
    }

    fn lower_of(&self, n: &str) -> Option<i64> {
        self.b.free.get(n).map(|i| i.x0)
    }

    /// The normalized facts of a free name (`None` for a name without facts or a defined name).
    ///
    /// Pre: none. Post: see [`NameInfo`]. Example: `M % 128 == 0` gives `x0 = 128, m = 128`.
    pub fn info(&self, n: &str) -> Option<&NameInfo> {
        self.b.free.get(n)
    }

    fn info_or_default(&self, n: &str) -> NameInfo {
        self.b.info_or_default(n)
    }

    fn y_of(&self, n: &str) -> Option<Poly> {
        self.b.y_of(n)
    }

    /// A typical large assignment (each name about `x0 + 1000*m`), used to prefer one side of
    /// an undecided branch (the side right for large runtime sizes).
    ///
    /// Pre: none. Post: satisfies the facts when the ranges allow. Example: `M` gives 1001.
    pub fn typical(&self, names: &[String]) -> Assignment {
        let mut bases: Vec<String> = self.b.free.keys().cloned().collect();
        for n in names {
            let b = self.b.defs.get(n).map(|d| d.0.clone()).unwrap_or(n.clone());
            if !bases.contains(&b) {
                bases.push(b);
            }
        }
        let ys: Vec<i64> = bases
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let y = 1000 + 17 * i as i64;
                self.info_or_default(n).ymax.map_or(y, |h| h.min(y))
            })
            .collect();
        self.assignment(&bases, &ys).unwrap_or_default()
    }

    /// Rewrites `p` in quotient variables (`X ↦ x0 + m*X'`, defined names by their definition).
    fn to_y(&self, p: &Poly) -> Result<Poly, SymError> {
        if p.as_const().is_some() {
            return Ok(p.clone());
        }
        p.substitute(&|n: &str| self.yform_of(n))
    }

    /// The quotient-variable form of a name (`None`: keep it), what [`Facts::to_y`] substitutes.
    fn yform_of(&self, n: &str) -> Option<Poly> {
        match self.b.yform.get(n) {
            Some(p) => Some(p.clone()),
            None => self.y_of(n),
        }
    }

    fn ymax_of(&self, yname: &str) -> Option<i64> {
        let base = yname.strip_suffix('\'')?;
        self.info_or_default(base).ymax
    }

    fn interval(&self, p: &Poly) -> Iv {
        let mut acc = Iv::point(0);
        for (m, c) in p.terms() {
            let mut t = Iv::point(*c as i128);
            for (a, pw) in m {
                let x = self.atom_interval(a);
                for _ in 0..*pw {
                    t = t.mul(&x);
                }
            }
            acc = acc.add(&t);
        }
        acc
    }

    fn atom_interval(&self, a: &Atom) -> Iv {
        match a {
            Atom::Name(n) => Iv {
                lo: Some(0),
                hi: self.ymax_of(n).map(|h| h as i128),
            },
            Atom::Mod(x, y) => {
                let (xi, yi) = (self.interval(x), self.interval(y));
                match (xi.lo, yi.lo) {
                    (Some(xl), Some(yl)) if yl >= 1 => Iv {
                        lo: Some(0),
                        hi: match (yi.hi, xi.hi) {
                            (Some(yh), Some(xh)) if xl >= 0 => Some((yh - 1).min(xh)),
                            (Some(yh), _) => Some(yh - 1),
                            (None, Some(xh)) if xl >= 0 => Some(xh),
                            _ => None,
                        },
                    },
                    _ => Iv { lo: None, hi: None },
                }
            }
            Atom::Swizzle(sw, x) => {
                // The swizzle moves only the zzz bits: |Sw(x) - x| <= zzz_mask, and Sw(x) >= 0
                // for x >= 0.
                let xi = self.interval(x);
                let z = super::expr::swizzle_of(*sw).map_or(0, |f| f.zzz_mask()) as i128;
                match xi.lo {
                    Some(xl) if xl >= 0 => Iv {
                        lo: Some((xl - z).max(0)),
                        hi: xi.hi.and_then(|h| h.checked_add(z)),
                    },
                    _ => Iv { lo: None, hi: None },
                }
            }
            Atom::Floor(x, y) | Atom::Ceil(x, y) => {
                let ceil = matches!(a, Atom::Ceil(..));
                let (xi, yi) = (self.interval(x), self.interval(y));
                match (xi.lo, yi.lo) {
                    (Some(xl), Some(yl)) if xl >= 0 && yl >= 1 => {
                        let q = |n: i128, d: i128| if ceil { (n + d - 1) / d } else { n / d };
                        Iv {
                            lo: Some(match yi.hi {
                                Some(yh) => q(xl, yh),
                                None => 0,
                            }),
                            hi: xi.hi.map(|xh| q(xh, yl)),
                        }
                    }
                    _ => Iv { lo: None, hi: None },
                }
            }
        }
    }

    /// Decides a condition under the facts.
    ///
    /// Pre: none. Post: [`Verdict::Proved`] only if it holds for every assignment satisfying the
    /// facts; [`Verdict::Refuted`] only if it fails for all of them (the witness satisfies the
    /// facts); otherwise [`Verdict::Unknown`] with a counterexample when the search found one.
    /// Example: with `M % 128 == 0`, `128 | M` is proved and `M >= 128` is proved.
    pub fn decide(&self, p: &Pred) -> Result<Verdict, SymError> {
        let v = self.decide_static(p)?;
        Ok(match v {
            Some(true) => Verdict::Proved,
            Some(false) => Verdict::Refuted(self.witness(&|_| Ok(true))?.unwrap_or_default()),
            None => Verdict::Unknown(self.witness(&|env| Ok(!p.holds(env)?))?),
        })
    }

    /// [`Facts::decide`] without the counterexample search: `Some(true)` proved, `Some(false)`
    /// refuted, `None` undecided.
    ///
    /// Pre: none. Post: as [`Facts::decide`]. Example: `M*1 == M` gives `Some(true)`.
    pub fn decide_quick(&self, p: &Pred) -> Result<Option<bool>, SymError> {
        self.decide_static(p)
    }

    /// [`Facts::decide_quick`] remembering, in `memo`, the quotient atoms rewritten in quotient
    /// variables (forgotten when the facts are not those it was filled under).
    pub(crate) fn decide_quick_memo(
        &self,
        p: PredRef<'_>,
        memo: &mut AtomMemo,
    ) -> Result<Option<bool>, SymError> {
        if memo.id != self.id {
            memo.v.clear();
            memo.id = self.id;
        }
        self.decide_static_m(p, memo)
    }

    /// Rewrites quotients the facts make exact: `ceil_div(p, q)` becomes `p/q` and `p % q`
    /// becomes 0 when `q | p` is proved (`ceil_div(M,128)` prints `M/128` under `M % 128 == 0`).
    ///
    /// Pre: none. Post: equal to `p` for every assignment satisfying the facts.
    /// Example: `ceil_div(M,128)` with `M % 128 == 0` gives `M/128`.
    pub fn tidy(&self, p: &Poly) -> Result<Poly, SymError> {
        if !p.has_quotient() {
            return Ok(p.clone());
        }
        let mut acc = Poly::default();
        for (m, c) in p.terms() {
            let mut term = Poly::constant(*c);
            for (a, pw) in m {
                let base = match a {
                    Atom::Name(n) => Poly::name(n),
                    Atom::Floor(x, y) => self.tidy(x)?.floor_div(&self.tidy(y)?)?,
                    Atom::Swizzle(sw, x) => self.tidy(x)?.swizzle(*sw)?,
                    Atom::Ceil(x, y) | Atom::Mod(x, y) => {
                        let (x, y) = (self.tidy(x)?, self.tidy(y)?);
                        let exact =
                            self.decide_static(&Pred::divides(y.clone(), x.clone()))? == Some(true);
                        match (a, exact) {
                            (Atom::Ceil(..), true) => x.floor_div(&y)?,
                            (Atom::Ceil(..), false) => x.ceil_div(&y)?,
                            (_, true) => Poly::default(),
                            _ => x.rem(&y)?,
                        }
                    }
                };
                for _ in 0..*pw {
                    term = term.mul(&base)?;
                }
            }
            acc = acc.add(&term)?;
        }
        Ok(acc)
    }

    /// An assignment satisfying every fact (the smallest values).
    ///
    /// Pre: the facts are consistent. Post: satisfies the facts. Example: `M % 128 == 0` gives `M = 128`.
    pub fn witness_any(&self) -> Result<Assignment, SymError> {
        Ok(self.witness(&|_| Ok(true))?.unwrap_or_default())
    }

    fn decide_static(&self, p: &Pred) -> Result<Option<bool>, SymError> {
        self.decide_static_m(p.as_ref(), &mut AtomMemo::default())
    }

    fn decide_static_m(
        &self,
        p: PredRef<'_>,
        memo: &mut AtomMemo,
    ) -> Result<Option<bool>, SymError> {
        // A comparison whose sides differ by a constant needs no rewriting.
        if matches!(p.rel, Rel::Ge | Rel::Eq | Rel::Ne) {
            if let Some(d) = p.lhs.const_diff(p.rhs) {
                return Ok(Some(match p.rel {
                    Rel::Ge => d >= 0,
                    Rel::Eq => d == 0,
                    _ => d != 0,
                }));
            }
        }
        if let Some(v) = self.decide_linear(p, memo) {
            return Ok(v);
        }
        self.decide_general(p)
    }

    /// [`Facts::decide_static`] without the linear fast path (every condition rewritten as a
    /// polynomial in quotient variables).
    fn decide_general(&self, p: PredRef<'_>) -> Result<Option<bool>, SymError> {
        Ok(match p.rel {
            Rel::Ge => self.interval(&self.to_y(&p.lhs.sub(p.rhs)?)?).sign_of_ge(),
            Rel::Eq => self.decide_zero(&self.to_y(&p.lhs.sub(p.rhs)?)?),
            Rel::Ne => self
                .decide_zero(&self.to_y(&p.lhs.sub(p.rhs)?)?)
                .map(|b| !b),
            Rel::Divides => self.decide_divides(p.lhs, p.rhs)?,
            Rel::NotDivides => self.decide_divides(p.lhs, p.rhs)?.map(|b| !b),
        })
    }

    /// The decision of [`Facts::decide_static`] computed without building polynomials, for a
    /// condition whose sides are linear in names (with a constant divisor for divisibility):
    /// `Some(answer)`, or `None` where the general path must run (a quotient, a product of
    /// names, or values large enough that the general path's checked arithmetic could
    /// overflow). The answer is the general path's, step for step: the same rewriting in
    /// quotient variables ([`Lin`] holds what `to_y` would build) and the same tests.
    fn decide_linear(&self, p: PredRef<'_>, memo: &mut AtomMemo) -> Option<Option<bool>> {
        match p.rel {
            Rel::Ge | Rel::Eq | Rel::Ne => {
                let mut d = Lin::default();
                d.add(self, p.lhs, 1, memo)?;
                d.add(self, p.rhs, -1, memo)?;
                Some(match p.rel {
                    Rel::Ge => d.interval().sign_of_ge(),
                    Rel::Eq => d.decide_zero(),
                    _ => d.decide_zero().map(|b| !b),
                })
            }
            Rel::Divides | Rel::NotDivides => {
                let q = p.lhs.as_const()?;
                let mut py = Lin::default();
                py.add(self, p.rhs, 1, memo)?;
                let v = if py.t.is_empty() && py.c == 0 {
                    Some(true)
                } else if q == 0 {
                    py.decide_zero()
                } else {
                    let c = q.checked_abs()?;
                    let b = py.c;
                    let g = py.gcd();
                    if g % c == 0 && b.rem_euclid(c) == 0 {
                        Some(true)
                    } else {
                        let g2 = gcd(c, g);
                        if b.rem_euclid(g2.max(1)) != 0 && g2 != 0 {
                            Some(false)
                        } else if g == 0 {
                            Some(b.rem_euclid(c) == 0)
                        } else {
                            None
                        }
                    }
                };
                Some(if p.rel == Rel::Divides {
                    v
                } else {
                    v.map(|b| !b)
                })
            }
        }
    }

    fn decide_zero(&self, d: &Poly) -> Option<bool> {
        if let Some(c) = d.as_const() {
            return Some(c == 0);
        }
        let b = d.constant_term();
        let g = d
            .terms()
            .iter()
            .filter(|t| !t.0.is_empty())
            .fold(0, |g, t| gcd(g, t.1));
        if g != 0 && b.rem_euclid(g) != 0 {
            return Some(false);
        }
        let iv = self.interval(d);
        if iv.lo.is_some_and(|l| l > 0) || iv.hi.is_some_and(|h| h < 0) {
            return Some(false);
        }
        None
    }

    fn decide_divides(&self, q: &Poly, p: &Poly) -> Result<Option<bool>, SymError> {
        let (qy, py) = (self.to_y(q)?, self.to_y(p)?);
        if py.as_const() == Some(0) {
            return Ok(Some(true));
        }
        match qy.as_const() {
            Some(0) => Ok(self.decide_zero(&py)),
            Some(c) => {
                let c = c
                    .checked_abs()
                    .ok_or_else(|| SymError::Overflow("divisor".into()))?;
                let b = py.constant_term();
                let g = py
                    .terms()
                    .iter()
                    .filter(|t| !t.0.is_empty())
                    .fold(0, |g, t| gcd(g, t.1));
                if g % c == 0 && b.rem_euclid(c) == 0 {
                    return Ok(Some(true));
                }
                let g2 = gcd(c, g);
                if b.rem_euclid(g2.max(1)) != 0 && g2 != 0 {
                    return Ok(Some(false));
                }
                if g == 0 {
                    return Ok(Some(b.rem_euclid(c) == 0));
                }
                Ok(None)
            }
            None => {
                // Term by term in the original names, then in quotient variables.
                if p.floor_div(q)?.mul(q)? == *p && !p.floor_div(q)?.has_quotient() {
                    return Ok(Some(true));
                }
                if py.floor_div(&qy)?.mul(&qy)? == py && !py.floor_div(&qy)?.has_quotient() {
                    return Ok(Some(true));
                }
                // A non-zero constant p with q > |p|: q cannot divide p.
                if let Some(c) = py.as_const() {
                    let iv = self.interval(&qy);
                    if iv.lo.is_some_and(|l| l > (c as i128).abs()) {
                        return Ok(Some(false));
                    }
                }
                Ok(None)
            }
        }
    }

    /// Values of every free name for quotient-variable values `ys`, with defined names computed.
    fn assignment(&self, names: &[String], ys: &[i64]) -> Option<Assignment> {
        let mut env = Assignment::new();
        for (n, y) in names.iter().zip(ys) {
            let i = self.info_or_default(n);
            env.insert(n.clone(), i.x0.checked_add(i.m.checked_mul(*y)?)?);
        }
        for (x, (y, a, b)) in &self.b.defs {
            let v = *env.get(y)?;
            env.insert(x.clone(), a.checked_mul(v)?.checked_add(*b)?);
        }
        Some(env)
    }

    /// The free names a search assigns: those of the facts, and the base of each of `extra`
    /// (a defined name's defining name).
    fn search_names(&self, extra: &[String]) -> Vec<String> {
        let mut names: Vec<String> = self.b.free.keys().cloned().collect();
        for e in extra {
            let base = self.b.defs.get(e).map(|d| d.0.clone()).unwrap_or(e.clone());
            if !names.contains(&base) {
                names.push(base);
            }
        }
        names
    }

    /// A bounded search for an assignment satisfying the facts (every name of the facts, and
    /// `extra` names) on which `ok` holds.
    pub(crate) fn witness_over(
        &self,
        extra: &[String],
        ok: &dyn Fn(&Assignment) -> Result<bool, SymError>,
    ) -> Result<Option<Assignment>, SymError> {
        let names = self.search_names(extra);
        const STEPS: [i64; 16] = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 63, 64, 127, 255, 1023];
        let cands: Vec<Vec<i64>> = names
            .iter()
            .map(|n| {
                let ymax = self.info_or_default(n).ymax;
                let mut v: Vec<i64> = STEPS
                    .iter()
                    .copied()
                    .filter(|s| ymax.is_none_or(|h| *s <= h))
                    .collect();
                if let Some(h) = ymax {
                    if !v.contains(&h) {
                        v.push(h);
                    }
                }
                v
            })
            .collect();
        let k = names.len();
        let mut tried = 0usize;
        let mut try_ys = |ys: &[i64]| -> Result<Option<Assignment>, SymError> {
            tried += 1;
            match self.assignment(&names, ys) {
                Some(env) => match ok(&env) {
                    Ok(true) => Ok(Some(env)),
                    Ok(false) | Err(SymError::Overflow(_)) | Err(SymError::DivisionByZero(_)) => {
                        Ok(None)
                    }
                    Err(e) => Err(e),
                },
                None => Ok(None),
            }
        };
        // Diagonal, then one name varied with the others at their first two values, then a
        // deterministic pseudo-random sample.
        let width = cands.iter().map(|c| c.len()).max().unwrap_or(1);
        for i in 0..width {
            let ys: Vec<i64> = cands.iter().map(|c| c[i.min(c.len() - 1)]).collect();
            if let Some(e) = try_ys(&ys)? {
                return Ok(Some(e));
            }
        }
        for base in 0..2usize {
            for j in 0..k {
                for v in &cands[j] {
                    let mut ys: Vec<i64> = cands.iter().map(|c| c[base.min(c.len() - 1)]).collect();
                    ys[j] = *v;
                    if let Some(e) = try_ys(&ys)? {
                        return Ok(Some(e));
                    }
                }
            }
        }
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..192 {
            let ys: Vec<i64> = cands
                .iter()
                .map(|c| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    c[(s % c.len() as u64) as usize]
                })
                .collect();
            if let Some(e) = try_ys(&ys)? {
                return Ok(Some(e));
            }
        }
        let _ = tried;
        Ok(None)
    }

    /// [`Facts::witness_over`] over a wider grid: each quotient variable in `0..=64` and a few
    /// large values, every combination when there are at most 4,096 of them, else a
    /// deterministic sample of 4,096 (the search for a size satisfying a result's guards).
    pub(crate) fn witness_wide(
        &self,
        extra: &[String],
        ok: &dyn Fn(&Assignment) -> Result<bool, SymError>,
    ) -> Result<Option<Assignment>, SymError> {
        let names = self.search_names(extra);
        let cands: Vec<Vec<i64>> = names
            .iter()
            .map(|n| {
                let ymax = self.info_or_default(n).ymax;
                (0..=64)
                    .chain([95, 127, 255, 1000, 1023])
                    .filter(|s| ymax.is_none_or(|h| *s <= h))
                    .collect()
            })
            .collect();
        const LIMIT: usize = 4096;
        let total = cands
            .iter()
            .try_fold(1usize, |acc, c| acc.checked_mul(c.len().max(1)))
            .unwrap_or(usize::MAX);
        let mut s: u64 = 0x2545_F491_4F6C_DD1D;
        for k in 0..total.min(LIMIT) {
            let mut rest = k;
            let ys: Vec<i64> = cands
                .iter()
                .map(|c| {
                    if c.is_empty() {
                        return 0;
                    }
                    if total <= LIMIT {
                        let v = c[rest % c.len()];
                        rest /= c.len();
                        v
                    } else {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        c[(s % c.len() as u64) as usize]
                    }
                })
                .collect();
            if let Some(env) = self.assignment(&names, &ys) {
                match ok(&env) {
                    Ok(true) => return Ok(Some(env)),
                    Ok(false) | Err(SymError::Overflow(_)) | Err(SymError::DivisionByZero(_)) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(None)
    }

    fn witness(
        &self,
        ok: &dyn Fn(&Assignment) -> Result<bool, SymError>,
    ) -> Result<Option<Assignment>, SymError> {
        self.witness_over(&[], ok)
    }

    /// Whether an assignment satisfies every fact.
    ///
    /// Pre: every name of the facts has a value. Post: `true` iff each fact holds (and every
    /// name is >= 1). Example: `M = 130` does not satisfy `M % 128 == 0`.
    pub fn satisfied_by(&self, env: &Assignment) -> bool {
        for r in &self.b.raw {
            let Some(&v) = env.get(&r.name) else {
                return false;
            };
            if v < 1 {
                return false;
            }
            let ok = match &r.kind {
                Kind::Residue(m, res) => v.rem_euclid(*m) == *res,
                Kind::Lower(c) => v >= *c,
                Kind::Upper(c) => v <= *c,
                Kind::Value(c) => v == *c,
                Kind::Def(y, a, b) => env
                    .get(y)
                    .and_then(|w| a.checked_mul(*w)?.checked_add(*b))
                    .is_some_and(|w| w == v),
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// Whether `l - r` is certainly not `a*name + b` (what [`single_name`] of the difference
/// would answer `None` for), seen without building the difference: a monomial that occurs on
/// one side only keeps its non-zero coefficient, so one such monomial other than a name, or
/// two such names, decide it.
fn surely_not_single_name(l: &Poly, r: &Poly) -> bool {
    let mut names = 0;
    for (x, y) in [(l, r), (r, l)] {
        for (m, _) in x.terms() {
            if m.is_empty() || y.terms().iter().any(|t| t.0 == *m) {
                continue;
            }
            if !matches!(m.as_slice(), [(Atom::Name(_), 1)]) {
                return true;
            }
            names += 1;
            if names > 1 {
                return true;
            }
        }
    }
    false
}

/// `Some((name, a, b))` when `p == a*name + b`.
fn single_name(p: &Poly) -> Option<(String, i64, i64)> {
    let mut out: Option<(String, i64)> = None;
    for (m, c) in p.terms() {
        match m.as_slice() {
            [] => {}
            [(Atom::Name(n), 1)] if out.is_none() => out = Some((n.to_string(), *c)),
            _ => return None,
        }
    }
    let (n, a) = out?;
    Some((n, a, p.constant_term()))
}

/// Quotient atoms already rewritten in quotient variables under one state of the facts (what
/// `Facts::to_y` substitutes for them), for the decisions of one computation ([`super::Ctx`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct AtomMemo {
    /// The `Facts::id` the atoms were rewritten under.
    id: u64,
    v: Vec<(Atom, Poly)>,
}

impl AtomMemo {
    /// At most this many atoms are remembered.
    const CAP: usize = 16;
}

/// A polynomial of degree 1 in names and quotient atoms rewritten in quotient variables
/// (`X ↦ x0 + m*X'`, a defined name through its definition), as `Facts::to_y` would build it,
/// without building it: the constant and the coefficient of each atom of the result (a quotient
/// variable `X'`, or a quotient rewritten inside), with the atom's interval (zero coefficients
/// dropped, as canonicalization drops them).
#[derive(Default)]
struct Lin {
    c: i64,
    t: smallvec::SmallVec<[(Atom, i64, AtomIv); 4]>,
    /// The sum of the magnitudes of every product and sum formed: kept under `LIN_LIMIT`, so the
    /// general path's checked `i64` arithmetic, in any order, would not overflow (and every
    /// value, computed in `i128`, is stored in `i64`).
    mag: i64,
}

/// An atom's interval in a [`Lin`]: ends under `IV_LIMIT` in magnitude, stored in `i64`.
#[derive(Clone, Copy)]
struct AtomIv {
    lo: Option<i64>,
    hi: Option<i64>,
}

impl AtomIv {
    fn wide(&self) -> Iv {
        Iv {
            lo: self.lo.map(i128::from),
            hi: self.hi.map(i128::from),
        }
    }
}

const LIN_LIMIT: i64 = 1 << 60;

/// The largest magnitude of an atom's interval end the fast path takes (sums of products with
/// coefficients under `LIN_LIMIT` then stay far inside `i128`, in any order).
const IV_LIMIT: i128 = 1 << 62;

impl Lin {
    fn bump(&mut self, v: i128) -> Option<i64> {
        let v = i64::try_from(v).ok()?;
        self.mag = self.mag.checked_add(v.checked_abs()?)?;
        (self.mag < LIN_LIMIT).then_some(v)
    }

    fn term(&mut self, a: Atom, coef: i64, iv: Iv) -> Option<()> {
        let small = |e: Option<i128>| e.is_none_or(|e| e.abs() < IV_LIMIT);
        if !small(iv.lo) || !small(iv.hi) {
            return None;
        }
        // (Under `IV_LIMIT`: both ends fit.)
        let iv = AtomIv {
            lo: iv.lo.and_then(|e| i64::try_from(e).ok()),
            hi: iv.hi.and_then(|e| i64::try_from(e).ok()),
        };
        self.term_small(a, coef, iv)
    }

    fn term_small(&mut self, a: Atom, coef: i64, iv: AtomIv) -> Option<()> {
        match self.t.iter().position(|t| t.0 == a) {
            Some(j) => {
                let v = self.bump(i128::from(self.t[j].1) + i128::from(coef))?;
                if v == 0 {
                    self.t.remove(j);
                } else {
                    self.t[j].1 = v;
                }
            }
            None => self.t.push((a, coef, iv)),
        }
        Some(())
    }

    /// Adds `sign * p`; `None` when `p` (or an atom rewritten) has a product of atoms or a
    /// power, when rewriting fails, or when the values grow too large.
    fn add(&mut self, f: &Facts, p: &Poly, sign: i128, memo: &mut AtomMemo) -> Option<()> {
        for (m, c) in p.terms() {
            let c = i128::from(self.bump(sign * i128::from(*c))?);
            match m.as_slice() {
                [] => self.c = self.bump(i128::from(self.c) + c)?,
                [(Atom::Name(n), 1)] => {
                    let def = match f.b.defs.is_empty() {
                        true => None,
                        false => f.b.defs.get(n.as_str()),
                    };
                    let (y, a, k, i): (Option<&str>, i128, i128, NameInfo) = match def {
                        Some((y, a, k)) => (
                            Some(y.as_str()),
                            i128::from(*a),
                            i128::from(*k),
                            f.b.info_or_default(y),
                        ),
                        None => (None, 1, 0, f.b.info_of_name(n)),
                    };
                    // n = a*(x0 + m*y') + k.
                    let ax0 = i128::from(self.bump(a * i128::from(i.x0))?);
                    let off = i128::from(self.bump(ax0 + k)?);
                    let cst = i128::from(self.bump(c * off)?);
                    self.c = self.bump(i128::from(self.c) + cst)?;
                    if i.ymax == Some(0) {
                        continue;
                    }
                    let am = i128::from(self.bump(a * i128::from(i.m))?);
                    let coef = self.bump(c * am)?;
                    let iv = Iv {
                        lo: Some(0),
                        hi: i.ymax.map(i128::from),
                    };
                    let y = match y {
                        Some(y) => Name::new(y).primed(),
                        None => n.primed(),
                    };
                    self.term(Atom::Name(y), coef, iv)?;
                }
                [(a, 1)] => {
                    if let Some(done) = self.add_exact_quotient(f, a, c, memo) {
                        // The rewritten quotient is linear (`ceil_div(M,128)` under
                        // `M % 128 == 0` is `M' + 1`): its terms, scaled by `c`, are added.
                        done?;
                        continue;
                    }
                    let base = match memo.v.iter().find(|e| e.0 == *a) {
                        Some(e) => e.1.clone(),
                        None => {
                            let b = a.substitute(&|n| f.yform_of(n)).ok()?;
                            if memo.v.len() < AtomMemo::CAP {
                                memo.v.push((a.clone(), b.clone()));
                            }
                            b
                        }
                    };
                    for (bm, k) in base.terms() {
                        let k = self.bump(c * i128::from(*k))?;
                        match bm.as_slice() {
                            [] => self.c = self.bump(i128::from(self.c) + i128::from(k))?,
                            [(b, 1)] => self.term(b.clone(), k, f.atom_interval(b))?,
                            _ => return None,
                        }
                    }
                }
                _ => return None,
            }
        }
        Some(())
    }

    /// Adds `c` times a quotient atom `x / q`, `ceil_div(x, q)` or `x % q` with a constant
    /// `q >= 2` and `x` linear in names whose rewriting in quotient variables `q` divides term
    /// by term (but perhaps not in the constant): the rewritten atom is what `Atom::substitute`
    /// would build (`Poly::floor_div` / `ceil_div` / `rem` of the rewritten `x`: the multiples
    /// of `q` come out, and the constant remainder `r` in `[0, q)` gives `0`, `ceil(r/q)` or
    /// `r`). `Some(Some(()))`: added; `Some(None)`: the values grow too large (the caller gives
    /// up); `None`: the atom is not of that form (the caller rewrites it the general way).
    fn add_exact_quotient(
        &mut self,
        f: &Facts,
        a: &Atom,
        c: i128,
        memo: &mut AtomMemo,
    ) -> Option<Option<()>> {
        let (x, q, kind) = match a {
            Atom::Floor(x, q) => (x, q, 0u8),
            Atom::Ceil(x, q) => (x, q, 1),
            Atom::Mod(x, q) => (x, q, 2),
            _ => return None,
        };
        let q = q.as_const().filter(|q| *q >= 2)?;
        if x.terms()
            .iter()
            .any(|(m, _)| !matches!(m.as_slice(), [] | [(Atom::Name(_), 1)]))
        {
            return None;
        }
        let mut inner = Lin {
            mag: self.mag,
            ..Lin::default()
        };
        if inner.add(f, x, 1, memo).is_none() {
            return Some(None);
        }
        if inner.t.iter().any(|t| t.1 % q != 0) {
            return None;
        }
        self.mag = inner.mag;
        let (whole, r) = (inner.c.div_euclid(q), inner.c.rem_euclid(q));
        let cst = match kind {
            0 => whole,
            1 => whole + i64::from(r > 0),
            _ => r,
        };
        Some((|| {
            let k = self.bump(c * i128::from(cst))?;
            self.c = self.bump(i128::from(self.c) + i128::from(k))?;
            if kind != 2 {
                for (b, w, iv) in &inner.t {
                    let k = self.bump(c * i128::from(w / q))?;
                    self.term_small(b.clone(), k, *iv)?;
                }
            }
            Some(())
        })())
    }

    /// The interval of `Facts::interval` on the rewritten polynomial.
    fn interval(&self) -> Iv {
        let mut acc = Iv::point(0);
        if self.c != 0 {
            acc = acc.add(&Iv::point(i128::from(self.c)));
        }
        for (_, coef, iv) in &self.t {
            acc = acc.add(&Iv::point(i128::from(*coef)).mul(&iv.wide()));
        }
        acc
    }

    /// The gcd of the non-constant coefficients (0 when there are none).
    fn gcd(&self) -> i64 {
        self.t.iter().fold(0, |g, t| gcd(g, t.1))
    }

    /// `Facts::decide_zero` on the rewritten polynomial.
    fn decide_zero(&self) -> Option<bool> {
        let b = self.c;
        if self.t.is_empty() {
            return Some(b == 0);
        }
        let g = self.gcd();
        if g != 0 && b.rem_euclid(g) != 0 {
            return Some(false);
        }
        let iv = self.interval();
        if iv.lo.is_some_and(|l| l > 0) || iv.hi.is_some_and(|h| h < 0) {
            return Some(false);
        }
        None
    }
}

/// An interval with optional (infinite) ends, over i128.
#[derive(Clone, Copy, Debug)]
struct Iv {
    lo: Option<i128>,
    hi: Option<i128>,
}

impl Iv {
    /// `x >= 0` for every `x` in the interval: `Some(true)` when it holds throughout,
    /// `Some(false)` when it fails throughout, `None` otherwise.
    fn sign_of_ge(&self) -> Option<bool> {
        if self.lo.is_some_and(|l| l >= 0) {
            Some(true)
        } else if self.hi.is_some_and(|h| h < 0) {
            Some(false)
        } else {
            None
        }
    }

    fn point(c: i128) -> Iv {
        Iv {
            lo: Some(c),
            hi: Some(c),
        }
    }
    fn add(&self, o: &Iv) -> Iv {
        let f = |a: Option<i128>, b: Option<i128>| a?.checked_add(b?);
        Iv {
            lo: f(self.lo, o.lo),
            hi: f(self.hi, o.hi),
        }
    }
    fn neg(&self) -> Iv {
        Iv {
            lo: self.hi.and_then(|h| h.checked_neg()),
            hi: self.lo.and_then(|l| l.checked_neg()),
        }
    }
    fn mul(&self, o: &Iv) -> Iv {
        if let (Some(a), Some(b), Some(c), Some(d)) = (self.lo, self.hi, o.lo, o.hi) {
            let ps = [
                a.checked_mul(c),
                a.checked_mul(d),
                b.checked_mul(c),
                b.checked_mul(d),
            ];
            if let [Some(p0), Some(p1), Some(p2), Some(p3)] = ps {
                return Iv {
                    lo: Some(p0.min(p1).min(p2).min(p3)),
                    hi: Some(p0.max(p1).max(p2).max(p3)),
                };
            }
            return Iv { lo: None, hi: None };
        }
        match (self.lo, o.lo) {
            (Some(a), Some(c)) if a >= 0 && c >= 0 => Iv {
                lo: a.checked_mul(c),
                hi: self.hi.and_then(|b| o.hi.and_then(|d| b.checked_mul(d))),
            },
            _ => {
                // A non-positive factor times a non-negative one: mirror.
                if self.hi.is_some_and(|b| b <= 0) && o.lo.is_some_and(|c| c >= 0) {
                    return self.neg().mul(o).neg();
                }
                if o.hi.is_some_and(|d| d <= 0) && self.lo.is_some_and(|a| a >= 0) {
                    return self.mul(&o.neg()).neg();
                }
                Iv { lo: None, hi: None }
            }
        }
    }
}

/// Parses one fact into raw constraints.
fn parse_fact(src: &str) -> Result<Vec<Raw>, SymError> {
    let s = src.trim();
    // Find the relational operator outside parentheses.
    let ops = ["==", "!=", ">=", "<=", ">", "<"];
    let bytes = s.as_bytes();
    let mut at: Option<(usize, &str)> = None;
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ if depth == 0 => {
                if let Some(op) = ops.iter().find(|op| s[i..].starts_with(**op)) {
                    if at.is_some() {
                        return Err(SymError::Parse {
                            column: i + 1,
                            message: format!("a fact has one relation; `{s}` has two"),
                        });
                    }
                    at = Some((i, op));
                    i += op.len();
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let Some((pos, op)) = at else {
        return Err(SymError::Parse {
            column: s.len() + 1,
            message: format!("expected a relation (== != >= <= > <) in fact `{s}`"),
        });
    };
    let (ls, rs) = (&s[..pos], &s[pos + op.len()..]);
    let parse_side = |t: &str, off: usize| -> Result<Poly, SymError> {
        let mut r = Reader::new(t);
        let it = r.item().map_err(|e| shift(e, off))?;
        if !r.at_end() {
            return Err(shift(r.unexpected(), off));
        }
        match it {
            super::expr::Item::Expr(p) => Ok(p),
            super::expr::Item::Tuple(_) => Err(SymError::Parse {
                column: off + 1,
                message: "a fact compares expressions, not tuples".into(),
            }),
        }
    };
    let raw = |name: String, kind: Kind| Raw {
        src: s.to_string(),
        name,
        kind,
    };
    // `X % m == r`: a residue fact.
    if let Some(pct) = top_level_percent(ls) {
        let x = parse_side(&ls[..pct], 0)?;
        let m = parse_side(&ls[pct + 1..], pct + 1)?;
        let r = parse_side(rs, pos + op.len())?;
        let (Some((n, 1, 0)), Some(m), Some(r)) = (single_name(&x), m.as_const(), r.as_const())
        else {
            return Err(classify_bad(s, &x));
        };
        if m <= 0 {
            return Err(SymError::UnsupportedFact {
                fact: s.to_string(),
                why: format!("the modulus {m} must be positive"),
            });
        }
        return match op {
            "==" => {
                if !(0..m).contains(&r) {
                    return Err(SymError::Contradiction {
                        fact: s.to_string(),
                        with: vec![],
                        detail: format!("a remainder modulo {m} lies in [0, {m})"),
                    });
                }
                Ok(vec![raw(n, Kind::Residue(m, r))])
            }
            _ => Err(SymError::UnsupportedFact {
                fact: s.to_string(),
                why: "a residue fact is written `X % m == r`".into(),
            }),
        };
    }
    let l = parse_side(ls, 0)?;
    let r = parse_side(rs, pos + op.len())?;
    let d = l.sub(&r)?;
    if let Some(c) = d.as_const() {
        let ok = match op {
            "==" => c == 0,
            "!=" => c != 0,
            ">=" => c >= 0,
            "<=" => c <= 0,
            ">" => c > 0,
            _ => c < 0,
        };
        return if ok {
            Ok(vec![])
        } else {
            Err(SymError::Contradiction {
                fact: s.to_string(),
                with: vec![],
                detail: "the fact is false".into(),
            })
        };
    }
    if d.degree() > 1 || d.has_quotient() {
        return Err(SymError::NonLinearFact {
            fact: s.to_string(),
        });
    }
    if let Some((n, a, b)) = single_name(&d) {
        // a*n + b REL 0.
        return Ok(match op {
            "==" => {
                let nb = b.checked_neg().ok_or_else(|| too_big(s))?;
                if nb % a != 0 {
                    return Err(SymError::Contradiction {
                        fact: s.to_string(),
                        with: vec![],
                        detail: format!("{a}*{n} == {nb} has no integer solution"),
                    });
                }
                vec![raw(n, Kind::Value(nb / a))]
            }
            ">=" => vec![raw(n, linear_bound(a, b, false, s)?)],
            "<=" => vec![raw(n, linear_bound(a, b, true, s)?)],
            ">" => vec![raw(
                n,
                linear_bound(a, b.checked_sub(1).ok_or_else(|| too_big(s))?, false, s)?,
            )],
            "<" => vec![raw(
                n,
                linear_bound(a, b.checked_add(1).ok_or_else(|| too_big(s))?, true, s)?,
            )],
            _ => {
                return Err(SymError::UnsupportedFact {
                    fact: s.to_string(),
                    why: "`!=` facts are not supported (write a bound)".into(),
                });
            }
        });
    }
    // X == a*Y + b: a definition of the left name.
    if op == "==" {
        if let Some((x, 1, 0)) = single_name(&l) {
            if let Some((y, a, b)) = single_name(&r) {
                if a >= 1 && x != y {
                    return Ok(vec![raw(x, Kind::Def(y, a, b))]);
                }
            }
        }
        if let Some((x, 1, 0)) = single_name(&r) {
            if let Some((y, a, b)) = single_name(&l) {
                if a >= 1 && x != y {
                    return Ok(vec![raw(x, Kind::Def(y, a, b))]);
                }
            }
        }
    }
    Err(SymError::UnsupportedFact {
        fact: s.to_string(),
        why: "a fact bounds one name, gives its residue, or defines it as a*Y + b (a >= 1)".into(),
    })
}

/// `a*n + b >= 0` (upper = false) or `a*n + b <= 0` (upper = true) as a bound on `n`.
fn linear_bound(a: i64, b: i64, upper: bool, s: &str) -> Result<Kind, SymError> {
    let nb = b.checked_neg().ok_or_else(|| too_big(s))?;
    // a*n >= nb  or  a*n <= nb.
    let pos = a > 0;
    let (lower, val) = match (pos, upper) {
        (true, false) => (true, super::expr::ceil_div_i(nb, a)),
        (true, true) => (false, Some(nb.div_euclid(a))),
        // a < 0: a*n >= nb  <=>  n <= nb / a (floor of the real quotient).
        (false, false) => (false, floor_div_real(nb, a)),
        (false, true) => (true, super::expr::ceil_div_i(nb, a)),
    };
    let v = val.ok_or_else(|| too_big(s))?;
    Ok(if lower {
        Kind::Lower(v)
    } else {
        Kind::Upper(v)
    })
}

fn floor_div_real(a: i64, b: i64) -> Option<i64> {
    super::expr::ceil_div_i(a.checked_neg()?, b)?.checked_neg()
}

fn top_level_percent(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'%' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

fn classify_bad(s: &str, p: &Poly) -> SymError {
    if p.degree() > 1 {
        SymError::NonLinearFact {
            fact: s.to_string(),
        }
    } else {
        SymError::UnsupportedFact {
            fact: s.to_string(),
            why: "a residue fact is `X % m == r` with a name X and constants m, r".into(),
        }
    }
}

fn shift(e: SymError, off: usize) -> SymError {
    match e {
        SymError::Parse { column, message } => SymError::Parse {
            column: column + off,
            message,
        },
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn int(&mut self, lo: i64, hi: i64) -> i64 {
            lo + (self.next() % (hi - lo + 1) as u64) as i64
        }
    }

    /// A random linear expression over `M`, `K`, `P`, `Q` (sometimes with huge coefficients).
    fn linear(r: &mut Rng) -> Poly {
        let mut p = Poly::constant(r.int(-300, 300));
        for n in ["M", "K", "P", "Q"] {
            if r.pick(2) == 0 {
                let c = match r.pick(16) {
                    0 => i64::MAX / r.int(1, 4),
                    1 => -(1 << 59),
                    _ => r.int(-9, 9),
                };
                if let Ok(q) = p.add(&Poly::name(n).scale(c).expect("scale")) {
                    p = q;
                }
            }
        }
        // Quotients, rewritten inside by the procedure (some simplify under the facts).
        const QUOTIENTS: [&str; 7] = [
            "ceil_div(M,128)",
            "M/64",
            "K%8",
            "(K+3)/4",
            "ceil_div(P,Q)",
            "M*K/2",
            "Sw<3,4,3>(K)",
        ];
        for _ in 0..r.pick(3) {
            let q = super::super::expr::parse_expr(QUOTIENTS[r.pick(QUOTIENTS.len())]).expect("q");
            if let Ok(x) = p.add(&q.scale(r.int(-3, 3)).expect("scale")) {
                p = x;
            }
        }
        p
    }

    /// The test before building a difference never rejects one that is `a*name + b`.
    #[test]
    fn surely_not_single_name_is_sound() {
        let mut r = Rng(0x5EED_1234_ABCD_0002);
        let (mut rejected, mut single) = (0usize, 0usize);
        for _ in 0..20_000 {
            let (a, b) = (linear(&mut r), linear(&mut r));
            // Sometimes share terms, so that they cancel.
            let b = if r.pick(3) == 0 {
                a.add(&b).unwrap_or(b)
            } else {
                b
            };
            let exact = a.sub(&b).ok().and_then(|d| single_name(&d));
            single += usize::from(exact.is_some());
            if surely_not_single_name(&a, &b) {
                rejected += 1;
                assert_eq!(exact, None, "{a} - {b}");
            }
        }
        assert!(rejected > 1000 && single > 100, "{rejected} {single}");
    }

    /// The fast path for conditions linear in names answers exactly as the general rewriting.
    #[test]
    fn the_linear_fast_path_agrees_with_the_general_procedure() {
        let pool = [
            "M % 128 == 0",
            "M % 2 == 1",
            "K >= 64",
            "K <= 200",
            "P == 4*Q + 1",
            "M == 2*K",
            "Q <= 1",
            "Q >= 1",
            "K % 8 == 3",
            "P > 5",
            "M < 1000",
        ];
        let mut r = Rng(0x5EED_1234_ABCD_0001);
        let (mut fast, mut cases) = (0usize, 0usize);
        let mut memo = AtomMemo::default();
        while cases < 6000 {
            let k = r.pick(4);
            let chosen: Vec<&str> = (0..k).map(|_| pool[r.pick(pool.len())]).collect();
            let Ok(mut facts) = Facts::parse(&chosen) else {
                continue;
            };
            if r.pick(4) == 0 {
                facts.set_nonnegative(&["Q".to_string()]).expect("nonneg");
            }
            let (a, b) = (linear(&mut r), linear(&mut r));
            let p = match r.pick(6) {
                0 => Pred::ge(a, b),
                1 => Pred::eq(a, b),
                2 => Pred::ne(a, b),
                3 => Pred::divides(Poly::constant(r.int(-64, 64)), a),
                4 => Pred {
                    rel: Rel::NotDivides,
                    lhs: Poly::constant(r.int(0, 16)),
                    rhs: a,
                },
                _ => Pred::divides(Poly::constant(i64::MIN), a),
            };
            cases += 1;
            let general = facts.decide_general(p.as_ref());
            if let Some(v) = facts.decide_linear(p.as_ref(), &mut AtomMemo::default()) {
                fast += 1;
                assert_eq!(Ok(v), general, "{p} under {chosen:?}");
            }
            // One memo across every case (and fact base): atoms rewritten under other facts
            // are forgotten.
            let quick = facts.decide_quick_memo(p.as_ref(), &mut memo);
            assert_eq!(quick.ok(), general.clone().ok(), "{p} under {chosen:?}");
            assert_eq!(
                facts.decide_quick(&p).ok(),
                general.ok(),
                "{p} under {chosen:?}"
            );
        }
        // Most cases take the fast path; the huge coefficients fall back.
        assert!(fast > cases / 3, "{fast} of {cases}");
    }
}
