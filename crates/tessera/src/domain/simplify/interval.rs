//! Interval arithmetic: the ranges the prover derives for atoms and polynomials from the
//! assumptions.

/// A closed integer interval; `None` bounds are infinite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// Lower bound.
    pub lo: Option<i128>,
    /// Upper bound.
    pub hi: Option<i128>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

pub(super) fn ext_mul(a: Ext, b: Ext) -> Option<Ext> {
    use Ext::*;
    let sign = |e: Ext| match e {
        NegInf => -1,
        PosInf => 1,
        Fin(v) => v.signum(),
    };
    match (a, b) {
        (Fin(x), Fin(y)) => x.checked_mul(y).map(Fin),
        _ => Some(match sign(a) * sign(b) {
            0 => Fin(0),
            s if s > 0 => PosInf,
            _ => NegInf,
        }),
    }
}

impl Interval {
    /// The whole line.
    pub const FULL: Interval = Interval { lo: None, hi: None };

    pub(super) fn point(c: i128) -> Interval {
        Interval {
            lo: Some(c),
            hi: Some(c),
        }
    }

    pub(super) fn at_least(c: i128) -> Interval {
        Interval {
            lo: Some(c),
            hi: None,
        }
    }

    pub(super) fn intersect(self, o: Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Interval { lo, hi }
    }

    pub(super) fn add(self, o: Interval) -> Interval {
        let f = |a: Option<i128>, b: Option<i128>| match (a, b) {
            (Some(x), Some(y)) => x.checked_add(y).map(Some),
            _ => Some(None),
        };
        match (f(self.lo, o.lo), f(self.hi, o.hi)) {
            (Some(lo), Some(hi)) => Interval { lo, hi },
            _ => Interval::FULL,
        }
    }

    pub(super) fn neg(self) -> Interval {
        match (
            self.hi.map(|h| h.checked_neg()),
            self.lo.map(|l| l.checked_neg()),
        ) {
            (Some(None), _) | (_, Some(None)) => Interval::FULL,
            (lo, hi) => Interval {
                lo: lo.flatten(),
                hi: hi.flatten(),
            },
        }
    }

    pub(super) fn mul(self, o: Interval) -> Interval {
        let lo_e = |x: Option<i128>| x.map_or(Ext::NegInf, Ext::Fin);
        let hi_e = |x: Option<i128>| x.map_or(Ext::PosInf, Ext::Fin);
        let (mut lo, mut hi) = (Ext::PosInf, Ext::NegInf);
        for a in [lo_e(self.lo), hi_e(self.hi)] {
            for b in [lo_e(o.lo), hi_e(o.hi)] {
                let Some(p) = ext_mul(a, b) else {
                    return Interval::FULL;
                };
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        Interval {
            lo: match lo {
                Ext::Fin(v) => Some(v),
                _ => None,
            },
            hi: match hi {
                Ext::Fin(v) => Some(v),
                _ => None,
            },
        }
    }

    pub(super) fn excludes_zero(self) -> bool {
        self.lo.is_some_and(|l| l > 0) || self.hi.is_some_and(|h| h < 0)
    }

    pub(super) fn max_abs(self) -> Option<i128> {
        Some(self.lo?.checked_abs()?.max(self.hi?.checked_abs()?))
    }

    /// Floor division by a divisor interval with `lo >= 1`.
    pub(super) fn div_pos(self, b: Interval) -> Interval {
        self.div_pos_opt(b).unwrap_or(Interval::FULL)
    }

    pub(super) fn div_pos_opt(self, b: Interval) -> Option<Interval> {
        let bl = b.lo.filter(|&l| l >= 1)?;
        if b.hi.is_some_and(|h| h < bl) {
            return None;
        }
        let lo = match self.lo {
            None => None,
            Some(al) if al >= 0 => Some(b.hi.map_or(0, |bh| al.div_euclid(bh))),
            Some(al) => Some(al.div_euclid(bl)),
        };
        let hi = match self.hi {
            None => None,
            Some(ah) if ah >= 0 => Some(ah.div_euclid(bl)),
            Some(ah) => Some(b.hi.map_or(-1, |bh| ah.div_euclid(bh))),
        };
        Some(Interval { lo, hi })
    }

    pub(super) fn ceil_div_pos(self, b: Interval) -> Interval {
        self.ceil_div_pos_opt(b).unwrap_or(Interval::FULL)
    }

    pub(super) fn ceil_div_pos_opt(self, b: Interval) -> Option<Interval> {
        let b = b.intersect(Interval::at_least(1));
        let bl = b.lo?;
        if b.hi.is_some_and(|h| h < bl) {
            return None;
        }
        let c = |a: i128, d: i128| a.checked_neg()?.div_euclid(d).checked_neg();
        let lo = match self.lo {
            None => None,
            Some(al) if al >= 0 => Some(match b.hi {
                None => i128::from(al > 0),
                Some(bh) => c(al, bh)?,
            }),
            Some(al) => Some(c(al, bl)?),
        };
        let hi = match self.hi {
            None => None,
            Some(ah) if ah >= 0 => Some(c(ah, bl)?),
            Some(ah) => Some(match b.hi {
                None => 0,
                Some(bh) => c(ah, bh)?,
            }),
        };
        Some(Interval { lo, hi })
    }
}
