(** * Soundness of the closed-form composition certificate (issue 14, item 4)

    [crates/tessera/src/algebra/composition.rs] decides whether a candidate
    [R] computes [A o B].  [R] is given by its pieces: piece [j] has extent
    [r_j], stride [rho_j] in [R], and stride [beta_j] in B's index space
    (the stride of the leaf of B it refines times the extents of the earlier
    pieces of that leaf).  Its first test is the closed-form [certificate]:
    every piece with [r >= 2] lies in one digit [k] of A's mixed radix
    (place value [place_k = e_0 ... e_(k-1)] divides [beta]; the digit is
    the last one with [place_k <= beta], or A's last mode), the pieces' total
    reach [sum (r_j - 1) u_j] in each digit stays below the digit's extent
    (the last digit is unbounded), and [rho_j = u_j * s_k] with
    [u_j = beta_j / place_k].

    [certificate] below is the Rust function, test for test, over [Z]
    (strides of any sign), and [evalA] is Rust's [eval_modes] on
    non-negative indices (colexicographic digits, last mode unbounded).

    Proved ([certificate_sound]): when the certificate holds and A's extents
    are positive, for every coordinate [x] with [0 <= x_j < r_j],
    [A(sum_j x_j beta_j) = sum_j x_j rho_j], i.e. A is additive on B's image
    and the candidate's strides are right.  With compatibility (the pieces
    of each leaf of B multiply to its extent) this is [R(c) = A(B(c))] on
    B's domain: [composition_certified] states it for a rank-1 [B] (a
    leaf [s:d] refined by pieces), where [B(c) = c d] and [R(c)] takes the
    colexicographic digits of [c] over the pieces' extents. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Bridge.

Open Scope Z_scope.

Record piece := Piece { pr : Z; prho : Z; pbeta : Z }.

Definition mode0 : zmode := ZMode 1 0.

(** Rust's [eval_modes] for [i >= 0]. *)
Fixpoint evalA (ax : list zmode) (i : Z) : Z :=
  match ax with
  | [] => 0
  | [m] => i * zstride m
  | m :: ax' => (i mod zextent m) * zstride m + evalA ax' (i / zextent m)
  end.

(** The digit search: the first [k] with [beta < place_k * e_k], or the
    last mode; [place] accumulates the extents. *)
Fixpoint find_digit (ax : list zmode) (beta place : Z) (k : nat) : option (nat * Z) :=
  match ax with
  | [] => None
  | [m] => Some (k, place)
  | m :: ax' =>
      if beta <? place * zextent m then Some (k, place)
      else find_digit ax' beta (place * zextent m) (S k)
  end.

Fixpoint set_nth (k : nat) (v : Z) (l : list Z) : list Z :=
  match l, k with
  | [], _ => []
  | _ :: l', O => v :: l'
  | x :: l', S k' => x :: set_nth k' v l'
  end.

(** The loop of [certificate], with the digit loads [load]. *)
Fixpoint cert_go (ax : list zmode) (ps : list piece) (load : list Z) : bool :=
  match ps with
  | [] => true
  | p :: ps' =>
      if pr p =? 1 then cert_go ax ps' load
      else if pbeta p =? 0 then (if prho p =? 0 then cert_go ax ps' load else false)
      else if pbeta p <? 0 then false
      else match find_digit ax (pbeta p) 1 O with
           | None => false
           | Some (k, place) =>
               if negb (pbeta p mod place =? 0) then false
               else
                 let u := pbeta p / place in
                 let l := nth k load 0 + (pr p - 1) * u in
                 if (S k <? length ax)%nat && (zextent (nth k ax mode0) - 1 <? l) then false
                 else if negb (u * zstride (nth k ax mode0) =? prho p) then false
                 else cert_go ax ps' (set_nth k l load)
           end
  end.

Definition certificate (ax : list zmode) (ps : list piece) : bool :=
  cert_go ax ps (repeat 0 (length ax)).

(** [sum_j x_j * f(p_j)]. *)
Fixpoint lin (xs : list Z) (ps : list piece) (f : piece -> Z) : Z :=
  match xs, ps with
  | x :: xs', p :: ps' => x * f p + lin xs' ps' f
  | _, _ => 0
  end.

(** A coordinate of the pieces: [0 <= x_j < r_j]. *)
Definition in_range (xs : list Z) (ps : list piece) : Prop :=
  Forall2 (fun x p => 0 <= x < pr p) xs ps.

(** ** The mixed radix of A *)

Fixpoint recompA (ax : list zmode) (D : list Z) : Z :=
  match ax, D with
  | m :: ax', d :: D' => d + zextent m * recompA ax' D'
  | _, _ => 0
  end.

Fixpoint dotA (ax : list zmode) (D : list Z) : Z :=
  match ax, D with
  | m :: ax', d :: D' => d * zstride m + dotA ax' D'
  | _, _ => 0
  end.

Fixpoint place_of (k : nat) (ax : list zmode) : Z :=
  match k, ax with
  | O, _ => 1
  | S k', m :: ax' => zextent m * place_of k' ax'
  | S _, [] => 1
  end.

Definition pos_ax (ax : list zmode) : Prop := Forall (fun m => 1 <= zextent m) ax.

Lemma evalA_cons2 : forall m m' ax i,
  evalA (m :: m' :: ax) i = (i mod zextent m) * zstride m + evalA (m' :: ax) (i / zextent m).
Proof. reflexivity. Qed.

(** Digits in range (the last one unbounded): no carry, so A is the dot
    product of the digits with the strides. *)
Lemma evalA_recomp : forall ax D, pos_ax ax -> length D = length ax ->
  (forall k, 0 <= nth k D 0) ->
  (forall k, (S k < length ax)%nat -> nth k D 0 < zextent (nth k ax mode0)) ->
  evalA ax (recompA ax D) = dotA ax D.
Proof.
  induction ax as [|m ax IH]; intros D P HL H0 Hb; [reflexivity|].
  destruct D as [|d D]; [discriminate|]. inversion P as [|? ? Pm Pax]; subst.
  simpl in HL. injection HL as HL.
  destruct ax as [|m' ax'].
  - destruct D; [|discriminate]. simpl. lia.
  - assert (Hd : 0 <= d < zextent m).
    { split; [apply (H0 O)|]. apply (Hb O). simpl. lia. }
    change (evalA (m :: m' :: ax') (d + zextent m * recompA (m' :: ax') D) =
            d * zstride m + dotA (m' :: ax') D).
    rewrite evalA_cons2.
    rewrite Z.mul_comm with (n := zextent m).
    rewrite Z.mod_add, Z.div_add by lia.
    rewrite Z.mod_small, Z.div_small by lia. rewrite Z.add_0_l.
    rewrite IH; [reflexivity|exact Pax|exact HL| |].
    + intros k. apply (H0 (S k)).
    + intros k Hk. apply (Hb (S k)). simpl in *. lia.
Qed.

Lemma length_set_nth : forall k v l, length (set_nth k v l) = length l.
Proof. induction k as [|k IH]; intros v [|x l]; simpl; auto. Qed.

Lemma nth_set_nth_same : forall k v l, (k < length l)%nat -> nth k (set_nth k v l) 0 = v.
Proof.
  induction k as [|k IH]; intros v [|x l] H; simpl in *; try lia; auto.
  apply IH. lia.
Qed.

Lemma nth_set_nth_other : forall k k' v l, k' <> k -> nth k' (set_nth k v l) 0 = nth k' l 0.
Proof.
  induction k as [|k IH]; intros k' v [|x l] H; simpl; auto.
  - destruct k'; [lia|reflexivity].
  - destruct k'; [reflexivity|]. apply IH. lia.
Qed.

Lemma recompA_add : forall ax D k v, (k < length ax)%nat -> length D = length ax ->
  recompA ax (set_nth k (nth k D 0 + v) D) = recompA ax D + place_of k ax * v.
Proof.
  induction ax as [|m ax IH]; intros D k v Hk HL; simpl in Hk; [lia|].
  destruct D as [|d D]; [discriminate|]. simpl in HL.
  destruct k as [|k]; cbn [set_nth nth recompA place_of length]; [lia|].
  rewrite IH by lia. ring.
Qed.

Lemma dotA_add : forall ax D k v, (k < length ax)%nat -> length D = length ax ->
  dotA ax (set_nth k (nth k D 0 + v) D) = dotA ax D + v * zstride (nth k ax mode0).
Proof.
  induction ax as [|m ax IH]; intros D k v Hk HL; simpl in Hk; [lia|].
  destruct D as [|d D]; [discriminate|]. simpl in HL.
  destruct k as [|k]; cbn [set_nth nth dotA length]; [lia|].
  rewrite IH by lia. lia.
Qed.

Lemma place_pos : forall k ax, pos_ax ax -> 0 < place_of k ax.
Proof.
  induction k as [|k IH]; intros ax P; simpl; [lia|].
  destruct ax as [|m ax]; [lia|]. inversion P; subst.
  specialize (IH ax ltac:(assumption)). nia.
Qed.

Lemma find_digit_spec : forall ax beta pl k0 k place,
  find_digit ax beta pl k0 = Some (k, place) ->
  exists j, k = (k0 + j)%nat /\ (j < length ax)%nat /\ place = pl * place_of j ax.
Proof.
  induction ax as [|m ax IH]; intros beta pl k0 k place H; [discriminate|].
  destruct ax as [|m' ax'].
  - simpl in H. injection H as <- <-. exists O. simpl. split; [lia|]. split; [lia|]. lia.
  - change (find_digit (m :: m' :: ax') beta pl k0) with
      (if beta <? pl * zextent m then Some (k0, pl)
       else find_digit (m' :: ax') beta (pl * zextent m) (S k0)) in H.
    destruct (beta <? pl * zextent m).
    + injection H as <- <-. exists O. simpl. split; [lia|]. split; [lia|]. lia.
    + destruct (IH _ _ _ _ _ H) as [j [Hk [Hj Hp]]].
      exists (S j). split; [lia|]. split; [simpl in *; lia|].
      rewrite Hp. simpl. lia.
Qed.

(** ** Soundness *)

Lemma cert_go_sound : forall ps ax load D xs,
  pos_ax ax -> length load = length ax -> length D = length ax ->
  (forall k, (S k < length ax)%nat -> nth k load 0 <= zextent (nth k ax mode0) - 1) ->
  (forall k, 0 <= nth k D 0 <= nth k load 0) ->
  cert_go ax ps load = true -> in_range xs ps ->
  evalA ax (recompA ax D + lin xs ps pbeta) = dotA ax D + lin xs ps prho.
Proof.
  induction ps as [|p ps IH]; intros ax load D xs P HLl HLd Hload HD C R.
  - inversion R; subst. simpl. rewrite !Z.add_0_r.
    apply evalA_recomp; try assumption.
    + intros k. apply HD.
    + intros k Hk. specialize (HD k). specialize (Hload k Hk). lia.
  - inversion R as [|x p' xs' ps' Hx R']; subst. simpl lin.
    simpl in C.
    destruct (pr p =? 1) eqn:E1.
    { apply Z.eqb_eq in E1. assert (x = 0) by lia. subst x.
      rewrite !Z.mul_0_l, !Z.add_0_l. apply (IH ax load D xs'); assumption. }
    destruct (pbeta p =? 0) eqn:E2.
    { apply Z.eqb_eq in E2. destruct (prho p =? 0) eqn:E3; [|discriminate].
      apply Z.eqb_eq in E3. rewrite E2, E3, !Z.mul_0_r, !Z.add_0_l.
      apply (IH ax load D xs'); assumption. }
    apply Z.eqb_neq in E2.
    destruct (pbeta p <? 0) eqn:E4; [discriminate|]. apply Z.ltb_ge in E4.
    destruct (find_digit ax (pbeta p) 1 O) as [[k place]|] eqn:F; [|discriminate].
    destruct (find_digit_spec _ _ _ _ _ _ F) as [j [Hk [Hj Hp]]]. simpl in Hk. subst j.
    rewrite Z.mul_1_l in Hp.
    assert (Hpl : 0 < place) by (rewrite Hp; apply place_pos; exact P).
    destruct (negb (pbeta p mod place =? 0)) eqn:E5; [discriminate|].
    apply negb_false_iff, Z.eqb_eq in E5.
    set (u := pbeta p / place) in *.
    assert (Hbeta : pbeta p = place * u) by (unfold u; apply Z_div_exact_2; lia).
    assert (Hu : 0 <= u) by (unfold u; apply Z.div_pos; lia).
    set (l := nth k load 0 + (pr p - 1) * u) in *.
    destruct ((S k <? length ax)%nat && (zextent (nth k ax mode0) - 1 <? l)) eqn:E6;
      [discriminate|].
    destruct (negb (u * zstride (nth k ax mode0) =? prho p)) eqn:E7; [discriminate|].
    apply negb_false_iff, Z.eqb_eq in E7.
    set (D' := set_nth k (nth k D 0 + x * u) D).
    assert (HR : recompA ax D' = recompA ax D + x * pbeta p).
    { unfold D'. rewrite recompA_add by lia. rewrite Hbeta, Hp. lia. }
    assert (HT : dotA ax D' = dotA ax D + x * prho p).
    { unfold D'. rewrite dotA_add by lia. rewrite <- E7. lia. }
    assert (IHa := IH ax (set_nth k l load) D' xs' P).
    assert (HLd' : length D' = length ax) by (unfold D'; rewrite length_set_nth; exact HLd).
    rewrite length_set_nth in IHa. specialize (IHa HLl HLd').
    rewrite Z.add_assoc, <- HR, IHa; [lia| | |exact C|exact R'].
    + intros k' Hk'. destruct (Nat.eq_dec k' k) as [->|Ne].
      * rewrite nth_set_nth_same by lia.
        apply andb_false_iff in E6. destruct E6 as [E6|E6].
        -- apply Nat.ltb_ge in E6. lia.
        -- apply Z.ltb_ge in E6. lia.
      * rewrite nth_set_nth_other by exact Ne. apply Hload. exact Hk'.
    + intros k'. destruct (Nat.eq_dec k' k) as [->|Ne].
      * unfold D'. rewrite !nth_set_nth_same by lia. specialize (HD k).
        unfold l. nia.
      * unfold D'. rewrite !nth_set_nth_other by exact Ne. apply HD.
Qed.

Lemma recompA_zeros : forall ax, recompA ax (repeat 0 (length ax)) = 0.
Proof. induction ax as [|m ax IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

Lemma dotA_zeros : forall ax, dotA ax (repeat 0 (length ax)) = 0.
Proof. induction ax as [|m ax IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

Lemma nth_repeat_0 : forall n k, nth k (repeat 0 n) 0 = 0.
Proof. induction n as [|n IH]; intros [|k]; simpl; auto. Qed.

(** The certificate is sound: A is additive on the pieces' image, with the
    pieces' strides. *)
Theorem certificate_sound : forall ax ps, pos_ax ax -> certificate ax ps = true ->
  forall xs, in_range xs ps -> evalA ax (lin xs ps pbeta) = lin xs ps prho.
Proof.
  intros ax ps P C xs R.
  pose proof (cert_go_sound ps ax (repeat 0 (length ax)) (repeat 0 (length ax)) xs P) as H.
  rewrite recompA_zeros, dotA_zeros, !Z.add_0_l in H.
  apply H; try rewrite repeat_length; try reflexivity; [| |exact C|exact R].
  - intros k Hk. rewrite nth_repeat_0.
    assert (Hin : In (nth k ax mode0) ax) by (apply nth_In; lia).
    unfold pos_ax in P. rewrite Forall_forall in P. specialize (P _ Hin). lia.
  - intros k. rewrite nth_repeat_0. lia.
Qed.

(** ** A rank-1 B: [R(c) = A(B(c))] *)

(** The pieces of a leaf [s:d] of B with extents [rs]: [beta_j = d * r_0 ... r_(j-1)]. *)
Fixpoint leaf_pieces (d : Z) (rs rhos : list Z) : list piece :=
  match rs, rhos with
  | r :: rs', rho :: rhos' => Piece r rho d :: leaf_pieces (d * r) rs' rhos'
  | _, _ => []
  end.

(** Colexicographic digits of [c] over the extents [rs]; the last digit
    takes the rest (CuTe's convention). *)
Fixpoint digits_of (c : Z) (rs : list Z) : list Z :=
  match rs with
  | [] => []
  | [r] => [c]
  | r :: rs' => c mod r :: digits_of (c / r) rs'
  end.

(** [R(c)] for the candidate leaf [(rs):(rhos)]. *)
Definition evalR (rs rhos : list Z) (c : Z) : Z :=
  lin (digits_of c rs) (leaf_pieces 1 rs rhos) prho.

Fixpoint prodZ (rs : list Z) : Z :=
  match rs with [] => 1 | r :: rs' => r * prodZ rs' end.

Lemma leaf_pieces_scale : forall rs rhos d xs,
  lin xs (leaf_pieces d rs rhos) pbeta = d * lin xs (leaf_pieces 1 rs rhos) pbeta.
Proof.
  induction rs as [|r rs IH]; intros [|rho rhos] d [|x xs];
    cbn [lin leaf_pieces pbeta]; try lia.
  rewrite (IH rhos (d * r) xs), (IH rhos (1 * r) xs). ring.
Qed.

Lemma leaf_pieces_prho : forall rs rhos d d' xs,
  lin xs (leaf_pieces d rs rhos) prho = lin xs (leaf_pieces d' rs rhos) prho.
Proof.
  induction rs as [|r rs IH]; intros [|rho rhos] d d' [|x xs];
    cbn [lin leaf_pieces prho]; try lia.
  rewrite (IH rhos (d * r) (d' * r)). reflexivity.
Qed.

(** The ranges do not depend on the B-strides. *)
Lemma in_range_any_beta : forall rs rhos xs d d',
  in_range xs (leaf_pieces d rs rhos) -> in_range xs (leaf_pieces d' rs rhos).
Proof.
  unfold in_range.
  induction rs as [|r rs IH]; intros [|rho rhos] xs d d' H; cbn [leaf_pieces] in *;
    try exact H.
  inversion H as [|x p xs' ps' Hx H']; subst.
  constructor; [exact Hx|]. apply (IH _ _ (d * r)). exact H'.
Qed.

(** The digits recompose [c] and are in range. *)
Lemma digits_of_spec : forall rs rhos c, length rhos = length rs -> rs <> [] ->
  Forall (fun r => 1 <= r) rs -> 0 <= c < prodZ rs ->
  lin (digits_of c rs) (leaf_pieces 1 rs rhos) pbeta = c /\
  in_range (digits_of c rs) (leaf_pieces 1 rs rhos).
Proof.
  induction rs as [|r rs IH]; intros rhos c HL Hne P Hc; [contradiction|].
  destruct rhos as [|rho rhos]; [discriminate|]. simpl in HL. injection HL as HL.
  inversion P as [|? ? Pr Prs]; subst.
  destruct rs as [|r' rs'].
  - destruct rhos; [|discriminate]. simpl in *. split; [lia|].
    constructor; [simpl; lia | constructor].
  - assert (Hr : 0 < prodZ (r' :: rs')).
    { clear -Prs. induction (r' :: rs') as [|a l IHl]; simpl; [lia|].
      inversion Prs; subst. specialize (IHl ltac:(assumption)). nia. }
    assert (Hq : 0 <= c / r < prodZ (r' :: rs')).
    { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; [lia|].
      change (prodZ (r :: r' :: rs')) with (r * prodZ (r' :: rs')) in Hc. lia. }
    destruct (IH rhos (c / r) HL ltac:(discriminate) Prs Hq) as [E Rg].
    change (digits_of c (r :: r' :: rs')) with (c mod r :: digits_of (c / r) (r' :: rs')).
    split.
    + change (lin (c mod r :: digits_of (c / r) (r' :: rs'))
                  (leaf_pieces 1 (r :: r' :: rs') (rho :: rhos)) pbeta)
        with (c mod r * 1 + lin (digits_of (c / r) (r' :: rs'))
                                (leaf_pieces (1 * r) (r' :: rs') rhos) pbeta).
      rewrite leaf_pieces_scale, Z.mul_1_l, Z.mul_1_r.
      rewrite E. pose proof (Z_div_mod_eq_full c r). lia.
    + change (Forall2 (fun x p => 0 <= x < pr p) (c mod r :: digits_of (c / r) (r' :: rs'))
               (Piece r rho 1 :: leaf_pieces (1 * r) (r' :: rs') rhos)).
      apply Forall2_cons; [simpl; apply Z.mod_pos_bound; lia|].
      apply (in_range_any_beta _ _ _ 1). exact Rg.
Qed.

(** Composition with a rank-1 [B = s:d], for a candidate leaf
    [(rs):(rhos)] refining it ([prod rs = s], compatibility), certified:
    [R(c) = A(B(c))] for every [c] in [\[0, s)]. *)
Theorem composition_certified : forall ax s d rs rhos,
  pos_ax ax -> length rhos = length rs -> rs <> [] -> Forall (fun r => 1 <= r) rs ->
  prodZ rs = s ->
  certificate ax (leaf_pieces d rs rhos) = true ->
  forall c, 0 <= c < s -> evalA ax (c * d) = evalR rs rhos c.
Proof.
  intros ax s d rs rhos P HL Hne Pr Hs C c Hc. subst s.
  destruct (digits_of_spec rs rhos c HL Hne Pr Hc) as [E Rg].
  assert (Rg' : in_range (digits_of c rs) (leaf_pieces d rs rhos))
    by (apply (in_range_any_beta _ _ _ 1); exact Rg).
  pose proof (certificate_sound ax _ P C _ Rg') as S.
  rewrite leaf_pieces_scale, E in S. unfold evalR.
  rewrite (leaf_pieces_prho rs rhos 1 d). rewrite <- S. f_equal. lia.
Qed.

(** Example: [A = (6,2):(8,2)] (coalesce_x keeps it), [B = 4:3]: CuTe's
    candidate is [(2,2):(24,2)], with pieces of [B]-strides [3] and [6]. *)
Example certificate_example :
  certificate [ZMode 6 8; ZMode 2 2] (leaf_pieces 3 [2; 2] [24; 2]) = true.
Proof. reflexivity. Qed.

(** And the wrong candidate of cutlass #3177 ([A = (4,6,8):(2,3,5)],
    [B = 6:3]; CuTe returns [(2,3):(6,3)], wrong at [c = 2]) has no
    certificate. *)
Example certificate_refuses_3177 :
  certificate [ZMode 4 2; ZMode 6 3; ZMode 8 5] (leaf_pieces 3 [2; 3] [6; 3]) = false.
Proof. reflexivity. Qed.

(** ** What the bridge runs *)

(** Rust's [coalesce_x_modes]: [bw_coalesce] with a trailing size-1 mode
    widened to size 2, so that A keeps its extension past its domain. *)
Definition rust_coalesce_xZ (L : list zmode) : list zmode :=
  match rev L with
  | [] => [ZMode 1 0]
  | last :: rinit =>
      let last' := if zextent last =? 1 then ZMode 2 (zstride last) else last in
      unit_fixupZ (fold_right bw_stepZ [last'] (rev rinit))
  end.

(** The pieces of a flat B: for each leaf, its stride and the candidate's
    modes [(r, rho)] for that leaf, in order. *)
Fixpoint pieces_of_leaves (ls : list (Z * list (Z * Z))) : list piece :=
  match ls with
  | [] => []
  | (d, rr) :: ls' => leaf_pieces d (map fst rr) (map snd rr) ++ pieces_of_leaves ls'
  end.

(** The certificate as [composition.rs] runs it: on [coalesce_x(A)] and the
    candidate's pieces. *)
Definition certified_composition (A : list zmode) (ls : list (Z * list (Z * Z))) : bool :=
  certificate (rust_coalesce_xZ A) (pieces_of_leaves ls).

Corollary certified_composition_sound : forall A ls,
  pos_ax (rust_coalesce_xZ A) -> certified_composition A ls = true ->
  forall xs, in_range xs (pieces_of_leaves ls) ->
  evalA (rust_coalesce_xZ A) (lin xs (pieces_of_leaves ls) pbeta) =
  lin xs (pieces_of_leaves ls) prho.
Proof. intros A ls P C. apply certificate_sound; assumption. Qed.

(** ** A flat B of any rank: [R(c) = A(B(c))] *)

(** Leaf [i] of B is [(d_i, rr_i)]: its stride and the candidate's modes
    for it; compatibility makes its extent [s_i = prod (map fst rr_i)]. *)
Definition leaf_extent (l : Z * list (Z * Z)) : Z := prodZ (map fst (snd l)).

(** [B(c) = sum c_i d_i] and [R(c) = sum R_i(c_i)]. *)
Fixpoint evalB (cs : list Z) (ls : list (Z * list (Z * Z))) : Z :=
  match cs, ls with
  | c :: cs', l :: ls' => c * fst l + evalB cs' ls'
  | _, _ => 0
  end.

Fixpoint evalRflat (cs : list Z) (ls : list (Z * list (Z * Z))) : Z :=
  match cs, ls with
  | c :: cs', l :: ls' => evalR (map fst (snd l)) (map snd (snd l)) c + evalRflat cs' ls'
  | _, _ => 0
  end.

Fixpoint all_digits (cs : list Z) (ls : list (Z * list (Z * Z))) : list Z :=
  match cs, ls with
  | c :: cs', l :: ls' => digits_of c (map fst (snd l)) ++ all_digits cs' ls'
  | _, _ => []
  end.

Lemma lin_app : forall xs1 xs2 ps1 ps2 f, length xs1 = length ps1 ->
  lin (xs1 ++ xs2) (ps1 ++ ps2) f = lin xs1 ps1 f + lin xs2 ps2 f.
Proof.
  induction xs1 as [|x xs1 IH]; intros xs2 ps1 ps2 f H; destruct ps1 as [|p ps1];
    simpl in *; try lia; try discriminate.
  rewrite IH by lia. lia.
Qed.

Lemma length_digits_of : forall rs c, length (digits_of c rs) = length rs.
Proof.
  induction rs as [|r rs IH]; intros c; [reflexivity|].
  destruct rs as [|r' rs']; [reflexivity|].
  change (S (length (digits_of (c / r) (r' :: rs'))) = S (length (r' :: rs'))).
  rewrite IH. reflexivity.
Qed.

Lemma length_leaf_pieces : forall rs rhos d, length rhos = length rs ->
  length (leaf_pieces d rs rhos) = length rs.
Proof.
  induction rs as [|r rs IH]; intros [|rho rhos] d H; simpl in *; try lia.
  rewrite IH by lia. reflexivity.
Qed.

Definition leaf_ok (l : Z * list (Z * Z)) : Prop :=
  snd l <> [] /\ Forall (fun rr => 1 <= fst rr) (snd l).

Lemma leaf_facts : forall l c, leaf_ok l -> 0 <= c < leaf_extent l ->
  lin (digits_of c (map fst (snd l))) (leaf_pieces (fst l) (map fst (snd l)) (map snd (snd l)))
      pbeta = c * fst l /\
  in_range (digits_of c (map fst (snd l)))
           (leaf_pieces (fst l) (map fst (snd l)) (map snd (snd l))) /\
  length (digits_of c (map fst (snd l))) =
  length (leaf_pieces (fst l) (map fst (snd l)) (map snd (snd l))).
Proof.
  intros [d rr] c [Hne P] Hc. simpl in *.
  assert (HL : length (map snd rr) = length (map fst rr)) by (rewrite !map_length; reflexivity).
  assert (Hne' : map fst rr <> []) by (destruct rr; [contradiction | discriminate]).
  assert (P' : Forall (fun r => 1 <= r) (map fst rr)) by (apply Forall_map; exact P).
  destruct (digits_of_spec (map fst rr) (map snd rr) c HL Hne' P' Hc) as [E R].
  split; [|split].
  - rewrite leaf_pieces_scale, E. lia.
  - apply (in_range_any_beta _ _ _ 1). exact R.
  - rewrite length_digits_of, length_leaf_pieces by exact HL. reflexivity.
Qed.

(** Composition with a flat B of any rank, certified: for every coordinate
    [c] of B ([0 <= c_i < s_i]), [A(B(c)) = R(c)]. *)
Theorem composition_certified_flat : forall ax ls cs,
  pos_ax ax -> Forall leaf_ok ls ->
  certificate ax (pieces_of_leaves ls) = true ->
  Forall2 (fun c l => 0 <= c < leaf_extent l) cs ls ->
  evalA ax (evalB cs ls) = evalRflat cs ls.
Proof.
  intros ax ls cs P Ok C Hc.
  assert (H : lin (all_digits cs ls) (pieces_of_leaves ls) pbeta = evalB cs ls /\
              lin (all_digits cs ls) (pieces_of_leaves ls) prho = evalRflat cs ls /\
              in_range (all_digits cs ls) (pieces_of_leaves ls)).
  { clear C. induction Hc as [|c l cs ls Hcl Hc IH]; [split; [|split]; constructor|].
    inversion Ok as [|? ? Okl Ok']; subst. destruct (IH Ok') as [E1 [E2 R]].
    destruct l as [d rr].
    destruct (leaf_facts (d, rr) c Okl Hcl) as [F1 [F2 F3]]. simpl in F1, F2, F3.
    simpl all_digits. simpl pieces_of_leaves. simpl evalB. simpl evalRflat.
    rewrite !lin_app by exact F3. split; [|split].
    - rewrite F1, E1. reflexivity.
    - rewrite E2. unfold evalR. rewrite (leaf_pieces_prho _ _ d 1). reflexivity.
    - apply Forall2_app; assumption. }
  destruct H as [E1 [E2 R]].
  rewrite <- E1, <- E2. apply certificate_sound; assumption.
Qed.

Close Scope Z_scope.
