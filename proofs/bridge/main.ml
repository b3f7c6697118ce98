(* Driver for the extracted Coq functions (issue 14, item 7).

   Reads one request per line on stdin and writes one answer per line:
     c e1 s1 e2 s2 ...   ->  rust_coalesceZ [(e1,s1); (e2,s2); ...]
     k n d m             ->  complement1Z n d m
     x nA e1 s1 ... nL d1 k1 r1 rho1 ... rk rhok d2 k2 ...
                         ->  certified_composition A leaves ("1" or "0"):
                             A's nA modes, then nL leaves of B, each its
                             stride and the candidate's k modes for it
     g M e1 s1 e2 s2 ... ->  complementZ [(e1,s1); ...] M: the modes, or "E"
                             when it refuses (None)
     h k M1 .. Mk e1 s1 ...
                         ->  complementSZ [(e1,s1); ...] [M1; ...; Mk]: the
                             complement with a shape cotarget, or "E"
     s B M S x           ->  swizzle B M S x (CuTe's Swizzle<B,M,S> at x)
     t i TREE            ->  zteval TREE i (a nested layout at index i)
     T TREE              ->  rust_coalesceZ (zflatten TREE)
                             where TREE is "L e s" (a leaf) or "N k TREE1 .. TREEk"
     r TREE CRD          ->  crd2idx CRD TREE, or "E" (a rank mismatch), where CRD
                             is "I x" (an integer) or "U k CRD1 .. CRDk" (a tuple)
     q i TREE            ->  idx2crd TREE i, written as CuTe writes it: "(1,(0,2))"
     w B M S O i TREE    ->  swizzled B M S O TREE i = Sw<B,M,S>(O + TREE(i))
     z fuel R RULE1 .. RULER C c1 .. cC O o1 .. oO
                         ->  dropped rules (closure rules [c1..] fuel) [o1..], written
                             "x:p1,p2 y:" (each dropped id and its rule's premises),
                             where RULE is "k p1 .. pk c" (premises, conclusion)
     v L l1 .. lL T STEP1 .. STEPT
                         ->  rust_rules [l1..] [STEP1..] written "p1,p2>c ..." where
                             STEP is "0 input outer inner back divisible",
                             "1 outer inner output back", "2 input output l r"
                             or "3 x y out_x out_y closed" (flags 0 or 1)
     y k FACT1 .. FACTk EXPR f c
                         ->  for the facts [facts_of [FACT1; ...]] and the extent
                             EXPR: "kd lb ev div atl" = known_divisor, lower_bound
                             ("-" for none), ceval ("-" for none), divides f
                             and at_least c ("Y", "N" or "U"), where FACT is
                             "D s m", "A s c" or "E s c" (symbol number s) and
                             EXPR is "c x", "s n", "a EXPR x", "p EXPR EXPR",
                             "m EXPR EXPR" or "d EXPR x"
     n N P PT1 .. PTP K i1 .. iK C c1 .. cC O o1 .. oO
                         ->  enum_pass_ids [0..P-1] inb [i1..] [o1..] [c1..]
                             (derive's enumeration pass), written "x y ..."
                             (the conditions kept), where PT is "k v1 .. vk":
                             the ids (below N) out of bound at that point
     b R E0 .. E(R-1) K1 TERM1 .. TERMK1 K2 TERM1 .. TERMK2
                         ->  "b s w m": backward_check E L1 L2 and its three parts
                             split_inners_loop L1, wfb L2 and merges_in_range E L1 L2
                             (each "1" or "0"), with concrete root
                             extents E r = Er (0 past R), L1 the first K1 terms and
                             L2 the next K2, where TERM is "R r" (root r), "S f k o TERM"
                             (split by f; k: outer-split kind, o: outer output; 0 or 1),
                             "M TERM TERM", "Z l r TERM" (resize) or "W y TERM TERM"
                             (swizzle; y: the Y output)
     N R E0 .. E(R-1) TERM
                         ->  normalizeR E TERM (NormalizeNF.v: Theorem 5 rewriting with
                             enough fuel), written as a TERM, with concrete root extents
     i e1 s1 e2 s2 ...   ->  right_inverseZ [(e1,s1); (e2,s2); ...]
     l e1 s1 e2 s2 ...   ->  left_inverseZ [(e1,s1); ...]: its modes, "E" when it
                             refuses (None), prefixed "O " when left_inverse_overlaps
                             (Rust then checks the result by enumeration)
     Q sm90 kernel rs sa sb stages ra rb e t sc al sbytes cap n
                         ->  "sum s": smem_sum and suggestion of SmemSum.v (the
                             checker's shared-storage byte sum and its stage
                             count suggestion for n stages and capacity cap);
                             flags 0/1, e = 1 for an epilogue (t, sc, al)
     B il span bits n b0 .. b(n-1) e0 .. e(n-1)
                         ->  "copy smem": to_bytes (copy_bits ..) and to_bytes
                             (smem_bits ..) of TmaBox.v, box and element strides in
                             driver order (dimension 0 innermost), il = 1 when
                             interleaved, span in bytes (0: no swizzle)
     J span row          ->  "1" when pitch_bits span row = 8 span (TmaBox.v: rows
                             padded to exactly the span), else "0"
     L bits mode i d1 .. dk
                         ->  box_elem bits mode [d1; ..] i (TmaBox.v): the element
                             offset smem::box_layout gives index i of the box
                             (dims outermost first, mode the driver's swizzle enum)
     M tm tn m n am an   ->  mma_decision tm tn m n am an ("1" or "0"), the TiledMma
                             part of the checker's coverage obligation (Check.v)
     K T tc vec contig other
                         ->  copy_decision T tc vec contig other ("1" or "0"), the
                             checker's gmem copy coverage test (Check.v)
     F d E k FACT1 .. FACTk
                         ->  check_divides E d [FACT1; ..]: "Y", "N v" or "G n" (the
                             guard on runtime name n), where E is "s v" (static)
                             or "r n" (runtime name n) and FACT is "D n q"
                             (n % q == 0), "A n v" (n >= v) or "E n v" (n == v)
     C TREE_A TREE_B     ->  rust_compose A B: the candidate Rust builds, as a TREE, when
                             the certificate accepts it, or "E" (None)
     P k FACT1 .. FACTk REL LHS RHS
                         ->  facts_parse [FACT1; ..] (SymbolicFacts.v): "C" (contradiction),
                             "U" (unsupported) or, for names 0, 1, 2, "m x0 ymax" ("-": no
                             bound; "* * *": no facts), then "| T", "| F" or "| ?" (decide_static
                             of REL LHS RHS) and "| w0 w1 w2" (witness; "*": no facts), where
                             FACT is "R n m r" (n % m == r) or "L n a b op" (a*n + b op 0, op
                             0..4: >= <= > < ==), REL 0..4 is >= == != divides not-divides and a
                             polynomial is "t TERM1 .. TERMt", TERM "c k v1 p1 .. vk pk"
     QA k FACT1 .. FACTk REL LHS RHS
                         ->  qdecide (SymbolicQuot.v) under facts_parse [FACT1; ..] (facts as
                             for "P"): "C", "U", "E" (Rust's error: a division by the
                             constant 0), "T", "F" or "?", where a polynomial with quotient
                             atoms is "t TERM1 .. TERMt", TERM "c k ATOM1 p1 .. ATOMk pk", ATOM
                             "n v" (name v), "f X Y" (X / Y), "c X Y" (ceil_div(X, Y)) or
                             "m X Y" (X % Y), X and Y polynomials
     TI k FACT1 .. FACTk POLY
                         ->  qtidy (SymbolicQuot.v, Facts::tidy) of POLY under facts_parse
                             [FACT1; ..] (polynomials as for "QA"): "C", "U", "E" or the
                             tidied polynomial in the same tokens
     OR k FACT1 .. FACTk <the tokens of "O">
                         ->  as "O", but the oracle's decisions are rust_sdec_s
                             (SymbolicOpsRust.v: Ctx::decide_fast, the facts strengthened by
                             the guards) under the facts (as for "P"), each checked against
                             Rust's replayed one ("X oracle: ..." at the first difference)
     OT TREE_A TILER k K1 V1 .. Kk Vk
                         ->  stile (SymbolicTiler.v: logical_divide by a tuple tiler, mode by
                             mode) run as "O" runs sdivide; "U" where a tiler's rank exceeds
                             its mode's (Rust's Unsupported)
     ON TREE_A k K1 V1 .. Kk Vk
                         ->  scomplement_nc (SymbolicCosize.v: complement without a cotarget,
                             which is cosize(A)) run as "O" runs scomplement
     G k FACT1 .. FACTk s STEP1 .. STEPs
                         ->  ctx_run [FACT1; ..] [STEP1; ..]: "C", "U", "E" (an obligation
                             refuted) or "BITS | G1 ; G2 ; .. | INFO", the branches' answers,
                             the guards ("REL LHS RHS", terms sorted) and the strengthened
                             facts (as for "P"), where STEP is
                             "b prefer REL LHS RHS" (Ctx::branch) or "r 0 REL LHS RHS" (require)
     X n E0 .. E(n-1) T TR1 .. TRT L l1 .. lL P v0 .. v(n-1)
                         ->  BackwardRust.v on the schedule with n IterDomains (extents E),
                             transforms TR ("0 in outer inner f outer_kind", "1 outer inner
                             out", "2 in out l r", "3 x y out_x out_y") and loop domain l:
                             "PLAN | TERMS | EXTS IDX", where PLAN is plan's steps "t:b .."
                             (b = 1 backward) or "EO t", "EU i", "EV", "EF"; TERMS is "-"
                             (rterms None) or every id's TERM joined by " ; "; with P = 1,
                             EXTS IDX are rext and rpropagate from the start vector v (n
                             values each), else "-"
     U ext f             ->  box_decision ext f ("1" or "0"), the SM90 multicast boxes
                             of the checker's coverage/multicast obligations (CheckCover.v)
     V tk k ak           ->  k_decision tk k ak ("1" or "0"), tile_mma's K test
                             (CheckCover.v)
     W w n b1 .. bn      ->  "c bank": phase_cost (phase_words [b1; ..] w) (Banks.v): the
                             wavefronts of a phase whose thread t touches w bytes from bt
     Y tma mma           ->  "diff total": disagreement tma mma (Banks.v), the chunk count
                             behind the checker's swizzle_match
     H addr sw           ->  swizzle_bytes addr sw (Banks.v)
     FR n v1 .. vn       ->  f2_rank [v1; ..] (BanksLinear.v): Rust's echelon rank
     BL eb nv v1 .. vnv nt t1 .. tnt
                         ->  linear_per_phase eb [v1; ..] [t1; ..] (BanksLinear.v): the
                             wavefronts of every phase of analyze_linear's F2 path
   An answer is the result's modes, "e1 s1 e2 s2 ...", a bit, or an integer.  This file is the
   only hand-written OCaml: it converts machine integers to Coq's binary
   [z] and back (failing on overflow) and Coq's lists to OCaml's. *)

open Extracted

let rec pos_of_int n =
  if n = 1 then XH
  else if n land 1 = 1 then XI (pos_of_int (n lsr 1))
  else XO (pos_of_int (n lsr 1))

let z_of_int n =
  if n = 0 then Z0
  else if n > 0 then Zpos (pos_of_int n)
  else if n = min_int then failwith "z_of_int: min_int"
  else Zneg (pos_of_int (-n))

let limit = max_int / 4

let rec int_of_pos = function
  | XH -> 1
  | XO p -> let v = int_of_pos p in if v > limit then failwith "overflow" else 2 * v
  | XI p -> let v = int_of_pos p in if v > limit then failwith "overflow" else 2 * v + 1

let int_of_z = function Z0 -> 0 | Zpos p -> int_of_pos p | Zneg p -> - int_of_pos p

let rec list_of_coq = function Nil -> [] | Cons (x, r) -> x :: list_of_coq r
let rec coq_of_list = function [] -> Nil | x :: r -> Cons (x, coq_of_list r)

let rec modes_of_ints = function
  | e :: s :: rest -> { zextent = z_of_int e; zstride = z_of_int s } :: modes_of_ints rest
  | [] -> []
  | [ _ ] -> failwith "odd number of integers"

let show modes =
  String.concat " "
    (List.concat_map
       (fun m -> [ string_of_int (int_of_z m.zextent); string_of_int (int_of_z m.zstride) ])
       (list_of_coq modes))

(* Takes [n] items parsed by [item] off the front of an integer list. *)
let rec take n item ints =
  if n = 0 then ([], ints)
  else
    let x, rest = item ints in
    let xs, rest = take (n - 1) item rest in
    (x :: xs, rest)

let mode_item = function
  | e :: s :: rest -> ({ zextent = z_of_int e; zstride = z_of_int s }, rest)
  | _ -> failwith "truncated mode"

let pair_item = function
  | r :: rho :: rest -> (Pair (z_of_int r, z_of_int rho), rest)
  | _ -> failwith "truncated piece"

let leaf_item = function
  | d :: k :: rest ->
      let rr, rest = take k pair_item rest in
      (Pair (z_of_int d, coq_of_list rr), rest)
  | _ -> failwith "truncated leaf"

let certified ints =
  match ints with
  | na :: rest -> (
      let a, rest = take na mode_item rest in
      match rest with
      | nl :: rest -> (
          let leaves, rest = take nl leaf_item rest in
          if rest <> [] then failwith "trailing integers";
          match certified_composition (coq_of_list a) (coq_of_list leaves) with
          | True -> "1"
          | False -> "0")
      | [] -> failwith "missing leaves")
  | [] -> failwith "missing A"

let rec tree_item = function
  | "L" :: e :: s :: rest ->
      (ZLeaf { zextent = z_of_int (int_of_string e); zstride = z_of_int (int_of_string s) }, rest)
  | "N" :: k :: rest ->
      let cs, rest = take (int_of_string k) tree_item rest in
      (ZNode (coq_of_list cs), rest)
  | _ -> failwith "truncated tree"

let tree_of tokens =
  let t, rest = tree_item tokens in
  if rest <> [] then failwith "trailing tokens";
  t

let rec show_tree = function
  | ZLeaf m -> "L " ^ string_of_int (int_of_z m.zextent) ^ " " ^ string_of_int (int_of_z m.zstride)
  | ZNode cs ->
      let cs = list_of_coq cs in
      String.concat " " (("N " ^ string_of_int (List.length cs)) :: List.map show_tree cs)

let compose_request tokens =
  let a, rest = tree_item tokens in
  let b, rest = tree_item rest in
  if rest <> [] then failwith "trailing tokens";
  match rust_compose a b with Some r -> show_tree r | None -> "E"

let rec coord_item = function
  | "I" :: x :: rest -> (CInt (z_of_int (int_of_string x)), rest)
  | "U" :: k :: rest ->
      let cs, rest = take (int_of_string k) coord_item rest in
      (CTup (coq_of_list cs), rest)
  | _ -> failwith "truncated coordinate"

let rec show_coord = function
  | CInt x -> string_of_int (int_of_z x)
  | CTup cs -> "(" ^ String.concat "," (List.map show_coord (list_of_coq cs)) ^ ")"

let rec nat_of_int n = if n <= 0 then O else S (nat_of_int (n - 1))

let fact_item = function
  | "D" :: n :: m :: rest -> (Divisible (nat_of_int (int_of_string n), z_of_int (int_of_string m)), rest)
  | "A" :: n :: c :: rest -> (AtLeast (nat_of_int (int_of_string n), z_of_int (int_of_string c)), rest)
  | "E" :: n :: c :: rest -> (Equals (nat_of_int (int_of_string n), z_of_int (int_of_string c)), rest)
  | _ -> failwith "truncated fact"

let rec expr_item = function
  | "c" :: x :: rest -> (EConst (z_of_int (int_of_string x)), rest)
  | "s" :: n :: rest -> (ESym (nat_of_int (int_of_string n)), rest)
  | "a" :: rest ->
      let e, rest = expr_item rest in
      (match rest with
       | x :: rest -> (EAdd (e, z_of_int (int_of_string x)), rest)
       | [] -> failwith "truncated add")
  | "d" :: rest ->
      let e, rest = expr_item rest in
      (match rest with
       | x :: rest -> (ECeilDiv (e, z_of_int (int_of_string x)), rest)
       | [] -> failwith "truncated ceilDiv")
  | "p" :: rest ->
      let a, rest = expr_item rest in
      let b, rest = expr_item rest in
      (EPlus (a, b), rest)
  | "m" :: rest ->
      let a, rest = expr_item rest in
      let b, rest = expr_item rest in
      (EMul (a, b), rest)
  | _ -> failwith "truncated extent"

let show_opt = function Some v -> string_of_int (int_of_z v) | None -> "-"
let show_dec = function Yes -> "Y" | No -> "N" | Unknown -> "U"

let rec int_of_nat = function O -> 0 | S n -> 1 + int_of_nat n

let closure_request ints =
  let nat_item = function x :: rest -> (nat_of_int x, rest) | [] -> failwith "truncated id" in
  let rule_item = function
    | k :: rest -> (
        let ps, rest = take k nat_item rest in
        match rest with
        | c :: rest -> (Pair (coq_of_list ps, nat_of_int c), rest)
        | [] -> failwith "truncated rule")
    | [] -> failwith "truncated rule" in
  match ints with
  | fuel :: r :: rest -> (
      let rules, rest = take r rule_item rest in
      match rest with
      | c :: rest -> (
          let chosen, rest = take c nat_item rest in
          match rest with
          | o :: rest ->
              let order, rest = take o nat_item rest in
              if rest <> [] then failwith "trailing integers";
              let rules = coq_of_list rules in
              let js = dropped rules (closure rules (coq_of_list chosen) (nat_of_int fuel))
                         (coq_of_list order) in
              String.concat " "
                (List.map
                   (fun (Pair (x, ps)) ->
                     string_of_int (int_of_nat x) ^ ":"
                     ^ String.concat "," (List.map (fun p -> string_of_int (int_of_nat p)) (list_of_coq ps)))
                   (list_of_coq js))
          | [] -> failwith "missing order")
      | [] -> failwith "missing chosen")
  | _ -> failwith "missing rules"

let enum_request ints =
  let nat_item = function x :: rest -> (nat_of_int x, rest) | [] -> failwith "truncated id" in
  match ints with
  | n :: np :: rest -> (
      let oob = Array.make_matrix (max np 1) (max n 1) false in
      let point_item p = function
        | k :: rest ->
            let vs, rest = take k (function v :: r -> (v, r) | [] -> failwith "truncated point") rest in
            List.iter (fun v ->
                if v < 0 || v >= n then failwith "id out of range";
                oob.(p).(v) <- true) vs;
            ((), rest)
        | [] -> failwith "truncated point" in
      let rec points p rest = if p = np then rest else
          let (), rest = point_item p rest in points (p + 1) rest in
      let rest = points 0 rest in
      let list_of rest = match rest with
        | k :: rest -> take k nat_item rest
        | [] -> failwith "truncated list" in
      let ids, rest = list_of rest in
      let chosen, rest = list_of rest in
      let order, rest = list_of rest in
      if rest <> [] then failwith "trailing integers";
      let inb p v =
        let v = int_of_nat v in
        if v >= n then failwith "id out of range";
        if oob.(p).(v) then False else True in
      let pts = coq_of_list (List.init np (fun p -> p)) in
      String.concat " "
        (List.map (fun x -> string_of_int (int_of_nat x))
           (list_of_coq (enum_pass_ids pts inb (coq_of_list ids) (coq_of_list order)
                           (coq_of_list chosen)))))
  | _ -> failwith "missing sizes"

let rules_request ints =
  let b v = if v = 0 then False else True in
  let n = nat_of_int in
  let step_item = function
    | 0 :: i :: o :: inn :: bk :: dv :: rest -> (SSplit (n i, n o, n inn, b bk, b dv), rest)
    | 1 :: o :: inn :: out :: bk :: rest -> (SMerge (n o, n inn, n out, b bk), rest)
    | 2 :: i :: o :: l :: r :: rest -> (SResize (n i, n o, z_of_int l, z_of_int r), rest)
    | 3 :: x :: y :: ox :: oy :: c :: rest -> (SSwizzle (n x, n y, n ox, n oy, b c), rest)
    | _ -> failwith "bad step" in
  match ints with
  | nl :: rest -> (
      let loops, rest = take nl (function x :: r -> (n x, r) | [] -> failwith "truncated") rest in
      match rest with
      | ns :: rest ->
          let steps, rest = take ns step_item rest in
          if rest <> [] then failwith "trailing integers";
          String.concat " "
            (List.map
               (fun (Pair (ps, c)) ->
                 String.concat "," (List.map (fun p -> string_of_int (int_of_nat p)) (list_of_coq ps))
                 ^ ">" ^ string_of_int (int_of_nat c))
               (list_of_coq (rust_rules (coq_of_list loops) (coq_of_list steps))))
      | [] -> failwith "missing steps")
  | [] -> failwith "missing loops"

let rec term_item tokens =
  let i = int_of_string in
  let b v = if i v = 0 then False else True in
  match tokens with
  | "R" :: r :: rest -> (TRoot (nat_of_int (i r)), rest)
  | "S" :: f :: k :: o :: rest ->
      let x, rest = term_item rest in
      (TSplit (x, z_of_int (i f), b k, b o), rest)
  | "M" :: rest ->
      let a, rest = term_item rest in
      let c, rest = term_item rest in
      (TMerge (a, c), rest)
  | "Z" :: l :: r :: rest ->
      let x, rest = term_item rest in
      (TResize (x, z_of_int (i l), z_of_int (i r)), rest)
  | "W" :: y :: rest ->
      let x, rest = term_item rest in
      let w, rest = term_item rest in
      (TSwizzle (x, w, b y), rest)
  | _ -> failwith "truncated term"

let backward_request tokens =
  match tokens with
  | r :: rest -> (
      let exts, rest = take (int_of_string r) (function
          | e :: t -> (z_of_int (int_of_string e), t)
          | [] -> failwith "truncated extents") rest in
      let exts = Array.of_list exts in
      let e n = let n = int_of_nat n in if n < Array.length exts then exts.(n) else Z0 in
      let terms = function
        | k :: rest -> take (int_of_string k) term_item rest
        | [] -> failwith "truncated terms" in
      let l1, rest = terms rest in
      let l2, rest = terms rest in
      if rest <> [] then failwith "trailing tokens";
      let bit = function True -> "1" | False -> "0" in
      let l1 = coq_of_list l1 and l2 = coq_of_list l2 in
      String.concat " "
        [ bit (backward_check e l1 l2); bit (split_inners_loop l1); bit (wfb l2);
          bit (merges_in_range e l1 l2) ])
  | [] -> failwith "missing extents"

let rec show_term = function
  | TRoot r -> "R " ^ string_of_int (int_of_nat r)
  | TSplit (x, f, k, o) ->
      let b = function True -> "1" | False -> "0" in
      "S " ^ string_of_int (int_of_z f) ^ " " ^ b k ^ " " ^ b o ^ " " ^ show_term x
  | TMerge (a, c) -> "M " ^ show_term a ^ " " ^ show_term c
  | TResize (x, l, r) ->
      "Z " ^ string_of_int (int_of_z l) ^ " " ^ string_of_int (int_of_z r) ^ " " ^ show_term x
  | TSwizzle (x, w, y) ->
      "W " ^ (match y with True -> "1" | False -> "0") ^ " " ^ show_term x ^ " " ^ show_term w

let normalize_request tokens =
  match tokens with
  | r :: rest ->
      let exts, rest = take (int_of_string r) (function
          | e :: t -> (z_of_int (int_of_string e), t)
          | [] -> failwith "truncated extents") rest in
      let exts = Array.of_list exts in
      let e n = let n = int_of_nat n in if n < Array.length exts then exts.(n) else Z0 in
      let t, rest = term_item rest in
      if rest <> [] then failwith "trailing tokens";
      show_term (normalizeR e t)
  | [] -> failwith "missing extents"

let symbolic tokens =
  match tokens with
  | k :: rest -> (
      let fs, rest = take (int_of_string k) fact_item rest in
      let e, rest = expr_item rest in
      match rest with
      | [ f; c ] ->
          let facts = facts_of (coq_of_list fs) in
          String.concat " "
            [ string_of_int (int_of_z (known_divisor facts e));
              show_opt (lower_bound facts e);
              show_opt (ceval facts e);
              show_dec (divides facts (z_of_int (int_of_string f)) e);
              show_dec (at_least facts e (z_of_int (int_of_string c))) ]
      | _ -> failwith "symbolic: expected f and c")
  | [] -> failwith "symbolic: missing facts"

(* "P k FACT1 .. FACTk REL LHS RHS": facts_parse, then its NameInfo of the
   names 0..2, decide_static and witness (SymbolicFacts.v). *)
let facts_request tokens =
  let nat_of s = nat_of_int (int_of_string s) in
  let zi s = z_of_int (int_of_string s) in
  let cmp_of = function
    | "0" -> CGe | "1" -> CLe | "2" -> CGt | "3" -> CLt | "4" -> CEq
    | _ -> failwith "P: bad comparison" in
  let fact = function
    | "R" :: n :: m :: r :: rest -> (SRes (nat_of n, zi m, zi r), rest)
    | "L" :: n :: a :: b :: op :: rest -> (SLin (nat_of n, zi a, zi b, cmp_of op), rest)
    | _ -> failwith "P: bad fact" in
  let rec pows k toks =
    if k = 0 then (Nil, toks)
    else match toks with
      | v :: p :: rest ->
          let tl, rest = pows (k - 1) rest in
          (Cons (Pair (nat_of v, nat_of p), tl), rest)
      | _ -> failwith "P: bad monomial" in
  let term = function
    | c :: k :: rest ->
        let m, rest = pows (int_of_string k) rest in
        (Pair (m, zi c), rest)
    | _ -> failwith "P: bad term" in
  let poly = function
    | t :: rest ->
        let ts, rest = take (int_of_string t) term rest in
        (coq_of_list ts, rest)
    | [] -> failwith "P: missing polynomial" in
  match tokens with
  | k :: rest -> (
      let fs, rest = take (int_of_string k) fact rest in
      match rest with
      | r :: rest -> (
          let rel = match r with
            | "0" -> RGe | "1" -> REq | "2" -> RNe | "3" -> RDv | "4" -> RNDv
            | _ -> failwith "P: bad relation" in
          let l, rest = poly rest in
          let q, rest = poly rest in
          if rest <> [] then failwith "P: trailing tokens";
          match facts_parse (coq_of_list fs) with
          | Contra -> "C"
          | Unsup -> "U"
          | Ok f ->
              let names = [0; 1; 2] in
              let info n =
                match alookup (nat_of_int n) f with
                | Some i ->
                    string_of_int (int_of_z i.im) ^ " " ^ string_of_int (int_of_z i.ix0) ^ " "
                    ^ (match i.iymax with Some h -> string_of_int (int_of_z h) | None -> "-")
                | None -> "* * *" in
              let verdict =
                match decide_static f { prel = rel; plhs = l; prhs = q } with
                | Some True -> "T" | Some False -> "F" | None -> "?" in
              let wit n =
                match alookup (nat_of_int n) f with
                | Some _ -> string_of_int (int_of_z (witness f (nat_of_int n)))
                | None -> "*" in
              String.concat " " (List.map info names) ^ " | " ^ verdict ^ " | "
              ^ String.concat " " (List.map wit names))
      | [] -> failwith "P: missing relation")
  | [] -> failwith "P: missing count"
(* "QA k FACT1 .. FACTk REL LHS RHS": facts_parse, then qdecide on
   polynomials with quotient atoms (SymbolicQuot.v); with tidy = true,
   "TI k FACT1 .. FACTk POLY": qtidy. *)
let rec show_qp p =
  let rec terms n = function
    | QZ -> (n, [])
    | QT (m, c, r) ->
        let k, ms = mono 0 [] m in
        let n', rest = terms (n + 1) r in
        (n', (string_of_int (int_of_z c) ^ " " ^ string_of_int k ^ String.concat "" ms) :: rest)
  and mono k acc = function
    | M1 -> (k, List.rev acc)
    | MA (a, p, r) ->
        mono (k + 1) ((" " ^ show_qa a ^ " " ^ string_of_int (int_of_nat p)) :: acc) r in
  let n, ts = terms 0 p in
  String.concat " " (string_of_int n :: ts)
and show_qa = function
  | AN v -> "n " ^ string_of_int (int_of_nat v)
  | AF (x, y) -> "f " ^ show_qp x ^ " " ^ show_qp y
  | AC (x, y) -> "c " ^ show_qp x ^ " " ^ show_qp y
  | AM (x, y) -> "m " ^ show_qp x ^ " " ^ show_qp y

let quot_request ?(tidy = false) tokens =
  let nat_of s = nat_of_int (int_of_string s) in
  let zi s = z_of_int (int_of_string s) in
  let cmp_of = function
    | "0" -> CGe | "1" -> CLe | "2" -> CGt | "3" -> CLt | "4" -> CEq
    | _ -> failwith "QA: bad comparison" in
  let fact = function
    | "R" :: n :: m :: r :: rest -> (SRes (nat_of n, zi m, zi r), rest)
    | "L" :: n :: a :: b :: op :: rest -> (SLin (nat_of n, zi a, zi b, cmp_of op), rest)
    | _ -> failwith "QA: bad fact" in
  let rec poly = function
    | t :: rest ->
        let rec terms t toks =
          if t = 0 then (QZ, toks)
          else match toks with
            | c :: k :: rest ->
                let m, rest = mono (int_of_string k) rest in
                let r, rest = terms (t - 1) rest in
                (QT (m, zi c, r), rest)
            | _ -> failwith "QA: bad term" in
        terms (int_of_string t) rest
    | [] -> failwith "QA: missing polynomial"
  and mono k toks =
    if k = 0 then (M1, toks)
    else
      let a, rest = atom toks in
      match rest with
      | p :: rest ->
          let r, rest = mono (k - 1) rest in
          (MA (a, nat_of p, r), rest)
      | [] -> failwith "QA: missing power"
  and atom = function
    | "n" :: v :: rest -> (AN (nat_of v), rest)
    | ("f" | "c" | "m") as op :: rest ->
        let x, rest = poly rest in
        let y, rest = poly rest in
        ((match op with "f" -> AF (x, y) | "c" -> AC (x, y) | _ -> AM (x, y)), rest)
    | _ -> failwith "QA: bad atom" in
  match tokens with
  | k :: rest -> (
      let fs, rest = take (int_of_string k) fact rest in
      if tidy then (
        let p, rest = poly rest in
        if rest <> [] then failwith "TI: trailing tokens";
        match facts_parse (coq_of_list fs) with
        | Contra -> "C"
        | Unsup -> "U"
        | Ok f -> (match qtidy f p with None -> "E" | Some p' -> show_qp p'))
      else
      match rest with
      | r :: rest -> (
          let rel = match r with
            | "0" -> RGe | "1" -> REq | "2" -> RNe | "3" -> RDv | "4" -> RNDv
            | _ -> failwith "QA: bad relation" in
          let l, rest = poly rest in
          let q, rest = poly rest in
          if rest <> [] then failwith "QA: trailing tokens";
          match facts_parse (coq_of_list fs) with
          | Contra -> "C"
          | Unsup -> "U"
          | Ok f -> (
              match qdecide f { qrel = rel; qlhs = l; qrhs = q } with
              | None -> "E"
              | Some (Some True) -> "T"
              | Some (Some False) -> "F"
              | Some None -> "?"))
      | [] -> failwith "QA: missing relation")
  | [] -> failwith "QA: missing count"

let backward_rust_request ints =
  let n = nat_of_int and z = z_of_int and b v = if v = 0 then False else True in
  let int_item = function x :: r -> (x, r) | [] -> failwith "X: truncated" in
  let tr_item = function
    | 0 :: i :: o :: inn :: f :: k :: rest -> (RSplit (n i, n o, n inn, z f, b k), rest)
    | 1 :: o :: inn :: out :: rest -> (RMerge (n o, n inn, n out), rest)
    | 2 :: i :: o :: l :: r :: rest -> (RResize (n i, n o, z l, z r), rest)
    | 3 :: x :: y :: ox :: oy :: rest -> (RSwizzle (n x, n y, n ox, n oy), rest)
    | _ -> failwith "X: bad transform" in
  match ints with
  | nids :: rest -> (
      let exts, rest = take nids int_item rest in
      let t, rest = int_item rest in
      let trs, rest = take t tr_item rest in
      let nl, rest = int_item rest in
      let loops, rest = take nl int_item rest in
      let s = { sext = coq_of_list (List.map z exts); strs = coq_of_list trs;
                sloop = coq_of_list (List.map n loops) } in
      let ids = List.init nids (fun i -> i) in
      let plan_s = plan s in
      let p = match plan_s with
        | POk steps ->
            String.concat " " (List.map (fun (Pair (t, bk)) ->
                string_of_int (int_of_nat t) ^ ":" ^ (if bk = True then "1" else "0"))
                (list_of_coq steps))
        | POver t -> "EO " ^ string_of_int (int_of_nat t)
        | PUnder i -> "EU " ^ string_of_int (int_of_nat i)
        | PInvalid -> "EV"
        | PFuel -> "EF" in
      let ts = match rterms s with
        | None -> "-"
        | Some ts -> String.concat " ; " (List.map show_term (list_of_coq ts)) in
      let vals = match rest, plan_s with
        | 1 :: rest, POk steps ->
            let v0, rest = take nids int_item rest in
            if rest <> [] then failwith "X: trailing integers";
            let v0 = Array.of_list v0 in
            let idx i = let i = int_of_nat i in if i < nids then z v0.(i) else Z0 in
            let show f = String.concat " " (List.map (fun i -> string_of_int (int_of_z (f (n i)))) ids) in
            show (rext s) ^ " " ^ show (rpropagate s steps idx)
        | _ -> "-" in
      p ^ " | " ^ ts ^ " | " ^ vals)
  | [] -> failwith "X: missing ids"

(* "G k FACT1 .. FACTk s STEP1 .. STEPs": ctx_run (SymbolicFacts.v), where STEP is
   "b prefer REL LHS RHS" (Ctx::branch) or "r 0 REL LHS RHS" (Ctx::require); answers
   "C", "U", "E" (an obligation refuted) or "BITS | G1 ; G2 ; .. | INFO": the branches'
   answers ("-" for none), the guards, each "REL LHS RHS" with the terms sorted, and the
   strengthened facts' "m x0 ymax" of names 0, 1, 2 (as for "P"). *)
let ctx_request tokens =
  let nat_of s = nat_of_int (int_of_string s) in
  let zi s = z_of_int (int_of_string s) in
  let cmp_of = function
    | "0" -> CGe | "1" -> CLe | "2" -> CGt | "3" -> CLt | "4" -> CEq
    | _ -> failwith "G: bad comparison" in
  let fact = function
    | "R" :: n :: m :: r :: rest -> (SRes (nat_of n, zi m, zi r), rest)
    | "L" :: n :: a :: b :: op :: rest -> (SLin (nat_of n, zi a, zi b, cmp_of op), rest)
    | _ -> failwith "G: bad fact" in
  let rec pows k toks =
    if k = 0 then (Nil, toks)
    else match toks with
      | v :: p :: rest ->
          let tl, rest = pows (k - 1) rest in
          (Cons (Pair (nat_of v, nat_of p), tl), rest)
      | _ -> failwith "G: bad monomial" in
  let term = function
    | c :: k :: rest ->
        let m, rest = pows (int_of_string k) rest in
        (Pair (m, zi c), rest)
    | _ -> failwith "G: bad term" in
  let poly = function
    | t :: rest ->
        let ts, rest = take (int_of_string t) term rest in
        (coq_of_list ts, rest)
    | [] -> failwith "G: missing polynomial" in
  let rel_of = function
    | "0" -> RGe | "1" -> REq | "2" -> RNe | "3" -> RDv | "4" -> RNDv
    | _ -> failwith "G: bad relation" in
  let rel_code = function RGe -> "0" | REq -> "1" | RNe -> "2" | RDv -> "3" | RNDv -> "4" in
  let step = function
    | kind :: prefer :: r :: rest ->
        let l, rest = poly rest in
        let q, rest = poly rest in
        let b = match kind with "b" -> True | "r" -> False | _ -> failwith "G: bad step" in
        let pr = if prefer = "1" then True else False in
        (Pair (Pair (b, { prel = rel_of r; plhs = l; prhs = q }), pr), rest)
    | _ -> failwith "G: bad step" in
  let show_poly p =
    let ts =
      List.map
        (fun (Pair (m, c)) ->
          (List.map (fun (Pair (v, k)) -> (int_of_nat v, int_of_nat k)) (list_of_coq m), int_of_z c))
        (list_of_coq p) in
    let ts = List.sort compare ts in
    String.concat " "
      (string_of_int (List.length ts)
       :: List.map
            (fun (m, c) ->
              String.concat " "
                (string_of_int c :: string_of_int (List.length m)
                 :: List.concat_map (fun (v, k) -> [string_of_int v; string_of_int k]) m))
            ts) in
  match tokens with
  | k :: rest -> (
      let fs, rest = take (int_of_string k) fact rest in
      match rest with
      | s :: rest -> (
          let steps, rest = take (int_of_string s) step rest in
          if rest <> [] then failwith "G: trailing tokens";
          match ctx_run (coq_of_list fs) (coq_of_list steps) with
          | Contra -> "C"
          | Unsup -> "U"
          | Ok None -> "E"
          | Ok (Some (Pair (Pair (bs, gs), f))) ->
              let bits = String.concat "" (List.map (function True -> "1" | False -> "0") (list_of_coq bs)) in
              let gs =
                List.map
                  (fun g -> rel_code g.prel ^ " " ^ show_poly g.plhs ^ " " ^ show_poly g.prhs)
                  (list_of_coq gs) in
              let info n =
                match alookup (nat_of_int n) f with
                | Some i ->
                    string_of_int (int_of_z i.im) ^ " " ^ string_of_int (int_of_z i.ix0) ^ " "
                    ^ (match i.iymax with Some h -> string_of_int (int_of_z h) | None -> "-")
                | None -> "* * *" in
              (if bits = "" then "-" else bits) ^ " | " ^ String.concat " ; " gs ^ " | "
              ^ String.concat " " (List.map info [0; 1; 2]))
      | [] -> failwith "G: missing steps")
  | [] -> failwith "G: missing count"

(* "O OP TREE_A ARG k K1 V1 .. Kk Vk": the symbolic operations of SymbolicOps.v run by the
   extracted [srun] with Rust's decisions replayed.  OP is "c" (scomposition A B, ARG a
   tree), "m" (scomplement A M, ARG an expression) or "d" (sdivide A B).  A tree is
   "L S D" or "T n TREE1 .. TREEn"; an expression is prefix: "c N", "v I" (name K, M, N),
   "+ a b", "- a b", "* a b", "/ a b" (floor_div), "^ a b" (ceil_div).  The trace is Rust's
   decisions in order, each KIND VALUE with VALUE 1, 0 or "-": kind "d" answers [srun]'s
   oracle (branches and obligations), "t" [htyp], "p" [hpeek], "o" [hone], "s" [hsame]; each
   kind is a queue of its own.  Answers "E" (a refuted obligation), "X why" (a queue
   exhausted or left over), or "R;PROFILE;n;S1;D1;..;Sn;Dn;g;REL;LHS;RHS;.." with the
   result's leaves and the guards printed infix (Rust re-parses them).
   "OT TREE_A TILER k K1 V1 .. Kk Vk": the same for SymbolicTiler.v's [stile] ([logical_divide]
   by a tiler, mode by mode): a tiler is "U" (_), "B TREE" (a layout) or "S n TILER1 .. TILERn"
   (a tuple); answers as "O", or "U" where the tiler's rank exceeds its mode's (Unsupported).
   "ON TREE_A k K1 V1 .. Kk Vk": the same for SymbolicCosize.v's [scomplement_nc] (complement
   without a cotarget: cosize's branches, then complement with that cotarget). *)
let sops_request ?oracle tokens =
  let names = [| "K"; "M"; "N" |] in
  let rec expr = function
    | "c" :: n :: r -> (SC (z_of_int (int_of_string n)), r)
    | "v" :: n :: r -> (SV (nat_of_int (int_of_string n)), r)
    | op :: r ->
        let a, r = expr r in
        let b, r = expr r in
        ((match op with
          | "+" -> SAdd (a, b) | "-" -> SSub (a, b) | "*" -> SMul (a, b)
          | "/" -> SFloor (a, b) | "^" -> SCeil (a, b)
          | _ -> failwith "O: bad expression"), r)
    | [] -> failwith "O: missing expression" in
  let rec tree = function
    | "L" :: r ->
        let s, r = expr r in
        let d, r = expr r in
        (SLeaf (s, d), r)
    | "T" :: n :: r ->
        let ms, r = take (int_of_string n) tree r in
        (STuple (coq_of_list ms), r)
    | _ -> failwith "O: bad tree" in
  let rec show_e = function
    | SC c -> let v = int_of_z c in if v < 0 then "(0-" ^ string_of_int (- v) ^ ")" else string_of_int v
    | SV n -> names.(int_of_nat n)
    | SAdd (a, b) -> "(" ^ show_e a ^ "+" ^ show_e b ^ ")"
    | SSub (a, b) -> "(" ^ show_e a ^ "-" ^ show_e b ^ ")"
    | SMul (a, b) -> "(" ^ show_e a ^ "*" ^ show_e b ^ ")"
    | SFloor (a, b) -> "(" ^ show_e a ^ "/" ^ show_e b ^ ")"
    | SCeil (a, b) -> "ceil_div(" ^ show_e a ^ "," ^ show_e b ^ ")" in
  let rec profile = function
    | SLeaf _ -> "L"
    | STuple ms -> "(" ^ String.concat "," (List.map profile (list_of_coq ms)) ^ ")" in
  let rec leaves = function
    | SLeaf (s, d) -> [show_e s; show_e d]
    | STuple ms -> List.concat_map leaves (list_of_coq ms) in
  let rel_code = function RGe -> "0" | REq -> "1" | RNe -> "2" | RDv -> "3" | RNDv -> "4" in
  match tokens with
  | op :: rest -> (
      let a, rest = tree rest in
      let rec tiler = function
        | "U" :: r -> (TUnder, r)
        | "B" :: r -> let b, r = tree r in (TLayout b, r)
        | "S" :: n :: r ->
            let ts, r = take (int_of_string n) tiler r in
            (TTuple (coq_of_list ts), r)
        | _ -> failwith "O: bad tiler" in
      let arg, rest =
        match op with
        | "m" -> let m, r = expr rest in (`E m, r)
        | "c" | "d" -> let b, r = tree rest in (`T b, r)
        | "t" -> let t, r = tiler rest in (`Ti t, r)
        | "n" -> (`N, rest)
        | _ -> failwith "O: bad operation" in
      let queues = Hashtbl.create 5 in
      (match rest with
       | k :: r ->
           let steps, r = take (int_of_string k) (function
               | kind :: v :: r -> ((kind, v), r)
               | _ -> failwith "O: bad step") r in
           if r <> [] then failwith "O: trailing tokens";
           List.iter (fun (kind, v) ->
               let q = try Hashtbl.find queues kind with Not_found ->
                 let q = Queue.create () in Hashtbl.add queues kind q; q in
               Queue.add v q) steps
       | [] -> failwith "O: missing trace");
      let exhausted = ref "" in
      let pop kind =
        match Hashtbl.find_opt queues kind with
        | Some q when not (Queue.is_empty q) -> Queue.pop q
        | _ -> exhausted := kind; "-" in
      let obool kind = match pop kind with "1" -> Some True | "0" -> Some False | _ -> None in
      let bool kind = match pop kind with "1" -> True | _ -> False in
      let h = { hpeek = (fun _ -> obool "p"); htyp = (fun _ -> bool "t");
                hone = (fun _ -> bool "o"); hsame = (fun _ _ -> bool "s") } in
      (* [stile]'s result is an option ([None]: Rust's Unsupported for a tiler of larger rank,
         answered "U"); the other operations' results are wrapped in [Some]. *)
      let c =
        match op, arg with
        | "c", `T b -> `L (scomposition h a b)
        | "d", `T b -> `L (sdivide h a b)
        | "m", `E m -> `L (scomplement h a m)
        | "t", `Ti t -> `O (stile h t a)
        | "n", `N -> `L (scomplement_nc h a)
        | _ -> failwith "O: bad argument" in
      let mismatch = ref "" in
      let dec = match oracle with
        | None -> (fun _ _ -> obool "d")
        | Some o -> (fun gs p ->
            let d = obool "d" in
            let mine = o gs p in
            let show = function Some True -> "1" | Some False -> "0" | None -> "-" in
            if !mismatch = "" && show d <> show mine then
              mismatch := "Rust " ^ show d ^ ", rust_sdec_s " ^ show mine ^ " on " ^ rel_code p.srel
                          ^ " " ^ show_e p.slhs ^ " " ^ show_e p.srhs;
            mine) in
      let res =
        match c with
        | `L c -> (match srun dec snegate Nil c with
                   | Some (Pair (t, gs)) -> Some (Pair (Some t, gs))
                   | None -> None)
        | `O c -> srun dec snegate Nil c in
      let left = Hashtbl.fold (fun k q acc -> if Queue.is_empty q then acc else k :: acc) queues [] in
      (* A refuted obligation ends the run; the continuation of a [GRequire] is built
         (OCaml is strict) before its obligation is decided, so its hooks may have run
         past the end of Rust's trace: only a completed run must use the trace exactly. *)
      match res with
      | _ when !mismatch <> "" -> "X oracle: " ^ !mismatch
      | None -> "E"
      | Some _ when !exhausted <> "" -> "X exhausted " ^ !exhausted
      | Some _ when left <> [] -> "X left " ^ String.concat "," (List.sort compare left)
      | Some (Pair (None, _)) -> "U"
      | Some (Pair (Some t, gs)) ->
            let ls = leaves t in
            let gs = list_of_coq gs in
            String.concat ";"
              (["R"; profile t; string_of_int (List.length ls / 2)] @ ls
               @ [string_of_int (List.length gs)]
               @ List.concat_map (fun g -> [rel_code g.srel; show_e g.slhs; show_e g.srhs]) gs))
  | [] -> failwith "O: missing operation"

let answer line =
  match String.split_on_char ' ' (String.trim line) with
  | "c" :: ints ->
      show (rust_coalesceZ (coq_of_list (modes_of_ints (List.map int_of_string ints))))
  | [ "k"; n; d; m ] ->
      show (complement1Z (z_of_int (int_of_string n)) (z_of_int (int_of_string d))
              (z_of_int (int_of_string m)))
  | [ "s"; b; m; sh; x ] ->
      let z v = z_of_int (int_of_string v) in
      string_of_int (int_of_z (swizzle (z b) (z m) (z sh) (z x)))
  | "x" :: ints -> certified (List.map int_of_string ints)
  | "g" :: m :: ints -> (
      let a = coq_of_list (modes_of_ints (List.map int_of_string ints)) in
      match complementZ a (z_of_int (int_of_string m)) with
      | Some r -> show r
      | None -> "E")
  | "h" :: k :: ints -> (
      let cot, rest = take (int_of_string k) (function
          | m :: r -> (z_of_int (int_of_string m), r)
          | [] -> failwith "truncated cotarget") ints in
      let a = coq_of_list (modes_of_ints (List.map int_of_string rest)) in
      match complementSZ a (coq_of_list cot) with
      | Some r -> show r
      | None -> "E")
  | "t" :: i :: tokens ->
      string_of_int (int_of_z (zteval (tree_of tokens) (z_of_int (int_of_string i))))
  | "T" :: tokens -> show (rust_coalesceZ (zflatten (tree_of tokens)))
  | "r" :: tokens -> (
      let t, rest = tree_item tokens in
      let c, rest = coord_item rest in
      if rest <> [] then failwith "trailing tokens";
      match crd2idx c t with Some v -> string_of_int (int_of_z v) | None -> "E")
  | "y" :: tokens -> symbolic tokens
  | "b" :: tokens -> backward_request tokens
  | "C" :: tokens -> compose_request tokens
  | "P" :: tokens -> facts_request tokens
  | "QA" :: tokens -> quot_request tokens
  | "TI" :: tokens -> quot_request ~tidy:true tokens
  | "G" :: tokens -> ctx_request tokens
  | "O" :: tokens -> (try sops_request tokens with Failure m -> "X " ^ m)
  | "OT" :: tokens -> (try sops_request ("t" :: tokens) with Failure m -> "X " ^ m)
  | "ON" :: tokens -> (try sops_request ("n" :: tokens) with Failure m -> "X " ^ m)
  | "OR" :: k :: tokens -> (
      let nat_of s = nat_of_int (int_of_string s) in
      let zi s = z_of_int (int_of_string s) in
      let cmp_of = function
        | "0" -> CGe | "1" -> CLe | "2" -> CGt | "3" -> CLt | "4" -> CEq
        | _ -> failwith "OR: bad comparison" in
      let fact = function
        | "R" :: n :: m :: r :: rest -> (SRes (nat_of n, zi m, zi r), rest)
        | "L" :: n :: a :: b :: op :: rest -> (SLin (nat_of n, zi a, zi b, cmp_of op), rest)
        | _ -> failwith "OR: bad fact" in
      let fs, rest = take (int_of_string k) fact tokens in
      match parse_all (coq_of_list fs) with
      | Ok raws -> (
          match rebuild raws with
          | Ok f -> (try sops_request ~oracle:(rust_sdec_s raws f) rest with Failure m -> "X " ^ m)
          | _ -> "X facts")
      | _ -> "X facts")
  | "N" :: tokens -> normalize_request tokens
  | "X" :: ints -> backward_rust_request (List.map int_of_string ints)
  | "i" :: ints ->
      show (right_inverseZ (coq_of_list (modes_of_ints (List.map int_of_string ints))))
  | "l" :: ints ->
      let l = coq_of_list (modes_of_ints (List.map int_of_string ints)) in
      (match left_inverseZ l with
       | None -> "E"
       | Some r -> (if left_inverse_overlaps l = True then "O " else "") ^ show r)
  | "K" :: ints -> (
      match List.map (fun v -> z_of_int (int_of_string v)) ints with
      | [t; tc; v; c; o] -> if copy_decision t tc v c o = True then "1" else "0"
      | _ -> failwith "K: five integers")
  | "Q" :: sm90 :: kernel :: rs :: rest -> (
      let zi s = z_of_int (int_of_string s) in
      let b s = if s = "1" then True else False in
      match rest with
      | [sa; sb; stages; ra; rb; e; t; sc; al; sbytes; cap; n] ->
          let epi = if e = "1" then Some (Pair (Pair (zi t, zi sc), zi al)) else None in
          let sum = smem_sum (b sm90) (zi kernel) (b rs) (zi sa) (zi sb) (zi stages) (zi ra) (zi rb)
              epi (zi sbytes) in
          let s = suggestion (b sm90) (zi kernel) (b rs) (zi sa) (zi sb) (zi ra) (zi rb) epi
              (zi sbytes) (zi cap) (zi n) in
          string_of_int (int_of_z sum) ^ " " ^ string_of_int (int_of_z s)
      | _ -> failwith "Q: fifteen fields")
  | "B" :: il :: span :: bits :: n :: rest -> (
      let zi s = z_of_int (int_of_string s) in
      let n = int_of_string n in
      let vals = List.map zi rest in
      if List.length vals <> 2 * n then failwith "B: 2n sizes";
      let bs = coq_of_list (List.filteri (fun i _ -> i < n) vals) in
      let es = coq_of_list (List.filteri (fun i _ -> i >= n) vals) in
      let il = if il = "1" then True else False in
      let c = to_bytes (copy_bits il bs es (zi bits)) in
      let m = to_bytes (smem_bits il (zi span) bs es (zi bits)) in
      string_of_int (int_of_z c) ^ " " ^ string_of_int (int_of_z m))
  | [ "J"; span; row ] ->
      let zi s = z_of_int (int_of_string s) in
      if Z.eqb (pitch_bits (zi span) (zi row)) (Z.mul (zi "8") (zi span)) = True then "1" else "0"
  | "L" :: bits :: mode :: i :: dims ->
      let zi s = z_of_int (int_of_string s) in
      string_of_int (int_of_z (box_elem (zi bits) (zi mode) (coq_of_list (List.map zi dims)) (zi i)))
  | "U" :: ext :: f :: [] ->
      if box_decision (z_of_int (int_of_string ext)) (z_of_int (int_of_string f)) = True then "1"
      else "0"
  | "V" :: tk :: k :: ak :: [] ->
      if k_decision (z_of_int (int_of_string tk)) (z_of_int (int_of_string k))
           (z_of_int (int_of_string ak)) = True then "1" else "0"
  | "W" :: w :: n :: rest ->
      let zi s = z_of_int (int_of_string s) in
      if List.length rest <> int_of_string n then failwith "W: n bytes";
      let r = phase_cost (phase_words (coq_of_list (List.map zi rest)) (zi w)) in
      (match r with Pair (c, b) -> string_of_int (int_of_z c) ^ " " ^ string_of_int (int_of_z b))
  | [ "Y"; t; m ] ->
      let zi s = z_of_int (int_of_string s) in
      (match disagreement (zi t) (zi m) with
       | Pair (d, tot) -> string_of_int (int_of_z d) ^ " " ^ string_of_int (int_of_z tot))
  | "FR" :: n :: vs ->
      if List.length vs <> int_of_string n then failwith "FR: n vectors";
      string_of_int
        (int_of_z (f2_rank (coq_of_list (List.map (fun v -> z_of_int (int_of_string v)) vs))))
  | "BL" :: eb :: nv :: rest ->
      let zi s = z_of_int (int_of_string s) in
      let nv = int_of_string nv in
      let vs = List.filteri (fun i _ -> i < nv) rest in
      (match List.filteri (fun i _ -> i >= nv) rest with
       | nt :: ts when List.length ts = int_of_string nt && List.length vs = nv ->
           string_of_int
             (int_of_z (linear_per_phase (zi eb) (coq_of_list (List.map zi vs))
                          (coq_of_list (List.map zi ts))))
       | _ -> failwith "BL: eb nv v.. nt t..")
  | [ "H"; a; sw ] ->
      let zi s = z_of_int (int_of_string s) in
      string_of_int (int_of_z (swizzle_bytes (zi a) (zi sw)))
  | "M" :: ints -> (
      match List.map (fun v -> z_of_int (int_of_string v)) ints with
      | [tm; tn; m; n; am; an] -> if mma_decision tm tn m n am an = True then "1" else "0"
      | _ -> failwith "M: six integers")
  | "F" :: d :: kind :: x :: k :: rest ->
      let nat_of s = nat_of_int (int_of_string s) in
      let zi s = z_of_int (int_of_string s) in
      let e = if kind = "s" then CStatic (zi x) else CRuntime (nat_of x) in
      let rec facts n toks =
        if n = 0 then (if toks <> [] then failwith "F: trailing tokens"; Nil)
        else match toks with
          | "D" :: a :: b :: r -> Cons (FDivisible (nat_of a, zi b), facts (n - 1) r)
          | "A" :: a :: b :: r -> Cons (FAtLeast (nat_of a, zi b), facts (n - 1) r)
          | "E" :: a :: b :: r -> Cons (FEquals (nat_of a, zi b), facts (n - 1) r)
          | _ -> failwith "F: bad fact" in
      (match check_divides e (zi d) (facts (int_of_string k) rest) with
       | DYes -> "Y"
       | DNo v -> "N " ^ string_of_int (int_of_z v)
       | DGuard n -> "G " ^ string_of_int (int_of_nat n))
  | "z" :: ints -> closure_request (List.map int_of_string ints)
  | "v" :: ints -> rules_request (List.map int_of_string ints)
  | "n" :: ints -> enum_request (List.map int_of_string ints)
  | "w" :: b :: m :: sh :: o :: i :: tokens ->
      let z v = z_of_int (int_of_string v) in
      string_of_int (int_of_z (swizzled (z b) (z m) (z sh) (z o) (tree_of tokens) (z i)))
  | "q" :: i :: tokens -> show_coord (idx2crd (tree_of tokens) (z_of_int (int_of_string i)))
  | _ -> failwith ("bad request: " ^ line)

let () =
  try
    while true do
      let line = input_line stdin in
      print_string (answer line);
      print_char '\n'
    done
  with End_of_file -> ()
