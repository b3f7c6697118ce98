(** * Hierarchical layouts and their flattening over [nat] (issue 14, item 1; the model with
    signed strides is [ZTree.v])

    A hierarchical layout is a tree whose leaves are modes.  Its size is
    the product of its leaves' extents.  An index [i] is evaluated as CuTe
    evaluates it: a node with children [c_0, ..., c_k] hands
    [i mod size c_0] to [c_0], [(i / size c_0) mod size c_1] to [c_1], and
    so on (colexicographic, first child fastest); a leaf [s:d] gives
    [(i mod s) * d].  On [\[0, size)] this is CuTe's
    [crd2idx(idx2crd(i, shape), stride)] for nested shapes.

    Proved ([flatten_preserves_eval]): for positive extents,
    [heval t i = eval_idx (hflatten t) i] for every [i], and
    [hsize t = size (hflatten t)]: flattening keeps the function.  Hence
    every theorem about flat layouts applies to the flattening of a nested
    one ([coalesce_nested]: coalescing the flattening keeps the nested
    layout's function).  Strides are natural numbers here, as in [Model.v]. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model Coalesce.

Inductive htree : Type :=
| HLeaf (m : mode)
| HNode (cs : list htree).

(** Induction with the hypothesis on every child. *)
Fixpoint htree_ind' (P : htree -> Prop) (Hl : forall m, P (HLeaf m))
  (Hn : forall cs, Forall P cs -> P (HNode cs)) (t : htree) : P t :=
  match t with
  | HLeaf m => Hl m
  | HNode cs =>
      Hn cs ((fix go (cs : list htree) : Forall P cs :=
                match cs with
                | [] => Forall_nil P
                | c :: cs' => Forall_cons c (htree_ind' P Hl Hn c) (go cs')
                end) cs)
  end.

Fixpoint hflatten (t : htree) : layout :=
  match t with
  | HLeaf m => [m]
  | HNode cs =>
      (fix go (cs : list htree) : layout :=
         match cs with
         | [] => []
         | c :: cs' => hflatten c ++ go cs'
         end) cs
  end.

Fixpoint hsize (t : htree) : nat :=
  match t with
  | HLeaf m => extent m
  | HNode cs =>
      (fix go (cs : list htree) : nat :=
         match cs with
         | [] => 1
         | c :: cs' => hsize c * go cs'
         end) cs
  end.

Fixpoint heval (t : htree) (i : nat) : nat :=
  match t with
  | HLeaf m => (i mod extent m) * stride m
  | HNode cs =>
      (fix go (cs : list htree) (i : nat) : nat :=
         match cs with
         | [] => 0
         | c :: cs' => heval c (i mod hsize c) + go cs' (i / hsize c)
         end) cs i
  end.

Lemma hflatten_node : forall c cs, hflatten (HNode (c :: cs)) = hflatten c ++ hflatten (HNode cs).
Proof. reflexivity. Qed.

Lemma hsize_node : forall c cs, hsize (HNode (c :: cs)) = hsize c * hsize (HNode cs).
Proof. reflexivity. Qed.

Lemma heval_node : forall c cs i,
  heval (HNode (c :: cs)) i = heval c (i mod hsize c) + heval (HNode cs) (i / hsize c).
Proof. reflexivity. Qed.

Definition pos (L : layout) : Prop := Forall (fun m => 1 <= extent m) L.

Lemma size_pos_l : forall L, pos L -> 1 <= size L.
Proof.
  induction L as [|m L IH]; intros P; simpl; [lia|].
  inversion P; subst. specialize (IH ltac:(assumption)). nia.
Qed.

(** ** Flat facts: digits over a concatenation, and modulo the size *)

Lemma eval_idx_mod : forall L i, pos L -> eval_idx L (i mod size L) = eval_idx L i.
Proof.
  induction L as [|m L IH]; intros i P; [reflexivity|].
  inversion P as [|? ? Pm PL]; subst.
  pose proof (size_pos_l L PL).
  rewrite !eval_idx_cons. simpl size.
  rewrite Nat.mod_mul_r by lia.
  replace ((i mod extent m + extent m * ((i / extent m) mod size L)) mod extent m)
    with (i mod extent m).
  2:{ rewrite (Nat.mul_comm (extent m)), Nat.mod_add, Nat.mod_mod by lia. reflexivity. }
  replace ((i mod extent m + extent m * ((i / extent m) mod size L)) / extent m)
    with ((i / extent m) mod size L).
  2:{ rewrite (Nat.mul_comm (extent m)), Nat.div_add by lia.
      rewrite (Nat.div_small (i mod extent m) (extent m)) by (apply Nat.mod_upper_bound; lia).
      lia. }
  rewrite IH by exact PL. reflexivity.
Qed.

Lemma eval_idx_app : forall A B i, pos A ->
  eval_idx (A ++ B) i = eval_idx A i + eval_idx B (i / size A).
Proof.
  induction A as [|m A IH]; intros B i P.
  - change (size []) with 1. rewrite Nat.div_1_r. reflexivity.
  - inversion P as [|? ? Pm PA]; subst. pose proof (size_pos_l A PA).
    simpl app. rewrite !eval_idx_cons, IH by exact PA.
    simpl size. rewrite Nat.div_div by lia. lia.
Qed.

(** ** Flattening keeps the size and the function *)

Definition hpos (t : htree) : Prop := pos (hflatten t).

Lemma hsize_flatten : forall t, hsize t = size (hflatten t).
Proof.
  induction t as [m|cs IH] using htree_ind'; [simpl; lia|].
  induction IH as [|c cs Hc Hcs IHcs]; [reflexivity|].
  rewrite hsize_node, hflatten_node, size_app, Hc, IHcs. reflexivity.
Qed.

Theorem flatten_preserves_eval : forall t i, hpos t -> heval t i = eval_idx (hflatten t) i.
Proof.
  induction t as [m|cs IH] using htree_ind'; intros i P.
  - unfold eval_idx. simpl. lia.
  - revert i P. induction IH as [|c cs Hc Hcs IHcs]; intros i P; [reflexivity|].
    unfold hpos in P. rewrite hflatten_node in P. apply Forall_app in P. destruct P as [Pc Pcs].
    rewrite heval_node, hflatten_node, eval_idx_app by exact Pc.
    rewrite Hc by exact Pc. rewrite IHcs by exact Pcs.
    rewrite hsize_flatten, eval_idx_mod by exact Pc. reflexivity.
Qed.

Corollary flatten_preserves_size_and_eval : forall t, hpos t ->
  size (hflatten t) = hsize t /\ (forall i, eval_idx (hflatten t) i = heval t i).
Proof.
  intros t P. split; [symmetry; apply hsize_flatten|].
  intros i. symmetry. apply flatten_preserves_eval, P.
Qed.

(** Coalescing the flattening keeps the nested layout's function. *)
Corollary coalesce_nested : forall t, hpos t ->
  size (coalesce (hflatten t)) = hsize t /\
  (forall i, i < hsize t -> eval_idx (coalesce (hflatten t)) i = heval t i).
Proof.
  intros t P. destruct (coalesce_preserves_eval (hflatten t)) as [Hs He].
  rewrite <- hsize_flatten in Hs. split; [exact Hs|].
  intros i Hi. rewrite He by (rewrite <- hsize_flatten; exact Hi).
  symmetry. apply flatten_preserves_eval, P.
Qed.

(** Example: [(2,(1,6)):(1,(6,2))] (the doc example of [coalesce]). *)
Example nested_example :
  hflatten (HNode [HLeaf (Mode 2 1); HNode [HLeaf (Mode 1 6); HLeaf (Mode 6 2)]]) =
  [Mode 2 1; Mode 1 6; Mode 6 2] /\
  heval (HNode [HLeaf (Mode 2 1); HNode [HLeaf (Mode 1 6); HLeaf (Mode 6 2)]]) 7 = 7.
Proof. split; reflexivity. Qed.
