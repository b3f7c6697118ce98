//! Codes printed by the schedule engine, the TMA rules, the simplifier, the pictures and the CLI
//! itself (the layout algebra's codes are `tessera::obligation::catalogue`). `tessera explain`
//! prints them; `docs/errors.md` lists them; `tests/codes.rs` checks both against the sources.

/// One code of the other engines.
pub struct Code {
    /// The code, as printed in `error[CODE]`.
    pub code: &'static str,
    /// One line: what failed.
    pub title: &'static str,
    /// What it means and how to fix it.
    pub explanation: &'static str,
    /// A minimal input that triggers it.
    pub example: &'static str,
}

/// Every code not in the algebra's catalogue.
pub const OTHER: &[Code] = &[
    Code {
        code: "parse",
        title: "the schedule or simplifier text is not well formed",
        explanation: "The message gives the 1-based line and column and what was expected there. Statements are one per line (`I1, I2 = split I0 by 4`, `loop I1 I2`); see docs/domain.md.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6 7`",
    },
    Code {
        code: "unknown_id",
        title: "an IterDomain name is used before it is defined",
        explanation: "Every IterDomain must be defined (by `iter` or a transform) on an earlier line.",
        example: "tessera schedule s.tsch  # s.tsch: `I1, I2 = split I9 by 4`",
    },
    Code {
        code: "redefined",
        title: "an IterDomain name is defined twice",
        explanation: "Names are single-assignment: pick a fresh name for every output.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I0 = iter 7`",
    },
    Code {
        code: "bad_factor",
        title: "a split factor is not positive",
        explanation: "The obligation `factor > 0` of split: use a factor >= 1.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 0`",
    },
    Code {
        code: "non_positive_extent",
        title: "an extent is provably < 1",
        explanation: "Every IterDomain has at least one point; a resize that removes everything, or a fact giving a symbol a value < 1, breaks it.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1 = resize I0 by -3, -3`",
    },
    Code {
        code: "swizzle_same_input",
        title: "a swizzle reads one IterDomain twice",
        explanation: "The obligation `x != y` of the XOR swizzle: swizzle two distinct IterDomains.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 4` / `A, B = swizzle xor I0, I0`",
    },
    Code {
        code: "self_merge",
        title: "a merge reads one IterDomain twice",
        explanation: "The obligation `outer != inner` of merge: `merge I0, I0` has no meaning (the two indices cannot vary independently). Merge two distinct IterDomains.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `M = merge I0, I0`",
    },
    Code {
        code: "overdetermined",
        title: "the loop domain determines an index along two routes",
        explanation: "A schedule is a DAG from the roots to the loop domain in which every index is computed once. An IterDomain consumed by two transforms that both lie between the loop domain and the roots (split twice, or merged with its own output), or a loop domain naming both an IterDomain and one derived from it, gives a transform whose relation could not hold at every point. An IterDomain may feed several transforms only if the loop domain determines it through one of them (the others are computed forward): add a `loop` statement naming one branch, or remove the second use.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 2` / `M = merge I0, I1`",
    },
    Code {
        code: "cycle",
        title: "a transform reads an IterDomain defined by itself or a later transform",
        explanation: "Only reachable from Rust (the text format defines names before use): a hand-built Schedule whose transforms are not in topological order. Schedule::validate refuses it.",
        example: "Rust: rewire a split's input to its own merge's output, then s.validate()",
    },
    Code {
        code: "aliasing_alloc",
        title: "two points of the allocation share an address",
        explanation: "The allocation domain with its strides must be injective: no IterDomain allocated twice, no stride 0 on an extent > 1, and no two coordinates with the same offset (decided in closed form for super-increasing or divisibility-chain strides, else enumerated). Use strides that keep the points apart, e.g. contiguous row-major.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 4` / `alloc I1 I2 strides 0 0`",
    },
    Code {
        code: "input_too_large",
        title: "an input is over its size limit",
        explanation: "Every input (a file, a line of `tessera batch`, an expression argument) is limited to 1 MiB by default; the message names the limit. Set the environment variable TESSERA_MAX_INPUT_BYTES (at most 2^30) to raise it. Streams such as /dev/zero stop at the limit.",
        example: "tessera schedule /dev/zero",
    },
    Code {
        code: "unbound_symbol",
        title: "a symbol's value is needed but unknown",
        explanation: "Code generation and enumeration need concrete extents: add `assume N == <value>`.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter N` with `tessera schedule s.tsch --lowering ours`",
    },
    Code {
        code: "contradiction",
        title: "facts (or simplifier assumptions) contradict each other",
        explanation: "Two `assume` statements (or `--assume` facts) that no value satisfies, e.g. `N % 8 == 0` and `N == 20`.",
        example: "tessera schedule s.tsch  # s.tsch: `assume N % 8 == 0` / `assume N == 20`",
    },
    Code {
        code: "too_many_points",
        title: "enumeration would visit more than 2^24 loop points",
        explanation: "Exact answers are enumerated only up to a bound; the report then uses the theorems (closed form) and says enumeration was skipped.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 100000` / `I1 = iter 100000` with `--lowering ours`",
    },
    Code {
        code: "too_much_work",
        title: "enumeration would do more than 2^26 units of work",
        explanation: "Points times the work per point (propagation steps, bound checks, loop counters) is bounded like the points themselves.",
        example: "tessera schedule s.tsch  # s.tsch: a deep chain of splits over 2^22 points with `--lowering ours`",
    },
    Code {
        code: "undetermined",
        title: "the loop domain does not determine some index",
        explanation: "Every IterDomain's index must follow from the loop indices (backward through splits and merges, forward through computed branches): add the missing IterDomain to `loop`.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 2` / `loop I1`",
    },
    Code {
        code: "bad_loop",
        title: "the loop domain is empty or lists an IterDomain twice",
        explanation: "List each loop IterDomain once.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `loop I0 I0`",
    },
    Code {
        code: "bad_alloc",
        title: "the allocation description is invalid",
        explanation: "The allocation domain needs one non-negative stride per IterDomain and at least one IterDomain.",
        example: "Rust: an Allocation with a negative stride",
    },
    Code {
        code: "not_comparable",
        title: "two schedules cannot be compared",
        explanation: "`--equiv` needs two schedules over the same roots (names and extents).",
        example: "tessera schedule a.tsch --equiv b.tsch  # different roots",
    },
    Code {
        code: "bad_vectorize",
        title: "a vectorization or box query is invalid",
        explanation: "`vectorize I` / `box I` must name an IterDomain of the loop domain.",
        example: "tessera schedule s.tsch  # s.tsch: `I0 = iter 8` / `I1, I2 = split I0 by 4` / `vectorize I0`",
    },
    Code {
        code: "kind",
        title: "an expression was given where a predicate was needed, or the reverse",
        explanation: "`tessera simplify` simplifies an index expression or a predicate; assumptions must be predicates such as `0 <= i < 32`.",
        example: "tessera simplify 'i0 + 1' --assume 'i0'",
    },
    Code {
        code: "division_by_zero",
        title: "a divisor is the constant 0",
        explanation: "`tessera simplify` refuses `/`, `%` and `cdiv` whose divisor is 0 once its operands are simplified: the expression is undefined at every point, and no rewrite may make it defined.",
        example: "tessera simplify 'i / 0'",
    },
    Code {
        code: "bad_input",
        title: "a picture request is invalid",
        explanation: "The picture's parameters (a TV tile, a TMA box) do not fit the layout or are out of range.",
        example: "tessera show --tv '((4,8),(2,2)):((32,1),(16,8))' --tile 0,8",
    },
    Code {
        code: "io",
        title: "a file could not be read or written",
        explanation: "The message names the path and the operating system's reason (missing file, permission, a directory).",
        example: "tessera schedule /no/such/file.tsch",
    },
    Code {
        code: "invalid_utf8",
        title: "an input file is not UTF-8 text",
        explanation: "Schedules, layout files and TMA request files are UTF-8 text; the message gives the offset of the first invalid byte.",
        example: "tessera schedule /dev/urandom  # or any binary file under the size limit",
    },
    Code {
        code: "bad_argument",
        title: "a command-line argument is invalid",
        explanation: "An unknown choice (picture kind, predicate, language), a malformed list, or a TMA flag out of range (`--align` must be a power of two, `--sm` a compute capability with TMA: 90, 100, 101, 103, 110, 120, 121; `--dtype` is required).",
        example: "tessera tma --shape 64,64 --box 64,64  # no --dtype",
    },
    Code {
        code: "bad_json",
        title: "a TMA request file is not the expected JSON",
        explanation: "`tessera tma --file` reads one JSON object with the flags' names as keys.",
        example: "tessera tma --file req.json  # req.json: `[1,2]`",
    },
    Code {
        code: "bad_request",
        title: "a `tessera batch` line is not a valid request",
        explanation: "Each line is one JSON object; see docs/batch.md for the request kinds (`expr`, `schedule`, `tma`).",
        example: "echo '[1]' | tessera batch",
    },
    Code {
        code: "json",
        title: "the JSON answer could not be written",
        explanation: "Internal: serialising a report failed (never expected).",
        example: "none",
    },
    Code {
        code: "svg",
        title: "a picture could not be drawn or written",
        explanation: "`tessera tma --svg FILE` draws ranks 1 and 2 only, and the file must be writable.",
        example: "tessera tma --dtype f32 --shape 6,12 --box 4,4 --svg /no/such/dir/x.svg",
    },
    Code {
        code: "tma_rank",
        title: "tensorRank must be 1..=5",
        explanation: "The driver encodes at most 5 dimensions.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_interleave_rank",
        title: "interleaved layouts need rank >= 3",
        explanation: "With interleave 16B or 32B the driver requires tensorRank >= 3.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_arity",
        title: "an array does not have one entry per dimension",
        explanation: "Shape, strides, box and element strides must all have the tensor's rank.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_global_address_alignment",
        title: "the global address is not aligned enough",
        explanation: "globalAddress must be 16-byte aligned (32 with interleave 32B); `--align` gives what is known about it.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_global_dim",
        title: "a globalDim is 0 or > 2^32",
        explanation: "Every tensor extent must be in 1..=2^32.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_packed_global_dim",
        title: "a packed type needs globalDim[0] a multiple of its packing",
        explanation: "The sub-byte packed types need the innermost extent to be a multiple of the packing.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_innermost_stride",
        title: "the innermost dimension is not contiguous",
        explanation: "Dimension 0 must have stride 1 element (the driver omits its stride).",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_fractional_stride",
        title: "a stride is not a whole number of bytes",
        explanation: "With sub-byte types the byte stride must be integral.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_global_stride_multiple",
        title: "a global stride is not a multiple of 16 bytes",
        explanation: "globalStrides must be multiples of 16 (32 with interleave 32B).",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_global_stride_too_large",
        title: "a global stride is >= 2^40 bytes",
        explanation: "The driver encodes strides below 2^40.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_global_stride_overlap",
        title: "a global stride does not cover the dimension below it",
        explanation: "nvFuser checks that each stride is at least the extent times the stride of the dimension below.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_box_dim",
        title: "a boxDim is 0 or > 256",
        explanation: "Every box extent must be in 1..=256.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_inner_box_bytes",
        title: "the inner box row is not a multiple of 16 bytes",
        explanation: "boxDim[0] * elementSize must be a multiple of 16.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_box_footprint",
        title: "one box does not fit in shared memory",
        explanation: "The box (as the driver counts it) must fit in the 227 KiB of an SM.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_packed_box_dim",
        title: "a packed type needs boxDim[0] = 128",
        explanation: "The driver requires the inner box of the packed types to be exactly 128.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_element_stride",
        title: "an element stride is 0 or > 8",
        explanation: "elementStrides must be in 1..=8.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_swizzle_span",
        title: "the inner box row is wider than the swizzle span",
        explanation: "With swizzle 32B/64B/128B, boxDim[0] * elementSize must be at most the span.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_interleave_swizzle",
        title: "interleave 32B needs swizzle 32B",
        explanation: "The driver requires swizzle 32B with interleave 32B.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_packed_interleave",
        title: "a packed type needs interleave NONE",
        explanation: "The packed types do not support interleave.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_packed_swizzle",
        title: "a packed type does not support this swizzle",
        explanation: "The packed types support only some swizzle modes; the message lists them.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_oob_fill",
        title: "NaN fill needs a floating-point type",
        explanation: "oobFill NAN_REQUEST_ZERO_FMA is refused for integer and packed types.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_atom_swizzle_arch",
        title: "this swizzle atom needs sm_100 or newer",
        explanation: "The 128B_ATOM_* swizzles are refused before compute capability 10.0.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_inner_element_stride",
        title: "elementStrides[0] is not 1 (nvFuser)",
        explanation: "The driver ignores it; nvFuser requires 1.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_nvfuser_swizzle_exact",
        title: "nvFuser needs the inner box row equal to the swizzle span",
        explanation: "Smaller rows are not supported by nvFuser's TMA scheduler.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_coordinate_32bit",
        title: "an extent exceeds 2^31 (PTX coordinates are 32-bit)",
        explanation: "Boxes past 2^31 - 1 cannot be addressed by cp.async.bulk.tensor.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_transaction_bytes",
        title: "one copy is not a multiple of 16 bytes",
        explanation: "The mbarrier transaction count must be a multiple of 16.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_bad_input",
        title: "a TMA request value is malformed",
        explanation: "A value of the request could not be interpreted (the message names it).",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_overflow",
        title: "arithmetic overflow in a TMA computation",
        explanation: "Sizes are computed with checked arithmetic; use smaller extents or strides.",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_tiling",
        title: "the tiling view could not be computed",
        explanation: "The boxes-over-tensor layout could not be formed (the message says why).",
        example: "tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)",
    },
    Code {
        code: "tma_smem_mismatch",
        title: "the box TMA writes is not the shared-memory layout the consumer expects",
        explanation: "With `--smem LAYOUT`, the box the descriptor writes with its swizzle mode (Swizzle<1,4,3>, <2,4,3> or <3,4,3> over bytes, recast to the element type) must equal LAYOUT as a function on every box element. The message names the first box coordinate where they differ and the two element offsets; the checked suggestions are the swizzle modes that do write LAYOUT, and the GMMA atoms whose tiling is what the descriptor writes.",
        example: "tessera tma --dtype f16 --shape 4096,4096 --box 64,64 --swizzle 64B --smem 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))'",
    },
    Code {
        code: "bad_config",
        title: "the kernel configuration cannot be read",
        explanation: "A field of the `tessera check` configuration (TOML, JSON, `--space`), a fact in `assume`, or a CUTLASS kernel name is not understood; the message names the field and what was expected (docs/check.md).",
        example: "tessera check --cutlass cutlass_nonsense",
    },
    Code {
        code: "unknown_dtype",
        title: "not the name of an element type",
        explanation: "Element types are named by their short name (f16, bf16, f32, tf32, f64, e4m3, e5m2, ue8m0, i8, u8, i16, u16, i32, u32, i64, u64, i4, u4, e2m1, e2m3, e3m2), an alias (half, float, int8, …) or their CUTLASS name (half_t, float_e4m3_t, …): the one table `tessera::target::DTYPES`.",
        example: "Rust: tessera::target::Dtype::parse(\"f17\")",
    },
    Code {
        code: "arch_syntax",
        title: "the text is not an architecture name",
        explanation: "An architecture is written sm_NN, smNN, compute_NN or NN, with an optional `a` (architecture-specific) or `f` (family) suffix, or as a compute capability N.N. The message gives the 1-based column of the first character that does not fit.",
        example: "Rust: tessera::target::Arch::parse(\"sm_9x\")",
    },
    Code {
        code: "unknown_arch",
        title: "a compute capability Tessera has no facts for",
        explanation: "The architectures are the rows of `tessera::target::ARCHS`: sm_80, sm_86, sm_89, sm_90, sm_100, sm_103, sm_110 (sm_101), sm_120, sm_121. Adding one is one row there.",
        example: "Rust: tessera::target::Arch::parse(\"sm_75\")",
    },
    Code {
        code: "arch_suffix",
        title: "a feature-set suffix the architecture does not have",
        explanation: "The `a` suffix (architecture-specific features: wgmma, tcgen05) exists from sm_90, the `f` suffix (family features) from sm_100.",
        example: "Rust: tessera::target::Arch::parse(\"sm_86a\")",
    },
];

/// The entry of a code.
///
/// Pre: none. Post: `None` for a code not in [`OTHER`]. Example: `lookup("self_merge")`.
pub fn lookup(code: &str) -> Option<&'static Code> {
    OTHER.iter().find(|c| c.code == code)
}
