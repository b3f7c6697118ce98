(** * [terms] and [propagate] as Rust runs them match the backward model (issue 28, item 3)

    [domain/equiv.rs] decides equivalence by the loop domains' terms over
    the roots ([terms]), built only when [domain/eval.rs]'s [plan] computes
    every index backward and no IterDomain is used twice;
    [Space::propagate] computes the indices from the loop indices along
    the plan.  [NormalizeBackward.v] models the backward map of a list of
    terms at a loop point as a valuation ([consistent]).  Here the
    schedule itself is modelled, as Rust holds it:

    - [rsched]: one extent per IterDomain (only the roots' are read), the
      transforms in definition order, the loop domain;
    - [rvalid]: what [Schedule::validate] and [loop_ids] check (every id in
      range, a transform names distinct ids, its inputs are defined before
      it, an id is defined by one transform, the loop domain is non-empty
      and has no repeats);
    - [rext]: the extents the builder gives each IterDomain (split:
      [ceilDiv] and the factor; merge: the product; resize: [+ l + r];
      swizzle: the inputs');
    - [plan]: [plan_from] transcribed (passes alternating backward and
      forward scans, the [Overdetermined] and [Undetermined] errors), with
      a pass budget Rust does not need ([PFuel]: never reached, bridged);
    - [rterms]: [terms] transcribed: [None] when the plan has a forward
      step, an id is used twice or a term has more than 1024 nodes, else
      the term of every IterDomain (roots are [TRoot id]);
    - [rpropagate]: [Space::propagate] over the plan's steps.

    Proved, from [plan_good] (the steps [plan] returns are a valid replay
    from the loop domain that computes every IterDomain and runs every
    transform), [tt_out], [tt_inj], [ext_all] (the table [terms] builds,
    injective, with the IR's extents) and [propagate_good]
    ([rust_backward_consistent]): whenever [rterms] gives terms,
    the indices [rpropagate] computes from ANY start vector holding a loop
    point [p] (Rust reuses the previous point's vector) form a
    [consistent] backward valuation of the loop terms at [p], holes and
    points outside the box included; the loop terms are [wf]
    ([rust_loop_terms_wf]), so by [consistent_unique] it is THE backward
    map ([rust_backward_unique]).  Hence the rules [equiv.rs] runs are
    sound for what Rust computes: identical loop terms
    ([rust_identical_terms_sound]) and equal normal forms with
    [backward_check] ([rust_normal_forms_sound]) give the same root
    indices from [propagate] at every loop point (of the first schedule's
    box, for the second rule).  [terms]' test for an IterDomain used twice
    is redundant after a backward plan ([backward_plan_inputs_once]).

    Not modelled: Rust's overflow errors (the model is unbounded; the
    bridge's values are small), root names (roots are identified by id;
    Rust compares roots by name, which the two schedules must share in
    order). *)

From Coq Require Import Arith Lia List ZArith Bool.
From Tessera Require Import Normalize NormalizeBackward.
Import ListNotations.

Open Scope Z_scope.

(** ** The schedule *)

Inductive rtr : Type :=
| RSplit (input outer inner : nat) (f : Z) (outer_kind : bool)
| RMerge (outer inner output : nat)
| RResize (input output : nat) (l r : Z)
| RSwizzle (x y ox oy : nat).

Record rsched : Type := { sext : list Z; strs : list rtr; sloop : list nat }.

Definition rinputs (t : rtr) : list nat :=
  match t with
  | RSplit i _ _ _ _ => [i]
  | RMerge o n _ => [o; n]
  | RResize i _ _ _ => [i]
  | RSwizzle x y _ _ => [x; y]
  end.

Definition routputs (t : rtr) : list nat :=
  match t with
  | RSplit _ o n _ _ => [o; n]
  | RMerge _ _ out => [out]
  | RResize _ out _ _ => [out]
  | RSwizzle _ _ ox oy => [ox; oy]
  end.

Definition dummy : rtr := RResize 0 0 0 0.
Definition tr_at (s : rsched) (k : nat) : rtr := nth k (strs s) dummy.
Definition nid (s : rsched) : nat := length (sext s).
Definition ntr (s : rsched) : nat := length (strs s).

Definition memn (i : nat) (l : list nat) : bool := existsb (Nat.eqb i) l.

Fixpoint nodupb (l : list nat) : bool :=
  match l with
  | [] => true
  | x :: r => negb (memn x r) && nodupb r
  end.

(** [i] is an output of transform [k]. *)
Definition outb (s : rsched) (k i : nat) : bool := memn i (routputs (tr_at s k)).

(** A root: no transform defines it. *)
Definition is_out (s : rsched) (i : nat) : bool := existsb (fun k => outb s k i) (seq 0 (ntr s)).

(** The root extents, [E r]. *)
Definition rootE (s : rsched) (r : nat) : Z := nth r (sext s) 0.

Definition rvalid (s : rsched) : bool :=
  let n := nid s in
  let T := ntr s in
  forallb (fun k =>
    let t := tr_at s k in
    forallb (fun i => Nat.ltb i n) (rinputs t ++ routputs t) &&
    nodupb (rinputs t ++ routputs t) &&
    forallb (fun i => forallb (fun k' => negb (outb s k' i) || Nat.ltb k' k) (seq 0 T)) (rinputs t) &&
    forallb (fun o => forallb (fun k' => negb (outb s k' o) || Nat.eqb k' k) (seq 0 T)) (routputs t))
    (seq 0 T) &&
  forallb (fun i => Nat.ltb i n) (sloop s) && nodupb (sloop s) &&
  negb (match sloop s with [] => true | _ => false end).

Definition upd {A : Type} (f : nat -> A) (x : nat) (v : A) : nat -> A :=
  fun y => if Nat.eqb y x then v else f y.

(** ** Extents, as the builder computes them *)

Definition ext_step (ext : nat -> Z) (t : rtr) : nat -> Z :=
  match t with
  | RSplit i o n f ok =>
      upd (upd ext o (if ok then f else cdiv (ext i) f)) n (if ok then cdiv (ext i) f else f)
  | RMerge o n out => upd ext out (ext o * ext n)
  | RResize i out l r => upd ext out (ext i + (l + r))
  | RSwizzle x y ox oy => upd (upd ext ox (ext x)) oy (ext y)
  end.

Definition rext (s : rsched) : nat -> Z := fold_left ext_step (strs s) (rootE s).

(** ** [plan_from] *)

Definition allk (k : nat -> bool) (l : list nat) : bool := forallb k l.
Definition anym (k : nat -> bool) (l : list nat) : bool := existsb (fun i => negb (k i)) l.

(** The known ids after a step ([true]: backward, its inputs computed). *)
Definition targets (t : rtr) (back : bool) : list nat := if back then rinputs t else routputs t.
Definition kupd (k : nat -> bool) (t : rtr) (back : bool) : nat -> bool :=
  fun i => k i || memn i (targets t back).

Record pst : Type := { pknown : nat -> bool; pdone : nat -> bool; psteps : list (nat * bool) }.

(** One transform of a pass: [inl t] is [Overdetermined] at [t]; the flag
    says whether a step was added. *)
Definition visit (s : rsched) (t : nat) (st : pst) : nat + (pst * bool) :=
  if pdone st t then inr (st, false) else
  let tr := tr_at s t in
  let ins := rinputs tr in
  let outs := routputs tr in
  let kn := pknown st in
  let dir := if allk kn outs && anym kn ins then Some true
             else if allk kn ins && anym kn outs then Some false else None in
  match dir with
  | None => if allk kn ins && allk kn outs then inl t else inr (st, false)
  | Some back =>
      if existsb kn (targets tr back) then inr (st, false)
      else inr ({| pknown := kupd kn tr back; pdone := upd (pdone st) t true; psteps := (t, back) :: psteps st |},
                true)
  end.

Fixpoint pass (s : rsched) (order : list nat) (st : pst) (prog : bool) : nat + (pst * bool) :=
  match order with
  | [] => inr (st, prog)
  | t :: order' =>
      match visit s t st with
      | inl e => inl e
      | inr (st', p) => pass s order' st' (prog || p)
      end
  end.

(** Passes alternate (backward scan first); the loop stops after a forward
    pass without progress or two passes without progress.  [None]: the
    budget ran out. *)
Fixpoint passes (s : rsched) (fuel : nat) (bs : bool) (stalled : nat) (st : pst)
  : option (nat + pst) :=
  match fuel with
  | O => None
  | S fuel' =>
      let order := if bs then rev (seq 0 (ntr s)) else seq 0 (ntr s) in
      match pass s order st false with
      | inl t => Some (inl t)
      | inr (st', progress) =>
          let bs' := negb bs in
          if negb progress && bs' then Some (inr st')
          else if negb progress then
            if Nat.leb 2 (S stalled) then Some (inr st') else passes s fuel' bs' (S stalled) st'
          else passes s fuel' bs' 0 st'
      end
  end.

Inductive pres : Type :=
| POk (steps : list (nat * bool))
| POver (t : nat)
| PUnder (i : nat)
| PInvalid
| PFuel.

Definition plan (s : rsched) : pres :=
  if negb (rvalid s) then PInvalid else
  let st0 := {| pknown := fun i => memn i (sloop s); pdone := fun _ => false; psteps := [] |} in
  match passes s (2 * ntr s + 4) true 0 st0 with
  | None => PFuel
  | Some (inl t) => POver t
  | Some (inr st) =>
      match find (fun i => negb (pknown st i)) (seq 0 (nid s)) with
      | Some i => PUnder i
      | None => POk (rev (psteps st))
      end
  end.

(** ** [terms] *)

Definition uses (s : rsched) (i : nat) : nat :=
  length (filter (Nat.eqb i) (flat_map rinputs (strs s))).

Definition size_step (sz : nat -> Z) (t : rtr) : nat -> Z :=
  let v := 1 + fold_right (fun i a => sz i + a) 0 (rinputs t) in
  fold_right (fun o f => upd f o v) sz (routputs t).

Definition rsizes (s : rsched) : nat -> Z := fold_left size_step (strs s) (fun _ => 1).

Definition max_term_nodes : Z := 1024.

(** A missing input term leaves the outputs without one (Rust returns
    [None] at once; the final check below gives [None] then too). *)
Definition build_step (tb : nat -> option term) (t : rtr) : nat -> option term :=
  match t with
  | RSplit i o n f ok =>
      match tb i with
      | Some x => upd (upd tb o (Some (TSplit x f ok true))) n (Some (TSplit x f ok false))
      | None => upd (upd tb o None) n None
      end
  | RMerge o n out =>
      match tb o, tb n with
      | Some a, Some b => upd tb out (Some (TMerge a b))
      | _, _ => upd tb out None
      end
  | RResize i out l r =>
      match tb i with
      | Some x => upd tb out (Some (TResize x l r))
      | None => upd tb out None
      end
  | RSwizzle x y ox oy =>
      match tb x, tb y with
      | Some a, Some b => upd (upd tb ox (Some (TSwizzle a b false))) oy (Some (TSwizzle a b true))
      | _, _ => upd (upd tb ox None) oy None
      end
  end.

Definition tb0 (s : rsched) : nat -> option term :=
  fun i => if is_out s i then None else Some (TRoot i).

Definition rtable (s : rsched) : nat -> option term := fold_left build_step (strs s) (tb0 s).

Definition tof (tb : nat -> option term) (i : nat) : term :=
  match tb i with Some t => t | None => TRoot i end.

Definition isSomeb {A : Type} (o : option A) : bool := match o with Some _ => true | None => false end.

Definition rterms (s : rsched) : option (list term) :=
  match plan s with
  | POk steps =>
      if existsb (fun st => negb (snd st)) steps then None
      else if existsb (fun i => Nat.ltb 1 (uses s i)) (seq 0 (nid s)) then None
      else if existsb (fun i => max_term_nodes <? rsizes s i) (seq 0 (nid s)) then None
      else let tb := rtable s in
           if forallb (fun i => isSomeb (tb i)) (seq 0 (nid s))
           then Some (map (tof tb) (seq 0 (nid s))) else None
  | _ => None
  end.

(** ** [Space::propagate] *)

Definition rexec (ext : nat -> Z) (idx : nat -> Z) (t : rtr) (back : bool) : nat -> Z :=
  match t with
  | RSplit i o n _ _ =>
      if back then upd idx i (idx o * ext n + idx n)
      else upd (upd idx o (idx i / ext n)) n (idx i mod ext n)
  | RMerge o n out =>
      if back then upd (upd idx o (idx out / ext n)) n (idx out mod ext n)
      else upd idx out (idx o * ext n + idx n)
  | RResize i out l _ => if back then upd idx i (idx out - l) else upd idx out (idx i + l)
  | RSwizzle x y ox oy =>
      if back then upd (upd idx x (idx ox)) y (Z.lxor (idx ox) (idx oy))
      else upd (upd idx ox (idx x)) oy (Z.lxor (idx x) (idx y))
  end.

Definition rpropagate (s : rsched) (steps : list (nat * bool)) (idx : nat -> Z) : nat -> Z :=
  fold_left (fun idx st => rexec (rext s) idx (tr_at s (fst st)) (snd st)) steps idx.

(** The loop terms, and the valuation read off Rust's index vector: a
    term's value is the index of the IterDomain it is the term of. *)
Definition loop_terms (s : rsched) (ts : list term) : list term :=
  map (fun l => nth l ts (TRoot l)) (sloop s).

Definition rho_of (ts : list term) (idx : nat -> Z) (t : term) : Z :=
  match find (fun i => teqb (nth i ts (TRoot i)) t) (seq 0 (length ts)) with
  | Some i => idx i
  | None => 0
  end.

(** ** Validity, as propositions *)

Lemma memn_In : forall i l, memn i l = true <-> In i l.
Proof.
  intros i l. unfold memn. rewrite existsb_exists. split.
  - intros [x [H E]]. apply Nat.eqb_eq in E. subst. exact H.
  - intros H. exists i. split; [exact H|apply Nat.eqb_refl].
Qed.

Lemma nodupb_NoDup : forall l, nodupb l = true -> NoDup l.
Proof.
  induction l as [|x l IH]; simpl; intros H; constructor.
  - apply andb_prop in H. destruct H as [H _]. intros Hx. apply memn_In in Hx.
    rewrite Hx in H. discriminate.
  - apply IH. apply andb_prop in H. apply H.
Qed.

Record vfacts (s : rsched) : Prop := {
  v_range : forall k i, (k < ntr s)%nat ->
    In i (rinputs (tr_at s k) ++ routputs (tr_at s k)) -> (i < nid s)%nat;
  v_nodup : forall k, (k < ntr s)%nat -> NoDup (rinputs (tr_at s k) ++ routputs (tr_at s k));
  v_order : forall k k' i, (k < ntr s)%nat -> (k' < ntr s)%nat ->
    In i (rinputs (tr_at s k)) -> In i (routputs (tr_at s k')) -> (k' < k)%nat;
  v_def : forall k k' o, (k < ntr s)%nat -> (k' < ntr s)%nat ->
    In o (routputs (tr_at s k)) -> In o (routputs (tr_at s k')) -> k' = k;
  v_loop : forall i, In i (sloop s) -> (i < nid s)%nat
}.

Lemma valid_facts : forall s, rvalid s = true -> vfacts s.
Proof.
  intros s H. unfold rvalid in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[H Hl] _] _]. rewrite forallb_forall in H, Hl.
  assert (HT : forall k, (k < ntr s)%nat -> _)
    by (intros k Hk0; exact (H k (proj2 (in_seq _ _ _) (conj (Nat.le_0_l k) Hk0)))).
  clear H. constructor.
  - intros k i Hk Hi. specialize (HT _ Hk). repeat rewrite andb_true_iff in HT.
    destruct HT as [[[Hr _] _] _]. rewrite forallb_forall in Hr. apply Nat.ltb_lt, Hr, Hi.
  - intros k Hk'. specialize (HT _ Hk'). repeat rewrite andb_true_iff in HT.
    apply nodupb_NoDup, HT.
  - intros k k' i Hk' Hk'' Hi Ho. specialize (HT _ Hk'). repeat rewrite andb_true_iff in HT.
    destruct HT as [[_ Ho'] _]. rewrite forallb_forall in Ho'. specialize (Ho' i Hi).
    rewrite forallb_forall in Ho'.
    specialize (Ho' k' (proj2 (in_seq _ _ _) (conj (Nat.le_0_l k') Hk''))).
    unfold outb in Ho'. apply memn_In in Ho. rewrite Ho in Ho'. apply Nat.ltb_lt, Ho'.
  - intros k k' o Hk' Hk'' Hi Ho. specialize (HT _ Hk'). repeat rewrite andb_true_iff in HT.
    destruct HT as [_ Ho']. rewrite forallb_forall in Ho'. specialize (Ho' o Hi).
    rewrite forallb_forall in Ho'.
    specialize (Ho' k' (proj2 (in_seq _ _ _) (conj (Nat.le_0_l k') Hk''))).
    unfold outb in Ho'. apply memn_In in Ho. rewrite Ho in Ho'. apply Nat.eqb_eq, Ho'.
  - intros i Hi. apply Nat.ltb_lt, Hl, Hi.
Qed.

(** ** Tables built by a pass over the transforms *)

Definition frames {A : Type} (F : (nat -> A) -> rtr -> nat -> A) : Prop :=
  forall tb t i, ~ In i (routputs t) -> F tb t i = tb i.
Definition reads {A : Type} (F : (nat -> A) -> rtr -> nat -> A) : Prop :=
  forall tb tb' t o, In o (routputs t) -> (forall i, In i (rinputs t) -> tb i = tb' i) ->
  F tb t o = F tb' t o.

Lemma fold_frame : forall {A : Type} (F : (nat -> A) -> rtr -> nat -> A), frames F -> forall l tb i,
  (forall t, In t l -> ~ In i (routputs t)) -> fold_left F l tb i = tb i.
Proof.
  intros A F HF l. induction l as [|t l IH]; intros tb i H; [reflexivity|].
  simpl. rewrite IH by (intros t' Ht'; apply H; right; exact Ht').
  apply HF, H. left. reflexivity.
Qed.

Lemma in_tail_pos : forall (l1 l2 : list rtr) t t',
  In t' l2 -> exists k', (length l1 < k')%nat /\ (k' < length (l1 ++ t :: l2))%nat /\
                        nth k' (l1 ++ t :: l2) dummy = t'.
Proof.
  intros l1 l2 t t' H. destruct (In_nth l2 t' dummy H) as [j [Hj Ej]].
  exists (S (length l1 + j)). rewrite app_length. simpl. split; [lia|split; [lia|]].
  rewrite app_nth2 by lia. replace (S (length l1 + j) - length l1)%nat with (S j) by lia.
  exact Ej.
Qed.

Lemma in_strs : forall s t, In t (strs s) -> exists k, (k < ntr s)%nat /\ tr_at s k = t.
Proof. intros s t H. destruct (In_nth _ _ dummy H) as [k [Hk E]]. exists k. auto. Qed.

Lemma nodup_app_disj : forall (l1 l2 : list nat) x, NoDup (l1 ++ l2) -> In x l1 -> In x l2 -> False.
Proof.
  induction l1 as [|a l1 IH]; intros l2 x D H1 H2; [contradiction|].
  simpl in D. inversion D as [|? ? Na D']; subst. destruct H1 as [<-|H1].
  - apply Na, in_or_app. right. exact H2.
  - exact (IH l2 x D' H1 H2).
Qed.

(** The value a pass gives an output of transform [k] is its step applied
    to the final table: a fixpoint equation. *)
Lemma fold_fix : forall {A : Type} (F : (nat -> A) -> rtr -> nat -> A) s tb k o,
  frames F -> reads F -> vfacts s -> (k < ntr s)%nat -> In o (routputs (tr_at s k)) ->
  fold_left F (strs s) tb o = F (fold_left F (strs s) tb) (tr_at s k) o.
Proof.
  intros A F s tb k o HF HR V Hk Ho.
  destruct (nth_split (strs s) dummy Hk) as [l1 [l2 [El Len]]].
  unfold tr_at in *. set (t := nth k (strs s) dummy) in *. rewrite El.
  rewrite fold_left_app. simpl.
  set (pre := fold_left F l1 tb).
  assert (Post : forall i, (forall k', (k < k')%nat -> (k' < ntr s)%nat ->
                   ~ In i (routputs (tr_at s k'))) ->
                 fold_left F l2 (F pre t) i = F pre t i).
  { intros i Hi. apply fold_frame; [exact HF|]. intros t' Ht'.
    destruct (in_tail_pos l1 l2 t t' Ht') as [k' [H1 [H2 E2]]].
    rewrite <- El in H2, E2. rewrite Len in H1. rewrite <- E2. apply Hi; [exact H1|exact H2]. }
  rewrite Post.
  - apply HR; [exact Ho|]. intros i Hi. rewrite Post.
    + symmetry. apply HF. intros Hio. pose proof (v_nodup s V k Hk) as D. unfold tr_at in D.
      fold t in D. exact (nodup_app_disj _ _ _ D Hi Hio).
    + intros k' H1 H2 Hk'. pose proof (v_order s V k k' i Hk H2) as O.
      unfold tr_at at 1 in O. fold t in O. specialize (O Hi Hk'). lia.
  - intros k' H1 H2 Hk'. pose proof (v_def s V k k' o Hk H2) as D.
    unfold tr_at at 1 in D. fold t in D. specialize (D Ho Hk'). lia.
Qed.

Ltac upd_cases :=
  unfold upd; repeat match goal with |- context [Nat.eqb ?a ?b] => destruct (Nat.eqb_spec a b) end.

Lemma build_frames : frames build_step.
Proof.
  intros tb t i H. destruct t; simpl in H |- *;
    repeat match goal with |- context [match tb ?x with _ => _ end] => destruct (tb x) end;
    upd_cases; subst; try reflexivity; exfalso; apply H; simpl; auto.
Qed.

Lemma build_reads : reads build_step.
Proof.
  intros tb tb' t o Ho Hin. destruct t; simpl in Ho, Hin |- *;
    repeat match goal with H : forall i, ?a = i \/ _ -> _ |- _ =>
      rewrite (H a) by auto; try (rewrite (H _) by (right; left; reflexivity)); clear H end;
    repeat match goal with |- context [match tb' ?x with _ => _ end] => destruct (tb' x) end;
    upd_cases; subst; try reflexivity; exfalso; intuition.
Qed.

Lemma ext_frames : frames ext_step.
Proof.
  intros tb t i H. destruct t; simpl in H |- *;
    upd_cases; subst; try reflexivity; exfalso; apply H; simpl; auto.
Qed.

Lemma ext_reads : reads ext_step.
Proof.
  intros tb tb' t o Ho Hin. destruct t; simpl in Ho, Hin |- *;
    repeat match goal with H : forall i, ?a = i \/ _ -> _ |- _ =>
      rewrite (H a) by auto; try (rewrite (H _) by (right; left; reflexivity)); clear H end;
    upd_cases; subst; try reflexivity; exfalso; intuition.
Qed.

Lemma root_frame : forall {A : Type} (F : (nat -> A) -> rtr -> nat -> A) s tb i,
  frames F -> is_out s i = false -> fold_left F (strs s) tb i = tb i.
Proof.
  intros A F s tb i HF H. apply fold_frame; [exact HF|]. intros t Ht Hi.
  destruct (in_strs s t Ht) as [k [Hk <-]].
  assert (E : outb s k i = true) by (apply memn_In, Hi).
  unfold is_out in H. assert (In k (seq 0 (ntr s))) by (apply in_seq; lia).
  assert (existsb (fun k0 => outb s k0 i) (seq 0 (ntr s)) = true)
    by (apply existsb_exists; eauto).
  congruence.
Qed.

(** ** What [rterms] gives *)

Lemma existsb_false_in : forall {A : Type} (f : A -> bool) l x,
  existsb f l = false -> In x l -> f x = false.
Proof.
  intros A f l x H Hx. destruct (f x) eqn:E; [|reflexivity].
  assert (existsb f l = true) by (apply existsb_exists; eauto). congruence.
Qed.

Lemma rterms_facts : forall s ts, rterms s = Some ts ->
  exists steps, plan s = POk steps /\
    (forall st, In st steps -> snd st = true) /\
    (forall i, (i < nid s)%nat -> (uses s i <= 1)%nat) /\
    (forall i, (i < nid s)%nat -> rtable s i = Some (nth i ts (TRoot i))) /\
    length ts = nid s.
Proof.
  intros s ts H. unfold rterms in H. destruct (plan s) as [steps| | | |]; try discriminate.
  exists steps. split; [reflexivity|].
  destruct (existsb (fun st => negb (snd st)) steps) eqn:F; [discriminate|].
  destruct (existsb (fun i => Nat.ltb 1 (uses s i)) (seq 0 (nid s))) eqn:U; [discriminate|].
  destruct (existsb (fun i => max_term_nodes <? rsizes s i) (seq 0 (nid s))); [discriminate|].
  destruct (forallb (fun i => isSomeb (rtable s i)) (seq 0 (nid s))) eqn:S; [|discriminate].
  injection H as <-. rewrite forallb_forall in S. split; [|split; [|split]].
  - intros st Hst. pose proof (existsb_false_in _ _ _ F Hst) as G. simpl in G.
    destruct (snd st); [reflexivity|]. simpl in G. congruence.
  - intros i Hi. assert (In i (seq 0 (nid s))) by (apply in_seq; lia).
    pose proof (existsb_false_in _ _ _ U H). apply Nat.ltb_ge. assumption.
  - intros i Hi. assert (Hs : In i (seq 0 (nid s))) by (apply in_seq; lia).
    rewrite nth_indep with (d' := tof (rtable s) 0) by (rewrite map_length, seq_length; exact Hi).
    rewrite map_nth, seq_nth by exact Hi. simpl. specialize (S i Hs). unfold tof.
    destruct (rtable s i); [reflexivity|discriminate].
  - rewrite map_length, seq_length. reflexivity.
Qed.

(** The term of every IterDomain, read off the table. *)
Definition tt (ts : list term) (i : nat) : term := nth i ts (TRoot i).

Lemma is_out_def : forall s i, is_out s i = true ->
  exists k, (k < ntr s)%nat /\ In i (routputs (tr_at s k)).
Proof.
  intros s i H. unfold is_out in H. apply existsb_exists in H. destruct H as [k [Hk E]].
  apply in_seq in Hk. exists k. split; [lia|]. apply memn_In, E.
Qed.

Lemma tt_root : forall s ts i, vfacts s ->
  (forall i, (i < nid s)%nat -> rtable s i = Some (tt ts i)) ->
  (i < nid s)%nat -> is_out s i = false -> tt ts i = TRoot i.
Proof.
  intros s ts i V TB Hi Ho. pose proof (TB i Hi) as E. unfold rtable in E.
  rewrite (root_frame build_step s (tb0 s) i build_frames Ho) in E.
  unfold tb0 in E. rewrite Ho in E. injection E as E. symmetry. exact E.
Qed.

Definition out_eqs (ts : list term) (t : rtr) : Prop :=
  match t with
  | RSplit i o n f ok => tt ts o = TSplit (tt ts i) f ok true /\ tt ts n = TSplit (tt ts i) f ok false
  | RMerge o n out => tt ts out = TMerge (tt ts o) (tt ts n)
  | RResize i out l r => tt ts out = TResize (tt ts i) l r
  | RSwizzle x y ox oy =>
      tt ts ox = TSwizzle (tt ts x) (tt ts y) false /\ tt ts oy = TSwizzle (tt ts x) (tt ts y) true
  end.

Lemma tt_out : forall s ts k, vfacts s ->
  (forall i, (i < nid s)%nat -> rtable s i = Some (tt ts i)) ->
  (k < ntr s)%nat -> out_eqs ts (tr_at s k).
Proof.
  intros s ts k V TB Hk.
  assert (HB : forall o, In o (routputs (tr_at s k)) ->
            Some (tt ts o) = build_step (rtable s) (tr_at s k) o).
  { intros o Ho. rewrite <- TB by (apply (v_range s V k o Hk), in_or_app; right; exact Ho).
    unfold rtable. apply fold_fix; auto using build_frames, build_reads. }
  assert (R : forall i, In i (rinputs (tr_at s k) ++ routputs (tr_at s k)) ->
            rtable s i = Some (tt ts i)) by (intros i Hi; apply TB, (v_range s V k i Hk Hi)).
  pose proof (v_nodup s V k Hk) as D.
  destruct (tr_at s k) as [i o n f ok|o n out|i out l r|x y ox oy]; simpl in HB, R, D |- *;
    repeat match goal with H : NoDup (_ :: _) |- _ =>
      let N := fresh "N" in inversion H as [|? ? N ?]; subst; clear H; simpl in N end.
  - rewrite (R i) in HB by auto.
    split; [pose proof (HB o ltac:(auto)) as E|pose proof (HB n ltac:(auto)) as E];
      unfold upd in E; rewrite ?Nat.eqb_refl in E;
      try (destruct (Nat.eqb_spec o n); [exfalso; intuition|]);
      injection E as E; exact E.
  - rewrite (R o), (R n) in HB by auto. pose proof (HB out ltac:(auto)) as E.
    unfold upd in E. rewrite Nat.eqb_refl in E. injection E as E. exact E.
  - rewrite (R i) in HB by auto. pose proof (HB out ltac:(auto)) as E.
    unfold upd in E. rewrite Nat.eqb_refl in E. injection E as E. exact E.
  - rewrite (R x), (R y) in HB by auto.
    split; [pose proof (HB ox ltac:(auto)) as E|pose proof (HB oy ltac:(auto)) as E];
      unfold upd in E; rewrite ?Nat.eqb_refl in E;
      try (destruct (Nat.eqb_spec ox oy); [exfalso; intuition|]);
      injection E as E; exact E.
Qed.

Definition tbh (s : rsched) (ts : list term) : Prop :=
  forall i, (i < nid s)%nat -> rtable s i = Some (tt ts i).

Lemma tt_cases : forall s ts i, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TRoot i \/ exists k, (k < ntr s)%nat /\ In i (routputs (tr_at s k)).
Proof.
  intros s ts i V TB Hi. destruct (is_out s i) eqn:E.
  - right. apply is_out_def, E.
  - left. apply (tt_root s ts i V TB Hi E).
Qed.

Ltac shape_tac s ts i V TB Hi H :=
  let R := fresh "R" in let k := fresh "k" in let Hk := fresh "Hk" in
  let O := fresh "O" in let Q := fresh "Q" in let Q2 := fresh "Q2" in let Et := fresh "Et" in
  destruct (tt_cases s ts i V TB Hi) as [R|[k [Hk O]]];
  [rewrite R in H; try discriminate H|
   pose proof (tt_out s ts k V TB Hk) as Q; destruct (tr_at s k) eqn:Et; simpl in O, Q;
   repeat (destruct O as [O|O]; [subst; match type of Q with _ /\ _ => destruct Q as [Q Q2] | _ => idtac end|]);
   try contradiction;
   try (rewrite Q in H); try (rewrite Q2 in H); try discriminate H].

Lemma tt_split : forall s ts i x f ok io, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TSplit x f ok io -> exists k inp o n, (k < ntr s)%nat /\
  tr_at s k = RSplit inp o n f ok /\ tt ts inp = x /\ i = (if io then o else n).
Proof.
  intros s ts i x f ok io V TB Hi H. shape_tac s ts i V TB Hi H.
  - injection H as <- <- <- <-. eauto 8.
  - injection H as <- <- <- <-. eauto 8.
Qed.

Lemma tt_merge : forall s ts i a b, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TMerge a b -> exists k o n, (k < ntr s)%nat /\
  tr_at s k = RMerge o n i /\ tt ts o = a /\ tt ts n = b.
Proof.
  intros s ts i a b V TB Hi H. shape_tac s ts i V TB Hi H.
  injection H as <- <-. eauto 8.
Qed.

Lemma tt_resize : forall s ts i x l r, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TResize x l r -> exists k inp, (k < ntr s)%nat /\
  tr_at s k = RResize inp i l r /\ tt ts inp = x.
Proof.
  intros s ts i x l r V TB Hi H. shape_tac s ts i V TB Hi H.
  injection H as <- <- <-. eauto 8.
Qed.

Lemma tt_swizzle : forall s ts i a b io, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TSwizzle a b io -> exists k x y ox oy, (k < ntr s)%nat /\
  tr_at s k = RSwizzle x y ox oy /\ tt ts x = a /\ tt ts y = b /\ i = (if io then oy else ox).
Proof.
  intros s ts i a b io V TB Hi H. shape_tac s ts i V TB Hi H.
  - injection H as <- <- <-. eauto 10.
  - injection H as <- <- <-. eauto 10.
Qed.

Lemma tt_rootc : forall s ts i r, vfacts s -> tbh s ts -> (i < nid s)%nat ->
  tt ts i = TRoot r -> i = r.
Proof.
  intros s ts i r V TB Hi H. shape_tac s ts i V TB Hi H. injection H as H. exact H.
Qed.

(** ** Distinct IterDomains have distinct terms *)

Lemma filter_pos : forall (f : nat -> bool) l x, In x l -> f x = true -> (1 <= length (filter f l))%nat.
Proof.
  intros f l. induction l as [|y l IH]; intros x H E; [contradiction|].
  simpl. destruct H as [<-|H]; [rewrite E; simpl; lia|]. destruct (f y); simpl; [lia|eauto].
Qed.

Lemma uses_two : forall s k k' i, (k < k')%nat -> (k' < ntr s)%nat ->
  In i (rinputs (tr_at s k)) -> In i (rinputs (tr_at s k')) -> (2 <= uses s i)%nat.
Proof.
  intros s k k' i Hkk Hk' H1 H2. assert (Hk : (k < ntr s)%nat) by lia.
  destruct (nth_split (strs s) dummy Hk) as [l1 [l2 [El Len]]].
  unfold uses, tr_at in *. rewrite El in H2 |- *.
  rewrite app_nth2 in H2 by lia. rewrite Len in H2.
  destruct (k' - k)%nat as [|j] eqn:Ej; [lia|]. simpl in H2.
  assert (Hj : (j < length l2)%nat).
  { assert (length (strs s) = length l1 + S (length l2))%nat
      by (rewrite El, app_length; reflexivity).
    unfold ntr in Hk'. lia. }
  rewrite flat_map_app. simpl. rewrite !filter_app, !app_length.
  pose proof (filter_pos (Nat.eqb i) _ i H1 (Nat.eqb_refl i)).
  assert (In i (flat_map rinputs l2)) by (apply in_flat_map; exists (nth j l2 dummy); auto using nth_In).
  pose proof (filter_pos (Nat.eqb i) _ i H0 (Nat.eqb_refl i)). lia.
Qed.

Lemma same_input : forall s k k' i, vfacts s -> (forall i, (i < nid s)%nat -> (uses s i <= 1)%nat) ->
  (k < ntr s)%nat -> (k' < ntr s)%nat ->
  In i (rinputs (tr_at s k)) -> In i (rinputs (tr_at s k')) -> k = k'.
Proof.
  intros s k k' i V U Hk Hk' H1 H2.
  assert (Hi : (i < nid s)%nat) by (apply (v_range s V k i Hk), in_or_app; left; exact H1).
  specialize (U i Hi). destruct (Nat.lt_trichotomy k k') as [L|[E|L]]; [|exact E|].
  - pose proof (uses_two s k k' i L Hk' H1 H2). lia.
  - pose proof (uses_two s k' k i L Hk H2 H1). lia.
Qed.

Lemma tt_inj : forall s ts, vfacts s -> tbh s ts -> (forall i, (i < nid s)%nat -> (uses s i <= 1)%nat) ->
  forall t i j, (i < nid s)%nat -> (j < nid s)%nat -> tt ts i = t -> tt ts j = t -> i = j.
Proof.
  intros s ts V TB U t.
  induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros i j Hi Hj Ei Ej.
  - rewrite (tt_rootc s ts i r V TB Hi Ei), (tt_rootc s ts j r V TB Hj Ej). reflexivity.
  - destruct (tt_split s ts i x f ok io V TB Hi Ei) as [k1 [p1 [o1 [n1 [Hk1 [E1 [X1 ->]]]]]]].
    destruct (tt_split s ts j x f ok io V TB Hj Ej) as [k2 [p2 [o2 [n2 [Hk2 [E2 [X2 ->]]]]]]].
    assert (Hp1 : (p1 < nid s)%nat) by (apply (v_range s V k1 p1 Hk1); rewrite E1; simpl; auto).
    assert (Hp2 : (p2 < nid s)%nat) by (apply (v_range s V k2 p2 Hk2); rewrite E2; simpl; auto).
    pose proof (IH p1 p2 Hp1 Hp2 X1 X2) as <-.
    assert (k1 = k2) as <- by (apply (same_input s k1 k2 p1 V U Hk1 Hk2);
                                [rewrite E1|rewrite E2]; simpl; auto).
    rewrite E1 in E2. injection E2 as <- <-. reflexivity.
  - destruct (tt_merge s ts i a b V TB Hi Ei) as [k1 [o1 [n1 [Hk1 [E1 [A1 B1]]]]]].
    destruct (tt_merge s ts j a b V TB Hj Ej) as [k2 [o2 [n2 [Hk2 [E2 [A2 B2]]]]]].
    assert (Hp1 : (o1 < nid s)%nat) by (apply (v_range s V k1 o1 Hk1); rewrite E1; simpl; auto).
    assert (Hp2 : (o2 < nid s)%nat) by (apply (v_range s V k2 o2 Hk2); rewrite E2; simpl; auto).
    pose proof (IHa o1 o2 Hp1 Hp2 A1 A2) as <-.
    assert (k1 = k2) as <- by (apply (same_input s k1 k2 o1 V U Hk1 Hk2);
                                [rewrite E1|rewrite E2]; simpl; auto).
    rewrite E1 in E2. injection E2 as _ <-. reflexivity.
  - destruct (tt_resize s ts i x l r V TB Hi Ei) as [k1 [p1 [Hk1 [E1 X1]]]].
    destruct (tt_resize s ts j x l r V TB Hj Ej) as [k2 [p2 [Hk2 [E2 X2]]]].
    assert (Hp1 : (p1 < nid s)%nat) by (apply (v_range s V k1 p1 Hk1); rewrite E1; simpl; auto).
    assert (Hp2 : (p2 < nid s)%nat) by (apply (v_range s V k2 p2 Hk2); rewrite E2; simpl; auto).
    pose proof (IH p1 p2 Hp1 Hp2 X1 X2) as <-.
    assert (k1 = k2) as <- by (apply (same_input s k1 k2 p1 V U Hk1 Hk2);
                                [rewrite E1|rewrite E2]; simpl; auto).
    rewrite E1 in E2. injection E2 as <-. reflexivity.
  - destruct (tt_swizzle s ts i x y io V TB Hi Ei) as [k1 [x1 [y1 [ox1 [oy1 [Hk1 [E1 [X1 [Y1 ->]]]]]]]]].
    destruct (tt_swizzle s ts j x y io V TB Hj Ej) as [k2 [x2 [y2 [ox2 [oy2 [Hk2 [E2 [X2 [Y2 ->]]]]]]]]].
    assert (Hp1 : (x1 < nid s)%nat) by (apply (v_range s V k1 x1 Hk1); rewrite E1; simpl; auto).
    assert (Hp2 : (x2 < nid s)%nat) by (apply (v_range s V k2 x2 Hk2); rewrite E2; simpl; auto).
    pose proof (IHx x1 x2 Hp1 Hp2 X1 X2) as <-.
    assert (k1 = k2) as <- by (apply (same_input s k1 k2 x1 V U Hk1 Hk2);
                                [rewrite E1|rewrite E2]; simpl; auto).
    rewrite E1 in E2. injection E2 as _ <- <-. reflexivity.
Qed.

Lemma teqb_eq : forall a b, teqb a b = true <-> a = b.
Proof. intros a b. unfold teqb. destruct (term_eq_dec a b); split; congruence. Qed.

Lemma rho_at : forall s ts idx i, vfacts s -> tbh s ts ->
  (forall i, (i < nid s)%nat -> (uses s i <= 1)%nat) -> length ts = nid s ->
  (i < nid s)%nat -> rho_of ts idx (tt ts i) = idx i.
Proof.
  intros s ts idx i V TB U Len Hi. unfold rho_of.
  destruct (find (fun j => teqb (nth j ts (TRoot j)) (tt ts i)) (seq 0 (length ts))) as [j|] eqn:F.
  - apply find_some in F. destruct F as [Hj E]. apply in_seq in Hj. apply teqb_eq in E.
    rewrite (tt_inj s ts V TB U (tt ts i) j i ltac:(lia) Hi E eq_refl). reflexivity.
  - exfalso. assert (In i (seq 0 (length ts))) by (apply in_seq; lia).
    pose proof (find_none _ _ F i H) as E. simpl in E. unfold tt in E.
    rewrite (proj2 (teqb_eq _ _) eq_refl) in E. discriminate.
Qed.

(** The IR's extents are the terms' extents. *)
Lemma ext_tt : forall s ts, vfacts s -> tbh s ts -> forall K i, (i < nid s)%nat ->
  (forall k, (k < ntr s)%nat -> In i (routputs (tr_at s k)) -> (k < K)%nat) ->
  rext s i = extent (rootE s) (tt ts i).
Proof.
  intros s ts V TB K. induction K as [|K IH]; intros i Hi Def;
    destruct (is_out s i) eqn:Eo.
  - destruct (is_out_def s i Eo) as [k [Hk Ho]]. specialize (Def k Hk Ho). lia.
  - unfold rext. rewrite (root_frame ext_step s (rootE s) i ext_frames Eo).
    rewrite (tt_root s ts i V TB Hi Eo). reflexivity.
  - destruct (is_out_def s i Eo) as [k0 [Hk0 Ho0]].
    assert (Uniq : forall k, (k < ntr s)%nat -> In i (routputs (tr_at s k)) -> k = k0)
      by (intros k Hk Ho; exact (v_def s V k0 k i Hk0 Hk Ho0 Ho)).
    pose proof (Def k0 Hk0 Ho0) as Lt.
    destruct (Nat.eq_dec k0 K) as [->|Ne].
    2: { apply IH; [exact Hi|]. intros k Hk Ho. rewrite (Uniq k Hk Ho). lia. }
    assert (IHin : forall p, In p (rinputs (tr_at s K)) -> rext s p = extent (rootE s) (tt ts p)).
    { intros p Hp. apply IH.
      - apply (v_range s V K p Hk0), in_or_app. left. exact Hp.
      - intros k Hk Ho. exact (v_order s V K k p Hk0 Hk Hp Ho). }
    assert (HR : rext s i = ext_step (rext s) (tr_at s K) i)
      by (unfold rext; apply fold_fix; auto using ext_frames, ext_reads).
    pose proof (tt_out s ts K V TB Hk0) as Q. pose proof (v_nodup s V K Hk0) as D.
    destruct (tr_at s K) as [p o n f ok|o n out|p out l r|x y ox oy];
      simpl in Ho0, Q, IHin, D, HR; rewrite HR; clear HR;
      repeat match goal with H : NoDup (_ :: _) |- _ =>
        let N := fresh "N" in inversion H as [|? ? N ?]; subst; clear H; simpl in N end.
    + rewrite (IHin p) by auto. destruct Q as [Q1 Q2].
      destruct Ho0 as [<-|[<-|[]]]; unfold upd; rewrite ?Nat.eqb_refl.
      * destruct (Nat.eqb_spec o n); [exfalso; intuition|]. rewrite Q1. simpl.
        destruct ok; reflexivity.
      * rewrite Q2. simpl. destruct ok; reflexivity.
    + rewrite (IHin o), (IHin n) by auto. destruct Ho0 as [<-|[]].
      unfold upd. rewrite Nat.eqb_refl, Q. reflexivity.
    + rewrite (IHin p) by auto. destruct Ho0 as [<-|[]].
      unfold upd. rewrite Nat.eqb_refl, Q. reflexivity.
    + rewrite (IHin x), (IHin y) by auto. destruct Q as [Q1 Q2].
      destruct Ho0 as [<-|[<-|[]]]; unfold upd; rewrite ?Nat.eqb_refl.
      * destruct (Nat.eqb_spec ox oy); [exfalso; intuition|]. rewrite Q1. reflexivity.
      * rewrite Q2. reflexivity.
  - apply IH; [exact Hi|]. intros k Hk Ho. exfalso.
    assert (is_out s i = true) by (unfold is_out; apply existsb_exists; exists k;
                                   split; [apply in_seq; lia|apply memn_In, Ho]).
    congruence.
Qed.

Lemma ext_all : forall s ts, vfacts s -> tbh s ts -> forall i, (i < nid s)%nat ->
  rext s i = extent (rootE s) (tt ts i).
Proof.
  intros s ts V TB i Hi. apply (ext_tt s ts V TB (ntr s) i Hi). intros k Hk _. exact Hk.
Qed.

(** ** What [plan] returns *)

(** A step may run: the side it reads is known, the side it writes is not. *)
Definition step_ok (s : rsched) (k : nat -> bool) (t : nat) (b : bool) : Prop :=
  allk k (if b then routputs (tr_at s t) else rinputs (tr_at s t)) = true /\
  existsb k (targets (tr_at s t) b) = false.

Inductive good (s : rsched) : (nat -> bool) -> list (nat * bool) -> (nat -> bool) -> Prop :=
| good_nil : forall k, good s k [] k
| good_cons : forall k t b rest k', (t < ntr s)%nat -> step_ok s k t b ->
    good s (kupd k (tr_at s t) b) rest k' -> good s k ((t, b) :: rest) k'.

Lemma good_app : forall s k0 l k1 t b, good s k0 l k1 -> (t < ntr s)%nat -> step_ok s k1 t b ->
  good s k0 (l ++ [(t, b)]) (kupd k1 (tr_at s t) b).
Proof.
  intros s k0 l k1 t b G. induction G as [k|k t' b' rest k' Ht Ok G IH]; intros Ht' Ok'; simpl.
  - constructor; auto. constructor.
  - constructor; auto.
Qed.

Definition inv (s : rsched) (k0 : nat -> bool) (st : pst) : Prop :=
  good s k0 (rev (psteps st)) (pknown st) /\ (forall t, pdone st t = true <-> In t (map fst (psteps st))).

Lemma allk_anym : forall k l, allk k l = true -> anym k l = false.
Proof.
  intros k l H. unfold allk, anym in *. rewrite forallb_forall in H.
  destruct (existsb (fun i => negb (k i)) l) eqn:E; [|reflexivity].
  apply existsb_exists in E. destruct E as [x [Hx Ex]]. rewrite (H x Hx) in Ex. discriminate.
Qed.

Lemma visit_inv : forall s k0 t st st' p, (t < ntr s)%nat -> inv s k0 st ->
  visit s t st = inr (st', p) -> inv s k0 st' /\ (p = false -> st' = st).
Proof.
  intros s k0 t st st' p Ht [G D] H. unfold visit in H.
  destruct (pdone st t) eqn:Pd; [injection H as <- <-; split; [split; auto|auto]|].
  destruct (allk (pknown st) (routputs (tr_at s t)) && anym (pknown st) (rinputs (tr_at s t))) eqn:B1.
  - destruct (existsb (pknown st) (targets (tr_at s t) true)) eqn:X;
      [injection H as <- <-; split; [split; auto|auto]|].
    injection H as <- <-. split; [|discriminate]. split; simpl.
    + apply good_app; auto. split; [|exact X]. apply andb_prop in B1. apply B1.
    + intros t'. unfold upd. destruct (Nat.eqb_spec t' t) as [->|Ne]; [simpl; tauto|].
      split; intros Hx; [right; apply D, Hx|].
      apply D. destruct Hx as [E|Hx]; [congruence|exact Hx].
  - destruct (allk (pknown st) (rinputs (tr_at s t)) && anym (pknown st) (routputs (tr_at s t))) eqn:B2.
    + destruct (existsb (pknown st) (targets (tr_at s t) false)) eqn:X;
        [injection H as <- <-; split; [split; auto|auto]|].
      injection H as <- <-. split; [|discriminate]. split; simpl.
      * apply good_app; auto. split; [|exact X]. apply andb_prop in B2. apply B2.
      * intros t'. unfold upd. destruct (Nat.eqb_spec t' t) as [->|Ne]; [simpl; tauto|].
        split; intros Hx; [right; apply D, Hx|].
        apply D. destruct Hx as [E|Hx]; [congruence|exact Hx].
    + destruct (allk (pknown st) (rinputs (tr_at s t)) && allk (pknown st) (routputs (tr_at s t)));
        [discriminate|]. injection H as <- <-. split; [split; auto|auto].
Qed.

(** A visit that adds nothing leaves a transform whose two sides are known done. *)
Lemma visit_quiet : forall s t st st',
  visit s t st = inr (st', false) -> pdone st t = false ->
  allk (pknown st) (rinputs (tr_at s t)) && allk (pknown st) (routputs (tr_at s t)) = false.
Proof.
  intros s t st st' H Pd. unfold visit in H. rewrite Pd in H.
  destruct (allk (pknown st) (rinputs (tr_at s t))) eqn:I; [|reflexivity].
  destruct (allk (pknown st) (routputs (tr_at s t))) eqn:O; [|reflexivity]. exfalso.
  rewrite (allk_anym _ _ I), (allk_anym _ _ O) in H. simpl in H. discriminate.
Qed.

Lemma pass_inv : forall s k0 order st prog st' p, (forall t, In t order -> (t < ntr s)%nat) ->
  inv s k0 st -> pass s order st prog = inr (st', p) ->
  inv s k0 st' /\ (p = false -> st' = st /\
    forall t, In t order -> pdone st t = false ->
      allk (pknown st) (rinputs (tr_at s t)) && allk (pknown st) (routputs (tr_at s t)) = false).
Proof.
  intros s k0 order. induction order as [|t order IH]; intros st prog st' p Ho I H; simpl in H.
  - injection H as <- <-. split; [exact I|]. intros _. split; [reflexivity|contradiction].
  - destruct (visit s t st) as [e|[st1 p1]] eqn:Vi; [discriminate|].
    destruct (visit_inv s k0 t st st1 p1 (Ho t (or_introl eq_refl)) I Vi) as [I1 Q1].
    destruct (IH st1 (prog || p1) st' p (fun t' H' => Ho t' (or_intror H')) I1 H) as [I' Q'].
    split; [exact I'|]. intros Pf. destruct (Q' Pf) as [E Hq].
    assert (P1 : p1 = false).
    { destruct p1; [|reflexivity]. exfalso.
      assert (Gen : forall o s0 pr s1 q, pass s o s0 pr = inr (s1, q) -> pr = true -> q = true).
      { induction o as [|u o IHo]; intros s0 pr s1 q Hp Hpr; simpl in Hp.
        - injection Hp as _ <-. exact Hpr.
        - destruct (visit s u s0) as [|[s2 p2]]; [discriminate|].
          apply (IHo s2 (pr || p2) s1 q Hp). rewrite Hpr. reflexivity. }
      rewrite (Gen order st1 (prog || true) st' p H (orb_true_r _)) in Pf. discriminate. }
    subst p1. specialize (Q1 eq_refl). subst st1. split; [exact E|].
    intros u [Eu|Hu] Pd; [subst u; exact (visit_quiet s t st st Vi Pd)|exact (Hq u Hu Pd)].
Qed.

Lemma passes_inv : forall s k0 fuel bs stalled st st', inv s k0 st ->
  passes s fuel bs stalled st = Some (inr st') ->
  inv s k0 st' /\ forall t, (t < ntr s)%nat -> pdone st' t = false ->
    allk (pknown st') (rinputs (tr_at s t)) && allk (pknown st') (routputs (tr_at s t)) = false.
Proof.
  intros s k0 fuel. induction fuel as [|fuel IH]; intros bs stalled st st' I H; [discriminate|].
  simpl in H.
  set (order := if bs then rev (seq 0 (ntr s)) else seq 0 (ntr s)) in H.
  assert (Ord : forall t, In t order <-> (t < ntr s)%nat).
  { intros t. unfold order. destruct bs; [rewrite <- in_rev|]; rewrite in_seq; lia. }
  destruct (pass s order st false) as [e|[st1 progress]] eqn:P; [discriminate|].
  destruct (pass_inv s k0 order st false st1 progress (fun t Ht => proj1 (Ord t) Ht) I P)
    as [I1 Q1].
  assert (Quiet : progress = false -> inv s k0 st1 /\ forall t, (t < ntr s)%nat -> pdone st1 t = false ->
            allk (pknown st1) (rinputs (tr_at s t)) && allk (pknown st1) (routputs (tr_at s t)) = false).
  { intros Pf. destruct (Q1 Pf) as [-> Hq]. split; [exact I|].
    intros t Ht. apply Hq, Ord, Ht. }
  destruct progress; simpl in H.
  - exact (IH _ 0%nat st1 st' I1 H).
  - destruct bs; simpl in H; [|injection H as <-; exact (Quiet eq_refl)].
    destruct stalled; [exact (IH _ _ st1 st' I1 H)|injection H as <-; exact (Quiet eq_refl)].
Qed.

Lemma plan_good : forall s steps, plan s = POk steps ->
  vfacts s /\
  exists kf, good s (fun i => memn i (sloop s)) steps kf /\
    (forall i, (i < nid s)%nat -> kf i = true) /\
    (forall t, (t < ntr s)%nat -> In t (map fst steps)).
Proof.
  intros s steps H. unfold plan in H. destruct (rvalid s) eqn:Vb; [|discriminate]. cbn [negb] in H.
  pose proof (valid_facts s Vb) as V.
  set (st0 := {| pknown := fun i => memn i (sloop s); pdone := fun _ => false; psteps := [] |}) in H.
  destruct (passes s (2 * ntr s + 4) true 0 st0) as [[t|st]|] eqn:P; try discriminate.
  destruct (find (fun i => negb (pknown st i)) (seq 0 (nid s))) eqn:F; [discriminate|].
  injection H as <-.
  assert (I0 : inv s (fun i => memn i (sloop s)) st0).
  { split; [constructor|]. intros t. simpl. split; [discriminate|contradiction]. }
  destruct (passes_inv s _ _ _ _ _ _ I0 P) as [[G D] NP].
  split; [exact V|]. exists (pknown st). split; [exact G|].
  assert (All : forall i, (i < nid s)%nat -> pknown st i = true).
  { intros i Hi. assert (Hs : In i (seq 0 (nid s))) by (apply in_seq; lia).
    pose proof (find_none _ _ F i Hs) as E. simpl in E. destruct (pknown st i); [reflexivity|discriminate]. }
  split; [exact All|].
  intros t Ht. rewrite map_rev, <- in_rev. apply D.
  destruct (pdone st t) eqn:Pd; [reflexivity|exfalso].
  specialize (NP t Ht Pd).
  assert (K : forall l, (forall i, In i l -> (i < nid s)%nat) -> allk (pknown st) l = true).
  { intros l Hl. unfold allk. apply forallb_forall. intros i Hi. apply All, Hl, Hi. }
  rewrite !K in NP; [discriminate| |];
    intros i Hi; apply (v_range s V t i Ht), in_or_app; auto.
Qed.

(** ** What [propagate] computes along a backward plan *)

Definition beq (ext : nat -> Z) (idx : nat -> Z) (t : rtr) : Prop :=
  match t with
  | RSplit i o n _ _ => idx i = idx o * ext n + idx n
  | RMerge o n out => idx o = idx out / ext n /\ idx n = idx out mod ext n
  | RResize i out l _ => idx i = idx out - l
  | RSwizzle x y ox oy => idx x = idx ox /\ idx y = Z.lxor (idx ox) (idx oy)
  end.

Lemma exec_beq : forall ext idx t, NoDup (rinputs t ++ routputs t) -> beq ext (rexec ext idx t true) t.
Proof.
  intros ext idx t D. destruct t; simpl in D |- *;
    repeat match goal with H : NoDup (_ :: _) |- _ =>
      let N := fresh "N" in inversion H as [|? ? N ?]; subst; clear H; simpl in N end;
    unfold upd; rewrite ?Nat.eqb_refl;
    repeat match goal with |- context [Nat.eqb ?a ?b] => destruct (Nat.eqb_spec a b) end;
    subst; try (exfalso; intuition; fail); auto.
Qed.

Lemma exec_frame_back : forall ext idx t v, ~ In v (rinputs t) -> rexec ext idx t true v = idx v.
Proof.
  intros ext idx t v H. destruct t; simpl in H |- *; unfold upd;
    repeat match goal with |- context [Nat.eqb ?a ?b] => destruct (Nat.eqb_spec a b) end;
    subst; try reflexivity; exfalso; intuition.
Qed.

Lemma beq_ext : forall ext f g t, (forall v, In v (rinputs t ++ routputs t) -> f v = g v) ->
  beq ext f t -> beq ext g t.
Proof.
  intros ext f g t E B. destruct t; simpl in E, B |- *;
    rewrite <- ?E by auto 6; exact B.
Qed.

Lemma propagate_good : forall s k steps k', good s k steps k' -> vfacts s ->
  (forall st, In st steps -> snd st = true) -> forall idx,
  (forall v, k v = true -> rpropagate s steps idx v = idx v) /\
  (forall t b, In (t, b) steps -> beq (rext s) (rpropagate s steps idx) (tr_at s t)).
Proof.
  intros s k steps k' G V. induction G as [k|k t b rest k' Ht [Ok X] G IH]; intros Back idx.
  - split; [reflexivity|contradiction].
  - assert (Hb : b = true) by exact (Back (t, b) (or_introl eq_refl)). subst b.
    set (idx1 := rexec (rext s) idx (tr_at s t) true).
    change (rpropagate s ((t, true) :: rest) idx) with (rpropagate s rest idx1).
    destruct (IH (fun st H => Back st (or_intror H)) idx1) as [K1 B1].
    assert (Kn : forall v, In v (rinputs (tr_at s t) ++ routputs (tr_at s t)) ->
               kupd k (tr_at s t) true v = true).
    { intros v Hv. unfold kupd, targets. apply in_app_or in Hv. destruct Hv as [Hv|Hv].
      - apply orb_true_intro. right. apply memn_In, Hv.
      - unfold allk in Ok. rewrite forallb_forall in Ok. rewrite (Ok v Hv). reflexivity. }
    split.
    + intros v Hv. rewrite K1 by (unfold kupd; rewrite Hv; reflexivity).
      apply exec_frame_back. intros Hin. unfold targets in X.
      assert (existsb k (rinputs (tr_at s t)) = true) by (apply existsb_exists; eauto).
      congruence.
    + intros t' b' [E|Hin].
      * injection E as <- <-. apply beq_ext with idx1.
        -- intros v Hv. symmetry. apply K1, Kn, Hv.
        -- apply exec_beq, (v_nodup s V t Ht).
      * exact (B1 t' b' Hin).
Qed.

(** ** The loop terms' IterDomains are the schedule's *)

Lemma sub_ids : forall s ts, vfacts s -> tbh s ts -> forall t i, (i < nid s)%nat -> tt ts i = t ->
  forall u, In u (sub t) -> exists j, (j < nid s)%nat /\ u = tt ts j.
Proof.
  intros s ts V TB t.
  induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros i Hi Ei u Hu;
    simpl in Hu; destruct Hu as [<-|Hu]; try (exists i; split; [exact Hi|symmetry; exact Ei]).
  - contradiction.
  - destruct (tt_split s ts i x f ok io V TB Hi Ei) as [k [p [o [n [Hk [E [X _]]]]]]].
    apply (IH p); auto. apply (v_range s V k p Hk). rewrite E. simpl. auto.
  - destruct (tt_merge s ts i a b V TB Hi Ei) as [k [o [n [Hk [E [A B]]]]]].
    apply in_app_or in Hu. destruct Hu as [Hu|Hu].
    + apply (IHa o); auto. apply (v_range s V k o Hk). rewrite E. simpl. auto.
    + apply (IHb n); auto. apply (v_range s V k n Hk). rewrite E. simpl. auto.
  - destruct (tt_resize s ts i x l r V TB Hi Ei) as [k [p [Hk [E X]]]].
    apply (IH p); auto. apply (v_range s V k p Hk). rewrite E. simpl. auto.
  - destruct (tt_swizzle s ts i x y io V TB Hi Ei) as [k [x' [y' [ox [oy [Hk [E [X [Y _]]]]]]]]].
    apply in_app_or in Hu. destruct Hu as [Hu|Hu].
    + apply (IHx x'); auto. apply (v_range s V k x' Hk). rewrite E. simpl. auto.
    + apply (IHy y'); auto. apply (v_range s V k y' Hk). rewrite E. simpl. auto.
Qed.

Lemma subs_ids : forall s ts, vfacts s -> tbh s ts ->
  forall u, In u (subs (loop_terms s ts)) -> exists j, (j < nid s)%nat /\ u = tt ts j.
Proof.
  intros s ts V TB u Hu. unfold subs, loop_terms in Hu. apply in_flat_map in Hu.
  destruct Hu as [t [Ht Hu]]. apply in_map_iff in Ht. destruct Ht as [l [El Hl]].
  exact (sub_ids s ts V TB t l (v_loop s V l Hl) El u Hu).
Qed.

(** Every IterDomain the plan computes is in the loop terms. *)
Lemma good_in_subs : forall s ts k steps k', good s k steps k' -> vfacts s -> tbh s ts ->
  (forall st, In st steps -> snd st = true) ->
  (forall v, k v = true -> (v < nid s)%nat -> In (tt ts v) (subs (loop_terms s ts))) ->
  (forall v, k' v = true -> (v < nid s)%nat -> In (tt ts v) (subs (loop_terms s ts))).
Proof.
  intros s ts k steps k' G V TB. induction G as [k|k t b rest k' Ht [Ok X] G IH];
    intros Back H; [exact H|].
  assert (Hb : b = true) by exact (Back (t, b) (or_introl eq_refl)). subst b.
  apply IH; [intros st Hs; apply Back; right; exact Hs|].
  intros v Hv Hn. unfold kupd, targets in Hv. apply orb_true_iff in Hv.
  destruct Hv as [Hv|Hv]; [exact (H v Hv Hn)|]. apply memn_In in Hv.
  unfold allk in Ok. rewrite forallb_forall in Ok.
  assert (Out : forall o, In o (routputs (tr_at s t)) -> In (tt ts o) (subs (loop_terms s ts))).
  { intros o Ho. apply H; [exact (Ok o Ho)|]. apply (v_range s V t o Ht), in_or_app. auto. }
  pose proof (tt_out s ts t V TB Ht) as Q.
  destruct (tr_at s t) as [p o n f ok|o n out|p out l r|x y ox oy]; simpl in Hv, Out, Q.
  - destruct Hv as [<-|[]]. apply (subs_closed _ (tt ts o)); [apply Out; auto|].
    rewrite (proj1 Q). reflexivity.
  - apply (subs_closed _ (tt ts out)); [apply Out; auto|]. rewrite Q. simpl.
    destruct Hv as [<-|[<-|[]]]; auto.
  - destruct Hv as [<-|[]]. apply (subs_closed _ (tt ts out)); [apply Out; auto|].
    rewrite Q. reflexivity.
  - apply (subs_closed _ (tt ts ox)); [apply Out; auto|]. rewrite (proj1 Q). simpl.
    destruct Hv as [<-|[<-|[]]]; auto.
Qed.

(** ** The theorem *)

Lemma inner_ext_extent : forall E x f ok, inner_ext E x f ok = extent E (TSplit x f ok false).
Proof. intros. destruct ok; reflexivity. Qed.

(** Everything [rterms] and [plan] give, at once. *)
Record backward_run (s : rsched) (ts : list term) (steps : list (nat * bool)) (kf : nat -> bool)
  : Prop := {
  br_valid : vfacts s;
  br_tbh : tbh s ts;
  br_uses : forall i, (i < nid s)%nat -> (uses s i <= 1)%nat;
  br_len : length ts = nid s;
  br_back : forall st, In st steps -> snd st = true;
  br_good : good s (fun i => memn i (sloop s)) steps kf;
  br_known : forall i, (i < nid s)%nat -> kf i = true;
  br_done : forall t, (t < ntr s)%nat -> In (t, true) steps
}.

Lemma backward_run_of : forall s ts steps, rterms s = Some ts -> plan s = POk steps ->
  exists kf, backward_run s ts steps kf.
Proof.
  intros s ts steps R P. destruct (rterms_facts s ts R) as [st' [P' [Back [U [TB Len]]]]].
  rewrite P in P'. injection P' as <-.
  destruct (plan_good s steps P) as [V [kf [G [All Done]]]].
  exists kf. constructor; auto.
  intros t Ht. destruct (proj1 (in_map_iff _ _ _) (Done t Ht)) as [[t' b] [E H]].
  simpl in E. subst t'. pose proof (Back _ H) as Bb. simpl in Bb. subst b. exact H.
Qed.

Lemma run_all_in_subs : forall s ts steps kf, backward_run s ts steps kf ->
  forall i, (i < nid s)%nat -> In (tt ts i) (subs (loop_terms s ts)).
Proof.
  intros s ts steps kf R i Hi. destruct R.
  apply (good_in_subs s ts _ steps kf br_good0 br_valid0 br_tbh0 br_back0); [|exact (br_known0 i Hi)|exact Hi].
  intros v Hv _. apply memn_In in Hv. apply in_subs. unfold loop_terms. apply in_map_iff.
  exists v. split; [reflexivity|exact Hv].
Qed.

(** The main theorem: Rust's indices are a backward valuation of its terms. *)
Theorem rust_backward_consistent : forall s ts steps idx0 p,
  rterms s = Some ts -> plan s = POk steps ->
  Forall2 (fun l v => idx0 l = v) (sloop s) p ->
  consistent (rootE s) (loop_terms s ts) p (rho_of ts (rpropagate s steps idx0)).
Proof.
  intros s ts steps idx0 p Rt Pl Lp.
  destruct (backward_run_of s ts steps Rt Pl) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  set (fin := rpropagate s steps idx0).
  destruct (propagate_good s _ steps kf G V Back idx0) as [Keep Eqs].
  assert (Rho : forall i, (i < nid s)%nat -> rho_of ts fin (tt ts i) = fin i)
    by (intros i Hi; exact (rho_at s ts fin i V TB U Len Hi)).
  split.
  - assert (Lv : forall l, In l (sloop s) -> rho_of ts fin (tt ts l) = idx0 l).
    { intros l Hl. rewrite (Rho l (v_loop s V l Hl)). apply Keep, memn_In, Hl. }
    unfold loop_terms. clear Keep Eqs.
    assert (Gen : forall ls vs, (forall l, In l ls -> rho_of ts fin (tt ts l) = idx0 l) ->
              Forall2 (fun l v => idx0 l = v) ls vs ->
              Forall2 (fun t v => rho_of ts fin t = v) (map (fun l => nth l ts (TRoot l)) ls) vs).
    { intros ls vs H F. induction F as [|l v ls vs E F IH]; simpl; constructor.
      - change (nth l ts (TRoot l)) with (tt ts l). rewrite H by (left; reflexivity). exact E.
      - apply IH. intros l' Hl'. apply H. right. exact Hl'. }
    exact (Gen _ _ Lv Lp).
  - intros u Hu. destruct (subs_ids s ts V TB u Hu) as [i [Hi ->]].
    destruct (tt_cases s ts i V TB Hi) as [Ri|[k [Hk Ok]]]; [rewrite Ri; exact I|].
    pose proof (Eqs k true (Done k Hk)) as B. pose proof (tt_out s ts k V TB Hk) as Q.
    assert (Rg : forall j, In j (rinputs (tr_at s k) ++ routputs (tr_at s k)) -> (j < nid s)%nat)
      by (intros j Hj; exact (v_range s V k j Hk Hj)).
    assert (Ex : forall j, In j (rinputs (tr_at s k) ++ routputs (tr_at s k)) ->
               rext s j = extent (rootE s) (tt ts j))
      by (intros j Hj; exact (ext_all s ts V TB j (Rg j Hj))).
    destruct (tr_at s k) as [p0 o n f ok|o n out|p0 out l r|x y ox oy];
      simpl in Ok, Q, B, Rg, Ex.
    + destruct Q as [Q1 Q2].
      assert (Bs : bstep (rootE s) (rho_of ts fin) (TSplit (tt ts p0) f ok true)).
      { simpl. rewrite <- Q1, <- Q2, !Rho by auto. rewrite inner_ext_extent, <- Q2, <- Ex by auto.
        exact B. }
      destruct Ok as [<-|[<-|[]]]; [rewrite Q1; exact Bs|rewrite Q2; exact Bs].
    + destruct Ok as [<-|[]]. rewrite Q. simpl. rewrite <- Q, !Rho, <- Ex by auto. exact B.
    + destruct Ok as [<-|[]]. rewrite Q. simpl. rewrite <- Q, !Rho by auto. exact B.
    + destruct Q as [Q1 Q2].
      assert (Bs : bstep (rootE s) (rho_of ts fin) (TSwizzle (tt ts x) (tt ts y) false)).
      { simpl. rewrite <- Q1, <- Q2, !Rho by (apply Rg; tauto). exact B. }
      destruct Ok as [<-|[<-|[]]]; [rewrite Q1; exact Bs|rewrite Q2; exact Bs].
Qed.

(** ** Hence THE backward map, and the rules Rust runs *)

Theorem rust_loop_terms_wf : forall s ts steps, rterms s = Some ts -> plan s = POk steps ->
  wf (loop_terms s ts).
Proof.
  intros s ts steps Rt Pl. destruct (backward_run_of s ts steps Rt Pl) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  intros u Hu. destruct (subs_ids s ts V TB u Hu) as [i [Hi ->]].
  destruct (tt ts i) as [r|x f ok io|a b|x l r|x y io] eqn:E; simpl; auto.
  - destruct (tt_split s ts i x f ok io V TB Hi E) as [k [p [o [n [Hk [Et [X _]]]]]]].
    pose proof (tt_out s ts k V TB Hk) as Q. rewrite Et in Q. destruct Q as [Q1 Q2].
    rewrite <- X, <- Q1, <- Q2.
    split; apply (run_all_in_subs s ts steps kf R); apply (v_range s V k _ Hk); rewrite Et; simpl; auto.
  - destruct (tt_swizzle s ts i x y io V TB Hi E) as [k [x' [y' [ox [oy [Hk [Et [X [Y _]]]]]]]]].
    pose proof (tt_out s ts k V TB Hk) as Q. rewrite Et in Q. destruct Q as [Q1 Q2].
    rewrite <- X, <- Y, <- Q1, <- Q2.
    split; apply (run_all_in_subs s ts steps kf R); apply (v_range s V k _ Hk); rewrite Et; simpl; auto 6.
Qed.

(** Any backward valuation of the loop terms at [p] is the one Rust computes, at every
    IterDomain (roots included). *)
Theorem rust_backward_unique : forall s ts steps idx0 p rho,
  rterms s = Some ts -> plan s = POk steps ->
  Forall2 (fun l v => idx0 l = v) (sloop s) p ->
  consistent (rootE s) (loop_terms s ts) p rho ->
  forall i, (i < nid s)%nat -> rho (tt ts i) = rpropagate s steps idx0 i.
Proof.
  intros s ts steps idx0 p rho Rt Pl Lp C i Hi.
  destruct (backward_run_of s ts steps Rt Pl) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  rewrite (consistent_unique _ _ p rho (rho_of ts (rpropagate s steps idx0))
             (rust_loop_terms_wf s ts steps Rt Pl) C
             (rust_backward_consistent s ts steps idx0 p Rt Pl Lp) (tt ts i)
             (run_all_in_subs s ts steps kf R i Hi)).
  exact (rho_at s ts _ i V TB U Len Hi).
Qed.

Lemma root_value : forall s ts steps idx r, rterms s = Some ts -> plan s = POk steps ->
  In (TRoot r) (subs (loop_terms s ts)) -> rho_of ts idx (TRoot r) = idx r.
Proof.
  intros s ts steps idx r Rt Pl H. destruct (backward_run_of s ts steps Rt Pl) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  destruct (subs_ids s ts V TB _ H) as [j [Hj Ej]].
  pose proof (tt_rootc s ts j r V TB Hj (eq_sym Ej)) as ->. rewrite Ej.
  exact (rho_at s ts idx r V TB U Len Hj).
Qed.

(** The roots of every IterDomain are reached by the loop terms. *)
Corollary rust_roots_reached : forall s ts steps r, rterms s = Some ts -> plan s = POk steps ->
  (r < nid s)%nat -> is_out s r = false -> In (TRoot r) (subs (loop_terms s ts)).
Proof.
  intros s ts steps r Rt Pl Hr Ho. destruct (backward_run_of s ts steps Rt Pl) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  rewrite <- (tt_root s ts r V TB Hr Ho). exact (run_all_in_subs s ts steps kf R r Hr).
Qed.

Lemma extent_agree : forall E1 E2 t, (forall r, In (TRoot r) (sub t) -> E1 r = E2 r) ->
  extent E1 t = extent E2 t.
Proof.
  intros E1 E2 t. induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros H;
    simpl.
  - apply H. left. reflexivity.
  - rewrite IH; [reflexivity|]. intros r Hr. apply H. right. exact Hr.
  - rewrite IHa, IHb; [reflexivity| |]; intros r Hr; apply H; right; apply in_or_app; auto.
  - rewrite IH; [reflexivity|]. intros r0 Hr. apply H. right. exact Hr.
  - rewrite IHx, IHy; [reflexivity| |]; intros r Hr; apply H; right; apply in_or_app; auto.
Qed.

Lemma subs_sub : forall L x v, In x (subs L) -> In v (sub x) -> In v (subs L).
Proof.
  intros L x v Hx Hv. unfold subs in *. apply in_flat_map in Hx. destruct Hx as [t [Ht Hx]].
  apply in_flat_map. exists t. split; [exact Ht|]. exact (sub_trans t x v Hx Hv).
Qed.

Lemma consistent_agree : forall E1 E2 L p rho, consistent E1 L p rho ->
  (forall r, In (TRoot r) (subs L) -> E1 r = E2 r) -> consistent E2 L p rho.
Proof.
  intros E1 E2 L p rho [T B] A. split; [exact T|]. intros u Hu. specialize (B u Hu).
  assert (Ag : forall c, child c u -> extent E1 c = extent E2 c).
  { intros c Hc. apply extent_agree. intros r Hr. apply A.
    apply (subs_sub L c); [apply (subs_closed L u c Hu Hc)|exact Hr]. }
  destruct u as [r|x f ok io|a b|x l r|x y io]; simpl in B |- *; auto.
  - unfold inner_ext in *. rewrite <- (Ag x eq_refl). exact B.
  - rewrite <- (Ag b (or_intror eq_refl)). exact B.
Qed.

(** Identical loop terms: Rust's [propagate] reaches the same root indices in both
    schedules from every loop point, holes and points outside the box included. *)
Theorem rust_identical_terms_sound : forall s1 s2 ts1 ts2 st1 st2 p idx1 idx2,
  rterms s1 = Some ts1 -> plan s1 = POk st1 -> rterms s2 = Some ts2 -> plan s2 = POk st2 ->
  loop_terms s1 ts1 = loop_terms s2 ts2 ->
  (forall r, In (TRoot r) (subs (loop_terms s1 ts1)) -> rootE s1 r = rootE s2 r) ->
  Forall2 (fun l v => idx1 l = v) (sloop s1) p -> Forall2 (fun l v => idx2 l = v) (sloop s2) p ->
  forall r, In (TRoot r) (subs (loop_terms s1 ts1)) ->
    rpropagate s2 st2 idx2 r = rpropagate s1 st1 idx1 r.
Proof.
  intros s1 s2 ts1 ts2 st1 st2 p idx1 idx2 R1 P1 R2 P2 EL A L1 L2 r Hr.
  pose proof (rust_backward_consistent s1 ts1 st1 idx1 p R1 P1 L1) as C1.
  pose proof (rust_backward_consistent s2 ts2 st2 idx2 p R2 P2 L2) as C2.
  rewrite <- EL in C2.
  apply consistent_agree with (E2 := rootE s1) in C2; [|intros r0 H0; symmetry; apply A, H0].
  pose proof (consistent_unique _ _ p _ _ (rust_loop_terms_wf s1 ts1 st1 R1 P1) C1 C2 _ Hr) as E.
  rewrite (root_value s1 ts1 st1 _ r R1 P1 Hr) in E.
  rewrite EL in Hr. rewrite (root_value s2 ts2 st2 _ r R2 P2 Hr) in E. symmetry. exact E.
Qed.

(** Equal normal forms and [backward_check]: Rust's [propagate] reaches the same root
    indices in both schedules from every point of the first one's box, holes included. *)
Theorem rust_normal_forms_sound : forall s1 s2 ts1 ts2 st1 st2 fuel p idx1 idx2,
  rterms s1 = Some ts1 -> plan s1 = POk st1 -> rterms s2 = Some ts2 -> plan s2 = POk st2 ->
  (forall r, In (TRoot r) (subs (loop_terms s2 ts2)) -> rootE s1 r = rootE s2 r) ->
  backward_check (rootE s1) (loop_terms s1 ts1) (loop_terms s2 ts2) = true ->
  map (normalize (rootE s1) fuel) (loop_terms s1 ts1) =
  map (normalize (rootE s1) fuel) (loop_terms s2 ts2) ->
  Forall2 (fun l v => 0 <= v < rext s1 l) (sloop s1) p ->
  Forall2 (fun l v => idx1 l = v) (sloop s1) p -> Forall2 (fun l v => idx2 l = v) (sloop s2) p ->
  forall r, In (TRoot r) (subs (loop_terms s1 ts1)) -> In (TRoot r) (subs (loop_terms s2 ts2)) ->
    rpropagate s2 st2 idx2 r = rpropagate s1 st1 idx1 r.
Proof.
  intros s1 s2 ts1 ts2 st1 st2 fuel p idx1 idx2 R1 P1 R2 P2 A K N Box L1 L2 r Hr1 Hr2.
  pose proof (rust_backward_consistent s1 ts1 st1 idx1 p R1 P1 L1) as C1.
  pose proof (rust_backward_consistent s2 ts2 st2 idx2 p R2 P2 L2) as C2.
  apply consistent_agree with (E2 := rootE s1) in C2; [|intros r0 H0; symmetry; apply A, H0].
  destruct (backward_run_of s1 ts1 st1 R1 P1) as [kf R].
  pose proof R as [V TB U Len Back G Known Done].
  assert (Box' : Forall2 (fun t v => 0 <= v < extent (rootE s1) t) (loop_terms s1 ts1) p).
  { unfold loop_terms.
    assert (Gen : forall ls vs, (forall l, In l ls -> (l < nid s1)%nat) ->
              Forall2 (fun l v => 0 <= v < rext s1 l) ls vs ->
              Forall2 (fun t v => 0 <= v < extent (rootE s1) t)
                      (map (fun l => nth l ts1 (TRoot l)) ls) vs).
    { intros ls vs H F. induction F as [|l v ls vs E F IH]; simpl; constructor.
      - change (nth l ts1 (TRoot l)) with (tt ts1 l).
        rewrite <- (ext_all s1 ts1 V TB l (H l (or_introl eq_refl))). exact E.
      - apply IH. intros l' Hl'. apply H. right. exact Hl'. }
    exact (Gen _ _ (v_loop s1 V) Box). }
  pose proof (backward_check_sound _ fuel _ _ p _ _ K N Box' C1 C2 r Hr2) as E.
  rewrite (root_value s1 ts1 st1 _ r R1 P1 Hr1), (root_value s2 ts2 st2 _ r R2 P2 Hr2) in E.
  exact E.
Qed.

(** ** [terms]' "used twice" test never decides *)

Lemma good_targets_unknown : forall s k steps k', good s k steps k' ->
  forall t b v, In (t, b) steps -> In v (targets (tr_at s t) b) -> k v = false.
Proof.
  intros s k steps k' G. induction G as [k|k t b rest k' Ht [Ok X] G IH];
    intros t1 b1 v H Hv; [contradiction|].
  destruct H as [E|H].
  - injection E as <- <-. destruct (k v) eqn:Kv; [|reflexivity].
    assert (existsb k (targets (tr_at s t) b) = true) by (apply existsb_exists; eauto).
    congruence.
  - specialize (IH t1 b1 v H Hv). unfold kupd in IH. apply orb_false_iff in IH. apply IH.
Qed.

Lemma good_inputs_once : forall s k steps k', good s k steps k' ->
  (forall st, In st steps -> snd st = true) ->
  forall t1 t2 i, In (t1, true) steps -> In (t2, true) steps ->
  In i (rinputs (tr_at s t1)) -> In i (rinputs (tr_at s t2)) -> t1 = t2.
Proof.
  intros s k steps k' G. induction G as [k|k t b rest k' Ht [Ok X] G IH];
    intros Back t1 t2 i H1 H2 I1 I2; [contradiction|].
  assert (Hb : b = true) by exact (Back (t, b) (or_introl eq_refl)). subst b.
  assert (Later : forall t', In (t', true) rest -> In i (rinputs (tr_at s t')) ->
                  In i (rinputs (tr_at s t)) -> False).
  { intros t' H' I' I. pose proof (good_targets_unknown s _ rest k' G t' true i H' I') as U.
    unfold kupd, targets in U. apply memn_In in I. rewrite I, orb_true_r in U. discriminate. }
  destruct H1 as [E1|H1]; destruct H2 as [E2|H2].
  - injection E1 as <-. injection E2 as <-. reflexivity.
  - injection E1 as <-. exfalso. exact (Later t2 H2 I2 I1).
  - injection E2 as <-. exfalso. exact (Later t1 H1 I1 I2).
  - exact (IH (fun st H => Back st (or_intror H)) t1 t2 i H1 H2 I1 I2).
Qed.

(** A plan that computes every index backward never has two transforms read
    one IterDomain: so [terms]' test for an IterDomain used twice never
    returns [None] after such a plan (two readers make [plan] fail first). *)
Theorem backward_plan_inputs_once : forall s steps, plan s = POk steps ->
  (forall st, In st steps -> snd st = true) ->
  forall k k' i, (k < ntr s)%nat -> (k' < ntr s)%nat ->
  In i (rinputs (tr_at s k)) -> In i (rinputs (tr_at s k')) -> k = k'.
Proof.
  intros s steps P Back k k' i Hk Hk' I I'.
  destruct (plan_good s steps P) as [V [kf [G [All Done]]]].
  assert (Dn : forall t, (t < ntr s)%nat -> In (t, true) steps).
  { intros t Ht. destruct (proj1 (in_map_iff _ _ _) (Done t Ht)) as [[t' b] [E H]].
    simpl in E. subst t'. pose proof (Back _ H) as Bb. simpl in Bb. subst b. exact H. }
  exact (good_inputs_once s _ steps kf G Back k k' i (Dn k Hk) (Dn k' Hk') I I').
Qed.
