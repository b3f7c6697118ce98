//! The one catalogue of codes: every code Tessera can print (errors, warnings and notes of the
//! layout algebra, the bank analysis, linear layouts, the schedule engine, the TMA rules, the
//! simplifier, the pictures, the GPU facts and the CLI), with what it means and a minimal example.
//! `tessera explain CODE` prints an entry, Python's `tessera.explain` reads it, `docs/errors.md`
//! documents each (a test checks both ways), and every `code()` of the library returns one.

/// Where a code comes from (decides how `tessera explain` shows its example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The layout algebra's `crate::Error`.
    Algebra,
    /// A note (`crate::error::Note`): a warning with a successful result.
    Note,
    /// The bank analysis and linear layouts.
    Banks,
    /// The schedule engine, TMA rules, simplifier, pictures, GPU facts and the CLI.
    Other,
}

/// How an example is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Example {
    /// An expression of the expression language (`tessera eval '…'`).
    Expr(&'static str),
    /// Rust code using the library (for obligations the expression language cannot reach).
    Rust(&'static str),
    /// A command line or code, shown as written.
    Text(&'static str),
}

/// One code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// Its family.
    pub family: Family,
    /// The code, as `code()` returns it.
    pub code: &'static str,
    /// One line: what failed (empty for notes).
    pub title: &'static str,
    /// The obligation, in math notation (empty where there is none).
    pub obligation: &'static str,
    /// What it means and how to fix it.
    pub explanation: &'static str,
    /// A minimal input that triggers the code.
    pub example: Example,
}

/// Every family's codes, in the order `tessera explain` lists them.
pub const FAMILIES: &[&[Code]] = &[ALGEBRA, OTHER, BANKS, NOTES];

/// Every code.
///
/// Pre: none. Post: each code once. Example: `all().any(|c| c.code == "divisibility")`.
pub fn all() -> impl Iterator<Item = &'static Code> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// The entry of a code, of any family.
///
/// Pre: none. Post: `None` for an unknown code. Example:
///
/// ```
/// use tessera::diagnostic::catalogue::{lookup, Family};
/// assert_eq!(lookup("divisibility").unwrap().family, Family::Algebra);
/// assert_eq!(lookup("banks_bad_dtype").unwrap().family, Family::Banks);
/// assert_eq!(lookup("complement_holes").unwrap().family, Family::Note);
/// assert_eq!(lookup("self_merge").unwrap().family, Family::Other);
/// assert!(lookup("nope").is_none());
/// ```
pub fn lookup(code: &str) -> Option<&'static Code> {
    all().find(|c| c.code == code)
}

/// The layout algebra's error codes, in the order of `crate::Error`'s variants.
pub const ALGEBRA: &[Code] = &[
    Code {
        family: Family::Algebra,
        code: "overflow",
        title: "checked 64-bit arithmetic overflowed",
        obligation: "every intermediate value < 2^63",
        explanation: "Sizes, cosizes, strides and products are computed with checked i64 \
                      arithmetic; a value that does not fit is an error, never a wrap. Use \
                      smaller extents or strides.",
        example: Example::Expr("size((4611686018427387904,4))"),
    },
    Code {
        family: Family::Algebra,
        code: "parse_error",
        title: "the text is not a well-formed expression",
        obligation: "well formed",
        explanation: "The message gives the 1-based column and what was expected there. \
                      Layouts are written shape:stride, e.g. (2,3):(1,2).",
        example: Example::Expr("coalesce((2,3):(1,2)"),
    },
    Code {
        family: Family::Algebra,
        code: "non_positive_shape",
        title: "a shape entry (extent) is not ≥ 1",
        obligation: "s ≥ 1 for every extent s",
        explanation: "Every mode of a layout has at least one element; complement1's N, d and \
                      M, and factors such as upcast's N, are extents too.",
        example: Example::Expr("make_layout(0)"),
    },
    Code {
        family: Family::Algebra,
        code: "not_congruent",
        title: "two tuples that must have the same nesting do not",
        obligation: "congruent(shape, stride)",
        explanation: "A layout's shape and stride must have the same profile; \
                      make_ordered_layout's order must be weakly congruent to the shape.",
        example: Example::Expr("make_layout((2,2),(1,2,4))"),
    },
    Code {
        family: Family::Algebra,
        code: "rank_mismatch",
        title: "ranks do not match, or a mode index is out of range",
        obligation: "rank(x) = rank(y), or i < rank(L)",
        explanation: "Coordinates must have the layout's rank; get(L, i) needs i < rank(L); \
                      print_layout needs rank 1 or 2.",
        example: Example::Expr("get((2,3):(1,2),5)"),
    },
    Code {
        family: Family::Algebra,
        code: "too_many_modes",
        title: "a by-mode tiler has more modes than the layout",
        obligation: "rank(tiler) ≤ rank(A)",
        explanation: "A tuple tiler applies mode by mode; it cannot have more modes than A. \
                      Drop trailing modes of the tiler or use a layout tiler.",
        example: Example::Expr("logical_divide(8:1,(2,2))"),
    },
    Code {
        family: Family::Algebra,
        code: "divisibility",
        title: "a divisibility obligation failed",
        obligation: "a ∣ b (e.g. N·d ∣ M for complement1)",
        explanation: "complement1(N, d, M) needs N·d ∣ M (the Complementation theorem); tile_to_shape needs each \
                      block mode's size to divide the target's; upcast needs d ∣ N or N ∣ d for \
                      every stride d; left_inverse needs each stride divisible by the size \
                      inverted so far. The diagnostic shows the failing arithmetic and checked \
                      alternatives, nearest first.",
        example: Example::Expr("complement1(128,16,2040)"),
    },
    Code {
        family: Family::Algebra,
        code: "inadmissible_composition",
        title: "A ∘ B has no layout result compatible with B",
        obligation: "admissible(A ∘ B)",
        explanation: "Composition is decided exactly: some layout refining B's shape must equal \
                      A ∘ B on B's domain. Along each leaf s:d of B, t ↦ A(t·d) must be a layout \
                      function. The diagnostic names the failing mode of B and suggests nearby \
                      B shapes and strides that compose (each one checked).",
        example: Example::Expr("composition((4,6,8):(2,3,5),6:3)"),
    },
    Code {
        family: Family::Algebra,
        code: "non_injective",
        title: "the operation needs an injective layout",
        obligation: "injective(L)",
        explanation: "complement and left_inverse need distinct coordinates to have distinct \
                      images; the message gives two colliding indices. Drop or re-stride the \
                      colliding mode.",
        example: Example::Expr("complement((2,2):(1,1))"),
    },
    Code {
        family: Family::Algebra,
        code: "not_complementable",
        title: "the layout has no complement",
        obligation: "sorted by stride, s_i·d_i ∣ d_{i+1}",
        explanation: "complement_exact needs positive strides where each mode, sorted by \
                      stride, ends (s·d) at a divisor of the next stride; otherwise no layout \
                      completes A without overlap. complement answers such an A with CuTe's \
                      complement and a complement_holes note, and refuses it only where CuTe's \
                      quotient is 0 (a mode ends past the next stride) or a stride is negative. \
                      Adjust the stride or the extent of the failing mode.",
        example: Example::Expr("complement_exact((2,2):(1,3))"),
    },
    Code {
        family: Family::Algebra,
        code: "out_of_domain",
        title: "an index or coordinate lies outside the domain",
        obligation: "0 ≤ i < size",
        explanation: "Indices are non-negative and coordinates lie within their mode's extent.",
        example: Example::Expr("idx2crd(-1,4)"),
    },
    Code {
        family: Family::Algebra,
        code: "type_error",
        title: "an argument has the wrong kind",
        obligation: "argument i is a layout / integer / tuple / tiler",
        explanation: "Each function of the expression language takes arguments of given kinds; \
                      `tessera eval` lists them in its help.",
        example: Example::Expr("complement1(4:1,2,8)"),
    },
    Code {
        family: Family::Algebra,
        code: "arity",
        title: "a call has the wrong number of arguments",
        obligation: "number of arguments accepted",
        explanation: "The message lists the accepted counts.",
        example: Example::Expr("complement1(4,2)"),
    },
    Code {
        family: Family::Algebra,
        code: "unknown_function",
        title: "no such function",
        obligation: "the function exists",
        explanation: "See the list of functions of the expression language.",
        example: Example::Expr("complemnt(4:1)"),
    },
    Code {
        family: Family::Algebra,
        code: "too_large",
        title: "a decision procedure would enumerate too many points",
        obligation: "size ≤ enumeration bound (2^22)",
        explanation: "Where no closed-form certificate applies, Tessera decides by enumeration, \
                      bounded to keep every answer fast (composition's B, left_inverse's L \
                      when its strides overlap). Use a smaller layout. In a schedule \
                      (`tessera schedule`): more than 2^18 IterDomains, or an extent expression \
                      of more than 64 nodes (a long chain of merges of symbolic extents; bind \
                      the symbols with `assume N == value`).",
        example: Example::Expr("left_inverse((2048,2048,2):(1,1,1))"),
    },
    Code {
        family: Family::Algebra,
        code: "no_unit_stride",
        title: "downcast needs a mode of stride ±1",
        obligation: "∃ mode with stride 1",
        explanation: "downcast splits adjacent elements; a layout without a stride-1 mode has \
                      none.",
        example: Example::Expr("downcast(4:2,2)"),
    },
    Code {
        family: Family::Algebra,
        code: "proof_mismatch",
        title: "a proof value certifies a different obligation than the one needed",
        obligation: "the proof certifies exactly N·d ∣ M",
        explanation: "complement1_with(N, d, M, h) takes a Divides proof h; h must be a proof of \
                      N·d ∣ M for these N, d, M (build it with Divides::check(N * d, M)).",
        example: Example::Rust(
            "complement1_with(4, 2, 24, Divides::check(8, 16)?) // 8 ∣ 16 is not 4·2 ∣ 24",
        ),
    },
    Code {
        family: Family::Algebra,
        code: "invalid_swizzle",
        title: "Swizzle<B,M,S> parameters out of range",
        obligation: "B ≥ 0 ∧ M ≥ 0 ∧ |S| ≥ B ∧ B + M + |S| ≤ 62",
        explanation: "A swizzle XORs the B bits at M + max(0,S) into the B bits at M − min(0,S); \
                      the two groups must not overlap (|S| ≥ B, CuTe's static_assert) and must \
                      fit a 64-bit index. Use a larger |S| or fewer bits.",
        example: Example::Expr("composition(Sw<3,4,2>,8:1)"),
    },
    Code {
        family: Family::Algebra,
        code: "not_expressible",
        title: "the result has no layout or composed-layout form",
        obligation: "the result is a layout or a composed layout",
        explanation: "Operations on swizzled layouts return Layout, Swizzle or outer ∘ offset ∘ \
                      inner; when the true result is none of these (e.g. make_swizzle of two \
                      masks with different bit counts), CuTe C++ refuses at compile time and \
                      Tessera says why. Where a correct answer exists as a chain A o O o B, \
                      Tessera returns the chain instead.",
        example: Example::Expr("make_swizzle(12,1)"),
    },
];

/// The bank analysis's and linear layouts' codes (`docs/banks.md` documents them too).
pub const BANKS: &[Code] = &[
    Code {
        family: Family::Banks,
        code: "banks_thread_extent",
        title: "size(mode 0 of the TV layout) = 32",
        obligation: "size(mode 0 of the TV layout) = 32",
        explanation: "The access is one warp: the TV layout's mode 0 is the thread (CuTe's convention) and has 32 threads. The suggestions keep the thread stride with extent 32 and are analysed before they are shown.",
        example: Example::Text("tessera banks --smem '(32,32):(32,1)' --tv '(16,2):(1,16)' --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_tv_rank",
        title: "rank(TV) = 2",
        obligation: "rank(TV) = 2",
        explanation: "A TV layout has two modes, (thread, value); a single-value access is written (32,1):(d,0).",
        example: Example::Text("tessera banks --smem '(32,32):(32,1)' --tv '32:1' --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_out_of_domain",
        title: "0 ≤ TV(t, v) < size(smem) (or the atom tile)",
        obligation: "0 ≤ TV(t, v) < size(smem) (or the atom tile)",
        explanation: "Every (thread, value) must name an element of the shared-memory layout's domain (or of the atom tile for --atom). The suggestion keeps the longest prefix of values that stays inside, checked by the analysis.",
        example: Example::Text("tessera banks --smem '(32,32):(32,1)' --tv '(32,64):(1,32)' --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_misaligned_vector",
        title: "every group of W/sizeof(T) values is contiguous and W-aligned",
        obligation: "every group of W/sizeof(T) values is contiguous and W-aligned",
        explanation: "A fixed vector width (ld.shared.W, cp.async.W, ldmatrix's 16 bytes) needs each thread's aligned group of values to be contiguous in shared memory and to start at a multiple of W bytes. The suggestions are the legal widths, nearest first, each checked.",
        example: Example::Text("tessera banks --smem '(32,32):(33,1)' --tv '(32,32):(1,32)' --instr ld.shared.16 --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_bad_dtype",
        title: "the instruction moves this element size",
        obligation: "the instruction moves this element size",
        explanation: "ldmatrix/stmatrix move 16-bit elements; cp.async and ld/st.shared.W need elements no wider than W. The suggestions are the element types the instruction can move.",
        example: Example::Text("tessera banks --smem '(64,64):(64,1)' --atom ldmatrix.x4 --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_bad_input",
        title: "a known dtype, atom, instruction and tile",
        obligation: "a known dtype, atom, instruction and tile",
        explanation: "An unknown element type, atom or instruction, or an atom tile that does not divide the tile. The suggestions list the accepted values.",
        example: Example::Text("tessera banks --smem '(32,32):(32,1)' --tv '(32,1):(1,0)' --dtype f33"),
    },
    Code {
        family: Family::Banks,
        code: "banks_address",
        title: "every element offset ≥ 0 and every byte address < 2^32",
        obligation: "every element offset ≥ 0 and every byte address < 2^32",
        explanation: "Shared memory is addressed in a 32-bit window (far more than any GPU's shared memory per block: see banks_smem_capacity); a layout with a negative offset, or whose byte span passes 2^32 (or overflows 64 bits), has no address the hardware could use, and the model refuses it instead of wrapping.",
        example: Example::Text("tessera banks --smem '(32,2):(1,4611686018427387904)' --tv '(32,2):(1,32)' --dtype f16"),
    },
    Code {
        family: Family::Banks,
        code: "banks_smem_capacity",
        title: "warning: the tile's byte span ≤ the most shared memory a block may use on any target",
        obligation: "cosize(smem) · sizeof(T) ≤ max over target::ARCHS of smem_per_block",
        explanation: "A warning, not an error (the analysis answers, exit status 0): the tile spans more bytes than one block may use on any architecture of the target table (the largest smem_per_block of target::ARCHS; the warning gives the figure and the architecture), though every address is inside the 32-bit shared window. The counts are the model's for a tile no GPU holds; analyse the part one block holds (one stage, one atom tile).",
        example: Example::Text("tessera banks --smem '(256,256):(256,1)' --tv '(32,1):(1,0)' --dtype f32"),
    },
    Code {
        family: Family::Banks,
        code: "banks_too_large",
        title: "(instances × 32 × values) ≤ 2^24",
        obligation: "(instances × 32 × values) ≤ 2^24",
        explanation: "The enumeration (simulator, or the analysis when the access is not F2-linear) is bounded. Analyse one atom tile, or a smaller tile.",
        example: Example::Text("tessera banks --smem '(8192,8192):(8193,1)' --tv '(32,2097152):(1,32)' --dtype f16"),
    },
    Code {
        family: Family::Banks,
        code: "linear_not_power_of_two",
        title: "every size is a power of two",
        obligation: "every size is a power of two",
        explanation: "Linear layouts over F2 have power-of-two input and output sizes (Triton's rule).",
        example: Example::Text("LinearLayout::new(&[(\"a\", vec![vec![1]])], &[(\"x\", 3)])"),
    },
    Code {
        family: Family::Banks,
        code: "linear_too_many_bits",
        title: "Σ bits ≤ 63",
        obligation: "Σ bits ≤ 63",
        explanation: "A linear layout has at most 63 input and 63 output bits in total.",
        example: Example::Text("LinearLayout::identity_1d(1 << 63, \"a\", \"b\")?.product(..)"),
    },
    Code {
        family: Family::Banks,
        code: "linear_basis_out_of_range",
        title: "every basis entry < its output size",
        obligation: "every basis entry < its output size",
        explanation: "A basis entry must fit its output dimension.",
        example: Example::Text("LinearLayout::new(&[(\"a\", vec![vec![4]])], &[(\"x\", 4)])"),
    },
    Code {
        family: Family::Banks,
        code: "linear_basis_arity",
        title: "one entry per output dimension",
        obligation: "one entry per output dimension",
        explanation: "Each basis has one entry per output dimension.",
        example: Example::Text("LinearLayout::new(&[(\"a\", vec![vec![1, 0]])], &[(\"x\", 4)])"),
    },
    Code {
        family: Family::Banks,
        code: "linear_dim_mismatch",
        title: "matching dimension names and sizes",
        obligation: "matching dimension names and sizes",
        explanation: "compose needs the inner outputs to be the outer inputs; invert_and_compose needs equal outputs; reshape needs equal total sizes.",
        example: Example::Text("a.compose(&b) with different names"),
    },
    Code {
        family: Family::Banks,
        code: "linear_not_invertible",
        title: "injective / surjective",
        obligation: "injective / surjective",
        explanation: "invert needs a bijection (independent bases spanning the outputs); pseudo_invert needs a surjection.",
        example: Example::Text("LinearLayout::zeros_1d(4, \"a\", \"b\")?.invert()"),
    },
    Code {
        family: Family::Banks,
        code: "linear_not_in_image",
        title: "image(A) ⊆ image(B)",
        obligation: "image(A) ⊆ image(B)",
        explanation: "invert_and_compose(A, B) finds C with B(C(x)) = A(x); a basis of A outside B's image has no preimage.",
        example: Example::Text("A = r:[[1],[2]] -> o=4, B = s:[[1],[0]] -> o=4"),
    },
    Code {
        family: Family::Banks,
        code: "linear_input_out_of_range",
        title: "input < its size",
        obligation: "input < its size",
        explanation: "apply takes each named input below its dimension's size.",
        example: Example::Text("identity_1d(8, \"lane\", \"d\")?.apply(&[(\"lane\", 9)])"),
    },
    Code {
        family: Family::Banks,
        code: "linear_carry",
        title: "no two input bits' contributions share an index bit",
        obligation: "no two input bits' contributions share an index bit",
        explanation: "A CuTe layout is F2-linear when its contributions d·2^j never carry when added; the error names the leaf mode, its stride, the bit and the earlier contribution it overlaps. Suggestions change one stride to a nearby power of two and are converted before they are shown.",
        example: Example::Text("LinearLayout::from_layout(\"(4,2):(3,16)\")"),
    },
    Code {
        family: Family::Banks,
        code: "linear_mode",
        title: "power-of-two shapes and non-negative strides",
        obligation: "power-of-two shapes and non-negative strides",
        explanation: "A mode whose shape is not a power of two, or whose stride is negative, cannot be F2-linear.",
        example: Example::Text("LinearLayout::from_layout(\"(4,3):(1,4)\")"),
    },
    Code {
        family: Family::Banks,
        code: "linear_no_cute_form",
        title: "pairwise disjoint bases (or a swizzle that makes them so); offset 0",
        obligation: "pairwise disjoint bases (or a swizzle that makes them so); offset 0",
        explanation: "A linear layout has a CuTe form when its bases share no bit (then XOR = +), or after one Swizzle<B,M,S>; a composed layout with a non-zero offset is affine, not linear.",
        example: Example::Text("LinearLayout::from_any_layout(\"Sw<3,3,3> o 8 o (64,64):(64,1)\")"),
    },
    Code {
        family: Family::Banks,
        code: "linear_parse",
        title: "well-formed text",
        obligation: "well-formed text",
        explanation: "The text form is `in = [[..], ..], .. -> out = size, ..`.",
        example: Example::Text("LinearLayout::parse(\"a = [[1] -> x = 2\")"),
    },    Code {
        family: Family::Banks,
        code: "gluon_parse",
        title: "a Gluon constructor call",
        obligation: "a Gluon constructor call",
        explanation: "A Gluon layout is read from its constructor text, as repr() prints it: `Class(field=value, ...)` or positional fields in the dataclass's order; integers, True/False, lists and nested layouts. The message gives the column.",
        example: Example::Text("tessera.triton.from_gluon(\"BlockedLayout([1, 4] [4, 8])\", [4, 4])"),
    },
    Code {
        family: Family::Banks,
        code: "gluon_field",
        title: "the class's fields, each of its kind and rule",
        obligation: "the class's fields, each of its kind and rule",
        explanation: "An unknown class or field, a missing field, a value of the wrong kind, or a value against the class's rule (an order that is not a permutation, a swizzle width other than 0/32/64/128, a DotOperandLayout parent that is not an MMA layout).",
        example: Example::Text("tessera.triton.from_gluon(\"SwizzledSharedLayout(8, 1, 8, [0, 0])\", [64, 64])"),
    },
    Code {
        family: Family::Banks,
        code: "gluon_shape",
        title: "a shape of the layout's rank, power-of-two sizes, at least one swizzle tile",
        obligation: "a shape of the layout's rank, power-of-two sizes, at least one swizzle tile",
        explanation: "A Gluon layout becomes a linear layout over a tensor shape: the shape must have the layout's rank and power-of-two sizes, and an NVMMA shared layout's TMA box must hold one swizzle tile (8 rows of the swizzle width).",
        example: Example::Text("tessera.triton.from_gluon(\"NVMMASharedLayout(128, 16)\", [4, 4])"),
    },
];

/// Note codes: warnings that travel with a successful result (`crate::error::Note`).
pub const NOTES: &[Code] = &[Code {
    family: Family::Note,
    code: "complement_holes",
    title: "",
    obligation: "",
    explanation:
        "complement(A, M) of an injective layout that is not tractable (sorted by stride, some \
     s_i·d_i does not divide d_{i+1}): Tessera returns CuTe C++'s answer R, which is ordered, \
     disjoint from A except at 0, with cosize((A, R)) ≥ M, but (A, R) leaves holes: it is \
     not a bijection onto [0, cosize((A, R))). The note names the first index no pair reaches. \
     complement_exact(A, M) refuses such layouts (not_complementable).",
    example: Example::Expr("complement((5,2):(8,64),97)"),
}];

/// The codes of the schedule engine, the TMA rules, the simplifier, the pictures, the GPU facts
/// and the CLI itself.
pub const OTHER: &[Code] = &[
    Code {
        family: Family::Other,
        code: "parse",
        title: "the schedule or simplifier text is not well formed",
        obligation: "",
        explanation: "The message gives the 1-based line and column and what was expected there. Statements are one per line (`I1, I2 = split I0 by 4`, `loop I1 I2`); see docs/domain.md.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6 7`"),
    },
    Code {
        family: Family::Other,
        code: "unknown_id",
        title: "an IterDomain name is used before it is defined",
        obligation: "",
        explanation: "Every IterDomain must be defined (by `iter` or a transform) on an earlier line.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I1, I2 = split I9 by 4`"),
    },
    Code {
        family: Family::Other,
        code: "redefined",
        title: "an IterDomain name is defined twice",
        obligation: "",
        explanation: "Names are single-assignment: pick a fresh name for every output.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I0 = iter 7`"),
    },
    Code {
        family: Family::Other,
        code: "bad_factor",
        title: "a split factor is not positive",
        obligation: "",
        explanation: "The obligation `factor > 0` of split: use a factor >= 1.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 0`"),
    },
    Code {
        family: Family::Other,
        code: "non_positive_extent",
        title: "an extent is provably < 1",
        obligation: "",
        explanation: "Every IterDomain has at least one point; a resize that removes everything, or a fact giving a symbol a value < 1, breaks it.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1 = resize I0 by -3, -3`"),
    },
    Code {
        family: Family::Other,
        code: "swizzle_same_input",
        title: "a swizzle reads one IterDomain twice",
        obligation: "",
        explanation: "The obligation `x != y` of the XOR swizzle: swizzle two distinct IterDomains.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 4` / `A, B = swizzle xor I0, I0`"),
    },
    Code {
        family: Family::Other,
        code: "self_merge",
        title: "a merge reads one IterDomain twice",
        obligation: "",
        explanation: "The obligation `outer != inner` of merge: `merge I0, I0` has no meaning (the two indices cannot vary independently). Merge two distinct IterDomains.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `M = merge I0, I0`"),
    },
    Code {
        family: Family::Other,
        code: "overdetermined",
        title: "the loop domain determines an index along two routes",
        obligation: "",
        explanation: "A schedule is a DAG from the roots to the loop domain in which every index is computed once. An IterDomain consumed by two transforms that both lie between the loop domain and the roots (split twice, or merged with its own output), or a loop domain naming both an IterDomain and one derived from it, gives a transform whose relation could not hold at every point. An IterDomain may feed several transforms only if the loop domain determines it through one of them (the others are computed forward): add a `loop` statement naming one branch, or remove the second use.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 2` / `M = merge I0, I1`"),
    },
    Code {
        family: Family::Other,
        code: "cycle",
        title: "a transform reads an IterDomain defined by itself or a later transform",
        obligation: "",
        explanation: "Only reachable from Rust (the text format defines names before use): a hand-built Schedule whose transforms are not in topological order. Schedule::validate refuses it.",
        example: Example::Text("Rust: rewire a split's input to its own merge's output, then s.validate()"),
    },
    Code {
        family: Family::Other,
        code: "aliasing_alloc",
        title: "two points of the allocation share an address",
        obligation: "",
        explanation: "The allocation domain with its strides must be injective: no IterDomain allocated twice, no stride 0 on an extent > 1, and no two coordinates with the same offset (decided in closed form for super-increasing or divisibility-chain strides, else enumerated). Use strides that keep the points apart, e.g. contiguous row-major.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 4` / `alloc I1 I2 strides 0 0`"),
    },
    Code {
        family: Family::Other,
        code: "input_too_large",
        title: "an input is over its size limit",
        obligation: "",
        explanation: "Every input (a file, a line of `tessera batch`, an expression argument) is limited to 1 MiB by default; the message names the limit. Set the environment variable TESSERA_MAX_INPUT_BYTES (at most 2^30) to raise it. Streams such as /dev/zero stop at the limit.",
        example: Example::Text("tessera schedule /dev/zero"),
    },
    Code {
        family: Family::Other,
        code: "unbound_symbol",
        title: "a symbol's value is needed but unknown",
        obligation: "",
        explanation: "Code generation and enumeration need concrete extents: add `assume N == <value>`.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter N` with `tessera schedule s.tsch --lowering ours`"),
    },
    Code {
        family: Family::Other,
        code: "contradiction",
        title: "facts (or simplifier assumptions) contradict each other",
        obligation: "",
        explanation: "Two `assume` statements (or `--assume` facts) that no value satisfies, e.g. `N % 8 == 0` and `N == 20`.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `assume N % 8 == 0` / `assume N == 20`"),
    },
    Code {
        family: Family::Other,
        code: "too_many_points",
        title: "enumeration would visit more than 2^24 loop points",
        obligation: "",
        explanation: "Exact answers are enumerated only up to a bound; the report then uses the theorems (closed form) and says enumeration was skipped.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 100000` / `I1 = iter 100000` with `--lowering ours`"),
    },
    Code {
        family: Family::Other,
        code: "too_much_work",
        title: "enumeration would do more than 2^26 units of work",
        obligation: "",
        explanation: "Points times the work per point (propagation steps, bound checks, loop counters) is bounded like the points themselves.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: a deep chain of splits over 2^22 points with `--lowering ours`"),
    },
    Code {
        family: Family::Other,
        code: "undetermined",
        title: "the loop domain does not determine some index",
        obligation: "",
        explanation: "Every IterDomain's index must follow from the loop indices (backward through splits and merges, forward through computed branches): add the missing IterDomain to `loop`.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `I1, I2 = split I0 by 2` / `loop I1`"),
    },
    Code {
        family: Family::Other,
        code: "bad_loop",
        title: "the loop domain is empty or lists an IterDomain twice",
        obligation: "",
        explanation: "List each loop IterDomain once.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 6` / `loop I0 I0`"),
    },
    Code {
        family: Family::Other,
        code: "bad_alloc",
        title: "the allocation description is invalid",
        obligation: "",
        explanation: "The allocation domain needs one non-negative stride per IterDomain and at least one IterDomain.",
        example: Example::Text("Rust: an Allocation with a negative stride"),
    },
    Code {
        family: Family::Other,
        code: "not_comparable",
        title: "two schedules cannot be compared",
        obligation: "",
        explanation: "`--equiv` needs two schedules over the same roots (names and extents).",
        example: Example::Text("tessera schedule a.tsch --equiv b.tsch  # different roots"),
    },
    Code {
        family: Family::Other,
        code: "bad_vectorize",
        title: "a vectorization or box query is invalid",
        obligation: "",
        explanation: "`vectorize I` / `box I` must name an IterDomain of the loop domain.",
        example: Example::Text("tessera schedule s.tsch  # s.tsch: `I0 = iter 8` / `I1, I2 = split I0 by 4` / `vectorize I0`"),
    },
    Code {
        family: Family::Other,
        code: "kind",
        title: "an expression was given where a predicate was needed, or the reverse",
        obligation: "",
        explanation: "`tessera simplify` simplifies an index expression or a predicate; assumptions must be predicates such as `0 <= i < 32`.",
        example: Example::Text("tessera simplify 'i0 + 1' --assume 'i0'"),
    },
    Code {
        family: Family::Other,
        code: "division_by_zero",
        title: "a divisor is 0",
        obligation: "",
        explanation: "`tessera simplify` refuses `/`, `%` and `cdiv` whose divisor is 0 once its operands are simplified: the expression is undefined at every point, and no rewrite may make it defined. The symbolic layout algebra (`tessera eval --symbolic`, docs/symbolic.md) refuses a constant divisor 0 in `/`, `%` or `ceil_div` the same way, and a symbolic divisor that evaluates to 0 when a result is instantiated (e.g. `tessera eval --symbolic '(M/0):1'`).",
        example: Example::Text("tessera simplify 'i / 0'"),
    },
    Code {
        family: Family::Other,
        code: "bad_input",
        title: "a picture request is invalid",
        obligation: "",
        explanation: "The picture's parameters (a TV tile, a TMA box) do not fit the layout or are out of range.",
        example: Example::Text("tessera show --tv '((4,8),(2,2)):((32,1),(16,8))' --tile 0,8"),
    },
    Code {
        family: Family::Other,
        code: "io",
        title: "a file could not be read or written",
        obligation: "",
        explanation: "The message names the path and the operating system's reason (missing file, permission, a directory).",
        example: Example::Text("tessera schedule /no/such/file.tsch"),
    },
    Code {
        family: Family::Other,
        code: "invalid_utf8",
        title: "an input file is not UTF-8 text",
        obligation: "",
        explanation: "Schedules, layout files and TMA request files are UTF-8 text; the message gives the offset of the first invalid byte.",
        example: Example::Text("tessera schedule /dev/urandom  # or any binary file under the size limit"),
    },
    Code {
        family: Family::Other,
        code: "bad_argument",
        title: "a command-line argument is invalid",
        obligation: "",
        explanation: "An unknown choice (picture kind, predicate, language), a malformed list, or a TMA flag out of range (`--align` must be a power of two, `--sm` a compute capability with TMA: 90, 100, 101, 103, 110, 120, 121; `--dtype` is required).",
        example: Example::Text("tessera tma --shape 64,64 --box 64,64  # no --dtype"),
    },
    Code {
        family: Family::Other,
        code: "bad_json",
        title: "a TMA request file is not the expected JSON",
        obligation: "",
        explanation: "`tessera tma --file` reads one JSON object with the flags' names as keys.",
        example: Example::Text("tessera tma --file req.json  # req.json: `[1,2]`"),
    },
    Code {
        family: Family::Other,
        code: "bad_request",
        title: "a `tessera batch` line is not a valid request",
        obligation: "",
        explanation: "Each line is one JSON object; see docs/batch.md for the request kinds (`expr`, `schedule`, `tma`).",
        example: Example::Text("echo '[1]' | tessera batch"),
    },
    Code {
        family: Family::Other,
        code: "json",
        title: "the JSON answer could not be written",
        obligation: "",
        explanation: "Internal: serialising a report failed (never expected).",
        example: Example::Text("none"),
    },
    Code {
        family: Family::Other,
        code: "svg",
        title: "a picture could not be drawn or written",
        obligation: "",
        explanation: "`tessera tma --svg FILE` draws ranks 1 and 2 only, and the file must be writable.",
        example: Example::Text("tessera tma --dtype f32 --shape 6,12 --box 4,4 --svg /no/such/dir/x.svg"),
    },
    Code {
        family: Family::Other,
        code: "tma_rank",
        title: "tensorRank must be 1..=5",
        obligation: "",
        explanation: "The driver encodes at most 5 dimensions.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_interleave_rank",
        title: "interleaved layouts need rank >= 3",
        obligation: "",
        explanation: "With interleave 16B or 32B the driver requires tensorRank >= 3.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_arity",
        title: "an array does not have one entry per dimension",
        obligation: "",
        explanation: "Shape, strides, box and element strides must all have the tensor's rank.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_global_address_alignment",
        title: "the global address is not aligned enough",
        obligation: "",
        explanation: "globalAddress must be 16-byte aligned (32 with interleave 32B); `--align` gives what is known about it.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_global_dim",
        title: "a globalDim is 0 or > 2^32",
        obligation: "",
        explanation: "Every tensor extent must be in 1..=2^32.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_packed_global_dim",
        title: "a packed type needs globalDim[0] a multiple of its packing",
        obligation: "",
        explanation: "The sub-byte packed types need the innermost extent to be a multiple of the packing.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_innermost_stride",
        title: "the innermost dimension is not contiguous",
        obligation: "",
        explanation: "Dimension 0 must have stride 1 element (the driver omits its stride).",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_fractional_stride",
        title: "a stride is not a whole number of bytes",
        obligation: "",
        explanation: "With sub-byte types the byte stride must be integral.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_global_stride_multiple",
        title: "a global stride is not a multiple of 16 bytes",
        obligation: "",
        explanation: "globalStrides must be multiples of 16 (32 with interleave 32B).",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_global_stride_too_large",
        title: "a global stride is >= 2^40 bytes",
        obligation: "",
        explanation: "The driver encodes strides below 2^40.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_global_stride_overlap",
        title: "a global stride does not cover the dimension below it",
        obligation: "",
        explanation: "nvFuser checks that each stride is at least the extent times the stride of the dimension below.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_box_dim",
        title: "a boxDim is 0 or > 256",
        obligation: "",
        explanation: "Every box extent must be in 1..=256.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_inner_box_bytes",
        title: "the inner box row is not a multiple of 16 bytes",
        obligation: "",
        explanation: "boxDim[0] * elementSize must be a multiple of 16.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_box_footprint",
        title: "one box does not fit in shared memory",
        obligation: "",
        explanation: "The box (as the driver counts it) must fit in the 227 KiB of an SM.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_packed_box_dim",
        title: "a packed type needs boxDim[0] = 128",
        obligation: "",
        explanation: "The driver requires the inner box of the packed types to be exactly 128.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_element_stride",
        title: "an element stride is 0 or > 8",
        obligation: "",
        explanation: "elementStrides must be in 1..=8.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_swizzle_span",
        title: "the inner box row is wider than the swizzle span",
        obligation: "",
        explanation: "With swizzle 32B/64B/128B, boxDim[0] * elementSize must be at most the span.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_interleave_swizzle",
        title: "interleave 32B needs swizzle 32B",
        obligation: "",
        explanation: "The driver requires swizzle 32B with interleave 32B.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_packed_interleave",
        title: "a packed type needs interleave NONE",
        obligation: "",
        explanation: "The packed types do not support interleave.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_packed_swizzle",
        title: "a packed type does not support this swizzle",
        obligation: "",
        explanation: "The packed types support only some swizzle modes; the message lists them.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_oob_fill",
        title: "NaN fill needs a floating-point type",
        obligation: "",
        explanation: "oobFill NAN_REQUEST_ZERO_FMA is refused for integer and packed types.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_atom_swizzle_arch",
        title: "this swizzle atom needs sm_100 or newer",
        obligation: "",
        explanation: "The 128B_ATOM_* swizzles are refused before compute capability 10.0.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_inner_element_stride",
        title: "elementStrides[0] is not 1 (nvFuser)",
        obligation: "",
        explanation: "The driver ignores it; nvFuser requires 1.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_nvfuser_swizzle_exact",
        title: "nvFuser needs the inner box row equal to the swizzle span",
        obligation: "",
        explanation: "Smaller rows are not supported by nvFuser's TMA scheduler.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_coordinate_32bit",
        title: "an extent exceeds 2^31 (PTX coordinates are 32-bit)",
        obligation: "",
        explanation: "Boxes past 2^31 - 1 cannot be addressed by cp.async.bulk.tensor.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_transaction_bytes",
        title: "one copy is not a multiple of 16 bytes",
        obligation: "",
        explanation: "The mbarrier transaction count must be a multiple of 16.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_bad_input",
        title: "a TMA request value is malformed",
        obligation: "",
        explanation: "A value of the request could not be interpreted (the message names it).",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_overflow",
        title: "arithmetic overflow in a TMA computation",
        obligation: "",
        explanation: "Sizes are computed with checked arithmetic; use smaller extents or strides.",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_tiling",
        title: "the tiling view could not be computed",
        obligation: "",
        explanation: "The boxes-over-tensor layout could not be formed (the message says why).",
        example: Example::Text("tessera tma ... (see docs/tma.md; `tessera tma --json` lists the failed rules)"),
    },
    Code {
        family: Family::Other,
        code: "tma_smem_mismatch",
        title: "the box TMA writes is not the shared-memory layout the consumer expects",
        obligation: "",
        explanation: "With `--smem LAYOUT`, the box the descriptor writes with its swizzle mode (Swizzle<1,4,3>, <2,4,3> or <3,4,3> over bytes, recast to the element type) must equal LAYOUT as a function on every box element. The message names the first box coordinate where they differ and the two element offsets; the checked suggestions are the swizzle modes that do write LAYOUT, and the GMMA atoms whose tiling is what the descriptor writes.",
        example: Example::Text("tessera tma --dtype f16 --shape 4096,4096 --box 64,64 --swizzle 64B --smem 'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))'"),
    },
    Code {
        family: Family::Other,
        code: "unknown_name",
        title: "a fact names a name the expression does not use",
        obligation: "",
        explanation: "Facts (`--assume`) are about the names of the symbolic expression (or names a definition `X == a*Y + b` reaches from them); a fact about another name is most likely a typo. See docs/symbolic.md.",
        example: Example::Text("tessera eval --assume 'Q % 2 == 0' 'coalesce((M,N):(1,M))'"),
    },
    Code {
        family: Family::Other,
        code: "contradictory_facts",
        title: "the facts have no common solution",
        obligation: "",
        explanation: "The message names the fact that made the fact base inconsistent and the facts it contradicts (residues with no common solution by the Chinese remainder theorem, a range with no value in the residue class, a value breaking a bound).",
        example: Example::Text("tessera eval --assume 'M % 2 == 1' --assume 'M % 4 == 0' 'coalesce((M,N):(1,M))'"),
    },
    Code {
        family: Family::Other,
        code: "nonlinear_fact",
        title: "a fact is non-linear",
        obligation: "",
        explanation: "Facts are linear in one name (`M % 128 == 0`, `K >= 64`) or define one name as `a*Y + b`; a product of names (`M*N % 8 == 0`) cannot be decided with. State facts about each name instead.",
        example: Example::Text("tessera eval --assume 'M*N % 8 == 0' 'coalesce((M,N):(1,M))'"),
    },
    Code {
        family: Family::Other,
        code: "unsupported_fact",
        title: "a linear fact of a shape the engine does not take",
        obligation: "",
        explanation: "Relations between two names other than a definition (`M >= N`), `!=` facts and residue facts on expressions are refused; write a bound, a residue or a definition of one name.",
        example: Example::Text("tessera eval --assume 'M >= N' 'coalesce((M,N):(1,M))'"),
    },
    Code {
        family: Family::Other,
        code: "refuted",
        title: "an obligation is false for every size the facts allow",
        obligation: "",
        explanation: "The symbolic algebra decided that a condition the operation needs (a divisibility, an in-bounds coordinate) fails for every assignment satisfying the facts; the message gives a witness assignment. The integer algebra refuses the instantiated call too.",
        example: Example::Text("tessera eval --symbolic 'zipped_divide((12,(4,8)):(7,(1,30)),128)'"),
    },
    Code {
        family: Family::Other,
        code: "symbolic_unsupported",
        title: "an operation or argument the symbolic algebra does not take",
        obligation: "",
        explanation: "The symbolic language accepts the operations listed in docs/symbolic.md with layouts, tilers, expressions and coordinates; swizzled layouts, ragged forms and non-compact thread layouts are not symbolic yet.",
        example: Example::Text("tessera eval --symbolic 'local_partition((M,K):(K,1),(32,4):(8,1),t)'"),
    },
    Code {
        family: Family::Other,
        code: "unbound_name",
        title: "a name has no value when a symbolic result is instantiated",
        obligation: "",
        explanation: "Instantiation (`.subs(...)`) needs a value for every name of the result.",
        example: Example::Text("Python: tessera.Layout('(M,K):(K,1)').subs(M=4)"),
    },
    Code {
        family: Family::Other,
        code: "mma_atom",
        title: "the MMA instruction does not exist for the arch, element types, accumulator, shape or majorness",
        obligation: "",
        explanation: "GMMA (sm90 wgmma): M = 64, N a multiple of 8 in [8, 256], K spanning 32 bytes (16 for 16-bit types, 8 for tf32, 32 for 8-bit), types f16/bf16 → f16/f32, tf32 → f32, e4m3/e5m2 → f16/f32, s8/u8 → s32; 8-bit and tf32 operands are read K-major from shared memory (the builder routes an MN-major one through registers: the RS mainloop). SM80/SM89 mma.sync: 16x8x16/16x8x8 (f16, bf16), 16x8x8/16x8x4 (tf32), 16x8x32 (s8/u8; e4m3/e5m2 on sm89), 8x8x4 (f64). A TMA kernel needs sm90. Fix: the atom the builder derives (`mma` left out), or the arch.",
        example: Example::Text("tessera check examples/check/wgmma_n_atom.toml  # with mma = \"SM90_64x132x16_F32F16F16_SS\""),
    },
    Code {
        family: Family::Other,
        code: "tile_mma",
        title: "the CTA tile is not a multiple of the TiledMma's tile",
        obligation: "",
        explanation: "Tile M, N, K must be multiples of the TiledMma tile (atom shape × atom layout). CuTe's partitioning rounds up, so a tile that is not a multiple computes outside the tile or drops a K tail (tile-ai/tilelang#2381, #2593); the cooperative kernel also needs tile M a multiple of 128 (two 64-row consumer warpgroups). The witness gives the remainder; suggestions round the tile.",
        example: Example::Text("tessera check examples/check/tile_k_24.toml"),
    },
    Code {
        family: Family::Other,
        code: "tile_smem_atom",
        title: "no shared-memory layout atom divides the operand's stage tile",
        obligation: "",
        explanation: "ss_smem_selector picks the widest GMMA atom (SW128, SW64, SW32, INTER) whose contiguous width divides BLK_K (K-major) or BLK_MN (MN-major); its 8 rows must divide the other extent, and its majorness must match the operand's global layout. A tile that even the 16-byte INTER atom does not divide has no layout.",
        example: Example::Text("tessera check examples/check/tile_k_24.toml  # with tile = [64, 128, 4]"),
    },
    Code {
        family: Family::Other,
        code: "swizzle_match",
        title: "the TMA swizzle, the smem swizzle and the MMA descriptor disagree, or a consumer slice splits a swizzle atom",
        obligation: "",
        explanation: "The TMA descriptor writes with one swizzle; the GMMA descriptor and the smem layout must read with the same one (KnowingNothing/MatmulTutorial#14: swizzle none against 128B, 87.5% of the 16-byte chunks land elsewhere). A consumer warpgroup or warp slice along a swizzled MN-major extent must hold whole swizzle atoms (NVIDIA/Fuser#4771). The witness names the first element written and read at different bytes.",
        example: Example::Text("tessera check examples/check/swizzle_none_vs_gmma_128b.toml"),
    },
    Code {
        family: Family::Other,
        code: "smem_alignment",
        title: "a shared-memory buffer's base is not aligned as its writer and readers need",
        obligation: "",
        explanation: "TMA destinations need 128 bytes. Where one side computes the swizzle from offsets relative to the buffer (a hand-written descriptor or index formula: `swizzle_base = \"offset\"`), the base must also sit on the swizzle's repeat: 1024/512/256 bytes for 128B/64B/32B (tile-ai/tilelang#2379). CUTLASS's buffers, swizzled by address bits on both sides, need only 128. Both facts were measured on an H200 (`tools/tma_base_hw/`): a destination off 128 bytes faults with `cudaErrorMisalignedAddress`, TMA swizzles the address at every 128-byte base, and an offset-swizzling reader off the repeat reads a wrong element at every position.",
        example: Example::Text("tessera check examples/check/swizzle_offset_base.toml"),
    },
    Code {
        family: Family::Other,
        code: "tma_descriptor",
        title: "a TMA descriptor of A, B, C or D breaks a cuTensorMapEncodeTiled rule",
        obligation: "",
        explanation: "Each descriptor the kernel builds (box = the smem atom's width × the tile over the multicast factor; swizzle from the smem layout) is checked by the rules of `tessera tma` (docs/tma.md); the witness gives that rule's code (for example tma_swizzle_span: an inner box wider than the swizzle span, tile-ai/tilelang#2630). Runtime extents take representative values; their stride rules are gmem_alignment's.",
        example: Example::Text("tessera check examples/check/box_over_swizzle_span.toml"),
    },
    Code {
        family: Family::Other,
        code: "gmem_alignment",
        title: "a global leading dimension or the declared alignment is not what the copy needs",
        obligation: "",
        explanation: "TMA needs 16-byte aligned rows: the builder asserts Alignment × bits = 128k for A and B, and every leading dimension must be a multiple of 16 bytes, even where the declared alignment is smaller (NVIDIA/cutlass PR #2283, #1884); cp.async needs the vector alignment. A runtime extent gives a guard such as `K % 8 == 0`; a static one is proved or refuted with the byte stride.",
        example: Example::Text("tessera check examples/check/d_column_major_m1638.toml"),
    },
    Code {
        family: Family::Other,
        code: "smem_capacity",
        title: "the kernel's shared storage exceeds the arch's capacity",
        obligation: "",
        explanation: "The kernel's SharedStorage as CUTLASS lays it out (mainloop stages, pipeline barriers, epilogue buffers, order barriers, scheduler, alignment padding; checked against the compiled CollectiveBuilder) must fit: sm90 232,448 B, sm80 166,912 B, sm86/sm89 101,376 B, or `smem_capacity`. SM90 CUTLASS has no compile-time check for StageCount<N> (NVIDIA/cutlass#617, #3144, triton-lang/triton#8182). The witness is the byte sum; suggestions lower the stages or tile K.",
        example: Example::Text("tessera check examples/check/stages_beyond_smem_sm86.toml"),
    },
    Code {
        family: Family::Other,
        code: "stages",
        title: "the pipeline has fewer than 2 stages",
        obligation: "",
        explanation: "Multistage mainloops need at least 2 stages (\"Specialization requires Stages set to value 2 or more\"); with StageCountAutoCarveout the carveout can leave room for fewer.",
        example: Example::Text("tessera check examples/check/cutlass_cooperative.toml  # with stages = 1"),
    },
    Code {
        family: Family::Other,
        code: "threads",
        title: "the thread count is not what the schedule and the TiledMma need",
        obligation: "",
        explanation: "SM90: one 128-thread producer warpgroup plus the consumers (256 for the basic kernel, 384 for cooperative and pingpong), and the TiledMma's size must be the schedule's MMA threads; SM80: size(TiledMma) = 32 × warps, at most 1024.",
        example: Example::Text("tessera check examples/check/cutlass_cooperative.toml  # with threads = 256"),
    },
    Code {
        family: Family::Other,
        code: "coverage",
        title: "some element is computed or copied zero times or twice",
        obligation: "",
        explanation: "Every C element must be computed by exactly one (thread, value) of the TiledMma (the atom's C layout is a bijection, checked by enumeration in the tests, and the tile is whole TiledMma tiles), and every smem element written once per stage by the copies (TMA boxes with multicast slices; SM80 gmem copy threads × vectors). tile-ai/tilelang#2537: 12 warps over N = 104 leave columns 96..103 unwritten. The witness is a coordinate written 0 times.",
        example: Example::Text("tessera check examples/check/warps_over_n104.toml"),
    },
    Code {
        family: Family::Other,
        code: "epilogue_tile",
        title: "the epilogue tile does not divide the CTA tile",
        obligation: "",
        explanation: "The TMA epilogue splits the CTA tile into epilogue subtiles (EpilogueTileAuto: 128 × gcd(32, N) cooperative, 64 × gcd(32 or 64, N) otherwise); a given tile must divide it (\"EPI_TILE_N must divide CTA_N\", NVIDIA/cutlass#2133) and have M = 64 (128 cooperative) and N a multiple of 16.",
        example: Example::Text("tessera check examples/check/epilogue_tile_n.toml"),
    },
    Code {
        family: Family::Other,
        code: "residue",
        title: "an M, N or K residue is not guarded",
        obligation: "",
        explanation: "SM90 TMA kernels: TMA zero-fills out-of-bounds boxes and clips stores. SM80 cp.async: predicates are per copy vector (only its first element is tested), so each contiguous extent must be a multiple of the vector (NVIDIA/cutlass#3488); the unpredicated mainloop needs every extent a multiple of the tile.",
        example: Example::Text("tessera check examples/check/cp_async_residue.toml"),
    },
    Code {
        family: Family::Other,
        code: "cluster",
        title: "the cluster is too large, needs sm90, or straddles groups",
        obligation: "",
        explanation: "At most 8 CTAs, or 16 on sm90 with cudaFuncAttributeNonPortableClusterSizeAllowed (cupy/cupy#8778); clusters need sm90; power-of-two M and N, K = 1. A cluster that does not divide the tile grid is a warning in a plain GEMM (the grid rounds up, extra CTAs idle) and an error in a grouped GEMM, where one cluster's CTAs would run different K-loop lengths (deepseek-ai/DeepGEMM PR #429).",
        example: Example::Text("tessera check examples/check/cluster_16.toml"),
    },
    Code {
        family: Family::Other,
        code: "multicast",
        title: "a multicast factor does not divide the box",
        obligation: "",
        explanation: "A is multicast along cluster N, B along cluster M; each CTA loads 1/factor of the box, so the factor must divide the box's rows (NVIDIA/cutlass PR #3458: an unsigned index wraps).",
        example: Example::Text("tessera check examples/check/multicast_box.toml"),
    },
    Code {
        family: Family::Other,
        code: "pipeline",
        title: "the barrier transaction bytes or arrival counts disagree with the loads",
        obligation: "",
        explanation: "Each stage's full barrier expects the bytes the TMA loads of that stage deliver to this CTA (A and B tiles, multicast slices from its peers included); the empty barrier expects (cluster M + cluster N − 1) × consumer warpgroups arrivals: the two numbers CuTe DSL's schedule validation recomputes.",
        example: Example::Text("tessera check examples/check/cutlass_cooperative.toml"),
    },
    Code {
        family: Family::Other,
        code: "bank_conflicts",
        title: "a shared-memory access is bank-conflicted (a warning)",
        obligation: "",
        explanation: "The conflict factor of the access on each smem atom, computed by `tessera banks`: a TMA write on SM90 (GMMA reads through descriptors), ldmatrix on SM80. A factor above 1 is slower, not wrong.",
        example: Example::Text("tessera check examples/check/cutlass_cooperative.toml"),
    },
    Code {
        family: Family::Other,
        code: "gmem_coalescing",
        title: "a global-memory copy uses fewer bytes per sector than ideal (a warning)",
        obligation: "",
        explanation: "TMA box rows under 32 bytes, or cp.async vectors under 16 bytes, fetch partial 32-byte sectors: slower, not wrong.",
        example: Example::Text("tessera check examples/check/tile_k_24.toml"),
    },
    Code {
        family: Family::Other,
        code: "bad_config",
        title: "the kernel configuration cannot be read",
        obligation: "",
        explanation: "A field of the `tessera check` configuration (TOML, JSON, `--space`), a fact in `assume`, or a CUTLASS kernel name is not understood; the message names the field and what was expected (docs/check.md).",
        example: Example::Text("tessera check --cutlass cutlass_nonsense"),
    },
    Code {
        family: Family::Other,
        code: "unknown_dtype",
        title: "not the name of an element type",
        obligation: "",
        explanation: "Element types are named by their short name (f16, bf16, f32, tf32, f64, e4m3, e5m2, ue8m0, i8, u8, i16, u16, i32, u32, i64, u64, i4, u4, e2m1, e2m3, e3m2), an alias (half, float, int8, …) or their CUTLASS name (half_t, float_e4m3_t, …): the one table `tessera::target::DTYPES`.",
        example: Example::Text("Rust: tessera::target::Dtype::parse(\"f17\")"),
    },
    Code {
        family: Family::Other,
        code: "arch_syntax",
        title: "the text is not an architecture name",
        obligation: "",
        explanation: "An architecture is written sm_NN, smNN, compute_NN or NN, with an optional `a` (architecture-specific) or `f` (family) suffix, or as a compute capability N.N. The message gives the 1-based column of the first character that does not fit.",
        example: Example::Text("Rust: tessera::target::Arch::parse(\"sm_9x\")"),
    },
    Code {
        family: Family::Other,
        code: "unknown_arch",
        title: "a compute capability Tessera has no facts for",
        obligation: "",
        explanation: "The architectures are the rows of `tessera::target::ARCHS`: sm_80, sm_86, sm_89, sm_90, sm_100, sm_103, sm_110 (sm_101), sm_120, sm_121. Adding one is one row there.",
        example: Example::Text("Rust: tessera::target::Arch::parse(\"sm_75\")"),
    },
    Code {
        family: Family::Other,
        code: "arch_suffix",
        title: "a feature-set suffix the architecture does not have",
        obligation: "",
        explanation: "The `a` suffix (architecture-specific features: wgmma, tcgen05) exists from sm_90, the `f` suffix (family features) from sm_100.",
        example: Example::Text("Rust: tessera::target::Arch::parse(\"sm_86a\")"),
    },
    Code {
        family: Family::Other,
        code: "tmem_lanes",
        title: "a TMem tensor allocates more lanes than tensor memory has",
        obligation: "product of the allocated lane extents ≤ 128",
        explanation: "Tensor memory (sm_100) is 128 lanes × 512 columns of 32-bit cells per SM. The IDs left of |DimSep| that are allocated (not left of |CA| or parallelized across blocks) are lanes; their extents multiply to the lanes needed. Move an ID right of |DimSep|, or split it.",
        example: Example::Text("Rust: TmemDomain::parse(\"TIDx{3}, 143, |DimSep|, 4\")?.allocate()"),
    },
    Code {
        family: Family::Other,
        code: "tmem_columns",
        title: "a TMem tensor allocates more columns than tensor memory has",
        obligation: "product of the allocated column extents ≤ 512",
        explanation: "The allocated IDs right of |DimSep| are columns; their extents multiply to the columns needed, at most 512 per SM. Move an ID left of |DimSep| (at most 128 lanes) or put it left of |CA|.",
        example: Example::Text("Rust: TmemDomain::parse(\"4, |DimSep|, 1024\")?.allocate()"),
    },
    Code {
        family: Family::Other,
        code: "tmem_domain",
        title: "the text is not a TMem allocation domain",
        obligation: "",
        explanation: "A TMem domain is a comma-separated list of extents, P{extent} with P in BIDx..z, TIDx..z, DIDx..z, and at most one |CA| and one |DimSep| marker.",
        example: Example::Text("Rust: TmemDomain::parse(\"4, |CA|, |CA|\")"),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_once() {
        let mut v: Vec<&str> = all().map(|c| c.code).collect();
        let n = v.len();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), n);
    }
}
