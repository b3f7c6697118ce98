(** * The enumeration pass of [derive] (issue 14, item 6)

    [domain/predicate.rs]'s [derive] first keeps the conditions the Horn
    rules cannot drop ([derive_by_theorems]: [Closure.v], [Predicates.v]);
    when extents are concrete it then tries the kept conditions one at a
    time, in [drop_order] restricted to them: a candidate [x] is dropped
    when the others, [rest], are equivalent to "no hole" at every loop point
    ([eval::equivalent]: [passes(rest) == valid] at every point of the
    enumeration, which stops at the first mismatch).  [enum_pass] below is
    that loop.  Points are abstract ([P]); [inb p v] is "IterDomain [v] is
    in bound at point [p]"; [valid p] is "no IterDomain out of bound".

    Proved:
    - [enum_pass_sound]: the pass keeps "the predicate is equivalent to no
      hole at every enumerated point" (each drop is checked at every point);
    - [enum_pass_subset]: it only removes conditions;
    - [enum_pass_minimal]: when every candidate is tried and [valid]
      implies every condition, no proper subset of the result is
      equivalent: for each one, some enumerated hole passes it.  The order
      of the candidates changes which minimal set comes out, not
      soundness or minimality;
    - [derive_iff_no_hole]: with the rules' part
      ([Predicates.predicate_iff_no_hole_acyclic]), the whole derivation
      (rules, then enumeration) gives a predicate that holds at an
      enumerated loop point exactly when no IterDomain is out of bound
      there; [derive_iff_no_hole_closure] states it for the justifications
      [Closure.closure] builds.

    Trusted (tested, not proved): that Rust's enumeration visits every loop
    point of the box ([Space::for_each]) and computes the indices as the
    steps say ([Space::propagate]). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Predicates Closure.


(** ** The pass, on abstract points *)

Definition passes {P : Type} (inb : P -> nat -> bool) (S : list nat) (p : P) : bool :=
  forallb (inb p) S.

(** [eval::equivalent]: the predicate built from [S] agrees with [valid]
    at every point (a [false] at the first mismatch is the same boolean). *)
Definition equivalentb {P : Type} (pts : list P) (inb : P -> nat -> bool) (valid : P -> bool)
  (S : list nat) : bool :=
  forallb (fun p => Bool.eqb (passes inb S p) (valid p)) pts.

Definition without (x : nat) (S : list nat) : list nat := filter (fun i => negb (Nat.eqb i x)) S.

Definition pass_step {P : Type} (pts : list P) (inb : P -> nat -> bool) (valid : P -> bool)
  (S : list nat) (x : nat) : list nat :=
  let rest := without x S in
  if equivalentb pts inb valid rest then rest else S.

Definition enum_pass {P : Type} (pts : list P) (inb : P -> nat -> bool) (valid : P -> bool)
  (order S : list nat) : list nat :=
  fold_left (pass_step pts inb valid) order S.


(** The pass with [valid p] = "every IterDomain of [ids] is in bound at
    [p]" ([Space::valid]), as the bridge runs it. *)
Definition enum_pass_ids {P : Type} (pts : list P) (inb : P -> nat -> bool)
  (ids order S : list nat) : list nat :=
  enum_pass pts inb (fun p => forallb (inb p) ids) order S.

Lemma equivalentb_spec : forall {P : Type} pts (inb : P -> nat -> bool) valid S,
  equivalentb pts inb valid S = true <-> forall p, In p pts -> passes inb S p = valid p.
Proof.
  intros P pts inb valid S. unfold equivalentb. rewrite forallb_forall.
  split; intros H p Hp; specialize (H p Hp); [apply Bool.eqb_prop, H|rewrite H; apply eqb_reflx].
Qed.

Lemma without_sub : forall x S i, In i (without x S) -> In i S /\ i <> x.
Proof.
  intros x S i H. unfold without in H. apply filter_In in H. destruct H as [H E].
  split; [exact H|]. intros ->. rewrite Nat.eqb_refl in E. discriminate.
Qed.

Lemma without_in : forall x S i, In i S -> i <> x -> In i (without x S).
Proof.
  intros x S i H N. unfold without. apply filter_In. split; [exact H|].
  apply Nat.eqb_neq in N. rewrite N. reflexivity.
Qed.

Lemma passes_mono : forall {P : Type} (inb : P -> nat -> bool) S T p,
  (forall i, In i T -> In i S) -> passes inb S p = true -> passes inb T p = true.
Proof.
  intros P inb S T p Sub H. unfold passes in *. rewrite forallb_forall in *.
  intros i Hi. apply H, Sub, Hi.
Qed.

Theorem enum_pass_sound : forall {P : Type} pts (inb : P -> nat -> bool) valid order S,
  (forall p, In p pts -> passes inb S p = valid p) ->
  forall p, In p pts -> passes inb (enum_pass pts inb valid order S) p = valid p.
Proof.
  intros P pts inb valid order. unfold enum_pass.
  induction order as [|x order IH]; intros S H; simpl; [exact H|].
  apply IH. unfold pass_step. destruct (equivalentb pts inb valid (without x S)) eqn:E.
  - apply equivalentb_spec, E.
  - exact H.
Qed.

Theorem enum_pass_subset : forall {P : Type} pts (inb : P -> nat -> bool) valid order S i,
  In i (enum_pass pts inb valid order S) -> In i S.
Proof.
  intros P pts inb valid order. unfold enum_pass.
  induction order as [|x order IH]; intros S i H; simpl in H; [exact H|].
  apply IH in H. unfold pass_step in H.
  destruct (equivalentb pts inb valid (without x S)); [apply (without_sub x S i H)|exact H].
Qed.

(** A kept candidate was refused against a set between the result and the
    start. *)
Lemma enum_pass_kept : forall {P : Type} pts (inb : P -> nat -> bool) valid order S x,
  In x order -> In x (enum_pass pts inb valid order S) ->
  exists S', (forall i, In i (enum_pass pts inb valid order S) -> In i S') /\
             (forall i, In i S' -> In i S) /\
             equivalentb pts inb valid (without x S') = false.
Proof.
  intros P pts inb valid order. induction order as [|y order IH]; intros S x Hx Hf;
    [contradiction|].
  unfold enum_pass in Hf |- *. simpl in Hf |- *. fold (enum_pass pts inb valid order) in Hf |- *.
  destruct (Nat.eq_dec x y) as [<-|Ne].
  - unfold pass_step in Hf |- *.
    destruct (equivalentb pts inb valid (without x S)) eqn:E.
    + apply enum_pass_subset in Hf. apply without_sub in Hf. destruct Hf as [_ N].
      contradiction.
    + exists S. split; [intros i Hi; apply (enum_pass_subset _ _ _ _ _ _ Hi)|].
      split; [auto|exact E].
  - destruct Hx as [->|Hx]; [contradiction|].
    destruct (IH _ x Hx Hf) as [S' [A [B C]]].
    exists S'. split; [exact A|]. split; [|exact C].
    intros i Hi. specialize (B i Hi). unfold pass_step in B.
    destruct (equivalentb pts inb valid (without y S)); [apply (without_sub y S i B)|exact B].
Qed.

Theorem enum_pass_minimal : forall {P : Type} pts (inb : P -> nat -> bool) valid order S,
  (forall p, In p pts -> valid p = true -> forall i, In i S -> inb p i = true) ->
  (forall i, In i S -> In i order) ->
  let R := enum_pass pts inb valid order S in
  forall T, (forall i, In i T -> In i R) -> (exists x, In x R /\ ~ In x T) ->
  exists p, In p pts /\ passes inb T p = true /\ valid p = false.
Proof.
  intros P pts inb valid order S Vimp Cov R T Sub [x [HxR HxT]].
  assert (HxS : In x S) by exact (enum_pass_subset _ _ _ _ _ _ HxR).
  destruct (enum_pass_kept pts inb valid order S x (Cov x HxS) HxR) as [S' [A [B C]]].
  assert (C' : ~ (forall p, In p pts -> passes inb (without x S') p = valid p)).
  { intros H. apply equivalentb_spec in H. rewrite H in C. discriminate. }
  destruct (existsb (fun p => negb (Bool.eqb (passes inb (without x S') p) (valid p))) pts) eqn:Ex.
  - apply existsb_exists in Ex. destruct Ex as [p [Hp Np]].
    exists p. split; [exact Hp|].
    destruct (valid p) eqn:Vp, (passes inb (without x S') p) eqn:Pp; try discriminate Np.
    + (* valid, but the candidate predicate refuses it: impossible *)
      exfalso. assert (Pt : passes inb (without x S') p = true).
      { unfold passes. apply forallb_forall. intros i Hi.
        apply (Vimp p Hp Vp), B, (without_sub x S' i Hi). }
      rewrite Pt in Pp. discriminate.
    + split; [|reflexivity]. apply (passes_mono inb (without x S')); [|exact Pp].
      intros i Hi. apply without_in; [apply A, Sub, Hi|]. intros ->. contradiction.
  - exfalso. apply C'. intros p Hp.
    destruct (Bool.eqb (passes inb (without x S') p) (valid p)) eqn:Eq.
    + apply Bool.eqb_prop, Eq.
    + assert (In p pts /\ negb false = true) as Hw by (split; [exact Hp|reflexivity]).
      assert (existsb (fun p => negb (Bool.eqb (passes inb (without x S') p) (valid p))) pts = true)
        as Hc by (apply existsb_exists; exists p; rewrite Eq; exact Hw).
      rewrite Hc in Ex. discriminate.
Qed.

(** ** The whole derivation *)

Open Scope Z_scope.

Definition inbb (ext idx : nat -> Z) (v : nat) : bool := (0 <=? idx v) && (idx v <? ext v).

Lemma inbb_spec : forall ext idx v, inbb ext idx v = true <-> inb ext idx v.
Proof.
  intros ext idx v. unfold inbb, inb. rewrite andb_true_iff, Z.leb_le, Z.ltb_lt. tauto.
Qed.

Lemma forallb_inbb : forall ext idx S,
  forallb (inbb ext idx) S = true <-> (forall v, In v S -> inb ext idx v).
Proof.
  intros ext idx S. rewrite forallb_forall. split; intros H v Hv; apply inbb_spec, H, Hv.
Qed.

(** Loop points [pts], each with its indices [idx p] satisfying every
    step; [ids] the IterDomains checked ([Space::valid]); [chosen] the
    conditions the rules keep, with a rule-justified derivation [js] of
    the others.  Then the predicate after the enumeration pass holds at an
    enumerated point exactly when every IterDomain is in bound there. *)
Theorem derive_iff_no_hole : forall {P : Type} (pts : list P) ext (idx : P -> nat -> Z)
  steps loops chosen js ids order,
  (forall p, In p pts -> Forall (step_valid ext (idx p)) steps) ->
  (forall p, In p pts -> forall v, In v loops -> inb ext (idx p) v) ->
  acyclic_justified steps (chosen ++ loops) js ->
  (forall v, In v ids -> In v chosen \/ In v loops \/ exists ps, In (v, ps) js) ->
  (forall v, In v chosen -> In v ids) ->
  let inb_p := fun p v => inbb ext (idx p) v in
  let valid := fun p => forallb (inb_p p) ids in
  let R := enum_pass pts inb_p valid order chosen in
  forall p, In p pts ->
    ((forall v, In v R -> inb ext (idx p) v) <-> (forall v, In v ids -> inb ext (idx p) v)).
Proof.
  intros P pts ext idx steps loops chosen js ids order V L J Cover Sub inb_p valid R p Hp.
  assert (Start : forall q, In q pts -> passes inb_p chosen q = valid q).
  { intros q Hq. unfold passes, valid, inb_p.
    pose proof (predicate_iff_no_hole_acyclic ext (idx q) steps loops chosen js ids
                  (V q Hq) (L q Hq) J Cover Sub) as HI.
    destruct (forallb (inbb ext (idx q)) chosen) eqn:C1,
             (forallb (inbb ext (idx q)) ids) eqn:C2; try reflexivity.
    - pose proof (proj1 HI (proj1 (forallb_inbb _ _ _) C1)) as H1.
      rewrite (proj2 (forallb_inbb _ _ _) H1) in C2. discriminate.
    - pose proof (proj2 HI (proj1 (forallb_inbb _ _ _) C2)) as H2.
      rewrite (proj2 (forallb_inbb _ _ _) H2) in C1. discriminate. }
  pose proof (enum_pass_sound pts inb_p valid order chosen Start p Hp) as E.
  fold R in E. unfold passes, valid, inb_p in E.
  assert (E' : forallb (inbb ext (idx p)) R = forallb (inbb ext (idx p)) ids) by exact E.
  rewrite <- (forallb_inbb ext (idx p) R), <- (forallb_inbb ext (idx p) ids), E'. tauto.
Qed.

(** The same with the justifications [Closure.closure] builds
    ([derive_by_theorems]'s [dropped]): the kept set [chosen] and the
    rules [rust_rules loops steps]. *)
Corollary derive_iff_no_hole_closure : forall {P : Type} (pts : list P) ext (idx : P -> nat -> Z)
  steps loops chosen ids order_rules order_enum fuel,
  let rules := rust_rules loops steps in
  (forall p, In p pts -> Forall (step_valid ext (idx p)) steps) ->
  (forall p, In p pts -> forall v, In v loops -> inb ext (idx p) v) ->
  (forall v, In v order_rules -> ~ In v loops) ->
  (forall st r, In st steps -> In r (rules_of_step st) -> ~ In (snd r) loops ->
     In (snd r) order_rules) ->
  (forall v, In v ids -> In v chosen \/ In v loops \/
     exists ps, In (v, ps) (dropped rules (closure rules chosen fuel) order_rules)) ->
  (forall v, In v chosen -> In v ids) ->
  let inb_p := fun p v => inbb ext (idx p) v in
  let valid := fun p => forallb (inb_p p) ids in
  let R := enum_pass pts inb_p valid order_enum chosen in
  forall p, In p pts ->
    ((forall v, In v R -> inb ext (idx p) v) <-> (forall v, In v ids -> inb ext (idx p) v)).
Proof.
  intros P pts ext idx steps loops chosen ids order_rules order_enum fuel rules
    V L Hol Hcov Cover Sub.
  apply (derive_iff_no_hole pts ext idx steps loops chosen
           (dropped rules (closure rules chosen fuel) order_rules) ids order_enum V L).
  - apply closure_justified; assumption.
  - exact Cover.
  - exact Sub.
Qed.

(** Minimality of the whole derivation: when every kept condition is
    tried, no proper subset of the result is equivalent at the enumerated
    points (a hole passes it). *)
Corollary derive_minimal : forall {P : Type} (pts : list P) ext (idx : P -> nat -> Z)
  chosen ids order,
  (forall v, In v chosen -> In v ids) ->
  (forall v, In v chosen -> In v order) ->
  let inb_p := fun p v => inbb ext (idx p) v in
  let valid := fun p => forallb (inb_p p) ids in
  let R := enum_pass pts inb_p valid order chosen in
  forall T, (forall i, In i T -> In i R) -> (exists x, In x R /\ ~ In x T) ->
  exists p, In p pts /\ passes inb_p T p = true /\ valid p = false.
Proof.
  intros P pts ext idx chosen ids order Sub Cov inb_p valid R.
  apply enum_pass_minimal; [|exact Cov].
  intros p Hp Vp i Hi. unfold valid in Vp. rewrite forallb_forall in Vp. apply Vp, Sub, Hi.
Qed.

Close Scope Z_scope.
