//! `tessera tour`: the seed examples and real GEMM tilings, computed and checked live.

use std::fmt::Write;

use tessera::algebra;
use tessera::notation::{self, Value};
use tessera::Layout;

struct Tour {
    out: String,
}

impl Tour {
    fn heading(&mut self, title: &str) {
        let _ = writeln!(self.out, "\n== {title} ==");
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    /// Evaluates `expr` and prints `expr = value` (or the error it raises).
    fn eval(&mut self, expr: &str) -> Option<Value> {
        match notation::eval(expr) {
            Ok(v) => {
                let text = v.to_string().replace('\n', "\n      ");
                let _ = writeln!(self.out, "  {expr}\n    = {text}");
                Some(v)
            }
            Err(e) => {
                let _ = writeln!(self.out, "  {expr}\n    error[{}]: {e}", e.code());
                None
            }
        }
    }

    fn layout(&mut self, expr: &str) -> Option<Layout> {
        match self.eval(expr)? {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }
}

fn layout(text: &str) -> Layout {
    text.parse().expect("tour layouts are well formed")
}

/// Counts the points where `r(i) != a(b(i))`, over b's domain.
fn composition_mismatches(a: &Layout, b: &Layout, r: &Layout) -> Option<(i64, i64)> {
    let n = b.size().ok()?;
    let mut bad = 0;
    for i in 0..n {
        if r.eval(i).ok()? != a.eval(b.eval(i).ok()?).ok()? {
            bad += 1;
        }
    }
    Some((bad, n))
}

/// The whole tour as text.
pub fn tour() -> String {
    let mut t = Tour { out: String::new() };
    t.say("Tessera: GPU layouts and iteration spaces, provably right.");
    t.say("Every value below is computed now; every check is run now.");

    t.heading("1. Notation: CuTe's shape:stride");
    let l = t.layout("(2,(2,2)):(4,(2,1))").expect("layout");
    t.say(&format!("  pycute prints it as {}", notation::pycute(&l)));
    t.say("  print_layout (byte-identical to CuTe's):");
    if let Ok(table) = notation::print_layout(&l) {
        for line in table.lines() {
            t.say(&format!("    {line}"));
        }
    }
    t.eval("idx2crd(16,(3,(2,3)))");
    t.eval("crd2idx(20,(3,(2,3)),(3,(12,1)))");

    t.heading("2. Coalescence as normalization");
    t.say("  The three rules (left unit, right unit, packed merge) each remove one mode, so");
    t.say("  the rewrite terminates; each preserves the function on the domain.");
    t.eval("coalesce_trace((2,1,(3,4)):(1,99,(2,6)))");
    let c = layout("(2,1,(3,4)):(1,99,(2,6))");
    if let Ok(r) = algebra::coalesce(&c) {
        let same = (0..24).all(|i| c.eval(i).ok() == r.eval(i).ok());
        t.say(&format!(
            "  check: coalesce gives {r}; equal to the input at all 24 points: {same}"
        ));
    }
    t.eval("coalesce((2,(1,6)):(1,(6,2)),(1,1))");

    t.heading("3. The Complementation theorem: the tiles that complete a layout");
    t.say("  complement1(N, d, M) = (d, M/(N*d)):(1, N*d) needs the proof N*d | M.");
    if let Some(b) = t.layout("complement1(4,2,24)") {
        let a = layout("4:2");
        let c = Layout::concat([&a, &b]);
        t.say(&format!(
            "  A ++ B = {} is a bijection onto [0,24): {}",
            algebra::coalesce(&c)
                .map(|x| x.to_string())
                .unwrap_or_default(),
            algebra::decide::bijection_by_enumeration(&c, 24).unwrap_or(false)
        ));
    }
    t.say("  The seed's badTile: 128*16 = 2048 does not divide 2040.");
    t.eval("complement1(128,16,2040)");
    t.say("  CuTe's documented complements:");
    for e in [
        "complement(4:2,24)",
        "complement((2,2):(1,6),24)",
        "complement(12:2,53)",
    ] {
        t.eval(e);
    }
    t.say("  A non-injective layout has no complement (pycute returns garbage here):");
    t.eval("complement((2,2):(1,1))");

    t.heading("4. Composition, admissibility decided exactly");
    for (a, b) in [
        ("(6,2):(8,2)", "(4,3):(3,1)"),
        ("(10,2):(16,4)", "(5,4):(1,5)"),
    ] {
        let e = format!("composition({a},{b})");
        if let Some(r) = t.layout(&e) {
            if let Some((bad, n)) = composition_mismatches(&layout(a), &layout(b), &r) {
                t.say(&format!(
                    "    checked R(i) = A(B(i)) at {n} points: {bad} mismatches"
                ));
            }
        }
    }
    t.say(
        "  cutlass #3177: CuTe C++ accepts this and returns (2,3):(6,3), wrong at 4 of 6 points.",
    );
    t.eval("composition((4,6,8):(2,3,5),6:3)");
    t.say("  cutlass #2955: CuTe C++ and pycute both return (3,2):(2,3), wrong at one point.");
    t.eval("composition((6,2):(1,7),(3,2):(2,3))");
    t.say("  A divide CuTe C++ gets wrong at 17 of 20 points:");
    t.eval("logical_divide((3,5):(5,1),2:1)");

    t.heading("5. Real GEMM tilings");
    t.say("  (a) A 4096x4096 row-major A operand cut into 128x64 CTA tiles:");
    if let Some(z) = t.layout("zipped_divide((4096,4096):(4096,1),(128,64))") {
        if let (Some(tile), Some(rest)) = (z.mode_at(0), z.mode_at(1)) {
            t.say(&format!(
                "    {} tiles of {} elements each",
                rest.size().unwrap_or(0),
                tile.size().unwrap_or(0)
            ));
        }
    }
    t.say("  (b) The SM80 16x8x16 MMA A-operand thread/value layout (32 threads x 8 values):");
    if let Some(tv) = t.layout("((4,8),(2,2,2)):((32,1),(16,8,128))") {
        t.say(&format!(
            "    size {} over a 16x16 tile; its inverse maps tile offsets back to (thread, value):",
            tv.size().unwrap_or(0)
        ));
        t.eval("left_inverse(((4,8),(2,2,2)):((32,1),(16,8,128)))");
    }
    t.say("  (c) A K-major shared-memory tile built from an 8x64 atom:");
    t.eval("tile_to_shape((8,64):(64,1),(128,64))");
    t.say("  (d) Raking 2x2 values over a 16x8 thread grid (a TV layout):");
    t.eval("raked_product((16,8):(8,1),(2,2):(1,2))");
    t.say("  (e) A 64x128 TMA box over a 1024x4096 row-major tensor: box modes and rest modes");
    let tensor = layout("(1024,4096):(4096,1)");
    if let Some(z) = t.layout("zipped_divide((1024,4096):(4096,1),(64,128))") {
        let covered = z.size().ok() == tensor.size().ok();
        t.say(&format!(
            "    the boxes tile the tensor exactly (same size, no holes): {covered}"
        ));
    }
    t.say("  A box that does not divide the tensor (a 3x5 tensor cut by 2):");
    t.eval("logical_divide((3,5):(5,1),2:1)");
    t.say("  Its ragged form: the padded domain, with the one hole (section 8):");
    t.eval("ragged_logical_divide((3,5):(5,1),2:1)");
    swizzled_tile(&mut t);

    domains(&mut t);
    tma_section(&mut t);
    ragged_section(&mut t);
    banks_section(&mut t);
    symbolic_section(&mut t);
    check_section(&mut t);
    t.out
}

/// Evaluates a symbolic expression under facts and prints the result with its guards.
fn sym(
    t: &mut Tour,
    expr: &str,
    facts: &[&str],
) -> Option<tessera::symbolic::Sym<tessera::symbolic::SymValue>> {
    let shown = if facts.is_empty() {
        expr.to_string()
    } else {
        format!("{expr}   given {}", facts.join(", "))
    };
    match tessera::symbolic::eval(expr, facts) {
        Ok(s) => {
            t.say(&format!("  {shown}\n    = {}", s.value));
            for g in &s.guards {
                t.say(&format!("    if {}    [{}]", g.pred, g.op));
            }
            Some(s)
        }
        Err(e) => {
            t.say(&format!("  {shown}\n    error[{}]: {e}", e.code()));
            None
        }
    }
}

/// Instantiates a symbolic answer at `env` and compares it with the integer algebra on `int`.
fn sym_check(
    s: &tessera::symbolic::Sym<tessera::symbolic::SymValue>,
    env: &[(&str, i64)],
    int: &str,
) -> bool {
    let env: tessera::symbolic::Assignment = env.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    if !s.guards.iter().all(|g| g.pred.holds(&env).unwrap_or(false)) {
        return false;
    }
    let (Ok(a), Ok(b)) = (s.value.subs(&env), notation::eval(int)) else {
        return false;
    };
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Layout(x), Value::Layout(y)) => {
                tessera::symbolic::same_up_to_unit_strides(x, y)
            }
            (Value::Tuple(x), Value::Tuple(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            _ => a.to_string() == b.to_string(),
        }
    }
    same(&a, &b)
}

/// The GEMM layouts of a real kernel (CuTe's `sgemm_1.cu`: column-major A, B, C with runtime
/// M, N, K and leading dimensions, 128x128x8 CTA tiles, 32x8 copy threads) for every size.
fn symbolic_section(t: &mut Tour) {
    t.heading("10. Runtime extents: one GEMM kernel, every M, N, K");
    t.say("  CuTe's sgemm_1 builds A = (M,K):(1,ldA), B = (N,K):(1,ldB), C = (M,N):(1,ldC) from runtime");
    t.say("  sizes. CuTe C++ checks divisibility only for static shapes and skips it here; Tessera runs");
    t.say("  the algebra on the names and returns each result with the guards it depends on.");
    t.say(
        "  Without facts, the CTA divide is the total ceil form, right for every M, K (no guard):",
    );
    sym(t, "zipped_divide((M,K):(1,ldA),(128,8))", &[]);
    let (fm, fn_, fk) = ("M % 128 == 0", "N % 128 == 0", "K % 8 == 0");
    t.say("  With the kernel's divisibility facts the rest modes are exact quotients:");
    let za = sym(t, "zipped_divide((M,K):(1,ldA),(128,8))", &[fm, fk]);
    t.say("  The CTA (bm, bn) and k-tile kt: local_tile by the CTA tile; the guards are the in-bounds");
    t.say("  conditions of the block coordinates (what an unpredicated kernel needs):");
    let ga = sym(t, "local_tile((M,K):(1,ldA),(128,8),(bm,kt))", &[fm, fk]);
    let gb = sym(t, "local_tile((N,K):(1,ldB),(128,8),(bn,kt))", &[fn_, fk]);
    let gc = sym(t, "local_tile((M,N):(1,ldC),(128,128),(bm,bn))", &[fm, fn_]);
    t.say("  Thread t's part of the A tile for the 32x8 copy (local_partition by the TiledCopy's threads):");
    let pa = sym(t, "local_partition((128,8):(1,ldA),(32,8):(1,32),t)", &[]);
    t.say("  and of the C tile for a 16x16 thread grid:");
    let pc = sym(
        t,
        "local_partition((128,128):(1,ldC),(16,16):(1,16),t)",
        &[],
    );
    // The host-side check, printed as C++.
    let mut all: Vec<tessera::symbolic::Guard> = Vec::new();
    for s in [&ga, &gb, &gc, &pa, &pc].into_iter().flatten() {
        for g in &s.guards {
            if !all.iter().any(|h| h.pred == g.pred) {
                all.push(g.clone());
            }
        }
    }
    let cpp: Vec<String> = all
        .iter()
        .map(|g| g.pred.render(tessera::symbolic::Syntax::Cpp))
        .collect();
    t.say("  Every condition these layouts depend on, as the kernel's host-side check (C++):");
    t.say(&format!("    can_implement = {};", cpp.join(" && ")));
    // Check the answers against the integer algebra at real sizes now.
    let mut ok = true;
    let mut checked = 0;
    for (m, n, k) in [
        (4096, 4096, 4096),
        (1024, 512, 64),
        (128, 128, 8),
        (384, 256, 24),
    ] {
        let (ld_a, ld_b, ld_c) = (m, n, m);
        let env = |extra: &[(&'static str, i64)]| {
            let mut v: Vec<(&str, i64)> = vec![
                ("M", m),
                ("N", n),
                ("K", k),
                ("ldA", ld_a),
                ("ldB", ld_b),
                ("ldC", ld_c),
            ];
            v.extend_from_slice(extra);
            v
        };
        let (bm, bn, kt) = (m / 128 - 1, n / 128 - 1, k / 8 - 1);
        let cases = [
            (
                &za,
                env(&[]),
                format!("zipped_divide(({m},{k}):(1,{ld_a}),(128,8))"),
            ),
            (
                &ga,
                env(&[("bm", bm), ("kt", kt)]),
                format!("local_tile(({m},{k}):(1,{ld_a}),(128,8),({bm},{kt}))"),
            ),
            (
                &gb,
                env(&[("bn", bn), ("kt", kt)]),
                format!("local_tile(({n},{k}):(1,{ld_b}),(128,8),({bn},{kt}))"),
            ),
            (
                &gc,
                env(&[("bm", bm), ("bn", bn)]),
                format!("local_tile(({m},{n}):(1,{ld_c}),(128,128),({bm},{bn}))"),
            ),
            (
                &pa,
                env(&[("t", 255)]),
                format!("local_partition((128,8):(1,{ld_a}),(32,8):(1,32),255)"),
            ),
            (
                &pc,
                env(&[("t", 37)]),
                format!("local_partition((128,128):(1,{ld_c}),(16,16):(1,16),37)"),
            ),
        ];
        for (s, e, int) in cases {
            let Some(s) = s else {
                ok = false;
                continue;
            };
            checked += 1;
            ok &= sym_check(s, &e, &int);
        }
    }
    t.say("  checked now: instantiated at (M,N,K) = (4096,4096,4096), (1024,512,64), (128,128,8), (384,256,24),");
    t.say(&format!(
        "  the last CTA and a thread, each of the {checked} answers equals the integer algebra's: {ok}"
    ));
    t.say("  (cutlass#3469/#3470/#3471, where CuTe DSL refuses dynamic layouts, and PR #3622: tests/symbolic/symbolic.rs.)");
}

/// A whole kernel checked: a CUTLASS kernel name, then a broken variant refuted and fixed.
fn check_section(t: &mut Tour) {
    use tessera::check::config::Extent;
    use tessera::check::{check, cutlass, text, Overall, Verdict};
    t.heading("11. A whole GEMM kernel, proved before it is compiled: tessera check");
    let name = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma";
    t.say(&format!("  {name}"));
    t.say("  (a kernel CUTLASS's generator emits), problem M x 4096 x K, derived as the CollectiveBuilder derives it:");
    let Ok(p) = cutlass::parse(name) else {
        t.say("  (the name does not parse)");
        return;
    };
    let mut c = p.config;
    c.problem[1] = Extent::Static(4096);
    let r = check(&c);
    let d = &r.derived;
    t.say(&format!(
        "  {} threads, {} stages ({}), {} of {} B of shared memory",
        d.threads, d.stages, d.stages_source, d.smem_bytes, d.smem_capacity
    ));
    t.say(&format!("  {}; A in {}", d.tiled_mma, d.smem_layout_a));
    let proved = r
        .obligations
        .iter()
        .filter(|o| o.verdict == Verdict::Proved)
        .count();
    t.say(&format!(
        "  {proved} of {} obligations proved; verdict: {}",
        r.obligations.len(),
        text::verdict_line(&r)
    ));
    t.say("  The same kernel with the TMA descriptor of A left unswizzled (KnowingNothing/MatmulTutorial#14):");
    c.tma_swizzle[0] = Some(0);
    let bad = check(&c);
    for o in bad.refuted() {
        t.say(&format!("  refuted {}: {}", o.code, o.message));
        if let Some(w) = &o.witness {
            t.say(&format!("    witness: {w}"));
        }
        for s in &o.suggestions {
            t.say(&format!("    suggestion (checked): {}", s.text));
        }
    }
    c.tma_swizzle[0] = Some(128);
    let fixed = check(&c);
    t.say(&format!(
        "  check: with the suggestion applied the verdict is {} ({})",
        text::verdict_line(&fixed),
        if fixed.overall() != Overall::Invalid {
            "no obligation refuted"
        } else {
            "still refuted"
        }
    ));
}

/// A real residue end to end: M = 1000 rows cut into 128-row CTA tiles.
fn ragged_section(t: &mut Tour) {
    use tessera::algebra::ragged::{ragged_divide, Arrangement};
    use tessera::algebra::Tiler;
    t.heading("8. Ragged tiles: a GEMM with M = 1000 and 128x64 CTA tiles");
    t.say("  CuTe pads the divide silently (8 tiles of 128 rows cover 1024 > 1000) and leaves the");
    t.say(
        "  residue to hand-written predicates. The ragged divide says where the holes are, which",
    );
    t.say("  bound guards them (the domain engine's minimal predicate), and what TMA does there:");
    let expr = "zipped_divide((1000,4096):(4096,1),(128,64))";
    match tessera::tma::ragged::report(expr, Some("m,k"), tessera::tma::DataType::F16, false) {
        Ok(text) => {
            for line in text.lines() {
                t.say(&format!("    | {line}"));
            }
        }
        Err(e) => t.say(&format!("    {e}")),
    }
    // Check every padded coordinate now: holes counted, the predicate agrees at each point.
    let a = layout("(1000,4096):(4096,1)");
    let tiler = Tiler::Tuple(vec![Tiler::Int(128), Tiler::Int(64)]);
    if let Ok(r) = ragged_divide(&a, &tiler, Arrangement::Zipped) {
        let (mut holes, mut agree, mut reached) = (0i64, true, vec![false; r.valid as usize]);
        for j in 0..r.points {
            let Ok(g) = r.index.eval(j) else {
                agree = false;
                break;
            };
            let m = g % r.modes[0].padded_size;
            match r.classify(g) {
                None => {
                    holes += 1;
                    agree &= m >= 1000;
                }
                Some(i) => {
                    agree &= m < 1000 && !reached[i as usize];
                    reached[i as usize] = true;
                }
            }
        }
        let all = reached.iter().all(|&b| b);
        t.say(&format!(
            "  checked now over all {} padded coordinates: {holes} holes; `m < 1000` holds exactly at the valid ones: {agree}; each of the {} elements reached once: {all}",
            r.points, r.valid
        ));
    }
    t.say("  The last row of tiles (rest coordinate (7,0)) is the residue: 104 of its 128 rows are valid:");
    t.eval("ragged_local_tile((1000,4096):(4096,1),(128,64),(7,0))");
    t.say("  One thread of a 32x4 thread grid over the M = 1000 column block (local_partition):");
    t.eval("ragged_local_partition((1000,64):(4096,1),(32,4):(4,1),127)");
}

/// "Will these loads stomp on each other?": shared-memory bank conflicts, each answer checked
/// against the brute-force simulator as it is printed, and a swizzle synthesized.
fn banks_section(t: &mut Tour) {
    use tessera::banks::synth::{synthesize, Problem};
    use tessera::banks::{analyze, simulate, Access, Atom, Dtype, Instr, Smem};
    t.heading("9. Will these loads stomp on each other? Shared-memory bank conflicts");
    t.say("  The model (CUDA C++ Programming Guide): 32 banks of 4 bytes; W-byte accesses are served in");
    t.say("  phases (32 threads for W <= 4, 16 for 8, 8 for 16); a phase costs the most distinct words");
    t.say("  it touches in one bank. Each line below is the analysis, checked by the simulator.");
    let (f16, f32) = (
        Dtype::parse("f16").expect("f16"),
        Dtype::parse("f32").expect("f32"),
    );
    let smem = |s: &str| Smem::from_any(s.parse().expect("tour layouts are well formed"));
    let cases: Vec<(&str, Smem, Result<Access, tessera::banks::BankError>, Dtype)> = vec![
        (
            "row-major 32x32 f32, a warp reads one column",
            smem("(32,32):(32,1)"),
            Ok(Access {
                tv: layout("(32,1):(1,0)"),
                instr: Instr::Shared { width: None },
                atom: None,
            }),
            f32,
        ),
        (
            "the same, rows padded by one element",
            smem("(32,32):(33,1)"),
            Ok(Access {
                tv: layout("(32,1):(1,0)"),
                instr: Instr::Shared { width: None },
                atom: None,
            }),
            f32,
        ),
        (
            "64-wide f16 K-major tile, SM75_U32x4_LDSM_N (ldmatrix.x4)",
            smem("(64,64):(64,1)"),
            Atom::parse("SM75_U32x4_LDSM_N")
                .and_then(|a| a.access(&smem("(64,64):(64,1)"), f16, None)),
            f16,
        ),
        (
            "the same tile with CUTLASS's SW128 swizzle",
            smem("Sw<3,3,3> o 0 o (64,64):(64,1)"),
            Atom::parse("SM75_U32x4_LDSM_N")
                .and_then(|a| a.access(&smem("(64,64):(64,1)"), f16, None)),
            f16,
        ),
    ];
    for (title, s, acc, d) in cases {
        let line = acc.and_then(|a| {
            let r = analyze(&s, &a, d)?;
            let sim = simulate(&s, &a, d)?;
            let agrees = (r.wavefronts, r.ideal, r.vector_bytes) == (sim.wavefronts, sim.ideal, sim.vector_bytes);
            Ok(format!(
                "{}-byte vectors, {} wavefronts for an ideal {} ({}-way in the worst phase); simulator agrees: {agrees}",
                r.vector_bytes, r.wavefronts, r.ideal, r.worst.wavefronts
            ))
        });
        t.say(&format!("  {title}: {}", s.describe()));
        match line {
            Ok(l) => t.say(&format!("    {l}")),
            Err(e) => t.say(&format!("    error[{}]: {e}", e.code())),
        }
    }
    t.say("  Which swizzle makes a TMA write and an ldmatrix.x4 read of a 64x64 f16 tile conflict-free?");
    let p = Problem {
        base: layout("(64,64):(64,1)"),
        dtype: f16,
        writer: Atom::parse("tma").expect("atom"),
        writer_major: None,
        reader: Atom::parse("ldmatrix.x4").expect("atom"),
        reader_major: None,
    };
    match synthesize(&p) {
        Ok(s) => match s.cute.first() {
            Some(c) => {
                // CUTLASS's pick: GMMA::Layout_K_SW128_Atom<half_t> (8x64), tiled down the rows.
                let same = tessera::algebra::atoms::atom("GMMA::Layout_K_SW128_Atom", "half_t")
                    .ok()
                    .is_some_and(|a| {
                        (0..64i64).all(|m| {
                            (0..64i64).all(|k| {
                                let crd = format!("({},{k})", m % 8).parse();
                                let cutlass = crd.ok().and_then(|c| a.crd2idx(&c).ok());
                                let ours = c.smem.offset((m + 64 * k) as u64).ok();
                                cutlass.map(|x| x + 512 * (m / 8)) == ours.map(|x| x as i64)
                            })
                        })
                    });
                t.say(&format!(
                    "    {} (checked: writer {}/{}, reader {}/{})",
                    c.smem.describe(),
                    c.writer.wavefronts,
                    c.writer.ideal,
                    c.reader.wavefronts,
                    c.reader.ideal
                ));
                t.say(&format!(
                    "    the same function as CUTLASS's GMMA::Layout_K_SW128_Atom<half_t> tiled down the rows: {same}"
                ));
            }
            None => t.say("    no CuTe swizzle is conflict-free"),
        },
        Err(e) => t.say(&format!("    error[{}]: {e}", e.code())),
    }
}

/// Part III's Fundamental Theorem of TMA Correctness, on real descriptors.
fn tma_section(t: &mut Tour) {
    use tessera::tma::{validate, DataType, Request, Swizzle};
    t.heading("7. TMA descriptors and the Fundamental Theorem of TMA Correctness");
    let show = |t: &mut Tour, title: &str, r: &Request| {
        t.say(&format!("  {title}:"));
        for line in tessera::tma::report::text(&validate(r)).lines() {
            t.say(&format!("    | {line}"));
        }
    };
    let mut a = Request::new(DataType::F16, &[4096, 4096], &[128, 64]);
    a.swizzle = Swizzle::B128;
    show(
        t,
        "A CUTLASS-style f16 128x64 tile of a 4096x4096 operand, 128B swizzle",
        &a,
    );
    let mut wide = Request::new(DataType::F16, &[4096, 4096], &[128, 128]);
    wide.swizzle = Swizzle::B128;
    show(
        t,
        "The same with a 128-wide box: 256 inner bytes exceed the 128B swizzle span",
        &wide,
    );
    let mut strided = Request::new(DataType::F32, &[8, 4], &[4, 4]);
    strided.element_strides = vec![3, 1];
    show(
        t,
        "An element stride of 3 over a box of 4 (nvFuser's TMA modeling, Example 12)",
        &strided,
    );
}

const FIGURE1: &str = include_str!("../../../examples/schedules/figure1_split_6_by_4.tsch");
const FIGURE2: &str =
    include_str!("../../../examples/schedules/figure2_three_indivisible_splits.tsch");
const LISTING1: &str = include_str!("../../../examples/schedules/listing1_split_then_merge.tsch");
const LISTING2: &str = include_str!("../../../examples/schedules/listing2_merge_then_split.tsch");
const DIVISIBLE1: &str =
    include_str!("../../../examples/schedules/theorem5_divisible_split_then_merge.tsch");
const DIVISIBLE2: &str =
    include_str!("../../../examples/schedules/theorem5_divisible_merge_then_split.tsch");

/// Prints a schedule file without its comment lines.
fn statements(t: &mut Tour, text: &str) {
    for line in text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
    {
        t.say(&format!("    {line}"));
    }
}

fn domains(t: &mut Tour) {
    use tessera::domain::{equiv::compare, parse, report::analyze};
    t.heading("6. Seed: the divisibility of split (nvFuser iteration domains)");
    for (title, text) in [
        (
            "The 6-by-4 example: 6 items split by 4, allocated as 2x4",
            FIGURE1,
        ),
        (
            "The three-splits example: three indivisible splits",
            FIGURE2,
        ),
    ] {
        t.say(&format!("  {title}:"));
        statements(t, text);
        match parse(text).and_then(|s| analyze(&s)) {
            Ok(r) => {
                for line in r.render().lines() {
                    t.say(&format!("    | {line}"));
                }
            }
            Err(e) => t.say(&format!("    error[{}]: {e}", e.code())),
        }
    }
    for (title, a, b) in [
        (
            "The merge-split example: split-then-merge vs merge-then-split (5 is not divisible by 4)",
            LISTING1,
            LISTING2,
        ),
        ("Theorem 5 with a divisible split", DIVISIBLE1, DIVISIBLE2),
    ] {
        t.say(&format!("  {title}:"));
        match (parse(a), parse(b)) {
            (Ok(x), Ok(y)) => match compare(&x, &y) {
                Ok(eq) => {
                    if let Some(rule) = &eq.by_rule {
                        t.say(&format!(
                            "    by {}: {} => equivalent: {:?}",
                            rule.rule, rule.condition, rule.equivalent
                        ));
                    }
                    if let Some(en) = &eq.by_enumeration {
                        t.say(&format!(
                            "    by enumeration: equivalent: {}{}",
                            en.equivalent,
                            en.counterexample
                                .as_ref()
                                .map(|c| format!(" (counterexample: {c})"))
                                .unwrap_or_default()
                        ));
                    }
                }
                Err(e) => t.say(&format!("    error[{}]: {e}", e.code())),
            },
            (Err(e), _) | (_, Err(e)) => t.say(&format!("    error[{}]: {e}", e.code())),
        }
    }
}

/// A real SM90 operand tile in swizzled shared memory: the K-major SW128 GMMA atom for half_t,
/// tiled to a 128x64 CTA tile, written by a 128B-swizzle TMA box.
fn swizzled_tile(t: &mut Tour) {
    use tessera::tma::{smem, DataType, Swizzle};
    t.say("  (f) A swizzled SM90 operand tile: the A operand of a half-precision GEMM, K-major,");
    t.say("      128x64 per CTA, staged with CUTLASS's GMMA::Layout_K_SW128_Atom<half_t>:");
    t.eval("GMMA::Layout_K_SW128_Atom<half_t>");
    let Some(tile) = t
        .eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(128,64))")
        .and_then(|v| v.to_any_layout())
    else {
        return;
    };
    let n = tile.size().unwrap_or(0);
    let mut seen = vec![false; usize::try_from(n).unwrap_or(0)];
    let mut bijective = true;
    for i in 0..n {
        match tile.eval(i).ok().and_then(|x| usize::try_from(x).ok()) {
            Some(x) if x < seen.len() && !seen[x] => seen[x] = true,
            _ => bijective = false,
        }
    }
    t.say(&format!(
        "    a bijection of the {n} elements onto [0, {n}) (every element once, no gap): {bijective}"
    ));
    t.say("    the first 8 rows and 16 columns: each 16-byte chunk (8 halves) moves with its row");
    if let Some(v) = notation::eval("composition(GMMA::Layout_K_SW128_Atom<half_t>,(8,16))")
        .ok()
        .and_then(|v| v.to_any_layout())
    {
        if let Ok(table) = notation::print_layout_any(&v) {
            for line in table.lines() {
                t.say(&format!("      {line}"));
            }
        }
    }
    if let Some(Value::Int(v)) = t.eval(
        "max_common_vector(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(128,64)),(128,64):(64,1))",
    ) {
        t.say(&format!(
            "    the widest copy from a row-major tile that stays contiguous: {v} halves = {} bytes",
            2 * v
        ));
    }
    for mode in [Swizzle::B128, Swizzle::B64] {
        match smem::check(DataType::F16, &[128, 64], mode, &tile) {
            Ok(c) => t.say(&format!(
                "    a TMA box [128, 64] with swizzle {} writes {}: {}",
                mode.name(),
                c.written,
                match &c.mismatch {
                    None => "exactly this tile".to_string(),
                    Some((crd, got, want)) =>
                        format!("NOT this tile (at {crd}: TMA writes {got}, the MMA reads {want})"),
                }
            )),
            Err(e) => t.say(&format!("    error[{}]: {e}", e.code())),
        }
    }
}
