(** * Nested coordinates (issue 14, item 1)

    CuTe indexes a hierarchical layout by a coordinate that is a tree too:
    an integer, or a tuple of coordinates.  Here [zcoord] is that tree, and
    [crd2idx c t] is Rust's [crd2idx] ([layout/mod.rs], [crd2idx_ref]): an
    integer coordinate [x] at a subtree [t] evaluates [t] at the index [x]
    ([zteval t x]); a tuple needs a node of the same rank and sums its
    children's values; a tuple at a leaf, or a rank mismatch, is [None]
    (Rust's [RankMismatch]).  [idx2crd t i] is Rust's [idx2crd]: the
    colexicographic coordinate of [i], congruent to the shape (the last
    child takes the remaining quotient).  [lin c t] linearises a coordinate
    colexicographically.

    Proved:
    - [crd2idx_lin]: for every coordinate in the domain ([in_cdomain]:
      tuples where the shape has nodes of the same rank, each integer within
      the size of the subtree it indexes; integers may stand for whole
      subtrees, as CuTe allows), [crd2idx c t = Some (zteval t (lin c t))]
      and [0 <= lin c t < size t]: a nested coordinate is evaluated as its
      index;
    - [idx2crd_spec]: for [0 <= i < size t], [idx2crd t i] is congruent to
      the shape, in the domain, and linearises to [i];
    - [idx2crd_lin]: conversely every congruent coordinate of the domain is
      [idx2crd t (lin c t)]: [idx2crd] is a bijection from [\[0, size t)]
      onto the congruent coordinates of the domain;
    - [crd2idx_idx2crd]: [crd2idx (idx2crd t i) t = Some (zteval t i)]: the
      layout's function on indices is its function on nested coordinates.
    Positive extents and strides of any sign throughout. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Bridge CoalesceSigned CoalesceSignedNF ZTree.

Inductive zcoord : Type :=
| CInt (x : Z)
| CTup (cs : list zcoord).

Fixpoint zcoord_ind' (P : zcoord -> Prop) (Hi : forall x, P (CInt x))
  (Ht : forall cs, Forall P cs -> P (CTup cs)) (c : zcoord) : P c :=
  match c with
  | CInt x => Hi x
  | CTup cs =>
      Ht cs ((fix go (cs : list zcoord) : Forall P cs :=
                match cs with
                | [] => Forall_nil P
                | c :: cs' => Forall_cons c (zcoord_ind' P Hi Ht c) (go cs')
                end) cs)
  end.

Open Scope Z_scope.

Fixpoint crd2idx (c : zcoord) (t : ztree) : option Z :=
  match c with
  | CInt x => Some (zteval t x)
  | CTup cs =>
      match t with
      | ZLeaf _ => None
      | ZNode ts =>
          (fix go (cs : list zcoord) (ts : list ztree) : option Z :=
             match cs, ts with
             | [], [] => Some 0
             | c :: cs', t :: ts' =>
                 match crd2idx c t, go cs' ts' with
                 | Some a, Some b => Some (a + b)
                 | _, _ => None
                 end
             | _, _ => None
             end) cs ts
      end
  end.

Fixpoint in_cdomain (c : zcoord) (t : ztree) : Prop :=
  match c with
  | CInt x => 0 <= x < ztsize t
  | CTup cs =>
      match t with
      | ZLeaf _ => False
      | ZNode ts =>
          (fix go (cs : list zcoord) (ts : list ztree) : Prop :=
             match cs, ts with
             | [], [] => True
             | c :: cs', t :: ts' => in_cdomain c t /\ go cs' ts'
             | _, _ => False
             end) cs ts
      end
  end.

(** Congruent: a tuple exactly where the shape has a node, an integer
    exactly where it has a leaf. *)
Fixpoint congruent (c : zcoord) (t : ztree) : Prop :=
  match c, t with
  | CInt _, ZLeaf _ => True
  | CTup cs, ZNode ts =>
      (fix go (cs : list zcoord) (ts : list ztree) : Prop :=
         match cs, ts with
         | [], [] => True
         | c :: cs', t :: ts' => congruent c t /\ go cs' ts'
         | _, _ => False
         end) cs ts
  | _, _ => False
  end.

Fixpoint lin (c : zcoord) (t : ztree) : Z :=
  match c with
  | CInt x => x
  | CTup cs =>
      match t with
      | ZLeaf _ => 0
      | ZNode ts =>
          (fix go (cs : list zcoord) (ts : list ztree) : Z :=
             match cs, ts with
             | c :: cs', t :: ts' => lin c t + ztsize t * go cs' ts'
             | _, _ => 0
             end) cs ts
      end
  end.

Fixpoint idx2crd (t : ztree) (i : Z) : zcoord :=
  match t with
  | ZLeaf _ => CInt i
  | ZNode ts =>
      CTup ((fix go (ts : list ztree) (i : Z) : list zcoord :=
               match ts with
               | [] => []
               | [t] => [idx2crd t i]
               | t :: ts' => idx2crd t (i mod ztsize t) :: go ts' (i / ztsize t)
               end) ts i)
  end.

(** ** Unfolding lemmas for the node cases *)

Lemma crd2idx_cons : forall c cs t ts,
  crd2idx (CTup (c :: cs)) (ZNode (t :: ts)) =
  match crd2idx c t, crd2idx (CTup cs) (ZNode ts) with
  | Some a, Some b => Some (a + b)
  | _, _ => None
  end.
Proof. reflexivity. Qed.

Lemma in_cdomain_cons : forall c cs t ts,
  in_cdomain (CTup (c :: cs)) (ZNode (t :: ts)) <->
  in_cdomain c t /\ in_cdomain (CTup cs) (ZNode ts).
Proof. reflexivity. Qed.

Lemma congruent_cons : forall c cs t ts,
  congruent (CTup (c :: cs)) (ZNode (t :: ts)) <->
  congruent c t /\ congruent (CTup cs) (ZNode ts).
Proof. reflexivity. Qed.

Lemma lin_cons : forall c cs t ts,
  lin (CTup (c :: cs)) (ZNode (t :: ts)) = lin c t + ztsize t * lin (CTup cs) (ZNode ts).
Proof. reflexivity. Qed.

Lemma ztpos_node : forall t ts, ztpos (ZNode (t :: ts)) -> ztpos t /\ ztpos (ZNode ts).
Proof.
  intros t ts P. unfold ztpos in *. rewrite zflatten_node in P.
  apply Forall_app in P. exact P.
Qed.

Lemma ztsize_pos' : forall t, ztpos t -> 1 <= ztsize t.
Proof. intros t P. rewrite ztsize_flatten. apply zsize_pos, P. Qed.

Lemma divmod_pair : forall a b s, 0 <= a < s -> (a + s * b) mod s = a /\ (a + s * b) / s = b.
Proof.
  intros a b s H. rewrite (Z.mul_comm s b). split.
  - rewrite Z_mod_plus_full. apply Z.mod_small. exact H.
  - rewrite Z_div_plus_full by lia. rewrite Z.div_small by exact H. lia.
Qed.

(** ** A coordinate of the domain is evaluated as its index *)

Theorem crd2idx_lin : forall c t, ztpos t -> in_cdomain c t ->
  crd2idx c t = Some (zteval t (lin c t)) /\ 0 <= lin c t < ztsize t.
Proof.
  induction c as [x|cs IH] using zcoord_ind'; intros t P D.
  - simpl in D |- *. split; [reflexivity | exact D].
  - destruct t as [m|ts]; [contradiction D|].
    revert ts P D. induction IH as [|c cs Hc Hcs IHcs]; intros ts P D.
    + destruct ts; [|contradiction D]. simpl. split; [reflexivity | lia].
    + destruct ts as [|t ts]; [contradiction D|].
      apply in_cdomain_cons in D. destruct D as [Dc Dcs].
      destruct (ztpos_node t ts P) as [Pt Pts].
      destruct (Hc t Pt Dc) as [Ec Rc]. destruct (IHcs ts Pts Dcs) as [Ecs Rcs].
      rewrite crd2idx_cons, Ec, Ecs, lin_cons, zteval_node, ztsize_node.
      set (a := lin c t) in *. set (b := lin (CTup cs) (ZNode ts)) in *.
      destruct (divmod_pair a b (ztsize t) ltac:(lia)) as [Ea Eb].
      rewrite Ea, Eb. split; [reflexivity|].
      set (s := ztsize t) in *. set (S := ztsize (ZNode ts)) in *. nia.
Qed.

(** ** [idx2crd] *)

Lemma idx2crd_node_cons : forall t ts i, ts <> [] ->
  idx2crd (ZNode (t :: ts)) i =
  match idx2crd (ZNode ts) (i / ztsize t) with
  | CTup cs => CTup (idx2crd t (i mod ztsize t) :: cs)
  | c => c
  end.
Proof. intros t [|t' ts] i H; [contradiction | reflexivity]. Qed.

Theorem idx2crd_spec : forall t i, ztpos t -> 0 <= i < ztsize t ->
  congruent (idx2crd t i) t /\ in_cdomain (idx2crd t i) t /\ lin (idx2crd t i) t = i.
Proof.
  induction t as [m|ts IH] using ztree_ind'; intros i P Hi.
  - simpl. split; [exact I|]. split; [exact Hi | reflexivity].
  - revert i P Hi. induction IH as [|t ts Ht Hts IHts]; intros i P Hi.
    + simpl in Hi. assert (i = 0) by lia. subst i. simpl. split; [exact I|]. split; [exact I | reflexivity].
    + destruct (ztpos_node t ts P) as [Pt Pts].
      pose proof (ztsize_pos' t Pt) as St. pose proof (ztsize_pos' (ZNode ts) Pts) as Sts.
      rewrite ztsize_node in Hi.
      destruct ts as [|t' ts'].
      * (* a single child takes the whole index *)
        change (ztsize (ZNode [])) with 1 in Hi.
        destruct (Ht i Pt ltac:(lia)) as [C [D L]].
        simpl. split; [split; [exact C | exact I]|]. split; [split; [exact D | exact I]|].
        rewrite L. lia.
      * rewrite idx2crd_node_cons by discriminate.
        assert (Hq : 0 <= i / ztsize t < ztsize (ZNode (t' :: ts'))).
        { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
        destruct (IHts (i / ztsize t) Pts Hq) as [C [D L]].
        destruct (idx2crd (ZNode (t' :: ts')) (i / ztsize t)) as [x|cs] eqn:E.
        { simpl in C. contradiction. }
        destruct (Ht (i mod ztsize t) Pt ltac:(apply Z.mod_pos_bound; lia)) as [Ct [Dt Lt]].
        split; [apply congruent_cons; split; assumption|].
        split; [apply in_cdomain_cons; split; assumption|].
        rewrite lin_cons, Lt, L. pose proof (Z.div_mod i (ztsize t)). lia.
Qed.

Theorem idx2crd_lin : forall c t, ztpos t -> congruent c t -> in_cdomain c t ->
  idx2crd t (lin c t) = c.
Proof.
  induction c as [x|cs IH] using zcoord_ind'; intros t P C D.
  - destruct t as [m|ts]; [reflexivity | contradiction C].
  - destruct t as [m|ts]; [contradiction C|].
    revert ts P C D. induction IH as [|c cs Hc Hcs IHcs]; intros ts P C D.
    + destruct ts; [reflexivity | contradiction C].
    + destruct ts as [|t ts]; [contradiction C|].
      apply congruent_cons in C. destruct C as [Cc Ccs].
      apply in_cdomain_cons in D. destruct D as [Dc Dcs].
      destruct (ztpos_node t ts P) as [Pt Pts].
      destruct (crd2idx_lin c t Pt Dc) as [_ Rc].
      destruct (crd2idx_lin (CTup cs) (ZNode ts) Pts Dcs) as [_ Rcs].
      rewrite lin_cons.
      destruct ts as [|t' ts'].
      * destruct cs; [|contradiction Ccs].
        simpl. rewrite Z.mul_0_r, Z.add_0_r. rewrite (Hc t Pt Cc Dc). reflexivity.
      * rewrite idx2crd_node_cons by discriminate.
        set (a := lin c t) in *. set (b := lin (CTup cs) (ZNode (t' :: ts'))) in *.
        destruct (divmod_pair a b (ztsize t) ltac:(lia)) as [Ea Eb].
        rewrite Ea, Eb. unfold b. rewrite (IHcs (t' :: ts') Pts Ccs Dcs).
        unfold a. rewrite (Hc t Pt Cc Dc). reflexivity.
Qed.

(** The layout's function on indices is its function on nested coordinates. *)
Corollary crd2idx_idx2crd : forall t i, ztpos t -> 0 <= i < ztsize t ->
  crd2idx (idx2crd t i) t = Some (zteval t i).
Proof.
  intros t i P Hi. destruct (idx2crd_spec t i P Hi) as [_ [D L]].
  destruct (crd2idx_lin _ t P D) as [E _]. rewrite E, L. reflexivity.
Qed.

(** Hence the flattening's function too, for strides of any sign. *)
Corollary crd2idx_flatten : forall c t, ztpos t -> in_cdomain c t ->
  crd2idx c t = Some (zeval (zflatten t) (lin c t)).
Proof.
  intros c t P D. destruct (crd2idx_lin c t P D) as [E _].
  rewrite E, zflatten_preserves_eval by exact P. reflexivity.
Qed.

(** Example: [(3,(2,3)):(3,(12,1))] at [(1,(1,2))] and at [(1,5)] (an
    integer for the inner tuple) is [L(16) = 17]. *)
Example crd2idx_example :
  let t := ZNode [ZLeaf (ZMode 3 3); ZNode [ZLeaf (ZMode 2 12); ZLeaf (ZMode 3 1)]] in
  idx2crd t 16 = CTup [CInt 1; CTup [CInt 1; CInt 2]] /\
  crd2idx (CTup [CInt 1; CTup [CInt 1; CInt 2]]) t = Some 17 /\
  crd2idx (CTup [CInt 1; CInt 5]) t = Some 17 /\ zteval t 16 = 17.
Proof. repeat split; reflexivity. Qed.

Close Scope Z_scope.
