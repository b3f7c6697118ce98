//! The canonical form: polynomials over atoms (variables and `/ % cdiv gcd max min abs` nodes),
//! under which the ring laws hold by construction.

use super::*;
use std::collections::BTreeMap;

/// A factor of a monomial: a variable or an operation the ring laws cannot open.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A variable.
    Var(String),
    /// Euclidean `a / b`.
    Div(Box<Poly>, Box<Poly>),
    /// Euclidean `a % b`.
    Mod(Box<Poly>, Box<Poly>),
    /// `cdiv(a, b)`.
    CeilDiv(Box<Poly>, Box<Poly>),
    /// `gcd(a, b)` (arguments sorted).
    Gcd(Box<Poly>, Box<Poly>),
    /// `max` of two or more (sorted).
    Max(Vec<Poly>),
    /// `min` of two or more (sorted).
    Min(Vec<Poly>),
    /// `abs(a)`.
    Abs(Box<Poly>),
}

/// A polynomial: monomial (sorted atoms, with repetition) → nonzero coefficient.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Poly {
    pub(super) terms: BTreeMap<Vec<Atom>, i64>,
}

pub(super) type Mono = (Vec<Atom>, i64);

pub(super) fn check_size(p: &Poly) -> Result<()> {
    if p.terms.len() > MAX_TERMS {
        return Err(SimplifyError::TooLarge {
            what: "terms",
            limit: MAX_TERMS,
        });
    }
    Ok(())
}

impl Poly {
    /// The constant `c`.
    ///
    /// Pre: none. Post: `as_const() == Some(c)`. Example: `Poly::constant(0)` has no terms.
    pub fn constant(c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Poly { terms }
    }

    /// The variable `name`.
    ///
    /// Pre: none. Post: one term, coefficient 1. Example: `Poly::var("i0").to_string() == "i0"`.
    pub fn var(name: &str) -> Poly {
        Poly::atom(Atom::Var(name.to_string()))
    }

    /// The atom `a` as a polynomial.
    ///
    /// Pre: none. Post: one term `1 * a`. Example: `Poly::atom(Atom::Var("x".into()))`.
    pub fn atom(a: Atom) -> Poly {
        let mut terms = BTreeMap::new();
        terms.insert(vec![a], 1);
        Poly { terms }
    }

    pub(super) fn mono(atoms: Vec<Atom>, c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(atoms, c);
        }
        Poly { terms }
    }

    /// The value if constant.
    ///
    /// Pre: none. Post: `Some(c)` iff no term has an atom. Example: `Poly::constant(3).as_const()
    /// == Some(3)`.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    pub(super) fn as_atom(&self) -> Option<&Atom> {
        match self.as_monomial() {
            Some((atoms, 1)) if atoms.len() == 1 => atoms.first(),
            _ => None,
        }
    }

    pub(super) fn as_monomial(&self) -> Option<(&Vec<Atom>, i64)> {
        if self.terms.len() == 1 {
            self.terms.iter().next().map(|(a, c)| (a, *c))
        } else {
            None
        }
    }

    /// The terms, monomial → coefficient.
    ///
    /// Pre: none. Post: no zero coefficient. Example: `2 * x + 1` has two terms.
    pub fn terms(&self) -> impl Iterator<Item = (&[Atom], i64)> {
        self.terms.iter().map(|(a, c)| (a.as_slice(), *c))
    }

    pub(super) fn add_term(&mut self, atoms: Vec<Atom>, c: i64) -> Result<()> {
        if c == 0 {
            return Ok(());
        }
        let e = self.terms.entry(atoms).or_insert(0);
        *e = e.checked_add(c).ok_or(ov("add"))?;
        if *e == 0 {
            self.terms.retain(|_, v| *v != 0);
        }
        Ok(())
    }

    /// `self + o`.
    ///
    /// Pre: none. Post: exact, or [`SimplifyError::Overflow`] / [`SimplifyError::TooLarge`].
    /// Example: `x + (-x) == 0`.
    pub fn add(&self, o: &Poly) -> Result<Poly> {
        let mut r = self.clone();
        for (a, c) in &o.terms {
            r.add_term(a.clone(), *c)?;
        }
        check_size(&r)?;
        Ok(r)
    }

    /// `k * self`.
    ///
    /// Pre: none. Post: exact or overflow. Example: `2 * (x + 1) == 2x + 2`.
    pub fn scale(&self, k: i64) -> Result<Poly> {
        let mut r = Poly::default();
        for (a, c) in &self.terms {
            r.add_term(a.clone(), c.checked_mul(k).ok_or(ov("mul"))?)?;
        }
        Ok(r)
    }

    /// `self - o`.
    ///
    /// Pre: none. Post: exact or overflow. Example: `x - x == 0`.
    pub fn sub(&self, o: &Poly) -> Result<Poly> {
        self.add(&o.scale(-1)?)
    }

    /// `self * o`, distributed.
    ///
    /// Pre: none. Post: exact or overflow / too large. Example: `(x + 1) * (x + 1)` has 3 terms.
    pub fn mul(&self, o: &Poly) -> Result<Poly> {
        if self.terms.len().saturating_mul(o.terms.len()) > MAX_TERMS.saturating_mul(4) {
            return Err(SimplifyError::TooLarge {
                what: "terms",
                limit: MAX_TERMS,
            });
        }
        let mut r = Poly::default();
        for (a, c) in &self.terms {
            for (b, d) in &o.terms {
                let mut m = a.clone();
                m.extend(b.iter().cloned());
                m.sort();
                r.add_term(m, c.checked_mul(*d).ok_or(ov("mul"))?)?;
            }
        }
        check_size(&r)?;
        Ok(r)
    }

    /// Converts a surface expression (ring normalisation only, no rewrite rule).
    ///
    /// Pre: none. Post: evaluates like `e` wherever `e` evaluates without overflow. Example:
    /// `i1*i2*3 + i2*i1*6` becomes `9 * i1 * i2`.
    pub fn from_expr(e: &Expr) -> Result<Poly> {
        from_expr_depth(e, 0)
    }

    /// Evaluates with Euclidean division.
    ///
    /// Pre: none. Post: as [`Expr::eval`]. Example: `x % 4` at `x = -1` is `3`.
    pub fn eval(&self, env: &Env) -> Option<i64> {
        let mut s: i64 = 0;
        for (atoms, c) in &self.terms {
            let mut t = *c;
            for a in atoms {
                t = t.checked_mul(a.eval(env)?)?;
            }
            s = s.checked_add(t)?;
        }
        Some(s)
    }
}

impl Atom {
    /// Evaluates an atom.
    ///
    /// Pre: none. Post: as [`Expr::eval`]. Example: `gcd(-4, 6)` is `2`.
    pub fn eval(&self, env: &Env) -> Option<i64> {
        match self {
            Atom::Var(v) => env.get(v).copied(),
            Atom::Div(a, b) => a.eval(env)?.checked_div_euclid(b.eval(env)?),
            Atom::Mod(a, b) => a.eval(env)?.checked_rem_euclid(b.eval(env)?),
            Atom::CeilDiv(a, b) => cdiv_i64(a.eval(env)?, b.eval(env)?),
            Atom::Gcd(a, b) => gcd_i64(a.eval(env)?, b.eval(env)?),
            Atom::Max(xs) => {
                let mut m: Option<i64> = None;
                for x in xs {
                    let v = x.eval(env)?;
                    m = Some(m.map_or(v, |m| m.max(v)));
                }
                m
            }
            Atom::Min(xs) => {
                let mut m: Option<i64> = None;
                for x in xs {
                    let v = x.eval(env)?;
                    m = Some(m.map_or(v, |m| m.min(v)));
                }
                m
            }
            Atom::Abs(a) => a.eval(env)?.checked_abs(),
        }
    }
}

pub(super) fn from_expr_depth(e: &Expr, depth: usize) -> Result<Poly> {
    if depth > 4 * MAX_DEPTH {
        return Err(SimplifyError::TooLarge {
            what: "nesting depth",
            limit: MAX_DEPTH,
        });
    }
    let rec = |x: &Expr| from_expr_depth(x, depth + 1);
    Ok(match e {
        Expr::Const(c) => Poly::constant(*c),
        Expr::Var(v) => Poly::var(v),
        Expr::Neg(a) => rec(a)?.scale(-1)?,
        Expr::Abs(a) => Poly::atom(Atom::Abs(Box::new(rec(a)?))),
        Expr::Bin(op, a, b) => {
            let (x, y) = (rec(a)?, rec(b)?);
            match op {
                BinOp::Add => x.add(&y)?,
                BinOp::Sub => x.sub(&y)?,
                BinOp::Mul => x.mul(&y)?,
                BinOp::Div => Poly::atom(Atom::Div(Box::new(x), Box::new(y))),
                BinOp::Mod => Poly::atom(Atom::Mod(Box::new(x), Box::new(y))),
                BinOp::CeilDiv => Poly::atom(Atom::CeilDiv(Box::new(x), Box::new(y))),
                BinOp::Gcd => {
                    let (x, y) = if x <= y { (x, y) } else { (y, x) };
                    Poly::atom(Atom::Gcd(Box::new(x), Box::new(y)))
                }
                BinOp::Max | BinOp::Min => {
                    let mut xs = Vec::new();
                    for p in [x, y] {
                        match p.as_atom() {
                            Some(Atom::Max(v)) if *op == BinOp::Max => xs.extend(v.iter().cloned()),
                            Some(Atom::Min(v)) if *op == BinOp::Min => xs.extend(v.iter().cloned()),
                            _ => xs.push(p),
                        }
                    }
                    xs.sort();
                    Poly::atom(if *op == BinOp::Max {
                        Atom::Max(xs)
                    } else {
                        Atom::Min(xs)
                    })
                }
            }
        }
    })
}

/// Removes the multiset `sub` from sorted `atoms`, if contained.
pub(super) fn atoms_minus(atoms: &[Atom], sub: &[Atom]) -> Option<Vec<Atom>> {
    let mut rest = atoms.to_vec();
    for s in sub {
        let i = rest.iter().position(|a| a == s)?;
        rest.remove(i);
    }
    Some(rest)
}

/// `a / m` for a monomial `m`, when every term of `a` is a multiple of `m`.
pub(super) fn exact_div(a: &Poly, b: &Poly) -> Option<Poly> {
    let (matoms, mc) = b.as_monomial()?;
    let mut r = Poly::default();
    for (atoms, c) in &a.terms {
        if c % mc != 0 {
            return None;
        }
        let rest = atoms_minus(atoms, matoms)?;
        r.add_term(rest, c / mc).ok()?;
    }
    Some(r)
}

/// Common monomial factor of all terms of all `ps`: (positive coefficient gcd, common atoms).
pub(super) fn common_factor(ps: &[&Poly]) -> Option<Poly> {
    let mut g: Option<(i64, Vec<Atom>)> = None;
    for p in ps {
        for (atoms, c) in &p.terms {
            g = Some(match g {
                None => (c.checked_abs()?, atoms.clone()),
                Some((gc, ga)) => {
                    let mut common = Vec::new();
                    let mut rest = atoms.clone();
                    for a in ga {
                        if let Some(i) = rest.iter().position(|x| *x == a) {
                            rest.remove(i);
                            common.push(a);
                        }
                    }
                    (gcd_i64(gc, *c)?, common)
                }
            });
        }
    }
    g.map(|(c, a)| Poly::mono(a, c))
}
