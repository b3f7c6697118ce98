(** * Coalescence: uniqueness of the normal form (the seed's stretch goal)

    [Coalesce.coalesce_not_syntactically_confluent] shows that rule order
    can matter, but only in one way: [(1, 1) : (3, 5)] ends in [(1):(5)] or
    [(1):(3)].  Here we prove that this is the only way.  For layouts whose
    extents are all positive, any two normal forms reached by firing the
    rules in any order, at any position, are equal, unless both are a
    single unit mode [(1):(d)] (which happens only for layouts of size 1).
    Consequently, for size other than 1, every rule order reaches exactly
    the seed's deterministic [coalesce L]. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model Coalesce.

Definition pos_extents (L : layout) : Prop := Forall (fun m => 1 <= extent m) L.

(** ** Facts about evaluation with positive extents *)

Lemma eval_idx_zero : forall L, eval_idx L 0 = 0.
Proof.
  induction L as [|m L IH]; [reflexivity|]. rewrite eval_idx_cons.
  destruct (extent m) as [|k] eqn:E; [simpl; rewrite IH; reflexivity|].
  rewrite Nat.mod_0_l, Nat.div_0_l, IH by lia. reflexivity.
Qed.

Lemma eval_idx_small : forall m R i, i < extent m -> eval_idx (m :: R) i = i * stride m.
Proof.
  intros m R i H. rewrite eval_idx_cons, Nat.mod_small, Nat.div_small, eval_idx_zero by lia.
  lia.
Qed.

Lemma eval_idx_mult : forall m R j, 1 <= extent m ->
  eval_idx (m :: R) (extent m * j) = eval_idx R j.
Proof.
  intros m R j H. rewrite eval_idx_cons, (Nat.mul_comm (extent m) j).
  rewrite Nat.mod_mul, Nat.div_mul by lia. lia.
Qed.

Lemma eval_idx_one : forall m R, 2 <= extent m -> eval_idx (m :: R) 1 = stride m.
Proof. intros m R H. rewrite eval_idx_small by lia. lia. Qed.

Lemma size_pos : forall L, pos_extents L -> 1 <= size L.
Proof.
  induction L as [|m L IH]; intros H; simpl; [lia|].
  inversion H as [|? ? H1 H2]; subst. specialize (IH H2). nia.
Qed.

(** ** Facts about irreducible layouts *)

Lemma irreducible_tail : forall m R, irreducible (m :: R) -> irreducible R.
Proof. intros m R H R' Hr. apply (H (m :: R')). apply rule_deeper. exact Hr. Qed.

Lemma irreducible_pair : forall m1 m2 rest, irreducible (m1 :: m2 :: rest) ->
  extent m1 <> 1 /\ extent m2 <> 1 /\ extent m1 * stride m1 <> stride m2.
Proof.
  intros m1 m2 rest H. repeat split; intro E.
  - exact (H _ (rule_left_unit m1 m2 rest E)).
  - exact (H _ (rule_right_unit m1 m2 rest E)).
  - exact (H _ (rule_packed_merge m1 m2 rest E)).
Qed.

Lemma mode_eq : forall m1 m2, extent m1 = extent m2 -> stride m1 = stride m2 -> m1 = m2.
Proof. intros [a b] [c d] E1 E2. simpl in *. subst. reflexivity. Qed.

(** A single mode and a longer irreducible layout never compute the same
    function on the same domain. *)
Lemma single_vs_multi : forall m1 m2 m2' R2,
  pos_extents [m1] -> pos_extents (m2 :: m2' :: R2) -> irreducible (m2 :: m2' :: R2) ->
  size [m1] = size (m2 :: m2' :: R2) ->
  (forall i, i < size [m1] -> eval_idx [m1] i = eval_idx (m2 :: m2' :: R2) i) -> False.
Proof.
  intros m1 m2 m2' R2 P1 P2 Hirr Hs He.
  destruct (irreducible_pair _ _ _ Hirr) as [U1 [U2 Pk]].
  inversion P2 as [|? ? Q1 Q2]; subst. inversion Q2 as [|? ? Q3 Q4]; subst.
  pose proof (size_pos R2 Q4) as HR.
  simpl in Hs.
  assert (Hm1 : extent m1 = extent m2 * (extent m2' * size R2)) by lia.
  assert (H2 : 2 <= extent m2) by lia. assert (H2' : 2 <= extent m2') by lia.
  assert (K2 : 2 <= extent m2' * size R2) by nia.
  assert (Big : extent m2 < extent m1).
  { rewrite Hm1. set (k := extent m2' * size R2) in *. nia. }
  assert (E1 := He 1 ltac:(simpl; nia)).
  rewrite eval_idx_one, eval_idx_one in E1 by lia.
  assert (E2 := He (extent m2) ltac:(simpl; nia)).
  rewrite eval_idx_small in E2 by lia.
  rewrite <- (Nat.mul_1_r (extent m2)) in E2 at 2.
  rewrite eval_idx_mult, eval_idx_one in E2 by lia.
  apply Pk. rewrite <- E2, E1. reflexivity.
Qed.

(** Irreducible layouts with positive extents are determined by their size
    and their function on the domain, except for a single unit mode. *)
Theorem irreducible_unique : forall N1 N2,
  pos_extents N1 -> pos_extents N2 -> irreducible N1 -> irreducible N2 ->
  N1 <> [] -> N2 <> [] -> size N1 = size N2 ->
  (forall i, i < size N1 -> eval_idx N1 i = eval_idx N2 i) ->
  N1 = N2 \/ (exists d1 d2, N1 = [Mode 1 d1] /\ N2 = [Mode 1 d2]).
Proof.
  induction N1 as [|m1 R1 IH]; intros N2 P1 P2 I1 I2 Ne1 Ne2 Hs He; [congruence|].
  destruct N2 as [|m2 R2]; [congruence|].
  destruct R1 as [|m1' R1']; destruct R2 as [|m2' R2'].
  - (* both single modes *)
    simpl in Hs. assert (Ex : extent m1 = extent m2) by lia.
    destruct (Nat.eq_dec (extent m1) 1) as [U|U].
    + right. exists (stride m1), (stride m2).
      destruct m1 as [a b], m2 as [c d]. simpl in *. subst. split; reflexivity.
    + left. inversion P1 as [|? ? Q _]; subst.
      assert (E := He 1 ltac:(simpl; lia)).
      rewrite !eval_idx_one in E by lia.
      f_equal. apply mode_eq; assumption.
  - exfalso. apply (single_vs_multi m1 m2 m2' R2'); assumption.
  - exfalso. apply (single_vs_multi m2 m1 m1' R1'); try assumption; [lia|].
    intros i Hi. symmetry. apply He. lia.
  - destruct (irreducible_pair _ _ _ I1) as [U1 [U1' Pk1]].
    destruct (irreducible_pair _ _ _ I2) as [U2 [U2' Pk2]].
    inversion P1 as [|? ? Q1 Q1r]; subst. inversion Q1r as [|? ? Q1' Q1r']; subst.
    inversion P2 as [|? ? Q2 Q2r]; subst. inversion Q2r as [|? ? Q2' Q2r']; subst.
    pose proof (size_pos R1' Q1r') as S1. pose proof (size_pos R2' Q2r') as S2.
    set (M1 := extent m1) in *. set (M2 := extent m2) in *.
    assert (Hsz1 : size (m1 :: m1' :: R1') = M1 * (extent m1' * size R1')) by reflexivity.
    assert (Hsz2 : size (m2 :: m2' :: R2') = M2 * (extent m2' * size R2')) by reflexivity.
    assert (K1 : 2 <= extent m1' * size R1') by nia.
    assert (K2 : 2 <= extent m2' * size R2') by nia.
    assert (B1 : M1 < size (m1 :: m1' :: R1')).
    { rewrite Hsz1. set (k := extent m1' * size R1') in *. nia. }
    assert (B2 : M2 < size (m1 :: m1' :: R1')).
    { rewrite Hs, Hsz2. set (k := extent m2' * size R2') in *. nia. }
    assert (E1 := He 1 ltac:(lia)).
    rewrite !eval_idx_one in E1 by lia.
    assert (HM : M1 = M2).
    { destruct (lt_eq_lt_dec M1 M2) as [[Hlt|Heq]|Hgt]; [exfalso| exact Heq | exfalso].
      - assert (E := He M1 B1).
        rewrite <- (Nat.mul_1_r M1) in E at 1.
        unfold M1 in E at 1. rewrite eval_idx_mult, eval_idx_one in E by lia.
        rewrite eval_idx_small in E by lia.
        apply Pk1. fold M1. rewrite E, E1. lia.
      - assert (E := He M2 B2).
        rewrite <- (Nat.mul_1_r M2) in E at 2.
        unfold M2 in E at 2. rewrite eval_idx_mult, eval_idx_one in E by lia.
        rewrite eval_idx_small in E by lia.
        apply Pk2. fold M2. rewrite <- E, <- E1. lia. }
    assert (Hm : m1 = m2) by (apply mode_eq; assumption). subst m2.
    assert (Hrest : m1' :: R1' = m2' :: R2' \/
                    (exists d1 d2, m1' :: R1' = [Mode 1 d1] /\ m2' :: R2' = [Mode 1 d2])).
    { apply IH; try assumption; try discriminate.
      - apply (irreducible_tail m1). assumption.
      - apply (irreducible_tail m1). assumption.
      - simpl in Hs |- *. fold M1 in Hs. nia.
      - intros j Hj.
        assert (Hj' : M1 * j < size (m1 :: m1' :: R1')) by (rewrite Hsz1; simpl in Hj; nia).
        specialize (He (M1 * j) Hj'). unfold M1 in He.
        rewrite !eval_idx_mult in He by lia. exact He. }
    destruct Hrest as [Hr|[d1 [d2 [Hr1 Hr2]]]].
    + left. rewrite Hr. reflexivity.
    + exfalso. injection Hr1 as Hm1' _. subst m1'. simpl in U1'. lia.
Qed.

(** ** Reachability *)

Lemma rule_pos : forall L L', coalesce_rule L L' -> pos_extents L -> pos_extents L'.
Proof.
  intros L L' H. induction H as [m1 m2 rest E|m1 m2 rest E|m1 m2 rest E|m L L' H IH];
    intros P; inversion P as [|? ? P1 P2]; subst.
  - exact P2.
  - inversion P2 as [|? ? P3 P4]; subst. constructor; assumption.
  - inversion P2 as [|? ? P3 P4]; subst. constructor; [simpl; nia | assumption].
  - constructor; [assumption | apply IH; assumption].
Qed.

Lemma rule_nonempty : forall L L', coalesce_rule L L' -> L' <> [].
Proof. intros L L' H. destruct H; discriminate. Qed.

Lemma star_pos : forall L N, rules_star L N -> pos_extents L -> pos_extents N.
Proof.
  intros L N H. induction H as [L|L1 L2 L3 R H IH]; intros P; [exact P|].
  apply IH. apply (rule_pos L1); assumption.
Qed.

Lemma star_nonempty : forall L N, rules_star L N -> L <> [] -> N <> [].
Proof.
  intros L N H. induction H as [L|L1 L2 L3 R H IH]; intros Ne; [exact Ne|].
  apply IH. apply (rule_nonempty L1). exact R.
Qed.

Lemma star_nil : forall N, rules_star [] N -> N = [].
Proof.
  intros N H. remember [] as L eqn:EL. induction H as [L|L1 L2 L3 R H IH]; [reflexivity|].
  subst. inversion R.
Qed.

Lemma coalesce_iter_reachable : forall n L, rules_star L (coalesce_iter n L).
Proof.
  induction n as [|n IH]; intros L; simpl; [apply star_refl|].
  destruct (snd (tryCoalesce L)) eqn:E.
  - apply star_step with (coalesce_step L); [apply tryCoalesce_rule; exact E | apply IH].
  - unfold coalesce_step. rewrite tryCoalesce_false by exact E. apply IH.
Qed.

Theorem coalesce_reachable : forall L, rules_star L (coalesce L).
Proof. intros L. apply coalesce_iter_reachable. Qed.

(** Confluence up to the stride of a lone unit mode. *)
Theorem coalesce_confluent : forall L N1 N2, pos_extents L ->
  rules_star L N1 -> rules_star L N2 -> irreducible N1 -> irreducible N2 ->
  N1 = N2 \/ (exists d1 d2, N1 = [Mode 1 d1] /\ N2 = [Mode 1 d2]).
Proof.
  intros L N1 N2 P H1 H2 I1 I2.
  destruct L as [|m L0] eqn:EL.
  - left. rewrite (star_nil N1 H1), (star_nil N2 H2). reflexivity.
  - rewrite <- EL in *.
    destruct (rules_star_sound L N1 H1) as [Hs1 He1].
    destruct (rules_star_sound L N2 H2) as [Hs2 He2].
    apply irreducible_unique; try assumption.
    + apply (star_pos L); assumption.
    + apply (star_pos L); assumption.
    + apply (star_nonempty L); [assumption | subst; discriminate].
    + apply (star_nonempty L); [assumption | subst; discriminate].
    + congruence.
    + intros i Hi. rewrite He1, He2. reflexivity.
Qed.

(** The unique normal form: for positive extents and size other than 1,
    every rule order ends in exactly the seed's [coalesce L]. *)
Theorem coalesce_unique_normal_form : forall L N, pos_extents L -> size L <> 1 ->
  rules_star L N -> irreducible N -> N = coalesce L.
Proof.
  intros L N P Hs H I.
  destruct (coalesce_confluent L N (coalesce L) P H (coalesce_reachable L) I
              (coalesce_is_irreducible L)) as [E|[d1 [d2 [E1 E2]]]]; [exact E|].
  exfalso. apply Hs. destruct (rules_star_sound L N H) as [Hs' _].
  rewrite <- Hs', E1. reflexivity.
Qed.
