(** * Rust's strict complement refuses only what has no complement (issue 14, item 3)

    [BridgeComplement.complementZ] transcribes Rust's [complement(A, M)]
    (integer cotarget): filter (stride-0 modes become [1:0], then Rust's
    coalesce), the constant case, a stable sort by stride, the tractability
    test ([None] for Rust's [NotComplementable] error), the modes.  Here the
    filter and the sort are proved, and with [ComplementConverse] they give,
    for [A] with natural strides and an integer cotarget [M >= 1]:

    - [complementZ_complete_and_sound]: if [A] has any complement [C] such
      that [(A, C)] tiles [\[0, N)] without holes ([N >= 1]), then
      [complementZ A M] returns [Some R], and [(A, R)] tiles [\[0, N')]
      without holes with [N' >= M];
    - [complementZ_refuses_only_without_complement] (any [M]) and
      [complementZ_none_no_complement]: so when it refuses ([None]), no
      layout complements [A] without holes.

    A tiling makes [A] injective on its domain, so this covers Rust's
    refusal of every injective non-tractable layout (the strict behaviour,
    [complement_exact] once [complement] returns CuTe's answer there).  Not
    covered: negative strides (refused by [complementZ]), shape cotargets,
    and a non-injective [A] (for which the result is only what the
    transcription computes). *)

From Coq Require Import Arith Lia List ZArith Bool Permutation.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence CoalesceImpl ComplementAny
  ComplementConverse Bridge BridgeComplement.

(** ** The sort, over [nat] *)

Fixpoint ins (m : mode) (l : layout) : layout :=
  match l with
  | [] => [m]
  | x :: l' => if stride m <? stride x then m :: l else x :: ins m l'
  end.

Definition sort_nat (l : layout) : layout := fold_left (fun acc m => ins m acc) l [].

Lemma ltb_of_nat : forall a b, Z.ltb (Z.of_nat a) (Z.of_nat b) = Nat.ltb a b.
Proof.
  intros a b. destruct (Nat.ltb_spec a b); destruct (Z.ltb_spec (Z.of_nat a) (Z.of_nat b));
    auto; lia.
Qed.

Lemma ins_Z : forall m l,
  insert_by_stride (zmode_of m) (map zmode_of l) = map zmode_of (ins m l).
Proof.
  intros m l. induction l as [|x l IH]; [reflexivity|].
  simpl. rewrite ltb_of_nat. destruct (stride m <? stride x); [reflexivity|].
  rewrite IH. reflexivity.
Qed.

Lemma sort_Z : forall l, sort_by_stride (map zmode_of l) = map zmode_of (sort_nat l).
Proof.
  intros l. unfold sort_by_stride, sort_nat. change (@nil zmode) with (map zmode_of (@nil mode)).
  generalize (@nil mode) as acc. induction l as [|m l IH]; intros acc; [reflexivity|].
  simpl. rewrite ins_Z. apply IH.
Qed.

Lemma ins_perm : forall m l, Permutation (ins m l) (m :: l).
Proof.
  intros m l. induction l as [|x l IH]; simpl; [reflexivity|].
  destruct (stride m <? stride x); [reflexivity|].
  eapply perm_trans; [apply perm_skip; exact IH | apply perm_swap].
Qed.

Lemma sort_perm : forall l, Permutation (sort_nat l) l.
Proof.
  intros l. unfold sort_nat. rewrite <- (app_nil_r l) at 2.
  generalize (@nil mode) as acc. induction l as [|m l IH]; intros acc; simpl; [reflexivity|].
  eapply perm_trans; [apply IH|].
  eapply perm_trans; [apply Permutation_app_head; apply ins_perm|].
  apply Permutation_sym, Permutation_middle.
Qed.

Lemma sorted_cons : forall x l, strides_sorted (x :: l) <->
  strides_sorted l /\ match l with [] => True | y :: _ => stride x <= stride y end.
Proof. intros x [|y l]; simpl; tauto. Qed.

Lemma ins_head : forall m l, exists y rest, ins m l = y :: rest /\
  (y = m \/ exists l', l = y :: l').
Proof.
  intros m [|x l]; simpl.
  - eexists; eexists. split; [reflexivity | left; reflexivity].
  - destruct (stride m <? stride x); eexists; eexists; (split; [reflexivity|]).
    + left; reflexivity.
    + right. eexists; reflexivity.
Qed.

Lemma ins_sorted : forall m l, strides_sorted l -> strides_sorted (ins m l).
Proof.
  intros m l. induction l as [|x l IH]; intros S; [exact I|].
  simpl. destruct (Nat.ltb_spec (stride m) (stride x)) as [Hlt|Hge].
  - apply sorted_cons. split; [exact S | lia].
  - apply sorted_cons in S as [S Hx].
    apply sorted_cons. split; [exact (IH S)|].
    destruct (ins_head m l) as [y [rest [E [->|[l' ->]]]]]; rewrite E; [lia | exact Hx].
Qed.

Lemma sort_sorted : forall l, strides_sorted (sort_nat l).
Proof.
  intros l. unfold sort_nat. assert (H : strides_sorted (@nil mode)) by exact I.
  revert H. generalize (@nil mode) as acc.
  induction l as [|m l IH]; intros acc H; simpl; [exact H|].
  apply IH, ins_sorted, H.
Qed.

(** ** Distinct strides *)

(** Two modes of extent >= 2 of a bijection have different strides. *)
Lemma bij_distinct : forall L1 a L2 b L3 N, 1 <= N -> bij (L1 ++ a :: L2 ++ b :: L3) N ->
  2 <= extent a -> 2 <= extent b -> stride a <> stride b.
Proof.
  intros L1 a L2 b L3 N HN [_ [B2 B3]] Ha Hb Es.
  destruct (B3 0 HN) as [xs [D _]]. apply domain_pos in D.
  apply Forall_app in D as [P1 P2]. inversion P2 as [|? ? _ P3]; subst.
  apply Forall_app in P3 as [P4 P5]. inversion P5 as [|? ? _ P6]; subst.
  set (u x y := zeros (length L1) ++ x :: zeros (length L2) ++ y :: zeros (length L3)).
  assert (Du : forall x y, x < extent a -> y < extent b ->
            in_domain (L1 ++ a :: L2 ++ b :: L3) (u x y)).
  { intros x y Hx Hy. unfold u. apply in_domain_app; [apply zeros_in_domain; exact P1|].
    simpl. split; [exact Hx|]. apply in_domain_app; [apply zeros_in_domain; exact P4|].
    simpl. split; [exact Hy | apply zeros_in_domain; exact P6]. }
  assert (Eu : forall x y, eval (L1 ++ a :: L2 ++ b :: L3) (u x y) = x * stride a + y * stride b).
  { intros x y. unfold u. rewrite eval_app by apply zeros_length. simpl.
    rewrite eval_app by apply zeros_length. simpl. rewrite !eval_zeros. lia. }
  assert (E : u 1 0 = u 0 1).
  { apply B2; try (apply Du; lia). rewrite !Eu. lia. }
  unfold u in E. apply app_inv_head in E. discriminate.
Qed.

Lemma nodup_strides : forall L,
  (forall L1 a L2 b L3, L = L1 ++ a :: L2 ++ b :: L3 -> stride a <> stride b) ->
  NoDup (map stride L).
Proof.
  induction L as [|m L IH]; intros H; simpl; constructor.
  - intros Hin. apply in_map_iff in Hin as [b [Eb Hb]].
    apply in_split in Hb as [L2 [L3 ->]].
    exact (H [] m L2 b L3 eq_refl (eq_sym Eb)).
  - apply IH. intros L1 a L2 b L3 E. apply (H (m :: L1) a L2 b L3). rewrite E. reflexivity.
Qed.

Lemma strict_of_nodup : forall A, strides_sorted A -> NoDup (map stride A) -> strict_sorted A.
Proof.
  induction A as [|m1 A IH]; intros S D; [exact I|].
  destruct A as [|m2 A]; [exact I|].
  destruct S as [S1 S]. simpl in D. apply NoDup_cons_iff in D as [D1 D].
  split.
  - assert (stride m1 <> stride m2) by (intro E; apply D1; left; symmetry; exact E). lia.
  - apply IH; [exact S | exact D].
Qed.

(** ** The tractability test *)

Lemma tractableb_of_tractable : forall A p, (1 <= p)%nat -> tractable_from A p ->
  tractableb (map zmode_of A) (Z.of_nat p) = true.
Proof.
  induction A as [|m A IH]; intros p Hp T; [reflexivity|].
  destruct T as [He [Hs [Hd T]]]. simpl. rewrite <- Nat2Z.inj_mul.
  rewrite IH by (try nia; exact T).
  assert (Hm : (Z.of_nat (stride m) mod Z.of_nat p = 0)%Z).
  { rewrite <- Nat2Z.inj_mod. apply Nat.mod_divide in Hd; [rewrite Hd; reflexivity | lia]. }
  rewrite Hm. destruct (Z.leb_spec 1 (Z.of_nat (extent m))); [|lia].
  destruct (Z.leb_spec 1 (Z.of_nat (stride m))); [|lia]. reflexivity.
Qed.

(** ** The filter keeps a tiling *)

Lemma eval_idx_recompose : forall L xs, in_domain L xs -> eval_idx L (recompose L xs) = eval L xs.
Proof. intros L xs H. unfold eval_idx. rewrite digits_recompose by exact H. reflexivity. Qed.

(** A tiling depends on [A] only through its size and its function on
    [\[0, size A)]. *)
Lemma tiles_same_function : forall A A' C N, size A = size A' ->
  (forall i, i < size A -> eval_idx A i = eval_idx A' i) -> tiles A C N -> tiles A' C N.
Proof.
  intros A A' C N Hs He [T1 [T2 T3]].
  assert (K : forall xa', in_domain A' xa' ->
            in_domain A (digits A (recompose A' xa')) /\
            eval A (digits A (recompose A' xa')) = eval A' xa').
  { intros xa' D. pose proof (recompose_bound A' xa' D) as Hr. split.
    - apply digits_in_domain. lia.
    - fold (eval_idx A (recompose A' xa')). rewrite He by lia.
      apply eval_idx_recompose. exact D. }
  split; [|split].
  - intros xa' xc D Dc. destruct (K xa' D) as [D' E']. rewrite <- E'. apply T1; assumption.
  - intros xa' xc ya' yc Dx Dxc Dy Dyc E.
    destruct (K xa' Dx) as [Dx' Ex']. destruct (K ya' Dy) as [Dy' Ey'].
    rewrite <- Ex', <- Ey' in E. destruct (T2 _ _ _ _ Dx' Dxc Dy' Dyc E) as [Ed ->].
    split; [|reflexivity].
    pose proof (recompose_bound A' xa' Dx). pose proof (recompose_bound A' ya' Dy).
    rewrite <- (digits_recompose A' xa' Dx), <- (digits_recompose A' ya' Dy).
    f_equal. rewrite <- (recompose_digits A (recompose A' xa')) by lia.
    rewrite <- (recompose_digits A (recompose A' ya')) by lia. rewrite Ed. reflexivity.
  - intros v Hv. destruct (T3 v Hv) as [xa [xc [Da [Dc E]]]].
    pose proof (recompose_bound A xa Da) as Hr.
    exists (digits A' (recompose A xa)), xc. split; [apply digits_in_domain; lia|].
    split; [exact Dc|]. fold (eval_idx A' (recompose A xa)).
    rewrite <- He by lia. rewrite eval_idx_recompose by exact Da. exact E.
Qed.

Definition unit_if_zero (m : mode) : mode := if stride m =? 0 then Mode 1 0 else m.

Lemma filterZ_of_nat : forall A,
  filterZ (map zmode_of A) = map zmode_of (rust_coalesce (map unit_if_zero A)).
Proof.
  intros A. unfold filterZ. rewrite <- rust_coalesceZ_of_nat. f_equal.
  rewrite !map_map. apply map_ext. intros m. unfold unit_if_zero. simpl.
  change 0%Z with (Z.of_nat 0). rewrite eqb_of_nat.
  destruct (stride m =? 0); reflexivity.
Qed.

(** In a tiling, a stride-0 mode of [A] has extent 1, so the filter's
    first step changes nothing. *)
Lemma tiles_unit_if_zero : forall A C N, 1 <= N -> tiles A C N -> map unit_if_zero A = A.
Proof.
  intros A C N HN T.
  destruct (bij_structure N (A ++ C) HN (tiles_bij A C N T)) as [P _].
  destruct T as [_ [_ T3]]. destruct (T3 0 HN) as [xa [_ [Da _]]].
  pose proof (domain_pos _ _ Da) as Pos. rewrite Forall_forall in Pos.
  rewrite <- map_id. apply map_ext_in. intros [e d] Hm. unfold unit_if_zero. simpl.
  destruct (Nat.eqb_spec d 0) as [->|]; [|reflexivity].
  pose proof (Pos _ Hm) as He. simpl in He.
  destruct (Nat.le_gt_cases 2 e) as [H2|H2].
  - pose proof (P (Mode e 0) (in_or_app _ _ _ (or_introl Hm)) H2). simpl in *. lia.
  - f_equal. lia.
Qed.

(** An irreducible layout of positive extents and size other than 1 has
    every extent at least 2. *)
Lemma irreducible_big : forall L, irreducible L -> pos_extents L -> size L <> 1 ->
  Forall (fun m => 2 <= extent m) L.
Proof.
  intros L I P Hs. destruct L as [|m [|m2 rest]].
  - simpl in Hs. lia.
  - inversion P; subst. simpl in Hs. repeat constructor. lia.
  - clear Hs. revert m m2 I P. induction rest as [|m3 rest IH]; intros m m2 I P.
    + destruct (irreducible_pair m m2 [] I) as [H1 [H2 _]].
      inversion P as [|? ? P1 P']; subst. inversion P' as [|? ? P2 _]; subst.
      repeat constructor; lia.
    + destruct (irreducible_pair m m2 _ I) as [H1 _].
      inversion P as [|? ? P1 P']; subst.
      constructor; [lia|]. apply IH; [apply (irreducible_tail m); exact I | exact P'].
Qed.

(** ** Permutations of [A] keep a tiling *)

(** [f] maps the domain of [A'] one to one onto the domain of [A], keeping
    the value. *)
Definition coord_equiv (A A' : layout) : Prop :=
  exists f : list nat -> list nat,
    (forall x, in_domain A' x -> in_domain A (f x) /\ eval A (f x) = eval A' x) /\
    (forall x y, in_domain A' x -> in_domain A' y -> f x = f y -> x = y) /\
    (forall z, in_domain A z -> exists x, in_domain A' x /\ f x = z).

Lemma perm_coord_equiv : forall A A', Permutation A A' -> coord_equiv A A'.
Proof.
  intros A A' H. induction H as [|m l l' _ [f [F1 [F2 F3]]]|x y l|l l' l'' _ [f [F1 [F2 F3]]] _ [g [G1 [G2 G3]]]].
  - exists (fun x => x). split; [|split]; auto. intros z Hz. exists z. auto.
  - exists (fun x => match x with [] => [] | h :: t => h :: f t end). split; [|split].
    + intros [|h t] D; simpl in D; [contradiction|]. destruct D as [Hh D].
      destruct (F1 t D) as [D' E']. simpl. rewrite E'. auto.
    + intros [|h t] [|h' t'] Dx Dy E; simpl in Dx, Dy; try contradiction.
      injection E as -> E. f_equal. apply F2; [apply Dx | apply Dy | exact E].
    + intros [|h zt] Dz; simpl in Dz; [contradiction|]. destruct Dz as [Hh Dz].
      destruct (F3 zt Dz) as [t [Dt Et]]. exists (h :: t). simpl. rewrite Et. auto.
  - exists (fun z => match z with a :: b :: t => b :: a :: t | _ => z end). split; [|split].
    + intros [|a [|b t]] D; simpl in D; try tauto. simpl. split; [tauto | lia].
    + intros [|a [|b t]] [|a' [|b' t']] Dx Dy E; simpl in Dx, Dy; try tauto.
      injection E as -> -> ->. reflexivity.
    + intros [|b [|a t]] Dz; simpl in Dz; try tauto.
      exists (a :: b :: t). simpl. split; [tauto | reflexivity].
  - exists (fun x => f (g x)). split; [|split].
    + intros x D. destruct (G1 x D) as [D' E']. destruct (F1 _ D') as [D'' E''].
      split; [exact D'' | lia].
    + intros x y Dx Dy E. apply G2; try assumption.
      apply F2; [apply (G1 x Dx) | apply (G1 y Dy) | exact E].
    + intros z Dz. destruct (F3 z Dz) as [y [Dy Ey]]. destruct (G3 y Dy) as [x [Dx Ex]].
      exists x. subst. auto.
Qed.

Lemma tiles_coord_equiv : forall A A' C N, coord_equiv A A' -> tiles A C N -> tiles A' C N.
Proof.
  intros A A' C N [f [F1 [F2 F3]]] [T1 [T2 T3]]. split; [|split].
  - intros x xc D Dc. destruct (F1 x D) as [D' E']. rewrite <- E'. apply T1; assumption.
  - intros x xc y yc Dx Dxc Dy Dyc E.
    destruct (F1 x Dx) as [Dx' Ex']. destruct (F1 y Dy) as [Dy' Ey'].
    rewrite <- Ex', <- Ey' in E. destruct (T2 _ _ _ _ Dx' Dxc Dy' Dyc E) as [Ef ->].
    split; [apply F2; assumption | reflexivity].
  - intros v Hv. destruct (T3 v Hv) as [xa [xc [Da [Dc E]]]].
    destruct (F3 xa Da) as [x [Dx Ex]]. exists x, xc. split; [exact Dx|]. split; [exact Dc|].
    destruct (F1 x Dx) as [_ E']. rewrite <- E', Ex. exact E.
Qed.

Lemma tiles_swap : forall A C N, tiles A C N -> tiles C A N.
Proof.
  intros A C N [T1 [T2 T3]]. split; [|split].
  - intros xc xa Dc Da. rewrite Nat.add_comm. apply T1; assumption.
  - intros xc xa yc ya Dxc Dxa Dyc Dya E.
    destruct (T2 xa xc ya yc Dxa Dxc Dya Dyc ltac:(lia)) as [-> ->]. auto.
  - intros v Hv. destruct (T3 v Hv) as [xa [xc [Da [Dc E]]]].
    exists xc, xa. split; [exact Dc|]. split; [exact Da | lia].
Qed.

(** ** What the filter and the sort give when a complement exists *)

Lemma rust_coalesce_pos : forall A, pos_extents A -> pos_extents (rust_coalesce A).
Proof.
  intros A Pos. unfold rust_coalesce. destruct (rev A) as [|l r] eqn:Er.
  - constructor; [simpl; lia | constructor].
  - assert (P' : pos_extents (rev r ++ [l])) by (rewrite <- (rev_snoc A l r Er); exact Pos).
    destruct (bw_coalesce_ok (rev r) l P') as [_ Pf]. unfold unit_fixup.
    destruct (bw_coalesce (rev r) l) as [|f [|g rest]]; try exact Pf.
    destruct (Nat.eqb (extent f) 1); [repeat constructor | exact Pf].
Qed.

Lemma filtered_sorted : forall A C N, 1 <= N -> tiles A C N -> size A <> 1 ->
  pos_extents A /\
  filterZ (map zmode_of A) = map zmode_of (rust_coalesce A) /\
  tiles (rust_coalesce A) C N /\
  Forall (fun m => 2 <= extent m) (rust_coalesce A) /\
  tractable (sort_nat (rust_coalesce A)).
Proof.
  intros A C N HN T E1.
  assert (Pos : pos_extents A).
  { destruct T as [_ [_ T3]]. destruct (T3 0 HN) as [xa [_ [Da _]]]. exact (domain_pos _ _ Da). }
  pose proof (filterZ_of_nat A) as Ef. rewrite (tiles_unit_if_zero A C N HN T) in Ef.
  set (F := rust_coalesce A) in *.
  destruct (rust_coalesce_preserves_eval A Pos) as [Hs He].
  assert (TF : tiles F C N).
  { apply (tiles_same_function A F C N); [symmetry; exact Hs | | exact T].
    intros i Hi. symmetry. apply He. exact Hi. }
  assert (Big : Forall (fun m => 2 <= extent m) F).
  { apply irreducible_big.
    - unfold F. rewrite rust_coalesce_is_normal_form by assumption. apply coalesce_is_irreducible.
    - apply rust_coalesce_pos. exact Pos.
    - unfold F. lia. }
  split; [exact Pos|]. split; [exact Ef|]. split; [exact TF|]. split; [exact Big|].
  destruct (bij_structure N (F ++ C) HN (tiles_bij F C N TF)) as [P Q].
  set (s := sort_nat F).
  assert (Ps : Permutation s F) by apply sort_perm.
  rewrite Forall_forall in Big.
  apply tractable_of_structure.
  - intros a Ha. apply (Permutation_in _ Ps) in Ha. split; [exact (Big a Ha)|].
    apply P; [apply in_or_app; left; exact Ha | exact (Big a Ha)].
  - intros a b Ha Hb. apply (Permutation_in _ Ps) in Ha, Hb.
    apply Q; apply in_or_app; left; assumption.
  - apply strict_of_nodup; [apply sort_sorted|].
    apply (Permutation_NoDup (Permutation_map stride (Permutation_sym Ps))).
    apply nodup_strides. intros L1 a L2 b L3 E.
    apply (bij_distinct L1 a L2 b (L3 ++ C) N HN).
    + assert (E' : F ++ C = L1 ++ a :: L2 ++ b :: L3 ++ C)
        by (rewrite E; repeat (rewrite <- app_assoc || rewrite <- app_comm_cons); reflexivity).
      rewrite <- E'. exact (tiles_bij F C N TF).
    + apply Big. rewrite E. apply in_or_app. right. left. reflexivity.
    + apply Big. rewrite E. apply in_or_app. right. right.
      apply in_or_app. right. left. reflexivity.
  - intros m A' _. apply Nat.divide_1_l.
Qed.

(** [complementZ] past the filter, when the sorted layout is tractable. *)
Lemma complementZ_tractable_branch : forall A M F, filterZ A = F ->
  tractableb (sort_by_stride F) 1 = true ->
  (forall m, F = [m] -> (zstride m =? 0)%Z = false) ->
  complementZ A M = Some (complement_tailZ (sort_by_stride F) M).
Proof.
  intros A M F Ef Ht Hz. unfold complementZ. rewrite Ef.
  destruct F as [|m [|m' rest]]; try (rewrite Ht; reflexivity).
  rewrite (Hz m eq_refl), Ht. reflexivity.
Qed.

(** A layout of size 1 (positive extents) has one coordinate, of value 0. *)
Lemma size_one_domain : forall A xs ys, size A = 1 -> in_domain A xs -> in_domain A ys ->
  xs = ys /\ eval A xs = 0.
Proof.
  induction A as [|m A IH]; intros xs ys Hs Dx Dy;
    destruct xs as [|x xs]; destruct ys as [|y ys]; simpl in *; try contradiction; [auto|].
  apply Nat.eq_mul_1 in Hs as [He Hs].
  destruct Dx as [Hx Dx]. destruct Dy as [Hy Dy].
  destruct (IH xs ys Hs Dx Dy) as [-> E]. split; [f_equal; lia | rewrite E; nia].
Qed.

Lemma tiles_size_one : forall A e d N, size A = 1 -> pos_extents A ->
  (forall c c', c < e -> c' < e -> c * d = c' * d -> c = c') ->
  (forall v, v < N <-> exists c, c < e /\ c * d = v) ->
  tiles A [Mode e d] N.
Proof.
  intros A e d N Hs Pos Inj Img.
  assert (Z : in_domain A (zeros (length A))) by (apply zeros_in_domain; exact Pos).
  split; [|split].
  - intros xa [|c [|]] Da Dc; simpl in Dc; try tauto.
    destruct (size_one_domain A xa xa Hs Da Da) as [_ ->]. simpl.
    apply Img. exists c. split; [tauto | lia].
  - intros xa [|c [|]] ya [|c' [|]] Dxa Dc Dya Dc' E; simpl in Dc, Dc'; try tauto.
    destruct (size_one_domain A xa ya Hs Dxa Dya) as [-> E0]. rewrite E0 in E. simpl in E.
    split; [reflexivity|]. f_equal. apply Inj; [tauto | tauto | lia].
  - intros v Hv. apply Img in Hv as [c [Hc Ec]]. exists (zeros (length A)), [c].
    split; [exact Z|]. split; [simpl; tauto|].
    rewrite eval_zeros. simpl. lia.
Qed.

(** ** The theorems *)

(** If [A] has a hole-free complement, Rust's [complement(A, M)] returns
    one: a layout [R] such that [(A, R)] tiles [\[0, N)] with [N >= M]. *)
Theorem complementZ_complete_and_sound : forall A M C N0, 1 <= N0 -> tiles A C N0 -> 1 <= M ->
  exists R N, complementZ (map zmode_of A) (Z.of_nat M) = Some (map zmode_of R) /\
              M <= N /\ tiles A R N.
Proof.
  intros A M C N0 HN0 T HM.
  destruct (Nat.eq_dec (size A) 1) as [E1|E1].
  - assert (Pos : pos_extents A).
    { destruct T as [_ [_ T3]]. destruct (T3 0 HN0) as [xa [_ [Da _]]]. exact (domain_pos _ _ Da). }
    pose proof (filterZ_of_nat A) as Ef. rewrite (tiles_unit_if_zero A C N0 HN0 T) in Ef.
    rewrite (rust_coalesce_unit A Pos E1) in Ef.
    unfold complementZ. rewrite Ef. simpl. rewrite eqb_of_nat_1.
    destruct (Nat.eqb_spec M 1) as [->|HM1].
    + exists [Mode 1 0], 1. split; [reflexivity|]. split; [lia|].
      apply tiles_size_one; try assumption.
      * intros c c' Hc Hc' _. lia.
      * intros v. split; [intros Hv; exists 0; split; lia | intros [c [Hc Ec]]; lia].
    + exists [Mode M 1], M. split; [reflexivity|]. split; [lia|].
      apply tiles_size_one; try assumption.
      * intros c c' _ _ E. lia.
      * intros v. split; [intros Hv; exists v; split; lia | intros [c [Hc Ec]]; lia].
  - destruct (filtered_sorted A C N0 HN0 T E1) as [Pos [Ef [TF [Big Tr]]]].
    set (F := rust_coalesce A) in *. set (s := sort_nat F) in *.
    assert (Ht : tractableb (map zmode_of s) 1 = true).
    { change 1%Z with (Z.of_nat 1). apply tractableb_of_tractable; [lia | exact Tr]. }
    set (rest := ((M + reach s 1 - 1) / reach s 1)%nat).
    set (Cof := complement_of s rest).
    destruct (complementZ_tractable s M HM Ht) as [_ Ec].
    exists (rust_coalesce Cof), (reach s 1 * rest). split; [|split].
    + rewrite (complementZ_tractable_branch _ _ (map zmode_of F) Ef).
      * rewrite sort_Z. fold s. rewrite Ec. reflexivity.
      * rewrite sort_Z. exact Ht.
      * intros m Em. destruct F as [|f [|]]; try discriminate. simpl in Em.
        injection Em as <-. simpl. change 0%Z with (Z.of_nat 0). rewrite eqb_of_nat.
        apply Nat.eqb_neq. intro Hf.
        destruct (bij_structure N0 ([f] ++ C) HN0 (tiles_bij [f] C N0 TF)) as [P _].
        inversion Big as [|? ? Hb _]; subst.
        pose proof (P f (or_introl eq_refl) Hb). lia.
    + apply complement_covers_cotarget; [exact Tr|].
      apply (Permutation_Forall (Permutation_sym (sort_perm F))). unfold pos_extents.
      eapply Forall_impl; [|exact Big]. simpl. intros. lia.
    + pose proof (complement_tiles s rest Tr) as Ts. fold Cof in Ts.
      assert (Hr : 1 <= rest).
      { unfold rest. assert (1 <= reach s 1).
        { apply reach_pos; [lia| |exact Tr].
          apply (Permutation_Forall (Permutation_sym (sort_perm F))).
          eapply Forall_impl; [|exact Big]. simpl. intros. lia. }
        apply Nat.div_le_lower_bound; lia. }
      assert (PC : pos_extents Cof).
      { unfold Cof, complement_of. apply Forall_app. split.
        - apply comp_go_pos; [lia | exact Tr].
        - repeat constructor. simpl. exact Hr. }
      destruct (rust_coalesce_preserves_eval Cof PC) as [HsC HeC].
      assert (T1 : tiles s (rust_coalesce Cof) (reach s 1 * rest)).
      { apply tiles_swap. apply (tiles_same_function Cof); [symmetry; exact HsC | | ].
        - intros i Hi. symmetry. apply HeC. exact Hi.
        - apply tiles_swap. exact Ts. }
      assert (T2 : tiles F (rust_coalesce Cof) (reach s 1 * rest)).
      { apply (tiles_coord_equiv s); [apply perm_coord_equiv, sort_perm | exact T1]. }
      destruct (rust_coalesce_preserves_eval A Pos) as [Hs He].
      apply (tiles_same_function F A); [exact Hs | intros i Hi; apply He; unfold F in Hi; lia | exact T2].
Qed.

(** Hence Rust refuses only layouts that have no hole-free complement. *)
Theorem complementZ_refuses_only_without_complement : forall A M C N, 1 <= N ->
  tiles A C N -> complementZ (map zmode_of A) M <> None.
Proof.
  intros A M C N HN T.
  destruct (Nat.eq_dec (size A) 1) as [E1|E1].
  - assert (Pos : pos_extents A).
    { destruct T as [_ [_ T3]]. destruct (T3 0 HN) as [xa [_ [Da _]]]. exact (domain_pos _ _ Da). }
    pose proof (filterZ_of_nat A) as Ef. rewrite (tiles_unit_if_zero A C N HN T) in Ef.
    rewrite (rust_coalesce_unit A Pos E1) in Ef.
    unfold complementZ. rewrite Ef. simpl. discriminate.
  - destruct (filtered_sorted A C N HN T E1) as [Pos [Ef [TF [Big Tr]]]].
    set (F := rust_coalesce A) in *.
    assert (Ht : tractableb (sort_by_stride (map zmode_of F)) 1 = true).
    { rewrite sort_Z. change 1%Z with (Z.of_nat 1). apply tractableb_of_tractable; [lia | exact Tr]. }
    revert Ht. unfold complementZ. rewrite Ef.
    destruct (map zmode_of F) as [|m [|m' rest]]; intros Ht.
    + rewrite Ht. discriminate.
    + destruct (zstride m =? 0)%Z; [discriminate|]. rewrite Ht. discriminate.
    + rewrite Ht. discriminate.
Qed.

Corollary complementZ_none_no_complement : forall A M, complementZ (map zmode_of A) M = None ->
  forall C N, 1 <= N -> ~ tiles A C N.
Proof.
  intros A M E C N HN T. exact (complementZ_refuses_only_without_complement A M C N HN T E).
Qed.

(** Example: Rust refuses [(2,2):(3,1)], which sorts to [(2,2):(1,3)]: no
    layout complements it without holes. *)
Example complementZ_refuses_2_2_3_1 : forall M, (1 <= M)%Z ->
  complementZ [ZMode 2 3; ZMode 2 1] M = None.
Proof. intros M HM. reflexivity. Qed.
