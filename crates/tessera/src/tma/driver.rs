//! Recorded driver verdicts (written by `tools/tma_driver_check`): each case's request and the
//! driver's result, and the agreement of [`super::validate`] with them (`tessera tma
//! --driver-cases`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::report::validate;
use super::{Address, DataType, Interleave, L2Promotion, OobFill, Request, Swizzle};

/// Parses one recorded case: `t R il sw l2 of addr : dims : strides(bytes, dims 1..) : box : es : res`
/// (driver order), as printed by `tools/tma_driver_check/tma_driver_check.c`.
pub fn parse_case(line: &str) -> Option<(Request, i64)> {
    let parts: Vec<&str> = line.split(':').collect();
    if parts.len() != 6 {
        return None;
    }
    let nums = |s: &str| -> Option<Vec<u64>> {
        s.split_whitespace()
            .map(|x| x.parse::<u64>().ok())
            .collect()
    };
    let head = nums(parts[0])?;
    if head.len() != 7 {
        return None;
    }
    let dtype = *DataType::all().get(usize::try_from(head[0]).ok()?)?;
    let il = [Interleave::None, Interleave::B16, Interleave::B32];
    let l2 = [
        L2Promotion::None,
        L2Promotion::B64,
        L2Promotion::B128,
        L2Promotion::B256,
    ];
    let g = nums(parts[1])?;
    let st = nums(parts[2])?;
    let b = nums(parts[3])?;
    let e = nums(parts[4])?;
    let res: i64 = parts[5].trim().parse().ok()?;
    let elem = dtype.mem_bits() / 8;
    if elem == 0 {
        return None;
    }
    let mut strides: Vec<u64> = vec![1];
    for x in &st {
        strides.push(x / elem);
    }
    let rev = |mut v: Vec<u64>| {
        v.reverse();
        v
    };
    let mut r = Request::new(dtype, &rev(g), &rev(b));
    r.strides = rev(strides);
    if r.strides.len() != r.shape.len() {
        r.strides.truncate(r.shape.len());
    }
    r.element_strides = rev(e);
    r.interleave = *il.get(usize::try_from(head[2]).ok()?)?;
    r.swizzle = *Swizzle::all().get(usize::try_from(head[3]).ok()?)?;
    r.l2_promotion = *l2.get(usize::try_from(head[4]).ok()?)?;
    r.oob_fill = if head[5] == 0 {
        OobFill::None
    } else {
        OobFill::NanRequestZeroFma
    };
    r.address = Address::Exact(head[6]);
    Some((r, res))
}

/// The agreement of [`validate`] with the driver over recorded cases, case by case.
#[derive(Debug, Default, Clone)]
pub struct Agreement {
    n: u64,
    agree: u64,
    both_ok: u64,
    both_bad: u64,
    only_driver_ok: BTreeMap<String, u64>,
    only_tessera_ok: u64,
    /// Refusals the driver and Tessera share where Tessera finds exactly one error: evidence that
    /// the driver enforces that rule on its own.
    sole: BTreeMap<String, u64>,
    examples: Vec<String>,
    skipped: u64,
}

impl Agreement {
    /// Counts one line of a case file (header lines starting with `driver` are skipped, lines that
    /// do not parse are counted as unparsed).
    ///
    /// Pre: none. Post: the case is validated and tallied; at most 10 disagreements are kept as
    /// examples. Example: a line whose driver result is 0 and whose request is valid counts as
    /// "both valid".
    pub fn add(&mut self, line: &str) {
        if line.starts_with("driver") {
            return;
        }
        let Some((r, res)) = parse_case(line) else {
            self.skipped += 1;
            return;
        };
        self.n += 1;
        let rep = validate(&r);
        let ours = rep.valid();
        let theirs = res == 0;
        if ours == theirs {
            self.agree += 1;
            if ours {
                self.both_ok += 1;
            } else {
                self.both_bad += 1;
                let codes: Vec<&str> = rep.errors().map(|f| f.code()).collect();
                if let [only] = codes.as_slice() {
                    *self.sole.entry((*only).to_string()).or_default() += 1;
                }
            }
        } else if theirs {
            let codes: Vec<&str> = rep.errors().map(|f| f.code()).collect();
            *self.only_driver_ok.entry(codes.join("+")).or_default() += 1;
            if self.examples.len() < 10 {
                self.examples.push(format!(
                    "driver accepts, tessera refuses ({}): {line}",
                    codes.join("+")
                ));
            }
        } else {
            self.only_tessera_ok += 1;
            if self.examples.len() < 10 {
                self.examples
                    .push(format!("driver refuses ({res}), tessera accepts: {line}"));
            }
        }
    }

    /// Whether every parsed case agrees.
    ///
    /// Pre: none. Post: agreeing cases = parsed cases. Example: `true` for no case.
    pub fn all_agree(&self) -> bool {
        self.agree == self.n
    }

    /// The agreement table (Markdown), the single-error refusals per rule, the disagreements per
    /// error set and up to 10 example lines.
    ///
    /// Pre: none. Post: plain text, each line ending in a newline. Example: starts with
    /// `| cases | agree |`.
    pub fn text(&self) -> String {
        let Agreement {
            n,
            agree,
            both_ok,
            both_bad,
            only_driver_ok,
            only_tessera_ok,
            sole,
            examples,
            skipped,
        } = self;
        let mut o = String::new();
        let _ = writeln!(o, "| cases | agree | both valid | both invalid | driver only valid | tessera only valid | unparsed |");
        let _ = writeln!(o, "|---|---|---|---|---|---|---|");
        let _ = writeln!(
            o,
            "| {n} | {agree} | {both_ok} | {both_bad} | {} | {only_tessera_ok} | {skipped} |",
            n - agree - only_tessera_ok
        );
        let _ = writeln!(
            o,
            "refused by both with a single error (per rule): {}",
            sole.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (k, v) in only_driver_ok {
            let _ = writeln!(o, "driver accepts, tessera refuses with {k}: {v}");
        }
        for e in examples {
            let _ = writeln!(o, "{e}");
        }
        o
    }
}
