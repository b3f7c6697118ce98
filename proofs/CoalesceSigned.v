(** * Coalesce with signed strides (issue 14, item 1)

    The layout model of [Model.v] has natural-number strides.  Here the
    model is restated over [Z] for the function the bridge runs,
    [Bridge.rust_coalesceZ] (Rust's [coalesce], branch for branch): a flat
    layout is a list of [zmode]s with positive extents and strides of any
    sign; [zeval L i] is the dot product of the colexicographic digits of
    [i] with the strides (CuTe's [crd2idx(idx2crd(i, shape), stride)] on
    [\[0, size)]).

    Proved ([rust_coalesceZ_preserves_eval]): for positive extents and any
    strides, Rust's coalesce keeps the size and [zeval] at every index.
    That it is the unique normal form, for any strides, is proved in
    [CoalesceSignedNF.v]. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Bridge.

Open Scope Z_scope.

Fixpoint zsize (L : list zmode) : Z :=
  match L with
  | [] => 1
  | m :: L' => zextent m * zsize L'
  end.

Fixpoint zeval (L : list zmode) (i : Z) : Z :=
  match L with
  | [] => 0
  | m :: L' => (i mod zextent m) * zstride m + zeval L' (i / zextent m)
  end.

Definition zpos (L : list zmode) : Prop := Forall (fun m => 1 <= zextent m) L.

Lemma bw_stepZ_sound : forall m acc, zpos (m :: acc) -> acc <> [] ->
  zpos (bw_stepZ m acc) /\ zsize (bw_stepZ m acc) = zsize (m :: acc) /\
  (forall i, zeval (bw_stepZ m acc) i = zeval (m :: acc) i).
Proof.
  intros m acc P Hne. inversion P as [|? ? Pm Pacc]; subst.
  unfold bw_stepZ.
  destruct (Z.eqb (zextent m) 1) eqn:Em.
  { apply Z.eqb_eq in Em. split; [exact Pacc|]. split; [simpl; lia|].
    intros i. simpl. rewrite Em, Z.mod_1_r, Z.div_1_r. lia. }
  apply Z.eqb_neq in Em.
  destruct acc as [|f [|g rest]]; [contradiction| |].
  - inversion Pacc as [|? ? Pf _]; subst.
    destruct (Z.eqb (zextent f) 1) eqn:Ef.
    { apply Z.eqb_eq in Ef. split; [repeat constructor; lia|]. split; [simpl; lia|].
      intros i. simpl. rewrite Ef, Z.mod_1_r. lia. }
    destruct (Z.eqb (zextent m * zstride m) (zstride f)) eqn:Ep; [|split; [exact P|split; reflexivity]].
    apply Z.eqb_eq in Ep. split; [repeat constructor; simpl; nia|]. split; [simpl; lia|].
    intros i. simpl. rewrite Z.rem_mul_r by lia. rewrite <- Ep. ring.
  - inversion Pacc as [|? ? Pf Prest]; subst.
    destruct (Z.eqb (zextent m * zstride m) (zstride f)) eqn:Ep;
      [|split; [exact P|split; reflexivity]].
    apply Z.eqb_eq in Ep. split; [constructor; [simpl; nia | exact Prest]|].
    split; [simpl; lia|].
    intros i. cbn [zeval zextent zstride]. rewrite Z.rem_mul_r by lia.
    rewrite <- (Z.div_div i (zextent m) (zextent f)) by lia.
    rewrite <- Ep. ring.
Qed.

Lemma bw_stepZ_nonempty : forall m acc, acc <> [] -> bw_stepZ m acc <> [].
Proof.
  intros m [|f [|g rest]] H E; [contradiction| |]; unfold bw_stepZ in E;
    destruct (Z.eqb (zextent m) 1); try discriminate E.
  - destruct (Z.eqb (zextent f) 1); [discriminate E|].
    destruct (Z.eqb (zextent m * zstride m) (zstride f)); discriminate E.
  - destruct (Z.eqb (zextent m * zstride m) (zstride f)); discriminate E.
Qed.

Lemma fold_bw_sound : forall init last, zpos (init ++ [last]) ->
  fold_right bw_stepZ [last] init <> [] /\
  zpos (fold_right bw_stepZ [last] init) /\
  zsize (fold_right bw_stepZ [last] init) = zsize (init ++ [last]) /\
  (forall i, zeval (fold_right bw_stepZ [last] init) i = zeval (init ++ [last]) i).
Proof.
  induction init as [|m init IH]; intros last P.
  - simpl in *. split; [discriminate|]. split; [exact P|]. split; reflexivity.
  - simpl in P. inversion P as [|? ? Pm Prest]; subst.
    destruct (IH last Prest) as [Hne [Pa [Sa Ea]]].
    assert (Pma : zpos (m :: fold_right bw_stepZ [last] init)) by (constructor; assumption).
    destruct (bw_stepZ_sound m _ Pma Hne) as [P' [S' E']].
    simpl fold_right. split.
    + apply bw_stepZ_nonempty, Hne.
    + split; [exact P'|]. split.
      * rewrite S'. simpl. rewrite Sa. reflexivity.
      * intros i. rewrite E'. simpl. rewrite Ea. reflexivity.
Qed.

Theorem rust_coalesceZ_preserves_eval : forall L, zpos L ->
  zsize (rust_coalesceZ L) = zsize L /\ (forall i, zeval (rust_coalesceZ L) i = zeval L i).
Proof.
  intros L P. unfold rust_coalesceZ.
  destruct (rev L) as [|last rinit] eqn:E.
  { assert (L = []) by (rewrite <- (rev_involutive L), E; reflexivity). subst L.
    split; [reflexivity|]. intros i. simpl. rewrite Z.mod_1_r. lia. }
  assert (EL : L = rev rinit ++ [last]) by (rewrite <- (rev_involutive L), E; reflexivity).
  rewrite EL in P |- *.
  destruct (fold_bw_sound (rev rinit) last P) as [Hne [Pf [Sf Ef]]].
  destruct (fold_right bw_stepZ [last] (rev rinit)) as [|f [|g rest]] eqn:F;
    [contradiction| |]; unfold unit_fixupZ.
  - destruct (Z.eqb (zextent f) 1) eqn:E1; [|split; [exact Sf | exact Ef]].
    apply Z.eqb_eq in E1. split.
    + rewrite <- Sf. simpl. rewrite E1. reflexivity.
    + intros i. rewrite <- Ef. simpl. rewrite E1, !Z.mod_1_r. lia.
  - split; [exact Sf | exact Ef].
Qed.

(** Example: a packed chain with negative strides, [(4,2):(-2,-8)], is
    merged to [8:-2]. *)
Example signed_coalesce_example :
  rust_coalesceZ [ZMode 4 (-2); ZMode 2 (-8)] = [ZMode 8 (-2)].
Proof. reflexivity. Qed.

Close Scope Z_scope.
