(** * logical_divide as a corollary (issue 14, item 4)

    CuTe's [logical_divide(A, B) = A o (B, complement(B, size A))].  For a
    sorted tractable flat [B] ([ComplementAny.tractable]), write
    [Bs = B ++ complement_of B rest] for the divisor with its complement.
    When the composition [A o Bs] is certified ([Composition.v]) with a
    candidate compatible with [Bs], the divide's result [R] visits every
    offset [v] of [\[0, N)] ([N = reach B 1 * rest >= size A] for
    [rest = ceil(size A / reach B 1)]) exactly once, with value [A(v)]
    ([logical_divide_certified]): [R] is [A] re-indexed by a bijection,
    tile by tile.  [logical_product] is not covered. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Model ComplementAny Bridge Composition.

(** [evalB] on a coordinate of natural numbers, for leaves whose strides
    are those of a [nat] layout. *)
Lemma evalB_of_nat : forall (L : layout) ls xs,
  map fst ls = map (fun m => Z.of_nat (stride m)) L -> length xs = length L ->
  evalB (map Z.of_nat xs) ls = Z.of_nat (eval L xs).
Proof.
  induction L as [|m L IH]; intros ls xs Hs Hx.
  - destruct xs; [|discriminate]. destruct ls; [reflexivity|discriminate].
  - destruct xs as [|x xs]; [discriminate|]. destruct ls as [|l ls]; [discriminate|].
    simpl in Hs. injection Hs as H1 H2. simpl in Hx.
    simpl. rewrite H1, IH by (auto; lia). lia.
Qed.

Lemma eval_app : forall A C xa xc, length xa = length A ->
  eval (A ++ C) (xa ++ xc) = eval A xa + eval C xc.
Proof.
  induction A as [|m A IH]; intros C xa xc H.
  - destruct xa; [reflexivity|discriminate].
  - destruct xa as [|x xa]; [discriminate|]. simpl in *. rewrite IH by lia. lia.
Qed.

Lemma in_domain_app : forall A C xa xc,
  in_domain A xa -> in_domain C xc -> in_domain (A ++ C) (xa ++ xc).
Proof.
  induction A as [|m A IH]; intros C xa xc Ha Hc.
  - destruct xa; [exact Hc|contradiction].
  - destruct xa as [|x xa]; [contradiction|]. destruct Ha as [Hx Ha].
    split; [exact Hx | apply IH; assumption].
Qed.

Lemma in_domain_split : forall A C ys, in_domain (A ++ C) ys ->
  exists xa xc, ys = xa ++ xc /\ in_domain A xa /\ in_domain C xc.
Proof.
  induction A as [|m A IH]; intros C ys H.
  - exists [], ys. split; [reflexivity|]. split; [exact I|exact H].
  - destruct ys as [|y ys]; [contradiction|]. destruct H as [Hy H].
    destruct (IH C ys H) as [xa [xc [E [Ha Hc]]]].
    exists (y :: xa), xc. subst ys. split; [reflexivity|]. split; [split; assumption|exact Hc].
Qed.

(** The coordinate bounds of [composition_certified_flat], from the
    domain of the [nat] layout. *)
Lemma bounds_of_domain : forall (L : layout) ls xs,
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) L -> in_domain L xs ->
  Forall2 (fun c l => (0 <= c < leaf_extent l)%Z) (map Z.of_nat xs) ls.
Proof.
  induction L as [|m L IH]; intros ls xs He Hd.
  - destruct xs; [|contradiction]. destruct ls; [constructor|discriminate].
  - destruct xs as [|x xs]; [contradiction|]. destruct ls as [|l ls]; [discriminate|].
    simpl in He. injection He as H1 H2. destruct Hd as [Hx Hd].
    constructor; [rewrite H1; lia | apply IH; assumption].
Qed.

Theorem logical_divide_certified : forall ax (B : layout) rest ls,
  pos_ax ax -> tractable B -> Forall leaf_ok ls ->
  map fst ls = map (fun m => Z.of_nat (stride m)) (B ++ complement_of B rest) ->
  map leaf_extent ls = map (fun m => Z.of_nat (extent m)) (B ++ complement_of B rest) ->
  certificate ax (pieces_of_leaves ls) = true ->
  forall v, v < reach B 1 * rest ->
  exists xs, in_domain (B ++ complement_of B rest) xs /\
    evalB (map Z.of_nat xs) ls = Z.of_nat v /\
    evalRflat (map Z.of_nat xs) ls = evalA ax (Z.of_nat v) /\
    (forall ys, in_domain (B ++ complement_of B rest) ys ->
       evalB (map Z.of_nat ys) ls = Z.of_nat v -> ys = xs).
Proof.
  intros ax B rest ls P T Ok Hs He C v Hv.
  destruct (complement_tiles B rest T) as [_ [Inj Surj]].
  destruct (Surj v Hv) as [xa [xc [Ha [Hc E]]]].
  set (Bs := B ++ complement_of B rest) in *.
  assert (EvB : forall ys, in_domain Bs ys -> evalB (map Z.of_nat ys) ls = Z.of_nat (eval Bs ys)).
  { intros ys Hy. apply evalB_of_nat; [exact Hs|]. apply domain_length, Hy. }
  exists (xa ++ xc). split; [apply in_domain_app; assumption|].
  assert (HB : evalB (map Z.of_nat (xa ++ xc)) ls = Z.of_nat v).
  { rewrite EvB by (apply in_domain_app; assumption). unfold Bs.
    rewrite eval_app by (apply domain_length, Ha). rewrite E. reflexivity. }
  split; [exact HB|]. split.
  - rewrite <- HB. symmetry. apply composition_certified_flat; try assumption.
    apply (bounds_of_domain Bs); [exact He | apply in_domain_app; assumption].
  - intros ys Hy Ev. destruct (in_domain_split _ _ _ Hy) as [ya [yc [-> [Hya Hyc]]]].
    rewrite EvB in Ev by exact Hy. unfold Bs in Ev.
    rewrite eval_app in Ev by (apply domain_length, Hya). apply Nat2Z.inj in Ev.
    destruct (Inj ya yc xa xc Hya Hyc Ha Hc ltac:(lia)) as [-> ->]. reflexivity.
Qed.
