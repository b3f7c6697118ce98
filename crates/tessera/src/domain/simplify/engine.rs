//! The rewriting engine: assumptions turned into facts, the prover ([`Context::proves_ge`]) and
//! the rule applications to a fixed point.

use super::*;
use std::collections::{BTreeMap, HashMap};

/// Assumptions turned into facts `f >= 0`, per-atom ranges, caches and the rule log.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub(super) facts: Vec<Poly>,
    pub(super) ranges: BTreeMap<Atom, Interval>,
    pub(super) simp_cache: HashMap<Atom, Poly>,
    pub(super) iv_cache: HashMap<Atom, Interval>,
    pub(super) steps: usize,
    pub(super) log: Vec<Rule>,
}

impl Context {
    /// Builds a context from assumptions.
    ///
    /// Pre: none. Post: every comparison becomes facts `f >= 0` (`a < b` is `b - a - 1 >= 0`,
    /// `==` two facts, `!=` none); a fact linear in one atom bounds that atom; at most
    /// [`MAX_FACTS`] facts are kept. `false`, a negative constant fact or an empty range is
    /// [`SimplifyError::Contradiction`]. Example: `0 <= i0 < 32` bounds `i0` to `[0, 31]`.
    pub fn new(assumptions: &[CPred]) -> Result<Context> {
        let mut ctx = Context::default();
        let mut stack: Vec<CPred> = assumptions.to_vec();
        stack.reverse();
        while let Some(p) = stack.pop() {
            match p {
                CPred::Bool(true) => {}
                CPred::Bool(false) => {
                    return Err(SimplifyError::Contradiction("`false` is assumed".into()))
                }
                CPred::And(v) => stack.extend(v.into_iter().rev()),
                CPred::Cmp(a, op, b) => {
                    let fs = match op {
                        CmpOp::Lt => vec![b.sub(&a)?.add(&Poly::constant(-1))?],
                        CmpOp::Le => vec![b.sub(&a)?],
                        CmpOp::Gt => vec![a.sub(&b)?.add(&Poly::constant(-1))?],
                        CmpOp::Ge => vec![a.sub(&b)?],
                        CmpOp::Eq => vec![b.sub(&a)?, a.sub(&b)?],
                        CmpOp::Ne => vec![],
                    };
                    for f in fs {
                        ctx.add_fact(f)?;
                    }
                }
            }
        }
        for (a, iv) in &ctx.ranges {
            if let (Some(l), Some(h)) = (iv.lo, iv.hi) {
                if l > h {
                    return Err(SimplifyError::Contradiction(format!(
                        "{} is assumed in [{l}, {h}]",
                        Poly::atom(a.clone())
                    )));
                }
            }
        }
        Ok(ctx)
    }

    pub(super) fn add_fact(&mut self, f: Poly) -> Result<()> {
        if let Some(c) = f.as_const() {
            if c < 0 {
                return Err(SimplifyError::Contradiction(format!(
                    "an assumption reduces to {c} >= 0"
                )));
            }
            return Ok(());
        }
        // k * atom + c >= 0 bounds the atom.
        let c = f.terms.get(&Vec::new()).copied().unwrap_or(0);
        let nonconst: Vec<(&Vec<Atom>, i64)> = f
            .terms
            .iter()
            .filter(|(a, _)| !a.is_empty())
            .map(|(a, k)| (a, *k))
            .collect();
        if let [(atoms, k)] = nonconst.as_slice() {
            if let [atom] = atoms.as_slice() {
                let (c, k) = (i128::from(c), i128::from(*k));
                let iv = if k > 0 {
                    Interval::at_least(-(c.div_euclid(k)))
                } else {
                    Interval {
                        lo: None,
                        hi: Some(c.div_euclid(-k)),
                    }
                };
                let e = self.ranges.entry(atom.clone()).or_insert(Interval::FULL);
                *e = e.intersect(iv);
            }
        }
        if self.facts.len() < MAX_FACTS {
            self.facts.push(f);
        }
        Ok(())
    }

    /// The rules applied so far, in first-use order.
    ///
    /// Pre: none. Post: no duplicates. Example: after `i0 / 2 / 3` it contains `DoubleDiv`.
    pub fn rules(&self) -> &[Rule] {
        &self.log
    }

    pub(super) fn fire(&mut self, r: Rule) {
        if !self.log.contains(&r) {
            self.log.push(r);
        }
    }

    pub(super) fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(SimplifyError::TooLarge {
                what: "rewrite steps",
                limit: MAX_STEPS,
            });
        }
        Ok(())
    }

    // -- intervals and the prover ------------------------------------------------------------

    /// An interval containing every value of `p` under the assumptions.
    ///
    /// Pre: none. Post: sound for every assignment satisfying the assumptions at which `p` is
    /// defined. Example: `8 * i0 + i1` under `0 <= i0 < 32, 0 <= i1 < 8` is `[0, 255]`.
    pub fn interval(&mut self, p: &Poly) -> Interval {
        let mut acc = Interval::point(0);
        for (atoms, c) in &p.terms {
            let mut t = Interval::point(i128::from(*c));
            for a in atoms {
                let ia = self.atom_interval(a);
                t = t.mul(ia);
            }
            acc = acc.add(t);
        }
        acc
    }

    pub(super) fn atom_interval(&mut self, a: &Atom) -> Interval {
        if let Some(iv) = self.iv_cache.get(a) {
            return *iv;
        }
        let base = match a {
            Atom::Var(_) => Interval::FULL,
            Atom::Div(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                if iy.lo.is_some_and(|l| l >= 1) {
                    ix.div_pos(iy)
                } else if iy.hi.is_some_and(|h| h <= -1) {
                    ix.div_pos(iy.neg()).neg()
                } else {
                    Interval::FULL
                }
            }
            Atom::Mod(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                let mut hi = iy.max_abs().map(|m| m - 1);
                if ix.lo.is_some_and(|l| l >= 0) {
                    hi = match (hi, ix.hi) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
                Interval { lo: Some(0), hi }
            }
            Atom::CeilDiv(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                ix.ceil_div_pos(iy)
            }
            Atom::Gcd(x, y) => {
                let (ix, iy) = (self.interval(x), self.interval(y));
                let lo = i128::from(ix.excludes_zero() || iy.excludes_zero());
                let hi = match (ix.max_abs(), iy.max_abs()) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (Some(a), None) if ix.excludes_zero() => Some(a),
                    (None, Some(b)) if iy.excludes_zero() => Some(b),
                    _ => None,
                };
                Interval { lo: Some(lo), hi }
            }
            Atom::Max(xs) | Atom::Min(xs) => {
                let is_max = matches!(a, Atom::Max(_));
                let ivs: Vec<Interval> = xs.iter().map(|x| self.interval(x)).collect();
                let pick = |v: Vec<Option<i128>>, lower_bound: bool| -> Option<i128> {
                    // For max: lo = max of los (None = -inf loses), hi = max of his (None wins).
                    // For min: lo = min of los (None wins), hi = min of his (None loses).
                    let none_wins = is_max != lower_bound;
                    if none_wins && v.iter().any(|x| x.is_none()) {
                        return None;
                    }
                    let fin = v.into_iter().flatten();
                    if is_max {
                        fin.max()
                    } else {
                        fin.min()
                    }
                };
                Interval {
                    lo: pick(ivs.iter().map(|i| i.lo).collect(), true),
                    hi: pick(ivs.iter().map(|i| i.hi).collect(), false),
                }
            }
            Atom::Abs(x) => {
                let ix = self.interval(x);
                if ix.lo.is_some_and(|l| l >= 0) {
                    ix
                } else if ix.hi.is_some_and(|h| h <= 0) {
                    ix.neg()
                } else {
                    Interval {
                        lo: Some(0),
                        hi: ix.max_abs(),
                    }
                }
            }
        };
        let iv = match self.ranges.get(a) {
            Some(r) => base.intersect(*r),
            None => base,
        };
        self.iv_cache.insert(a.clone(), iv);
        iv
    }

    /// Tries to prove `p >= k` under the assumptions.
    ///
    /// Pre: none. Post: `true` only if `p >= k` for every assignment satisfying the assumptions
    /// at which `p` is defined: by the interval of `p`, of `p - f`, or of `p - f - g` for facts
    /// `f, g >= 0`. Example: `i1 - i0 >= 1` from `i0 < i1`.
    pub fn proves_ge(&mut self, p: &Poly, k: i64) -> bool {
        let k = i128::from(k);
        let ok = |iv: Interval| iv.lo.is_some_and(|l| l >= k);
        if ok(self.interval(p)) {
            return true;
        }
        let mut facts = self.facts.clone();
        // `0 <= x % y < y` for every remainder of `p` whose divisor is provably non-negative.
        let mods: Vec<(Atom, Poly)> = p
            .terms
            .keys()
            .flatten()
            .filter_map(|a| match a {
                Atom::Mod(_, y) => Some((a.clone(), (**y).clone())),
                _ => None,
            })
            .collect();
        for (m, y) in mods.into_iter().take(4) {
            if self.proves_ge(&y, 0) {
                if let Ok(f) = y
                    .sub(&Poly::atom(m))
                    .and_then(|d| d.add(&Poly::constant(-1)))
                {
                    facts.push(f);
                }
            }
        }
        let mut diffs = Vec::new();
        for f in &facts {
            if let Ok(d) = p.sub(f) {
                if ok(self.interval(&d)) {
                    return true;
                }
                diffs.push(d);
            }
        }
        if facts.len() <= 16 {
            for (i, d) in diffs.iter().enumerate() {
                for g in facts.iter().skip(i + 1) {
                    if let Ok(e) = d.sub(g) {
                        if ok(self.interval(&e)) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    pub(super) fn lt(&mut self, a: &Poly, b: &Poly) -> bool {
        b.sub(a).is_ok_and(|d| self.proves_ge(&d, 1))
    }

    pub(super) fn le(&mut self, a: &Poly, b: &Poly) -> bool {
        b.sub(a).is_ok_and(|d| self.proves_ge(&d, 0))
    }

    pub(super) fn nonneg(&mut self, a: &Poly) -> bool {
        self.proves_ge(a, 0)
    }

    pub(super) fn positive(&mut self, a: &Poly) -> bool {
        self.proves_ge(a, 1)
    }

    /// Whether `p` is defined at every assignment satisfying the assumptions: every `/` and `%`
    /// divisor is provably nonzero and every `cdiv` divisor provably positive.
    pub(super) fn is_total(&mut self, p: &Poly) -> bool {
        let atoms: Vec<Atom> = p.terms.keys().flatten().cloned().collect();
        atoms.iter().all(|a| match a {
            Atom::Var(_) => true,
            Atom::Div(x, y) | Atom::Mod(x, y) => {
                self.is_total(x)
                    && self.is_total(y)
                    && (self.proves_ge(y, 1) || y.scale(-1).is_ok_and(|n| self.proves_ge(&n, 1)))
            }
            Atom::CeilDiv(x, y) => self.is_total(x) && self.is_total(y) && self.proves_ge(y, 1),
            Atom::Gcd(x, y) => self.is_total(x) && self.is_total(y),
            Atom::Max(xs) | Atom::Min(xs) => xs.iter().all(|x| self.is_total(x)),
            Atom::Abs(x) => self.is_total(x),
        })
    }

    pub(super) fn is_total_pred(&mut self, c: &CPred) -> bool {
        match c {
            CPred::Bool(_) => true,
            CPred::Cmp(a, _, b) => self.is_total(a) && self.is_total(b),
            CPred::And(v) => v.iter().all(|x| self.is_total_pred(x)),
        }
    }

    // -- expressions -------------------------------------------------------------------------

    /// Simplifies a polynomial to a fixed point (at most 16 rounds).
    ///
    /// Pre: none. Post: equal to `p` wherever `p` is defined under the assumptions. Example:
    /// `((8*i0)+i1) % 128` under `0 <= i0 < 32, 0 <= i1 < 8` is `(i0 % 16) * 8 + i1`.
    pub fn simplify(&mut self, p: &Poly) -> Result<Poly> {
        let mut cur = p.clone();
        for _ in 0..MAX_ROUNDS {
            let next = self.pass(&cur)?;
            if next == cur {
                break;
            }
            cur = next;
        }
        Ok(cur)
    }

    pub(super) fn pass(&mut self, p: &Poly) -> Result<Poly> {
        let mut out = Poly::default();
        for (atoms, c) in &p.terms {
            let mut t = Poly::constant(*c);
            for a in atoms {
                let s = self.simplify_atom(a)?;
                t = t.mul(&s)?;
            }
            out = out.add(&t)?;
        }
        self.fundamental(out)
    }

    pub(super) fn simplify_atom(&mut self, a: &Atom) -> Result<Poly> {
        if let Some(p) = self.simp_cache.get(a) {
            return Ok(p.clone());
        }
        self.step()?;
        let r = match a {
            Atom::Var(_) => Poly::atom(a.clone()),
            Atom::Div(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                nonzero_divisor(&x, &y, "/")?;
                self.div(x, y, FUEL)?
            }
            Atom::Mod(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                nonzero_divisor(&x, &y, "%")?;
                self.rem(x, y, FUEL)?
            }
            Atom::CeilDiv(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                nonzero_divisor(&x, &y, "cdiv")?;
                self.ceil_div(x, y)?
            }
            Atom::Gcd(x, y) => {
                let (x, y) = (self.simplify(x)?, self.simplify(y)?);
                self.gcd(x, y)?
            }
            Atom::Abs(x) => {
                let x = self.simplify(x)?;
                self.abs(x)?
            }
            Atom::Max(xs) | Atom::Min(xs) => {
                let mut v = Vec::new();
                for x in xs {
                    v.push(self.simplify(x)?);
                }
                self.max_min(matches!(a, Atom::Max(_)), v)?
            }
        };
        self.simp_cache.insert(a.clone(), r.clone());
        Ok(r)
    }

    pub(super) fn div(&mut self, a: Poly, b: Poly, fuel: usize) -> Result<Poly> {
        let keep = |a: Poly, b: Poly| Poly::atom(Atom::Div(Box::new(a), Box::new(b)));
        if fuel == 0 || b.as_const() == Some(0) {
            return Ok(keep(a, b));
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(x.checked_div_euclid(y).ok_or(ov("div"))?));
        }
        if b.as_const() == Some(1) || a.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            return a.scale(i64::from(b.as_const() == Some(1)));
        }
        // idiv_2_5
        if self.nonneg(&a) && (self.lt(&a, &b) || self.lt(&a, &b.scale(-1)?)) {
            self.fire(Rule::DivModLessThan);
            return Ok(Poly::default());
        }
        // ediv_of: a = b * q
        if let Some(q) = exact_div(&a, &b) {
            self.fire(Rule::SimplifyDivisibleDivMod);
            return Ok(q);
        }
        // idiv_2_11 with the common factor as the first divisor
        if let Some((_, a2, b2)) = self.cancellable(&a, &b) {
            self.fire(Rule::CancelDivMod);
            return self.div(a2, b2, fuel - 1);
        }
        // idiv_2_15_1
        if let Some((d, r)) = split_divisible(&a, &b) {
            self.fire(Rule::DistributeDivisibleDivMod);
            let q = exact_div(&d, &b).ok_or(ov("div"))?;
            let rest = self.div(r, b, fuel - 1)?;
            return q.add(&rest);
        }
        // idiv_2_15_2
        if let Some(big) = self.gcd_remainder(&a, &b) {
            self.fire(Rule::DistributeGcdRemainderDivMod);
            return self.div(big, b, fuel - 1);
        }
        // idiv_2_11: (x / c) / b = x / (c * b), c > 0
        if let Some(Atom::Div(x, c)) = a.as_atom() {
            if self.positive(c) {
                let (x, cb) = ((**x).clone(), c.mul(&b)?);
                self.fire(Rule::DoubleDiv);
                return self.div(x, cb, fuel - 1);
            }
        }
        Ok(keep(a, b))
    }

    pub(super) fn rem(&mut self, a: Poly, b: Poly, fuel: usize) -> Result<Poly> {
        let keep = |a: Poly, b: Poly| Poly::atom(Atom::Mod(Box::new(a), Box::new(b)));
        if fuel == 0 || b.as_const() == Some(0) {
            return Ok(keep(a, b));
        }
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(x.checked_rem_euclid(y).ok_or(ov("mod"))?));
        }
        if matches!(b.as_const(), Some(1 | -1)) || a.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::default());
        }
        // idiv_2_5
        if self.nonneg(&a) && (self.lt(&a, &b) || self.lt(&a, &b.scale(-1)?)) {
            self.fire(Rule::DivModLessThan);
            return Ok(a);
        }
        // idiv_2_9
        if exact_div(&a, &b).is_some() {
            self.fire(Rule::SimplifyDivisibleDivMod);
            return Ok(Poly::default());
        }
        // idiv_2_13
        if let Some((g, a2, b2)) = self.cancellable(&a, &b) {
            self.fire(Rule::CancelDivMod);
            return self.rem(a2, b2, fuel - 1)?.mul(&g);
        }
        // idiv_2_7_1
        if let Some((_, r)) = split_divisible(&a, &b) {
            self.fire(Rule::DistributeDivisibleDivMod);
            return self.rem(r, b, fuel - 1);
        }
        // idiv_2_7_2
        if let Some(big) = self.gcd_remainder(&a, &b) {
            self.fire(Rule::DistributeGcdRemainderDivMod);
            let small = a.sub(&big)?;
            return self.rem(big, b, fuel - 1)?.add(&small);
        }
        // (x % c) % b = x % b when b > 0 and b | c
        if let Some(Atom::Mod(x, c)) = a.as_atom() {
            if exact_div(c, &b).is_some() && self.positive(&b) {
                let x = (**x).clone();
                self.fire(Rule::ModOfMod);
                return self.rem(x, b, fuel - 1);
            }
        }
        Ok(keep(a, b))
    }

    /// The common factor `g != 1` of `a` and `b` with `g >= 0` provable, and `a / g`, `b / g`.
    /// When the full factor's sign is unknown, its positive constant part is used.
    pub(super) fn cancellable(&mut self, a: &Poly, b: &Poly) -> Option<(Poly, Poly, Poly)> {
        let g = common_factor(&[a, b])?;
        let (atoms, c) = g.as_monomial()?;
        let mut cands = vec![g.clone()];
        if !atoms.is_empty() {
            cands.push(Poly::constant(c));
        }
        for g in cands {
            if g.as_const() == Some(1) || g.as_const() == Some(0) || !self.nonneg(&g) {
                continue;
            }
            if let (Some(a2), Some(b2)) = (exact_div(a, &g), exact_div(b, &g)) {
                return Some((g, a2, b2));
            }
        }
        None
    }

    /// A proper part `A` of the sum `a` with a common divisor `g` of `A` and `b` such that
    /// `0 <= a - A < g` is provable.
    pub(super) fn gcd_remainder(&mut self, a: &Poly, b: &Poly) -> Option<Poly> {
        let terms: Vec<Mono> = a.terms.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let n = terms.len();
        if !(2..=MAX_SUBSET_TERMS).contains(&n) {
            return None;
        }
        for size in 1..n {
            for mask in 1u32..(1u32 << n) - 1 {
                if mask.count_ones() as usize != size {
                    continue;
                }
                let mut small = Poly::default();
                let mut big = Poly::default();
                for (i, (k, v)) in terms.iter().enumerate() {
                    let t = if mask & (1 << i) != 0 {
                        &mut small
                    } else {
                        &mut big
                    };
                    t.add_term(k.clone(), *v).ok()?;
                }
                let Some(g) = common_factor(&[&big, b]) else {
                    continue;
                };
                if g.as_const() == Some(1) {
                    continue;
                }
                if self.nonneg(&small) && self.lt(&small, &g) {
                    return Some(big);
                }
            }
        }
        None
    }

    pub(super) fn ceil_div(&mut self, a: Poly, b: Poly) -> Result<Poly> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            if let Some(v) = cdiv_i64(x, y) {
                self.fire(Rule::EliminateTrivialComputation);
                return Ok(Poly::constant(v));
            }
        }
        if b.as_const() == Some(1) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(a);
        }
        if b.as_const().is_none_or(|c| c > 0) {
            if let Some(q) = exact_div(&a, &b) {
                self.fire(Rule::SimplifyDivisibleDivMod);
                return Ok(q);
            }
        }
        Ok(Poly::atom(Atom::CeilDiv(Box::new(a), Box::new(b))))
    }

    pub(super) fn gcd(&mut self, a: Poly, b: Poly) -> Result<Poly> {
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(gcd_i64(x, y).ok_or(ov("gcd"))?));
        }
        if a.as_const() == Some(0) || b.as_const() == Some(0) {
            self.fire(Rule::EliminateTrivialComputation);
            let other = if a.as_const() == Some(0) { b } else { a };
            return self.abs(other);
        }
        if matches!(a.as_const(), Some(1 | -1)) || matches!(b.as_const(), Some(1 | -1)) {
            self.fire(Rule::EliminateTrivialComputation);
            return Ok(Poly::constant(1));
        }
        if let Some(g) = common_factor(&[&a, &b]) {
            if g.as_const() != Some(1) {
                if let (Some(a2), Some(b2)) = (exact_div(&a, &g), exact_div(&b, &g)) {
                    self.fire(Rule::FactorizeGcd);
                    let inner = self.gcd(a2, b2)?;
                    let (atoms, c) = g.as_monomial().ok_or(ov("gcd"))?;
                    let abs_c = Poly::constant(c.checked_abs().ok_or(ov("abs"))?);
                    let abs_atoms = self.abs(Poly::mono(atoms.clone(), 1))?;
                    return inner.mul(&abs_c)?.mul(&abs_atoms);
                }
            }
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        Ok(Poly::atom(Atom::Gcd(Box::new(a), Box::new(b))))
    }

    pub(super) fn abs(&mut self, a: Poly) -> Result<Poly> {
        if let Some(c) = a.as_const() {
            return Ok(Poly::constant(c.checked_abs().ok_or(ov("abs"))?));
        }
        if self.nonneg(&a) {
            self.fire(Rule::SimplifyAbs);
            return Ok(a);
        }
        let n = a.scale(-1)?;
        if self.nonneg(&n) {
            self.fire(Rule::SimplifyAbs);
            return Ok(n);
        }
        Ok(Poly::atom(Atom::Abs(Box::new(a))))
    }

    pub(super) fn max_min(&mut self, is_max: bool, xs: Vec<Poly>) -> Result<Poly> {
        let mut args: Vec<Poly> = Vec::new();
        for x in xs {
            match x.as_atom() {
                Some(Atom::Max(v)) if is_max => args.extend(v.iter().cloned()),
                Some(Atom::Min(v)) if !is_max => args.extend(v.iter().cloned()),
                _ => args.push(x),
            }
        }
        args.sort();
        args.dedup();
        // Drop an argument dominated by another (for max: x <= y; for min: y <= x).
        let mut i = 0;
        while i < args.len() && args.len() > 1 {
            let mut dominated = false;
            for j in 0..args.len() {
                if i != j {
                    let (x, y) = (args[i].clone(), args[j].clone());
                    if (is_max && self.le(&x, &y)) || (!is_max && self.le(&y, &x)) {
                        dominated = true;
                        break;
                    }
                }
            }
            if dominated {
                self.fire(Rule::EliminateDominatedMaxMin);
                args.remove(i);
            } else {
                i += 1;
            }
        }
        if args.len() == 1 {
            return Ok(args.remove(0));
        }
        Ok(Poly::atom(if is_max {
            Atom::Max(args)
        } else {
            Atom::Min(args)
        }))
    }

    /// `(a / b) * b * m + (a % b) * m → a * m` when those terms occur in `p`.
    pub(super) fn fundamental(&mut self, p: Poly) -> Result<Poly> {
        let mut cur = p;
        'again: for _ in 0..MAX_TERMS {
            for (atoms, c) in cur.terms.clone() {
                for (i, at) in atoms.iter().enumerate() {
                    let Atom::Mod(x, y) = at else { continue };
                    let mut rest = atoms.clone();
                    rest.remove(i);
                    let m = Poly::mono(rest, c);
                    let div = Poly::atom(Atom::Div(x.clone(), y.clone()));
                    let target_div = div.mul(y)?.mul(&m)?;
                    let present = target_div.terms.iter().all(|(k, v)| {
                        cur.terms
                            .get(k)
                            .is_some_and(|w| w.signum() == v.signum() && w.abs() >= v.abs())
                    });
                    if present && !target_div.terms.is_empty() {
                        let modt = Poly::atom(at.clone()).mul(&m)?;
                        let repl = x.mul(&m)?;
                        cur = cur.sub(&target_div)?.sub(&modt)?.add(&repl)?;
                        self.fire(Rule::FundamentalDivisionWithRemainderProperty);
                        continue 'again;
                    }
                }
            }
            break;
        }
        Ok(cur)
    }

    // -- predicates --------------------------------------------------------------------------

    pub(super) fn decide(&mut self, a: &Poly, op: CmpOp, b: &Poly) -> Option<bool> {
        match op {
            CmpOp::Lt => {
                if self.lt(a, b) {
                    Some(true)
                } else if self.le(b, a) {
                    Some(false)
                } else {
                    None
                }
            }
            CmpOp::Le => {
                if self.le(a, b) {
                    Some(true)
                } else if self.lt(b, a) {
                    Some(false)
                } else {
                    None
                }
            }
            CmpOp::Gt => self.decide(b, CmpOp::Lt, a),
            CmpOp::Ge => self.decide(b, CmpOp::Le, a),
            CmpOp::Eq => {
                if a == b {
                    Some(true)
                } else if self.lt(a, b) || self.lt(b, a) {
                    Some(false)
                } else if self.le(a, b) && self.le(b, a) {
                    Some(true)
                } else {
                    None
                }
            }
            CmpOp::Ne => self.decide(a, CmpOp::Eq, b).map(|v| !v),
        }
    }

    /// Simplifies a comparison.
    ///
    /// Pre: none. Post: equivalent to `a op b` wherever both sides are defined under the
    /// assumptions. Example: `i1 / S < i2` under `S > 0` is `i1 < i2 * S`.
    pub fn simplify_cmp(&mut self, a: &Poly, op: CmpOp, b: &Poly) -> Result<CPred> {
        let (mut a, mut b) = (self.simplify(a)?, self.simplify(b)?);
        if let Some(v) = self.decide(&a, op, &b) {
            self.fire(Rule::EliminateTrivialPredicate);
            return Ok(CPred::Bool(v));
        }
        // Cancel common terms (same sign on both sides).
        let mut common = Poly::default();
        for (k, v) in &a.terms {
            if let Some(w) = b.terms.get(k) {
                if v.signum() == w.signum() {
                    let m = if v.abs() <= w.abs() { *v } else { *w };
                    common.add_term(k.clone(), m)?;
                }
            }
        }
        if !common.terms.is_empty() {
            self.fire(Rule::CancelTermsInPredicate);
            a = a.sub(&common)?;
            b = b.sub(&common)?;
        }
        // idiv_2_16: i / d < D ⇔ i < D * d (d > 0); its negation for >=; mirrored for > and <=.
        let (div_side_left, other) = match op {
            CmpOp::Lt | CmpOp::Ge => (true, &b),
            CmpOp::Gt | CmpOp::Le => (false, &a),
            _ => (true, &b),
        };
        let div_side = if div_side_left { &a } else { &b };
        if matches!(op, CmpOp::Lt | CmpOp::Ge | CmpOp::Gt | CmpOp::Le) {
            if let Some(Atom::Div(i, d)) = div_side.as_atom() {
                if self.positive(d) {
                    let (i, dd) = ((**i).clone(), other.mul(d)?);
                    self.fire(Rule::PredicateDivToMul);
                    let (a2, b2) = if div_side_left { (i, dd) } else { (dd, i) };
                    let a2 = self.simplify(&a2)?;
                    let b2 = self.simplify(&b2)?;
                    if let Some(v) = self.decide(&a2, op, &b2) {
                        self.fire(Rule::EliminateTrivialPredicate);
                        return Ok(CPred::Bool(v));
                    }
                    return Ok(CPred::Cmp(a2, op, b2));
                }
            }
        }
        if let Some(v) = self.decide(&a, op, &b) {
            self.fire(Rule::EliminateTrivialPredicate);
            return Ok(CPred::Bool(v));
        }
        Ok(CPred::Cmp(a, op, b))
    }
}

/// Splits `a` into the terms divisible by the monomial `b` and the rest, both nonempty.
pub(super) fn split_divisible(a: &Poly, b: &Poly) -> Option<(Poly, Poly)> {
    b.as_monomial()?;
    let mut d = Poly::default();
    let mut r = Poly::default();
    for (k, v) in &a.terms {
        let t = Poly::mono(k.clone(), *v);
        if exact_div(&t, b).is_some() {
            d.add_term(k.clone(), *v).ok()?;
        } else {
            r.add_term(k.clone(), *v).ok()?;
        }
    }
    (!d.terms.is_empty() && !r.terms.is_empty()).then_some((d, r))
}

/// `division_by_zero` when the (simplified) divisor is the constant 0: such an expression is
/// undefined at every point, so no rewrite may make it defined.
fn nonzero_divisor(x: &Poly, y: &Poly, op: &str) -> Result<()> {
    if y.as_const() == Some(0) {
        let expr = if op == "cdiv" {
            format!("cdiv({x}, {y})")
        } else {
            format!("{x} {op} {y}")
        };
        return Err(SimplifyError::DivisionByZero {
            column: None,
            expr,
            divisor: y.to_string(),
        });
    }
    Ok(())
}
