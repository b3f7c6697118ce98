(** * Complement of any rank (issue 14, item 3, the direct half)

    [crates/tessera/src/algebra/complement.rs] complements a layout [A]
    (filtered: coalesced, no stride-0 mode) sorted by stride,
    [A = (s_0, ..., s_(n-1)) : (d_0, ..., d_(n-1))], that is tractable:
    [1 <= d_0], [1 <= s_i] and [s_i d_i] divides [d_(i+1)].  Its result is
    [C = (d_0, d_1/(s_0 d_0), ..., d_(n-1)/(s_(n-2) d_(n-2)), rest)
       : (1, s_0 d_0, ..., s_(n-2) d_(n-2), s_(n-1) d_(n-1))]
    (then coalesced, which keeps the function: [CoalesceImpl.v]), with
    [rest = ceil(cotarget / (s_(n-1) d_(n-1)))].

    Proved ([complement_tiles]): for tractable [A] and [rest >= 1],
    [(xa, xc) |-> A(xa) + C(xc)] maps [dom A x dom C] one to one onto
    [\[0, N)] with [N = s_(n-1) d_(n-1) * rest], and [N >= M] when
    [rest = ceil(M / (s_(n-1) d_(n-1)))] ([complement_covers_cotarget]);
    hence [A] and [C] meet only at 0, at the zero coordinates
    ([complement_disjoint]); and [C]'s strides increase
    ([complement_ordered]).  The proof interleaves the modes of [C] and [A]
    into one compact (column-major) layout.

    Not proved here: the converse (a non-tractable injective layout has no
    complement that tiles without holes). *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model.

(** The modes of [C] before [rest]; [p] is the reach so far. *)
Fixpoint comp_go (A : layout) (p : nat) : layout :=
  match A with
  | [] => []
  | m :: A' => Mode (stride m / p) p :: comp_go A' (stride m * extent m)
  end.

Fixpoint reach (A : layout) (p : nat) : nat :=
  match A with
  | [] => p
  | m :: A' => reach A' (stride m * extent m)
  end.

Definition complement_of (A : layout) (rest : nat) : layout :=
  comp_go A 1 ++ [Mode rest (reach A 1)].

Fixpoint tractable_from (A : layout) (p : nat) : Prop :=
  match A with
  | [] => True
  | m :: A' => 1 <= extent m /\ 1 <= stride m /\ Nat.divide p (stride m) /\
               tractable_from A' (stride m * extent m)
  end.

Definition tractable (A : layout) : Prop := tractable_from A 1.

(** ** The interleaved layout [(c_0, a_0, c_1, a_1, ..., c_n)] *)

Fixpoint inter (A : layout) (p rest : nat) : layout :=
  match A with
  | [] => [Mode rest p]
  | m :: A' => Mode (stride m / p) p :: m :: inter A' (stride m * extent m) rest
  end.

Fixpoint interleave (xa xc : list nat) : list nat :=
  match xa, xc with
  | a :: xa', c :: xc' => c :: a :: interleave xa' xc'
  | [], _ => xc
  | _ :: _, [] => []
  end.

Definition comp_from (A : layout) (p rest : nat) : layout :=
  comp_go A p ++ [Mode rest (reach A p)].

Lemma comp_from_cons : forall m A p rest,
  comp_from (m :: A) p rest = Mode (stride m / p) p :: comp_from A (stride m * extent m) rest.
Proof. reflexivity. Qed.

Lemma inter_eval : forall A p rest xa xc,
  length xa = length A -> length xc = S (length A) ->
  eval (inter A p rest) (interleave xa xc) = eval A xa + eval (comp_from A p rest) xc.
Proof.
  induction A as [|m A IH]; intros p rest xa xc La Lc.
  - destruct xa; [|discriminate]. destruct xc as [|c [|c' xc]]; try discriminate.
    simpl. lia.
  - destruct xa as [|a xa]; [discriminate|]. destruct xc as [|c xc]; [discriminate|].
    rewrite comp_from_cons. cbn [interleave eval inter].
    simpl in La, Lc. rewrite IH by lia. lia.
Qed.

Lemma domain_length : forall L xs, in_domain L xs -> length xs = length L.
Proof.
  induction L as [|m L IH]; intros [|x xs] H; simpl in *; try tauto.
  f_equal. apply IH. apply H.
Qed.

Lemma comp_from_length : forall A p rest, length (comp_from A p rest) = S (length A).
Proof.
  induction A as [|m A IH]; intros p rest; [reflexivity|].
  rewrite comp_from_cons. simpl. rewrite IH. reflexivity.
Qed.

Lemma inter_in_domain : forall A p rest xa xc,
  in_domain A xa -> in_domain (comp_from A p rest) xc ->
  in_domain (inter A p rest) (interleave xa xc).
Proof.
  induction A as [|m A IH]; intros p rest xa xc Ha Hc.
  - destruct xa; [|contradiction]. exact Hc.
  - destruct xa as [|a xa]; [contradiction|]. rewrite comp_from_cons in Hc.
    destruct xc as [|c xc]; [contradiction|].
    destruct Ha as [Ha Ha']. destruct Hc as [Hc Hc'].
    simpl. split; [exact Hc|]. split; [exact Ha|]. apply IH; assumption.
Qed.

Lemma inter_deinterleave : forall A p rest ys, in_domain (inter A p rest) ys ->
  exists xa xc, ys = interleave xa xc /\ in_domain A xa /\ in_domain (comp_from A p rest) xc.
Proof.
  induction A as [|m A IH]; intros p rest ys H.
  - exists [], ys. split; [reflexivity|]. split; [exact I|exact H].
  - destruct ys as [|c [|a ys]]; simpl in H; try tauto.
    destruct H as [Hc [Ha H]].
    destruct (IH _ _ _ H) as [xa [xc [E [Da Dc]]]].
    exists (a :: xa), (c :: xc). subst ys. split; [reflexivity|].
    split; [split; assumption|]. rewrite comp_from_cons. split; assumption.
Qed.

Lemma interleave_inj : forall A p rest xa xc ya yc,
  in_domain A xa -> in_domain (comp_from A p rest) xc ->
  in_domain A ya -> in_domain (comp_from A p rest) yc ->
  interleave xa xc = interleave ya yc -> xa = ya /\ xc = yc.
Proof.
  induction A as [|m A IH]; intros p rest xa xc ya yc Hxa Hxc Hya Hyc E.
  - destruct xa; [|contradiction]. destruct ya; [|contradiction]. auto.
  - destruct xa as [|a xa]; [contradiction|]. destruct ya as [|b ya]; [contradiction|].
    rewrite comp_from_cons in *.
    destruct xc as [|c xc]; [contradiction|]. destruct yc as [|e yc]; [contradiction|].
    simpl in E. injection E as E1 E2 E3. subst.
    destruct (IH _ _ _ _ _ _ (proj2 Hxa) (proj2 Hxc) (proj2 Hya) (proj2 Hyc) E3) as [-> ->].
    auto.
Qed.

(** ** Compactness *)

Fixpoint compact_from (L : layout) (p : nat) : Prop :=
  match L with
  | [] => True
  | m :: L' => stride m = p /\ compact_from L' (p * extent m)
  end.

Lemma compact_eval : forall L p xs, compact_from L p -> eval L xs = p * recompose L xs.
Proof.
  induction L as [|m L IH]; intros p xs H; destruct xs as [|x xs]; simpl in *; try lia.
  destruct H as [Hs H]. rewrite (IH _ xs H), Hs. nia.
Qed.

Lemma inter_compact : forall A p rest, 1 <= p -> tractable_from A p ->
  compact_from (inter A p rest) p.
Proof.
  induction A as [|m A IH]; intros p rest Hp H; simpl; [tauto|].
  destruct H as [He [Hd [[k Hk] H]]].
  assert (E : stride m / p = k) by (rewrite Hk; apply Nat.div_mul; lia).
  split; [reflexivity|]. rewrite E. split; [lia|].
  replace (p * k * extent m) with (stride m * extent m) by lia.
  apply IH; [nia | exact H].
Qed.

Lemma inter_size : forall A p rest, 1 <= p -> tractable_from A p ->
  p * size (inter A p rest) = reach A p * rest.
Proof.
  induction A as [|m A IH]; intros p rest Hp H; simpl; [lia|].
  destruct H as [He [Hd [[k Hk] H]]].
  assert (E : stride m / p = k) by (rewrite Hk; apply Nat.div_mul; lia).
  rewrite E. rewrite <- (IH (stride m * extent m) rest) by (try nia; exact H).
  rewrite Hk. nia.
Qed.

(** ** The theorem *)

Theorem complement_tiles : forall A rest, tractable A ->
  let C := complement_of A rest in
  let N := reach A 1 * rest in
  (forall xa xc, in_domain A xa -> in_domain C xc -> eval A xa + eval C xc < N) /\
  (forall xa xc ya yc, in_domain A xa -> in_domain C xc -> in_domain A ya -> in_domain C yc ->
     eval A xa + eval C xc = eval A ya + eval C yc -> xa = ya /\ xc = yc) /\
  (forall v, v < N -> exists xa xc, in_domain A xa /\ in_domain C xc /\ eval A xa + eval C xc = v).
Proof.
  intros A rest T C N.
  pose proof (inter_compact A 1 rest ltac:(lia) T) as K.
  pose proof (inter_size A 1 rest ltac:(lia) T) as S. rewrite Nat.mul_1_l in S.
  assert (Ev : forall xa xc, in_domain A xa -> in_domain C xc ->
            eval A xa + eval C xc = recompose (inter A 1 rest) (interleave xa xc)).
  { intros xa xc Ha Hc. unfold C, complement_of in *. fold (comp_from A 1 rest) in *.
    apply domain_length in Ha, Hc. rewrite comp_from_length in Hc.
    rewrite <- inter_eval, (compact_eval _ 1 _ K) by assumption. lia. }
  split; [|split].
  - intros xa xc Ha Hc. rewrite Ev by assumption. unfold N. rewrite <- S.
    apply recompose_bound, inter_in_domain; assumption.
  - intros xa xc ya yc Hxa Hxc Hya Hyc E. rewrite !Ev in E by assumption.
    apply (interleave_inj A 1 rest); try assumption.
    rewrite <- (digits_recompose _ _ (inter_in_domain A 1 rest xa xc Hxa Hxc)).
    rewrite <- (digits_recompose _ _ (inter_in_domain A 1 rest ya yc Hya Hyc)).
    rewrite E. reflexivity.
  - intros v Hv. unfold N in Hv. rewrite <- S in Hv.
    destruct (inter_deinterleave A 1 rest (digits (inter A 1 rest) v)
                (digits_in_domain _ _ Hv)) as [xa [xc [E [Da Dc]]]].
    exists xa, xc. split; [exact Da|]. split; [exact Dc|].
    rewrite Ev, <- E by assumption. apply recompose_digits. exact Hv.
Qed.

Lemma reach_pos : forall A p, 1 <= p -> Forall (fun m => 1 <= extent m) A ->
  tractable_from A p -> 1 <= reach A p.
Proof.
  induction A as [|m A IH]; intros p Hp P T; simpl in *; [exact Hp|].
  inversion P as [|? ? Pm P']; subst. destruct T as [He [Hd [_ T]]].
  apply IH; [nia | exact P' | exact T].
Qed.

(** With positive extents and [rest = ceil(M / reach)], the tiling covers
    the cotarget [M]. *)
Theorem complement_covers_cotarget : forall A M, tractable A ->
  Forall (fun m => 1 <= extent m) A ->
  M <= reach A 1 * ((M + reach A 1 - 1) / reach A 1).
Proof.
  intros A M T P.
  pose proof (reach_pos A 1 ltac:(lia) P T) as Hr.
  set (r := reach A 1) in *.
  pose proof (Nat.div_mod (M + r - 1) r ltac:(lia)).
  pose proof (Nat.mod_upper_bound (M + r - 1) r ltac:(lia)). nia.
Qed.

Fixpoint zeros (n : nat) : list nat := match n with O => [] | S n' => 0 :: zeros n' end.

Lemma zeros_in_domain : forall L, Forall (fun m => 1 <= extent m) L -> in_domain L (zeros (length L)).
Proof.
  induction L as [|m L IH]; intros P; simpl; [exact I|].
  inversion P; subst. split; [lia | apply IH; assumption].
Qed.

Lemma eval_zeros : forall L, eval L (zeros (length L)) = 0.
Proof. induction L as [|m L IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

Lemma comp_go_pos : forall A p, 1 <= p -> tractable_from A p ->
  Forall (fun m => 1 <= extent m) (comp_go A p).
Proof.
  induction A as [|m A IH]; intros p Hp T; simpl in *; [constructor|].
  destruct T as [He [Hd [[k Hk] T]]]. constructor.
  - simpl. rewrite Hk, Nat.div_mul by lia. nia.
  - apply IH; [nia | exact T].
Qed.

(** [A] and [C] meet only at offset 0, and only at the zero coordinates
    (rest >= 1, positive extents). *)
Theorem complement_disjoint : forall A rest xa xc, tractable A ->
  Forall (fun m => 1 <= extent m) A -> 1 <= rest ->
  in_domain A xa -> in_domain (complement_of A rest) xc ->
  eval A xa = eval (complement_of A rest) xc ->
  xa = zeros (length A) /\ xc = zeros (length (complement_of A rest)).
Proof.
  intros A rest xa xc T P Hr Ha Hc E.
  destruct (complement_tiles A rest T) as [_ [Inj _]].
  assert (PC : Forall (fun m => 1 <= extent m) (complement_of A rest)).
  { unfold complement_of. apply Forall_app. split; [|repeat constructor; simpl; lia].
    apply comp_go_pos; [lia | exact T]. }
  destruct (Inj xa (zeros (length (complement_of A rest))) (zeros (length A)) xc)
    as [E1 E2]; try assumption; try apply zeros_in_domain; try assumption.
  - rewrite !eval_zeros. lia.
  - split; [exact E1 | symmetry; exact E2].
Qed.

(** [C]'s strides never decrease: [1 <= s_0 d_0 <= s_1 d_1 <= ...]. *)
Fixpoint strides_sorted (L : layout) : Prop :=
  match L with
  | m1 :: ((m2 :: _) as L') => stride m1 <= stride m2 /\ strides_sorted L'
  | _ => True
  end.

Lemma comp_from_first_stride : forall A p rest,
  exists m L, comp_from A p rest = m :: L /\ stride m = p.
Proof.
  intros [|m A] p rest.
  - exists (Mode rest p), []. split; reflexivity.
  - rewrite comp_from_cons. eexists; eexists. split; reflexivity.
Qed.

Lemma comp_from_sorted : forall A p rest, 1 <= p -> tractable_from A p ->
  strides_sorted (comp_from A p rest).
Proof.
  induction A as [|m A IH]; intros p rest Hp T; [exact I|].
  rewrite comp_from_cons.
  destruct (comp_from_first_stride A (stride m * extent m) rest) as [m' [L [E Hs]]].
  destruct T as [He [Hd [[k Hk] T]]].
  assert (1 <= k) by (destruct k; simpl in Hk; lia).
  rewrite E. split.
  - rewrite Hs. cbn [stride]. rewrite Hk.
    assert (p <= k * p) by nia. assert (k * p <= k * p * extent m) by nia. lia.
  - rewrite <- E. apply IH; [nia | exact T].
Qed.

Theorem complement_ordered : forall A rest, tractable A -> strides_sorted (complement_of A rest).
Proof. intros A rest T. apply comp_from_sorted; [lia | exact T]. Qed.

(** Example: [A = (2,2):(1,6)], cotarget 24 (the doc example of
    [complement.rs]): [C = (1,3,2):(1,2,12)], which coalesces to
    [(3,2):(2,12)]. *)
Example complement_of_example :
  complement_of [Mode 2 1; Mode 2 6] ((24 + 12 - 1) / 12) = [Mode 1 1; Mode 3 2; Mode 2 12].
Proof. reflexivity. Qed.
