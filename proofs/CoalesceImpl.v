(** * Coalesce as Rust implements it (issue 14, item 2)

    [crates/tessera/src/algebra/coalesce.rs] does not run the seed's
    [tryCoalesce]: it runs CuTe's backward walk [bw_coalesce].  The walk
    starts from the last mode and goes to the front, keeping a stack whose
    top is the current front mode [f]:

    - a size-1 mode is skipped;
    - if the stack is a single size-1 mode, the mode replaces it;
    - if [extent m * stride m = stride f], [m] is merged into [f]:
      [f := (extent m * extent f) : (stride m)];
    - otherwise [m] is pushed.

    At the end, a lone size-1 mode is written [1:0]; an empty layout gives
    [1:0].  [bw_step] and [rust_coalesce] below are that code, branch for
    branch (the stack is a list whose head is the top).

    Proved: for positive extents, the walk only fires the seed's rules
    ([bw_coalesce_reachable]) and ends in an irreducible layout
    ([bw_coalesce_irreducible]); hence, by [coalesce_unique_normal_form],
    [rust_coalesce L = coalesce L] whenever [size L <> 1]
    ([rust_coalesce_is_normal_form]), and [rust_coalesce L = [1:0]] when
    [size L = 1]. *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence.

(** One iteration of the loop of [bw_coalesce] on mode [m]. *)
Definition bw_step (m : mode) (acc : layout) : layout :=
  if Nat.eqb (extent m) 1 then acc
  else match acc with
       | [] => [m]
       | [f] =>
           if Nat.eqb (extent f) 1 then [m]
           else if Nat.eqb (extent m * stride m) (stride f)
                then [Mode (extent m * extent f) (stride m)]
                else [m; f]
       | f :: rest =>
           if Nat.eqb (extent m * stride m) (stride f)
           then Mode (extent m * extent f) (stride m) :: rest
           else m :: acc
       end.

(** [bw_coalesce(init, last)]: the walk over [init] from the back, starting
    from the stack [[last]]. *)
Definition bw_coalesce (init : layout) (last : mode) : layout :=
  fold_right bw_step [last] init.

(** The final fix-up: a lone size-1 mode is written [1:0]. *)
Definition unit_fixup (R : layout) : layout :=
  match R with
  | [f] => if Nat.eqb (extent f) 1 then [Mode 1 0] else R
  | _ => R
  end.

(** Rust's [coalesce] on the flat modes of a layout. *)
Definition rust_coalesce (L : layout) : layout :=
  match rev L with
  | [] => [Mode 1 0]
  | last :: rinit => unit_fixup (bw_coalesce (rev rinit) last)
  end.

(** ** The walk fires only the seed's rules *)

Lemma star_deeper : forall m L L', rules_star L L' -> rules_star (m :: L) (m :: L').
Proof.
  intros m L L' H. induction H as [L|L1 L2 L3 R H IH]; [apply star_refl|].
  eapply star_step; [apply rule_deeper; exact R | exact IH].
Qed.

Lemma star_trans : forall L1 L2 L3, rules_star L1 L2 -> rules_star L2 L3 -> rules_star L1 L3.
Proof.
  intros L1 L2 L3 H. induction H as [L|L1 L2 L4 R H IH]; intros H'; [exact H'|].
  eapply star_step; [exact R | apply IH; exact H'].
Qed.

Lemma one_step : forall L L', coalesce_rule L L' -> rules_star L L'.
Proof. intros L L' R. eapply star_step; [exact R | apply star_refl]. Qed.

Lemma bw_step_reachable : forall m acc, acc <> [] -> rules_star (m :: acc) (bw_step m acc).
Proof.
  intros m acc Hne. unfold bw_step.
  destruct (Nat.eqb (extent m) 1) eqn:Em.
  { apply Nat.eqb_eq in Em. destruct acc as [|f rest]; [contradiction|].
    apply one_step, rule_left_unit, Em. }
  destruct acc as [|f [|g rest]]; [contradiction| |].
  - destruct (Nat.eqb (extent f) 1) eqn:Ef.
    { apply Nat.eqb_eq in Ef. apply one_step, (rule_right_unit m f []), Ef. }
    destruct (Nat.eqb (extent m * stride m) (stride f)) eqn:Ep; [|apply star_refl].
    apply Nat.eqb_eq in Ep. apply one_step, (rule_packed_merge m f []), Ep.
  - destruct (Nat.eqb (extent m * stride m) (stride f)) eqn:Ep; [|apply star_refl].
    apply Nat.eqb_eq in Ep. apply one_step, rule_packed_merge, Ep.
Qed.

Lemma bw_step_nonempty : forall m acc, acc <> [] -> bw_step m acc <> [].
Proof.
  intros m acc Hne. unfold bw_step.
  destruct (Nat.eqb (extent m) 1); [exact Hne|].
  destruct acc as [|f [|g rest]]; [contradiction| |].
  - destruct (Nat.eqb (extent f) 1); [discriminate|].
    destruct (Nat.eqb (extent m * stride m) (stride f)); discriminate.
  - destruct (Nat.eqb (extent m * stride m) (stride f)); discriminate.
Qed.

Lemma bw_coalesce_nonempty : forall init last, bw_coalesce init last <> [].
Proof.
  induction init as [|m init IH]; intros last; [discriminate|].
  apply bw_step_nonempty, IH.
Qed.

Theorem bw_coalesce_reachable : forall init last,
  rules_star (init ++ [last]) (bw_coalesce init last).
Proof.
  induction init as [|m init IH]; intros last; [apply star_refl|].
  simpl. eapply star_trans; [apply star_deeper, IH|].
  apply bw_step_reachable, bw_coalesce_nonempty.
Qed.

(** ** The walk ends in an irreducible layout *)

Lemma irreducible_nil : irreducible [].
Proof. intros L' R. inversion R. Qed.

Lemma irreducible_single : forall m, irreducible [m].
Proof. intros m L' R. inversion R as [| | |m0 L0 L0' R0]; subst. inversion R0. Qed.

Lemma irreducible_cons2 : forall m1 m2 rest,
  extent m1 <> 1 -> extent m2 <> 1 -> extent m1 * stride m1 <> stride m2 ->
  irreducible (m2 :: rest) -> irreducible (m1 :: m2 :: rest).
Proof.
  intros m1 m2 rest H1 H2 H3 H L' R.
  inversion R; subst; try contradiction.
  apply (H L'0). assumption.
Qed.

(** The stack invariant: irreducible, and every mode has extent at least 2
    unless the stack is a single mode. *)
Definition stack_ok (acc : layout) : Prop :=
  irreducible acc /\ acc <> [] /\
  (Forall (fun m => 2 <= extent m) acc \/ exists f, acc = [f]).

Lemma bw_step_ok : forall m acc, 1 <= extent m -> Forall (fun m => 1 <= extent m) acc ->
  stack_ok acc -> stack_ok (bw_step m acc) /\ Forall (fun m => 1 <= extent m) (bw_step m acc).
Proof.
  intros m acc Hm Pacc [I [Hne Hall]]. unfold bw_step.
  destruct (Nat.eqb (extent m) 1) eqn:Em; [repeat split; assumption|].
  apply Nat.eqb_neq in Em.
  destruct acc as [|f [|g rest]]; [contradiction| |].
  - inversion Pacc as [|? ? Pf _]; subst.
    destruct (Nat.eqb (extent f) 1) eqn:Ef.
    { split; [|repeat constructor; lia].
      split; [apply irreducible_single|]. split; [discriminate|]. right. eexists; reflexivity. }
    apply Nat.eqb_neq in Ef.
    destruct (Nat.eqb (extent m * stride m) (stride f)) eqn:Ep.
    + split; [|repeat constructor; simpl; nia].
      split; [apply irreducible_single|]. split; [discriminate|]. right. eexists; reflexivity.
    + apply Nat.eqb_neq in Ep. split; [|repeat constructor; lia].
      split; [apply irreducible_cons2; auto; apply irreducible_single|].
      split; [discriminate|]. left. repeat constructor; lia.
  - destruct Hall as [Hall|[f' E]]; [|discriminate].
    inversion Hall as [|? ? Hf Hall']; subst.
    inversion Hall' as [|? ? Hg _]; subst.
    destruct (irreducible_pair f g rest I) as [_ [_ Hfg]].
    destruct (Nat.eqb (extent m * stride m) (stride f)) eqn:Ep.
    + apply Nat.eqb_eq in Ep.
      split.
      * split; [|split; [discriminate|]].
        -- apply irreducible_cons2.
           ++ simpl. nia.
           ++ lia.
           ++ simpl. intro E. apply Hfg. rewrite <- Ep. nia.
           ++ apply (irreducible_tail f). exact I.
        -- left. constructor; [simpl; nia | exact Hall'].
      * inversion Pacc as [|? ? _ Prest]; subst.
        constructor; [simpl; nia | exact Prest].
    + apply Nat.eqb_neq in Ep. split; [|constructor; [lia | exact Pacc]].
      split; [apply irreducible_cons2; auto; lia|].
      split; [discriminate|]. left. constructor; [lia | exact Hall].
Qed.

Lemma bw_coalesce_ok : forall init last, pos_extents (init ++ [last]) ->
  stack_ok (bw_coalesce init last) /\ Forall (fun m => 1 <= extent m) (bw_coalesce init last).
Proof.
  induction init as [|m init IH]; intros last P.
  - simpl in *. split; [|exact P].
    split; [apply irreducible_single|]. split; [discriminate|]. right. eexists; reflexivity.
  - simpl in P. inversion P as [|? ? Pm Prest]; subst.
    destruct (IH last Prest) as [Ok Pacc].
    apply bw_step_ok; assumption.
Qed.

Theorem bw_coalesce_irreducible : forall init last, pos_extents (init ++ [last]) ->
  irreducible (bw_coalesce init last).
Proof. intros init last P. apply (bw_coalesce_ok init last P). Qed.

(** ** Rust's coalesce is the unique normal form *)

Lemma size_all_ge2 : forall R, R <> [] -> Forall (fun m => 2 <= extent m) R -> 2 <= size R.
Proof.
  intros R Hne H. destruct R as [|m R]; [contradiction|].
  inversion H as [|? ? Hm HR]; subst. simpl.
  assert (1 <= size R).
  { clear Hm H Hne. induction R as [|m' R IH]; simpl; [lia|].
    inversion HR as [|? ? Hm' HR']; subst. specialize (IH HR'). nia. }
  nia.
Qed.

Lemma rev_snoc : forall (L : layout) last rinit, rev L = last :: rinit -> L = rev rinit ++ [last].
Proof.
  intros L last rinit E. rewrite <- (rev_involutive L), E. reflexivity.
Qed.

(** For positive extents and [size L <> 1], Rust's [coalesce] returns
    exactly the seed's [coalesce L]. *)
Theorem rust_coalesce_is_normal_form : forall L, pos_extents L -> size L <> 1 ->
  rust_coalesce L = coalesce L.
Proof.
  intros L P Hs. unfold rust_coalesce.
  destruct (rev L) as [|last rinit] eqn:E.
  { exfalso. apply Hs. rewrite <- (rev_involutive L), E. reflexivity. }
  apply rev_snoc in E. subst L.
  pose proof (bw_coalesce_reachable (rev rinit) last) as Hr.
  pose proof (bw_coalesce_irreducible (rev rinit) last P) as Hi.
  assert (Hf : unit_fixup (bw_coalesce (rev rinit) last) = bw_coalesce (rev rinit) last).
  { unfold unit_fixup. destruct (bw_coalesce (rev rinit) last) as [|f [|g rest]] eqn:B;
      try reflexivity.
    destruct (Nat.eqb (extent f) 1) eqn:Ef; [|reflexivity].
    apply Nat.eqb_eq in Ef. exfalso. apply Hs.
    destruct (rules_star_sound _ _ Hr) as [Hsz _]. rewrite <- Hsz; try rewrite B; simpl; lia. }
  rewrite Hf. apply coalesce_unique_normal_form; assumption.
Qed.

(** For positive extents and [size L = 1], Rust's [coalesce] returns [1:0]. *)
Theorem rust_coalesce_unit : forall L, pos_extents L -> size L = 1 ->
  rust_coalesce L = [Mode 1 0].
Proof.
  intros L P Hs. unfold rust_coalesce.
  destruct (rev L) as [|last rinit] eqn:E; [reflexivity|].
  apply rev_snoc in E. subst L.
  pose proof (bw_coalesce_reachable (rev rinit) last) as Hr.
  destruct (bw_coalesce_ok (rev rinit) last P) as [[_ [Hne Hall]] Pos].
  destruct (rules_star_sound _ _ Hr) as [Hsz _].
  destruct Hall as [Hall|[f Ef]].
  - pose proof (size_all_ge2 _ Hne Hall). lia.
  - rewrite Ef in *. unfold unit_fixup.
    assert (extent f = 1) by (simpl in Hsz; lia).
    rewrite (proj2 (Nat.eqb_eq _ _) H). reflexivity.
Qed.

(** Hence Rust's [coalesce] keeps the size and the function on the domain
    (with the [1:0] convention for size 1). *)
Corollary rust_coalesce_preserves_eval : forall L, pos_extents L ->
  size (rust_coalesce L) = size L /\
  (forall i, i < size L -> eval_idx (rust_coalesce L) i = eval_idx L i).
Proof.
  intros L P. destruct (Nat.eq_dec (size L) 1) as [E|E].
  - rewrite rust_coalesce_unit by assumption. split; [simpl; lia|].
    intros i Hi. assert (i = 0) by lia. subst i.
    rewrite eval_idx_zero. symmetry. apply eval_idx_zero.
  - rewrite rust_coalesce_is_normal_form by assumption. apply coalesce_preserves_eval.
Qed.

Example rust_coalesce_example :
  rust_coalesce [Mode 2 1; Mode 1 6; Mode 6 2] = [Mode 12 1].
Proof. reflexivity. Qed.
