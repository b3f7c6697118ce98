(** * Coalescence (Coalescence as normalization; ARCHITECTURE.md, glossary)

    The one-step rewrite [tryCoalesce] (left unit, right unit, packed merge),
    its termination, the soundness of each rule, and the soundness of the
    normal form.  Rule order: see [coalesce_any_order_same_function] (every
    rule order yields a normal form computing the same function) and
    [coalesce_not_syntactically_confluent] (but not always the same list);
    Confluence.v proves that this counterexample is the only kind: normal
    forms are unique up to the stride of a lone unit mode. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model.

(** The seed's [tryCoalesce], transcribed rule for rule. *)
Fixpoint tryCoalesce (L : layout) : layout * bool :=
  match L with
  | [] => ([], false)
  | [m] => ([m], false)
  | m1 :: ((m2 :: rest) as tl) =>
      if Nat.eqb (extent m1) 1 then (tl, true)                   (* left unit *)
      else if Nat.eqb (extent m2) 1 then (m1 :: rest, true)      (* right unit *)
      else if Nat.eqb (extent m1 * stride m1) (stride m2) then   (* packed merge *)
        (Mode (extent m1 * extent m2) (stride m1) :: rest, true)
      else let (rest', changed) := tryCoalesce tl in (m1 :: rest', changed)
  end.

Lemma tryCoalesce_cons2 : forall m1 m2 rest,
  tryCoalesce (m1 :: m2 :: rest) =
  if Nat.eqb (extent m1) 1 then (m2 :: rest, true)
  else if Nat.eqb (extent m2) 1 then (m1 :: rest, true)
  else if Nat.eqb (extent m1 * stride m1) (stride m2) then
    (Mode (extent m1 * extent m2) (stride m1) :: rest, true)
  else let (rest', changed) := tryCoalesce (m2 :: rest) in (m1 :: rest', changed).
Proof. reflexivity. Qed.

(** One rewrite, discarding the flag; and its [n]-fold iterate. *)
Definition coalesce_step (L : layout) : layout := fst (tryCoalesce L).
Fixpoint coalesce_iter (n : nat) (L : layout) : layout :=
  match n with
  | 0 => L
  | S n' => coalesce_iter n' (coalesce_step L)
  end.

(** ** Termination *)

(** When [tryCoalesce] reports no change, it returns its input. *)
Lemma tryCoalesce_false : forall L,
  snd (tryCoalesce L) = false -> fst (tryCoalesce L) = L.
Proof.
  induction L as [|m1 L IH]; intros H; [reflexivity|].
  destruct L as [|m2 rest]; [reflexivity|].
  rewrite tryCoalesce_cons2 in *.
  destruct (Nat.eqb (extent m1) 1); [discriminate|].
  destruct (Nat.eqb (extent m2) 1); [discriminate|].
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)); [discriminate|].
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E.
  simpl in *. rewrite (IH H); reflexivity.
Qed.

(** When it reports a change, the length drops by exactly one. *)
Lemma tryCoalesce_true_length : forall L,
  snd (tryCoalesce L) = true -> S (length (fst (tryCoalesce L))) = length L.
Proof.
  induction L as [|m1 L IH]; intros H; [discriminate|].
  destruct L as [|m2 rest]; [discriminate|].
  rewrite tryCoalesce_cons2 in *.
  destruct (Nat.eqb (extent m1) 1); [reflexivity|].
  destruct (Nat.eqb (extent m2) 1); [reflexivity|].
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)); [reflexivity|].
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E.
  simpl in *. rewrite <- IH by assumption. reflexivity.
Qed.

Theorem tryCoalesce_decreases : forall L,
  snd (tryCoalesce L) = true -> length (fst (tryCoalesce L)) < length L.
Proof. intros L H. rewrite <- (tryCoalesce_true_length L H). lia. Qed.

(** The seed states [exists n, (tryCoalesce^[n] L).2 = false], which does
    not typecheck as written ([tryCoalesce : Layout -> Layout * Bool] cannot
    be iterated).  The intended reading: iterate the rewrite [n] times and
    then [tryCoalesce] reports no change.  We also bound [n] by the length. *)
Theorem coalesce_terminates : forall L,
  exists n, n <= length L /\ snd (tryCoalesce (coalesce_iter n L)) = false.
Proof.
  intros L. remember (length L) as k eqn:Hk. revert L Hk.
  induction k as [k IH] using lt_wf_ind. intros L Hk.
  destruct (snd (tryCoalesce L)) eqn:E.
  - pose proof (tryCoalesce_true_length L E) as Hlen.
    destruct (IH (length (coalesce_step L)) ltac:(unfold coalesce_step; lia)
                 (coalesce_step L) eq_refl) as [n [Hn Hf]].
    exists (S n). split; [unfold coalesce_step in Hn; lia|].
    exact Hf.
  - exists 0. split; [lia | exact E].
Qed.

(** The normal form: iterate as many times as there are modes. *)
Definition coalesce (L : layout) : layout := coalesce_iter (length L) L.

Lemma coalesce_iter_fixed : forall n L,
  snd (tryCoalesce L) = false -> coalesce_iter n L = L.
Proof.
  induction n as [|n IH]; intros L H; [reflexivity|].
  simpl. unfold coalesce_step. rewrite tryCoalesce_false by assumption. apply IH; assumption.
Qed.

Lemma coalesce_iter_add : forall a b L,
  coalesce_iter (a + b) L = coalesce_iter b (coalesce_iter a L).
Proof. induction a as [|a IH]; intros b L; [reflexivity|]. simpl. apply IH. Qed.

Theorem coalesce_normal_form : forall L, snd (tryCoalesce (coalesce L)) = false.
Proof.
  intros L. destruct (coalesce_terminates L) as [n [Hn Hf]].
  unfold coalesce. replace (length L) with (n + (length L - n)) by lia.
  rewrite coalesce_iter_add, coalesce_iter_fixed by assumption. exact Hf.
Qed.

(** ** Soundness of the rules *)

(** Packed merge, exactly as the seed states it (no domain hypothesis is
    needed: it holds for all [x1], [x2]). *)
Theorem packed_merge_sound : forall m1 m2 : mode,
  extent m1 * stride m1 = stride m2 ->
  forall x1 x2,
    eval [m1; m2] [x1; x2] =
    eval [Mode (extent m1 * extent m2) (stride m1)] [x1 + x2 * extent m1].
Proof. intros m1 m2 H x1 x2. simpl. rewrite <- H. nia. Qed.

(** Unit laws on the domain: a unit mode only admits coordinate 0. *)
Theorem left_unit_sound : forall m1 m2 x1 x2,
  extent m1 = 1 -> x1 < extent m1 -> eval [m1; m2] [x1; x2] = eval [m2] [x2].
Proof. intros m1 m2 x1 x2 E H. assert (x1 = 0) by lia. subst x1. simpl. lia. Qed.

Theorem right_unit_sound : forall m1 m2 x1 x2,
  extent m2 = 1 -> x2 < extent m2 -> eval [m1; m2] [x1; x2] = eval [m1] [x1].
Proof. intros m1 m2 x1 x2 E H. assert (x2 = 0) by lia. subst x2. simpl. lia. Qed.

(** Index form of the packed merge: the digit split of [M1] then [M2] equals
    the digit of [M1 * M2] (holds for every index, zero extents included). *)
Lemma packed_merge_idx : forall M1 M2 d1 (f : nat -> nat) i,
  (i mod M1) * d1 + ((i / M1) mod M2) * (M1 * d1) + f (i / M1 / M2) =
  (i mod (M1 * M2)) * d1 + f (i / (M1 * M2)).
Proof.
  intros M1 M2 d1 f i.
  destruct M1 as [|M1']; [destruct M2; simpl; lia|].
  destruct M2 as [|M2'].
  - rewrite Nat.mul_0_r.
    assert (Hm : forall x, x mod 0 = x) by reflexivity.
    assert (Hd : forall x, x / 0 = 0) by reflexivity.
    rewrite !Hm, !Hd.
    pose proof (Nat.div_mod i (S M1') ltac:(lia)) as Hdm.
    remember (i / S M1') as q. remember (i mod S M1') as r. nia.
  - rewrite Nat.div_div, Nat.mod_mul_r by lia. nia.
Qed.

(** One rewrite preserves the size and the function on every index. *)
Theorem tryCoalesce_preserves_size : forall L, size (fst (tryCoalesce L)) = size L.
Proof.
  induction L as [|m1 L IH]; [reflexivity|].
  destruct L as [|m2 rest]; [reflexivity|].
  rewrite tryCoalesce_cons2.
  destruct (Nat.eqb (extent m1) 1) eqn:E1;
    [apply Nat.eqb_eq in E1; simpl; rewrite E1; lia|].
  destruct (Nat.eqb (extent m2) 1) eqn:E2;
    [apply Nat.eqb_eq in E2; simpl; rewrite E2; lia|].
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)) eqn:E3; [simpl; lia|].
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E.
  simpl in *. rewrite IH. reflexivity.
Qed.

Theorem tryCoalesce_preserves_eval : forall L i,
  eval_idx (fst (tryCoalesce L)) i = eval_idx L i.
Proof.
  induction L as [|m1 L IH]; intros i; [reflexivity|].
  destruct L as [|m2 rest]; [reflexivity|].
  rewrite tryCoalesce_cons2.
  destruct (Nat.eqb (extent m1) 1) eqn:E1.
  { apply Nat.eqb_eq in E1. simpl fst.
    rewrite (eval_idx_cons m1), E1, Nat.mod_1_r, Nat.div_1_r. lia. }
  destruct (Nat.eqb (extent m2) 1) eqn:E2.
  { apply Nat.eqb_eq in E2. simpl fst.
    rewrite !eval_idx_cons, E2, Nat.mod_1_r, Nat.div_1_r. lia. }
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)) eqn:E3.
  { apply Nat.eqb_eq in E3. simpl fst.
    rewrite !eval_idx_cons. simpl extent. simpl stride. rewrite <- E3.
    pose proof (packed_merge_idx (extent m1) (extent m2) (stride m1) (eval_idx rest) i).
    lia. }
  specialize (IH (i / extent m1)).
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E.
  simpl fst in *. rewrite !(eval_idx_cons m1). rewrite IH. reflexivity.
Qed.

Lemma coalesce_iter_preserves : forall n L,
  size (coalesce_iter n L) = size L /\
  (forall i, eval_idx (coalesce_iter n L) i = eval_idx L i).
Proof.
  induction n as [|n IH]; intros L; [split; reflexivity|].
  simpl.
  destruct (IH (coalesce_step L)) as [Hs He]. unfold coalesce_step in *.
  split.
  - rewrite Hs. apply tryCoalesce_preserves_size.
  - intros i. rewrite He. apply tryCoalesce_preserves_eval.
Qed.

(** The normal form has the same domain and computes the same function on
    every index of the domain (in this model, in fact on every index). *)
Theorem coalesce_preserves_eval : forall L,
  size (coalesce L) = size L /\
  (forall i, i < size L -> eval_idx (coalesce L) i = eval_idx L i).
Proof.
  intros L. destruct (coalesce_iter_preserves (length L) L) as [Hs He].
  split; [exact Hs | intros i _; apply He].
Qed.

(** ** Rule order *)

(** Any rule, anywhere in the list. *)
Inductive coalesce_rule : layout -> layout -> Prop :=
| rule_left_unit : forall m1 m2 rest,
    extent m1 = 1 -> coalesce_rule (m1 :: m2 :: rest) (m2 :: rest)
| rule_right_unit : forall m1 m2 rest,
    extent m2 = 1 -> coalesce_rule (m1 :: m2 :: rest) (m1 :: rest)
| rule_packed_merge : forall m1 m2 rest,
    extent m1 * stride m1 = stride m2 ->
    coalesce_rule (m1 :: m2 :: rest) (Mode (extent m1 * extent m2) (stride m1) :: rest)
| rule_deeper : forall m L L', coalesce_rule L L' -> coalesce_rule (m :: L) (m :: L').

Inductive rules_star : layout -> layout -> Prop :=
| star_refl : forall L, rules_star L L
| star_step : forall L1 L2 L3, coalesce_rule L1 L2 -> rules_star L2 L3 -> rules_star L1 L3.

Definition irreducible (L : layout) : Prop := forall L', ~ coalesce_rule L L'.

Lemma coalesce_rule_sound : forall L L', coalesce_rule L L' ->
  length L' < length L /\ size L' = size L /\ (forall i, eval_idx L' i = eval_idx L i).
Proof.
  intros L L' H. induction H as [m1 m2 rest E|m1 m2 rest E|m1 m2 rest E|m L L' H IH].
  - simpl length. split; [lia|]. split; [simpl; rewrite E; lia|].
    intros i. rewrite (eval_idx_cons m1), E, Nat.mod_1_r, Nat.div_1_r. lia.
  - simpl length. split; [lia|]. split; [simpl; rewrite E; lia|].
    intros i. rewrite !eval_idx_cons, E, Nat.mod_1_r, Nat.div_1_r. lia.
  - simpl length. split; [lia|]. split; [simpl; lia|].
    intros i. rewrite !eval_idx_cons. simpl extent. simpl stride. rewrite <- E.
    pose proof (packed_merge_idx (extent m1) (extent m2) (stride m1) (eval_idx rest) i).
    lia.
  - destruct IH as [Hl [Hs He]]. simpl length. split; [lia|].
    split; [simpl; rewrite Hs; reflexivity|].
    intros i. rewrite !eval_idx_cons, He. reflexivity.
Qed.

(** [tryCoalesce] applies exactly one of these rules when it reports a
    change, and reports no change exactly on irreducible layouts. *)
Lemma tryCoalesce_rule : forall L,
  snd (tryCoalesce L) = true -> coalesce_rule L (fst (tryCoalesce L)).
Proof.
  induction L as [|m1 L IH]; intros H; [discriminate|].
  destruct L as [|m2 rest]; [discriminate|].
  rewrite tryCoalesce_cons2 in *.
  destruct (Nat.eqb (extent m1) 1) eqn:E1;
    [apply Nat.eqb_eq in E1; apply rule_left_unit; exact E1|].
  destruct (Nat.eqb (extent m2) 1) eqn:E2;
    [apply Nat.eqb_eq in E2; apply rule_right_unit; exact E2|].
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)) eqn:E3;
    [apply Nat.eqb_eq in E3; apply rule_packed_merge; exact E3|].
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E.
  simpl in *. apply rule_deeper. apply IH. exact H.
Qed.

Lemma tryCoalesce_irreducible : forall L,
  snd (tryCoalesce L) = false -> irreducible L.
Proof.
  induction L as [|m1 L IH]; intros H L' R; [inversion R|].
  destruct L as [|m2 rest]; [inversion R as [| | |m L0 L0' R0]; subst; inversion R0|].
  rewrite tryCoalesce_cons2 in H.
  destruct (Nat.eqb (extent m1) 1) eqn:E1; [discriminate|].
  destruct (Nat.eqb (extent m2) 1) eqn:E2; [discriminate|].
  destruct (Nat.eqb (extent m1 * stride m1) (stride m2)) eqn:E3; [discriminate|].
  apply Nat.eqb_neq in E1, E2, E3.
  destruct (tryCoalesce (m2 :: rest)) as [rest' c] eqn:E. simpl in H. subst c.
  inversion R; subst; try contradiction.
  apply (IH eq_refl L'0). assumption.
Qed.

Theorem coalesce_is_irreducible : forall L, irreducible (coalesce L).
Proof. intros L. apply tryCoalesce_irreducible, coalesce_normal_form. Qed.

Lemma rules_star_sound : forall L L', rules_star L L' ->
  size L' = size L /\ (forall i, eval_idx L' i = eval_idx L i).
Proof.
  intros L L' H. induction H as [L|L1 L2 L3 R H IH]; [split; reflexivity|].
  destruct (coalesce_rule_sound _ _ R) as [_ [Hs He]]. destruct IH as [Hs' He'].
  split; [congruence | intros i; rewrite He', He; reflexivity].
Qed.

(** Rules fired in any order, at any position, terminate (each strictly
    shortens the list) and every normal form so reached computes the same
    function as the seed's deterministic [coalesce] on the whole domain. *)
Theorem coalesce_any_order_same_function : forall L N,
  rules_star L N -> irreducible N ->
  size N = size (coalesce L) /\
  (forall i, i < size L -> eval_idx N i = eval_idx (coalesce L) i).
Proof.
  intros L N H _. destruct (rules_star_sound L N H) as [Hs He].
  destruct (coalesce_preserves_eval L) as [Hs' He'].
  split; [congruence|]. intros i Hi. rewrite He, He' by assumption. reflexivity.
Qed.

(** Stretch goal (confluence), answered in the negative for syntactic
    equality: [(1, 1) : (3, 5)] rewrites by the left unit law to [(1) : (5)]
    and by the right unit law to [(1) : (3)]; both are irreducible (a single
    mode), and they differ.  They compute the same function (constant 0 on
    the one-point domain), which is what [coalesce_any_order_same_function]
    guarantees in general. *)
Theorem coalesce_not_syntactically_confluent :
  exists L N1 N2, rules_star L N1 /\ rules_star L N2 /\
    irreducible N1 /\ irreducible N2 /\ N1 <> N2.
Proof.
  exists [Mode 1 3; Mode 1 5], [Mode 1 5], [Mode 1 3].
  split; [eapply star_step; [apply rule_left_unit; reflexivity | apply star_refl]|].
  split; [eapply star_step; [apply rule_right_unit; reflexivity | apply star_refl]|].
  split; [intros L' R; inversion R as [| | |m L0 L0' R0]; subst; inversion R0|].
  split; [intros L' R; inversion R as [| | |m L0 L0' R0]; subst; inversion R0|].
  discriminate.
Qed.
