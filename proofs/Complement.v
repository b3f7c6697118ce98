(** * Complementation (the Complementation theorem; ARCHITECTURE.md, glossary)

    For the rank-1 layout [A = (N):(d)] inside the region [\[0, M)] with
    [N * d | M], the seed's complement is [B = (d, M/(N d)) : (1, N d)] and
    [C = A ++ B = (N, d, M/(N d)) : (d, 1, N d)].  We prove that [C] is a
    bijection from [\[0, M)] onto [\[0, M)] (size [M], cosize [M], every
    value hit exactly once) and that [A] and [B] overlap only at offset 0. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model.

Definition complement1 (N d M : nat) : layout :=
  [Mode d 1; Mode (M / (N * d)) (N * d)].

Definition tiled (N d M : nat) : layout := [Mode N d] ++ complement1 N d M.

(** With [M >= 1] (needed: for [M = 0] the divisibility holds vacuously but
    the region is empty and CuTe's cosize convention gives 1), [N * d | M]
    forces [N, d >= 1] and [M = N * d * K] with [K = M / (N d) >= 1]. *)
Lemma complement1_shape : forall N d M, 0 < M -> Nat.divide (N * d) M ->
  1 <= N /\ 1 <= d /\ 1 <= M / (N * d) /\ M = N * d * (M / (N * d)).
Proof.
  intros N d M HM [K HK]. subst M.
  assert (N <> 0) by (intro; subst; simpl in HM; lia).
  assert (d <> 0) by (intro; subst; rewrite Nat.mul_0_r in HM; simpl in HM; lia).
  rewrite Nat.div_mul by lia.
  assert (K <> 0) by (intro; subst; simpl in HM; lia).
  repeat split; lia.
Qed.

(** Coordinate form of [C]: [(x, y0, y1) |-> x d + y0 + y1 N d]. *)
Lemma tiled_eval : forall N d M x y0 y1,
  eval (tiled N d M) [x; y0; y1] = x * d + y0 + y1 * (N * d).
Proof. intros. simpl. lia. Qed.

(** The same number as a mixed-radix linearization with radices
    [(d, N, K)] of the coordinate [(y0, x, y1)]. *)
Definition radix (N d K : nat) : layout := [Mode d 0; Mode N 0; Mode K 0].

Lemma tiled_eval_radix : forall N d M x y0 y1,
  eval (tiled N d M) [x; y0; y1] = recompose (radix N d (M / (N * d))) [y0; x; y1].
Proof. intros. rewrite tiled_eval. simpl. nia. Qed.

Lemma tiled_domain_radix : forall N d M x y0 y1,
  in_domain (tiled N d M) [x; y0; y1] <->
  in_domain (radix N d (M / (N * d))) [y0; x; y1].
Proof. intros. simpl. tauto. Qed.

Lemma in_domain_rank3 : forall (L : layout) xs, length L = 3 -> in_domain L xs ->
  exists a b c, xs = [a; b; c].
Proof.
  intros L xs HL H.
  destruct L as [|m1 [|m2 [|m3 [|m4 L]]]]; simpl in HL; try discriminate.
  destruct xs as [|a [|b [|c [|e xs]]]]; simpl in H; try tauto.
  exists a, b, c. reflexivity.
Qed.

Lemma size_tiled : forall N d M, 0 < M -> Nat.divide (N * d) M -> size (tiled N d M) = M.
Proof.
  intros N d M HM Hdiv. destruct (complement1_shape N d M HM Hdiv) as [_ [_ [_ E]]].
  simpl. nia.
Qed.

(** ** Coordinate-level bijection *)

Theorem tiled_coords_bijection : forall N d M, 0 < M -> Nat.divide (N * d) M ->
  (forall xs, in_domain (tiled N d M) xs -> eval (tiled N d M) xs < M) /\
  (forall xs ys, in_domain (tiled N d M) xs -> in_domain (tiled N d M) ys ->
     eval (tiled N d M) xs = eval (tiled N d M) ys -> xs = ys) /\
  (forall v, v < M -> exists xs, in_domain (tiled N d M) xs /\ eval (tiled N d M) xs = v).
Proof.
  intros N d M HM Hdiv.
  destruct (complement1_shape N d M HM Hdiv) as [HN [Hd [HK E]]].
  set (K := M / (N * d)) in *.
  assert (Hsz : size (radix N d K) = M) by (simpl; nia).
  split; [|split].
  - intros xs H. destruct (in_domain_rank3 (tiled N d M) _ eq_refl H) as [x [y0 [y1 ->]]].
    rewrite tiled_eval_radix. fold K.
    apply Nat.lt_le_trans with (size (radix N d K)); [|lia].
    apply recompose_bound. apply tiled_domain_radix. exact H.
  - intros xs ys Hx Hy Heq.
    destruct (in_domain_rank3 (tiled N d M) _ eq_refl Hx) as [x [y0 [y1 ->]]].
    destruct (in_domain_rank3 (tiled N d M) _ eq_refl Hy) as [x' [y0' [y1' ->]]].
    rewrite !tiled_eval_radix in Heq.
    apply tiled_domain_radix in Hx, Hy.
    pose proof (digits_recompose _ _ Hx) as R1.
    pose proof (digits_recompose _ _ Hy) as R2.
    fold K in Heq, R1, R2. rewrite Heq in R1. rewrite R1 in R2. inversion R2. reflexivity.
  - intros v Hv0. assert (Hv : v < size (radix N d K)) by lia.
    pose proof (digits_in_domain _ _ Hv) as Hd'.
    pose proof (recompose_digits _ _ Hv) as Hr.
    destruct (in_domain_rank3 (radix N d K) _ eq_refl Hd') as [y0 [x [y1 Hxs]]].
    rewrite Hxs in Hd', Hr.
    exists [x; y0; y1]. split.
    + apply tiled_domain_radix. exact Hd'.
    + rewrite tiled_eval_radix. exact Hr.
Qed.

(** ** Disjointness, stated correctly

    The seed states
      [forall c1 c2, A.eval c1 = B.eval c2 -> c1 = c2].
    This compares a coordinate of [A] (rank 1) with one of [B] (rank 2), so
    with typed coordinates it does not typecheck, and with list coordinates
    (as in the seed's [eval]) it is false: [A.eval [0] = 0 = B.eval [0; 0]]
    but [[0] <> [0; 0]] (see [complement1_seed_disjointness_false]); it also
    ignores the domain (eval does not bound-check).  The intended property is
    that the images of [A] and [B] over their domains meet only at offset 0,
    reached only by the zero coordinates: *)
Theorem complement1_disjoint : forall N d M, 0 < M -> Nat.divide (N * d) M ->
  forall xa xb, in_domain [Mode N d] xa -> in_domain (complement1 N d M) xb ->
  eval [Mode N d] xa = eval (complement1 N d M) xb -> xa = [0] /\ xb = [0; 0].
Proof.
  intros N d M HM Hdiv xa xb Ha Hb Heq.
  destruct xa as [|x [|? ?]]; simpl in Ha; try tauto.
  destruct xb as [|y0 [|y1 [|? ?]]]; simpl in Hb; try tauto.
  assert (Hc : in_domain (tiled N d M) [x; 0; 0] /\ in_domain (tiled N d M) [0; y0; y1]).
  { destruct (complement1_shape N d M HM Hdiv) as [HN [Hd [HK _]]].
    simpl. repeat split; lia. }
  destruct Hc as [Hc1 Hc2].
  destruct (tiled_coords_bijection N d M HM Hdiv) as [_ [Hinj _]].
  assert (E : eval (tiled N d M) [x; 0; 0] = eval (tiled N d M) [0; y0; y1]).
  { rewrite !tiled_eval. simpl in Heq. lia. }
  specialize (Hinj _ _ Hc1 Hc2 E). inversion Hinj. subst. split; reflexivity.
Qed.

Theorem complement1_seed_disjointness_false :
  Nat.divide (2 * 2) 8 /\
  ~ (forall c1 c2, eval [Mode 2 2] c1 = eval (complement1 2 2 8) c2 -> c1 = c2).
Proof.
  split; [exists 2; reflexivity|].
  intros H. specialize (H [0] [0; 0] eq_refl). discriminate.
Qed.

(** ** Index-level statement: the tiled layout is a bijection of [\[0, M)] *)

Lemma digits_tiled_last : forall N d M, 0 < M -> Nat.divide (N * d) M ->
  digits (tiled N d M) (M - 1) = [N - 1; d - 1; M / (N * d) - 1].
Proof.
  intros N d M HM Hdiv.
  destruct (complement1_shape N d M HM Hdiv) as [HN [Hd [HK E]]].
  set (K := M / (N * d)) in *.
  assert (Hr : recompose (tiled N d M) [N - 1; d - 1; K - 1] = M - 1).
  { simpl. fold K. rewrite E. clearbody K. clear -HN Hd HK.
    destruct N as [|n]; [lia|]. destruct d as [|e]; [lia|]. destruct K as [|k]; [lia|].
    rewrite !Nat.mul_0_r, !Nat.add_0_r. simpl. rewrite !Nat.sub_0_r. nia. }
  rewrite <- Hr. apply digits_recompose. simpl. fold K. repeat split; lia.
Qed.

Lemma last_arith : forall N d K, 1 <= N -> 1 <= d -> 1 <= K ->
  (N - 1) * d + (d - 1) + (K - 1) * (N * d) + 1 = N * d * K.
Proof.
  intros N d K HN Hd HK.
  destruct N as [|n]; [lia|]. destruct d as [|e]; [lia|]. destruct K as [|k]; [lia|].
  simpl. rewrite !Nat.sub_0_r. nia.
Qed.

(** The theorem.  Preconditions: [N * d | M] as in the seed, plus [M >= 1]
    (see [complement1_shape]). *)
Theorem complement1_tiles : forall N d M, 0 < M -> Nat.divide (N * d) M ->
  let C := tiled N d M in
  size C = M /\
  cosize C = M /\
  (forall i, i < M -> eval_idx C i < M) /\
  (forall i j, i < M -> j < M -> eval_idx C i = eval_idx C j -> i = j) /\
  (forall v, v < M -> exists i, i < M /\ eval_idx C i = v) /\
  (forall xa xb, in_domain [Mode N d] xa -> in_domain (complement1 N d M) xb ->
     eval [Mode N d] xa = eval (complement1 N d M) xb -> xa = [0] /\ xb = [0; 0]).
Proof.
  intros N d M HM Hdiv C.
  pose proof (size_tiled N d M HM Hdiv) as Hsz.
  destruct (tiled_coords_bijection N d M HM Hdiv) as [Hbound [Hinj Hsurj]].
  destruct (digits_bijection C) as [Hdig [Hdinj Hdsurj]].
  fold C in Hsz, Hbound, Hinj, Hsurj.
  split; [exact Hsz|]. split; [|split; [|split; [|split]]].
  - unfold cosize, eval_idx. rewrite Hsz. unfold C. rewrite digits_tiled_last by assumption.
    rewrite tiled_eval.
    destruct (complement1_shape N d M HM Hdiv) as [HN [Hd [HK E]]].
    pose proof (last_arith N d (M / (N * d)) HN Hd HK). lia.
  - intros i Hi. apply Hbound. apply Hdig. lia.
  - intros i j Hi Hj Heq. apply Hdinj; try lia.
    apply Hinj; try (apply Hdig; lia). exact Heq.
  - intros v Hv. destruct (Hsurj v Hv) as [xs [Hxs Hev]].
    destruct (Hdsurj xs Hxs) as [i [Hi Hdi]].
    exists i. split; [lia|]. unfold eval_idx. rewrite Hdi. exact Hev.
  - apply complement1_disjoint; assumption.
Qed.

(** Why [M >= 1] is needed: for [M = 0], [N * d | 0] holds for all [N, d],
    yet the tiled layout has size 0 and CuTe's cosize [L(size - 1) + 1] is 1,
    so the seed's [C.cosize = M] fails. *)
Theorem complement1_tiles_needs_M_pos :
  Nat.divide (1 * 1) 0 /\ size (tiled 1 1 0) = 0 /\ cosize (tiled 1 1 0) = 1.
Proof. split; [exists 0; reflexivity | split; reflexivity]. Qed.
