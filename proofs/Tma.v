(** * The TMA "fundamental theorem" (nvFuser tma-modeling-in-depth.md,
      Theorem 6 "FTTC"; tma.md Step 3)

    The statement is about the index maps of one TMA dimension, not a
    boolean identity.  A dimension has tensor size [S], box size [B] and
    element stride [e].  nvFuser models it with two inner splits:
    - boxing split of the partitioned ID [I{S}]: coordinate ID [c] in
      [\[0, ceil(S/B))] and box ID [b] in [\[0, B)], with [i = c * B + b];
    - striding split of the box ID: tile ID [t] in [\[0, ceil(B/e))] and
      stride ID [s] in [\[0, e)], with [b = t * e + s].
    The software issues one TMA per visible index [(c, s)] (box coordinate
    [x = c * B + s]); the hardware iterates the tile ID [t] itself and reads
    global coordinate [x + t * e = i], writing the tensor's value if
    [i < S] and 0 otherwise.  A position is a hole unless [b < B] and
    [i < S].  Strong correctness (every hole holds 0, every valid item its
    value) may use a predicate on the visible indices only: when it is
    false, the TMA is issued at an out-of-bound box coordinate, which
    fills the whole tile with zeros. *)

From Coq Require Import Arith Lia List Bool.
Import ListNotations.
From Tessera Require Import Model.

Definition cdiv (a b : nat) : nat := (a + b - 1) / b.

Record dim := Dim { gsize : nat; boxsize : nat; estride : nat }.

Definition dim_ok (d : dim) : Prop := 1 <= gsize d /\ 1 <= boxsize d /\ 1 <= estride d.

(** A point of the per-dimension iteration: visible [(c, s)], internal [t]. *)
Record point := Pt { pc : nat; ps : nat; pt : nat }.

Definition box_index (d : dim) (p : point) : nat := pt p * estride d + ps p.
Definition global_index (d : dim) (p : point) : nat := pc p * boxsize d + box_index d p.

Definition in_range (d : dim) (p : point) : Prop :=
  pc p < cdiv (gsize d) (boxsize d) /\ ps p < estride d /\ pt p < cdiv (boxsize d) (estride d).

(** Valid item: box ID and partitioned ID both in bound. *)
Definition validb (d : dim) (p : point) : bool :=
  (box_index d p <? boxsize d) && (global_index d p <? gsize d).

(** The hardware's bound check: the partitioned ID only. *)
Definition hw_inb (d : dim) (p : point) : bool := global_index d p <? gsize d.

(** nvFuser's condition: strong correctness is impossible. *)
Definition fttc_violated (d : dim) : Prop :=
  estride d < boxsize d /\ boxsize d < gsize d /\ ~ Nat.divide (estride d) (boxsize d).

(** ** One dimension *)

(** Shared memory content at point [p] when the software predicate on the
    visible indices is [P] and the tensor holds [data]. *)
Definition smem1 (d : dim) (P : nat -> nat -> bool) (data : nat -> nat) (p : point) : nat :=
  if P (pc p) (ps p) then (if hw_inb d p then data (global_index d p) else 0) else 0.

Definition expected1 (d : dim) (data : nat -> nat) (p : point) : nat :=
  if validb d p then data (global_index d p) else 0.

Definition strongly_correct1 (d : dim) (P : nat -> nat -> bool) : Prop :=
  forall data p, in_range d p -> smem1 d P data p = expected1 d data p.

Definition weakly_correct1 (d : dim) (P : nat -> nat -> bool) : Prop :=
  forall data p, in_range d p -> validb d p = true -> smem1 d P data p = data (global_index d p).

(** Theorem 1 of tma-modeling-in-depth: TMA alone (no predicate) is weakly
    correct. *)
Theorem tma_weak_correctness : forall d, weakly_correct1 d (fun _ _ => true).
Proof.
  intros d data p _ Hv. unfold smem1, validb, hw_inb in *.
  apply andb_true_iff in Hv. destruct Hv as [_ Hv]. rewrite Hv. reflexivity.
Qed.

(** The predicate used when strong correctness is achievable: issue the
    TMA iff its first tile element ([t = 0]) is valid. *)
Definition fttc_pred (d : dim) (c s : nat) : bool :=
  validb d (Pt c s 0).

Lemma cdiv_spec : forall a b, 1 <= b -> forall t, t < cdiv a b <-> t * b < a.
Proof.
  intros a b Hb t. unfold cdiv.
  pose proof (Nat.div_mod (a + b - 1) b ltac:(lia)) as E.
  pose proof (Nat.mod_upper_bound (a + b - 1) b ltac:(lia)) as M.
  set (q := (a + b - 1) / b) in *. set (r := (a + b - 1) mod b) in *.
  split; intros H.
  - assert (t + 1 <= q) by lia. nia.
  - destruct (le_lt_dec q t) as [Hle|Hlt]; [|exact Hlt]. exfalso. nia.
Qed.

(** If the first element of a visible slot is a hole, all are: the slot
    can be switched off without losing valid items. *)
Lemma first_hole_all_holes : forall d p, validb d (Pt (pc p) (ps p) 0) = false ->
  validb d p = false.
Proof.
  intros d [c s t] H. unfold validb, global_index, box_index in *. simpl in *.
  apply andb_false_iff in H. apply andb_false_iff.
  destruct H as [H|H]; [left|right]; apply Nat.ltb_ge in H; apply Nat.ltb_ge; nia.
Qed.

(** When the condition is not violated, within a slot whose first element
    is valid, every hole is outside the tensor (so the hardware writes 0). *)
Lemma holes_out_of_tensor : forall d p, dim_ok d -> ~ fttc_violated d -> in_range d p ->
  validb d (Pt (pc p) (ps p) 0) = true -> validb d p = false -> hw_inb d p = false.
Proof.
  intros d [c s t] Hok Hnv Hr H0 Hh.
  destruct d as [S B e]. unfold dim_ok, fttc_violated, in_range, validb, hw_inb,
    global_index, box_index in *. simpl in *.
  apply andb_true_iff in H0. destruct H0 as [H0b H0i].
  apply Nat.ltb_lt in H0b, H0i. apply Nat.ltb_ge.
  apply andb_false_iff in Hh.
  destruct Hh as [Hb|Hi]; [|apply Nat.ltb_ge in Hi; exact Hi].
  apply Nat.ltb_ge in Hb.
  destruct Hr as [Hc [Hs Ht]].
  apply (cdiv_spec S B ltac:(lia)) in Hc. apply (cdiv_spec B e ltac:(lia)) in Ht.
  destruct (le_lt_dec B e) as [HeB|HeB].
  - (* e >= B: only t = 0 *) assert (t = 0) by nia. subst t. lia.
  - destruct (le_lt_dec S B) as [HSB|HSB].
    + (* B >= S: only c = 0 *) assert (c = 0) by nia. subst c. lia.
    + (* e | B *)
      assert (Hd : Nat.divide e B).
      { destruct (Nat.eq_dec (B mod e) 0) as [Hm|Hm].
        - apply Nat.mod_divide; [lia|assumption].
        - exfalso. apply Hnv. repeat split; try lia.
          intro Hd. apply Hm. apply Nat.mod_divide; [lia|assumption]. }
      destruct Hd as [q Hq]. subst B.
      assert (t < q) by nia. nia.
Qed.

Lemma fttc_pred_correct : forall d, dim_ok d -> ~ fttc_violated d ->
  strongly_correct1 d (fttc_pred d).
Proof.
  intros d Hok Hnv data p Hr. unfold smem1, expected1, fttc_pred.
  destruct p as [c s t]. simpl pc. simpl ps.
  destruct (validb d (Pt c s 0)) eqn:H0.
  - destruct (validb d (Pt c s t)) eqn:Hv.
    + unfold validb, hw_inb in *. apply andb_true_iff in Hv. destruct Hv as [_ Hv].
      rewrite Hv. reflexivity.
    + rewrite (holes_out_of_tensor d (Pt c s t) Hok Hnv Hr H0 Hv). reflexivity.
  - rewrite (first_hole_all_holes d (Pt c s t) H0). reflexivity.
Qed.

(** The witness of impossibility: with [B = q e + r], [0 < r < e], the slot
    [(c, s) = (0, r)] holds the valid item [i = r] at [t = 0] and the hole
    [b = q e + r = B] at [t = q], whose global index [B < S] is inside the
    tensor, so the hardware fills it with data. *)
Lemma fttc_witness : forall d, dim_ok d -> fttc_violated d ->
  let r := boxsize d mod estride d in
  let q := boxsize d / estride d in
  in_range d (Pt 0 r 0) /\ in_range d (Pt 0 r q) /\
  validb d (Pt 0 r 0) = true /\ validb d (Pt 0 r q) = false /\ hw_inb d (Pt 0 r q) = true.
Proof.
  intros [S B e] Hok [HeB [HBS Hnd]] r q.
  unfold dim_ok, in_range, validb, hw_inb, global_index, box_index in *. simpl in *.
  pose proof (Nat.div_mod B e ltac:(lia)) as E.
  pose proof (Nat.mod_upper_bound B e ltac:(lia)) as M.
  fold r q in E, M.
  assert (Hr0 : r <> 0).
  { intro Hr. apply Hnd. exists q. lia. }
  assert (Hc : 0 < cdiv S B) by (apply (cdiv_spec S B ltac:(lia)); lia).
  assert (Ht0 : 0 < cdiv B e) by (apply (cdiv_spec B e ltac:(lia)); lia).
  assert (Htq : q < cdiv B e) by (apply (cdiv_spec B e ltac:(lia)); nia).
  repeat split; try lia.
  - apply andb_true_iff. split; apply Nat.ltb_lt; lia.
  - apply andb_false_iff. left. apply Nat.ltb_ge. nia.
  - apply Nat.ltb_lt. nia.
Qed.

(** The fundamental theorem, one dimension: a predicate on the visible
    indices making the schedule strongly correct exists iff NOT
    ([e < B] and [B < S] and [e] does not divide [B]). *)
Theorem tma_fttc_1d : forall d, dim_ok d ->
  ((exists P, strongly_correct1 d P) <-> ~ fttc_violated d).
Proof.
  intros d Hok. split.
  - intros [P HP] Hv.
    destruct (fttc_witness d Hok Hv) as [R0 [Rq [V0 [Vq Iq]]]].
    set (r := boxsize d mod estride d) in *. set (q := boxsize d / estride d) in *.
    pose proof (HP (fun _ => 1) _ R0) as H0. pose proof (HP (fun _ => 1) _ Rq) as Hq.
    unfold smem1, expected1 in H0, Hq. simpl pc in *. simpl ps in *.
    rewrite V0 in H0. rewrite Vq, Iq in Hq.
    destruct (P 0 r); discriminate.
  - intros Hnv. exists (fttc_pred d). apply fttc_pred_correct; assumption.
Qed.

(** Without any predicate, holes are zero-filled iff every hole is outside
    the tensor; the Complementation seed's phrasing of the FTTC ("the box size must divide
    the tensor size, and the element stride must divide the box size")
    is sufficient for that, but not necessary for strong correctness:
    [S = 6, B = 4, e = 2] has [B] not dividing [S] and is strongly correct
    (holes of the boxing split are outside the tensor, so they read 0). *)
Theorem tma_seed000_condition_sufficient : forall d, dim_ok d ->
  Nat.divide (boxsize d) (gsize d) -> Nat.divide (estride d) (boxsize d) ->
  strongly_correct1 d (fun _ _ => true).
Proof.
  intros [S B e] Hok [k Hk] [q Hq] data [c s t] Hr.
  unfold dim_ok, in_range, smem1, expected1, validb, hw_inb, global_index, box_index in *.
  simpl in *. destruct Hr as [Hc [Hs Ht]].
  apply (cdiv_spec S B ltac:(lia)) in Hc. apply (cdiv_spec B e ltac:(lia)) in Ht.
  subst S B.
  assert (c < k) by nia. assert (t < q) by nia.
  replace (t * e + s <? q * e) with true by (symmetry; apply Nat.ltb_lt; nia).
  replace (c * (q * e) + (t * e + s) <? k * (q * e)) with true by (symmetry; apply Nat.ltb_lt; nia).
  reflexivity.
Qed.

Theorem tma_seed000_condition_not_necessary :
  let d := Dim 6 4 2 in
  ~ Nat.divide (boxsize d) (gsize d) /\ exists P, strongly_correct1 d P.
Proof.
  intros d. split.
  - intros [k Hk]. simpl in Hk. lia.
  - apply tma_fttc_1d; [unfold dim_ok; simpl; lia|].
    intros [_ [_ Hnd]]. apply Hnd. exists 2. reflexivity.
Qed.

(** ** All dimensions (the statement nvFuser makes)

    A TMA of rank [n] has one [(S, B, e)] per dimension; a tile element is a
    point per dimension; it is valid iff valid in every dimension; the
    hardware writes the tensor's value iff every global coordinate is inside
    the tensor.  The software predicate sees the visible indices [(c, s)] of
    all dimensions. *)

Fixpoint all_in_range (ds : list dim) (pts : list point) : Prop :=
  match ds, pts with
  | [], [] => True
  | d :: ds', p :: pts' => in_range d p /\ all_in_range ds' pts'
  | _, _ => False
  end.

Fixpoint validb_n (ds : list dim) (pts : list point) : bool :=
  match ds, pts with
  | d :: ds', p :: pts' => validb d p && validb_n ds' pts'
  | _, _ => true
  end.

Fixpoint hw_inb_n (ds : list dim) (pts : list point) : bool :=
  match ds, pts with
  | d :: ds', p :: pts' => hw_inb d p && hw_inb_n ds' pts'
  | _, _ => true
  end.

Fixpoint global_index_n (ds : list dim) (pts : list point) : list nat :=
  match ds, pts with
  | d :: ds', p :: pts' => global_index d p :: global_index_n ds' pts'
  | _, _ => []
  end.

Definition visible (p : point) : nat * nat := (pc p, ps p).

Definition smem (ds : list dim) (P : list (nat * nat) -> bool) (data : list nat -> nat)
    (pts : list point) : nat :=
  if P (map visible pts)
  then (if hw_inb_n ds pts then data (global_index_n ds pts) else 0)
  else 0.

Definition expected (ds : list dim) (data : list nat -> nat) (pts : list point) : nat :=
  if validb_n ds pts then data (global_index_n ds pts) else 0.

Definition strongly_correct (ds : list dim) (P : list (nat * nat) -> bool) : Prop :=
  forall data pts, all_in_range ds pts -> smem ds P data pts = expected ds data pts.

Definition weakly_correct (ds : list dim) (P : list (nat * nat) -> bool) : Prop :=
  forall data pts, all_in_range ds pts -> validb_n ds pts = true ->
    smem ds P data pts = data (global_index_n ds pts).

Fixpoint fttc_pred_n (ds : list dim) (vis : list (nat * nat)) : bool :=
  match ds, vis with
  | d :: ds', (c, s) :: vis' => fttc_pred d c s && fttc_pred_n ds' vis'
  | _, _ => true
  end.

Lemma valid_hw_n : forall ds pts, validb_n ds pts = true -> hw_inb_n ds pts = true.
Proof.
  induction ds as [|d ds IH]; intros [|p pts] H; simpl in *; try reflexivity.
  apply andb_true_iff in H. destruct H as [H1 H2].
  unfold validb in H1. apply andb_true_iff in H1. destruct H1 as [_ H1].
  unfold hw_inb. rewrite H1, (IH pts H2). reflexivity.
Qed.

Theorem tma_weak_correctness_n : forall ds, weakly_correct ds (fun _ => true).
Proof.
  intros ds data pts _ Hv. unfold smem. rewrite (valid_hw_n ds pts Hv). reflexivity.
Qed.

Lemma pred_n_false : forall ds pts, all_in_range ds pts ->
  fttc_pred_n ds (map visible pts) = false -> validb_n ds pts = false.
Proof.
  induction ds as [|d ds IH]; intros [|p pts] Hr H; simpl in *; try discriminate; try contradiction.
  destruct Hr as [Hr1 Hr].
  apply andb_false_iff in H. apply andb_false_iff.
  destruct H as [H|H]; [left | right; apply IH; assumption].
  apply first_hole_all_holes. destruct p; exact H.
Qed.

Lemma pred_n_true : forall ds pts, Forall dim_ok ds ->
  Forall (fun d => ~ fttc_violated d) ds -> all_in_range ds pts ->
  fttc_pred_n ds (map visible pts) = true -> validb_n ds pts = false ->
  hw_inb_n ds pts = false.
Proof.
  induction ds as [|d ds IH]; intros [|p pts] Hok Hnv Hr Hp Hv; simpl in *;
    try discriminate; try contradiction.
  inversion Hok as [|? ? Hok1 Hok']; subst. inversion Hnv as [|? ? Hnv1 Hnv']; subst.
  destruct Hr as [Hr1 Hr].
  apply andb_true_iff in Hp. destruct Hp as [Hp1 Hp].
  apply andb_false_iff in Hv. apply andb_false_iff.
  destruct Hv as [Hv|Hv]; [left | right; apply IH; assumption].
  apply holes_out_of_tensor; try assumption; destruct p; exact Hp1.
Qed.

Lemma fttc_pred_n_correct : forall ds, Forall dim_ok ds ->
  Forall (fun d => ~ fttc_violated d) ds -> strongly_correct ds (fttc_pred_n ds).
Proof.
  intros ds Hok Hnv data pts Hr. unfold smem, expected.
  destruct (fttc_pred_n ds (map visible pts)) eqn:Hp.
  - destruct (validb_n ds pts) eqn:Hv.
    + rewrite (valid_hw_n ds pts Hv). reflexivity.
    + rewrite (pred_n_true ds pts Hok Hnv Hr Hp Hv). reflexivity.
  - rewrite (pred_n_false ds pts Hr Hp). reflexivity.
Qed.

(** Every other dimension at its origin. *)
Definition origin (_ : dim) : point := Pt 0 0 0.

Lemma origin_ok : forall d, dim_ok d ->
  in_range d (origin d) /\ validb d (origin d) = true /\ hw_inb d (origin d) = true.
Proof.
  intros [S B e] Hok. unfold dim_ok, in_range, origin, validb, hw_inb,
    global_index, box_index in *. simpl in *.
  repeat split.
  - apply (cdiv_spec S B ltac:(lia)). lia.
  - lia.
  - apply (cdiv_spec B e ltac:(lia)). lia.
  - apply andb_true_iff. split; apply Nat.ltb_lt; lia.
  - apply Nat.ltb_lt. lia.
Qed.

Lemma embed_facts : forall pre post d p, Forall dim_ok (pre ++ d :: post) ->
  (all_in_range (pre ++ d :: post) (map origin pre ++ p :: map origin post) <-> in_range d p) /\
  validb_n (pre ++ d :: post) (map origin pre ++ p :: map origin post) = validb d p /\
  hw_inb_n (pre ++ d :: post) (map origin pre ++ p :: map origin post) = hw_inb d p /\
  map visible (map origin pre ++ p :: map origin post) =
    map (fun _ => (0, 0)) pre ++ visible p :: map (fun _ => (0, 0)) post.
Proof.
  intros pre post d p Hok.
  assert (Post : Forall dim_ok post ->
            all_in_range post (map origin post) /\ validb_n post (map origin post) = true /\
            hw_inb_n post (map origin post) = true).
  { clear. induction post as [|d' post IH]; intros H; simpl; [repeat split|].
    inversion H as [|x l Ho1 Ho2]; subst. destruct (origin_ok d' Ho1) as [A [B C]].
    destruct (IH Ho2) as [A' [B' C']]. rewrite B, B', C, C'. exact (conj (conj A A') (conj eq_refl eq_refl)). }
  induction pre as [|d' pre IH]; simpl in *.
  - inversion Hok as [|? ? H1 H2]; subst. destruct (Post H2) as [A [B C]].
    rewrite B, C, !andb_true_r, !map_map.
    split; [tauto|]. split; [reflexivity|]. split; reflexivity.
  - inversion Hok as [|? ? H1 H2]; subst. destruct (IH H2) as [A [B [C D]]].
    destruct (origin_ok d' H1) as [A' [B' C']].
    rewrite B, C, B', C', D.
    split; [tauto|]. split; [reflexivity|]. split; reflexivity.
Qed.

(** The fundamental theorem of TMA correctness (nvFuser's Theorem 6):
    for a TMA whose dimensions all have positive size, box and element
    stride, a predicate on the visible indices that makes the schedule
    strongly correct (every hole zero, every valid item its value) exists
    iff no dimension has [e < B < S] with [e] not dividing [B]. *)
Theorem tma_fttc : forall ds, Forall dim_ok ds ->
  ((exists P, strongly_correct ds P) <-> ~ (exists d, In d ds /\ fttc_violated d)).
Proof.
  intros ds Hok. split.
  - intros [P HP] [d [Hin Hv]].
    apply in_split in Hin. destruct Hin as [pre [post ->]].
    assert (Hd : dim_ok d) by (rewrite Forall_forall in Hok; apply Hok, in_elt).
    destruct (fttc_witness d Hd Hv) as [R0 [Rq [V0 [Vq Iq]]]].
    set (r := boxsize d mod estride d) in *. set (q := boxsize d / estride d) in *.
    destruct (embed_facts pre post d (Pt 0 r 0) Hok) as [A0 [B0 [_ D0]]].
    destruct (embed_facts pre post d (Pt 0 r q) Hok) as [Aq [Bq [Cq Dq]]].
    pose proof (HP (fun _ => 1) _ (proj2 A0 R0)) as H0.
    pose proof (HP (fun _ => 1) _ (proj2 Aq Rq)) as Hq.
    unfold smem, expected in H0, Hq.
    rewrite B0, V0, D0 in H0. rewrite Bq, Vq, Cq, Iq, Dq in Hq.
    unfold visible in H0, Hq. simpl in H0, Hq.
    destruct (P _); discriminate.
  - intros Hnv. exists (fttc_pred_n ds). apply fttc_pred_n_correct; [assumption|].
    apply Forall_forall. intros d Hin Hv. apply Hnv. exists d. split; assumption.
Qed.
