(** * Theorem 5 as a congruence: [domain/equiv.rs]'s normalisation (issue 14, item 6)

    [equiv.rs] writes every IterDomain of a schedule as a term over the
    roots ([Term]) and rewrites with Theorem 5 ([normalize]): an inner
    split by [f] of [merge(A, B)] with [f | E(B)] becomes
    [merge(A, split(B, f).outer)] (outer output) and [split(B, f).inner]
    (inner output), everywhere in a term, until no redex is left.

    Here a term denotes an extent and an index, as a function of the roots'
    extents and indices ([extent], [value]: forward evaluation, the way the
    loop indices are computed from the root indices).  [normalize] mirrors
    Rust's function; its re-normalisation of the rewritten term is bounded
    by a fuel argument (Rust's recursion terminates; the fuel only makes
    that explicit).

    Proved ([normalize_sound]): for any fuel, [normalize] keeps the extent
    and the value of every term at every root point, because one rewrite
    does ([theorem5_rewrite_outer], [theorem5_rewrite_inner]) and the
    semantics is compositional.  Hence two loop domains with equal normal
    forms have equal extents and compute the same loop indices from every
    root point ([equal_normal_forms]).

    The backward index map (Def 1.2 compares the root indices reached from
    every loop point, holes included) is treated in [NormalizeBackward.v]:
    equal normal forms give equal backward maps at every loop point where
    the first domain's split inner indices are in range and the second's
    merges see in-range inner indices ([normal_forms_backward]), and not
    in general ([normal_forms_unsound_at_holes]). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.


Open Scope Z_scope.

(** Rust's [Term]: [TSplit x f outer_kind is_outer] is an output of a split
    of [x] by [f] ([outer_kind]: an outer split, whose outer output has
    extent [f]); [TSwizzle x y is_y] an output of an XOR swizzle. *)
Inductive term : Type :=
| TRoot (r : nat)
| TSplit (x : term) (f : Z) (outer_kind is_outer : bool)
| TMerge (a b : term)
| TResize (x : term) (l r : Z)
| TSwizzle (x y : term) (is_y : bool).

Definition cdiv (a b : Z) : Z := (a + b - 1) / b.

(** Extents, as [Term::extent]; [E r] is the extent of root [r]. *)
Fixpoint extent (E : nat -> Z) (t : term) : Z :=
  match t with
  | TRoot r => E r
  | TSplit x f outer_kind is_outer =>
      if Bool.eqb outer_kind is_outer then f else cdiv (extent E x) f
  | TMerge a b => extent E a * extent E b
  | TResize x l r => extent E x + (l + r)
  | TSwizzle x y is_y => if is_y then extent E y else extent E x
  end.

(** Indices, from the roots' indices [I]: a split's outer output is the
    quotient by its inner output's extent, its inner output the remainder;
    a merge is [a * E(b) + b]; a resize adds [l]; the swizzle's Y output is
    [x xor y]. *)
Fixpoint value (E : nat -> Z) (I : nat -> Z) (t : term) : Z :=
  match t with
  | TRoot r => I r
  | TSplit x f outer_kind is_outer =>
      let inner_ext := if outer_kind then cdiv (extent E x) f else f in
      if is_outer then value E I x / inner_ext else value E I x mod inner_ext
  | TMerge a b => value E I a * extent E b + value E I b
  | TResize x l r => value E I x + l
  | TSwizzle x y is_y => if is_y then Z.lxor (value E I x) (value E I y) else value E I x
  end.

(** Rust's [normalize], with fuel for the re-normalisation. [divides f e]
    stands for Rust's [facts.divides(f, e) == Yes]. *)
Definition divides (f e : Z) : bool := (0 <? f) && (e mod f =? 0).

Fixpoint normalize (E : nat -> Z) (fuel : nat) (t : term) : term :=
  match fuel with
  | O => t
  | S fuel' =>
      match t with
      | TRoot _ => t
      | TSplit x f outer_kind is_outer =>
          let x' := normalize E fuel' x in
          match x', outer_kind with
          | TMerge a b, false =>
              if divides f (extent E b) then
                let split_b := TSplit b f false is_outer in
                if is_outer then normalize E fuel' (TMerge a split_b)
                else normalize E fuel' split_b
              else TSplit x' f outer_kind is_outer
          | _, _ => TSplit x' f outer_kind is_outer
          end
      | TMerge a b => TMerge (normalize E fuel' a) (normalize E fuel' b)
      | TResize x l r => TResize (normalize E fuel' x) l r
      | TSwizzle x y is_y => TSwizzle (normalize E fuel' x) (normalize E fuel' y) is_y
      end
  end.

(** ** One rewrite (Theorem 5, at the level of terms) *)

Theorem theorem5_rewrite_outer : forall E I a b f, divides f (extent E b) = true ->
  extent E (TMerge a (TSplit b f false true)) = extent E (TSplit (TMerge a b) f false true) /\
  value E I (TMerge a (TSplit b f false true)) = value E I (TSplit (TMerge a b) f false true).
Proof.
  intros E I a b f D. unfold divides in D. apply andb_prop in D. destruct D as [Hf Hd].
  apply Z.ltb_lt in Hf. apply Z.eqb_eq in Hd.
  apply Z.mod_divide in Hd; [|lia]. destruct Hd as [k Hk].
  simpl. rewrite Hk. unfold cdiv. split.
  - replace (extent E a * (k * f) + f - 1) with ((extent E a * k) * f + (f - 1)) by ring.
    replace (k * f + f - 1) with (k * f + (f - 1)) by ring.
    rewrite !Z.div_add_l by lia. rewrite (Z.div_small (f - 1) f) by lia. ring.
  - replace (value E I a * (k * f) + value E I b) with (value E I b + (value E I a * k) * f)
      by ring.
    rewrite Z.div_add by lia.
    replace (k * f + f - 1) with (k * f + (f - 1)) by ring.
    rewrite Z.div_add_l, (Z.div_small (f - 1) f) by lia. ring.
Qed.

Theorem theorem5_rewrite_inner : forall E I a b f, divides f (extent E b) = true ->
  extent E (TSplit b f false false) = extent E (TSplit (TMerge a b) f false false) /\
  value E I (TSplit b f false false) = value E I (TSplit (TMerge a b) f false false).
Proof.
  intros E I a b f D. unfold divides in D. apply andb_prop in D. destruct D as [Hf Hd].
  apply Z.ltb_lt in Hf. apply Z.eqb_eq in Hd.
  apply Z.mod_divide in Hd; [|lia]. destruct Hd as [k Hk].
  simpl. split; [reflexivity|].
  rewrite Hk. replace (value E I a * (k * f) + value E I b) with
    (value E I b + (value E I a * k) * f) by ring.
  rewrite Z.mod_add by lia. reflexivity.
Qed.

(** ** The congruence *)

Theorem normalize_sound : forall E I fuel t,
  extent E (normalize E fuel t) = extent E t /\ value E I (normalize E fuel t) = value E I t.
Proof.
  intros E I fuel. induction fuel as [|fuel IH]; intros t; [split; reflexivity|].
  destruct t as [r|x f outer_kind is_outer|a b|x l r|x y is_y]; cbn [normalize].
  - split; reflexivity.
  - destruct (IH x) as [Ex Vx].
    assert (Keep : extent E (TSplit (normalize E fuel x) f outer_kind is_outer) =
                   extent E (TSplit x f outer_kind is_outer) /\
                   value E I (TSplit (normalize E fuel x) f outer_kind is_outer) =
                   value E I (TSplit x f outer_kind is_outer)).
    { simpl. rewrite Ex, Vx. split; reflexivity. }
    destruct (normalize E fuel x) as [r'|x'' f' ok' io'|a b|x'' l r|x'' y is_y] eqn:N;
      try exact Keep.
    destruct outer_kind; [exact Keep|].
    destruct (divides f (extent E b)) eqn:D; [|exact Keep].
    destruct is_outer.
    + destruct (IH (TMerge a (TSplit b f false true))) as [E1 V1].
      destruct (theorem5_rewrite_outer E I a b f D) as [E2 V2].
      rewrite E1, V1, E2, V2. simpl. simpl in Ex, Vx. rewrite ?Ex, ?Vx. split; reflexivity.
    + destruct (IH (TSplit b f false false)) as [E1 V1].
      destruct (theorem5_rewrite_inner E I a b f D) as [E2 V2].
      rewrite E1, V1, E2, V2. simpl. simpl in Ex, Vx. rewrite ?Ex, ?Vx. split; reflexivity.
  - destruct (IH a) as [Ea Va]. destruct (IH b) as [Eb Vb].
    simpl. rewrite Ea, Va, Eb, Vb. split; reflexivity.
  - destruct (IH x) as [Ex Vx]. simpl. rewrite Ex, Vx. split; reflexivity.
  - destruct (IH x) as [Ex Vx]. destruct (IH y) as [Ey Vy].
    simpl. rewrite Ex, Vx, Ey, Vy. split; reflexivity.
Qed.

(** Loop domains (lists of terms) with equal normal forms have equal
    extents and the same loop indices at every root point. *)
Theorem equal_normal_forms : forall E fuel ta tb,
  map (normalize E fuel) ta = map (normalize E fuel) tb ->
  map (extent E) ta = map (extent E) tb /\
  (forall I, map (value E I) ta = map (value E I) tb).
Proof.
  intros E fuel ta tb H.
  assert (Ext : forall l, map (extent E) (map (normalize E fuel) l) = map (extent E) l).
  { intros l. rewrite map_map. apply map_ext. intros t.
    exact (proj1 (normalize_sound E (fun _ => 0) fuel t)). }
  assert (Val : forall I l, map (value E I) (map (normalize E fuel) l) = map (value E I) l).
  { intros I l. rewrite map_map. apply map_ext. intros t.
    exact (proj2 (normalize_sound E I fuel t)). }
  split.
  - rewrite <- (Ext ta), <- (Ext tb), H. reflexivity.
  - intros I. rewrite <- (Val I ta), <- (Val I tb), H. reflexivity.
Qed.

(** The merge-split example with [n | n2]: [split(merge(R1, R2), n)] normalises to
    [merge(R1, split(R2, n).outer)] and [split(R2, n).inner]. *)
Example figure3_normal_form :
  let E := fun r => match r with O => 3 | _ => 8 end in
  normalize E 3 (TSplit (TMerge (TRoot 0) (TRoot 1)) 4 false true) =
    TMerge (TRoot 0) (TSplit (TRoot 1) 4 false true) /\
  normalize E 3 (TSplit (TMerge (TRoot 0) (TRoot 1)) 4 false false) = TSplit (TRoot 1) 4 false false.
Proof. split; reflexivity. Qed.

Close Scope Z_scope.
