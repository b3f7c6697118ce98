(** * The shared-memory byte sum of [tessera check] (issue 28, item 4)

    The [smem_capacity] obligation ([crates/tessera/src/check/rules.rs],
    [smem_sum]) adds up CUTLASS's [SharedStorage] of the kernel: per stage
    the A and B tiles, the epilogue's tensors, the pipelines' barriers
    (two 8-byte mbarriers per stage), the order barriers and the tile
    scheduler, each member at the next offset aligned to its alignment and
    each struct padded to its own.  [smem_sum] below transcribes Rust's
    arithmetic step for step.

    Its definition is a layout: a storage is a list of placement steps
    [F s a] (a buffer of [s] bytes at the next multiple of [a]) and [P a]
    (pad to the next multiple of [a]: the start or the end of a struct of
    alignment [a]), run from offset 0 ([run]).  [smem_program] writes each
    kernel's [SharedStorage] member by member in declaration order.

    Proved:
    - [run_layout], [layout_disjoint]: any such program places its
      buffers in order, each at a multiple of its alignment, no two
      overlapping, all inside [\[0, end)];
    - [smem_sum_is_layout]: Rust's sum is the end of [smem_program] (its
      [sizeof]), when the alignments are powers of two (they are: 16, 128
      and the swizzle repeats 256 to 1024);
    - for the warp-specialized kernel, whose mainloop and epilogue tensors
      share a union, the mainloop's A and B buffers lie inside the union's
      first [mainloop] bytes ([tmaws_mainloop_layout]);
    - [smem_sum_monotone]: the sum grows with the stage count;
    - [largest_fitting_correct], [suggestion_correct]: the checker's
      binary search for a stage count that fits returns the largest one in
      [\[2, n - 1\]] whose storage fits the capacity, or 2 when none does. *)

From Coq Require Import ZArith Lia List Bool.
Import ListNotations.

Open Scope Z_scope.

(** ** Rounding up, as [derive::round_up] ([x] unchanged for [a = 0]) *)

Definition rup (x a : Z) : Z := if a =? 0 then x else (x + a - 1) / a * a.

Lemma rup_spec : forall x a, 0 < a ->
  x <= rup x a < x + a /\ (a | rup x a).
Proof.
  intros x a Ha. unfold rup. destruct (Z.eqb_spec a 0) as [E|_]; [lia|].
  pose proof (Z_div_mod_eq_full (x + a - 1) a) as E.
  pose proof (Z.mod_pos_bound (x + a - 1) a Ha) as M.
  split; [|exists ((x + a - 1) / a); reflexivity]. lia.
Qed.

Lemma rup_least : forall x a m, 0 < a -> (a | m) -> x <= m -> rup x a <= m.
Proof.
  intros x a m Ha [k ->] Hx. unfold rup. destruct (Z.eqb_spec a 0) as [E|_]; [lia|].
  assert (Q : (x + a - 1) / a < k + 1).
  { apply Z.div_lt_upper_bound; [lia|]. nia. }
  assert (Q' : (x + a - 1) / a <= k) by lia.
  apply Z.mul_le_mono_nonneg_r; lia.
Qed.

Lemma rup_of_mul : forall x a, 0 < a -> (a | x) -> rup x a = x.
Proof.
  intros x a Ha D. pose proof (rup_spec x a Ha). pose proof (rup_least x a x Ha D ltac:(lia)). lia.
Qed.

Lemma rup_unique : forall x a m, 0 < a -> (a | m) -> x <= m < x + a -> rup x a = m.
Proof.
  intros x a m Ha Dm Hm. destruct (rup_spec x a Ha) as [B [k Ek]]. destruct Dm as [j ->].
  assert (k = j) by nia. subst k. exact Ek.
Qed.

Lemma rup_add_mul : forall x y a, 0 < a -> (a | x) -> rup (x + y) a = x + rup y a.
Proof.
  intros x y a Ha Dx. destruct (rup_spec y a Ha) as [B Dy].
  apply rup_unique; [exact Ha| |lia]. apply Z.divide_add_r; assumption.
Qed.

Lemma rup_rup : forall x a b, 0 < a -> 0 < b -> (a | b) -> rup (rup x a) b = rup x b.
Proof.
  intros x a b Ha Hb D. destruct (rup_spec x a Ha) as [Ba Da]. destruct (rup_spec x b Hb) as [Bb Db].
  assert (L1 : rup x a <= rup x b) by (apply rup_least; [lia|apply (Z.divide_trans a b); assumption|lia]).
  destruct (rup_spec (rup x a) b Hb) as [Bab Dab].
  assert (L2 : rup (rup x a) b <= rup x b) by (apply rup_least; [lia|exact Db|lia]).
  assert (L3 : rup x b <= rup (rup x a) b) by (apply rup_least; [lia|exact Dab|lia]). lia.
Qed.

Lemma rup_mono : forall x y a, 0 <= a -> x <= y -> rup x a <= rup y a.
Proof.
  intros x y a Ha Hxy. destruct (Z.eq_dec a 0) as [->|Na]; [unfold rup; simpl; lia|].
  destruct (rup_spec y a ltac:(lia)) as [B D]. apply rup_least; [lia|exact D|lia].
Qed.

Lemma rup_nonneg : forall x a, 0 <= a -> 0 <= x -> 0 <= rup x a.
Proof.
  intros x a Ha Hx. destruct (Z.eq_dec a 0) as [->|Na]; [unfold rup; simpl; lia|].
  pose proof (rup_spec x a ltac:(lia)). lia.
Qed.

(** ** Layouts: buffers placed in order *)

Inductive step := F (s a : Z) | P (a : Z).

(** The buffers [(offset, size, alignment)] and the end. *)
Fixpoint run (cur : Z) (p : list step) : list (Z * Z * Z) * Z :=
  match p with
  | [] => ([], cur)
  | F s a :: p' => let o := rup cur a in
      let '(bs, e) := run (o + s) p' in ((o, s, a) :: bs, e)
  | P a :: p' => run (rup cur a) p'
  end.

Definition wf_step (st : step) : Prop :=
  match st with F s a => 0 <= s /\ 0 < a | P a => 0 < a end.

(** [chain cur bs e]: the buffers lie in order from [cur], each at a
    multiple of its alignment and after the end of the one before, the
    last ending at or before [e]. *)
Fixpoint chain (cur : Z) (bs : list (Z * Z * Z)) (e : Z) : Prop :=
  match bs with
  | [] => cur <= e
  | (o, s, a) :: bs' => cur <= o /\ (a | o) /\ 0 <= s /\ chain (o + s) bs' e
  end.

Theorem run_layout : forall p cur, Forall wf_step p ->
  chain cur (fst (run cur p)) (snd (run cur p)).
Proof.
  induction p as [|st p IH]; intros cur W; [simpl; lia|].
  inversion W as [|? ? Ws Wp]; subst.
  destruct st as [s a|a]; simpl in Ws |- *.
  - destruct (rup_spec cur a ltac:(lia)) as [B D].
    specialize (IH (rup cur a + s) Wp). destruct (run (rup cur a + s) p) as [bs e]. simpl in *.
    repeat split; try lia; assumption.
  - destruct (rup_spec cur a ltac:(lia)) as [B D].
    specialize (IH (rup cur a) Wp).
    revert IH. generalize (run (rup cur a) p). intros [bs e] H. simpl in *.
    destruct bs as [|[[o s] a'] bs]; simpl in *; [lia|]. destruct H as [H1 H2]. split; [lia|exact H2].
Qed.

Lemma chain_mono : forall bs cur cur' e, cur' <= cur -> chain cur bs e -> chain cur' bs e.
Proof.
  intros [|[[o s] a] bs] cur cur' e L H; simpl in *; [lia|]. destruct H as [H1 H2]. split; [lia|exact H2].
Qed.

Lemma chain_end : forall bs cur e, chain cur bs e -> cur <= e.
Proof.
  induction bs as [|[[o s] a] bs IH]; intros cur e H; simpl in H; [lia|].
  destruct H as [H1 [_ [H3 H4]]]. specialize (IH _ _ H4). lia.
Qed.

Lemma chain_bounds : forall bs cur e, chain cur bs e ->
  forall o s a, In (o, s, a) bs -> cur <= o /\ o + s <= e /\ (a | o).
Proof.
  induction bs as [|[[o0 s0] a0] bs IH]; intros cur e H o s a I; [destruct I|].
  simpl in H. destruct H as [H1 [H2 [H3 H4]]].
  destruct I as [E|I].
  - inversion E; subst. pose proof (chain_end _ _ _ H4). split; [lia|]. split; [lia|exact H2].
  - destruct (IH _ _ H4 o s a I) as [B1 B2]. split; [lia|exact B2].
Qed.

(** Any two buffers of a layout are disjoint byte ranges. *)
Theorem layout_disjoint : forall bs cur e, chain cur bs e ->
  forall i j, (i < j < length bs)%nat ->
  let '(oi, si, _) := nth i bs (0, 0, 0) in let '(oj, _, _) := nth j bs (0, 0, 0) in oi + si <= oj.
Proof.
  induction bs as [|[[o s] a] bs IH]; intros cur e H i j L; simpl in L; [lia|].
  simpl in H. destruct H as [H1 [H2 [H3 H4]]].
  destruct i as [|i]; destruct j as [|j]; try lia; simpl.
  - assert (I : In (nth j bs (0, 0, 0)) bs) by (apply nth_In; lia).
    destruct (nth j bs (0, 0, 0)) as [[oj sj] aj] eqn:Ej.
    destruct (chain_bounds bs (o + s) e H4 oj sj aj I). lia.
  - apply (IH (o + s) e H4 i j). lia.
Qed.

(** ** Rust's sum, transcribed *)

Definition MB2 : Z := 16. (* two 8-byte mbarriers *)

(** [rep r]: the RS mainloop's alignment of a buffer whose smem atom has
    swizzle repeat [r] ([0] for none): [max(r, 128)], 128 without one. *)
Definition rep (r : Z) : Z := if r =? 0 then 128 else Z.max r 128.

Definition main_aligns (rs : bool) (ra rb : Z) : Z * Z * Z :=
  if rs then (rep ra, rep rb, Z.max (rep ra) (rep rb)) else (16, 16, 128).

Definition epi_parts (epi : option (Z * Z * Z)) : Z * Z * Z :=
  match epi with
  | Some (t, sc, al) => (t, MB2 * sc, al)
  | None => (1, 1, 1)
  end.

(** [kernel]: 0 for the warp-specialized kernel (mainloop and epilogue
    tensors in a union), 1 for the ping-pong kernel (with its math order
    barriers), anything else for the cooperative kernel. *)
Definition smem_sum (sm90 : bool) (kernel : Z) (rs : bool) (sa sb stages ra rb : Z)
    (epi : option (Z * Z * Z)) (stage_bytes : Z) : Z :=
  if sm90 then
    let a := sa * stages in
    let b := sb * stages in
    let '(al_a, al_b, ml) := main_aligns rs ra rb in
    let mt := rup (rup (rup a al_a) al_b + b) ml in
    let mp := MB2 * stages in
    let '(et, ep, ea) := epi_parts epi in
    let ta := Z.max ea ml in
    if kernel =? 0 then
      let tens := rup (Z.max mt et) ta in
      let pipes := rup mp 16 + rup ep 16 in
      rup (tens + pipes) ta
    else
      let order := MB2 in
      let math := if kernel =? 1 then 2 * MB2 else 0 in
      let pipelines := rup mp 16 + rup ep 16 + rup order 16 + rup math 16 in
      let off := rup (pipelines + 16) ta in
      let tens := rup (rup et ml + mt) ta in
      rup (off + tens) ta
  else stage_bytes * stages.

(** ** The storage as a layout *)

(** The mainloop's TensorStorage: A's and B's buffers (each an array
    engine padded to its alignment) in a struct aligned to [ml]. *)
Definition mainloop_program (a b al_a al_b ml : Z) : list step :=
  [P ml; P al_a; F a al_a; P al_a; F b al_b; P ml].

Definition smem_program (sm90 : bool) (kernel : Z) (rs : bool) (sa sb stages ra rb : Z)
    (epi : option (Z * Z * Z)) (stage_bytes : Z) : list step :=
  if sm90 then
    let a := sa * stages in
    let b := sb * stages in
    let '(al_a, al_b, ml) := main_aligns rs ra rb in
    let mt := snd (run 0 (mainloop_program a b al_a al_b ml)) in
    let mp := MB2 * stages in
    let '(et, ep, ea) := epi_parts epi in
    let ta := Z.max ea ml in
    if kernel =? 0 then
      (* SharedStorage { union { mainloop; epilogue } tensors;
                         pipelines { mainloop; epi_load } } *)
      [P ta; F (Z.max mt et) ta; P ta;
       P 16; F mp 16; P 16; F ep 16; P 16; P 16; P ta]
    else
      (* SharedStorage { pipelines { mainloop; epi_load; [math order]; load order };
                         alignas(16) scheduler; TensorStorage { epilogue; mainloop } } *)
      [P ta; P 16; F mp 16; P 16; F ep 16; P 16; F MB2 16; P 16;
       F (if kernel =? 1 then 2 * MB2 else 0) 16; P 16; P 16;
       F 16 16;
       P ta; F et ea] ++ mainloop_program a b al_a al_b ml ++ [P ta; P ta]
  else [F (stage_bytes * stages) 16].

(** Powers of two. *)
Definition pow2 (x : Z) : Prop := exists k, 0 <= k /\ x = 2 ^ k.

Lemma pow2_pos : forall x, pow2 x -> 0 < x.
Proof. intros x [k [Hk ->]]. apply Z.pow_pos_nonneg; lia. Qed.

Lemma pow2_divide : forall x y, pow2 x -> pow2 y -> x <= y -> (x | y).
Proof.
  intros x y [i [Hi ->]] [j [Hj ->]] L.
  assert (i <= j).
  { destruct (Z.le_gt_cases i j) as [H|H]; [exact H|].
    assert (2 ^ j < 2 ^ i) by (apply Z.pow_lt_mono_r; lia). lia. }
  exists (2 ^ (j - i)). rewrite <- Z.pow_add_r by lia. f_equal. lia.
Qed.

Lemma pow2_max : forall x y, pow2 x -> pow2 y -> pow2 (Z.max x y).
Proof. intros x y Hx Hy. destruct (Z.max_spec x y) as [[_ ->]|[_ ->]]; assumption. Qed.

Lemma pow2_128 : pow2 128. Proof. exists 7. split; [lia|reflexivity]. Qed.
Lemma pow2_16 : pow2 16. Proof. exists 4. split; [lia|reflexivity]. Qed.

(** The premise: the swizzle repeats (when given) and the epilogue's
    alignment are powers of two. *)
Definition aligns_ok (ra rb ea : Z) : Prop := (ra = 0 \/ pow2 ra) /\ (rb = 0 \/ pow2 rb) /\ pow2 ea.

Lemma rep_pow2 : forall r, (r = 0 \/ pow2 r) -> pow2 (rep r) /\ 128 <= rep r.
Proof.
  intros r H. unfold rep. destruct (Z.eqb_spec r 0) as [_|N]; [split; [apply pow2_128|lia]|].
  destruct H as [H|H]; [lia|]. split; [apply pow2_max; [exact H|apply pow2_128]|lia].
Qed.

Lemma main_aligns_ok : forall rs ra rb, (ra = 0 \/ pow2 ra) -> (rb = 0 \/ pow2 rb) ->
  let '(al_a, al_b, ml) := main_aligns rs ra rb in
  pow2 al_a /\ pow2 al_b /\ pow2 ml /\ 16 <= al_a /\ 16 <= al_b /\ 128 <= ml /\
  al_a <= ml /\ al_b <= ml.
Proof.
  intros rs ra rb Ha Hb. unfold main_aligns. destruct rs.
  - destruct (rep_pow2 ra Ha), (rep_pow2 rb Hb).
    repeat split; try assumption; try lia. apply pow2_max; assumption.
  - repeat split; try lia; first [apply pow2_16 | apply pow2_128].
Qed.

Lemma end_P : forall cur a p, snd (run cur (P a :: p)) = snd (run (rup cur a) p).
Proof. reflexivity. Qed.

Lemma end_F : forall cur s a p, snd (run cur (F s a :: p)) = snd (run (rup cur a + s) p).
Proof. intros. simpl. destruct (run (rup cur a + s) p). reflexivity. Qed.

Lemma end_nil : forall cur, snd (run cur []) = cur.
Proof. reflexivity. Qed.

Lemma end_app : forall p q cur, snd (run cur (p ++ q)) = snd (run (snd (run cur p)) q).
Proof.
  induction p as [|[s a|a] p IH]; intros q cur; [reflexivity| |].
  - simpl app. rewrite !end_F. apply IH.
  - simpl app. rewrite !end_P. apply IH.
Qed.

(** The mainloop's struct placed at the next multiple of its alignment. *)
Lemma mainloop_end : forall cur a b al_a al_b ml, 0 < al_a -> 0 < al_b -> 0 < ml ->
  (al_a | ml) -> (al_b | ml) ->
  snd (run cur (mainloop_program a b al_a al_b ml)) =
  rup cur ml + rup (rup (rup a al_a) al_b + b) ml.
Proof.
  intros cur a b al_a al_b ml Ha Hb Hm Da Db. unfold mainloop_program.
  rewrite end_P, end_P, end_F, end_P, end_F, end_P, end_nil.
  destruct (rup_spec cur ml Hm) as [_ Dbase]. set (base := rup cur ml) in *.
  assert (Dba : (al_a | base)) by (eapply Z.divide_trans; eassumption).
  assert (Dbb : (al_b | base)) by (eapply Z.divide_trans; eassumption).
  rewrite (rup_of_mul base al_a Ha Dba), (rup_of_mul base al_a Ha Dba).
  rewrite (rup_add_mul base a al_a Ha Dba).
  rewrite (rup_add_mul base _ al_b Hb Dbb).
  rewrite <- Z.add_assoc, (rup_add_mul base _ ml Hm Dbase). reflexivity.
Qed.

(** A step at an offset that is already aligned. *)
Lemma rup_add_aligned : forall x y a, 0 < a -> (a | x) -> (a | y) -> rup (x + y) a = x + y.
Proof. intros. apply rup_of_mul; [assumption|apply Z.divide_add_r; assumption]. Qed.

Theorem smem_sum_is_layout : forall sm90 kernel rs sa sb stages ra rb epi stage_bytes,
  (forall t sc al, epi = Some (t, sc, al) -> pow2 al) ->
  (ra = 0 \/ pow2 ra) -> (rb = 0 \/ pow2 rb) ->
  smem_sum sm90 kernel rs sa sb stages ra rb epi stage_bytes =
  snd (run 0 (smem_program sm90 kernel rs sa sb stages ra rb epi stage_bytes)).
Proof.
  intros sm90 kernel rs sa sb stages ra rb epi stage_bytes He Ha Hb.
  unfold smem_sum, smem_program. destruct sm90;
    [|rewrite end_F, end_nil, rup_of_mul; [lia|lia|apply Z.divide_0_r]].
  pose proof (main_aligns_ok rs ra rb Ha Hb) as MA.
  destruct (main_aligns rs ra rb) as [[al_a al_b] ml]. cbv beta iota zeta.
  destruct MA as [Pa [Pb [Pm [La [Lb [Lm [Lam Lbm]]]]]]].
  assert (Dam : (al_a | ml)) by (apply pow2_divide; assumption).
  assert (Dbm : (al_b | ml)) by (apply pow2_divide; assumption).
  pose proof (pow2_pos _ Pa). pose proof (pow2_pos _ Pb). pose proof (pow2_pos _ Pm).
  rewrite (mainloop_end 0) by assumption.
  rewrite (rup_of_mul 0 ml) by (try lia; apply Z.divide_0_r). rewrite Z.add_0_l.
  set (mt := rup (rup (rup (sa * stages) al_a) al_b + sb * stages) ml).
  assert (Pe : pow2 (let '(_, _, ea) := epi_parts epi in ea)).
  { destruct epi as [[[t sc] al]|]; simpl; [eapply He; reflexivity|exists 0; split; [lia|reflexivity]]. }
  destruct (epi_parts epi) as [[et ep] ea]. cbv beta iota zeta.
  set (ta := Z.max ea ml).
  assert (Pta : pow2 ta) by (apply pow2_max; assumption).
  assert (Hta : 0 < ta) by (apply pow2_pos; exact Pta).
  assert (Dmta : (ml | ta)) by (apply pow2_divide; [exact Pm|exact Pta|unfold ta; lia]).
  assert (Deta : (ea | ta)) by (apply pow2_divide; [exact Pe|exact Pta|unfold ta; lia]).
  assert (D16 : (16 | ta)) by (apply pow2_divide; [apply pow2_16|exact Pta|unfold ta; lia]).
  assert (Hea : 0 < ea) by (apply pow2_pos; exact Pe).
  assert (H16 : 0 < 16) by lia.
  assert (D00 : forall a, (a | 0)) by (intros; apply Z.divide_0_r).
  destruct (Z.eqb_spec kernel 0) as [K0|K0].
  - repeat first [rewrite end_P | rewrite end_F]. rewrite end_nil.
    rewrite !(rup_of_mul 0 ta Hta (D00 ta)), Z.add_0_l.
    destruct (rup_spec (Z.max mt et) ta Hta) as [_ Dt].
    set (tens := rup (Z.max mt et) ta) in *.
    assert (D16t : (16 | tens)) by (eapply Z.divide_trans; eassumption).
    rewrite (rup_of_mul tens 16 H16 D16t), (rup_of_mul tens 16 H16 D16t).
    rewrite (rup_add_mul tens _ 16 H16 D16t).
    destruct (rup_spec (MB2 * stages) 16 H16) as [_ Dmp].
    assert (D1 : (16 | tens + rup (MB2 * stages) 16)) by (apply Z.divide_add_r; assumption).
    rewrite (rup_of_mul _ 16 H16 D1).
    rewrite (rup_add_mul (tens + rup (MB2 * stages) 16) ep 16 H16 D1).
    destruct (rup_spec ep 16 H16) as [_ Dep].
    assert (D2 : (16 | tens + rup (MB2 * stages) 16 + rup ep 16)) by (apply Z.divide_add_r; assumption).
    rewrite (rup_of_mul _ 16 H16 D2). rewrite <- !Z.add_assoc. reflexivity.
  - rewrite end_app, end_app. rewrite mainloop_end by assumption.
    repeat first [rewrite end_P | rewrite end_F]. rewrite !end_nil.
    rewrite (rup_of_mul 0 ta Hta (D00 ta)), (rup_of_mul 0 16 H16 (D00 16)), Z.add_0_l.
    destruct (rup_spec (MB2 * stages) 16 H16) as [_ Dmp].
    set (R1 := rup (MB2 * stages) 16) in *.
    rewrite (rup_of_mul R1 16 H16 Dmp), (rup_add_mul R1 ep 16 H16 Dmp).
    destruct (rup_spec ep 16 H16) as [_ Dep].
    set (R2 := R1 + rup ep 16).
    assert (D2 : (16 | R2)) by (apply Z.divide_add_r; assumption).
    rewrite (rup_of_mul R2 16 H16 D2), (rup_add_mul R2 MB2 16 H16 D2).
    assert (DM : (16 | rup MB2 16)) by (apply rup_spec; lia).
    set (R3 := R2 + rup MB2 16).
    assert (D3 : (16 | R3)) by (apply Z.divide_add_r; assumption).
    set (math := if kernel =? 1 then 2 * MB2 else 0).
    rewrite (rup_of_mul R3 16 H16 D3), (rup_add_mul R3 math 16 H16 D3).
    destruct (rup_spec math 16 H16) as [_ Dma].
    set (R4 := R3 + rup math 16).
    assert (D4 : (16 | R4)) by (apply Z.divide_add_r; assumption).
    rewrite !(rup_of_mul R4 16 H16 D4).
    destruct (rup_spec (R4 + 16) ta Hta) as [_ Doff].
    set (off := rup (R4 + 16) ta) in *.
    assert (Deoff : (ea | off)) by (eapply Z.divide_trans; eassumption).
    assert (Dmoff : (ml | off)) by (eapply Z.divide_trans; eassumption).
    rewrite (rup_of_mul off ea Hea Deoff), (rup_add_mul off et ml ltac:(lia) Dmoff).
    fold mt. rewrite <- (Z.add_assoc off).
    rewrite (rup_add_mul off (rup et ml + mt) ta Hta Doff).
    rewrite (rup_add_mul off (rup (rup et ml + mt) ta) ta Hta Doff).
    reflexivity.
Qed.

Ltac wf_tac :=
  repeat (apply Forall_cons; [unfold wf_step; unfold MB2; repeat split; lia|]); apply Forall_nil.

(** Every buffer of the storage lies inside [\[0, smem_sum)], at a
    multiple of its alignment, after the one before (so no two overlap:
    [layout_disjoint]).  In the warp-specialized kernel the mainloop's A
    and B buffers share the union with the epilogue's tensors: they are
    laid out the same way inside its first [mt] bytes. *)
Theorem smem_layout_sound : forall sm90 kernel rs sa sb stages ra rb epi stage_bytes,
  (forall t sc al, epi = Some (t, sc, al) -> pow2 al /\ 0 <= t /\ 0 <= sc) ->
  (ra = 0 \/ pow2 ra) -> (rb = 0 \/ pow2 rb) ->
  0 <= sa -> 0 <= sb -> 0 <= stages -> 0 <= stage_bytes ->
  let p := smem_program sm90 kernel rs sa sb stages ra rb epi stage_bytes in
  chain 0 (fst (run 0 p)) (smem_sum sm90 kernel rs sa sb stages ra rb epi stage_bytes) /\
  (sm90 = true -> kernel = 0 ->
   let '(al_a, al_b, ml) := main_aligns rs ra rb in
   let ml_p := mainloop_program (sa * stages) (sb * stages) al_a al_b ml in
   chain 0 (fst (run 0 ml_p)) (snd (run 0 ml_p)) /\
   snd (run 0 ml_p) <= smem_sum sm90 kernel rs sa sb stages ra rb epi stage_bytes).
Proof.
  intros sm90 kernel rs sa sb stages ra rb epi stage_bytes He Ha Hb Hsa Hsb Hst Hsb'. cbv zeta.
  rewrite smem_sum_is_layout by (try assumption; intros t sc al E; apply (He t sc al E)).
  pose proof (main_aligns_ok rs ra rb Ha Hb) as MA.
  assert (Pe : 0 <= (let '(et, _, _) := epi_parts epi in et) /\ 0 <= (let '(_, ep, _) := epi_parts epi in ep) /\
               0 < (let '(_, _, ea) := epi_parts epi in ea)).
  { destruct epi as [[[t sc] al]|]; unfold epi_parts; cbv beta iota; [|lia].
    destruct (He t sc al eq_refl) as [P1 [P2 P3]]. pose proof (pow2_pos _ P1). unfold MB2 in *. lia. }
  assert (Wml : forall al_a al_b ml, 0 < al_a -> 0 < al_b -> 0 < ml ->
    Forall wf_step (mainloop_program (sa * stages) (sb * stages) al_a al_b ml)).
  { intros. unfold mainloop_program. repeat constructor; simpl; nia. }
  assert (Hmt : forall al_a al_b ml, 0 < al_a -> 0 < al_b -> 0 < ml ->
    0 <= snd (run 0 (mainloop_program (sa * stages) (sb * stages) al_a al_b ml))).
  { intros al_a al_b ml H1 H2 H3.
    set (q := mainloop_program (sa * stages) (sb * stages) al_a al_b ml).
    apply (chain_end (fst (run 0 q))). apply run_layout. apply Wml; assumption. }
  split.
  - apply run_layout. unfold smem_program. destruct sm90; [|apply Forall_cons; [unfold wf_step; split; nia|apply Forall_nil]].
    destruct (main_aligns rs ra rb) as [[al_a al_b] ml]. cbv beta iota zeta.
    destruct MA as [Pa [Pb [Pm _]]].
    pose proof (pow2_pos _ Pa). pose proof (pow2_pos _ Pb). pose proof (pow2_pos _ Pm).
    specialize (Hmt al_a al_b ml ltac:(lia) ltac:(lia) ltac:(lia)).
    destruct (epi_parts epi) as [[et ep] ea]. cbv beta iota zeta in *.
    destruct (kernel =? 0).
    + wf_tac.
    + destruct (kernel =? 1); (apply Forall_app; split; [wf_tac|]); (apply Forall_app; split; [apply Wml; lia|wf_tac]).

  - intros -> ->. unfold smem_program.
    destruct (main_aligns rs ra rb) as [[al_a al_b] ml]. cbv beta iota zeta.
    destruct MA as [Pa [Pb [Pm _]]].
    pose proof (pow2_pos _ Pa). pose proof (pow2_pos _ Pb). pose proof (pow2_pos _ Pm).
    split; [apply run_layout, Wml; lia|].
    set (mt := snd (run 0 (mainloop_program (sa * stages) (sb * stages) al_a al_b ml))).
    destruct (epi_parts epi) as [[et ep] ea]. cbv beta iota zeta in *. simpl (0 =? 0). cbv iota.
    rewrite end_P, end_F. set (ta := Z.max ea ml).
    assert (Hta : 0 < ta) by (unfold ta; lia).
    destruct (rup_spec 0 ta Hta) as [B0 _].
    assert (W : Forall wf_step [P ta; P 16; F (MB2 * stages) 16; P 16; F ep 16; P 16; P 16; P ta])
      by wf_tac.
    rewrite !(rup_of_mul 0 ta Hta (Z.divide_0_r ta)).
    pose proof (chain_end _ _ _ (run_layout _ (0 + Z.max mt et) W)).
    lia.
Qed.

(** ** The sum grows with the stage count *)

Lemma main_aligns_pos : forall rs ra rb,
  let '(al_a, al_b, ml) := main_aligns rs ra rb in 0 < al_a /\ 0 < al_b /\ 0 < ml.
Proof.
  intros. unfold main_aligns, rep. destruct rs; [|lia].
  destruct (ra =? 0), (rb =? 0); lia.
Qed.

Ltac mono :=
  repeat first [ apply Z.le_refl
               | apply rup_mono; [lia|]
               | apply Z.add_le_mono
               | apply Z.max_le_compat_r
               | apply Z.mul_le_mono_nonneg_l; [lia|lia] ].

Theorem smem_sum_monotone : forall sm90 kernel rs sa sb s1 s2 ra rb epi stage_bytes,
  0 <= sa -> 0 <= sb -> 0 <= stage_bytes -> 0 <= s1 <= s2 ->
  smem_sum sm90 kernel rs sa sb s1 ra rb epi stage_bytes <=
  smem_sum sm90 kernel rs sa sb s2 ra rb epi stage_bytes.
Proof.
  intros sm90 kernel rs sa sb s1 s2 ra rb epi stage_bytes Ha Hb Hs H12.
  unfold smem_sum. destruct sm90; [|nia].
  pose proof (main_aligns_pos rs ra rb) as MA.
  destruct (main_aligns rs ra rb) as [[al_a al_b] ml]. cbv beta iota zeta.
  destruct (epi_parts epi) as [[et ep] ea]. cbv beta iota zeta. unfold MB2.
  assert (Hta : 0 < Z.max ea ml) by lia.
  destruct (kernel =? 0); mono.
Qed.

(** ** The stage-count suggestion: a binary search *)

Fixpoint search (fuel : nat) (fits : Z -> bool) (lo hi : Z) : Z :=
  match fuel with
  | O => lo
  | S f =>
      if lo <? hi then
        let mid := lo + (hi - lo + 1) / 2 in
        if fits mid then search f fits mid hi else search f fits lo (mid - 1)
      else lo
  end.

(** Rust's [largest_fitting n fits]: [n] itself for [n <= 2], else the
    search over [\[2, n - 1\]] (fuel: the number of halvings). *)
Definition largest_fitting (n : Z) (fits : Z -> bool) : Z :=
  if n <=? 2 then n else search (Z.to_nat (Z.log2 n + 1)) fits 2 (n - 1).

Lemma search_correct : forall fits N fuel lo hi,
  (forall x y, 2 <= x <= y -> fits y = true -> fits x = true) ->
  2 <= lo <= hi -> hi <= N -> hi - lo < 2 ^ Z.of_nat fuel ->
  (fits lo = true \/ lo = 2) -> (forall t, hi < t <= N -> fits t = false) ->
  let s := search fuel fits lo hi in
  lo <= s <= hi /\ (fits s = true \/ s = 2) /\ (forall t, s < t <= N -> fits t = false).
Proof.
  intros fits N fuel. induction fuel as [|f IH]; intros lo hi Mono Hlh HN Hw Hlo Hhi; cbv zeta.
  - simpl in Hw. simpl. assert (lo = hi) by lia. subst. split; [lia|]. split; assumption.
  - simpl. rewrite Nat2Z.inj_succ, Z.pow_succ_r in Hw by lia.
    pose proof (Z.pow_pos_nonneg 2 (Z.of_nat f) ltac:(lia) ltac:(lia)) as Pf.
    destruct (Z.ltb_spec lo hi) as [L|L]; [|split; [lia|split; [exact Hlo|]]; intros t Ht; apply Hhi; lia].
    set (mid := lo + (hi - lo + 1) / 2).
    assert (Hm1 : lo < mid <= hi).
    { unfold mid. split.
      - assert (1 <= (hi - lo + 1) / 2) by (apply Z.div_le_lower_bound; lia). lia.
      - assert ((hi - lo + 1) / 2 <= hi - lo) by (apply Z.div_le_upper_bound; lia). lia. }
    assert (Hm2 : 2 * ((hi - lo + 1) / 2) <= hi - lo + 1 < 2 * ((hi - lo + 1) / 2) + 2).
    { pose proof (Z_div_mod_eq_full (hi - lo + 1) 2). pose proof (Z.mod_pos_bound (hi - lo + 1) 2 ltac:(lia)). lia. }
    destruct (fits mid) eqn:Fm.
    + destruct (IH mid hi Mono ltac:(lia) HN ltac:(unfold mid in *; lia) (or_introl Fm) Hhi)
        as [S1 [S2 S3]].
      split; [lia|split; assumption].
    + assert (Hhi' : forall t, mid - 1 < t <= N -> fits t = false).
      { intros t Ht. destruct (Z.le_gt_cases t hi) as [Th|Th]; [|apply Hhi; lia].
        destruct (fits t) eqn:Ft; [|reflexivity].
        rewrite (Mono mid t ltac:(lia) Ft) in Fm. discriminate. }
      destruct (IH lo (mid - 1) Mono ltac:(lia) ltac:(lia) ltac:(unfold mid in *; lia) Hlo Hhi')
        as [S1 [S2 S3]].
      split; [lia|split; assumption].
Qed.

Theorem largest_fitting_correct : forall n fits,
  (forall x y, 2 <= x <= y -> fits y = true -> fits x = true) -> 2 < n ->
  let s := largest_fitting n fits in
  2 <= s <= n - 1 /\ (fits s = true \/ s = 2) /\ (forall t, s < t <= n - 1 -> fits t = false).
Proof.
  intros n fits Mono Hn. cbv zeta. unfold largest_fitting.
  destruct (Z.leb_spec n 2) as [L|_]; [lia|].
  pose proof (Z.log2_spec n ltac:(lia)) as [_ Lg].
  pose proof (Z.log2_nonneg n).
  apply (search_correct fits (n - 1)); try assumption; try lia.
  - rewrite Z2Nat.id by lia. unfold Z.succ in Lg. lia.
Qed.

(** The checker's verdict and its suggestion: the storage fits when its
    byte sum is at most the capacity; past it, with a fixed stage count
    [n], the checker suggests [largest_fitting n] over "the storage with
    [s] stages fits". *)
Definition smem_fits sm90 kernel rs sa sb stages ra rb epi stage_bytes cap : bool :=
  smem_sum sm90 kernel rs sa sb stages ra rb epi stage_bytes <=? cap.

Definition suggestion sm90 kernel rs sa sb ra rb epi stage_bytes cap n : Z :=
  largest_fitting n (fun s => smem_fits sm90 kernel rs sa sb s ra rb epi stage_bytes cap).

Theorem suggestion_correct : forall sm90 kernel rs sa sb ra rb epi stage_bytes cap n,
  0 <= sa -> 0 <= sb -> 0 <= stage_bytes -> 2 < n ->
  let s := suggestion sm90 kernel rs sa sb ra rb epi stage_bytes cap n in
  2 <= s <= n - 1 /\
  (smem_sum sm90 kernel rs sa sb s ra rb epi stage_bytes <= cap \/ s = 2) /\
  (forall t, s < t <= n - 1 -> cap < smem_sum sm90 kernel rs sa sb t ra rb epi stage_bytes).
Proof.
  intros sm90 kernel rs sa sb ra rb epi stage_bytes cap n Ha Hb Hs Hn. cbv zeta.
  unfold suggestion.
  destruct (largest_fitting_correct n (fun s => smem_fits sm90 kernel rs sa sb s ra rb epi stage_bytes cap))
    as [S1 [S2 S3]]; [|exact Hn|].
  - intros x y Hxy F. unfold smem_fits in *. apply Z.leb_le in F. apply Z.leb_le.
    pose proof (smem_sum_monotone sm90 kernel rs sa sb x y ra rb epi stage_bytes Ha Hb Hs ltac:(lia)). lia.
  - split; [exact S1|]. split.
    + destruct S2 as [S2|S2]; [left; unfold smem_fits in S2; apply Z.leb_le in S2; exact S2|right; exact S2].
    + intros t Ht. specialize (S3 t Ht). unfold smem_fits in S3. apply Z.leb_gt in S3. exact S3.
Qed.

Close Scope Z_scope.
