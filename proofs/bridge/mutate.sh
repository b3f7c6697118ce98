#!/usr/bin/env bash
# Mutation check of the bridge (manual, not run by CI): changes the extracted
# code one test at a time (in a copy of bridge/extracted.ml): five loosenings
# of the composition certificate, two of the complement (the
# tractability test's divisibility, the rest's fix-up when CuTe's fold falls
# short of a shape cotarget), two of the tree model (the index a node
# hands its next child, the flattening), two of nested coordinates, two
# of the symbolic decisions, one of swizzled layouts, two of the
# predicates' forward chaining, one of their rules and two of derive's
# enumeration pass, three of backward_check (wfb, in_range's padding
# and positivity tests), seven of the constructed composition (the walk's
# rest extent, its cap, the rest stride's sign, the tail, a one-piece leaf,
# the ceiling division, the compatibility test), three of right_inverse, four of
# left_inverse (the place a result mode strides by, the divisibility test,
# push_coalesced's merge, the overlap test), two of the kernel checker (the copy
# coverage test's thread count, divides' fact lookup), three of the checker's
# TiledMma coverage, shared-storage byte sum and stage search, three of the
# TMA box arithmetic (copy_bits, the row padding, box_layout's swizzle recast), three of
# Theorem 5 normalisation, seven of the symbolic facts (SymbolicFacts.v: the CRT residue,
# the lower bound's max, a lower bound's rounding, decide_zero's gcd test, the constant
# divisor's constant term, an interval mirror, the witness), four of Ctx (the guard of
# a branch whose other side is preferred, a guard refuting its negation, the facts the
# guards strengthen, a `!=` guard's new lower bound), two of CheckCover.v (the multicast
# box test's remainder, the K test's atom layout), five of Banks.v (phase_cost's broadcast and
# tie, phase_words' last word, the disagreement's span, swizzle_bytes' row bits), five of
# BanksLinear.v (reduce's xor, place's order, the bank modulus, the word division, the rank
# difference) and eight of terms/propagate
# (plan's partly-known test and scan order, terms' forward-step test, size limit and merge
# order, the IR's resize extent, propagate's merge div/mod and resize sign), eight of the
# symbolic operations (SymbolicOps.v: compose_leaf's rest extent, a piece's stride, the
# tail, compose_node's no-carry check, coalesce_leaves_x's closing obligations,
# complement's sort side and rest mode, logical_divide's tiler order), one of
# SymbolicTiler.v (the modes beyond a tuple tiler kept), one of SymbolicCosize.v
# (cosize's (s-1)*|d|), nine of the
# decisions on quotient atoms (SymbolicQuot.v: Mod's and Floor's/Ceil's intervals,
# the ceiling's rounding, a quotient variable's bound, nested constant quotients,
# an exact constant ceil_div, split_multiples, the exact-division test of
# decide_divides, decide_zero's gcd test), four of tidy and the canonical order (an
# exact ceil_div, an exact remainder, Floor before Ceil, monomials' powers), three of
# Rust's oracle (SymbolicOpsRust.v: a guard proving itself, refuting its negation,
# strengthening the facts); then two
# mutants of Rust's backward_check itself
# (its wfb check, in_range's padding signs; the source is edited in place and
# restored), and four of Rust's banks analysis (analyze_linear's phase span over all active lanes,
# its ranks over bytes instead of words; analyze_translates' total not multiplied by the
# instances, its shift test by 4 bytes instead of 16; MUTATE_ONLY=linear_path runs these too).  The texts are the extracted code's: extraction renames a local
# `size` to `size0` once `Pos.size` is extracted (Z.log2 pulls it in), and
# `am`, `ar`, `lo`, `hi` to `am0`, `ar0`, `lo0`, `hi0` since later extractions.  For
# each it rebuilds the executable and runs
# the tests of crates/tessera/tests/bridge.rs that cover that function.  Each
# mutant should make a test fail ("caught by: ..."); the unmutated copy
# ("none") must pass, else the script fails.  Needs bridge/extracted.ml (run
# bridge/build.sh first).  About a minute once the test binary is built,
# plus a rebuild per Rust mutant.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
[ -f "$here/extracted.ml" ] || { echo "mutate.sh: run bridge/build.sh first" >&2; exit 1; }
work="$(mktemp -d)"
equiv="$root/crates/tessera/src/domain/equiv.rs"
banks="$root/crates/tessera/src/banks/analysis.rs"
cp "$equiv" "$work/equiv.rs.orig"
cp "$banks" "$work/analysis.rs.orig"
trap 'cp "$work/equiv.rs.orig" "$equiv"; cp "$work/analysis.rs.orig" "$banks"; rm -rf "$work"' EXIT

# The mutants: (name, text of the extracted code, its replacement, test filters).
python3 - "$here/extracted.ml" "$work" <<'PY'
import os, sys
src, work = sys.argv[1], sys.argv[2]
s = open(src).read()
cert = "certif wrong_candidates"
comp = "composition_candidates"
rinv = "right_inverse"
linv = "left_inverse"
chk = "copy_coverage checker_divides"
chk2 = "tiled_mma checker_coverage smem_byte_sum tma_box"
tp = "terms_and_propagate"
cc = "check_cover"
bk = "bridge_banks"
bl = "linear_path f2_rank"
qa = "quotient_decisions"
ti = "tidy_agrees"
ro = "rust_oracle"
mutants = [
    ("none", "", "", cert + " complement nested symbolic swizzled forward_chaining enumeration_pass"
     " backward_check " + comp + " right_inverse left_inverse normalization " + chk + " " + chk2 + " " + tp + " " + cc + " " + bk
     + " symbolic_ops " + qa + " " + ti + " " + bl + " " + ro),
    ("zero-stride rule (beta = 0 needs rho = 0)",
     "           | True -> cert_go ax ps' load\n           | False -> False)",
     "           | True -> cert_go ax ps' load\n           | False -> cert_go ax ps' load)", cert),
    ("place divisibility", "negb (Z.eqb (Z.modulo p.pbeta place) Z0)", "False", cert),
    ("digit load", "Z.ltb (Z.sub (nth k ax mode0).zextent (Zpos XH)) l", "False", cert),
    ("stride equation",
     "negb\n                               (Z.eqb (Z.mul u (nth k ax mode0).zstride)\n"
     "                                 p.prho)", "False", cert),
    ("negative beta refused",
     "(match Z.ltb p.pbeta Z0 with\n           | True -> False",
     "(match Z.ltb p.pbeta Z0 with\n           | True -> cert_go ax ps' load", cert),
    ("complement: tractability divisibility",
     "| True -> Z.eqb (Z.modulo m.zstride p) Z0", "| True -> True", "complement"),
    ("complement: rest fix-up for a short fold",
     "   | True -> ceil_divZ (shape_size cot) r\n", "   | True -> rest\n", "complement"),
    ("tree: a node does not divide the index for its next child",
     "(go cs' (Z.div i0 (ztsize c)))", "(go cs' i0)", "nested"),
    ("tree: flatten keeps only a node's first child",
     "| Cons (c, cs') -> app (zflatten c) (go cs')", "| Cons (c, cs') -> zflatten c", "nested"),
    ("coordinates: a tuple's value keeps only its first child",
     "| Some b -> Some (Z.add a b)", "| Some _ -> Some a", "nested_coordinates"),
    ("coordinates: idx2crd does not reduce a child's index",
     "Cons ((idx2crd t0 (Z.modulo i0 (ztsize t0))),", "Cons ((idx2crd t0 i0),", "nested_coordinates"),
    ("symbolic: a ceilDiv keeps its operand's known divisor",
     "   | True -> Z.div g c\n", "   | True -> g\n", "symbolic"),
    ("symbolic: a product's lower bound ignores the signs",
     "               | True -> Z.leb Z0 y\n               | False -> False with",
     "               | True -> True\n               | False -> True with", "symbolic"),
    ("swizzled layout: the offset added after the swizzle",
     "swizzle b m s (Z.add o (zteval t i))", "Z.add o (swizzle b m s (zteval t i))", "swizzled"),
    ("closure: a rule fires one premise early",
     "(match Nat.eqb (sub (s.missing k) (S O)) O with",
     "(match Nat.leb (sub (s.missing k) (S O)) (S O) with", "forward_chaining"),
    ("closure: a later rule overwrites the justification",
     "  | Some _ -> s\n  | None -> set_proved s (concl rules k) (Some k)",
     "  | Some _ -> { s with proved = upd0 s.proved (concl rules k) (Some (Some k)) }\n"
     "  | None -> set_proved s (concl rules k) (Some k)", "forward_chaining"),
    ("rules: a slice also gets Theorem 3",
     "    (match match Z.leb Z0 l with\n           | True -> Z.leb Z0 r\n",
     "    (match match Z.leb Z0 (Z.add l r) with\n           | True -> True\n", "forward_chaining"),
    ("enumeration: a drop is checked at the valid points only",
     "forallb (fun p -> eqb (passes inb s p) (valid p)) pts",
     "forallb (fun p -> match valid p with True -> passes inb s p | False -> True) pts",
     "enumeration_pass"),
    ("enumeration: a drop is checked with the candidate still in",
     "(match equivalentb pts inb valid rest with", "(match equivalentb pts inb valid s with",
     "enumeration_pass"),
    ("composition: the rest extent not divided by the piece",
     "walk init' (Z.div rs r) nd", "walk init' rs nd", comp),
    ("composition: a piece's extent not capped by the rest",
     "let r = Z.min ns rs in", "let r = ns in", comp),
    ("composition: the rest stride loses its sign",
     "let nd = Z.mul (cdivR ar0 am0.zextent) (Z.sgn rd) in", "let nd = cdivR ar0 am0.zextent in", comp),
    ("composition: the tail dropped when the rest is not 1",
     "| False -> app ps (Cons ((Pair (rs, tail)), Nil)))))", "| False -> ps)))", comp),
    ("composition: a single piece kept as a tuple",
     "   | Nil -> pleaf p\n", "   | Nil -> ZNode (map pleaf ps)\n", comp),
    ("composition: floor division in the walk",
     "     | False -> Zpos XH)\n\n(** val walk", "     | False -> Z0)\n\n(** val walk", comp),
    ("composition: compatibility not checked",
     "(match match compatible ax b with", "(match match True with", comp),
    ("right_inverse: the chain's next stride is the extent",
     "(rinv_go f c (Z.mul m.zextent m.zstride))", "(rinv_go f c m.zextent)", rinv),
    ("right_inverse: the result stride is the mode's own stride",
     "Cons ({ zextent = m.zextent; zstride = pp },", "Cons ({ zextent = m.zextent; zstride = m.zstride },", rinv),
    ("right_inverse: the prefix product skips the mode's extent",
     "| False -> pp_find c' curr (Z.mul pp m.zextent))", "| False -> pp_find c' curr pp)", rinv),
    ("left_inverse: a result mode strides by the quotient, not the column-major place",
     "(match linv_loop c o (place_of i c) (Z.mul size0 (Z.div d size0)) with",
     "(match linv_loop c o (Z.div d size0) (Z.mul size0 (Z.div d size0)) with", linv),
    ("left_inverse: the divisibility test dropped",
     "(match Z.eqb (Z.modulo d size0) Z0 with\n        | True ->\n          (match linv_loop",
     "(match True with\n        | True ->\n          (match linv_loop", linv),
    ("left_inverse: push_coalesced never merges",
     "(match Z.eqb (Z.mul p.zextent p.zstride) m.zstride with",
     "(match False with", linv),
    ("left_inverse: the overlap test compares with the previous stride, not its end",
     "| False -> overlap_go c o (Z.mul m.zextent m.zstride)",
     "| False -> overlap_go c o m.zstride", linv),
    ("check: the copy coverage test ignores threads left over from the rows",
     "  match match Z.eqb (Z.modulo t tc) Z0 with\n        | True -> Z.eqb (Z.modulo contig",
     "  match match True with\n        | True -> Z.eqb (Z.modulo contig", chk),
    ("check: divides takes a divisibility fact about another name",
     "     (match match Nat.eqb m n0 with\n            | True -> Z.eqb (Z.modulo q d) Z0",
     "     (match match True with\n            | True -> Z.eqb (Z.modulo q d) Z0", chk),
    ("check: the TiledMma test ignores the warps along M",
     "match Z.eqb (Z.modulo tm (Z.mul m am0)) Z0 with", "match Z.eqb (Z.modulo tm m) Z0 with", chk2),
    ("check: the smem sum does not pad the union to the storage's alignment",
     "let tens = rup (Z.max mt et) ta in", "let tens = Z.max mt et in", chk2),
    ("check: the stage search rounds its midpoint down",
     "Z.add lo0 (Z.div (Z.add (Z.sub hi0 lo0) (Zpos XH)) (Zpos (XO XH)))",
     "Z.add lo0 (Z.div (Z.sub hi0 lo0) (Zpos (XO XH)))", chk2),
    ("tma: the copy divides dimension 0 by its element stride without interleave",
     "              | False -> b), (counts_from bs' es')))",
     "              | False -> cdiv1 b e), (counts_from bs' es')))", "tma_box"),
    ("tma: a row narrower than the span is not padded",
     "  | True -> Z.max row (Z.mul (Zpos (XO (XO (XO XH)))) span)", "  | True -> row", "tma_box"),
    ("tma: the element swizzle is the byte swizzle, not recast",
     "let m' = Z.sub (Z.add m (Zpos (XI XH))) (Z.log2 bits) in", "let m' = m in", "tma_box"),
    ("normalization: the rewritten outer output not normalised again",
     "| True -> normalize e fuel' (TMerge (a, split_b))", "| True -> TMerge (a, split_b)", "normalization"),
    ("normalization: rewritten without the divisibility test",
     "(match divides0 f (extent0 e b) with", "(match True with", "normalization"),
    ("normalization: the inner output keeps the merge",
     "| False -> normalize e fuel' split_b)", "| False -> TSplit (x', f, outer_kind, is_outer))",
     "normalization"),
    ("plan: a step also runs when its side to compute is partly known",
     "(match existsb kn (targets tr back) with", "(match False with", tp),
    ("plan: the backward scan runs in definition order",
     "      | True -> rev (seq O (ntr s))\n", "      | True -> seq O (ntr s)\n", tp),
    ("terms: built although a step runs forward",
     "existsb (fun st -> negb (snd st)) steps", "existsb (fun _ -> False) steps", tp),
    ("terms: the size limit doubled",
     "Z.ltb max_term_nodes (rsizes s i)", "Z.ltb (Z.add max_term_nodes max_term_nodes) (rsizes s i)", tp),
    ("terms: a merge's term swaps its inputs",
     "| Some b -> upd1 tb out (Some (TMerge (a, b)))", "| Some b -> upd1 tb out (Some (TMerge (b, a)))", tp),
    ("extents: a resize adds only its left amount",
     "upd1 ext out (Z.add (ext i) (Z.add l r))", "upd1 ext out (Z.add (ext i) l)", tp),
    ("propagate: a merge's backward div and mod swapped",
     "upd1 (upd1 idx o (Z.div (idx out) (ext n0))) n0\n         (Z.modulo (idx out) (ext n0))",
     "upd1 (upd1 idx o (Z.modulo (idx out) (ext n0))) n0\n         (Z.div (idx out) (ext n0))", tp),
    ("propagate: a resize's backward step adds its left amount",
     "| True -> upd1 idx i (Z.sub (idx out) l)", "| True -> upd1 idx i (Z.add (idx out) l)", tp),
    ("backward check: the second domain's wfb not checked",
     "        | True -> wfb l2\n        | False -> False with",
     "        | True -> True\n        | False -> False with", "backward_check"),
    ("backward check: in_range ignores a resize's padding signs",
     "          (match match Z.leb Z0 l with\n                 | True -> Z.leb Z0 r\n",
     "          (match match True with\n                 | True -> True\n", "backward_check"),
    ("backward check: in_range without the positive extent test",
     "match Z.ltb Z0 (extent0 e b) with", "match True with", "backward_check"),
    ("symbolic facts: CRT keeps the old residue",
     "Ok { am = l; ar = (Z.modulo x l); alo = e.alo; ahi = e.ahi }",
     "Ok { am = l; ar = e.ar; alo = e.alo; ahi = e.ahi }", "symbolic_facts"),
    ("symbolic facts: a lower bound replaces the previous one",
     "Ok { am = e.am; ar = e.ar; alo = (Some (omax e.alo c)); ahi = e.ahi }",
     "Ok { am = e.am; ar = e.ar; alo = (Some c); ahi = e.ahi }", "symbolic_facts"),
    ("symbolic facts: a > 0 lower bound rounds down",
     "      | False -> KLo (ceil_div_i nb a))", "      | False -> KLo (Z.div nb a))", "symbolic_facts"),
    ("symbolic facts: decide_zero without the gcd refutation",
     "    let g = coef_gcd d in\n    (match match negb (Z.eqb g Z0) with\n           | True -> negb (Z.eqb (Z.modulo b g) Z0)\n",
     "    let g = coef_gcd d in\n    (match match negb (Z.eqb g Z0) with\n           | True -> False\n", "symbolic_facts"),
    ("symbolic facts: constant divisor proved without the constant term",
     "                  | True -> Z.eqb (Z.modulo b c) Z0\n                  | False -> False with\n            | True -> Some True",
     "                  | True -> True\n                  | False -> False with\n            | True -> Some True", "symbolic_facts"),
    ("symbolic facts: interval product without its first mirror",
     "                 | True -> ineg (imul_pos (ineg i) j)\n                 | False ->\n                   (match match isneg j.hi with",
     "                 | True -> top\n                 | False ->\n                   (match match isneg j.hi with", "symbolic_facts"),
    ("symbolic facts: the witness one step above x0",
     "  | Some i -> i.ix0\n  | None -> Zpos XH", "  | Some i -> Z.add i.ix0 i.im\n  | None -> Zpos XH", "symbolic_facts"),
    ("ctx: an undecided branch records p even when the other side is preferred",
     "                       | True -> p\n                       | False -> negp p), Nil))) (k prefer))",
     "                       | True -> p\n                       | False -> p), Nil))) (k prefer))", "ctx_guards"),
    ("ctx: a recorded guard does not refute its negation",
     "    (match existsb (pred_eqb (negate p)) gs with\n     | True -> Some False",
     "    (match existsb (pred_eqb (negate p)) gs with\n     | True -> None", "ctx_guards"),
    ("ctx: the guards do not strengthen the facts",
     "     | False -> decide_static (snd (strengthen_all raws f gs)) p)",
     "     | False -> decide_static f p)", "ctx_guards"),
    ("ctx: a != guard at the lower bound raises it to the value itself",
     "Some (Pair (n0, (KLo (Z.add v (Zpos XH)))))", "Some (Pair (n0, (KLo v)))", "ctx_guards"),
    ("symbolic ops: compose_leaf keeps the rest extent past a digit",
     "(cwalk h init' (S i) (SFloor (rs, nw)) nrd out' pcs')",
     "(cwalk h init' (S i) rs nrd out' pcs')", "symbolic_ops"),
    ("symbolic ops: a piece's stride without the digit's stride",
     "| False -> app out (Cons ((Pair (nw, (SMul (rd, cd)))), Nil))",
     "| False -> app out (Cons ((Pair (nw, rd)), Nil))", "symbolic_ops"),
    ("symbolic ops: compose_leaf drops the tail when rs = 1 is refuted",
     "| False -> GRet (Pair ((app out (Cons (tail, Nil))), pcs))",
     "| False -> GRet (Pair (out, pcs))", "symbolic_ops"),
    ("symbolic ops: compose_node without the no-carry check",
     "(match Nat.ltb (length here) (S (S O)) with", "(match True with", "symbolic_ops"),
    ("symbolic ops: coalesce_leaves_x's closing s != 1 obligations dropped",
     "     | True -> gbind (coal_req out) (fun _ -> GRet res)",
     "     | True -> GRet res", "symbolic_ops"),
    ("symbolic ops: complement's sort takes the true side when undecided",
     "  GBranch (q, (h.htyp q), (fun b ->", "  GBranch (q, True, (fun b ->", "symbolic_ops"),
    ("symbolic ops: complement's rest mode rounds down",
     "| Nil -> GRet (Cons ((Pair ((SCeil (m, cur)), cur)), Nil))",
     "| Nil -> GRet (Cons ((Pair ((SFloor (m, cur)), cur)), Nil))", "symbolic_ops"),
    ("symbolic ops: logical_divide composes with (complement, B)",
     "(STuple (Cons (b, (Cons (comp, Nil)))))", "(STuple (Cons (comp, (Cons (b, Nil)))))",
     "symbolic_ops"),
    ("symbolic tiler: the modes beyond a tuple tiler are dropped",
     "             | Nil -> GRet (Some (Cons (m, ms')))",
     "             | Nil -> GRet (Some Nil)", "symbolic_tiler"),
    ("symbolic cosize: a leaf adds s*|d| instead of (s-1)*|d|",
     "    scosize_go r (SAdd (acc1, (SMul ((SSub (s, (SC (Zpos XH)))), ad))))))",
     "    scosize_go r (SAdd (acc1, (SMul (s, ad))))))", "complement_without_cotarget"),
    ("quotient atoms: a remainder's interval reaches the divisor",
     "                   | True -> Some (Z.min (Z.sub yh (Zpos XH)) xh)",
     "                   | True -> Some (Z.min yh xh)", qa),
    ("quotient atoms: a quotient's lower bound divides by the divisor's lower end",
     "                        | Some yh -> q xl yh\n", "                        | Some _ -> q xl yl\n", qa),
    ("quotient atoms: the ceiling's interval rounds down",
     "            | True -> Z.div (Z.sub (Z.add n0 d) (Zpos XH)) d\n", "            | True -> Z.div n0 d\n", qa),
    ("quotient atoms: nested constant quotients flatten to the outer divisor",
     "qadd w (fdiv_pos f p' (Z.mul av c))", "qadd w (fdiv_pos f p' c)", qa),
    ("quotient atoms: an exact constant ceil_div rounds down",
     "     | Some b -> qadd w (qconst (Z.opp (Z.div (Z.opp b) c)))", "     | Some b -> qadd w (qconst (Z.div b c))", qa),
    ("quotient atoms: a quotient variable inside an atom is unbounded",
     "| AN n0 -> var_iv f n0\n", "| AN _ -> top\n", qa),
    ("quotient atoms: split_multiples keeps the whole coefficient in the rest",
     "     | False -> QT (m, (Z.modulo k c), s)))", "     | False -> QT (m, k, s)))", qa),
    ("quotient atoms: an exact division leaving a quotient counts as exact",
     "     | True -> negb (has_quotient k)\n", "     | True -> True\n", qa),
    ("quotient atoms: decide_zero without the gcd refutation",
     "    let g = qcoef_gcd d in\n    (match match negb (Z.eqb g Z0) with\n           | True -> negb (Z.eqb (Z.modulo b g) Z0)\n",
     "    let g = qcoef_gcd d in\n    (match match negb (Z.eqb g Z0) with\n           | True -> False\n", qa),
    ("tidy: an exact ceil_div stays a ceiling",
     "            | True -> qfloor_div x' y'\n            | False -> qceil_div x' y')",
     "            | True -> qceil_div x' y'\n            | False -> qceil_div x' y')", ti),
    ("tidy: an exact remainder is kept",
     "            | True -> Some QZ\n            | False -> qrem x' y')",
     "            | True -> qrem x' y'\n            | False -> qrem x' y')", ti),
    ("canonical order: a quotient of Floor after one of Ceil",
     "     | AF (x', y') -> lex (cmp_qp x x') (cmp_qp y y')\n     | _ -> Lt)",
     "     | AF (x', y') -> lex (cmp_qp x x') (cmp_qp y y')\n     | _ -> Gt)", ti),
    ("canonical order: monomials compared without their powers",
     "lex (cmp_qa a a') (lex (Nat.compare k k') (cmp_qm r r'))", "lex (cmp_qa a a') (cmp_qm r r')", ti),
    ("rust oracle: a recorded guard does not prove itself",
     "    (match existsb (matches q) gs with\n     | True -> Some True",
     "    (match False with\n     | True -> Some True", ro),
    ("rust oracle: a recorded guard does not refute its negation",
     "          (match existsb (matches nq) gs with\n           | True -> Some False",
     "          (match False with\n           | True -> Some False", ro),
    ("rust oracle: the guards do not strengthen the facts",
     "  rust_sdec (snd (strengthen_all raws f (gpreds gs))) gs p", "  rust_sdec f gs p", ro),
    ("check: the multicast box test ignores the rows left over from the slices",
     "        | True -> Z.eqb (Z.modulo ext f) Z0", "        | True -> True", cc),
    ("check: the K test ignores the atom layout's K",
     "Z.eqb (Z.modulo tk (Z.mul k ak)) Z0", "Z.eqb (Z.modulo tk k) Z0", cc),
    ("f2_rank: reduce does not xor the row in", "       | True -> Z.coq_lxor v r\n       | False -> v)",
     "       | True -> v\n       | False -> v)", bl),
    ("f2_rank: rows kept in increasing order of leading bit", "(match Z.ltb (Z.log2 x) (Z.log2 r) with",
     "(match Z.ltb (Z.log2 r) (Z.log2 x) with", bl),
    ("linear_per_phase: 16 banks", "map (fun w -> Z.modulo w (Zpos (XO (XO (XO (XO (XO XH))))))) words",
     "map (fun w -> Z.modulo w (Zpos (XO (XO (XO (XO XH)))))) words", bl),
    ("linear_per_phase: ranks of bytes, not words", "map (fun b -> Z.div b (Zpos (XO (XO XH))))\n      (app (pow2_list eb)",
     "map (fun b -> b)\n      (app (pow2_list eb)", bl),
    ("linear_per_phase: 2^rank(words), the image, not the fibre",
     "Z.pow (Zpos (XO XH)) (Z.sub (f2_rank words) (f2_rank banks))", "Z.pow (Zpos (XO XH)) (f2_rank words)", bl),
    ("banks: threads touching the same word do not share it",
     "        | True -> d\n        | False -> Z.add d (Zpos XH)) ws'",
     "        | True -> Z.add d (Zpos XH)\n        | False -> Z.add d (Zpos XH)) ws'", bk),
    ("banks: a tie moves the reported bank to the later one",
     "match Z.ltb (fst best) d with", "match Z.leb (fst best) d with", bk),
    ("banks: a thread touches only the word of its first byte",
     "      (Z.div (Z.sub (Z.add x w) (Zpos XH)) (Zpos (XO (XO XH))))) bytes",
     "      (Z.div x (Zpos (XO (XO XH))))) bytes", bk),
    ("swizzle_match: the repeat's rows take the TMA swizzle's span",
     "let span = Z.max (Z.max tma mma) (Zpos (XO (XO (XO (XO XH))))) in",
     "let span = Z.max tma (Zpos (XO (XO (XO (XO XH))))) in", bk),
    ("swizzle_match: the swizzle reads its row bits from bit 6",
     "(Z.coq_land (Z.shiftr addr (Zpos (XI (XI XH))))", "(Z.coq_land (Z.shiftr addr (Zpos (XO (XI XH))))", bk),
]
for i, (name, old, new, filters) in enumerate(mutants):
    d = os.path.join(work, str(i))
    os.mkdir(d)
    if old and s.count(old) != 1:
        sys.exit(f"mutate.sh: `{name}`: the text to mutate occurs {s.count(old)} times")
    open(os.path.join(d, "extracted.ml"), "w").write(s.replace(old, new) if old else s)
    open(os.path.join(d, "name"), "w").write(name)
    open(os.path.join(d, "filters"), "w").write(filters)
PY

(cd "$root" && cargo test -p tessera --test bridge --no-run -q 2>/dev/null)
status=0
for d in $(ls "$work" | grep -E '^[0-9]+$' | sort -n); do
  dir="$work/$d"
  name="$(cat "$dir/name")"
  # MUTATE_ONLY=FILTER runs only the unmutated copy and the mutants of that test (no Rust mutants).
  if [ -n "${MUTATE_ONLY:-}" ] && [ "$d" != 0 ] && ! grep -qw "$MUTATE_ONLY" "$dir/filters"; then continue; fi
  cp "$here/extracted.mli" "$here/main.ml" "$dir/"
  (cd "$dir" && ocamlopt -o tessera_extracted extracted.mli extracted.ml main.ml 2>/dev/null)
  if (cd "$root" && TESSERA_EXTRACTED="$dir/tessera_extracted" \
        cargo test -p tessera --test bridge -- --ignored --test-threads=1 $(cat "$dir/filters") \
        >"$dir/out" 2>&1); then
    result=passed
  else
    result="caught by: $(grep -oE '^test [a-z0-9_:]+ \.\.\. FAILED' "$dir/out" | awk '{print $2}' | tr '\n' ' ' || true)"
  fi
  echo "mutate.sh: ${name}: ${result}"
  if [ "$d" = 0 ] && [ "$result" != passed ]; then status=1; fi
done

# Mutants of Rust's own backward_check (crates/tessera/src/domain/equiv.rs), run against the
# unmutated extracted code: each edits the source in place (restored on exit) and rebuilds the
# test binary (about a minute each).
for m in $([ -z "${MUTATE_ONLY:-}" ] && echo wfb padding); do
  python3 - "$equiv" "$m" <<'PY'
import sys
path, which = sys.argv[1], sys.argv[2]
s = open(path).read()
old, new = {
    "wfb": ("if !split_inners_loop || !wfb(l2) {", "if !split_inners_loop {"),
    "padding": ("Term::Resize(x, l, r) => *l >= 0 && *r >= 0 && in_range(",
                "Term::Resize(x, _, _) => in_range("),
}[which]
if s.count(old) != 1:
    sys.exit(f"mutate.sh: Rust mutant `{which}`: the text occurs {s.count(old)} times")
open(path, "w").write(s.replace(old, new))
PY
  if (cd "$root" && TESSERA_EXTRACTED="$work/0/tessera_extracted" \
        cargo test -p tessera --test bridge -- --ignored --test-threads=1 backward_check \
        >"$work/rust_$m.out" 2>&1); then
    result=passed
  else
    result="caught by: $(grep -oE '^test [a-z0-9_:]+ \.\.\. FAILED' "$work/rust_$m.out" | awk '{print $2}' | tr '\n' ' ' || true)"
  fi
  echo "mutate.sh: Rust backward_check: ${m} dropped: ${result}"
  cp "$work/equiv.rs.orig" "$equiv"
done

# Mutants of Rust's analyze_linear (crates/tessera/src/banks/analysis.rs), the same way.
for m in $({ [ -z "${MUTATE_ONLY:-}" ] || [ "$MUTATE_ONLY" = linear_path ]; } && echo lanes bytes instances shift); do
  python3 - "$banks" "$m" <<'PY'
import sys
path, which = sys.argv[1], sys.argv[2]
s = open(path).read()
old, new = {
    "lanes": ("span.extend_from_slice(&thread_byte[..pt.trailing_zeros() as usize]);",
              "span.extend_from_slice(&thread_byte[..active]);"),
    "bytes": ("let words: Vec<u64> = span.iter().map(|b| b / WORD_BYTES).collect();",
              "let words: Vec<u64> = span.clone();"),
    "instances": ("    r.wavefronts *= g.instances;\n", "\n"),
    "shift": ("            if shift.rem_euclid(16) != 0 {", "            if shift.rem_euclid(4) != 0 {"),
}[which]
if s.count(old) != 1:
    sys.exit(f"mutate.sh: Rust mutant `{which}`: the text occurs {s.count(old)} times")
open(path, "w").write(s.replace(old, new))
PY
  if (cd "$root" && TESSERA_EXTRACTED="$work/0/tessera_extracted" \
        cargo test -p tessera --test bridge -- --ignored --test-threads=1 linear_path translates \
        >"$work/rust_$m.out" 2>&1); then
    result=passed
  else
    result="caught by: $(grep -oE '^test [a-z0-9_:]+ \.\.\. FAILED' "$work/rust_$m.out" | awk '{print $2}' | tr '\n' ' ' || true)"
  fi
  echo "mutate.sh: Rust analyze_linear/analyze_translates: ${m}: ${result}"
  cp "$work/analysis.rs.orig" "$banks"
done
exit $status
