(** * Rust's strict complement of a nested layout (issue 14, items 1 and 3)

    Rust's [complement] flattens a nested layout first ([filter_modes] of
    the tree).  A hole-free complement of a tree [t] is stated on its
    indices: [(i, xc) |-> heval t i + C(xc)] maps [\[0, hsize t) x dom C]
    one to one onto [\[0, N)] ([htiles]).  With [Nested.flatten_preserves_eval]
    this is the flat statement for [hflatten t] ([htiles_iff]), so the
    theorems of [ComplementShape.v] hold on trees:
    [complementSZ_nested]: if [t] has a hole-free complement, Rust's strict
    complement of its flattening returns one, [R], with [htiles t R N] and
    [N >=] the cotarget's size; when it refuses, [t] has none. *)

From Coq Require Import Arith Lia List ZArith.
Import ListNotations.
From Tessera Require Import Model Nested ComplementAny ComplementConverse Bridge
  ComplementRust ComplementShape.

(** The flat statement on indices. *)
Definition itiles (A C : layout) (N : nat) : Prop :=
  (forall i xc, i < size A -> in_domain C xc -> eval_idx A i + eval C xc < N) /\
  (forall i xc j yc, i < size A -> in_domain C xc -> j < size A -> in_domain C yc ->
     eval_idx A i + eval C xc = eval_idx A j + eval C yc -> i = j /\ xc = yc) /\
  (forall v, v < N -> exists i xc, i < size A /\ in_domain C xc /\ eval_idx A i + eval C xc = v).

Lemma tiles_itiles : forall A C N, tiles A C N <-> itiles A C N.
Proof.
  intros A C N. split.
  - intros [T1 [T2 T3]]. split; [|split].
    + intros i xc Hi Dc. apply T1; [apply digits_in_domain; exact Hi | exact Dc].
    + intros i xc j yc Hi Dc Hj Dyc E.
      destruct (T2 _ _ _ _ (digits_in_domain A i Hi) Dc (digits_in_domain A j Hj) Dyc E)
        as [Ed ->].
      split; [|reflexivity].
      rewrite <- (recompose_digits A i Hi), <- (recompose_digits A j Hj), Ed. reflexivity.
    + intros v Hv. destruct (T3 v Hv) as [xa [xc [Da [Dc E]]]].
      exists (recompose A xa), xc. split; [apply recompose_bound; exact Da|].
      split; [exact Dc|]. rewrite eval_idx_recompose by exact Da. exact E.
  - intros [T1 [T2 T3]]. split; [|split].
    + intros xa xc Da Dc. rewrite <- eval_idx_recompose by exact Da.
      apply T1; [apply recompose_bound; exact Da | exact Dc].
    + intros xa xc ya yc Da Dc Dya Dyc E.
      rewrite <- (eval_idx_recompose A xa Da), <- (eval_idx_recompose A ya Dya) in E.
      destruct (T2 _ _ _ _ (recompose_bound A xa Da) Dc (recompose_bound A ya Dya) Dyc E)
        as [Er ->].
      split; [|reflexivity].
      rewrite <- (digits_recompose A xa Da), <- (digits_recompose A ya Dya), Er. reflexivity.
    + intros v Hv. destruct (T3 v Hv) as [i [xc [Hi [Dc E]]]].
      exists (digits A i), xc. split; [apply digits_in_domain; exact Hi|]. split; [exact Dc | exact E].
Qed.

(** The statement on a tree's indices. *)
Definition htiles (t : htree) (C : layout) (N : nat) : Prop :=
  (forall i xc, i < hsize t -> in_domain C xc -> heval t i + eval C xc < N) /\
  (forall i xc j yc, i < hsize t -> in_domain C xc -> j < hsize t -> in_domain C yc ->
     heval t i + eval C xc = heval t j + eval C yc -> i = j /\ xc = yc) /\
  (forall v, v < N -> exists i xc, i < hsize t /\ in_domain C xc /\ heval t i + eval C xc = v).

Lemma htiles_iff : forall t C N, hpos t -> htiles t C N <-> tiles (hflatten t) C N.
Proof.
  intros t C N P. rewrite tiles_itiles. unfold htiles, itiles.
  rewrite hsize_flatten.
  assert (E : forall i, heval t i = eval_idx (hflatten t) i) by (intros; apply flatten_preserves_eval, P).
  split; intros [T1 [T2 T3]]; (split; [|split]).
  - intros i xc Hi Dc. rewrite <- E. apply T1; assumption.
  - intros i xc j yc Hi Dc Hj Dyc Eq. rewrite <- !E in Eq. apply T2; assumption.
  - intros v Hv. destruct (T3 v Hv) as [i [xc [Hi [Dc Ev]]]]. exists i, xc.
    rewrite <- E. auto.
  - intros i xc Hi Dc. rewrite E. apply T1; assumption.
  - intros i xc j yc Hi Dc Hj Dyc Eq. rewrite !E in Eq. apply T2; assumption.
  - intros v Hv. destruct (T3 v Hv) as [i [xc [Hi [Dc Ev]]]]. exists i, xc.
    rewrite E. auto.
Qed.

Theorem complementSZ_nested : forall t cot C N0, hpos t -> 1 <= N0 -> htiles t C N0 ->
  Forall (fun s => 1 <= s) cot ->
  exists R N, complementSZ (map zmode_of (hflatten t)) (map Z.of_nat cot) = Some (map zmode_of R) /\
              fold_right Nat.mul 1 cot <= N /\ htiles t R N.
Proof.
  intros t cot C N0 P HN0 T Pc. apply (htiles_iff t C N0 P) in T.
  destruct (complementSZ_complete_and_sound (hflatten t) cot C N0 HN0 T Pc) as [R [N [E [HM T']]]].
  exists R, N. split; [exact E|]. split; [exact HM|]. apply htiles_iff; assumption.
Qed.

Corollary complementSZ_nested_none : forall t cot, hpos t ->
  complementSZ (map zmode_of (hflatten t)) cot = None -> forall C N, 1 <= N -> ~ htiles t C N.
Proof.
  intros t cot P E C N HN T. apply (htiles_iff t C N P) in T.
  exact (complementSZ_none_no_complement (hflatten t) cot E C N HN T).
Qed.
