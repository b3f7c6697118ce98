(** * The kernel checker's verdicts, continued (issue 28, item 4)

    Two more decisions of [tessera check]
    ([crates/tessera/src/check/rules.rs]), with [Check.v]'s style: the
    test Rust runs, proved equivalent to enumerating what it decides.

    ** SM90 TMA boxes with multicast ([coverage], [multicast])

    On SM90 an operand's stage tile ([ext] rows of A's [tm] or B's [tn],
    by the tile's K) is loaded by TMA.  With a cluster of [f] CTAs along
    the multicast dimension (cluster N for A, cluster M for B) the [f] CTAs
    that need the same tile split it: CTA [s] of the group loads the box of
    rows [\[s q, s q + q)] with [q = floor(ext / f)] (the slice, rounded
    down as an integer box extent is) and all K columns, and multicasts it
    to every CTA of the group.  So each CTA's smem tile receives, from
    source [s], row [r < q] and column [k < tk], the element
    [(s q + r, k)].  Rust runs [multicast_covers ext f]:
    [f > 0 && ext % f == 0 && ext / f > 0] (the [multicast] obligation
    refutes its negation for [f > 1]; [coverage] states each operand's
    boxes cover its tile once only when it holds).

    Proved ([box_decision_iff]): for positive [ext], [f], [tk], the test
    holds exactly when, in every CTA of the group, the boxes write every
    element of the tile exactly once; where it fails, row [f q] (Rust's
    witness [ext = q·f + r]) is written by no box ([box_witness]).

    ** The K loop of a TiledMma ([tile_mma])

    The TiledMma's K step is [k · ak] (the atom's K times the atom layout's
    K): in each step [s] of the K loop (rounded down,
    [s < floor(tk / (k ak))]), atom [a < ak] consumes the K slices
    [\[s (k ak) + a k, s (k ak) + a k + k)] (CuTe's TiledMma tiles K by
    the atom's K, then by the atom layout).  Rust runs
    [tiled_extent_covers tk k ak]: [k·ak > 0 && tk % (k·ak) == 0] (the same
    function decides M and N).  Proved ([k_decision_iff]): for positive
    [tk], [k], [ak], the test holds exactly when every [kk < tk] is consumed
    by exactly one (step, atom, atom slice) and nothing outside [\[0, tk)]
    is; where it fails, slice [floor(tk / (k ak)) · k ak] (Rust's witness:
    the remainder's first slice) is consumed by nobody ([k_witness]). *)

From Coq Require Import Arith Lia ZArith Bool List.
From Coq Require FinFun.
From Tessera Require Check.
Import ListNotations.

Open Scope Z_scope.

(** ** SM90 boxes *)

Definition box_decision (ext f : Z) : bool := (0 <? f) && (ext mod f =? 0) && (0 <? ext / f).

(** Source CTA [s] of the group, row [r] of its box, column [k]. *)
Definition bdom (ext f tk s r k : Z) : Prop := 0 <= s < f /\ 0 <= r < ext / f /\ 0 <= k < tk.
Definition brow (ext f s r : Z) : Z := s * (ext / f) + r.

(** Every CTA [d] of the multicast group receives every source's box (the
    multicast mask is the whole group), so the writes into CTA [d]'s tile
    are the same map for every [d]: inside the [ext x tk] tile, one to one,
    onto. *)
Definition box_once (ext f tk : Z) : Prop :=
  forall d, 0 <= d < f ->
  (forall s r k, bdom ext f tk s r k -> 0 <= brow ext f s r < ext /\ 0 <= k < tk) /\
  (forall s r k s' r' k', bdom ext f tk s r k -> bdom ext f tk s' r' k' ->
     brow ext f s r = brow ext f s' r' -> k = k' -> s = s' /\ r = r' /\ k = k') /\
  (forall x y, 0 <= x < ext -> 0 <= y < tk -> exists s r k,
     bdom ext f tk s r k /\ brow ext f s r = x /\ k = y).

Theorem box_decision_sound : forall ext f tk, 1 <= ext -> 1 <= f -> 1 <= tk ->
  box_decision ext f = true -> box_once ext f tk.
Proof.
  intros ext f tk He Hf Ht D. unfold box_decision in D.
  apply andb_true_iff in D. destruct D as [D Dq]. apply andb_true_iff in D. destruct D as [_ Dm].
  apply Z.eqb_eq in Dm. apply Z.ltb_lt in Dq.
  pose proof (Z_div_exact_full_2 ext f ltac:(lia) Dm) as E.
  intros d Hd. unfold bdom, brow. set (q := ext / f) in *.
  split; [|split].
  - intros s r k [Hs [Hr Hk]].
    assert (s * q <= (f - 1) * q) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (0 <= s * q) by nia. split; [lia|exact Hk].
  - intros s r k s' r' k' [Hs [Hr Hk]] [Hs' [Hr' Hk']] Er Ek.
    destruct (Check.decomp s r s' r' q) as [E1 E2]; [lia|lia|exact Er|]. lia.
  - intros x y Hx Hy. exists (x / q), (x mod q), y.
    pose proof (Z.mod_pos_bound x q ltac:(lia)).
    split; [|split; [|reflexivity]].
    + split; [|split; [lia|lia]].
      split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia.
    + pose proof (Z_div_mod_eq_full x q). lia.
Qed.

(** Where the test fails, row [f · floor(ext / f)] of the tile is inside it
    and written by no box. *)
Theorem box_witness : forall ext f tk, 1 <= ext -> 1 <= f ->
  box_decision ext f = false ->
  0 <= f * (ext / f) < ext /\
  (forall s r k, bdom ext f tk s r k -> brow ext f s r <> f * (ext / f)).
Proof.
  intros ext f tk He Hf D. unfold box_decision in D.
  pose proof (Z_div_mod_eq_full ext f) as E. pose proof (Z.mod_pos_bound ext f ltac:(lia)) as M.
  assert (Q0 : 0 <= ext / f) by (apply Z.div_pos; lia).
  assert (Lt : f * (ext / f) < ext).
  { destruct (Z.eq_dec (ext mod f) 0) as [Z0|Z0]; [|lia].
    assert (Hq : ext / f = 0).
    { destruct (Z.eq_dec (ext / f) 0) as [->|N]; [reflexivity|exfalso].
      rewrite Z0 in D. replace (0 <? f) with true in D by (symmetry; apply Z.ltb_lt; lia).
      replace (0 mod f =? 0) with true in D by (rewrite Z.mod_0_l by lia; reflexivity).
      simpl in D. apply Z.ltb_ge in D. lia. }
    rewrite Hq in E. lia. }
  split; [nia|].
  intros s r k [Hs [Hr Hk]]. unfold brow.
  assert (s * (ext / f) <= (f - 1) * (ext / f)) by (apply Z.mul_le_mono_nonneg_r; lia). nia.
Qed.

Theorem box_decision_complete : forall ext f tk, 1 <= ext -> 1 <= f -> 1 <= tk ->
  box_once ext f tk -> box_decision ext f = true.
Proof.
  intros ext f tk He Hf Ht O.
  destruct (box_decision ext f) eqn:D; [reflexivity|exfalso].
  destruct (box_witness ext f tk He Hf D) as [Hin Nobody].
  destruct (O 0 ltac:(lia)) as [_ [_ Onto]].
  destruct (Onto (f * (ext / f)) 0 Hin ltac:(lia)) as [s [r [k [Hd [Er _]]]]].
  exact (Nobody s r k Hd Er).
Qed.

Corollary box_decision_iff : forall ext f tk, 1 <= ext -> 1 <= f -> 1 <= tk ->
  box_decision ext f = true <-> box_once ext f tk.
Proof.
  intros. split; [apply box_decision_sound | apply box_decision_complete]; assumption.
Qed.

(** ** The K loop *)

Definition k_decision (tk k ak : Z) : bool := (0 <? k * ak) && (tk mod (k * ak) =? 0).

(** Step [s] of the K loop, atom [a] of the atom layout's K, slice [j] of
    the atom's K. *)
Definition kdom (tk k ak s a j : Z) : Prop :=
  0 <= s < tk / (k * ak) /\ 0 <= a < ak /\ 0 <= j < k.
Definition kidx (k ak s a j : Z) : Z := s * (k * ak) + a * k + j.

Definition k_once (tk k ak : Z) : Prop :=
  (forall s a j, kdom tk k ak s a j -> 0 <= kidx k ak s a j < tk) /\
  (forall s a j s' a' j', kdom tk k ak s a j -> kdom tk k ak s' a' j' ->
     kidx k ak s a j = kidx k ak s' a' j' -> s = s' /\ a = a' /\ j = j') /\
  (forall kk, 0 <= kk < tk -> exists s a j, kdom tk k ak s a j /\ kidx k ak s a j = kk).

Lemma kidx_range : forall tk k ak s a j, 1 <= k -> 1 <= ak -> kdom tk k ak s a j ->
  0 <= kidx k ak s a j < (s + 1) * (k * ak).
Proof.
  intros tk k ak s a j Hk Ha [Hs [Hav Hj]]. unfold kidx.
  assert (a * k <= (ak - 1) * k) by (apply Z.mul_le_mono_nonneg_r; lia).
  assert (0 <= a * k) by nia. assert (0 <= s * (k * ak)) by nia. nia.
Qed.

Theorem k_decision_sound : forall tk k ak, 1 <= tk -> 1 <= k -> 1 <= ak ->
  k_decision tk k ak = true -> k_once tk k ak.
Proof.
  intros tk k ak Ht Hk Ha D. unfold k_decision in D.
  apply andb_true_iff in D. destruct D as [_ Dm]. apply Z.eqb_eq in Dm.
  pose proof (Z_div_exact_full_2 tk (k * ak) ltac:(nia) Dm) as E.
  set (n := tk / (k * ak)) in *.
  split; [|split].
  - intros s a j Hd. pose proof (kidx_range tk k ak s a j Hk Ha Hd) as R.
    destruct Hd as [Hs _]. fold n in Hs.
    assert ((s + 1) * (k * ak) <= n * (k * ak)) by (apply Z.mul_le_mono_nonneg_r; nia). lia.
  - intros s a j s' a' j' [Hs [Hav Hj]] [Hs' [Hav' Hj']] Eq. unfold kidx in Eq.
    assert (B : 0 <= a * k + j < k * ak) by nia. assert (B' : 0 <= a' * k + j' < k * ak) by nia.
    rewrite <- !Z.add_assoc in Eq.
    destruct (Check.decomp s (a * k + j) s' (a' * k + j') (k * ak)) as [E1 E2]; [lia|lia|exact Eq|].
    destruct (Check.decomp a j a' j' k) as [E3 E4]; [lia|lia|exact E2|]. lia.
  - intros kk Hkk. exists (kk / (k * ak)), ((kk mod (k * ak)) / k), ((kk mod (k * ak)) mod k).
    pose proof (Z.mod_pos_bound kk (k * ak) ltac:(nia)) as M1.
    pose proof (Z.mod_pos_bound (kk mod (k * ak)) k ltac:(lia)) as M2.
    split.
    + split; [split; [apply Z.div_pos; nia|apply Z.div_lt_upper_bound; nia]|].
      split; [split; [apply Z.div_pos; lia|apply Z.div_lt_upper_bound; nia]|exact M2].
    + unfold kidx. pose proof (Z_div_mod_eq_full kk (k * ak)).
      pose proof (Z_div_mod_eq_full (kk mod (k * ak)) k). lia.
Qed.

(** Where the test fails, slice [floor(tk / (k ak)) · k ak] is inside
    [\[0, tk)] and consumed by nobody. *)
Theorem k_witness : forall tk k ak, 1 <= tk -> 1 <= k -> 1 <= ak ->
  k_decision tk k ak = false ->
  0 <= tk / (k * ak) * (k * ak) < tk /\
  (forall s a j, kdom tk k ak s a j -> kidx k ak s a j <> tk / (k * ak) * (k * ak)).
Proof.
  intros tk k ak Ht Hk Ha D. unfold k_decision in D.
  replace (0 <? k * ak) with true in D by (symmetry; apply Z.ltb_lt; nia). simpl in D.
  apply Z.eqb_neq in D.
  pose proof (Z_div_mod_eq_full tk (k * ak)) as E. pose proof (Z.mod_pos_bound tk (k * ak) ltac:(nia)).
  assert (0 <= tk / (k * ak)) by (apply Z.div_pos; nia).
  split; [nia|].
  intros s a j Hd Eq. pose proof (kidx_range tk k ak s a j Hk Ha Hd) as R.
  destruct Hd as [Hs _].
  assert ((s + 1) * (k * ak) <= tk / (k * ak) * (k * ak)) by (apply Z.mul_le_mono_nonneg_r; nia).
  lia.
Qed.

Theorem k_decision_complete : forall tk k ak, 1 <= tk -> 1 <= k -> 1 <= ak ->
  k_once tk k ak -> k_decision tk k ak = true.
Proof.
  intros tk k ak Ht Hk Ha [_ [_ Onto]].
  destruct (k_decision tk k ak) eqn:D; [reflexivity|exfalso].
  destruct (k_witness tk k ak Ht Hk Ha D) as [Hin Nobody].
  destruct (Onto _ Hin) as [s [a [j [Hd Eq]]]]. exact (Nobody s a j Hd Eq).
Qed.

Corollary k_decision_iff : forall tk k ak, 1 <= tk -> 1 <= k -> 1 <= ak ->
  k_decision tk k ak = true <-> k_once tk k ak.
Proof.
  intros. split; [apply k_decision_sound | apply k_decision_complete]; assumption.
Qed.

(** ** The pipeline's counts ([pipeline])

    The checker states, for SM90, that each stage's full barrier expects
    the A and B bytes of a stage and that its empty barrier expects
    [(cluster M + cluster N - 1) x consumers] arrivals.  The first is the
    count of the boxes' writes into a CTA's tile when the multicast test
    holds ([box_writes]: [f * floor(ext / f) * tk = ext * tk] elements).
    The second counts the CTAs whose consumers release a stage that CTA
    [(x, y)]'s loads fill: its A slice is multicast along its cluster row,
    its B slice along its column, so the CTAs [(i, j)] of the [cm x cn]
    cluster with [i = x] or [j = y] ([cross_count]: [cm + cn - 1]). *)

Theorem box_writes : forall ext f tk, 1 <= ext -> 1 <= f ->
  box_decision ext f = true -> f * (ext / f) * tk = ext * tk.
Proof.
  intros ext f tk He Hf D. unfold box_decision in D.
  apply andb_true_iff in D. destruct D as [D _]. apply andb_true_iff in D. destruct D as [_ Dm].
  apply Z.eqb_eq in Dm. rewrite <- (Z_div_exact_full_2 ext f ltac:(lia) Dm). reflexivity.
Qed.

Definition cseq (n : Z) : list Z := map Z.of_nat (seq 0 (Z.to_nat n)).

Definition cross_count (cm cn x y : Z) : Z :=
  Z.of_nat (length (filter (fun p => (fst p =? x) || (snd p =? y))
                      (list_prod (cseq cm) (cseq cn)))).

Lemma cseq_nodup : forall n, NoDup (cseq n).
Proof.
  intros n. unfold cseq. apply FinFun.Injective_map_NoDup; [intros a b E; lia|apply seq_NoDup].
Qed.

Lemma cseq_In : forall n x, In x (cseq n) <-> 0 <= x < n.
Proof.
  intros n x. unfold cseq. rewrite in_map_iff. split.
  - intros [i [<- Hi]]. apply in_seq in Hi. lia.
  - intros H. exists (Z.to_nat x). split; [lia|]. apply in_seq. lia.
Qed.

Lemma count_one : forall l y, NoDup l -> In y l -> length (filter (fun j => j =? y) l) = 1%nat.
Proof.
  intros l y. induction l as [|a l IH]; intros N I; [destruct I|].
  inversion N as [|? ? Na Nl]; subst. simpl.
  destruct (Z.eqb_spec a y) as [->|Ne].
  - simpl. f_equal. clear IH I N Nl. induction l as [|b l IHl]; [reflexivity|]. simpl.
    destruct (Z.eqb_spec b y) as [->|Nb]; [exfalso; apply Na; left; reflexivity|].
    apply IHl. intros H. apply Na. right. exact H.
  - destruct I as [E|I]; [contradiction|]. apply IH; assumption.
Qed.

Lemma filter_all : forall (f : Z -> bool) l, (forall x, In x l -> f x = true) -> filter f l = l.
Proof.
  intros f l H. induction l as [|a l IH]; [reflexivity|]. simpl.
  rewrite (H a (or_introl eq_refl)). f_equal. apply IH. intros; apply H; right; assumption.
Qed.

Lemma count_prod : forall (l1 l2 : list Z) (P : Z -> Z -> bool),
  length (filter (fun p => P (fst p) (snd p)) (list_prod l1 l2)) =
  fold_right (fun i acc => Nat.add (length (filter (P i) l2)) acc) O l1.
Proof.
  intros l1 l2 P. induction l1 as [|i l1 IH]; [reflexivity|]. simpl.
  rewrite filter_app, app_length, IH. f_equal.
  clear IH. induction l2 as [|j l2 IHl]; [reflexivity|]. simpl. destruct (P i j); simpl; lia.
Qed.

Theorem cross_count_eq : forall cm cn x y, 0 <= x < cm -> 0 <= y < cn ->
  cross_count cm cn x y = cm + cn - 1.
Proof.
  intros cm cn x y Hx Hy. unfold cross_count.
  rewrite (count_prod _ _ (fun i j => (i =? x) || (j =? y))).
  assert (Row : forall i, length (filter (fun j => (i =? x) || (j =? y)) (cseq cn)) =
                          if i =? x then Z.to_nat cn else 1%nat).
  { intros i. destruct (Z.eqb_spec i x) as [->|N]; simpl.
    - rewrite filter_all by (intros; rewrite ?Z.eqb_refl; reflexivity). unfold cseq. rewrite map_length, seq_length. reflexivity.
    - apply count_one; [apply cseq_nodup|apply cseq_In; lia]. }
  assert (Sum : forall l : list Z, NoDup l ->
            Z.of_nat (fold_right (fun (i : Z) (acc : nat) =>
              Nat.add (length (filter (fun j : Z => (i =? x) || (j =? y)) (cseq cn))) acc) O l) =
            Z.of_nat (length l) + (if existsb (fun i => i =? x) l then cn - 1 else 0)).
  { induction l as [|a l IH]; intros N; [reflexivity|]. inversion N as [|? ? Na Nl]; subst.
    cbn [fold_right length existsb]. rewrite Nat2Z.inj_add, IH by exact Nl. rewrite Row.
    rewrite Nat2Z.inj_succ.
    destruct (Z.eqb_spec a x) as [->|Ne].
    - assert (H : existsb (fun i => i =? x) l = false).
      { apply Bool.not_true_is_false. intros E. apply existsb_exists in E.
        destruct E as [i [Hi Ei]]. apply Z.eqb_eq in Ei. subst. contradiction. }
      cbn [orb]. rewrite H, Z2Nat.id by lia. lia.
    - cbn [orb].
      destruct (existsb (fun i => i =? x) l); lia. }
  rewrite Sum by apply cseq_nodup.
  replace (existsb (fun i => i =? x) (cseq cm)) with true.
  - unfold cseq. rewrite map_length, seq_length. lia.
  - symmetry. apply existsb_exists. exists x. split; [apply cseq_In; lia|apply Z.eqb_refl].
Qed.

Close Scope Z_scope.
