//! Tensor-memory (TMem) lane and column allocation (reference Example 27; nvFuser
//! `doc/dev/tmem.md`, `csrc/device_lower/analysis/tensor_memory.cpp`).
//!
//! Tensor memory is 2-D: 128 lanes × 512 columns (32-bit cells) per SM. A TMem tensor's
//! allocation domain carries two positions: the compute-at position `|CA|` and the "TMem DimSep"
//! position `|DimSep|`, which splits it into a lane part (left) and a column part (right).
//!
//! **Which IDs are allocated** (the allocation rule of `doc/dev/tmem.md`, as for shared memory):
//! an ID parallelized on a type across which TMem is *distributed* (`BID*`, `DID*`: each block
//! has its own TMem) is never allocated; one parallelized on a type across which it is *shared*
//! (`TID*`: the threads of a block share it) is always allocated; any other ID is allocated iff it
//! is right of the compute-at position. **Lanes** = product of the allocated IDs left of DimSep;
//! **columns** = product of the allocated IDs right of DimSep. More than 128 lanes or 512 columns
//! is an error with nvFuser's message.
//!
//! Example 27: `BIDx{2}, TIDx{3}, 5, |CA|, BIDy{7}, TIDy{11}, 13, |DimSep|, 17` allocates lanes
//! `3 (TIDx) × 11 (TIDy) × 13 (right of CA)` = 429 (`2`, `7`: block-parallel; `5`: left of CA)
//! and columns `17`: "Not enough tensor memory lanes: tried to allocate 429, but only 128
//! available."

use std::fmt;

// Tensor-memory geometry: `crate::target::TMEM` (128 lanes × 512 columns on the sm_100 family).
use crate::target::TMEM;

/// Parallel type of an allocation ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallel {
    /// Not parallelized.
    Serial,
    /// `BIDx`, `BIDy`, `BIDz`: distributed across blocks.
    Block(char),
    /// `TIDx`, `TIDy`, `TIDz`: shared by the threads of a block.
    Thread(char),
    /// `DIDx`: distributed across devices.
    Device(char),
}

impl fmt::Display for Parallel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Parallel::Serial => Ok(()),
            Parallel::Block(c) => write!(f, "BID{c}"),
            Parallel::Thread(c) => write!(f, "TID{c}"),
            Parallel::Device(c) => write!(f, "DID{c}"),
        }
    }
}

/// A TMem allocation domain with its compute-at and DimSep positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmemDomain {
    /// `(extent, parallel type)`, outermost first.
    pub dims: Vec<(u64, Parallel)>,
    /// Compute-at position: IDs `0..compute_at` are left of `|CA|`.
    pub compute_at: usize,
    /// DimSep position: IDs `0..dim_sep` are lane IDs.
    pub dim_sep: usize,
}

/// A TMem allocation error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TmemError {
    /// Too many lanes.
    #[error("Not enough tensor memory lanes: tried to allocate {tried}, but only {available} available.")]
    NotEnoughLanes {
        /// Lanes needed.
        tried: u64,
        /// Lanes available.
        available: u64,
    },
    /// Too many columns.
    #[error("Not enough tensor memory columns: tried to allocate {tried}, but only {available} available.")]
    NotEnoughColumns {
        /// Columns needed.
        tried: u64,
        /// Columns available.
        available: u64,
    },
    /// The domain text could not be parsed, or positions are out of range.
    #[error("invalid TMem domain: {0}")]
    Invalid(String),
}

impl TmemError {
    /// The error's code in the one catalogue ([`crate::diagnostic::catalogue`]).
    ///
    /// Pre: none. Post: `tmem_lanes`, `tmem_columns` or `tmem_domain`. Example:
    /// `TmemDomain::parse("|CA|, |CA|").unwrap_err().code() == "tmem_domain"`.
    pub fn code(&self) -> &'static str {
        match self {
            TmemError::NotEnoughLanes { .. } => "tmem_lanes",
            TmemError::NotEnoughColumns { .. } => "tmem_columns",
            TmemError::Invalid(_) => "tmem_domain",
        }
    }
}

impl crate::diagnostic::Diagnose for TmemError {
    fn diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error(self.code(), self)
    }
}

/// The lanes and columns a TMem tensor allocates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmemAllocation {
    /// Allocated lane IDs (indices into `dims`).
    pub lane_ids: Vec<usize>,
    /// Allocated column IDs.
    pub column_ids: Vec<usize>,
    /// Product of allocated lane extents.
    pub lanes: u64,
    /// Product of allocated column extents.
    pub columns: u64,
}

impl TmemDomain {
    /// Parses `BIDx{2}, TIDx{3}, 5, |CA|, BIDy{7}, TIDy{11}, 13, |DimSep|, 17`.
    ///
    /// Pre: each item is an extent, `P{extent}` with `P` in `BIDx..z`, `TIDx..z`, `DIDx..z`, or a
    /// marker `|CA|` / `|DimSep|` (each at most once; missing: position 0 for CA, the end for
    /// DimSep). Post: the domain, or [`TmemError::Invalid`]. Example: the string above has 7 IDs,
    /// `compute_at == 3`, `dim_sep == 6`.
    pub fn parse(text: &str) -> Result<TmemDomain, TmemError> {
        let bad = |m: String| TmemError::Invalid(m);
        let mut dims = Vec::new();
        let (mut ca, mut sep) = (None, None);
        for item in text.split(',').map(str::trim) {
            match item {
                "|CA|" if ca.is_none() => ca = Some(dims.len()),
                "|DimSep|" if sep.is_none() => sep = Some(dims.len()),
                _ => {
                    let (par, num) = match item.find('{') {
                        Some(b) if item.ends_with('}') => {
                            let p = &item[..b];
                            let axis = p.chars().last().filter(|c| matches!(c, 'x' | 'y' | 'z'));
                            let par = match (p.get(..3), axis, p.len()) {
                                (Some("BID"), Some(c), 4) => Parallel::Block(c),
                                (Some("TID"), Some(c), 4) => Parallel::Thread(c),
                                (Some("DID"), Some(c), 4) => Parallel::Device(c),
                                _ => return Err(bad(format!("unknown parallel type `{p}`"))),
                            };
                            (par, &item[b + 1..item.len() - 1])
                        }
                        _ => (Parallel::Serial, item),
                    };
                    let e: u64 = num
                        .parse()
                        .map_err(|_| bad(format!("`{item}` is not an extent")))?;
                    if e == 0 {
                        return Err(bad(format!("`{item}` has extent 0")));
                    }
                    dims.push((e, par));
                }
            }
        }
        let n = dims.len();
        Ok(TmemDomain {
            dims,
            compute_at: ca.unwrap_or(0),
            dim_sep: sep.unwrap_or(n),
        })
    }

    /// Whether ID `k` is allocated (see the module documentation).
    ///
    /// Pre: `k < dims.len()`. Post: `BID*`/`DID*` never, `TID*` always, serial iff `k >=
    /// compute_at`. Example: in Example 27, ID 2 (`5`, left of CA) is not allocated.
    pub fn is_allocated(&self, k: usize) -> bool {
        match self.dims.get(k).map(|d| d.1) {
            Some(Parallel::Block(_) | Parallel::Device(_)) | None => false,
            Some(Parallel::Thread(_)) => true,
            Some(Parallel::Serial) => k >= self.compute_at,
        }
    }

    /// Lanes and columns, checked against [`TMEM`]'s lanes and columns.
    ///
    /// Pre: none. Post: `Ok` iff positions are in range, products fit in `u64`, lanes ≤ 128
    /// and columns ≤ 512; lanes are checked first. Example: Example 27 gives
    /// [`TmemError::NotEnoughLanes`] `{ tried: 429, available: 128 }`.
    pub fn allocate(&self) -> Result<TmemAllocation, TmemError> {
        let n = self.dims.len();
        if self.compute_at > n || self.dim_sep > n {
            return Err(TmemError::Invalid(format!(
                "positions |CA| = {}, |DimSep| = {} for {n} IDs",
                self.compute_at, self.dim_sep
            )));
        }
        let allocated: Vec<usize> = (0..n).filter(|&k| self.is_allocated(k)).collect();
        let (lane_ids, column_ids): (Vec<usize>, Vec<usize>) =
            allocated.into_iter().partition(|&k| k < self.dim_sep);
        let product = |ids: &[usize]| {
            ids.iter()
                .try_fold(1u64, |acc, &k| acc.checked_mul(self.dims[k].0))
        };
        let overflow = || TmemError::Invalid("extent product overflows".into());
        let lanes = product(&lane_ids).ok_or_else(overflow)?;
        let columns = product(&column_ids).ok_or_else(overflow)?;
        if lanes > TMEM.lanes {
            return Err(TmemError::NotEnoughLanes {
                tried: lanes,
                available: TMEM.lanes,
            });
        }
        if columns > TMEM.columns {
            return Err(TmemError::NotEnoughColumns {
                tried: columns,
                available: TMEM.columns,
            });
        }
        Ok(TmemAllocation {
            lane_ids,
            column_ids,
            lanes,
            columns,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{catalogue, Diagnose};

    /// Each error has its code in the one catalogue, and the catalogue's examples raise it.
    #[test]
    fn errors_are_catalogued() {
        let cases = [
            ("TIDx{3}, 143, |DimSep|, 4", "tmem_lanes"),
            ("4, |DimSep|, 1024", "tmem_columns"),
            ("4, |CA|, |CA|", "tmem_domain"),
        ];
        for (text, code) in cases {
            let e = TmemDomain::parse(text)
                .and_then(|d| d.allocate())
                .unwrap_err();
            assert_eq!(e.code(), code, "{text}: {e}");
            assert_eq!(e.diagnostic().code, code);
            let entry = catalogue::lookup(code).unwrap();
            match entry.example {
                catalogue::Example::Text(t) => assert!(t.contains(text), "{code}: {t}"),
                other => panic!("{code}: {other:?}"),
            }
        }
    }
}
