(** * Coalesce as a forward walk (issue 14, item 2)

    [CoalesceImpl.v] models CuTe's backward walk [bw_coalesce].  Rust's
    [coalesce] runs a forward walk instead (it needs no final reversal):
    over the flat modes [src] of a layout,

<<
    let mut it = src.iter();
    let mut cur = loop {                       // (a) the first mode of extent != 1
        match it.next() {
            Some(&m) if m.shape != 1 => break m,
            Some(_) => continue,
            None => { arr[0] = Mode::new(1, 0); return Ok(1); }
        }
    };
    let mut k = 0;
    for &m in it {
        if m.shape == 1 { continue; }                              // (b) skip
        if cur.shape * cur.stride == m.stride {                    // (c) merge
            cur.shape = cur.shape * m.shape;
        } else {
            arr[k] = cur; k += 1; cur = m;                         // (d) emit
        }
    }
    arr[k] = cur;                                                  // result: arr[..k+1]
>>

    The model keeps the emitted modes and [cur] in one accumulator, kept
    reversed: its head is [cur], its tail is [arr[..k]] back to front, and
    [[]] means "no [cur] yet" (the first loop is still running).  One call
    of [fw_step acc m] is one mode [m] read from [it]:

    - [extent m = 1]: the accumulator is unchanged.  With [acc = []] this is
      the [Some(_) => continue] arm of (a); otherwise it is (b).
    - [acc = []], [extent m <> 1]: the accumulator becomes [[m]], the
      [break m] arm of (a) ([cur := m], [k = 0]).
    - [acc = cur :: rest], [extent cur * stride cur = stride m]: the head
      becomes [(extent cur * extent m) : (stride cur)], which is (c).
    - otherwise: [m] is pushed, [m :: acc], which is (d) ([cur] moves to
      [arr[k]], [m] is the new [cur]).

    [fw_coalesce L] folds [fw_step] over [L] from the front, starting from
    [[]].  At the end, [[]] (the [None] arm of (a): no mode of extent [<> 1])
    gives [[1:0]], and [cur :: rest] gives [rev (cur :: rest)], which is
    [arr[..k+1]] ([arr[k] = cur]).

    Proved: for positive extents, the walk only fires the seed's rules
    ([fw_coalesce_reachable], rewriting at the end of the prefix read so
    far) and ends in an irreducible layout ([fw_coalesce_irreducible]);
    hence, by [coalesce_unique_normal_form], [fw_coalesce L = coalesce L]
    whenever [size L <> 1] ([fw_coalesce_is_normal_form]), and
    [fw_coalesce L = [1:0]] when [size L = 1] ([fw_coalesce_unit]).  So the
    forward and the backward walks agree on every layout with positive
    extents ([fw_coalesce_eq_rust_coalesce]). *)

From Coq Require Import Arith Lia List.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence CoalesceImpl.

(** One mode [m] read by the forward walk; the accumulator is reversed
    (head = [cur]). *)
Definition fw_step (acc : layout) (m : mode) : layout :=
  if Nat.eqb (extent m) 1 then acc
  else match acc with
       | [] => [m]
       | cur :: rest =>
           if Nat.eqb (extent cur * stride cur) (stride m)
           then Mode (extent cur * extent m) (stride cur) :: rest
           else m :: acc
       end.

(** The end of the walk: no [cur] gives [1:0]; otherwise [arr[..k+1]]. *)
Definition fw_finish (acc : layout) : layout :=
  match acc with
  | [] => [Mode 1 0]
  | _ => rev acc
  end.

(** Rust's [coalesce] on the flat modes of a layout (the forward walk). *)
Definition fw_coalesce (L : layout) : layout := fw_finish (fold_left fw_step L []).

Example fw_coalesce_example :
  fw_coalesce [Mode 2 1; Mode 1 6; Mode 6 2] = [Mode 12 1].
Proof. reflexivity. Qed.

Example fw_coalesce_example_emit :
  fw_coalesce [Mode 1 5; Mode 2 1; Mode 3 4; Mode 1 7; Mode 5 12] = [Mode 2 1; Mode 15 4].
Proof. reflexivity. Qed.

Example fw_coalesce_example_unit :
  fw_coalesce [Mode 1 5; Mode 1 3] = [Mode 1 0].
Proof. reflexivity. Qed.

(** ** Rules at the end of a list *)

Lemma rule_app_r : forall A B C, coalesce_rule A B -> coalesce_rule (A ++ C) (B ++ C).
Proof.
  intros A B C H. induction H as [m1 m2 rest E|m1 m2 rest E|m1 m2 rest E|m L L' H IH];
    simpl.
  - apply rule_left_unit. exact E.
  - apply rule_right_unit. exact E.
  - apply rule_packed_merge. exact E.
  - apply rule_deeper. exact IH.
Qed.

Lemma rule_app_l : forall X A B, coalesce_rule A B -> coalesce_rule (X ++ A) (X ++ B).
Proof.
  induction X as [|x X IH]; intros A B H; simpl; [exact H|].
  apply rule_deeper. apply IH. exact H.
Qed.

Lemma star_app_r : forall A B C, rules_star A B -> rules_star (A ++ C) (B ++ C).
Proof.
  intros A B C H. induction H as [L|L1 L2 L3 R H IH]; [apply star_refl|].
  eapply star_step; [apply rule_app_r; exact R | exact IH].
Qed.

(** A prefix of size-1 modes before a mode is dropped by left units. *)
Lemma star_units_prefix : forall P m, Forall (fun u => extent u = 1) P ->
  rules_star (P ++ [m]) [m].
Proof.
  induction P as [|u P IH]; intros m H; [apply star_refl|].
  inversion H as [|? ? Hu HP]; subst.
  destruct P as [|u' P'].
  - apply one_step. apply (rule_left_unit u m []). exact Hu.
  - eapply star_step; [apply rule_left_unit; exact Hu|]. apply IH. exact HP.
Qed.

Lemma size_units : forall P, Forall (fun u => extent u = 1) P -> size P = 1.
Proof.
  induction P as [|u P IH]; intros H; [reflexivity|].
  inversion H as [|? ? Hu HP]; subst. simpl. rewrite Hu, IH by exact HP. lia.
Qed.

(** ** Irreducibility at the end of a list *)

Lemma irreducible_cons2_iff : forall m1 m2 rest,
  irreducible (m1 :: m2 :: rest) <->
  extent m1 <> 1 /\ extent m2 <> 1 /\ extent m1 * stride m1 <> stride m2 /\
  irreducible (m2 :: rest).
Proof.
  intros m1 m2 rest. split.
  - intros H. destruct (irreducible_pair _ _ _ H) as [H1 [H2 H3]].
    repeat split; try assumption. apply (irreducible_tail m1). exact H.
  - intros [H1 [H2 [H3 H]]]. apply irreducible_cons2; assumption.
Qed.

(** Appending [b] to an irreducible [X ++ [a]] keeps it irreducible when [a]
    and [b] are not units and [b] does not pack onto [a]. *)
Lemma irreducible_snoc : forall X a b,
  irreducible (X ++ [a]) -> extent a <> 1 -> extent b <> 1 ->
  extent a * stride a <> stride b -> irreducible (X ++ [a; b]).
Proof.
  induction X as [|x X IH]; intros a b H Ha Hb Hab.
  - simpl. apply irreducible_cons2; try assumption. apply irreducible_single.
  - simpl in *. destruct X as [|y X'].
    + simpl in *. apply irreducible_cons2_iff in H. destruct H as [H1 [H2 [H3 _]]].
      apply irreducible_cons2; try assumption. apply (IH a b); try assumption.
      apply irreducible_single.
    + simpl in *. apply irreducible_cons2_iff in H. destruct H as [H1 [H2 [H3 H4]]].
      apply irreducible_cons2; try assumption.
      change (irreducible ((y :: X') ++ [a; b])). apply IH; assumption.
Qed.

Lemma irreducible_snoc_inv : forall X a b, irreducible (X ++ [a; b]) ->
  irreducible (X ++ [a]) /\ extent a <> 1 /\ extent b <> 1 /\
  extent a * stride a <> stride b.
Proof.
  intros X a b H. split; [|repeat split].
  - intros L' R. apply (H (L' ++ [b])).
    replace (X ++ [a; b]) with ((X ++ [a]) ++ [b]) by (rewrite <- app_assoc; reflexivity).
    apply rule_app_r. exact R.
  - intro E. apply (H (X ++ [b])). apply rule_app_l. apply rule_left_unit. exact E.
  - intro E. apply (H (X ++ [a])). apply rule_app_l. apply (rule_right_unit a b []). exact E.
  - intro E. apply (H (X ++ [Mode (extent a * extent b) (stride a)])).
    apply rule_app_l. apply (rule_packed_merge a b []). exact E.
Qed.

(** Replacing the last mode by one of the same stride and extent [<> 1]
    keeps [X ++ [a]] irreducible (the merge step). *)
Lemma irreducible_replace_last : forall X a a',
  irreducible (X ++ [a]) -> extent a' <> 1 -> stride a' = stride a ->
  irreducible (X ++ [a']).
Proof.
  intros X a a' H Ha' Hs.
  destruct X as [|x X'] using rev_ind; [apply irreducible_single|].
  clear IHX'. rewrite <- app_assoc in *. simpl in *.
  destruct (irreducible_snoc_inv X' x a H) as [Hx [Ex [_ Pk]]].
  apply irreducible_snoc; try assumption. rewrite Hs. exact Pk.
Qed.

(** ** The walk: reachability and irreducibility *)

(** The invariant after reading a prefix [P]: either no [cur] yet and [P]
    is all size-1 modes, or the prefix rewrites to the reversed accumulator,
    which is irreducible with every extent at least 2. *)
Definition fw_inv (P acc : layout) : Prop :=
  (acc = [] /\ Forall (fun u => extent u = 1) P) \/
  (acc <> [] /\ rules_star P (rev acc) /\ irreducible (rev acc) /\
   Forall (fun m => 2 <= extent m) acc).

Lemma fw_step_inv : forall P acc m, 1 <= extent m -> fw_inv P acc ->
  fw_inv (P ++ [m]) (fw_step acc m).
Proof.
  intros P acc m Hm Inv. unfold fw_step.
  destruct (Nat.eqb (extent m) 1) eqn:Em.
  - (* skip a size-1 mode *)
    apply Nat.eqb_eq in Em.
    destruct Inv as [[E HP]|[Hne [Hr [Hi Hall]]]].
    + left. split; [exact E|]. apply Forall_app. split; [exact HP|]. constructor; auto.
    + right. split; [exact Hne|]. split; [|split; assumption].
      eapply star_trans; [apply star_app_r; exact Hr|].
      destruct acc as [|cur rest]; [contradiction|]. simpl.
      rewrite <- app_assoc. simpl.
      apply one_step. apply rule_app_l. apply (rule_right_unit cur m []). exact Em.
  - apply Nat.eqb_neq in Em.
    destruct Inv as [[E HP]|[Hne [Hr [Hi Hall]]]].
    + (* the first mode of extent <> 1 becomes cur *)
      subst acc. right. split; [discriminate|]. simpl.
      split; [apply star_units_prefix; exact HP|].
      split; [apply irreducible_single|]. constructor; [lia | constructor].
    + destruct acc as [|cur rest]; [contradiction|].
      inversion Hall as [|? ? Hc Hrest]; subst.
      simpl rev in *.
      destruct (Nat.eqb (extent cur * stride cur) (stride m)) eqn:Ep.
      * (* merge m into cur *)
        apply Nat.eqb_eq in Ep. right. split; [discriminate|]. simpl rev.
        split.
        { eapply star_trans; [apply star_app_r; exact Hr|].
          rewrite <- app_assoc. simpl.
          apply one_step. apply rule_app_l. apply (rule_packed_merge cur m []). exact Ep. }
        split.
        { apply (irreducible_replace_last _ cur); [exact Hi | simpl; nia | reflexivity]. }
        constructor; [simpl; nia | exact Hrest].
      * (* emit cur; m is the new cur *)
        apply Nat.eqb_neq in Ep. right. split; [discriminate|].
        change (rev (m :: cur :: rest)) with ((rev rest ++ [cur]) ++ [m]).
        split; [apply star_app_r; exact Hr|].
        split.
        { rewrite <- app_assoc. simpl. apply irreducible_snoc; try assumption; lia. }
        constructor; [lia | exact Hall].
Qed.

Lemma fw_fold_inv : forall L, pos_extents L -> fw_inv L (fold_left fw_step L []).
Proof.
  induction L as [|m L IH] using rev_ind; intros P.
  - left. split; [reflexivity | constructor].
  - unfold pos_extents in P. apply Forall_app in P. destruct P as [PL Pm].
    inversion Pm as [|? ? Hm _]; subst.
    rewrite fold_left_app. simpl. apply fw_step_inv; [exact Hm|]. apply IH. exact PL.
Qed.

(** The walk only fires the seed's rules. *)
Theorem fw_coalesce_reachable : forall L, pos_extents L -> size L <> 1 ->
  rules_star L (fw_coalesce L).
Proof.
  intros L P Hs. unfold fw_coalesce.
  destruct (fw_fold_inv L P) as [[E HP]|[Hne [Hr _]]].
  - exfalso. apply Hs. apply size_units. exact HP.
  - destruct (fold_left fw_step L []) as [|cur rest]; [contradiction|]. exact Hr.
Qed.

(** The walk ends in an irreducible layout. *)
Theorem fw_coalesce_irreducible : forall L, pos_extents L -> irreducible (fw_coalesce L).
Proof.
  intros L P. unfold fw_coalesce.
  destruct (fw_fold_inv L P) as [[E HP]|[Hne [_ [Hi _]]]].
  - rewrite E. apply irreducible_single.
  - destruct (fold_left fw_step L []) as [|cur rest]; [contradiction|]. exact Hi.
Qed.

(** ** The forward walk is the unique normal form *)

Theorem fw_coalesce_is_normal_form : forall L, pos_extents L -> size L <> 1 ->
  fw_coalesce L = coalesce L.
Proof.
  intros L P Hs. apply coalesce_unique_normal_form; try assumption.
  - apply fw_coalesce_reachable; assumption.
  - apply fw_coalesce_irreducible. exact P.
Qed.

Theorem fw_coalesce_unit : forall L, pos_extents L -> size L = 1 ->
  fw_coalesce L = [Mode 1 0].
Proof.
  intros L P Hs. unfold fw_coalesce.
  destruct (fw_fold_inv L P) as [[E HP]|[Hne [Hr [_ Hall]]]].
  - rewrite E. reflexivity.
  - exfalso. destruct (rules_star_sound _ _ Hr) as [Hsz _].
    assert (Hne' : rev (fold_left fw_step L []) <> []).
    { intro E. apply Hne. rewrite <- (rev_involutive (fold_left fw_step L [])), E.
      reflexivity. }
    pose proof (size_all_ge2 _ Hne' (Forall_rev Hall)). lia.
Qed.

(** The forward walk and the backward walk agree on positive extents. *)
Corollary fw_coalesce_eq_rust_coalesce : forall L, pos_extents L ->
  fw_coalesce L = rust_coalesce L.
Proof.
  intros L P. destruct (Nat.eq_dec (size L) 1) as [E|E].
  - rewrite fw_coalesce_unit, rust_coalesce_unit by assumption. reflexivity.
  - rewrite fw_coalesce_is_normal_form, rust_coalesce_is_normal_form by assumption.
    reflexivity.
Qed.

(** Hence the forward walk keeps the size and the function on the domain
    (with the [1:0] convention for size 1). *)
Corollary fw_coalesce_preserves_eval : forall L, pos_extents L ->
  size (fw_coalesce L) = size L /\
  (forall i, i < size L -> eval_idx (fw_coalesce L) i = eval_idx L i).
Proof.
  intros L P. rewrite fw_coalesce_eq_rust_coalesce by exact P.
  apply rust_coalesce_preserves_eval. exact P.
Qed.
