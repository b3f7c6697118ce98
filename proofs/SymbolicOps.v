(** * The symbolic operations as guarded runs (issue 28, item 5)

    [crates/tessera/src/symbolic/ops.rs] transcribed over an expression
    type with quotient atoms ([sexpr]: constants, names, [+], [-], [*],
    Rust's [floor_div] and [ceil_div]; [seval] evaluates as [Poly::eval]):
    [coalesce_leaves_x] ([coal_x]), [compose_leaf] ([cleaf]),
    [compose_node] ([cnode] and the no-carry check [carry_checks]),
    [composition] ([scomposition]), [complement] with a cotarget
    ([scomplement]), and [divide_part] ([sdivide]: [logical_divide] by a
    layout).  Every [Ctx::branch] / [Ctx::require] is a [GBranch] /
    [GRequire] of [SymbolicFacts.v]'s [gcomp] on a predicate over [sexpr]s
    (preferred sides as in Rust; [Ctx::branch_typical]'s side is the hook
    [htyp]).  Four things Rust decides outside [Ctx]'s guards are hooks
    ([hooks]): the [decide_fast] peek of [coalesce_leaves_x] ([hpeek]),
    [branch_typical]'s preferred side ([htyp]), [rs.as_const() == Some(1)]
    ([hone]) and [new == rs] ([hsame]) of [compose_leaf] (Rust compares
    canonical polynomials; the model keeps syntax trees, so these two are
    whatever Rust answers, assumed only to be sound: a [true] means the
    values are equal at the assignment).

    Proved:
    - [sop_run_sound]: for any oracle sound for the facts and the guards
      (as in [srun_sound]), each of these runs, when it returns [(R, gs)],
      is at every assignment satisfying the facts and [gs] the concrete
      run of the same transcription ([crun], every condition evaluated);
    - [cleaf_correct] ([cwalk_ok]): the leaf walk's concrete run is right:
      for a leaf [s:d] of B and A's (coalesced) modes [ax] with extents
      [>= 1], every [c] in [[0, s)] maps through the returned modes
      (colexicographic, as [evalA]) to [evalA ax (c * d)], and the
      returned extents multiply to [s];
    - [coal_x_ok]: [coalesce_leaves_x] keeps A's function on A's domain
      ([evalB]: colexicographic digits over the leaves), with extents
      [>= 1] and at least one mode for composition;
    - [scomposition_correct]: [composition] itself, for nested A and B:
      wherever its concrete run returns, the result has B's size and
      [R(c) = A(B(c))] at every index [c] of B's domain with [B(c)] in A's
      domain, a layout's function being [evalB] of its leaves, which is
      [ZTree.v]'s [zteval] at the assignment ([evalB_zteval]).  The proof follows every leaf's pieces into A's digits
      ([cwalk_dig], [cleaf_dig], [cnode_p_dig]) and uses the no-carry
      check ([carry_ok]) to keep each digit but the last within its
      extent, so that A is additive on B's image ([evalA_recomp] of
      [Composition.v]); [scomposition_leaf_correct] is the rank-1 case.
      With [sop_run_sound]: under the facts and the guards Rust returns
      (and where the hooks are sound), Rust's symbolic composition is
      right ([composition_guards_sufficient]), and [logical_divide] by a
      layout is [A ∘ (B, C)] with [C] the complement its run computes
      ([sdivide_correct], [divide_guards_sufficient]).

    Not proved here: [complement]'s postcondition (the run is transcribed,
    bridged, and covered by [sop_run_sound]), so [logical_divide] is only
    proved to be the composition of A with [(B, C)] for the [C] its run
    computes ([sdivide_composes]), not that [(B, C)] re-indexes A. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Bridge Composition SymbolicFacts CoalesceSigned ZTree.

Open Scope Z_scope.

(** ** Expressions with quotient atoms *)

Inductive sexpr : Type :=
| SC (c : Z)
| SV (n : nat)
| SAdd (a b : sexpr)
| SSub (a b : sexpr)
| SMul (a b : sexpr)
| SFloor (a b : sexpr)
| SCeil (a b : sexpr).

(** Rust's [div_euclid] and [ceil_div_i] (division by 0 is an error in
    Rust; 0 here). *)
Definition zfloor (a b : Z) : Z := if b <? 0 then - (a / - b) else a / b.
Definition zceil (a b : Z) : Z := if b <? 0 then - ((a) / (- b)) else - ((- a) / b).

Fixpoint seval (e : env) (x : sexpr) : Z :=
  match x with
  | SC c => c
  | SV n => e n
  | SAdd a b => seval e a + seval e b
  | SSub a b => seval e a - seval e b
  | SMul a b => seval e a * seval e b
  | SFloor a b => zfloor (seval e a) (seval e b)
  | SCeil a b => zceil (seval e a) (seval e b)
  end.

Lemma zfloor_pos : forall a b, 0 < b -> zfloor a b = a / b.
Proof. intros a b H. unfold zfloor. destruct (b <? 0) eqn:E; [apply Z.ltb_lt in E; lia | auto]. Qed.

(** Predicates over expressions: [Pred] ([rel] and [divb] of [SymbolicFacts.v]). *)
Record spred := mksp { srel : rel; slhs : sexpr; srhs : sexpr }.

Definition sholds (e : env) (p : spred) : bool :=
  let l := seval e (slhs p) in
  let r := seval e (srhs p) in
  match srel p with
  | RGe => r <=? l
  | REq => l =? r
  | RNe => negb (l =? r)
  | RDv => divb l r
  | RNDv => negb (divb l r)
  end.

(** [Pred::negate]. *)
Definition snegate (p : spred) : spred :=
  match srel p with
  | RGe => mksp RGe (srhs p) (SAdd (slhs p) (SC 1))
  | REq => mksp RNe (slhs p) (srhs p)
  | RNe => mksp REq (slhs p) (srhs p)
  | RDv => mksp RNDv (slhs p) (srhs p)
  | RNDv => mksp RDv (slhs p) (srhs p)
  end.

Lemma snegate_holds : forall e p, sholds e (snegate p) = negb (sholds e p).
Proof.
  intros e [r l q]. unfold sholds, snegate. destruct r; cbn;
    try (rewrite ?negb_involutive; reflexivity).
  destruct (Z.leb_spec (seval e q) (seval e l)), (Z.leb_spec (seval e l + 1) (seval e q));
    cbn; auto; lia.
Qed.

Definition eqp (a b : sexpr) : spred := mksp REq a b.
Definition nep (a b : sexpr) : spred := mksp RNe a b.
Definition gep (a b : sexpr) : spred := mksp RGe a b.
Definition dvp (a b : sexpr) : spred := mksp RDv a b.

(** ** Sequencing guarded computations *)

Fixpoint gbind {P A B : Type} (c : gcomp P A) (f : A -> gcomp P B) : gcomp P B :=
  match c with
  | GRet a => f a
  | GBranch p pr k => GBranch p pr (fun b => gbind (k b) f)
  | GRequire p k => GRequire p (gbind k f)
  end.

Lemma crun_bind : forall (P A B : Type) (h : P -> bool) (c : gcomp P A) (f : A -> gcomp P B),
  crun h (gbind c f) = match crun h c with Some a => crun h (f a) | None => None end.
Proof.
  intros P A B h c f. induction c as [a | p pr k IH | p k IH]; cbn; auto.
  destruct (h p); auto.
Qed.

(** What Rust decides outside [Ctx::branch] / [Ctx::require]. *)
Record hooks := mkhooks {
  hpeek : spred -> option bool;     (* Ctx::decide_fast, no guard recorded *)
  htyp : spred -> bool;             (* branch_typical's preferred side *)
  hone : sexpr -> bool;             (* p.as_const() == Some(1) *)
  hsame : sexpr -> sexpr -> bool    (* p == q (canonical polynomials) *)
}.

(** ** [coalesce_leaves_x] *)

(** The loop; [out] is reversed (its head is Rust's [out.last_mut()]),
    each entry [(shape, stride, known not 1)]. *)
Fixpoint coal_go (H : hooks) (extend : bool) (ls : list (sexpr * sexpr))
    (out : list (sexpr * sexpr * bool)) : gcomp spred (list (sexpr * sexpr * bool)) :=
  match ls with
  | [] => GRet out
  | (s, d) :: ls' =>
      let last := extend && match ls' with [] => true | _ => false end in
      match hpeek H (eqp s (SC 1)) with
      | Some true =>
          if last then
            match out with
            | (s0, d0, k) :: out' =>
                GBranch (eqp (SMul s0 d0) d) false (fun b =>
                  if b then coal_go H extend ls' ((SMul s0 (SC 2), d0, k) :: out')
                  else coal_go H extend ls' ((SC 2, d, true) :: out))
            | [] => coal_go H extend ls' [(SC 2, d, true)]
            end
          else coal_go H extend ls' out
      | ob =>
          let known := match ob with Some false => true | _ => last end in
          match out with
          | (s0, d0, k) :: out' =>
              GBranch (eqp (SMul s0 d0) d) false (fun b =>
                if b then coal_go H extend ls' ((SMul s0 s, d0, k || known) :: out')
                else coal_go H extend ls' ((s, d, known) :: out))
          | [] => coal_go H extend ls' [(s, d, known)]
          end
      end
  end.

(** The closing obligations: [s != 1] for every output mode not known to
    be [!= 1], when there are several. *)
Fixpoint coal_req (out : list (sexpr * sexpr * bool)) : gcomp spred unit :=
  match out with
  | [] => GRet tt
  | (s, _, k) :: r => if k then coal_req r else GRequire (nep s (SC 1)) (coal_req r)
  end.

Definition coal_x (H : hooks) (extend : bool) (ls : list (sexpr * sexpr))
    : gcomp spred (list (sexpr * sexpr)) :=
  gbind (coal_go H extend ls []) (fun outr =>
    let out := rev outr in
    let res := map (fun t => (fst (fst t), snd (fst t))) out in
    if (1 <? length out)%nat then gbind (coal_req out) (fun _ => GRet res) else GRet res).

(** ** Symbolic layouts *)

Inductive stree : Type :=
| SLeaf (s d : sexpr)
| STuple (ms : list stree).

Fixpoint sleaves (t : stree) : list (sexpr * sexpr) :=
  match t with
  | SLeaf s d => [(s, d)]
  | STuple ms => (fix go (ms : list stree) : list (sexpr * sexpr) :=
      match ms with [] => [] | m :: r => sleaves m ++ go r end) ms
  end.

(** [from_leaves]: none is [1:0], one is a leaf, several a tuple. *)
Definition from_leaves (v : list (sexpr * sexpr)) : stree :=
  match v with
  | [] => SLeaf (SC 1) (SC 0)
  | [(s, d)] => SLeaf s d
  | _ => STuple (map (fun sd => SLeaf (fst sd) (snd sd)) v)
  end.

(** ** [compose_leaf] *)

(** A piece: [(digit, stride in the digit, extent)]. *)
Definition spiece := (nat * sexpr * sexpr)%type.

(** The walk over A's modes but the last ([cs], [cd] at digit [i]);
    [out] and [pcs] in Rust's order. *)
Fixpoint cwalk (H : hooks) (init : list (sexpr * sexpr)) (i : nat) (rs rd : sexpr)
    (out : list (sexpr * sexpr)) (pcs : list spiece)
    : gcomp spred (sexpr * sexpr * list (sexpr * sexpr) * list spiece) :=
  match init with
  | [] => GRet (rs, rd, out, pcs)
  | (cs, cd) :: init' =>
      if hone H rs then GRet (rs, rd, out, pcs) else
      GBranch (dvp rd cs) true (fun bq =>
        let k2 := fun (q nrd : sexpr) =>
          GBranch (gep q rs) (htyp H (gep q rs)) (fun bm =>
            let nw := if bm then rs else q in
            GBranch (eqp nw (SC 1)) false (fun b1 =>
              let out' := if b1 then out else out ++ [(nw, SMul rd cd)] in
              let pcs' := if b1 then pcs else pcs ++ [(i, rd, nw)] in
              if hsame H nw rs then cwalk H init' (S i) (SC 1) nrd out' pcs'
              else GRequire (dvp nw rs) (cwalk H init' (S i) (SFloor rs nw) nrd out' pcs'))) in
        if bq then k2 (SFloor cs rd) (SC 1)
        else GRequire (dvp cs rd) (k2 (SC 1) (SFloor rd cs)))
  end.

Definition last_stride (ax : list (sexpr * sexpr)) : sexpr := snd (last ax (SC 1, SC 0)).

Definition cleaf (H : hooks) (ax : list (sexpr * sexpr)) (s d : sexpr)
    : gcomp spred (list (sexpr * sexpr) * list spiece) :=
  GBranch (eqp d (SC 0)) false (fun b0 =>
    if b0 then GRet ([(s, SC 0)], [])
    else GRequire (gep d (SC 1)) (
      gbind (cwalk H (removelast ax) 0 s d [] []) (fun r =>
        let '(rs, rd, out, pcs) := r in
        let tail := (rs, SMul rd (last_stride ax)) in
        match out with
        | [] => GRet ([tail], pcs)
        | _ => GBranch (eqp rs (SC 1)) false (fun b =>
                 if b then GRet (out, pcs) else GRet (out ++ [tail], pcs))
        end))).

(** ** [compose_node]: B's tree, then the no-carry check *)

Fixpoint cnode_p (H : hooks) (ax : list (sexpr * sexpr)) (b : stree) (pcs : list spiece)
    : gcomp spred (stree * list spiece) :=
  match b with
  | SLeaf s d => gbind (cleaf H ax s d) (fun r => GRet (from_leaves (fst r), pcs ++ snd r))
  | STuple ms =>
      gbind ((fix go (ms : list stree) (pcs : list spiece)
                : gcomp spred (list stree * list spiece) :=
               match ms with
               | [] => GRet ([], pcs)
               | m :: r => gbind (cnode_p H ax m pcs) (fun tp =>
                             gbind (go r (snd tp)) (fun tsp => GRet (fst tp :: fst tsp, snd tsp)))
               end) ms pcs)
        (fun tsp => GRet (STuple (fst tsp), snd tsp))
  end.

(** [reach = 0 + Σ rd·(r − 1)] over the pieces in one digit. *)
Definition sreach (here : list spiece) : sexpr :=
  fold_left (fun acc p => let '(_, rd, r) := p in SAdd acc (SMul rd (SSub r (SC 1)))) here (SC 0).

Fixpoint carry_checks (ax : list (sexpr * sexpr)) (i : nat) (pcs : list spiece) : gcomp spred unit :=
  match ax with
  | [] | [_] => GRet tt
  | (cs, _) :: ax' =>
      let here := filter (fun p => let '(j, _, _) := p in Nat.eqb j i) pcs in
      if (length here <? 2)%nat then carry_checks ax' (S i) pcs
      else GRequire (gep (SSub cs (SC 1)) (sreach here)) (carry_checks ax' (S i) pcs)
  end.

Definition cnode (H : hooks) (ax : list (sexpr * sexpr)) (b : stree) : gcomp spred stree :=
  gbind (cnode_p H ax b []) (fun tp => gbind (carry_checks ax 0 (snd tp)) (fun _ => GRet (fst tp))).

Definition scomposition (H : hooks) (a b : stree) : gcomp spred stree :=
  gbind (coal_x H true (sleaves a)) (fun ax => cnode H ax b).

(** ** [complement] with a cotarget *)

Fixpoint cfilter (ls : list (sexpr * sexpr)) : gcomp spred (list (sexpr * sexpr)) :=
  match ls with
  | [] => GRet []
  | (s, d) :: r =>
      GBranch (eqp d (SC 0)) false (fun b0 =>
        if b0 then cfilter r
        else GBranch (eqp s (SC 1)) false (fun b1 =>
          if b1 then cfilter r
          else GRequire (gep d (SC 1)) (gbind (cfilter r) (fun r' => GRet ((s, d) :: r')))))
  end.

(** Insertion of [x] into a sorted prefix given right to left ([rp]),
    as Rust's inner [while] loop compares. *)
Fixpoint cinsert (H : hooks) (x : sexpr * sexpr) (rp : list (sexpr * sexpr))
    : gcomp spred (list (sexpr * sexpr)) :=
  match rp with
  | [] => GRet [x]
  | p :: r =>
      let q := gep (snd x) (snd p) in
      GBranch q (htyp H q) (fun b =>
        if b then GRet (x :: p :: r)
        else gbind (cinsert H x r) (fun r' => GRet (p :: r')))
  end.

Fixpoint csort_go (H : hooks) (ls : list (sexpr * sexpr)) (rp : list (sexpr * sexpr))
    : gcomp spred (list (sexpr * sexpr)) :=
  match ls with
  | [] => GRet (rev rp)
  | x :: r => gbind (cinsert H x rp) (fun rp' => csort_go H r rp')
  end.

Fixpoint cbuild (ls : list (sexpr * sexpr)) (cur : sexpr) (m : sexpr)
    : gcomp spred (list (sexpr * sexpr)) :=
  match ls with
  | [] => GRet [(SCeil m cur, cur)]
  | (s, d) :: r =>
      GRequire (dvp cur d) (gbind (cbuild r (SMul s d) m) (fun r' => GRet ((SFloor d cur, cur) :: r')))
  end.

Definition scomplement (H : hooks) (a : stree) (m : sexpr) : gcomp spred stree :=
  gbind (cfilter (sleaves a)) (fun ls =>
    gbind (csort_go H ls []) (fun sorted =>
      gbind (cbuild sorted (SC 1) m) (fun res =>
        gbind (coal_x H false res) (fun co => GRet (from_leaves co))))).

(** ** [divide_part]: [A ∘ (B, complement(B, size A))] *)

Definition ssize (a : stree) : sexpr := fold_left (fun acc sd => SMul acc (fst sd)) (sleaves a) (SC 1).

Definition sdivide (H : hooks) (a b : stree) : gcomp spred stree :=
  gbind (scomplement H b (ssize a)) (fun comp => scomposition H a (STuple [b; comp])).

(** ** The guarded runs are exact *)

(** Any of these computations, run through an oracle sound for the
    facts and the guards so far, returns guards under which its concrete
    run (every condition evaluated at the assignment) ends in the same
    result. *)
Theorem sop_run_sound : forall (A : Type) (sat : env -> Prop)
    (dec : list spred -> spred -> option bool),
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  forall (c : gcomp spred A) a gs', srun dec snegate [] c = Some (a, gs') ->
  forall x, sat x -> (forall g, In g gs' -> sholds x g = true) ->
  crun (sholds x) c = Some a.
Proof.
  intros A sat dec Hdec c a gs' Hrun x Hx Hg.
  exact (proj2 (srun_sound spred A env sat sholds dec snegate Hdec snegate_holds
                  c [] a gs' Hrun x Hx Hg)).
Qed.

(** ** The leaf walk computes [A(c · d)] *)

(** A's modes at an assignment. *)
Definition zm (e : env) (sd : sexpr * sexpr) : zmode := ZMode (seval e (fst sd)) (seval e (snd sd)).

(** The function of the returned modes on their domain (colexicographic
    digits, each bounded). *)
Fixpoint evalB (e : env) (l : list (sexpr * sexpr)) (x : Z) : Z :=
  match l with
  | [] => 0
  | (s, d) :: l' => (x mod seval e s) * seval e d + evalB e l' (x / seval e s)
  end.

Fixpoint prodB (e : env) (l : list (sexpr * sexpr)) : Z :=
  match l with [] => 1 | (s, _) :: l' => seval e s * prodB e l' end.

(** The hooks are sound at [e]: Rust's two syntactic tests and its peek
    claim only what holds. *)
Definition hooks_sound (H : hooks) (e : env) : Prop :=
  (forall x, hone H x = true -> seval e x = 1) /\
  (forall x y, hsame H x y = true -> seval e x = seval e y) /\
  (forall p b, hpeek H p = Some b -> sholds e p = b).

Lemma evalA_zero : forall ax, evalA ax 0 = 0.
Proof.
  induction ax as [|m [|m' ax] IH]; cbn in *; auto; try ring.
Qed.

Lemma evalA_cons : forall m ax i, ax <> [] ->
  evalA (m :: ax) i = (i mod zextent m) * zstride m + evalA ax (i / zextent m).
Proof. intros m [|m' ax] i H; [congruence | reflexivity]. Qed.

Lemma evalB_app_one : forall e l y x, seval e y = 1 -> forall t, evalB e (l ++ [(y, t)]) x = evalB e l x.
Proof.
  intros e l. induction l as [|[s d] l IH]; intros y x Hy t; cbn [app evalB].
  - rewrite Hy, Z.mod_1_r. ring.
  - rewrite (IH y _ Hy t). reflexivity.
Qed.

Lemma prodB_app : forall e l m, prodB e (l ++ m) = prodB e l * prodB e m.
Proof. intros e l m. induction l as [|[s d] l IH]; cbn [app prodB]; [ring | rewrite IH; ring]. Qed.

Lemma divb_true : forall l r, 0 < l -> divb l r = true -> r mod l = 0.
Proof.
  intros l r Hl H. unfold divb in H.
  destruct (l =? 0) eqn:E; [apply Z.eqb_eq in E; lia|].
  cbn in H. apply Z.eqb_eq in H. exact H.
Qed.

Lemma divb_false_ex : forall l r, 0 < l -> r mod l = 0 -> divb l r = true.
Proof.
  intros l r Hl H. unfold divb.
  destruct (l =? 0) eqn:E; [apply Z.eqb_eq in E; lia|]. cbn. apply Z.eqb_eq. exact H.
Qed.

Lemma crun_req : forall (P A : Type) (h : P -> bool) p (k : gcomp P A) a,
  crun h (GRequire p k) = Some a -> h p = true /\ crun h k = Some a.
Proof. intros P A h p k a Hr. cbn in Hr. destruct (h p); [auto | discriminate]. Qed.

Lemma evalA_step : forall e cs cd init L y,
  evalA (map (zm e) ((cs, cd) :: init) ++ [zm e L]) y =
  (y mod seval e cs) * seval e cd + evalA (map (zm e) init ++ [zm e L]) (y / seval e cs).
Proof. intros. cbn [map app]. apply evalA_cons. intro E. symmetry in E. revert E. apply app_cons_not_nil. Qed.

(** The walk: from the state [(rs, rd)] at the suffix [init ++ [L]] of A's
    modes, the modes it appends, then the tail [(rs', rd' · L_d)], compute
    [x ↦ A_suffix(x · rd)] on [[0, rs)], and their extents multiply to [rs]. *)
Lemma cwalk_ok : forall H e L init i rs rd out pcs rs' rd' out' pcs',
  hooks_sound H e ->
  Forall (fun m => 1 <= seval e (fst m)) init ->
  1 <= seval e rs -> 1 <= seval e rd ->
  crun (sholds e) (cwalk H init i rs rd out pcs) = Some (rs', rd', out', pcs') ->
  exists nw, out' = out ++ nw /\ 1 <= seval e rs' /\ 1 <= seval e rd' /\
    prodB e nw * seval e rs' = seval e rs /\
    forall x, 0 <= x < seval e rs ->
      evalB e (nw ++ [(rs', SMul rd' (snd L))]) x = evalA (map (zm e) init ++ [zm e L]) (x * seval e rd).
Proof.
  intros H e L init. induction init as [|[cs cd] init IH];
    intros i rs rd out pcs rs' rd' out' pcs' HS Hpos Hrs Hrd Hrun.
  - cbn in Hrun. injection Hrun as <- <- <- <-.
    exists []. rewrite app_nil_r. split; [reflexivity|]. split; [lia|]. split; [lia|].
    split; [cbn [prodB]; lia|].
    intros x Hx. cbn [app evalB map evalA]. rewrite Z.mod_small by lia.
    unfold zm. cbn [seval fst snd zstride]. ring.
  - pose proof HS as HS0. destruct HS as [Hone [Hsame Hpeek]].
    inversion Hpos as [|? ? Hcs Hpos']; subst. cbn [fst] in Hcs.
    cbn [cwalk] in Hrun.
    destruct (hone H rs) eqn:O1; rewrite ?O1 in Hrun.
    { cbn in Hrun. injection Hrun as <- <- <- <-.
      exists []. rewrite app_nil_r. apply Hone in O1. split; [reflexivity|]. split; [lia|].
      split; [lia|]. split; [cbn [prodB]; lia|].
      intros x Hx. assert (x = 0) by lia. subst x. rewrite Z.mul_0_l, evalA_zero.
      cbn [app evalB]. rewrite ?Zmod_0_l, ?Zdiv_0_l. ring. }
    set (r := seval e rs) in *. set (dd := seval e rd) in *. set (c := seval e cs) in *.
    cbn [crun] in Hrun.
    assert (Step : forall q nrd,
      1 <= seval e q -> 1 <= seval e nrd ->
      (forall x, 0 <= x < r ->
         (x * dd) mod c = (x mod Z.min (seval e q) r) * dd /\
         (x * dd) / c = (x / Z.min (seval e q) r) * seval e nrd) ->
      crun (sholds e)
        (GBranch (gep q rs) (htyp H (gep q rs)) (fun bm =>
          let nw := if bm then rs else q in
          GBranch (eqp nw (SC 1)) false (fun b1 =>
            let out' := if b1 then out else out ++ [(nw, SMul rd cd)] in
            let pcs' := if b1 then pcs else pcs ++ [(i, rd, nw)] in
            if hsame H nw rs then cwalk H init (S i) (SC 1) nrd out' pcs'
            else GRequire (dvp nw rs) (cwalk H init (S i) (SFloor rs nw) nrd out' pcs'))))
        = Some (rs', rd', out', pcs') ->
      exists nw, out' = out ++ nw /\ 1 <= seval e rs' /\ 1 <= seval e rd' /\
        prodB e nw * seval e rs' = r /\
        forall x, 0 <= x < r ->
          evalB e (nw ++ [(rs', SMul rd' (snd L))]) x =
          evalA (map (zm e) ((cs, cd) :: init) ++ [zm e L]) (x * dd)).
    { intros q nrd Hq Hnrd Hdig Hr2. cbn [crun] in Hr2.
      set (n := Z.min (seval e q) r) in *.
      set (nw0 := if sholds e (gep q rs) then rs else q) in *.
      assert (Hn : seval e nw0 = n).
      { unfold nw0, n, sholds. cbn [srel slhs srhs gep]. fold r.
        destruct (Z.leb_spec r (seval e q)) as [Hle|Hlt];
          [rewrite Z.min_r by lia | rewrite Z.min_l by lia]; reflexivity. }
      assert (Hnpos : 1 <= n) by (unfold n; lia).
      assert (Hnr : n <= r) by (unfold n; lia).
      set (out2 := if sholds e (eqp nw0 (SC 1)) then out else out ++ [(nw0, SMul rd cd)]) in *.
      assert (Ho2 : (seval e nw0 = 1 /\ out2 = out) \/ (seval e nw0 <> 1 /\ out2 = out ++ [(nw0, SMul rd cd)])).
      { unfold out2, sholds. cbn [srel slhs srhs eqp seval].
        destruct (Z.eqb_spec (seval e nw0) 1); [left | right]; auto. }
      destruct (hsame H nw0 rs) eqn:HSm; rewrite ?HSm in Hr2.
      - apply Hsame in HSm. fold r in HSm.
        destruct (IH (S i) (SC 1) nrd out2 _ rs' rd' out' pcs' HS0
                    Hpos' ltac:(cbn; lia) Hnrd Hr2) as (nw' & Eo & R1 & R2 & Pr & Ev).
        cbn [seval] in Pr, Ev.
        destruct Ho2 as [[E1 Eq2] | [E1 Eq2]]; rewrite Eq2 in Eo.
        + exists nw'. repeat split; try assumption; [lia|].
          intros x Hx. rewrite Ev by lia.
          rewrite evalA_step. fold c.
          destruct (Hdig x Hx) as [M D]. fold n in M, D.
          assert (N1 : n = 1) by lia. rewrite M, D, N1, Z.mod_1_r, Z.div_1_r. ring.
        + exists ((nw0, SMul rd cd) :: nw'). split; [rewrite Eo, <- app_assoc; reflexivity|].
          repeat split; try assumption.
          * cbn [prodB]. rewrite Hn, <- Z.mul_assoc, Pr. lia.
          * intros x Hx. cbn [app evalB]. rewrite Hn.
            rewrite Ev by (split; [apply Z.div_pos; lia | apply Z.div_lt_upper_bound; lia]).
            rewrite evalA_step. fold c.
            destruct (Hdig x Hx) as [M D]. fold n in M, D. rewrite M, D.
            cbn [seval]. fold dd. ring.
      - apply crun_req in Hr2 as [Dv Hr2].
        unfold sholds in Dv. cbn [srel slhs srhs dvp] in Dv. rewrite Hn in Dv. fold r in Dv.
        apply divb_true in Dv; [|lia].
        assert (Hex : r = n * (r / n)) by (apply Z.div_exact; lia).
        assert (Hq' : 1 <= seval e (SFloor rs nw0)).
        { cbn [seval]. rewrite Hn, zfloor_pos by lia. fold r. apply Z.div_le_lower_bound; lia. }
        destruct (IH (S i) (SFloor rs nw0) nrd out2 _ rs' rd' out' pcs' HS0
                    Hpos' Hq' Hnrd Hr2) as (nw' & Eo & R1 & R2 & Pr & Ev).
        cbn [seval] in Pr, Ev. rewrite Hn, zfloor_pos in Pr, Ev by lia. fold r in Pr, Ev.
        destruct Ho2 as [[E1 Eq2] | [E1 Eq2]]; rewrite Eq2 in Eo.
        + assert (N1 : n = 1) by lia.
          exists nw'. repeat split; try assumption.
          * rewrite Pr, N1, Z.div_1_r. reflexivity.
          * intros x Hx. rewrite Ev by (rewrite N1, Z.div_1_r; lia).
            rewrite evalA_step. fold c.
            destruct (Hdig x Hx) as [M D]. fold n in M, D.
            rewrite M, D, N1, Z.mod_1_r, Z.div_1_r. ring.
        + exists ((nw0, SMul rd cd) :: nw'). split; [rewrite Eo, <- app_assoc; reflexivity|].
          repeat split; try assumption.
          * cbn [prodB]. rewrite Hn, <- Z.mul_assoc, Pr. lia.
          * intros x Hx. cbn [app evalB]. rewrite Hn.
            rewrite Ev.
            2: { split; [apply Z.div_pos; lia|].
                 apply Z.div_lt_upper_bound; [lia|]. rewrite <- Hex. lia. }
            rewrite evalA_step. fold c.
            destruct (Hdig x Hx) as [M D]. fold n in M, D. rewrite M, D.
            cbn [seval]. fold dd. ring. }
    destruct (sholds e (dvp rd cs)) eqn:Dv; rewrite ?Dv in Hrun.
    + (* rd | cs: q = cs / rd, the next stride 1 *)
      unfold sholds in Dv. cbn [srel slhs srhs dvp] in Dv. fold dd c in Dv.
      apply divb_true in Dv; [|lia].
      assert (Hc : c = dd * (c / dd)) by (apply Z.div_exact; lia).
      assert (Hq : 1 <= c / dd) by nia.
      refine (Step (SFloor cs rd) (SC 1) _ _ _ Hrun).
      * cbn [seval]. rewrite zfloor_pos by lia. exact Hq.
      * cbn. lia.
      * intros x Hx. cbn [seval]. rewrite zfloor_pos by lia. fold c dd.
        set (q := c / dd) in *.
        destruct (Z.le_gt_cases q r) as [Hqr|Hqr].
        -- rewrite Z.min_l by lia.
           rewrite Hc, (Z.mul_comm dd q), Z.mul_mod_distr_r, Z.div_mul_cancel_r by lia. split; ring.
        -- rewrite Z.min_r by lia.
           rewrite (Z.mod_small (x * dd)), (Z.div_small (x * dd)), (Z.mod_small x r), (Z.div_small x r)
             by nia. split; ring.
    + (* cs | rd is required: the next stride rd / cs, nothing kept here *)
      apply crun_req in Hrun as [Dv2 Hrun].
      unfold sholds in Dv2. cbn [srel slhs srhs dvp] in Dv2. fold dd c in Dv2.
      apply divb_true in Dv2; [|lia].
      assert (Hc : dd = c * (dd / c)) by (apply Z.div_exact; lia).
      assert (Hk : 1 <= dd / c) by nia.
      refine (Step (SC 1) (SFloor rd cs) _ _ _ Hrun).
      * cbn. lia.
      * cbn [seval]. rewrite zfloor_pos by lia. exact Hk.
      * intros x Hx. cbn [seval]. rewrite zfloor_pos by lia. fold c dd.
        rewrite Z.min_l by lia. rewrite Z.mod_1_r, Z.div_1_r.
        assert (E : x * dd = (x * (dd / c)) * c) by nia.
        rewrite E, Z.mod_mul, Z.div_mul by lia. split; ring.
Qed.

(** [compose_leaf] is right: at every assignment where its concrete run
    returns, a leaf [s:d] of B becomes modes whose extents multiply to [s]
    and which compute [A(c · d)] on [[0, s)], [A] given by the modes [ax]
    it composes with ([coalesce_x(A)]: [evalA], the last mode unbounded). *)
Theorem cleaf_correct : forall H e ax s d out pcs,
  hooks_sound H e -> ax <> [] ->
  Forall (fun m => 1 <= seval e (fst m)) ax ->
  1 <= seval e s ->
  crun (sholds e) (cleaf H ax s d) = Some (out, pcs) ->
  prodB e out = seval e s /\
  forall x, 0 <= x < seval e s -> evalB e out x = evalA (map (zm e) ax) (x * seval e d).
Proof.
  intros H e ax s d out pcs HS Hne Hpos Hs Hrun.
  unfold cleaf in Hrun. cbn [crun] in Hrun.
  destruct (sholds e (eqp d (SC 0))) eqn:D0; rewrite ?D0 in Hrun.
  - cbn in Hrun. injection Hrun as <- <-.
    unfold sholds in D0. cbn [srel slhs srhs eqp seval] in D0. apply Z.eqb_eq in D0.
    split; [cbn [prodB seval]; ring|].
    intros x Hx. rewrite D0, Z.mul_0_r, evalA_zero. cbn [evalB seval]. ring.
  - apply crun_req in Hrun as [D1 Hrun].
    unfold sholds in D1. cbn [srel slhs srhs gep seval] in D1. apply Z.leb_le in D1.
    rewrite crun_bind in Hrun.
    set (L := last ax (SC 1, SC 0)).
    assert (Eax : ax = removelast ax ++ [L]) by (apply app_removelast_last; exact Hne).
    assert (Hpos' : Forall (fun m => 1 <= seval e (fst m)) (removelast ax)).
    { rewrite Eax in Hpos. apply Forall_app in Hpos. tauto. }
    destruct (crun (sholds e) (cwalk H (removelast ax) 0 s d [] [])) as [[[[rs' rd'] out'] pcs']|] eqn:W;
      [|discriminate].
    destruct (cwalk_ok H e L (removelast ax) 0 s d [] [] rs' rd' out' pcs' HS Hpos' Hs D1 W)
      as (nw & Eo & R1 & R2 & Pr & Ev).
    cbn [app] in Eo. subst out'.
    assert (Em : map (zm e) ax = map (zm e) (removelast ax) ++ [zm e L])
      by (rewrite Eax at 1; rewrite map_app; reflexivity).
    rewrite Em. unfold last_stride in Hrun. fold L in Hrun.
    destruct nw as [|n0 nw0].
    + cbn in Hrun. injection Hrun as <- <-. cbn [prodB] in Pr |- *.
      split; [lia|]. exact Ev.
    + cbn [crun] in Hrun. remember (n0 :: nw0) as nw eqn:Enw.
      destruct (sholds e (eqp rs' (SC 1))) eqn:D2; rewrite ?D2 in Hrun; cbn in Hrun;
        injection Hrun as <- <-;
        unfold sholds in D2; cbn [srel slhs srhs eqp seval] in D2.
      * apply Z.eqb_eq in D2. split; [lia|].
        intros x Hx. rewrite <- Ev by exact Hx. symmetry. apply evalB_app_one. exact D2.
      * split; [rewrite prodB_app; cbn [prodB]; lia|]. exact Ev.
Qed.

(** ** Composition, proved right where its concrete run returns *)
Definition pos_l (e : env) (l : list (sexpr * sexpr)) : Prop := Forall (fun m => 1 <= seval e (fst m)) l.

Lemma prodB_pos : forall e l, pos_l e l -> 1 <= prodB e l.
Proof.
  intros e l H. induction H as [|[s d] l Hs Hl IH]; cbn [prodB fst] in *; nia.
Qed.

Lemma evalB_app : forall e l1 l2 i, pos_l e l1 -> 0 <= i ->
  evalB e (l1 ++ l2) i = evalB e l1 i + evalB e l2 (i / prodB e l1).
Proof.
  intros e l1 l2. induction l1 as [|[s d] l1 IH]; intros i Hp Hi; cbn [app evalB prodB].
  - rewrite Z.div_1_r. ring.
  - inversion Hp as [|? ? Hs Hp']; subst. cbn [fst] in Hs.
    rewrite IH by (auto; apply Z.div_pos; lia).
    rewrite Z.div_div by (try lia; pose proof (prodB_pos e l1 Hp'); lia). ring.
Qed.

Lemma zmod_mul_r : forall a b c, 0 < b -> 0 < c -> a mod (b * c) = a mod b + b * ((a / b) mod c).
Proof. intros. rewrite !Z.mod_eq by nia. rewrite <- Z.div_div by lia. ring. Qed.

(** The local rewrites of [coalesce]: a size-1 mode is transparent, and
    [(s0, d0), (s, s0·d0)] is [(s0·s, d0)]. *)
Lemma evalB_one : forall e s d l i, seval e s = 1 -> evalB e ((s, d) :: l) i = evalB e l i.
Proof. intros. cbn [evalB]. rewrite H, Z.mod_1_r, Z.div_1_r. ring. Qed.

Lemma evalB_merge : forall e s0 d0 s d l i, 1 <= seval e s0 -> 1 <= seval e s ->
  seval e s0 * seval e d0 = seval e d -> 0 <= i ->
  evalB e ((s0, d0) :: (s, d) :: l) i = evalB e ((SMul s0 s, d0) :: l) i.
Proof.
  intros e s0 d0 s d l i H0 H1 Hd Hi. cbn [evalB seval].
  rewrite zmod_mul_r, Z.div_div by lia. rewrite <- Hd. ring.
Qed.

Definition fsd (t : sexpr * sexpr * bool) : sexpr * sexpr := (fst (fst t), snd (fst t)).

Lemma prodB_one : forall e s d l, seval e s = 1 -> prodB e ((s, d) :: l) = prodB e l.
Proof. intros. cbn [prodB]. rewrite H. ring. Qed.

(** Appending a mode at the end changes nothing on [[0, prodB pre)]. *)
Lemma evalB_snoc_small : forall e pre m i, pos_l e pre -> 0 <= i < prodB e pre ->
  evalB e (pre ++ [m]) i = evalB e pre i.
Proof.
  intros e pre [s d] i Hp Hi. rewrite evalB_app by (auto; lia).
  rewrite (Z.div_small i) by lia. cbn [evalB]. rewrite ?Zmod_0_l, ?Zdiv_0_l. ring.
Qed.

Lemma pos_l_app : forall e l1 l2, pos_l e (l1 ++ l2) <-> pos_l e l1 /\ pos_l e l2.
Proof. intros. unfold pos_l. apply Forall_app. Qed.

Lemma pos_l_rev : forall e l, pos_l e (rev l) <-> pos_l e l.
Proof.
  intros e l. unfold pos_l. split; intro H.
  - rewrite <- (rev_involutive l). apply Forall_rev. exact H.
  - apply Forall_rev. exact H.
Qed.

Lemma coal_go_ok : forall H e extend ls out r,
  hooks_sound H e -> pos_l e ls -> pos_l e (map fsd out) ->
  crun (sholds e) (coal_go H extend ls out) = Some r ->
  pos_l e (map fsd r) /\
  prodB e (rev (map fsd out) ++ ls) <= prodB e (rev (map fsd r)) /\
  (forall i, 0 <= i < prodB e (rev (map fsd out) ++ ls) ->
     evalB e (rev (map fsd r)) i = evalB e (rev (map fsd out) ++ ls) i) /\
  ((out <> [] \/ (extend = true /\ ls <> [])) -> r <> []).
Proof.
  intros H e extend ls. induction ls as [|[s d] ls IH]; intros out r HS Hls Hout Hrun.
  - cbn in Hrun. injection Hrun as <-. rewrite app_nil_r.
    repeat split; auto; try lia. intros [Hn|[_ Hn]]; [exact Hn | congruence].
  - pose proof HS as (Hone & Hsame & Hpeek).
    inversion Hls as [|? ? Hs Hls']; subst. cbn [fst] in Hs.
    assert (Hro : pos_l e (rev (map fsd out))) by (apply pos_l_rev; exact Hout).
    set (Q := prodB e (rev (map fsd out))).
    assert (HQ : 1 <= Q) by (apply prodB_pos; exact Hro).
    (* pushing [(s, d)] keeps the list *)
    assert (Push : forall k, rev (map fsd ((s, d, k) :: out)) ++ ls = rev (map fsd out) ++ (s, d) :: ls).
    { intro k. cbn [map rev fsd fst snd]. rewrite <- app_assoc. reflexivity. }
    assert (PushIH : forall k r', crun (sholds e) (coal_go H extend ls ((s, d, k) :: out)) = Some r' ->
      pos_l e (map fsd r') /\
      prodB e (rev (map fsd out) ++ (s, d) :: ls) <= prodB e (rev (map fsd r')) /\
      (forall i, 0 <= i < prodB e (rev (map fsd out) ++ (s, d) :: ls) ->
         evalB e (rev (map fsd r')) i = evalB e (rev (map fsd out) ++ (s, d) :: ls) i) /\
      r' <> []).
    { intros k r' Hr'. rewrite <- (Push k).
      destruct (IH ((s, d, k) :: out) r' HS Hls' ltac:(constructor; [cbn; lia | exact Hout]) Hr') as (A1 & A2 & A3 & A4).
      repeat split; auto. apply A4. left. discriminate. }
    assert (Keep : forall kn, crun (sholds e) (match out with
        | (s0, d0, k) :: out' =>
            GBranch (eqp (SMul s0 d0) d) false (fun b =>
              if b then coal_go H extend ls ((SMul s0 s, d0, k || kn) :: out')
              else coal_go H extend ls ((s, d, kn) :: out))
        | [] => coal_go H extend ls [(s, d, kn)]
        end) = Some r ->
      pos_l e (map fsd r) /\
      prodB e (rev (map fsd out) ++ (s, d) :: ls) <= prodB e (rev (map fsd r)) /\
      (forall i, 0 <= i < prodB e (rev (map fsd out) ++ (s, d) :: ls) ->
         evalB e (rev (map fsd r)) i = evalB e (rev (map fsd out) ++ (s, d) :: ls) i) /\
      ((out <> [] \/ (extend = true /\ (s, d) :: ls <> [])) -> r <> [])).
    { intros kn Hr. destruct out as [|[[s0 d0] k] out'].
      - destruct (PushIH kn r Hr) as (A1 & A2 & A3 & A4). repeat split; auto.
      - cbn [crun] in Hr.
        destruct (sholds e (eqp (SMul s0 d0) d)) eqn:Mg; rewrite ?Mg in Hr.
        + unfold sholds in Mg. cbn [srel slhs srhs eqp seval] in Mg. apply Z.eqb_eq in Mg.
          inversion Hout as [|? ? Hs0 Hout']; subst. cbn [fst fsd] in Hs0.
          destruct (IH ((SMul s0 s, d0, (k || kn)%bool) :: out') r HS Hls'
                      ltac:(constructor; [cbn; nia | exact Hout']) Hr) as (A1 & A2 & A3 & A4).
          assert (L1 : rev (map fsd ((SMul s0 s, d0, (k || kn)%bool) :: out')) ++ ls =
                       rev (map fsd out') ++ (SMul s0 s, d0) :: ls)
            by (cbn [map rev fsd fst snd]; rewrite <- app_assoc; reflexivity).
          assert (L2 : rev (map fsd ((s0, d0, k) :: out')) ++ (s, d) :: ls =
                       rev (map fsd out') ++ (s0, d0) :: (s, d) :: ls)
            by (cbn [map rev fsd fst snd]; rewrite <- app_assoc; reflexivity).
          rewrite L1 in A2, A3. rewrite L2.
          assert (Hro' : pos_l e (rev (map fsd out'))) by (apply pos_l_rev; exact Hout').
          assert (P : prodB e (rev (map fsd out') ++ (s0, d0) :: (s, d) :: ls) =
                      prodB e (rev (map fsd out') ++ (SMul s0 s, d0) :: ls))
            by (rewrite !prodB_app; cbn [prodB seval]; ring).
          assert (E : forall i, 0 <= i ->
            evalB e (rev (map fsd out') ++ (s0, d0) :: (s, d) :: ls) i =
            evalB e (rev (map fsd out') ++ (SMul s0 s, d0) :: ls) i).
          { intros i Hi. rewrite !evalB_app by auto. f_equal. apply evalB_merge; try lia.
            apply Z.div_pos; [lia|]. pose proof (prodB_pos e _ Hro'). lia. }
          rewrite P. repeat split; auto.
          * intros i Hi. rewrite E by lia. apply A3. exact Hi.
          * intros _. apply A4. left. discriminate.
        + destruct (PushIH kn r Hr) as (A1 & A2 & A3 & A4). repeat split; auto. }
    cbn [coal_go] in Hrun.
    destruct (hpeek H (eqp s (SC 1))) as [[|]|] eqn:Pk.
    + apply Hpeek in Pk. unfold sholds in Pk. cbn [srel slhs srhs eqp seval] in Pk.
      apply Z.eqb_eq in Pk.
      destruct (extend && match ls with [] => true | _ => false end)%bool eqn:Last.
      * apply andb_true_iff in Last as [Ext Lls]. destruct ls; [|discriminate]. clear Lls.
        subst extend.
        assert (Pold : prodB e (rev (map fsd out) ++ [(s, d)]) = Q)
          by (rewrite prodB_app; cbn [prodB]; rewrite Pk; unfold Q; ring).
        rewrite Pold.
        destruct out as [|[[s0 d0] k] out'].
        -- cbn in Hrun. injection Hrun as <-. cbn in Q |- *. unfold Q in *.
           repeat split.
           ++ constructor; [cbn; lia | constructor].
           ++ lia.
           ++ intros i Hi. assert (i = 0) by lia. subst. reflexivity.
           ++ discriminate.
        -- cbn [crun] in Hrun.
           inversion Hout as [|? ? Hs0 Hout']; subst. cbn [fst fsd] in Hs0.
           destruct (sholds e (eqp (SMul s0 d0) d)) eqn:Mg; cbn in Hrun; injection Hrun as <-.
           ++ set (R := prodB e (rev (map fsd out'))).
              assert (HR : 1 <= R) by (apply prodB_pos, pos_l_rev; exact Hout').
              assert (QR : Q = R * seval e s0)
                by (unfold Q, R; cbn [map rev]; rewrite prodB_app; cbn [prodB fsd fst snd]; ring).
              cbn [map rev fsd fst snd].
              repeat split.
              ** constructor; [cbn; lia | exact Hout'].
              ** rewrite prodB_app. fold R. cbn [prodB seval fsd fst snd]. nia.
              ** intros i Hi. rewrite <- app_assoc. cbn [app].
                 rewrite !evalB_app by (try apply pos_l_rev; auto; lia). fold R.
                 f_equal. cbn [evalB seval fsd fst snd].
                 assert (Hj : 0 <= i / R < seval e s0)
                   by (split; [apply Z.div_pos; lia | apply Z.div_lt_upper_bound; lia]).
                 rewrite Pk, Z.mod_1_r, !Z.mod_small by lia.
                 ring.
              ** discriminate.
           ++ set (O := (s0, d0, k) :: out') in *.
              assert (Enew : rev (map fsd ((SC 2, d, true) :: O)) = rev (map fsd O) ++ [(SC 2, d)])
                by reflexivity.
              rewrite Enew. fold Q.
              repeat split.
              ** constructor; [cbn; lia | exact Hout].
              ** rewrite prodB_app. fold Q. cbn [prodB seval]. lia.
              ** intros i Hi. rewrite !evalB_snoc_small by (auto; lia). reflexivity.
              ** discriminate.
      * (* a size-1 leaf that is not A's extension: skipped *)
        destruct (IH out r HS Hls' Hout Hrun) as (A1 & A2 & A3 & A4).
        assert (E : forall i, 0 <= i ->
          evalB e (rev (map fsd out) ++ (s, d) :: ls) i = evalB e (rev (map fsd out) ++ ls) i).
        { intros i Hi. rewrite !evalB_app by auto. rewrite evalB_one by exact Pk. reflexivity. }
        assert (P : prodB e (rev (map fsd out) ++ (s, d) :: ls) = prodB e (rev (map fsd out) ++ ls))
          by (rewrite !prodB_app, prodB_one by exact Pk; reflexivity).
        rewrite P. repeat split; auto.
        { intros i Hi. rewrite E by lia. apply A3. lia. }
        intros [Hn|[Ext Hn]]; apply A4; [left; exact Hn|].
        right. split; [exact Ext|]. subst extend. destruct ls; [discriminate|]. discriminate.
    + exact (Keep true Hrun).
    + eapply Keep. exact Hrun.
Qed.

(** [coalesce_leaves_x] keeps A's function on A's domain, returns modes of
    extent [>= 1] whose sizes multiply to at least A's size, and (as
    composition's left operand) at least one mode. *)
Theorem coal_x_ok : forall H e extend ls ax,
  hooks_sound H e -> pos_l e ls ->
  crun (sholds e) (coal_x H extend ls) = Some ax ->
  pos_l e ax /\ prodB e ls <= prodB e ax /\
  (forall i, 0 <= i < prodB e ls -> evalB e ax i = evalB e ls i) /\
  (extend = true -> ls <> [] -> ax <> []).
Proof.
  intros H e extend ls ax HS Hls Hrun. unfold coal_x in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (coal_go H extend ls [])) as [r|] eqn:Cg; [|discriminate].
  destruct (coal_go_ok H e extend ls [] r HS Hls (Forall_nil _) Cg) as (A1 & A2 & A3 & A4).
  cbn [map rev app] in A2, A3.
  assert (Eax : ax = rev (map fsd r)).
  { rewrite <- map_rev. cbn zeta in Hrun.
    destruct (1 <? length (rev r))%nat; [rewrite crun_bind in Hrun;
      destruct (crun (sholds e) (coal_req (rev r))); [|discriminate]|];
      cbn in Hrun; injection Hrun as <-; reflexivity. }
  subst ax. repeat split; auto.
  - apply pos_l_rev. exact A1.
  - intros Ext Hne. intro E. apply (f_equal (@length _)) in E. rewrite rev_length, map_length in E.
    destruct r; [|discriminate]. apply (A4 (or_intror (conj Ext Hne))). reflexivity.
Qed.

Lemma evalA_evalB : forall e ax i, ax <> [] -> pos_l e ax -> 0 <= i < prodB e ax ->
  evalA (map (zm e) ax) i = evalB e ax i.
Proof.
  intros e ax. induction ax as [|[s d] ax IH]; intros i Hne Hp Hi; [congruence|].
  inversion Hp as [|? ? Hs Hp']; subst. cbn [fst] in Hs. cbn [prodB] in Hi.
  destruct ax as [|m ax].
  - cbn [map evalA evalB zm fst snd zstride prodB] in *. rewrite Z.mod_small by lia. ring.
  - rewrite map_cons, evalA_cons by discriminate. cbn [evalB zm fst snd zextent zstride].
    rewrite IH; [reflexivity | discriminate | exact Hp' |].
    pose proof (prodB_pos e _ Hp').
    split; [apply Z.div_pos; lia | apply Z.div_lt_upper_bound; lia].
Qed.

Lemma sleaves_tuple : forall l, sleaves (STuple (map (fun sd => SLeaf (fst sd) (snd sd)) l)) = l.
Proof.
  induction l as [|[s d] l IH]; [reflexivity|].
  cbn [map sleaves fst snd] in *. cbn [app]. f_equal. exact IH.
Qed.

Lemma from_leaves_ok : forall e l,
  prodB e (sleaves (from_leaves l)) = prodB e l /\
  forall x, evalB e (sleaves (from_leaves l)) x = evalB e l x.
Proof.
  intros e [|[s d] [|m l]].
  - cbn. split; [reflexivity|]. intro x. rewrite Z.mod_1_r. reflexivity.
  - split; reflexivity.
  - unfold from_leaves. rewrite sleaves_tuple. split; reflexivity.
Qed.

(** Composition with a rank-1 B, as Rust's symbolic [composition] runs
    it: wherever the concrete run returns (in particular under the facts
    and the guards Rust returns: [sop_run_sound]), the result has B's size
    and computes [A(c · d)] at every [c] of B's domain whose image is in
    A's domain. *)
Theorem scomposition_leaf_correct : forall H e a s d R,
  hooks_sound H e -> sleaves a <> [] -> pos_l e (sleaves a) -> 1 <= seval e s ->
  crun (sholds e) (scomposition H a (SLeaf s d)) = Some R ->
  prodB e (sleaves R) = seval e s /\
  forall c, 0 <= c < seval e s -> 0 <= c * seval e d < prodB e (sleaves a) ->
    evalB e (sleaves R) c = evalB e (sleaves a) (c * seval e d).
Proof.
  intros H e a s d R HS Hne Hpos Hs Hrun.
  unfold scomposition in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (coal_x H true (sleaves a))) as [ax|] eqn:Cx; [|discriminate].
  destruct (coal_x_ok H e true (sleaves a) ax HS Hpos Cx) as (X1 & X2 & X3 & X4).
  specialize (X4 eq_refl Hne).
  unfold cnode in Hrun. rewrite crun_bind in Hrun. cbn [cnode_p] in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (cleaf H ax s d)) as [[out pcs]|] eqn:Cl; [|discriminate].
  cbn [crun fst snd] in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (carry_checks ax 0 ([] ++ pcs))); [|discriminate].
  cbn in Hrun. injection Hrun as <-.
  destruct (cleaf_correct H e ax s d out pcs HS X4 X1 Hs Cl) as [P Ev].
  destruct (from_leaves_ok e out) as [FP FE].
  split; [rewrite FP; exact P|].
  intros c Hc Hcd. rewrite FE, Ev by exact Hc.
  rewrite evalA_evalB by (auto; lia). apply X3. exact Hcd.
Qed.

(** ** The tuple case of B: digits of A and the no-carry check *)

(** The load the pieces put in digit [k]: [Σ rd · (r − 1)]. *)
Definition pload (e : env) (k : nat) (pcs : list spiece) : Z :=
  fold_right (fun p acc => let '(j, rd, r) := p in
    (if Nat.eqb j k then seval e rd * (seval e r - 1) else 0) + acc) 0 pcs.

Lemma pload_app : forall e k a b, pload e k (a ++ b) = pload e k a + pload e k b.
Proof.
  intros e k a b. induction a as [|[[j rd] r] a IH]; [reflexivity|].
  cbn [app]. unfold pload in *. cbn [fold_right]. rewrite IH. ring.
Qed.

Lemma pload_nonneg : forall e k pcs,
  Forall (fun p => let '(_, rd, r) := p in 1 <= seval e rd /\ 1 <= seval e r) pcs -> 0 <= pload e k pcs.
Proof.
  intros e k pcs H. induction H as [|[[j rd] r] pcs Hp Hl IH]; [cbn; lia|].
  unfold pload in *. cbn [fold_right]. destruct (Nat.eqb j k); nia.
Qed.

Lemma pload_other : forall e k pcs, Forall (fun p => let '(j, _, _) := p in j <> k) pcs -> pload e k pcs = 0.
Proof.
  intros e k pcs H. induction H as [|[[j rd] r] pcs Hp Hl IH]; [reflexivity|].
  unfold pload in *. cbn [fold_right]. rewrite IH. destruct (Nat.eqb_spec j k); [congruence | ring].
Qed.

Lemma recompA_zero : forall ax n, recompA ax (repeat 0 n) = 0.
Proof. induction ax as [|m ax IH]; intros [|n]; cbn; auto; try (rewrite IH; ring). Qed.

Lemma dotA_zero : forall ax n, dotA ax (repeat 0 n) = 0.
Proof. induction ax as [|m ax IH]; intros [|n]; cbn; auto; try (rewrite IH; ring). Qed.

Definition piece_ok (e : env) (ext : nat -> Z) (lo hi : nat) (p : spiece) : Prop :=
  let '(j, rd, r) := p in (lo <= j)%nat /\ (j < hi)%nat /\ 1 <= seval e rd /\ 1 <= seval e r /\
    seval e rd * seval e r <= ext j.

(** The walk, digit by digit: [x · rd] has digits [D] over the suffix
    [init ++ [L]] of A's modes, the appended modes compute the dot
    product of [D] with the strides, and each digit but the last stays
    within the load of the pieces recorded in it. *)
Lemma cwalk_dig : forall H e L ext init i rs rd out pcs rs' rd' out' pcs',
  hooks_sound H e -> pos_l e init ->
  1 <= seval e rs -> 1 <= seval e rd ->
  (forall k, (k < length init)%nat -> ext (i + k)%nat = seval e (fst (nth k init (SC 1, SC 0)))) ->
  crun (sholds e) (cwalk H init i rs rd out pcs) = Some (rs', rd', out', pcs') ->
  exists nw np, out' = out ++ nw /\ pcs' = pcs ++ np /\ 1 <= seval e rs' /\ 1 <= seval e rd' /\
    prodB e nw * seval e rs' = seval e rs /\ pos_l e nw /\
    Forall (piece_ok e ext i (i + length init)) np /\
    forall x, 0 <= x < seval e rs -> exists D,
      length D = S (length init) /\ Forall (fun z => 0 <= z) D /\
      x * seval e rd = recompA (map (zm e) init ++ [zm e L]) D /\
      evalB e (nw ++ [(rs', SMul rd' (snd L))]) x = dotA (map (zm e) init ++ [zm e L]) D /\
      forall k, (k < length init)%nat -> nth k D 0 <= pload e (i + k) np.
Proof.
  intros H e L ext init. induction init as [|[cs cd] init IH];
    intros i rs rd out pcs rs' rd' out' pcs' HS Hpos Hrs Hrd Hext Hrun.
  - cbn in Hrun. injection Hrun as <- <- <- <-.
    exists [], []. rewrite !app_nil_r. split; [reflexivity|]. split; [reflexivity|].
    split; [lia|]. split; [lia|]. split; [cbn [prodB]; lia|]. split; [constructor|]. split; [constructor|].
    intros x Hx. exists [x * seval e rd]. split; [reflexivity|].
    split; [constructor; [nia | constructor]|].
    split; [cbn; ring|]. split; [|intros k Hk; cbn in Hk; lia].
    cbn [app evalB map dotA]. rewrite Z.mod_small by lia.
    unfold zm. cbn [seval fst snd zstride]. ring.
  - pose proof HS as HS0. destruct HS as [Hone [Hsame Hpeek]].
    inversion Hpos as [|? ? Hcs Hpos']; subst. cbn [fst] in Hcs.
    assert (Hext' : forall k, (k < length init)%nat ->
      ext (S i + k)%nat = seval e (fst (nth k init (SC 1, SC 0)))).
    { intros k Hk. replace (S i + k)%nat with (i + S k)%nat by lia. apply (Hext (S k)). cbn. lia. }
    assert (Hext0 : ext i = seval e cs) by (rewrite <- (Nat.add_0_r i) at 1; apply (Hext O); cbn; lia).
    cbn [cwalk] in Hrun.
    destruct (hone H rs) eqn:O1; rewrite ?O1 in Hrun.
    { cbn in Hrun. injection Hrun as <- <- <- <-.
      exists [], []. rewrite !app_nil_r. apply Hone in O1. split; [reflexivity|].
      split; [reflexivity|]. split; [lia|]. split; [lia|]. split; [cbn [prodB]; lia|].
      split; [constructor|]. split; [constructor|].
      intros x Hx. assert (x = 0) by lia. subst x.
      exists (repeat 0 (S (S (length init)))). split; [rewrite repeat_length; reflexivity|].
      split; [apply Forall_forall; intros z Hz; apply repeat_spec in Hz; lia|].
      rewrite recompA_zero, dotA_zero. split; [ring|]. split.
      - cbn [app evalB]. rewrite ?Zmod_0_l, ?Zdiv_0_l. ring.
      - intros k Hk. rewrite nth_repeat. cbn. lia. }
    set (r := seval e rs) in *. set (dd := seval e rd) in *. set (c := seval e cs) in *.
    cbn [crun] in Hrun.
    assert (Step : forall q nrd,
      1 <= seval e q -> 1 <= seval e nrd ->
      (Z.min (seval e q) r <> 1 -> dd * Z.min (seval e q) r <= c) ->
      (forall x, 0 <= x < r ->
         (x * dd) mod c = (x mod Z.min (seval e q) r) * dd /\
         (x * dd) / c = (x / Z.min (seval e q) r) * seval e nrd) ->
      crun (sholds e)
        (GBranch (gep q rs) (htyp H (gep q rs)) (fun bm =>
          let nw := if bm then rs else q in
          GBranch (eqp nw (SC 1)) false (fun b1 =>
            let out' := if b1 then out else out ++ [(nw, SMul rd cd)] in
            let pcs' := if b1 then pcs else pcs ++ [(i, rd, nw)] in
            if hsame H nw rs then cwalk H init (S i) (SC 1) nrd out' pcs'
            else GRequire (dvp nw rs) (cwalk H init (S i) (SFloor rs nw) nrd out' pcs'))))
        = Some (rs', rd', out', pcs') ->
      exists nw np, out' = out ++ nw /\ pcs' = pcs ++ np /\ 1 <= seval e rs' /\ 1 <= seval e rd' /\
        prodB e nw * seval e rs' = r /\ pos_l e nw /\
        Forall (piece_ok e ext i (i + length ((cs, cd) :: init))) np /\
        forall x, 0 <= x < r -> exists D,
          length D = S (length ((cs, cd) :: init)) /\ Forall (fun z => 0 <= z) D /\
          x * dd = recompA (map (zm e) ((cs, cd) :: init) ++ [zm e L]) D /\
          evalB e (nw ++ [(rs', SMul rd' (snd L))]) x =
            dotA (map (zm e) ((cs, cd) :: init) ++ [zm e L]) D /\
          forall k, (k < length ((cs, cd) :: init))%nat -> nth k D 0 <= pload e (i + k) np).
    { intros q nrd Hq Hnrd Hpc Hdig Hr2. cbn [crun] in Hr2.
      set (n := Z.min (seval e q) r) in *.
      set (nw0 := if sholds e (gep q rs) then rs else q) in *.
      assert (Hn : seval e nw0 = n).
      { unfold nw0, n, sholds. cbn [srel slhs srhs gep]. fold r.
        destruct (Z.leb_spec r (seval e q)) as [Hle|Hlt];
          [rewrite Z.min_r by lia | rewrite Z.min_l by lia]; reflexivity. }
      assert (Hnpos : 1 <= n) by (unfold n; lia).
      assert (Hnr : n <= r) by (unfold n; lia).
      set (out2 := if sholds e (eqp nw0 (SC 1)) then out else out ++ [(nw0, SMul rd cd)]) in *.
      set (pcs2 := if sholds e (eqp nw0 (SC 1)) then pcs else pcs ++ [(i, rd, nw0)]) in *.
      assert (Ho2 : (n = 1 /\ out2 = out /\ pcs2 = pcs) \/
                    (n <> 1 /\ out2 = out ++ [(nw0, SMul rd cd)] /\ pcs2 = pcs ++ [(i, rd, nw0)])).
      { unfold out2, pcs2, sholds. cbn [srel slhs srhs eqp seval]. rewrite Hn.
        destruct (Z.eqb_spec n 1); [left | right]; auto. }
      (* the rest extent after this digit, and the walk from there *)
      assert (Next : exists rs1, 1 <= seval e rs1 /\ seval e rs1 * n = r /\
        crun (sholds e) (cwalk H init (S i) rs1 nrd out2 pcs2) = Some (rs', rd', out', pcs')).
      { destruct (hsame H nw0 rs) eqn:HSm; rewrite ?HSm in Hr2.
        - apply Hsame in HSm. fold r in HSm. exists (SC 1). cbn [seval]. split; [lia|].
          split; [lia | exact Hr2].
        - apply crun_req in Hr2 as [Dv Hr2].
          unfold sholds in Dv. cbn [srel slhs srhs dvp] in Dv. rewrite Hn in Dv. fold r in Dv.
          apply divb_true in Dv; [|lia].
          assert (Hex : r = n * (r / n)) by (apply Z.div_exact; lia).
          exists (SFloor rs nw0). cbn [seval]. rewrite Hn, zfloor_pos by lia. fold r.
          split; [nia|]. split; [lia | exact Hr2]. }
      destruct Next as (rs1 & Hrs1 & Hrn & Hr3).
      destruct (IH (S i) rs1 nrd out2 pcs2 rs' rd' out' pcs' HS0 Hpos' Hrs1 Hnrd Hext' Hr3)
        as (nw' & np' & Eo & Ep & R1 & R2 & Pr & Pn & Fp & Ev).
      assert (Hrange : forall x, 0 <= x < r -> 0 <= x / n < seval e rs1).
      { intros x Hx. split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
      destruct Ho2 as [[N1 [Eq2 Ep2]] | [N1 [Eq2 Ep2]]]; rewrite Eq2 in Eo; rewrite Ep2 in Ep.
      + exists nw', np'. split; [exact Eo|]. split; [exact Ep|]. split; [exact R1|]. split; [exact R2|].
        split; [rewrite N1 in Hrn; lia|]. split; [exact Pn|].
        split.
        { eapply Forall_impl; [|exact Fp]. intros [[j prd] pr] (A & B & C). cbn [length].
          split; [lia|]. split; [lia | exact C]. }
        intros x Hx. rewrite N1 in Hrange, Hdig.
        destruct (Ev x ltac:(pose proof (Hrange x Hx); rewrite Z.div_1_r in *; lia))
          as (D' & L1 & F1 & Rc & Dt & Bd).
        exists (0 :: D'). split; [cbn; lia|]. split; [constructor; [lia | exact F1]|].
        destruct (Hdig x Hx) as [M Dq]. rewrite Z.mod_1_r, Z.div_1_r in *.
        split.
        * cbn [map app recompA zm fst snd zextent]. fold c.
          rewrite (Z.div_mod (x * dd) c) by lia. rewrite M, Dq, <- Rc. ring.
        * split.
          -- rewrite Dt. cbn [map app dotA]. ring.
          -- intros [|k] Hk.
             ++ cbn [nth]. rewrite pload_other; [lia|].
                eapply Forall_impl; [|exact Fp]. intros [[j prd] pr] (A & _). lia.
             ++ cbn [nth]. replace (i + S k)%nat with (S i + k)%nat by lia. apply Bd. cbn in Hk. lia.
      + exists ((nw0, SMul rd cd) :: nw'), ((i, rd, nw0) :: np').
        split; [rewrite Eo, <- app_assoc; reflexivity|].
        split; [rewrite Ep, <- app_assoc; reflexivity|].
        split; [exact R1|]. split; [exact R2|].
        split; [cbn [prodB]; rewrite Hn, <- Z.mul_assoc, Pr; lia|].
        split; [constructor; [cbn [fst]; rewrite Hn; lia | exact Pn]|].
        split.
        { constructor.
          - cbn. split; [lia|]. split; [lia|]. split; [lia|]. split; [lia|]. rewrite Hn, Hext0.
            apply Hpc. exact N1.
          - eapply Forall_impl; [|exact Fp]. intros [[j prd] pr] (A & B & C). cbn [length].
            split; [lia|]. split; [lia | exact C]. }
        intros x Hx.
        destruct (Ev (x / n) (Hrange x Hx)) as (D' & L1 & F1 & Rc & Dt & Bd).
        destruct (Hdig x Hx) as [M Dq]. fold n in M, Dq.
        exists ((x mod n) * dd :: D'). split; [cbn; lia|].
        split; [constructor; [pose proof (Z.mod_pos_bound x n); nia | exact F1]|].
        split.
        * cbn [map app recompA zm fst snd zextent]. fold c.
          rewrite (Z.div_mod (x * dd) c) at 1 by lia. rewrite M, Dq, <- Rc. ring.
        * split.
          -- cbn [app evalB]. rewrite Hn, Dt. cbn [map app dotA zm fst snd zstride seval]. fold dd. ring.
          -- intros [|k] Hk.
             ++ cbn [nth]. unfold pload. cbn [fold_right]. rewrite Nat.add_0_r, Nat.eqb_refl, Hn. fold (pload e i np').
                rewrite pload_other by (eapply Forall_impl; [|exact Fp];
                                        intros [[j prd] pr] (A & _); lia).
                pose proof (Z.mod_pos_bound x n). nia.
             ++ cbn [nth]. unfold pload. cbn [fold_right]. fold (pload e (i + S k) np').
                destruct (Nat.eqb_spec i (i + S k)); [lia|].
                replace (i + S k)%nat with (S i + k)%nat by lia.
                specialize (Bd k ltac:(cbn in Hk; lia)). lia. }
    destruct (sholds e (dvp rd cs)) eqn:Dv; rewrite ?Dv in Hrun.
    + unfold sholds in Dv. cbn [srel slhs srhs dvp] in Dv. fold dd c in Dv.
      apply divb_true in Dv; [|lia].
      assert (Hc : c = dd * (c / dd)) by (apply Z.div_exact; lia).
      assert (Hq : 1 <= c / dd) by nia.
      refine (Step (SFloor cs rd) (SC 1) _ _ _ _ Hrun).
      * cbn [seval]. rewrite zfloor_pos by lia. exact Hq.
      * cbn. lia.
      * intros _. cbn [seval]. rewrite zfloor_pos by lia. fold c dd.
        pose proof (Z.le_min_l (c / dd) r). nia.
      * intros x Hx. cbn [seval]. rewrite zfloor_pos by lia. fold c dd.
        set (q := c / dd) in *.
        destruct (Z.le_gt_cases q r) as [Hqr|Hqr].
        -- rewrite Z.min_l by lia.
           rewrite Hc, (Z.mul_comm dd q), Z.mul_mod_distr_r, Z.div_mul_cancel_r by lia. split; ring.
        -- rewrite Z.min_r by lia.
           rewrite (Z.mod_small (x * dd)), (Z.div_small (x * dd)), (Z.mod_small x r), (Z.div_small x r)
             by nia. split; ring.
    + apply crun_req in Hrun as [Dv2 Hrun].
      unfold sholds in Dv2. cbn [srel slhs srhs dvp] in Dv2. fold dd c in Dv2.
      apply divb_true in Dv2; [|lia].
      assert (Hc : dd = c * (dd / c)) by (apply Z.div_exact; lia).
      assert (Hk : 1 <= dd / c) by nia.
      refine (Step (SC 1) (SFloor rd cs) _ _ _ _ Hrun).
      * cbn. lia.
      * cbn [seval]. rewrite zfloor_pos by lia. exact Hk.
      * intros N. exfalso. apply N. cbn [seval]. lia.
      * intros x Hx. cbn [seval]. rewrite zfloor_pos by lia. fold c dd.
        rewrite Z.min_l by lia. rewrite Z.mod_1_r, Z.div_1_r.
        assert (E : x * dd = (x * (dd / c)) * c) by nia.
        rewrite E, Z.mod_mul, Z.div_mul by lia. split; ring.
Qed.

Definition aext (e : env) (ax : list (sexpr * sexpr)) (k : nat) : Z := seval e (fst (nth k ax (SC 1, SC 0))).

Lemma cleaf_dig : forall H e ax s d out pcs,
  hooks_sound H e -> ax <> [] -> pos_l e ax -> 1 <= seval e s ->
  crun (sholds e) (cleaf H ax s d) = Some (out, pcs) ->
  prodB e out = seval e s /\ pos_l e out /\ Forall (piece_ok e (aext e ax) 0 (length ax - 1)) pcs /\
  forall x, 0 <= x < seval e s -> exists D,
    length D = length ax /\ Forall (fun z => 0 <= z) D /\
    x * seval e d = recompA (map (zm e) ax) D /\ evalB e out x = dotA (map (zm e) ax) D /\
    forall k, (k < length ax - 1)%nat -> nth k D 0 <= pload e k pcs.
Proof.
  intros H e ax s d out pcs HS Hne Hpos Hs Hrun.
  unfold cleaf in Hrun. cbn [crun] in Hrun.
  destruct (sholds e (eqp d (SC 0))) eqn:D0; rewrite ?D0 in Hrun.
  - cbn in Hrun. injection Hrun as <- <-.
    unfold sholds in D0. cbn [srel slhs srhs eqp seval] in D0. apply Z.eqb_eq in D0.
    split; [cbn [prodB seval]; ring|]. split; [constructor; [cbn; lia | constructor]|]. split; [constructor|].
    intros x Hx. exists (repeat 0 (length ax)). split; [apply repeat_length|].
    split; [apply Forall_forall; intros z Hz; apply repeat_spec in Hz; lia|].
    rewrite recompA_zero, dotA_zero, D0. split; [ring|]. split.
    + cbn [evalB seval]. ring.
    + intros k Hk. rewrite nth_repeat. cbn. lia.
  - apply crun_req in Hrun as [D1 Hrun].
    unfold sholds in D1. cbn [srel slhs srhs gep seval] in D1. apply Z.leb_le in D1.
    rewrite crun_bind in Hrun.
    set (L := last ax (SC 1, SC 0)).
    assert (Eax : ax = removelast ax ++ [L]) by (apply app_removelast_last; exact Hne).
    assert (Hlen : length (removelast ax) = (length ax - 1)%nat)
      by (rewrite Eax at 2; rewrite app_length; cbn; lia).
    assert (Hpos' : pos_l e (removelast ax)).
    { unfold pos_l. rewrite Eax in Hpos. apply Forall_app in Hpos. tauto. }
    assert (Hext : forall k, (k < length (removelast ax))%nat ->
      aext e ax (0 + k)%nat = seval e (fst (nth k (removelast ax) (SC 1, SC 0)))).
    { intros k Hk. unfold aext. cbn [Nat.add]. rewrite Eax at 1. rewrite app_nth1 by exact Hk.
      reflexivity. }
    destruct (crun (sholds e) (cwalk H (removelast ax) 0 s d [] [])) as [[[[rs' rd'] out'] pcs']|] eqn:W;
      [|discriminate].
    destruct (cwalk_dig H e L (aext e ax) (removelast ax) 0 s d [] [] rs' rd' out' pcs' HS Hpos' Hs D1
                Hext W) as (nw & np & Eo & Ep & R1 & R2 & Pr & Pn & Fp & Ev).
    cbn [app] in Eo, Ep. subst out' pcs'.
    assert (Em : map (zm e) ax = map (zm e) (removelast ax) ++ [zm e L])
      by (rewrite Eax at 1; rewrite map_app; reflexivity).
    rewrite Em. rewrite Hlen in Fp. cbn [Nat.add] in Fp.
    unfold last_stride in Hrun. fold L in Hrun.
    assert (Hl2 : length ax = S (length (removelast ax))) by (rewrite Eax at 1; rewrite app_length; cbn; lia).
    destruct nw as [|n0 nw0].
    + cbn in Hrun. injection Hrun as <- <-. cbn [prodB] in Pr |- *.
      split; [lia|]. split; [constructor; [cbn [fst]; lia | constructor]|]. split; [exact Fp|].
      intros x Hx. destruct (Ev x Hx) as (D & A1 & A2 & A3 & A4 & A5). exists D.
      rewrite Hl2. split; [exact A1|]. split; [exact A2|]. split; [exact A3|]. split; [exact A4|].
      intros k Hk. apply A5. lia.
    + cbn [crun] in Hrun. remember (n0 :: nw0) as nw eqn:Enw.
      destruct (sholds e (eqp rs' (SC 1))) eqn:D2; rewrite ?D2 in Hrun; cbn in Hrun;
        injection Hrun as <- <-;
        unfold sholds in D2; cbn [srel slhs srhs eqp seval] in D2.
      * apply Z.eqb_eq in D2. split; [lia|]. split; [subst; assumption|]. split; [exact Fp|].
        intros x Hx. destruct (Ev x Hx) as (D & A1 & A2 & A3 & A4 & A5). exists D.
        rewrite Hl2. split; [exact A1|]. split; [exact A2|]. split; [exact A3|].
        split; [rewrite <- A4; symmetry; apply evalB_app_one; exact D2|].
        intros k Hk. apply A5. lia.
      * split; [rewrite prodB_app; cbn [prodB]; lia|].
        split; [apply pos_l_app; split; [subst; assumption | constructor; [cbn [fst]; lia | constructor]]|].
        split; [exact Fp|].
        intros x Hx. destruct (Ev x Hx) as (D & A1 & A2 & A3 & A4 & A5). exists D.
        rewrite Hl2. split; [exact A1|]. split; [exact A2|]. split; [exact A3|]. split; [exact A4|].
        intros k Hk. apply A5. lia.
Qed.

Fixpoint vadd (a b : list Z) : list Z :=
  match a, b with x :: a', y :: b' => (x + y) :: vadd a' b' | _, _ => [] end.

Lemma vadd_length : forall a b, length a = length b -> length (vadd a b) = length a.
Proof. induction a as [|x a IH]; intros [|y b] H; cbn in *; auto; discriminate. Qed.

Lemma vadd_nth : forall a b k, length a = length b -> nth k (vadd a b) 0 = nth k a 0 + nth k b 0.
Proof.
  induction a as [|x a IH]; intros [|y b] k H; cbn in *; try discriminate.
  - destruct k; reflexivity.
  - destruct k; [reflexivity|]. apply IH. lia.
Qed.

Lemma vadd_nonneg : forall a b, Forall (fun z => 0 <= z) a -> Forall (fun z => 0 <= z) b ->
  Forall (fun z => 0 <= z) (vadd a b).
Proof.
  induction a as [|x a IH]; intros [|y b] Ha Hb; cbn; try constructor.
  inversion Ha; inversion Hb; subst. lia. inversion Ha; inversion Hb; subst. apply IH; auto.
Qed.

Lemma recompA_vadd : forall ax a b, length a = length ax -> length b = length ax ->
  recompA ax (vadd a b) = recompA ax a + recompA ax b.
Proof.
  induction ax as [|m ax IH]; intros [|x a] [|y b] Ha Hb; cbn in *; try discriminate; try ring.
  rewrite IH by lia. ring.
Qed.

Lemma dotA_vadd : forall ax a b, length a = length ax -> length b = length ax ->
  dotA ax (vadd a b) = dotA ax a + dotA ax b.
Proof.
  induction ax as [|m ax IH]; intros [|x a] [|y b] Ha Hb; cbn in *; try discriminate; try ring.
  rewrite IH by lia. ring.
Qed.

Lemma evalB_mod : forall e l c, pos_l e l -> 0 <= c -> evalB e l c = evalB e l (c mod prodB e l).
Proof.
  intros e l. induction l as [|[s d] l IH]; intros c Hp Hc; [reflexivity|].
  inversion Hp as [|? ? Hs Hp']; subst. cbn [fst] in Hs. cbn [evalB prodB].
  pose proof (prodB_pos e l Hp') as HP.
  rewrite zmod_mul_r by lia.
  assert (H0 : 0 <= c mod seval e s < seval e s) by (apply Z.mod_pos_bound; lia).
  assert (H1 : 0 <= (c / seval e s) mod prodB e l < prodB e l) by (apply Z.mod_pos_bound; lia).
  rewrite (Z.mul_comm (seval e s) ((c / seval e s) mod prodB e l)).
  rewrite Z.mod_add, Z.div_add by lia.
  rewrite Z.mod_mod, (Z.div_small (c mod seval e s)) by lia.
  rewrite IH by (auto; apply Z.div_pos; lia). rewrite ?Z.add_0_l. reflexivity.
Qed.

(** What [cnode_p] gives for a subtree [b] of B: the pieces it records,
    B's size kept, and at every index [c] of [b]'s domain a digit vector
    of [b(c)] over A's modes whose dot product with the strides is the
    result there, each digit within the load of the recorded pieces. *)
Definition node_ok (e : env) (ax : list (sexpr * sexpr)) (b t : stree) (np : list spiece) : Prop :=
  Forall (piece_ok e (aext e ax) 0 (length ax - 1)) np /\
  prodB e (sleaves t) = prodB e (sleaves b) /\
  forall c, 0 <= c < prodB e (sleaves b) -> exists D,
    length D = length ax /\ Forall (fun z => 0 <= z) D /\
    evalB e (sleaves b) c = recompA (map (zm e) ax) D /\
    evalB e (sleaves t) c = dotA (map (zm e) ax) D /\
    forall k, (k < length ax - 1)%nat -> nth k D 0 <= pload e k np.

Lemma node_ok_nil : forall e ax, node_ok e ax (STuple []) (STuple []) [].
Proof.
  intros e ax. split; [constructor|]. split; [reflexivity|].
  intros c Hc. cbn in Hc. assert (c = 0) by lia. subst c.
  exists (repeat 0 (length ax)). split; [apply repeat_length|].
  split; [apply Forall_forall; intros z Hz; apply repeat_spec in Hz; lia|].
  rewrite recompA_zero, dotA_zero. split; [reflexivity|]. split; [reflexivity|].
  intros k Hk. rewrite nth_repeat. cbn. lia.
Qed.

Lemma sleaves_cons : forall m ms, sleaves (STuple (m :: ms)) = sleaves m ++ sleaves (STuple ms).
Proof. reflexivity. Qed.

(** A tuple node from its first child and the rest. *)
Lemma node_ok_cons : forall e ax m t ms ts np1 np2,
  pos_l e (sleaves m) -> pos_l e (sleaves t) ->
  node_ok e ax m t np1 -> node_ok e ax (STuple ms) (STuple ts) np2 ->
  node_ok e ax (STuple (m :: ms)) (STuple (t :: ts)) (np1 ++ np2).
Proof.
  intros e ax m t ms ts np1 np2 Pm Pt (F1 & S1 & E1) (F2 & S2 & E2).
  split; [apply Forall_app; auto|].
  rewrite !sleaves_cons, !prodB_app, S1, S2. split; [reflexivity|].
  intros c Hc.
  pose proof (prodB_pos e _ Pm) as Hm.
  assert (Hc1 : 0 <= c mod prodB e (sleaves m) < prodB e (sleaves m)) by (apply Z.mod_pos_bound; lia).
  assert (Hc2 : 0 <= c / prodB e (sleaves m) < prodB e (sleaves (STuple ms))).
  { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
  destruct (E1 (c mod prodB e (sleaves m)) Hc1) as (D1 & L1 & N1 & R1 & T1 & B1).
  destruct (E2 (c / prodB e (sleaves m)) Hc2) as (D2 & L2 & N2 & R2 & T2 & B2).
  exists (vadd D1 D2).
  split; [rewrite vadd_length; lia|]. split; [apply vadd_nonneg; auto|].
  assert (Hlm : length D1 = length (map (zm e) ax)) by (rewrite map_length; exact L1).
  assert (Hlm2 : length D2 = length (map (zm e) ax)) by (rewrite map_length; exact L2).
  rewrite recompA_vadd, dotA_vadd by assumption.
  rewrite !evalB_app by (auto; lia). rewrite S1.
  rewrite (evalB_mod e (sleaves m)), (evalB_mod e (sleaves t)) by (auto; lia). rewrite S1.
  rewrite <- R1, <- R2, <- T1, <- T2. split; [reflexivity|]. split; [reflexivity|].
  intros k Hk. rewrite vadd_nth by lia. rewrite pload_app.
  specialize (B1 k Hk). specialize (B2 k Hk). lia.
Qed.

Fixpoint cnode_list (H : hooks) (ax : list (sexpr * sexpr)) (ms : list stree) (pcs : list spiece)
    : gcomp spred (list stree * list spiece) :=
  match ms with
  | [] => GRet ([], pcs)
  | m :: r => gbind (cnode_p H ax m pcs) (fun tp =>
                gbind (cnode_list H ax r (snd tp)) (fun tsp => GRet (fst tp :: fst tsp, snd tsp)))
  end.


Fixpoint tsize (t : stree) : nat :=
  match t with
  | SLeaf _ _ => 1
  | STuple ms => S ((fix go (l : list stree) : nat :=
                      match l with [] => O | m :: r => (tsize m + go r)%nat end) ms)
  end.

Lemma tsize_cons : forall m ms, tsize (STuple (m :: ms)) = (tsize m + tsize (STuple ms))%nat.
Proof. intros. cbn [tsize]. lia. Qed.

Lemma tsize_pos : forall t, (1 <= tsize t)%nat.
Proof. intros [s d | ms]; cbn; lia. Qed.

Lemma evalB_leaf : forall e s d c, 0 <= c < seval e s -> evalB e [(s, d)] c = c * seval e d.
Proof. intros. cbn [evalB]. rewrite Z.mod_small by lia. ring. Qed.

Lemma cnode_p_dig : forall H e ax, hooks_sound H e -> ax <> [] -> pos_l e ax ->
  forall n b pcs t pcs', (tsize b < n)%nat -> pos_l e (sleaves b) ->
  crun (sholds e) (cnode_p H ax b pcs) = Some (t, pcs') ->
  exists np, pcs' = pcs ++ np /\ pos_l e (sleaves t) /\ node_ok e ax b t np.
Proof.
  intros H e ax HS Hne Hax n. induction n as [|n IH]; intros b pcs t pcs' Hn Hb Hrun; [lia|].
  destruct b as [s d | ms].
  - cbn [cnode_p] in Hrun. rewrite crun_bind in Hrun.
    destruct (crun (sholds e) (cleaf H ax s d)) as [[out np]|] eqn:Cl; [|discriminate].
    cbn in Hrun. injection Hrun as <- <-. exists np. split; [reflexivity|].
    inversion Hb as [|? ? Hs _]; subst. cbn [fst] in Hs.
    destruct (cleaf_dig H e ax s d out np HS Hne Hax Hs Cl) as (P & Po & F & Ev).
    destruct (from_leaves_ok e out) as [FP FE].
    split.
    { destruct out as [|o [|o' out]];
        [unfold pos_l; cbn [from_leaves sleaves]; apply Forall_cons; [cbn; lia | apply Forall_nil]
        | destruct o; exact Po |].
      destruct o as [s1 d1]. cbn [from_leaves]. rewrite sleaves_tuple. exact Po. }
    split; [exact F|]. split; [rewrite FP, P; cbn [sleaves prodB]; ring|].
    intros c Hc. cbn [sleaves prodB] in Hc. rewrite Z.mul_1_r in Hc.
    destruct (Ev c Hc) as (D & A1 & A2 & A3 & A4 & A5). exists D.
    split; [exact A1|]. split; [exact A2|].
    split; [cbn [sleaves]; rewrite evalB_leaf by lia; exact A3|].
    split; [rewrite FE; exact A4 | exact A5].
  - cbn [cnode_p] in Hrun. rewrite crun_bind in Hrun.
    match type of Hrun with context [crun (sholds e) (?g ms pcs)] => set (go := g) in Hrun end.
    assert (Ego : forall l p0, crun (sholds e) (go l p0) = crun (sholds e) (cnode_list H ax l p0)).
    { induction l as [|m l IHl]; intros p0; [reflexivity|].
      cbn [cnode_list].
      change (go (m :: l) p0) with (gbind (cnode_p H ax m p0) (fun tp0 =>
        gbind (go l (snd tp0)) (fun tsp => GRet (fst tp0 :: fst tsp, snd tsp)))).
      rewrite !crun_bind. destruct (crun (sholds e) (cnode_p H ax m p0)) as [tp|]; [|reflexivity].
      rewrite !crun_bind, IHl. reflexivity. }
    rewrite Ego in Hrun. clear Ego go.
    destruct (crun (sholds e) (cnode_list H ax ms pcs)) as [[ts np0]|] eqn:Cl; [|discriminate].
    cbn in Hrun. injection Hrun as <- <-.
    revert pcs ts np0 Hn Hb Cl. induction ms as [|m ms IHms]; intros pcs ts np0 Hn Hb Cl.
    + cbn in Cl. injection Cl as <- <-. exists []. rewrite app_nil_r.
      split; [reflexivity|]. split; [constructor|]. apply node_ok_nil.
    + cbn [cnode_list] in Cl. rewrite crun_bind in Cl.
      destruct (crun (sholds e) (cnode_p H ax m pcs)) as [[t1 p1]|] eqn:C1; [|discriminate].
      cbn [fst snd] in Cl. rewrite crun_bind in Cl.
      destruct (crun (sholds e) (cnode_list H ax ms p1)) as [[ts2 p2]|] eqn:C2; [|discriminate].
      cbn in Cl. injection Cl as <- <-.
      rewrite tsize_cons in Hn. rewrite sleaves_cons in Hb. apply pos_l_app in Hb as [Hbm Hbs].
      pose proof (tsize_pos (STuple ms)).
      destruct (IH m pcs t1 p1 ltac:(lia) Hbm C1) as (np1 & E1 & Pt1 & N1).
      destruct (IHms p1 ts2 p2 ltac:(lia) Hbs C2) as (np2 & E2 & Pt2 & N2).
      exists (np1 ++ np2). split; [rewrite E2, E1, app_assoc; reflexivity|].
      split; [rewrite sleaves_cons; apply pos_l_app; auto|].
      apply node_ok_cons; auto.
Qed.

Fixpoint psum (e : env) (l : list spiece) : Z :=
  match l with [] => 0 | (_, rd, r) :: l' => seval e rd * (seval e r - 1) + psum e l' end.

Lemma sreach_go : forall e l acc,
  seval e (fold_left (fun acc p => let '(_, rd, r) := p in SAdd acc (SMul rd (SSub r (SC 1)))) l acc) =
  seval e acc + psum e l.
Proof.
  intros e l. induction l as [|[[j rd] r] l IH]; intros acc; cbn [fold_left psum]; [ring|].
  rewrite IH. cbn [seval]. ring.
Qed.

Definition dig_is (k : nat) (p : spiece) : bool := let '(j, _, _) := p in Nat.eqb j k.

Lemma pload_filter : forall e k l, pload e k l = psum e (filter (dig_is k) l).
Proof.
  intros e k l. induction l as [|[[j rd] r] l IH]; [reflexivity|].
  unfold pload in *. cbn [fold_right filter dig_is]. rewrite IH.
  destruct (Nat.eqb j k); cbn [psum]; ring.
Qed.

Lemma psum_one : forall e p, psum e [p] = let '(_, rd, r) := p in seval e rd * (seval e r - 1).
Proof. intros e [[j rd] r]. cbn. ring. Qed.

(** The no-carry check: each digit but the last holds at most its extent
    minus 1 of the pieces' loads. *)
Lemma carry_ok : forall e ext hi ax i pcs,
  Forall (piece_ok e ext 0 hi) pcs ->
  (forall k, (k < length ax)%nat -> ext (i + k)%nat = seval e (fst (nth k ax (SC 1, SC 0)))) ->
  pos_l e ax ->
  crun (sholds e) (carry_checks ax i pcs) = Some tt ->
  forall k, (S k < length ax)%nat -> pload e (i + k) pcs <= seval e (fst (nth k ax (SC 1, SC 0))) - 1.
Proof.
  intros e ext hi ax. induction ax as [|[cs cd] ax IH]; intros i pcs Fp Hext Hpos Hrun k Hk;
    [cbn in Hk; lia|].
  destruct ax as [|m ax']; [cbn in Hk; lia|].
  inversion Hpos as [|? ? Hcs Hpos']; subst. cbn [fst] in Hcs.
  assert (Hext' : forall k, (k < length (m :: ax'))%nat ->
    ext (S i + k)%nat = seval e (fst (nth k (m :: ax') (SC 1, SC 0)))).
  { intros k0 Hk0. replace (S i + k0)%nat with (i + S k0)%nat by lia. apply (Hext (S k0)). cbn in *. lia. }
  assert (Rest : crun (sholds e) (carry_checks (m :: ax') (S i) pcs) = Some tt ->
    pload e (i + k) pcs <= seval e (fst (nth k ((cs, cd) :: m :: ax') (SC 1, SC 0))) - 1 ->
    pload e (i + k) pcs <= seval e (fst (nth k ((cs, cd) :: m :: ax') (SC 1, SC 0))) - 1) by auto.
  destruct k as [|k].
  - cbn [nth fst]. rewrite Nat.add_0_r. rewrite pload_filter.
    cbn [carry_checks] in Hrun.
    destruct (length (filter (fun p => let '(j, _, _) := p in Nat.eqb j i) pcs) <? 2)%nat eqn:Lt.
    + apply Nat.ltb_lt in Lt.
      change (filter (fun p => let '(j, _, _) := p in Nat.eqb j i) pcs) with (filter (dig_is i) pcs) in Lt.
      assert (Hf : Forall (piece_ok e ext 0 hi) (filter (dig_is i) pcs)).
      { apply Forall_forall. intros x Hx. apply filter_In in Hx as [Hx _].
        rewrite Forall_forall in Fp. apply Fp. exact Hx. }
      assert (Hd : Forall (fun p => dig_is i p = true) (filter (dig_is i) pcs)).
      { apply Forall_forall. intros x Hx. apply filter_In in Hx as [_ Hx]. exact Hx. }
      destruct (filter (dig_is i) pcs) as [|p [|p' l]] eqn:Ef; cbn in Lt; try lia.
      * cbn. lia.
      * rewrite psum_one. destruct p as [[j rd] r].
        inversion Hf as [|? ? Hp _]; subst. unfold piece_ok in Hp. destruct Hp as (A & B & C & D & G).
        inversion Hd as [|? ? Dj _]; subst. cbn in Dj. apply Nat.eqb_eq in Dj. subst j.
        replace (ext i) with (ext (i + 0)%nat) in G by (rewrite Nat.add_0_r; reflexivity).
        rewrite (Hext O) in G by (cbn; lia). cbn [nth fst] in G. nia.
    + apply crun_req in Hrun as [Hc _].
      unfold sholds in Hc. cbn [srel slhs srhs gep seval] in Hc. apply Z.leb_le in Hc.
      unfold sreach in Hc. rewrite sreach_go in Hc. cbn [seval] in Hc.
      change (filter (fun p => let '(j, _, _) := p in Nat.eqb j i) pcs) with (filter (dig_is i) pcs) in Hc.
      lia.
  - cbn [carry_checks] in Hrun.
    assert (Hr : crun (sholds e) (carry_checks (m :: ax') (S i) pcs) = Some tt).
    { destruct (length (filter (fun p => let '(j, _, _) := p in Nat.eqb j i) pcs) <? 2)%nat;
        [exact Hrun | apply crun_req in Hrun as [_ Hrun]; exact Hrun]. }
    replace (i + S k)%nat with (S i + k)%nat by lia. cbn [nth].
    apply (IH (S i) pcs Fp Hext' Hpos' Hr k). cbn in Hk |- *. lia.
Qed.

Lemma nth_nonneg : forall D k, Forall (fun z => 0 <= z) D -> 0 <= nth k D 0.
Proof.
  intros D k H. revert k. induction H as [|x D Hx HD IH]; intros [|k]; cbn; auto; lia.
Qed.

(** [composition] as Rust's symbolic algebra runs it is right: wherever
    its concrete run returns (under the facts and the guards Rust returns:
    [sop_run_sound], the hooks sound), the result has B's size and
    [R(c) = A(B(c))] at every index [c] of B's domain with [B(c)] in A's
    domain, for nested A and B ([evalB] of the leaves: a layout's function
    on its domain). *)
Theorem scomposition_correct : forall H e a b R,
  hooks_sound H e -> sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  crun (sholds e) (scomposition H a b) = Some R ->
  prodB e (sleaves R) = prodB e (sleaves b) /\
  forall c, 0 <= c < prodB e (sleaves b) ->
    0 <= evalB e (sleaves b) c < prodB e (sleaves a) ->
    evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b) c).
Proof.
  intros H e a b R HS Hne Ha Hb Hrun.
  unfold scomposition in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (coal_x H true (sleaves a))) as [ax|] eqn:Cx; [|discriminate].
  destruct (coal_x_ok H e true (sleaves a) ax HS Ha Cx) as (X1 & X2 & X3 & X4).
  specialize (X4 eq_refl Hne).
  unfold cnode in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (cnode_p H ax b [])) as [[t pcs]|] eqn:Cn; [|discriminate].
  cbn [fst snd] in Hrun. rewrite crun_bind in Hrun.
  destruct (crun (sholds e) (carry_checks ax 0 pcs)) as [[]|] eqn:Cc; [|discriminate].
  cbn in Hrun. injection Hrun as <-.
  destruct (cnode_p_dig H e ax HS X4 X1 (S (tsize b)) b [] t pcs ltac:(lia) Hb Cn)
    as (np & Ep & Pt & F & Sz & E).
  cbn [app] in Ep. subst np.
  split; [exact Sz|].
  intros c Hc Hbc.
  destruct (E c Hc) as (D & L & N & Rc & Dt & Bd).
  assert (Carry : forall k, (S k < length ax)%nat -> pload e k pcs <= aext e ax k - 1).
  { intros k Hk. unfold aext.
    apply (carry_ok e (aext e ax) (length ax - 1) ax 0 pcs F); auto. }
  rewrite Dt, <- evalA_recomp.
  - rewrite <- Rc. rewrite evalA_evalB by (auto; lia). apply X3. lia.
  - unfold pos_ax. apply Forall_map. eapply Forall_impl; [|exact X1]. intros [s d] Hs. exact Hs.
  - rewrite map_length. exact L.
  - intros k. apply nth_nonneg. exact N.
  - intros k Hk. rewrite map_length in Hk.
    change mode0 with (zm e (SC 1, SC 0)). rewrite map_nth.
    specialize (Bd k ltac:(lia)). specialize (Carry k Hk). unfold aext in Carry.
    cbn [zm zextent]. lia.
Qed.

(** [logical_divide] by a layout ([divide_part]): its run is the run of
    [complement(B, size A)] followed by the composition of A with
    [(B, C)], so wherever it returns, [R(c) = A((B, C)(c))] on
    [(B, C)]'s domain where the image is in A's domain. *)
Lemma sdivide_composes : forall H h a b R,
  crun h (sdivide H a b) = Some R ->
  exists C, crun h (scomplement H b (ssize a)) = Some C /\
            crun h (scomposition H a (STuple [b; C])) = Some R.
Proof.
  intros H h a b R Hr. unfold sdivide in Hr. rewrite crun_bind in Hr.
  destruct (crun h (scomplement H b (ssize a))) as [C|]; [|discriminate].
  exists C. split; [reflexivity | exact Hr].
Qed.

Theorem sdivide_correct_if : forall H e a b R,
  hooks_sound H e -> sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  crun (sholds e) (sdivide H a b) = Some R ->
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    (pos_l e (sleaves C) ->
     prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
     forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
       0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
       evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c)).
Proof.
  intros H e a b R HS Hne Ha Hb Hr.
  destruct (sdivide_composes H (sholds e) a b R Hr) as (C & Hc & Hcomp).
  exists C. split; [exact Hc|]. intros HC.
  assert (E : sleaves (STuple [b; C]) = sleaves b ++ sleaves C)
    by (cbn [sleaves]; rewrite app_nil_r; reflexivity).
  assert (Hbc : pos_l e (sleaves (STuple [b; C]))) by (rewrite E; apply pos_l_app; auto).
  destruct (scomposition_correct H e a (STuple [b; C]) R HS Hne Ha Hbc Hcomp) as [P Ev].
  rewrite E, prodB_app in P, Ev. split; [exact P|]. exact Ev.
Qed.

(** The complement's modes have extents [>= 1] (so [sdivide_correct]
    needs no hypothesis on them). *)
Lemma cfilter_pos : forall e l r, pos_l e l -> crun (sholds e) (cfilter l) = Some r ->
  Forall (fun m => 1 <= seval e (fst m) /\ 1 <= seval e (snd m)) r.
Proof.
  intros e l. induction l as [|[s d] l IH]; intros r Hl Hr.
  - cbn in Hr. injection Hr as <-. constructor.
  - inversion Hl as [|? ? Hs Hl']; subst. cbn [fst] in Hs.
    cbn [cfilter crun] in Hr.
    destruct (sholds e (eqp d (SC 0))); [exact (IH r Hl' Hr)|].
    cbn [crun] in Hr. destruct (sholds e (eqp s (SC 1))); [exact (IH r Hl' Hr)|].
    apply crun_req in Hr as [Hd Hr]. unfold sholds in Hd. cbn [srel slhs srhs gep seval] in Hd.
    apply Z.leb_le in Hd. rewrite crun_bind in Hr.
    destruct (crun (sholds e) (cfilter l)) as [r'|] eqn:Cf; [|discriminate].
    cbn in Hr. injection Hr as <-. constructor; [cbn; lia | exact (IH r' Hl' eq_refl)].
Qed.

Lemma cinsert_forall : forall (P : sexpr * sexpr -> Prop) H e x rp r, P x -> Forall P rp ->
  crun (sholds e) (cinsert H x rp) = Some r -> Forall P r.
Proof.
  intros P H e x rp. induction rp as [|p rp IH]; intros r Px Hrp Hr.
  - cbn in Hr. injection Hr as <-. constructor; [exact Px | constructor].
  - inversion Hrp as [|? ? Pp Hrp']; subst. cbn [cinsert crun] in Hr.
    destruct (sholds e (gep (snd x) (snd p))).
    + cbn in Hr. injection Hr as <-. constructor; [exact Px | exact Hrp].
    + rewrite crun_bind in Hr. destruct (crun (sholds e) (cinsert H x rp)) as [r'|] eqn:Ci; [|discriminate].
      cbn in Hr. injection Hr as <-. constructor; [exact Pp | exact (IH r' Px Hrp' eq_refl)].
Qed.

Lemma csort_forall : forall (P : sexpr * sexpr -> Prop) H e ls rp r, Forall P ls -> Forall P rp ->
  crun (sholds e) (csort_go H ls rp) = Some r -> Forall P r.
Proof.
  intros P H e ls. induction ls as [|x ls IH]; intros rp r Hls Hrp Hr.
  - cbn in Hr. injection Hr as <-. apply Forall_rev. exact Hrp.
  - inversion Hls as [|? ? Px Hls']; subst. cbn [csort_go] in Hr. rewrite crun_bind in Hr.
    destruct (crun (sholds e) (cinsert H x rp)) as [rp'|] eqn:Ci; [|discriminate].
    exact (IH rp' r Hls' (cinsert_forall P H e x rp rp' Px Hrp Ci) Hr).
Qed.

Lemma cbuild_pos : forall e ls cur m r,
  Forall (fun m => 1 <= seval e (fst m) /\ 1 <= seval e (snd m)) ls ->
  1 <= seval e cur -> 1 <= seval e m ->
  crun (sholds e) (cbuild ls cur m) = Some r -> pos_l e r.
Proof.
  intros e ls. induction ls as [|[s d] ls IH]; intros cur m r Hls Hc Hm Hr.
  - cbn in Hr. injection Hr as <-. constructor; [|constructor]. cbn [fst seval]. unfold zceil.
    destruct (seval e cur <? 0) eqn:E; [apply Z.ltb_lt in E; lia|].
    assert ((- seval e m) / seval e cur < 0); [|lia].
    apply Z.div_lt_upper_bound; lia.
  - inversion Hls as [|? ? [Hs Hd] Hls']; subst. cbn [fst snd] in Hs, Hd.
    cbn [cbuild] in Hr. apply crun_req in Hr as [Dv Hr].
    unfold sholds in Dv. cbn [srel slhs srhs dvp] in Dv. apply divb_true in Dv; [|lia].
    rewrite crun_bind in Hr.
    destruct (crun (sholds e) (cbuild ls (SMul s d) m)) as [r'|] eqn:Cb; [|discriminate].
    cbn in Hr. injection Hr as <-. constructor.
    + cbn [fst seval]. rewrite zfloor_pos by lia.
      assert (Hk : seval e d = seval e cur * (seval e d / seval e cur)) by (apply Z.div_exact; lia).
      nia.
    + apply (IH (SMul s d) m r' Hls'); [cbn; nia | exact Hm | exact Cb].
Qed.

Lemma from_leaves_pos : forall e l, pos_l e l -> pos_l e (sleaves (from_leaves l)).
Proof.
  intros e [|[s d] [|[s1 d1] l]] H.
  - unfold pos_l. cbn [from_leaves sleaves]. apply Forall_cons; [cbn; lia | apply Forall_nil].
  - exact H.
  - cbn [from_leaves]. rewrite sleaves_tuple. exact H.
Qed.

Lemma scomplement_pos : forall H e b m C, hooks_sound H e -> pos_l e (sleaves b) -> 1 <= seval e m ->
  crun (sholds e) (scomplement H b m) = Some C -> pos_l e (sleaves C).
Proof.
  intros H e b m C HS Hb Hm Hr. unfold scomplement in Hr. rewrite crun_bind in Hr.
  destruct (crun (sholds e) (cfilter (sleaves b))) as [ls|] eqn:Cf; [|discriminate].
  rewrite crun_bind in Hr.
  destruct (crun (sholds e) (csort_go H ls [])) as [so|] eqn:Cs; [|discriminate].
  rewrite crun_bind in Hr.
  destruct (crun (sholds e) (cbuild so (SC 1) m)) as [res|] eqn:Cb; [|discriminate].
  rewrite crun_bind in Hr.
  destruct (crun (sholds e) (coal_x H false res)) as [co|] eqn:Cx; [|discriminate].
  cbn in Hr. injection Hr as <-.
  pose proof (cfilter_pos e _ _ Hb Cf) as P1.
  pose proof (csort_forall _ H e ls [] so P1 (Forall_nil _) Cs) as P2.
  pose proof (cbuild_pos e so (SC 1) m res P2 ltac:(cbn; lia) Hm Cb) as P3.
  destruct (coal_x_ok H e false res co HS P3 Cx) as (P4 & _).
  apply from_leaves_pos. exact P4.
Qed.

Lemma ssize_eval : forall e l acc,
  seval e (fold_left (fun acc sd => SMul acc (fst sd)) l acc) = seval e acc * prodB e l.
Proof.
  intros e l. induction l as [|[s d] l IH]; intros acc; cbn [fold_left prodB]; [ring|].
  rewrite IH. cbn [seval fst]. ring.
Qed.

(** [logical_divide(A, B)] ([divide_part]) as Rust's symbolic algebra runs
    it: wherever its concrete run returns, it is [A ∘ (B, C)] with [C] the
    complement its run computes: it has the size of [(B, C)] and
    [R(c) = A((B, C)(c))] at every index whose image is in A's domain. *)
Theorem sdivide_correct : forall H e a b R,
  hooks_sound H e -> sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  crun (sholds e) (sdivide H a b) = Some R ->
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
    forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
      0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
      evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c).
Proof.
  intros H e a b R HS Hne Ha Hb Hr.
  destruct (sdivide_correct_if H e a b R HS Hne Ha Hb Hr) as (C & Hc & Imp).
  exists C. split; [exact Hc|]. apply Imp.
  apply (scomplement_pos H e b (ssize a) C HS Hb); [|exact Hc].
  unfold ssize. rewrite ssize_eval. cbn [seval]. pose proof (prodB_pos e _ Ha). lia.
Qed.

(** ** The guards Rust returns are sufficient *)

(** For any oracle sound for the facts and the guards so far (Rust's
    [Ctx] decides through [Facts::decide_quick] and the guards recorded:
    section 10c), the guards the symbolic [composition] returns make its
    result right at every assignment that satisfies the facts and them,
    for positive extents (and where the hooks are sound). *)
Theorem composition_guards_sufficient : forall (sat : env -> Prop)
    (dec : list spred -> spred -> option bool) H a b R gs,
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  srun dec snegate [] (scomposition H a b) = Some (R, gs) ->
  forall e, sat e -> (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  prodB e (sleaves R) = prodB e (sleaves b) /\
  forall c, 0 <= c < prodB e (sleaves b) ->
    0 <= evalB e (sleaves b) c < prodB e (sleaves a) ->
    evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b) c).
Proof.
  intros sat dec H a b R gs Hdec Hrun e He Hg HS Hne Ha Hb.
  apply (scomposition_correct H e a b R HS Hne Ha Hb).
  exact (sop_run_sound _ sat dec Hdec _ R gs Hrun e He Hg).
Qed.

(** The same for [logical_divide] by a layout. *)
Theorem divide_guards_sufficient : forall (sat : env -> Prop)
    (dec : list spred -> spred -> option bool) H a b R gs,
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  srun dec snegate [] (sdivide H a b) = Some (R, gs) ->
  forall e, sat e -> (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
    forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
      0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
      evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c).
Proof.
  intros sat dec H a b R gs Hdec Hrun e He Hg HS Hne Ha Hb.
  apply (sdivide_correct H e a b R HS Hne Ha Hb).
  exact (sop_run_sound _ sat dec Hdec _ R gs Hrun e He Hg).
Qed.

(** ** The layouts' function is [ZTree.v]'s [zteval] *)

Fixpoint zt (e : env) (t : stree) : ztree :=
  match t with
  | SLeaf s d => ZLeaf (ZMode (seval e s) (seval e d))
  | STuple ms => ZNode (map (zt e) ms)
  end.

Lemma zflatten_zt : forall e n t, (tsize t < n)%nat -> zflatten (zt e t) = map (zm e) (sleaves t).
Proof.
  intros e n. induction n as [|n IH]; intros t Hn; [lia|].
  destruct t as [s d | ms]; [reflexivity|].
  induction ms as [|m ms IHms]; [reflexivity|].
  rewrite tsize_cons in Hn. pose proof (tsize_pos (STuple ms)). pose proof (tsize_pos m).
  change (zflatten (zt e (STuple (m :: ms)))) with (zflatten (zt e m) ++ zflatten (zt e (STuple ms))).
  rewrite sleaves_cons, map_app, IH by lia. rewrite IHms by lia. reflexivity.
Qed.

Lemma evalB_zeval : forall e l i, evalB e l i = zeval (map (zm e) l) i.
Proof. intros e l. induction l as [|[s d] l IH]; intros i; cbn; [reflexivity | rewrite IH; reflexivity]. Qed.

(** [evalB] of a symbolic layout's leaves is the nested model's function
    ([zteval]) of the layout at the assignment. *)
Lemma evalB_zteval : forall e t i, pos_l e (sleaves t) -> evalB e (sleaves t) i = zteval (zt e t) i.
Proof.
  intros e t i Hp. rewrite zflatten_preserves_eval.
  - rewrite (zflatten_zt e (S (tsize t))) by lia. apply evalB_zeval.
  - unfold ztpos. rewrite (zflatten_zt e (S (tsize t))) by lia.
    unfold zpos. apply Forall_map. eapply Forall_impl; [|exact Hp]. intros [s d] H. exact H.
Qed.
