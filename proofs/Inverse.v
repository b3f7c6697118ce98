(** * The right inverse as Rust computes it (issue 28, item 2)

    [right_inverse] in [crates/tessera/src/algebra/inverse.rs]: coalesce
    L (its forward pass [coalesce_forward] gives the same modes as the
    backward [rust_coalesceZ], the unique normal form:
    [rust_coalesceZ_unique_normal_form]), then follow the chain of strides
    from [curr = 1]: the first coalesced mode [j] whose stride is [curr]
    gives the result mode [e_j : pp_j] ([pp_j] the product of the extents
    before it), and [curr] becomes [e_j * curr]; an empty result is
    [1:0].  This is [right_inverse_fast], the path Rust runs for up to 8
    leaves, mode for mode; its exact path ([right_inverse_chain], more
    leaves) pushes the same modes through [push_coalesced], which never
    merges them (the argument in Rust's comment; the bridge compares both
    paths' results with this function).

    Proved ([right_inverse_correct]): for every flat L with positive
    extents and strides of any sign, [R = right_inverseZ L] satisfies
    [0 <= R(i) < size L] and [L(R(i)) = i] for every [i] in
    [\[0, size R)]: R is a right inverse on its whole domain.  Its
    maximality is [right_inverse_maximal] in [InverseMax.v]. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Bridge CoalesceSigned CoalesceSignedNF Composition Product.

Open Scope Z_scope.

(** The first mode of [c] with stride [curr], and the product of the
    extents before it (times [pp]). *)
Fixpoint pp_find (c : list zmode) (curr pp : Z) : option (zmode * Z) :=
  match c with
  | [] => None
  | m :: c' => if zstride m =? curr then Some (m, pp) else pp_find c' curr (pp * zextent m)
  end.

(** The chain: at most [fuel] steps (each coalesced mode is used at most
    once, so [length c] steps suffice: [rinv_go_fuel]). *)
Fixpoint rinv_go (fuel : nat) (c : list zmode) (curr : Z) : list zmode :=
  match fuel with
  | O => []
  | S f => match pp_find c curr 1 with
           | None => []
           | Some (m, pp) => ZMode (zextent m) pp :: rinv_go f c (zextent m * zstride m)
           end
  end.

Definition right_inverseZ (L : list zmode) : list zmode :=
  let c := rust_coalesceZ L in
  match rinv_go (length c) c 1 with
  | [] => [ZMode 1 0]
  | r => r
  end.

(** ** Facts *)

Lemma pp_find_spec : forall c curr pp0 m pp, pp_find c curr pp0 = Some (m, pp) ->
  exists j, (j < length c)%nat /\ nth j c mode0 = m /\ zstride m = curr /\
            pp = pp0 * place_of j c /\
            (forall j', (j' < j)%nat -> zstride (nth j' c mode0) <> curr).
Proof.
  induction c as [|m0 c IH]; intros curr pp0 m pp H; [discriminate|].
  simpl in H. destruct (Z.eqb_spec (zstride m0) curr) as [E|E].
  - injection H as <- <-. exists O. simpl. split; [lia|]. split; [reflexivity|]. split; [exact E|].
    split; [lia|]. intros j' Hj'. lia.
  - destruct (IH _ _ _ _ H) as [j [Hj [Hn [Hs [Hp Hb]]]]].
    exists (S j). simpl. split; [lia|]. split; [exact Hn|]. split; [exact Hs|].
    split; [rewrite Hp; ring|].
    intros [|j'] Hj'; [exact E|]. apply Hb. lia.
Qed.

Lemma pp_find_none : forall c curr pp0, pp_find c curr pp0 = None ->
  forall m, In m c -> zstride m <> curr.
Proof.
  induction c as [|m0 c IH]; intros curr pp0 H m Hm; [destruct Hm|].
  simpl in H. destruct (Z.eqb_spec (zstride m0) curr) as [E|E]; [discriminate|].
  destruct Hm as [<-|Hm]; [exact E|]. exact (IH _ _ H m Hm).
Qed.

(** Modes that the chain can pick have extent [>= 2]: a coalesced layout
    is a normal form (extents [>= 2]) or [1:0] (stride 0, never picked). *)
Definition chain_ok (c : list zmode) : Prop :=
  Forall (fun m => 1 <= zextent m /\ (zstride m <= 0 \/ 2 <= zextent m)) c.

Definition digits_ok (c : list zmode) (D : list Z) : Prop :=
  length D = length c /\ forall k, (k < length c)%nat -> 0 <= nth k D 0 < zextent (nth k c mode0).

Lemma nth_in_chain : forall c k, chain_ok c -> (k < length c)%nat ->
  1 <= zextent (nth k c mode0) /\ (zstride (nth k c mode0) <= 0 \/ 2 <= zextent (nth k c mode0)).
Proof.
  intros c k P Hk. unfold chain_ok in P. rewrite Forall_forall in P. apply P, nth_In, Hk.
Qed.

Lemma zsize_cons : forall m R, zsize (m :: R) = zextent m * zsize R.
Proof. reflexivity. Qed.

Lemma zsize_go_pos : forall f c curr, chain_ok c -> 1 <= zsize (rinv_go f c curr).
Proof.
  induction f as [|f IH]; intros c curr P; simpl; [lia|].
  destruct (pp_find c curr 1) as [[m pp]|] eqn:E; simpl; [|lia].
  destruct (pp_find_spec _ _ _ _ _ E) as [j [Hj [Hn _]]].
  destruct (nth_in_chain c j P Hj) as [H1 _]. rewrite Hn in H1.
  specialize (IH c (zextent m * zstride m) P). nia.
Qed.

(** The position [pp_find] finds. *)
Fixpoint pos_find (c : list zmode) (curr : Z) (k : nat) : option nat :=
  match c with
  | [] => None
  | m :: c' => if zstride m =? curr then Some k else pos_find c' curr (S k)
  end.

Lemma pp_pos : forall c curr pp k,
  match pp_find c curr pp with
  | None => pos_find c curr k = None
  | Some (m, pp') => exists j, pos_find c curr k = Some (k + j)%nat /\ nth j c mode0 = m
  end.
Proof.
  induction c as [|m0 c IH]; intros curr pp k; [reflexivity|].
  simpl. destruct (zstride m0 =? curr).
  - exists O. rewrite Nat.add_0_r. simpl. split; reflexivity.
  - specialize (IH curr (pp * zextent m0) (S k)).
    destruct (pp_find c curr (pp * zextent m0)) as [[m pp']|]; [|exact IH].
    destruct IH as [j [E1 E2]]. exists (S j). rewrite E1.
    split; [f_equal; lia|]. exact E2.
Qed.

Lemma pos_find_first : forall c curr k0 j, pos_find c curr k0 = Some (k0 + j)%nat ->
  forall j', (j' < j)%nat -> zstride (nth j' c mode0) <> curr.
Proof.
  induction c as [|m c IH]; intros curr k0 j H j' Hj'; [discriminate|].
  simpl in H. destruct (Z.eqb_spec (zstride m) curr) as [E|E].
  - injection H as H. lia.
  - destruct j' as [|j']; [exact E|]. destruct j as [|j]; [lia|].
    simpl. apply (IH curr (S k0) j); [rewrite H; f_equal; lia | lia].
Qed.

(** The positions the chain visits. *)
Fixpoint chain_pos (fuel : nat) (c : list zmode) (curr : Z) : list nat :=
  match fuel with
  | O => []
  | S f => match pp_find c curr 1 with
           | None => []
           | Some (m, _) => match pos_find c curr 0 with
                            | Some j => j :: chain_pos f c (zextent m * zstride m)
                            | None => []
                            end
           end
  end.

(** The chain from [curr], started on digits [D] that are 0 wherever the
    stride is [>= curr]: at index [i] of its result, the digits [D'] with
    [i]'s chain digits added are in range, recompose to [R(i)] more, [L]
    gives [curr * i] more, and only the chain's positions changed. *)
Lemma rinv_go_spec : forall f c curr, chain_ok c -> 1 <= curr ->
  forall i D, 0 <= i < zsize (rinv_go f c curr) -> digits_ok c D ->
  (forall k, (k < length c)%nat -> curr <= zstride (nth k c mode0) -> nth k D 0 = 0) ->
  exists D', digits_ok c D' /\
    recompA c D' = recompA c D + zeval (rinv_go f c curr) i /\
    dotA c D' = dotA c D + curr * i /\
    (forall k, ~ In k (chain_pos f c curr) -> nth k D' 0 = nth k D 0).
Proof.
  induction f as [|f IH]; intros c curr P Hc i D Hi [HL HD] H0.
  - simpl in Hi. exists D. split; [split; assumption|]. assert (i = 0) by lia. subst. simpl.
    split; [lia|]. split; [lia|]. auto.
  - cbn [rinv_go chain_pos] in Hi |- *.
    pose proof (pp_pos c curr 1 0) as PP.
    destruct (pp_find c curr 1) as [[m pp]|] eqn:E.
    2:{ simpl in Hi. exists D. split; [split; assumption|]. assert (i = 0) by lia. subst. simpl.
        split; [lia|]. split; [lia|]. auto. }
    destruct PP as [j0 [Ej Hn0]]. simpl in Ej. rewrite Ej.
    destruct (pp_find_spec _ _ _ _ _ E) as [j [Hj [Hn [Hs [Hp Hfirst]]]]].
    assert (Ejj : j0 = j).
    { destruct (Nat.lt_total j0 j) as [Lt|[Eq|Gt]]; [|exact Eq|].
      - exfalso. apply (Hfirst j0 Lt). rewrite Hn0. exact Hs.
      - exfalso. apply (pos_find_first c curr 0 j0 Ej j Gt). rewrite Hn. exact Hs. }
    subst j0.
    rewrite Z.mul_1_l in Hp.
    destruct (nth_in_chain c j P Hj) as [He1 He2]. rewrite Hn in He1, He2.
    assert (He : 2 <= zextent m) by lia.
    rewrite zsize_cons in Hi. cbn [zextent] in Hi.
    set (s := zextent m) in *.
    set (rest := rinv_go f c (s * zstride m)) in *.
    pose proof (zsize_go_pos f c (s * zstride m) P) as Hr. fold rest in Hr.
    set (x := i mod s).
    assert (Hx : 0 <= x < s) by (apply Z.mod_pos_bound; lia).
    set (D1 := set_nth j (nth j D 0 + x) D).
    assert (HDj : nth j D 0 = 0) by (apply H0; [exact Hj | rewrite Hn; lia]).
    assert (Ok1 : digits_ok c D1).
    { split; [unfold D1; rewrite length_set_nth; exact HL|].
      intros k Hk. unfold D1. destruct (Nat.eq_dec k j) as [->|Ne].
      - rewrite nth_set_nth_same by lia. rewrite Hn. lia.
      - rewrite nth_set_nth_other by exact Ne. apply HD, Hk. }
    assert (Hi' : 0 <= i / s < zsize rest).
    { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
    destruct (IH c (s * zstride m) P ltac:(nia) (i / s) D1 Hi' Ok1) as [D' [Ok' [ER [ED Sup]]]].
    { intros k Hk Hge. unfold D1. destruct (Nat.eq_dec k j) as [->|Ne].
      - rewrite Hn in Hge. nia.
      - rewrite nth_set_nth_other by exact Ne. apply H0; [exact Hk|]. nia. }
    exists D'. split; [exact Ok'|].
    assert (R1 : recompA c D1 = recompA c D + place_of j c * x)
      by (unfold D1; apply recompA_add; lia).
    assert (T1 : dotA c D1 = dotA c D + x * zstride (nth j c mode0))
      by (unfold D1; apply dotA_add; lia).
    rewrite Hn in T1. split; [|split].
    + rewrite ER, R1. cbn [zeval zextent zstride]. fold x. rewrite <- Hp. fold rest. lia.
    + rewrite ED, T1. pose proof (Z_div_mod_eq_full i s). fold x in H. rewrite Hs. nia.
    + intros k Hk. simpl in Hk. apply Decidable.not_or in Hk. destruct Hk as [Hk1 Hk2].
      rewrite Sup by exact Hk2. unfold D1. apply nth_set_nth_other. auto.
Qed.

Lemma recompA_range : forall c D, pos_ax c -> digits_ok c D ->
  0 <= recompA c D < zsize c.
Proof.
  induction c as [|m c IH]; intros D P [HL HD]; [destruct D; simpl; [lia|discriminate]|].
  destruct D as [|d D]; [discriminate|]. inversion P as [|? ? Pm Pc]; subst.
  simpl in HL. injection HL as HL.
  assert (Hd : 0 <= d < zextent m) by apply (HD O ltac:(simpl; lia)).
  assert (IHc : 0 <= recompA c D < zsize c).
  { apply IH; [exact Pc|]. split; [exact HL|]. intros k Hk. apply (HD (S k)). simpl. lia. }
  cbn [recompA zsize]. nia.
Qed.

Lemma zeval_recompA : forall c D, pos_ax c -> digits_ok c D ->
  zeval c (recompA c D) = dotA c D.
Proof.
  intros c D P Ok. pose proof (recompA_range c D P Ok) as Hr.
  rewrite <- evalA_zeval by assumption.
  destruct Ok as [HL HD]. apply evalA_recomp; try assumption.
  - intros k. destruct (Nat.lt_ge_cases k (length c)) as [Hk|Hk].
    + apply HD, Hk.
    + rewrite nth_overflow by lia. lia.
  - intros k Hk. apply HD. lia.
Qed.

Lemma chain_ok_coalesce : forall L, zpos L -> chain_ok (rust_coalesceZ L).
Proof.
  intros L P. destruct (Z.eq_dec (zsize L) 1) as [E|E].
  - rewrite rust_coalesceZ_size1 by assumption. repeat constructor; simpl; lia.
  - pose proof (rust_coalesceZ_normal L P E) as N. unfold chain_ok.
    clear -N. induction (rust_coalesceZ L) as [|m R IH]; [constructor|].
    destruct N as [H2 [_ NR]]. constructor; [lia|]. apply IH, NR.
Qed.

(** ** The right inverse *)

Theorem right_inverse_correct : forall L, zpos L ->
  let R := right_inverseZ L in
  1 <= zsize R /\
  forall i, 0 <= i < zsize R -> 0 <= zeval R i < zsize L /\ zeval L (zeval R i) = i.
Proof.
  intros L P R.
  set (c := rust_coalesceZ L).
  destruct (rust_coalesceZ_preserves_eval L P) as [Sz Ev]. fold c in Sz, Ev.
  assert (Pc : chain_ok c) by apply chain_ok_coalesce, P.
  assert (Pax : pos_ax c).
  { unfold pos_ax. eapply Forall_impl; [|exact Pc]. intros m [H _]. exact H. }
  assert (Z0ok : digits_ok c (repeat 0 (length c))).
  { split; [apply repeat_length|]. intros k Hk. rewrite nth_repeat_0.
    destruct (nth_in_chain c k Pc Hk). lia. }
  assert (G : forall i, 0 <= i < zsize (rinv_go (length c) c 1) ->
            0 <= zeval (rinv_go (length c) c 1) i < zsize L /\
            zeval L (zeval (rinv_go (length c) c 1) i) = i).
  { intros i Hi.
    destruct (rinv_go_spec (length c) c 1 Pc ltac:(lia) i _ Hi Z0ok) as [D' [Ok' [ER [ED _]]]].
    { intros k _ _. apply nth_repeat_0. }
    rewrite recompA_zeros, Z.add_0_l in ER. rewrite dotA_zeros in ED.
    pose proof (recompA_range c D' Pax Ok') as Hr.
    rewrite <- Sz, <- Ev. split; [lia|].
    rewrite <- ER, zeval_recompA by assumption. lia. }
  unfold R, right_inverseZ. fold c.
  destruct (rinv_go (length c) c 1) as [|m r] eqn:E.
  - simpl. split; [lia|]. intros i Hi. assert (i = 0) by lia. subst.
    rewrite Z.mod_1_r. simpl. split; [pose proof (zsize_pos L P); lia|].
    rewrite <- Ev. apply zeval_zero.
  - split; [rewrite <- E; apply zsize_go_pos, Pc|]. exact G.
Qed.

Close Scope Z_scope.
