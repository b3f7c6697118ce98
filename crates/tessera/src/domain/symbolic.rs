//! Symbolic extents and the facts known about their symbols.
//!
//! An extent is a small expression over named symbols (`N`, `M`) and integer constants. Facts
//! (`N % 8 == 0`, `N >= 1`, `N == 20`) let the engine decide divisibility and positivity without a
//! value; what the facts cannot decide becomes a runtime obligation, to be validated at launch
//! (as nvFuser's `GpuLower::validate` does).

use super::error::{self, Error, Result};
use std::collections::BTreeMap;
use std::fmt;

/// An extent: a constant, a symbol, or an expression the transforms build from them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Extent {
    /// A known integer.
    Const(i64),
    /// A named symbol, e.g. `N`.
    Sym(String),
    /// `e + c` (resize by a constant total amount).
    Add(Box<Extent>, i64),
    /// `a + b` (strided allocation spans).
    Plus(Box<Extent>, Box<Extent>),
    /// `a * b` (merge).
    Mul(Box<Extent>, Box<Extent>),
    /// `ceilDiv(e, c)` with `c > 0` (split).
    CeilDiv(Box<Extent>, i64),
}

impl fmt::Display for Extent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extent::Const(c) => write!(f, "{c}"),
            Extent::Sym(s) => write!(f, "{s}"),
            Extent::Add(e, c) if *c < 0 => write!(f, "({e} - {})", c.unsigned_abs()),
            Extent::Add(e, c) => write!(f, "({e} + {c})"),
            Extent::Mul(a, b) => write!(f, "{a} * {b}"),
            Extent::Plus(..) => {
                // A tree of `+` prints flat, `(a + b + c)`, whatever its shape (see `Extent::sum`).
                fn terms(e: &Extent, f: &mut fmt::Formatter<'_>, first: &mut bool) -> fmt::Result {
                    match e {
                        Extent::Plus(a, b) => {
                            terms(a, f, first)?;
                            terms(b, f, first)
                        }
                        _ => {
                            if !std::mem::replace(first, false) {
                                f.write_str(" + ")?;
                            }
                            write!(f, "{e}")
                        }
                    }
                }
                f.write_str("(")?;
                terms(self, f, &mut true)?;
                f.write_str(")")
            }
            Extent::CeilDiv(e, c) => write!(f, "ceilDiv({e}, {c})"),
        }
    }
}

impl Extent {
    /// `e + c`, folded when `e` is constant.
    ///
    /// Pre: none. Post: the result denotes `e + c`; overflow of a constant fold is an error.
    /// Example: `Extent::Const(6).add(2) == Ok(Extent::Const(8))`.
    pub fn add(&self, c: i64) -> Result<Extent> {
        Ok(match self {
            _ if c == 0 => self.clone(),
            Extent::Const(a) => Extent::Const(error::add(*a, c)?),
            Extent::Add(e, b) => Extent::Add(e.clone(), error::add(*b, c)?).normalized(),
            _ => Extent::Add(Box::new(self.clone()), c),
        })
    }

    fn normalized(self) -> Extent {
        match self {
            Extent::Add(e, 0) => *e,
            other => other,
        }
    }

    /// `a * b`, folded when both are constant.
    ///
    /// Example: `Extent::Const(2).mul(&Extent::Const(3)) == Ok(Extent::Const(6))`.
    ///
    /// Pre: none. Post: the result denotes `a * b`; overflow of a constant fold is an error.
    pub fn mul(&self, other: &Extent) -> Result<Extent> {
        Ok(match (self, other) {
            (Extent::Const(a), Extent::Const(b)) => Extent::Const(error::mul(*a, *b)?),
            (Extent::Const(1), e) | (e, Extent::Const(1)) => e.clone(),
            _ => Extent::Mul(Box::new(self.clone()), Box::new(other.clone())),
        })
    }

    /// `a + b`, folded when both are constant. It copies both operands: to add many terms use
    /// [`Extent::sum`] (linear), not a chain of `plus` (quadratic).
    ///
    /// Example: `Extent::Const(2).plus(&Extent::Const(3)) == Ok(Extent::Const(5))`.
    ///
    /// Pre: none. Post: the result denotes `a + b`; overflow of a constant fold is an error.
    pub fn plus(&self, other: &Extent) -> Result<Extent> {
        Ok(match (self, other) {
            (Extent::Const(a), Extent::Const(b)) => Extent::Const(error::add(*a, *b)?),
            (e, Extent::Const(c)) | (Extent::Const(c), e) => e.add(*c)?,
            _ => {
                super::steps::tick(self.nodes() + other.nodes());
                Extent::Plus(Box::new(self.clone()), Box::new(other.clone()))
            }
        })
    }

    /// The sum of `terms`, built in O(k) as a balanced tree of depth O(log k) (a left fold of
    /// [`Extent::plus`] copies its accumulator at every step: O(k²) for k symbolic terms, and a
    /// tree of depth k that printing and evaluating recurse through).
    ///
    /// Constant terms, and the constants of `e + c` terms, are gathered into one constant added
    /// last; the other terms keep their order.
    ///
    /// Pre: none. Post: denotes `Σ terms` (the empty sum is `0`); a constant overflow is an error;
    /// prints flat, `((N + M) - 1)`. Example: `[N - 1, 1, M]` gives `(N + M)`.
    pub fn sum<'e>(terms: impl IntoIterator<Item = &'e Extent>) -> Result<Extent> {
        let mut lead: i64 = 0;
        let mut rest: Vec<&Extent> = Vec::new();
        for t in terms {
            match t {
                Extent::Const(c) => lead = error::add(lead, *c)?,
                Extent::Add(e, c) => {
                    lead = error::add(lead, *c)?;
                    rest.push(e);
                }
                _ => rest.push(t),
            }
        }
        fn build(v: &[&Extent]) -> Extent {
            if v.len() == 1 {
                super::steps::tick(v[0].nodes());
                return v[0].clone();
            }
            let (a, b) = v.split_at(v.len() / 2);
            Extent::Plus(Box::new(build(a)), Box::new(build(b)))
        }
        Ok(match (rest.is_empty(), lead) {
            (true, _) => Extent::Const(lead),
            (false, 0) => build(&rest),
            (false, _) => Extent::Add(Box::new(build(&rest)), lead),
        })
    }

    /// `ceilDiv(e, c)` for `c > 0`, folded when `e` is constant (Euclidean ceiling division) and
    /// flattened when `e` is itself a ceiling division (Theorem 5.11 of integer-division.md).
    ///
    /// Example: `Extent::Const(15).ceil_div(6) == Ok(Extent::Const(3))`.
    ///
    /// Pre: `c > 0`. Post: the result denotes `ceilDiv(e, c)`.
    pub fn ceil_div(&self, c: i64) -> Result<Extent> {
        Ok(match self {
            Extent::Const(a) => Extent::Const(error::cdiv(*a, c)?),
            _ if c == 1 => self.clone(),
            // integer-division.md Theorem 5.11: ceilDiv(ceilDiv(e, a), c) = ceilDiv(e, a * c)
            // for a, c > 0 (keeps split chains flat).
            Extent::CeilDiv(e, a) if a.checked_mul(c).is_some() => {
                Extent::CeilDiv(e.clone(), a * c)
            }
            _ => Extent::CeilDiv(Box::new(self.clone()), c),
        })
    }

    /// The product of `factors`, exactly as folding [`Extent::mul`] from `1` left to right would
    /// write it (leading constants folded, later `1`s dropped), but built in O(k) with a
    /// balanced tree of depth O(log k): printing and evaluating many factors stays shallow.
    ///
    /// Pre: none. Post: prints as the left fold does (`*` has no parentheses) and evaluates to the
    /// same value; a constant overflow is an error. Example: `[2, 3, N, 1, M]` gives `6 * N * M`.
    pub fn product<'e>(factors: impl IntoIterator<Item = &'e Extent>) -> Result<Extent> {
        let mut lead: i64 = 1;
        let mut rest: Vec<&Extent> = Vec::new();
        for f in factors {
            match f {
                Extent::Const(c) if rest.is_empty() => lead = error::mul(lead, *c)?,
                Extent::Const(1) => {}
                _ => rest.push(f),
            }
        }
        fn build(v: &[&Extent]) -> Extent {
            if v.len() == 1 {
                return v[0].clone();
            }
            let (a, b) = v.split_at(v.len() / 2);
            Extent::Mul(Box::new(build(a)), Box::new(build(b)))
        }
        Ok(match rest.len() {
            0 => Extent::Const(lead),
            _ if lead == 1 => build(&rest),
            _ => Extent::Mul(Box::new(Extent::Const(lead)), Box::new(build(&rest))),
        })
    }

    /// Number of nodes of the expression (constants, symbols and operations).
    ///
    /// Pre: none. Post: at least 1. Example: `ceilDiv(N, 4)` has 2 nodes (the constant divisor is
    /// part of its node), `N * M` has 3.
    pub fn nodes(&self) -> usize {
        match self {
            Extent::Const(_) | Extent::Sym(_) => 1,
            Extent::Add(e, _) | Extent::CeilDiv(e, _) => 1 + e.nodes(),
            Extent::Mul(a, b) | Extent::Plus(a, b) => 1 + a.nodes() + b.nodes(),
        }
    }

    /// The constant value, if the extent is a literal constant.
    ///
    /// Pre: none. Post: `Some` only for `Const`. Example: `Extent::Const(6).as_const() == Some(6)`.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Extent::Const(c) => Some(*c),
            _ => None,
        }
    }

    /// Symbols occurring in the extent, in order of first occurrence.
    ///
    /// Pre: none. Post: appends unseen symbols to `out`. Example: `ceilDiv(N, 4)` gives `["N"]`.
    pub fn symbols(&self, out: &mut Vec<String>) {
        match self {
            Extent::Const(_) => {}
            Extent::Sym(s) => {
                if !out.contains(s) {
                    out.push(s.clone())
                }
            }
            Extent::Add(e, _) | Extent::CeilDiv(e, _) => e.symbols(out),
            Extent::Mul(a, b) | Extent::Plus(a, b) => {
                a.symbols(out);
                b.symbols(out);
            }
        }
    }

    /// Evaluates the extent with the values in `facts`; `Ok(None)` when a symbol has no value.
    ///
    /// Pre: none. Post: checked arithmetic; ceiling division is Euclidean.
    /// Example: `ceilDiv(N, 4)` with `N == 6` evaluates to `Some(2)`.
    pub fn eval(&self, facts: &Facts) -> Result<Option<i64>> {
        Ok(match self {
            Extent::Const(c) => Some(*c),
            Extent::Sym(s) => facts.value(s),
            Extent::Add(e, c) => match e.eval(facts)? {
                Some(v) => Some(error::add(v, *c)?),
                None => None,
            },
            Extent::Mul(a, b) => match (a.eval(facts)?, b.eval(facts)?) {
                (Some(x), Some(y)) => Some(error::mul(x, y)?),
                _ => None,
            },
            Extent::Plus(a, b) => match (a.eval(facts)?, b.eval(facts)?) {
                (Some(x), Some(y)) => Some(error::add(x, y)?),
                _ => None,
            },
            Extent::CeilDiv(e, c) => match e.eval(facts)? {
                Some(v) => Some(error::cdiv(v, *c)?),
                None => None,
            },
        })
    }

    /// A number that provably divides the extent (1 when nothing better is known).
    ///
    /// Rules: `g(c) = |c|`; `g(N)` = lcm of the moduli `m` of facts `N % m == 0`;
    /// `g(a*b) = g(a)*g(b)`; `g(e + c) = gcd(g(e), |c|)`; `g(ceilDiv(e, c)) = g(e)/c` when `c | g(e)`
    /// (then the division is exact), else 1. Saturates to 1 on overflow (sound: 1 divides all).
    ///
    /// Pre: none. Post: the result divides every value of the extent allowed by the facts.
    /// Example: with `N % 8 == 0`, `ceilDiv(N, 4)` has known divisor 2.
    pub fn known_divisor(&self, facts: &Facts) -> i64 {
        match self {
            Extent::Const(c) => c.checked_abs().unwrap_or(1),
            Extent::Sym(s) => match facts.value(s) {
                Some(v) => v.checked_abs().unwrap_or(1),
                None => facts.divisor(s),
            },
            Extent::Mul(a, b) => a
                .known_divisor(facts)
                .checked_mul(b.known_divisor(facts))
                .unwrap_or(1),
            Extent::Add(e, c) => gcd(e.known_divisor(facts), c.checked_abs().unwrap_or(1)),
            Extent::Plus(a, b) => gcd(a.known_divisor(facts), b.known_divisor(facts)),
            Extent::CeilDiv(e, c) => {
                let g = e.known_divisor(facts);
                if *c > 0 && g % c == 0 {
                    g / c
                } else {
                    1
                }
            }
        }
    }

    /// A proven lower bound of the extent, if any.
    ///
    /// Rules: constants are exact; a symbol uses its `>=` facts (or its value); products of
    /// non-negative bounds multiply; `e + c` adds; `ceilDiv(e, c)` divides (monotone).
    ///
    /// Pre: none. Post: a value no larger than any allowed value of the extent.
    /// Example: with `N >= 3`, `(N - 2)` has lower bound 1.
    pub fn lower_bound(&self, facts: &Facts) -> Option<i64> {
        match self {
            Extent::Const(c) => Some(*c),
            Extent::Sym(s) => facts.value(s).or_else(|| facts.lower(s)),
            Extent::Add(e, c) => e.lower_bound(facts)?.checked_add(*c),
            Extent::Plus(a, b) => a.lower_bound(facts)?.checked_add(b.lower_bound(facts)?),
            Extent::Mul(a, b) => {
                let (x, y) = (a.lower_bound(facts)?, b.lower_bound(facts)?);
                if x >= 0 && y >= 0 {
                    x.checked_mul(y)
                } else {
                    None
                }
            }
            Extent::CeilDiv(e, c) => error::cdiv(e.lower_bound(facts)?, *c).ok(),
        }
    }
}

/// Greatest common divisor of absolute values (`gcd(0, x) = |x|`).
///
/// Pre: none. Post: non-negative; saturates to 1 if `|i64::MIN|` would not fit.
/// Example: `gcd(12, -18) == 6`.
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i64::try_from(a).unwrap_or(1)
}

/// A three-valued answer of the symbolic decision procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Proved.
    Yes,
    /// Refuted.
    No,
    /// The facts do not suffice; a runtime obligation is needed.
    Unknown,
}

impl Decision {
    /// `true` only for [`Decision::Yes`].
    ///
    /// Pre: none. Post: `false` for `No` and `Unknown`. Example: `Decision::Yes.proved()`.
    pub fn proved(self) -> bool {
        self == Decision::Yes
    }
}

/// One fact about a symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// `N % m == 0`.
    Divisible(String, i64),
    /// `N >= c`.
    AtLeast(String, i64),
    /// `N == c` (a binding: enumeration becomes possible).
    Equals(String, i64),
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::Divisible(s, m) => write!(f, "{s} % {m} == 0"),
            Fact::AtLeast(s, c) => write!(f, "{s} >= {c}"),
            Fact::Equals(s, c) => write!(f, "{s} == {c}"),
        }
    }
}

/// The fact base: divisors, lower bounds and values of symbols.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    divisors: BTreeMap<String, i64>,
    lower: BTreeMap<String, i64>,
    values: BTreeMap<String, i64>,
    /// The facts as given, in order.
    pub list: Vec<Fact>,
}

impl Facts {
    /// Adds a fact, checking it against the facts already known.
    ///
    /// Pre: a modulus is positive. Post: the fact base implies the new fact; a value that
    /// contradicts a divisor or bound is a [`Error::Contradiction`], and then the base is
    /// unchanged (the refused fact is neither listed nor used).
    /// Example: adding `N % 8 == 0` then `N == 20` fails (`20 % 8 != 0`).
    pub fn assume(&mut self, fact: Fact) -> Result<()> {
        // The symbol's three facts as they would be after this one; nothing is stored until they
        // are known to be consistent, so a refused fact leaves the base unchanged.
        let sym = match &fact {
            Fact::Divisible(s, _) | Fact::AtLeast(s, _) | Fact::Equals(s, _) => s,
        };
        let mut divisor = self.divisors.get(sym).copied();
        let mut lower = self.lower.get(sym).copied();
        let mut value = self.values.get(sym).copied();
        match &fact {
            Fact::Divisible(s, m) => {
                if *m <= 0 {
                    return Err(Error::Contradiction {
                        symbol: s.clone(),
                        detail: format!("modulus {m} must be positive"),
                    });
                }
                let g = divisor.unwrap_or(1);
                divisor = Some(error::mul(g / gcd(g, *m), *m)?);
            }
            Fact::AtLeast(_, c) => lower = Some(lower.unwrap_or(i64::MIN).max(*c)),
            Fact::Equals(s, c) => {
                if let Some(old) = value.filter(|old| old != c) {
                    return Err(Error::Contradiction {
                        symbol: s.clone(),
                        detail: format!("{s} == {old} and {s} == {c}"),
                    });
                }
                value = Some(*c);
            }
        }
        // Only the fact's own symbol can have become contradictory.
        if let Some(v) = value {
            if let Some(m) = divisor.filter(|m| v.rem_euclid(*m) != 0) {
                return Err(Error::Contradiction {
                    symbol: sym.clone(),
                    detail: format!("{sym} == {v} but {sym} % {m} == 0 is assumed"),
                });
            }
            if let Some(l) = lower.filter(|l| v < *l) {
                return Err(Error::Contradiction {
                    symbol: sym.clone(),
                    detail: format!("{sym} == {v} but {sym} >= {l} is assumed"),
                });
            }
        }
        for (map, new) in [
            (&mut self.divisors, divisor),
            (&mut self.lower, lower),
            (&mut self.values, value),
        ] {
            if let Some(x) = new {
                map.insert(sym.clone(), x);
            }
        }
        self.list.push(fact);
        Ok(())
    }

    /// The value of a symbol, if bound.
    ///
    /// Pre: none. Post: `Some` iff an `==` fact exists. Example: after `N == 20`, `value("N") == Some(20)`.
    pub fn value(&self, s: &str) -> Option<i64> {
        self.values.get(s).copied()
    }
    /// The largest known divisor of a symbol (1 if none).
    ///
    /// Pre: none. Post: lcm of the moduli. Example: after `N % 4 == 0` and `N % 6 == 0`, 12.
    pub fn divisor(&self, s: &str) -> i64 {
        self.divisors.get(s).copied().unwrap_or(1)
    }
    /// The best known lower bound of a symbol.
    ///
    /// Pre: none. Post: the maximum of the `>=` facts. Example: after `N >= 1`, `Some(1)`.
    pub fn lower(&self, s: &str) -> Option<i64> {
        self.lower.get(s).copied()
    }

    /// Decides `f | e`.
    ///
    /// Pre: `f > 0`. Post: `Yes` only if `e % f == 0` for every value of the symbols satisfying
    /// the facts; `No` only if it fails for all of them (here: when `e` evaluates).
    /// Example: with `N % 8 == 0`, `divides(4, N)` is `Yes`; without facts it is `Unknown`.
    pub fn divides(&self, f: i64, e: &Extent) -> Result<Decision> {
        // `0 | e` iff `e == 0`, impossible for an extent >= 1; `-f | e` iff `f | e`.
        let Some(f) = f.checked_abs().filter(|&f| f != 0) else {
            return Ok(if f == 0 {
                Decision::No
            } else {
                Decision::Unknown
            });
        };
        if let Some(v) = e.eval(self)? {
            return Ok(if error::emod(v, f)? == 0 {
                Decision::Yes
            } else {
                Decision::No
            });
        }
        Ok(if e.known_divisor(self) % f == 0 {
            Decision::Yes
        } else {
            Decision::Unknown
        })
    }

    /// Decides `e >= c`.
    ///
    /// Example: with `N >= 1`, `at_least(N, 1)` is `Yes`.
    ///
    /// Pre: none. Post: `Yes` only if every allowed value is `>= c`; `No` only when `e` evaluates below `c`.
    pub fn at_least(&self, e: &Extent, c: i64) -> Result<Decision> {
        if let Some(v) = e.eval(self)? {
            return Ok(if v >= c { Decision::Yes } else { Decision::No });
        }
        Ok(match e.lower_bound(self) {
            Some(l) if l >= c => Decision::Yes,
            _ => Decision::Unknown,
        })
    }
}
