(** * The kernel checker's verdicts (issue 28, item 4)

    Two decisions of [tessera check] ([crates/tessera/src/check/rules.rs]):
    the copy coverage of the [coverage] obligation, and [divides], the
    decision with facts behind every runtime guard ([gmem_alignment],
    [residue], ...).

    ** Copy coverage

    [tessera check]'s [coverage] obligation on SM80 decides whether an
    operand's gmem copy (cp.async) writes every element of its stage tile
    exactly once ([crates/tessera/src/check/rules.rs], the [coverage]
    block): [tc] threads along the contiguous extent [contig], each
    copying [vec] contiguous elements, and [rows = max(T / tc, 1)] thread
    rows along the other extent [other] ([T] the CTA's threads).  The
    copy is the tiled copy with thread layout [(tc, rows)] and value layout
    [vec], repeated over the tile: thread [t], lane [v] and iteration
    [(i0, i1)] (with [i0 < contig / (tc * vec)], [i1 < other / rows], the
    partition rounded down) write the element

      column [i0 * (tc * vec) + (t mod tc) * vec + v], row [i1 * rows + t / tc],

    i.e. the layout [((vec, tc, n0), (rows, n1))] over [(v, t, i0, i1)].
    Rust decides with three divisibility tests ([copy_decision]):
    [T mod tc = 0], [contig mod (tc * vec) = 0], [other mod rows = 0].

    Proved ([copy_decision_iff]): for positive [T], [tc], [vec], [contig]
    and [other], the decision holds exactly when that write map sends its
    domain into the tile, one to one and onto: the test Rust runs is
    equivalent to enumerating the copy.  Where it fails, the witnesses are
    Rust's: a column [n0 * tc * vec] written by nobody, a thread [q * tc]
    past the last whole row, a row [n1 * rows] written by nobody. *)

From Coq Require Import Arith Lia ZArith Bool List.
Import ListNotations.

Open Scope Z_scope.

Definition rows_of (T tc : Z) : Z := Z.max (T / tc) 1.

Definition copy_decision (T tc vec contig other : Z) : bool :=
  (T mod tc =? 0) && (contig mod (tc * vec) =? 0) && (other mod rows_of T tc =? 0).

Definition wcol (tc vec t v i0 : Z) : Z := i0 * (tc * vec) + (t mod tc) * vec + v.
Definition wrow (T tc t i1 : Z) : Z := i1 * rows_of T tc + t / tc.

Definition in_dom (T tc vec contig other t v i0 i1 : Z) : Prop :=
  0 <= t < T /\ 0 <= v < vec /\ 0 <= i0 < contig / (tc * vec) /\ 0 <= i1 < other / rows_of T tc.

(** The copy writes every element of the [contig x other] tile exactly once. *)
Definition exactly_once (T tc vec contig other : Z) : Prop :=
  (forall t v i0 i1, in_dom T tc vec contig other t v i0 i1 ->
     0 <= wcol tc vec t v i0 < contig /\ 0 <= wrow T tc t i1 < other) /\
  (forall t v i0 i1 t' v' i0' i1',
     in_dom T tc vec contig other t v i0 i1 -> in_dom T tc vec contig other t' v' i0' i1' ->
     wcol tc vec t v i0 = wcol tc vec t' v' i0' -> wrow T tc t i1 = wrow T tc t' i1' ->
     t = t' /\ v = v' /\ i0 = i0' /\ i1 = i1') /\
  (forall c r, 0 <= c < contig -> 0 <= r < other ->
     exists t v i0 i1, in_dom T tc vec contig other t v i0 i1 /\
       wcol tc vec t v i0 = c /\ wrow T tc t i1 = r).

(** Mixed-radix digits are unique. *)
Lemma decomp : forall a b a' b' B, 0 <= b < B -> 0 <= b' < B -> a * B + b = a' * B + b' ->
  a = a' /\ b = b'.
Proof.
  intros a b a' b' B Hb Hb' E.
  assert (Q : (a * B + b) / B = (a' * B + b') / B) by (rewrite E; reflexivity).
  rewrite !Z.div_add_l in Q by lia. rewrite !Z.div_small in Q by lia. split; lia.
Qed.

Lemma mod_bounds : forall t tc, 0 < tc -> 0 <= t mod tc < tc.
Proof. intros. apply Z.mod_pos_bound. lia. Qed.

Theorem copy_decision_sound : forall T tc vec contig other,
  1 <= T -> 1 <= tc -> 1 <= vec -> 1 <= contig -> 1 <= other ->
  copy_decision T tc vec contig other = true -> exactly_once T tc vec contig other.
Proof.
  intros T tc vec contig other HT Htc Hv Hc Ho D. unfold copy_decision in D.
  apply andb_true_iff in D. destruct D as [D Dr]. apply andb_true_iff in D. destruct D as [Dt Dc].
  apply Z.eqb_eq in Dt, Dc, Dr.
  pose proof (Z_div_exact_full_2 T tc ltac:(lia) Dt) as ET.
  pose proof (Z_div_exact_full_2 contig (tc * vec) ltac:(nia) Dc) as EC.
  assert (Hq : 1 <= T / tc) by nia.
  assert (Rw : rows_of T tc = T / tc) by (unfold rows_of; lia).
  rewrite Rw in Dr. pose proof (Z_div_exact_full_2 other (T / tc) ltac:(lia) Dr) as EO.
  unfold exactly_once, in_dom, wcol, wrow. rewrite Rw.
  set (rows := T / tc) in *. set (n0 := contig / (tc * vec)) in *. set (n1 := other / rows) in *.
  assert (Hdiv : forall t, 0 <= t < T -> 0 <= t / tc < rows).
  { intros t Ht. split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
  split; [|split].
  - intros t v i0 i1 [Ht [Hv' [Hi0 Hi1]]]. pose proof (mod_bounds t tc ltac:(lia)).
    pose proof (Hdiv t Ht).
    assert (B1 : t mod tc * vec <= (tc - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (B3 : 0 <= t mod tc * vec) by (apply Z.mul_nonneg_nonneg; lia).
    assert (B5 : i0 * (tc * vec) <= (n0 - 1) * (tc * vec)) by (apply Z.mul_le_mono_nonneg_r; nia).
    assert (B6 : 0 <= i0 * (tc * vec)) by (apply Z.mul_nonneg_nonneg; nia).
    assert (B7 : i1 * rows <= (n1 - 1) * rows) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (B8 : 0 <= i1 * rows) by (apply Z.mul_nonneg_nonneg; lia).
    split; split; nia.
  - intros t v i0 i1 t' v' i0' i1' [Ht [Hv1 [Hi0 Hi1]]] [Ht' [Hv1' [Hi0' Hi1']]] Ec Er.
    pose proof (mod_bounds t tc ltac:(lia)). pose proof (mod_bounds t' tc ltac:(lia)).
    pose proof (Hdiv t Ht). pose proof (Hdiv t' Ht').
    rewrite <- !Z.add_assoc in Ec.
    assert (B1 : t mod tc * vec <= (tc - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (B2 : t' mod tc * vec <= (tc - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (B3 : 0 <= t mod tc * vec) by (apply Z.mul_nonneg_nonneg; lia).
    assert (B4 : 0 <= t' mod tc * vec) by (apply Z.mul_nonneg_nonneg; lia).
    destruct (decomp i0 (t mod tc * vec + v) i0' (t' mod tc * vec + v') (tc * vec)) as [E0 E1];
      [lia|lia|exact Ec|].
    destruct (decomp (t mod tc) v (t' mod tc) v' vec) as [E2 E3]; [lia|lia|exact E1|].
    destruct (decomp i1 (t / tc) i1' (t' / tc) rows) as [E4 E5]; [lia|lia|exact Er|].
    split; [|lia].
    rewrite (Z_div_mod_eq_full t tc), (Z_div_mod_eq_full t' tc). rewrite E2, E5. reflexivity.
  - intros c r Hc' Hr'.
    pose proof (mod_bounds c (tc * vec) ltac:(nia)) as Hm.
    set (rem := c mod (tc * vec)) in *.
    pose proof (mod_bounds rem vec ltac:(lia)). pose proof (mod_bounds r rows ltac:(lia)).
    assert (Ht0 : 0 <= rem / vec < tc).
    { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia. }
    exists (r mod rows * tc + rem / vec), (rem mod vec), (c / (tc * vec)), (r / rows).
    assert (Mt : (r mod rows * tc + rem / vec) mod tc = rem / vec).
    { rewrite Z.add_comm, Z.mod_add by lia. apply Z.mod_small. lia. }
    assert (Dt' : (r mod rows * tc + rem / vec) / tc = r mod rows).
    { rewrite Z.add_comm, Z.div_add by lia. rewrite Z.div_small by lia. lia. }
    rewrite Mt, Dt'. split; [|split].
    + split; [nia|]. split; [lia|]. split.
      * split; [apply Z.div_pos; nia|]. apply Z.div_lt_upper_bound; nia.
      * split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; lia.
    + pose proof (Z_div_mod_eq_full c (tc * vec)). pose proof (Z_div_mod_eq_full rem vec).
      fold rem in H2. lia.
    + pose proof (Z_div_mod_eq_full r rows). lia.
Qed.

Theorem copy_decision_complete : forall T tc vec contig other,
  1 <= T -> 1 <= tc -> 1 <= vec -> 1 <= contig -> 1 <= other ->
  exactly_once T tc vec contig other -> copy_decision T tc vec contig other = true.
Proof.
  intros T tc vec contig other HT Htc Hv Hc Ho [Inside [Inj Onto]].
  unfold in_dom, wcol, wrow in *.
  set (n0 := contig / (tc * vec)) in *.
  (* the columns: a column [n0 * tc * vec] below [contig] is written by nobody *)
  assert (Dc : contig mod (tc * vec) = 0).
  { destruct (Z.eq_dec (contig mod (tc * vec)) 0) as [E|E]; [exact E|exfalso].
    pose proof (Z_div_mod_eq_full contig (tc * vec)). pose proof (mod_bounds contig (tc * vec) ltac:(nia)).
    assert (P0 : 0 <= n0) by (apply Z.div_pos; nia).
    assert (P1 : 0 <= n0 * (tc * vec) < contig) by nia.
    destruct (Onto (n0 * (tc * vec)) 0 P1 ltac:(lia))
      as [t [v [i0 [i1 [[Ht [Hv' [Hi0 Hi1]]] [Ec _]]]]]].
    pose proof (mod_bounds t tc ltac:(lia)).
    assert (B1 : t mod tc * vec <= (tc - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
    assert (B5 : i0 * (tc * vec) <= (n0 - 1) * (tc * vec)) by (apply Z.mul_le_mono_nonneg_r; nia).
    nia. }
  pose proof (Z_div_exact_full_2 contig (tc * vec) ltac:(nia) Dc) as EC. fold n0 in EC.
  assert (Hn0 : 1 <= n0) by nia.
  (* the threads *)
  assert (Dt : T mod tc = 0).
  { destruct (Z.eq_dec (T mod tc) 0) as [E|E]; [exact E|exfalso].
    pose proof (Z_div_mod_eq_full T tc). pose proof (mod_bounds T tc ltac:(lia)).
    set (q := T / tc) in *. set (rm := T mod tc) in *.
    destruct (Z.eq_dec q 0) as [Q0|Q0].
    - (* fewer threads than [tc]: column [T * vec] of row 0 is written by nobody *)
      assert (L1 : T * vec < tc * vec) by (apply Z.mul_lt_mono_pos_r; lia).
      assert (L2 : tc * vec <= contig) by nia.
      destruct (Onto (T * vec) 0 ltac:(nia) ltac:(lia))
        as [t [v [i0 [i1 [[Ht [Hv' [Hi0 Hi1]]] [Ec _]]]]]].
      rewrite Z.mod_small in Ec by lia.
      assert (L3 : t * vec <= (T - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
      destruct (Z.eq_dec i0 0) as [->|N0]; [lia|].
      assert (L4 : tc * vec <= i0 * (tc * vec)) by nia.
      assert (0 <= t * vec) by nia. lia.
    - assert (Qp : 0 <= q) by (unfold q; apply Z.div_pos; lia).
      assert (Rw : rows_of T tc = q) by (unfold rows_of; fold q; lia).
      rewrite Rw in *.
      (* thread [q * tc] writes row [q] (i1 = 0, column 0) *)
      assert (Hm0 : (q * tc) mod tc = 0) by (apply Z.mod_mul; lia).
      assert (Hd0 : (q * tc) / tc = q) by (apply Z.div_mul; lia).
      assert (Hn1 : 1 <= other / q).
      { destruct (Z.le_gt_cases 1 (other / q)) as [H1|H1]; [exact H1|exfalso].
        assert (other / q = 0) by (assert (0 <= other / q) by (apply Z.div_pos; lia); lia).
        destruct (Onto 0 0 ltac:(lia) ltac:(lia)) as [t [v [i0 [i1 [[_ [_ [_ Hi1]]] _]]]]]. lia. }
      destruct (Z.le_gt_cases 2 (other / q)) as [H2|H2].
      + (* thread 0 writes the same element at [i1 = 1] *)
        assert (D1 : 0 <= q * tc < T /\ 0 <= 0 < vec /\ 0 <= 0 < n0 /\ 0 <= 0 < other / q) by lia.
        assert (D2 : 0 <= 0 < T /\ 0 <= 0 < vec /\ 0 <= 0 < n0 /\ 0 <= 1 < other / q) by lia.
        assert (C1 : 0 * (tc * vec) + q * tc mod tc * vec + 0 = 0 * (tc * vec) + 0 mod tc * vec + 0)
          by (rewrite Hm0, Z.mod_0_l by lia; lia).
        assert (R1 : 0 * q + q * tc / tc = 1 * q + 0 / tc) by (rewrite Hd0, Z.div_0_l by lia; lia).
        destruct (Inj _ _ _ _ _ _ _ _ D1 D2 C1 R1) as [Et _]. lia.
      + (* one row block: nobody writes column [rm * vec] of row [q] *)
        destruct (Inside (q * tc) 0 0 0 ltac:(repeat split; lia)) as [_ Hrow].
        rewrite Hd0 in Hrow.
        assert (L1 : rm * vec < tc * vec) by (apply Z.mul_lt_mono_pos_r; lia).
        assert (L2 : tc * vec <= contig) by nia.
        assert (L0 : 0 <= rm * vec) by (apply Z.mul_nonneg_nonneg; lia).
        destruct (Onto (rm * vec) q ltac:(lia) ltac:(lia))
          as [t [v [i0 [i1 [[Ht [Hv' [Hi0 Hi1]]] [Ec Er]]]]]].
        assert (i1 = 0) by lia. subst i1.
        assert (Htq : t / tc = q) by lia.
        assert (Hi00 : i0 = 0 \/ 1 <= i0) by lia.
        pose proof (mod_bounds t tc ltac:(lia)) as Mt.
        assert (Lt : t mod tc < rm).
        { pose proof (Z_div_mod_eq_full t tc) as Et. rewrite Htq in Et. lia. }
        assert (B1 : t mod tc * vec <= (rm - 1) * vec) by (apply Z.mul_le_mono_nonneg_r; lia).
        assert (B3 : 0 <= t mod tc * vec) by (apply Z.mul_nonneg_nonneg; lia).
        destruct Hi00 as [->|Hi0']; [lia|].
        assert (B5 : tc * vec <= i0 * (tc * vec)) by nia. lia. }
  (* the rows: a row [n1 * rows] below [other] is written by nobody *)
  assert (Hq : 1 <= T / tc).
  { pose proof (Z_div_mod_eq_full T tc). rewrite Dt in H. nia. }
  assert (Rw : rows_of T tc = T / tc) by (unfold rows_of; lia).
  rewrite Rw in *.
  assert (Dr : other mod (T / tc) = 0).
  { destruct (Z.eq_dec (other mod (T / tc)) 0) as [E|E]; [exact E|exfalso].
    set (rows := T / tc) in *. set (n1 := other / rows) in *.
    pose proof (Z_div_mod_eq_full other rows) as Eo. pose proof (mod_bounds other rows ltac:(lia)) as Mo.
    fold n1 in Eo.
    assert (P0 : 0 <= n1) by (unfold n1; apply Z.div_pos; lia).
    assert (P1 : 0 <= n1 * rows < other) by nia.
    destruct (Onto 0 (n1 * rows) ltac:(lia) P1)
      as [t [v [i0 [i1 [[Ht [Hv' [Hi0 Hi1]]] [_ Er]]]]]].
    assert (Lt : t / tc < rows).
    { unfold rows. apply Z.div_lt_upper_bound; [lia|].
      pose proof (Z_div_mod_eq_full T tc) as ET. rewrite Dt in ET. lia. }
    assert (0 <= t / tc) by (apply Z.div_pos; lia).
    assert (B7 : i1 * rows <= (n1 - 1) * rows) by (apply Z.mul_le_mono_nonneg_r; lia). lia. }
  unfold copy_decision. rewrite Rw, Dt, Dc, Dr. reflexivity.
Qed.

Corollary copy_decision_iff : forall T tc vec contig other,
  1 <= T -> 1 <= tc -> 1 <= vec -> 1 <= contig -> 1 <= other ->
  copy_decision T tc vec contig other = true <-> exactly_once T tc vec contig other.
Proof.
  intros. split; [apply copy_decision_sound | apply copy_decision_complete]; assumption.
Qed.

(** ** The TiledMma part of [coverage]

    The C tile [tm x tn] is split among [am x an] warps (or warpgroups),
    each [wm = floor(tm / am / m) * m] rows by [wn = floor(tn / an / n) * n]
    columns (floor partitions, whole atoms), and each repeats its MMA atom
    [m x n] over its part: warp [(i, j)], repetition [(rm, rn)] and atom
    element [w] (a (thread, value) pair, [w < m * n]) compute C at
    row [i * wm + rm * m + r(w)], column [j * wn + rn * n + c(w)], where
    [(r, c)] is the atom's C layout, a bijection of [\[0, m n)] onto
    [\[0, m) x \[0, n)] (checked by enumeration for every atom in
    [check_bruteforce.rs]).  Rust proves [coverage] for the C tile when
    [tm mod (m * am) = 0] and [tn mod (n * an) = 0] ([tile_mma]'s test).

    Proved ([mma_decision_iff]): for positive extents and any atom
    bijection, that test holds exactly when every C element is computed by
    exactly one (warp, repetition, thread, value). *)

Definition mma_decision (tm tn m n am an : Z) : bool :=
  (tm mod (m * am) =? 0) && (tn mod (n * an) =? 0).

Definition atom_bij (m n : Z) (r c : Z -> Z) : Prop :=
  (forall w, 0 <= w < m * n -> 0 <= r w < m /\ 0 <= c w < n) /\
  (forall w w', 0 <= w < m * n -> 0 <= w' < m * n -> r w = r w' -> c w = c w' -> w = w') /\
  (forall x y, 0 <= x < m -> 0 <= y < n -> exists w, 0 <= w < m * n /\ r w = x /\ c w = y).

Definition mrow (tm m am i rm x : Z) : Z := i * (tm / am / m * m) + rm * m + x.

Definition mdom (tm tn m n am an i j rm rn w : Z) : Prop :=
  0 <= i < am /\ 0 <= j < an /\ 0 <= rm < tm / am / m /\ 0 <= rn < tn / an / n /\ 0 <= w < m * n.

Definition mma_once (tm tn m n am an : Z) (r c : Z -> Z) : Prop :=
  (forall i j rm rn w, mdom tm tn m n am an i j rm rn w ->
     0 <= mrow tm m am i rm (r w) < tm /\ 0 <= mrow tn n an j rn (c w) < tn) /\
  (forall i j rm rn w i' j' rm' rn' w',
     mdom tm tn m n am an i j rm rn w -> mdom tm tn m n am an i' j' rm' rn' w' ->
     mrow tm m am i rm (r w) = mrow tm m am i' rm' (r w') ->
     mrow tn n an j rn (c w) = mrow tn n an j' rn' (c w') ->
     i = i' /\ j = j' /\ rm = rm' /\ rn = rn' /\ w = w') /\
  (forall x y, 0 <= x < tm -> 0 <= y < tn -> exists i j rm rn w,
     mdom tm tn m n am an i j rm rn w /\ mrow tm m am i rm (r w) = x /\ mrow tn n an j rn (c w) = y).

(** One dimension: [i * (k m) + rm * m + x] over [i < a], [rm < k], [x < m]
    is the mixed-radix numbering of [\[0, a k m)]. *)
Lemma row_facts : forall t m a, 1 <= m -> 1 <= a -> t / a / m = t / (m * a).
Proof. intros t m a Hm Ha. rewrite Z.div_div by lia. f_equal. ring. Qed.

Lemma row_range : forall k m a i rm x, 1 <= m -> 0 <= i < a -> 0 <= rm < k -> 0 <= x < m ->
  0 <= i * (k * m) + rm * m + x < a * k * m.
Proof.
  intros k m a i rm x Hm Hi Hrm Hx.
  assert (B1 : rm * m <= (k - 1) * m) by (apply Z.mul_le_mono_nonneg_r; lia).
  assert (B2 : i * (k * m) <= (a - 1) * (k * m)) by (apply Z.mul_le_mono_nonneg_r; nia).
  assert (B3 : 0 <= rm * m) by nia. assert (B4 : 0 <= i * (k * m)) by nia.
  nia.
Qed.

Lemma row_inj : forall k m i rm x i' rm' x', 1 <= m -> 0 <= rm < k -> 0 <= x < m ->
  0 <= rm' < k -> 0 <= x' < m ->
  i * (k * m) + rm * m + x = i' * (k * m) + rm' * m + x' -> i = i' /\ rm = rm' /\ x = x'.
Proof.
  intros k m i rm x i' rm' x' Hm Hrm Hx Hrm' Hx' E.
  assert (B1 : 0 <= rm * m + x < k * m) by nia. assert (B2 : 0 <= rm' * m + x' < k * m) by nia.
  rewrite <- !Z.add_assoc in E.
  destruct (decomp i (rm * m + x) i' (rm' * m + x') (k * m)) as [E1 E2]; [lia|lia|exact E|].
  destruct (decomp rm x rm' x' m) as [E3 E4]; [lia|lia|exact E2|]. lia.
Qed.

Lemma row_onto : forall k m a y, 1 <= m -> 1 <= k -> 0 <= y < a * k * m ->
  exists i rm x, 0 <= i < a /\ 0 <= rm < k /\ 0 <= x < m /\ i * (k * m) + rm * m + x = y.
Proof.
  intros k m a y Hm Hk Hy.
  exists (y / (k * m)), ((y mod (k * m)) / m), ((y mod (k * m)) mod m).
  pose proof (Z.mod_pos_bound y (k * m) ltac:(nia)) as M1.
  pose proof (Z.mod_pos_bound (y mod (k * m)) m ltac:(lia)) as M2.
  split; [split; [apply Z.div_pos; nia|apply Z.div_lt_upper_bound; nia]|].
  split; [split; [apply Z.div_pos; lia|apply Z.div_lt_upper_bound; lia]|].
  split; [exact M2|].
  pose proof (Z_div_mod_eq_full y (k * m)). pose proof (Z_div_mod_eq_full (y mod (k * m)) m). lia.
Qed.

Theorem mma_decision_sound : forall tm tn m n am an r c,
  1 <= tm -> 1 <= tn -> 1 <= m -> 1 <= n -> 1 <= am -> 1 <= an -> atom_bij m n r c ->
  mma_decision tm tn m n am an = true -> mma_once tm tn m n am an r c.
Proof.
  intros tm tn m n am an r c Htm Htn Hm Hn Ham Han [Ain [Ainj Aonto]] D.
  unfold mma_decision in D. apply andb_true_iff in D. destruct D as [Dm Dn].
  apply Z.eqb_eq in Dm, Dn.
  pose proof (Z_div_exact_full_2 tm (m * am) ltac:(nia) Dm) as Em.
  pose proof (Z_div_exact_full_2 tn (n * an) ltac:(nia) Dn) as En.
  unfold mma_once, mdom, mrow. rewrite !row_facts by lia.
  set (km := tm / (m * am)) in *. set (kn := tn / (n * an)) in *.
  assert (Hkm : 1 <= km) by nia. assert (Hkn : 1 <= kn) by nia.
  split; [|split].
  - intros i j rm rn w [Hi [Hj [Hrm [Hrn Hw]]]]. destruct (Ain w Hw) as [Hr Hc].
    pose proof (row_range km m am i rm (r w) Hm Hi Hrm Hr).
    pose proof (row_range kn n an j rn (c w) Hn Hj Hrn Hc). split; nia.
  - intros i j rm rn w i' j' rm' rn' w' [Hi [Hj [Hrm [Hrn Hw]]]] [Hi' [Hj' [Hrm' [Hrn' Hw']]]] Er Ec.
    destruct (Ain w Hw) as [Hr Hc]. destruct (Ain w' Hw') as [Hr' Hc'].
    destruct (row_inj km m i rm (r w) i' rm' (r w') Hm Hrm Hr Hrm' Hr' Er) as [E1 [E2 E3]].
    destruct (row_inj kn n j rn (c w) j' rn' (c w') Hn Hrn Hc Hrn' Hc' Ec) as [E4 [E5 E6]].
    pose proof (Ainj w w' Hw Hw' E3 E6). lia.
  - intros x y Hx Hy.
    destruct (row_onto km m am x Hm Hkm ltac:(nia)) as [i [rm [x0 [Hi [Hrm [Hx0 Ex]]]]]].
    destruct (row_onto kn n an y Hn Hkn ltac:(nia)) as [j [rn [y0 [Hj [Hrn [Hy0 Ey]]]]]].
    destruct (Aonto x0 y0 Hx0 Hy0) as [w [Hw [Ewr Ewc]]].
    exists i, j, rm, rn, w. rewrite Ewr, Ewc. split; [repeat split; lia|]. split; assumption.
Qed.

Theorem mma_decision_complete : forall tm tn m n am an r c,
  1 <= tm -> 1 <= tn -> 1 <= m -> 1 <= n -> 1 <= am -> 1 <= an -> atom_bij m n r c ->
  mma_once tm tn m n am an r c -> mma_decision tm tn m n am an = true.
Proof.
  intros tm tn m n am an r c Htm Htn Hm Hn Ham Han [Ain _] [_ [_ Onto]].
  unfold mdom, mrow in Onto. rewrite !row_facts in Onto by lia.
  set (km := tm / (m * am)) in *. set (kn := tn / (n * an)) in *.
  assert (P1 : 0 <= km) by (apply Z.div_pos; nia). assert (P2 : 0 <= kn) by (apply Z.div_pos; nia).
  pose proof (Z_div_mod_eq_full tm (m * am)) as Tm. pose proof (Z.mod_pos_bound tm (m * am) ltac:(nia)) as Mm.
  pose proof (Z_div_mod_eq_full tn (n * an)) as Tn. pose proof (Z.mod_pos_bound tn (n * an) ltac:(nia)) as Mn.
  fold km in Tm. fold kn in Tn.
  unfold mma_decision. apply andb_true_iff. split; apply Z.eqb_eq.
  - destruct (Z.eq_dec (tm mod (m * am)) 0) as [E|E]; [exact E|exfalso].
    destruct (Onto (am * km * m) 0 ltac:(nia) ltac:(lia)) as [i [j [rm [rn [w [Hd [Ex _]]]]]]]. destruct Hd as [Hi [Hj [Hrm [Hrn Hw]]]].
    destruct (Ain w Hw) as [Hr _].
    pose proof (row_range km m am i rm (r w) Hm Hi Hrm Hr). lia.
  - destruct (Z.eq_dec (tn mod (n * an)) 0) as [E|E]; [exact E|exfalso].
    destruct (Onto 0 (an * kn * n) ltac:(lia) ltac:(nia)) as [i [j [rm [rn [w [Hd [_ Ey]]]]]]]. destruct Hd as [Hi [Hj [Hrm [Hrn Hw]]]].
    destruct (Ain w Hw) as [_ Hc].
    pose proof (row_range kn n an j rn (c w) Hn Hj Hrn Hc). lia.
Qed.

Corollary mma_decision_iff : forall tm tn m n am an r c,
  1 <= tm -> 1 <= tn -> 1 <= m -> 1 <= n -> 1 <= am -> 1 <= an -> atom_bij m n r c ->
  mma_decision tm tn m n am an = true <-> mma_once tm tn m n am an r c.
Proof.
  intros. split; [apply mma_decision_sound | apply mma_decision_complete]; assumption.
Qed.

(** ** [divides]: proved, refuted, or a runtime guard

    Rust's [divides(e, d, facts)]: [d <= 1] divides everything; a static
    extent [v] is decided by [v mod d]; a runtime extent [n] is decided by
    the first fact about [n] that settles it, in order: [n == v] decides by
    [v mod d], [n % q == 0] with [q mod d = 0] proves it; [n >= v] never
    settles it; with none, the answer is the guard [n % d == 0].  The
    verdicts mean what [rules.rs] reports, for every assignment [sigma] of
    the runtime names that satisfies the facts ([divides_sound]): [DYes]
    (proved) then [d] divides the extent, [DNo v] (refuted) then the
    extent is [v] and [d] does not divide it, and [DGuard n] (runtime)
    only for a runtime extent [n], whose guard [n % d == 0] is the
    obligation itself, so it is sufficient and necessary. *)

Inductive cextent := CStatic (v : Z) | CRuntime (n : nat).
Inductive cfact := FDivisible (n : nat) (q : Z) | FAtLeast (n : nat) (v : Z) | FEquals (n : nat) (v : Z).
Inductive div := DYes | DNo (v : Z) | DGuard (n : nat).

Fixpoint div_facts (n : nat) (d : Z) (fs : list cfact) : div :=
  match fs with
  | [] => DGuard n
  | FEquals m v :: fs' => if Nat.eqb m n then (if v mod d =? 0 then DYes else DNo v) else div_facts n d fs'
  | FDivisible m q :: fs' => if Nat.eqb m n && (q mod d =? 0) then DYes else div_facts n d fs'
  | FAtLeast _ _ :: fs' => div_facts n d fs'
  end.

Definition check_divides (e : cextent) (d : Z) (fs : list cfact) : div :=
  if d <=? 1 then DYes
  else match e with
       | CStatic v => if v mod d =? 0 then DYes else DNo v
       | CRuntime n => div_facts n d fs
       end.

Definition holds (sigma : nat -> Z) (f : cfact) : Prop :=
  match f with
  | FDivisible n q => (q | sigma n)
  | FAtLeast n v => v <= sigma n
  | FEquals n v => sigma n = v
  end.

Definition cval (sigma : nat -> Z) (e : cextent) : Z :=
  match e with CStatic v => v | CRuntime n => sigma n end.

Lemma div_facts_sound : forall n d fs sigma, 2 <= d -> Forall (holds sigma) fs ->
  match div_facts n d fs with
  | DYes => (d | sigma n)
  | DNo v => sigma n = v /\ ~ (d | v)
  | DGuard m => m = n
  end.
Proof.
  intros n d fs sigma Hd. induction fs as [|f fs IH]; intros H; [reflexivity|].
  inversion H as [|? ? Hf Hfs]; subst. simpl.
  destruct f as [m q|m v|m v]; simpl in Hf.
  - destruct (Nat.eqb_spec m n) as [->|Ne]; simpl; [|apply IH, Hfs].
    destruct (Z.eqb_spec (q mod d) 0) as [M|M]; [|apply IH, Hfs].
    apply Z.mod_divide in M; [|lia]. eapply Z.divide_trans; eassumption.
  - apply IH, Hfs.
  - destruct (Nat.eqb_spec m n) as [->|Ne]; [|apply IH, Hfs].
    destruct (Z.eqb_spec (v mod d) 0) as [M|M].
    + rewrite Hf. apply Z.mod_divide; [lia|exact M].
    + split; [exact Hf|]. intros Dv. apply M, Z.mod_divide; [lia|exact Dv].
Qed.

Theorem divides_sound : forall e d fs sigma, 1 <= d -> Forall (holds sigma) fs ->
  match check_divides e d fs with
  | DYes => (d | cval sigma e)
  | DNo v => cval sigma e = v /\ ~ (d | v)
  | DGuard n => e = CRuntime n /\ ((d | cval sigma e) <-> (d | sigma n))
  end.
Proof.
  intros e d fs sigma Hd H. unfold check_divides.
  destruct (Z.leb_spec d 1) as [D1|D1].
  { assert (d = 1) by lia. subst. apply Z.divide_1_l. }
  destruct e as [v|n]; simpl.
  - destruct (Z.eqb_spec (v mod d) 0) as [M|M].
    + apply Z.mod_divide; [lia|exact M].
    + split; [reflexivity|]. intros Dv. apply M, Z.mod_divide; [lia|exact Dv].
  - pose proof (div_facts_sound n d fs sigma ltac:(lia) H) as S.
    destruct (div_facts n d fs) as [|v|m]; [exact S|exact S|]. subst m. split; reflexivity.
Qed.

Close Scope Z_scope.
