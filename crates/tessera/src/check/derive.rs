//! What CUTLASS's builders derive from a configuration, computed as they compute it: the MMA
//! atom (`ss_op_selector`), the TiledMma, the shared-memory layout atoms (`ss_smem_selector`), the
//! epilogue tile and its stages (`sm90_compute_tile_shape_or_override`,
//! `sm90_get_tma_dispatch_policy`), the stage count (`compute_stage_count_or_override`) and the
//! shared storage (`SharedStorage` of the kernel, its collectives and pipelines).

use super::config::{Config, Epilogue, Kernel, Order, Stages};
use super::facts::{self, Elem};

/// An MMA instruction: shape, types, and how its operands are sourced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mma {
    /// CuTe's name (`SM90_64x128x16_F32F16F16_SS`, `SM80_16x8x16_F32F16F16F32_TN`).
    pub name: String,
    /// 80/89 (warp MMA) or 90 (GMMA).
    pub sm: u32,
    /// M, N, K.
    pub shape: [u64; 3],
    /// Accumulator, A and B types.
    pub acc: Elem,
    /// See [`Mma::acc`].
    pub a: Elem,
    /// See [`Mma::acc`].
    pub b: Elem,
    /// A from registers (GMMA `RS`).
    pub rs: bool,
}

impl Mma {
    /// Threads that issue one instruction: a warpgroup for GMMA, a warp otherwise.
    ///
    /// Pre: none. Post: 128 or 32. Example: a GMMA atom gives 128.
    pub fn threads(&self) -> u64 {
        if self.sm >= 90 {
            facts::WARPGROUP
        } else {
            facts::WARP
        }
    }
}

fn up(e: Elem) -> String {
    e.name().to_ascii_uppercase()
}

/// The CuTe name of an SM80/SM89 warp MMA atom (`SM80_16x8x16_F32F16F16F32_TN`).
///
/// Pre: none. Post: `SM8x_MxNxK_DABC_TN`. Example: `sm80_atom_name([16,8,16], F32, F16, F16)`.
pub fn sm80_atom_name(shape: [u64; 3], acc: Elem, a: Elem, b: Elem) -> String {
    let arch = if matches!(a, Elem::E4m3 | Elem::E5m2) {
        89
    } else {
        80
    };
    format!(
        "SM{arch}_{}x{}x{}_{}{}{}{}_TN",
        shape[0],
        shape[1],
        shape[2],
        up(acc),
        up(a),
        up(b),
        up(acc)
    )
}

/// The CuTe name of a GMMA atom (`SM90_64x128x16_F32F16F16_SS`; `_TN` for K-major-only types).
///
/// Pre: none. Post: a name [`parse_mma`] reads back. Example: `gmma_name(128, 16, F32, F16, F16, false)`.
pub fn gmma_name(n: u64, k: u64, acc: Elem, a: Elem, b: Elem, rs: bool) -> String {
    let src = if rs { "RS" } else { "SS" };
    let tn = if a.bits() == 16 { "" } else { "_TN" };
    format!("SM90_64x{n}x{k}_{}{}{}_{src}{tn}", up(acc), up(a), up(b))
}

/// Parses a CuTe MMA atom name.
///
/// Pre: none. Post: `None` when it is not of the form `SM<arch>_<M>x<N>x<K>_<types>_<suffix>`
/// with known types. Example: `parse_mma("SM90_64x128x16_F32F16F16_SS")`.
pub fn parse_mma(name: &str) -> Option<Mma> {
    let t = name
        .trim()
        .trim_start_matches("cute::")
        .trim_start_matches("MMA_");
    let mut parts = t.split('_');
    let arch: u32 = parts.next()?.strip_prefix("SM")?.parse().ok()?;
    let shape: Vec<u64> = parts
        .next()?
        .split('x')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    if shape.len() != 3 {
        return None;
    }
    let types = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let mut elems = Vec::new();
    let mut s = types;
    while !s.is_empty() {
        let found = [
            "BF16", "TF32", "E4M3", "E5M2", "F16", "F32", "F64", "S32", "S8", "U8",
        ]
        .iter()
        .find(|p| s.starts_with(**p))?;
        elems.push(Elem::parse(&found.to_ascii_lowercase())?);
        s = &s[found.len()..];
    }
    let (acc, a, b) = match elems.as_slice() {
        [d, a, b] => (*d, *a, *b),
        [d, a, b, _c] => (*d, *a, *b),
        _ => return None,
    };
    Some(Mma {
        name: t.to_string(),
        sm: arch,
        shape: [shape[0], shape[1], shape[2]],
        acc,
        a,
        b,
        rs: rest.first() == Some(&"RS"),
    })
}

/// Why an MMA atom does not exist for an arch, types and shape (`None` when it exists).
///
/// Pre: none. Post: GMMA: M = 64, N ∈ [8, 256] step 8, K·bits = 256, types as PTX `wgmma`
/// lists them; SM80/SM89: the `mma.sync` shapes of the types.
/// Example: `SM90_64x128x16_F32F16F16_SS` exists; `SM90_64x132x16_F32F16F16_SS` does not.
pub fn mma_problem(m: &Mma) -> Option<String> {
    let [mm, nn, kk] = m.shape;
    if m.sm >= 90 {
        if mm != facts::GMMA_M {
            return Some(format!("GMMA M is {}, not {mm}", facts::GMMA_M));
        }
        if !(facts::GMMA_N_STEP..=facts::GMMA_N_MAX).contains(&nn) || nn % facts::GMMA_N_STEP != 0 {
            return Some(format!(
                "GMMA N must be a multiple of 8 in [8, 256], not {nn}"
            ));
        }
        let kbits = kk.saturating_mul(m.a.bits());
        if kbits != facts::GMMA_K_BYTES * 8 {
            return Some(format!(
                "GMMA K must span {} bytes: K = {} for {} (not {kk})",
                facts::GMMA_K_BYTES,
                (facts::GMMA_K_BYTES * 8) / m.a.bits().max(1),
                m.a.name()
            ));
        }
        #[allow(clippy::match_like_matches_macro)]
        let ok = match (m.a, m.b, m.acc) {
            (Elem::F16, Elem::F16, Elem::F16 | Elem::F32) => true,
            (Elem::Bf16, Elem::Bf16, Elem::F32) => true,
            (Elem::Tf32 | Elem::F32, Elem::Tf32 | Elem::F32, Elem::F32) => true,
            (Elem::E4m3 | Elem::E5m2, Elem::E4m3 | Elem::E5m2, Elem::F16 | Elem::F32) => true,
            (Elem::S8 | Elem::U8, Elem::S8 | Elem::U8, Elem::S32) => true,
            _ => false,
        };
        if !ok {
            return Some(format!(
                "no GMMA takes {} × {} into {}",
                m.a.name(),
                m.b.name(),
                m.acc.name()
            ));
        }
        return None;
    }
    let ok = match (m.a, m.b, m.acc, m.shape) {
        (Elem::F16, Elem::F16, Elem::F16 | Elem::F32, [16, 8, 16] | [16, 8, 8]) => true,
        (Elem::Bf16, Elem::Bf16, Elem::F32, [16, 8, 16] | [16, 8, 8]) => true,
        (Elem::Tf32 | Elem::F32, Elem::Tf32 | Elem::F32, Elem::F32, [16, 8, 8] | [16, 8, 4]) => {
            true
        }
        (
            Elem::S8 | Elem::U8,
            Elem::S8 | Elem::U8,
            Elem::S32,
            [16, 8, 32] | [16, 8, 16] | [8, 8, 16],
        ) => true,
        (Elem::F64, Elem::F64, Elem::F64, [8, 8, 4]) => true,
        (Elem::E4m3 | Elem::E5m2, Elem::E4m3 | Elem::E5m2, Elem::F32 | Elem::F16, [16, 8, 32]) => {
            m.sm >= 89
        }
        _ => false,
    };
    if ok {
        None
    } else {
        Some(format!(
            "no SM{} mma.sync {}x{}x{} takes {} × {} into {}",
            m.sm,
            mm,
            nn,
            kk,
            m.a.name(),
            m.b.name(),
            m.acc.name()
        ))
    }
}

/// A shared-memory layout atom: its swizzle width and its shape (rows × contiguous elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmemAtom {
    /// Swizzle span in bytes: 128, 64, 32, or 0 for the interleaved (unswizzled) atom.
    pub swizzle: u64,
    /// K-major (contiguous along K) or MN-major.
    pub k_major: bool,
    /// Elements along the contiguous extent (`swizzle` bytes, or 16 bytes for INTER).
    pub width: u64,
    /// Element bits.
    pub bits: u64,
}

impl SmemAtom {
    /// CUTLASS's name (`GMMA::Layout_K_SW128_Atom<half_t>`).
    ///
    /// Pre: none. Post: a name [`parse_smem_atom`] reads back. Example: SW128 K-major f16.
    pub fn name(&self, e: Elem) -> String {
        let sw = if self.swizzle == 0 {
            "INTER".to_string()
        } else {
            format!("SW{}", self.swizzle)
        };
        let ty = e.cutlass();
        format!(
            "GMMA::Layout_{}_{sw}_Atom<{ty}>",
            if self.k_major { "K" } else { "MN" }
        )
    }
    /// The atom in CuTe notation over element indices (`Sw<3,3,3> o 0 o (8,64):(64,1)`).
    ///
    /// Pre: `bits` is 8, 16, 32 or 64. Post: the layout `print_layout` shows. Example: SW128 f16 K.
    pub fn cute(&self) -> String {
        let bb = self.swizzle_bits();
        let m = 4u64.saturating_sub(self.bits.max(8).trailing_zeros() as u64 - 3);
        let inner = if self.k_major {
            format!("(8,{}):({},1)", self.width, self.width)
        } else {
            format!("({},8):(1,{})", self.width, self.width)
        };
        if bb == 0 {
            inner
        } else {
            format!("Sw<{bb},{m},3> o 0 o {inner}")
        }
    }
    /// CuTe's swizzle bits B (3 for 128 B, 2 for 64 B, 1 for 32 B, 0 for none).
    ///
    /// Pre: none. Post: 0..=3. Example: 128 B → 3.
    pub fn swizzle_bits(&self) -> u64 {
        match self.swizzle {
            128 => 3,
            64 => 2,
            32 => 1,
            _ => 0,
        }
    }
    /// The swizzle pattern's repeat in bytes (8 rows of the span): 1024/512/256, 16 for INTER.
    ///
    /// Pre: none. Post: `8 × swizzle` or 16. Example: SW128 → 1024.
    pub fn repeat_bytes(&self) -> u64 {
        if self.swizzle == 0 {
            16
        } else {
            self.swizzle * 8
        }
    }
}

/// `ss_smem_selector`: the widest GMMA atom (SW128 → SW64 → SW32 → INTER) whose contiguous
/// width divides `extent` (BLK_K for a K-major operand, BLK_MN for an MN-major one).
///
/// Pre: `bits` > 0. Post: `Err(minimum width)` when even INTER (16 bytes) does not divide.
/// Example: f16, K-major, BLK_K = 64 → SW128 (64 elements wide).
pub fn select_smem_atom(bits: u64, k_major: bool, extent: u64) -> Result<SmemAtom, u64> {
    let bits = bits.max(1);
    for sw in [128u64, 64, 32, 0] {
        let bytes = if sw == 0 { 16 } else { sw };
        let width = bytes * 8 / bits;
        if width > 0 && extent.is_multiple_of(width) {
            return Ok(SmemAtom {
                swizzle: sw,
                k_major,
                width,
                bits,
            });
        }
    }
    Err((128 / bits).max(1))
}

/// Parses `GMMA::Layout_K_SW128_Atom<half_t>` (element type optional when `e` is given).
///
/// Pre: none. Post: `None` for an unknown atom. Example: `parse_smem_atom("GMMA::Layout_MN_SW64_Atom<half_t>", F16)`.
pub fn parse_smem_atom(name: &str, e: Elem) -> Option<SmemAtom> {
    let t = name
        .trim()
        .trim_start_matches("cute::")
        .trim_start_matches("GMMA::")
        .trim_start_matches("UMMA::");
    let base = t.split('<').next()?;
    let rest = base.strip_prefix("Layout_")?;
    let (major, sw) = rest.strip_suffix("_Atom")?.split_once('_')?;
    let k_major = match major {
        "K" => true,
        "MN" => false,
        _ => return None,
    };
    let swizzle = match sw {
        "SW128" => 128,
        "SW64" => 64,
        "SW32" => 32,
        "INTER" => 0,
        _ => return None,
    };
    let bits = e.bits().max(1);
    let bytes = if swizzle == 0 { 16 } else { swizzle };
    Some(SmemAtom {
        swizzle,
        k_major,
        width: bytes * 8 / bits,
        bits,
    })
}

/// Whether an operand is K-major in global memory: A row-major (`t`), B column-major (`n`).
///
/// Pre: none. Post: as CUTLASS's `is_k_major_A/B`. Example: `k_major(true, Order::Row)` for A.
pub fn k_major(is_a: bool, o: Order) -> bool {
    if is_a {
        o == Order::Row
    } else {
        o == Order::Col
    }
}

/// Rounds `x` up to a multiple of `a` (`a` > 0), saturating.
pub fn round_up(x: u64, a: u64) -> u64 {
    if a == 0 {
        return x;
    }
    x.div_ceil(a).saturating_mul(a)
}

/// The SM90 TMA epilogue's derived shape and storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpilogueShape {
    /// Epilogue tile M, N.
    pub tile: [u64; 2],
    /// Subtiles per CTA tile.
    pub epi_tiles: u64,
    /// C and D stages.
    pub stages_c: u64,
    /// See [`EpilogueShape::stages_c`].
    pub stages_d: u64,
    /// Whether D reuses C's buffer.
    pub reuse_smem_c: bool,
    /// `sizeof(CollectiveEpilogue::SharedStorage)`.
    pub shared_storage: u64,
    /// The TensorStorage part (C and D buffers, fusion storage).
    pub tensor_storage: u64,
    /// The TensorStorage's alignment (the largest `alignas` of the C and D buffers).
    pub align: u64,
    /// C and D smem atoms.
    pub atom_c: Option<SmemAtom>,
    /// See [`EpilogueShape::atom_c`].
    pub atom_d: Option<SmemAtom>,
}

/// `sm90_compute_tile_shape_or_override` with `EpilogueTileAuto`.
///
/// Pre: tile entries > 0. Post: (M, N) dividing the CTA tile when the CTA tile is a multiple of
/// 8. Example: cooperative 128×128 → 128×32; warp-specialized 128×128 → 64×32.
pub fn auto_epilogue_tile(c: &Config) -> [u64; 2] {
    let [tm, tn, _] = c.tile;
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    if c.epilogue == Epilogue::TmaCooperative {
        [tm.min(128), gcd(tn.min(32), tn)]
    } else {
        let n_perf = if c.d.element.bits() == 8 && tn % 64 == 0 {
            64
        } else {
            32
        };
        [tm.min(64), gcd(tn.min(n_perf), tn)]
    }
}

/// The TMA epilogue's stages and `SharedStorage` (the C and D buffers with their swizzle
/// alignment, the fusion storage, the load pipeline's barriers).
///
/// Pre: `tile` divides the CTA tile. Post: as `sm90_get_tma_dispatch_policy` and
/// `CollectiveEpilogue::SharedStorage` lay them out. Example: cooperative f16 128×128, tile
/// 128×32: 4 subtiles, StagesC = 4, StagesD = 2, D reuses C.
pub fn epilogue_shape(c: &Config, tile: [u64; 2]) -> EpilogueShape {
    let [tm, tn, _] = c.tile;
    let epi_tiles = (tm / tile[0].max(1))
        .max(1)
        .saturating_mul((tn / tile[1].max(1)).max(1));
    let bc = c.c.element.bits();
    let bd = c.d.element.bits();
    let reuse = bc == bd && bd > 8;
    let stages_d = epi_tiles.min(2);
    let stages_c = if reuse {
        epi_tiles.min(4).max(stages_d + 1)
    } else {
        epi_tiles.min(4)
    };
    let source = c.c.element != Elem::Void;
    let dest = c.d.element != Elem::Void;
    let reuse_c = reuse && dest;
    let elems = tile[0].saturating_mul(tile[1]);
    let atom = |o: Order, bits: u64| -> Option<SmemAtom> {
        if bits == 0 {
            return None;
        }
        // Row-major C/D is N-major (the epilogue's "K-major" selector over N), column-major M-major.
        let (k, ext) = if o == Order::Row {
            (true, tile[1])
        } else {
            (false, tile[0])
        };
        select_smem_atom(bits, k, ext).ok()
    };
    let atom_c = atom(c.c.layout, bc);
    let atom_d = atom(c.d.layout, bd);
    // alignment_for_swizzle: 2^(B+M+S) of the atom's swizzle, which stays in byte units
    // (Sw<B,4,3>): the swizzle's repeat, 1024/512/256 bytes, 128 for INTER.
    let al = |a: Option<SmemAtom>| -> u64 { a.map_or(1, |a| a.repeat_bytes().max(128)) };
    let al_c = al(atom_c);
    let al_d = al(atom_d);
    let size_c = elems.saturating_mul(stages_c).saturating_mul(bc) / 8;
    let size_d = elems
        .saturating_mul(if reuse_c { stages_c } else { stages_d })
        .saturating_mul(bd)
        / 8;
    let (coll, coll_align) = if !source {
        (round_up(size_d.max(1), al_d.max(1)), al_d.max(1))
    } else if reuse_c {
        let a = al_c.max(al_d).max(1);
        (round_up(size_c.max(size_d), a), a)
    } else {
        let off_d = round_up(size_c, al_d.max(1));
        let a = al_c.max(al_d).max(1);
        (round_up(off_d + size_d, a), a)
    };
    // TensorStorage { collective; FusionStorage thread (an empty struct: 1 byte) }.
    let tensor = round_up(coll + 1, coll_align.max(1));
    // SharedStorage { tensors; PipelineTransactionAsync<StagesC>::SharedStorage pipeline }.
    let pipe = 2 * facts::MBARRIER_BYTES * stages_c;
    let ss_align = coll_align.max(8);
    let shared = round_up(tensor + pipe, ss_align);
    EpilogueShape {
        tile,
        epi_tiles,
        stages_c,
        stages_d,
        reuse_smem_c: reuse_c,
        shared_storage: shared,
        tensor_storage: tensor,
        align: coll_align.max(1),
        atom_c,
        atom_d,
    }
}

/// Bytes of one mainloop stage: A's and B's tiles (`bits_to_bytes(bits · M · K)`).
///
/// Pre: none. Post: `(bitsA·M·K + bitsB·N·K) / 8` with each term rounded up to a byte.
/// Example: f16 128×128×64 → 32,768.
pub fn stage_ab_bytes(c: &Config) -> (u64, u64) {
    let [tm, tn, tk] = c.tile;
    let a = (c.a.element.bits().saturating_mul(tm).saturating_mul(tk)).div_ceil(8);
    let b = (c.b.element.bits().saturating_mul(tn).saturating_mul(tk)).div_ceil(8);
    (a, b)
}

/// `compute_stage_count_or_override` for `StageCountAutoCarveout<carveout>`:
/// `(⌊capacity/128⌋·128 − ⌈carveout⌉₁₂₈) / (⌈A+B⌉₁₂₈ + sizeof(PipelineTmaAsync<1>::SharedStorage))`.
///
/// Pre: none. Post: 0 when even one stage does not fit. Example: sm90, f16 128×128×64,
/// carveout 0 → 232,448 / 32,784 = 7.
pub fn auto_stages(capacity: u64, carveout: u64, stage_ab: u64) -> u64 {
    let stage = round_up(stage_ab, 128) + 2 * facts::MBARRIER_BYTES;
    let cap = capacity / 128 * 128;
    cap.saturating_sub(round_up(carveout, 128)) / stage.max(1)
}

/// The threads CUTLASS launches: producer warpgroup + consumer warpgroups (SM90), or
/// `size(TiledMma)` (SM80).
///
/// Pre: none. Post: 256 (basic), 384 (cooperative, pingpong), 32·warps (SM80).
/// Example: cooperative → 384.
pub fn schedule_threads(c: &Config, tiled_mma_threads: u64) -> u64 {
    match c.kernel {
        Kernel::TmaWs => facts::WARPGROUP + tiled_mma_threads,
        Kernel::TmaWsCooperative => facts::WARPGROUP + tiled_mma_threads,
        Kernel::TmaWsPingpong => facts::WARPGROUP + 2 * tiled_mma_threads,
        Kernel::CpAsyncMultistage | Kernel::CpAsyncUnpredicated => tiled_mma_threads,
    }
}

/// The warp count the CUTLASS library generator most often pairs with an SM80 tile: 4 warps
/// along a mode of 256 or more, 2 along a mode of 32 to 255, 1 below (the generator's tables
/// are not a function of the tile; this rule matches 4,456 of its 6,496 sm80/sm89 kernels).
///
/// Pre: none. Post: `(wm, wn, 1)`. Example: 128×128 → 2×2×1; 256×128 → 4×2×1.
pub fn sm80_warps(tile: [u64; 3]) -> [u64; 3] {
    let w = |e: u64| {
        if e >= 256 {
            4
        } else if e >= 32 {
            2
        } else {
            1
        }
    };
    [w(tile[0]), w(tile[1]), 1]
}

/// The stage request as written (for the derived section).
///
/// Pre: none. Post: a short text. Example: `Stages::Auto` → "auto".
pub fn stages_text(s: Stages) -> String {
    match s {
        Stages::Auto => "auto".into(),
        Stages::Fixed(n) => format!("StageCount<{n}>"),
        Stages::Carveout(b) => format!("StageCountAutoCarveout<{b}>"),
    }
}
