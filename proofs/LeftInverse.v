(** * The left inverse as Rust computes it (issue 28, item 2)

    [left_inverse] in [crates/tessera/src/algebra/inverse.rs], step for
    step ([left_inverse_body] and [left_inverse_modes]; its fast path
    [left_inverse_fast] runs the same steps on the same coalesced modes and
    the bridge compares both paths with this function):
    - coalesce L ([rust_coalesceZ]: the unique normal form, [CoalesceSignedNF.v]);
    - refuse a negative coalesced stride ([None]);
    - sort the mode indices by stride, stably ([by_stride]: insertion from
      the right, shifting past strictly larger strides);
    - walk them in that order, skipping stride 0: a stride [d] not divisible
      by the size so far refuses ([None]); otherwise push the mode
      [(d / size) : prev], then [prev] becomes the column-major place of the
      mode ([pp(i)], [place_of]) and [size] becomes [size * (d / size)];
    - push the last mode [(extent of the last index of the order) : prev];
    - every push goes through [push_coalesced] (drop an extent 1, merge
      [p] and [m] when [p.shape * p.stride = m.stride]); an empty result is
      [1:0].
    When the non-zero strides overlap in that order ([s_k * d_k > d_(k+1)],
    [left_inverse_overlaps]), Rust checks its postcondition by enumerating
    L's domain ([check_quasi_inverse]); otherwise it returns the modes
    unchecked, and that is the case proved here.

    Proved ([left_inverse_correct]): for every flat L with positive extents
    whose coalesced strides pass Rust's checks (no negative stride,
    divisibility) and do not overlap, [R = left_inverseZ L] satisfies
    [0 <= R(L(i)) < size L] and [L(R(L(i))) = L(i)] for every [i] in L's
    domain; for injective L, [R(L(i)) = i] ([left_inverse_injective]).
    The argument: [R(L(i))] reads the digit of each non-zero-stride mode
    back out of [L(i)] (a mixed-radix number in the sorted strides, no
    carries because the strides do not overlap) and puts it at the mode's
    column-major place; sums over Rust's sorted order equal sums over the
    modes because the order is a permutation ([by_stride_perm]). *)

From Coq Require Import Arith Lia List ZArith Bool Permutation.
Import ListNotations.
From Tessera Require Import Bridge CoalesceSigned CoalesceSignedNF Composition Product Inverse InverseMax.

Open Scope Z_scope.

(** ** Rust's steps *)

(** [by_stride]: the order, kept reversed ([rv]'s head is the array's last
    slot); index [i] enters at the end and moves left past every index with
    a strictly larger stride. *)
Fixpoint ins_r (c : list zmode) (i : nat) (rv : list nat) : list nat :=
  match rv with
  | [] => [i]
  | j :: rv' =>
      if zstride (nth i c mode0) <? zstride (nth j c mode0) then j :: ins_r c i rv' else i :: rv
  end.

Definition by_strideR (c : list zmode) : list nat :=
  fold_left (fun rv i => ins_r c i rv) (seq 0 (length c)) [].

Definition by_stride (c : list zmode) : list nat := rev (by_strideR c).

(** [left_inverse_modes]'s loop: the modes before the last push, and the
    final [prev]. *)
Fixpoint linv_loop (c : list zmode) (ord : list nat) (prev size : Z) : option (list zmode * Z) :=
  match ord with
  | [] => Some ([], prev)
  | i :: o =>
      let d := zstride (nth i c mode0) in
      if d =? 0 then linv_loop c o prev size
      else if d mod size =? 0 then
        match linv_loop c o (place_of i c) (size * (d / size)) with
        | Some (r, p) => Some (ZMode (d / size) prev :: r, p)
        | None => None
        end
      else None
  end.

(** [push_coalesced], on the result kept reversed (head = last mode). *)
Definition push (acc : list zmode) (m : zmode) : list zmode :=
  if zextent m =? 1 then acc
  else match acc with
       | p :: acc' =>
           if zextent p * zstride p =? zstride m
           then ZMode (zextent p * zextent m) (zstride p) :: acc'
           else m :: acc
       | [] => [m]
       end.

Definition pushed (ms : list zmode) : list zmode :=
  match rev (fold_left push ms []) with
  | [] => [ZMode 1 0]
  | r => r
  end.

Definition left_inverseZ (L : list zmode) : option (list zmode) :=
  let c := rust_coalesceZ L in
  if existsb (fun m => zstride m <? 0) c then None
  else
    let ord := by_stride c in
    match linv_loop c ord 0 1 with
    | Some (r, p) => Some (pushed (r ++ [ZMode (zextent (nth (last ord O) c mode0)) p]))
    | None => None
    end.

(** [strides_overlap]: consecutive non-zero strides [d < d'] (in the order)
    with [s * d > d'] ([pe] is [s * d] of the previous one, 0 before the
    first). *)
Fixpoint overlap_go (c : list zmode) (ord : list nat) (pe : Z) : bool :=
  match ord with
  | [] => false
  | i :: o =>
      let m := nth i c mode0 in
      if zstride m =? 0 then overlap_go c o pe
      else (zstride m <? pe) || overlap_go c o (zextent m * zstride m)
  end.

Definition left_inverse_overlaps (L : list zmode) : bool :=
  let c := rust_coalesceZ L in overlap_go c (by_stride c) 0.

(** ** Sums over an order of the modes *)

Definition sumf (f : nat -> Z) (l : list nat) : Z := fold_right (fun j acc => f j + acc) 0 l.

Lemma sumf_perm : forall f l1 l2, Permutation l1 l2 -> sumf f l1 = sumf f l2.
Proof.
  intros f l1 l2 H. induction H; simpl in *; lia.
Qed.

Lemma sumf_ext : forall f g l, (forall j, f j = g j) -> sumf f l = sumf g l.
Proof. intros f g l H. induction l as [|j l IH]; simpl; [reflexivity|]. rewrite H, IH. reflexivity. Qed.

Lemma sumf_shift : forall f a n, sumf f (seq (S a) n) = sumf (fun j => f (S j)) (seq a n).
Proof. intros f a n. revert a. induction n as [|n IH]; intros a; simpl; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma sumf_scale : forall f e l, sumf (fun j => e * f j) l = e * sumf f l.
Proof. intros f e l. induction l as [|j l IH]; simpl; [lia|]. rewrite IH. ring. Qed.

Lemma dotA_sumf : forall c D, length D = length c ->
  dotA c D = sumf (fun j => nth j D 0 * zstride (nth j c mode0)) (seq 0 (length c)).
Proof.
  induction c as [|m c IH]; intros [|d D] HL; simpl in *; try lia; try discriminate.
  rewrite sumf_shift. rewrite (IH D) by lia. reflexivity.
Qed.

Lemma recompA_sumf : forall c D, length D = length c ->
  recompA c D = sumf (fun j => nth j D 0 * place_of j c) (seq 0 (length c)).
Proof.
  induction c as [|m c IH]; intros [|d D] HL; simpl in *; try lia; try discriminate.
  rewrite sumf_shift. cbn beta.
  rewrite (sumf_ext _ (fun j => zextent m * (nth j D 0 * place_of j c))) by (intros j; simpl; ring).
  rewrite sumf_scale, (IH D) by lia. ring.
Qed.

(** ** The order is a permutation, its last index has the largest stride *)

Lemma ins_r_perm : forall c i rv, Permutation (i :: rv) (ins_r c i rv).
Proof.
  intros c i rv. induction rv as [|j rv IH]; simpl; [reflexivity|].
  destruct (_ <? _); [|reflexivity].
  eapply perm_trans; [apply perm_swap|]. apply perm_skip, IH.
Qed.

Lemma fold_ins_perm : forall c l acc,
  Permutation (fold_left (fun rv i => ins_r c i rv) l acc) (l ++ acc).
Proof.
  intros c l. induction l as [|i l IH]; intros acc; simpl; [reflexivity|].
  eapply perm_trans; [apply IH|].
  eapply perm_trans; [apply Permutation_app_head; apply Permutation_sym, ins_r_perm|].
  apply Permutation_sym, Permutation_middle.
Qed.

Lemma by_stride_perm : forall c, Permutation (seq 0 (length c)) (by_stride c).
Proof.
  intros c. unfold by_stride, by_strideR.
  eapply perm_trans; [|apply Permutation_rev].
  rewrite <- (app_nil_r (seq 0 (length c))) at 1. apply Permutation_sym, fold_ins_perm.
Qed.

Definition hd_max (c : list zmode) (rv : list nat) : Prop :=
  forall j, In j rv -> zstride (nth j c mode0) <= zstride (nth (hd O rv) c mode0).

Lemma ins_r_hd_max : forall c i rv, hd_max c rv -> hd_max c (ins_r c i rv).
Proof.
  intros c i [|j rv] H; unfold hd_max in *; simpl.
  - intros k [<-|[]]. lia.
  - destruct (Z.ltb_spec (zstride (nth i c mode0)) (zstride (nth j c mode0))) as [Lt|Ge]; simpl.
    + intros k [<-|Hk]; [apply H; left; reflexivity|].
      destruct (Permutation_in k (Permutation_sym (ins_r_perm c i rv)) Hk) as [<-|Hk'].
      * specialize (H j (or_introl eq_refl)). simpl in H. lia.
      * apply H. right. exact Hk'.
    + intros k [<-|Hk]; [lia|]. specialize (H k Hk). simpl in H. lia.
Qed.

Lemma by_strideR_hd_max : forall c, hd_max c (by_strideR c).
Proof.
  intros c. unfold by_strideR.
  assert (G : forall l acc, hd_max c acc -> hd_max c (fold_left (fun rv i => ins_r c i rv) l acc)).
  { intros l. induction l as [|i l IH]; intros acc H; simpl; [exact H|]. apply IH, ins_r_hd_max, H. }
  apply G. intros j [].
Qed.

Lemma last_rev_hd : forall (rv : list nat) d, rv <> [] -> last (rev rv) d = hd d rv.
Proof.
  intros [|x rv] d H; [contradiction|]. simpl. apply last_last.
Qed.

(** The last non-zero-stride index of an order ([dflt] if none). *)
Fixpoint lastnz (c : list zmode) (ord : list nat) (dflt : nat) : nat :=
  match ord with
  | [] => dflt
  | i :: o => lastnz c o (if zstride (nth i c mode0) =? 0 then dflt else i)
  end.

Definition has_nz (c : list zmode) (ord : list nat) : bool :=
  existsb (fun j => negb (zstride (nth j c mode0) =? 0)) ord.

Lemma lastnz_last : forall c ord dflt d, ord <> [] -> zstride (nth (last ord d) c mode0) <> 0 ->
  lastnz c ord dflt = last ord d.
Proof.
  intros c ord. induction ord as [|i o IH]; intros dflt d Hne H; [contradiction|].
  destruct o as [|j o].
  - simpl in *. apply Z.eqb_neq in H. rewrite H. reflexivity.
  - change (lastnz c (j :: o) (if zstride (nth i c mode0) =? 0 then dflt else i) = last (j :: o) d).
    apply IH; [discriminate|exact H].
Qed.

Lemma lastnz_none : forall c ord dflt, has_nz c ord = false -> lastnz c ord dflt = dflt.
Proof.
  intros c ord. induction ord as [|i o IH]; intros dflt H; [reflexivity|].
  unfold has_nz in H. simpl in H. apply Bool.orb_false_iff in H. destruct H as [H1 H2].
  apply Bool.negb_false_iff, Z.eqb_eq in H1. simpl. rewrite H1. simpl. apply IH, H2.
Qed.

(** ** Pushing keeps the function *)

Lemma zpos_app : forall X Y, zpos X -> zpos Y -> zpos (X ++ Y).
Proof. intros X Y HX HY. apply Forall_app. split; assumption. Qed.

Lemma zeval_app : forall X Y i, zpos X ->
  zeval (X ++ Y) i = zeval X i + zeval Y (i / zsize X).
Proof.
  induction X as [|m X IH]; intros Y i P; simpl.
  - rewrite Z.div_1_r. lia.
  - inversion P as [|? ? Pm PX]; subst. rewrite IH by exact PX.
    pose proof (zsize_pos X PX). rewrite Z.div_div by lia. lia.
Qed.

Lemma push_sound : forall acc m rest i, zpos (rev acc) -> 1 <= zextent m -> zpos rest ->
  zpos (rev (push acc m)) /\
  zeval (rev (push acc m) ++ rest) i = zeval (rev acc ++ m :: rest) i.
Proof.
  intros acc m rest i Pa Pm Pr. unfold push.
  destruct (Z.eqb_spec (zextent m) 1) as [E1|E1].
  { split; [exact Pa|]. rewrite !zeval_app by exact Pa. f_equal. simpl.
    rewrite E1, Z.mod_1_r, Z.div_1_r. lia. }
  destruct acc as [|p acc'].
  { simpl. split; [repeat constructor; exact Pm|reflexivity]. }
  simpl in Pa |- *. assert (Pp : 1 <= zextent p /\ zpos (rev acc')).
  { apply Forall_app in Pa. destruct Pa as [Pa' Pp]. inversion Pp. split; assumption. }
  destruct Pp as [Pp Pa'].
  destruct (Z.eqb_spec (zextent p * zstride p) (zstride m)) as [Em|Em]; simpl.
  - split; [apply zpos_app; [exact Pa'|repeat constructor; simpl; nia]|].
    rewrite <- !app_assoc. simpl. rewrite !zeval_app by exact Pa'. f_equal.
    assert (R : zrule (p :: m :: rest) (ZMode (zextent p * zextent m) (zstride p) :: rest))
      by (apply zrule_packed_merge; exact Em).
    destruct (zrule_sound _ _ R) as [_ [_ [_ He]]]; [repeat constructor; assumption|].
    apply He.
  - split; [apply zpos_app; [exact Pa|repeat constructor; exact Pm]|].
    rewrite <- !app_assoc. reflexivity.
Qed.

Lemma fold_push_sound : forall ms acc i, zpos (rev acc) -> zpos ms ->
  zpos (rev (fold_left push ms acc)) /\
  zeval (rev (fold_left push ms acc)) i = zeval (rev acc ++ ms) i.
Proof.
  induction ms as [|m ms IH]; intros acc i Pa Pms; simpl.
  - rewrite app_nil_r. split; [exact Pa|reflexivity].
  - inversion Pms as [|? ? Pm Pms']; subst.
    destruct (push_sound acc m ms i Pa Pm Pms') as [Pp Ep].
    destruct (IH (push acc m) i Pp Pms') as [P' E']. split; [exact P'|]. rewrite E', Ep. reflexivity.
Qed.

Lemma pushed_eval : forall ms i, zpos ms -> zeval (pushed ms) i = zeval ms i.
Proof.
  intros ms i P. destruct (fold_push_sound ms [] i ltac:(constructor) P) as [_ E].
  unfold pushed. destruct (rev (fold_left push ms [])) as [|m r] eqn:H.
  - simpl in E. rewrite <- E. simpl. rewrite Z.mod_1_r. lia.
  - rewrite E. reflexivity.
Qed.

(** ** The loop *)

Lemma nth_stride_nonneg : forall c j, Forall (fun m => 0 <= zstride m) c -> 0 <= zstride (nth j c mode0).
Proof.
  intros c j N. rewrite Forall_forall in N.
  destruct (nth_in_or_default j c mode0) as [H|H]; [apply N, H|rewrite H; simpl; lia].
Qed.

Lemma loop_pos : forall c ord prev size r p, Forall (fun m => 0 <= zstride m) c -> 1 <= size ->
  linv_loop c ord prev size = Some (r, p) -> zpos r.
Proof.
  intros c ord. induction ord as [|i o IH]; intros prev size r p N Hs H; simpl in H.
  - injection H as <- <-. constructor.
  - pose proof (nth_stride_nonneg c i N) as Nd.
    destruct (Z.eqb_spec (zstride (nth i c mode0)) 0) as [Z0|Z0]; [eapply IH; eassumption|].
    destruct (Z.eqb_spec (zstride (nth i c mode0) mod size) 0) as [M|M]; [|discriminate].
    destruct (linv_loop c o _ _) as [[r' p']|] eqn:E; [|discriminate]. injection H as <- <-.
    pose proof (Z_div_exact_full_2 (zstride (nth i c mode0)) size ltac:(lia) M) as Ex.
    constructor.
    + simpl. nia.
    + eapply IH; [exact N| |exact E]. nia.
Qed.

Lemma loop_div : forall c ord prev size r p, Forall (fun m => 0 <= zstride m) c -> 1 <= size ->
  linv_loop c ord prev size = Some (r, p) ->
  forall j, In j ord -> (size | zstride (nth j c mode0)).
Proof.
  intros c ord. induction ord as [|i o IH]; intros prev size r p N Hs H j Hj; [destruct Hj|].
  simpl in H. pose proof (nth_stride_nonneg c i N) as Nd.
  destruct (Z.eqb_spec (zstride (nth i c mode0)) 0) as [Z0|Z0].
  - destruct Hj as [<-|Hj]; [rewrite Z0; apply Z.divide_0_r|]. eapply IH; eassumption.
  - destruct (Z.eqb_spec (zstride (nth i c mode0) mod size) 0) as [M|M]; [|discriminate].
    destruct (linv_loop c o _ _) as [[r' p']|] eqn:E; [|discriminate].
    pose proof (Z_div_exact_full_2 (zstride (nth i c mode0)) size ltac:(lia) M) as Ex.
    assert (Di : (size | zstride (nth i c mode0))) by (apply Z.mod_divide; lia).
    destruct Hj as [<-|Hj]; [exact Di|].
    eapply Z.divide_trans; [exact Di|]. rewrite Ex at 1.
    eapply IH; [exact N| |exact E|exact Hj]. nia.
Qed.

Definition Vsum (c : list zmode) (D : list Z) : list nat -> Z :=
  sumf (fun j => nth j D 0 * zstride (nth j c mode0)).
Definition Wsum (c : list zmode) (D : list Z) : list nat -> Z :=
  sumf (fun j => nth j D 0 * place_of j c).

Lemma Vsum_div : forall c D ord s, (forall j, In j ord -> (s | zstride (nth j c mode0))) ->
  (s | Vsum c D ord).
Proof.
  intros c D ord s H. induction ord as [|i o IH]; simpl; [apply Z.divide_0_r|].
  apply Z.divide_add_r.
  - apply Z.divide_mul_r, H. left. reflexivity.
  - apply IH. intros j Hj. apply H. right. exact Hj.
Qed.

(** R reads each non-zero-stride digit back: [a0] is the digit carried in
    from the previous mode (its extent times its stride is at most the
    next stride, so it fits below it), [y] the rest of [L(i)] in units of
    [size]. *)
Lemma loop_eval : forall c D ord prev size pe a0 r p dflt E,
  Forall (fun m => 0 <= zstride m) c ->
  (forall j, 0 <= nth j D 0 < zextent (nth j c mode0)) ->
  (forall j, zstride (nth j c mode0) = 0 -> nth j D 0 = 0) ->
  linv_loop c ord prev size = Some (r, p) ->
  overlap_go c ord pe = false ->
  1 <= size -> 0 <= a0 -> a0 * size < Z.max pe 1 ->
  (if has_nz c ord then E = zextent (nth (lastnz c ord dflt) c mode0) else a0 = 0 \/ a0 < E) ->
  forall y, size * y = Vsum c D ord ->
  zeval (r ++ [ZMode E p]) (a0 + y) = a0 * prev + Wsum c D ord.
Proof.
  intros c D ord. induction ord as [|i o IH];
    intros prev size pe a0 r p dflt E N HD HZ H Ho Hs Ha0 Hpe HE y Hy.
  - simpl in H. injection H as <- <-. unfold Vsum, Wsum in *. simpl in *.
    assert (y = 0) by nia. subst y. rewrite Z.add_0_r. simpl.
    destruct HE as [->|HE]; [rewrite Zmod_0_l; lia|]. rewrite Z.mod_small by lia. lia.
  - pose proof (nth_stride_nonneg c i N) as Nd.
    simpl in H, Ho. unfold has_nz in HE. simpl in HE. fold (has_nz c o) in HE.
    unfold Vsum, Wsum in Hy |- *. simpl in Hy |- *. fold (Vsum c D o) in Hy. fold (Wsum c D o).
    destruct (Z.eqb_spec (zstride (nth i c mode0)) 0) as [Z0|Z0].
    + rewrite (HZ i Z0). simpl in HE. rewrite Z0 in Hy.
      rewrite (IH prev size pe a0 r p dflt E N HD HZ H Ho Hs Ha0 Hpe HE y) by lia. lia.
    + set (d := zstride (nth i c mode0)) in *.
      destruct (Z.eqb_spec (d mod size) 0) as [M|M]; [|discriminate].
      destruct (linv_loop c o (place_of i c) (size * (d / size))) as [[r' p']|] eqn:E'; [|discriminate].
      injection H as <- <-.
      apply Bool.orb_false_iff in Ho. destruct Ho as [Hlt Ho]. apply Z.ltb_ge in Hlt.
      pose proof (Z_div_exact_full_2 d size ltac:(lia) M) as Ex.
      set (s := d / size) in *.
      assert (Hsd : size * s = d) by lia.
      rewrite Hsd in E'.
      assert (Dv : (d | Vsum c D o)).
      { apply Vsum_div. eapply loop_div; [exact N| |exact E']. lia. }
      destruct Dv as [y' Hy'].
      pose proof (HD i) as Hi.
      assert (Hy2 : y = s * (nth i D 0 + y')).
      { apply (Z.mul_reg_l _ _ size); [lia|]. rewrite Hy, Hy'. fold d. nia. }
      assert (Ha : a0 < s) by (assert (a0 * size < d) by lia; nia).
      subst y. simpl.
      replace (a0 + s * (nth i D 0 + y')) with (a0 + (nth i D 0 + y') * s) by ring.
      rewrite Z.mod_add, Z.div_add by lia.
      rewrite Z.mod_small, Z.div_small by lia. rewrite Z.add_0_l.
      simpl in HE.
      assert (HE' : if has_nz c o then E = zextent (nth (lastnz c o i) c mode0)
                    else nth i D 0 = 0 \/ nth i D 0 < E).
      { destruct (has_nz c o) eqn:Hn; [exact HE|]. right. rewrite HE, lastnz_none by exact Hn. lia. }
      assert (Hp2 : nth i D 0 * d < Z.max (zextent (nth i c mode0) * d) 1) by nia.
      rewrite (IH (place_of i c) d (zextent (nth i c mode0) * d) (nth i D 0) r' p' i E N HD HZ E' Ho
                  ltac:(lia) ltac:(lia) Hp2 HE' y') by lia.
      ring.
Qed.

Lemma last_case : forall c, Forall (fun m => 0 <= zstride m) c ->
  has_nz c (by_stride c) = true -> lastnz c (by_stride c) O = last (by_stride c) O.
Proof.
  intros c N H. unfold has_nz in H. apply existsb_exists in H. destruct H as [j [Hj Hnz]].
  apply Bool.negb_true_iff, Z.eqb_neq in Hnz.
  assert (Hne : by_strideR c <> []) by (intros E; unfold by_stride in Hj; rewrite E in Hj; destruct Hj).
  apply lastnz_last; [unfold by_stride; intros E; apply Hne; rewrite <- (rev_involutive (by_strideR c)), E; reflexivity|].
  unfold by_stride. rewrite last_rev_hd by exact Hne.
  pose proof (by_strideR_hd_max c j (proj2 (in_rev _ _) Hj)) as Hm.
  pose proof (nth_stride_nonneg c j N). lia.
Qed.

(** ** The theorem *)

Fixpoint zero_nz (c : list zmode) (D : list Z) : list Z :=
  match c, D with
  | m :: c', d :: D' => (if zstride m =? 0 then 0 else d) :: zero_nz c' D'
  | _, _ => []
  end.

Lemma nth_zero_nz : forall c D j, length D = length c ->
  nth j (zero_nz c D) 0 = if zstride (nth j c mode0) =? 0 then 0 else nth j D 0.
Proof.
  induction c as [|m c IH]; intros [|d D] j HL; simpl in HL; try discriminate.
  - destruct j; reflexivity.
  - destruct j as [|j]; simpl; [reflexivity|]. apply IH. lia.
Qed.

Lemma length_zero_nz : forall c D, length D = length c -> length (zero_nz c D) = length c.
Proof. induction c as [|m c IH]; intros [|d D] HL; simpl in *; try discriminate; auto. Qed.

Theorem left_inverse_correct : forall L R, zpos L ->
  left_inverseZ L = Some R -> left_inverse_overlaps L = false ->
  forall i, 0 <= i < zsize L ->
  0 <= zeval R (zeval L i) < zsize L /\ zeval L (zeval R (zeval L i)) = zeval L i.
Proof.
  intros L R P HR Ho i Hi. unfold left_inverseZ, left_inverse_overlaps in *.
  set (c := rust_coalesceZ L) in *. set (ord := by_stride c) in *.
  destruct (existsb (fun m => zstride m <? 0) c) eqn:Neg; [discriminate|].
  destruct (linv_loop c ord 0 1) as [[r p]|] eqn:Hl; [|discriminate].
  injection HR as <-.
  assert (N : Forall (fun m => 0 <= zstride m) c).
  { apply Forall_forall. intros m Hm. destruct (Z.ltb_spec (zstride m) 0) as [Lt|Ge]; [|exact Ge].
    assert (existsb (fun m => zstride m <? 0) c = true) by (apply existsb_exists; exists m; split;
      [exact Hm|apply Z.ltb_lt, Lt]). congruence. }
  destruct (rust_coalesceZ_preserves_eval L P) as [Sz Ev]. fold c in Sz, Ev.
  pose proof (zpos_rust_coalesceZ L P) as Pc. fold c in Pc.
  assert (Pax : pos_ax c) by exact Pc.
  destruct (digits_exist c i Pax ltac:(lia)) as [D [[HL HDr] HrD]].
  set (D' := zero_nz c D).
  assert (HL' : length D' = length c) by (apply length_zero_nz, HL).
  assert (HD' : forall j, 0 <= nth j D' 0 < zextent (nth j c mode0)).
  { intros j. unfold D'. rewrite nth_zero_nz by exact HL.
    destruct (Nat.lt_ge_cases j (length c)) as [Hj|Hj].
    - pose proof (HDr j Hj).
      assert (1 <= zextent (nth j c mode0))
        by (unfold zpos in Pc; rewrite Forall_forall in Pc; apply Pc, nth_In, Hj).
      destruct (_ =? 0); lia.
    - rewrite nth_overflow with (l := c) by exact Hj. simpl. lia. }
  assert (HZ' : forall j, zstride (nth j c mode0) = 0 -> nth j D' 0 = 0).
  { intros j Z0. unfold D'. rewrite nth_zero_nz by exact HL. rewrite Z0. reflexivity. }
  assert (Ok' : digits_ok c D') by (split; [exact HL'|intros k _; apply HD']).
  (* L(i) in the sorted order, and back *)
  assert (Li : zeval L i = Vsum c D' ord).
  { rewrite <- Ev, <- HrD, zeval_recompA by (try exact Pax; split; assumption).
    rewrite dotA_sumf by exact HL. unfold Vsum, ord. rewrite <- (sumf_perm _ _ _ (by_stride_perm c)).
    apply sumf_ext. intros j. unfold D'. rewrite nth_zero_nz by exact HL. destruct (Z.eqb_spec (zstride (nth j c mode0)) 0) as [E|E].
    - rewrite E. ring.
    - reflexivity. }
  set (E := zextent (nth (last ord O) c mode0)).
  assert (HE : if has_nz c ord then E = zextent (nth (lastnz c ord O) c mode0) else 0 = 0 \/ 0 < E).
  { destruct (has_nz c ord) eqn:Hnz; [|left; reflexivity].
    unfold E, ord. rewrite (last_case c N Hnz). reflexivity. }
  assert (Back : zeval (pushed (r ++ [ZMode E p])) (zeval L i) = recompA c D').
  { rewrite pushed_eval.
    2:{ apply zpos_app; [eapply loop_pos; [exact N| |exact Hl]; lia|].
        repeat constructor. simpl. unfold E. destruct (nth_in_or_default (last ord O) c mode0) as [H|H].
        - unfold zpos in Pc; rewrite Forall_forall in Pc; apply Pc, H.
        - rewrite H. simpl. lia. }
    rewrite Li, <- (Z.add_0_l (Vsum c D' ord)).
    rewrite (loop_eval c D' ord 0 1 0 0 r p O E N HD' HZ' Hl Ho) by first [exact HE | lia].
    rewrite recompA_sumf by exact HL'. unfold Wsum, ord.
    rewrite <- (sumf_perm _ _ _ (by_stride_perm c)). lia. }
  fold E. rewrite Back. rewrite <- Sz.
  split; [apply recompA_range; assumption|].
  rewrite <- (Ev (recompA c D')), zeval_recompA by assumption. rewrite Li.
  rewrite dotA_sumf by exact HL'. unfold Vsum, ord.
  rewrite <- (sumf_perm _ _ _ (by_stride_perm c)). reflexivity.
Qed.

Corollary left_inverse_injective : forall L R, zpos L ->
  left_inverseZ L = Some R -> left_inverse_overlaps L = false ->
  (forall i j, 0 <= i < zsize L -> 0 <= j < zsize L -> zeval L i = zeval L j -> i = j) ->
  forall i, 0 <= i < zsize L -> zeval R (zeval L i) = i.
Proof.
  intros L R P HR Ho Inj i Hi.
  destruct (left_inverse_correct L R P HR Ho i Hi) as [Hr He]. apply Inj; assumption.
Qed.

(** ** Injective layouts never reach Rust's enumeration

    When the walk accepts (every non-zero stride divisible by the one
    before it) but two consecutive non-zero strides overlap ([d' < s * d]
    with [d | d']), the digit [d' / d] of the first mode and the digit 1
    of the second give the same value: L is not injective.  So for an
    injective L, [left_inverse_correct] covers every result Rust returns,
    and Rust's enumeration ([check_quasi_inverse]) only runs on layouts that
    are not injective. *)

Lemma overlap_pair : forall c ord prev size pe r p,
  Forall (fun m => 0 <= zstride m) c -> NoDup ord -> 1 <= size ->
  linv_loop c ord prev size = Some (r, p) -> overlap_go c ord pe = true ->
  (pe = 0 \/ exists k, pe = zextent (nth k c mode0) * zstride (nth k c mode0) /\
                       size = zstride (nth k c mode0) /\ ~ In k ord /\ zstride (nth k c mode0) <> 0) ->
  exists k k', k <> k' /\ zstride (nth k c mode0) <> 0 /\ zstride (nth k' c mode0) <> 0 /\
    (zstride (nth k c mode0) | zstride (nth k' c mode0)) /\
    zstride (nth k' c mode0) < zextent (nth k c mode0) * zstride (nth k c mode0).
Proof.
  intros c ord. induction ord as [|i o IH]; intros prev size pe r p N ND Hs H Ho Hpe; [discriminate|].
  inversion ND as [|? ? Ni ND']; subst.
  pose proof (nth_stride_nonneg c i N) as Nd.
  simpl in H, Ho.
  destruct (Z.eqb_spec (zstride (nth i c mode0)) 0) as [Z0|Z0].
  - eapply IH; [exact N|exact ND'|exact Hs|exact H|exact Ho|].
    destruct Hpe as [->|[k [H1 [H2 [H3 H4]]]]]; [left; reflexivity|].
    right. exists k. split; [exact H1|]. split; [exact H2|]. split; [|exact H4].
    intros Hk. apply H3. right. exact Hk.
  - set (d := zstride (nth i c mode0)) in *.
    destruct (Z.eqb_spec (d mod size) 0) as [M|M]; [|discriminate].
    destruct (linv_loop c o (place_of i c) (size * (d / size))) as [[r' p']|] eqn:E'; [|discriminate].
    pose proof (Z_div_exact_full_2 d size ltac:(lia) M) as Ex.
    apply Bool.orb_true_iff in Ho. destruct Ho as [Lt|Ho].
    + apply Z.ltb_lt in Lt. destruct Hpe as [->|[k [H1 [H2 [H3 H4]]]]]; [lia|].
      exists k, i. split; [intros ->; apply H3; left; reflexivity|].
      split; [exact H4|]. split; [exact Z0|]. split; [|lia].
      rewrite <- H2. apply (proj1 (Z.mod_divide d size ltac:(lia))). exact M.
    + rewrite <- Ex in E'.
      eapply IH; [exact N|exact ND'| |exact E'|exact Ho|]; [lia|].
      right. exists i. split; [reflexivity|]. split; [reflexivity|]. split; [exact Ni|exact Z0].
Qed.

Lemma digits_single : forall c k v, (k < length c)%nat -> 0 <= v < zextent (nth k c mode0) ->
  pos_ax c ->
  digits_ok c (set_nth k v (repeat 0 (length c))) /\
  dotA c (set_nth k v (repeat 0 (length c))) = v * zstride (nth k c mode0).
Proof.
  intros c k v Hk Hv P.
  assert (HL : length (repeat 0 (length c)) = length c) by apply repeat_length.
  split.
  - split; [rewrite length_set_nth; exact HL|]. intros j Hj.
    destruct (Nat.eq_dec j k) as [->|Ne].
    + rewrite nth_set_nth_same by lia. exact Hv.
    + rewrite nth_set_nth_other by exact Ne. rewrite nth_repeat_0.
      assert (1 <= zextent (nth j c mode0))
        by (unfold pos_ax in P; rewrite Forall_forall in P; apply P, nth_In, Hj). lia.
  - pose proof (dotA_add c (repeat 0 (length c)) k v Hk HL) as E.
    rewrite nth_repeat_0, Z.add_0_l, dotA_zeros in E. lia.
Qed.

Theorem left_inverse_injective_no_overlap : forall L R, zpos L ->
  left_inverseZ L = Some R ->
  (forall i j, 0 <= i < zsize L -> 0 <= j < zsize L -> zeval L i = zeval L j -> i = j) ->
  left_inverse_overlaps L = false.
Proof.
  intros L R P HR Inj. unfold left_inverseZ, left_inverse_overlaps in *.
  set (c := rust_coalesceZ L) in *. set (ord := by_stride c) in *.
  destruct (existsb (fun m => zstride m <? 0) c) eqn:Neg; [discriminate|].
  destruct (linv_loop c ord 0 1) as [[r p]|] eqn:Hl; [|discriminate].
  assert (N : Forall (fun m => 0 <= zstride m) c).
  { apply Forall_forall. intros m Hm. destruct (Z.ltb_spec (zstride m) 0) as [Lt|Ge]; [|exact Ge].
    assert (existsb (fun m => zstride m <? 0) c = true) by (apply existsb_exists; exists m; split;
      [exact Hm|apply Z.ltb_lt, Lt]). congruence. }
  destruct (overlap_go c ord 0) eqn:Ho; [|reflexivity]. exfalso.
  assert (ND : NoDup ord)
    by (eapply Permutation_NoDup; [apply by_stride_perm|apply seq_NoDup]).
  destruct (overlap_pair c ord 0 1 0 r p N ND ltac:(lia) Hl Ho (or_introl eq_refl))
    as [k [k' [Ne [Zk [Zk' [[q Hq] Lt]]]]]].
  destruct (rust_coalesceZ_preserves_eval L P) as [Sz Ev]. fold c in Sz, Ev.
  pose proof (zpos_rust_coalesceZ L P) as Pc. fold c in Pc.
  assert (Pax : pos_ax c) by exact Pc.
  assert (In_c : forall j, zstride (nth j c mode0) <> 0 -> (j < length c)%nat).
  { intros j Hj. destruct (Nat.lt_ge_cases j (length c)) as [H|H]; [exact H|].
    rewrite nth_overflow in Hj by exact H. simpl in Hj. lia. }
  pose proof (In_c k Zk) as Hk. pose proof (In_c k' Zk') as Hk'.
  pose proof (nth_stride_nonneg c k N). pose proof (nth_stride_nonneg c k' N).
  assert (He' : 2 <= zextent (nth k' c mode0)).
  { destruct (nth_in_chain c k' (chain_ok_coalesce L P) Hk'). lia. }
  assert (Hq1 : 1 <= q < zextent (nth k c mode0)) by nia.
  destruct (digits_single c k q Hk ltac:(lia) Pax) as [Ok1 D1].
  destruct (digits_single c k' 1 Hk' ltac:(lia) Pax) as [Ok2 D2].
  set (D1v := set_nth k q (repeat 0 (length c))) in *.
  set (D2v := set_nth k' 1 (repeat 0 (length c))) in *.
  assert (Same : recompA c D1v = recompA c D2v).
  { pose proof (recompA_range c D1v Pax Ok1). pose proof (recompA_range c D2v Pax Ok2).
    apply Inj; [lia|lia|]. rewrite <- !Ev, !zeval_recompA by assumption. rewrite D1, D2. lia. }
  pose proof (recompA_inj c D1v D2v Ok1 Ok2 Same) as EqD.
  assert (nth k D1v 0 = nth k D2v 0) by (rewrite EqD; reflexivity).
  unfold D1v, D2v in H1. rewrite nth_set_nth_same in H1 by (rewrite repeat_length; exact Hk).
  rewrite nth_set_nth_other, nth_repeat_0 in H1 by exact Ne. lia.
Qed.

(** For injective L, whatever [left_inverseZ] returns inverts L on its
    domain; Rust returns it without enumerating. *)
Corollary left_inverse_of_injective : forall L R, zpos L ->
  left_inverseZ L = Some R ->
  (forall i j, 0 <= i < zsize L -> 0 <= j < zsize L -> zeval L i = zeval L j -> i = j) ->
  forall i, 0 <= i < zsize L -> zeval R (zeval L i) = i.
Proof.
  intros L R P HR Inj. apply left_inverse_injective; try assumption.
  eapply left_inverse_injective_no_overlap; eassumption.
Qed.

Close Scope Z_scope.
