//! The shared-memory bank model: classic cases verified by the simulator, the analysis equal to
//! the simulator on random layouts and accesses, named atoms, typed errors and swizzle synthesis.

use proptest::prelude::*;
use tessera::algebra::linear::LinearLayout;
use tessera::banks::atoms::Major;
use tessera::banks::synth::{synthesize, Problem};
use tessera::banks::{analyze, simulate, Access, Atom, Dtype, Instr, Report, Smem};
use tessera::Layout;

fn dt(s: &str) -> Dtype {
    Dtype::parse(s).unwrap()
}

fn plain(s: &str) -> Smem {
    Smem::Plain(s.parse().unwrap())
}

fn tv(s: &str) -> Access {
    Access {
        tv: s.parse().unwrap(),
        instr: Instr::Shared { width: None },
        atom: None,
    }
}

/// Analysis and simulation agree on everything but the method; returns the analysis.
fn both(smem: &Smem, acc: &Access, d: Dtype) -> Report {
    let a = analyze(smem, acc, d).unwrap();
    let s = simulate(smem, acc, d).unwrap();
    same(&a, &s);
    a
}

/// `both` for the named atom's access.
fn atom_report(smem: &Smem, atom: &str, d: Dtype) -> Report {
    let a = Atom::parse(atom).unwrap().access(smem, d, None).unwrap();
    both(smem, &a, d)
}

/// Where the named atom can access `smem`, analysis and simulation agree (the same report, or
/// errors with the same code).
fn atom_agrees(smem: &Smem, atom: &str, d: Dtype) -> Result<(), TestCaseError> {
    let Ok(acc) = Atom::parse(atom).unwrap().access(smem, d, None) else {
        return Ok(());
    };
    match (analyze(smem, &acc, d), simulate(smem, &acc, d)) {
        (Ok(a), Ok(s)) => same(&a, &s),
        (Err(a), Err(s)) => prop_assert_eq!(a.code(), s.code()),
        (a, s) => prop_assert!(false, "analysis {:?} vs simulation {:?}", a, s),
    }
    Ok(())
}

fn same(a: &Report, s: &Report) {
    assert_eq!(
        (
            a.vector_bytes,
            a.instructions,
            a.phases,
            a.wavefronts,
            a.ideal
        ),
        (
            s.vector_bytes,
            s.instructions,
            s.phases,
            s.wavefronts,
            s.ideal
        ),
        "{a:?} vs {s:?}"
    );
    assert_eq!(a.worst.wavefronts, s.worst.wavefronts);
    assert_eq!(a.worst.bank, s.worst.bank);
    let mut x: Vec<_> = a.worst.hits.iter().map(|h| (h.0, h.1)).collect();
    let mut y: Vec<_> = s.worst.hits.iter().map(|h| (h.0, h.1)).collect();
    x.sort();
    x.dedup();
    y.sort();
    y.dedup();
    assert_eq!(x, y);
}

#[test]
fn row_major_32x32_f32_column_read_is_32_way() {
    let r = both(&plain("(32,32):(32,1)"), &tv("(32,1):(1,0)"), dt("f32"));
    assert_eq!((r.vector_bytes, r.wavefronts, r.ideal), (4, 32, 1));
    assert_eq!(r.worst.hits.len(), 32);
}

#[test]
fn padded_by_one_is_conflict_free() {
    let r = both(&plain("(32,32):(33,1)"), &tv("(32,1):(1,0)"), dt("f32"));
    assert_eq!((r.wavefronts, r.ideal), (1, 1));
    assert_eq!(r.method, "enumeration"); // 33 is not a power of two
                                         // All 32 columns: the padding also forbids vectors (33·4 is not 8-aligned): 32 scalar loads.
    let r = both(&plain("(32,32):(33,1)"), &tv("(32,32):(1,32)"), dt("f32"));
    assert_eq!(
        (r.vector_bytes, r.instructions, r.wavefronts, r.ideal),
        (4, 32, 32, 32)
    );
    // Unpadded, each thread reads its row as four 16-byte vectors: 8 rows per phase, same banks.
    let r = both(&plain("(32,32):(32,1)"), &tv("(32,32):(1,32)"), dt("f32"));
    assert_eq!(
        (r.vector_bytes, r.instructions, r.wavefronts, r.ideal),
        (16, 8, 256, 32)
    );
    assert_eq!(r.method, "f2-rank");
}

#[test]
fn unswizzled_64_wide_f16_ldmatrix_is_8_way() {
    let smem = plain("(64,64):(64,1)");
    let r = atom_report(&smem, "SM75_U32x4_LDSM_N", dt("f16"));
    // 16 atoms of 16×16, one ldmatrix.x4 each, 4 phases of 8 rows 128 bytes apart.
    assert_eq!((r.vector_bytes, r.instructions, r.phases), (16, 16, 4));
    assert_eq!((r.wavefronts, r.ideal), (16 * 4 * 8, 16 * 4));
    assert_eq!(r.worst.wavefronts, 8);
    assert_eq!(r.method, "f2-rank");
}

#[test]
fn sw128_f16_ldmatrix_is_conflict_free() {
    // Swizzle<3,3,3> o (64,64):(64,1), built with the XOR-swizzle constructor.
    let base: Layout = "(64,64):(64,1)".parse().unwrap();
    let sw = LinearLayout::from_swizzle(3, 3, 3, 12).unwrap();
    let ll = LinearLayout::from_layout(&base)
        .unwrap()
        .compose(&sw)
        .unwrap();
    for smem in [
        Smem::Linear(ll),
        Smem::Swizzled {
            bms: (3, 3, 3),
            layout: base.clone(),
        },
    ] {
        for atom in [
            "ldmatrix.x4",
            "ldmatrix.x2",
            "ldmatrix.x1",
            "stmatrix.x4",
            "tma",
            "cp.async.16",
        ] {
            let r = atom_report(&smem, atom, dt("f16"));
            assert_eq!(r.wavefronts, r.ideal, "{atom} on {}", smem.describe());
            assert_eq!(r.method, "f2-rank");
        }
    }
}

#[test]
fn trans_ldmatrix_on_mn_major() {
    // MN-major 64x64 f16: (64,64):(1,64); ldmatrix.x4.trans reads 16-byte rows along M.
    let smem = plain("(64,64):(1,64)");
    let r = atom_report(&smem, "ldmatrix.x4.trans", dt("f16"));
    assert_eq!(r.worst.wavefronts, 8);
    let sw = Smem::Swizzled {
        bms: (3, 3, 3),
        layout: "(64,64):(1,64)".parse().unwrap(),
    };
    let r = atom_report(&sw, "ldmatrix.x4.trans", dt("f16"));
    assert_eq!(r.wavefronts, r.ideal);
}

#[test]
fn typed_errors_with_checked_suggestions() {
    let smem = plain("(32,32):(32,1)");
    let e = analyze(&smem, &tv("(16,2):(1,16)"), dt("f32")).unwrap_err();
    assert_eq!(e.code(), "banks_thread_extent");
    let e = analyze(&smem, &tv("(32,64):(1,32)"), dt("f32")).unwrap_err();
    assert_eq!(e.code(), "banks_out_of_domain");
    for s in e.suggestions() {
        if let Some(l) = s.strip_prefix("--tv '").and_then(|x| x.split('\'').next()) {
            assert!(analyze(&smem, &tv(l), dt("f32")).is_ok(), "{s}");
        }
    }
    // A forced 16-byte vector on the padded layout is misaligned; the suggested widths work.
    let padded = plain("(32,32):(33,1)");
    let a = Access {
        tv: "(32,32):(1,32)".parse().unwrap(),
        instr: Instr::Shared { width: Some(16) },
        atom: None,
    };
    let e = analyze(&padded, &a, dt("f32")).unwrap_err();
    assert_eq!(e.code(), "banks_misaligned_vector");
    assert!(!e.suggestions().is_empty());
    for s in e.suggestions() {
        let w: u64 = s.split_whitespace().nth(2).unwrap().parse().unwrap();
        let a2 = Access {
            instr: Instr::Shared { width: Some(w) },
            ..a.clone()
        };
        assert!(analyze(&padded, &a2, dt("f32")).is_ok(), "{s}");
    }
    // ldmatrix moves 16-bit elements.
    let e = Atom::parse("ldmatrix.x4")
        .unwrap()
        .access(&plain("(64,64):(64,1)"), dt("f32"), None)
        .unwrap_err();
    assert_eq!(e.code(), "banks_bad_dtype");
    for s in e.suggestions() {
        assert_eq!(Dtype::parse(&s).unwrap().bytes(), Some(2));
    }
    assert_eq!(
        Atom::parse("ldmatrix.x3")
            .unwrap()
            .access(&plain("(64,64):(64,1)"), dt("f16"), None)
            .unwrap_err()
            .code(),
        "banks_bad_input"
    );
    assert_eq!(Atom::parse("bogus").unwrap_err().code(), "banks_bad_input");
}

#[test]
fn synthesis_standard_operand_cases() {
    // K-major f16 tiles of width 64 (128-byte rows): CUTLASS picks SW128 = Swizzle<3,3,3>.
    // Width 32 (64-byte rows): SW64 = Swizzle<2,3,3>; width 16 (32-byte rows): SW32 = Swizzle<1,3,3>.
    for (base, expect) in [
        ("(64,64):(64,1)", "Sw<3,3,3> o 0 o (64,64):(64,1)"),
        ("(128,64):(64,1)", "Sw<3,3,3> o 0 o (128,64):(64,1)"),
        ("(64,32):(32,1)", "Sw<2,3,3> o 0 o (64,32):(32,1)"),
        ("(64,16):(16,1)", "Sw<1,3,3> o 0 o (64,16):(16,1)"),
    ] {
        for writer in ["tma", "cp.async.16"] {
            let p = Problem {
                base: base.parse().unwrap(),
                dtype: dt("f16"),
                writer: Atom::parse(writer).unwrap(),
                writer_major: None,
                reader: Atom::parse("ldmatrix.x4").unwrap(),
                reader_major: None,
            };
            let s = synthesize(&p).unwrap();
            assert!(!s.base.conflict_free(), "{base}");
            assert_eq!(s.cute[0].smem.describe(), expect, "{base} {writer}");
            for c in &s.cute {
                assert!(c.conflict_free());
                let w = p.writer.access(&c.smem, p.dtype, None).unwrap();
                let sim = simulate(&c.smem, &w, p.dtype).unwrap();
                assert_eq!(sim.wavefronts, sim.ideal);
                let r = p.reader.access(&c.smem, p.dtype, None).unwrap();
                let sim = simulate(&c.smem, &r, p.dtype).unwrap();
                assert_eq!(sim.wavefronts, sim.ideal);
            }
        }
    }
    // MN-major operand read with ldmatrix.trans, written by TMA along M.
    let p = Problem {
        base: "(64,64):(1,64)".parse().unwrap(),
        dtype: dt("f16"),
        writer: Atom::parse("tma").unwrap(),
        writer_major: Some(Major::MN),
        reader: Atom::parse("ldmatrix.x4.trans").unwrap(),
        reader_major: None,
    };
    let s = synthesize(&p).unwrap();
    assert_eq!(s.cute[0].smem.describe(), "Sw<3,3,3> o 0 o (64,64):(1,64)");
}

/// A random rank-2 layout over a power-of-two domain of 2^(a+b+c) elements, strides from a small
/// set (compact, padded, overlapping) so both the F2 path and the enumeration run. Returns the
/// layout and log2 of its domain size.
fn smem_layout() -> impl Strategy<Value = (String, u32)> {
    (
        2u32..5,
        0u32..4,
        1u32..5,
        prop::sample::select(vec![1i64, 1, 1, 2, 3, 33]),
        prop::sample::select(vec![0i64, 0, 0, 1, 4]),
    )
        .prop_map(|(a, b, c, d0, pad)| {
            let (s0, s1, s2) = (1i64 << a, 1i64 << b, 1i64 << c);
            let d1 = d0 * s0 + pad;
            let d2 = d1 * s1 + pad;
            (format!("(({s0},{s1}),{s2}):(({d0},{d1}),{d2})"), a + b + c)
        })
}

/// A TV layout with 32 threads and 2^vb values whose bits go to distinct bits of a 2^k domain
/// (or broadcast, stride 0), sometimes with a non-power-of-two stride.
fn tv_layout(k: u32) -> impl Strategy<Value = String> {
    (
        0u32..4,
        Just((0..k).collect::<Vec<u32>>()).prop_shuffle(),
        prop::collection::vec(0u32..8, 9),
        any::<bool>(),
    )
        .prop_map(move |(vb, bits, zero, odd)| {
            let mut strides = Vec::new();
            let mut it = bits.iter();
            for z in &zero[..(5 + vb) as usize] {
                let d = match it.next() {
                    Some(&b) if *z != 0 => 1i64 << b,
                    _ => 0,
                };
                strides.push(d);
            }
            if odd && k >= 8 {
                strides[0] = 3;
            }
            let t: Vec<String> = strides[..5].iter().map(|d| d.to_string()).collect();
            let v: Vec<String> = strides[5..].iter().map(|d| d.to_string()).collect();
            let vs = vec!["2"; vb as usize].join(",");
            if vb == 0 {
                format!("((2,2,2,2,2),1):(({}),0)", t.join(","))
            } else {
                format!("((2,2,2,2,2),({vs})):(({}),({}))", t.join(","), v.join(","))
            }
        })
}

fn case() -> impl Strategy<Value = (String, String)> {
    smem_layout().prop_flat_map(|(l, k)| (Just(l), tv_layout(k)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The analysis equals the brute-force simulator (or both refuse with the same code).
    #[test]
    fn analysis_equals_simulator(
        (l, t) in case(),
        d in prop::sample::select(vec!["i8", "f16", "f32", "f64"]),
        sw in (0u32..4, 0u32..4, 0u32..5),
        width in prop::sample::select(vec![None, None, None, None, Some(1u64), Some(2), Some(4), Some(8), Some(16)]),
    ) {
        let layout: Layout = l.parse().unwrap();
        let smem = if sw.0 > 0 && sw.2 >= sw.0 {
            Smem::Swizzled { bms: sw, layout }
        } else {
            Smem::Plain(layout)
        };
        let acc = Access { tv: t.parse().unwrap(), instr: Instr::Shared { width }, atom: None };
        let d = dt(d);
        let a = analyze(&smem, &acc, d);
        if std::env::var_os("TESSERA_BANKS_STATS").is_some() {
            eprintln!("STAT {}", match &a { Ok(r) => format!("{} {}", r.method, r.wavefronts > r.ideal), Err(e) => e.code().to_string() });
        }
        match (a, simulate(&smem, &acc, d)) {
            (Ok(a), Ok(s)) => same(&a, &s),
            (Err(a), Err(s)) => prop_assert_eq!(a.code(), s.code()),
            (a, s) => prop_assert!(false, "analysis {:?} vs simulation {:?}", a, s),
        }
    }

    /// Named atoms over random K-major/MN-major swizzled tiles: analysis equals simulation.
    #[test]
    fn atoms_analysis_equals_simulator(
        m in 4u32..8, n in 4u32..8, mn_major in any::<bool>(),
        sw in (0u32..4, 0u32..5, 0u32..6),
        atom in prop::sample::select(vec!["ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans",
            "ldmatrix.x2.trans", "stmatrix.x4", "cp.async.4", "cp.async.8", "cp.async.16", "tma", "st.shared.4"]),
        d in prop::sample::select(vec!["f16", "f32"]),
    ) {
        let (mm, nn) = (1i64 << m, 1i64 << n);
        let base: Layout = if mn_major { format!("({mm},{nn}):(1,{mm})") } else { format!("({mm},{nn}):({nn},1)") }.parse().unwrap();
        let smem = if sw.0 > 0 && sw.2 >= sw.0 { Smem::Swizzled { bms: sw, layout: base } } else { Smem::Plain(base) };
        let d = dt(d);
        atom_agrees(&smem, atom, d)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Issue 11's composed layouts (any sign of S, with an offset) as shared-memory layouts.
    #[test]
    fn composed_layouts_analysis_equals_simulator(
        b in 1i64..4, m in 0i64..4, s in 1i64..5, neg in any::<bool>(), off in prop::sample::select(vec![0i64, 0, 8, 64]),
        atom in prop::sample::select(vec!["ldmatrix.x4", "ldmatrix.x2", "cp.async.16", "tma", "st.shared.4"]),
    ) {
        use tessera::layout::{AnyLayout, ComposedLayout, Swizzle};
        prop_assume!(s >= b);
        let s = if neg { -s } else { s };
        let base: Layout = "(64,64):(64,1)".parse().unwrap();
        let c = AnyLayout::Composed(Box::new(ComposedLayout::new(Swizzle::new(b, m, s).unwrap().into(), off, base.into())));
        let smem = Smem::from_any(c);
        let d = dt("f16");
        atom_agrees(&smem, atom, d)?;
    }
}

#[test]
fn synthesis_proves_none_exists_for_a_transposing_writer() {
    // 32 threads store one f16 each down a column of a K-major 64×64 tile (MN-major source), and
    // ldmatrix.x4 reads it. Keeping ldmatrix's 16-byte rows intact leaves 3 bank bits for 32
    // rows: at least 4-way for the writer, whatever the swizzle.
    let p = Problem {
        base: "(64,64):(64,1)".parse().unwrap(),
        dtype: dt("f16"),
        writer: Atom::parse("st.shared.2").unwrap(),
        writer_major: Some(Major::MN),
        reader: Atom::parse("ldmatrix.x4").unwrap(),
        reader_major: None,
    };
    let s = synthesize(&p).unwrap();
    assert!(s.cute.is_empty());
    let g = s.general.as_ref().unwrap();
    assert!(!g.conflict_free());
    assert_eq!((g.cost(), g.ideal()), (576, 192));
    assert!(s
        .f2_verdict
        .as_ref()
        .unwrap()
        .starts_with("no conflict-free layout exists"));
    let c = s.best_cute.as_ref().unwrap();
    assert_eq!(c.cost(), 576);
    assert_eq!(c.smem.describe(), "Sw<3,3,3> o 0 o (64,64):(64,1)");
    // The F2 answer checked by the simulator.
    for (acc, rep) in [
        (
            p.writer.access(&g.smem, p.dtype, p.writer_major).unwrap(),
            &g.writer,
        ),
        (p.reader.access(&g.smem, p.dtype, None).unwrap(), &g.reader),
    ] {
        let sim = simulate(&g.smem, &acc, p.dtype).unwrap();
        assert_eq!(sim.wavefronts, rep.wavefronts);
    }
    // Exhaustively, no 16-byte-preserving bijection does better for the writer alone than 4 per
    // phase: 32 rows share one 16-byte column, whose 8 positions are the only banks left.
    assert_eq!(g.writer.worst.wavefronts, 4);
}

#[test]
fn every_code_is_documented() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/banks.md"))
        .unwrap();
    for code in tessera::diagnostic::catalogue::BANKS.iter().map(|c| c.code) {
        assert!(
            docs.contains(&format!("`{code}`")),
            "{code} is not in docs/banks.md"
        );
    }
}

#[test]
fn synthesis_matches_cutlass_gmma_atoms() {
    // CUTLASS's GMMA K-major atoms for half_t (issue 11's table), tiled down the rows, are the
    // functions synthesis finds first for TMA + ldmatrix.x4 on K-major f16 tiles.
    for (atom, width) in [
        ("GMMA::Layout_K_SW128_Atom", 64i64),
        ("GMMA::Layout_K_SW64_Atom", 32),
        ("GMMA::Layout_K_SW32_Atom", 16),
    ] {
        let a = tessera::algebra::atoms::atom(atom, "half_t").unwrap();
        let p = Problem {
            base: format!("(64,{width}):({width},1)").parse().unwrap(),
            dtype: dt("f16"),
            writer: Atom::parse("tma").unwrap(),
            writer_major: None,
            reader: Atom::parse("ldmatrix.x4").unwrap(),
            reader_major: None,
        };
        let s = synthesize(&p).unwrap();
        let ours = &s.cute[0].smem;
        for m in 0..64i64 {
            for k in 0..width {
                let cutlass = a
                    .crd2idx(&format!("({},{k})", m % 8).parse().unwrap())
                    .unwrap()
                    + 8 * width * (m / 8);
                assert_eq!(
                    ours.offset((m + 64 * k) as u64).unwrap() as i64,
                    cutlass,
                    "{atom} at ({m},{k})"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Padded (non-F2) tiles with named atoms: the translate shortcut equals the simulator.
    #[test]
    fn padded_atoms_analysis_equals_simulator(
        m in 4u32..7, n in 4u32..7, pad in prop::sample::select(vec![1i64, 2, 4, 8, 16]), mn_major in any::<bool>(),
        atom in prop::sample::select(vec!["ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x4.trans", "cp.async.16", "tma", "st.shared.4", "cp.async.8"]),
        d in prop::sample::select(vec!["f16", "f32"]),
    ) {
        let (mm, nn) = (1i64 << m, 1i64 << n);
        let base: Layout = if mn_major { format!("({mm},{nn}):(1,{})", mm + pad) } else { format!("({mm},{nn}):({},1)", nn + pad) }.parse().unwrap();
        let smem = Smem::Plain(base);
        let d = dt(d);
        atom_agrees(&smem, atom, d)?;
    }
}

/// A tile larger than any block's shared memory (the largest `smem_per_block` of the target
/// table, never a literal here) but addressable is analysed, with the `banks_smem_capacity`
/// warning; one byte less than the largest block is not warned about; past the 32-bit window it
/// is refused.
#[test]
fn tiles_past_every_gpus_shared_memory_are_answered_with_a_warning() {
    use tessera::banks::{capacity_warning, largest_smem_per_block};
    let arch = largest_smem_per_block();
    let max = arch.smem_per_block;
    assert!(tessera::target::ARCHS
        .iter()
        .all(|a| a.smem_per_block <= max));
    assert_eq!(
        max, 232_448,
        "Hopper's 227 KiB per block (CUTLASS's sm90_smem_capacity_bytes)"
    );
    let i8 = dt("i8");
    // Exactly the largest block, then one element more (1-byte elements).
    let fits = Smem::Plain(format!("({max}):(1)").parse().unwrap());
    assert!(capacity_warning(&fits, i8).unwrap().is_none());
    let over = Smem::Plain(format!("({}):(1)", max + 1).parse().unwrap());
    let w = capacity_warning(&over, i8).unwrap().expect("a warning");
    assert_eq!(w.code, "banks_smem_capacity");
    assert!(
        w.message.contains(&format!("{} bytes", max + 1)),
        "{}",
        w.message
    );
    assert!(
        w.message.contains(&format!("({max} bytes")),
        "{}",
        w.message
    );
    assert!(tessera::diagnostic::catalogue::lookup(w.code).is_some());
    // The span counts the element size and the largest offset, not the domain: a strided tile
    // of few elements whose last element lies past the largest block.
    let f32 = dt("f32");
    let sparse = Smem::Plain(format!("(32,2):(1,{})", max / 4).parse().unwrap());
    assert!(capacity_warning(&sparse, f32).unwrap().is_some());
    assert!(capacity_warning(&plain("(128,128):(128,1)"), f32)
        .unwrap()
        .is_none());
    // A swizzled tile by its exact span (Sw<3,4,3> o (8,8):(64,1) reaches 503, not 456).
    let sw = Smem::from_any("Sw<3,4,3> o 0 o (8,8):(64,1)".parse().unwrap());
    let f64 = dt("f64");
    assert!(capacity_warning(&sw, f64).unwrap().is_none());
    // 256 × 256 f32 = 256 KiB: analysed (and the simulator agrees), with the warning.
    let big = plain("(256,256):(256,1)");
    let r = both(&big, &tv("(32,1):(1,0)"), f32);
    assert_eq!(r.wavefronts, 32);
    assert!(capacity_warning(&big, f32).unwrap().is_some());
    // 8 GiB is past the 32-bit window: refused, as before.
    let huge = plain("(65536,32768):(32768,1)");
    let e = analyze(&huge, &tv("(32,1):(1,0)"), f32).unwrap_err();
    assert_eq!(e.code(), "banks_address");
    assert!(e.to_string().contains(&max.to_string()), "{e}");
}
