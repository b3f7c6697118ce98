(** * The bridge: the proved functions over binary integers (issue 14, item 7)

    The proofs use Peano [nat]; extracted to OCaml that is unary and far
    too slow to run on 100,000 layouts.  Here each extracted function is
    restated over [Z] (binary, extracted to exact OCaml constructors, no
    machine integers and no extraction directive mapping a Coq type to an
    OCaml one), and proved equal to the [nat] function it stands for on
    the image of [Z.of_nat].  [Extract.v] extracts the [Z] functions; the
    differential test ([crates/tessera/tests/bridge.rs]) runs them against
    the Rust library.

    - [rust_coalesceZ]: Rust's [coalesce] ([CoalesceImpl.rust_coalesce]);
      [rust_coalesceZ_of_nat] and [rust_coalesceZ_normal_form].
    - [complement1Z]: the Complementation theorem's rank-1 complement ([Complement.complement1]);
      [complement1Z_of_nat]. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence CoalesceImpl Complement.

Record zmode := ZMode { zextent : Z; zstride : Z }.

Definition zmode_of (m : mode) : zmode :=
  ZMode (Z.of_nat (extent m)) (Z.of_nat (stride m)).

Open Scope Z_scope.

(** [CoalesceImpl.bw_step] over [Z], branch for branch. *)
Definition bw_stepZ (m : zmode) (acc : list zmode) : list zmode :=
  if Z.eqb (zextent m) 1 then acc
  else match acc with
       | [] => [m]
       | [f] =>
           if Z.eqb (zextent f) 1 then [m]
           else if Z.eqb (zextent m * zstride m) (zstride f)
                then [ZMode (zextent m * zextent f) (zstride m)]
                else [m; f]
       | f :: rest =>
           if Z.eqb (zextent m * zstride m) (zstride f)
           then ZMode (zextent m * zextent f) (zstride m) :: rest
           else m :: acc
       end.

Definition unit_fixupZ (R : list zmode) : list zmode :=
  match R with
  | [f] => if Z.eqb (zextent f) 1 then [ZMode 1 0] else R
  | _ => R
  end.

Definition rust_coalesceZ (L : list zmode) : list zmode :=
  match rev L with
  | [] => [ZMode 1 0]
  | last :: rinit => unit_fixupZ (fold_right bw_stepZ [last] (rev rinit))
  end.

(** [Complement.complement1] over [Z]. *)
Definition complement1Z (N d M : Z) : list zmode :=
  [ZMode d 1; ZMode (M / (N * d)) (N * d)].

Close Scope Z_scope.

(** ** Agreement with the proved [nat] functions *)

Lemma eqb_of_nat : forall a b, Z.eqb (Z.of_nat a) (Z.of_nat b) = Nat.eqb a b.
Proof.
  intros a b. destruct (Nat.eqb a b) eqn:E.
  - apply Nat.eqb_eq in E. subst. apply Z.eqb_refl.
  - apply Nat.eqb_neq in E. apply Z.eqb_neq. lia.
Qed.

Lemma eqb_of_nat_1 : forall a, Z.eqb (Z.of_nat a) 1 = Nat.eqb a 1.
Proof. intros a. apply (eqb_of_nat a 1). Qed.

Lemma bw_stepZ_of_nat : forall m acc,
  bw_stepZ (zmode_of m) (map zmode_of acc) = map zmode_of (bw_step m acc).
Proof.
  intros m acc. unfold bw_stepZ, bw_step. simpl zextent. simpl zstride.
  rewrite eqb_of_nat_1.
  destruct (Nat.eqb (extent m) 1); [reflexivity|].
  destruct acc as [|f [|g rest]]; [reflexivity| |];
    cbn -[Z.mul Z.eqb Z.of_nat Nat.mul Nat.eqb]; rewrite <- Nat2Z.inj_mul, eqb_of_nat.
  - rewrite eqb_of_nat_1.
    destruct (Nat.eqb (extent f) 1); [reflexivity|].
    destruct (Nat.eqb (extent m * stride m) (stride f)); [|reflexivity].
    unfold zmode_of. simpl. repeat f_equal. lia.
  - destruct (Nat.eqb (extent m * stride m) (stride f)); [|reflexivity].
    unfold zmode_of. simpl. rewrite ?Nat2Z.inj_mul. reflexivity.
Qed.

Lemma bw_coalesceZ_of_nat : forall init last,
  fold_right bw_stepZ [zmode_of last] (map zmode_of init) =
  map zmode_of (bw_coalesce init last).
Proof.
  induction init as [|m init IH]; intros last; [reflexivity|].
  simpl. rewrite IH. apply bw_stepZ_of_nat.
Qed.

Lemma unit_fixupZ_of_nat : forall R,
  unit_fixupZ (map zmode_of R) = map zmode_of (unit_fixup R).
Proof.
  intros [|f [|g rest]]; try reflexivity.
  simpl. rewrite eqb_of_nat_1. destruct (Nat.eqb (extent f) 1); reflexivity.
Qed.

Theorem rust_coalesceZ_of_nat : forall L,
  rust_coalesceZ (map zmode_of L) = map zmode_of (rust_coalesce L).
Proof.
  intros L. unfold rust_coalesceZ, rust_coalesce. rewrite <- map_rev.
  destruct (rev L) as [|last rinit]; [reflexivity|].
  simpl map. cbv iota beta. rewrite <- map_rev, bw_coalesceZ_of_nat, unit_fixupZ_of_nat. reflexivity.
Qed.

(** What the differential test relies on: on a layout with positive extents
    and non-negative strides, the extracted function returns the seed's
    unique normal form [coalesce L] (size other than 1), or [1:0]. *)
Theorem rust_coalesceZ_normal_form : forall L, pos_extents L ->
  rust_coalesceZ (map zmode_of L) =
  map zmode_of (if Nat.eqb (size L) 1 then [Mode 1 0] else coalesce L).
Proof.
  intros L P. rewrite rust_coalesceZ_of_nat.
  destruct (Nat.eqb (size L) 1) eqn:E.
  - apply Nat.eqb_eq in E. rewrite rust_coalesce_unit by assumption. reflexivity.
  - apply Nat.eqb_neq in E. rewrite rust_coalesce_is_normal_form by assumption. reflexivity.
Qed.

Theorem complement1Z_of_nat : forall N d M,
  complement1Z (Z.of_nat N) (Z.of_nat d) (Z.of_nat M) =
  map zmode_of (complement1 N d M).
Proof.
  intros N d M. unfold complement1Z, complement1, zmode_of. simpl.
  rewrite Nat2Z.inj_div, Nat2Z.inj_mul. reflexivity.
Qed.
