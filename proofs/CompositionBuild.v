(** * Composition, constructed (issue 28, item 1)

    [Composition.v] and [ZTreeAlgebra.v] prove the composition certificate
    sound for any candidate.  Here the candidate is the one Rust builds:
    [build_candidate] in [crates/tessera/src/algebra/composition.rs], CuTe's
    divide-and-stride walk over A's [coalesce_x] modes ([for_each_piece]),
    transcribed step by step over [Z] (strides of any sign, the sign kept
    through the walk as Rust keeps it), and the tree that mirrors B's
    profile, each leaf of B replaced by its pieces (one piece: a leaf; more:
    a tuple of leaves).

    [rust_compose A B] is what [composition] returns when its certificate
    accepts: the candidate, if every leaf's pieces multiply to its extent
    (compatibility) and [certificate] holds on [coalesce_x(A)] and the
    pieces; [None] otherwise (Rust then enumerates or synthesizes).

    Proved ([rust_compose_correct]): for nested A and B with positive
    extents and strides of any sign, when [rust_compose A B = Some R], [R]
    has B's size and [R(i) = A(B(i))] at every index [i] of B whose image
    lies in A's domain (and [R(i) = coalesce_x(A)(B(i))] at every [i]).
    Corollaries: the by-mode tilers ([compose_by_mode_correct]),
    [logical_divide] ([logical_divide_constructed]) and [logical_product]
    ([logical_product_constructed]) with the candidate Rust builds. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Model ComplementAny CoalesceImpl Bridge CoalesceSigned CoalesceSignedNF Composition Product ZTree ZTreeAlgebra Divide.

Open Scope Z_scope.

(** Rust's [arith::ceil_div] ([a >= 0], [b > 0]): the quotient, plus one
    when the remainder is not zero. *)
Definition cdivR (a b : Z) : Z := a / b + (if a mod b =? 0 then 0 else 1).

(** The loop of [for_each_piece] over A's modes but the last: the pieces
    emitted, then the rest extent and the rest stride. *)
Fixpoint walk (init : list zmode) (rs rd : Z) : list (Z * Z) * Z * Z :=
  match init with
  | [] => ([], rs, rd)
  | am :: init' =>
      let ar := Z.abs rd in
      let ns := cdivR (zextent am) ar in
      let nd := cdivR ar (zextent am) * Z.sgn rd in
      if (ns =? 1) || (rs =? 1) then walk init' rs nd
      else
        let r := Z.min ns rs in
        match walk init' (rs / r) nd with
        | (ps, rs', rd') => ((r, rd * zstride am) :: ps, rs', rd')
        end
  end.

(** [split_last]: A's modes but the last, and the last. *)
Fixpoint split_last (l : list zmode) : option (list zmode * zmode) :=
  match l with
  | [] => None
  | [m] => Some ([], m)
  | m :: l' => match split_last l' with
               | Some (init, last) => Some (m :: init, last)
               | None => None
               end
  end.

(** [for_each_piece]: the pieces [(r, rho)] of the leaf [m = s:d] of B. *)
Definition pieces_of (ax : list zmode) (m : zmode) : list (Z * Z) :=
  let s := zextent m in
  let d := zstride m in
  if d =? 0 then [(s, 0)]
  else match split_last ax with
       | None => []
       | Some ([], last) => [(s, d * zstride last)]
       | Some (init, last) =>
           match walk init s d with
           | (ps, rs, rd) =>
               let tail := rd * zstride last in
               match ps with
               | [] => [(rs, tail)]
               | _ => if rs =? 1 then ps else ps ++ [(rs, tail)]
               end
           end
       end.

Definition pleaf (p : Z * Z) : ztree := ZLeaf (ZMode (fst p) (snd p)).

(** One leaf of B in the candidate: a leaf for one piece, else a tuple. *)
Definition cand_leaf (ps : list (Z * Z)) : ztree :=
  match ps with
  | [p] => pleaf p
  | _ => ZNode (map pleaf ps)
  end.

(** [build_candidate]: B's profile, each leaf replaced by its pieces. *)
Fixpoint build (ax : list zmode) (t : ztree) : ztree :=
  match t with
  | ZLeaf m => cand_leaf (pieces_of ax m)
  | ZNode cs =>
      ZNode ((fix go (cs : list ztree) : list ztree :=
                match cs with
                | [] => []
                | c :: cs' => build ax c :: go cs'
                end) cs)
  end.

(** The leaves as [Composition.v] reads them: each leaf of B, its stride
    and its pieces. *)
Definition leaves_of (ax : list zmode) (B : ztree) : list (Z * list (Z * Z)) :=
  map (fun m => (zstride m, pieces_of ax m)) (zflatten B).

(** Compatibility: the pieces of each leaf multiply to its extent. *)
Definition compatible (ax : list zmode) (B : ztree) : bool :=
  forallb (fun m => prodZ (map fst (pieces_of ax m)) =? zextent m) (zflatten B).

(** [composition(A, B)] when it is decided by the certificate. *)
Definition rust_compose (A B : ztree) : option ztree :=
  let ax := rust_coalesce_xZ (zflatten A) in
  if compatible ax B && certificate ax (pieces_of_leaves (leaves_of ax B))
  then Some (build ax B) else None.

(** ** The pieces are well formed *)

Lemma cdivR_pos : forall a b, 1 <= a -> 1 <= b -> 1 <= cdivR a b.
Proof.
  intros a b Ha Hb. unfold cdivR.
  destruct (Z.eqb_spec (a mod b) 0) as [E|E].
  - assert (a = b * (a / b)) by (pose proof (Z_div_mod_eq_full a b); lia).
    assert (0 <= a / b) by (apply Z.div_pos; lia). nia.
  - assert (0 <= a / b) by (apply Z.div_pos; lia). lia.
Qed.

Lemma walk_ok : forall init rs rd, pos_ax init -> 1 <= rs -> rd <> 0 ->
  match walk init rs rd with
  | (ps, rs', rd') => Forall (fun p => 1 <= fst p) ps /\ 1 <= rs' /\ rd' <> 0
  end.
Proof.
  induction init as [|am init IH]; intros rs rd P Hrs Hrd; [simpl; auto|].
  inversion P as [|? ? Pm P']; subst. cbn [walk].
  assert (Hns : 1 <= cdivR (zextent am) (Z.abs rd)) by (apply cdivR_pos; lia).
  assert (Hnd : cdivR (Z.abs rd) (zextent am) * Z.sgn rd <> 0).
  { pose proof (cdivR_pos (Z.abs rd) (zextent am) ltac:(lia) Pm).
    destruct (Z.sgn_spec rd) as [[? ->]|[[? ->]|[? ->]]]; lia. }
  destruct ((cdivR (zextent am) (Z.abs rd) =? 1) || (rs =? 1)) eqn:E.
  - apply IH; assumption.
  - apply orb_false_iff in E as [E1 E2]. apply Z.eqb_neq in E1, E2.
    set (r := Z.min (cdivR (zextent am) (Z.abs rd)) rs).
    assert (Hr : 1 <= r <= rs) by (unfold r; lia).
    assert (Hq : 1 <= rs / r) by (apply Z.div_le_lower_bound; lia).
    specialize (IH (rs / r) _ P' Hq Hnd).
    destruct (walk init (rs / r) _) as [[ps rs'] rd'].
    destruct IH as [F [H1 H2]]. split; [constructor; simpl; [lia|exact F]|]. auto.
Qed.

Lemma split_last_spec : forall l init last, split_last l = Some (init, last) -> l = init ++ [last].
Proof.
  induction l as [|m l IH]; intros init last H; [discriminate|].
  destruct l as [|m' l'].
  - simpl in H. injection H as <- <-. reflexivity.
  - change (split_last (m :: m' :: l')) with
      (match split_last (m' :: l') with
       | Some (init, last) => Some (m :: init, last) | None => None end) in H.
    destruct (split_last (m' :: l')) as [[i0 l0]|] eqn:E; [|discriminate].
    injection H as <- <-. rewrite (IH i0 l0 eq_refl). reflexivity.
Qed.

Lemma split_last_cons : forall m l, exists init last, split_last (m :: l) = Some (init, last).
Proof.
  intros m l. revert m. induction l as [|m' l IH]; intros m; [exists [], m; reflexivity|].
  destruct (IH m') as [i0 [l0 E]].
  exists (m :: i0), l0. change (split_last (m :: m' :: l)) with
    (match split_last (m' :: l) with
     | Some (init, last) => Some (m :: init, last) | None => None end).
  rewrite E. reflexivity.
Qed.

(** Every leaf of B gets at least one piece, and every piece has an extent
    [>= 1] (A's modes non-empty with extents [>= 1], B's extents [>= 1]). *)
Lemma pieces_of_ok : forall ax m, pos_ax ax -> ax <> [] -> 1 <= zextent m ->
  pieces_of ax m <> [] /\ Forall (fun p => 1 <= fst p) (pieces_of ax m).
Proof.
  intros ax m P Hne Hm. unfold pieces_of.
  destruct (zstride m =? 0) eqn:Ed; [split; [discriminate | repeat constructor; simpl; lia]|].
  apply Z.eqb_neq in Ed.
  destruct (split_last ax) as [[init last]|] eqn:Es.
  2:{ destruct ax as [|m0 ax']; [contradiction|].
      destruct (split_last_cons m0 ax') as [i0 [l0 E0]]. rewrite E0 in Es. discriminate. }
  apply split_last_spec in Es. subst ax.
  apply Forall_app in P as [Pi _].
  destruct init as [|am init'].
  { split; [discriminate | repeat constructor; simpl; lia]. }
  pose proof (walk_ok (am :: init') (zextent m) (zstride m) Pi Hm Ed) as W.
  destruct (walk (am :: init') (zextent m) (zstride m)) as [[ps rs] rd].
  destruct W as [F [Hrs _]].
  destruct ps as [|p ps'].
  - split; [discriminate | repeat constructor; simpl; lia].
  - destruct (rs =? 1).
    + split; [discriminate | exact F].
    + split; [destruct ps'; discriminate|].
      apply Forall_app. split; [exact F | repeat constructor; simpl; lia].
Qed.

(** ** The candidate tree computes the candidate's pieces *)

Lemma zteval_mod_tree : forall t i, ztpos t -> zteval t (i mod ztsize t) = zteval t i.
Proof.
  intros t i P. rewrite !zflatten_preserves_eval by exact P.
  rewrite ztsize_flatten. apply zeval_mod, P.
Qed.

Lemma zdigits_app : forall L1 L2 i, zpos L1 ->
  zdigits (L1 ++ L2) i = zdigits L1 i ++ zdigits L2 (i / zsize L1).
Proof.
  induction L1 as [|m L1 IH]; intros L2 i P.
  - simpl. rewrite Z.div_1_r. reflexivity.
  - inversion P as [|? ? Pm P']; subst. simpl. rewrite IH by exact P'.
    rewrite Z.div_div by (try lia; pose proof (zsize_pos L1 P'); lia). reflexivity.
Qed.

Lemma zdigits_mod : forall L i, zpos L -> zdigits L (i mod zsize L) = zdigits L i.
Proof.
  induction L as [|m L IH]; intros i P; [reflexivity|].
  inversion P as [|? ? Pm P']; subst. pose proof (zsize_pos L P').
  cbn [zdigits zsize].
  rewrite Z.rem_mul_r by lia.
  replace ((i mod zextent m + zextent m * ((i / zextent m) mod zsize L)) mod zextent m)
    with (i mod zextent m).
  2:{ rewrite (Z.mul_comm (zextent m)), Z_mod_plus_full, Z.mod_mod by lia. reflexivity. }
  replace ((i mod zextent m + zextent m * ((i / zextent m) mod zsize L)) / zextent m)
    with ((i / zextent m) mod zsize L).
  2:{ rewrite (Z.mul_comm (zextent m)), Z.div_add by lia.
      rewrite (Z.div_small (i mod zextent m) (zextent m)) by (apply Z.mod_pos_bound; lia).
      lia. }
  rewrite IH by exact P'. reflexivity.
Qed.

Lemma length_zdigits : forall L i, length (zdigits L i) = length L.
Proof. induction L as [|m L IH]; intros i; simpl; auto. Qed.

Lemma evalRflat_app : forall xs1 xs2 ls1 ls2, length xs1 = length ls1 ->
  evalRflat (xs1 ++ xs2) (ls1 ++ ls2) = evalRflat xs1 ls1 + evalRflat xs2 ls2.
Proof.
  induction xs1 as [|x xs1 IH]; intros xs2 [|l ls1] ls2 H; simpl in *; try lia; try discriminate.
  rewrite IH by lia. lia.
Qed.

Lemma evalR_cons : forall r r' rs rho rhos c,
  evalR (r :: r' :: rs) (rho :: rhos) c = (c mod r) * rho + evalR (r' :: rs) rhos (c / r).
Proof.
  intros. unfold evalR.
  change (digits_of c (r :: r' :: rs)) with (c mod r :: digits_of (c / r) (r' :: rs)).
  change (leaf_pieces 1 (r :: r' :: rs) (rho :: rhos))
    with (Piece r rho 1 :: leaf_pieces (1 * r) (r' :: rs) rhos).
  change (lin (c mod r :: digits_of (c / r) (r' :: rs))
              (Piece r rho 1 :: leaf_pieces (1 * r) (r' :: rs) rhos) prho)
    with (c mod r * rho + lin (digits_of (c / r) (r' :: rs)) (leaf_pieces (1 * r) (r' :: rs) rhos) prho).
  rewrite (leaf_pieces_prho (r' :: rs) rhos (1 * r) 1). reflexivity.
Qed.

(** A tuple of piece leaves evaluates as [evalR] on [\[0, prod)]. *)
Lemma zteval_pieces : forall ps c, ps <> [] -> Forall (fun p => 1 <= fst p) ps ->
  0 <= c < prodZ (map fst ps) ->
  zteval (ZNode (map pleaf ps)) c = evalR (map fst ps) (map snd ps) c.
Proof.
  induction ps as [|p ps IH]; intros c Hne F Hc; [contradiction|].
  inversion F as [|? ? Fp F']; subst.
  cbn [map]. rewrite zteval_node.
  change (zteval (pleaf p) (c mod ztsize (pleaf p))) with ((c mod fst p) mod fst p * snd p).
  change (ztsize (pleaf p)) with (fst p).
  rewrite Z.mod_mod by lia.
  destruct ps as [|p' ps'].
  - cbn [map prodZ] in Hc. unfold evalR. simpl.
    rewrite Z.mod_small by lia. lia.
  - assert (Hpos : 0 < prodZ (map fst (p' :: ps'))).
    { clear -F'. induction (p' :: ps') as [|a l IHl]; simpl; [lia|].
      inversion F'; subst. specialize (IHl ltac:(assumption)). nia. }
    assert (Hq : 0 <= c / fst p < prodZ (map fst (p' :: ps'))).
    { split; [apply Z.div_pos; lia|]. apply Z.div_lt_upper_bound; [lia|].
      cbn [map prodZ] in Hc |- *. lia. }
    rewrite (IH (c / fst p) ltac:(discriminate) F' Hq).
    cbn [map]. rewrite evalR_cons. reflexivity.
Qed.

Lemma ztsize_pieces : forall ps, ztsize (ZNode (map pleaf ps)) = prodZ (map fst ps).
Proof. induction ps as [|p ps IH]; [reflexivity|]. cbn [map]. rewrite ztsize_node, IH. reflexivity. Qed.

Lemma ztpos_pieces : forall ps, Forall (fun p => 1 <= fst p) ps -> ztpos (ZNode (map pleaf ps)).
Proof.
  induction ps as [|p ps IH]; intros F; [constructor|].
  inversion F; subst. unfold ztpos. cbn [map]. rewrite zflatten_node.
  apply Forall_app. split; [repeat constructor; simpl; lia | apply IH; assumption].
Qed.

(** One leaf: the candidate leaf has the leaf's size and evaluates its
    pieces on the digit of the leaf. *)
Lemma cand_leaf_eval : forall ps e i, ps <> [] -> Forall (fun p => 1 <= fst p) ps ->
  prodZ (map fst ps) = e ->
  ztpos (cand_leaf ps) /\ ztsize (cand_leaf ps) = e /\
  zteval (cand_leaf ps) i = evalR (map fst ps) (map snd ps) (i mod e).
Proof.
  intros ps e i Hne F He.
  assert (Pe : 0 < e).
  { subst e. clear -F. induction ps as [|a l IHl]; simpl; [lia|].
    inversion F; subst. specialize (IHl ltac:(assumption)). nia. }
  destruct ps as [|p [|p' ps']]; [contradiction| |].
  - inversion F; subst. cbn [cand_leaf map prodZ] in *. unfold pleaf, evalR. simpl.
    split; [repeat constructor; simpl; lia|]. split; [lia|].
    replace (fst p * 1) with (fst p) by lia. lia.
  - change (cand_leaf (p :: p' :: ps')) with (ZNode (map pleaf (p :: p' :: ps'))).
    split; [apply ztpos_pieces, F|]. split; [rewrite ztsize_pieces; exact He|].
    rewrite <- zteval_mod_tree by (apply ztpos_pieces, F).
    rewrite ztsize_pieces, He. apply zteval_pieces; [discriminate|exact F|].
    rewrite He. apply Z.mod_pos_bound. lia.
Qed.

Definition leaves_good (ax : list zmode) (B : ztree) : Prop :=
  Forall (fun m => pieces_of ax m <> [] /\ Forall (fun p => 1 <= fst p) (pieces_of ax m) /\
                   prodZ (map fst (pieces_of ax m)) = zextent m) (zflatten B).

(** The candidate tree mirrors B: its size is B's, and at every index it
    evaluates the candidate's pieces on B's digits. *)
Lemma build_eval : forall ax B, ztpos B -> leaves_good ax B ->
  ztpos (build ax B) /\ ztsize (build ax B) = ztsize B /\
  forall i, zteval (build ax B) i = evalRflat (zdigits (zflatten B) i) (leaves_of ax B).
Proof.
  intros ax B. induction B as [m|cs IH] using ztree_ind'; intros PB G.
  - inversion G as [|? ? [Hne [F He]] _]; subst. cbn [build ztsize].
    destruct (cand_leaf_eval (pieces_of ax m) (zextent m) 0 Hne F He) as [P1 [S1 _]].
    split; [exact P1|]. split; [exact S1|].
    intros i. destruct (cand_leaf_eval (pieces_of ax m) (zextent m) i Hne F He) as [_ [_ E]].
    rewrite E. unfold leaves_of. simpl. lia.
  - induction IH as [|c cs Hc Hcs IHcs].
    + split; [constructor|]. split; [reflexivity|]. intros i. reflexivity.
    + unfold ztpos in PB. rewrite zflatten_node in PB. apply Forall_app in PB as [Pc Pcs].
      unfold leaves_good in G. rewrite zflatten_node in G. apply Forall_app in G as [Gc Gcs].
      destruct (Hc Pc Gc) as [Pbc [Sc Ec]].
      destruct (IHcs Pcs Gcs) as [Pbs [Ss Es]].
      change (build ax (ZNode (c :: cs))) with (ZNode (build ax c :: match build ax (ZNode cs) with ZNode l => l | t => [t] end)).
      assert (EN : build ax (ZNode cs) = ZNode (match build ax (ZNode cs) with ZNode l => l | t => [t] end)) by reflexivity.
      set (rest := match build ax (ZNode cs) with ZNode l => l | t => [t] end) in *.
      rewrite EN in Pbs, Ss, Es.
      split; [unfold ztpos; rewrite zflatten_node; apply Forall_app; split; assumption|].
      split; [rewrite !ztsize_node, Sc, Ss; reflexivity|].
      intros i. rewrite zteval_node, Ec, Es, Sc.
      unfold leaves_of. rewrite zflatten_node, map_app, zdigits_app by exact Pc.
      rewrite evalRflat_app by (rewrite length_zdigits, map_length; reflexivity).
      rewrite ztsize_flatten, zdigits_mod by exact Pc. reflexivity.
Qed.

(** ** The theorem *)

Lemma zpos_coalesce_x : forall L, zpos L -> zpos (rust_coalesce_xZ L).
Proof.
  intros L P. assert (0 < zsize L) by (pose proof (zsize_pos L P); lia).
  destruct (coalesce_x_agrees L 0 P ltac:(lia)) as [H0 _]. exact H0.
Qed.

Lemma bw_stepZ_nonempty : forall m acc, acc <> [] -> bw_stepZ m acc <> [].
Proof.
  intros m [|f [|g r]] H; [contradiction| |]; unfold bw_stepZ;
    repeat match goal with |- context [if ?c then _ else _] => destruct c end;
    try discriminate; exact H.
Qed.

Lemma coalesce_x_nonempty : forall L, rust_coalesce_xZ L <> [].
Proof.
  intros L. unfold rust_coalesce_xZ. destruct (rev L) as [|last rinit]; [discriminate|].
  assert (N : forall l xs, fold_right bw_stepZ [l] xs <> []).
  { intros l xs. induction xs as [|x xs IH]; [discriminate | apply bw_stepZ_nonempty, IH]. }
  pose proof (N (if zextent last =? 1 then ZMode 2 (zstride last) else last) (rev rinit)) as N'.
  unfold unit_fixupZ. destruct (fold_right bw_stepZ _ _) as [|f [|g r]]; [contradiction| |discriminate].
  destruct (zextent f =? 1); discriminate.
Qed.

(** What an accepted composition gives the certificate theorems. *)
Lemma rust_compose_facts : forall A B R, ztpos A -> ztpos B -> rust_compose A B = Some R ->
  let ax := rust_coalesce_xZ (zflatten A) in
  R = build ax B /\ pos_ax ax /\ leaves_good ax B /\
  Forall leaf_ok (leaves_of ax B) /\
  map fst (leaves_of ax B) = map zstride (zflatten B) /\
  map leaf_extent (leaves_of ax B) = map zextent (zflatten B) /\
  certified_composition (zflatten A) (leaves_of ax B) = true.
Proof.
  intros A B R PA PB H ax. unfold rust_compose in H. fold ax in H.
  destruct (compatible ax B && certificate ax (pieces_of_leaves (leaves_of ax B))) eqn:E;
    [|discriminate].
  injection H as <-. apply andb_true_iff in E as [Cm Ct].
  assert (Pax : pos_ax ax) by (apply zpos_coalesce_x, PA).
  assert (G : leaves_good ax B).
  { unfold leaves_good, compatible in *. rewrite forallb_forall in Cm.
    apply Forall_forall. intros m Hm. specialize (Cm m Hm). apply Z.eqb_eq in Cm.
    assert (Hm1 : 1 <= zextent m) by (unfold ztpos, zpos in PB; rewrite Forall_forall in PB; auto).
    destruct (pieces_of_ok ax m Pax (coalesce_x_nonempty _) Hm1) as [N F]. auto. }
  split; [reflexivity|]. split; [exact Pax|]. split; [exact G|].
  split; [|split; [|split]].
  - unfold leaves_of. apply Forall_map. eapply Forall_impl; [|exact G].
    intros m [N [F _]]. split; [exact N|]. exact F.
  - unfold leaves_of. rewrite map_map. reflexivity.
  - unfold leaves_of. rewrite map_map. apply map_ext_in. intros m Hm.
    unfold leaf_extent. simpl. unfold leaves_good in G. rewrite Forall_forall in G.
    apply G, Hm.
  - exact Ct.
Qed.

(** Rust's [composition] when its certificate accepts: the candidate it
    builds has B's size and computes [A o B]: [R(i) = A(B(i))] wherever
    [B(i)] lies in A's domain, for nested A and B with strides of any
    sign; at every index, [R(i)] is [coalesce_x(A)] (A's last mode
    extended) at [B(i)]. *)
Theorem rust_compose_correct : forall A B R,
  ztpos A -> ztpos B -> rust_compose A B = Some R ->
  ztpos R /\ ztsize R = ztsize B /\
  (forall i, zteval R i = evalA (rust_coalesce_xZ (zflatten A)) (zteval B i)) /\
  (forall i, 0 <= zteval B i < ztsize A -> zteval R i = zteval A (zteval B i)).
Proof.
  intros A B R PA PB H.
  destruct (rust_compose_facts A B R PA PB H) as [-> [Pax [G [Ok [Hs [He C]]]]]].
  destruct (build_eval _ B PB G) as [PR [SR ER]].
  split; [exact PR|]. split; [exact SR|]. split.
  - intros i. rewrite ER. symmetry.
    exact (composition_certified_tree _ B _ Pax PB Ok Hs He C i).
  - intros i Hi. rewrite ER. symmetry.
    exact (composition_certified_trees A B _ PA PB Ok Hs He C i Hi).
Qed.

(** The same, over B's domain: [R(i) = A(B(i))] for every [i] in
    [\[0, size B)] when B maps its domain into A's. *)
Corollary rust_compose_on_domain : forall A B R,
  ztpos A -> ztpos B -> rust_compose A B = Some R ->
  (forall i, 0 <= i < ztsize B -> 0 <= zteval B i < ztsize A) ->
  forall i, 0 <= i < ztsize B -> zteval R i = zteval A (zteval B i).
Proof.
  intros A B R PA PB H Hb i Hi.
  destruct (rust_compose_correct A B R PA PB H) as [_ [_ [_ E]]]. apply E, Hb, Hi.
Qed.

(** Examples: [A = (6,2):(8,2)], [B = (4,3):(3,1)] gives CuTe's
    [((2,2),3):((24,2),8)]; cutlass #3177 ([A = (4,6,8):(2,3,5)],
    [B = 6:3]) is refused by the certificate. *)
Example rust_compose_example :
  rust_compose (ZNode [ZLeaf (ZMode 6 8); ZLeaf (ZMode 2 2)])
               (ZNode [ZLeaf (ZMode 4 3); ZLeaf (ZMode 3 1)]) =
  Some (ZNode [ZNode [ZLeaf (ZMode 2 24); ZLeaf (ZMode 2 2)]; ZLeaf (ZMode 3 8)]).
Proof. reflexivity. Qed.

Example rust_compose_refuses_3177 :
  rust_compose (ZNode [ZLeaf (ZMode 4 2); ZLeaf (ZMode 6 3); ZLeaf (ZMode 8 5)])
               (ZLeaf (ZMode 6 3)) = None.
Proof. reflexivity. Qed.

(** ** By-mode tilers *)

(** [composition_tiler] with a tuple of layouts: mode [k] of the result
    is [A_k o B_k]; [None] when one of them is not certified. *)
Fixpoint compose_by_mode (As Bs : list ztree) : option (list ztree) :=
  match As, Bs with
  | _, [] => Some []
  | a :: As', b :: Bs' =>
      match rust_compose a b, compose_by_mode As' Bs' with
      | Some r, Some rs => Some (r :: rs)
      | _, _ => None
      end
  | [], _ :: _ => None
  end.

Corollary compose_by_mode_correct : forall As Bs Rs,
  Forall ztpos As -> Forall ztpos Bs -> compose_by_mode As Bs = Some Rs ->
  length Rs = length Bs /\
  forall k, (k < length Bs)%nat ->
    let a := nth k As (ZNode []) in let b := nth k Bs (ZNode []) in
    let r := nth k Rs (ZNode []) in
    ztsize r = ztsize b /\
    (forall i, 0 <= zteval b i < ztsize a -> zteval r i = zteval a (zteval b i)).
Proof.
  induction As as [|a As IH]; intros [|b Bs] Rs PA PB H; simpl in H.
  - injection H as <-. split; [reflexivity|]. intros k Hk. simpl in Hk. lia.
  - discriminate.
  - injection H as <-. split; [reflexivity|]. intros k Hk. simpl in Hk. lia.
  - inversion PA as [|? ? Pa PA']; inversion PB as [|? ? Pb PB']; subst.
    destruct (rust_compose a b) as [r|] eqn:E1; [|discriminate].
    destruct (compose_by_mode As Bs) as [rs|] eqn:E2; [|discriminate].
    injection H as <-.
    destruct (IH Bs rs PA' PB' E2) as [L IHk].
    split; [simpl; lia|]. intros [|k] Hk.
    + destruct (rust_compose_correct a b r Pa Pb E1) as [_ [S [_ E]]]. simpl. auto.
    + simpl in Hk. apply (IHk k). lia.
Qed.

(** ** [logical_divide] and [logical_product], constructed *)

(** The tiler [(B, complement)] of [logical_divide] as a flat tree. *)
Definition flat_tree (L : layout) : ztree := ZNode (map (fun m => ZLeaf (zmode_of m)) L).

Lemma zflatten_flat_tree : forall L, zflatten (flat_tree L) = map zmode_of L.
Proof.
  induction L as [|m L IH]; [reflexivity|]. unfold flat_tree in *. cbn [map].
  rewrite zflatten_node, IH. reflexivity.
Qed.

(** [logical_divide(A, B)] for a tree A of any strides and a sorted
    tractable flat divisor B, with the candidate Rust builds: when the
    certificate accepts [A o (B, complement)], the result [R] computes
    [A] at the tiler's value wherever that value lies in A's domain, and
    every offset of A's domain is reached by exactly one coordinate of
    [(B, complement)], where [R]'s pieces give [A] there. *)
Corollary logical_divide_constructed : forall (A : ztree) (B : layout) rest R,
  ztpos A -> tractable B -> Forall (fun m => (1 <= extent m)%nat) (B ++ complement_of B rest) ->
  let T := flat_tree (B ++ complement_of B rest) in
  rust_compose A T = Some R ->
  ztsize A <= Z.of_nat (reach B 1 * rest) ->
  (forall i, 0 <= zteval T i < ztsize A -> zteval R i = zteval A (zteval T i)) /\
  (forall v, 0 <= v < ztsize A ->
   let ls := leaves_of (rust_coalesce_xZ (zflatten A)) T in
   exists xs, in_domain (B ++ complement_of B rest) xs /\
     evalB (map Z.of_nat xs) ls = v /\
     evalRflat (map Z.of_nat xs) ls = zteval A v /\
     (forall ys, in_domain (B ++ complement_of B rest) ys ->
        evalB (map Z.of_nat ys) ls = v -> ys = xs)).
Proof.
  intros A B rest R PA Tr PBC T H Hcov.
  assert (PT : ztpos T).
  { unfold T, ztpos. rewrite zflatten_flat_tree. apply Forall_map.
    eapply Forall_impl; [|exact PBC]. intros m Hm. unfold zmode_of. simpl. cbv beta in Hm. lia. }
  destruct (rust_compose_correct A T R PA PT H) as [_ [_ [_ E]]].
  split; [exact E|].
  destruct (rust_compose_facts A T R PA PT H) as [_ [_ [_ [Ok [Hs [He C]]]]]].
  intros v Hv ls.
  apply (logical_divide_tree A B rest ls PA Tr Ok); try assumption.
  - unfold ls. rewrite Hs. unfold T. rewrite zflatten_flat_tree, map_map. reflexivity.
  - unfold ls. rewrite He. unfold T. rewrite zflatten_flat_tree, map_map. reflexivity.
Qed.

(** [logical_product(A, B)] for a flat tractable A and a tree B with
    strides [>= 0], injective: with the complement [C] of A for CuTe's
    cotarget and the candidate Rust builds for [C o B] (certified), the
    result's second mode [R] computes [C] at [B(i)], and the product
    [A(xa) + R(i)] maps [dom A x \[0, size B)] one to one into
    [\[0, reach A * rest)]. *)
Corollary logical_product_constructed : forall (A : layout) (B : ztree) R,
  tractable A -> Forall (fun m => (1 <= extent m)%nat) A -> ztpos B -> znonneg B ->
  let cosB := Z.to_nat (zteval B (ztsize B - 1) + 1) in
  let rest := ((size A * cosB + reach A 1 - 1) / reach A 1)%nat in
  let CT := flat_tree (rust_coalesce (complement_of A rest)) in
  ztpos CT ->
  rust_compose CT B = Some R ->
  (forall i j, 0 <= i < ztsize B -> 0 <= j < ztsize B -> zteval B i = zteval B j -> i = j) ->
  let P xa i := Z.of_nat (eval A xa) + zteval R i in
  (forall xa i, in_domain A xa -> 0 <= i < ztsize B ->
     0 <= P xa i < Z.of_nat (reach A 1 * rest)) /\
  (forall xa i ya j, in_domain A xa -> 0 <= i < ztsize B -> in_domain A ya -> 0 <= j < ztsize B ->
     P xa i = P ya j -> xa = ya /\ i = j).
Proof.
  intros A B R Tr PA PB NB cosB rest CT PCT H Binj P.
  destruct (rust_compose_facts CT B R PCT PB H) as [ER [_ [G [Ok [Hs [He C]]]]]].
  unfold certified_composition in C.
  assert (ECT : zflatten CT = map zmode_of (rust_coalesce (complement_of A rest)))
    by (unfold CT; apply zflatten_flat_tree).
  rewrite ECT in ER, G, Ok, Hs, He, C.
  destruct (build_eval _ B PB G) as [_ [_ EvR]].
  rewrite <- ER in EvR.
  pose proof (logical_product_tree A B _ Tr PA PB NB Ok Hs He C Binj) as LP.
  cbv zeta in LP. unfold P. fold cosB in LP. fold rest in LP.
  setoid_rewrite EvR. exact LP.
Qed.

Close Scope Z_scope.
