(** * [complement] without a cotarget (issue 28, item 5)

    [crates/tessera/src/symbolic/ops.rs]'s [complement(ctx, A, None)]
    takes [cosize(A)] as its cotarget: [cosize_node] sums, over A's leaves
    in order, [(s - 1) * |d|] onto [1], deciding [d >= 0] for each leaf by
    [Ctx::branch] (preferred side [true]; a guard when undecided) and
    negating [d] ([d.scale(-1)], here [d * -1]) on the other side; then it
    runs [complement] with that cotarget ([SymbolicOps.v]'s
    [scomplement]).  [scosize] and [scomplement_nc] transcribe it as one
    guarded run.

    Proved:
    - [scosize_value]: wherever the concrete run of [scosize] returns [m],
      [m] evaluates to [1 + sum of (s - 1) * |d|] over A's leaves
      ([ccosize]), the cosize of A's function for extents [>= 1];
    - [scomplement_nc_tiles]: [scomplement_tiles] for this cotarget:
      wherever the concrete run returns [C], A's kept leaves (stride [!= 0],
      size [!= 1]) reordered by the sort, interleaved with the complement's
      modes before the coalesce, form a compact layout of size
      [N >= ccosize], and [C] computes those modes on their domain;
    - [complement_nc_guards_sufficient]: the same at every assignment
      satisfying the facts and the guards Rust returns (those of [cosize]
      and of [complement] together), for any oracle sound for them. *)

From Coq Require Import Arith Lia List ZArith Bool Permutation.
Import ListNotations.
From Tessera Require Import SymbolicFacts SymbolicOps.

Open Scope Z_scope.

(** [cosize_node] from the accumulator [acc]. *)
Fixpoint scosize_go (ls : list (sexpr * sexpr)) (acc : sexpr) : gcomp spred sexpr :=
  match ls with
  | [] => GRet acc
  | (s, d) :: r =>
      GBranch (gep d (SC 0)) true (fun b =>
        let ad := if b then d else SMul d (SC (-1)) in
        scosize_go r (SAdd acc (SMul (SSub s (SC 1)) ad)))
  end.

Definition scosize (a : stree) : gcomp spred sexpr := scosize_go (sleaves a) (SC 1).

(** [complement(A, None)]. *)
Definition scomplement_nc (H : hooks) (a : stree) : gcomp spred stree :=
  gbind (scosize a) (fun m => scomplement H a m).

(** The cosize at an assignment: [1 + Σ (s - 1)·|d|]. *)
Fixpoint csum (e : env) (ls : list (sexpr * sexpr)) : Z :=
  match ls with
  | [] => 0
  | (s, d) :: r => (seval e s - 1) * Z.abs (seval e d) + csum e r
  end.

Definition ccosize (e : env) (a : stree) : Z := 1 + csum e (sleaves a).

Lemma scosize_go_value : forall e ls acc m,
  crun (sholds e) (scosize_go ls acc) = Some m -> seval e m = seval e acc + csum e ls.
Proof.
  intros e ls. induction ls as [| [s d] r IH]; intros acc m Hr; cbn in Hr |- *.
  - injection Hr as <-. lia.
  - destruct (0 <=? seval e d) eqn:D.
    + rewrite (IH _ m Hr). cbn [seval]. apply Z.leb_le in D.
      rewrite (Z.abs_eq (seval e d) D). ring.
    + rewrite (IH _ m Hr). cbn [seval]. apply Z.leb_gt in D.
      rewrite (Z.abs_neq (seval e d)) by lia. ring.
Qed.

Theorem scosize_value : forall e a m,
  crun (sholds e) (scosize a) = Some m -> seval e m = ccosize e a.
Proof.
  intros e a m Hr. unfold ccosize. rewrite (scosize_go_value e _ _ m Hr). reflexivity.
Qed.

Lemma csum_nonneg : forall e ls, pos_l e ls -> 0 <= csum e ls.
Proof.
  intros e ls Hp. induction Hp as [| [s d] r Hs _ IH]; cbn in *; [lia|].
  pose proof (Z.abs_nonneg (seval e d)). nia.
Qed.

(** [complement(A, None)] is [complement(A, cosize A)]: wherever its
    concrete run returns [C], the statement of [scomplement_tiles] holds
    with the cotarget [ccosize e A]. *)
Theorem scomplement_nc_tiles : forall H e b C,
  hooks_sound H e -> pos_l e (sleaves b) ->
  crun (sholds e) (scomplement_nc H b) = Some C ->
  exists so res,
    Permutation (filter (fun sd => negb (seval e (snd sd) =? 0) && negb (seval e (fst sd) =? 1))%bool
                   (sleaves b)) so /\
    pos_l e (interleave so res) /\
    (forall i, 0 <= i < prodB e (interleave so res) -> evalB e (interleave so res) i = i) /\
    ccosize e b <= prodB e (interleave so res) /\
    prodB e res <= prodB e (sleaves C) /\
    (forall y, 0 <= y < prodB e res -> evalB e (sleaves C) y = evalB e res y).
Proof.
  intros H e b C HS Hb Hr. unfold scomplement_nc in Hr. rewrite crun_bind in Hr.
  destruct (crun (sholds e) (scosize b)) as [m|] eqn:Cm; [|discriminate].
  pose proof (scosize_value e b m Cm) as Vm.
  assert (Hm : 1 <= seval e m)
    by (rewrite Vm; unfold ccosize; pose proof (csum_nonneg e _ Hb); lia).
  rewrite <- Vm. exact (scomplement_tiles H e b m C HS Hb Hm Hr).
Qed.

(** Under the facts and the guards Rust returns (the cosize's branches and
    the complement's together), for any oracle sound for them. *)
Theorem complement_nc_guards_sufficient : forall (sat : env -> Prop)
    (dec : list spred -> spred -> option bool) H b C gs,
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  srun dec snegate [] (scomplement_nc H b) = Some (C, gs) ->
  forall e, sat e -> (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  pos_l e (sleaves b) ->
  exists so res,
    Permutation (filter (fun sd => negb (seval e (snd sd) =? 0) && negb (seval e (fst sd) =? 1))%bool
                   (sleaves b)) so /\
    pos_l e (interleave so res) /\
    (forall i, 0 <= i < prodB e (interleave so res) -> evalB e (interleave so res) i = i) /\
    ccosize e b <= prodB e (interleave so res) /\
    prodB e res <= prodB e (sleaves C) /\
    (forall y, 0 <= y < prodB e res -> evalB e (sleaves C) y = evalB e res y).
Proof.
  intros sat dec H b C gs Hdec Hrun e He Hg HS Hb.
  apply (scomplement_nc_tiles H e b C HS Hb).
  exact (sop_run_sound _ sat dec Hdec _ C gs Hrun e He Hg).
Qed.
