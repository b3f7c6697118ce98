(** * Normalisation keeps a loop domain well formed (issue 28, item 3)

    [wf L] ([NormalizeBackward.v]): both outputs of every split and every
    swizzle occurring in the loop domain's terms occur in them (otherwise
    the backward map cannot compute the input).  Rust's [normalize]
    ([domain/equiv.rs]) rewrites each term on its own; here, for the
    normal form [N E t = normalizeR E t] (Rust's recursion:
    [normalize_fuel_irrelevant]),

    [normalize_wf]: [wf L -> wf (map (N E) L)].

    The argument: a Theorem 5 rewrite only takes apart merges.  The outer
    output of a split keeps every other node of the split's input
    ([split_keep]); the inner output drops the merge's outer operand, but
    the outer output, present by [wf], keeps it, so every non-merge node
    of the normal form of any sub-term survives in the normalised domain
    ([retained]).  The split a rewrite creates, [TSplit y f ok io], has its
    sibling [TSplit y f ok (negb io)] in the normal form of the original
    split's sibling ([splitN_nodes]), and every split or swizzle node of a
    normal form comes from one of the original terms' ([nodes_origin]). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Normalize NormalizeBackward NormalizeNF.


Definition N (E : nat -> Z) (t : term) : term := normalizeR E t.

(** ** The recursion of [N] *)

Lemma N_fuel : forall E fuel t, (weight t <= fuel)%nat -> normalize E fuel t = N E t.
Proof. intros E fuel t H. unfold N, normalizeR. apply normalize_fuel_irrelevant; lia. Qed.

Lemma N_nf : forall E t, nf E (N E t) = true.
Proof. intros E t. unfold N. exact (proj1 (proj2 (proj2 (normalizeR_sound E (fun _ => 0%Z) t)))). Qed.

Lemma N_of_nf : forall E t, nf E t = true -> N E t = t.
Proof. intros E t H. unfold N, normalizeR. apply normalize_nf_fixed, H. Qed.

Lemma N_weight : forall E t, (weight (N E t) <= weight t)%nat.
Proof. intros E t. unfold N, normalizeR. exact (proj2 (normalize_normal_form E (weight t) t ltac:(lia))). Qed.

Lemma N_merge : forall E a b, N E (TMerge a b) = TMerge (N E a) (N E b).
Proof.
  intros E a b. unfold N at 1, normalizeR. cbn [weight].
  replace (weight a + weight b + 1)%nat with (S (weight a + weight b)) by lia.
  cbn [normalize]. rewrite !N_fuel by lia. reflexivity.
Qed.

Lemma N_resize : forall E x l r, N E (TResize x l r) = TResize (N E x) l r.
Proof.
  intros E x l r. unfold N at 1, normalizeR. cbn [weight].
  replace (weight x + 1)%nat with (S (weight x)) by lia.
  cbn [normalize]. rewrite N_fuel by lia. reflexivity.
Qed.

Lemma N_swizzle : forall E x y b, N E (TSwizzle x y b) = TSwizzle (N E x) (N E y) b.
Proof.
  intros E x y b. unfold N at 1, normalizeR. cbn [weight].
  replace (weight x + weight y + 1)%nat with (S (weight x + weight y)) by lia.
  cbn [normalize]. rewrite !N_fuel by lia. reflexivity.
Qed.

Lemma N_root : forall E r, N E (TRoot r) = TRoot r.
Proof. reflexivity. Qed.

Lemma N_split : forall E x f ok io, N E (TSplit x f ok io) =
  match N E x, ok with
  | TMerge a b, false =>
      if divides f (extent E b)
      then (if io then TMerge a (N E (TSplit b f false true)) else N E (TSplit b f false false))
      else TSplit (N E x) f ok io
  | _, _ => TSplit (N E x) f ok io
  end.
Proof.
  intros E x f ok io. unfold N at 1, normalizeR. cbn [weight].
  replace (2 * weight x + 1)%nat with (S (2 * weight x)) by lia.
  cbn [normalize]. rewrite (N_fuel E (2 * weight x) x) by lia.
  pose proof (N_weight E x) as W. pose proof (N_nf E x) as Nx.
  destruct (N E x) as [r'|x'' f' ok' io'|a b|x'' l r|x'' y iy]; try reflexivity.
  destruct ok; [reflexivity|]. destruct (divides f (extent E b)); [|reflexivity].
  cbn [weight] in W. cbn [nf] in Nx. apply andb_prop in Nx as [Na _].
  destruct io.
  - rewrite N_fuel by (cbn [weight]; lia). rewrite N_merge, (N_of_nf E a Na). reflexivity.
  - apply N_fuel. cbn [weight]. lia.
Qed.

(** The split's normal form depends on its input's normal form only. *)
Lemma N_split_norm : forall E x f ok io, N E (TSplit x f ok io) = N E (TSplit (N E x) f ok io).
Proof.
  intros E x f ok io. rewrite (N_split E (N E x)), (N_of_nf E (N E x) (N_nf E x)).
  apply N_split.
Qed.

(** ** The nodes of a split's normal form *)

Definition nonmerge (u : term) : Prop := match u with TMerge _ _ => False | _ => True end.

Lemma nf_merge : forall E a b, nf E (TMerge a b) = true -> nf E a = true /\ nf E b = true.
Proof. intros E a b H. cbn [nf] in H. apply andb_prop in H. exact H. Qed.

(** The outer output keeps every non-merge node of its (normal) input. *)
Lemma split_keep_nf : forall E z f ok, nf E z = true ->
  forall v, In v (sub z) -> nonmerge v -> In v (sub (N E (TSplit z f ok true))).
Proof.
  intros E z. induction z as [r|x _ g k io|a _ b IHb|x _ l r|x _ y _ iy]; intros f ok Hz v Hv Hm;
    rewrite N_split, (N_of_nf E _ Hz); try (simpl; right; exact Hv).
  - (* a merge *)
    destruct ok; [simpl; right; exact Hv|].
    destruct (nf_merge E a b Hz) as [Na Nb].
    destruct (divides f (extent E b)); [|simpl; right; exact Hv].
    simpl in Hv |- *. destruct Hv as [<-|Hv]; [contradiction|]. right.
    apply in_app_or in Hv. apply in_or_app. destruct Hv as [Hv|Hv]; [left; exact Hv|right].
    apply IHb; assumption.
Qed.

Lemma split_keep : forall E x f ok v, In v (sub (N E x)) -> nonmerge v ->
  In v (sub (N E (TSplit x f ok true))).
Proof.
  intros E x f ok v Hv Hm. rewrite N_split_norm. apply split_keep_nf; [apply N_nf|exact Hv|exact Hm].
Qed.

(** A node of the normal form of [TSplit z f ok io] ([z] normal) is a node
    of [z], a merge, or the split the rewriting ends on, whose sibling is in
    the normal form of the sibling split. *)
Lemma splitN_nodes : forall E z f ok io, nf E z = true ->
  forall v, In v (sub (N E (TSplit z f ok io))) ->
  In v (sub z) \/ ~ nonmerge v \/
  exists y, v = TSplit y f ok io /\ In (TSplit y f ok (negb io)) (sub (N E (TSplit z f ok (negb io)))).
Proof.
  intros E z. induction z as [r|x _ g k iz|a _ b IHb|x _ l r|x _ y _ iy]; intros f ok io Hz v Hv;
    rewrite N_split, (N_of_nf E _ Hz) in Hv |- *.
  - simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
    right; right. exists (TRoot r). split; [reflexivity|]. apply sub_self.
  - simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
    right; right. eexists. split; [reflexivity|]. apply sub_self.
  - destruct (nf_merge E a b Hz) as [Na Nb].
    destruct ok.
    { simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
      right; right. eexists. split; [reflexivity|]. apply sub_self. }
    destruct (divides f (extent E b)) eqn:D.
    + destruct io; simpl negb.
      * simpl in Hv. destruct Hv as [<-|Hv]; [right; left; simpl; tauto|].
        apply in_app_or in Hv. destruct Hv as [Hv|Hv].
        -- left. simpl. right. apply in_or_app. left. exact Hv.
        -- destruct (IHb f false true Nb v Hv) as [H|[H|[y [-> Hy]]]].
           ++ left. simpl. right. apply in_or_app. right. exact H.
           ++ right; left. exact H.
           ++ right; right. exists y. split; [reflexivity|]. exact Hy.
      * destruct (IHb f false false Nb v Hv) as [H|[H|[y [-> Hy]]]].
        -- left. simpl. right. apply in_or_app. right. exact H.
        -- right; left. exact H.
        -- right; right. exists y. split; [reflexivity|]. simpl. right. apply in_or_app. right. exact Hy.
    + simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
      right; right. eexists. split; [reflexivity|]. apply sub_self.
  - simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
    right; right. eexists. split; [reflexivity|]. apply sub_self.
  - simpl in Hv. destruct Hv as [<-|Hv]; [|left; exact Hv].
    right; right. eexists. split; [reflexivity|]. apply sub_self.
Qed.

(** Every split or swizzle node of a normal form comes from one of the
    term's own. *)
Lemma nodes_origin : forall E t v, In v (sub (N E t)) ->
  (forall y g k io, v = TSplit y g k io -> exists x, In (TSplit x g k io) (sub t) /\
     In (TSplit y g k (negb io)) (sub (N E (TSplit x g k (negb io))))) /\
  (forall y1 y2 b, v = TSwizzle y1 y2 b -> exists x1 x2, In (TSwizzle x1 x2 b) (sub t) /\
     y1 = N E x1 /\ y2 = N E x2).
Proof.
  intros E t. induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy iy]; intros v Hv.
  - rewrite N_root in Hv. simpl in Hv. destruct Hv as [<-|[]].
    split; intros; discriminate.
  - rewrite N_split_norm in Hv.
    destruct (splitN_nodes E (N E x) f ok io (N_nf E x) v Hv) as [H|[H|[y0 [-> Hy]]]].
    + destruct (IH v H) as [S1 S2]. split.
      * intros y g k io' ->. destruct (S1 y g k io' eq_refl) as [x0 [Hx0 Hs]].
        exists x0. split; [simpl; right; exact Hx0|exact Hs].
      * intros y1 y2 b ->. destruct (S2 y1 y2 b eq_refl) as [x1 [x2 [Hx Hs]]].
        exists x1, x2. split; [simpl; right; exact Hx|exact Hs].
    + split; intros; subst; simpl in H; tauto.
    + split; [|intros; discriminate].
      intros y g k io' E'. injection E' as <- <- <- <-.
      exists x. split; [apply sub_self|]. rewrite N_split_norm. exact Hy.
  - rewrite N_merge in Hv. simpl in Hv. destruct Hv as [<-|Hv]; [split; intros; discriminate|].
    apply in_app_or in Hv. destruct Hv as [Hv|Hv];
      [destruct (IHa v Hv) as [S1 S2]|destruct (IHb v Hv) as [S1 S2]]; split.
    + intros y g k io ->. destruct (S1 y g k io eq_refl) as [x0 [Hx0 Hs]].
      exists x0. split; [simpl; right; apply in_or_app; left; exact Hx0|exact Hs].
    + intros y1 y2 b' ->. destruct (S2 y1 y2 b' eq_refl) as [x1 [x2 [Hx Hs]]].
      exists x1, x2. split; [simpl; right; apply in_or_app; left; exact Hx|exact Hs].
    + intros y g k io ->. destruct (S1 y g k io eq_refl) as [x0 [Hx0 Hs]].
      exists x0. split; [simpl; right; apply in_or_app; right; exact Hx0|exact Hs].
    + intros y1 y2 b' ->. destruct (S2 y1 y2 b' eq_refl) as [x1 [x2 [Hx Hs]]].
      exists x1, x2. split; [simpl; right; apply in_or_app; right; exact Hx|exact Hs].
  - rewrite N_resize in Hv. simpl in Hv. destruct Hv as [<-|Hv]; [split; intros; discriminate|].
    destruct (IH v Hv) as [S1 S2]. split.
    + intros y g k io ->. destruct (S1 y g k io eq_refl) as [x0 [Hx0 Hs]].
      exists x0. split; [simpl; right; exact Hx0|exact Hs].
    + intros y1 y2 b ->. destruct (S2 y1 y2 b eq_refl) as [x1 [x2 [Hx Hs]]].
      exists x1, x2. split; [simpl; right; exact Hx|exact Hs].
  - rewrite N_swizzle in Hv. simpl in Hv. destruct Hv as [<-|Hv].
    { split; [intros; discriminate|]. intros y1 y2 b E'. injection E' as <- <- <-.
      exists x, y. split; [apply sub_self|split; reflexivity]. }
    apply in_app_or in Hv. destruct Hv as [Hv|Hv];
      [destruct (IHx v Hv) as [S1 S2]|destruct (IHy v Hv) as [S1 S2]]; split.
    + intros y0 g k io ->. destruct (S1 y0 g k io eq_refl) as [x0 [Hx0 Hs]].
      exists x0. split; [simpl; right; apply in_or_app; left; exact Hx0|exact Hs].
    + intros y1 y2 b' ->. destruct (S2 y1 y2 b' eq_refl) as [x1 [x2 [Hx Hs]]].
      exists x1, x2. split; [simpl; right; apply in_or_app; left; exact Hx|exact Hs].
    + intros y0 g k io ->. destruct (S1 y0 g k io eq_refl) as [x0 [Hx0 Hs]].
      exists x0. split; [simpl; right; apply in_or_app; right; exact Hx0|exact Hs].
    + intros y1 y2 b' ->. destruct (S2 y1 y2 b' eq_refl) as [x1 [x2 [Hx Hs]]].
      exists x1, x2. split; [simpl; right; apply in_or_app; right; exact Hx|exact Hs].
Qed.

(** ** Every non-merge node of a sub-term's normal form survives *)

Definition subsN (E : nat -> Z) (L : list term) : list term := subs (map (N E) L).

Lemma in_subsN : forall E L t v, In t L -> In v (sub (N E t)) -> In v (subsN E L).
Proof.
  intros E L t v Ht Hv. unfold subsN, subs. apply in_flat_map. exists (N E t).
  split; [apply in_map, Ht|exact Hv].
Qed.

Lemma subs_sub : forall L u v, In u (subs L) -> In v (sub u) -> In v (subs L).
Proof.
  intros L u v Hu Hv. unfold subs in *. apply in_flat_map in Hu. destruct Hu as [t [Ht Hut]].
  apply in_flat_map. exists t. split; [exact Ht|]. eapply sub_trans; eassumption.
Qed.

Lemma sub_size : forall t s, In s (sub t) -> (size s <= size t)%nat.
Proof.
  induction t as [r|x IH f ok io|a IHa b IHb|x IH l r|x IHx y IHy iy]; intros s H;
    simpl in H; destruct H as [<-|H]; try lia; cbn [size].
  all: first [ specialize (IH s H); lia
             | apply in_app_or in H; destruct H as [H|H];
               [specialize (IHa s H)|specialize (IHb s H)]; lia
             | apply in_app_or in H; destruct H as [H|H];
               [specialize (IHx s H)|specialize (IHy s H)]; lia ].
Qed.

Definition bound (L : list term) : nat := fold_right (fun t acc => (size t + acc)%nat) 0%nat L.

Lemma subs_size : forall L s, In s (subs L) -> (size s <= bound L)%nat.
Proof.
  intros L s H. unfold subs in H. apply in_flat_map in H. destruct H as [t [Ht Hs]].
  pose proof (sub_size t s Hs). pose proof (size_le_sum L t Ht). unfold bound. lia.
Qed.

Lemma retained : forall E L, wf L -> forall s, In s (subs L) ->
  forall v, In v (sub (N E s)) -> nonmerge v -> In v (subsN E L).
Proof.
  intros E L W.
  assert (G : forall n s, (bound L - size s <= n)%nat -> In s (subs L) ->
            forall v, In v (sub (N E s)) -> nonmerge v -> In v (subsN E L)).
  { induction n as [|n IH]; intros s Hn Hs v Hv Hm.
    - destruct (subs_parent L s Hs) as [Ht|[u [Hu C]]]; [eapply in_subsN; eassumption|].
      pose proof (child_size s u C). pose proof (subs_size L u Hu). lia.
    - destruct (subs_parent L s Hs) as [Ht|[u [Hu C]]]; [eapply in_subsN; eassumption|].
      pose proof (child_size s u C) as Sz. pose proof (subs_size L u Hu).
      assert (Hun : (bound L - size u <= n)%nat) by lia.
      destruct u as [r|x f ok io|a b|x l r|x y iy]; simpl in C; try contradiction.
      + subst x. destruct io.
        * apply (IH _ Hun Hu v); [apply split_keep; assumption|exact Hm].
        * destruct (W _ Hu) as [Ht _].
          apply (IH (TSplit s f ok true) ltac:(cbn [size] in *; lia) Ht v); [apply split_keep; assumption|exact Hm].
      + apply (IH _ Hun Hu v); [|exact Hm]. rewrite N_merge. simpl. right. apply in_or_app.
        destruct C as [->| ->]; [left|right]; exact Hv.
      + subst x. apply (IH _ Hun Hu v); [|exact Hm]. rewrite N_resize. simpl. right. exact Hv.
      + apply (IH _ Hun Hu v); [|exact Hm]. rewrite N_swizzle. simpl. right. apply in_or_app.
        destruct C as [->| ->]; [left|right]; exact Hv. }
  intros s Hs. apply (G (bound L - size s)%nat s); [lia|exact Hs].
Qed.

(** ** The theorem *)

Theorem normalize_wf : forall E L, wf L -> wf (map (N E) L).
Proof.
  intros E L W u Hu. fold (subsN E L) in Hu.
  unfold subsN, subs in Hu. apply in_flat_map in Hu. destruct Hu as [t' [Ht' Hu]].
  apply in_map_iff in Ht'. destruct Ht' as [t [<- Ht]].
  destruct (nodes_origin E t u Hu) as [S1 S2].
  assert (Hut : In u (subsN E L)) by (eapply in_subsN; eassumption).
  destruct u as [r|y g k io|a b|y l r|y1 y2 b]; cbn [siblings_in]; try exact I.
  - destruct (S1 y g k io eq_refl) as [x [Hx Hs]].
    assert (Hxl : In (TSplit x g k io) (subs L)) by (eapply subs_sub; [apply in_subs, Ht|exact Hx]).
    assert (Sib : In (TSplit x g k (negb io)) (subs L)) by (destruct (W _ Hxl) as [H1 H2]; destruct io; assumption).
    assert (Hy : In (TSplit y g k (negb io)) (subsN E L)) by (eapply retained; [exact W|exact Sib|exact Hs|exact I]).
    destruct io; split; assumption.
  - destruct (S2 y1 y2 b eq_refl) as [x1 [x2 [Hx [-> ->]]]].
    assert (Hxl : In (TSwizzle x1 x2 b) (subs L)) by (eapply subs_sub; [apply in_subs, Ht|exact Hx]).
    destruct (W _ Hxl) as [H1 H2].
    split; (eapply retained; [exact W| |rewrite N_swizzle; apply sub_self|exact I]); assumption.
Qed.
