(** * The right inverse is maximal (issue 28, item 2)

    CuTe documents [right_inverse(L)] as the largest contiguous prefix
    that L can invert.  Proved here for what Rust computes
    ([right_inverseZ], [Inverse.v]): for injective L with strides [>= 0],
    [size R] is not in L's image ([right_inverse_maximal]), so
    [\[0, size R)] (all in the image, [right_inverse_correct]) is the
    largest prefix [\[0, n)] of the image.  Both hypotheses are needed:
    [(2,3):(1,1)] (not injective) has [2] in its image and [R = 2:1]; and
    [(2,2):(-1,2)] (injective, a negative stride) has [1] in its image and
    [R = 1:0] ([right_inverse_maximal_needs_injective],
    [right_inverse_maximal_needs_nonneg]). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Bridge CoalesceSigned CoalesceSignedNF Composition Product Inverse.

Open Scope Z_scope.

(** ** The chain ends *)

Definition count (c : list zmode) (x : Z) : nat := length (filter (fun m => x <=? zstride m) c).

Lemma count_mono : forall c x x', x <= x' -> (count c x' <= count c x)%nat.
Proof.
  induction c as [|m c IH]; intros x x' H; [unfold count; simpl; lia|]. unfold count in *. simpl.
  specialize (IH x x' H).
  destruct (Z.leb_spec x' (zstride m)), (Z.leb_spec x (zstride m)); simpl; lia.
Qed.

Lemma count_drop : forall c m x x', In m c -> zstride m = x -> x < x' ->
  (count c x' < count c x)%nat.
Proof.
  induction c as [|m0 c IH]; intros m x x' Hm Hs Hx; [destruct Hm|]. unfold count in *. simpl.
  destruct Hm as [<-|Hm].
  - pose proof (count_mono c x x' ltac:(lia)) as M. unfold count in M.
    destruct (Z.leb_spec x' (zstride m0)); [lia|]. destruct (Z.leb_spec x (zstride m0)); [|lia].
    simpl. lia.
  - specialize (IH m x x' Hm Hs Hx).
    destruct (Z.leb_spec x' (zstride m0)), (Z.leb_spec x (zstride m0)); simpl; lia.
Qed.

Lemma go_end : forall f c curr, chain_ok c -> 1 <= curr -> (count c curr <= f)%nat ->
  forall m, In m c -> zstride m <> curr * zsize (rinv_go f c curr).
Proof.
  induction f as [|f IH]; intros c curr P Hc Hf m Hm.
  - simpl. intros E. assert (In m (filter (fun m => curr <=? zstride m) c)).
    { apply filter_In. split; [exact Hm|]. apply Z.leb_le. lia. }
    unfold count in Hf. destruct (filter _ c); [destruct H | simpl in Hf; lia].
  - cbn [rinv_go]. destruct (pp_find c curr 1) as [[m0 pp]|] eqn:E.
    + destruct (pp_find_spec _ _ _ _ _ E) as [j [Hj [Hn [Hs _]]]].
      destruct (nth_in_chain c j P Hj) as [He1 He2]. rewrite Hn in He1, He2.
      assert (Hm0 : In m0 c) by (rewrite <- Hn; apply nth_In, Hj).
      assert (Hlt : (count c (zextent m0 * zstride m0) < count c curr)%nat)
        by (apply (count_drop c m0); [exact Hm0|exact Hs|nia]).
      specialize (IH c (zextent m0 * zstride m0) P ltac:(nia) ltac:(lia) m Hm).
      rewrite zsize_cons. cbn [zextent]. intros Ez. apply IH. rewrite Ez, Hs. ring.
    + simpl. rewrite Z.mul_1_r. exact (pp_find_none c curr 1 E m Hm).
Qed.

Lemma count_le_length : forall c x, (count c x <= length c)%nat.
Proof.
  intros c x. unfold count. induction c as [|m c IH]; simpl; [lia|].
  destruct (x <=? zstride m); simpl; lia.
Qed.

(** ** Digit vectors *)

Lemma dotA_zero : forall c D, length D = length c -> (forall k, (k < length c)%nat -> nth k D 0 = 0) ->
  dotA c D = 0.
Proof.
  induction c as [|m c IH]; intros [|d D] HL H; simpl in *; try lia; try discriminate.
  rewrite (H O ltac:(lia)). rewrite IH; [lia|lia|]. intros k Hk. apply (H (S k)). lia.
Qed.

Lemma dotA_split : forall c D j, (j < length c)%nat -> length D = length c ->
  dotA c D = dotA c (set_nth j 0 D) + nth j D 0 * zstride (nth j c mode0).
Proof.
  induction c as [|m c IH]; intros [|d D] j Hj HL; simpl in *; try lia; try discriminate.
  destruct j as [|j]; simpl; [lia|]. rewrite (IH D j) by lia. lia.
Qed.

Lemma dotA_nonneg : forall c D, Forall (fun m => 0 <= zstride m) c -> (forall k, 0 <= nth k D 0) ->
  0 <= dotA c D.
Proof.
  induction c as [|m c IH]; intros [|d D] N H; simpl; try lia.
  inversion N; subst. pose proof (H O). simpl in H0.
  assert (0 <= dotA c D) by (apply IH; [assumption|intros k; apply (H (S k))]). nia.
Qed.

Lemma dotA_term : forall c D p, Forall (fun m => 0 <= zstride m) c -> (forall k, 0 <= nth k D 0) ->
  nth p D 0 * zstride (nth p c mode0) <= dotA c D.
Proof.
  induction c as [|m c IH]; intros [|d D] p N H; destruct p; simpl; try lia;
    inversion N as [|? ? Nm Nc]; subst; pose proof (H O) as H0; simpl in H0.
  - pose proof (dotA_nonneg c D Nc (fun k => H (S k))). nia.
  - pose proof (IH D p Nc (fun k => H (S k))). nia.
Qed.

Fixpoint mask (inl : nat -> bool) (D : list Z) (k : nat) : list Z :=
  match D with
  | [] => []
  | d :: D' => (if inl k then d else 0) :: mask inl D' (S k)
  end.

Lemma nth_mask : forall inl D k i, nth i (mask inl D k) 0 = if inl (k + i)%nat then nth i D 0 else 0.
Proof.
  induction D as [|d D IH]; intros k i.
  - destruct i; simpl; destruct (inl _); reflexivity.
  - destruct i as [|i]; simpl; [rewrite Nat.add_0_r; reflexivity|].
    rewrite IH. replace (S k + i)%nat with (k + S i)%nat by lia. reflexivity.
Qed.

Lemma length_mask : forall inl D k, length (mask inl D k) = length D.
Proof. induction D as [|d D IH]; intros k; simpl; auto. Qed.

Lemma dotA_mask : forall c D inl k,
  dotA c D = dotA c (mask inl D k) + dotA c (mask (fun i => negb (inl i)) D k).
Proof.
  induction c as [|m c IH]; intros [|d D] inl k; simpl; try lia.
  rewrite (IH D inl (S k)). destruct (inl k); simpl; lia.
Qed.

Lemma digits_ok_mask : forall c D inl, digits_ok c D -> digits_ok c (mask inl D 0).
Proof.
  intros c D inl [HL HD]. split; [rewrite length_mask; exact HL|].
  intros k Hk. rewrite nth_mask. simpl. destruct (inl k); [apply HD, Hk|].
  destruct (HD k Hk). lia.
Qed.

Lemma digits_exist : forall c y, pos_ax c -> 0 <= y < zsize c ->
  exists D, digits_ok c D /\ recompA c D = y.
Proof.
  induction c as [|m c IH]; intros y P Hy.
  - exists []. split; [split; [reflexivity|intros k Hk; simpl in Hk; lia]|]. simpl in *. lia.
  - inversion P as [|? ? Pm Pc]; subst. cbn [zsize] in Hy.
    pose proof (zsize_pos c Pc).
    destruct (IH (y / zextent m) Pc) as [D [[HL HD] E]].
    { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
    exists (y mod zextent m :: D). split.
    + split; [simpl; rewrite HL; reflexivity|]. intros [|k] Hk; simpl.
      * apply Z.mod_pos_bound. lia.
      * apply HD. simpl in Hk. lia.
    + simpl. rewrite E. pose proof (Z_div_mod_eq_full y (zextent m)). lia.
Qed.

Lemma recompA_inj : forall c D1 D2, digits_ok c D1 -> digits_ok c D2 ->
  recompA c D1 = recompA c D2 -> D1 = D2.
Proof.
  induction c as [|m c IH]; intros D1 D2 [HL1 H1] [HL2 H2] E.
  - destruct D1, D2; try discriminate; reflexivity.
  - destruct D1 as [|d1 D1]; [discriminate|]. destruct D2 as [|d2 D2]; [discriminate|].
    simpl in HL1, HL2, E. injection HL1 as HL1. injection HL2 as HL2.
    pose proof (H1 O ltac:(simpl; lia)) as B1. pose proof (H2 O ltac:(simpl; lia)) as B2. simpl in B1, B2.
    assert (Er : recompA c D1 = recompA c D2).
    { destruct (Z.lt_total (recompA c D1) (recompA c D2)) as [Lt|[Eq|Gt]]; [nia|exact Eq|nia]. }
    assert (Ed : d1 = d2) by nia.
    subst d2. f_equal. apply IH.
    + split; [exact HL1|]. intros k Hk. apply (H1 (S k)). simpl. lia.
    + split; [exact HL2|]. intros k Hk. apply (H2 (S k)). simpl. lia.
    + exact Er.
Qed.

(** A digit vector that is 0 off the chain's positions is worth less than
    the chain's end [curr * size R]. *)
Lemma chain_value : forall f c curr D, chain_ok c -> 1 <= curr -> digits_ok c D ->
  (forall k, (k < length c)%nat -> ~ In k (chain_pos f c curr) -> nth k D 0 = 0) ->
  0 <= dotA c D <= curr * zsize (rinv_go f c curr) - curr.
Proof.
  induction f as [|f IH]; intros c curr D P Hc [HL HD] H0.
  - simpl in *. rewrite dotA_zero; [lia|exact HL|]. intros k Hk. apply H0; auto.
  - cbn [rinv_go chain_pos] in *.
    pose proof (pp_pos c curr 1 0) as PP.
    destruct (pp_find c curr 1) as [[m pp]|] eqn:E.
    2:{ simpl. rewrite dotA_zero; [lia|exact HL|]. intros k Hk. apply H0; auto. }
    destruct PP as [j0 [Ej Hn0]]. simpl in Ej. rewrite Ej in H0.
    destruct (pp_find_spec _ _ _ _ _ E) as [j [Hj [Hn [Hs [_ Hfirst]]]]].
    assert (Ejj : j0 = j).
    { destruct (Nat.lt_total j0 j) as [Lt|[Eq|Gt]]; [|exact Eq|].
      - exfalso. apply (Hfirst j0 Lt). rewrite Hn0. exact Hs.
      - exfalso. apply (pos_find_first c curr 0 j0 Ej j Gt). rewrite Hn. exact Hs. }
    subst j0.
    destruct (nth_in_chain c j P Hj) as [He1 He2]. rewrite Hn in He1, He2.
    set (D0 := set_nth j 0 D).
    assert (Ok0 : digits_ok c D0).
    { split; [unfold D0; rewrite length_set_nth; exact HL|].
      intros k Hk. unfold D0. destruct (Nat.eq_dec k j) as [->|Ne].
      - rewrite nth_set_nth_same by lia. rewrite Hn. lia.
      - rewrite nth_set_nth_other by exact Ne. apply HD, Hk. }
    destruct (IH c (zextent m * zstride m) D0 P ltac:(nia) Ok0) as [L0 U0].
    { intros k Hk Hn'. unfold D0. destruct (Nat.eq_dec k j) as [->|Ne].
      - apply nth_set_nth_same. lia.
      - rewrite nth_set_nth_other by exact Ne. apply H0; [exact Hk|].
        simpl. intros [Eq|In']; [lia|contradiction]. }
    rewrite (dotA_split c D j Hj HL). fold D0. rewrite Hn, Hs.
    pose proof (HD j Hj) as Bj. rewrite Hn in Bj.
    rewrite zsize_cons. cbn [zextent]. rewrite Hs in U0. nia.
Qed.

(** Coalescing keeps the strides [>= 0]. *)
Lemma bw_stepZ_nonneg : forall m acc, 0 <= zstride m -> Forall (fun m => 0 <= zstride m) acc ->
  Forall (fun m => 0 <= zstride m) (bw_stepZ m acc).
Proof.
  intros m acc Hm Ha. unfold bw_stepZ.
  destruct (zextent m =? 1); [exact Ha|].
  destruct acc as [|f [|g r]]; [repeat constructor; exact Hm| |].
  - inversion Ha; subst. destruct (zextent f =? 1); [repeat constructor; exact Hm|].
    destruct (zextent m * zstride m =? zstride f); repeat constructor; simpl; assumption.
  - inversion Ha; subst.
    destruct (zextent m * zstride m =? zstride f); repeat constructor; simpl; try assumption.
    all: inversion H2; assumption.
Qed.

Lemma coalesce_nonneg : forall L, Forall (fun m => 0 <= zstride m) L ->
  Forall (fun m => 0 <= zstride m) (rust_coalesceZ L).
Proof.
  intros L N. unfold rust_coalesceZ.
  destruct (rev L) as [|last rinit] eqn:E; [repeat constructor; simpl; lia|].
  assert (NR : Forall (fun m => 0 <= zstride m) (rev L)) by (apply Forall_rev, N).
  rewrite E in NR. inversion NR as [|? ? Nl Nr]; subst.
  assert (Nr' : Forall (fun m => 0 <= zstride m) (rev rinit)) by (apply Forall_rev, Nr).
  assert (F : Forall (fun m => 0 <= zstride m) (fold_right bw_stepZ [last] (rev rinit))).
  { induction (rev rinit) as [|x xs IH]; [repeat constructor; exact Nl|].
    inversion Nr'; subst. apply bw_stepZ_nonneg; [assumption|apply IH; assumption]. }
  unfold unit_fixupZ. destruct (fold_right bw_stepZ [last] (rev rinit)) as [|f [|g r]]; try exact F.
  destruct (zextent f =? 1); [repeat constructor; simpl; lia|exact F].
Qed.

Lemma find_nonzero : forall (D : list Z) n,
  (forall k, (k < n)%nat -> nth k D 0 = 0) \/ (exists k, (k < n)%nat /\ nth k D 0 <> 0).
Proof.
  intros D n. induction n as [|n IH]; [left; intros k Hk; lia|].
  destruct IH as [IH|[k [Hk Hn]]]; [|right; exists k; split; [lia|exact Hn]].
  destruct (Z.eq_dec (nth n D 0) 0) as [E|E].
  - left. intros k Hk. destruct (Nat.eq_dec k n) as [->|Ne]; [exact E|]. apply IH. lia.
  - right. exists n. split; [lia|exact E].
Qed.

Lemma existsb_not_in : forall l p, existsb (Nat.eqb p) l = false -> ~ In p l.
Proof.
  induction l as [|x l IH]; intros p H Hin; [destruct Hin|].
  simpl in H. apply orb_false_iff in H as [H1 H2]. destruct Hin as [<-|Hin].
  - rewrite Nat.eqb_refl in H1. discriminate.
  - exact (IH p H2 Hin).
Qed.

Lemma existsb_in : forall l p, ~ In p l -> existsb (Nat.eqb p) l = false.
Proof.
  induction l as [|x l IH]; intros p H; [reflexivity|]. simpl.
  apply orb_false_iff. split.
  - apply Nat.eqb_neq. intros <-. apply H. left. reflexivity.
  - apply IH. intros Hin. apply H. right. exact Hin.
Qed.

(** ** Maximality *)

(** For injective L with strides [>= 0], [size R] is not in L's image: no
    index of L's domain maps to it.  With [right_inverse_correct],
    [\[0, size R)] is the largest prefix of the image that starts at 0. *)
Theorem right_inverse_maximal : forall L, zpos L -> Forall (fun m => 0 <= zstride m) L ->
  (forall x y, 0 <= x < zsize L -> 0 <= y < zsize L -> zeval L x = zeval L y -> x = y) ->
  forall y, 0 <= y < zsize L -> zeval L y <> zsize (right_inverseZ L).
Proof.
  intros L P N Inj y Hy Ey.
  set (c := rust_coalesceZ L) in *.
  destruct (rust_coalesceZ_preserves_eval L P) as [Sz Ev]. fold c in Sz, Ev.
  assert (Pc : chain_ok c) by apply chain_ok_coalesce, P.
  assert (Pax : pos_ax c).
  { unfold pos_ax. eapply Forall_impl; [|exact Pc]. intros m [H _]. exact H. }
  assert (Nc : Forall (fun m => 0 <= zstride m) c) by apply coalesce_nonneg, N.
  set (f := length c).
  set (m := zsize (rinv_go f c 1)).
  assert (Hm1 : 1 <= m) by apply zsize_go_pos, Pc.
  assert (Em : zsize (right_inverseZ L) = m).
  { unfold right_inverseZ, m, f. fold c. destruct (rinv_go (length c) c 1); reflexivity. }
  rewrite Em in Ey.
  assert (InjD : forall D1 D2, digits_ok c D1 -> digits_ok c D2 -> dotA c D1 = dotA c D2 -> D1 = D2).
  { intros D1 D2 O1 O2 E. apply (recompA_inj c); try assumption.
    pose proof (recompA_range c D1 Pax O1). pose proof (recompA_range c D2 Pax O2).
    apply Inj; try lia. rewrite <- !Ev, !zeval_recompA by assumption. exact E. }
  assert (Z0ok : digits_ok c (repeat 0 (length c))).
  { split; [apply repeat_length|]. intros k Hk. rewrite nth_repeat_0.
    destruct (nth_in_chain c k Pc Hk). lia. }
  (* Every value below m is reached by digits on the chain's positions. *)
  assert (Reach : forall v, 0 <= v < m -> exists D', digits_ok c D' /\ dotA c D' = v /\
            forall k, ~ In k (chain_pos f c 1) -> nth k D' 0 = 0).
  { intros v Hv.
    destruct (rinv_go_spec f c 1 Pc ltac:(lia) v _ Hv Z0ok) as [D' [O' [_ [E' S']]]].
    { intros k _ _. apply nth_repeat_0. }
    exists D'. split; [exact O'|]. split; [rewrite dotA_zeros in E'; lia|].
    intros k Hk. rewrite S' by exact Hk. apply nth_repeat_0. }
  rewrite <- Sz in Hy.
  destruct (digits_exist c y Pax Hy) as [D [OD ED]].
  assert (HvD : dotA c D = m) by (rewrite <- zeval_recompA, ED, Ev by assumption; exact Ey).
  set (inl := fun k => existsb (Nat.eqb k) (chain_pos f c 1)).
  set (DJ := mask inl D 0). set (DO := mask (fun i => negb (inl i)) D 0).
  assert (Split : dotA c D = dotA c DJ + dotA c DO) by apply dotA_mask.
  assert (OJ : digits_ok c DJ) by apply digits_ok_mask, OD.
  assert (OO : digits_ok c DO) by apply digits_ok_mask, OD.
  assert (BJ : 0 <= dotA c DJ <= 1 * m - 1).
  { apply (chain_value f c 1 DJ Pc ltac:(lia) OJ). intros k _ Hk.
    unfold DJ. rewrite nth_mask. simpl. unfold inl. rewrite existsb_in by exact Hk. reflexivity. }
  assert (NonnegO : forall k, 0 <= nth k DO 0).
  { intros k. destruct (Nat.lt_ge_cases k (length c)) as [Hk|Hk].
    - destruct OO as [_ HO]. destruct (HO k Hk). lia.
    - destruct OO as [HLO _]. rewrite nth_overflow by lia. lia. }
  assert (BO : 1 <= dotA c DO <= m) by lia.
  destruct (find_nonzero DO (length c)) as [AllZ|[p [Hp Hnz]]].
  { rewrite dotA_zero in BO; [lia | apply OO | exact AllZ]. }
  assert (Hinl : inl p = false).
  { destruct (inl p) eqn:Ei; [|reflexivity]. exfalso. apply Hnz.
    unfold DO. rewrite nth_mask. simpl. rewrite Ei. reflexivity. }
  assert (Hnot : ~ In p (chain_pos f c 1)) by (apply existsb_not_in, Hinl).
  assert (Hdo : 1 <= nth p DO 0 < zextent (nth p c mode0)).
  { destruct OO as [_ HO]. pose proof (HO p Hp). pose proof (NonnegO p). lia. }
  destruct (Z.lt_ge_cases (dotA c DO) m) as [Lt|Ge].
  - (* Off the chain, DO's value is also reached on the chain. *)
    destruct (Reach (dotA c DO) ltac:(lia)) as [D' [O' [E' S']]].
    assert (DO = D') by (apply InjD; [exact OO|exact O'|lia]).
    subst D'. apply Hnz. apply S', Hnot.
  - (* DO's value is m: the stride at p is below m, reached on the chain too. *)
    assert (Np : 0 <= zstride (nth p c mode0)).
    { unfold c in Nc |- *. rewrite Forall_forall in Nc. apply Nc, nth_In, Hp. }
    pose proof (dotA_term c DO p Nc NonnegO) as T.
    assert (Hsp : zstride (nth p c mode0) <= m) by nia.
    assert (Hne : zstride (nth p c mode0) <> m).
    { pose proof (go_end f c 1 Pc ltac:(lia) ltac:(apply count_le_length) (nth p c mode0)
                    (nth_In _ _ Hp)) as G. fold m in G. lia. }
    destruct (Reach (zstride (nth p c mode0)) ltac:(lia)) as [D' [O' [E' S']]].
    set (Ep := set_nth p (nth p (repeat 0 (length c)) 0 + 1) (repeat 0 (length c))).
    assert (OE : digits_ok c Ep).
    { split; [unfold Ep; rewrite length_set_nth, repeat_length; reflexivity|].
      intros k Hk. unfold Ep. rewrite nth_repeat_0. destruct (Nat.eq_dec k p) as [->|Ne].
      - rewrite nth_set_nth_same by (rewrite repeat_length; exact Hp). lia.
      - rewrite nth_set_nth_other, nth_repeat_0 by exact Ne.
        destruct (nth_in_chain c k Pc Hk). lia. }
    assert (EE : dotA c Ep = zstride (nth p c mode0)).
    { unfold Ep. rewrite dotA_add by (try rewrite repeat_length; auto). rewrite dotA_zeros. lia. }
    assert (Ep = D') by (apply InjD; [exact OE|exact O'|lia]).
    subst D'. specialize (S' p Hnot). unfold Ep in S'.
    rewrite nth_set_nth_same in S' by (rewrite repeat_length; exact Hp).
    rewrite nth_repeat_0 in S'. lia.
Qed.

(** Both hypotheses are needed. *)
Example right_inverse_maximal_needs_injective :
  right_inverseZ [ZMode 2 1; ZMode 3 1] = [ZMode 2 1] /\ zeval [ZMode 2 1; ZMode 3 1] 3 = 2.
Proof. split; reflexivity. Qed.

Example right_inverse_maximal_needs_nonneg :
  right_inverseZ [ZMode 2 (-1); ZMode 2 2] = [ZMode 1 0] /\ zeval [ZMode 2 (-1); ZMode 2 2] 3 = 1.
Proof. split; reflexivity. Qed.

Close Scope Z_scope.
