(** * The unique normal form of coalesce with signed strides (issue 14, item 1)

    Over [Z] ([CoalesceSigned.v]'s model: positive extents, strides of any
    sign, [zeval L i] the dot product of the colexicographic digits of [i]
    with the strides).  A layout is in normal form ([znormal]) when every
    extent is at least 2 and no two adjacent modes [m, f] have
    [extent m * stride m = stride f] (the packed merge would fire).

    Proved:
    - [znormal_unique]: two layouts in normal form with the same size and
      the same function on [\[0, size)] are equal (the empty layout, of
      size 1, included).  The proof reads the normal form off the
      function: [stride m_0 = F(1)], [extent m_0] is the first [j] with
      [F(j) <> j * F(1)] (or the size), and the rest is the normal form of
      [j |-> F(extent m_0 * j)].
    - [rust_coalesceZ_normal], [rust_coalesceZ_size1]: Rust's [coalesce]
      ([Bridge.rust_coalesceZ], the function the bridge runs) returns a
      layout in normal form when the size is not 1, and [1:0] when it is.
    - [rust_coalesceZ_unique_normal_form]: hence, for positive extents and
      any strides, [rust_coalesceZ L] is the only normal form with [L]'s
      size and function; [rust_coalesceZ_canonical]: two layouts with the
      same size and function coalesce to the same list.
    - [zrule], [zrules_unique_normal_form]: the seed's rules (left unit,
      right unit, packed merge, at any position) over [Z] keep the size and
      the function, and every rule order that ends in an irreducible layout
      ends in [rust_coalesceZ L] when [size L <> 1]. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Bridge CoalesceSigned.

Open Scope Z_scope.

Fixpoint znormal (L : list zmode) : Prop :=
  match L with
  | [] => True
  | m :: R =>
      2 <= zextent m /\
      match R with
      | [] => True
      | f :: _ => zextent m * zstride m <> zstride f
      end /\ znormal R
  end.

(** ** Evaluation facts *)

Lemma zeval_zero : forall L, zeval L 0 = 0.
Proof.
  induction L as [|m L IH]; [reflexivity|]. cbn [zeval].
  rewrite Zmod_0_l, Zdiv_0_l, IH. lia.
Qed.

Lemma zeval_small : forall m R i, 0 <= i < zextent m -> zeval (m :: R) i = i * zstride m.
Proof.
  intros m R i H. simpl. rewrite Z.mod_small, Z.div_small, zeval_zero by lia. lia.
Qed.

Lemma zeval_mult : forall m R j, 1 <= zextent m -> zeval (m :: R) (zextent m * j) = zeval R j.
Proof.
  intros m R j H. simpl. rewrite (Z.mul_comm (zextent m) j).
  rewrite Z_mod_mult, Z_div_mult by lia. lia.
Qed.

Lemma zsize_pos : forall L, zpos L -> 1 <= zsize L.
Proof.
  induction L as [|m L IH]; intros P; simpl; [lia|].
  inversion P as [|? ? Pm PL]; subst. specialize (IH PL). nia.
Qed.

Lemma znormal_tail : forall m R, znormal (m :: R) -> znormal R.
Proof. intros m R H. apply H. Qed.

Lemma znormal_zpos : forall L, znormal L -> zpos L.
Proof.
  induction L as [|m L IH]; intros H; constructor.
  - destruct H as [H _]. lia.
  - apply IH, (znormal_tail m), H.
Qed.

Lemma znormal_size : forall m R, znormal (m :: R) -> 2 <= zsize (m :: R) /\ zextent m <= zsize (m :: R).
Proof.
  intros m R H. pose proof (zsize_pos R (znormal_zpos R (znormal_tail m R H))).
  destruct H as [H _]. simpl. nia.
Qed.

(** ** Uniqueness *)

(** If two normal forms agree and have the same first stride, the first
    extent of one cannot be smaller than the other's. *)
Lemma head_extent_not_lt : forall m1 R1 m2 R2,
  znormal (m1 :: R1) -> znormal (m2 :: R2) ->
  zsize (m1 :: R1) = zsize (m2 :: R2) ->
  (forall i, 0 <= i < zsize (m1 :: R1) -> zeval (m1 :: R1) i = zeval (m2 :: R2) i) ->
  zstride m1 = zstride m2 -> ~ zextent m1 < zextent m2.
Proof.
  intros m1 R1 m2 R2 N1 N2 Hs He Hst Hlt.
  destruct R1 as [|f1 R1'].
  - (* then size (m1::[]) = extent m1 < extent m2 <= size (m2::R2) *)
    destruct (znormal_size m2 R2 N2) as [_ B].
    assert (zsize [m1] = zextent m1) by (simpl; lia). lia.
  - destruct N1 as [E1 [Pk N1']].
    pose proof (znormal_size f1 R1' N1') as [Sf _].
    assert (Hsz : zsize (m1 :: f1 :: R1') = zextent m1 * zsize (f1 :: R1')) by reflexivity.
    assert (Hi : 0 <= zextent m1 < zsize (m1 :: f1 :: R1')).
    { rewrite Hsz. set (k := zsize (f1 :: R1')) in *. nia. }
    specialize (He (zextent m1) Hi).
    rewrite <- (Z.mul_1_r (zextent m1)) in He at 1.
    rewrite zeval_mult in He by lia.
    destruct N1' as [Ef _].
    rewrite (zeval_small f1 R1' 1), (zeval_small m2 R2 (zextent m1)) in He by lia.
    apply Pk. rewrite Hst. lia.
Qed.

Theorem znormal_unique : forall N1 N2, znormal N1 -> znormal N2 ->
  zsize N1 = zsize N2 ->
  (forall i, 0 <= i < zsize N1 -> zeval N1 i = zeval N2 i) -> N1 = N2.
Proof.
  induction N1 as [|m1 R1 IH]; intros N2 H1 H2 Hs He.
  - destruct N2 as [|m2 R2]; [reflexivity|].
    destruct (znormal_size m2 R2 H2). change (zsize []) with 1 in Hs. lia.
  - destruct N2 as [|m2 R2].
    { destruct (znormal_size m1 R1 H1). change (zsize []) with 1 in Hs. lia. }
    pose proof (znormal_size m1 R1 H1) as [S1 B1].
    pose proof (znormal_size m2 R2 H2) as [S2 B2].
    assert (Hst : zstride m1 = zstride m2).
    { assert (E := He 1 ltac:(lia)).
      destruct H1 as [E1 _], H2 as [E2 _].
      rewrite !zeval_small in E by lia. lia. }
    assert (Hex : zextent m1 = zextent m2).
    { destruct (Z.lt_trichotomy (zextent m1) (zextent m2)) as [Hlt|[Heq|Hgt]]; [exfalso| exact Heq | exfalso].
      - exact (head_extent_not_lt m1 R1 m2 R2 H1 H2 Hs He Hst Hlt).
      - refine (head_extent_not_lt m2 R2 m1 R1 H2 H1 (eq_sym Hs) _ (eq_sym Hst) Hgt).
        intros i Hi. symmetry. apply He. lia. }
    assert (Hm : m1 = m2) by (destruct m1, m2; simpl in *; subst; reflexivity).
    subst m2. f_equal.
    destruct H1 as [E1 [_ N1']], H2 as [_ [_ N2']].
    pose proof (zsize_pos R1 (znormal_zpos R1 N1')) as P1.
    assert (HsR : zsize R1 = zsize R2).
    { simpl in Hs. apply (Z.mul_cancel_l _ _ (zextent m1)); lia. }
    apply IH; try assumption.
    intros j Hj.
    assert (Hj' : 0 <= zextent m1 * j < zsize (m1 :: R1)) by (simpl; nia).
    specialize (He _ Hj'). rewrite !zeval_mult in He by lia. exact He.
Qed.

(** ** Rust's walk ends in a normal form *)

Definition zstack_ok (acc : list zmode) : Prop :=
  (acc <> [] /\ znormal acc) \/ (exists f, acc = [f] /\ zextent f = 1).

Lemma bw_stepZ_ok : forall m acc, 1 <= zextent m -> zpos acc -> zstack_ok acc ->
  zstack_ok (bw_stepZ m acc).
Proof.
  intros m acc Hm Pacc Ok. unfold bw_stepZ.
  destruct (Z.eqb (zextent m) 1) eqn:Em; [exact Ok|].
  apply Z.eqb_neq in Em.
  destruct acc as [|f [|g rest]].
  - destruct Ok as [[C _]|[f [C _]]]; [contradiction | discriminate].
  - inversion Pacc as [|? ? Pf _]; subst.
    destruct (Z.eqb (zextent f) 1) eqn:Ef.
    { left. split; [discriminate|]. simpl. repeat split; lia. }
    apply Z.eqb_neq in Ef.
    destruct (Z.eqb (zextent m * zstride m) (zstride f)) eqn:Ep.
    + left. split; [discriminate|]. simpl. repeat split; nia.
    + apply Z.eqb_neq in Ep. left. split; [discriminate|]. simpl. repeat split; lia.
  - destruct Ok as [[_ Nf]|[f' [C _]]]; [|discriminate].
    destruct Nf as [Ef [Pfg Ng]].
    destruct (Z.eqb (zextent m * zstride m) (zstride f)) eqn:Ep.
    + apply Z.eqb_eq in Ep. left. split; [discriminate|].
      simpl. split; [nia|]. split; [|exact Ng].
      intro E. apply Pfg. rewrite <- Ep. lia.
    + apply Z.eqb_neq in Ep. left. split; [discriminate|].
      split; [lia|]. split; [exact Ep|]. split; [exact Ef|]. split; assumption.
Qed.

Lemma fold_bwZ_ok : forall init last, zpos (init ++ [last]) ->
  zstack_ok (fold_right bw_stepZ [last] init).
Proof.
  induction init as [|m init IH]; intros last P.
  - simpl in P. inversion P as [|? ? Pl _]; subst.
    destruct (Z.eq_dec (zextent last) 1) as [E|E].
    + right. exists last. split; [reflexivity | exact E].
    + left. split; [discriminate|]. simpl. repeat split; lia.
  - simpl in P. inversion P as [|? ? Pm Prest]; subst.
    destruct (fold_bw_sound init last Prest) as [_ [Pa _]].
    simpl. apply bw_stepZ_ok; [exact Pm | exact Pa | apply IH, Prest].
Qed.

Lemma rev_snocZ : forall (L : list zmode) last rinit, rev L = last :: rinit -> L = rev rinit ++ [last].
Proof. intros L last rinit E. rewrite <- (rev_involutive L), E. reflexivity. Qed.

Lemma rev_snocZ_nil : forall (L : list zmode), rev L = [] -> L = [].
Proof. intros L E. rewrite <- (rev_involutive L), E. reflexivity. Qed.

Theorem rust_coalesceZ_size1 : forall L, zpos L -> zsize L = 1 -> rust_coalesceZ L = [ZMode 1 0].
Proof.
  intros L P Hs. unfold rust_coalesceZ.
  destruct (rev L) as [|last rinit] eqn:E; [reflexivity|].
  apply rev_snocZ in E. subst L.
  pose proof (fold_bwZ_ok (rev rinit) last P) as Ok.
  destruct (fold_bw_sound (rev rinit) last P) as [_ [_ [Sz _]]].
  destruct Ok as [[Hne Nf]|[f [Ef E1]]].
  - exfalso. destruct (fold_right bw_stepZ [last] (rev rinit)) as [|m R]; [contradiction|].
    destruct (znormal_size m R Nf). lia.
  - rewrite Ef. simpl. rewrite E1. reflexivity.
Qed.

Theorem rust_coalesceZ_normal : forall L, zpos L -> zsize L <> 1 -> znormal (rust_coalesceZ L).
Proof.
  intros L P Hs. unfold rust_coalesceZ.
  destruct (rev L) as [|last rinit] eqn:E.
  { exfalso. apply Hs. rewrite (rev_snocZ_nil L E). reflexivity. }
  apply rev_snocZ in E. subst L.
  pose proof (fold_bwZ_ok (rev rinit) last P) as Ok.
  destruct (fold_bw_sound (rev rinit) last P) as [_ [_ [Sz _]]].
  destruct Ok as [[Hne Nf]|[f [Ef E1]]].
  - destruct (fold_right bw_stepZ [last] (rev rinit)) as [|f [|g rest]] eqn:F;
      [contradiction| |exact Nf].
    simpl. destruct Nf as [Ef _].
    destruct (Z.eqb (zextent f) 1) eqn:E1; [apply Z.eqb_eq in E1; lia|]. simpl. lia.
  - exfalso. rewrite Ef in Sz. simpl in Sz. lia.
Qed.

(** ** Rust's coalesce is the unique normal form *)

Theorem rust_coalesceZ_unique_normal_form : forall L N, zpos L -> zsize L <> 1 ->
  znormal N -> zsize N = zsize L -> (forall i, 0 <= i < zsize L -> zeval N i = zeval L i) ->
  N = rust_coalesceZ L.
Proof.
  intros L N P Hs Nn HsN HeN.
  destruct (rust_coalesceZ_preserves_eval L P) as [Sc Ec].
  apply znormal_unique; [exact Nn | apply rust_coalesceZ_normal; assumption | congruence |].
  intros i Hi. rewrite Ec, HeN by lia. reflexivity.
Qed.

(** Two layouts with the same size and function coalesce to the same list. *)
Corollary rust_coalesceZ_canonical : forall L1 L2, zpos L1 -> zpos L2 -> zsize L1 = zsize L2 ->
  (forall i, 0 <= i < zsize L1 -> zeval L1 i = zeval L2 i) ->
  rust_coalesceZ L1 = rust_coalesceZ L2.
Proof.
  intros L1 L2 P1 P2 Hs He.
  destruct (Z.eq_dec (zsize L1) 1) as [E|E].
  - rewrite !rust_coalesceZ_size1 by congruence. reflexivity.
  - destruct (rust_coalesceZ_preserves_eval L1 P1) as [Sc Ec].
    apply rust_coalesceZ_unique_normal_form; try assumption; try congruence.
    + apply rust_coalesceZ_normal; assumption.
    + intros i Hi. rewrite Ec, He by lia. reflexivity.
Qed.

(** ** The seed's rules over [Z] *)

Inductive zrule : list zmode -> list zmode -> Prop :=
| zrule_left_unit : forall m1 m2 rest,
    zextent m1 = 1 -> zrule (m1 :: m2 :: rest) (m2 :: rest)
| zrule_right_unit : forall m1 m2 rest,
    zextent m2 = 1 -> zrule (m1 :: m2 :: rest) (m1 :: rest)
| zrule_packed_merge : forall m1 m2 rest,
    zextent m1 * zstride m1 = zstride m2 ->
    zrule (m1 :: m2 :: rest) (ZMode (zextent m1 * zextent m2) (zstride m1) :: rest)
| zrule_deeper : forall m L L', zrule L L' -> zrule (m :: L) (m :: L').

Inductive zrules_star : list zmode -> list zmode -> Prop :=
| zstar_refl : forall L, zrules_star L L
| zstar_step : forall L1 L2 L3, zrule L1 L2 -> zrules_star L2 L3 -> zrules_star L1 L3.

Definition zirreducible (L : list zmode) : Prop := forall L', ~ zrule L L'.

Lemma zrule_sound : forall L L', zrule L L' -> zpos L ->
  (length L' < length L)%nat /\ zpos L' /\ zsize L' = zsize L /\
  (forall i, zeval L' i = zeval L i).
Proof.
  intros L L' H. induction H as [m1 m2 rest E|m1 m2 rest E|m1 m2 rest E|m L L' H IH]; intros P.
  - inversion P as [|? ? _ P']; subst. simpl length. split; [lia|]. split; [exact P'|].
    split; [simpl; rewrite E; lia|].
    intros i. cbn [zeval]. rewrite E, Z.mod_1_r, Z.div_1_r. lia.
  - inversion P as [|? ? P1 P']; subst. inversion P' as [|? ? _ P'']; subst.
    simpl length. split; [lia|]. split; [constructor; assumption|].
    split; [simpl; rewrite E; lia|].
    intros i. cbn [zeval]. rewrite E, Z.mod_1_r, Z.div_1_r. lia.
  - inversion P as [|? ? P1 P']; subst. inversion P' as [|? ? P2 P'']; subst.
    simpl length. split; [lia|]. split; [constructor; [simpl; nia | exact P'']|].
    split; [simpl; lia|].
    intros i. cbn [zeval zextent zstride]. rewrite Z.rem_mul_r by lia.
    rewrite <- (Z.div_div i (zextent m1) (zextent m2)) by lia.
    rewrite <- E. ring.
  - inversion P as [|? ? Pm PL]; subst. destruct (IH PL) as [Hl [P' [Hs He]]].
    simpl length. split; [lia|]. split; [constructor; assumption|].
    split; [simpl; rewrite Hs; reflexivity|].
    intros i. cbn [zeval]. rewrite He. reflexivity.
Qed.

Lemma zrules_star_sound : forall L L', zrules_star L L' -> zpos L ->
  zpos L' /\ zsize L' = zsize L /\ (forall i, zeval L' i = zeval L i).
Proof.
  intros L L' H. induction H as [L|L1 L2 L3 R H IH]; intros P; [split; [exact P | split; reflexivity]|].
  destruct (zrule_sound _ _ R P) as [_ [P2 [Hs He]]]. destruct (IH P2) as [P3 [Hs' He']].
  split; [exact P3|]. split; [congruence | intros i; rewrite He', He; reflexivity].
Qed.

Lemma zirreducible_tail : forall m R, zirreducible (m :: R) -> zirreducible R.
Proof. intros m R H R' Hr. apply (H (m :: R')). apply zrule_deeper. exact Hr. Qed.

(** An irreducible layout of size other than 1 is in normal form. *)
Lemma zirreducible_normal : forall L, zpos L -> zirreducible L -> zsize L <> 1 -> znormal L.
Proof.
  induction L as [|m L IH]; intros P I Hs; [exact Logic.I|].
  inversion P as [|? ? Pm PL]; subst.
  destruct L as [|f rest].
  - simpl in Hs |- *. repeat split; lia.
  - assert (Em : zextent m <> 1) by (intro E; exact (I _ (zrule_left_unit m f rest E))).
    assert (Ef : zextent f <> 1) by (intro E; exact (I _ (zrule_right_unit m f rest E))).
    assert (Ep : zextent m * zstride m <> zstride f)
      by (intro E; exact (I _ (zrule_packed_merge m f rest E))).
    inversion PL as [|? ? Pf Prest]; subst.
    pose proof (zsize_pos rest Prest).
    split; [lia|]. split; [exact Ep|].
    apply IH; [exact PL | apply (zirreducible_tail m), I |].
    simpl. nia.
Qed.

(** Every rule order, at any position, that ends in an irreducible layout
    ends in exactly [rust_coalesceZ L] (size other than 1, any strides). *)
Theorem zrules_unique_normal_form : forall L N, zpos L -> zsize L <> 1 ->
  zrules_star L N -> zirreducible N -> N = rust_coalesceZ L.
Proof.
  intros L N P Hs R I.
  destruct (zrules_star_sound L N R P) as [PN [HsN HeN]].
  apply rust_coalesceZ_unique_normal_form; try assumption.
  - apply zirreducible_normal; [exact PN | exact I | congruence].
  - intros i _. apply HeN.
Qed.

(** Example: [(2,3):(-1,-2)] is packed and coalesces to [6:-1];
    [(2,3):(-1,2)] is already in normal form. *)
Example signed_normal_form_example :
  rust_coalesceZ [ZMode 2 (-1); ZMode 3 (-2)] = [ZMode 6 (-1)] /\
  rust_coalesceZ [ZMode 2 (-1); ZMode 3 2] = [ZMode 2 (-1); ZMode 3 2].
Proof. split; reflexivity. Qed.

Close Scope Z_scope.
