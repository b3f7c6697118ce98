(** * logical_product as a corollary (issue 14, item 4)

    CuTe's [logical_product(A, B) = (A, complement(A, size A * K) o B)]
    ([crates/tessera/src/algebra/product.rs], with [K = cosize B]).  For a
    sorted tractable flat [A] ([ComplementAny.tractable]) write
    [C = complement_of A rest] for its complement, with
    [rest = ceil(size A * K / reach A 1)].  When the composition [C o B]
    (B flat) is certified ([Composition.v]) with a candidate compatible
    with [B], and the modes [ax] the certificate is checked on agree with
    [C] on [\[0, size C)] (Rust checks it on [coalesce_x(C)]):

    - the second mode of the product is [C o B]: [R2(xb) = C(B(xb))] on
      B's domain ([logical_product_second_mode]);
    - if every value of [B] is below [K] and [B] is injective on its
      domain, the product [P(xa, xb) = A(xa) + R2(xb)] maps
      [dom A x dom B] one to one into [\[0, reach A 1 * rest)]
      ([logical_product_certified]): the copies of [A] that [B] places do
      not overlap.

    With CuTe's [K = cosize B], the bound on [B]'s values holds
    ([cosize_bound], [logical_product_cosize]).  Not proved here: that
    [coalesce_x(C)] agrees with [C] on its domain (taken as the hypothesis
    on [ax]); nested or by-mode tilers. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Model ComplementAny Bridge Composition Divide.

(** The interleaved layout has the extents of [A] and of its complement. *)
Lemma inter_size_split : forall A p rest,
  size (inter A p rest) = size A * size (comp_from A p rest).
Proof.
  induction A as [|m A IH]; intros p rest; [simpl; lia|].
  rewrite comp_from_cons. simpl. rewrite IH. nia.
Qed.

(** [size A * size C = reach A 1 * rest]. *)
Lemma complement_size : forall A rest, tractable A ->
  size A * size (complement_of A rest) = reach A 1 * rest.
Proof.
  intros A rest T. pose proof (inter_size A 1 rest ltac:(lia) T) as S.
  rewrite inter_size_split in S. unfold complement_of. fold (comp_from A 1 rest). lia.
Qed.

(** CuTe's cotarget [size A * K] makes [C] at least [K] long. *)
Lemma complement_size_covers : forall A K, tractable A -> Forall (fun m => 1 <= extent m) A ->
  K <= size (complement_of A ((size A * K + reach A 1 - 1) / reach A 1)).
Proof.
  intros A K T P.
  set (rest := (size A * K + reach A 1 - 1) / reach A 1).
  pose proof (complement_size A rest T) as S.
  pose proof (complement_covers_cotarget A (size A * K) T P) as Cv. fold rest in Cv.
  assert (1 <= size A).
  { clear -P. induction A as [|m A IH]; simpl; [lia|].
    inversion P as [|? ? Hm P']; subst. specialize (IH P'). nia. }
  nia.
Qed.

Theorem logical_product_second_mode : forall ax (B : layout) ls,
  pos_ax ax -> Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  forall xb, in_domain B xb ->
  evalRflat (map Z.of_nat xb) ls = evalA ax (Z.of_nat (eval B xb)).
Proof.
  intros ax B ls P Ok Hs He C xb D.
  rewrite <- (evalB_of_nat B ls xb Hs (domain_length _ _ D)).
  symmetry. apply composition_certified_flat; try assumption.
  apply (bounds_of_domain B); assumption.
Qed.

Theorem logical_product_certified : forall ax (A B : layout) K ls,
  tractable A -> Forall (fun m => 1 <= extent m) A ->
  let rest := ((size A * K + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  pos_ax ax -> (forall i, (i < size C)%nat -> evalA ax (Z.of_nat i) = Z.of_nat (eval_idx C i)) ->
  Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall xb, in_domain B xb -> (eval B xb < K)%nat) ->
  (forall xb yb, in_domain B xb -> in_domain B yb -> eval B xb = eval B yb -> xb = yb) ->
  let P xa xb := (Z.of_nat (eval A xa) + evalRflat (map Z.of_nat xb) ls)%Z in
  (forall xa xb, in_domain A xa -> in_domain B xb ->
     (0 <= P xa xb < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa xb ya yb, in_domain A xa -> in_domain B xb -> in_domain A ya -> in_domain B yb ->
     P xa xb = P ya yb -> xa = ya /\ xb = yb).
Proof.
  intros ax A B K ls T PA rest C Pax Hax Ok Hs He Cert HK Binj P.
  pose proof (complement_size_covers A K T PA) as Cov. fold rest C in Cov.
  destruct (complement_tiles A rest T) as [T1 [T2 _]]. fold C in T1, T2.
  (* P xa xb = A(xa) + C(xc) with xc the digits of B(xb) in C. *)
  assert (EP : forall xa xb, in_domain B xb ->
            P xa xb = Z.of_nat (eval A xa + eval C (digits C (eval B xb))) /\
            in_domain C (digits C (eval B xb))).
  { intros xa xb D. pose proof (HK xb D) as Hb. split.
    - unfold P. rewrite (logical_product_second_mode ax B ls Pax Ok Hs He Cert xb D).
      rewrite Hax by lia. rewrite Nat2Z.inj_add. reflexivity.
    - apply digits_in_domain. lia. }
  split.
  - intros xa xb Da Db. destruct (EP xa xb Db) as [E Dc]. rewrite E.
    pose proof (T1 xa _ Da Dc). lia.
  - intros xa xb ya yb Dxa Dxb Dya Dyb E.
    destruct (EP xa xb Dxb) as [Ex Dxc]. destruct (EP ya yb Dyb) as [Ey Dyc].
    rewrite Ex, Ey in E. apply Nat2Z.inj in E.
    destruct (T2 _ _ _ _ Dxa Dxc Dya Dyc E) as [-> Ed]. split; [reflexivity|].
    apply Binj; try assumption.
    pose proof (HK xb Dxb). pose proof (HK yb Dyb).
    rewrite <- (recompose_digits C (eval B xb)) by lia.
    rewrite <- (recompose_digits C (eval B yb)) by lia. rewrite Ed. reflexivity.
Qed.

(** ** CuTe's [K = cosize B] *)

Fixpoint max_coord (L : layout) : list nat :=
  match L with [] => [] | m :: L' => (extent m - 1) :: max_coord L' end.

Lemma domain_pos_nat : forall L xs, in_domain L xs -> Forall (fun m => 1 <= extent m) L.
Proof.
  induction L as [|m L IH]; intros [|x xs] H; simpl in H; try contradiction; constructor.
  - lia.
  - exact (IH _ (proj2 H)).
Qed.

Lemma size_pos : forall L, Forall (fun m => 1 <= extent m) L -> 1 <= size L.
Proof.
  induction L as [|m L IH]; intros P; simpl; [lia|].
  inversion P as [|? ? Hm P']; subst. specialize (IH P'). nia.
Qed.

Lemma digits_last : forall L, Forall (fun m => 1 <= extent m) L ->
  digits L (size L - 1) = max_coord L.
Proof.
  induction L as [|m L IH]; intros P; [reflexivity|].
  inversion P as [|? ? Hm P']; subst. pose proof (size_pos L P') as Hs.
  simpl. destruct (digit_unique (extent m - 1) (size L - 1) (extent m) ltac:(lia)) as [E1 E2].
  replace (extent m * size L - 1) with (extent m - 1 + extent m * (size L - 1)) by nia.
  rewrite E1, E2, IH by exact P'. reflexivity.
Qed.

Lemma eval_le_max : forall L xs, in_domain L xs -> eval L xs <= eval L (max_coord L).
Proof.
  induction L as [|m L IH]; intros [|x xs] D; simpl in *; try contradiction; [lia|].
  destruct D as [Hx D]. specialize (IH xs D). nia.
Qed.

(** Every value of [B] is below [cosize B]. *)
Lemma cosize_bound : forall B xb, in_domain B xb -> eval B xb < cosize B.
Proof.
  intros B xb D. pose proof (domain_pos_nat B xb D) as P.
  unfold cosize, eval_idx. rewrite digits_last by exact P.
  pose proof (eval_le_max B xb D). lia.
Qed.

Corollary logical_product_cosize : forall ax (A B : layout) ls,
  tractable A -> Forall (fun m => 1 <= extent m) A ->
  let rest := ((size A * cosize B + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  pos_ax ax -> (forall i, (i < size C)%nat -> evalA ax (Z.of_nat i) = Z.of_nat (eval_idx C i)) ->
  Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall xb yb, in_domain B xb -> in_domain B yb -> eval B xb = eval B yb -> xb = yb) ->
  let P xa xb := (Z.of_nat (eval A xa) + evalRflat (map Z.of_nat xb) ls)%Z in
  (forall xa xb, in_domain A xa -> in_domain B xb ->
     (0 <= P xa xb < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa xb ya yb, in_domain A xa -> in_domain B xb -> in_domain A ya -> in_domain B yb ->
     P xa xb = P ya yb -> xa = ya /\ xb = yb).
Proof.
  intros ax A B ls T PA rest C Pax Hax Ok Hs He Cert Binj P.
  apply (logical_product_certified ax A B (cosize B) ls T PA Pax Hax Ok Hs He Cert); [|exact Binj].
  exact (cosize_bound B).
Qed.
