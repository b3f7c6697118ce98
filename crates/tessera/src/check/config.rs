//! A kernel configuration: the value tree every input (TOML, JSON, Python dict, CUTLASS kernel
//! name) becomes, and its parse into a [`Config`] with CUTLASS's names.

use std::fmt;

use super::facts::Elem;

/// A configuration value as TOML, JSON and Python give it.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
    /// A list.
    List(Vec<Tree>),
    /// A table (keys in order).
    Table(Vec<(String, Tree)>),
}

impl Tree {
    fn get(&self, key: &str) -> Option<&Tree> {
        match self {
            Tree::Table(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Tree::Int(_) => "an integer",
            Tree::Str(_) => "a string",
            Tree::Bool(_) => "a boolean",
            Tree::List(_) => "a list",
            Tree::Table(_) => "a table",
        }
    }
}

/// A configuration error: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The field (`tile`, `a.element`, ...).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config field `{}`: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn err<T>(field: &str, message: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError {
        field: field.to_string(),
        message: message.into(),
    })
}

/// A problem extent: known now, or a runtime name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extent {
    /// A number.
    Static(u64),
    /// A runtime extent, by name (`M`).
    Runtime(String),
}

impl fmt::Display for Extent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extent::Static(v) => write!(f, "{v}"),
            Extent::Runtime(n) => write!(f, "{n}"),
        }
    }
}

/// A fact about a runtime extent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// `name % d == 0`.
    Divisible(String, u64),
    /// `name >= v`.
    AtLeast(String, u64),
    /// `name == v`.
    Equals(String, u64),
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fact::Divisible(n, d) => write!(f, "{n} % {d} == 0"),
            Fact::AtLeast(n, v) => write!(f, "{n} >= {v}"),
            Fact::Equals(n, v) => write!(f, "{n} == {v}"),
        }
    }
}

/// Parses `M % 64 == 0`, `K >= 64`, `K > 63`, `N == 4096`.
///
/// Pre: none. Post: the fact, or an error naming the column. Example: `parse_fact("K % 8 == 0")`.
pub fn parse_fact(s: &str) -> Result<Fact, ConfigError> {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let num = |x: &str| -> Result<u64, ConfigError> {
        x.parse::<u64>().or_else(|_| {
            err(
                "assume",
                format!(
                    "`{s}`: `{x}` is not a non-negative integer (column {})",
                    s.find(x).map_or(1, |c| c + 1)
                ),
            )
        })
    };
    let name_ok = |n: &str| -> Result<String, ConfigError> {
        if !n.is_empty()
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !n.starts_with(|c: char| c.is_ascii_digit())
        {
            Ok(n.to_string())
        } else {
            err(
                "assume",
                format!("`{s}`: `{n}` is not an extent name (column 1)"),
            )
        }
    };
    if let Some((lhs, rhs)) = t.split_once("==") {
        if let Some((n, d)) = lhs.split_once('%') {
            if num(rhs)? != 0 {
                return err(
                    "assume",
                    format!("`{s}`: only `NAME % D == 0` is understood"),
                );
            }
            let d = num(d)?;
            if d == 0 {
                return err("assume", format!("`{s}`: division by zero"));
            }
            return Ok(Fact::Divisible(name_ok(n)?, d));
        }
        return Ok(Fact::Equals(name_ok(lhs)?, num(rhs)?));
    }
    if let Some((n, v)) = t.split_once(">=") {
        return Ok(Fact::AtLeast(name_ok(n)?, num(v)?));
    }
    if let Some((n, v)) = t.split_once('>') {
        return Ok(Fact::AtLeast(name_ok(n)?, num(v)?.saturating_add(1)));
    }
    err(
        "assume",
        format!("`{s}`: expected `NAME % D == 0`, `NAME >= V`, `NAME > V` or `NAME == V`"),
    )
}

/// Row- or column-major, as CUTLASS's layout tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `cutlass::layout::RowMajor` (`t` in a kernel name).
    Row,
    /// `cutlass::layout::ColumnMajor` (`n`).
    Col,
}

/// One GEMM operand: element, layout, alignment in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operand {
    /// Element type.
    pub element: Elem,
    /// Row- or column-major.
    pub layout: Order,
    /// Alignment in elements.
    pub alignment: u64,
}

/// The kernel schedule (`KernelScheduleType`), or the SM80 mainloop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `KernelTmaWarpSpecialized` (one consumer warpgroup).
    TmaWs,
    /// `KernelTmaWarpSpecializedCooperative`.
    TmaWsCooperative,
    /// `KernelTmaWarpSpecializedPingpong`.
    TmaWsPingpong,
    /// `MainloopSm80CpAsync` (CUTLASS 3.x) or a CUTLASS 2.x multistage `cutlass_tensorop_*` GEMM.
    CpAsyncMultistage,
    /// `MainloopSm80CpAsyncUnpredicated`.
    CpAsyncUnpredicated,
}

impl Kernel {
    /// The config spelling.
    ///
    /// Pre: none. Post: what [`Config::from_tree`] reads. Example: `Kernel::TmaWs.name()`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::TmaWs => "tma_warpspecialized",
            Kernel::TmaWsCooperative => "tma_warpspecialized_cooperative",
            Kernel::TmaWsPingpong => "tma_warpspecialized_pingpong",
            Kernel::CpAsyncMultistage => "cp_async_multistage",
            Kernel::CpAsyncUnpredicated => "cp_async_multistage_unpredicated",
        }
    }
    /// Whether it is an SM90 TMA warp-specialized schedule.
    ///
    /// Pre: none. Post: true for the three TMA schedules. Example: `Kernel::TmaWs.is_tma()`.
    pub fn is_tma(self) -> bool {
        matches!(
            self,
            Kernel::TmaWs | Kernel::TmaWsCooperative | Kernel::TmaWsPingpong
        )
    }
}

/// The stage count request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stages {
    /// What the generator emits: `StageCountAutoCarveout<sizeof(epilogue SharedStorage)>`.
    Auto,
    /// `StageCount<N>`.
    Fixed(u64),
    /// `StageCountAutoCarveout<BYTES>`.
    Carveout(u64),
}

/// The epilogue schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Epilogue {
    /// `TmaWarpSpecialized`.
    Tma,
    /// `TmaWarpSpecializedCooperative`.
    TmaCooperative,
    /// `NoSmemWarpSpecialized` (direct stores from registers).
    NoSmem,
    /// The SM80 default epilogue (`sm70_epilogue_vectorized` / CUTLASS 2.x).
    Sm80Default,
}

impl Epilogue {
    /// The config spelling.
    ///
    /// Pre: none. Post: what [`Config::from_tree`] reads. Example: `Epilogue::NoSmem.name()`.
    pub fn name(self) -> &'static str {
        match self {
            Epilogue::Tma => "tma_warpspecialized",
            Epilogue::TmaCooperative => "tma_warpspecialized_cooperative",
            Epilogue::NoSmem => "no_smem_warpspecialized",
            Epilogue::Sm80Default => "default",
        }
    }
    /// Whether D goes through shared memory and a TMA store.
    ///
    /// Pre: none. Post: true for the two TMA epilogues. Example: `Epilogue::Tma.is_tma()`.
    pub fn is_tma(self) -> bool {
        matches!(self, Epilogue::Tma | Epilogue::TmaCooperative)
    }
}

/// How a side of a shared-memory buffer computes its swizzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwizzleBase {
    /// From the address bits (TMA, GMMA descriptors, CuTe's swizzled layouts): CUTLASS.
    Address,
    /// From offsets relative to the buffer (a hand-written descriptor or index formula).
    Offset,
}

/// A whole GEMM kernel configuration, with CUTLASS's names. `None` fields are derived as the
/// builder derives them; a given value is checked, not replaced.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Compute capability × 10 (80, 86, 89, 90).
    pub sm: u32,
    /// The kernel schedule.
    pub kernel: Kernel,
    /// FP8 fast accumulation (`…FP8FastAccum`).
    pub fp8_fast_accum: bool,
    /// Problem M, N, K, L.
    pub problem: [Extent; 4],
    /// Facts about runtime extents.
    pub assume: Vec<Fact>,
    /// Operands A (M×K), B (K×N), C and D (M×N).
    pub a: Operand,
    /// See [`Config::a`].
    pub b: Operand,
    /// See [`Config::a`].
    pub c: Operand,
    /// See [`Config::a`].
    pub d: Operand,
    /// Accumulator element.
    pub accumulator: Elem,
    /// CTA tile M, N, K.
    pub tile: [u64; 3],
    /// Cluster shape M, N, K.
    pub cluster: [u64; 3],
    /// Stage count request.
    pub stages: Stages,
    /// Epilogue schedule.
    pub epilogue: Epilogue,
    /// Epilogue tile (M, N); `None` = `EpilogueTileAuto`.
    pub epilogue_tile: Option<[u64; 2]>,
    /// The MMA atom by name (`SM90_64x128x16_F32F16F16_SS`, `SM80_16x8x16_F32F16F16F32_TN`).
    pub mma: Option<String>,
    /// The TiledMma's atom layout (M, N, K); for SM80 the warp count.
    pub atom_layout: Option<[u64; 3]>,
    /// Smem layout atoms by CUTLASS name (`GMMA::Layout_K_SW128_Atom<half_t>`).
    pub smem_layout_a: Option<String>,
    /// See [`Config::smem_layout_a`].
    pub smem_layout_b: Option<String>,
    /// TMA swizzle of each descriptor in bytes (0 = none).
    pub tma_swizzle: [Option<u64>; 4],
    /// The base alignment of each smem buffer (A, B, C, D) in bytes.
    pub smem_align: [Option<u64>; 4],
    /// How the MMA side computes the swizzle (a hand-written descriptor: `Offset`).
    pub swizzle_base: SwizzleBase,
    /// Threads per CTA.
    pub threads: Option<u64>,
    /// Shared memory capacity override in bytes.
    pub smem_capacity: Option<u64>,
    /// The non-portable cluster size opt-in.
    pub non_portable_cluster: bool,
    /// Grouped GEMM (groups with different K per tile).
    pub grouped: bool,
    /// SM80: gmem copy (threads along the contiguous extent, elements per vector) per operand.
    pub gmem_copy_a: Option<[u64; 2]>,
    /// See [`Config::gmem_copy_a`].
    pub gmem_copy_b: Option<[u64; 2]>,
}

impl Config {
    /// A valid starting point: SM90 cooperative f16 GEMM, 128×128×64, cluster 1×2×1, runtime M, N, K.
    ///
    /// Pre: none. Post: `check` proves it (with runtime guards). Example: `Config::sm90_example()`.
    pub fn sm90_example() -> Config {
        let op = |layout| Operand {
            element: Elem::F16,
            layout,
            alignment: 8,
        };
        Config {
            sm: 90,
            kernel: Kernel::TmaWsCooperative,
            fp8_fast_accum: false,
            problem: [
                Extent::Runtime("M".into()),
                Extent::Runtime("N".into()),
                Extent::Runtime("K".into()),
                Extent::Static(1),
            ],
            assume: Vec::new(),
            a: op(Order::Row),
            b: op(Order::Col),
            c: op(Order::Row),
            d: op(Order::Row),
            accumulator: Elem::F32,
            tile: [128, 128, 64],
            cluster: [1, 2, 1],
            stages: Stages::Auto,
            epilogue: Epilogue::TmaCooperative,
            epilogue_tile: None,
            mma: None,
            atom_layout: None,
            smem_layout_a: None,
            smem_layout_b: None,
            tma_swizzle: [None; 4],
            smem_align: [None; 4],
            swizzle_base: SwizzleBase::Address,
            threads: None,
            smem_capacity: None,
            non_portable_cluster: false,
            grouped: false,
            gmem_copy_a: None,
            gmem_copy_b: None,
        }
    }

    /// Reads a configuration from its value tree (TOML, JSON and Python all give one).
    ///
    /// Pre: none. Post: every known field is read; an unknown key or a bad value is an error
    /// naming the field. Example: a table with `arch = "sm90"`, `tile = [128,128,64]`, … .
    pub fn from_tree(t: &Tree) -> Result<Config, ConfigError> {
        let Tree::Table(kv) = t else {
            return err("(top)", format!("expected a table, found {}", t.kind()));
        };
        const KNOWN: &[&str] = &[
            "arch",
            "kernel",
            "problem",
            "assume",
            "a",
            "b",
            "c",
            "d",
            "accumulator",
            "tile",
            "cluster",
            "stages",
            "epilogue",
            "mma",
            "atom_layout",
            "warps",
            "smem_layout_a",
            "smem_layout_b",
            "tma_swizzle_a",
            "tma_swizzle_b",
            "tma_swizzle_c",
            "tma_swizzle_d",
            "smem_align_a",
            "smem_align_b",
            "smem_align_c",
            "smem_align_d",
            "swizzle_base",
            "threads",
            "smem_capacity",
            "non_portable_cluster",
            "grouped",
            "gmem_copy_a",
            "gmem_copy_b",
            "fp8_fast_accum",
        ];
        for (k, _) in kv {
            if !KNOWN.contains(&k.as_str()) {
                return err(k, format!("unknown field (known: {})", KNOWN.join(", ")));
            }
        }
        let mut c = Config::sm90_example();
        let arch = req_str(t, "arch")?;
        c.sm = parse_arch(&arch)?;
        let kernel = match t.get("kernel") {
            Some(_) => req_str(t, "kernel")?,
            None if c.sm >= 90 => "tma_warpspecialized_cooperative".into(),
            None => "cp_async_multistage".into(),
        };
        let (k, fast) = parse_kernel(&kernel)?;
        c.kernel = k;
        c.fp8_fast_accum = fast || opt_bool(t, "fp8_fast_accum")?.unwrap_or(false);
        c.problem = match t.get("problem") {
            None => [
                Extent::Runtime("M".into()),
                Extent::Runtime("N".into()),
                Extent::Runtime("K".into()),
                Extent::Static(1),
            ],
            Some(p) => parse_problem(p)?,
        };
        if let Some(a) = t.get("assume") {
            let Tree::List(items) = a else {
                return err(
                    "assume",
                    format!("expected a list of strings, found {}", a.kind()),
                );
            };
            for it in items {
                let Tree::Str(s) = it else {
                    return err("assume", "expected strings such as \"K % 64 == 0\"");
                };
                c.assume.push(parse_fact(s)?);
            }
        }
        let default_layouts = [Order::Row, Order::Col, Order::Row, Order::Row];
        for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
            let prev = if i == 3 { Some(c.c) } else { None };
            let op = parse_operand(t.get(name), name, default_layouts[i], prev)?;
            match i {
                0 => c.a = op,
                1 => c.b = op,
                2 => c.c = op,
                _ => c.d = op,
            }
        }
        if c.c.element == Elem::Void && t.get("d").is_none() {
            c.d.element = Elem::F16;
        }
        c.accumulator = match t.get("accumulator") {
            Some(_) => elem(&req_str(t, "accumulator")?, "accumulator")?,
            None => Elem::F32,
        };
        c.tile = triple(t, "tile")?.unwrap_or([128, 128, 64]);
        c.cluster = triple(t, "cluster")?.unwrap_or([1, 1, 1]);
        c.stages = match t.get("stages") {
            None => Stages::Auto,
            Some(Tree::Str(s)) if s == "auto" => Stages::Auto,
            Some(Tree::Int(n)) if *n >= 0 => Stages::Fixed(*n as u64),
            Some(v @ Tree::Table(_)) => match v.get("carveout") {
                Some(Tree::Int(n)) if *n >= 0 => Stages::Carveout(*n as u64),
                _ => return err("stages", "expected { carveout = BYTES }"),
            },
            Some(v) => {
                return err(
                    "stages",
                    format!(
                        "expected \"auto\", an integer or {{ carveout = BYTES }}, found {}",
                        v.kind()
                    ),
                )
            }
        };
        c.epilogue = if c.sm >= 90 {
            Epilogue::NoSmem
        } else {
            Epilogue::Sm80Default
        };
        if c.sm >= 90 && c.kernel == Kernel::TmaWsCooperative {
            c.epilogue = Epilogue::TmaCooperative;
        } else if c.sm >= 90 {
            c.epilogue = Epilogue::Tma;
        }
        if let Some(e) = t.get("epilogue") {
            if let Some(s) = e.get("schedule") {
                let Tree::Str(s) = s else {
                    return err("epilogue.schedule", "expected a string");
                };
                c.epilogue = parse_epilogue(s)?;
            }
            match e.get("tile") {
                None => {}
                Some(Tree::Str(s)) if s == "auto" => {}
                Some(Tree::List(l)) if l.len() == 2 => {
                    let mut v = [0u64; 2];
                    for (i, x) in l.iter().enumerate() {
                        match x {
                            Tree::Int(n) if *n > 0 => v[i] = *n as u64,
                            _ => {
                                return err(
                                    "epilogue.tile",
                                    "expected two positive integers or \"auto\"",
                                )
                            }
                        }
                    }
                    c.epilogue_tile = Some(v);
                }
                Some(_) => return err("epilogue.tile", "expected [M, N] or \"auto\""),
            }
        }
        c.mma = opt_str(t, "mma")?;
        c.atom_layout = match triple(t, "atom_layout")? {
            Some(v) => Some(v),
            None => triple(t, "warps")?,
        };
        c.smem_layout_a = opt_str(t, "smem_layout_a")?;
        c.smem_layout_b = opt_str(t, "smem_layout_b")?;
        for (i, k) in [
            "tma_swizzle_a",
            "tma_swizzle_b",
            "tma_swizzle_c",
            "tma_swizzle_d",
        ]
        .iter()
        .enumerate()
        {
            if let Some(s) = opt_str(t, k)? {
                c.tma_swizzle[i] = Some(parse_swizzle(&s, k)?);
            }
        }
        for (i, k) in [
            "smem_align_a",
            "smem_align_b",
            "smem_align_c",
            "smem_align_d",
        ]
        .iter()
        .enumerate()
        {
            c.smem_align[i] = opt_u64(t, k)?;
        }
        c.swizzle_base = match opt_str(t, "swizzle_base")?.as_deref() {
            None | Some("address") => SwizzleBase::Address,
            Some("offset") => SwizzleBase::Offset,
            Some(o) => {
                return err(
                    "swizzle_base",
                    format!("`{o}`: expected \"address\" or \"offset\""),
                )
            }
        };
        c.threads = opt_u64(t, "threads")?;
        c.smem_capacity = opt_u64(t, "smem_capacity")?;
        c.non_portable_cluster = opt_bool(t, "non_portable_cluster")?.unwrap_or(false);
        c.grouped = opt_bool(t, "grouped")?.unwrap_or(false);
        c.gmem_copy_a = pair(t, "gmem_copy_a")?;
        c.gmem_copy_b = pair(t, "gmem_copy_b")?;
        Ok(c)
    }
}

/// An architecture as [`crate::target::Arch::parse`] reads it (`sm90`, `sm_90a`, `90`, `9.0`, …)
/// → its compute capability × 10, restricted to the architectures the checker models.
///
/// Pre: none. Post: 80, 86, 89 or 90; a malformed name is refused with the column
/// `Arch::parse` gives. Example: `parse_arch("sm_90a") == Ok(90)`, `parse_arch("9.0") == Ok(90)`.
pub fn parse_arch(s: &str) -> Result<u32, ConfigError> {
    let sm = crate::target::Arch::parse(s).or_else(|e| err("arch", e.to_string()))?;
    match sm.arch.cc {
        v @ (80 | 86 | 89 | 90) => Ok(v),
        v => err(
            "arch",
            format!("`{s}` is sm_{v}: the checker models sm80, sm86, sm89 and sm90"),
        ),
    }
}

fn parse_kernel(s: &str) -> Result<(Kernel, bool), ConfigError> {
    let t = s.trim().to_ascii_lowercase();
    let (base, fast) = match t.strip_suffix("_fp8_fastaccum") {
        Some(b) => (b.to_string(), true),
        None => (t.clone(), false),
    };
    let k = match base.as_str() {
        "tma_warpspecialized" | "kerneltmawarpspecialized" => Kernel::TmaWs,
        "tma_warpspecialized_cooperative" | "kerneltmawarpspecializedcooperative" => Kernel::TmaWsCooperative,
        "tma_warpspecialized_pingpong" | "kerneltmawarpspecializedpingpong" => Kernel::TmaWsPingpong,
        "cp_async_multistage" | "mainloopsm80cpasync" => Kernel::CpAsyncMultistage,
        "cp_async_multistage_unpredicated" | "mainloopsm80cpasyncunpredicated" => Kernel::CpAsyncUnpredicated,
        _ => {
            return err(
                "kernel",
                format!("`{s}`: expected tma_warpspecialized[_cooperative|_pingpong][_fp8_fastaccum] or cp_async_multistage[_unpredicated]"),
            )
        }
    };
    Ok((k, fast))
}

fn parse_epilogue(s: &str) -> Result<Epilogue, ConfigError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "tma_warpspecialized" | "tma" => Ok(Epilogue::Tma),
        "tma_warpspecialized_cooperative" => Ok(Epilogue::TmaCooperative),
        "no_smem_warpspecialized" | "nosmem" | "no_smem" => Ok(Epilogue::NoSmem),
        "default" | "sm70_epilogue_vectorized" => Ok(Epilogue::Sm80Default),
        _ => err(
            "epilogue.schedule",
            format!("`{s}`: expected tma_warpspecialized[_cooperative], no_smem_warpspecialized or default"),
        ),
    }
}

/// `none`/`0`, `32B`, `64B`, `128B` → bytes.
fn parse_swizzle(s: &str, field: &str) -> Result<u64, ConfigError> {
    match s.trim().to_ascii_lowercase().trim_end_matches('b') {
        "none" | "0" | "interleave" | "inter" => Ok(0),
        "32" => Ok(32),
        "64" => Ok(64),
        "128" => Ok(128),
        _ => err(field, format!("`{s}`: expected none, 32B, 64B or 128B")),
    }
}

fn elem(s: &str, field: &str) -> Result<Elem, ConfigError> {
    Elem::parse(s).map_or_else(
        || {
            err(
                field,
                format!(
                    "`{s}`: expected f16, bf16, f32, tf32, f64, e4m3, e5m2, s8, u8, s32 or void"
                ),
            )
        },
        Ok,
    )
}

fn parse_operand(
    t: Option<&Tree>,
    name: &str,
    layout: Order,
    prev: Option<Operand>,
) -> Result<Operand, ConfigError> {
    let mut op = prev.unwrap_or(Operand {
        element: Elem::F16,
        layout,
        alignment: 8,
    });
    let Some(t) = t else {
        return Ok(op);
    };
    if !matches!(t, Tree::Table(_)) {
        return err(
            name,
            format!(
                "expected a table {{ element, layout, alignment }}, found {}",
                t.kind()
            ),
        );
    }
    let mut given_align = false;
    if let Some(e) = t.get("element") {
        let Tree::Str(s) = e else {
            return err(&format!("{name}.element"), "expected a string");
        };
        op.element = elem(s, &format!("{name}.element"))?;
    }
    if let Some(l) = t.get("layout") {
        let Tree::Str(s) = l else {
            return err(&format!("{name}.layout"), "expected \"row\" or \"col\"");
        };
        op.layout = match s.to_ascii_lowercase().as_str() {
            "row" | "rowmajor" | "t" => Order::Row,
            "col" | "column" | "columnmajor" | "n" => Order::Col,
            _ => {
                return err(
                    &format!("{name}.layout"),
                    format!("`{s}`: expected \"row\" or \"col\""),
                )
            }
        };
    }
    if let Some(a) = t.get("alignment") {
        match a {
            Tree::Int(n) if *n > 0 => {
                op.alignment = *n as u64;
                given_align = true;
            }
            _ => {
                return err(
                    &format!("{name}.alignment"),
                    "expected a positive integer (elements)",
                )
            }
        }
    }
    if !given_align && op.element.bits() > 0 {
        op.alignment = 128 / op.element.bits();
    }
    Ok(op)
}

fn parse_problem(p: &Tree) -> Result<[Extent; 4], ConfigError> {
    let ext = |v: Option<&Tree>, dflt: &str| -> Result<Extent, ConfigError> {
        match v {
            None => Ok(if dflt == "1" {
                Extent::Static(1)
            } else {
                Extent::Runtime(dflt.into())
            }),
            Some(Tree::Int(n)) if *n > 0 => Ok(Extent::Static(*n as u64)),
            Some(Tree::Str(s))
                if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                match s.parse::<u64>() {
                    Ok(n) if n > 0 => Ok(Extent::Static(n)),
                    _ => Ok(Extent::Runtime(s.clone())),
                }
            }
            Some(v) => err(
                "problem",
                format!("expected a positive integer or a name, found {}", v.kind()),
            ),
        }
    };
    match p {
        Tree::Table(_) => Ok([
            ext(p.get("m"), "M")?,
            ext(p.get("n"), "N")?,
            ext(p.get("k"), "K")?,
            ext(p.get("l"), "1")?,
        ]),
        Tree::List(l) if (3..=4).contains(&l.len()) => Ok([
            ext(l.first(), "M")?,
            ext(l.get(1), "N")?,
            ext(l.get(2), "K")?,
            ext(l.get(3), "1")?,
        ]),
        _ => err("problem", "expected { m, n, k, l } or [M, N, K(, L)]"),
    }
}

fn req_str(t: &Tree, k: &str) -> Result<String, ConfigError> {
    match t.get(k) {
        Some(Tree::Str(s)) => Ok(s.clone()),
        Some(v) => err(k, format!("expected a string, found {}", v.kind())),
        None => err(k, "missing"),
    }
}

fn opt_str(t: &Tree, k: &str) -> Result<Option<String>, ConfigError> {
    match t.get(k) {
        None => Ok(None),
        Some(Tree::Str(s)) => Ok(Some(s.clone())),
        Some(Tree::Int(n)) => Ok(Some(n.to_string())),
        Some(v) => err(k, format!("expected a string, found {}", v.kind())),
    }
}

fn opt_u64(t: &Tree, k: &str) -> Result<Option<u64>, ConfigError> {
    match t.get(k) {
        None => Ok(None),
        Some(Tree::Int(n)) if *n > 0 => Ok(Some(*n as u64)),
        Some(v) => err(
            k,
            format!("expected a positive integer, found {}", v.kind()),
        ),
    }
}

fn opt_bool(t: &Tree, k: &str) -> Result<Option<bool>, ConfigError> {
    match t.get(k) {
        None => Ok(None),
        Some(Tree::Bool(b)) => Ok(Some(*b)),
        Some(v) => err(k, format!("expected true or false, found {}", v.kind())),
    }
}

fn ints(t: &Tree, k: &str, n: usize) -> Result<Option<Vec<u64>>, ConfigError> {
    match t.get(k) {
        None => Ok(None),
        Some(Tree::List(l)) if l.len() == n => {
            let mut v = Vec::with_capacity(n);
            for x in l {
                match x {
                    Tree::Int(i) if *i > 0 => v.push(*i as u64),
                    _ => return err(k, format!("expected {n} positive integers")),
                }
            }
            Ok(Some(v))
        }
        Some(_) => err(k, format!("expected a list of {n} positive integers")),
    }
}

fn triple(t: &Tree, k: &str) -> Result<Option<[u64; 3]>, ConfigError> {
    Ok(ints(t, k, 3)?.map(|v| [v[0], v[1], v[2]]))
}

fn pair(t: &Tree, k: &str) -> Result<Option<[u64; 2]>, ConfigError> {
    Ok(ints(t, k, 2)?.map(|v| [v[0], v[1]]))
}
