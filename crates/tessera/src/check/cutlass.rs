//! CUTLASS kernel names, as the CUTLASS library generator (`cutlass_library`) and
//! `cutlass_profiler` print them, parsed into a [`Config`].
//!
//! Two templates: CUTLASS 3.x (`cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma`:
//! A, B, accumulator, C, D; tile; cluster; stages (0 = auto); layouts of A, B, C; the largest of
//! A's and B's alignment; tile scheduler, kernel and epilogue schedule) and CUTLASS 2.x
//! (`cutlass_tensorop_s16816gemm_f16_128x128_32x3_tn_align8`: C type when it differs, the
//! accumulator's letter, the instruction shape, A's type; tile M×N, tile K × stages; layouts).

use super::config::{Config, Epilogue, Extent, Kernel, Operand, Order, Stages};
use super::facts::Elem;

/// A parsed kernel name: the configuration, and whether `tessera check` models the kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The configuration (problem M, N, K runtime).
    pub config: Config,
    /// `None` when checked; otherwise why the kernel family is not modelled (sparse, complex,
    /// mixed input, blockwise scaling, SIMT, cp.async warp-specialized, SM90 DMMA).
    pub unsupported: Option<String>,
    /// The instruction shape a 2.x name gives (`16816` → 16×8×16).
    pub instruction: Option<[u64; 3]>,
    /// `max(alignment A, alignment B)` as the name gives it.
    pub alignment: u64,
}

fn bad(name: &str, why: &str) -> String {
    format!("`{name}` is not a CUTLASS GEMM kernel name: {why}")
}

fn triple(s: &str) -> Option<[u64; 3]> {
    let v: Vec<u64> = s
        .split('x')
        .map(|p| p.parse::<u64>().ok())
        .collect::<Option<_>>()?;
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

fn order(c: char) -> Option<Order> {
    match c {
        't' => Some(Order::Row),
        'n' => Some(Order::Col),
        _ => None,
    }
}

fn short_acc(c: &str) -> Option<Elem> {
    match c {
        "h" => Some(Elem::F16),
        "s" => Some(Elem::F32),
        "d" => Some(Elem::F64),
        "i" => Some(Elem::S32),
        _ => None,
    }
}

/// Parses a CUTLASS GEMM kernel name.
///
/// Pre: none. Post: every name the generator emits for sm80/sm89/sm90 GEMMs parses (the
/// generator sweep in `tests/gpu/check_cutlass.rs`); problem extents are runtime `M`, `N`, `K`, `L = 1`;
/// A's and B's alignment are the name's (the largest of the two), C's and D's 16 bytes.
/// Example: `parse("cutlass_tensorop_s16816gemm_f16_128x128_32x3_tn_align8")`.
pub fn parse(name: &str) -> Result<Parsed, String> {
    let n = name.trim();
    if let Some(rest) = n.strip_prefix("cutlass3x_") {
        parse3x(n, rest)
    } else if let Some(rest) = n.strip_prefix("cutlass_sm") {
        parse3x(n, &format!("sm{rest}"))
    } else if let Some(rest) = n.strip_prefix("cutlass_") {
        parse2x(n, rest)
    } else {
        Err(bad(n, "expected the prefix cutlass3x_ or cutlass_"))
    }
}

fn parse3x(name: &str, rest: &str) -> Result<Parsed, String> {
    let toks: Vec<&str> = rest.split('_').collect();
    let sm: u32 = toks
        .first()
        .and_then(|t| t.strip_prefix("sm"))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad(name, "expected sm<arch> after the prefix"))?;
    let opclass = *toks
        .get(1)
        .ok_or_else(|| bad(name, "missing the opcode class"))?;
    let ti = toks
        .iter()
        .position(|t| triple(t).is_some())
        .ok_or_else(|| bad(name, "no tile MxNxK"))?;
    let tile = triple(toks[ti]).unwrap_or([0; 3]);
    let cluster = toks
        .get(ti + 1)
        .and_then(|t| triple(t))
        .ok_or_else(|| bad(name, "no cluster MxNxK after the tile"))?;
    let stages: u64 = toks
        .get(ti + 2)
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad(name, "no stage count after the cluster"))?;
    let lay: Vec<char> = toks
        .get(ti + 3)
        .map(|t| t.chars().collect())
        .unwrap_or_default();
    let align: u64 = toks
        .get(ti + 4)
        .and_then(|t| t.strip_prefix("align"))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad(name, "no align<N> after the layouts"))?;
    let mid = &toks[2..ti];
    let tail = toks[ti + 5..].join("_");
    let mut unsupported: Vec<String> = Vec::new();
    if opclass != "tensorop" {
        unsupported.push(format!("opcode class {opclass}"));
    }
    let kind = mid.first().copied().unwrap_or("");
    // `tf32gemm`: f32 operands multiplied as tf32 (the generator's intermediate type).
    if kind != "gemm" && kind != "tf32gemm" {
        unsupported.push(format!("GEMM kind {kind}"));
    }
    let mut elems = Vec::new();
    let mut extra = Vec::new();
    for t in mid.iter().skip(1) {
        match Elem::parse(t) {
            Some(e) => elems.push(e),
            None => extra.push(*t),
        }
    }
    if !extra.is_empty() {
        unsupported.push(format!("variant {}", extra.join("_")));
    }
    let [ea, eb, eacc, ec, ed] = match elems.as_slice() {
        [a, b, acc, c, d] => [*a, *b, *acc, *c, *d],
        _ => {
            unsupported.push("element list other than A_B_acc_C_D".into());
            [Elem::F16, Elem::F16, Elem::F32, Elem::F16, Elem::F16]
        }
    };
    let same_family = |x: Elem, y: Elem| {
        x == y
            || (matches!(x, Elem::E4m3 | Elem::E5m2) && matches!(y, Elem::E4m3 | Elem::E5m2))
            || (matches!(x, Elem::S8 | Elem::U8) && matches!(y, Elem::S8 | Elem::U8))
    };
    if !same_family(ea, eb) {
        unsupported.push("mixed-input GEMM".into());
    }
    if lay.len() != 3 || lay.iter().any(|c| order(*c).is_none()) {
        if lay.iter().any(|c| *c == 'c' || *c == 'h') {
            unsupported.push("complex operands".into());
        } else {
            return Err(bad(name, "layouts must be three of t/n/c/h"));
        }
    }
    let lo = |i: usize| lay.get(i).and_then(|c| order(*c)).unwrap_or(Order::Row);
    let stream_k = tail.contains("stream_k");
    let fast = tail.contains("fp8_fastaccum");
    let kernel = if tail.contains("cpasync") {
        unsupported.push("cp.async warp-specialized mainloop".into());
        Kernel::TmaWs
    } else if tail.contains("warpspecialized_cooperative") {
        Kernel::TmaWsCooperative
    } else if tail.contains("warpspecialized_pingpong") {
        Kernel::TmaWsPingpong
    } else if tail.contains("warpspecialized") {
        Kernel::TmaWs
    } else {
        if sm >= 90 && opclass == "tensorop" && kind == "gemm" {
            unsupported.push("KernelScheduleAuto (the builder picks the schedule)".into());
        }
        Kernel::TmaWsCooperative
    };
    if kind.len() > 4
        && kind != "tf32gemm"
        && kind.ends_with("gemm")
        && kind.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
    {
        // `d1684gemm`: an SM90 GEMM built on an SM80-style instruction (DMMA, complex).
        if !unsupported.iter().any(|u| u.starts_with("GEMM kind")) {
            unsupported.push(format!("GEMM kind {kind}"));
        }
    }
    let epilogue = if tail.contains("epi_tma") {
        if kernel == Kernel::TmaWsCooperative {
            Epilogue::TmaCooperative
        } else {
            Epilogue::Tma
        }
    } else if tail.contains("epi_nosmem") {
        Epilogue::NoSmem
    } else {
        if !unsupported
            .iter()
            .any(|u| u.starts_with("KernelScheduleAuto"))
            && sm >= 90
        {
            unsupported.push("epilogue schedule auto or transposed".into());
        }
        Epilogue::NoSmem
    };
    let op = |e: Elem, l: Order, a: u64| Operand {
        element: e,
        layout: l,
        alignment: a,
    };
    let out_align = |e: Elem| {
        if e.bits() == 0 {
            1
        } else {
            (128 / e.bits()).max(1)
        }
    };
    let mut c = Config::sm90_example();
    c.sm = if sm >= 90 { 90 } else { sm };
    c.kernel = kernel;
    c.fp8_fast_accum = fast;
    c.a = op(ea, lo(0), align);
    c.b = op(eb, lo(1), align);
    c.c = op(ec, lo(2), out_align(ec));
    c.d = op(ed, lo(2), out_align(ed));
    c.accumulator = eacc;
    c.tile = tile;
    c.cluster = cluster;
    c.stages = if stages == 0 {
        Stages::Auto
    } else {
        Stages::Fixed(stages)
    };
    c.epilogue = epilogue;
    c.grouped = tail.contains("scheduleDevice");
    let _ = stream_k;
    Ok(Parsed {
        config: c,
        unsupported: (!unsupported.is_empty()).then(|| unsupported.join("; ")),
        instruction: None,
        alignment: align,
    })
}

fn parse2x(name: &str, rest: &str) -> Result<Parsed, String> {
    let toks: Vec<&str> = rest.split('_').collect();
    let opclass = *toks
        .first()
        .ok_or_else(|| bad(name, "missing the opcode class"))?;
    // tile MxN, then KxStages, then layouts, then alignN.
    let ti = toks
        .iter()
        .enumerate()
        .skip(1)
        .position(|(i, t)| {
            let mn: Vec<&str> = t.split('x').collect();
            let ks: Vec<&str> = toks
                .get(i + 1)
                .map(|n| n.split('x').collect())
                .unwrap_or_default();
            mn.len() == 2
                && ks.len() == 2
                && mn
                    .iter()
                    .chain(ks.iter())
                    .all(|p| !p.is_empty() && p.parse::<u64>().is_ok())
        })
        .map(|p| p + 1)
        .ok_or_else(|| bad(name, "no tile MxN_KxStages"))?;
    let num = |s: &str| s.parse::<u64>().unwrap_or(0);
    let mn: Vec<u64> = toks[ti].split('x').map(num).collect();
    let ks: Vec<u64> = toks[ti + 1].split('x').map(num).collect();
    let lay = *toks.get(ti + 2).ok_or_else(|| bad(name, "no layouts"))?;
    let align: u64 = toks
        .get(ti + 3)
        .and_then(|t| t.strip_prefix("align"))
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| bad(name, "no align<N> after the layouts"))?;
    let ext = &toks[1..ti];
    let tail = toks[ti + 4..].join("_");
    let mut unsupported: Vec<String> = Vec::new();
    if opclass != "tensorop" {
        unsupported.push(format!("opcode class {opclass}"));
    }
    // ext = [C_]core[_kind...][_A[_B]]
    let core_i = ext
        .iter()
        .position(|t| t.contains("gemm"))
        .ok_or_else(|| bad(name, "no <acc><instruction>gemm token"))?;
    let core = ext[core_i];
    let c_elem = if core_i == 1 {
        Elem::parse(ext[0])
    } else {
        None
    };
    let letters: String = core
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let after_letters = &core[letters.len()..];
    let digits: String = after_letters
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let math = &after_letters[digits.len()..];
    let acc = short_acc(&letters);
    if acc.is_none() {
        unsupported.push(format!("accumulator `{letters}`"));
    }
    let instruction = if digits.starts_with("16") && digits.len() >= 4 {
        Some([16, 8, num(&digits[3..])])
    } else if digits.starts_with('8') && digits.len() >= 3 {
        Some([8, 8, num(&digits[2..])])
    } else {
        if opclass == "tensorop" {
            unsupported.push("no instruction shape".into());
        }
        None
    };
    let math_op = math.trim_end_matches("gemm");
    let fast = math_op.contains("fastaccum");
    let intermediate = math_op.replace("fastaccum", "").replace("sp", "");
    if !intermediate.is_empty() && !math_op.is_empty() {
        unsupported.push(format!("math operation {math_op}"));
    }
    if math.contains("spgemm") {
        unsupported.push("sparse GEMM".into());
    }
    let mut kinds = Vec::new();
    let mut elems = Vec::new();
    for t in &ext[core_i + 1..] {
        match Elem::parse(t) {
            Some(e) => elems.push(e),
            None => kinds.push(*t),
        }
    }
    let grouped = kinds.first() == Some(&"grouped");
    let kinds: Vec<&str> = kinds.into_iter().filter(|k| *k != "grouped").collect();
    if !kinds.is_empty() {
        unsupported.push(format!("GEMM kind {}", kinds.join("_")));
    }
    let acc = acc.unwrap_or(Elem::F32);
    let (ea, eb) = match elems.as_slice() {
        [] => (acc, acc),
        [a] => (*a, *a),
        [a, b] => (*a, *b),
        _ => {
            unsupported.push("more than two operand types".into());
            (acc, acc)
        }
    };
    if ea != eb {
        unsupported.push("mixed-input GEMM".into());
    }
    let lc: Vec<char> = lay.chars().collect();
    let (la, lb) = match lc.as_slice() {
        [a, b] if order(*a).is_some() && order(*b).is_some() => (
            order(*a).unwrap_or(Order::Row),
            order(*b).unwrap_or(Order::Row),
        ),
        _ => {
            unsupported.push(format!("layouts {lay}"));
            (Order::Row, Order::Col)
        }
    };
    let ec = c_elem.unwrap_or(acc);
    let op = |e: Elem, l: Order, a: u64| Operand {
        element: e,
        layout: l,
        alignment: a,
    };
    let mut c = Config::sm90_example();
    c.sm = if matches!(ea, Elem::E4m3 | Elem::E5m2) {
        89
    } else {
        80
    };
    c.kernel = Kernel::CpAsyncMultistage;
    c.fp8_fast_accum = fast;
    c.a = op(ea, la, align);
    c.b = op(eb, lb, align);
    let oa = if ec.bits() == 0 {
        1
    } else {
        (128 / ec.bits()).max(1)
    };
    c.c = op(ec, Order::Col, oa);
    c.d = c.c;
    c.accumulator = acc;
    c.tile = [mn[0], mn[1], ks[0]];
    c.cluster = [1, 1, 1];
    c.stages = Stages::Fixed(ks[1]);
    c.epilogue = Epilogue::Sm80Default;
    c.grouped = grouped || tail.contains("schedule");
    c.problem = [
        Extent::Runtime("M".into()),
        Extent::Runtime("N".into()),
        Extent::Runtime("K".into()),
        Extent::Static(1),
    ];
    if let Some(i) = instruction {
        c.mma = Some(super::derive::sm80_atom_name(i, acc, ea, eb));
    }
    Ok(Parsed {
        config: c,
        unsupported: (!unsupported.is_empty()).then(|| unsupported.join("; ")),
        instruction,
        alignment: align,
    })
}
