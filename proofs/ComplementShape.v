(** * Rust's strict complement with a shape cotarget (issue 14, item 3)

    [complement(A, cotarget)] in [crates/tessera/src/algebra/complement.rs]
    takes a cotarget shape [(M_0, ..., M_(k-1))] (each [M_i >= 1]).  After
    the modes of [ComplementAny.comp_go] it folds the rest mode by mode,
    as CuTe does ([rest *= ceil(M_i / b)], [b = ceil(b / M_i)], starting
    from [b = reach]), and, when that falls short of the cotarget's size
    [M = M_0 ... M_(k-1)], takes [rest = ceil(M / reach)] instead.  The
    constant case returns [M:1] (or [1:0] when [M = 1]).  [complementSZ]
    transcribes it step for step, with [BridgeComplement]'s filter, sort
    and tractability test; an integer cotarget is the shape [(M)].

    Proved, for [A] with natural strides and a cotarget of positive
    extents:
    - [rest_of_shape_spec]: the rest is at least 1 and [rest * reach >= M];
    - [complementSZ_complete_and_sound]: if [A] has any hole-free
      complement, [complementSZ A cotarget] returns [Some R] and [(A, R)]
      tiles [\[0, N)] without holes with [N >= M];
    - [complementSZ_none_no_complement]: when it refuses, [A] has no
      hole-free complement. *)

From Coq Require Import Arith Lia List ZArith Bool Permutation.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence CoalesceImpl ComplementAny
  ComplementConverse Bridge BridgeComplement ComplementRust.

Open Scope Z_scope.

Fixpoint shape_size (cot : list Z) : Z :=
  match cot with [] => 1 | s :: cot' => s * shape_size cot' end.

(** CuTe's fold: [rest = prod_i ceil(M_i / b_i)], [b_0 = reach],
    [b_(i+1) = ceil(b_i / M_i)]. *)
Fixpoint fold_rest (b : Z) (cot : list Z) : Z :=
  match cot with
  | [] => 1
  | s :: cot' => ceil_divZ s b * fold_rest (ceil_divZ b s) cot'
  end.

Definition rest_of_shape (r : Z) (cot : list Z) : Z :=
  let rest := fold_rest r cot in
  if rest * r <? shape_size cot then ceil_divZ (shape_size cot) r else rest.

Definition complement_tailSZ (s : list zmode) (cot : list Z) : list zmode :=
  let r := reachZ s 1 in
  let rest := rest_of_shape r cot in
  rust_coalesceZ (comp_goZ s 1 ++ [ZMode rest (if rest =? 1 then 0 else r)]).

Definition complementSZ (A : list zmode) (cot : list Z) : option (list zmode) :=
  let f := filterZ A in
  match f with
  | [m] => if zstride m =? 0
           then Some [if shape_size cot =? 1 then ZMode 1 0 else ZMode (shape_size cot) 1]
           else let s := sort_by_stride f in
                if tractableb s 1 then Some (complement_tailSZ s cot) else None
  | _ => let s := sort_by_stride f in
         if tractableb s 1 then Some (complement_tailSZ s cot) else None
  end.

(** ** The rest *)

Lemma ceil_divZ_ge1 : forall a b, 1 <= a -> 1 <= b -> 1 <= ceil_divZ a b.
Proof.
  intros a b Ha Hb. unfold ceil_divZ.
  apply Z.div_le_lower_bound; lia.
Qed.

Lemma ceil_divZ_cover : forall a b, 0 <= a -> 1 <= b -> a <= ceil_divZ a b * b.
Proof.
  intros a b Ha Hb. unfold ceil_divZ.
  pose proof (Z.div_mod (a + b - 1) b ltac:(lia)).
  pose proof (Z.mod_pos_bound (a + b - 1) b ltac:(lia)). nia.
Qed.

Lemma fold_rest_ge1 : forall cot b, Forall (fun s => 1 <= s) cot -> 1 <= b -> 1 <= fold_rest b cot.
Proof.
  induction cot as [|s cot IH]; intros b P Hb; simpl; [lia|].
  inversion P as [|? ? Hs P']; subst.
  pose proof (ceil_divZ_ge1 s b Hs Hb).
  pose proof (IH (ceil_divZ b s) P' (ceil_divZ_ge1 b s Hb Hs)). nia.
Qed.

Lemma shape_size_ge1 : forall cot, Forall (fun s => 1 <= s) cot -> 1 <= shape_size cot.
Proof.
  induction cot as [|s cot IH]; intros P; simpl; [lia|].
  inversion P as [|? ? Hs P']; subst. specialize (IH P'). nia.
Qed.

Theorem rest_of_shape_spec : forall r cot, 1 <= r -> Forall (fun s => 1 <= s) cot ->
  1 <= rest_of_shape r cot /\ shape_size cot <= rest_of_shape r cot * r.
Proof.
  intros r cot Hr P. unfold rest_of_shape.
  pose proof (shape_size_ge1 cot P) as Hs.
  destruct (Z.ltb_spec (fold_rest r cot * r) (shape_size cot)).
  - split; [apply ceil_divZ_ge1; lia | apply ceil_divZ_cover; lia].
  - split; [apply fold_rest_ge1; assumption | lia].
Qed.

Close Scope Z_scope.

Lemma shape_size_of_nat : forall cot,
  shape_size (map Z.of_nat cot) = Z.of_nat (fold_right Nat.mul 1 cot).
Proof.
  induction cot as [|s cot IH]; [reflexivity|]. simpl. rewrite IH. lia.
Qed.

(** ** The tail with any rest *)

Lemma tail_of_nat : forall A' rest, (1 <= rest)%nat ->
  rust_coalesceZ (comp_goZ (map zmode_of A') 1 ++
    [ZMode (Z.of_nat rest) (if (Z.of_nat rest =? 1)%Z then 0%Z else reachZ (map zmode_of A') 1)]) =
  map zmode_of (rust_coalesce (complement_of A' rest)).
Proof.
  intros A' rest Hr. unfold complement_of.
  change 1%Z with (Z.of_nat 1). rewrite reachZ_of_nat, comp_goZ_of_nat.
  rewrite <- rust_coalesceZ_of_nat, map_app. change (Z.of_nat 1) with 1%Z.
  destruct (Z.eqb_spec (Z.of_nat rest) 1) as [E1|E1].
  - replace rest with 1%nat by lia. apply rust_coalesceZ_unit_last.
  - reflexivity.
Qed.

(** [complementSZ] past the filter, when the sorted layout is tractable. *)
Lemma complementSZ_tractable_branch : forall A cot F, filterZ A = F ->
  tractableb (sort_by_stride F) 1 = true ->
  (forall m, F = [m] -> (zstride m =? 0)%Z = false) ->
  complementSZ A cot = Some (complement_tailSZ (sort_by_stride F) cot).
Proof.
  intros A cot F Ef Ht Hz. unfold complementSZ. rewrite Ef.
  destruct F as [|m [|m' rest]]; try (rewrite Ht; reflexivity).
  rewrite (Hz m eq_refl), Ht. reflexivity.
Qed.

(** ** The theorems *)

Theorem complementSZ_complete_and_sound : forall A cot C N0, 1 <= N0 -> tiles A C N0 ->
  Forall (fun s => 1 <= s) cot ->
  exists R N, complementSZ (map zmode_of A) (map Z.of_nat cot) = Some (map zmode_of R) /\
              fold_right Nat.mul 1 cot <= N /\ tiles A R N.
Proof.
  intros A cot C N0 HN0 T Pc.
  assert (PcZ : Forall (fun s => (1 <= s)%Z) (map Z.of_nat cot)).
  { apply Forall_map. eapply Forall_impl; [|exact Pc]. simpl. intros. lia. }
  set (M := fold_right Nat.mul 1 cot).
  assert (HM : 1 <= M).
  { pose proof (shape_size_ge1 _ PcZ) as H. rewrite shape_size_of_nat in H. unfold M. lia. }
  destruct (Nat.eq_dec (size A) 1) as [E1|E1].
  - assert (Pos : pos_extents A).
    { destruct T as [_ [_ T3]]. destruct (T3 0 HN0) as [xa [_ [Da _]]]. exact (domain_pos _ _ Da). }
    pose proof (filterZ_of_nat A) as Ef. rewrite (tiles_unit_if_zero A C N0 HN0 T) in Ef.
    rewrite (rust_coalesce_unit A Pos E1) in Ef.
    unfold complementSZ. rewrite Ef. simpl. rewrite shape_size_of_nat. fold M.
    rewrite eqb_of_nat_1.
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
    assert (Ps : Forall (fun m => 1 <= extent m) s).
    { apply (Permutation_Forall (Permutation_sym (sort_perm F))).
      eapply Forall_impl; [|exact Big]. simpl. intros. lia. }
    assert (Hr : 1 <= reach s 1) by (apply reach_pos; [lia | exact Ps | exact Tr]).
    destruct (rest_of_shape_spec (Z.of_nat (reach s 1)) (map Z.of_nat cot) ltac:(lia) PcZ)
      as [Hr1 Hcov].
    set (restZ := rest_of_shape (Z.of_nat (reach s 1)) (map Z.of_nat cot)) in *.
    set (rest := Z.to_nat restZ).
    assert (ER : restZ = Z.of_nat rest) by (unfold rest; lia).
    set (Cof := complement_of s rest).
    exists (rust_coalesce Cof), (reach s 1 * rest). split; [|split].
    + rewrite (complementSZ_tractable_branch _ _ (map zmode_of F) Ef).
      * rewrite sort_Z. fold s. f_equal. unfold complement_tailSZ.
        replace (rest_of_shape (reachZ (map zmode_of s) 1) (map Z.of_nat cot)) with (Z.of_nat rest).
        { apply tail_of_nat. lia. }
        rewrite <- ER. unfold restZ. f_equal. symmetry. apply (reachZ_of_nat s 1).
      * rewrite sort_Z. exact Ht.
      * intros m Em. destruct F as [|f [|]]; try discriminate. simpl in Em.
        injection Em as <-. simpl. change 0%Z with (Z.of_nat 0). rewrite eqb_of_nat.
        apply Nat.eqb_neq. intro Hf.
        destruct (bij_structure N0 ([f] ++ C) HN0 (tiles_bij [f] C N0 TF)) as [P _].
        inversion Big as [|? ? Hb _]; subst.
        pose proof (P f (or_introl eq_refl) Hb). lia.
    + rewrite shape_size_of_nat, ER in Hcov. fold M in Hcov. lia.
    + pose proof (complement_tiles s rest Tr) as Ts. cbv zeta in Ts. fold Cof in Ts.
      assert (PC : pos_extents Cof).
      { unfold Cof, complement_of. apply Forall_app. split.
        - apply comp_go_pos; [lia | exact Tr].
        - repeat constructor. simpl. lia. }
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

Theorem complementSZ_refuses_only_without_complement : forall A cot C N, 1 <= N ->
  tiles A C N -> complementSZ (map zmode_of A) cot <> None.
Proof.
  intros A cot C N HN T.
  destruct (Nat.eq_dec (size A) 1) as [E1|E1].
  - assert (Pos : pos_extents A).
    { destruct T as [_ [_ T3]]. destruct (T3 0 HN) as [xa [_ [Da _]]]. exact (domain_pos _ _ Da). }
    pose proof (filterZ_of_nat A) as Ef. rewrite (tiles_unit_if_zero A C N HN T) in Ef.
    rewrite (rust_coalesce_unit A Pos E1) in Ef.
    unfold complementSZ. rewrite Ef. simpl. discriminate.
  - destruct (filtered_sorted A C N HN T E1) as [Pos [Ef [TF [Big Tr]]]].
    set (F := rust_coalesce A) in *.
    assert (Ht : tractableb (sort_by_stride (map zmode_of F)) 1 = true).
    { rewrite sort_Z. change 1%Z with (Z.of_nat 1). apply tractableb_of_tractable; [lia | exact Tr]. }
    revert Ht. unfold complementSZ. rewrite Ef.
    destruct (map zmode_of F) as [|m [|m' rest]]; intros Ht.
    + rewrite Ht. discriminate.
    + destruct (zstride m =? 0)%Z; [discriminate|]. rewrite Ht. discriminate.
    + rewrite Ht. discriminate.
Qed.

Corollary complementSZ_none_no_complement : forall A cot, complementSZ (map zmode_of A) cot = None ->
  forall C N, 1 <= N -> ~ tiles A C N.
Proof.
  intros A cot E C N HN T. exact (complementSZ_refuses_only_without_complement A cot C N HN T E).
Qed.

(** Example: [complement((2,2):(1,6), (3,8))]: reach 12; CuTe's fold gives
    [ceil(3/12) * ceil(8/ceil(12/3)) = 2], enough for [24]; the result is
    [(1,3,2):(1,2,12)], coalesced to [(3,2):(2,12)].  With the cotarget
    [(22,2,2)] against [(3,8):(1,3)] (reach 24) the fold gives 2, short of
    [88], and the rest becomes [ceil(88/24) = 4]: the result is [4:24]. *)
Example complementSZ_example :
  complementSZ [ZMode 2 1; ZMode 2 6] [3%Z; 8%Z] = Some [ZMode 3 2; ZMode 2 12].
Proof. reflexivity. Qed.

Example complementSZ_short_fold :
  fold_rest 24 [22%Z; 2%Z; 2%Z] = 2%Z /\
  complementSZ [ZMode 3 1; ZMode 8 3] [22%Z; 2%Z; 2%Z] = Some [ZMode 4 24].
Proof. split; reflexivity. Qed.
