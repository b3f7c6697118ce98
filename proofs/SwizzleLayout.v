(** * Swizzled layouts (issue 14, item 5, as layouts)

    CuTe's [ComposedLayout<Sw, O, L>] ([layout/swizzle.rs]:
    [ComposedLayout]) is the function [i |-> Sw(O + L(i))].  With [L] a
    tree of [ZTree.v] (nested, strides of any sign) and [Sw] a legal
    [Swizzle<B,M,S>] of [Swizzle.v]:

    - [swizzled_injective]: if [i |-> O + L(i)] is one to one on
      [\[0, size L)], so is the swizzled layout (the swizzle is an
      involution of [Z]);
    - [swizzled_bijection]: if [i |-> O + L(i)] maps [\[0, size L)] one to
      one onto [\[0, 2^k)] with [k >= M + |S| + B] (a compact layout of
      [2^k] elements at offset 0, the usual shared-memory tile), so does
      the swizzled layout: a swizzle never makes two elements of a tile
      share an address nor leaves one unused;
    - [swizzled_same_image]: more generally the swizzled layout reaches,
      inside [\[0, 2^k)], exactly the swizzles of the addresses [O + L]
      reaches. *)

From Coq Require Import ZArith Lia List.
Import ListNotations.
From Tessera Require Import Swizzle Bridge ZTree.

Open Scope Z_scope.

Definition swizzled (B M S O : Z) (t : ztree) (i : Z) : Z := swizzle B M S (O + zteval t i).

Theorem swizzled_injective : forall B M S O t, swizzle_legal B M S ->
  (forall i j, 0 <= i < ztsize t -> 0 <= j < ztsize t -> O + zteval t i = O + zteval t j -> i = j) ->
  forall i j, 0 <= i < ztsize t -> 0 <= j < ztsize t ->
  swizzled B M S O t i = swizzled B M S O t j -> i = j.
Proof.
  intros B M S O t L Inj i j Hi Hj E. unfold swizzled in E.
  apply Inj; [exact Hi | exact Hj|].
  rewrite <- (swizzle_involutive B M S (O + zteval t i) L), E.
  apply swizzle_involutive, L.
Qed.

Theorem swizzled_bijection : forall B M S O t k, swizzle_legal B M S -> M + Z.abs S + B <= k ->
  (forall i, 0 <= i < ztsize t -> 0 <= O + zteval t i < 2 ^ k) ->
  (forall i j, 0 <= i < ztsize t -> 0 <= j < ztsize t -> O + zteval t i = O + zteval t j -> i = j) ->
  (forall v, 0 <= v < 2 ^ k -> exists i, 0 <= i < ztsize t /\ O + zteval t i = v) ->
  (forall i, 0 <= i < ztsize t -> 0 <= swizzled B M S O t i < 2 ^ k) /\
  (forall i j, 0 <= i < ztsize t -> 0 <= j < ztsize t ->
     swizzled B M S O t i = swizzled B M S O t j -> i = j) /\
  (forall v, 0 <= v < 2 ^ k -> exists i, 0 <= i < ztsize t /\ swizzled B M S O t i = v).
Proof.
  intros B M S O t k L Hk Into Inj Onto.
  destruct (swizzle_bijection_on_range B M S k L Hk) as [R [_ _]].
  split; [|split].
  - intros i Hi. apply R, Into, Hi.
  - apply swizzled_injective; assumption.
  - intros v Hv. destruct (Onto (swizzle B M S v) (R v Hv)) as [i [Hi E]].
    exists i. split; [exact Hi|]. unfold swizzled. rewrite E. apply swizzle_involutive, L.
Qed.

Theorem swizzled_same_image : forall B M S O t v, swizzle_legal B M S ->
  (exists i, 0 <= i < ztsize t /\ swizzled B M S O t i = v) <->
  (exists i, 0 <= i < ztsize t /\ O + zteval t i = swizzle B M S v).
Proof.
  intros B M S O t v L. split; intros [i [Hi E]]; exists i; split; try exact Hi; unfold swizzled in *.
  - rewrite <- E. symmetry. apply swizzle_involutive, L.
  - rewrite E. apply swizzle_involutive, L.
Qed.

(** Example: CuTe's doc example [Sw<3,4,3> o 0 o (8,64):(64,1)]: index 1 is
    64, index 24 is [3 ^ 0]. *)
Example swizzled_example :
  let t := ZNode [ZLeaf (ZMode 8 64); ZLeaf (ZMode 64 1)] in
  swizzled 3 4 3 0 t 1 = 64 /\ swizzled 3 4 3 0 t 24 = 3.
Proof. split; reflexivity. Qed.

Close Scope Z_scope.
