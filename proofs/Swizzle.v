(** * CuTe's [Swizzle<B, M, S>] (issue 14, item 5)

    The functor on an integer offset [x]:
    [yyy_msk = (2^B - 1) << (M + max(0, S))],
    [zzz_msk = (2^B - 1) << (M - min(0, S))] and
    [swizzle x = x ^ ((x & yyy_msk) >> S)], where a right shift by a
    negative [S] is a left shift by [-S] (Coq's [Z.shiftr] does exactly
    that).  The legal arguments are [B >= 0], [M >= 0] and [|S| >= B].

    Proved: for every legal [B, M, S], the swizzle is an involution on all
    of [Z] (so a bijection of [Z]); it keeps the bits of [yyy_msk]; it only
    flips bits of [zzz_msk]; and for every [k >= M + |S| + B] it maps
    [\[0, 2^k)] onto itself one to one. *)

From Coq Require Import ZArith Lia Bool.
Open Scope Z_scope.

Definition yyy_msk (B M S : Z) : Z := Z.shiftl (Z.ones B) (M + Z.max 0 S).
Definition zzz_msk (B M S : Z) : Z := Z.shiftl (Z.ones B) (M - Z.min 0 S).

(** The bits that get XORed in: the [yyy] bits moved by [S]. *)
Definition swizzle_flip (B M S x : Z) : Z := Z.shiftr (Z.land x (yyy_msk B M S)) S.

Definition swizzle (B M S x : Z) : Z := Z.lxor x (swizzle_flip B M S x).

Definition swizzle_legal (B M S : Z) : Prop := 0 <= B /\ 0 <= M /\ B <= Z.abs S.

(** ** Bits of the masks *)

Lemma shifted_ones_bit : forall B k n, 0 <= B -> 0 <= n ->
  Z.testbit (Z.shiftl (Z.ones B) k) n = true <-> k <= n < k + B.
Proof.
  intros B k n HB Hn. rewrite Z.shiftl_spec by exact Hn.
  rewrite Z.ones_spec_iff by exact HB. lia.
Qed.

Lemma yyy_bit : forall B M S n, 0 <= B -> 0 <= n ->
  Z.testbit (yyy_msk B M S) n = true <-> M + Z.max 0 S <= n < M + Z.max 0 S + B.
Proof. intros. apply shifted_ones_bit; assumption. Qed.

Lemma zzz_bit : forall B M S n, 0 <= B -> 0 <= n ->
  Z.testbit (zzz_msk B M S) n = true <-> M - Z.min 0 S <= n < M - Z.min 0 S + B.
Proof. intros. apply shifted_ones_bit; assumption. Qed.

(** Bit [n] of the flip is bit [n + S] of [x], when that bit is a [yyy]
    bit; otherwise it is 0. *)
Lemma flip_bit : forall B M S x n, 0 <= n ->
  Z.testbit (swizzle_flip B M S x) n =
  Z.testbit x (n + S) && Z.testbit (yyy_msk B M S) (n + S).
Proof.
  intros B M S x n Hn. unfold swizzle_flip.
  destruct (Z_le_gt_dec 0 (n + S)) as [H|H].
  - rewrite Z.shiftr_spec by exact Hn. apply Z.land_spec.
  - rewrite Z.shiftr_spec by exact Hn.
    rewrite !Z.testbit_neg_r by lia. reflexivity.
Qed.

(** The flip only touches [zzz] bits. *)
Lemma flip_in_zzz : forall B M S x n, swizzle_legal B M S -> 0 <= n ->
  Z.testbit (swizzle_flip B M S x) n = true -> Z.testbit (zzz_msk B M S) n = true.
Proof.
  intros B M S x n [HB [HM HS]] Hn H. rewrite flip_bit in H by exact Hn.
  apply andb_prop in H. destruct H as [_ Hy].
  assert (0 <= n + S) by (destruct (Z_le_gt_dec 0 (n + S)); [lia|];
                          rewrite Z.testbit_neg_r in Hy by lia; discriminate).
  apply yyy_bit in Hy; [|lia|lia]. apply zzz_bit; [lia|lia|lia].
Qed.

(** For legal arguments the flip never touches a [yyy] bit, so the
    swizzle keeps the [yyy] bits (the [yyy] and [zzz] masks are disjoint). *)
Lemma flip_off_yyy : forall B M S x n, swizzle_legal B M S -> 0 <= n ->
  Z.testbit (yyy_msk B M S) n = true -> Z.testbit (swizzle_flip B M S x) n = false.
Proof.
  intros B M S x n [HB [HM HS]] Hn Hy.
  apply yyy_bit in Hy; [|lia|lia].
  rewrite flip_bit by exact Hn.
  destruct (Z_le_gt_dec 0 (n + S)) as [H|H].
  - destruct (Z.testbit (yyy_msk B M S) (n + S)) eqn:E; [|apply andb_false_r].
    apply yyy_bit in E; [|lia|lia]. lia.
  - rewrite Z.testbit_neg_r by lia. reflexivity.
Qed.

Theorem swizzle_keeps_yyy : forall B M S x, swizzle_legal B M S ->
  Z.land (swizzle B M S x) (yyy_msk B M S) = Z.land x (yyy_msk B M S).
Proof.
  intros B M S x L. apply Z.bits_inj'. intros n Hn.
  rewrite !Z.land_spec. unfold swizzle. rewrite Z.lxor_spec.
  destruct (Z.testbit (yyy_msk B M S) n) eqn:Ey.
  - rewrite (flip_off_yyy B M S x n L Hn Ey). destruct (Z.testbit x n); reflexivity.
  - rewrite !andb_false_r. reflexivity.
Qed.

Lemma flip_swizzle : forall B M S x, swizzle_legal B M S ->
  swizzle_flip B M S (swizzle B M S x) = swizzle_flip B M S x.
Proof. intros B M S x L. unfold swizzle_flip at 1. rewrite swizzle_keeps_yyy by exact L. reflexivity. Qed.

(** ** The main results *)

Theorem swizzle_involutive : forall B M S x, swizzle_legal B M S ->
  swizzle B M S (swizzle B M S x) = x.
Proof.
  intros B M S x L. unfold swizzle at 1. rewrite flip_swizzle by exact L.
  unfold swizzle. rewrite Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_r. reflexivity.
Qed.

(** The swizzle changes only [zzz] bits: outside [zzz_msk] it is the identity. *)
Theorem swizzle_only_zzz : forall B M S x n, swizzle_legal B M S -> 0 <= n ->
  Z.testbit (zzz_msk B M S) n = false -> Z.testbit (swizzle B M S x) n = Z.testbit x n.
Proof.
  intros B M S x n L Hn Hz. unfold swizzle. rewrite Z.lxor_spec.
  destruct (Z.testbit (swizzle_flip B M S x) n) eqn:E.
  - rewrite (flip_in_zzz B M S x n L Hn E) in Hz. discriminate.
  - apply Bool.xorb_false_r.
Qed.

Theorem swizzle_bijective : forall B M S, swizzle_legal B M S ->
  (forall x y, swizzle B M S x = swizzle B M S y -> x = y) /\
  (forall y, exists x, swizzle B M S x = y).
Proof.
  intros B M S L. split.
  - intros x y E. rewrite <- (swizzle_involutive B M S x L), <- (swizzle_involutive B M S y L), E.
    reflexivity.
  - intros y. exists (swizzle B M S y). apply swizzle_involutive, L.
Qed.

(** ** The domain [\[0, 2^k)] *)

Lemma range_bits : forall k x, 0 <= k ->
  (0 <= x < 2 ^ k <-> 0 <= x /\ forall n, k <= n -> Z.testbit x n = false).
Proof.
  intros k x Hk. split.
  - intros Hx. split; [lia|]. intros n Hn.
    destruct (Z.eq_dec x 0) as [E|E]; [subst; apply Z.bits_0|].
    apply Z.bits_above_log2; [lia|].
    assert (Z.log2 x < k) by (apply Z.log2_lt_pow2; lia). lia.
  - intros [Hx H]. split; [exact Hx|].
    assert (E : Z.shiftr x k = 0).
    { apply Z.bits_inj'. intros n Hn. rewrite Z.shiftr_spec, Z.bits_0 by exact Hn.
      apply H. lia. }
    rewrite Z.shiftr_div_pow2 in E by exact Hk.
    apply Z.div_small_iff in E; [lia|]. apply Z.pow_nonzero; lia.
Qed.

Lemma swizzle_range : forall B M S k x, swizzle_legal B M S -> M + Z.abs S + B <= k ->
  0 <= x < 2 ^ k -> 0 <= swizzle B M S x < 2 ^ k.
Proof.
  intros B M S k x L Hk Hx. pose proof L as [HB [HM HS]].
  apply range_bits in Hx; [|lia]. destruct Hx as [Hx0 Hx].
  apply range_bits; [lia|]. split.
  - unfold swizzle, swizzle_flip. apply Z.lxor_nonneg. split; intros _; [|exact Hx0].
    apply Z.shiftr_nonneg. apply Z.land_nonneg. left. exact Hx0.
  - intros n Hn. unfold swizzle. rewrite Z.lxor_spec, Hx by lia.
    rewrite flip_bit by lia.
    destruct (Z_le_gt_dec 0 (n + S)) as [H|H].
    + destruct (Z.testbit (yyy_msk B M S) (n + S)) eqn:E; [|rewrite andb_false_r; reflexivity].
      apply yyy_bit in E; [|lia|lia]. lia.
    + rewrite Z.testbit_neg_r by lia. reflexivity.
Qed.

(** For [k >= M + |S| + B], the swizzle permutes [\[0, 2^k)]. *)
Theorem swizzle_bijection_on_range : forall B M S k, swizzle_legal B M S ->
  M + Z.abs S + B <= k ->
  (forall x, 0 <= x < 2 ^ k -> 0 <= swizzle B M S x < 2 ^ k) /\
  (forall x y, 0 <= x < 2 ^ k -> 0 <= y < 2 ^ k ->
     swizzle B M S x = swizzle B M S y -> x = y) /\
  (forall y, 0 <= y < 2 ^ k -> exists x, 0 <= x < 2 ^ k /\ swizzle B M S x = y).
Proof.
  intros B M S k L Hk. split; [|split].
  - intros x. apply swizzle_range; assumption.
  - intros x y _ _. apply (proj1 (swizzle_bijective B M S L)).
  - intros y Hy. exists (swizzle B M S y). split.
    + apply swizzle_range; assumption.
    + apply swizzle_involutive, L.
Qed.

(** Examples: [Swizzle<3,4,3>] (the 128-byte GMMA swizzle on 16-bit
    offsets) and a negative shift. *)
Example swizzle_343_example : swizzle 3 4 3 (Z.lor 128 16) = 128.
Proof. reflexivity. Qed.

Example swizzle_negative_shift_example : swizzle 2 0 (-3) 3 = 27.
Proof. reflexivity. Qed.
