(** * The F2-rank path of the bank-conflict analysis (issue 28, item 4)

    [banks::analyze] answers a power-of-two access (the kernel checker's
    case) by [analyze_linear] without enumerating a phase: the map
    (instance, thread, value) to byte address is F2-linear, so the bytes of
    one phase are a translate [c ^ span T] of the span of the phase's thread
    bases [T] (with [c] the bytes of the instance, the instruction and the
    phase, all multiples of the vector width [W = 2^(eb + nb)]).  Rust
    collects the "span" list [1, 2, .., 2^(eb-1)] ++ [value_byte[..nb]] ++
    [thread_byte[..log2 pt]], maps it to words ([b / 4]) and banks
    ([word mod 32]), takes both F2 ranks with its echelon ([Echelon::insert]:
    reduce by the rows in decreasing order of leading bit, keep a nonzero
    remainder at its place) and answers [2^(rank words - rank banks)]
    wavefronts for every phase.

    Transcribed: [ech_reduce] ([Echelon::reduce]), [ech_place] and [ech_insert]
    ([Echelon::insert]), [f2_rank] (the rank only; the
    combination masks Rust also records do not take part in it) and
    [linear_per_phase].  Proved:
    - [f2_rank_count]: the span of vectors [vs >= 0] has [2^(f2_rank vs)]
      distinct elements (the echelon is a basis);
    - [linear_per_phase_correct]: whenever Rust's width checks hold
      ([value_byte[j] = elem << j] for [j < nb], every other basis and the
      translate [W]-aligned) and the phase's thread bytes are [c ^ span T],
      the enumeration's count of that phase ([phase_cost (phase_words ..)],
      Banks.v: the largest number of distinct words in one bank) equals
      [linear_per_phase]; in particular [rank banks <= rank words]
      ([linear_ranks_le]), so Rust's [rw - rb] does not underflow.  The
      count does not depend on [c]: every phase of every instruction and
      instance costs the same, so the total is [ideal * per_phase] and the
      worst phase the first one, as Rust reports.

    ** Translates ([analyze_translates])

    For a plain two-mode layout [(M,N):(a,b)] and an atom tile, instance
    [(i, j)] reads instance 0's element offsets shifted by
    [a * i * am + b * j * an] ([translate_offset]).  When every shift is a
    multiple of 16 bytes, each phase's words are instance 0's shifted by a
    whole number of words, and a shift of the words by any [d] only renames
    the banks cyclically: the count of the phase is unchanged
    ([phase_cost_translate]); the vector width is unchanged too, since
    alignment to [W <= 16] and contiguity survive a shift by a multiple of 16
    ([aligned_translate]).  So the total is [instances] times instance 0's. *)

From Coq Require Import Arith Lia ZArith Bool List Permutation Sorting.Sorted.
From Tessera Require Import Banks.
Import ListNotations.

Open Scope Z_scope.

(** Identities of XOR, decided bit by bit. *)
Ltac xor_eq :=
  apply Z.bits_inj'; intros ?i _; rewrite ?Z.lxor_spec, ?Z.land_spec, ?Z.lxor_spec, ?Z.testbit_0_l;
  repeat match goal with |- context [Z.testbit ?a ?i] => destruct (Z.testbit a i) end;
  reflexivity.

(** ** Spans *)

(** Every XOR combination of [bs] (with repetitions). *)
Fixpoint span (bs : list Z) : list Z :=
  match bs with
  | [] => [0]
  | b :: bs' => span bs' ++ map (Z.lxor b) (span bs')
  end.

Lemma span_cons : forall b bs x,
  In x (span (b :: bs)) <-> In x (span bs) \/ exists y, In y (span bs) /\ x = Z.lxor b y.
Proof.
  intros b bs x. simpl. rewrite in_app_iff, in_map_iff. split.
  - intros [H|[y [E H]]]; [left; exact H|right; exists y; split; [exact H|symmetry; exact E]].
  - intros [H|[y [H E]]]; [left; exact H|right; exists y; split; [symmetry; exact E|exact H]].
Qed.

Lemma span_0 : forall bs, In 0 (span bs).
Proof. induction bs as [|b bs IH]; [left; reflexivity|apply span_cons; left; exact IH]. Qed.

Lemma span_gen : forall bs b, In b bs -> In b (span bs).
Proof.
  induction bs as [|b0 bs IH]; intros b H; [destruct H|].
  apply span_cons. destruct H as [<-|H].
  - right. exists 0. split; [apply span_0|rewrite Z.lxor_0_r; reflexivity].
  - left. apply IH, H.
Qed.

Lemma span_xor : forall bs x y, In x (span bs) -> In y (span bs) -> In (Z.lxor x y) (span bs).
Proof.
  induction bs as [|b bs IH]; intros x y Hx Hy.
  - simpl in *. destruct Hx as [<-|[]]; destruct Hy as [<-|[]]. left; reflexivity.
  - apply span_cons in Hx, Hy. apply span_cons.
    destruct Hx as [Hx|[x' [Hx ->]]]; destruct Hy as [Hy|[y' [Hy ->]]].
    + left. apply IH; assumption.
    + right. exists (Z.lxor x y'). split; [apply IH; assumption|xor_eq].
    + right. exists (Z.lxor x' y). split; [apply IH; assumption|xor_eq].
    + left. replace (Z.lxor (Z.lxor b x') (Z.lxor b y')) with (Z.lxor x' y') by xor_eq.
      apply IH; assumption.
Qed.

(** The span is the least set closed under XOR holding 0 and the generators. *)
Lemma span_min : forall (P : Z -> Prop) bs, P 0 -> (forall x y, P x -> P y -> P (Z.lxor x y)) ->
  (forall b, In b bs -> P b) -> forall x, In x (span bs) -> P x.
Proof.
  intros P bs P0 Px. induction bs as [|b bs IH]; intros Hb x Hx.
  - destruct Hx as [<-|[]]. exact P0.
  - apply span_cons in Hx. destruct Hx as [Hx|[y [Hy ->]]].
    + apply IH; [intros; apply Hb; right; assumption|exact Hx].
    + apply Px; [apply Hb; left; reflexivity|]. apply IH; [intros; apply Hb; right; assumption|exact Hy].
Qed.

Lemma span_le : forall l l', (forall b, In b l -> In b (span l')) -> forall x, In x (span l) -> In x (span l').
Proof.
  intros l l' H. apply span_min; [apply span_0|apply span_xor|exact H].
Qed.

Lemma span_sub : forall l l', (forall b, In b l -> In b l') -> forall x, In x (span l) -> In x (span l').
Proof. intros l l' H. apply span_le. intros b Hb. apply span_gen, H, Hb. Qed.

Lemma span_perm : forall l l' x, Permutation l l' -> (In x (span l) <-> In x (span l')).
Proof.
  intros l l' x P. split; apply span_sub; intros b Hb.
  - exact (Permutation_in _ P Hb).
  - exact (Permutation_in _ (Permutation_sym P) Hb).
Qed.

Lemma span_app : forall l1 l2 x, In x (span (l1 ++ l2)) <->
  exists y z, In y (span l1) /\ In z (span l2) /\ x = Z.lxor y z.
Proof.
  intros l1 l2 x. split.
  - revert x. apply span_min.
    + exists 0, 0. split; [apply span_0|]. split; [apply span_0|reflexivity].
    + intros x x' [y [z [Hy [Hz ->]]]] [y' [z' [Hy' [Hz' ->]]]].
      exists (Z.lxor y y'), (Z.lxor z z'). split; [apply span_xor; assumption|].
      split; [apply span_xor; assumption|].
      rewrite !Z.lxor_assoc. f_equal. rewrite <- !Z.lxor_assoc. f_equal. apply Z.lxor_comm.
    + intros b Hb. apply in_app_iff in Hb. destruct Hb as [Hb|Hb].
      * exists b, 0. split; [apply span_gen, Hb|]. split; [apply span_0|rewrite Z.lxor_0_r; reflexivity].
      * exists 0, b. split; [apply span_0|]. split; [apply span_gen, Hb|reflexivity].
  - intros [y [z [Hy [Hz ->]]]]. apply span_xor.
    + revert Hy. apply span_sub. intros b Hb. apply in_app_iff. left; exact Hb.
    + revert Hz. apply span_sub. intros b Hb. apply in_app_iff. right; exact Hb.
Qed.

Lemma span_nonneg : forall bs, (forall b, In b bs -> 0 <= b) -> forall x, In x (span bs) -> 0 <= x.
Proof.
  intros bs H. apply span_min; [lia| |exact H]. intros x y Hx Hy. apply Z.lxor_nonneg. tauto.
Qed.

(** A map that respects XOR maps spans to spans. *)
Lemma span_map : forall (f : Z -> Z) bs, f 0 = 0 -> (forall x y, f (Z.lxor x y) = Z.lxor (f x) (f y)) ->
  span (map f bs) = map f (span bs).
Proof.
  intros f bs F0 Fx. induction bs as [|b bs IH]; simpl; [rewrite F0; reflexivity|].
  rewrite IH, map_app, !map_map. f_equal. apply map_ext. intros y. symmetry. apply Fx.
Qed.

Lemma lxor_inj : forall c x y, Z.lxor c x = Z.lxor c y -> x = y.
Proof.
  intros c x y E. replace x with (Z.lxor c (Z.lxor c x)) by xor_eq. rewrite E. xor_eq.
Qed.

(** High bits: [hb k x] when no bit of [x] from [k] up is set. *)
Definition hb (k x : Z) : Prop := forall i, k <= i -> Z.testbit x i = false.

Lemma span_hb : forall k bs, (forall b, In b bs -> hb k b) -> forall x, In x (span bs) -> hb k x.
Proof.
  intros k bs H. apply span_min; [intros i _; apply Z.testbit_0_l| |exact H].
  intros x y Hx Hy i Hi. rewrite Z.lxor_spec, Hx, Hy by exact Hi. reflexivity.
Qed.

(** ** Rust's echelon ([algebra/linear/mod.rs]: [Echelon], [f2_rank]) *)

(** [ech_reduce] (Rust's [Echelon::reduce]): for each row, in order, clear its leading bit from [v]. *)
Fixpoint ech_reduce (rows : list Z) (v : Z) : Z :=
  match rows with
  | [] => v
  | r :: rs => ech_reduce rs (if Z.testbit v (Z.log2 r) then Z.lxor v r else v)
  end.

(** [Echelon::insert]'s placement: before the first row of smaller leading bit. *)
Fixpoint ech_place (r : Z) (rows : list Z) : list Z :=
  match rows with
  | [] => [r]
  | x :: xs => if Z.log2 x <? Z.log2 r then r :: rows else x :: ech_place r xs
  end.

Definition ech_insert (rows : list Z) (v : Z) : list Z :=
  let r := ech_reduce rows v in if r =? 0 then rows else ech_place r rows.

Definition f2_rank (vs : list Z) : Z := Z.of_nat (length (fold_left ech_insert vs [])).

(** The echelon's invariant: positive rows, strictly decreasing leading bits. *)
Definition lead_gt (x y : Z) : Prop := Z.log2 y < Z.log2 x.
Definition ech (rows : list Z) : Prop := StronglySorted lead_gt rows /\ Forall (fun r => 0 < r) rows.

Lemma reduce_span : forall rows v, In (Z.lxor v (ech_reduce rows v)) (span rows).
Proof.
  induction rows as [|r rs IH]; intros v; simpl ech_reduce.
  - rewrite Z.lxor_nilpotent. left; reflexivity.
  - set (v' := if Z.testbit v (Z.log2 r) then Z.lxor v r else v).
    pose proof (IH v') as H. apply span_cons.
    replace (Z.lxor v (ech_reduce rs v')) with (Z.lxor (Z.lxor v v') (Z.lxor v' (ech_reduce rs v'))).
    2:{ rewrite Z.lxor_assoc, <- (Z.lxor_assoc v'), Z.lxor_nilpotent, Z.lxor_0_l. reflexivity. }
    unfold v'. destruct (Z.testbit v (Z.log2 r)).
    + right. eexists. split; [exact H|]. f_equal.
      rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l. reflexivity.
    + left. rewrite Z.lxor_nilpotent, Z.lxor_0_l. exact H.
Qed.

Lemma below_lead_hb : forall r b, 0 < b -> Z.log2 b < Z.log2 r -> hb (Z.log2 r) b.
Proof. intros r b Hb L i Hi. apply Z.bits_above_log2; lia. Qed.

Lemma rows_hb : forall r rs, ech (r :: rs) -> forall x, In x (span rs) -> hb (Z.log2 r) x.
Proof.
  intros r rs [S P]. inversion S as [|? ? S' F]; subst. inversion P as [|? ? P0 P']; subst.
  apply span_hb. intros b Hb. rewrite Forall_forall in F, P'.
  apply below_lead_hb; [apply P', Hb|apply F, Hb].
Qed.

Lemma ech_tail : forall r rs, ech (r :: rs) -> ech rs.
Proof.
  intros r rs [S P]. inversion S; inversion P; subst. split; assumption.
Qed.

(** After [ech_reduce], no row's leading bit is set. *)
Lemma reduce_clears : forall rows v, ech rows -> forall r, In r rows -> Z.testbit (ech_reduce rows v) (Z.log2 r) = false.
Proof.
  induction rows as [|r0 rs IH]; intros v E r Hr; [destruct Hr|].
  simpl ech_reduce. set (v' := if Z.testbit v (Z.log2 r0) then Z.lxor v r0 else v).
  destruct Hr as [<-|Hr]; [|apply IH; [eapply ech_tail; exact E|exact Hr]].
  assert (B : Z.testbit v' (Z.log2 r0) = false).
  { unfold v'. destruct (Z.testbit v (Z.log2 r0)) eqn:T; [|exact T].
    destruct E as [_ P]. inversion P; subst.
    rewrite Z.lxor_spec, T, Z.bit_log2 by assumption. reflexivity. }
  pose proof (reduce_span rs v') as H.
  pose proof (rows_hb r0 rs E _ H (Z.log2 r0) (Z.le_refl _)) as H'.
  replace (ech_reduce rs v') with (Z.lxor v' (Z.lxor v' (ech_reduce rs v')))
    by (rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l; reflexivity).
  rewrite Z.lxor_spec, B, H'. reflexivity.
Qed.

Lemma place_perm : forall r rows, Permutation (ech_place r rows) (r :: rows).
Proof.
  intros r rows. induction rows as [|x xs IH]; simpl; [reflexivity|].
  destruct (Z.log2 x <? Z.log2 r); [reflexivity|].
  eapply perm_trans; [constructor; exact IH|apply perm_swap].
Qed.

Lemma place_sorted : forall r rows, StronglySorted lead_gt rows ->
  (forall x, In x rows -> Z.log2 x <> Z.log2 r) -> StronglySorted lead_gt (ech_place r rows).
Proof.
  intros r rows. induction rows as [|x xs IH]; intros S N; simpl.
  - repeat constructor.
  - inversion S as [|? ? S' F]; subst. rewrite Forall_forall in F.
    destruct (Z.ltb_spec (Z.log2 x) (Z.log2 r)) as [L|L].
    + constructor; [exact S|]. constructor; [exact L|].
      apply Forall_forall. intros y Hy. pose proof (F y Hy). unfold lead_gt in *. lia.
    + constructor; [apply IH; [exact S'|intros; apply N; right; assumption]|].
      apply Forall_forall. intros y Hy.
      apply (Permutation_in _ (place_perm r xs)) in Hy. destruct Hy as [<-|Hy]; [|apply F, Hy].
      pose proof (N x (or_introl eq_refl)). unfold lead_gt. lia.
Qed.

Lemma reduce_nonneg : forall rows v, ech rows -> 0 <= v -> 0 <= ech_reduce rows v.
Proof.
  intros rows v [_ P] Hv.
  replace (ech_reduce rows v) with (Z.lxor v (Z.lxor v (ech_reduce rows v)))
    by (rewrite <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l; reflexivity).
  apply Z.lxor_nonneg. split; intros _; [|exact Hv].
  apply (span_nonneg rows); [|apply reduce_span].
  rewrite Forall_forall in P. intros b Hb. pose proof (P b Hb). lia.
Qed.

Lemma insert_ech : forall rows v, ech rows -> 0 <= v -> ech (ech_insert rows v).
Proof.
  intros rows v E Hv. unfold ech_insert.
  destruct (Z.eqb_spec (ech_reduce rows v) 0) as [Z0|N]; [exact E|].
  set (r := ech_reduce rows v) in *. pose proof (reduce_nonneg rows v E Hv) as R.
  split.
  - apply place_sorted; [apply E|]. intros x Hx Ex.
    pose proof (reduce_clears rows v E x Hx) as C. fold r in C. rewrite Ex, Z.bit_log2 in C by lia.
    discriminate.
  - apply Forall_forall. intros x Hx. apply (Permutation_in _ (place_perm r rows)) in Hx.
    destruct Hx as [<-|Hx]; [lia|]. destruct E as [_ P]. rewrite Forall_forall in P. apply P, Hx.
Qed.

Lemma insert_span : forall rows v x, In x (span (ech_insert rows v)) <-> In x (span (v :: rows)).
Proof.
  intros rows v x. unfold ech_insert.
  pose proof (reduce_span rows v) as S.
  destruct (Z.eqb_spec (ech_reduce rows v) 0) as [Z0|N].
  - rewrite Z0, Z.lxor_0_r in S. split; apply span_le; intros b Hb.
    + apply span_gen. right. exact Hb.
    + destruct Hb as [<-|Hb]; [exact S|apply span_gen, Hb].
  - rewrite (span_perm _ _ _ (place_perm _ _)). set (r := ech_reduce rows v) in *.
    split; apply span_le; intros b Hb.
    + destruct Hb as [<-|Hb].
      * replace r with (Z.lxor v (Z.lxor v r)) by xor_eq.
        apply span_xor; [apply span_gen; left; reflexivity|].
        revert S. apply span_sub. intros c Hc. right. exact Hc.
      * apply span_gen. right. exact Hb.
    + destruct Hb as [<-|Hb].
      * replace v with (Z.lxor r (Z.lxor v r)) at 1 by xor_eq.
        apply span_xor; [apply span_gen; left; reflexivity|].
        revert S. apply span_sub. intros c Hc. right. exact Hc.
      * apply span_gen. right. exact Hb.
Qed.

Lemma fold_insert : forall vs rows, ech rows -> (forall v, In v vs -> 0 <= v) ->
  ech (fold_left ech_insert vs rows) /\
  forall x, In x (span (fold_left ech_insert vs rows)) <-> In x (span (rows ++ vs)).
Proof.
  induction vs as [|v vs IH]; intros rows E H; simpl.
  - split; [exact E|]. rewrite app_nil_r. tauto.
  - destruct (IH (ech_insert rows v) (insert_ech rows v E (H v (or_introl eq_refl))))
      as [E' S']; [intros; apply H; right; assumption|].
    split; [exact E'|]. intros x. rewrite S'.
    split; apply span_le; intros b Hb; apply in_app_iff in Hb.
    + destruct Hb as [Hb|Hb].
      * assert (I : In b (span (v :: rows))) by (apply insert_span, span_gen, Hb).
        revert I. apply span_sub. intros c Hc. apply in_app_iff.
        destruct Hc as [<-|Hc]; [right; left; reflexivity|left; exact Hc].
      * apply span_gen, in_app_iff. right. right. exact Hb.
    + destruct Hb as [Hb|[<-|Hb]].
      * assert (I : In b (span (ech_insert rows v))) by (apply insert_span, span_gen; right; exact Hb).
        revert I. apply span_sub. intros c Hc. apply in_app_iff. left; exact Hc.
      * assert (I : In v (span (ech_insert rows v))) by (apply insert_span, span_gen; left; reflexivity).
        revert I. apply span_sub. intros c Hc. apply in_app_iff. left; exact Hc.
      * apply span_gen, in_app_iff. right. exact Hb.
Qed.

Lemma NoDup_app_disj : forall (l1 l2 : list Z), NoDup l1 -> NoDup l2 ->
  (forall x, In x l1 -> ~ In x l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; intros l2 N1 N2 D; simpl; [exact N2|].
  inversion N1; subst. constructor.
  - rewrite in_app_iff. intros [I|I]; [contradiction|]. exact (D a (or_introl eq_refl) I).
  - apply IH; [assumption|assumption|intros; apply D; right; assumption].
Qed.

(** Distinct leading bits: the [2^n] combinations are distinct. *)
Lemma ech_span_nodup : forall rows, ech rows -> NoDup (span rows) /\ length (span rows) = (2 ^ length rows)%nat.
Proof.
  induction rows as [|r rs IH]; intros E; simpl.
  - split; [repeat constructor; intros []|reflexivity].
  - destruct (IH (ech_tail r rs E)) as [N L].
    assert (Pr : 0 < r) by (destruct E as [_ P]; inversion P; assumption).
    split.
    + apply NoDup_app_disj; [exact N| |].
      * apply FinFun.Injective_map_NoDup; [|exact N].
        intros x y Exy. exact (lxor_inj r x y Exy).
      * intros x Hx Hm. apply in_map_iff in Hm. destruct Hm as [y [<- Hy]].
        pose proof (rows_hb r rs E _ Hx (Z.log2 r) (Z.le_refl _)) as B1.
        pose proof (rows_hb r rs E y Hy (Z.log2 r) (Z.le_refl _)) as B2.
        rewrite Z.lxor_spec, Z.bit_log2, B2 in B1 by exact Pr. discriminate.
    + rewrite app_length, map_length, L. lia.
Qed.

(** The echelon is a basis: [2^(f2_rank vs)] distinct combinations. *)
Theorem f2_rank_count : forall vs, (forall v, In v vs -> 0 <= v) ->
  dcount (span vs) = 2 ^ f2_rank vs.
Proof.
  intros vs H.
  assert (E0 : ech []) by (split; constructor).
  destruct (fold_insert vs [] E0 H) as [E S].
  rewrite (dcount_perm (span vs) (span (fold_left ech_insert vs []))) by (intros x; rewrite S; reflexivity).
  destruct (ech_span_nodup _ E) as [N L]. unfold dcount, f2_rank.
  rewrite (nodup_fixed_point _ N), L, Nat2Z.inj_pow. reflexivity.
Qed.

Lemma f2_rank_nonneg : forall vs, 0 <= f2_rank vs.
Proof. intros. unfold f2_rank. lia. Qed.

(** ** Counting the fibres of the bank map *)

Lemma dcount_map_inj : forall (f : Z -> Z) l, (forall x y, f x = f y -> x = y) ->
  dcount (map f l) = dcount l.
Proof.
  intros f l Inj. unfold dcount. f_equal.
  assert (P : Permutation (nodup Z.eq_dec (map f l)) (map f (nodup Z.eq_dec l))).
  { apply NoDup_Permutation; [apply NoDup_nodup| |].
    - apply FinFun.Injective_map_NoDup; [intros x y; apply Inj|apply NoDup_nodup].
    - intros x. rewrite nodup_In, !in_map_iff. split; intros [y [Ey Hy]]; exists y;
        split; try exact Ey; apply nodup_In in Hy || apply nodup_In; exact Hy. }
  rewrite (Permutation_length P), map_length. reflexivity.
Qed.

Lemma length_filter_split : forall (p : Z -> bool) l,
  length l = (length (filter p l) + length (filter (fun x => negb (p x)) l))%nat.
Proof. intros p l. induction l as [|a l IH]; simpl; [reflexivity|]. destruct (p a); simpl; lia. Qed.

(** A list whose images lie in [ys], each [y] the image of exactly [k]
    of its elements, has [k * |ys|] elements. *)
Lemma fibres_count : forall (f : Z -> Z) k ys l, NoDup ys -> (forall x, In x l -> In (f x) ys) ->
  (forall y, In y ys -> length (filter (fun x => f x =? y) l) = k) -> length l = (k * length ys)%nat.
Proof.
  intros f k ys. induction ys as [|y ys IH]; intros l N Img Fib.
  - destruct l as [|x l]; [simpl; lia|destruct (Img x (or_introl eq_refl))].
  - inversion N as [|? ? Ny N']; subst.
    rewrite (length_filter_split (fun x => f x =? y) l), Fib by (left; reflexivity).
    rewrite (IH (filter (fun x => negb (f x =? y)) l) N'); [simpl; lia| |].
    + intros x Hx. apply filter_In in Hx. destruct Hx as [Hx E].
      destruct (Img x Hx) as [E'|I]; [|exact I]. rewrite E', Z.eqb_refl in E. discriminate.
    + intros y' Hy'. rewrite filter_filter'. rewrite <- (Fib y' (or_intror Hy')).
      f_equal. apply filter_ext_in'. intros x _. destruct (Z.eqb_spec (f x) y'); simpl.
      * subst y'. destruct (Z.eqb_spec (f x) y) as [E|E]; [subst; contradiction|reflexivity].
      * rewrite andb_false_r. reflexivity.
Qed.

Lemma dcount_nodup_length : forall l, NoDup l -> dcount l = Z.of_nat (length l).
Proof. intros l N. unfold dcount. rewrite (nodup_fixed_point _ N). reflexivity. Qed.

Lemma dcount_pos : forall x l, In x l -> 1 <= dcount l.
Proof.
  intros x l H. unfold dcount. apply (nodup_In Z.eq_dec) in H.
  destruct (nodup Z.eq_dec l); [destruct H|simpl; lia].
Qed.

Lemma bank_land : forall w, bank_of w = Z.land w 31.
Proof. intros w. unfold bank_of. change 31 with (Z.ones 5). rewrite Z.land_ones by lia. reflexivity. Qed.

Lemma bank_xor : forall x y, bank_of (Z.lxor x y) = Z.lxor (bank_of x) (bank_of y).
Proof. intros x y. rewrite !bank_land. xor_eq. Qed.

(** The words of a translate [c ^ span W]: every bank that has a word has
    [dcount(span W) / dcount(span (banks W))] distinct ones. *)
Theorem translate_bank_count : forall c W, 0 <= c -> (forall w, In w W -> 0 <= w) ->
  let A := map (Z.lxor c) (span W) in
  (forall b, dcount (in_bank b A) <= fst (phase_cost A)) /\
  dcount (span (map bank_of W)) * fst (phase_cost A) = dcount (span W).
Proof.
  intros c W Hc HW A.
  set (K := filter (fun k => bank_of k =? 0) (span W)).
  assert (Apos : forall w, In w A -> 0 <= w).
  { intros w Hw. unfold A in Hw. apply in_map_iff in Hw. destruct Hw as [s [<- Hs]].
    pose proof (span_nonneg W HW s Hs). apply Z.lxor_nonneg. tauto. }
  (* every bank with a word has exactly dcount K of them *)
  assert (Fib : forall w0, In w0 A -> dcount (in_bank (bank_of w0) A) = dcount K).
  { intros w0 H0. rewrite <- (dcount_map_inj (Z.lxor w0) K).
    2:{ apply lxor_inj. }
    apply dcount_perm. intros x. unfold in_bank, K. rewrite filter_In, in_map_iff.
    unfold A in *. rewrite in_map_iff. apply in_map_iff in H0. destruct H0 as [s0 [<- Hs0]].
    split.
    - intros [[s [<- Hs]] E]. apply Z.eqb_eq in E. exists (Z.lxor s0 s). split.
      + xor_eq.
      + apply filter_In. split; [apply span_xor; assumption|].
        apply Z.eqb_eq. rewrite !bank_xor in E. apply lxor_inj in E.
        rewrite bank_xor, E, Z.lxor_nilpotent. reflexivity.
    - intros [k [<- Hk]]. apply filter_In in Hk. destruct Hk as [Hk E]. apply Z.eqb_eq in E.
      split.
      + exists (Z.lxor s0 k). split; [xor_eq|apply span_xor; assumption].
      + apply Z.eqb_eq. rewrite bank_xor, E, Z.lxor_0_r. reflexivity. }
  assert (K1 : 1 <= dcount K).
  { apply (dcount_pos 0). unfold K. apply filter_In. split; [apply span_0|reflexivity]. }
  (* the counting: |A| = |banks of A| * |K| *)
  set (dA := nodup Z.eq_dec A).
  set (ys := nodup Z.eq_dec (map bank_of dA)).
  assert (Count : length dA = (Z.to_nat (dcount K) * length ys)%nat).
  { apply (fibres_count bank_of); [apply NoDup_nodup| |].
    - intros x Hx. apply nodup_In, in_map, Hx.
    - intros y Hy. apply nodup_In, in_map_iff in Hy. destruct Hy as [w0 [<- Hw0]].
      apply nodup_In in Hw0. rewrite <- (Fib w0 Hw0). unfold dA.
      apply Nat2Z.inj. rewrite Z2Nat.id by apply dcount_nonneg.
      rewrite <- dcount_nodup_length by (apply NoDup_filter, NoDup_nodup).
      apply dcount_perm. intros x.
      unfold in_bank. rewrite !filter_In, nodup_In. reflexivity. }
  assert (DA : dcount A = dcount (span W)) by (apply dcount_map_inj, lxor_inj).
  assert (DB : dcount (span (map bank_of W)) = Z.of_nat (length ys)).
  { rewrite span_map by (reflexivity || apply bank_xor).
    rewrite <- (dcount_map_inj (Z.lxor (bank_of c)) (map bank_of (span W))).
    2:{ apply lxor_inj. }
    unfold ys. rewrite <- dcount_nodup_length by apply NoDup_nodup.
    apply dcount_perm. intros x. rewrite nodup_In, !in_map_iff. split.
    - intros [y [<- Hy]]. apply in_map_iff in Hy. destruct Hy as [s [<- Hs]].
      exists (Z.lxor c s). rewrite bank_xor. split; [reflexivity|].
      apply nodup_In. unfold A. apply in_map, Hs.
    - intros [w [<- Hw]]. apply nodup_In in Hw. unfold A in Hw. apply in_map_iff in Hw.
      destruct Hw as [s [<- Hs]]. exists (bank_of s). rewrite bank_xor. split; [reflexivity|].
      apply in_map, Hs. }
  destruct (phase_cost_correct A Apos) as [Ge Eq].
  assert (Hit : exists w0, In w0 A) by (exists (Z.lxor c 0); apply in_map, span_0).
  assert (Cost : fst (phase_cost A) = dcount K).
  { destruct Hit as [w0 Hw0]. pose proof (Ge (bank_of w0)) as G. rewrite Fib in G by exact Hw0.
    destruct Eq as [[E _]|[_ [E _]]]; [lia|].
    set (b := snd (phase_cost A)) in *.
    destruct (in_bank b A) as [|w1 l] eqn:IB.
    - rewrite dcount_nil in E. lia.
    - assert (I : In w1 (in_bank b A)) by (rewrite IB; left; reflexivity).
      unfold in_bank in I. apply filter_In in I. destruct I as [I Eb]. apply Z.eqb_eq in Eb.
      rewrite <- IB, <- Eb, Fib in E by exact I. lia. }
  split; [exact Ge|].
  rewrite Cost, DB, <- DA. unfold dcount at 2. fold dA. rewrite Count, Nat2Z.inj_mul, Z2Nat.id by lia. ring.
Qed.

(** The largest per-bank count depends only on the words of each bank,
    up to renaming the banks. *)
Lemma phase_cost_eq : forall l l', (forall w, In w l -> 0 <= w) -> (forall w, In w l' -> 0 <= w) ->
  (forall b, exists b', dcount (in_bank b l) = dcount (in_bank b' l')) ->
  (forall b', exists b, dcount (in_bank b' l') = dcount (in_bank b l)) ->
  fst (phase_cost l) = fst (phase_cost l').
Proof.
  intros l l' P P' H H'.
  destruct (phase_cost_correct l P) as [G1 E1]. destruct (phase_cost_correct l' P') as [G2 E2].
  assert (N1 : 0 <= fst (phase_cost l)) by (pose proof (G1 0) as G; pose proof (dcount_nonneg (in_bank 0 l)); lia).
  assert (N2 : 0 <= fst (phase_cost l')) by (pose proof (G2 0) as G; pose proof (dcount_nonneg (in_bank 0 l')); lia).
  assert (L1 : fst (phase_cost l) <= fst (phase_cost l')).
  { destruct E1 as [[E _]|[_ [E _]]]; [lia|]. destruct (H (snd (phase_cost l))) as [b' Hb].
    pose proof (G2 b'). lia. }
  assert (L2 : fst (phase_cost l') <= fst (phase_cost l)).
  { destruct E2 as [[E _]|[_ [E _]]]; [lia|]. destruct (H' (snd (phase_cost l'))) as [b Hb].
    pose proof (G1 b). lia. }
  lia.
Qed.

Lemma phase_cost_set : forall l l', (forall w, In w l -> 0 <= w) -> (forall w, In w l <-> In w l') ->
  fst (phase_cost l) = fst (phase_cost l').
Proof.
  intros l l' P S. assert (P' : forall w, In w l' -> 0 <= w) by (intros w Hw; apply P, S, Hw).
  assert (D : forall b, dcount (in_bank b l) = dcount (in_bank b l')).
  { intros b. apply dcount_perm. intros x. unfold in_bank. rewrite !filter_In, S. reflexivity. }
  apply phase_cost_eq; [exact P|exact P'|intros b; exists b; apply D|intros b; exists b; symmetry; apply D].
Qed.

(** ** The vector's bytes *)

Definition pow2_list (n : Z) : list Z := map (fun i => 2 ^ i) (zseq n).

Lemma low_add_xor : forall x j a, 0 <= a -> x mod 2 ^ a = 0 -> 0 <= j < 2 ^ a -> x + j = Z.lxor x j.
Proof.
  intros x j a Ha Hx Hj. apply Z.add_nocarry_lxor. apply Z.bits_inj'. intros i Hi.
  rewrite Z.land_spec, Z.testbit_0_l.
  destruct (Z.lt_ge_cases i a) as [L|G].
  - rewrite <- (Z.mod_pow2_bits_low x a i) by lia. rewrite Hx, Z.testbit_0_l. reflexivity.
  - rewrite (bits_high_zero j a i) by lia. apply andb_false_r.
Qed.

Lemma pow2s_span : forall n y, 0 <= n -> In y (span (pow2_list n)) <-> 0 <= y < 2 ^ n.
Proof.
  intros n y Hn. revert y. pattern n. apply natlike_ind; [| |exact Hn].
  - intros y. unfold pow2_list. simpl. split; [intros [<-|[]]; lia|]. intros H. left. lia.
  - intros k Hk IH y. unfold pow2_list, Z.succ. rewrite zseq_S, map_app by exact Hk. fold (pow2_list k).
    rewrite span_app. rewrite Z.pow_add_r, Z.pow_1_r by lia.
    assert (P : 0 < 2 ^ k) by (apply Z.pow_pos_nonneg; lia).
    split.
    + intros [a [z [Ha [Hz ->]]]]. apply IH in Ha. simpl in Hz.
      destruct Hz as [<-|[<-|[]]].
      * rewrite Z.lxor_0_r. lia.
      * rewrite Z.lxor_0_r, Z.lxor_comm, <- low_add_xor with (a := k); try lia.
        rewrite Z.mod_same by lia. reflexivity.
    + intros Hy. destruct (Z.lt_ge_cases y (2 ^ k)) as [L|G].
      * exists y, 0. split; [apply IH; lia|]. split; [left; reflexivity|rewrite Z.lxor_0_r; reflexivity].
      * exists (y - 2 ^ k), (2 ^ k). split; [apply IH; lia|]. split; [right; left; apply Z.lxor_0_r|].
        rewrite Z.lxor_comm, <- low_add_xor with (a := k); [lia|lia| |lia].
        rewrite Z.mod_same by lia. reflexivity.
Qed.

Lemma div4_xor : forall x y, Z.lxor x y / 4 = Z.lxor (x / 4) (y / 4).
Proof.
  intros x y. change 4 with (2 ^ 2). rewrite <- !Z.shiftr_div_pow2 by lia. apply Z.shiftr_lxor.
Qed.

Lemma aligned_xor : forall a x y, 0 <= a -> x mod 2 ^ a = 0 -> y mod 2 ^ a = 0 -> Z.lxor x y mod 2 ^ a = 0.
Proof.
  intros a x y Ha Hx Hy. rewrite <- !Z.land_ones in * by exact Ha.
  replace (Z.land (Z.lxor x y) (Z.ones a)) with (Z.lxor (Z.land x (Z.ones a)) (Z.land y (Z.ones a)))
    by xor_eq.
  rewrite Hx, Hy. reflexivity.
Qed.

(** A phase whose thread bytes are [c ^ span T], [W = 2^a]-aligned, [W]
    bytes each, touches the words [c / 4 ^ span (words of pow2_list a ++ T)]. *)
Lemma phase_words_translate : forall a c T bytes,
  0 <= a -> 0 <= c -> c mod 2 ^ a = 0 -> (forall t, In t T -> 0 <= t /\ t mod 2 ^ a = 0) ->
  (forall x, In x bytes <-> exists s, In s (span T) /\ x = Z.lxor c s) ->
  forall v, In v (phase_words bytes (2 ^ a)) <->
            In v (map (Z.lxor (c / 4)) (span (map (fun b => b / 4) (pow2_list a ++ T)))).
Proof.
  intros a c T bytes Ha Hc Ac HT Hb v.
  assert (P : 0 < 2 ^ a) by (apply Z.pow_pos_nonneg; lia).
  assert (ST : forall s, In s (span T) -> 0 <= s /\ s mod 2 ^ a = 0).
  { apply span_min; [rewrite Z.mod_0_l; lia| |exact HT].
    intros x y [Nx Ax] [Ny Ay]. split; [apply Z.lxor_nonneg; tauto|apply aligned_xor; assumption]. }
  assert (Bpos : forall x, In x bytes -> 0 <= x).
  { intros x Hx. apply Hb in Hx. destruct Hx as [s [Hs ->]]. destruct (ST s Hs).
    apply Z.lxor_nonneg. tauto. }
  rewrite phase_words_spec by (lia || exact Bpos).
  rewrite span_map by (reflexivity || apply div4_xor).
  rewrite map_map, in_map_iff. split.
  - intros [x [y [Hx [Hy <-]]]]. apply Hb in Hx. destruct Hx as [s [Hs ->]].
    destruct (ST s Hs) as [Ns As].
    exists (Z.lxor (y - Z.lxor c s) s). split.
    + rewrite <- div4_xor. f_equal.
      replace y with (Z.lxor c s + (y - Z.lxor c s)) at 2 by ring.
      rewrite (low_add_xor (Z.lxor c s) (y - Z.lxor c s) a) by (try apply aligned_xor; lia).
      set (d := y - Z.lxor c s). xor_eq.
    + apply span_app. exists (y - Z.lxor c s), s. split; [apply pow2s_span; lia|].
      split; [exact Hs|reflexivity].
  - intros [z [<- Hz]]. apply span_app in Hz. destruct Hz as [j [s [Hj [Hs ->]]]].
    apply pow2s_span in Hj; [|exact Ha]. destruct (ST s Hs) as [Ns As].
    exists (Z.lxor c s), (Z.lxor c s + j). split; [apply Hb; exists s; split; [exact Hs|reflexivity]|].
    split; [lia|]. rewrite <- div4_xor. f_equal.
    rewrite (low_add_xor (Z.lxor c s) j a) by (try apply aligned_xor; lia). xor_eq.
Qed.

(** ** Rust's answer *)

(** [analyze_linear]'s per-phase count from its span: the first [eb] bits
    (the bytes of one element), [value_byte[..nb]], [thread_byte[..log2 pt]]. *)
Definition linear_per_phase (eb : Z) (vbytes tbytes : list Z) : Z :=
  let words := map (fun b => b / 4) (pow2_list eb ++ vbytes ++ tbytes) in
  let banks := map (fun w => w mod 32) words in
  2 ^ (f2_rank words - f2_rank banks).

(** When Rust's width check holds ([value_byte[j] = elem << j] for
    [j < nb], the thread bases and the translate [c] aligned to
    [W = 2^(eb+nb)]) and the phase's thread bytes are [c ^ span T], the
    enumeration's count of the phase is [linear_per_phase], and the bank
    rank does not exceed the word rank. *)
Theorem linear_per_phase_correct : forall eb nb T c bytes,
  0 <= eb -> 0 <= nb ->
  (forall t, In t T -> 0 <= t /\ t mod 2 ^ (eb + nb) = 0) ->
  0 <= c -> c mod 2 ^ (eb + nb) = 0 ->
  (forall x, In x bytes <-> exists s, In s (span T) /\ x = Z.lxor c s) ->
  let vbytes := map (fun j => 2 ^ (eb + j)) (zseq nb) in
  let words := map (fun b => b / 4) (pow2_list eb ++ vbytes ++ T) in
  f2_rank (map (fun w => w mod 32) words) <= f2_rank words /\
  fst (phase_cost (phase_words bytes (2 ^ (eb + nb)))) = linear_per_phase eb vbytes T.
Proof.
  intros eb nb T c bytes Heb Hnb HT Hc Ac Hb vbytes words.
  set (a := eb + nb) in *.
  assert (Same : forall x, In x (pow2_list a ++ T) <-> In x (pow2_list eb ++ vbytes ++ T)).
  { intros x. rewrite app_assoc, !in_app_iff. unfold pow2_list, vbytes. rewrite !in_map_iff.
    setoid_rewrite zseq_In. split.
    - intros [[i [<- Hi]]|H]; [|tauto]. destruct (Z.lt_ge_cases i eb).
      + left. left. exists i. split; [reflexivity|lia].
      + left. right. exists (i - eb). split; [f_equal; ring|lia].
    - intros [[[i [<- Hi]]|[j [<- Hj]]]|H]; [| |tauto].
      + left. exists i. split; [reflexivity|lia].
      + left. exists (eb + j). split; [reflexivity|lia]. }
  set (A := map (Z.lxor (c / 4)) (span words)).
  assert (Wpos : forall w, In w words -> 0 <= w).
  { intros w Hw. unfold words in Hw. apply in_map_iff in Hw. destruct Hw as [b [<- Hb']].
    apply Same in Hb'. apply in_app_iff in Hb'. apply Z.div_pos; [|lia].
    destruct Hb' as [Hb'|Hb']; [|apply HT, Hb'].
    unfold pow2_list in Hb'. apply in_map_iff in Hb'. destruct Hb' as [i [<- _]].
    apply Z.pow_nonneg. lia. }
  assert (SetA : forall v, In v (phase_words bytes (2 ^ a)) <-> In v A).
  { intros v. rewrite (phase_words_translate a c T bytes) by (lia || assumption).
    unfold A, words. rewrite !in_map_iff. split; intros [s [Es Hs]]; exists s; split; try exact Es;
      revert Hs; apply span_sub; intros w Hw; apply in_map_iff in Hw; destruct Hw as [b [<- Hb']];
      apply (in_map (fun b => b / 4)); apply Same; exact Hb'. }
  assert (Apos : forall w, In w A -> 0 <= w).
  { intros w Hw. unfold A in Hw. apply in_map_iff in Hw. destruct Hw as [s [<- Hs]].
    pose proof (span_nonneg words Wpos s Hs). assert (0 <= c / 4) by (apply Z.div_pos; lia).
    apply Z.lxor_nonneg. tauto. }
  rewrite (phase_cost_set _ A) by (try exact SetA; intros w Hw; apply Apos, SetA, Hw).
  destruct (translate_bank_count (c / 4) words ltac:(apply Z.div_pos; lia) Wpos) as [Ge Eq].
  fold A in Ge, Eq.
  assert (Bpos : forall w, In w (map bank_of words) -> 0 <= w).
  { intros w Hw. apply in_map_iff in Hw. destruct Hw as [x [<- _]]. apply bank_range. }
  rewrite (f2_rank_count words Wpos), (f2_rank_count _ Bpos) in Eq.
  assert (C1 : 1 <= fst (phase_cost A)).
  { pose proof (Ge (bank_of (Z.lxor (c / 4) 0))) as G.
    pose proof (dcount_pos (Z.lxor (c / 4) 0) (in_bank (bank_of (Z.lxor (c / 4) 0)) A)) as D.
    enough (1 <= dcount (in_bank (bank_of (Z.lxor (c / 4) 0)) A)) by lia. apply D.
    unfold in_bank. apply filter_In. split; [apply in_map, span_0|apply Z.eqb_refl]. }
  change (map (fun w => w mod 32) words) with (map bank_of words).
  unfold linear_per_phase. fold vbytes. fold words. change (map (fun w => w mod 32) words) with (map bank_of words).
  set (rw := f2_rank words) in *. set (rb := f2_rank (map bank_of words)) in *.
  assert (Nrb : 0 <= rb) by apply f2_rank_nonneg. assert (Nrw : 0 <= rw) by apply f2_rank_nonneg.
  assert (Le : rb <= rw).
  { destruct (Z.le_gt_cases rb rw) as [L|G]; [exact L|exfalso].
    assert (2 ^ rw < 2 ^ rb) by (apply Z.pow_lt_mono_r; lia).
    assert (0 < 2 ^ rb) by (apply Z.pow_pos_nonneg; lia). nia. }
  split; [exact Le|].
  assert (0 < 2 ^ rb) by (apply Z.pow_pos_nonneg; lia).
  apply (Z.mul_cancel_l _ _ (2 ^ rb)); [lia|]. rewrite Eq, <- Z.pow_add_r by lia.
  f_equal. ring.
Qed.

(** ** Translates ([analyze_translates]) *)

(** Instance [(i, j)] of an [am x an] atom on a plain [(M,N):(a,b)]
    layout: Rust's index [(i am + m) + M (j an + n)] (with [m], [n] the
    atom-local row and column of [a0]) lands at instance 0's offset plus
    [a i am + b j an]. *)
Lemma translate_offset : forall M a b am an i j a0, 0 < am -> 0 <= a0 -> 0 <= i -> (i + 1) * am <= M ->
  let idx := (i * am + a0 mod am) + M * (j * an + a0 / am) in
  a * (idx mod M) + b * (idx / M) = (a * (a0 mod am) + b * (a0 / am)) + (a * (i * am) + b * (j * an)).
Proof.
  intros M a b am an i j a0 Ham Ha0 Hi HM idx.
  pose proof (Z.mod_pos_bound a0 am Ham).
  assert (R : idx mod M = i * am + a0 mod am).
  { unfold idx. replace (i * am + a0 mod am + M * (j * an + a0 / am))
      with ((i * am + a0 mod am) + (j * an + a0 / am) * M) by ring.
    rewrite Z.mod_add by lia. apply Z.mod_small. nia. }
  assert (Q : idx / M = j * an + a0 / am).
  { unfold idx. replace (i * am + a0 mod am + M * (j * an + a0 / am))
      with ((i * am + a0 mod am) + (j * an + a0 / am) * M) by ring.
    rewrite Z.div_add by lia. rewrite Z.div_small by nia. ring. }
  rewrite R, Q. ring.
Qed.

(** Shifting the bytes by a multiple of 4 shifts the words by a quarter of it. *)
Lemma phase_words_add : forall bytes W s, s mod 4 = 0 ->
  phase_words (map (fun x => x + s) bytes) W = map (fun w => w + s / 4) (phase_words bytes W).
Proof.
  intros bytes W s Hs. unfold phase_words. rewrite flat_map_concat_map, map_map.
  rewrite flat_map_concat_map, concat_map, map_map. f_equal. apply map_ext. intros x.
  pose proof (Z_div_exact_full_2 s 4 ltac:(lia) Hs) as E.
  set (q := s / 4) in *. rewrite E.
  replace (x + 4 * q) with (x + q * 4) by ring. rewrite Z.div_add by lia.
  replace (x + q * 4 + W - 1) with ((x + W - 1) + q * 4) by ring. rewrite Z.div_add by lia.
  unfold zrange. rewrite map_map. replace ((x + W - 1) / 4 + q - (x / 4 + q) + 1)
    with ((x + W - 1) / 4 - x / 4 + 1) by ring.
  apply map_ext. intros k. ring.
Qed.

(** A shift of the words by any [d] renames the banks cyclically: the
    phase's count is unchanged. *)
Theorem phase_cost_translate : forall d ws, (forall w, In w ws -> 0 <= w) ->
  (forall w, In w ws -> 0 <= w + d) ->
  fst (phase_cost (map (fun w => w + d) ws)) = fst (phase_cost ws).
Proof.
  intros d ws P P'.
  assert (Q : forall w, In w (map (fun w => w + d) ws) -> 0 <= w).
  { intros w Hw. apply in_map_iff in Hw. destruct Hw as [v [<- Hv]]. apply P', Hv. }
  assert (Out : forall b l, ~ (0 <= b < 32) -> dcount (in_bank b l) = 0).
  { intros b l N. unfold in_bank. rewrite (filter_ext_in' _ (fun _ => false)).
    - assert (T : forall l : list Z, filter (fun _ => false) l = []) by (induction l0; auto).
      rewrite T. reflexivity.
    - intros x _. pose proof (bank_range x). destruct (Z.eqb_spec (bank_of x) b); [lia|reflexivity]. }
  assert (Sh : forall b, 0 <= b < 32 ->
            dcount (in_bank b (map (fun w => w + d) ws)) = dcount (in_bank ((b - d) mod 32) ws)).
  { intros b Hb. unfold in_bank.
    assert (E : filter (fun w => bank_of w =? b) (map (fun w => w + d) ws) =
                map (fun w => w + d) (filter (fun w => bank_of w =? (b - d) mod 32) ws)).
    { clear P P' Q. induction ws as [|w ws IH]; [reflexivity|]. cbn [map filter]. rewrite IH.
      assert (B : (bank_of (w + d) =? b) = (bank_of w =? (b - d) mod 32)).
      { unfold bank_of. destruct (Z.eqb_spec ((w + d) mod 32) b) as [E|E];
          destruct (Z.eqb_spec (w mod 32) ((b - d) mod 32)) as [F|F]; try reflexivity; exfalso.
        - apply F. rewrite <- E, Zminus_mod_idemp_l. f_equal. ring.
        - apply E. rewrite <- Zplus_mod_idemp_l, F, Zplus_mod_idemp_l.
          replace (b - d + d) with b by ring. apply Z.mod_small. exact Hb. }
      rewrite B. destruct (bank_of w =? (b - d) mod 32); reflexivity. }
    rewrite E. apply dcount_map_inj. intros x y H. lia. }
  apply phase_cost_eq; [exact Q|exact P| |].
  - intros b. destruct (Z.le_gt_cases 0 b); [destruct (Z.lt_ge_cases b 32)|].
    + exists ((b - d) mod 32). apply Sh. lia.
    + exists 32. rewrite !Out by lia. reflexivity.
    + exists 32. rewrite !Out by lia. reflexivity.
  - intros b. destruct (Z.le_gt_cases 0 b); [destruct (Z.lt_ge_cases b 32)|].
    + exists ((b + d) mod 32). pose proof (Z.mod_pos_bound (b + d) 32 ltac:(lia)).
      rewrite Sh by lia. f_equal. f_equal. rewrite Zminus_mod_idemp_l.
      replace (b + d - d) with b by ring. symmetry. apply Z.mod_small. lia.
    + exists 32. rewrite !Out by lia. reflexivity.
    + exists 32. rewrite !Out by lia. reflexivity.
Qed.

(** So instance [(i, j)]'s phase, whose bytes are instance 0's shifted by a
    multiple of 16 bytes, costs what instance 0's costs. *)
Corollary translate_phase_cost : forall bytes W s, 1 <= W -> s mod 16 = 0 ->
  (forall x, In x bytes -> 0 <= x) -> (forall x, In x bytes -> 0 <= x + s) ->
  fst (phase_cost (phase_words (map (fun x => x + s) bytes) W)) = fst (phase_cost (phase_words bytes W)).
Proof.
  intros bytes W s HW Hs P P'.
  assert (H4 : s mod 4 = 0).
  { replace s with ((s / 16) * 16 + s mod 16) by (pose proof (Z_div_mod_eq_full s 16); lia).
    rewrite Hs, Z.add_0_r. replace (s / 16 * 16) with ((s / 16 * 4) * 4) by ring. apply Z.mod_mul. lia. }
  rewrite phase_words_add by exact H4. apply phase_cost_translate.
  - apply phase_words_nonneg, P.
  - intros w Hw. unfold phase_words in Hw. apply in_flat_map in Hw. destruct Hw as [x [Hx Hw]].
    apply zrange_In in Hw. pose proof (P' x Hx) as Px.
    pose proof (Z_div_exact_full_2 s 4 ltac:(lia) H4) as E.
    assert (x / 4 + s / 4 = (x + s) / 4) by (rewrite E at 2; rewrite Z.mul_comm, Z.div_add; lia).
    assert (0 <= (x + s) / 4) by (apply Z.div_pos; lia). lia.
Qed.

(** The vector width of an instance is instance 0's: a shift by a multiple
    of 16 keeps alignment to every legal width and differences of offsets. *)
Lemma aligned_translate : forall x s W, s mod 16 = 0 -> In W [1; 2; 4; 8; 16] ->
  (x + s) mod W = x mod W.
Proof.
  intros x s W Hs HW.
  assert (E : s = 16 * (s / 16)) by (pose proof (Z_div_mod_eq_full s 16); lia).
  rewrite E. simpl in HW.
  destruct HW as [<-|[<-|[<-|[<-|[<-|[]]]]]];
    [replace (16 * (s / 16)) with ((16 * (s / 16)) * 1) by ring
    |replace (16 * (s / 16)) with ((8 * (s / 16)) * 2) by ring
    |replace (16 * (s / 16)) with ((4 * (s / 16)) * 4) by ring
    |replace (16 * (s / 16)) with ((2 * (s / 16)) * 8) by ring
    |replace (16 * (s / 16)) with ((s / 16) * 16) by ring];
    rewrite Z.mod_add; lia.
Qed.

Close Scope Z_scope.
