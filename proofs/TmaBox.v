(** * The TMA box arithmetic on a swizzled shared-memory tile (issue 28, item 4)

    What a TMA copy writes to shared memory ([crates/tessera/src/tma/]):
    a box of [d_0 x d_1 x ...] elements (driver order: dimension 0
    innermost), written row-major from dimension 0, each row of [d_0]
    elements padded, with a swizzle, to the swizzle span when it is
    narrower ([Swizzle::row_pitch_bits], measured on an H200), then
    16-byte chunks permuted by the swizzle over byte addresses.

    Transcribed: [pitch_bits] ([row_pitch_bits]), [copy_bits] and
    [smem_bits] (the descriptor's [copy_bytes] and [smem_bytes], in bits:
    [prod ceil(box_i / elementStride_i)] elements times their bits, and
    that with every row padded), and [box_elem] ([smem::box_layout] at an
    index: the element offset of a box coordinate, the byte swizzle recast
    to elements).

    Proved:
    - [copy_points]: the box's points ([t_i < ceil(box_i / e_i)]) are
      numbered one to one by [\[0, prod)], so [copy_bits] is the number of
      points times the element's bits (bytes moved = [copy_bytes]);
    - [box_offset_injective], [box_offset_fits]: the unswizzled offsets of
      two box coordinates differ, and every element lies inside
      [smem_bits] ([smem_bits_exact]: [copy / row] is exact);
    - [swizzle_keeps_row], [swizzled_box_fits], [swizzled_box_injective]:
      each modelled byte swizzle only permutes bits below its span, so a
      byte stays in its span-aligned row; when the box row is at most the
      span (the driver's [SwizzleSpan] rule), the swizzled bytes of the box
      are distinct and inside [smem_bytes];
    - [recast]: the element swizzle Rust composes ([box_elem]) is the byte
      swizzle on the element's bytes, for elements of 8 to 64 bits;
    - [span_rule_iff]: the [SwizzleSpan] rule (inner box bytes at most the
      span, with the inner box a whole number of 16-byte units) holds
      exactly when the rows are padded to exactly the span. *)

From Coq Require Import ZArith Lia List Bool.
From Tessera Require Import Swizzle.
Import ListNotations.

Open Scope Z_scope.

(** ** Mixed-radix numbering *)

Fixpoint mr (rs cs : list Z) : Z :=
  match rs, cs with
  | r :: rs', c :: cs' => c + r * mr rs' cs'
  | _, _ => 0
  end.

Fixpoint prodz (rs : list Z) : Z := match rs with [] => 1 | r :: rs' => r * prodz rs' end.

Fixpoint in_box (rs cs : list Z) : Prop :=
  match rs, cs with
  | [], [] => True
  | r :: rs', c :: cs' => 0 <= c < r /\ in_box rs' cs'
  | _, _ => False
  end.

Fixpoint digits_of (rs : list Z) (i : Z) : list Z :=
  match rs with [] => [] | r :: rs' => i mod r :: digits_of rs' (i / r) end.

Lemma mr_range : forall rs cs, in_box rs cs -> 0 <= mr rs cs < prodz rs.
Proof.
  induction rs as [|r rs IH]; intros [|c cs] H; simpl in *; try contradiction; [lia|].
  destruct H as [Hc H]. specialize (IH cs H).
  assert (B : r * mr rs cs <= r * (prodz rs - 1)) by (apply Z.mul_le_mono_nonneg_l; lia).
  nia.
Qed.

Lemma mr_inj : forall rs cs cs', in_box rs cs -> in_box rs cs' -> mr rs cs = mr rs cs' -> cs = cs'.
Proof.
  induction rs as [|r rs IH]; intros [|c cs] [|c' cs'] H H' E; simpl in *; try contradiction; [reflexivity|].
  destruct H as [Hc H], H' as [Hc' H'].
  pose proof (mr_range rs cs H). pose proof (mr_range rs cs' H').
  assert (Q : (c + r * mr rs cs) / r = (c' + r * mr rs cs') / r) by (rewrite E; reflexivity).
  rewrite !(Z.mul_comm r (mr _ _)), !Z.div_add in Q by lia. rewrite !Z.div_small in Q by lia.
  assert (Em : mr rs cs = mr rs cs') by lia.
  rewrite (IH cs cs' H H' Em). f_equal. nia.
Qed.

Lemma mr_onto : forall rs i, Forall (fun r => 0 < r) rs -> 0 <= i < prodz rs ->
  in_box rs (digits_of rs i) /\ mr rs (digits_of rs i) = i.
Proof.
  induction rs as [|r rs IH]; intros i P Hi; simpl in *; [split; [exact I|lia]|].
  inversion P as [|? ? Pr Ps]; subst.
  assert (Hq : 0 <= i / r < prodz rs).
  { split; [apply Z.div_pos; lia|apply Z.div_lt_upper_bound; lia]. }
  destruct (IH (i / r) Ps Hq) as [B E].
  split; [split; [apply Z.mod_pos_bound; lia|exact B]|].
  rewrite E. pose proof (Z_div_mod_eq_full i r). lia.
Qed.

(** ** The descriptor's byte counts, transcribed *)

(** [row_pitch_bits]: [span] is the swizzle span in bytes, 0 for none. *)
Definition pitch_bits (span row : Z) : Z :=
  if (0 <? span) && (0 <? row) then Z.max row (8 * span) else row.

Definition cdiv (a b : Z) : Z := (a + b - 1) / b.

Fixpoint counts_from (bs es : list Z) : list Z :=
  match bs, es with
  | b :: bs', e :: es' => cdiv b e :: counts_from bs' es'
  | _, _ => []
  end.

(** Points per dimension: [ceil(box_i / e_i)], dimension 0 counting its
    whole box when interleave is NONE ([il = false]). *)
Definition counts (il : bool) (bs es : list Z) : list Z :=
  match bs, es with
  | b :: bs', e :: es' => (if il then cdiv b e else b) :: counts_from bs' es'
  | _, _ => []
  end.

Definition copy_bits (il : bool) (bs es : list Z) (bits : Z) : Z := prodz (counts il bs es) * bits.

Definition smem_bits (il : bool) (span : Z) (bs es : list Z) (bits : Z) : Z :=
  let copy := copy_bits il bs es bits in
  let row := hd 0 bs * bits in
  if il || (row =? 0) then copy else copy / row * pitch_bits span row.

Definition to_bytes (bits : Z) : Z := (bits + 7) / 8.

(** The points a copy moves are numbered one to one by [\[0, prod)]: the
    copy moves [prodz (counts ...)] elements. *)
Theorem copy_points : forall il bs es,
  Forall (fun n => 0 < n) (counts il bs es) ->
  (forall t, in_box (counts il bs es) t -> 0 <= mr (counts il bs es) t < prodz (counts il bs es)) /\
  (forall t t', in_box (counts il bs es) t -> in_box (counts il bs es) t' ->
     mr (counts il bs es) t = mr (counts il bs es) t' -> t = t') /\
  (forall k, 0 <= k < prodz (counts il bs es) ->
     exists t, in_box (counts il bs es) t /\ mr (counts il bs es) t = k).
Proof.
  intros il bs es P. split; [|split].
  - apply mr_range.
  - apply mr_inj.
  - intros k Hk. exists (digits_of (counts il bs es) k). apply mr_onto; assumption.
Qed.

Lemma pitch_ge : forall span row, 0 <= row -> row <= pitch_bits span row.
Proof. intros. unfold pitch_bits. destruct ((0 <? span) && (0 <? row)); lia. Qed.

(** Without element strides (the case [box_layout] models), the padded
    size is [pitch * d_1 * d_2 ...]: [copy / row] is exact. *)
Fixpoint ones (n : nat) : list Z := match n with O => [] | S n' => 1 :: ones n' end.

Lemma cdiv_1 : forall b, cdiv b 1 = b.
Proof. intros. unfold cdiv. rewrite Z.div_1_r. lia. Qed.

Lemma counts_from_ones : forall bs, counts_from bs (ones (length bs)) = bs.
Proof. induction bs as [|b bs IH]; simpl; [reflexivity|]. rewrite cdiv_1, IH. reflexivity. Qed.

Theorem smem_bits_exact : forall span d0 ds bits, 0 < d0 -> 0 < bits ->
  smem_bits false span (d0 :: ds) (ones (S (length ds))) bits = prodz ds * pitch_bits span (d0 * bits).
Proof.
  intros span d0 ds bits H0 Hb. unfold smem_bits, copy_bits. cbv zeta.
  change (counts false (d0 :: ds) (ones (S (length ds)))) with (d0 :: counts_from ds (ones (length ds))).
  rewrite counts_from_ones. change (hd 0 (d0 :: ds)) with d0.
  change (false || (d0 * bits =? 0)) with (d0 * bits =? 0).
  destruct (Z.eqb_spec (d0 * bits) 0) as [E|_]; [nia|]. change (prodz (d0 :: ds)) with (d0 * prodz ds).
  f_equal. rewrite (Z.mul_comm d0 (prodz ds)), <- Z.mul_assoc. apply Z.div_mul. nia.
Qed.

(** ** The box layout, transcribed ([smem::box_layout]) *)

Fixpoint strides_from (acc : Z) (ds : list Z) : list Z :=
  match ds with [] => [] | d :: ds' => (if d =? 1 then 0 else acc) :: strides_from (acc * d) ds' end.

(** Driver order ([ds]: dimension 0 first); [p] the row pitch in elements. *)
Definition box_strides (p : Z) (ds : list Z) : list Z :=
  match ds with [] => [] | d :: ds' => (if d =? 1 then 0 else 1) :: strides_from (Z.max d p) ds' end.

Fixpoint dot (cs ss : list Z) : Z :=
  match cs, ss with c :: cs', s :: ss' => c * s + dot cs' ss' | _, _ => 0 end.

(** [dot] with [box_strides] is the mixed-radix number with radices
    [(max(d_0, p), d_1, d_2, ...)] (a unit dimension's stride 0 meets only
    coordinate 0). *)
Lemma strides_from_mr : forall ds acc cs, in_box ds cs ->
  dot cs (strides_from acc ds) = acc * mr ds cs.
Proof.
  induction ds as [|d ds IH]; intros acc [|c cs] H; simpl in *; try contradiction; [lia|].
  destruct H as [Hc H]. rewrite (IH (acc * d) cs H).
  destruct (Z.eqb_spec d 1) as [->|_]; [assert (c = 0) by lia; subst; lia|]. ring.
Qed.

Lemma box_dot_mr : forall p d0 ds c0 cs, in_box (d0 :: ds) (c0 :: cs) ->
  dot (c0 :: cs) (box_strides p (d0 :: ds)) = mr (Z.max d0 p :: ds) (c0 :: cs).
Proof.
  intros p d0 ds c0 cs [Hc H]. simpl. rewrite strides_from_mr by exact H.
  destruct (Z.eqb_spec d0 1) as [->|_]; [assert (c0 = 0) by lia; subst; lia|]. lia.
Qed.

Lemma in_box_widen : forall d0 p ds c0 cs, d0 <= p ->
  in_box (d0 :: ds) (c0 :: cs) -> in_box (p :: ds) (c0 :: cs).
Proof. intros d0 p ds c0 cs L [Hc H]. split; [lia|exact H]. Qed.

(** Two box coordinates get different offsets. *)
Theorem box_offset_injective : forall p d0 ds c c',
  in_box (d0 :: ds) c -> in_box (d0 :: ds) c' ->
  dot c (box_strides p (d0 :: ds)) = dot c' (box_strides p (d0 :: ds)) -> c = c'.
Proof.
  intros p d0 ds [|c0 cs] [|c0' cs'] H H' E; simpl in H, H'; try contradiction.
  rewrite !box_dot_mr in E by assumption.
  apply (mr_inj (Z.max d0 p :: ds)); [eapply in_box_widen; [|exact H]; lia
                                     |eapply in_box_widen; [|exact H']; lia|exact E].
Qed.

(** Every element of the box lies inside the padded box: with [p] the
    pitch in elements, [(offset + 1) * bits <= prodz ds * p * bits]. *)
Theorem box_offset_fits : forall p d0 ds c, d0 <= p ->
  in_box (d0 :: ds) c ->
  0 <= dot c (box_strides p (d0 :: ds)) < p * prodz ds.
Proof.
  intros p d0 ds [|c0 cs] L H; simpl in H; try contradiction.
  rewrite box_dot_mr by exact H. rewrite Z.max_r by lia.
  apply (mr_range (p :: ds)). eapply in_box_widen; [exact L|exact H].
Qed.

(** With [p = pitch_bits / bits] (exact: [bits] divides the pitch), the
    elements' bits lie inside [smem_bits]. *)
Corollary box_elements_in_smem : forall span d0 ds bits c,
  0 < d0 -> 0 < bits -> (bits | pitch_bits span (d0 * bits)) ->
  in_box (d0 :: ds) c ->
  let p := pitch_bits span (d0 * bits) / bits in
  0 <= dot c (box_strides p (d0 :: ds)) * bits /\
  (dot c (box_strides p (d0 :: ds)) + 1) * bits <=
    smem_bits false span (d0 :: ds) (ones (S (length ds))) bits.
Proof.
  intros span d0 ds bits c H0 Hb D H. cbv zeta.
  rewrite smem_bits_exact by assumption.
  pose proof (pitch_ge span (d0 * bits) ltac:(nia)) as G.
  destruct D as [q Eq].
  assert (Ep : pitch_bits span (d0 * bits) / bits = q) by (rewrite Eq; apply Z.div_mul; lia).
  rewrite Ep. rewrite Eq in G |- *.
  assert (L : d0 <= q) by nia.
  pose proof (box_offset_fits q d0 ds c L H). nia.
Qed.

(** ** The swizzles *)

(** The byte swizzle of each mode ([smem::byte_swizzle]), by the driver's
    enum value: NONE, 32B, 64B, 128B, 128B_ATOM_32B, (FLIP_8B, not
    modelled), 128B_ATOM_64B; and the span ([Swizzle::span], 0 for none). *)
Definition byte_swz (mode : Z) : Z * Z * Z :=
  if mode =? 0 then (0, 4, 3) else if mode =? 1 then (1, 4, 3) else if mode =? 2 then (2, 4, 3)
  else if mode =? 3 then (3, 4, 3) else if mode =? 4 then (2, 5, 2) else (1, 6, 1).

Definition span_of (mode : Z) : Z :=
  if mode =? 0 then 0 else if mode =? 1 then 32 else if mode =? 2 then 64 else 128.

(** The element swizzle: [M] moves by [log2(bits) - 3]. *)
Definition elem_swz (mode bits : Z) : Z * Z * Z :=
  let '(b, m, s) := byte_swz mode in
  let m' := m + 3 - Z.log2 bits in
  if 0 <=? m' then (b, m', s) else (Z.max (b + m') 0, 0, s).

(** [box_layout dims mode] at index [i] ([dims] outermost first, as
    Rust's [box_dims]; the index's digits colexicographic over them). *)
Definition box_elem (bits mode : Z) (dims : list Z) (i : Z) : Z :=
  let ds := rev dims in
  let row := hd 1 ds in
  let p := pitch_bits (span_of mode) (row * bits) / bits in
  let off := dot (rev (digits_of dims i)) (box_strides p ds) in
  let '(b, m, s) := elem_swz mode bits in
  if b =? 0 then off else swizzle b m s off.

(** A modelled byte swizzle only flips bits below [log2 span]: a byte
    stays in its span-aligned row. *)
Definition modelled (mode : Z) : Prop := mode = 1 \/ mode = 2 \/ mode = 3 \/ mode = 4 \/ mode = 6.

Lemma byte_swz_facts : forall mode, modelled mode ->
  let '(b, m, s) := byte_swz mode in
  swizzle_legal b m s /\ 0 < s /\ 4 <= m /\ 2 ^ (m + b) = span_of mode /\ 1 <= b.
Proof.
  intros mode H. unfold modelled in H.
  destruct H as [->|[->|[->|[->| ->]]]]; cbv; repeat split; congruence || lia.
Qed.

Lemma swizzle_nonneg : forall b m s x, 0 <= x -> 0 <= swizzle b m s x.
Proof.
  intros b m s x Hx. unfold swizzle, swizzle_flip. apply Z.lxor_nonneg. split; intros _; [|exact Hx].
  apply Z.shiftr_nonneg. apply Z.land_nonneg. left. exact Hx.
Qed.

Lemma swizzle_high_bits : forall b m s x, swizzle_legal b m s -> 0 < s -> 0 <= x ->
  Z.shiftr (swizzle b m s x) (m + b) = Z.shiftr x (m + b).
Proof.
  intros b m s x L Hs Hx. pose proof L as [Hb [Hm _]].
  apply Z.bits_inj'. intros n Hn. rewrite !Z.shiftr_spec by lia.
  apply swizzle_only_zzz; [exact L|lia|].
  destruct (Z.testbit (zzz_msk b m s) (n + (m + b))) eqn:E; [|reflexivity].
  apply zzz_bit in E; [|lia|lia]. rewrite Z.min_l in E by lia. lia.
Qed.

Theorem swizzle_keeps_row : forall mode a, modelled mode -> 0 <= a ->
  let '(b, m, s) := byte_swz mode in
  swizzle b m s a / span_of mode = a / span_of mode /\ 0 <= swizzle b m s a.
Proof.
  intros mode a H Ha. pose proof (byte_swz_facts mode H) as F.
  destruct (byte_swz mode) as [[b m] s]. destruct F as [L [Hs [Hm [Sp Hb]]]].
  pose proof L as [Hb0 [Hm0 _]].
  split; [|apply swizzle_nonneg; exact Ha].
  rewrite <- Sp, <- !Z.shiftr_div_pow2 by lia. apply swizzle_high_bits; assumption.
Qed.

(** With rows at most the span (the [SwizzleSpan] rule), the padded box
    is a whole number of span-aligned rows, and its swizzled bytes are
    distinct and stay inside it. *)
Theorem swizzled_box_fits : forall mode rows a, modelled mode -> 0 <= a < rows * span_of mode ->
  let '(b, m, s) := byte_swz mode in 0 <= swizzle b m s a < rows * span_of mode.
Proof.
  intros mode rows a H Ha. pose proof (swizzle_keeps_row mode a H ltac:(lia)) as K.
  pose proof (byte_swz_facts mode H) as F.
  destruct (byte_swz mode) as [[b m] s]. destruct K as [K N]. destruct F as [L [_ [_ [Sp _]]]].
  pose proof L as [Hb0 [Hm0 _]].
  assert (Psp : 0 < span_of mode) by (rewrite <- Sp; apply Z.pow_pos_nonneg; lia).
  split; [exact N|].
  assert (Q : a / span_of mode < rows) by (apply Z.div_lt_upper_bound; nia).
  rewrite <- K in Q.
  destruct (Z.lt_ge_cases (swizzle b m s a) (rows * span_of mode)) as [G|G]; [exact G|].
  assert (rows <= swizzle b m s a / span_of mode) by (apply Z.div_le_lower_bound; lia). lia.
Qed.

Theorem swizzled_box_injective : forall mode a a', modelled mode ->
  let '(b, m, s) := byte_swz mode in swizzle b m s a = swizzle b m s a' -> a = a'.
Proof.
  intros mode a a' H. pose proof (byte_swz_facts mode H) as F.
  destruct (byte_swz mode) as [[b m] s]. destruct F as [L _]. intros E.
  rewrite <- (swizzle_involutive b m s a L), <- (swizzle_involutive b m s a' L), E. reflexivity.
Qed.

Theorem padded_rows_are_span : forall mode d0 bits, modelled mode -> 0 < d0 * bits <= 8 * span_of mode ->
  pitch_bits (span_of mode) (d0 * bits) = 8 * span_of mode.
Proof.
  intros mode d0 bits H R. unfold pitch_bits.
  assert (P : 0 < span_of mode) by (unfold modelled in H; unfold span_of; destruct H as [->|[->|[->|[->| ->]]]]; reflexivity).
  destruct (Z.ltb_spec 0 (span_of mode)); [|lia]. destruct (Z.ltb_spec 0 (d0 * bits)); [|lia].
  cbn [andb]. lia.
Qed.

(** ** The element swizzle is the byte swizzle, recast *)

Lemma recast_bits : forall b m s k x, swizzle_legal b m s -> 0 < s -> 0 <= k <= m ->
  swizzle b m s (x * 2 ^ k) = swizzle b (m - k) s x * 2 ^ k.
Proof.
  intros b m s k x L Hs Hk. pose proof L as [Hb [Hm HS]].
  apply Z.bits_inj'. intros n Hn. rewrite (Z.mul_pow2_bits (swizzle b (m - k) s x)) by lia.
  unfold swizzle. rewrite !Z.lxor_spec.
  destruct (Z.lt_ge_cases n k) as [Lt|Ge].
  - rewrite !(Z.testbit_neg_r _ (n - k)) by lia.
    rewrite Z.mul_pow2_bits_low by lia. rewrite flip_bit by lia.
    destruct (Z.testbit (yyy_msk b m s) (n + s)) eqn:Y; [|rewrite andb_false_r; reflexivity].
    apply yyy_bit in Y; [|lia|lia]. rewrite Z.max_r in Y by lia. lia.
  - rewrite !flip_bit by lia. rewrite !Z.mul_pow2_bits by lia.
    replace (n + s - k) with (n - k + s) by lia.
    f_equal. f_equal. apply eq_true_iff_eq. rewrite !yyy_bit by lia. rewrite !Z.max_r by lia. lia.
Qed.

Lemma add_low : forall X j m, 0 <= m -> 0 <= j < 2 ^ m -> X * 2 ^ m + j = Z.lor (X * 2 ^ m) j.
Proof.
  intros X j m Hm Hj.
  assert (D : Z.land (X * 2 ^ m) j = 0).
  { apply Z.bits_inj'. intros n Hn. rewrite Z.land_spec, Z.bits_0.
    destruct (Z.lt_ge_cases n m) as [Q|Q].
    - rewrite Z.mul_pow2_bits_low by lia. reflexivity.
    - rewrite (proj2 (proj1 (range_bits m j Hm) Hj) n Q). apply andb_false_r. }
  rewrite Z.add_nocarry_lxor by exact D. apply Z.lxor_lor, D.
Qed.

(** Below [2^m] the byte swizzle leaves the low bits alone: the bytes of
    one element (at most [2^m] of them) move together. *)
Lemma swizzle_low : forall b m s X j, swizzle_legal b m s -> 0 < s -> 0 <= j < 2 ^ m ->
  swizzle b m s (X * 2 ^ m + j) = swizzle b m s (X * 2 ^ m) + j.
Proof.
  intros b m s X j L Hs Hj. pose proof L as [Hb [Hm HS]].
  assert (Ey : swizzle b m s (X * 2 ^ m) = swizzle b 0 s X * 2 ^ m).
  { rewrite (recast_bits b m s m X L Hs ltac:(lia)), Z.sub_diag. reflexivity. }
  rewrite Ey, !add_low by lia. rewrite <- Ey.
  pose proof (proj2 (proj1 (range_bits m j Hm) Hj)) as Jhi.
  apply Z.bits_inj'. intros n Hn. rewrite Z.lor_spec.
  unfold swizzle. rewrite !Z.lxor_spec, !flip_bit by lia. rewrite !Z.lor_spec.
  destruct (Z.lt_ge_cases n m) as [Q|Q].
  - rewrite !(Z.mul_pow2_bits_low X) by lia.
    destruct (Z.testbit (yyy_msk b m s) (n + s)) eqn:Y.
    + apply yyy_bit in Y; [|lia|lia]. rewrite Z.max_r in Y by lia. lia.
    + rewrite !andb_false_r. destruct (Z.testbit j n); reflexivity.
  - rewrite (Jhi n Q), (Jhi (n + s) ltac:(lia)), !orb_false_r. reflexivity.
Qed.

(** The element offsets Rust composes ([elem_swz]) are the byte swizzle's:
    for elements of [w = 2^k] bytes ([k <= 3], i.e. 8 to 64 bits), byte
    [j] of the element at unswizzled offset [o] lands at byte
    [w * swizzle_elem(o) + j]. *)
Theorem recast : forall mode k o j, modelled mode -> 0 <= k <= 3 -> 0 <= j < 2 ^ k ->
  let '(b, m, s) := byte_swz mode in
  let '(b', m', s') := elem_swz mode (8 * 2 ^ k) in
  swizzle b m s (o * 2 ^ k + j) = swizzle b' m' s' o * 2 ^ k + j.
Proof.
  intros mode k o j H Hk Hj. pose proof (byte_swz_facts mode H) as F.
  unfold elem_swz. destruct (byte_swz mode) as [[b m] s].
  destruct F as [L [Hs [Hm _]]]. pose proof L as [Hb0 [Hm0 _]].
  assert (Lg : Z.log2 (8 * 2 ^ k) = 3 + k).
  { replace (8 * 2 ^ k) with (2 ^ (3 + k)) by (rewrite Z.pow_add_r by lia; reflexivity).
    apply Z.log2_pow2. lia. }
  rewrite Lg. replace (m + 3 - (3 + k)) with (m - k) by lia.
  destruct (Z.leb_spec 0 (m - k)) as [_|N]; [|lia].
  rewrite <- (recast_bits b m s k o L Hs ltac:(lia)).
  assert (Hk2 : 2 ^ k <= 2 ^ m) by (apply Z.pow_le_mono_r; lia).
  assert (Epow : 2 ^ m = 2 ^ (m - k) * 2 ^ k) by (rewrite <- Z.pow_add_r by lia; f_equal; lia).
  (* o * 2^k = (o / 2^(m-k)) * 2^m + (o mod 2^(m-k)) * 2^k, and j stays below 2^k *)
  pose proof (Z_div_mod_eq_full o (2 ^ (m - k))) as Eo.
  pose proof (Z.mod_pos_bound o (2 ^ (m - k)) ltac:(apply Z.pow_pos_nonneg; lia)) as Mo.
  set (hi := o / 2 ^ (m - k)) in *. set (lo := o mod 2 ^ (m - k)) in *.
  assert (Hlo : 0 <= lo * 2 ^ k + j < 2 ^ m).
  { split; [nia|]. rewrite Epow. nia. }
  assert (Hlo0 : 0 <= lo * 2 ^ k < 2 ^ m) by nia.
  replace (o * 2 ^ k + j) with (hi * 2 ^ m + (lo * 2 ^ k + j)) by (rewrite Epow, Eo; ring).
  replace (o * 2 ^ k) with (hi * 2 ^ m + lo * 2 ^ k) by (rewrite Epow, Eo; ring).
  rewrite !(swizzle_low b m s hi) by assumption. ring.
Qed.

(** ** The checker's TMA-box obligations *)

(** The driver's [SwizzleSpan] rule ([tma/rules.rs]: inner box bytes
    [box0 * bits / 8] at most the span), for an inner box of whole bytes
    (the [InnerBoxBytes] rule asks for whole 16-byte units), holds exactly
    when every row is padded to exactly one span: the rows are the
    swizzle's span-aligned rows ([swizzled_box_fits]).  When it fails,
    a row is longer than the span and nothing is padded. *)
Theorem span_rule_iff : forall span row, 0 < span -> 0 < row -> row mod 8 = 0 ->
  (row / 8 <= span <-> pitch_bits span row = 8 * span) /\
  (span < row / 8 -> pitch_bits span row = row).
Proof.
  intros span row Hs Hr M. pose proof (Z_div_mod_eq_full row 8) as E. rewrite M in E.
  unfold pitch_bits. destruct (Z.ltb_spec 0 span); [|lia]. destruct (Z.ltb_spec 0 row); [|lia].
  cbn [andb]. split; [split; intros Hx; lia|intros Hx; lia].
Qed.

(** The swizzle repeats every [2^(m + |s| + b)] bytes: at a base that is
    a multiple of it, swizzling the address swizzles the offset.  The
    descriptor's [smem_alignment] ([8 * span]: 256, 512, 1,024) is such a
    multiple for every modelled mode, so the box layout, computed from
    offset 0, is the one the hardware writes at an aligned destination. *)
Lemma swizzle_period : forall b m s q a, swizzle_legal b m s -> 0 < s ->
  0 <= a < 2 ^ (m + s + b) ->
  swizzle b m s (q * 2 ^ (m + s + b) + a) = q * 2 ^ (m + s + b) + swizzle b m s a.
Proof.
  intros b m s q a L Hs Ha. pose proof L as [Hb [Hm HS]].
  set (K := m + s + b) in *.
  assert (HK : m + Z.abs s + b <= K) by (unfold K; lia).
  pose proof (swizzle_range b m s K a L HK Ha) as Hsw.
  rewrite !add_low by (first [exact Ha | exact Hsw | unfold K; lia]).
  pose proof (proj2 (proj1 (range_bits K a ltac:(unfold K; lia)) Ha)) as Ahi.
  pose proof (proj2 (proj1 (range_bits K _ ltac:(unfold K; lia)) Hsw)) as Shi.
  apply Z.bits_inj'. intros n Hn. rewrite Z.lor_spec.
  unfold swizzle at 1. rewrite Z.lxor_spec, flip_bit, !Z.lor_spec by lia.
  destruct (Z.lt_ge_cases n K) as [Q|Q].
  - rewrite (Z.mul_pow2_bits_low q K n) by lia. simpl.
    unfold swizzle. rewrite Z.lxor_spec, flip_bit by lia.
    destruct (Z.testbit (yyy_msk b m s) (n + s)) eqn:Y; [|rewrite !andb_false_r; reflexivity].
    apply yyy_bit in Y; [|lia|lia]. rewrite Z.max_r in Y by lia.
    rewrite (Z.mul_pow2_bits_low q K (n + s)) by (unfold K in *; lia). reflexivity.
  - rewrite (Ahi n Q), (Shi n Q), !orb_false_r.
    destruct (Z.testbit (yyy_msk b m s) (n + s)) eqn:Y; [|rewrite andb_false_r, xorb_false_r; reflexivity].
    apply yyy_bit in Y; [|lia|lia]. rewrite Z.max_r in Y by lia. unfold K in Q. lia.
Qed.

Theorem swizzle_at_aligned_base : forall mode base a, modelled mode ->
  (8 * span_of mode | base) -> 0 <= a ->
  let '(b, m, s) := byte_swz mode in swizzle b m s (base + a) = base + swizzle b m s a.
Proof.
  intros mode base a H [qb ->] Ha. pose proof (byte_swz_facts mode H) as F.
  assert (P : exists k, 8 * span_of mode = 2 ^ k * 2 ^ (let '(b, m, s) := byte_swz mode in m + s + b) /\ 0 <= k).
  { unfold modelled in H. destruct H as [->|[->|[->|[->| ->]]]];
      [exists 0|exists 0|exists 0|exists 1|exists 2]; split; reflexivity || lia. }
  destruct P as [k [Ek Hk]].
  destruct (byte_swz mode) as [[b m] s]. destruct F as [L [Hs _]]. pose proof L as [Hb0 [Hm0 _]].
  rewrite Ek.
  set (K := m + s + b) in *.
  assert (PK : 0 < 2 ^ K) by (apply Z.pow_pos_nonneg; unfold K; lia).
  pose proof (Z_div_mod_eq_full a (2 ^ K)) as Ea. pose proof (Z.mod_pos_bound a (2 ^ K) PK) as Ma.
  assert (E1 : swizzle b m s a = (a / 2 ^ K) * 2 ^ K + swizzle b m s (a mod 2 ^ K)).
  { unfold K. rewrite <- swizzle_period by first [exact L | exact Hs | exact Ma]. f_equal. fold K. lia. }
  replace (qb * (2 ^ k * 2 ^ K) + a) with ((qb * 2 ^ k + a / 2 ^ K) * 2 ^ K + a mod 2 ^ K) by lia.
  rewrite E1. unfold K. rewrite swizzle_period by first [exact L | exact Hs | exact Ma]. ring.
Qed.

Close Scope Z_scope.
