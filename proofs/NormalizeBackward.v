(** * Theorem 5 as a congruence for the BACKWARD index map (issue 14, item 6)

    [equiv.rs] compares two schedules by their loop domains as terms over
    the roots, normalised with Theorem 5 ([Normalize.v]).  It uses these
    terms only when every index is computed backward (from the loop
    domain towards the roots, [eval.rs]'s [plan]) and no IterDomain is used
    twice; its claim is Def 1.2 of nvFuser's Divisibility of Split: the same root indices at
    every loop point, holes included.

    The backward map of a loop domain [L] (a list of terms) at a loop point
    [p] is modelled as a valuation [rho : term -> Z] of every IterDomain
    ([consistent]): the loop terms take the loop indices, and every node's
    children take what [Space::propagate] computes backward from the node
    and its sibling (split: input [= outer * E(inner) + inner]; merge:
    outer [= out / E(inner)], inner [= out mod E(inner)]; resize: input
    [= out - left]; swizzle: [x = out_x], [y = out_x xor out_y]).  With
    every split's and swizzle's two outputs in the loop domain's terms
    ([wf], what [plan] needs to compute the input), the valuation is unique
    ([consistent_unique]).  Division is [Z.div]/[Z.modulo], Rust's
    Euclidean [ediv]/[emod] for the positive extents Rust's enumeration
    runs on.

    Proved:
    - [consistent_forward]: where every split's inner output has a
      backward index in [[0, E(inner))] ([split_exact]), the backward map
      is the forward evaluation of its own root indices, at every node,
      holes included;
    - [normal_forms_backward] (the congruence): two loop domains with equal
      normal forms ([normalize], any fuel), at a loop point where the first
      is [split_exact] and the second's merges see in-range inner indices
      forward from the first's roots ([merge_exact]), give every
      IterDomain of the second the forward value of the first's roots, so
      the same root indices ([normal_forms_same_roots]);
    - [split_exact_of_loop]: when every split's inner output is itself a
      loop IterDomain, [split_exact] holds at every point of the box;
    - [figure3_backward]: the merge-split example with [f | E(B)], at every loop point
      [(o, i)] with [0 <= i < f] and any integer [o], gives the same root
      indices (an instance of the congruence);
    - [backward_check_sound]: a decidable check on the two domains' terms
      ([backward_check]: every split's inner output of the first is a loop
      IterDomain, the second is [wf], and every merge's inner input of the
      second is [in_range], i.e. anchored at a loop IterDomain or a merge's
      inner input of the first) makes the rule sound at every point of the
      box, holes included ([backward_check_examples]: the merge-split example and the
      embedded Theorem 5 of [domain_proptest.rs] pass, the counterexample
      below fails);
    - [normal_forms_unsound_at_holes]: without [split_exact] the claim is
      false: [split(merge(A{2}, B{4}), 2)] with its inner output padded by
      a resize by [1, 0] has the same normal form as the split-then-merge
      schedule, but at loop point [(0, 0)] the first reaches roots
      [(-1, 3)] and the second [(0, -1)] (both valuations exist and are the
      only ones).  [equiv.rs]'s "equal normal forms ⇒ equivalent" answers
      Yes there while its enumeration answers No.

    The indivisible direction ("only if") is [merge_split_commute_iff_divisible]
    and [theorem5_counterexample] in [Divisibility.v], stated on the
    backward index maps of the seed. *)

From Coq Require Import Arith Lia List ZArith Bool.
From Tessera Require Import Normalize.
Import ListNotations.

Open Scope Z_scope.

(** ** The IterDomains of a loop domain *)

Fixpoint sub (t : term) : list term :=
  t :: match t with
       | TRoot _ => []
       | TSplit x _ _ _ => sub x
       | TMerge a b => sub a ++ sub b
       | TResize x _ _ => sub x
       | TSwizzle x y _ => sub x ++ sub y
       end.

Definition subs (L : list term) : list term := flat_map sub L.

Fixpoint size (t : term) : nat :=
  match t with
  | TRoot _ => 1
  | TSplit x _ _ _ => S (size x)
  | TMerge a b => S (size a + size b)
  | TResize x _ _ => S (size x)
  | TSwizzle x y _ => S (size x + size y)
  end.

(** [s] is an input of the transform that defines [u]. *)
Definition child (s u : term) : Prop :=
  match u with
  | TRoot _ => False
  | TSplit x _ _ _ => s = x
  | TMerge a b => s = a \/ s = b
  | TResize x _ _ => s = x
  | TSwizzle x y _ => s = x \/ s = y
  end.

(** The extent of a split's inner output ([value]'s divisor). *)
Definition inner_ext (E : nat -> Z) (x : term) (f : Z) (ok : bool) : Z :=
  if ok then cdiv (extent E x) f else f.

(** ** The backward map *)

(** The backward equations at node [u]: the values of [u]'s inputs from
    [u]'s value and its sibling's ([Space::propagate], backward). *)
Definition bstep (E : nat -> Z) (rho : term -> Z) (u : term) : Prop :=
  match u with
  | TRoot _ => True
  | TSplit x f ok _ =>
      rho x = rho (TSplit x f ok true) * inner_ext E x f ok + rho (TSplit x f ok false)
  | TMerge a b => rho a = rho u / extent E b /\ rho b = rho u mod extent E b
  | TResize x l _ => rho x = rho u - l
  | TSwizzle x y _ =>
      rho x = rho (TSwizzle x y false) /\
      rho y = Z.lxor (rho (TSwizzle x y false)) (rho (TSwizzle x y true))
  end.

(** [rho] is the backward map of [L] at loop point [p]. *)
Definition consistent (E : nat -> Z) (L : list term) (p : list Z) (rho : term -> Z) : Prop :=
  Forall2 (fun t v => rho t = v) L p /\ forall u, In u (subs L) -> bstep E rho u.

(** Every split and swizzle occurring has both outputs in the loop domain's
    terms (otherwise [plan] cannot compute its input). *)
Definition siblings_in (L : list term) (u : term) : Prop :=
  match u with
  | TSplit x f ok _ => In (TSplit x f ok true) (subs L) /\ In (TSplit x f ok false) (subs L)
  | TSwizzle x y _ => In (TSwizzle x y false) (subs L) /\ In (TSwizzle x y true) (subs L)
  | _ => True
  end.

Definition wf (L : list term) : Prop := forall u, In u (subs L) -> siblings_in L u.

Definition roots_of (rho : term -> Z) : nat -> Z := fun r => rho (TRoot r).

(** Every split's inner output has a backward index in [[0, E(inner))]. *)
Definition split_exact (E : nat -> Z) (rho : term -> Z) (L : list term) : Prop :=
  forall x f ok io, In (TSplit x f ok io) (subs L) ->
    0 <= rho (TSplit x f ok false) < inner_ext E x f ok.

(** Every merge's inner input has a forward index (from root point
    [sigma]) in [[0, E(inner))]. *)
Definition merge_exact (E : nat -> Z) (sigma : nat -> Z) (L : list term) : Prop :=
  forall a b, In (TMerge a b) (subs L) -> 0 <= value E sigma b < extent E b.

(** ** Structure of [subs] *)

Lemma sub_self : forall t, In t (sub t).
Proof. destruct t; simpl; auto. Qed.

Lemma sub_trans : forall t u s, In u (sub t) -> In s (sub u) -> In s (sub t).
Proof.
  induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros u s Hu Hs;
    simpl in Hu; destruct Hu as [<-|Hu]; try exact Hs; simpl.
  - contradiction.
  - right. eauto.
  - right. apply in_app_or in Hu. apply in_or_app. destruct Hu; [left|right]; eauto.
  - right. eauto.
  - right. apply in_app_or in Hu. apply in_or_app. destruct Hu; [left|right]; eauto.
Qed.

Lemma child_sub : forall s u, child s u -> In s (sub u).
Proof.
  intros s u C. destruct u; simpl in C |- *; try contradiction;
    try (destruct C as [->| ->]); try subst; right;
    try apply in_or_app; auto using sub_self.
Qed.

Lemma subs_closed : forall L u s, In u (subs L) -> child s u -> In s (subs L).
Proof.
  intros L u s Hu C. unfold subs in *. apply in_flat_map in Hu.
  destruct Hu as [t [Ht Hut]]. apply in_flat_map. exists t. split; [exact Ht|].
  apply sub_trans with u; [exact Hut|apply child_sub, C].
Qed.

Lemma in_subs : forall L t, In t L -> In t (subs L).
Proof. intros L t H. unfold subs. apply in_flat_map. exists t. split; auto using sub_self. Qed.

Lemma sub_parent : forall t s, In s (sub t) -> s = t \/ exists u, In u (sub t) /\ child s u.
Proof.
  induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros s Hs;
    simpl in Hs; destruct Hs as [<-|Hs]; auto; right.
  - contradiction.
  - destruct (IH s Hs) as [->|[u [Hu C]]].
    + exists (TSplit x f ok io). simpl. auto.
    + exists u. simpl. auto.
  - apply in_app_or in Hs. destruct Hs as [Hs|Hs].
    + destruct (IHa s Hs) as [->|[u [Hu C]]].
      * exists (TMerge a b). simpl. auto.
      * exists u. simpl. auto using in_or_app.
    + destruct (IHb s Hs) as [->|[u [Hu C]]].
      * exists (TMerge a b). simpl. auto.
      * exists u. simpl. auto using in_or_app.
  - destruct (IH s Hs) as [->|[u [Hu C]]].
    + exists (TResize x l r). simpl. auto.
    + exists u. simpl. auto.
  - apply in_app_or in Hs. destruct Hs as [Hs|Hs].
    + destruct (IHx s Hs) as [->|[u [Hu C]]].
      * exists (TSwizzle x y io). simpl. auto.
      * exists u. simpl. auto using in_or_app.
    + destruct (IHy s Hs) as [->|[u [Hu C]]].
      * exists (TSwizzle x y io). simpl. auto.
      * exists u. simpl. auto using in_or_app.
Qed.

Lemma subs_parent : forall L s, In s (subs L) ->
  In s L \/ exists u, In u (subs L) /\ child s u.
Proof.
  intros L s H. unfold subs in H. apply in_flat_map in H. destruct H as [t [Ht Hs]].
  destruct (sub_parent t s Hs) as [->|[u [Hu C]]]; [left; exact Ht|right].
  exists u. split; [|exact C]. unfold subs. apply in_flat_map. eauto.
Qed.

Lemma child_size : forall s u, child s u -> (size s < size u)%nat.
Proof. intros s u C. destruct u; simpl in C |- *; try contradiction; intuition (subst; lia). Qed.

Lemma size_le_sum : forall l s, In s l -> (size s <= fold_right (fun t acc => (size t + acc)%nat) 0%nat l)%nat.
Proof. induction l as [|t l IH]; intros s H; simpl in *; [contradiction|].
  destruct H as [<-|H]; [lia|]. specialize (IH s H). lia. Qed.

Lemma forall2_same : forall (r1 r2 : term -> Z) L p,
  Forall2 (fun t v => r1 t = v) L p -> Forall2 (fun t v => r2 t = v) L p ->
  forall s, In s L -> r1 s = r2 s.
Proof.
  intros r1 r2 L p H1. induction H1 as [|t v L p E1 H1 IH]; intros H2 s Hs; [contradiction|].
  inversion H2 as [|t' v' L' p' E2 H2']; subst. destruct Hs as [<-|Hs]; [lia|]. auto.
Qed.

Lemma forall2_map : forall (g : term -> Z) L p,
  Forall2 (fun t v => g t = v) L p <-> map g L = p.
Proof.
  intros g L. induction L as [|t L IH]; intros p; split; intros H.
  - inversion H. reflexivity.
  - subst. constructor.
  - inversion H; subst. simpl. f_equal. apply IH. assumption.
  - subst. simpl. constructor; [reflexivity|]. apply IH. reflexivity.
Qed.

Lemma forall2_ext_in : forall (g h : term -> Z) L p,
  (forall t, In t L -> g t = h t) ->
  Forall2 (fun t v => g t = v) L p -> Forall2 (fun t v => h t = v) L p.
Proof.
  intros g h L p E H. induction H as [|t v L p Ht H IH]; constructor.
  - rewrite <- E; [exact Ht|left; reflexivity].
  - apply IH. intros t' Ht'. apply E. right. exact Ht'.
Qed.

(** ** The backward map is unique *)

Theorem consistent_unique : forall E L p r1 r2, wf L ->
  consistent E L p r1 -> consistent E L p r2 ->
  forall s, In s (subs L) -> r1 s = r2 s.
Proof.
  intros E L p r1 r2 W [T1 B1] [T2 B2].
  set (K := S (fold_right (fun t acc => (size t + acc)%nat) 0%nat (subs L))).
  assert (Main : forall n s, In s (subs L) -> (K <= size s + n)%nat -> r1 s = r2 s).
  { induction n as [|n IH]; intros s Hs Hk.
    - pose proof (size_le_sum _ _ Hs). unfold K in Hk. lia.
    - destruct (subs_parent L s Hs) as [Ht|[u [Hu C]]].
      + exact (forall2_same r1 r2 L p T1 T2 s Ht).
      + pose proof (child_size s u C) as Sz.
        assert (IHu : r1 u = r2 u) by (apply IH; [exact Hu|lia]).
        specialize (B1 u Hu). specialize (B2 u Hu). pose proof (W u Hu) as Sib.
        destruct u as [r|x f ok io|a b|x l rr|x y io]; simpl in C, B1, B2, Sib.
        * contradiction.
        * subst s. destruct Sib as [So Si].
          assert (Eo : r1 (TSplit x f ok true) = r2 (TSplit x f ok true))
            by (apply IH; [exact So|simpl in Sz |- *; lia]).
          assert (Ei : r1 (TSplit x f ok false) = r2 (TSplit x f ok false))
            by (apply IH; [exact Si|simpl in Sz |- *; lia]).
          rewrite B1, B2, Eo, Ei. reflexivity.
        * destruct B1 as [Ba1 Bb1]. destruct B2 as [Ba2 Bb2].
          destruct C as [->| ->]; [rewrite Ba1, Ba2|rewrite Bb1, Bb2]; rewrite IHu; reflexivity.
        * subst s. rewrite B1, B2, IHu. reflexivity.
        * destruct Sib as [Sf St]. destruct B1 as [Bx1 By1]. destruct B2 as [Bx2 By2].
          assert (Ef : r1 (TSwizzle x y false) = r2 (TSwizzle x y false))
            by (apply IH; [exact Sf|simpl in Sz |- *; lia]).
          assert (Et : r1 (TSwizzle x y true) = r2 (TSwizzle x y true))
            by (apply IH; [exact St|simpl in Sz |- *; lia]).
          destruct C as [->| ->]; [rewrite Bx1, Bx2, Ef|rewrite By1, By2, Ef, Et]; reflexivity. }
  intros s Hs. apply (Main K s Hs). lia.
Qed.

(** ** Backward is forward where every split's inner index is in range *)

Lemma lxor_cancel_l : forall a b, Z.lxor a (Z.lxor a b) = b.
Proof. intros a b. rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l. reflexivity. Qed.

Theorem consistent_forward : forall E L p rho,
  consistent E L p rho -> split_exact E rho L ->
  forall s, In s (subs L) -> rho s = value E (roots_of rho) s.
Proof.
  intros E L p rho [_ B] X.
  induction s as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy io]; intros Hs.
  - reflexivity.
  - pose proof (B _ Hs) as Bs. simpl in Bs.
    assert (Vx := IH (subs_closed L _ x Hs eq_refl)).
    pose proof (X x f ok io Hs) as Ex. unfold inner_ext in Ex, Bs.
    simpl. rewrite <- Vx, Bs.
    destruct io.
    + apply Z.div_unique with (rho (TSplit x f ok false)); [left; exact Ex|ring].
    + apply Z.mod_unique with (rho (TSplit x f ok true)); [left; exact Ex|ring].
  - pose proof (B _ Hs) as [Ba Bb].
    assert (Va := IHa (subs_closed L _ a Hs (or_introl eq_refl))).
    assert (Vb := IHb (subs_closed L _ b Hs (or_intror eq_refl))).
    simpl. rewrite <- Va, <- Vb, Ba, Bb.
    rewrite (Z_div_mod_eq_full (rho (TMerge a b)) (extent E b)) at 1. ring.
  - pose proof (B _ Hs) as Bs. simpl in Bs.
    assert (Vx := IH (subs_closed L _ x Hs eq_refl)).
    simpl. rewrite <- Vx, Bs. ring.
  - pose proof (B _ Hs) as [Bx By].
    assert (Vx := IHx (subs_closed L _ x Hs (or_introl eq_refl))).
    assert (Vy := IHy (subs_closed L _ y Hs (or_intror eq_refl))).
    simpl. rewrite <- Vx, <- Vy, Bx, By.
    destruct io; [rewrite lxor_cancel_l; reflexivity|reflexivity].
Qed.

(** The forward evaluation of a root point satisfies the backward
    equations wherever the merges see in-range inner indices. *)
Lemma forward_bstep : forall E sigma L, merge_exact E sigma L ->
  forall u, In u (subs L) -> bstep E (value E sigma) u.
Proof.
  intros E sigma L M u Hu. destruct u as [r|x f ok io|a b|x l r|x y io]; simpl.
  - exact I.
  - rewrite (Z_div_mod_eq_full (value E sigma x) (if ok then cdiv (extent E x) f else f)) at 1.
    unfold inner_ext. ring.
  - pose proof (M a b Hu) as Mb. split.
    + apply Z.div_unique with (value E sigma b); [left; exact Mb|ring].
    + apply Z.mod_unique with (value E sigma a); [left; exact Mb|ring].
  - ring.
  - split; [reflexivity|]. rewrite lxor_cancel_l. reflexivity.
Qed.

(** ** The congruence *)

(** Two loop domains with equal normal forms, at a loop point [p]: if the
    first's backward map is [split_exact] and the second's merges see
    in-range inner indices forward from the first's roots, then the
    second's backward map gives every IterDomain the forward value of the
    first's roots. *)
Theorem normal_forms_backward : forall E fuel L1 L2 p rho1 rho2,
  map (normalize E fuel) L1 = map (normalize E fuel) L2 ->
  consistent E L1 p rho1 -> split_exact E rho1 L1 ->
  consistent E L2 p rho2 -> wf L2 -> merge_exact E (roots_of rho1) L2 ->
  forall s, In s (subs L2) -> rho2 s = value E (roots_of rho1) s.
Proof.
  intros E fuel L1 L2 p rho1 rho2 N C1 X1 C2 W2 M2.
  set (sigma := roots_of rho1).
  assert (F1 : map (value E sigma) L1 = p).
  { apply forall2_map. destruct C1 as [T1 B1].
    apply forall2_ext_in with rho1; [|exact T1].
    intros t Ht. unfold sigma. apply (consistent_forward E L1 p rho1 (conj T1 B1) X1).
    apply in_subs, Ht. }
  assert (F2 : map (value E sigma) L2 = p).
  { rewrite <- F1. symmetry. apply (proj2 (equal_normal_forms E fuel L1 L2 N)). }
  assert (C : consistent E L2 p (value E sigma)).
  { split; [apply forall2_map, F2|]. apply forward_bstep, M2. }
  intros s Hs. exact (consistent_unique E L2 p rho2 (value E sigma) W2 C2 C s Hs).
Qed.

(** Hence the same root indices. *)
Corollary normal_forms_same_roots : forall E fuel L1 L2 p rho1 rho2,
  map (normalize E fuel) L1 = map (normalize E fuel) L2 ->
  consistent E L1 p rho1 -> split_exact E rho1 L1 ->
  consistent E L2 p rho2 -> wf L2 -> merge_exact E (roots_of rho1) L2 ->
  forall r, In (TRoot r) (subs L2) -> rho2 (TRoot r) = rho1 (TRoot r).
Proof.
  intros E fuel L1 L2 p rho1 rho2 N C1 X1 C2 W2 M2 r Hr.
  exact (normal_forms_backward E fuel L1 L2 p rho1 rho2 N C1 X1 C2 W2 M2 _ Hr).
Qed.

(** A sufficient condition for [split_exact]: every split's inner output
    is a loop IterDomain, and the loop point lies in the box. *)
Lemma forall2_in : forall (R1 R2 : term -> Z -> Prop) L p,
  Forall2 R1 L p -> Forall2 R2 L p -> forall t, In t L -> exists v, R1 t v /\ R2 t v.
Proof.
  intros R1 R2 L p H1. induction H1 as [|t v L p E1 H1 IH]; intros H2 s Hs; [contradiction|].
  inversion H2; subst. destruct Hs as [<-|Hs]; eauto.
Qed.

Theorem split_exact_of_loop : forall E L p rho,
  consistent E L p rho ->
  Forall2 (fun t v => 0 <= v < extent E t) L p ->
  (forall x f ok io, In (TSplit x f ok io) (subs L) -> In (TSplit x f ok false) L) ->
  split_exact E rho L.
Proof.
  intros E L p rho [T _] Box Inner x f ok io Hs.
  destruct (forall2_in _ _ L p T Box _ (Inner x f ok io Hs)) as [v [Hv Bv]].
  rewrite Hv. unfold inner_ext. simpl in Bv. destruct ok; exact Bv.
Qed.

(** ** the merge-split example: the congruence at every loop point with [0 <= i < f] *)

Ltac in_tac := simpl; repeat (first [left; reflexivity | right]).

Lemma normalize_root : forall E fuel r, normalize E fuel (TRoot r) = TRoot r.
Proof. intros E fuel r. destruct fuel; reflexivity. Qed.

Definition fig3_L1 (f : Z) : list term :=
  [TSplit (TMerge (TRoot 0) (TRoot 1)) f false true;
   TSplit (TMerge (TRoot 0) (TRoot 1)) f false false].
Definition fig3_L2 (f : Z) : list term :=
  [TMerge (TRoot 0) (TSplit (TRoot 1) f false true); TSplit (TRoot 1) f false false].

Lemma fig3_normal_forms : forall E f fuel, (3 <= fuel)%nat -> divides f (E 1%nat) = true ->
  map (normalize E fuel) (fig3_L1 f) = fig3_L2 f /\
  map (normalize E fuel) (fig3_L2 f) = fig3_L2 f.
Proof.
  intros E f fuel Hf D. destruct fuel as [|[|[|fuel]]]; try lia.
  unfold fig3_L1, fig3_L2. cbn [map normalize]. rewrite ?normalize_root.
  cbn [normalize extent]. rewrite D. cbn [normalize]. rewrite ?normalize_root.
  destruct fuel; cbn [normalize]; rewrite ?normalize_root; split; reflexivity.
Qed.

Theorem figure3_backward : forall E f o i rho1 rho2,
  0 < E 1%nat -> divides f (E 1%nat) = true -> 0 <= i < f ->
  consistent E (fig3_L1 f) [o; i] rho1 -> consistent E (fig3_L2 f) [o; i] rho2 ->
  rho2 (TRoot 0) = rho1 (TRoot 0) /\ rho2 (TRoot 1) = rho1 (TRoot 1).
Proof.
  intros E f o i rho1 rho2 Hpos D Hi C1 C2.
  assert (D' := D). unfold divides in D'. apply andb_prop in D'. destruct D' as [Hf Hd].
  apply Z.ltb_lt in Hf. apply Z.eqb_eq in Hd. apply Z.mod_divide in Hd; [|lia].
  destruct Hd as [k Hk]. assert (Hk0 : 0 < k) by nia.
  destruct (fig3_normal_forms E f 3 ltac:(lia) D) as [N1 N2].
  assert (N : map (normalize E 3) (fig3_L1 f) = map (normalize E 3) (fig3_L2 f))
    by (rewrite N1, N2; reflexivity).
  assert (X1 : split_exact E rho1 (fig3_L1 f)).
  { intros x f' ok io Hs. simpl in Hs.
    destruct C1 as [T1 _]. unfold fig3_L1 in T1.
    inversion T1 as [|? ? ? ? _ T1']. inversion T1' as [|? ? ? ? Ti _].
    repeat destruct Hs as [Hs|Hs]; try discriminate Hs; try contradiction.
    all: injection Hs as <- <- <- <-; unfold inner_ext; rewrite Ti; exact Hi. }
  assert (W2 : wf (fig3_L2 f)).
  { intros u Hu. simpl in Hu.
    repeat (destruct Hu as [<-|Hu]; [simpl; try split; try exact I; in_tac|]); contradiction. }
  assert (M2 : merge_exact E (roots_of rho1) (fig3_L2 f)).
  { intros a b Hm. simpl in Hm.
    repeat (destruct Hm as [Hm|Hm]; [try discriminate Hm|]); [|contradiction].
    injection Hm as <- <-. destruct C1 as [_ B1].
    assert (Bm := B1 (TMerge (TRoot 0) (TRoot 1)) ltac:(in_tac)). simpl in Bm.
    destruct Bm as [_ Bb]. cbn [value extent Bool.eqb]. unfold roots_of. rewrite Bb.
    rewrite Hk. unfold cdiv.
    replace (k * f + f - 1) with (k * f + (f - 1)) by ring.
    rewrite Z.div_add_l, (Z.div_small (f - 1) f) by lia.
    pose proof (Z.mod_pos_bound (rho1 (TMerge (TRoot 0) (TRoot 1))) (k * f) ltac:(nia)).
    split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
  split; apply (normal_forms_same_roots E 3 _ _ [o; i] rho1 rho2 N C1 X1 C2 W2 M2); in_tac.
Qed.

(** ** Without [split_exact] the congruence fails at holes *)

Definition term_eq_dec : forall s t : term, {s = t} + {s <> t}.
Proof. decide equality; first [apply Z.eq_dec | apply Nat.eq_dec | apply bool_dec]. Defined.

Fixpoint lookup (tbl : list (term * Z)) (t : term) : Z :=
  match tbl with
  | [] => 0
  | (s, v) :: tbl' => if term_eq_dec s t then v else lookup tbl' t
  end.

(** [A{2}], [B{4}]; schedule 1: [M = merge A, B]; [O, I = split M by 2];
    [J = resize I by 1, 0]; loop [O, J].  Schedule 2: [P, Q = split B by 2];
    [M = merge A, P]; [J = resize Q by 1, 0]; loop [M, J]. *)
Definition cex_E (r : nat) : Z := match r with O => 2 | _ => 4 end.
Definition cex_M : term := TMerge (TRoot 0) (TRoot 1).
Definition cex_L1 : list term :=
  [TSplit cex_M 2 false true; TResize (TSplit cex_M 2 false false) 1 0].
Definition cex_L2 : list term :=
  [TMerge (TRoot 0) (TSplit (TRoot 1) 2 false true);
   TResize (TSplit (TRoot 1) 2 false false) 1 0].

Definition cex_rho1 : term -> Z := lookup
  [(TSplit cex_M 2 false true, 0); (TResize (TSplit cex_M 2 false false) 1 0, 0);
   (TSplit cex_M 2 false false, -1); (cex_M, -1); (TRoot 0, -1); (TRoot 1, 3)].
Definition cex_rho2 : term -> Z := lookup
  [(TMerge (TRoot 0) (TSplit (TRoot 1) 2 false true), 0);
   (TResize (TSplit (TRoot 1) 2 false false) 1 0, 0);
   (TSplit (TRoot 1) 2 false false, -1); (TSplit (TRoot 1) 2 false true, 0);
   (TRoot 0, 0); (TRoot 1, -1)].

Theorem normal_forms_unsound_at_holes :
  (forall fuel, (3 <= fuel)%nat ->
     map (normalize cex_E fuel) cex_L1 = cex_L2 /\ map (normalize cex_E fuel) cex_L2 = cex_L2) /\
  map (extent cex_E) cex_L1 = [4; 3] /\ map (extent cex_E) cex_L2 = [4; 3] /\
  consistent cex_E cex_L1 [0; 0] cex_rho1 /\ consistent cex_E cex_L2 [0; 0] cex_rho2 /\
  (forall rho1, consistent cex_E cex_L1 [0; 0] rho1 ->
     rho1 (TRoot 0) = -1 /\ rho1 (TRoot 1) = 3) /\
  (forall rho2, consistent cex_E cex_L2 [0; 0] rho2 ->
     rho2 (TRoot 0) = 0 /\ rho2 (TRoot 1) = -1).
Proof.
  split.
  { intros fuel Hf. destruct fuel as [|[|[|fuel]]]; try lia.
    unfold cex_L1, cex_L2, cex_M. cbn [map normalize]. rewrite ?normalize_root.
    cbn [normalize extent]. cbn [divides cex_E]. cbn -[normalize].
    rewrite ?normalize_root.
    destruct fuel; cbn [normalize]; rewrite ?normalize_root; split; reflexivity. }
  split; [reflexivity|]. split; [reflexivity|].
  split.
  { split; [repeat constructor|].
    intros u Hu. simpl in Hu. repeat destruct Hu as [<-|Hu]; try contradiction;
      vm_compute; auto. }
  split.
  { split; [repeat constructor|].
    intros u Hu. simpl in Hu. repeat destruct Hu as [<-|Hu]; try contradiction;
      vm_compute; auto. }
  split.
  { intros rho1 [T B]. unfold cex_L1 in T.
    inversion T as [|? ? ? ? To T']. inversion T' as [|? ? ? ? Tj _].
    assert (Bj := B (TResize (TSplit cex_M 2 false false) 1 0) ltac:(in_tac)).
    assert (Bo := B (TSplit cex_M 2 false true) ltac:(in_tac)).
    assert (Bm := B cex_M ltac:(in_tac)).
    unfold cex_M in *. simpl in Bj, Bo, Bm. unfold inner_ext in Bo.
    rewrite Tj in Bj. rewrite To, Bj in Bo. simpl in Bo. destruct Bm as [Ba Bb].
    rewrite Bo in Ba, Bb. split; [exact Ba|exact Bb]. }
  { intros rho2 [T B]. unfold cex_L2 in T.
    inversion T as [|? ? ? ? Tm T']. inversion T' as [|? ? ? ? Tj _].
    assert (Bj := B (TResize (TSplit (TRoot 1) 2 false false) 1 0) ltac:(in_tac)).
    assert (Bm := B (TMerge (TRoot 0) (TSplit (TRoot 1) 2 false true)) ltac:(in_tac)).
    assert (Bs := B (TSplit (TRoot 1) 2 false true) ltac:(in_tac)).
    simpl in Bj, Bm, Bs. unfold inner_ext in Bs. rewrite Tm in Bm. destruct Bm as [Ba Bp].
    rewrite Tj in Bj. rewrite Bp, Bj in Bs. split; [exact Ba|exact Bs]. }
Qed.

(** ** A decidable check that makes the rule sound *)

(** [backward_check E L1 L2] is a test Rust can run on the two loop
    domains' terms: every split's inner output in [L1] is a loop
    IterDomain of [L1] (so [split_exact] holds at every point of the box,
    [split_exact_of_loop]); [L2] is [wf]; and every merge's inner input in
    [L2] is [in_range]: its forward index from [L1]'s roots is in range,
    because it is a loop IterDomain or a merge's inner input of [L1], or is
    built from such by outer split outputs, inner split outputs, merges and
    padding resizes ([merge_exact]). *)

Definition teqb (s t : term) : bool := if term_eq_dec s t then true else false.
Definition memb (t : term) (l : list term) : bool := existsb (teqb t) l.

Lemma memb_in : forall t l, memb t l = true -> In t l.
Proof.
  intros t l H. unfold memb in H. apply existsb_exists in H. destruct H as [u [Hu E]].
  unfold teqb in E. destruct (term_eq_dec t u) as [->|]; [exact Hu|discriminate].
Qed.

Definition merge_inners (l : list term) : list term :=
  flat_map (fun u => match u with TMerge _ b => [b] | _ => [] end) l.

Definition anchored (L1 : list term) : list term := L1 ++ merge_inners (subs L1).

Fixpoint in_range (E : nat -> Z) (A : list term) (b : term) : bool :=
  (0 <? extent E b) &&
  (memb b A ||
   match b with
   | TSplit x f _ true => (0 <? f) && in_range E A x
   | TSplit _ _ _ false => true
   | TMerge a c => in_range E A a && in_range E A c
   | TResize x l r => (0 <=? l) && (0 <=? r) && in_range E A x
   | _ => false
   end).

Definition split_inners_loop (L : list term) : bool :=
  forallb (fun u => match u with
                    | TSplit x f ok _ => memb (TSplit x f ok false) L
                    | _ => true
                    end) (subs L).

Definition wfb (L : list term) : bool :=
  forallb (fun u => match u with
                    | TSplit x f ok _ =>
                        memb (TSplit x f ok true) (subs L) && memb (TSplit x f ok false) (subs L)
                    | TSwizzle x y _ =>
                        memb (TSwizzle x y false) (subs L) && memb (TSwizzle x y true) (subs L)
                    | _ => true
                    end) (subs L).

Definition merges_in_range (E : nat -> Z) (L1 L2 : list term) : bool :=
  forallb (fun u => match u with
                    | TMerge _ b => in_range E (anchored L1) b
                    | _ => true
                    end) (subs L2).

Definition backward_check (E : nat -> Z) (L1 L2 : list term) : bool :=
  split_inners_loop L1 && wfb L2 && merges_in_range E L1 L2.

Lemma wfb_wf : forall L, wfb L = true -> wf L.
Proof.
  intros L H u Hu. unfold wfb in H. rewrite forallb_forall in H. specialize (H u Hu).
  destruct u; simpl; auto; apply andb_prop in H; destruct H as [H1 H2];
    split; apply memb_in; assumption.
Qed.

Lemma split_inners_loop_in : forall L, split_inners_loop L = true ->
  forall x f ok io, In (TSplit x f ok io) (subs L) -> In (TSplit x f ok false) L.
Proof.
  intros L H x f ok io Hs. unfold split_inners_loop in H. rewrite forallb_forall in H.
  apply memb_in, (H _ Hs).
Qed.

Lemma cdiv_cover : forall e f, 0 < f -> e <= f * cdiv e f.
Proof.
  intros e f Hf. unfold cdiv. pose proof (Z.mod_pos_bound (e + f - 1) f Hf).
  pose proof (Z.div_mod (e + f - 1) f ltac:(lia)). lia.
Qed.

Lemma in_range_sound : forall E L1 p rho1,
  consistent E L1 p rho1 -> split_exact E rho1 L1 ->
  Forall2 (fun t v => 0 <= v < extent E t) L1 p ->
  forall b, in_range E (anchored L1) b = true -> 0 <= value E (roots_of rho1) b < extent E b.
Proof.
  intros E L1 p rho1 C X Box.
  assert (Anch : forall b, 0 < extent E b -> In b (anchored L1) ->
                 0 <= value E (roots_of rho1) b < extent E b).
  { intros b Pos Hb. unfold anchored in Hb. apply in_app_or in Hb. destruct Hb as [Hb|Hb].
    - rewrite <- (consistent_forward E L1 p rho1 C X b (in_subs L1 b Hb)).
      destruct C as [T _]. destruct (forall2_in _ _ L1 p T Box b Hb) as [v [Hv Bv]].
      rewrite Hv. exact Bv.
    - unfold merge_inners in Hb. apply in_flat_map in Hb. destruct Hb as [u [Hu Hbu]].
      destruct u as [| | a b' | |]; simpl in Hbu; try contradiction.
      destruct Hbu as [->|[]].
      assert (Hb : In b (subs L1)) by exact (subs_closed L1 _ b Hu (or_intror eq_refl)).
      rewrite <- (consistent_forward E L1 p rho1 C X b Hb).
      destruct C as [_ B]. destruct (B _ Hu) as [_ Bb]. rewrite Bb.
      apply Z.mod_pos_bound, Pos. }
  induction b as [r|x IH f ok io|a IHa c IHc|x IH l r|x IHx y IHy io]; intros H;
    simpl in H; apply andb_prop in H; destruct H as [Pos H]; apply Z.ltb_lt in Pos;
    apply orb_prop in H; (destruct H as [H|H]; [apply Anch; [exact Pos|apply memb_in, H]|]).
  - discriminate.
  - destruct io.
    + apply andb_prop in H. destruct H as [Hf Hx]. apply Z.ltb_lt in Hf.
      specialize (IH Hx). simpl in Pos |- *.
      pose proof (cdiv_cover (extent E x) f Hf) as Cv.
      assert (Cp : 0 < cdiv (extent E x) f).
      { unfold cdiv. apply Z.div_str_pos. lia. }
      destruct ok; simpl in Pos |- *; split.
      * apply Z.div_pos; lia.
      * apply Z.div_lt_upper_bound; nia.
      * apply Z.div_pos; lia.
      * apply Z.div_lt_upper_bound; nia.
    + simpl in Pos |- *. destruct ok; simpl in Pos |- *; apply Z.mod_pos_bound; exact Pos.
  - apply andb_prop in H. destruct H as [Ha Hc].
    specialize (IHa Ha). specialize (IHc Hc). simpl. nia.
  - apply andb_prop in H. destruct H as [H Hx]. apply andb_prop in H. destruct H as [Hl Hr].
    apply Z.leb_le in Hl. apply Z.leb_le in Hr. specialize (IH Hx). simpl. lia.
  - discriminate.
Qed.

(** The check makes Rust's rule sound: two loop domains with equal normal
    forms that pass it reach the same root indices backward from every
    point of the first one's box, holes included. *)
Theorem backward_check_sound : forall E fuel L1 L2 p rho1 rho2,
  backward_check E L1 L2 = true ->
  map (normalize E fuel) L1 = map (normalize E fuel) L2 ->
  Forall2 (fun t v => 0 <= v < extent E t) L1 p ->
  consistent E L1 p rho1 -> consistent E L2 p rho2 ->
  forall r, In (TRoot r) (subs L2) -> rho2 (TRoot r) = rho1 (TRoot r).
Proof.
  intros E fuel L1 L2 p rho1 rho2 K N Box C1 C2.
  unfold backward_check in K. apply andb_prop in K. destruct K as [K M].
  apply andb_prop in K. destruct K as [S W].
  assert (X1 : split_exact E rho1 L1)
    by exact (split_exact_of_loop E L1 p rho1 C1 Box (split_inners_loop_in L1 S)).
  apply (normal_forms_same_roots E fuel L1 L2 p rho1 rho2 N C1 X1 C2 (wfb_wf L2 W)).
  intros a b Hm. unfold merges_in_range in M. rewrite forallb_forall in M.
  exact (in_range_sound E L1 p rho1 C1 X1 Box b (M _ Hm)).
Qed.

(** The check on examples: the merge-split example ([E(A) = 3], [E(B) = 8], [f = 4])
    passes; the counterexample fails it both ways; the embedded Theorem 5
    of [domain_proptest.rs] ([I1{2}], [I2{8}], split by 4, then the outer
    output split by 3, which leaves holes) has equal normal forms and
    passes with the split-then-merge schedule as [L2]. *)
Example backward_check_examples :
  let E3 := fun r : nat => match r with O => 3 | _ => 8 end in
  let E5 := fun r : nat => match r with O => 2 | _ => 8 end in
  let A := TRoot 0 in let B := TRoot 1 in
  let X := TMerge A B in let Y := TSplit X 4 false true in
  let S := TSplit B 4 false true in let M := TMerge A S in
  backward_check E3 (fig3_L1 4) (fig3_L2 4) = true /\
  backward_check cex_E cex_L1 cex_L2 = false /\
  backward_check cex_E cex_L2 cex_L1 = false /\
  backward_check E5 [TSplit Y 3 false true; TSplit Y 3 false false; TSplit X 4 false false]
                    [TSplit M 3 false true; TSplit M 3 false false; TSplit B 4 false false] = true /\
  map (normalize E5 4) [TSplit Y 3 false true; TSplit Y 3 false false; TSplit X 4 false false] =
  map (normalize E5 4) [TSplit M 3 false true; TSplit M 3 false false; TSplit B 4 false false].
Proof. vm_compute. repeat split; reflexivity. Qed.
