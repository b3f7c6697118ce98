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
    - [cleaf_correct]: the leaf walk's concrete run is right: for a leaf
      [s:d] of B and A's (coalesced) modes [ax] with extents [>= 1], every
      [c] in [[0, s)] maps through the returned modes (colexicographic, as
      [evalA]) to [evalA ax (c * d)], and the returned extents multiply to
      [s].  With [sop_run_sound]: under the facts and the guards Rust
      returns (and where the hooks are sound), each leaf of B composes
      right with the modes [composition] composes with.

    Not proved here: [coalesce_leaves_x] keeping A's function (so the
    statement is about [evalA] of the modes Rust composes with), the
    tuple case of B (the no-carry check making by-mode composition
    additive), [complement]'s postcondition, and [logical_divide] as their
    corollary: those runs are transcribed and bridged (the bridge compares
    results and guards with Rust's on random symbolic cases), and
    [sop_run_sound] covers them. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Bridge Composition SymbolicFacts.

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
