(** * Divisibility of split (nvFuser's Divisibility of Split; ARCHITECTURE.md, glossary)

    Part 1: the integer-division lemmas of nvFuser's integer-division.md
    (Euclidean division, numbered as there) that the theorems use.
    Part 2: Theorems 1-4 (which in-bound facts of split / merge / resize /
    swizzle imply which) and Theorem 5 (merge-then-split equals
    split-then-merge iff the split is divisible). *)

From Coq Require Import ZArith Lia.
From Tessera Require Import Model.
Open Scope Z_scope.

(** ** Part 1: Euclidean integer division *)

(** Everything reduces to floor division by the positive [|c|]. *)
Lemma ediv_abs : forall a c, ediv a c = Z.sgn c * (a / Z.abs c).
Proof. reflexivity. Qed.

Lemma sgn_sq : forall c, c <> 0 -> Z.sgn c * Z.sgn c = 1.
Proof. intros c H. destruct c; simpl; lia. Qed.

Lemma abs_sgn_mul : forall c, Z.abs c * Z.sgn c = c.
Proof. apply Z.abs_sgn. Qed.

(** Division by a positive number. *)
Ltac pos_div := repeat rewrite ediv_pos by lia; repeat rewrite emod_pos by lia.

(** 2.5: if [0 <= r < |a|] then [r % a = r] and [r / a = 0]. *)
Theorem idiv_2_5 : forall r a, 0 <= r < Z.abs a -> emod r a = r /\ ediv r a = 0.
Proof.
  intros r a H. unfold emod, ediv.
  rewrite Z.mod_small, Z.div_small by lia. lia.
Qed.

(** 2.7: [(a + b) % c = (a % c + b % c) % c]. *)
Theorem idiv_2_7 : forall a b c, c <> 0 -> emod (a + b) c = emod (emod a c + emod b c) c.
Proof. intros a b c H. unfold emod. apply Z.add_mod. lia. Qed.

(** 2.7.1: if [a % c = 0] then [(a + b) % c = b % c]. *)
Theorem idiv_2_7_1 : forall a b c, c <> 0 -> emod a c = 0 -> emod (a + b) c = emod b c.
Proof.
  intros a b c Hc H. rewrite idiv_2_7 by assumption. rewrite H, Z.add_0_l.
  unfold emod. apply Z.mod_mod. lia.
Qed.

(** Key fact behind 2.7.2 / 2.15.2: with [g = gcd(a, c)] and [0 <= b < |g|],
    adding [b] to [a] does not cross a multiple of [c]. *)
Lemma gcd_small_add : forall a b c, c <> 0 -> 0 <= b < Z.abs (Z.gcd a c) ->
  emod a c + b < Z.abs c.
Proof.
  intros a b c Hc Hb. unfold emod.
  set (C := Z.abs c). assert (HC : 0 < C) by (unfold C; lia).
  set (g := Z.gcd a c) in *.
  assert (Hg0 : 0 <= g) by apply Z.gcd_nonneg.
  rewrite Z.abs_eq in Hb by assumption.
  destruct (Z.gcd_divide_l a c) as [x Hx]. fold g in Hx.
  assert (HgC : (g | C)) by (apply Z.divide_abs_r, Z.gcd_divide_r).
  destruct HgC as [y Hy].
  assert (Hr : a mod C = g * (x - y * (a / C))).
  { rewrite Z.mod_eq by lia. rewrite Hx at 1. rewrite Hy at 1. ring. }
  pose proof (Z.mod_pos_bound a C HC) as Hbd.
  rewrite Hr in Hbd |- *.
  assert (x - y * (a / C) < y) by nia.
  nia.
Qed.

(** 2.7.2: with [g = gcd(a, c)] and [0 <= b < |g|]: [(a + b) % c = a % c + b]. *)
Theorem idiv_2_7_2 : forall a b c, c <> 0 -> 0 <= b < Z.abs (Z.gcd a c) ->
  emod (a + b) c = emod a c + b.
Proof.
  intros a b c Hc Hb. pose proof (gcd_small_add a b c Hc Hb) as Hs.
  unfold emod in *. set (C := Z.abs c) in *.
  assert (HC : 0 < C) by (unfold C; lia).
  pose proof (Z.mod_pos_bound a C HC).
  symmetry. apply Z.mod_unique with (a / C); [lia|].
  pose proof (Z.div_mod a C ltac:(lia)). lia.
Qed.

(** 2.8: [(a * b) % c = ((a % c) * (b % c)) % c]. *)
Theorem idiv_2_8 : forall a b c, c <> 0 -> emod (a * b) c = emod (emod a c * emod b c) c.
Proof. intros a b c H. unfold emod. apply Z.mul_mod. lia. Qed.

(** 2.9: if [b | a] then [a % b = 0]. *)
Theorem idiv_2_9 : forall a b, b <> 0 -> (b | a) -> emod a b = 0.
Proof.
  intros a b Hb Hd. unfold emod. apply Z.mod_divide; [lia|].
  apply Z.divide_abs_l. exact Hd.
Qed.

(** Uniqueness in a usable form. *)
Lemma ediv_of : forall a b q r, b <> 0 -> a = b * q + r -> 0 <= r < Z.abs b -> ediv a b = q.
Proof. intros. symmetry. apply (ediv_emod_unique a b q r); assumption. Qed.

Lemma emod_of : forall a b q r, b <> 0 -> a = b * q + r -> 0 <= r < Z.abs b -> emod a b = r.
Proof. intros. symmetry. apply (ediv_emod_unique a b q r); assumption. Qed.

(** 2.10: if [c | b] then [a * (b / c) = (a * b) / c]. *)
Theorem idiv_2_10 : forall a b c, c <> 0 -> (c | b) -> a * ediv b c = ediv (a * b) c.
Proof.
  intros a b c Hc [k Hk]. subst b.
  rewrite (ediv_of (k * c) c k 0), (ediv_of (a * (k * c)) c (a * k) 0); lia.
Qed.

(** 2.11 and 2.12 (for [b > 0]):
    [a / (b * c) = (a / b) / c] and [a % (b * c) = a % b + ((a / b) % c) * b]. *)
Theorem idiv_2_11_2_12 : forall a b c, 0 < b ->
  ediv a (b * c) = ediv (ediv a b) c /\
  emod a (b * c) = emod a b + emod (ediv a b) c * b.
Proof.
  intros a b c Hb.
  destruct (Z.eq_dec c 0) as [Hc0|Hc0].
  - subst c. rewrite Z.mul_0_r. unfold ediv, emod. simpl.
    rewrite Z.abs_eq, Z.sgn_pos by lia. rewrite !Zmod_0_r.
    pose proof (Z.div_mod a b ltac:(lia)). split; lia.
  - destruct (ediv_emod_spec a b ltac:(lia)) as [E1 B1].
    destruct (ediv_emod_spec (ediv a b) c Hc0) as [E2 B2].
    rewrite Z.abs_eq in B1 by lia.
    assert (Habs : Z.abs (b * c) = b * Z.abs c)
      by (rewrite Z.abs_mul; rewrite (Z.abs_eq b) by lia; reflexivity).
    set (q1 := ediv a b) in *. set (r1 := emod a b) in *.
    set (q2 := ediv q1 c) in *. set (r2 := emod q1 c) in *.
    set (C := Z.abs c) in *.
    assert (Hr : 0 <= r1 + b * r2 < Z.abs (b * c)).
    { rewrite Habs. split; [nia|].
      assert (b * r2 <= b * (C - 1)) by (apply Z.mul_le_mono_nonneg_l; lia). nia. }
    assert (Ha : a = b * c * q2 + (r1 + b * r2)) by (rewrite E1, E2; ring).
    split.
    + apply (ediv_of a (b * c) q2 (r1 + b * r2)); [nia|assumption|assumption].
    + rewrite (emod_of a (b * c) q2 (r1 + b * r2)); [ring|nia|assumption|assumption].
Qed.

Theorem idiv_2_11 : forall a b c, 0 < b -> ediv a (b * c) = ediv (ediv a b) c.
Proof. intros. apply idiv_2_11_2_12. assumption. Qed.

Theorem idiv_2_12 : forall a b c, 0 < b -> emod a (b * c) = emod a b + emod (ediv a b) c * b.
Proof. intros. apply idiv_2_11_2_12. assumption. Qed.

(** 2.13: if [d > 0], [d | a], [d | b] then [a % b = ((a / d) % (b / d)) * d]
    (for [b <> 0]; with [b = 0] both sides are [a], as [x % 0 = x] in Coq). *)
Theorem idiv_2_13 : forall a b d, 0 < d -> (d | a) -> (d | b) ->
  emod a b = emod (ediv a d) (ediv b d) * d.
Proof.
  intros a b d Hd [x Hx] [y Hy]. subst a b.
  rewrite (ediv_of (x * d) d x 0), (ediv_of (y * d) d y 0) by lia.
  unfold emod. rewrite Z.abs_mul, (Z.abs_eq d) by lia.
  destruct (Z.eq_dec y 0) as [->|Hy0]; [simpl; rewrite !Zmod_0_r; reflexivity|].
  rewrite Z.mul_mod_distr_r; lia.
Qed.

(** 2.14: if [c | b] and [c > 0] then [a / (b / c) = (a * c) / b]. *)
Theorem idiv_2_14 : forall a b c, 0 < c -> (c | b) -> ediv a (ediv b c) = ediv (a * c) b.
Proof.
  intros a b c Hc [k Hk]. subst b.
  rewrite (ediv_of (k * c) c k 0) by lia.
  unfold ediv. rewrite Z.sgn_mul, (Z.sgn_pos c), Z.abs_mul, (Z.abs_eq c) by lia.
  rewrite Z.mul_1_r. f_equal.
  destruct (Z.eq_dec k 0) as [->|Hk0]; [simpl; rewrite !Zdiv_0_r; reflexivity|].
  rewrite (Z.mul_comm (Z.abs k) c), (Z.mul_comm a c).
  rewrite Z.div_mul_cancel_l; lia.
Qed.

(** 2.15: if [a % c + b % c < |c|] then [(a + b) / c = a / c + b / c]. *)
Theorem idiv_2_15 : forall a b c, c <> 0 -> emod a c + emod b c < Z.abs c ->
  ediv (a + b) c = ediv a c + ediv b c.
Proof.
  intros a b c Hc H.
  destruct (ediv_emod_spec a c Hc) as [Ea Ba]. destruct (ediv_emod_spec b c Hc) as [Eb Bb].
  apply (ediv_of _ _ _ (emod a c + emod b c)); [assumption| |]; lia.
Qed.

(** 2.15.1: if [a % c = 0] then [(a + b) / c = a / c + b / c]. *)
Theorem idiv_2_15_1 : forall a b c, c <> 0 -> emod a c = 0 ->
  ediv (a + b) c = ediv a c + ediv b c.
Proof.
  intros a b c Hc H. apply idiv_2_15; [assumption|].
  destruct (ediv_emod_spec b c Hc). lia.
Qed.

(** 2.15.2: with [g = gcd(a, c)] and [0 <= b < |g|]: [(a + b) / c = a / c]. *)
Theorem idiv_2_15_2 : forall a b c, c <> 0 -> 0 <= b < Z.abs (Z.gcd a c) ->
  ediv (a + b) c = ediv a c.
Proof.
  intros a b c Hc Hb. pose proof (gcd_small_add a b c Hc Hb).
  destruct (ediv_emod_spec a c Hc) as [Ea Ba].
  apply (ediv_of _ _ _ (emod a c + b)); [assumption| |]; lia.
Qed.

(** 2.16: if [d > 0]: [i / d < D <-> i < D * d]. *)
Theorem idiv_2_16 : forall i d D, 0 < d -> (ediv i d < D <-> i < D * d).
Proof. intros i d D Hd. pos_div. Z.div_mod_to_equations. nia. Qed.

(** Sign of Euclidean division by a positive number (Boute 1992), used by
    Theorem 2's lower bound; fails for truncation division. *)
Theorem ediv_nonneg_iff : forall i d, 0 < d -> (0 <= ediv i d <-> 0 <= i).
Proof. intros i d Hd. pos_div. Z.div_mod_to_equations. nia. Qed.

(** [x / d] is weakly increasing for [d > 0] (monotonic-function.md). *)
Theorem ediv_monotone : forall x y d, 0 < d -> x <= y -> ediv x d <= ediv y d.
Proof. intros x y d Hd Hxy. pos_div. apply Z.div_le_mono; lia. Qed.

(** Ceiling division (split extents): [n <= ceil_div n f * f] and it is the
    least such multiple. *)
Lemma ceil_div_spec : forall n f, 0 < f ->
  n <= ceil_div n f * f /\ (ceil_div n f - 1) * f < n.
Proof. intros n f Hf. unfold ceil_div. pos_div. Z.div_mod_to_equations. nia. Qed.

(** ** Part 2: in-bound theorems *)

(** Theorem 1 (split).  [I1{n1}, I2{n2} = Split(I0{n0})] with [n2 > 0] and
    [n1 * n2 >= n0] (nvFuser takes [n1 = ceil_div n0 n2] or [n2 = ceil_div
    n0 n1]); the input index is [i0 = i1 * n2 + i2].  "I0 and I2 in bound"
    implies "I1 in bound". *)
Theorem split_inbound_theorem1 : forall n0 n1 n2 i1 i2,
  0 < n2 -> n0 <= n1 * n2 ->
  in_bound (split_in_index n2 i1 i2) n0 -> in_bound i2 n2 -> in_bound i1 n1.
Proof. unfold in_bound, split_in_index. intros. nia. Qed.

(** The same for nvFuser's inner split [Split(I0{n0}, f)] with outer extent
    [ceil_div n0 f]. *)
Corollary split_inbound_theorem1_ceil : forall n0 f i1 i2, 0 < f ->
  in_bound (split_in_index f i1 i2) n0 -> in_bound i2 f -> in_bound i1 (ceil_div n0 f).
Proof.
  intros n0 f i1 i2 Hf H0 H2. apply (split_inbound_theorem1 n0 _ f i1 i2 Hf); auto.
  apply ceil_div_spec; assumption.
Qed.

(** Theorem 1 is one-directional: in an indivisible split, I1 and I2 can both
    be in bound at a hole (I0 out of bound): [Split(I{6}, 4)], [i1 = 1, i2 = 2]. *)
Theorem split_inbound_theorem1_holes : exists n0 f i1 i2,
  in_bound i1 (ceil_div n0 f) /\ in_bound i2 f /\ ~ in_bound (split_in_index f i1 i2) n0.
Proof.
  exists 6, 4, 1, 2. unfold in_bound, split_in_index.
  replace (ceil_div 6 4) with 2 by reflexivity. lia.
Qed.

(** Theorem 2 (merge).  [I2{n0 * n1} = Merge(I0{n0}, I1{n1})], [n1 > 0],
    [i0 = i2 / n1]: "I0 in bound" iff "I2 in bound". *)
Theorem merge_inbound_theorem2 : forall n0 n1 i2, 0 < n1 ->
  (in_bound (merge_outer_index n1 i2) n0 <-> in_bound i2 (n0 * n1)).
Proof.
  intros n0 n1 i2 Hn1. unfold in_bound, merge_outer_index.
  rewrite ediv_nonneg_iff by assumption. rewrite idiv_2_16 by assumption. tauto.
Qed.

(** And the inner input index of a merge is always in bound. *)
Lemma merge_inner_inbound : forall n1 i2, 0 < n1 -> in_bound (merge_inner_index n1 i2) n1.
Proof.
  intros n1 i2 H. unfold in_bound, merge_inner_index. pos_div.
  apply Z.mod_pos_bound. assumption.
Qed.

(** Theorem 3 (resize).  [I1{n0 + l + r} = Resize(I0{n0}, l, r)], [i0 = i1 - l]:
    if [l >= 0] and [r >= 0], "I0 in bound" implies "I1 in bound". *)
Theorem resize_inbound_theorem3 : forall n0 l r i1, 0 <= l -> 0 <= r ->
  in_bound (resize_in_index l i1) n0 -> in_bound i1 (n0 + l + r).
Proof. unfold in_bound, resize_in_index. intros. lia. Qed.

(** Both sign conditions are needed. *)
Theorem resize_inbound_theorem3_needs_signs :
  (exists n0 l r i1, l < 0 /\ 0 <= r /\ in_bound (resize_in_index l i1) n0 /\
                     ~ in_bound i1 (n0 + l + r)) /\
  (exists n0 l r i1, 0 <= l /\ r < 0 /\ in_bound (resize_in_index l i1) n0 /\
                     ~ in_bound i1 (n0 + l + r)).
Proof.
  unfold in_bound, resize_in_index. split.
  - exists 4, (-1), 0, (-1). lia.
  - exists 4, 0, (-1), 3. lia.
Qed.

(** Theorem 4 (swizzle).  [I2, I3 = Swizzle(I0, I1)]: the X output has the X
    input's extent and index, for any swizzle function on Y. *)
Theorem swizzle_inbound_theorem4 : forall (f : Z -> Z -> Z) n0 i2 i3,
  in_bound (fst (swizzle_in_index f i2 i3)) n0 <-> in_bound i2 n0.
Proof. intros. simpl. tauto. Qed.

(** For CyclicShift, the Y side is also always in bound. *)
Lemma cyclic_shift_inbound : forall sx x y, 0 < sx ->
  in_bound (snd (swizzle_in_index (cyclic_shift_swizzle sx) x y)) sx.
Proof. intros. unfold in_bound. simpl. apply Z.mod_pos_bound. assumption. Qed.

(** ** Theorem 5: merge-then-split vs split-then-merge

    Inputs [I1{n1}], [I2{n2}], split factor [n > 0].
    Transformation 1: [I3, I5 = Split(I2, n)]; [I4 = Merge(I1, I3)].
    Transformation 2: [I3 = Merge(I1, I2)]; [I4, I5 = Split(I3, n)].
    Both produce a loop domain [I4, I5]; we compare its extents and the
    indices of [I1], [I2] computed from loop indices [(i, j)]. *)

Definition t1_extents (n1 n2 n : Z) : Z * Z := (n1 * ceil_div n2 n, n).
Definition t2_extents (n1 n2 n : Z) : Z * Z := (ceil_div (n1 * n2) n, n).

Definition t1_index (n1 n2 n i j : Z) : Z * Z :=
  let i3 := merge_inner_index (ceil_div n2 n) i in
  (merge_outer_index (ceil_div n2 n) i, split_in_index n i3 j).

Definition t2_index (n1 n2 n i j : Z) : Z * Z :=
  let i3 := split_in_index n i j in
  (merge_outer_index n2 i3, merge_inner_index n2 i3).

(** Equivalence of two IterDomain transformations (iterdomain.md, Def 1.2):
    equal extent maps and equal index maps (on the loop domain). *)
Definition t_equivalent (n1 n2 n : Z) : Prop :=
  t1_extents n1 n2 n = t2_extents n1 n2 n /\
  forall i j, in_bound i (fst (t1_extents n1 n2 n)) -> in_bound j n ->
    t1_index n1 n2 n i j = t2_index n1 n2 n i j.

Lemma ceil_div_exact : forall k n, 0 < n -> ceil_div (k * n) n = k.
Proof. intros k n Hn. unfold ceil_div. pos_div. Z.div_mod_to_equations. nia. Qed.

Theorem merge_split_commute_iff_divisible : forall n1 n2 n,
  0 < n1 -> 0 < n2 -> 0 < n ->
  (t_equivalent n1 n2 n <-> (n | n2)).
Proof.
  intros n1 n2 n H1 H2 Hn. split.
  - (* only if: at i = ceil_div n2 n - 1, j = n - 1, transformation 1 gives
       I2 the index [ceil_div n2 n * n - 1], which is >= n2 unless n | n2,
       while transformation 2's I2 index is [_ % n2 < n2]. *)
    intros [_ Hidx].
    set (c := ceil_div n2 n).
    destruct (ceil_div_spec n2 n Hn) as [Hc1 Hc2]. fold c in Hc1, Hc2.
    assert (Hc0 : 0 < c) by nia.
    specialize (Hidx (c - 1) (n - 1)).
    unfold t1_index, t2_index, t1_extents, in_bound, merge_outer_index,
      merge_inner_index, split_in_index in Hidx. simpl fst in Hidx. fold c in Hidx.
    assert (E : emod (c - 1) c = c - 1) by (apply idiv_2_5; lia).
    rewrite E in Hidx.
    specialize (Hidx ltac:(nia) ltac:(lia)).
    injection Hidx as _ Hi2.
    pos_div. rewrite emod_pos in Hi2 by lia.
    pose proof (Z.mod_pos_bound ((c - 1) * n + (n - 1)) n2 H2).
    exists c. nia.
  - intros [k Hk]. subst n2.
    assert (Hk0 : 0 < k) by nia.
    unfold t_equivalent, t1_extents, t2_extents, t1_index, t2_index,
      merge_outer_index, merge_inner_index, split_in_index, in_bound.
    rewrite ceil_div_exact by lia.
    replace (n1 * (k * n)) with ((n1 * k) * n) by ring.
    rewrite ceil_div_exact by lia.
    split; [reflexivity|].
    intros i j Hi Hj. simpl fst in Hi. pos_div.
    assert (Hq : (i * n + j) / n = i) by (symmetry; apply Z.div_unique with j; lia).
    pose proof (Z.div_mod i k ltac:(lia)) as Edm.
    pose proof (Z.mod_pos_bound i k Hk0) as Bm.
    set (q := i / k) in *. set (r := i mod k) in *.
    f_equal.
    + rewrite (Z.mul_comm k n), <- Z.div_div, Hq by lia. reflexivity.
    + apply Z.mod_unique with q; [left; nia|].
      rewrite Edm at 1. ring.
Qed.

(** The seed's counterexample: [I1{2}], [I2{5}], [n = 4]: the loop extents
    are [(2 * 2, 4)] vs [(3, 4)]. *)
Example theorem5_counterexample :
  t1_extents 2 5 4 = (4, 4) /\ t2_extents 2 5 4 = (3, 4) /\ ~ t_equivalent 2 5 4.
Proof.
  split; [reflexivity|]. split; [reflexivity|].
  intros [E _]. discriminate.
Qed.

(** ** Supporting facts used around Theorems 1 and 5 *)

(** The heart of Theorem 1's lower bound (via 2.14 and 2.15 in the seed):
    dividing the rebuilt split input by the inner extent gives back the
    outer index, and the remainder is the inner index, i.e. merge undoes
    split. *)
Theorem split_then_merge_identity : forall n2 i1 i2, 0 < n2 -> in_bound i2 n2 ->
  merge_outer_index n2 (split_in_index n2 i1 i2) = i1 /\
  merge_inner_index n2 (split_in_index n2 i1 i2) = i2.
Proof.
  intros n2 i1 i2 Hn H. unfold in_bound, merge_outer_index, merge_inner_index,
    split_in_index in *.
  split; [apply (ediv_of _ _ _ i2) | apply (emod_of _ _ i1)]; try lia.
Qed.

(** Split-split rotation (nvFuser iterdomain.md, Theorem 2.1):
    [InnerSplit(m)[0] o InnerSplit(n) = InnerSplit(n)[1] o InnerSplit(m*n)],
    for any extent (divisible or not) and any index.  Forward index maps:
    left [(i/n/m, (i/n)%m, i%n)], right [(i/(mn), (i%(mn))/n, (i%(mn))%n)];
    extents: left [cdiv(cdiv(N,n),m), m, n], right [cdiv(N, mn), m, n]. *)
Theorem split_split_rotation : forall N n m i, 0 < n -> 0 < m ->
  ceil_div (ceil_div N n) m = ceil_div N (m * n) /\
  ediv (ediv i n) m = ediv i (m * n) /\
  emod (ediv i n) m = ediv (emod i (m * n)) n /\
  emod i n = emod (emod i (m * n)) n.
Proof.
  intros N n m i Hn Hm.
  rewrite (Z.mul_comm m n).
  destruct (idiv_2_11_2_12 i n m Hn) as [E1 E2].
  unfold ceil_div. pos_div; try nia.
  repeat rewrite ediv_pos in E1 by nia. repeat rewrite ediv_pos in E2 by nia.
  repeat rewrite emod_pos in E2 by nia.
  repeat split.
  - Z.div_mod_to_equations. nia.
  - symmetry. exact E1.
  - rewrite E2. apply Z.div_unique with (i mod n); [left; apply Z.mod_pos_bound; lia|]. ring.
  - rewrite E2. apply Z.mod_unique with ((i / n) mod m); [left; apply Z.mod_pos_bound; lia|]. ring.
Qed.

(** ** The XOR swizzle on a power-of-two extent

    nvFuser's XOR swizzle [(x, y) -> (x, x ^ y)] requires [size_x = size_y];
    for a power-of-two size it keeps Y in bound and is a bijection of the Y
    range (it is its own inverse). *)

Lemma xor_swizzle_involutive : forall x y, xor_swizzle x (xor_swizzle x y) = y.
Proof.
  intros x y. unfold xor_swizzle.
  rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l. reflexivity.
Qed.

Lemma log2_below : forall a k, 0 <= k -> in_bound a (2 ^ k) -> 0 < k \/ a = 0.
Proof.
  intros a k Hk [H0 H1]. destruct (Z.eq_dec k 0) as [->|Hk0]; [right; simpl in H1; lia | left; lia].
Qed.

Theorem xor_swizzle_inbound : forall k x y, 0 <= k ->
  in_bound x (2 ^ k) -> in_bound y (2 ^ k) -> in_bound (xor_swizzle x y) (2 ^ k).
Proof.
  intros k x y Hk Hx Hy. unfold in_bound, xor_swizzle in *.
  assert (Hp : 0 < 2 ^ k) by (apply Z.pow_pos_nonneg; lia).
  split; [apply Z.lxor_nonneg; lia|].
  destruct (Z.eq_dec (Z.lxor x y) 0) as [E|E]; [lia|].
  assert (Hpos : 0 < Z.lxor x y) by (pose proof (proj2 (Z.lxor_nonneg x y)); lia).
  apply Z.log2_lt_pow2; [assumption|].
  pose proof (Z.log2_lxor x y ltac:(lia) ltac:(lia)) as L.
  assert (Lx : Z.log2 x < k).
  { destruct (Z.eq_dec x 0) as [->|Hx0].
    - destruct (log2_below y k Hk Hy) as [Hk1|Hy0]; [simpl; lia|].
      subst y. rewrite Z.lxor_0_l in E. contradiction.
    - apply Z.log2_lt_pow2; lia. }
  assert (Ly : Z.log2 y < k).
  { destruct (Z.eq_dec y 0) as [->|Hy0].
    - destruct (log2_below x k Hk Hx) as [Hk1|Hx0]; [simpl; lia|].
      subst x. contradiction.
    - apply Z.log2_lt_pow2; lia. }
  lia.
Qed.

Theorem xor_swizzle_bijective : forall k x, 0 <= k -> in_bound x (2 ^ k) ->
  (forall y1 y2, xor_swizzle x y1 = xor_swizzle x y2 -> y1 = y2) /\
  (forall v, in_bound v (2 ^ k) -> exists y, in_bound y (2 ^ k) /\ xor_swizzle x y = v).
Proof.
  intros k x Hk Hx. split.
  - intros y1 y2 E. rewrite <- (xor_swizzle_involutive x y1), E, xor_swizzle_involutive.
    reflexivity.
  - intros v Hv. exists (xor_swizzle x v). split.
    + apply xor_swizzle_inbound; assumption.
    + apply xor_swizzle_involutive.
Qed.
