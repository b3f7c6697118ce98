(** * The bridge for complement (issue 14, items 3 and 7)

    [complementZ A M] is Rust's [complement(A, M)] for an integer cotarget
    [M >= 1] ([complement.rs]: [complement] and [complement_filtered]),
    step for step: filter (stride-0 modes become [1:0], then Rust's
    coalesce), the constant case, a stable sort by stride, the
    tractability test, the modes [comp_go], the rest [ceil(M / reach)]
    (stride 0 when it is 1), and Rust's coalesce.  [None] stands for
    Rust's errors ([NotComplementable], [NonInjective]).

    Proved: in the tractable branch the result is the image under
    [Z.of_nat] of [rust_coalesce (complement_of A' rest)]
    ([complementZ_tractable]), whose function tiles [\[0, N)] with
    [N >= M] ([ComplementAny.complement_tiles],
    [complement_covers_cotarget]) and is unchanged by the coalesce
    ([CoalesceImpl.rust_coalesce_preserves_eval]).  The filter, the sort
    and the constant case are transcribed, not proved. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Model Coalesce Confluence CoalesceImpl ComplementAny Bridge.

Open Scope Z_scope.

Fixpoint comp_goZ (A : list zmode) (p : Z) : list zmode :=
  match A with
  | [] => []
  | m :: A' => ZMode (zstride m / p) p :: comp_goZ A' (zstride m * zextent m)
  end.

Fixpoint reachZ (A : list zmode) (p : Z) : Z :=
  match A with
  | [] => p
  | m :: A' => reachZ A' (zstride m * zextent m)
  end.

(** Rust's test: strides non-negative (the first at least 1 after the
    filter) and [s_i d_i] divides [d_(i+1)]. *)
Fixpoint tractableb (A : list zmode) (p : Z) : bool :=
  match A with
  | [] => true
  | m :: A' => (1 <=? zextent m) && (1 <=? zstride m) && (zstride m mod p =? 0) &&
               tractableb A' (zstride m * zextent m)
  end.

(** Stable insertion sort by stride (Rust's [sort_by_key] is stable). *)
Fixpoint insert_by_stride (m : zmode) (l : list zmode) : list zmode :=
  match l with
  | [] => [m]
  | x :: l' => if zstride m <? zstride x then m :: l else x :: insert_by_stride m l'
  end.

Definition sort_by_stride (l : list zmode) : list zmode :=
  fold_left (fun acc m => insert_by_stride m acc) l [].

Definition filterZ (A : list zmode) : list zmode :=
  rust_coalesceZ (map (fun m => if zstride m =? 0 then ZMode 1 0 else m) A).

Definition ceil_divZ (a b : Z) : Z := (a + b - 1) / b.

Definition complement_tailZ (s : list zmode) (M : Z) : list zmode :=
  let r := reachZ s 1 in
  let rest := ceil_divZ M r in
  rust_coalesceZ (comp_goZ s 1 ++ [ZMode rest (if rest =? 1 then 0 else r)]).

Definition complementZ (A : list zmode) (M : Z) : option (list zmode) :=
  let f := filterZ A in
  match f with
  | [m] => if zstride m =? 0 then Some [if M =? 1 then ZMode 1 0 else ZMode M 1]
           else let s := sort_by_stride f in
                if tractableb s 1 then Some (complement_tailZ s M) else None
  | _ => let s := sort_by_stride f in
         if tractableb s 1 then Some (complement_tailZ s M) else None
  end.

Close Scope Z_scope.

(** ** Agreement with the proved [nat] model *)

Lemma comp_goZ_of_nat : forall A p,
  comp_goZ (map zmode_of A) (Z.of_nat p) = map zmode_of (comp_go A p).
Proof.
  induction A as [|m A IH]; intros p; [reflexivity|].
  simpl. rewrite <- Nat2Z.inj_mul, IH. unfold zmode_of at 2. simpl.
  rewrite Nat2Z.inj_div. reflexivity.
Qed.

Lemma reachZ_of_nat : forall A p, reachZ (map zmode_of A) (Z.of_nat p) = Z.of_nat (reach A p).
Proof.
  induction A as [|m A IH]; intros p; [reflexivity|].
  simpl. rewrite <- Nat2Z.inj_mul. apply IH.
Qed.

Lemma tractableb_of_nat : forall A p, (1 <= p)%nat ->
  tractableb (map zmode_of A) (Z.of_nat p) = true -> tractable_from A p.
Proof.
  induction A as [|m A IH]; intros p Hp H; simpl in *; [exact I|].
  rewrite <- Nat2Z.inj_mul in H.
  apply andb_prop in H. destruct H as [H H3]. apply andb_prop in H. destruct H as [H H2].
  apply andb_prop in H. destruct H as [H0 H1].
  apply Z.leb_le in H0, H1. apply Z.eqb_eq in H2.
  split; [lia|]. split; [lia|]. split.
  - apply Nat.mod_divide; [lia|]. apply Nat2Z.inj. rewrite Nat2Z.inj_mod. exact H2.
  - apply IH; [nia | exact H3].
Qed.

(** The stride of a final unit mode does not matter to Rust's coalesce. *)
Lemma fold_unit_last : forall init d1 d2,
  (fold_right bw_stepZ [ZMode 1 d1] init = [ZMode 1 d1] /\
   fold_right bw_stepZ [ZMode 1 d2] init = [ZMode 1 d2]) \/
  fold_right bw_stepZ [ZMode 1 d1] init = fold_right bw_stepZ [ZMode 1 d2] init.
Proof.
  induction init as [|m init IH]; intros d1 d2; [left; auto|].
  simpl. destruct (IH d1 d2) as [[E1 E2]|E].
  - rewrite E1, E2. unfold bw_stepZ. destruct (Z.eqb (zextent m) 1); [left; auto|].
    simpl. right. reflexivity.
  - right. rewrite E. reflexivity.
Qed.

Lemma rust_coalesceZ_unit_last : forall init d1 d2,
  rust_coalesceZ (init ++ [ZMode 1 d1]) = rust_coalesceZ (init ++ [ZMode 1 d2]).
Proof.
  intros init d1 d2. unfold rust_coalesceZ. rewrite !rev_app_distr. simpl.
  rewrite !rev_involutive.
  destruct (fold_unit_last init d1 d2) as [[E1 E2]|E].
  - rewrite E1, E2. reflexivity.
  - rewrite E. reflexivity.
Qed.

Lemma tractable_pos : forall A p, tractable_from A p -> Forall (fun m => (1 <= extent m)%nat) A.
Proof.
  induction A as [|m A IH]; intros p T; [constructor|].
  destruct T as [He [_ [_ T]]]. constructor; [exact He | apply (IH _ T)].
Qed.

(** In the tractable branch, Rust's complement is the coalesced proved
    complement. *)
Theorem complementZ_tractable : forall A' M, (1 <= M)%nat ->
  tractableb (map zmode_of A') 1 = true ->
  tractable A' /\
  complement_tailZ (map zmode_of A') (Z.of_nat M) =
  map zmode_of (rust_coalesce (complement_of A' ((M + reach A' 1 - 1) / reach A' 1))).
Proof.
  intros A' M HM T. apply (tractableb_of_nat A' 1 ltac:(lia)) in T as T'.
  split; [exact T'|].
  assert (Hr : (1 <= reach A' 1)%nat).
  { apply reach_pos; [lia| |exact T'].
    exact (tractable_pos A' 1 T'). }
  unfold complement_tailZ, complement_of.
  change 1%Z with (Z.of_nat 1). rewrite reachZ_of_nat, comp_goZ_of_nat.
  set (r := reach A' 1). set (rest := ((M + r - 1) / r)%nat).
  assert (Er : ceil_divZ (Z.of_nat M) (Z.of_nat r) = Z.of_nat rest).
  { unfold ceil_divZ, rest. rewrite Nat2Z.inj_div, Nat2Z.inj_sub by lia.
    rewrite Nat2Z.inj_add. reflexivity. }
  rewrite Er, <- rust_coalesceZ_of_nat, map_app.
  change (Z.of_nat 1) with 1%Z.
  destruct (Z.eqb (Z.of_nat rest) 1) eqn:E1.
  - apply Z.eqb_eq in E1. replace rest with 1%nat by lia.
    apply rust_coalesceZ_unit_last.
  - reflexivity.
Qed.
