//! GPU facts, each in one place: element types ([`Dtype`], with their short, CUTLASS and CUDA
//! driver names and widths; [`TmaDataType`], the driver's TMA enum) and architectures ([`Arch`],
//! one row per compute capability: shared-memory capacity, TMA, copy and MMA families, tensor
//! memory, clusters, bank geometry).
//!
//! Every other module reads these tables (`banks` its element types and bank geometry, `tma` its
//! data types, SMs and shared-memory limit, `algebra::atoms` its CUTLASS element types,
//! `domain::tmem` its tensor-memory geometry); none keeps a copy. This module sits in the bottom
//! layer and imports nothing from the crate.
//!
//! ```
//! use tessera::target::{Arch, Dtype, TmaDataType};
//! let f16 = Dtype::parse("half_t").unwrap();
//! assert_eq!((f16.name, f16.bits, f16.tma), ("f16", 16, Some(TmaDataType::F16)));
//! let sm = Arch::parse("sm_90a").unwrap();
//! assert_eq!(sm.arch.smem_per_block, 232_448);
//! assert!(sm.arch.gmma() && !sm.arch.umma());
//! ```

pub mod arch;
pub mod dtype;

pub use arch::{
    Arch, BankGeometry, Clusters, CopyFamily, GmmaShapes, MmaFamily, Sm, Tmem, Variant, ARCHS,
    GMMA_SHAPES, MBARRIER_BYTES, SMEM_BANKS, TMA_GMEM_ALIGN, TMA_SMEM_ALIGN, TMEM,
    WARPGROUP_THREADS, WARP_THREADS,
};
pub use dtype::{Dtype, Kind, TmaDataType, DTYPES};

/// A name that is not an element type or an architecture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not the name of an element type.
    #[error("unknown element type `{name}` (known: {})", known_dtypes())]
    UnknownDtype {
        /// The text.
        name: String,
    },
    /// Not of the form `sm_90a`, `90` or `9.0`.
    #[error("`{text}` is not an architecture (column {column}): expected sm_NN[a|f], compute_NN, NN or N.N")]
    ArchSyntax {
        /// The text.
        text: String,
        /// The 1-based column of the first character that does not fit.
        column: usize,
    },
    /// Well formed, but not an architecture Tessera knows.
    #[error(
        "`{text}`: compute capability {cc} is not one Tessera knows (known: {})",
        known_archs()
    )]
    UnknownArch {
        /// The text.
        text: String,
        /// The number.
        cc: u32,
    },
    /// An `a` suffix before sm_90 or an `f` suffix before sm_100.
    #[error("`{text}`: compute capability {cc} has no such feature-set suffix (`a` from sm_90, `f` from sm_100)")]
    ArchSuffix {
        /// The text.
        text: String,
        /// The number.
        cc: u32,
    },
}

impl TargetError {
    /// The error's code.
    ///
    /// Pre: none. Post: one of `unknown_dtype`, `arch_syntax`, `unknown_arch`, `arch_suffix`.
    /// Example: `Dtype::parse("f17").unwrap_err().code() == "unknown_dtype"`.
    pub fn code(&self) -> &'static str {
        match self {
            TargetError::UnknownDtype { .. } => "unknown_dtype",
            TargetError::ArchSyntax { .. } => "arch_syntax",
            TargetError::UnknownArch { .. } => "unknown_arch",
            TargetError::ArchSuffix { .. } => "arch_suffix",
        }
    }
}

fn known_dtypes() -> String {
    DTYPES.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
}

fn known_archs() -> String {
    ARCHS
        .iter()
        .map(|a| format!("sm_{}", a.cc))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    //! The table's facts, its parsers, and every consumer reading it.
    use super::arch::{SM100, SM103, SM110, SM120, SM121, SM80, SM86, SM89, SM90};
    use super::*;

    #[test]
    fn arch_facts() {
        // CUTLASS sm90_smem_capacity_bytes; the guide's per-block opt-in maxima.
        assert_eq!(SM90.smem_per_block, 232_448);
        assert_eq!(SM100.smem_per_block, 232_448);
        assert_eq!(SM80.smem_per_block, 166_912);
        for a in [SM86, SM89, SM120, SM121] {
            assert_eq!(a.smem_per_block, 101_376, "sm_{}", a.cc);
            assert_eq!(a.smem_per_sm, 102_400, "sm_{}", a.cc);
        }
        assert_eq!(SM90.smem_per_sm, 233_472);
        for a in ARCHS {
            assert!(a.smem_per_block < a.smem_per_sm);
            assert_eq!(a.max_threads_per_block, 1024);
            assert_eq!(a.banks, SMEM_BANKS);
            assert_eq!(a.clusters.is_some(), a.cc >= 90, "clusters from sm_90");
            assert_eq!(a.tma(), a.cc >= 90, "TMA from sm_90");
            assert!(a.cp_async());
            assert_eq!(a.gmma(), a.cc == 90, "wgmma is sm_90a only");
            assert_eq!(
                a.umma(),
                a.tmem.is_some(),
                "tcgen05 and tensor memory go together"
            );
            assert_eq!(a.umma(), a.copies.contains(&CopyFamily::Tmem));
        }
        assert!(SM100.umma() && SM103.umma() && SM110.umma() && !SM120.umma());
        assert_eq!(
            SM100.tmem,
            Some(Tmem {
                lanes: 128,
                columns: 512
            })
        );
        assert_eq!(
            SM90.clusters,
            Some(Clusters {
                portable: 8,
                max: 16
            })
        );
        assert_eq!(Arch::tma_numbers(), [90, 100, 101, 103, 110, 120, 121]);
    }

    #[test]
    fn dtype_names_round_trip() {
        for d in DTYPES {
            assert_eq!(Dtype::parse(d.name), Ok(*d));
            assert_eq!(Dtype::parse(&d.name.to_ascii_uppercase()), Ok(*d));
            assert_eq!(Dtype::parse(&format!(" {} ", d.name)), Ok(*d));
            for a in d.aliases {
                assert_eq!(Dtype::parse(a), Ok(*d), "alias {a}");
            }
            assert_eq!(Dtype::parse(d.cutlass), Ok(*d));
            assert_eq!(
                Dtype::of_cutlass(&format!("cutlass::{}", d.cutlass)),
                Some(*d)
            );
            assert_eq!(d.bytes().is_some(), d.bits.is_multiple_of(8));
        }
    }

    #[test]
    fn arch_names_round_trip() {
        for a in ARCHS {
            for cc in std::iter::once(a.cc).chain(a.also.iter().copied()) {
                let forms = [
                    format!("sm_{cc}"),
                    format!("sm{cc}"),
                    format!("SM_{cc}"),
                    format!("compute_{cc}"),
                    format!("{cc}"),
                    format!("{}.{}", cc / 10, cc % 10),
                ];
                for f in forms {
                    let sm = Arch::parse(&f).unwrap();
                    assert_eq!((sm.arch, sm.cc, sm.variant), (a, cc, Variant::Base), "{f}");
                    assert_eq!(Arch::parse(&sm.to_string()), Ok(sm));
                }
            }
        }
        let a = Arch::parse("sm_90a").unwrap();
        assert_eq!((a.arch.cc, a.variant), (90, Variant::Specific));
        assert_eq!(a.to_string(), "sm_90a");
        let f = Arch::parse("sm_100f").unwrap();
        assert_eq!((f.arch.cc, f.variant), (100, Variant::Family));
    }

    #[test]
    fn parse_errors_are_typed() {
        let e = Dtype::parse("f17").unwrap_err();
        assert_eq!(e.code(), "unknown_dtype");
        assert!(e.to_string().contains("f16, bf16"), "{e}");
        let col = |s: &str| match Arch::parse(s) {
            Err(TargetError::ArchSyntax { column, .. }) => column,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(col(""), 1);
        assert_eq!(col("sm_"), 4);
        assert_eq!(col("sm_9x"), 5);
        assert_eq!(col("  sm_90b"), 8);
        assert_eq!(col("9."), 3);
        assert_eq!(col("hopper"), 1);
        assert_eq!(col("sm_123456"), 8);
        assert!(matches!(
            Arch::parse("sm_75"),
            Err(TargetError::UnknownArch { cc: 75, .. })
        ));
        assert!(matches!(
            Arch::parse("sm_86a"),
            Err(TargetError::ArchSuffix { cc: 86, .. })
        ));
        assert!(matches!(
            Arch::parse("sm_90f"),
            Err(TargetError::ArchSuffix { cc: 90, .. })
        ));
        assert_eq!(Arch::parse("sm_75").unwrap_err().code(), "unknown_arch");
    }

    #[test]
    fn tma_consumer_agrees() {
        use crate::tma::DataType;
        for (i, t) in DataType::all().into_iter().enumerate() {
            assert_eq!(t.cu_value() as usize, i);
            assert_eq!(DataType::parse(t.name()), Some(t));
            assert_eq!(DataType::parse(t.cu_name()), Some(t));
            if let Some(d) = t.element() {
                assert_eq!(t.mem_bits(), u64::from(d.bits));
                assert_eq!(t.is_float(), d.is_float());
            }
        }
        // The driver header's values.
        assert_eq!(DataType::F16.cu_value(), 6);
        assert_eq!(DataType::Bf16.cu_value(), 9);
        assert_eq!(DataType::U6Align16B.cu_value(), 15);
        for d in DTYPES {
            assert_eq!(DataType::parse(d.name), d.tma, "{}", d.name);
            if let Some(t) = d.tma.filter(|t| !t.is_packed()) {
                assert_eq!(t.mem_bits(), u64::from(d.bits), "{}", d.name);
            }
        }
        // `--sm`: accepted iff the architecture has TMA.
        for sm in 0..=200u32 {
            let p = crate::tma::params::Params {
                dtype: Some("f16".into()),
                shape: Some(vec![64, 64]),
                box_dims: Some(vec![64, 64]),
                sm: Some(sm),
                ..Default::default()
            };
            let tma = Arch::of(sm).is_some_and(|a| a.tma());
            assert_eq!(p.request().is_ok(), tma, "sm {sm}");
            if let Ok(r) = p.request() {
                let a = Arch::of(sm).unwrap();
                assert_eq!(crate::tma::rules::smem_limit(&r), a.smem_per_sm);
            }
        }
    }

    #[test]
    fn tma_smem_limit_follows_the_arch() {
        use crate::tma::{rules::check, DataType, Request};
        // 200 KiB of f32: fits an sm_90 SM, not an sm_120 one.
        let mut r = Request::new(DataType::F32, &[1024, 1024], &[200, 256]);
        let has = |r: &Request| check(r).iter().any(|f| f.0.code() == "tma_box_footprint");
        assert!(!has(&r));
        r.sm = 120;
        assert!(has(&r));
    }

    #[test]
    fn banks_and_atoms_agree() {
        use crate::banks::{self, atoms::ATOM_NAMES, Atom};
        assert_eq!((banks::BANKS, banks::WORD_BYTES), (32, 4));
        for d in DTYPES {
            let got = banks::text::parse_dtype(d.name);
            assert_eq!(got.is_ok(), d.bits.is_multiple_of(8), "{}", d.name);
            assert_eq!(
                crate::algebra::atoms::element_bits(d.cutlass),
                Some(i64::from(d.bits))
            );
        }
        for n in ATOM_NAMES {
            let fam = Atom::parse(n).unwrap().kind.family();
            assert!(ARCHS.iter().any(|a| a.copies.contains(&fam)), "{n}");
        }
        let sm90_only = Atom::parse("SM90_U32x1_STSM_N").unwrap().kind.family();
        assert!(!SM80.copies.contains(&sm90_only) && SM90.copies.contains(&sm90_only));
    }

    #[test]
    fn tmem_consumer_agrees() {
        use crate::domain::tmem::TmemDomain;
        let ok = TmemDomain::parse("|CA|, 128, |DimSep|, 512").unwrap();
        assert!(ok.allocate().is_ok());
        let lanes = TmemDomain::parse("|CA|, 129, |DimSep|, 1").unwrap();
        let e = format!("{:?}", lanes.allocate().unwrap_err());
        assert!(e.contains(&TMEM.lanes.to_string()), "{e}");
        let cols = TmemDomain::parse("|CA|, 1, |DimSep|, 513").unwrap();
        let e = format!("{:?}", cols.allocate().unwrap_err());
        assert!(e.contains(&TMEM.columns.to_string()), "{e}");
    }
}
