(** * Complement and composition on hierarchical layouts with signed strides
    (issue 14, item 1)

    The theorems of [ComplementShape.v], [ComplementNested.v] and
    [Composition.v] restated on [ZTree.v]'s trees (leaves over [Z]),
    through the flattening and the embedding of [nat] trees.

    Complement.  [ztiles t C N] says that [(i, j) |-> zteval t i + zeval C j]
    maps [\[0, size t) x \[0, size C)] one to one onto [\[0, N)] (a
    hole-free complement, stated on indices, with [C] any flat layout over
    [Z]).
    - [ztiles_nonneg_strides]: a tiling forces every mode of extent at
      least 2, in the tree and in [C], to have a stride [>= 0]; so a tree
      with a negative stride on a mode of extent [>= 2] has no hole-free
      complement ([ztiles_negative_stride_none]).
    - [ztiles_of_nat]: on the image of [nat] trees and layouts, [ztiles] is
      [ComplementNested.htiles].
    - [ztree_complement_complete_and_sound], [ztree_complement_none]: for a
      tree with positive extents and strides [>= 0] (the precondition,
      explicit; Rust refuses negative strides) and a shape cotarget of
      positive entries, Rust's strict complement of the flattening
      ([complementSZ]) returns a hole-free complement [R] with
      [N >= size cotarget] whenever the tree has any hole-free complement
      [C] (any flat layout over [Z] with positive extents), and refuses only
      when it has none.

    Composition.  [composition_certified_tree]: for a tree [B] (strides
    of any sign) whose leaves are refined by certified candidate modes
    (compatibility: each leaf's extent is the product of its candidate
    extents), [A(B(i)) = R(i)] for every index [i] of [B]'s domain, with
    [R(i)] the candidate evaluated on the colexicographic digits of [i]. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Model Nested Confluence CoalesceImpl Bridge CoalesceSigned CoalesceSignedNF Product ZTree
  ComplementAny ComplementConverse ComplementRust BridgeComplement ComplementShape ComplementNested
  Composition Divide.

Open Scope Z_scope.

Definition ztiles (t : ztree) (C : list zmode) (N : Z) : Prop :=
  (forall i j, 0 <= i < ztsize t -> 0 <= j < zsize C -> 0 <= zteval t i + zeval C j < N) /\
  (forall i j i' j', 0 <= i < ztsize t -> 0 <= j < zsize C ->
     0 <= i' < ztsize t -> 0 <= j' < zsize C ->
     zteval t i + zeval C j = zteval t i' + zeval C j' -> i = i' /\ j = j') /\
  (forall v, 0 <= v < N -> exists i j, 0 <= i < ztsize t /\ 0 <= j < zsize C /\
     zteval t i + zeval C j = v).

(** ** A mode of extent [>= 2] is reached alone *)

Lemma zeval_at_mode : forall L1 m L2, zpos (L1 ++ m :: L2) -> 2 <= zextent m ->
  0 <= zsize L1 < zsize (L1 ++ m :: L2) /\ zeval (L1 ++ m :: L2) (zsize L1) = zstride m.
Proof.
  intros L1 m L2 P Hm. pose proof P as P'. apply Forall_app in P' as [P1 P2].
  inversion P2 as [|? ? _ P3]; subst.
  pose proof (zsize_pos L1 P1). pose proof (zsize_pos L2 P3).
  split.
  - rewrite zsize_app. cbn [zsize].
    assert (2 <= zextent m * zsize L2) by nia.
    set (k := zextent m * zsize L2) in *. nia.
  - rewrite zeval_app by exact P1. rewrite Z.div_same by lia.
    rewrite <- (zeval_mod L1 (zsize L1) P1), Z.mod_same by lia. rewrite zeval_zero.
    rewrite (zeval_small m L2 1) by lia. lia.
Qed.

Lemma zteval_zero : forall t, ztpos t -> zteval t 0 = 0.
Proof. intros t P. rewrite zflatten_preserves_eval by exact P. apply zeval_zero. Qed.

Lemma ztsize_pos : forall t, ztpos t -> 1 <= ztsize t.
Proof. intros t P. rewrite ztsize_flatten. apply zsize_pos, P. Qed.

Theorem ztiles_nonneg_strides : forall t C N, ztpos t -> zpos C -> ztiles t C N ->
  (forall m, In m (zflatten t) -> 2 <= zextent m -> 0 <= zstride m) /\
  (forall m, In m C -> 2 <= zextent m -> 0 <= zstride m).
Proof.
  intros t C N Pt PC [T1 _]. split.
  - intros m Hin Hm. apply in_split in Hin. destruct Hin as [L1 [L2 E]].
    assert (P' : zpos (L1 ++ m :: L2)) by (rewrite <- E; exact Pt).
    destruct (zeval_at_mode L1 m L2 P' Hm) as [Hi Ev].
    rewrite <- E, <- ztsize_flatten in Hi. rewrite <- E, <- zflatten_preserves_eval in Ev by exact Pt.
    pose proof (zsize_pos C PC).
    destruct (T1 (zsize L1) 0 Hi ltac:(lia)) as [H0 _]. rewrite zeval_zero in H0. lia.
  - intros m Hin Hm. apply in_split in Hin. destruct Hin as [L1 [L2 E]]. subst C.
    destruct (zeval_at_mode L1 m L2 PC Hm) as [Hj Ev].
    pose proof (ztsize_pos t Pt).
    destruct (T1 0 (zsize L1) ltac:(lia) Hj) as [H0 _]. rewrite zteval_zero, Ev in H0 by exact Pt. lia.
Qed.

Corollary ztiles_negative_stride_none : forall t m, ztpos t -> In m (zflatten t) ->
  2 <= zextent m -> zstride m < 0 -> forall C N, zpos C -> ~ ztiles t C N.
Proof.
  intros t m Pt Hin Hm Hneg C N PC T.
  destruct (ztiles_nonneg_strides t C N Pt PC T) as [H _]. specialize (H m Hin Hm). lia.
Qed.

(** A tiling meets the tree only at offset 0, and only at index 0 of both:
    the complement is disjoint from the tree (the Complementation theorem's disjointness, on
    trees with any strides). *)
Corollary ztiles_disjoint : forall t C N i j, ztpos t -> zpos C -> ztiles t C N ->
  0 <= i < ztsize t -> 0 <= j < zsize C -> zteval t i = zeval C j -> i = 0 /\ j = 0.
Proof.
  intros t C N i j Pt PC [_ [T2 _]] Hi Hj E.
  pose proof (ztsize_pos t Pt). pose proof (zsize_pos C PC).
  destruct (T2 i 0 0 j Hi ltac:(lia) ltac:(lia) Hj) as [Ei Ej].
  - rewrite zeval_zero, zteval_zero by exact Pt. lia.
  - split; [exact Ei | symmetry; exact Ej].
Qed.

(** ** On [nat] trees, [ztiles] is [htiles] *)

Close Scope Z_scope.

Definition hitiles (t : htree) (C : layout) (N : nat) : Prop :=
  (forall i j, i < hsize t -> j < size C -> heval t i + eval_idx C j < N) /\
  (forall i j i' j', i < hsize t -> j < size C -> i' < hsize t -> j' < size C ->
     heval t i + eval_idx C j = heval t i' + eval_idx C j' -> i = i' /\ j = j') /\
  (forall v, v < N -> exists i j, i < hsize t /\ j < size C /\ heval t i + eval_idx C j = v).

Lemma htiles_hitiles : forall t C N, htiles t C N <-> hitiles t C N.
Proof.
  intros t C N. split.
  - intros [T1 [T2 T3]]. split; [|split].
    + intros i j Hi Hj. apply T1; [exact Hi | apply digits_in_domain; exact Hj].
    + intros i j i' j' Hi Hj Hi' Hj' E.
      destruct (T2 _ _ _ _ Hi (digits_in_domain C j Hj) Hi' (digits_in_domain C j' Hj') E) as [-> Ed].
      split; [reflexivity|].
      rewrite <- (recompose_digits C j Hj), <- (recompose_digits C j' Hj'), Ed. reflexivity.
    + intros v Hv. destruct (T3 v Hv) as [i [xc [Hi [Dc E]]]].
      exists i, (recompose C xc). split; [exact Hi|]. split; [apply recompose_bound; exact Dc|].
      rewrite eval_idx_recompose by exact Dc. exact E.
  - intros [T1 [T2 T3]]. split; [|split].
    + intros i xc Hi Dc. rewrite <- eval_idx_recompose by exact Dc.
      apply T1; [exact Hi | apply recompose_bound; exact Dc].
    + intros i xc i' yc Hi Dc Hi' Dyc E.
      rewrite <- (eval_idx_recompose C xc Dc), <- (eval_idx_recompose C yc Dyc) in E.
      destruct (T2 _ _ _ _ Hi (recompose_bound C xc Dc) Hi' (recompose_bound C yc Dyc) E) as [-> Er].
      split; [reflexivity|].
      rewrite <- (digits_recompose C xc Dc), <- (digits_recompose C yc Dyc), Er. reflexivity.
    + intros v Hv. destruct (T3 v Hv) as [i [j [Hi [Hj E]]]].
      exists i, (digits C j). split; [exact Hi|]. split; [apply digits_in_domain; exact Hj | exact E].
Qed.

Lemma nat_of_Z : forall x : Z, (0 <= x)%Z -> exists n, x = Z.of_nat n.
Proof. intros x H. exists (Z.to_nat x). rewrite Z2Nat.id by exact H. reflexivity. Qed.

Theorem ztiles_of_nat : forall t C N, hpos t ->
  ztiles (ztree_of t) (map zmode_of C) (Z.of_nat N) <-> htiles t C N.
Proof.
  intros t C N P. rewrite htiles_hitiles. unfold ztiles, hitiles.
  rewrite ztsize_of_nat, zsize_of_nat.
  assert (Et : forall i, zteval (ztree_of t) (Z.of_nat i) = Z.of_nat (heval t i))
    by (intros; apply zteval_of_nat, P).
  split; intros [T1 [T2 T3]]; (split; [|split]).
  - intros i j Hi Hj. specialize (T1 (Z.of_nat i) (Z.of_nat j) ltac:(lia) ltac:(lia)).
    rewrite Et, zeval_of_nat in T1. lia.
  - intros i j i' j' Hi Hj Hi' Hj' E.
    specialize (T2 (Z.of_nat i) (Z.of_nat j) (Z.of_nat i') (Z.of_nat j')
                   ltac:(lia) ltac:(lia) ltac:(lia) ltac:(lia)).
    rewrite !Et, !zeval_of_nat in T2. destruct T2 as [E1 E2]; [lia|]. split; lia.
  - intros v Hv. destruct (T3 (Z.of_nat v) ltac:(lia)) as [i [j [Hi [Hj E]]]].
    destruct (nat_of_Z i ltac:(lia)) as [i' ->]. destruct (nat_of_Z j ltac:(lia)) as [j' ->].
    rewrite Et, zeval_of_nat in E. exists i', j'. split; [lia|]. split; lia.
  - intros i j Hi Hj.
    destruct (nat_of_Z i ltac:(lia)) as [i' ->]. destruct (nat_of_Z j ltac:(lia)) as [j' ->].
    specialize (T1 i' j' ltac:(lia) ltac:(lia)). rewrite Et, zeval_of_nat. lia.
  - intros i j i2 j2 Hi Hj Hi2 Hj2 E.
    destruct (nat_of_Z i ltac:(lia)) as [i' ->]. destruct (nat_of_Z j ltac:(lia)) as [j' ->].
    destruct (nat_of_Z i2 ltac:(lia)) as [i2' ->]. destruct (nat_of_Z j2 ltac:(lia)) as [j2' ->].
    rewrite !Et, !zeval_of_nat in E.
    destruct (T2 i' j' i2' j2' ltac:(lia) ltac:(lia) ltac:(lia) ltac:(lia) ltac:(lia)) as [-> ->].
    split; reflexivity.
  - intros v Hv. destruct (nat_of_Z v ltac:(lia)) as [v' ->].
    destruct (T3 v' ltac:(lia)) as [i [j [Hi [Hj E]]]].
    exists (Z.of_nat i), (Z.of_nat j). split; [lia|]. split; [lia|].
    rewrite Et, zeval_of_nat. lia.
Qed.

(** ** A complement over [Z] can be taken over [nat] *)

Open Scope Z_scope.

Definition unit0 (m : zmode) : zmode := if zextent m =? 1 then ZMode 1 0 else m.

Lemma unit0_mode : forall m, 1 <= zextent m ->
  zextent (unit0 m) = zextent m /\ (forall i, (i mod zextent (unit0 m)) * zstride (unit0 m) =
                                            (i mod zextent m) * zstride m).
Proof.
  intros m P. unfold unit0. destruct (zextent m =? 1) eqn:E1; [|split; reflexivity].
  apply Z.eqb_eq in E1. simpl. split; [lia|]. intros i. rewrite E1, Z.mod_1_r. lia.
Qed.

Lemma unit0_same : forall C, zpos C ->
  zpos (map unit0 C) /\ zsize (map unit0 C) = zsize C /\
  (forall j, zeval (map unit0 C) j = zeval C j).
Proof.
  induction C as [|m C IH]; intros P; [split; [constructor | split; reflexivity]|].
  inversion P as [|? ? Pm PC]; subst. destruct (IH PC) as [P' [S' E']].
  destruct (unit0_mode m Pm) as [Ee Ev].
  change (map unit0 (m :: C)) with (unit0 m :: map unit0 C).
  split; [constructor; [rewrite Ee; exact Pm | exact P']|].
  split; [cbn [zsize]; rewrite S', Ee; reflexivity|].
  intros j. cbn [zeval]. rewrite E', Ev, Ee. reflexivity.
Qed.

Lemma ztiles_same_function : forall t C C' N, zsize C' = zsize C ->
  (forall j, zeval C' j = zeval C j) -> ztiles t C N -> ztiles t C' N.
Proof.
  intros t C C' N Hs He [T1 [T2 T3]]. split; [|split].
  - intros i j Hi Hj. rewrite He. apply T1; lia.
  - intros i j i' j' Hi Hj Hi' Hj' E. rewrite !He in E. apply T2; lia.
  - intros v Hv. destruct (T3 v Hv) as [i [j [Hi [Hj E]]]]. exists i, j.
    rewrite He. split; [exact Hi|]. split; [lia | exact E].
Qed.

Lemma ztiles_nat_complement : forall t C N, ztpos t -> zpos C -> ztiles t C N ->
  exists C0, ztiles t (map zmode_of C0) N.
Proof.
  intros t C N Pt PC T.
  destruct (unit0_same C PC) as [P' [S' E']].
  assert (T' : ztiles t (map unit0 C) N) by (apply (ztiles_same_function t C); assumption).
  destruct (ztiles_nonneg_strides t _ N Pt P' T') as [_ Hnn].
  exists (map mode_of_z (map unit0 C)).
  replace (map zmode_of (map mode_of_z (map unit0 C))) with (map unit0 C); [exact T'|].
  assert (H : forall m, In m (map unit0 C) -> 1 <= zextent m /\ 0 <= zstride m).
  { intros m Hin. pose proof P' as P''. unfold zpos in P''. rewrite Forall_forall in P''.
    pose proof (P'' m Hin) as Pm. split; [exact Pm|].
    destruct (Z.eq_dec (zextent m) 1) as [E1|E1].
    - apply in_map_iff in Hin. destruct Hin as [m0 [Em _]]. subst m.
      unfold unit0 in *. destruct (zextent m0 =? 1) eqn:E0; simpl in *; [lia|].
      apply Z.eqb_neq in E0. contradiction.
    - apply Hnn; [exact Hin | lia]. }
  generalize (map unit0 C) H. clear. intros L H.
  induction L as [|m L IH]; [reflexivity|].
  simpl. rewrite <- IH by (intros; apply H; right; assumption).
  destruct (H m (or_introl eq_refl)) as [H1 H2].
  destruct m as [e d]. unfold zmode_of, mode_of_z. simpl in *.
  rewrite !Z2Nat.id by lia. reflexivity.
Qed.

(** ** Rust's strict complement of a tree *)

Theorem ztree_complement_complete_and_sound : forall t cot C N0,
  ztpos t -> znonneg t -> zpos C -> 1 <= N0 -> ztiles t C N0 ->
  Forall (fun s => 1 <= s) cot ->
  exists R N, complementSZ (zflatten t) cot = Some R /\ shape_size cot <= N /\ ztiles t R N.
Proof.
  intros t cot C N0 Pt Nt PC HN0 T Pc.
  destruct (ztree_nonneg_of_nat t Pt Nt) as [Et Ht]. set (t0 := ztree_to_nat t) in *.
  destruct (ztiles_nat_complement t C N0 Pt PC T) as [C0 T0].
  destruct (nat_of_Z N0 ltac:(lia)) as [N0' ->].
  rewrite <- Et in T0. apply ztiles_of_nat in T0; [|exact Ht].
  set (cot0 := map Z.to_nat cot).
  assert (Ec : map Z.of_nat cot0 = cot).
  { unfold cot0. rewrite map_map. rewrite <- (map_id cot) at 2. apply map_ext_in.
    intros s Hin. rewrite Forall_forall in Pc. specialize (Pc s Hin). lia. }
  assert (Pc0 : Forall (fun s => (1 <= s)%nat) cot0).
  { unfold cot0. apply Forall_map. eapply Forall_impl; [|exact Pc]. simpl. intros. lia. }
  destruct (complementSZ_nested t0 cot0 C0 N0' Ht ltac:(lia) T0 Pc0) as [R0 [N [E [HM TR]]]].
  exists (map zmode_of R0), (Z.of_nat N). split; [|split].
  - rewrite <- Et, zflatten_of_nat, <- Ec. exact E.
  - rewrite <- Ec, shape_size_of_nat. lia.
  - rewrite <- Et. apply ztiles_of_nat; assumption.
Qed.

Theorem ztree_complement_none : forall t cot, ztpos t -> znonneg t ->
  complementSZ (zflatten t) cot = None -> forall C N, zpos C -> 1 <= N -> ~ ztiles t C N.
Proof.
  intros t cot Pt Nt E C N PC HN T.
  destruct (ztree_nonneg_of_nat t Pt Nt) as [Et Ht]. set (t0 := ztree_to_nat t) in *.
  destruct (ztiles_nat_complement t C N Pt PC T) as [C0 T0].
  destruct (nat_of_Z N ltac:(lia)) as [N' ->].
  rewrite <- Et in T0. apply ztiles_of_nat in T0; [|exact Ht].
  rewrite <- Et, zflatten_of_nat in E.
  exact (complementSZ_nested_none t0 cot Ht E C0 N' ltac:(lia) T0).
Qed.


(** The same with an integer cotarget [M >= 1] ([complementZ]). *)
Theorem ztree_complementZ_complete_and_sound : forall t M C N0,
  ztpos t -> znonneg t -> zpos C -> 1 <= N0 -> ztiles t C N0 -> 1 <= M ->
  exists R N, complementZ (zflatten t) M = Some R /\ M <= N /\ ztiles t R N.
Proof.
  intros t M C N0 Pt Nt PC HN0 T HM.
  destruct (ztree_nonneg_of_nat t Pt Nt) as [Et Ht]. set (t0 := ztree_to_nat t) in *.
  destruct (ztiles_nat_complement t C N0 Pt PC T) as [C0 T0].
  destruct (nat_of_Z N0 ltac:(lia)) as [N0' ->].
  destruct (nat_of_Z M ltac:(lia)) as [M' ->].
  rewrite <- Et in T0. apply ztiles_of_nat in T0; [|exact Ht].
  apply (htiles_iff t0 C0 N0' Ht) in T0.
  destruct (complementZ_complete_and_sound (hflatten t0) M' C0 N0' ltac:(lia) T0 ltac:(lia))
    as [R0 [N [E [HM' TR]]]].
  exists (map zmode_of R0), (Z.of_nat N). split; [|split].
  - rewrite <- Et, zflatten_of_nat. exact E.
  - lia.
  - rewrite <- Et. apply ztiles_of_nat; [exact Ht|]. apply htiles_iff; assumption.
Qed.

Theorem ztree_complementZ_none : forall t M, ztpos t -> znonneg t ->
  complementZ (zflatten t) M = None -> forall C N, zpos C -> 1 <= N -> ~ ztiles t C N.
Proof.
  intros t M Pt Nt E C N PC HN T.
  destruct (ztree_nonneg_of_nat t Pt Nt) as [Et Ht]. set (t0 := ztree_to_nat t) in *.
  destruct (ztiles_nat_complement t C N Pt PC T) as [C0 T0].
  destruct (nat_of_Z N ltac:(lia)) as [N' ->].
  rewrite <- Et in T0. apply ztiles_of_nat in T0; [|exact Ht].
  apply (htiles_iff t0 C0 N' Ht) in T0.
  rewrite <- Et, zflatten_of_nat in E.
  exact (complementZ_none_no_complement (hflatten t0) M E C0 N' ltac:(lia) T0).
Qed.

Close Scope Z_scope.

(** ** Composition with a tree B, certified *)

Open Scope Z_scope.

(** The colexicographic digits of an index over a flat layout's extents. *)
Fixpoint zdigits (L : list zmode) (i : Z) : list Z :=
  match L with
  | [] => []
  | m :: L' => (i mod zextent m) :: zdigits L' (i / zextent m)
  end.

Lemma evalB_zdigits : forall L ls i, map fst ls = map zstride L ->
  evalB (zdigits L i) ls = zeval L i.
Proof.
  induction L as [|m L IH]; intros [|l ls] i H; try discriminate; [reflexivity|].
  simpl in H. injection H as H1 H2. cbn [zdigits evalB zeval].
  rewrite IH by exact H2. rewrite H1. reflexivity.
Qed.

Lemma zdigits_range : forall L ls i, zpos L -> map leaf_extent ls = map zextent L ->
  Forall2 (fun c l => 0 <= c < leaf_extent l) (zdigits L i) ls.
Proof.
  induction L as [|m L IH]; intros [|l ls] i P H; try discriminate; [constructor|].
  inversion P as [|? ? Pm PL]; subst.
  simpl in H. injection H as H1 H2. cbn [zdigits]. constructor.
  - rewrite H1. apply Z.mod_pos_bound. lia.
  - apply IH; assumption.
Qed.

(** For a tree [B] with positive extents and strides of any sign, whose
    leaves (in order) are refined by the candidate modes of [ls] (the
    leaf's stride is [fst], its extent the product of the candidate
    extents: compatibility), a certificate on [ax] gives
    [A(B(i)) = R(i)] at every index [i], where [R(i)] evaluates the
    candidate on the digits of [i]. *)
Theorem composition_certified_tree : forall ax B ls,
  pos_ax ax -> ztpos B -> Forall leaf_ok ls ->
  map fst ls = map zstride (zflatten B) ->
  map leaf_extent ls = map zextent (zflatten B) ->
  certificate ax (pieces_of_leaves ls) = true ->
  forall i, evalA ax (zteval B i) = evalRflat (zdigits (zflatten B) i) ls.
Proof.
  intros ax B ls P PB Ok Hs He C i.
  rewrite zflatten_preserves_eval by exact PB.
  rewrite <- (evalB_zdigits (zflatten B) ls i Hs).
  apply composition_certified_flat; try assumption.
  apply zdigits_range; assumption.
Qed.

(** With [A] a tree too, and the certificate checked where Rust checks it
    ([coalesce_x] of [A]'s flattening: [certified_composition]): wherever
    [B(i)] lies in [A]'s domain, [A(B(i)) = R(i)], nested [A] and [B],
    strides of any sign. *)
Corollary composition_certified_trees : forall A B ls,
  ztpos A -> ztpos B -> Forall leaf_ok ls ->
  map fst ls = map zstride (zflatten B) ->
  map leaf_extent ls = map zextent (zflatten B) ->
  certified_composition (zflatten A) ls = true ->
  forall i, 0 <= zteval B i < ztsize A ->
  zteval A (zteval B i) = evalRflat (zdigits (zflatten B) i) ls.
Proof.
  intros A B ls PA PB Ok Hs He C i Hi.
  rewrite ztsize_flatten in Hi.
  destruct (coalesce_x_agrees (zflatten A) (zteval B i) PA Hi) as [Pax E].
  rewrite zflatten_preserves_eval with (t := A) by exact PA. rewrite <- E.
  apply (composition_certified_tree _ B ls Pax PB Ok Hs He C i).
Qed.

(** [logical_divide(A, B)] with [A] a tree of any strides (the divisor [B]
    flat, sorted and tractable, as in [Divide.v]; tractable means strides
    [>= 1]): every offset [v] of [A]'s domain is reached by exactly one
    coordinate of [(B, complement)], and the result there is [A(v)]. *)
Corollary logical_divide_tree : forall (A : ztree) (B : layout) rest ls,
  ztpos A -> tractable B -> Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) (B ++ complement_of B rest) ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) (B ++ complement_of B rest) ->
  certified_composition (zflatten A) ls = true ->
  ztsize A <= Z.of_nat (reach B 1 * rest) ->
  forall v, 0 <= v < ztsize A ->
  exists xs, in_domain (B ++ complement_of B rest) xs /\
    evalB (map Z.of_nat xs) ls = v /\
    evalRflat (map Z.of_nat xs) ls = zteval A v /\
    (forall ys, in_domain (B ++ complement_of B rest) ys ->
       evalB (map Z.of_nat ys) ls = v -> ys = xs).
Proof.
  intros A B rest ls PA T Ok Hs He C Hcov v Hv.
  pose proof Hv as Hv'. rewrite ztsize_flatten in Hv'.
  destruct (coalesce_x_agrees (zflatten A) v PA Hv') as [Pax E].
  destruct (nat_of_Z v ltac:(lia)) as [v' ->].
  destruct (logical_divide_certified _ B rest ls Pax T Ok Hs He C v' ltac:(lia))
    as [xs [D [EB [ER U]]]].
  exists xs. split; [exact D|]. split; [exact EB|]. split; [|exact U].
  rewrite ER, E. symmetry. apply zflatten_preserves_eval, PA.
Qed.

Close Scope Z_scope.

(** ** [logical_product] with a tree B *)

Lemma zdigits_of_nat : forall L i,
  zdigits (map zmode_of L) (Z.of_nat i) = map Z.of_nat (digits L i).
Proof.
  induction L as [|m L IH]; intros i; [reflexivity|].
  simpl. rewrite <- Nat2Z.inj_div, IH, <- Nat2Z.inj_mod. reflexivity.
Qed.

(** [logical_product(A, B)] for a flat tractable [A] (natural strides, as
    in [Product.v]) and a tree [B] with positive extents and strides
    [>= 0] (the precondition), injective on its indices: with the
    complement's rest computed from [B]'s cosize ([B(size B - 1) + 1]) and
    the certificate checked where Rust checks it, the product
    [P(xa, i) = A(xa) + R2(i)] maps [dom A x \[0, size B)] one to one into
    [\[0, reach A * rest)]. *)
Corollary logical_product_tree : forall (A : layout) (B : ztree) ls,
  tractable A -> Forall (fun m => 1 <= extent m) A -> ztpos B -> znonneg B ->
  let cosB := Z.to_nat (zteval B (ztsize B - 1) + 1) in
  let rest := ((size A * cosB + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  let ax := rust_coalesce_xZ (map zmode_of (rust_coalesce C)) in
  Forall leaf_ok ls ->
  map fst ls = map zstride (zflatten B) ->
  map leaf_extent ls = map zextent (zflatten B) ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall i j, (0 <= i < ztsize B)%Z -> (0 <= j < ztsize B)%Z -> zteval B i = zteval B j -> i = j) ->
  let P xa i := (Z.of_nat (eval A xa) + evalRflat (zdigits (zflatten B) i) ls)%Z in
  (forall xa i, in_domain A xa -> (0 <= i < ztsize B)%Z ->
     (0 <= P xa i < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa i ya j, in_domain A xa -> (0 <= i < ztsize B)%Z -> in_domain A ya -> (0 <= j < ztsize B)%Z ->
     P xa i = P ya j -> xa = ya /\ i = j).
Proof.
  intros A B ls T PA PB NB cosB rest C ax Ok Hs He Cert Binj P.
  destruct (ztree_nonneg_of_nat B PB NB) as [Et Ht]. set (t0 := ztree_to_nat B) in *.
  set (LB := hflatten t0).
  assert (EL : zflatten B = map zmode_of LB) by (unfold LB; rewrite <- Et, zflatten_of_nat; reflexivity).
  assert (HsB : ztsize B = Z.of_nat (size LB))
    by (unfold LB; rewrite <- Et, ztsize_of_nat, hsize_flatten; reflexivity).
  assert (PLB : 1 <= size LB) by (apply Product.size_pos, Ht).
  assert (EvB : forall i, zteval B (Z.of_nat i) = Z.of_nat (eval_idx LB i)).
  { intros i. rewrite <- Et, zteval_of_nat by exact Ht. unfold LB. rewrite flatten_preserves_eval by exact Ht.
    reflexivity. }
  assert (Ecos : cosB = cosize LB).
  { unfold cosB, cosize. rewrite HsB. replace (Z.of_nat (size LB) - 1)%Z with (Z.of_nat (size LB - 1)) by lia.
    rewrite EvB. lia. }
  assert (Hs' : map fst ls = map (fun m => Z.of_nat (stride m)) LB)
    by (rewrite Hs, EL, map_map; reflexivity).
  assert (He' : map leaf_extent ls = map (fun m => Z.of_nat (extent m)) LB)
    by (rewrite He, EL, map_map; reflexivity).
  assert (Binj' : forall xb yb, in_domain LB xb -> in_domain LB yb -> eval LB xb = eval LB yb -> xb = yb).
  { intros xb yb Dx Dy E.
    rewrite <- (eval_idx_recompose LB xb Dx), <- (eval_idx_recompose LB yb Dy) in E.
    assert (Ei : Z.of_nat (recompose LB xb) = Z.of_nat (recompose LB yb)).
    { apply Binj.
      - pose proof (recompose_bound LB xb Dx). lia.
      - pose proof (recompose_bound LB yb Dy). lia.
      - rewrite !EvB, E. reflexivity. }
    apply Nat2Z.inj in Ei.
    rewrite <- (digits_recompose LB xb Dx), <- (digits_recompose LB yb Dy), Ei. reflexivity. }
  assert (Cert' : certificate (rust_coalesce_xZ (map zmode_of (rust_coalesce
             (complement_of A ((size A * cosize LB + reach A 1 - 1) / reach A 1)))))
             (pieces_of_leaves ls) = true) by (rewrite <- Ecos; exact Cert).
  unfold rest. rewrite Ecos.
  destruct (logical_product_rust A LB ls T PA Ok Hs' He' Cert' Binj') as [H1 H2].
  assert (ED : forall i, (0 <= i < ztsize B)%Z -> exists i', i = Z.of_nat i' /\ i' < size LB /\
             zdigits (zflatten B) i = map Z.of_nat (digits LB i')).
  { intros i Hi. destruct (nat_of_Z i ltac:(lia)) as [i' ->]. exists i'.
    split; [reflexivity|]. split; [lia|]. rewrite EL. apply zdigits_of_nat. }
  split.
  - intros xa i Da Hi. destruct (ED i Hi) as [i' [-> [Hi' Ed]]]. unfold P. rewrite Ed.
    apply H1; [exact Da | apply digits_in_domain; exact Hi'].
  - intros xa i ya j Da Hi Dya Hj E.
    destruct (ED i Hi) as [i' [-> [Hi' Edi]]]. destruct (ED j Hj) as [j' [-> [Hj' Edj]]].
    unfold P in E. rewrite Edi, Edj in E.
    destruct (H2 xa (digits LB i') ya (digits LB j') Da (digits_in_domain LB i' Hi') Dya
                 (digits_in_domain LB j' Hj') E) as [-> Ed].
    split; [reflexivity|]. f_equal.
    rewrite <- (recompose_digits LB i' Hi'), <- (recompose_digits LB j' Hj'), Ed. reflexivity.
Qed.
