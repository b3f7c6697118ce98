(** * Extraction of the bridge functions to OCaml (issue 14, item 7)

    Writes [bridge/extracted.ml] (and [.mli]) when compiled from [proofs/].
    Plain extraction: no directive maps a Coq type or constant to an OCaml
    one, so [Z] stays binary constructors and [list]/[bool] stay Coq's own
    inductive types.  [bridge/main.ml] converts at the edges. *)

From Coq Require Extraction.
From Tessera Require Import Swizzle Bridge Composition BridgeComplement ComplementShape ZTree ZCoord Symbolic
  SwizzleLayout Closure EnumPass NormalizeBackward CompositionBuild Inverse NormalizeNF LeftInverse Check
  SmemSum TmaBox SymbolicFacts BackwardRust SymbolicOps CheckCover Banks BanksLinear SymbolicQuot
  SymbolicOpsRust SymbolicTiler SymbolicCosize.

Extraction Language OCaml.
Extraction "bridge/extracted.ml" rust_coalesceZ complement1Z certified_composition
  complementZ complementSZ swizzle zflatten zteval crd2idx idx2crd
  facts_of known_divisor lower_bound divides at_least ceval swizzled
  closure dropped rust_rules enum_pass_ids
  backward_check split_inners_loop wfb merges_in_range rust_compose right_inverseZ
  normalizeR left_inverseZ left_inverse_overlaps copy_decision check_divides
  mma_decision smem_sum suggestion copy_bits smem_bits to_bytes box_elem
  pitch_bits
  facts_parse decide_static witness ctx_run qdecide qtidy parse_all rebuild rust_sdec_s
  plan rterms rext rpropagate
  srun snegate scomposition scomplement sdivide stile scomplement_nc
  box_decision k_decision
  phase_cost phase_words disagreement swizzle_bytes
  linear_per_phase.
