(** * Tessera proof model (stated once, kept small)

    - Flat CuTe layouts: a list of modes (extent, stride) over [nat].
    - Evaluation of a coordinate: the dot product [sum x_k * stride_k].
    - Evaluation of an integer index: split the index into colexicographic
      mixed-radix digits (first mode fastest, radices = extents), then take
      the dot product.  This is CuTe's [crd2idx (idx2crd i shape) stride].
    - nvFuser IterDomain transforms (split, merge, resize, swizzle) with
      their index maps, over [Z] with Euclidean division. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.

(** ** Layouts *)

Record mode := Mode { extent : nat; stride : nat }.
Definition layout := list mode.

(** Number of indices in the domain: the product of the extents. *)
Fixpoint size (L : layout) : nat :=
  match L with
  | [] => 1
  | m :: L' => extent m * size L'
  end.

(** Coordinate evaluation: the dot product of a coordinate with the strides.
    As in the seeds, this is only rank-checked (extra entries are ignored). *)
Fixpoint eval (L : layout) (xs : list nat) : nat :=
  match L, xs with
  | m :: L', x :: xs' => x * stride m + eval L' xs'
  | _, _ => 0
  end.

(** A coordinate is in the domain of [L]: same rank, each entry below its
    extent. *)
Fixpoint in_domain (L : layout) (xs : list nat) : Prop :=
  match L, xs with
  | [], [] => True
  | m :: L', x :: xs' => x < extent m /\ in_domain L' xs'
  | _, _ => False
  end.

(** Colexicographic mixed-radix digits of an index (first mode fastest). *)
Fixpoint digits (L : layout) (i : nat) : list nat :=
  match L with
  | [] => []
  | m :: L' => (i mod extent m) :: digits L' (i / extent m)
  end.

(** The inverse: linearize a coordinate colexicographically. *)
Fixpoint recompose (L : layout) (xs : list nat) : nat :=
  match L, xs with
  | m :: L', x :: xs' => x + extent m * recompose L' xs'
  | _, _ => 0
  end.

(** Evaluation of an integer index. *)
Definition eval_idx (L : layout) (i : nat) : nat := eval L (digits L i).

(** CuTe's cosize: one past the image of the last index. *)
Definition cosize (L : layout) : nat := eval_idx L (size L - 1) + 1.

(** *** Basic facts about the mixed-radix model *)

Lemma digit_unique : forall x r M : nat,
  x < M -> (x + M * r) mod M = x /\ (x + M * r) / M = r.
Proof.
  intros x r M H. split.
  - symmetry. apply Nat.mod_unique with r; lia.
  - symmetry. apply Nat.div_unique with x; lia.
Qed.

Lemma eval_idx_cons : forall m L i,
  eval_idx (m :: L) i = (i mod extent m) * stride m + eval_idx L (i / extent m).
Proof. reflexivity. Qed.

Lemma size_app : forall A B, size (A ++ B) = size A * size B.
Proof. induction A as [|m A IH]; intros B; simpl; [lia | rewrite IH; lia]. Qed.

Lemma digits_in_domain : forall L i, i < size L -> in_domain L (digits L i).
Proof.
  induction L as [|m L IH]; intros i Hi; simpl in *.
  - exact I.
  - assert (extent m <> 0) by (intro E; rewrite E in Hi; simpl in Hi; lia).
    split.
    + apply Nat.mod_upper_bound; assumption.
    + apply IH. apply Nat.div_lt_upper_bound; assumption.
Qed.

Lemma recompose_digits : forall L i, i < size L -> recompose L (digits L i) = i.
Proof.
  induction L as [|m L IH]; intros i Hi; simpl in *.
  - lia.
  - assert (extent m <> 0) by (intro E; rewrite E in Hi; simpl in Hi; lia).
    rewrite IH by (apply Nat.div_lt_upper_bound; assumption).
    symmetry. rewrite Nat.add_comm. apply Nat.div_mod. assumption.
Qed.

Lemma recompose_bound : forall L xs, in_domain L xs -> recompose L xs < size L.
Proof.
  induction L as [|m L IH]; intros xs H; destruct xs as [|x xs]; simpl in *;
    try contradiction; try lia.
  destruct H as [Hx Hd]. specialize (IH xs Hd). nia.
Qed.

Lemma digits_recompose : forall L xs, in_domain L xs -> digits L (recompose L xs) = xs.
Proof.
  induction L as [|m L IH]; intros xs H; destruct xs as [|x xs]; simpl in *;
    try contradiction; try reflexivity.
  destruct H as [Hx Hd].
  destruct (digit_unique x (recompose L xs) (extent m) Hx) as [E1 E2].
  rewrite E1, E2, IH by assumption. reflexivity.
Qed.

(** The digit map is a bijection from [\[0, size L)] onto the domain. *)
Theorem digits_bijection : forall L,
  (forall i, i < size L -> in_domain L (digits L i)) /\
  (forall i j, i < size L -> j < size L -> digits L i = digits L j -> i = j) /\
  (forall xs, in_domain L xs -> exists i, i < size L /\ digits L i = xs).
Proof.
  intros L. split; [|split].
  - apply digits_in_domain.
  - intros i j Hi Hj E.
    rewrite <- (recompose_digits L i Hi), <- (recompose_digits L j Hj), E.
    reflexivity.
  - intros xs H. exists (recompose L xs).
    split; [apply recompose_bound | apply digits_recompose]; assumption.
Qed.

(** ** nvFuser IterDomains (Euclidean division over [Z])

    nvFuser's docs use Euclidean division: [a = b*q + r] with [0 <= r < |b|].
    Coq's [Z.div]/[Z.modulo] are floor division; they coincide with
    Euclidean division when the divisor is positive (all IterDomain extents
    are), and we define the Euclidean pair for all nonzero divisors. *)

Open Scope Z_scope.

Definition ediv (a b : Z) : Z := Z.sgn b * (a / Z.abs b).
Definition emod (a b : Z) : Z := a mod Z.abs b.

(** Division theorem (nvFuser integer-division.md, Theorem 1.1). *)
Theorem ediv_emod_spec : forall a b, b <> 0 ->
  a = b * ediv a b + emod a b /\ 0 <= emod a b < Z.abs b.
Proof.
  intros a b Hb. unfold ediv, emod.
  destruct (Z.lt_trichotomy b 0) as [H|[H|H]]; [|contradiction|].
  - rewrite Z.abs_neq by lia. rewrite Z.sgn_neg by lia.
    Z.div_mod_to_equations. nia.
  - rewrite Z.abs_eq by lia. rewrite Z.sgn_pos by lia.
    Z.div_mod_to_equations. nia.
Qed.

Theorem ediv_emod_unique : forall a b q r, b <> 0 ->
  a = b * q + r -> 0 <= r < Z.abs b -> q = ediv a b /\ r = emod a b.
Proof.
  intros a b q r Hb E Hr.
  destruct (ediv_emod_spec a b Hb) as [E' Hr'].
  assert (Hq : q = ediv a b).
  { destruct (Z.lt_trichotomy q (ediv a b)) as [Hlt|[Heq|Hgt]]; auto;
      exfalso; destruct (Z.lt_trichotomy b 0) as [Hn|[Hz|Hp]];
      try rewrite Z.abs_neq in * by lia; try rewrite Z.abs_eq in * by lia; nia. }
  split; [exact Hq | subst q; lia].
Qed.

Lemma ediv_pos : forall a b, 0 < b -> ediv a b = a / b.
Proof. intros. unfold ediv. rewrite Z.sgn_pos, Z.abs_eq by lia. lia. Qed.

Lemma emod_pos : forall a b, 0 < b -> emod a b = a mod b.
Proof. intros. unfold emod. rewrite Z.abs_eq by lia. reflexivity. Qed.

(** An index is in boundary of an IterDomain of extent [n] (start is 0). *)
Definition in_bound (i n : Z) : Prop := 0 <= i < n.

(** Ceiling division (extents of split outputs). *)
Definition ceil_div (a b : Z) : Z := ediv (a + b - 1) b.

(** [Split(I0{n0}, factor)] (inner split) produces [I1{ceil_div n0 factor}]
    (outer) and [I2{factor}] (inner); in general nvFuser only needs
    [n1 * n2 >= n0].  Index map (outputs to input): *)
Definition split_in_index (n2 i1 i2 : Z) : Z := i1 * n2 + i2.

(** [I2{n0 * n1} = Merge(I0{n0}, I1{n1})].  Index maps (output to inputs): *)
Definition merge_outer_index (n1 i2 : Z) : Z := ediv i2 n1.
Definition merge_inner_index (n1 i2 : Z) : Z := emod i2 n1.
Definition merge_out_index (n1 i0 i1 : Z) : Z := i0 * n1 + i1.

(** [I1{n0 + l + r} = Resize(I0{n0}, l, r)].  Index map (output to input): *)
Definition resize_in_index (l i1 : Z) : Z := i1 - l.

(** [I2, I3 = Swizzle(I0, I1)]: outputs have the inputs' extents; the index
    map (outputs to inputs) passes X through and rewrites Y with a function
    of both.  nvFuser's swizzles: XOR [(x, y) -> (x, x ^ y)], CyclicShift
    [(x, y) -> (x, (x + y) mod size_x)], ZShape. *)
Definition swizzle_in_index (f : Z -> Z -> Z) (i2 i3 : Z) : Z * Z := (i2, f i2 i3).
Definition xor_swizzle (x y : Z) : Z := Z.lxor x y.
Definition cyclic_shift_swizzle (size_x : Z) (x y : Z) : Z := (x + y) mod size_x.

Close Scope Z_scope.
