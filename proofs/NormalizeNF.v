(** * Normalisation reaches a normal form, whatever the fuel past a bound (issue 28, item 3)

    [Normalize.v] transcribes [domain/equiv.rs]'s [normalize] with a fuel
    argument for its re-normalisation.  Here the fuel is shown harmless:
    with at least [weight t] steps ([weight] counts a split twice, so a
    Theorem 5 rewrite, which moves a split from above a merge to below it,
    makes the term lighter),

    * the result is a normal form: no inner split of a merge whose inner
      extent it divides is left anywhere ([normalize_normal_form]);
    * it does not depend on the fuel ([normalize_fuel_irrelevant]), so it
      is what Rust's unbounded recursion returns;
    * normalising again changes nothing ([normalize_idempotent]), since a
      normal form is a fixed point for any fuel ([normalize_nf_fixed]). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Normalize.

Fixpoint weight (t : term) : nat :=
  match t with
  | TRoot _ => 1
  | TSplit x _ _ _ => 2 * weight x + 1
  | TMerge a b => weight a + weight b + 1
  | TResize x _ _ => weight x + 1
  | TSwizzle x y _ => weight x + weight y + 1
  end.

Lemma weight_pos : forall t, (1 <= weight t)%nat.
Proof. destruct t; simpl; lia. Qed.

(** No Theorem 5 redex anywhere in the term. *)
Fixpoint nf (E : nat -> Z) (t : term) : bool :=
  match t with
  | TRoot _ => true
  | TSplit x f outer_kind _ =>
      nf E x && match x, outer_kind with
                | TMerge _ b, false => negb (divides f (extent E b))
                | _, _ => true
                end
  | TMerge a b => nf E a && nf E b
  | TResize x _ _ => nf E x
  | TSwizzle x y _ => nf E x && nf E y
  end.

Lemma nf_split : forall E x f ok io, nf E (TSplit x f ok io) =
  nf E x && match x, ok with
            | TMerge _ b, false => negb (divides f (extent E b))
            | _, _ => true
            end.
Proof. reflexivity. Qed.

(** A normal form is a fixed point, for any fuel. *)
Theorem normalize_nf_fixed : forall E fuel t, nf E t = true -> normalize E fuel t = t.
Proof.
  intros E fuel. induction fuel as [|fuel IH]; intros t H; [reflexivity|].
  destruct t as [r|x f ok io|a b|x l r|x y iy]; cbn [normalize nf] in *.
  - reflexivity.
  - apply andb_prop in H as [Hx Hm]. rewrite (IH x Hx).
    destruct x as [| |a b| |]; try reflexivity. destruct ok; [reflexivity|].
    apply negb_true_iff in Hm. rewrite Hm. reflexivity.
  - apply andb_prop in H as [Ha Hb]. rewrite (IH a Ha), (IH b Hb). reflexivity.
  - rewrite (IH x H). reflexivity.
  - apply andb_prop in H as [Hx Hy]. rewrite (IH x Hx), (IH y Hy). reflexivity.
Qed.

(** With [weight t] steps or more: a normal form, no heavier than [t]. *)
Theorem normalize_normal_form : forall E fuel t, (weight t <= fuel)%nat ->
  nf E (normalize E fuel t) = true /\ (weight (normalize E fuel t) <= weight t)%nat.
Proof.
  intros E fuel. induction fuel as [|fuel IH]; intros t Hw.
  { pose proof (weight_pos t). lia. }
  destruct t as [r|x f ok io|a b|x l r|x y iy]; cbn [normalize].
  - split; [reflexivity|lia].
  - cbn [weight] in Hw.
    destruct (IH x ltac:(lia)) as [Nx Wx].
    destruct (normalize E fuel x) as [r'|x'' f' ok' io'|a b|x'' l r|x'' y iy] eqn:N;
      try (split; [rewrite nf_split, Nx; reflexivity | cbn [weight] in *; lia]).
    cbn [nf weight] in Nx, Wx. apply andb_prop in Nx as [Na Nb].
    destruct ok.
    { split; [cbn [nf]; rewrite Na, Nb; reflexivity | cbn [weight]; lia]. }
    destruct (divides f (extent E b)) eqn:D.
    + destruct io.
      * destruct (IH (TMerge a (TSplit b f false true)) ltac:(cbn [weight]; lia)) as [N1 W1].
        split; [exact N1|]. cbn [weight] in W1 |- *. lia.
      * destruct (IH (TSplit b f false false) ltac:(cbn [weight]; lia)) as [N1 W1].
        split; [exact N1|]. cbn [weight] in W1 |- *. lia.
    + split; [cbn [nf]; rewrite Na, Nb, D; reflexivity | cbn [weight]; lia].
  - cbn [weight] in Hw.
    destruct (IH a ltac:(lia)) as [Na Wa]. destruct (IH b ltac:(lia)) as [Nb Wb].
    split; [cbn [nf]; rewrite Na, Nb; reflexivity | cbn [weight]; lia].
  - cbn [weight] in Hw. destruct (IH x ltac:(lia)) as [Nx Wx].
    split; [exact Nx | cbn [weight]; lia].
  - cbn [weight] in Hw.
    destruct (IH x ltac:(lia)) as [Nx Wx]. destruct (IH y ltac:(lia)) as [Ny Wy].
    split; [cbn [nf]; rewrite Nx, Ny; reflexivity | cbn [weight]; lia].
Qed.

(** Normalising a normal form again changes nothing. *)
Corollary normalize_idempotent : forall E fuel fuel' t, (weight t <= fuel)%nat ->
  normalize E fuel' (normalize E fuel t) = normalize E fuel t.
Proof.
  intros E fuel fuel' t Hw. apply normalize_nf_fixed.
  exact (proj1 (normalize_normal_form E fuel t Hw)).
Qed.

(** Past [weight t], the fuel does not matter: the result is the one
    Rust's recursion (which has no fuel) computes. *)
Theorem normalize_fuel_irrelevant : forall E f1 f2 t, (weight t <= f1)%nat -> (weight t <= f2)%nat ->
  normalize E f1 t = normalize E f2 t.
Proof.
  intros E f1. induction f1 as [|f1 IH]; intros f2 t H1 H2.
  { pose proof (weight_pos t). lia. }
  destruct f2 as [|f2]; [pose proof (weight_pos t); lia|].
  destruct t as [r|x f ok io|a b|x l r|x y iy]; cbn [normalize]; cbn [weight] in H1, H2.
  - reflexivity.
  - rewrite <- (IH f2 x ltac:(lia) ltac:(lia)).
    destruct (normalize_normal_form E f1 x ltac:(lia)) as [_ Wx].
    destruct (normalize E f1 x) as [r'|x'' f' ok' io'|a b|x'' l r|x'' y iy]; try reflexivity.
    destruct ok; [reflexivity|]. destruct (divides f (extent E b)); [|reflexivity].
    cbn [weight] in Wx.
    destruct io; apply IH; cbn [weight]; lia.
  - rewrite (IH f2 a), (IH f2 b) by lia. reflexivity.
  - rewrite (IH f2 x) by lia. reflexivity.
  - rewrite (IH f2 x), (IH f2 y) by lia. reflexivity.
Qed.

(** Loop domains: the normal forms Rust compares are fixed points. *)
Corollary normalize_list_idempotent : forall E fuel L,
  Forall (fun t => (weight t <= fuel)%nat) L ->
  map (normalize E fuel) (map (normalize E fuel) L) = map (normalize E fuel) L.
Proof.
  intros E fuel L H. rewrite map_map. apply map_ext_in. intros t Ht.
  rewrite Forall_forall in H. apply normalize_idempotent, H, Ht.
Qed.

(** What the bridge runs: [normalize] with [weight t] steps, which is
    Rust's unbounded recursion ([normalize_fuel_irrelevant]). *)
Definition normalizeR (E : nat -> Z) (t : term) : term := normalize E (weight t) t.

Corollary normalizeR_sound : forall E I t,
  extent E (normalizeR E t) = extent E t /\ value E I (normalizeR E t) = value E I t /\
  nf E (normalizeR E t) = true /\ normalizeR E (normalizeR E t) = normalizeR E t.
Proof.
  intros E I t. unfold normalizeR.
  destruct (normalize_sound E I (weight t) t) as [Ex Vx].
  destruct (normalize_normal_form E (weight t) t ltac:(lia)) as [N _].
  split; [exact Ex|]. split; [exact Vx|]. split; [exact N|].
  apply normalize_nf_fixed, N.
Qed.
