(** * TMA-protected IterDomains (nvFuser tma-modeling-in-depth.md,
      Definition 1 and Theorem 4)

    Theorems 1-4 of "Divisibility of Split" compose along an IterDomain
    graph: the hardware bound-checks the partitioned IDs, and the in-bound
    property then propagates to every "TMA-protected" ID, provided the inner
    outputs of the splits on the way are in bound.  Those inner outputs are
    exactly the non-protected IDs the propagation needs: merge, resize and
    swizzle need no side condition. *)

From Coq Require Import ZArith Lia List.
Import ListNotations.
From Tessera Require Import Model Divisibility.
Open Scope Z_scope.

(** IterDomain expressions over ID names ([nat]). *)
Inductive id_expr :=
| ESplit (input outer inner : nat)
| EMerge (outer inner output : nat)
| EResize (input output : nat) (l r : Z)
| ESwizzle (x y x' y' : nat).

(** An extent and index assignment is consistent with an expression when
    the extents follow nvFuser's rules and the indices its index maps. *)
Definition consistent (ext idx : nat -> Z) (e : id_expr) : Prop :=
  match e with
  | ESplit i o n =>
      0 < ext n /\ ext i <= ext o * ext n /\ idx i = split_in_index (ext n) (idx o) (idx n)
  | EMerge o n out =>
      0 < ext n /\ ext out = ext o * ext n /\
      idx o = merge_outer_index (ext n) (idx out) /\ idx n = merge_inner_index (ext n) (idx out)
  | EResize i out l r =>
      ext out = ext i + l + r /\ idx i = resize_in_index l (idx out)
  | ESwizzle x y x' y' =>
      ext x' = ext x /\ idx x = idx x'
  end.

(** Definition 1 (TMA-protected ID), for the expressions [es] and the
    partitioned IDs [part]. *)
Inductive protected (es : list id_expr) (part : nat -> Prop) : nat -> Prop :=
| prot_partitioned : forall i, part i -> protected es part i
| prot_split_outer : forall i o n, In (ESplit i o n) es ->
    protected es part i -> protected es part o
| prot_merge_output : forall o n out, In (EMerge o n out) es ->
    protected es part o -> protected es part out
| prot_resize_output : forall i out l r, In (EResize i out l r) es -> 0 <= l -> 0 <= r ->
    protected es part i -> protected es part out
| prot_swizzle_x : forall x y x' y', In (ESwizzle x y x' y') es ->
    protected es part x -> protected es part x'.

(** Theorem 4 of tma-modeling-in-depth.md: if the partitioned IDs are in
    bound (TMA's builtin check) and the inner outputs of the splits are in
    bound, then every protected ID is in bound.  Each rule is one of
    Theorems 1-4. *)
Theorem tma_protected_inbound : forall es (part : nat -> Prop) (ext idx : nat -> Z),
  Forall (consistent ext idx) es ->
  (forall i, part i -> in_bound (idx i) (ext i)) ->
  (forall i o n, In (ESplit i o n) es -> in_bound (idx n) (ext n)) ->
  forall i, protected es part i -> in_bound (idx i) (ext i).
Proof.
  intros es part ext idx Hc Hpart Hinner i Hp.
  rewrite Forall_forall in Hc.
  induction Hp as [i Hi|i o n Hin Hp IH|o n out Hin Hp IH|i out l r Hin Hl Hr Hp IH
                  |x y x' y' Hin Hp IH].
  - apply Hpart. exact Hi.
  - destruct (Hc _ Hin) as [Hn [Hext Hidx]].
    apply (split_inbound_theorem1 (ext i) (ext o) (ext n) (idx o) (idx n)); try assumption.
    + rewrite <- Hidx. exact IH.
    + apply (Hinner i o n Hin).
  - destruct (Hc _ Hin) as [Hn [Hext [Ho Hi]]].
    rewrite Hext. apply merge_inbound_theorem2; [assumption|]. rewrite <- Ho. exact IH.
  - destruct (Hc _ Hin) as [Hext Hidx].
    rewrite Hext. apply resize_inbound_theorem3; try assumption. rewrite <- Hidx. exact IH.
  - destruct (Hc _ Hin) as [Hext Hidx].
    rewrite Hext, <- Hidx. exact IH.
Qed.

(** The implication goes one way only: protected IDs are in bound when the
    partitioned IDs are, not conversely.  In [Split(I0{6}, 4)] with I0
    partitioned, the outer output I1 is protected; at [i1 = 1, i2 = 2] both
    outputs are in bound but I0 (index 6) is not, so that hole is caught
    only by the hardware's check on I0. *)
Example tma_protected_split_example :
  let es := [ESplit 0%nat 1%nat 2%nat] in
  let ext := fun k : nat => match k with 0%nat => 6 | 1%nat => 2 | _ => 4 end in
  let idx := fun k : nat => match k with 0%nat => 6 | 1%nat => 1 | _ => 2 end in
  Forall (consistent ext idx) es /\ protected es (fun k => k = 0%nat) 1 /\
  in_bound (idx 1%nat) (ext 1%nat) /\ in_bound (idx 2%nat) (ext 2%nat) /\
  ~ in_bound (idx 0%nat) (ext 0%nat).
Proof.
  intros es ext idx. split; [|split; [|split; [|split]]].
  - constructor; [|constructor]. simpl. unfold split_in_index. lia.
  - apply (prot_split_outer es _ 0%nat 1%nat 2%nat); [left; reflexivity|]. apply prot_partitioned. reflexivity.
  - simpl. unfold in_bound. lia.
  - simpl. unfold in_bound. lia.
  - simpl. unfold in_bound. lia.
Qed.
