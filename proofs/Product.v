(** * logical_product as a corollary (issue 14, item 4)

    CuTe's [logical_product(A, B) = (A, complement(A, size A * K) o B)]
    ([crates/tessera/src/algebra/product.rs], with [K = cosize B]).  For a
    sorted tractable flat [A] ([ComplementAny.tractable]) write
    [C = complement_of A rest] for its complement, with
    [rest = ceil(size A * K / reach A 1)].  When the composition [C o B]
    (B flat) is certified ([Composition.v]) with a candidate compatible
    with [B], and the modes [ax] the certificate is checked on agree with
    [C] on [\[0, size C)] (Rust checks it on [coalesce_x(C)]):

    - the second mode of the product is [C o B]: [R2(xb) = C(B(xb))] on
      B's domain ([logical_product_second_mode]);
    - if every value of [B] is below [K] and [B] is injective on its
      domain, the product [P(xa, xb) = A(xa) + R2(xb)] maps
      [dom A x dom B] one to one into [\[0, reach A 1 * rest)]
      ([logical_product_certified]): the copies of [A] that [B] places do
      not overlap.

    With CuTe's [K = cosize B], the bound on [B]'s values holds
    ([cosize_bound], [logical_product_cosize]), and the modes Rust checks
    the certificate on, [coalesce_x] of the coalesced complement, agree
    with [C] on its domain ([coalesce_x_agrees], [logical_product_rust]).
    Not proved here: nested or by-mode tilers, a non-injective [B]. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Model Confluence CoalesceImpl ComplementAny Bridge CoalesceSigned
  Composition Divide ComplementRust.

(** The interleaved layout has the extents of [A] and of its complement. *)
Lemma inter_size_split : forall A p rest,
  size (inter A p rest) = size A * size (comp_from A p rest).
Proof.
  induction A as [|m A IH]; intros p rest; [simpl; lia|].
  rewrite comp_from_cons. simpl. rewrite IH. nia.
Qed.

(** [size A * size C = reach A 1 * rest]. *)
Lemma complement_size : forall A rest, tractable A ->
  size A * size (complement_of A rest) = reach A 1 * rest.
Proof.
  intros A rest T. pose proof (inter_size A 1 rest ltac:(lia) T) as S.
  rewrite inter_size_split in S. unfold complement_of. fold (comp_from A 1 rest). lia.
Qed.

(** CuTe's cotarget [size A * K] makes [C] at least [K] long. *)
Lemma complement_size_covers : forall A K, tractable A -> Forall (fun m => 1 <= extent m) A ->
  K <= size (complement_of A ((size A * K + reach A 1 - 1) / reach A 1)).
Proof.
  intros A K T P.
  set (rest := (size A * K + reach A 1 - 1) / reach A 1).
  pose proof (complement_size A rest T) as S.
  pose proof (complement_covers_cotarget A (size A * K) T P) as Cv. fold rest in Cv.
  assert (1 <= size A).
  { clear -P. induction A as [|m A IH]; simpl; [lia|].
    inversion P as [|? ? Hm P']; subst. specialize (IH P'). nia. }
  nia.
Qed.

Theorem logical_product_second_mode : forall ax (B : layout) ls,
  pos_ax ax -> Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  forall xb, in_domain B xb ->
  evalRflat (map Z.of_nat xb) ls = evalA ax (Z.of_nat (eval B xb)).
Proof.
  intros ax B ls P Ok Hs He C xb D.
  rewrite <- (evalB_of_nat B ls xb Hs (domain_length _ _ D)).
  symmetry. apply composition_certified_flat; try assumption.
  apply (bounds_of_domain B); assumption.
Qed.

Theorem logical_product_certified : forall ax (A B : layout) K ls,
  tractable A -> Forall (fun m => 1 <= extent m) A ->
  let rest := ((size A * K + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  pos_ax ax -> (forall i, (i < size C)%nat -> evalA ax (Z.of_nat i) = Z.of_nat (eval_idx C i)) ->
  Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall xb, in_domain B xb -> (eval B xb < K)%nat) ->
  (forall xb yb, in_domain B xb -> in_domain B yb -> eval B xb = eval B yb -> xb = yb) ->
  let P xa xb := (Z.of_nat (eval A xa) + evalRflat (map Z.of_nat xb) ls)%Z in
  (forall xa xb, in_domain A xa -> in_domain B xb ->
     (0 <= P xa xb < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa xb ya yb, in_domain A xa -> in_domain B xb -> in_domain A ya -> in_domain B yb ->
     P xa xb = P ya yb -> xa = ya /\ xb = yb).
Proof.
  intros ax A B K ls T PA rest C Pax Hax Ok Hs He Cert HK Binj P.
  pose proof (complement_size_covers A K T PA) as Cov. fold rest C in Cov.
  destruct (complement_tiles A rest T) as [T1 [T2 _]]. fold C in T1, T2.
  (* P xa xb = A(xa) + C(xc) with xc the digits of B(xb) in C. *)
  assert (EP : forall xa xb, in_domain B xb ->
            P xa xb = Z.of_nat (eval A xa + eval C (digits C (eval B xb))) /\
            in_domain C (digits C (eval B xb))).
  { intros xa xb D. pose proof (HK xb D) as Hb. split.
    - unfold P. rewrite (logical_product_second_mode ax B ls Pax Ok Hs He Cert xb D).
      rewrite Hax by lia. rewrite Nat2Z.inj_add. reflexivity.
    - apply digits_in_domain. lia. }
  split.
  - intros xa xb Da Db. destruct (EP xa xb Db) as [E Dc]. rewrite E.
    pose proof (T1 xa _ Da Dc). lia.
  - intros xa xb ya yb Dxa Dxb Dya Dyb E.
    destruct (EP xa xb Dxb) as [Ex Dxc]. destruct (EP ya yb Dyb) as [Ey Dyc].
    rewrite Ex, Ey in E. apply Nat2Z.inj in E.
    destruct (T2 _ _ _ _ Dxa Dxc Dya Dyc E) as [-> Ed]. split; [reflexivity|].
    apply Binj; try assumption.
    pose proof (HK xb Dxb). pose proof (HK yb Dyb).
    rewrite <- (recompose_digits C (eval B xb)) by lia.
    rewrite <- (recompose_digits C (eval B yb)) by lia. rewrite Ed. reflexivity.
Qed.

(** ** CuTe's [K = cosize B] *)

Fixpoint max_coord (L : layout) : list nat :=
  match L with [] => [] | m :: L' => (extent m - 1) :: max_coord L' end.

Lemma domain_pos_nat : forall L xs, in_domain L xs -> Forall (fun m => 1 <= extent m) L.
Proof.
  induction L as [|m L IH]; intros [|x xs] H; simpl in H; try contradiction; constructor.
  - lia.
  - exact (IH _ (proj2 H)).
Qed.

Lemma size_pos : forall L, Forall (fun m => 1 <= extent m) L -> 1 <= size L.
Proof.
  induction L as [|m L IH]; intros P; simpl; [lia|].
  inversion P as [|? ? Hm P']; subst. specialize (IH P'). nia.
Qed.

Lemma digits_last : forall L, Forall (fun m => 1 <= extent m) L ->
  digits L (size L - 1) = max_coord L.
Proof.
  induction L as [|m L IH]; intros P; [reflexivity|].
  inversion P as [|? ? Hm P']; subst. pose proof (size_pos L P') as Hs.
  simpl. destruct (digit_unique (extent m - 1) (size L - 1) (extent m) ltac:(lia)) as [E1 E2].
  replace (extent m * size L - 1) with (extent m - 1 + extent m * (size L - 1)) by nia.
  rewrite E1, E2, IH by exact P'. reflexivity.
Qed.

Lemma eval_le_max : forall L xs, in_domain L xs -> eval L xs <= eval L (max_coord L).
Proof.
  induction L as [|m L IH]; intros [|x xs] D; simpl in *; try contradiction; [lia|].
  destruct D as [Hx D]. specialize (IH xs D). nia.
Qed.

(** Every value of [B] is below [cosize B]. *)
Lemma cosize_bound : forall B xb, in_domain B xb -> eval B xb < cosize B.
Proof.
  intros B xb D. pose proof (domain_pos_nat B xb D) as P.
  unfold cosize, eval_idx. rewrite digits_last by exact P.
  pose proof (eval_le_max B xb D). lia.
Qed.

Corollary logical_product_cosize : forall ax (A B : layout) ls,
  tractable A -> Forall (fun m => 1 <= extent m) A ->
  let rest := ((size A * cosize B + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  pos_ax ax -> (forall i, (i < size C)%nat -> evalA ax (Z.of_nat i) = Z.of_nat (eval_idx C i)) ->
  Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall xb yb, in_domain B xb -> in_domain B yb -> eval B xb = eval B yb -> xb = yb) ->
  let P xa xb := (Z.of_nat (eval A xa) + evalRflat (map Z.of_nat xb) ls)%Z in
  (forall xa xb, in_domain A xa -> in_domain B xb ->
     (0 <= P xa xb < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa xb ya yb, in_domain A xa -> in_domain B xb -> in_domain A ya -> in_domain B yb ->
     P xa xb = P ya yb -> xa = ya /\ xb = yb).
Proof.
  intros ax A B ls T PA rest C Pax Hax Ok Hs He Cert Binj P.
  apply (logical_product_certified ax A B (cosize B) ls T PA Pax Hax Ok Hs He Cert); [|exact Binj].
  exact (cosize_bound B).
Qed.

(** ** The modes Rust checks the certificate on *)

Open Scope Z_scope.

(** [evalA] (last mode unbounded) is [zeval] on [\[0, zsize L)]. *)
Lemma evalA_zeval : forall L i, zpos L -> 0 <= i < zsize L -> evalA L i = zeval L i.
Proof.
  induction L as [|m L IH]; intros i P Hi; [reflexivity|].
  inversion P as [|? ? Pm P']; subst.
  destruct L as [|m' L'].
  - simpl in *. rewrite Z.mod_small by lia. lia.
  - rewrite evalA_cons2. cbn [zeval]. f_equal. apply IH; [exact P'|].
    cbn [zsize] in Hi |- *. split; [apply Z.div_pos; lia|].
    apply Z.div_lt_upper_bound; lia.
Qed.

(** Widening the last mode keeps [zeval] on the domain. *)
Lemma zeval_widen_last : forall init m e', zextent m <= e' -> zpos (init ++ [m]) ->
  forall i, 0 <= i < zsize (init ++ [m]) ->
  zeval (init ++ [ZMode e' (zstride m)]) i = zeval (init ++ [m]) i.
Proof.
  induction init as [|a init IH]; intros m e' He P i Hi.
  - simpl in *. inversion P as [|? ? Pm _]; subst.
    rewrite !Z.mod_small by lia. reflexivity.
  - simpl in *. inversion P as [|? ? Pa P']; subst. f_equal. apply IH; try assumption.
    split; [apply Z.div_pos; lia | apply Z.div_lt_upper_bound; lia].
Qed.

Lemma zsize_app_last : forall init m, zsize (init ++ [m]) = zsize init * zextent m.
Proof. induction init as [|a init IH]; intros m; cbn [zsize app]; [lia | rewrite IH; ring]. Qed.

Lemma zpos_rust_coalesceZ : forall L, zpos L -> zpos (rust_coalesceZ L).
Proof.
  intros L P. unfold rust_coalesceZ.
  destruct (rev L) as [|last rinit] eqn:E; [repeat constructor; simpl; lia|].
  assert (EL : L = rev rinit ++ [last]) by (rewrite <- (rev_involutive L), E; reflexivity).
  rewrite EL in P.
  destruct (fold_bw_sound (rev rinit) last P) as [_ [Pf _]].
  destruct (fold_right bw_stepZ [last] (rev rinit)) as [|f [|g rest]]; try exact Pf.
  unfold unit_fixupZ. destruct (Z.eqb (zextent f) 1); [repeat constructor; simpl; lia | exact Pf].
Qed.

(** [coalesce_x(L)] agrees with [L] on its domain. *)
Theorem coalesce_x_agrees : forall L i, zpos L -> 0 <= i < zsize L ->
  zpos (rust_coalesce_xZ L) /\ evalA (rust_coalesce_xZ L) i = zeval L i.
Proof.
  intros L i P Hi. unfold rust_coalesce_xZ.
  destruct (rev L) as [|last rinit] eqn:E.
  { assert (L = []) by (rewrite <- (rev_involutive L), E; reflexivity). subst L.
    simpl in *. split; [repeat constructor; simpl; lia | lia]. }
  assert (EL : L = rev rinit ++ [last]) by (rewrite <- (rev_involutive L), E; reflexivity).
  rewrite EL in P, Hi |- *.
  set (last' := if zextent last =? 1 then ZMode 2 (zstride last) else last).
  assert (Hl : zextent last <= zextent last' /\ zstride last' = zstride last).
  { unfold last'. destruct (Z.eqb_spec (zextent last) 1); simpl; lia. }
  assert (El' : last' = ZMode (zextent last') (zstride last)) by (destruct last'; simpl in *; f_equal; lia).
  assert (P' : zpos (rev rinit ++ [last'])).
  { apply Forall_app in P as [P1 P2]. apply Forall_app. split; [exact P1|].
    inversion P2; subst. constructor; [lia | constructor]. }
  assert (Ec : rust_coalesceZ (rev rinit ++ [last']) =
                 unit_fixupZ (fold_right bw_stepZ [last'] (rev rinit))).
  { unfold rust_coalesceZ. rewrite rev_app_distr. simpl. rewrite rev_involutive. reflexivity. }
  rewrite <- Ec.
  destruct (rust_coalesceZ_preserves_eval _ P') as [Sz Ev].
  assert (Hi' : 0 <= i < zsize (rev rinit ++ [last'])).
  { rewrite zsize_app_last in *. split; [lia|].
    assert (0 < zsize (rev rinit)).
    { apply Forall_app in P as [P1 _]. clear -P1. induction (rev rinit) as [|a l IHl]; simpl; [lia|].
      inversion P1; subst. specialize (IHl ltac:(assumption)). nia. }
    nia. }
  split; [apply zpos_rust_coalesceZ, P'|].
  rewrite evalA_zeval by (try apply zpos_rust_coalesceZ, P'; rewrite Sz; exact Hi').
  rewrite Ev, El'. apply zeval_widen_last; [lia | exact P | exact Hi].
Qed.

Close Scope Z_scope.

Lemma zeval_of_nat : forall L i, zeval (map zmode_of L) (Z.of_nat i) = Z.of_nat (eval_idx L i).
Proof.
  induction L as [|m L IH]; intros i; [reflexivity|].
  rewrite eval_idx_cons. simpl. rewrite <- Nat2Z.inj_div, IH, <- Nat2Z.inj_mod. lia.
Qed.

Lemma zsize_of_nat : forall L, zsize (map zmode_of L) = Z.of_nat (size L).
Proof. induction L as [|m L IH]; [reflexivity|]. simpl. rewrite IH. lia. Qed.

(** Rust's [logical_product]: the certificate is checked on
    [coalesce_x(coalesce(C))]. *)
Corollary logical_product_rust : forall (A B : layout) ls,
  tractable A -> Forall (fun m => 1 <= extent m) A ->
  let rest := ((size A * cosize B + reach A 1 - 1) / reach A 1)%nat in
  let C := complement_of A rest in
  let ax := rust_coalesce_xZ (map zmode_of (rust_coalesce C)) in
  Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) B ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) B ->
  certificate ax (pieces_of_leaves ls) = true ->
  (forall xb yb, in_domain B xb -> in_domain B yb -> eval B xb = eval B yb -> xb = yb) ->
  let P xa xb := (Z.of_nat (eval A xa) + evalRflat (map Z.of_nat xb) ls)%Z in
  (forall xa xb, in_domain A xa -> in_domain B xb ->
     (0 <= P xa xb < Z.of_nat (reach A 1 * rest))%Z) /\
  (forall xa xb ya yb, in_domain A xa -> in_domain B xb -> in_domain A ya -> in_domain B yb ->
     P xa xb = P ya yb -> xa = ya /\ xb = yb).
Proof.
  intros A B ls T PA rest C ax Ok Hs He Cert Binj P.
  assert (PC : pos_extents C).
  { unfold C, complement_of. apply Forall_app. split.
    - apply comp_go_pos; [lia | exact T].
    - assert (1 <= rest)%nat; [|repeat constructor; simpl; lia].
      unfold rest. destruct (Nat.eq_dec (size A * cosize B) 0) as [E0|E0].
      + exfalso. unfold cosize in E0.
        assert (1 <= size A)%nat by (apply size_pos; exact PA). nia.
      + assert (1 <= reach A 1)%nat by (apply reach_pos; [lia | exact PA | exact T]).
        apply Nat.div_le_lower_bound; lia. }
  destruct (rust_coalesce_preserves_eval C PC) as [SzC EvC].
  assert (PR : zpos (map zmode_of (rust_coalesce C))).
  { pose proof (rust_coalesce_pos C PC) as H. unfold zpos. apply Forall_map.
    eapply Forall_impl; [|exact H]. simpl. intros. lia. }
  assert (Agree : forall i, (i < size C)%nat ->
            zpos ax /\ evalA ax (Z.of_nat i) = Z.of_nat (eval_idx C i)).
  { intros i Hi. destruct (coalesce_x_agrees (map zmode_of (rust_coalesce C)) (Z.of_nat i) PR)
      as [Pax E].
    - rewrite zsize_of_nat, SzC. lia.
    - split; [exact Pax|]. fold ax in E. rewrite E, zeval_of_nat, EvC by exact Hi. reflexivity. }
  assert (Pax : pos_ax ax).
  { destruct (Agree 0%nat) as [H _]; [|exact H].
    pose proof (comp_go_pos A 1 ltac:(lia) T). unfold C, complement_of.
    rewrite size_app. simpl.
    assert (1 <= size (comp_go A 1))%nat.
    { apply size_pos. apply comp_go_pos; [lia | exact T]. }
    assert (1 <= rest)%nat.
    { pose proof PC as PC'. unfold C, complement_of in PC'. apply Forall_app in PC' as [_ P2].
      inversion P2; subst. simpl in *. lia. }
    nia. }
  apply (logical_product_cosize ax A B ls T PA Pax); try assumption.
  intros i Hi. apply (Agree i Hi).
Qed.

(** ** [logical_divide] on the modes Rust checks the certificate on *)

(** Rust's [logical_divide(A, B)] checks the certificate on
    [coalesce_x(A)].  For every offset [v] of A's domain, the coordinate of
    [(B, complement)] that reaches [v] is unique and the result there is
    [A(v)]: the divide re-indexes A on its whole domain. *)
Corollary logical_divide_rust : forall (A B : layout) rest ls,
  pos_extents A -> tractable B -> Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) (B ++ complement_of B rest) ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) (B ++ complement_of B rest) ->
  certificate (rust_coalesce_xZ (map zmode_of A)) (pieces_of_leaves ls) = true ->
  size A <= reach B 1 * rest ->
  forall v, v < size A ->
  exists xs, in_domain (B ++ complement_of B rest) xs /\
    evalB (map Z.of_nat xs) ls = Z.of_nat v /\
    evalRflat (map Z.of_nat xs) ls = Z.of_nat (eval_idx A v) /\
    (forall ys, in_domain (B ++ complement_of B rest) ys ->
       evalB (map Z.of_nat ys) ls = Z.of_nat v -> ys = xs).
Proof.
  intros A B rest ls PA T Ok Hs He C Hcov v Hv.
  assert (PZ : zpos (map zmode_of A)).
  { unfold zpos. apply Forall_map. eapply Forall_impl; [|exact PA]. simpl. intros. lia. }
  destruct (coalesce_x_agrees (map zmode_of A) (Z.of_nat v) PZ) as [Pax E].
  { rewrite zsize_of_nat. lia. }
  destruct (logical_divide_certified _ B rest ls Pax T Ok Hs He C v ltac:(lia))
    as [xs [D [EB [ER U]]]].
  exists xs. split; [exact D|]. split; [exact EB|]. split; [|exact U].
  rewrite ER, E. apply zeval_of_nat.
Qed.
