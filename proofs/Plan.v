(** * What the predicate rules need of [plan] (issue 14, item 6)

    [domain/eval.rs]'s [plan] chooses, for every transform, the direction
    its indices are computed in (backward: from the outputs, or forward);
    [Space::propagate] runs the steps in that order at each loop point; the
    rules of [predicate.rs] ([Predicates.rules_of_step]) read the [back]
    flags of the same plan.  The rules are sound at every point satisfying
    [Predicates.step_valid] ([rule_sound]), so what they need of [plan] is
    that the indices [propagate] computes satisfy [step_valid] with the
    flags the rules were given.

    [exec] is one step of [Space::propagate] (split backward: input
    [= outer * E(inner) + inner]; forward: outer [= in / E(inner)], inner
    [= in mod E(inner)]; merge the other way round; resize [out = in + l];
    swizzle [out_x = x], [out_y = x xor y], and backward [x = out_x],
    [y = out_x xor out_y]); [propagate] runs a list of steps in order.
    [Z.div]/[Z.modulo] are Rust's Euclidean [ediv]/[emod] for the positive
    extents [step_extents] requires.

    Proved ([propagate_valid]): for ANY list of steps in which each step
    names distinct IterDomains, the flags of split and merge are the
    directions [exec] uses ([dir_ok]), and no step writes an IterDomain of
    an earlier step ([once]: what [plan]'s postcondition "every index is
    computed exactly once, after the indices it depends on" gives), the
    indices [propagate] computes from any loop indices satisfy
    [step_valid] for every step, given the schedule's extent relations
    ([step_extents]: a schedule fact, independent of the plan).  The loop
    indices are kept when no step writes a loop IterDomain
    ([propagate_keeps]).  Hence the choice of directions does not matter
    for soundness: any plan the rules and [propagate] share will do, and
    Rust calls the same deterministic [plan(s)] for both.

    Not proved: that Rust's [plan] returns a list with [once] (its
    postcondition, tested), and that it computes every IterDomain (else it
    returns [Undetermined], and nothing is derived). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Predicates.

Open Scope Z_scope.

(** A step with the direction [propagate] runs it in ([true]: backward). *)
Definition pstep : Type := (step * bool)%type.

Definition dir_ok (ps : pstep) : Prop :=
  match fst ps with
  | SSplit _ _ _ back _ => back = snd ps
  | SMerge _ _ _ back => back = snd ps
  | _ => True
  end.

Definition set (f : nat -> Z) (x : nat) (v : Z) : nat -> Z :=
  fun y => if Nat.eqb y x then v else f y.

Definition exec (ext : nat -> Z) (idx : nat -> Z) (ps : pstep) : nat -> Z :=
  let back := snd ps in
  match fst ps with
  | SSplit input outer inner _ _ =>
      if back then set idx input (idx outer * ext inner + idx inner)
      else set (set idx outer (idx input / ext inner)) inner (idx input mod ext inner)
  | SMerge outer inner output _ =>
      if back then set (set idx outer (idx output / ext inner)) inner (idx output mod ext inner)
      else set idx output (idx outer * ext inner + idx inner)
  | SResize input output l _ =>
      if back then set idx input (idx output - l) else set idx output (idx input + l)
  | SSwizzle x y ox oy _ =>
      if back then set (set idx x (idx ox)) y (Z.lxor (idx ox) (idx oy))
      else set (set idx ox (idx x)) oy (Z.lxor (idx x) (idx y))
  end.

Definition propagate (ext : nat -> Z) (idx : nat -> Z) (ps : list pstep) : nat -> Z :=
  fold_left (exec ext) ps idx.

Definition targets (ps : pstep) : list nat :=
  match fst ps with
  | SSplit input outer inner _ _ => if snd ps then [input] else [outer; inner]
  | SMerge outer inner output _ => if snd ps then [outer; inner] else [output]
  | SResize input output _ _ => if snd ps then [input] else [output]
  | SSwizzle x y ox oy _ => if snd ps then [x; y] else [ox; oy]
  end.

Definition ids_of (st : step) : list nat :=
  match st with
  | SSplit input outer inner _ _ => [input; outer; inner]
  | SMerge outer inner output _ => [outer; inner; output]
  | SResize input output _ _ => [input; output]
  | SSwizzle x y ox oy _ => [x; y; ox; oy]
  end.

(** Every step names distinct IterDomains, has the right flag, and no
    later step writes one of its IterDomains. *)
Fixpoint once (ps : list pstep) : Prop :=
  match ps with
  | [] => True
  | s :: rest =>
      NoDup (ids_of (fst s)) /\ dir_ok s /\
      (forall j t, In j rest -> In t (targets j) -> ~ In t (ids_of (fst s))) /\ once rest
  end.

(** The extent relations of the schedule (the part of [step_valid] that
    does not involve indices). *)
Definition step_extents (ext : nat -> Z) (st : step) : Prop :=
  match st with
  | SSplit input outer inner _ divisible =>
      0 < ext inner /\ ext input <= ext outer * ext inner /\
      (divisible = true -> ext input = ext outer * ext inner)
  | SMerge outer inner output _ => 0 < ext inner /\ ext output = ext outer * ext inner
  | SResize input output l r => ext output = ext input + l + r
  | SSwizzle x y ox oy closed =>
      ext ox = ext x /\ ext oy = ext y /\
      (closed = true -> exists k, 0 <= k /\ ext y = 2 ^ k /\ ext x <= ext y)
  end.

Lemma set_eq : forall f x v, set f x v x = v.
Proof. intros. unfold set. rewrite Nat.eqb_refl. reflexivity. Qed.

Lemma set_neq : forall f x v y, y <> x -> set f x v y = f y.
Proof. intros f x v y H. unfold set. apply Nat.eqb_neq in H. rewrite H. reflexivity. Qed.

Lemma exec_only_targets : forall ext idx s v, ~ In v (targets s) -> exec ext idx s v = idx v.
Proof.
  intros ext idx [st back] v H. unfold exec, targets in *; simpl in *.
  destruct st; destruct back; simpl in H; rewrite ?set_neq; intuition.
Qed.

Lemma propagate_frame : forall ext ps idx v,
  (forall j, In j ps -> ~ In v (targets j)) -> propagate ext idx ps v = idx v.
Proof.
  intros ext ps. unfold propagate. induction ps as [|s ps IH]; intros idx v H; [reflexivity|].
  simpl. rewrite IH by (intros j Hj; apply H; right; exact Hj).
  apply exec_only_targets, H. left. reflexivity.
Qed.

Lemma step_valid_ext : forall ext idx idx' st,
  (forall v, In v (ids_of st) -> idx' v = idx v) ->
  step_valid ext idx st -> step_valid ext idx' st.
Proof.
  intros ext idx idx' st E V. destruct st; simpl in E, V |- *;
    rewrite ?E by auto; exact V.
Qed.

Lemma lxor_cancel : forall a b, Z.lxor a (Z.lxor a b) = b.
Proof. intros a b. rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l. reflexivity. Qed.

Ltac simpl_set := repeat (first [rewrite set_eq | rewrite set_neq by (intro; subst; intuition)]).

Lemma exec_valid : forall ext idx s,
  NoDup (ids_of (fst s)) -> dir_ok s -> step_extents ext (fst s) ->
  step_valid ext (exec ext idx s) (fst s).
Proof.
  intros ext idx [st back] D O X. unfold dir_ok in O. simpl in *.
  destruct st as [input outer inner b div|outer inner output b|input output l r|x y ox oy cl];
    simpl in D, O, X |- *.
  - subst b. rewrite NoDup_cons_iff in D. destruct D as [D1 D]. rewrite NoDup_cons_iff in D.
    destruct D as [D2 _]. simpl in D1, D2.
    destruct X as [X1 [X2 X3]].
    destruct back; unfold exec; simpl; simpl_set.
    + repeat split; try assumption; try lia; try discriminate.
    + pose proof (Z.div_mod (idx input) (ext inner) ltac:(lia)).
      repeat split; try assumption; lia.
  - subst b. rewrite NoDup_cons_iff in D. destruct D as [D1 D]. rewrite NoDup_cons_iff in D.
    destruct D as [D2 _]. simpl in D1, D2. destruct X as [X1 X2].
    destruct back; unfold exec; simpl; simpl_set.
    + pose proof (Z.div_mod (idx output) (ext inner) ltac:(lia)).
      repeat split; try assumption; lia.
    + repeat split; try assumption; try lia; try discriminate.
  - rewrite NoDup_cons_iff in D. destruct D as [D1 _]. simpl in D1.
    destruct back; unfold exec; simpl; simpl_set; split; try exact X; lia.
  - rewrite NoDup_cons_iff in D. destruct D as [D1 D]. rewrite NoDup_cons_iff in D.
    destruct D as [D2 D]. rewrite NoDup_cons_iff in D. destruct D as [D3 _].
    simpl in D1, D2, D3. destruct X as [X1 [X2 X3]].
    destruct back; unfold exec; simpl; simpl_set.
    + repeat split; try assumption. rewrite lxor_cancel. reflexivity.
    + repeat split; assumption.
Qed.

Theorem propagate_valid : forall ext ps idx,
  once ps -> Forall (fun s => step_extents ext (fst s)) ps ->
  Forall (fun s => step_valid ext (propagate ext idx ps) (fst s)) ps.
Proof.
  intros ext ps. induction ps as [|s ps IH]; intros idx O X; [constructor|].
  destruct O as [D [Dir [Later O]]]. inversion X as [|? ? Xs Xps]; subst.
  constructor.
  - apply step_valid_ext with (exec ext idx s).
    + intros v Hv. unfold propagate. simpl. fold (propagate ext (exec ext idx s) ps).
      apply propagate_frame. intros j Hj Ht. exact (Later j v Hj Ht Hv).
    + apply exec_valid; assumption.
  - unfold propagate. simpl. fold (propagate ext (exec ext idx s) ps). apply IH; assumption.
Qed.

(** The loop indices are kept when no step writes a loop IterDomain. *)
Corollary propagate_keeps : forall ext ps idx loops,
  (forall j t, In j ps -> In t (targets j) -> ~ In t loops) ->
  forall v, In v loops -> propagate ext idx ps v = idx v.
Proof.
  intros ext ps idx loops H v Hv. apply propagate_frame. intros j Hj Ht. exact (H j v Hj Ht Hv).
Qed.

(** Hence with [rule_sound]: at every point [propagate] computes, every
    rule of every step holds, whatever directions the plan chose. *)
Corollary plan_rules_sound : forall ext ps idx,
  once ps -> Forall (fun s => step_extents ext (fst s)) ps ->
  forall s ru, In s ps -> In ru (rules_of_step (fst s)) ->
  rule_holds ext (propagate ext idx ps) ru.
Proof.
  intros ext ps idx O X s ru Hs Hru.
  pose proof (propagate_valid ext ps idx O X) as V. rewrite Forall_forall in V.
  exact (rule_sound ext (propagate ext idx ps) (fst s) (V s Hs) ru Hru).
Qed.

Close Scope Z_scope.
