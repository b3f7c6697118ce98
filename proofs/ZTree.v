(** * Hierarchical layouts with signed strides (issue 14, item 1)

    The general layout model: a tree whose leaves are modes over [Z]
    (extent, stride of any sign).  [ztsize] multiplies the leaves'
    extents; [zteval t i] evaluates an index as CuTe does for a nested
    shape (a node hands [i mod size c_0] to its first child,
    [(i / size c_0) mod size c_1] to the next, ...; a leaf [s:d] gives
    [(i mod s) * d]); [zflatten] lists the leaves in order.

    - [zflatten_preserves_eval]: for positive extents, [zteval t i =
      zeval (zflatten t) i] for every integer [i], and [ztsize t =
      zsize (zflatten t)]: flattening keeps the function.
    - [ztree_of]: the [nat] trees of [Nested.v] embed, with
      [zflatten (ztree_of t) = map zmode_of (hflatten t)] and
      [zteval (ztree_of t) i = heval t i]; conversely a tree with positive
      extents and strides [>= 0] is the image of a [nat] tree
      ([ztree_nonneg_of_nat]).  The theorems stated over [nat] apply to
      such trees through this embedding (the precondition "strides >= 0"
      is then explicit).

    The existing theorems restated on trees: coalesce here
    ([ztree_coalesce]: Rust's coalesce of the flattening keeps the tree's
    function for any strides and is the unique normal form of that
    function); complement, composition, [logical_divide] and
    [logical_product] in [ZTreeAlgebra.v]; nested coordinates in
    [ZCoord.v]; swizzled layouts in [SwizzleLayout.v]. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Model Nested Bridge CoalesceSigned CoalesceSignedNF Product.

Inductive ztree : Type :=
| ZLeaf (m : zmode)
| ZNode (cs : list ztree).

Fixpoint ztree_ind' (P : ztree -> Prop) (Hl : forall m, P (ZLeaf m))
  (Hn : forall cs, Forall P cs -> P (ZNode cs)) (t : ztree) : P t :=
  match t with
  | ZLeaf m => Hl m
  | ZNode cs =>
      Hn cs ((fix go (cs : list ztree) : Forall P cs :=
                match cs with
                | [] => Forall_nil P
                | c :: cs' => Forall_cons c (ztree_ind' P Hl Hn c) (go cs')
                end) cs)
  end.

Fixpoint zflatten (t : ztree) : list zmode :=
  match t with
  | ZLeaf m => [m]
  | ZNode cs =>
      (fix go (cs : list ztree) : list zmode :=
         match cs with
         | [] => []
         | c :: cs' => zflatten c ++ go cs'
         end) cs
  end.

Open Scope Z_scope.

Fixpoint ztsize (t : ztree) : Z :=
  match t with
  | ZLeaf m => zextent m
  | ZNode cs =>
      (fix go (cs : list ztree) : Z :=
         match cs with
         | [] => 1
         | c :: cs' => ztsize c * go cs'
         end) cs
  end.

Fixpoint zteval (t : ztree) (i : Z) : Z :=
  match t with
  | ZLeaf m => (i mod zextent m) * zstride m
  | ZNode cs =>
      (fix go (cs : list ztree) (i : Z) : Z :=
         match cs with
         | [] => 0
         | c :: cs' => zteval c (i mod ztsize c) + go cs' (i / ztsize c)
         end) cs i
  end.

Lemma zflatten_node : forall c cs, zflatten (ZNode (c :: cs)) = zflatten c ++ zflatten (ZNode cs).
Proof. reflexivity. Qed.

Lemma ztsize_node : forall c cs, ztsize (ZNode (c :: cs)) = ztsize c * ztsize (ZNode cs).
Proof. reflexivity. Qed.

Lemma zteval_node : forall c cs i,
  zteval (ZNode (c :: cs)) i = zteval c (i mod ztsize c) + zteval (ZNode cs) (i / ztsize c).
Proof. reflexivity. Qed.

(** Positive extents: every leaf's extent is at least 1. *)
Definition ztpos (t : ztree) : Prop := zpos (zflatten t).

(** ** Flat facts over [Z] *)

Lemma zsize_app : forall A B, zsize (A ++ B) = zsize A * zsize B.
Proof. induction A as [|m A IH]; intros B; cbn [app zsize]; [ring | rewrite IH; ring]. Qed.

Lemma zeval_mod : forall L i, zpos L -> zeval L (i mod zsize L) = zeval L i.
Proof.
  induction L as [|m L IH]; intros i P; [reflexivity|].
  inversion P as [|? ? Pm PL]; subst.
  pose proof (zsize_pos L PL).
  cbn [zeval zsize].
  rewrite Z.rem_mul_r by lia.
  replace ((i mod zextent m + zextent m * ((i / zextent m) mod zsize L)) mod zextent m)
    with (i mod zextent m).
  2:{ rewrite (Z.mul_comm (zextent m)), Z_mod_plus_full, Z.mod_mod by lia. reflexivity. }
  replace ((i mod zextent m + zextent m * ((i / zextent m) mod zsize L)) / zextent m)
    with ((i / zextent m) mod zsize L).
  2:{ rewrite (Z.mul_comm (zextent m)), Z.div_add by lia.
      rewrite (Z.div_small (i mod zextent m) (zextent m)) by (apply Z.mod_pos_bound; lia).
      lia. }
  rewrite IH by exact PL. reflexivity.
Qed.

Lemma zeval_app : forall A B i, zpos A ->
  zeval (A ++ B) i = zeval A i + zeval B (i / zsize A).
Proof.
  induction A as [|m A IH]; intros B i P.
  - change (zsize []) with 1. rewrite Z.div_1_r. reflexivity.
  - inversion P as [|? ? Pm PA]; subst. pose proof (zsize_pos A PA).
    simpl app. cbn [zeval]. rewrite IH by exact PA.
    cbn [zsize]. rewrite Z.div_div by lia. lia.
Qed.

(** ** Flattening keeps the size and the function *)

Lemma ztsize_flatten : forall t, ztsize t = zsize (zflatten t).
Proof.
  induction t as [m|cs IH] using ztree_ind'; [simpl; lia|].
  induction IH as [|c cs Hc Hcs IHcs]; [reflexivity|].
  rewrite ztsize_node, zflatten_node, zsize_app, Hc, IHcs. reflexivity.
Qed.

Theorem zflatten_preserves_eval : forall t i, ztpos t -> zteval t i = zeval (zflatten t) i.
Proof.
  induction t as [m|cs IH] using ztree_ind'; intros i P.
  - simpl. lia.
  - revert i P. induction IH as [|c cs Hc Hcs IHcs]; intros i P; [reflexivity|].
    unfold ztpos in P. rewrite zflatten_node in P. apply Forall_app in P. destruct P as [Pc Pcs].
    rewrite zteval_node, zflatten_node, zeval_app by exact Pc.
    rewrite Hc by exact Pc. rewrite IHcs by exact Pcs.
    rewrite ztsize_flatten, zeval_mod by exact Pc. reflexivity.
Qed.

Corollary zflatten_preserves_size_and_eval : forall t, ztpos t ->
  zsize (zflatten t) = ztsize t /\ (forall i, zeval (zflatten t) i = zteval t i).
Proof.
  intros t P. split; [symmetry; apply ztsize_flatten|].
  intros i. symmetry. apply zflatten_preserves_eval, P.
Qed.

Close Scope Z_scope.

(** ** The [nat] trees embed *)

Fixpoint ztree_of (t : htree) : ztree :=
  match t with
  | HLeaf m => ZLeaf (zmode_of m)
  | HNode cs => ZNode (map ztree_of cs)
  end.

Lemma zflatten_of_nat : forall t, zflatten (ztree_of t) = map zmode_of (hflatten t).
Proof.
  induction t as [m|cs IH] using htree_ind'; [reflexivity|].
  induction IH as [|c cs Hc Hcs IHcs]; [reflexivity|].
  change (zflatten (ztree_of (HNode (c :: cs))))
    with (zflatten (ztree_of c) ++ zflatten (ztree_of (HNode cs))).
  rewrite hflatten_node, map_app, Hc, IHcs. reflexivity.
Qed.

Lemma ztpos_of_nat : forall t, hpos t -> ztpos (ztree_of t).
Proof.
  intros t P. unfold ztpos. rewrite zflatten_of_nat. unfold zpos.
  apply Forall_map. eapply Forall_impl; [|exact P]. simpl. intros. lia.
Qed.

Lemma ztsize_of_nat : forall t, ztsize (ztree_of t) = Z.of_nat (hsize t).
Proof. intros t. rewrite ztsize_flatten, zflatten_of_nat, zsize_of_nat, hsize_flatten. reflexivity. Qed.

Theorem zteval_of_nat : forall t i, hpos t ->
  zteval (ztree_of t) (Z.of_nat i) = Z.of_nat (heval t i).
Proof.
  intros t i P. rewrite zflatten_preserves_eval by (apply ztpos_of_nat, P).
  rewrite zflatten_of_nat, zeval_of_nat, flatten_preserves_eval by exact P. reflexivity.
Qed.

(** Non-negative strides: every leaf's stride is at least 0. *)
Definition znonneg (t : ztree) : Prop := Forall (fun m => (0 <= zstride m)%Z) (zflatten t).

Definition mode_of_z (m : zmode) : mode := Mode (Z.to_nat (zextent m)) (Z.to_nat (zstride m)).

Fixpoint ztree_to_nat (t : ztree) : htree :=
  match t with
  | ZLeaf m => HLeaf (mode_of_z m)
  | ZNode cs => HNode (map ztree_to_nat cs)
  end.

Lemma hflatten_to_nat : forall t, hflatten (ztree_to_nat t) = map mode_of_z (zflatten t).
Proof.
  induction t as [m|cs IH] using ztree_ind'; [reflexivity|].
  induction IH as [|c cs Hc Hcs IHcs]; [reflexivity|].
  change (hflatten (ztree_to_nat (ZNode (c :: cs))))
    with (hflatten (ztree_to_nat c) ++ hflatten (ztree_to_nat (ZNode cs))).
  rewrite zflatten_node, map_app, Hc, IHcs. reflexivity.
Qed.

(** A tree with positive extents and non-negative strides is the image of
    a [nat] tree with positive extents. *)
Theorem ztree_nonneg_of_nat : forall t, ztpos t -> znonneg t ->
  ztree_of (ztree_to_nat t) = t /\ hpos (ztree_to_nat t).
Proof.
  induction t as [m|cs IH] using ztree_ind'; intros P N.
  - inversion P as [|? ? Pm _]; subst. inversion N as [|? ? Nm _]; subst.
    split.
    + destruct m as [e d]. simpl in *. unfold zmode_of, mode_of_z. simpl.
      rewrite !Z2Nat.id by lia. reflexivity.
    + unfold hpos. simpl. constructor; [simpl; lia | constructor].
  - assert (H : map ztree_of (map ztree_to_nat cs) = cs /\
                Forall (fun m => 1 <= extent m) (hflatten (ztree_to_nat (ZNode cs)))).
    { induction IH as [|c cs Hc Hcs IHcs]; [split; [reflexivity | constructor]|].
      unfold ztpos, znonneg in P, N. rewrite zflatten_node in P, N.
      apply Forall_app in P as [Pc Pcs]. apply Forall_app in N as [Nc Ncs].
      destruct (Hc Pc Nc) as [Ec Hpc]. destruct (IHcs Pcs Ncs) as [Ecs Hpcs].
      split; [simpl; rewrite Ec, Ecs; reflexivity|].
      change (hflatten (ztree_to_nat (ZNode (c :: cs))))
        with (hflatten (ztree_to_nat c) ++ hflatten (ztree_to_nat (ZNode cs))).
      apply Forall_app. split; assumption. }
    destruct H as [E Hp]. split; [simpl; rewrite E; reflexivity | exact Hp].
Qed.

(** ** Coalesce on trees, any strides *)

Open Scope Z_scope.

(** Rust's [coalesce] of a tree flattens it and runs [rust_coalesceZ]: the
    result has the tree's size and function for strides of any sign, is
    in normal form (or [1:0] for size 1), and is the only normal form with
    that size and function. *)
Theorem ztree_coalesce : forall t, ztpos t ->
  zsize (rust_coalesceZ (zflatten t)) = ztsize t /\
  (forall i, zeval (rust_coalesceZ (zflatten t)) i = zteval t i) /\
  (ztsize t <> 1 -> znormal (rust_coalesceZ (zflatten t))) /\
  (ztsize t = 1 -> rust_coalesceZ (zflatten t) = [ZMode 1 0]) /\
  (ztsize t <> 1 -> forall N, znormal N -> zsize N = ztsize t ->
     (forall i, 0 <= i < ztsize t -> zeval N i = zteval t i) ->
     N = rust_coalesceZ (zflatten t)).
Proof.
  intros t P.
  destruct (rust_coalesceZ_preserves_eval (zflatten t) P) as [Sz Ev].
  rewrite <- ztsize_flatten in Sz.
  split; [exact Sz|]. split.
  { intros i. rewrite Ev. symmetry. apply zflatten_preserves_eval, P. }
  split; [intros H; apply rust_coalesceZ_normal; [exact P | rewrite <- ztsize_flatten; exact H]|].
  split; [intros H; apply rust_coalesceZ_size1; [exact P | rewrite <- ztsize_flatten; exact H]|].
  intros H1 N Nn Hs He.
  apply rust_coalesceZ_unique_normal_form; [exact P | rewrite <- ztsize_flatten; exact H1 | exact Nn
    | rewrite <- ztsize_flatten; exact Hs |].
  intros i Hi. rewrite <- ztsize_flatten in Hi.
  rewrite He by exact Hi. apply zflatten_preserves_eval, P.
Qed.

(** Two trees with the same size and function on [\[0, size)] (for
    instance a tree and any re-nesting of it) coalesce to the same list. *)
Corollary ztree_coalesce_canonical : forall t1 t2, ztpos t1 -> ztpos t2 ->
  ztsize t1 = ztsize t2 -> (forall i, 0 <= i < ztsize t1 -> zteval t1 i = zteval t2 i) ->
  rust_coalesceZ (zflatten t1) = rust_coalesceZ (zflatten t2).
Proof.
  intros t1 t2 P1 P2 Hs He. apply rust_coalesceZ_canonical; [exact P1 | exact P2 | |].
  - rewrite <- !ztsize_flatten. exact Hs.
  - intros i Hi. rewrite <- ztsize_flatten in Hi.
    rewrite <- !zflatten_preserves_eval by assumption. apply He, Hi.
Qed.

(** Example: [(2,(3,2)):(-1,(-2,-6))] flattens and coalesces to [12:-1]. *)
Example ztree_example :
  let t := ZNode [ZLeaf (ZMode 2 (-1)); ZNode [ZLeaf (ZMode 3 (-2)); ZLeaf (ZMode 2 (-6))]] in
  rust_coalesceZ (zflatten t) = [ZMode 12 (-1)] /\ zteval t 7 = -7.
Proof. split; reflexivity. Qed.

Close Scope Z_scope.
