(** * Bank conflicts and swizzle agreement as the checker counts them (issue 28, item 4)

    ** Wavefronts of one phase ([banks/analysis.rs])

    Shared memory has 32 banks of 4-byte words, word [w] in bank
    [w mod 32].  A phase of an access costs as many wavefronts as the
    largest number of distinct words it touches in one bank (threads that
    touch the same word share it).  Each thread touching [W] bytes from byte
    [x] touches the words [x / 4] to [(x + W - 1) / 4] ([phase_words], the
    loop of [enumerate]).  Rust counts a phase with [phase_cost]: it sorts
    the words by [(bank, word)] and scans the sorted list bank by bank,
    counting the changes of word, keeping the first bank with the largest
    count.  Transcribed ([ksort], [run_bank], [scan], [phase_cost]) and
    proved ([phase_cost_correct]): the count is the largest number of
    distinct words in one bank and the bank is the least one that has that
    many (both 0 for no words); the words are exactly those some thread's
    bytes fall in ([phase_words_spec]).

    ** Swizzle agreement ([swizzle_match])

    [swizzle_bytes addr sw] is CuTe's [Swizzle<B,4,3>] on byte offsets
    (B = 3, 2, 1 for spans of 128, 64, 32 bytes; anything else: none).  The
    checker's [swizzle_disagreement] counts, over one repeat of 8 rows of
    [span = max(tma, mma, 16)] bytes, the 16-byte chunks whose first byte
    the two swizzles place differently.  Proved: the swizzles move the
    16 bytes of a chunk together ([swizzle_bytes_chunk]), so for spans that
    are multiples of 16 the count is the number of bytes of the repeat
    placed differently, over 16 ([disagreement_counts_bytes]); it is 0
    exactly when the two placements agree on the whole repeat
    ([disagreement_zero_iff]), and for the swizzles a configuration can name
    (none, 32B, 64B, 128B) exactly when they are the same one
    ([disagreement_zero_iff_same]).

    ** A closed form

    A 128-byte-swizzled tile ([Sw<3,4,3>], rows of 128 bytes) read or written
    by 16-byte vectors, one per row of 8 consecutive rows (an [ldmatrix]
    phase; or 8 chunks of one row, a TMA write phase) is conflict-free: one
    wavefront ([sw128_column_conflict_free], [sw128_row_conflict_free]). *)

From Coq Require Import Arith Lia ZArith Bool List Permutation Sorting.Sorted.
Import ListNotations.

Open Scope Z_scope.

(** ** The count *)

Definition bank_of (w : Z) : Z := w mod 32.

Definition key_le (x y : Z) : bool :=
  (bank_of x <? bank_of y) || ((bank_of x =? bank_of y) && (x <=? y)).

Fixpoint ins (x : Z) (l : list Z) : list Z :=
  match l with
  | [] => [x]
  | y :: l' => if key_le x y then x :: l else y :: ins x l'
  end.

Definition ksort (l : list Z) : list Z := fold_right ins [] l.

(** Rust's inner loop: the distinct words of bank [bank] at the head of
    the sorted list ([last]: the previous word; Rust starts from
    [u64::MAX], here [-1], which no word equals). *)
Fixpoint run_bank (bank last d : Z) (ws : list Z) : Z * list Z :=
  match ws with
  | w :: ws' =>
      if bank_of w =? bank then run_bank bank w (if w =? last then d else d + 1) ws'
      else (d, ws)
  | [] => (d, [])
  end.

(** Rust's outer loop (fuel: the list's length). *)
Fixpoint scan (fuel : nat) (ws : list Z) (best : Z * Z) : Z * Z :=
  match fuel, ws with
  | S f, w :: _ =>
      let (d, rest) := run_bank (bank_of w) (-1) 0 ws in
      scan f rest (if fst best <? d then (d, bank_of w) else best)
  | _, _ => best
  end.

Definition phase_cost (ws : list Z) : Z * Z := scan (length ws) (ksort ws) (0, 0).

(** The definition: distinct words in bank [b]. *)
Definition in_bank (b : Z) (ws : list Z) : list Z := filter (fun w => bank_of w =? b) ws.
Definition dcount (l : list Z) : Z := Z.of_nat (length (nodup Z.eq_dec l)).

(** *** Distinct counts *)

Lemma dcount_perm : forall l l', (forall x, In x l <-> In x l') -> dcount l = dcount l'.
Proof.
  intros l l' H. unfold dcount. f_equal. apply Permutation_length, NoDup_Permutation;
    try apply NoDup_nodup.
  intros x. rewrite !nodup_In. apply H.
Qed.

Lemma dcount_nil : dcount [] = 0.
Proof. reflexivity. Qed.

Lemma dcount_cons : forall w l, dcount (w :: l) = 1 + dcount (filter (fun v => negb (v =? w)) l).
Proof.
  intros w l. unfold dcount.
  assert (P : Permutation (nodup Z.eq_dec (w :: l))
                (w :: nodup Z.eq_dec (filter (fun v => negb (v =? w)) l))).
  { apply NoDup_Permutation; [apply NoDup_nodup| |].
    - constructor; [|apply NoDup_nodup]. rewrite nodup_In, filter_In.
      intros [_ E]. rewrite Z.eqb_refl in E. discriminate.
    - intros x. rewrite nodup_In. simpl. rewrite nodup_In, filter_In.
      destruct (Z.eqb_spec x w) as [->|N]; simpl; [tauto|]. split.
      + intros [E|I]; [subst; contradiction|right; split; [exact I|reflexivity]].
      + intros [E|[I _]]; [left; exact E|right; exact I]. }
  rewrite (Permutation_length P). simpl length. lia.
Qed.

Lemma dcount_nonneg : forall l, 0 <= dcount l.
Proof. intros. unfold dcount. lia. Qed.

Lemma filter_ext_in' : forall (f g : Z -> bool) l, (forall x, In x l -> f x = g x) ->
  filter f l = filter g l.
Proof.
  intros f g l H. induction l as [|a l IH]; [reflexivity|]. simpl.
  rewrite (H a (or_introl eq_refl)). rewrite IH by (intros; apply H; right; assumption).
  reflexivity.
Qed.

Lemma filter_filter' : forall (f g : Z -> bool) l, filter f (filter g l) = filter (fun x => g x && f x) l.
Proof.
  intros f g l. induction l as [|a l IH]; [reflexivity|]. simpl.
  destruct (g a); simpl; [destruct (f a); simpl; rewrite IH|rewrite IH]; reflexivity.
Qed.

(** *** The sort *)

Definition kle (x y : Z) : Prop := key_le x y = true.

Lemma key_le_total : forall x y, key_le x y = false -> key_le y x = true.
Proof.
  intros x y. unfold key_le.
  destruct (Z.ltb_spec (bank_of x) (bank_of y)); destruct (Z.ltb_spec (bank_of y) (bank_of x));
  destruct (Z.eqb_spec (bank_of x) (bank_of y)); destruct (Z.eqb_spec (bank_of y) (bank_of x));
  destruct (Z.leb_spec x y); destruct (Z.leb_spec y x); simpl; intros;
    try reflexivity; try discriminate; lia.
Qed.

Lemma key_le_trans : forall x y z, kle x y -> kle y z -> kle x z.
Proof.
  unfold kle, key_le. intros x y z H1 H2.
  apply orb_true_iff in H1, H2. apply orb_true_iff.
  destruct H1 as [H1|H1]; destruct H2 as [H2|H2];
    repeat match goal with
           | H : (_ && _)%bool = true |- _ => apply andb_true_iff in H; destruct H
           | H : (_ <? _) = true |- _ => apply Z.ltb_lt in H
           | H : (_ =? _) = true |- _ => apply Z.eqb_eq in H
           | H : (_ <=? _) = true |- _ => apply Z.leb_le in H
           end.
  - left. apply Z.ltb_lt. lia.
  - left. apply Z.ltb_lt. lia.
  - left. apply Z.ltb_lt. lia.
  - right. apply andb_true_iff. split; [apply Z.eqb_eq|apply Z.leb_le]; lia.
Qed.

Lemma ins_perm : forall x l, Permutation (x :: l) (ins x l).
Proof.
  intros x l. induction l as [|y l IH]; simpl; [reflexivity|].
  destruct (key_le x y); [reflexivity|].
  eapply perm_trans; [apply perm_swap|]. constructor. exact IH.
Qed.

Lemma ksort_perm : forall l, Permutation l (ksort l).
Proof.
  induction l as [|x l IH]; simpl; [reflexivity|].
  eapply perm_trans; [constructor; exact IH|apply ins_perm].
Qed.

Lemma ins_sorted : forall x l, StronglySorted kle l -> StronglySorted kle (ins x l).
Proof.
  intros x l. induction l as [|y l IH]; intros S; simpl.
  - repeat constructor.
  - inversion S as [|? ? S' F]; subst.
    destruct (key_le x y) eqn:K.
    + constructor; [exact S|]. constructor; [exact K|].
      eapply Forall_impl; [|exact F]. intros z Hz. eapply key_le_trans; [exact K|exact Hz].
    + constructor; [apply IH, S'|].
      apply Forall_forall. intros z Hz.
      apply (Permutation_in _ (Permutation_sym (ins_perm x l))) in Hz.
      destruct Hz as [<-|Hz]; [apply key_le_total, K|].
      rewrite Forall_forall in F. apply F, Hz.
Qed.

Lemma ksort_sorted : forall l, StronglySorted kle (ksort l).
Proof. induction l as [|x l IH]; simpl; [constructor|apply ins_sorted, IH]. Qed.

(** *** The scan *)

Lemma bank_range : forall w, 0 <= bank_of w < 32.
Proof. intros. unfold bank_of. apply Z.mod_pos_bound. lia. Qed.

(** In a sorted list, a word of a bank at least [b]'s bank comes before
    nothing of a smaller bank. *)
Lemma kle_bank : forall x y, kle x y -> bank_of x <= bank_of y.
Proof.
  unfold kle, key_le. intros x y H. apply orb_true_iff in H.
  destruct H as [H|H]; [apply Z.ltb_lt in H; lia|].
  apply andb_true_iff in H. destruct H as [H _]. apply Z.eqb_eq in H. lia.
Qed.

Lemma kle_same_bank : forall x y, kle x y -> bank_of x = bank_of y -> x <= y.
Proof.
  unfold kle, key_le. intros x y H E. apply orb_true_iff in H. rewrite E in H.
  destruct H as [H|H]; [apply Z.ltb_lt in H; lia|].
  apply andb_true_iff in H. destruct H as [_ H]. apply Z.leb_le in H. exact H.
Qed.

Lemma run_bank_spec : forall ws b last d, StronglySorted kle ws ->
  (forall v, In v ws -> b <= bank_of v) ->
  (forall v, In v ws -> bank_of v = b -> last <= v) ->
  run_bank b last d ws =
    (d + dcount (filter (fun v => (bank_of v =? b) && negb (v =? last)) ws),
     filter (fun v => negb (bank_of v =? b)) ws).
Proof.
  induction ws as [|w ws IH]; intros b last d S Hb Hl; [simpl; rewrite dcount_nil, Z.add_0_r; reflexivity|].
  inversion S as [|? ? S' F]; subst. rewrite Forall_forall in F. simpl.
  destruct (Z.eqb_spec (bank_of w) b) as [Ew|Nw]; simpl.
  - assert (Ge : forall v, In v ws -> bank_of v = b -> w <= v).
    { intros v Hv Ev. apply kle_same_bank; [apply F, Hv|lia]. }
    rewrite IH; [|exact S'|intros; apply Hb; right; assumption|exact Ge].
    f_equal.
    destruct (Z.eqb_spec w last) as [->|N]; simpl.
    + reflexivity.
    + rewrite dcount_cons, filter_filter'.
      assert (Lt : last < w) by (pose proof (Hl w (or_introl eq_refl) Ew); lia).
      enough (E : filter (fun v => (bank_of v =? b) && negb (v =? w)) ws =
                  filter (fun x => ((bank_of x =? b) && negb (x =? last)) && negb (x =? w)) ws)
        by (rewrite E; lia).
      apply filter_ext_in'. intros v Hv.
      destruct (Z.eqb_spec (bank_of v) b) as [Ev|Ev]; simpl; [|reflexivity].
      pose proof (Ge v Hv Ev). destruct (Z.eqb_spec v last); [lia|reflexivity].
  - (* the head is of a larger bank, and so is everything after it *)
    assert (None : forall v, In v (w :: ws) -> bank_of v <> b).
    { intros v [<-|Hv]; [exact Nw|]. pose proof (kle_bank w v (F v Hv)).
      pose proof (Hb w (or_introl eq_refl)). lia. }
    rewrite (filter_ext_in' (fun v => (bank_of v =? b) && negb (v =? last)) (fun _ => false)).
    2:{ intros v Hv. destruct (Z.eqb_spec (bank_of v) b) as [E|E]; [|reflexivity].
        exfalso. apply (None v (or_intror Hv) E). }
    rewrite (filter_ext_in' (fun v => negb (bank_of v =? b)) (fun _ => true)).
    2:{ intros v Hv. destruct (Z.eqb_spec (bank_of v) b) as [E|E]; [|reflexivity].
        exfalso. apply (None v (or_intror Hv) E). }
    assert (T : forall l : list Z, filter (fun _ => false) l = []) by (induction l; auto).
    assert (U : forall l : list Z, filter (fun _ => true) l = l)
      by (induction l as [|? ? IHl]; simpl; [|rewrite IHl]; auto).
    rewrite T, U. simpl. rewrite dcount_nil, Z.add_0_r. reflexivity.
Qed.

Lemma sorted_filter : forall (f : Z -> bool) l, StronglySorted kle l -> StronglySorted kle (filter f l).
Proof.
  intros f l. induction l as [|a l IH]; intros S; simpl; [constructor|].
  inversion S as [|? ? S' F]; subst. destruct (f a); [|apply IH, S'].
  constructor; [apply IH, S'|]. rewrite Forall_forall in *. intros x Hx.
  apply filter_In in Hx. apply F, Hx.
Qed.

Lemma filter_length_le : forall (f : Z -> bool) l, (length (filter f l) <= length l)%nat.
Proof. intros f l. induction l as [|a l IH]; simpl; [lia|destruct (f a); simpl; lia]. Qed.

(** What the scan computes from a running best [(c0, k0)]: the largest
    count, kept when no bank beats [c0], else the first bank that has it. *)
Definition scan_spec (ws : list Z) (c0 k0 : Z) (r : Z * Z) : Prop :=
  c0 <= fst r /\ (forall b, dcount (in_bank b ws) <= fst r) /\
  ((fst r = c0 /\ snd r = k0) \/
   (c0 < fst r /\ 0 <= snd r < 32 /\ dcount (in_bank (snd r) ws) = fst r /\
    forall b, b < snd r -> dcount (in_bank b ws) < fst r)).

Lemma scan_correct : forall fuel ws c0 k0, StronglySorted kle ws -> (forall w, In w ws -> 0 <= w) ->
  (length ws <= fuel)%nat -> 0 <= c0 -> scan_spec ws c0 k0 (scan fuel ws (c0, k0)).
Proof.
  induction fuel as [|fuel IH]; intros ws c0 k0 S Hpos Hlen Hc0.
  - destruct ws; [|simpl in Hlen; lia]. simpl. unfold scan_spec, in_bank. simpl.
    split; [lia|]. split; [intros; rewrite dcount_nil; lia|]. left; split; reflexivity.
  - destruct ws as [|w ws'].
    { simpl. unfold scan_spec, in_bank. simpl. split; [lia|].
      split; [intros; rewrite dcount_nil; lia|]. left; split; reflexivity. }
    set (ws := w :: ws') in *. set (b0 := bank_of w).
    inversion S as [|? ? S' F]; subst. rewrite Forall_forall in F.
    assert (Min : forall v, In v ws -> b0 <= bank_of v).
    { intros v [<-|Hv]; [lia|]. apply kle_bank, F, Hv. }
    assert (R : run_bank b0 (-1) 0 ws =
                (dcount (in_bank b0 ws), filter (fun v => negb (bank_of v =? b0)) ws)).
    { rewrite run_bank_spec; [|exact S|exact Min|intros v Hv _; pose proof (Hpos v Hv); lia].
      f_equal. unfold in_bank. rewrite Z.add_0_l. f_equal. apply filter_ext_in'.
      intros v Hv. pose proof (Hpos v Hv). destruct (Z.eqb_spec v (-1)); [lia|].
      rewrite andb_true_r. reflexivity. }
    change (scan (Datatypes.S fuel) ws (c0, k0)) with
      (let (d, rest) := run_bank b0 (-1) 0 ws in
       scan fuel rest (if fst (c0, k0) <? d then (d, b0) else (c0, k0))).
    rewrite R. simpl fst.
    set (d0 := dcount (in_bank b0 ws)).
    set (rest := filter (fun v => negb (bank_of v =? b0)) ws).
    assert (Srest : StronglySorted kle rest) by (apply sorted_filter; exact S).
    assert (Prest : forall v, In v rest -> 0 <= v)
      by (intros v Hv; apply filter_In in Hv; apply Hpos, Hv).
    assert (Lrest : (length rest <= fuel)%nat).
    { unfold rest, ws. simpl. unfold b0 at 1. rewrite Z.eqb_refl. simpl.
      pose proof (filter_length_le (fun v => negb (bank_of v =? b0)) ws'). simpl in Hlen. lia. }
    assert (Brest : forall b, b <> b0 -> in_bank b rest = in_bank b ws).
    { intros b Nb. unfold in_bank, rest. rewrite filter_filter'. apply filter_ext_in'.
      intros v _. destruct (Z.eqb_spec (bank_of v) b0); destruct (Z.eqb_spec (bank_of v) b);
        simpl; try reflexivity. congruence. }
    assert (B0rest : in_bank b0 rest = []).
    { unfold in_bank, rest. rewrite filter_filter'.
      rewrite (filter_ext_in' _ (fun _ => false)).
      - clear. induction ws; auto.
      - intros v _. destruct (Z.eqb_spec (bank_of v) b0); reflexivity. }
    assert (Hd0 : 0 <= d0) by apply dcount_nonneg.
    assert (Below : forall b, b < b0 -> in_bank b ws = []).
    { intros b Lb. unfold in_bank. rewrite (filter_ext_in' _ (fun _ => false)).
      - clear. induction ws; auto.
      - intros v Hv. pose proof (Min v Hv). destruct (Z.eqb_spec (bank_of v) b); [lia|reflexivity]. }
    set (best' := if c0 <? d0 then (d0, b0) else (c0, k0)).
    assert (Hbest : fst best' = Z.max c0 d0).
    { unfold best'. destruct (Z.ltb_spec c0 d0); simpl; lia. }
    destruct best' as [c1 k1] eqn:EB. simpl in Hbest.
    pose proof (IH rest c1 k1 Srest Prest Lrest ltac:(lia)) as [G1 [G2 G3]].
    set (r := scan fuel rest (c1, k1)) in *.
    unfold scan_spec. split; [lia|]. split.
    + intros b. destruct (Z.eq_dec b b0) as [->|Nb]; [fold d0; lia|].
      rewrite <- (Brest b Nb). apply G2.
    + destruct G3 as [[E1 E2]|[L1 [Kr [E1 E2]]]].
      * unfold best' in EB. destruct (Z.ltb_spec c0 d0) as [Lt|Ge]; injection EB as Ec Ek.
        -- right. rewrite E1, E2, <- Ec, <- Ek. split; [lia|]. split; [apply bank_range|].
           split; [reflexivity|]. intros b Lb. rewrite (Below b Lb), dcount_nil. lia.
        -- left. rewrite E1, E2, <- Ec, <- Ek. split; reflexivity.
      * right. assert (Nk : snd r <> b0).
        { intros Ek. rewrite Ek, B0rest, dcount_nil in E1. lia. }
        split; [lia|]. split; [exact Kr|]. split; [rewrite <- (Brest _ Nk); exact E1|].
        intros b Lb. destruct (Z.eq_dec b b0) as [->|Nb]; [fold d0; lia|].
        rewrite <- (Brest b Nb). apply E2, Lb.
Qed.

Lemma in_bank_perm : forall b l l', Permutation l l' ->
  dcount (in_bank b l) = dcount (in_bank b l').
Proof.
  intros b l l' P. apply dcount_perm. intros x. unfold in_bank. rewrite !filter_In.
  split; intros [I E]; split; try exact E.
  - exact (Permutation_in _ P I).
  - exact (Permutation_in _ (Permutation_sym P) I).
Qed.

(** Rust's count is the largest number of distinct words in one bank, and
    its bank the least bank with that many (0 and 0 when no bank has a
    word), for words [>= 0]. *)
Theorem phase_cost_correct : forall ws, (forall w, In w ws -> 0 <= w) ->
  (forall b, dcount (in_bank b ws) <= fst (phase_cost ws)) /\
  ((fst (phase_cost ws) = 0 /\ snd (phase_cost ws) = 0) \/
   (0 <= snd (phase_cost ws) < 32 /\ dcount (in_bank (snd (phase_cost ws)) ws) = fst (phase_cost ws) /\
    forall b, b < snd (phase_cost ws) -> dcount (in_bank b ws) < fst (phase_cost ws))).
Proof.
  intros ws Hpos. unfold phase_cost.
  pose proof (ksort_perm ws) as P.
  assert (Hpos' : forall w, In w (ksort ws) -> 0 <= w)
    by (intros w Hw; apply Hpos, (Permutation_in _ (Permutation_sym P) Hw)).
  destruct (scan_correct (length ws) (ksort ws) 0 0 (ksort_sorted ws) Hpos'
              ltac:(rewrite (Permutation_length P); lia) ltac:(lia)) as [_ [G2 G3]].
  split.
  - intros b. rewrite (in_bank_perm b ws (ksort ws) P). apply G2.
  - destruct G3 as [G|[L [K [E A]]]]; [left; exact G|right].
    split; [exact K|]. split.
    + rewrite (in_bank_perm _ ws (ksort ws) P). exact E.
    + intros b Lb. rewrite (in_bank_perm b ws (ksort ws) P). apply A, Lb.
Qed.

(** *** The words of a phase: thread bytes [x .. x + W - 1] touch words
    [x / 4 .. (x + W - 1) / 4]. *)

Definition zrange (lo hi : Z) : list Z :=
  map (fun i => lo + Z.of_nat i) (seq 0 (Z.to_nat (hi - lo + 1))).

Definition phase_words (bytes : list Z) (W : Z) : list Z :=
  flat_map (fun x => zrange (x / 4) ((x + W - 1) / 4)) bytes.

Lemma zrange_In : forall lo hi v, In v (zrange lo hi) <-> lo <= v <= hi.
Proof.
  intros lo hi v. unfold zrange. rewrite in_map_iff. split.
  - intros [i [<- Hi]]. apply in_seq in Hi. lia.
  - intros H. exists (Z.to_nat (v - lo)). split; [lia|]. apply in_seq. lia.
Qed.

Theorem phase_words_spec : forall bytes W v, 1 <= W -> (forall x, In x bytes -> 0 <= x) ->
  In v (phase_words bytes W) <-> exists x y, In x bytes /\ x <= y < x + W /\ y / 4 = v.
Proof.
  intros bytes W v HW Hpos. unfold phase_words. rewrite in_flat_map. split.
  - intros [x [Hx Hv]]. apply zrange_In in Hv. pose proof (Hpos x Hx).
    (* the byte [max(x, 4 v)] of the thread lies in word [v] *)
    exists x, (Z.max x (4 * v)). split; [exact Hx|].
    assert (x / 4 * 4 <= x) by (pose proof (Z.mul_div_le x 4 ltac:(lia)); lia).
    assert ((x + W - 1) / 4 * 4 <= x + W - 1) by (pose proof (Z.mul_div_le (x + W - 1) 4 ltac:(lia)); lia).
    split; [lia|].
    destruct (Z.le_gt_cases x (4 * v)) as [L|L].
    + rewrite Z.max_r by lia. rewrite Z.mul_comm, Z.div_mul by lia. reflexivity.
    + rewrite Z.max_l by lia. apply Z.le_antisymm; [lia|].
      apply Z.div_le_lower_bound; lia.
  - intros [x [y [Hx [Hy Ev]]]]. exists x. split; [exact Hx|]. apply zrange_In. subst v.
    split; apply Z.div_le_mono; lia.
Qed.

(** ** Swizzle agreement *)

Definition swz_bits (sw : Z) : Z :=
  if sw =? 128 then 3 else if sw =? 64 then 2 else if sw =? 32 then 1 else 0.

Definition swizzle_bytes (addr sw : Z) : Z :=
  if swz_bits sw =? 0 then addr
  else Z.lxor addr (Z.shiftl (Z.land (Z.shiftr addr 7) (Z.ones (swz_bits sw))) 4).

Definition zseq (n : Z) : list Z := map Z.of_nat (seq 0 (Z.to_nat n)).

(** Rust's [swizzle_disagreement], its count and total: rows [r < 8],
    chunks [ch < span / 16], in that order. *)
Definition disagreement (tma mma : Z) : Z * Z :=
  let span := Z.max (Z.max tma mma) 16 in
  let chunks := span / 16 in
  (fold_left (fun acc r =>
     fold_left (fun acc ch =>
       let a := r * span + ch * 16 in
       if swizzle_bytes a tma =? swizzle_bytes a mma then acc else acc + 1)
       (zseq chunks) acc)
     (zseq 8) 0,
   8 * chunks).

(** The bytes of the repeat the two swizzles place differently. *)
Definition moved_bytes (tma mma : Z) : list Z :=
  filter (fun a => negb (swizzle_bytes a tma =? swizzle_bytes a mma))
    (zseq (8 * Z.max (Z.max tma mma) 16)).

Lemma bits_high_zero : forall a n k, 0 <= n -> 0 <= a < 2 ^ n -> n <= k -> Z.testbit a k = false.
Proof.
  intros a n k Hn Ha Hk. rewrite <- (Z.mod_small a (2 ^ n)) by lia. apply Z.mod_pow2_bits_high. lia.
Qed.

Lemma low_bit_zero : forall z k, z mod 16 = 0 -> 0 <= k < 4 -> Z.testbit z k = false.
Proof.
  intros z k Hz Hk. rewrite <- (Z.mod_pow2_bits_low z 4 k) by lia. change (2 ^ 4) with 16.
  rewrite Hz. apply Z.bits_0.
Qed.

Lemma land_low_zero : forall z j, z mod 16 = 0 -> 0 <= j < 16 -> Z.land z j = 0.
Proof.
  intros z j Hz Hj. apply Z.bits_inj'. intros k Hk. rewrite Z.land_spec, Z.bits_0.
  destruct (Z.lt_ge_cases k 4) as [L|G].
  - rewrite (low_bit_zero z k) by lia. reflexivity.
  - rewrite (bits_high_zero j 4 k) by (change (2 ^ 4) with 16; lia). apply andb_false_r.
Qed.

Lemma lxor_low_zero : forall x y, x mod 16 = 0 -> y mod 16 = 0 -> Z.lxor x y mod 16 = 0.
Proof.
  intros x y Hx Hy. change 16 with (2 ^ 4). apply Z.bits_inj'. intros k Hk. rewrite Z.bits_0.
  destruct (Z.lt_ge_cases k 4) as [L|G].
  - rewrite Z.mod_pow2_bits_low, Z.lxor_spec by lia.
    rewrite (low_bit_zero x k), (low_bit_zero y k) by lia. reflexivity.
  - apply Z.mod_pow2_bits_high. lia.
Qed.

(** A swizzle moves the 16 bytes of a chunk together. *)
Theorem swizzle_bytes_chunk : forall c j sw, 0 <= c -> 0 <= j < 16 ->
  swizzle_bytes (16 * c + j) sw = swizzle_bytes (16 * c) sw + j.
Proof.
  intros c j sw Hc Hj. unfold swizzle_bytes.
  destruct (swz_bits sw =? 0); [reflexivity|].
  assert (Sh : Z.shiftr (16 * c + j) 7 = Z.shiftr (16 * c) 7).
  { rewrite !Z.shiftr_div_pow2 by lia. change (2 ^ 7) with 128.
    pose proof (Z_div_mod_eq_full c 8) as Ec. pose proof (Z.mod_pos_bound c 8 ltac:(lia)) as Mc.
    set (q := c / 8) in *. set (m := c mod 8) in *.
    replace (16 * c + j) with ((16 * m + j) + q * 128) by lia.
    replace (16 * c) with ((16 * m) + q * 128) by lia.
    rewrite !Z.div_add by lia. rewrite !Z.div_small by lia. reflexivity. }
  rewrite Sh. set (Y := Z.shiftl (Z.land (Z.shiftr (16 * c) 7) (Z.ones (swz_bits sw))) 4).
  assert (HY : Y mod 16 = 0).
  { unfold Y. rewrite Z.shiftl_mul_pow2 by lia. change (2 ^ 4) with 16. apply Z.mod_mul. lia. }
  assert (Hx : (16 * c) mod 16 = 0) by (rewrite Z.mul_comm; apply Z.mod_mul; lia).
  assert (HxY : Z.lxor (16 * c) Y mod 16 = 0) by (apply lxor_low_zero; assumption).
  rewrite (Z.add_nocarry_lxor (16 * c) j) by (apply land_low_zero; assumption).
  rewrite (Z.add_nocarry_lxor (Z.lxor (16 * c) Y) j) by (apply land_low_zero; assumption).
  rewrite !Z.lxor_assoc. f_equal. apply Z.lxor_comm.
Qed.

Lemma fold_count : forall (p : Z -> bool) l acc,
  fold_left (fun acc x => if p x then acc else acc + 1) l acc =
  acc + Z.of_nat (length (filter (fun x => negb (p x)) l)).
Proof.
  intros p l. induction l as [|x l IH]; intros acc; simpl; [lia|].
  rewrite IH. destruct (p x); simpl; lia.
Qed.

Lemma zseq_S : forall n, 0 <= n -> zseq (n + 1) = zseq n ++ [n].
Proof.
  intros n Hn. unfold zseq. rewrite Z2Nat.inj_add by lia. simpl (Z.to_nat 1).
  rewrite seq_app, map_app. simpl. rewrite Z2Nat.id by lia. reflexivity.
Qed.

Lemma filter_app' : forall (f : Z -> bool) l l', filter f (l ++ l') = filter f l ++ filter f l'.
Proof. intros f l l'. induction l as [|a l IH]; simpl; [reflexivity|]. destruct (f a); simpl; rewrite IH; reflexivity. Qed.

Lemma zseq_split : forall k m, 0 <= k -> 0 <= m ->
  zseq (k + m) = zseq k ++ map (fun j => k + j) (zseq m).
Proof.
  intros k m Hk Hm. pattern m. apply natlike_ind; [|intros y Hy IHy|exact Hm].
  - rewrite Z.add_0_r. unfold zseq at 3. simpl. rewrite app_nil_r. reflexivity.
  - replace (k + Z.succ y) with ((k + y) + 1) by ring.
    rewrite zseq_S by lia. rewrite IHy. unfold Z.succ. rewrite zseq_S by lia.
    rewrite map_app, app_assoc. reflexivity.
Qed.

(** Counting the chunks of [rows] rows of [n] chunks, row by row, is
    counting the chunks [0 .. rows * n) in order. *)
Lemma rows_count : forall (p : Z -> bool) n rows, 0 <= n -> 0 <= rows ->
  fold_left (fun acc r => fold_left (fun acc ch => if p (r * n + ch) then acc else acc + 1) (zseq n) acc)
    (zseq rows) 0 =
  Z.of_nat (length (filter (fun c => negb (p c)) (zseq (rows * n)))).
Proof.
  intros p n rows Hn Hr. pattern rows. apply natlike_ind; [reflexivity| |exact Hr].
  intros x Hx IH. unfold Z.succ. rewrite zseq_S, fold_left_app by lia. simpl. rewrite IH.
  rewrite (fold_count (fun ch => p (x * n + ch))).
  replace ((x + 1) * n) with (x * n + n) by ring.
  rewrite zseq_split by nia. rewrite filter_app', app_length.
  assert (M : forall l, length (filter (fun c => negb (p c)) (map (fun ch => x * n + ch) l)) =
                        length (filter (fun ch => negb (p (x * n + ch))) l)).
  { induction l as [|a l IHl]; simpl; [reflexivity|]. destruct (p (x * n + a)); simpl; lia. }
  rewrite M. lia.
Qed.

(** The chunks of the repeat that differ, with each chunk's 16 bytes,
    are the bytes that differ. *)
Lemma zseq_In : forall n x, In x (zseq n) <-> 0 <= x < n.
Proof.
  intros n x. unfold zseq. rewrite in_map_iff. split.
  - intros [i [<- Hi]]. apply in_seq in Hi. lia.
  - intros H. exists (Z.to_nat x). split; [lia|]. apply in_seq. lia.
Qed.

Lemma chunk_bytes : forall (q : Z -> bool) n, 0 <= n ->
  (forall c j, 0 <= c -> 0 <= j < 16 -> q (16 * c + j) = q (16 * c)) ->
  16 * Z.of_nat (length (filter (fun c => q (16 * c)) (zseq n))) =
  Z.of_nat (length (filter q (zseq (16 * n)))).
Proof.
  intros q n Hn Hq. pattern n. apply natlike_ind; [reflexivity| |exact Hn].
  intros x Hx IH. unfold Z.succ. rewrite zseq_S, filter_app', app_length by lia.
  replace (16 * (x + 1)) with (16 * x + 16) by ring.
  rewrite zseq_split by lia. rewrite filter_app', app_length.
  assert (All : forall l, (forall j, In j l -> 0 <= j < 16) ->
            length (filter q (map (fun j => 16 * x + j) l)) = if q (16 * x) then length l else O).
  { induction l as [|a l IHl]; intros Hl.
    - cbn [map filter length]. destruct (q (16 * x)); reflexivity.
    - cbn [map filter]. rewrite (Hq x a Hx (Hl a (or_introl eq_refl))).
      destruct (q (16 * x)) eqn:E; cbn [length];
        rewrite IHl by (intros; apply Hl; right; assumption); rewrite ?E; reflexivity. }
  rewrite All by (intros j Hj; apply zseq_In in Hj; exact Hj).
  assert (L16 : length (zseq 16) = 16%nat) by (unfold zseq; rewrite map_length, seq_length; reflexivity).
  cbn [filter]. destruct (q (16 * x)); cbn [length]; rewrite ?L16, !Nat2Z.inj_add, <- IH; lia.
Qed.

(** [fold_left] under a pointwise equal step. *)
Lemma fold_ext : forall (f g : Z -> Z -> Z) l acc, (forall a x, In x l -> f a x = g a x) ->
  fold_left f l acc = fold_left g l acc.
Proof.
  intros f g l. induction l as [|x l IH]; intros acc H; simpl; [reflexivity|].
  rewrite (H acc x (or_introl eq_refl)). apply IH. intros; apply H; right; assumption.
Qed.

(** The checker's count of differing chunks is the number of bytes of the
    repeat placed differently, over 16, for rows of whole 16-byte chunks. *)
Theorem disagreement_counts_bytes : forall tma mma,
  Z.max (Z.max tma mma) 16 mod 16 = 0 ->
  16 * fst (disagreement tma mma) = Z.of_nat (length (moved_bytes tma mma)) /\
  snd (disagreement tma mma) = 8 * (Z.max (Z.max tma mma) 16 / 16).
Proof.
  intros tma mma Hspan. unfold disagreement, moved_bytes. cbn [fst snd].
  set (span := Z.max (Z.max tma mma) 16) in *.
  assert (Hs : 16 <= span) by lia.
  pose proof (Z_div_exact_full_2 span 16 ltac:(lia) Hspan) as Es.
  set (n := span / 16) in *. split; [|reflexivity].
  set (q := fun a => negb (swizzle_bytes a tma =? swizzle_bytes a mma)).
  set (p := fun c => swizzle_bytes (16 * c) tma =? swizzle_bytes (16 * c) mma).
  rewrite (fold_ext _ (fun acc r => fold_left (fun acc ch => if p (r * n + ch) then acc else acc + 1)
                                      (zseq n) acc)).
  2:{ intros acc r _. apply fold_ext. intros a ch _. unfold p.
      replace (16 * (r * n + ch)) with (r * span + ch * 16) by (rewrite Es; ring). reflexivity. }
  rewrite rows_count by lia.
  change (fun c => negb (p c)) with (fun c => q (16 * c)).
  replace (8 * span) with (16 * (8 * n)) by lia.
  apply chunk_bytes; [lia|].
  intros c j Hc Hj. unfold q. rewrite !swizzle_bytes_chunk by assumption.
  destruct (Z.eqb_spec (swizzle_bytes (16 * c) tma) (swizzle_bytes (16 * c) mma)) as [E|E];
  destruct (Z.eqb_spec (swizzle_bytes (16 * c) tma + j) (swizzle_bytes (16 * c) mma + j)) as [E'|E'];
    simpl; try reflexivity; lia.
Qed.

(** So the count is 0 exactly when the two placements agree on every byte
    of the repeat. *)
Corollary disagreement_zero_iff : forall tma mma,
  Z.max (Z.max tma mma) 16 mod 16 = 0 ->
  fst (disagreement tma mma) = 0 <->
  forall a, 0 <= a < 8 * Z.max (Z.max tma mma) 16 -> swizzle_bytes a tma = swizzle_bytes a mma.
Proof.
  intros tma mma Hspan. destruct (disagreement_counts_bytes tma mma Hspan) as [E _].
  unfold moved_bytes in E. split.
  - intros Z0 a Ha. rewrite Z0 in E.
    destruct (Z.eqb_spec (swizzle_bytes a tma) (swizzle_bytes a mma)) as [Eq|N]; [exact Eq|exfalso].
    assert (I : In a (filter (fun a => negb (swizzle_bytes a tma =? swizzle_bytes a mma))
                   (zseq (8 * Z.max (Z.max tma mma) 16)))).
    { apply filter_In. split; [apply zseq_In; exact Ha|]. apply Z.eqb_neq in N. rewrite N. reflexivity. }
    destruct (filter _ _) as [|x l]; [contradiction|cbn [length] in E; lia].
  - intros All.
    rewrite (filter_ext_in' _ (fun _ => false)) in E.
    + assert (T : forall l : list Z, filter (fun _ => false) l = []) by (induction l; auto).
      rewrite T in E. cbn [length Z.of_nat] in E. lia.
    + intros a Ha. apply zseq_In in Ha. rewrite (All a Ha), Z.eqb_refl. reflexivity.
Qed.

(** For the swizzles a configuration names (none, 32B, 64B, 128B), the count
    is 0 exactly when they are the same: [swizzle_match]'s refutation
    ([tma_swizzle <> smem swizzle]) always moves some chunk. *)
Definition named (sw : Z) : Prop := sw = 0 \/ sw = 32 \/ sw = 64 \/ sw = 128.

Theorem disagreement_zero_iff_same : forall tma mma, named tma -> named mma ->
  fst (disagreement tma mma) = 0 <-> tma = mma.
Proof.
  intros tma mma Ht Hm.
  destruct Ht as [-> | [-> | [-> | ->]]]; destruct Hm as [-> | [-> | [-> | ->]]];
    vm_compute; split; intros H; first [reflexivity | discriminate].
Qed.

(** ** The closed form: [Sw<3,4,3>] on 128-byte rows, 16-byte vectors *)

(** Eight consecutive rows [8 R .. 8 R + 7], logical chunk [c] of each
    (an [ldmatrix] phase reading a column of 16-byte vectors). *)
Definition column_phase (R c : Z) : list Z :=
  phase_words (map (fun i => swizzle_bytes ((8 * R + i) * 128 + c * 16) 128) (zseq 8)) 16.

(** One row's eight chunks (a TMA write phase: 128 contiguous bytes). *)
Definition row_phase (r : Z) : list Z :=
  phase_words (map (fun c => swizzle_bytes (r * 128 + c * 16) 128) (zseq 8)) 16.

(** The swizzle only changes bits 4 to 6, from bits 7 to 9: shifting by
    whole 1,024-byte repeats shifts the result. *)
Lemma swizzle128_shift : forall R a, 0 <= R -> 0 <= a < 1024 ->
  swizzle_bytes (1024 * R + a) 128 = 1024 * R + swizzle_bytes a 128.
Proof.
  intros R a HR Ha.
  assert (D : forall x, swizzle_bytes x 128 = Z.lxor x (Z.shiftl (Z.land (Z.shiftr x 7) 7) 4))
    by reflexivity.
  rewrite !D.
  assert (Sh : Z.land (Z.shiftr (1024 * R + a) 7) 7 = Z.land (Z.shiftr a 7) 7).
  { change 7 with (Z.ones 3) at 2 4. rewrite !Z.land_ones by lia. rewrite !Z.shiftr_div_pow2 by lia.
    change (2 ^ 7) with 128. change (2 ^ 3) with 8.
    replace (1024 * R + a) with (a + (8 * R) * 128) by ring. rewrite Z.div_add by lia.
    replace (a / 128 + 8 * R) with (a / 128 + R * 8) by ring. rewrite Z.mod_add by lia. reflexivity. }
  rewrite Sh.
  set (Y := Z.shiftl (Z.land (Z.shiftr a 7) 7) 4).
  assert (HY : 0 <= Y < 1024).
  { unfold Y. rewrite Z.shiftl_mul_pow2 by lia. change (2 ^ 4) with 16.
    pose proof (Z.land_nonneg (Z.shiftr a 7) 7). assert (Z.land (Z.shiftr a 7) 7 <= 7).
    { change 7 with (Z.ones 3) at 2. rewrite Z.land_ones by lia.
      pose proof (Z.mod_pos_bound (Z.shiftr a 7) (2 ^ 3) ltac:(lia)). change (2 ^ 3) with 8 in *. lia. }
    lia. }
  assert (L1 : Z.land (1024 * R) a = 0).
  { change 1024 with (2 ^ 10). rewrite Z.mul_comm, <- Z.shiftl_mul_pow2 by lia.
    apply Z.bits_inj'. intros k Hk. rewrite Z.land_spec, Z.bits_0.
    destruct (Z.lt_ge_cases k 10) as [L|G].
    - rewrite Z.shiftl_spec_low by lia. reflexivity.
    - rewrite (Z.bits_above_log2 a k); [apply andb_false_r|lia|].
      destruct (Z.eq_dec a 0) as [->|Na]; [simpl; lia|].
      assert (Z.log2 a < 10) by (apply Z.log2_lt_pow2; lia). lia. }
  assert (L2 : Z.land (1024 * R) (Z.lxor a Y) = 0).
  { change 1024 with (2 ^ 10). rewrite Z.mul_comm, <- Z.shiftl_mul_pow2 by lia.
    apply Z.bits_inj'. intros k Hk. rewrite Z.land_spec, Z.bits_0.
    destruct (Z.lt_ge_cases k 10) as [L|G].
    - rewrite Z.shiftl_spec_low by lia. reflexivity.
    - rewrite Z.lxor_spec. rewrite (Z.bits_above_log2 a k), (Z.bits_above_log2 Y k); try lia.
      + apply andb_false_r.
      + destruct (Z.eq_dec Y 0) as [->|NY]; [simpl; lia|].
        assert (Z.log2 Y < 10) by (apply Z.log2_lt_pow2; lia). lia.
      + destruct (Z.eq_dec a 0) as [->|Na]; [simpl; lia|].
        assert (Z.log2 a < 10) by (apply Z.log2_lt_pow2; lia). lia. }
  rewrite (Z.add_nocarry_lxor _ _ L1), (Z.add_nocarry_lxor _ _ L2).
  rewrite Z.lxor_assoc. reflexivity.
Qed.

Lemma phase_words_shift : forall k bytes, 0 <= k ->
  phase_words (map (fun x => 1024 * k + x) bytes) 16 = map (fun w => 256 * k + w) (phase_words bytes 16).
Proof.
  intros k bytes Hk. unfold phase_words. rewrite flat_map_concat_map, map_map.
  rewrite flat_map_concat_map, concat_map, map_map. f_equal. apply map_ext. intros x.
  replace ((1024 * k + x) / 4) with (x / 4 + 256 * k)
    by (replace (1024 * k + x) with (x + (256 * k) * 4) by ring; rewrite Z.div_add; lia).
  replace ((1024 * k + x + 16 - 1) / 4) with ((x + 16 - 1) / 4 + 256 * k)
    by (replace (1024 * k + x + 16 - 1) with ((x + 16 - 1) + (256 * k) * 4) by ring; rewrite Z.div_add; lia).
  unfold zrange. rewrite map_map. replace ((x + 16 - 1) / 4 + 256 * k - (x / 4 + 256 * k) + 1)
    with ((x + 16 - 1) / 4 - x / 4 + 1) by ring.
  apply map_ext. intros i. ring.
Qed.

(** Shifting every word by a multiple of 32 keeps each bank's distinct count. *)
Lemma dcount_shift : forall k b ws,
  dcount (in_bank b (map (fun w => 32 * k + w) ws)) = dcount (in_bank b ws).
Proof.
  intros k b ws. unfold dcount, in_bank.
  assert (Bk : forall w, bank_of (32 * k + w) = bank_of w).
  { intros w. unfold bank_of. rewrite Z.add_comm, Z.mul_comm, Z.mod_add by lia. reflexivity. }
  assert (E : filter (fun w => bank_of w =? b) (map (fun w => 32 * k + w) ws) =
              map (fun w => 32 * k + w) (filter (fun w => bank_of w =? b) ws)).
  { induction ws as [|w ws IH]; cbn [map filter]; [reflexivity|]. rewrite Bk.
    destruct (bank_of w =? b); cbn [map]; rewrite IH; reflexivity. }
  rewrite E. set (l := filter _ ws). clearbody l. f_equal.
  assert (P : Permutation (nodup Z.eq_dec (map (fun w => 32 * k + w) l))
                          (map (fun w => 32 * k + w) (nodup Z.eq_dec l))).
  { apply NoDup_Permutation; [apply NoDup_nodup| |].
    - apply FinFun.Injective_map_NoDup; [intros x y H; lia|apply NoDup_nodup].
    - intros x. rewrite nodup_In, !in_map_iff. split; intros [y [Ey Hy]]; exists y;
        split; try exact Ey; apply nodup_In in Hy || apply nodup_In; exact Hy. }
  rewrite (Permutation_length P), map_length. reflexivity.
Qed.

Lemma phase_cost_shift : forall k ws, 0 <= k -> (forall w, In w ws -> 0 <= w) ->
  fst (phase_cost (map (fun w => 32 * k + w) ws)) = fst (phase_cost ws).
Proof.
  intros k ws Hk Hpos.
  assert (Hpos' : forall w, In w (map (fun w => 32 * k + w) ws) -> 0 <= w).
  { intros w Hw. apply in_map_iff in Hw. destruct Hw as [v [<- Hv]]. pose proof (Hpos v Hv). lia. }
  destruct (phase_cost_correct _ Hpos') as [A1 B1]. destruct (phase_cost_correct _ Hpos) as [A2 B2].
  set (c1 := fst (phase_cost (map (fun w => 32 * k + w) ws))) in *.
  set (c2 := fst (phase_cost ws)) in *.
  assert (A1' : forall b, dcount (in_bank b ws) <= c1) by (intros b; rewrite <- (dcount_shift k); apply A1).
  pose proof (dcount_nonneg (in_bank 0 ws)) as N0. pose proof (A1' 0). pose proof (A2 0).
  destruct B1 as [[E1 _]|[_ [E1 _]]]; destruct B2 as [[E2 _]|[_ [E2 _]]].
  - lia.
  - pose proof (A1' (snd (phase_cost ws))). lia.
  - rewrite dcount_shift in E1. pose proof (A2 (snd (phase_cost (map (fun w => 32 * k + w) ws)))). lia.
  - rewrite dcount_shift in E1. pose proof (A2 (snd (phase_cost (map (fun w => 32 * k + w) ws)))).
    pose proof (A1' (snd (phase_cost ws))). lia.
Qed.

Lemma phase_words_nonneg : forall bytes W, (forall x, In x bytes -> 0 <= x) ->
  forall w, In w (phase_words bytes W) -> 0 <= w.
Proof.
  intros bytes W H w Hw. unfold phase_words in Hw. apply in_flat_map in Hw.
  destruct Hw as [x [Hx Hw]]. apply zrange_In in Hw. pose proof (H x Hx).
  assert (0 <= x / 4) by (apply Z.div_pos; lia). lia.
Qed.

Lemma swizzle128_nonneg : forall a, 0 <= a -> 0 <= swizzle_bytes a 128.
Proof.
  intros a Ha.
  assert (D : swizzle_bytes a 128 = Z.lxor a (Z.shiftl (Z.land (Z.shiftr a 7) 7) 4)) by reflexivity.
  rewrite D. apply Z.lxor_nonneg. split; intros _.
  - rewrite Z.shiftl_mul_pow2 by lia. apply Z.mul_nonneg_nonneg; [|lia].
    apply Z.land_nonneg. right. lia.
  - exact Ha.
Qed.

(** One wavefront for a column of 8 consecutive rows: the 8 chunks land in
    8 distinct chunk positions, so each bank holds one word. *)
Theorem sw128_column_conflict_free : forall R c, 0 <= R -> 0 <= c < 8 ->
  fst (phase_cost (column_phase R c)) = 1.
Proof.
  intros R c HR Hc.
  assert (E : column_phase R c = map (fun w => 32 * (8 * R) + w) (column_phase 0 c)).
  { unfold column_phase. replace (32 * (8 * R)) with (256 * R) by ring.
    rewrite <- phase_words_shift by lia. f_equal.
    rewrite map_map. apply map_ext_in. intros i Hi. apply zseq_In in Hi.
    replace ((8 * R + i) * 128 + c * 16) with (1024 * R + ((8 * 0 + i) * 128 + c * 16)) by ring.
    rewrite swizzle128_shift by lia. reflexivity. }
  rewrite E, phase_cost_shift by
    (try lia; apply phase_words_nonneg; intros x Hx; apply in_map_iff in Hx;
     destruct Hx as [i [<- Hi]]; apply zseq_In in Hi; apply swizzle128_nonneg; lia).
  assert (C : c = 0 \/ c = 1 \/ c = 2 \/ c = 3 \/ c = 4 \/ c = 5 \/ c = 6 \/ c = 7) by lia.
  repeat destruct C as [->|C]; subst; vm_compute; reflexivity.
Qed.

(** One wavefront for a row's 8 chunks (a TMA write of 128 bytes). *)
Theorem sw128_row_conflict_free : forall r, 0 <= r -> fst (phase_cost (row_phase r)) = 1.
Proof.
  intros r Hr.
  assert (E : row_phase r = map (fun w => 32 * (8 * (r / 8)) + w) (row_phase (r mod 8))).
  { unfold row_phase. replace (32 * (8 * (r / 8))) with (256 * (r / 8)) by ring.
    rewrite <- phase_words_shift by (apply Z.div_pos; lia). f_equal.
    rewrite map_map. apply map_ext_in. intros c Hc. apply zseq_In in Hc.
    pose proof (Z.mod_pos_bound r 8 ltac:(lia)).
    replace (r * 128 + c * 16) with (1024 * (r / 8) + (r mod 8 * 128 + c * 16))
      by (pose proof (Z_div_mod_eq_full r 8); lia).
    rewrite swizzle128_shift; [reflexivity|apply Z.div_pos; lia|lia]. }
  pose proof (Z.mod_pos_bound r 8 ltac:(lia)) as M.
  rewrite E, phase_cost_shift;
    [| pose proof (Z.div_pos r 8 ltac:(lia) ltac:(lia)); lia
     | unfold row_phase; apply phase_words_nonneg; intros x Hx; apply in_map_iff in Hx;
       destruct Hx as [i [<- Hi]]; apply zseq_In in Hi; apply swizzle128_nonneg; lia].
  assert (C : r mod 8 = 0 \/ r mod 8 = 1 \/ r mod 8 = 2 \/ r mod 8 = 3 \/ r mod 8 = 4 \/
              r mod 8 = 5 \/ r mod 8 = 6 \/ r mod 8 = 7) by lia.
  repeat destruct C as [C|C]; rewrite C; vm_compute; reflexivity.
Qed.

Close Scope Z_scope.
