(** * Complement of any rank: the converse (issue 14, item 3)

    [ComplementAny.complement_tiles] proves that a tractable layout has a
    complement that tiles an interval without holes.  Here is the converse:
    a layout [A] sorted by stride, with every extent at least 2 (what
    [complement.rs] sees after its filter and sort), that is *not*
    tractable has no complement at all: for no layout [C] and no [N >= 1]
    does [(xa, xc) |-> A(xa) + C(xc)] map [dom A x dom C] one to one onto
    [\[0, N)] ([complement_converse], [non_tractable_no_complement]).
    Together: such an [A] has a hole-free complement iff it is tractable
    ([complement_exists_iff_tractable]).  A tiling forces [A] to be
    injective, so the statement covers every injective non-tractable [A].

    The proof is a structure theorem for any layout [L] that is a bijection
    from its domain onto [\[0, N)] ([bij_structure]): every mode with
    extent >= 2 has a stride >= 1, and for two such modes [a], [b] with
    [stride a < stride b], [stride a * extent a] divides [stride b].  By
    strong induction on [N]: the value 1 is reached, so some mode [m] has
    stride 1; every value reached by the other modes is a multiple of
    [e = extent m] (by strong induction on the value: otherwise the value
    and the multiple of [e] below it collide); dividing the other strides
    by [e] gives a bijection onto [\[0, N/e)]. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model ComplementAny.

(** [L] maps its domain one to one onto [\[0, N)]. *)
Definition bij (L : layout) (N : nat) : Prop :=
  (forall xs, in_domain L xs -> eval L xs < N) /\
  (forall xs ys, in_domain L xs -> in_domain L ys -> eval L xs = eval L ys -> xs = ys) /\
  (forall v, v < N -> exists xs, in_domain L xs /\ eval L xs = v).

(** [(A, C)] tiles [\[0, N)] without holes (the conclusion of
    [complement_tiles]). *)
Definition tiles (A C : layout) (N : nat) : Prop :=
  (forall xa xc, in_domain A xa -> in_domain C xc -> eval A xa + eval C xc < N) /\
  (forall xa xc ya yc, in_domain A xa -> in_domain C xc -> in_domain A ya -> in_domain C yc ->
     eval A xa + eval C xc = eval A ya + eval C yc -> xa = ya /\ xc = yc) /\
  (forall v, v < N -> exists xa xc, in_domain A xa /\ in_domain C xc /\ eval A xa + eval C xc = v).

(** ** Coordinates of concatenated layouts *)

Lemma eval_app : forall L1 L2 x1 x2, length x1 = length L1 ->
  eval (L1 ++ L2) (x1 ++ x2) = eval L1 x1 + eval L2 x2.
Proof.
  induction L1 as [|m L1 IH]; intros L2 x1 x2 H; destruct x1 as [|x x1];
    simpl in *; try discriminate; [reflexivity|].
  rewrite IH by lia. lia.
Qed.

Lemma in_domain_app : forall L1 L2 x1 x2,
  in_domain L1 x1 -> in_domain L2 x2 -> in_domain (L1 ++ L2) (x1 ++ x2).
Proof.
  induction L1 as [|m L1 IH]; intros L2 x1 x2 H1 H2; destruct x1 as [|x x1];
    simpl in *; try contradiction; [exact H2|].
  destruct H1 as [Hx H1]. split; [exact Hx | apply IH; assumption].
Qed.

Lemma in_domain_app_inv : forall L1 L2 xs, in_domain (L1 ++ L2) xs ->
  exists x1 x2, xs = x1 ++ x2 /\ in_domain L1 x1 /\ in_domain L2 x2.
Proof.
  induction L1 as [|m L1 IH]; intros L2 xs H.
  - exists [], xs. simpl. auto.
  - destruct xs as [|x xs]; simpl in H; [contradiction|]. destruct H as [Hx H].
    destruct (IH _ _ H) as [x1 [x2 [E [D1 D2]]]].
    exists (x :: x1), x2. subst xs. simpl. auto.
Qed.

Lemma app_same_length : forall (a b c d : list nat), length a = length b ->
  a ++ c = b ++ d -> a = b /\ c = d.
Proof.
  induction a as [|x a IH]; intros b c d L E; destruct b as [|y b]; simpl in *;
    try discriminate; [auto|].
  injection E as -> E. destruct (IH b c d ltac:(lia) E) as [-> ->]. auto.
Qed.

Lemma domain_pos : forall L xs, in_domain L xs -> Forall (fun m => 1 <= extent m) L.
Proof.
  induction L as [|m L IH]; intros [|x xs] H; simpl in H; try contradiction;
    constructor.
  - lia.
  - exact (IH _ (proj2 H)).
Qed.

Lemma zeros_length : forall n, length (zeros n) = n.
Proof. induction n; simpl; auto. Qed.

(** A coordinate that is 0 except for [x] at the mode [b]. *)
Lemma unit_coord : forall L1 b L2 x,
  Forall (fun m => 1 <= extent m) (L1 ++ b :: L2) -> x < extent b ->
  in_domain (L1 ++ b :: L2) (zeros (length L1) ++ x :: zeros (length L2)) /\
  eval (L1 ++ b :: L2) (zeros (length L1) ++ x :: zeros (length L2)) = x * stride b.
Proof.
  intros L1 b L2 x P Hx. apply Forall_app in P as [P1 P2]. inversion P2 as [|? ? _ P2']; subst.
  split.
  - apply in_domain_app; [apply zeros_in_domain; exact P1|].
    simpl. split; [exact Hx | apply zeros_in_domain; exact P2'].
  - rewrite eval_app by apply zeros_length. simpl. rewrite !eval_zeros. lia.
Qed.

(** ** The structure of a bijection onto an interval *)

Definition P_pos (L : layout) : Prop :=
  forall a, In a L -> 2 <= extent a -> 1 <= stride a.

Definition Q_div (L : layout) : Prop :=
  forall a b, In a L -> In b L -> 2 <= extent a -> 2 <= extent b ->
  stride a < stride b -> Nat.divide (stride a * extent a) (stride b).

(** Strides divided by [e]. *)
Definition shrink (e : nat) (L : layout) : layout :=
  map (fun b => Mode (extent b) (stride b / e)) L.

Lemma in_domain_shrink : forall e L xs, in_domain (shrink e L) xs <-> in_domain L xs.
Proof.
  induction L as [|m L IH]; intros [|x xs]; simpl; try tauto.
  rewrite IH. tauto.
Qed.

Lemma eval_shrink : forall e L xs, 1 <= e -> in_domain L xs ->
  (forall b, In b L -> 2 <= extent b -> Nat.divide e (stride b)) ->
  eval L xs = e * eval (shrink e L) xs.
Proof.
  induction L as [|m L IH]; intros xs He D H; destruct xs as [|x xs]; simpl in *;
    try contradiction; [lia|].
  destruct D as [Hx D].
  rewrite (IH xs He D) by (intros b Hb; apply H; right; exact Hb).
  destruct x as [|x]; [lia|].
  destruct (H m (or_introl eq_refl) ltac:(lia)) as [k Hk].
  rewrite Hk, Nat.div_mul by lia. nia.
Qed.

(** A bijection onto [\[0, 1)] has no mode of extent >= 2. *)
Lemma bij_one_no_big_mode : forall L a, bij L 1 -> In a L -> 2 <= extent a -> False.
Proof.
  intros L a [B1 [B2 B3]] Ha He.
  destruct (B3 0 ltac:(lia)) as [xs [D _]]. apply domain_pos in D.
  apply in_split in Ha as [L1 [L2 ->]].
  destruct (unit_coord L1 a L2 1 D ltac:(lia)) as [D1 E1].
  destruct (unit_coord L1 a L2 0 D ltac:(lia)) as [D0 E0].
  pose proof (B1 _ D1) as Lt. 
  assert (E : zeros (length L1) ++ 1 :: zeros (length L2) = zeros (length L1) ++ 0 :: zeros (length L2)).
  { apply B2; try assumption. lia. }
  apply app_inv_head in E. discriminate.
Qed.

(** Some mode has stride 1 and extent >= 2 when the value 1 is reached. *)
Lemma eval_one : forall L xs, in_domain L xs -> eval L xs = 1 ->
  exists L1 m L2, L = L1 ++ m :: L2 /\ stride m = 1 /\ 2 <= extent m.
Proof.
  induction L as [|m L IH]; intros xs H E; destruct xs as [|x xs]; simpl in H, E;
    try contradiction; try discriminate.
  destruct H as [Hx H].
  destruct (Nat.eq_dec (x * stride m) 1) as [E1|E1].
  - exists [], m, L. apply Nat.eq_mul_1 in E1 as [-> Hs]. split; [reflexivity|]. split; lia.
  - destruct (IH xs H ltac:(lia)) as [L1 [m' [L2 [-> [S Hm]]]]].
    exists (m :: L1), m', L2. auto.
Qed.

Lemma in_mid : forall (a m : mode) L1 L2, In a (L1 ++ m :: L2) -> a = m \/ In a (L1 ++ L2).
Proof.
  intros a m L1 L2 H. apply in_app_iff in H as [H|[H|H]].
  - right. apply in_app_iff. left. exact H.
  - left. symmetry. exact H.
  - right. apply in_app_iff. right. exact H.
Qed.

Lemma in_shrink : forall e a L, In a L -> In (Mode (extent a) (stride a / e)) (shrink e L).
Proof.
  intros e a L H. unfold shrink.
  exact (in_map (fun b => Mode (extent b) (stride b / e)) L a H).
Qed.

Theorem bij_structure : forall N L, 1 <= N -> bij L N -> P_pos L /\ Q_div L.
Proof.
  induction N as [N IH] using lt_wf_ind. intros L HN B.
  destruct (Nat.eq_dec N 1) as [->|HN2].
  { split.
    - intros a Ha He. exfalso. exact (bij_one_no_big_mode L a B Ha He).
    - intros a b Ha _ He _ _. exfalso. exact (bij_one_no_big_mode L a B Ha He). }
  destruct B as [B1 [B2 B3]].
  destruct (B3 1 ltac:(lia)) as [xs1 [D1 E1]].
  destruct (eval_one L xs1 D1 E1) as [L1 [m [L2 [EL [Sm Hm]]]]]. subst L.
  set (e := extent m) in *. set (L' := L1 ++ L2).
  assert (Pos : Forall (fun m => 1 <= extent m) (L1 ++ m :: L2)) by exact (domain_pos _ _ D1).
  (* Coordinates of L are coordinates of L' with [t] inserted at m. *)
  assert (Ev : forall x t, in_domain L' x -> t < e ->
            in_domain (L1 ++ m :: L2) (firstn (length L1) x ++ t :: skipn (length L1) x) /\
            eval (L1 ++ m :: L2) (firstn (length L1) x ++ t :: skipn (length L1) x) = eval L' x + t).
  { intros x t D Ht. destruct (in_domain_app_inv _ _ _ D) as [x1 [x2 [-> [Dx1 Dx2]]]].
    pose proof (domain_length _ _ Dx1) as Lx1. rewrite <- Lx1.
    rewrite firstn_app, skipn_app, Nat.sub_diag, firstn_all, skipn_all. simpl.
    rewrite app_nil_r. split.
    - apply in_domain_app; [exact Dx1|]. simpl. split; assumption.
    - unfold L'. rewrite !eval_app by exact Lx1. simpl. rewrite Sm. lia. }
  assert (F0 : forall x t, in_domain L' x -> t < e -> eval L' x + t < N).
  { intros x t D Ht. destruct (Ev x t D Ht) as [D' E']. rewrite <- E'. apply B1. exact D'. }
  assert (F1 : forall v, v < N -> exists x t, in_domain L' x /\ t < e /\ eval L' x + t = v).
  { intros v Hv. destruct (B3 v Hv) as [xs [D E]].
    destruct (in_domain_app_inv _ _ _ D) as [x1 [r [-> [Dx1 Dr]]]].
    destruct r as [|t x2]; simpl in Dr; [contradiction|]. destruct Dr as [Ht Dx2].
    exists (x1 ++ x2), t. split; [apply in_domain_app; assumption|]. split; [exact Ht|].
    rewrite <- E. unfold L'. rewrite !eval_app by exact (domain_length _ _ Dx1).
    simpl. rewrite Sm. lia. }
  assert (F2 : forall x y t u, in_domain L' x -> in_domain L' y -> t < e -> u < e ->
            eval L' x + t = eval L' y + u -> x = y /\ t = u).
  { intros x y t u Dx Dy Ht Hu E.
    destruct (Ev x t Dx Ht) as [Dx' Ex]. destruct (Ev y u Dy Hu) as [Dy' Ey].
    assert (Eq := B2 _ _ Dx' Dy' ltac:(lia)).
    assert (Lf : forall z, in_domain L' z -> length (firstn (length L1) z) = length L1).
    { intros z Dz. apply firstn_length_le. apply domain_length in Dz. unfold L' in Dz.
      rewrite app_length in Dz. lia. }
    destruct (app_same_length _ _ _ _ (eq_trans (Lf x Dx) (eq_sym (Lf y Dy))) Eq) as [Ea Eb].
    injection Eb as Et Es. split; [|exact Et].
    rewrite <- (firstn_skipn (length L1) x), <- (firstn_skipn (length L1) y), Ea, Es.
    reflexivity. }
  assert (He : 2 <= e) by exact Hm.
  (* Every value reached by L' is a multiple of e. *)
  assert (C : forall s x, in_domain L' x -> eval L' x = s -> Nat.divide e s).
  { induction s as [s IHs] using lt_wf_ind. intros x Dx Ex.
    apply Nat.mod_divide; [lia|].
    destruct (Nat.eq_dec (s mod e) 0) as [R|R]; [exact R|]. exfalso.
    pose proof (Nat.div_mod s e ltac:(lia)) as Hs.
    pose proof (Nat.mod_upper_bound s e ltac:(lia)) as Hr.
    pose proof (F0 x 0 Dx ltac:(lia)) as HsN.
    destruct (F1 (e * (s / e)) ltac:(lia)) as [y [t [Dy [Ht Ey]]]].
    destruct (IHs (eval L' y) ltac:(lia) y Dy eq_refl) as [k Hk].
    assert (t = 0).
    { assert (k <= s / e) by nia. assert (s / e <= k) by nia. nia. }
    subst t.
    destruct (F2 y x (s mod e) 0 Dy Dx Hr ltac:(lia) ltac:(lia)) as [_ Z]. lia. }
  assert (Mult : forall b, In b L' -> 2 <= extent b -> Nat.divide e (stride b)).
  { intros b Hb Hbe. apply in_split in Hb as [La [Lb EL']].
    assert (PL' : Forall (fun m => 1 <= extent m) L').
    { apply Forall_app in Pos as [P1 P2]. inversion P2; subst. apply Forall_app. auto. }
    rewrite EL' in PL'.
    destruct (unit_coord La b Lb 1 PL' ltac:(lia)) as [Du Eu].
    rewrite <- EL' in Du, Eu. apply (C _ _ Du). lia. }
  (* N is a multiple of e. *)
  destruct (F1 (N - 1) ltac:(lia)) as [x [t [Dx [Ht Ex]]]].
  destruct (C _ x Dx eq_refl) as [k Hk].
  pose proof (F0 x (e - 1) Dx ltac:(lia)) as Hlast.
  set (N' := k + 1).
  assert (EN : N = e * N') by (unfold N'; nia).
  (* L' with strides divided by e is a bijection onto [0, N'). *)
  assert (B' : bij (shrink e L') N').
  { split; [|split].
    - intros z Dz. apply in_domain_shrink in Dz.
      pose proof (F0 z (e - 1) Dz ltac:(lia)) as Hz.
      rewrite (eval_shrink e L' z ltac:(lia) Dz Mult) in Hz. nia.
    - intros z w Dz Dw E. apply in_domain_shrink in Dz, Dw.
      apply (F2 z w 0 0 Dz Dw ltac:(lia) ltac:(lia)).
      rewrite (eval_shrink e L' z ltac:(lia) Dz Mult), (eval_shrink e L' w ltac:(lia) Dw Mult), E.
      reflexivity.
    - intros u Hu. destruct (F1 (e * u) ltac:(nia)) as [z [t' [Dz [Ht' Ez]]]].
      exists z. split; [apply in_domain_shrink; exact Dz|].
      rewrite (eval_shrink e L' z ltac:(lia) Dz Mult) in Ez.
      set (q := eval (shrink e L') z) in *.
      assert (q <= u) by nia. assert (u <= q) by nia. lia. }
  destruct (IH N' ltac:(nia) (shrink e L') ltac:(lia) B') as [P' Q'].
  split.
  - intros a Ha Hae. destruct (in_mid a m L1 L2 Ha) as [->|Ha']; [lia|].
    destruct (Mult a Ha' Hae) as [j Hj].
    pose proof (P' _ (in_shrink e a L' Ha') Hae) as Hp. simpl in Hp.
    rewrite Hj, Nat.div_mul in Hp by lia. nia.
  - intros a b Ha Hb Hae Hbe Hlt.
    destruct (in_mid a m L1 L2 Ha) as [->|Ha'].
    + destruct (in_mid b m L1 L2 Hb) as [->|Hb']; [lia|].
      rewrite Sm, Nat.mul_1_l. exact (Mult b Hb' Hbe).
    + destruct (in_mid b m L1 L2 Hb) as [->|Hb'].
      * pose proof (P' _ (in_shrink e a L' Ha') Hae) as Hp. simpl in Hp.
        destruct (Mult a Ha' Hae) as [j Hj]. rewrite Hj, Nat.div_mul in Hp by lia. nia.
      * destruct (Mult a Ha' Hae) as [ja Hja]. destruct (Mult b Hb' Hbe) as [jb Hjb].
        pose proof (Q' _ _ (in_shrink e a L' Ha') (in_shrink e b L' Hb') Hae Hbe) as Hq.
        simpl in Hq. rewrite Hja, Hjb, !Nat.div_mul in Hq by lia.
        destruct (Hq ltac:(nia)) as [i Hi].
        exists i. rewrite Hja, Hjb, Hi. ring.
Qed.

(** ** From the structure theorem to tractability *)

Lemma tiles_bij : forall A C N, tiles A C N -> bij (A ++ C) N.
Proof.
  intros A C N [T1 [T2 T3]]. split; [|split].
  - intros xs H. destruct (in_domain_app_inv _ _ _ H) as [xa [xc [-> [Da Dc]]]].
    rewrite eval_app by exact (domain_length _ _ Da). apply T1; assumption.
  - intros xs ys Hx Hy E.
    destruct (in_domain_app_inv _ _ _ Hx) as [xa [xc [-> [Da Dc]]]].
    destruct (in_domain_app_inv _ _ _ Hy) as [ya [yc [-> [Ea Ec]]]].
    rewrite !eval_app in E by (apply domain_length; assumption).
    destruct (T2 _ _ _ _ Da Dc Ea Ec E) as [-> ->]. reflexivity.
  - intros v Hv. destruct (T3 v Hv) as [xa [xc [Da [Dc E]]]].
    exists (xa ++ xc). split; [apply in_domain_app; assumption|].
    rewrite eval_app by exact (domain_length _ _ Da). exact E.
Qed.

(** Two neighbouring modes of extent >= 2 of a bijection have different
    strides. *)
Lemma bij_neighbours_distinct : forall L1 a b L2 N, 1 <= N -> bij (L1 ++ a :: b :: L2) N ->
  2 <= extent a -> 2 <= extent b -> stride a <> stride b.
Proof.
  intros L1 a b L2 N HN [_ [B2 B3]] Ha Hb Es.
  destruct (B3 0 HN) as [xs [D _]]. apply domain_pos in D.
  apply Forall_app in D as [P1 P2]. inversion P2 as [|? ? _ P3]; subst.
  inversion P3 as [|? ? _ P4]; subst.
  set (u := zeros (length L1) ++ 1 :: 0 :: zeros (length L2)).
  set (w := zeros (length L1) ++ 0 :: 1 :: zeros (length L2)).
  assert (Du : in_domain (L1 ++ a :: b :: L2) u).
  { apply in_domain_app; [apply zeros_in_domain; exact P1|]. simpl.
    split; [lia|]. split; [lia | apply zeros_in_domain; exact P4]. }
  assert (Dw : in_domain (L1 ++ a :: b :: L2) w).
  { apply in_domain_app; [apply zeros_in_domain; exact P1|]. simpl.
    split; [lia|]. split; [lia | apply zeros_in_domain; exact P4]. }
  assert (E : u = w).
  { apply B2; try assumption. unfold u, w.
    rewrite !eval_app by apply zeros_length. simpl. rewrite !eval_zeros. lia. }
  unfold u, w in E. apply app_inv_head in E. discriminate.
Qed.

Fixpoint strict_sorted (L : layout) : Prop :=
  match L with
  | m1 :: ((m2 :: _) as L') => stride m1 < stride m2 /\ strict_sorted L'
  | _ => True
  end.

Lemma strict_of_sorted : forall A, strides_sorted A ->
  (forall A1 a b A2, A = A1 ++ a :: b :: A2 -> stride a <> stride b) -> strict_sorted A.
Proof.
  induction A as [|m1 A IH]; intros S D; [exact I|].
  destruct A as [|m2 A]; [exact I|].
  destruct S as [S1 S]. split.
  - specialize (D [] m1 m2 A eq_refl). lia.
  - apply IH; [exact S|]. intros A1 a b A2 E. apply (D (m1 :: A1) a b A2). rewrite E. reflexivity.
Qed.

Lemma tractable_of_structure : forall A p,
  (forall a, In a A -> 2 <= extent a /\ 1 <= stride a) -> Q_div A -> strict_sorted A ->
  (forall m A', A = m :: A' -> Nat.divide p (stride m)) -> tractable_from A p.
Proof.
  induction A as [|m A IH]; intros p H Q S Hd; simpl; [exact I|].
  destruct (H m (or_introl eq_refl)) as [He Hs].
  split; [lia|]. split; [lia|]. split; [exact (Hd m A eq_refl)|].
  apply IH.
  - intros a Ha. apply H. right. exact Ha.
  - intros a b Ha Hb. apply Q; right; assumption.
  - destruct A; [exact I | exact (proj2 S)].
  - intros m2 A' ->. destruct (H m2 (or_intror (or_introl eq_refl))) as [He2 _].
    apply Q; [left; reflexivity | right; left; reflexivity | exact He | exact He2 |].
    exact (proj1 S).
Qed.

(** ** The converse *)

(** If [A] (sorted by stride, extents >= 2) has a complement [C] such that
    [(A, C)] tiles [\[0, N)] without holes, [A] is tractable. *)
Theorem complement_converse : forall A C N, 1 <= N ->
  Forall (fun m => 2 <= extent m) A -> strides_sorted A -> tiles A C N -> tractable A.
Proof.
  intros A C N HN Big S T.
  pose proof (tiles_bij A C N T) as B.
  destruct (bij_structure N (A ++ C) HN B) as [P Q].
  rewrite Forall_forall in Big.
  apply tractable_of_structure.
  - intros a Ha. split; [exact (Big a Ha)|].
    apply P; [apply in_or_app; left; exact Ha | exact (Big a Ha)].
  - intros a b Ha Hb. apply Q; apply in_or_app; left; assumption.
  - apply strict_of_sorted; [exact S|]. intros A1 a b A2 E. subst A.
    apply (bij_neighbours_distinct A1 a b (A2 ++ C) N HN).
    + rewrite <- app_assoc in B. exact B.
    + apply Big. apply in_or_app. right. left. reflexivity.
    + apply Big. apply in_or_app. right. right. left. reflexivity.
  - intros m A' _. apply Nat.divide_1_l.
Qed.

(** The contrapositive, as [complement.rs] uses it when it refuses a
    non-tractable layout. *)
Corollary non_tractable_no_complement : forall A, Forall (fun m => 2 <= extent m) A ->
  strides_sorted A -> ~ tractable A -> forall C N, 1 <= N -> ~ tiles A C N.
Proof.
  intros A Big S NT C N HN T. exact (NT (complement_converse A C N HN Big S T)).
Qed.

(** With [complement_tiles]: a hole-free complement exists iff [A] is
    tractable. *)
Theorem complement_exists_iff_tractable : forall A, Forall (fun m => 2 <= extent m) A ->
  strides_sorted A -> (exists C N, 1 <= N /\ tiles A C N) <-> tractable A.
Proof.
  intros A Big S. split.
  - intros [C [N [HN T]]]. exact (complement_converse A C N HN Big S T).
  - intros T. exists (complement_of A 1), (reach A 1 * 1). split.
    + assert (1 <= reach A 1); [|lia].
      apply reach_pos; [lia| |exact T].
      eapply Forall_impl; [|exact Big]. simpl. intros. lia.
    + exact (complement_tiles A 1 T).
Qed.

(** Example: [(2,2):(1,3)] is injective (image [{0,1,3,4}]) but not
    tractable ([2] does not divide [3]), so it has no hole-free
    complement. *)
Example complement_2_2_1_3_none : forall C N, 1 <= N -> ~ tiles [Mode 2 1; Mode 2 3] C N.
Proof.
  apply non_tractable_no_complement.
  - repeat constructor.
  - simpl. lia.
  - simpl. intros [_ [_ [_ [_ [_ [[k Hk] _]]]]]]. simpl in Hk. lia.
Qed.
