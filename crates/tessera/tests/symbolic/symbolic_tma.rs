//! TMA rules with runtime dimensions and strides (`tessera::tma::symbolic`) against the integer
//! rules: for random requests over `M`, `N`, `K` with random facts, at random assignments
//! satisfying the facts, the integer check's findings are exactly the symbolic rules whose
//! condition fails there (a proved rule never fails; a refuted one always does; a guard fails
//! exactly where one of its conditions does), plus the integer rules that read no name.

use std::collections::{BTreeMap, BTreeSet};
use tessera::symbolic::{parse_expr, Facts};
use tessera::tma::symbolic::{check, RuleVerdict, SymRequest};
use tessera::tma::{DataType, Request, Swizzle};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

fn leaf(r: &mut Rng) -> String {
    match r.below(6) {
        0 => r.pick(&[64, 100, 4096]).to_string(),
        1 | 2 => r.pick(&["M", "N", "K"]).to_string(),
        3 => format!("{}*{}", r.pick(&[2, 8, 16]), r.pick(&["M", "N", "K"])),
        4 => format!("{}+{}", r.pick(&["M", "N", "K"]), r.pick(&[1, 8])),
        _ => r.pick(&["4294967297", "3000000000", "8"]).to_string(),
    }
}

#[test]
fn symbolic_tma_rules_agree_with_the_integer_rules() {
    let n: usize = std::env::var("TESSERA_SYM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let mut r = Rng(0x5EED_2026_7A7A);
    let dtypes = [
        DataType::F16,
        DataType::F32,
        DataType::U8,
        DataType::U4Align8B,
    ];
    let (mut points, mut guards, mut refuted, mut proved) = (0usize, 0usize, 0usize, 0usize);
    for _ in 0..n {
        let rank = 1 + r.below(3);
        let shape: Vec<String> = (0..rank).map(|_| leaf(&mut r)).collect();
        // Row-major strides (sometimes a padded leading dimension, sometimes a free name).
        let mut strides = vec!["1".to_string(); rank];
        for i in (0..rank.saturating_sub(1)).rev() {
            strides[i] = match r.below(4) {
                0 => r.pick(&["M", "N", "K"]).to_string(),
                1 => format!(
                    "({})*({}+{})",
                    strides[i + 1],
                    shape[i + 1],
                    r.pick(&[1, 8])
                ),
                _ => format!("({})*({})", strides[i + 1], shape[i + 1]),
            };
        }
        let dt = *r.pick(&dtypes);
        let boxes: Vec<u64> = (0..rank).map(|_| *r.pick(&[8, 16, 64, 128])).collect();
        let mut base = Request::new(dt, &vec![1; rank], &boxes);
        base.swizzle = *r.pick(&[Swizzle::None, Swizzle::B128]);
        let mut facts: Vec<String> = Vec::new();
        for nm in ["M", "N", "K"] {
            if r.below(3) == 0 {
                facts.push(format!("{nm} % {} == 0", r.pick(&[2, 8, 16])));
            }
        }
        let f = Facts::parse(&facts).unwrap();
        let parse = |v: &[String]| {
            v.iter()
                .map(|s| parse_expr(s))
                .collect::<Result<Vec<_>, _>>()
        };
        // (A stride past 64 bits does not parse: an overflow error.)
        let (Ok(sh), Ok(st)) = (parse(&shape), parse(&strides)) else {
            continue;
        };
        let sr = SymRequest {
            base: base.clone(),
            shape: sh,
            strides: st,
        };
        let checks = match check(&sr, &f) {
            Ok(c) => c,
            // Constants past 64 bits in a condition: a typed error, not an answer.
            Err(tessera::symbolic::SymError::Overflow(_)) => continue,
            Err(e) => panic!("{e}"),
        };
        for c in &checks {
            match c.verdict {
                RuleVerdict::Proved => proved += 1,
                RuleVerdict::Refuted(_) => refuted += 1,
                RuleVerdict::Guard(_) => guards += 1,
            }
        }
        for _ in 0..4 {
            let mut env = BTreeMap::new();
            for nm in ["M", "N", "K"] {
                let (x0, m) = f.info(nm).map_or((1, 1), |i| (i.x0, i.m));
                let y = *r.pick(&[0i64, 1, 3, 7, 63, 1000, 100_000_000]);
                env.insert(nm.to_string(), x0 + m * y);
            }
            assert!(f.satisfied_by(&env));
            let vals: Option<Vec<u64>> = sr
                .shape
                .iter()
                .map(|p| p.eval(&env).ok().and_then(|v| u64::try_from(v).ok()))
                .collect();
            let svals: Option<Vec<u64>> = sr
                .strides
                .iter()
                .map(|p| p.eval(&env).ok().and_then(|v| u64::try_from(v).ok()))
                .collect();
            let (Some(vals), Some(svals)) = (vals, svals) else {
                continue;
            };
            // A condition that overflows 64 bits at this point is left out (the integer rule
            // computes in u64/u128 there).
            let overflow = checks.iter().any(|c| match &c.verdict {
                RuleVerdict::Guard(g) => g.iter().any(|p| p.holds(&env).is_err()),
                _ => false,
            });
            // Extents past 64 bits (the integer check's overlap rule gives up there).
            let huge = vals
                .iter()
                .zip(&svals)
                .any(|(a, b)| a.checked_mul(*b).and_then(|x| x.checked_mul(64)).is_none());
            if overflow || huge {
                continue;
            }
            points += 1;
            let mut ir = base.clone();
            ir.shape = vals;
            ir.strides = svals;
            let mut want: BTreeSet<&str> = tessera::tma::check(&ir)
                .iter()
                .map(|(e, _)| e.code())
                .collect();
            let mut got: BTreeSet<&str> = BTreeSet::new();
            for c in &checks {
                let fails = match &c.verdict {
                    RuleVerdict::Proved => false,
                    RuleVerdict::Refuted(_) => true,
                    RuleVerdict::Guard(g) => !g.iter().all(|p| p.holds(&env).unwrap()),
                };
                if fails {
                    got.insert(c.code);
                }
            }
            // The 32-bit coordinate warning is moot (the integer check omits it) where a
            // dimension is refused outright (beyond 2^32).
            if want.contains("tma_global_dim") && !want.contains("tma_coordinate_32bit") {
                got.remove("tma_coordinate_32bit");
            }
            // A stride that is not whole bytes makes the integer check skip that stride's
            // byte rules (multiple, size, overlap): moot there.
            // For a sub-byte type the overlap warning is computed in bits (the integer check
            // skips a dimension whose extent is not whole bytes).
            if !dt.mem_bits().is_multiple_of(8) {
                got.remove("tma_global_stride_overlap");
                want.remove("tma_global_stride_overlap");
            }
            if want.contains("tma_fractional_stride") {
                for moot in [
                    "tma_global_stride_multiple",
                    "tma_global_stride_too_large",
                    "tma_global_stride_overlap",
                ] {
                    if !want.contains(moot) {
                        got.remove(moot);
                    }
                }
            }
            assert_eq!(
                got, want,
                "shape {shape:?} strides {strides:?} {dt:?} box {boxes:?} under {facts:?} at {env:?}"
            );
        }
    }
    eprintln!("symbolic TMA: {n} requests, {points} points; rules proved {proved}, refuted {refuted}, guards {guards}");
    assert!(guards > 0 && proved > 0 && refuted > 0);
}
