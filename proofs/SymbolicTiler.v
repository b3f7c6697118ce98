(** * [logical_divide] by a tuple tiler (issue 28, item 5)

    [crates/tessera/src/symbolic/ops.rs]'s [by_mode] applies the one-mode
    divide mode by mode along a tuple tiler: [Tiler::Under] leaves the mode
    alone, [Tiler::Layout B] is [divide_part] ([SymbolicOps.v]'s [sdivide]:
    [A ∘ (B, complement(B, size A))]), [Tiler::Tuple ts] takes A's modes (a
    leaf is its own single mode), refuses a tiler of larger rank
    ([SymError::Unsupported]), runs [ts.(i)] on mode [i] in order, and keeps
    the modes beyond the tiler.  All of it runs in one [Ctx]: the guards of
    every mode accumulate.  [stile] transcribes it as one guarded
    computation (the result is [None] where Rust returns [Unsupported]);
    [divide_part]'s closed form for a leaf divided by a compact constant
    tile is not modelled (Rust takes it only when untraced;
    [tests/symbolic/fast_paths.rs] compares it with the general path).

    Proved:
    - [stile_concrete]: wherever the concrete run (every condition evaluated
      at an assignment) returns [Some R], R is, mode by mode, what the
      concrete one-mode runs return ([tiled]): the mode itself under [_],
      the concrete run of [sdivide] on that mode under a layout, recursively
      under a tuple, the modes beyond the tiler unchanged;
    - [tiler_divide_guards_sufficient]: for any oracle sound for the facts
      and the guards so far, when Rust's run returns [(Some R, gs)], at
      every assignment satisfying the facts and ALL of [gs] (the guards of
      every mode together), R is mode by mode the concrete one-mode result,
      so that ([tiled_sem], [tiled_correct]) every divided mode [R_i] is
      [A_i ∘ (B_i, C_i)] with [C_i] the complement its run computes: the
      size of [(B_i, C_i)] and [R_i(c) = A_i((B_i, C_i)(c))] where the image
      is in [A_i]'s domain ([sdivide_correct]'s statement, for each mode
      with positive extents and a leaf).  The sequencing needs no lemma of
      its own: the whole tiled run is one [gcomp], and [sop_run_sound]
      holds for any [gcomp]; [crun_bind] then splits the concrete run. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import SymbolicFacts SymbolicOps.

Open Scope Z_scope.

(** ** Tilers *)

Inductive stiler : Type :=
| TUnder
| TLayout (b : stree)
| TTuple (ts : list stiler).

(** Induction with the hypothesis for every component of a tuple. *)
Fixpoint stiler_ind' (P : stiler -> Prop) (HU : P TUnder) (HL : forall b, P (TLayout b))
    (HT : forall ts, Forall P ts -> P (TTuple ts)) (t : stiler) {struct t} : P t :=
  match t with
  | TUnder => HU
  | TLayout b => HL b
  | TTuple ts => HT ts ((fix go (ts : list stiler) : Forall P ts :=
      match ts with
      | [] => Forall_nil P
      | t0 :: r => Forall_cons t0 (stiler_ind' P HU HL HT t0) (go r)
      end) ts)
  end.

(** A's modes as [by_mode] reads them: a leaf is its own single mode. *)
Definition smodes (a : stree) : list stree :=
  match a with SLeaf _ _ => [a] | STuple ms => ms end.

(** Sequencing with Rust's [?] on [Unsupported]. *)
Definition obind {A B : Type} (c : gcomp spred (option A)) (f : A -> gcomp spred (option B))
    : gcomp spred (option B) :=
  gbind c (fun o => match o with Some x => f x | None => GRet None end).

(** [by_mode] with [divide_part_general]. *)
Fixpoint stile (H : hooks) (t : stiler) (a : stree) {struct t} : gcomp spred (option stree) :=
  match t with
  | TUnder => GRet (Some a)
  | TLayout b => gbind (sdivide H a b) (fun r => GRet (Some r))
  | TTuple ts =>
      if (length ts <=? length (smodes a))%nat then
        obind ((fix go (ts : list stiler) (ms : list stree) : gcomp spred (option (list stree)) :=
                  match ms with
                  | [] => GRet (Some [])
                  | m :: ms' =>
                      match ts with
                      | [] => GRet (Some (m :: ms'))
                      | t0 :: ts' =>
                          obind (stile H t0 m) (fun r =>
                            obind (go ts' ms') (fun rs => GRet (Some (r :: rs))))
                      end
                  end) ts (smodes a))
              (fun rs => GRet (Some (STuple rs)))
      else GRet None
  end.

(** ** Mode by mode, the concrete one-mode result *)

(** [tiled H e t a R]: R is A tiled by t, each divided mode being what the
    concrete one-mode run [sdivide] returns at [e]. *)
Fixpoint tiled (H : hooks) (e : env) (t : stiler) (a R : stree) {struct t} : Prop :=
  match t with
  | TUnder => R = a
  | TLayout b => crun (sholds e) (sdivide H a b) = Some R
  | TTuple ts =>
      exists rs, R = STuple rs /\
      (fix all (ts : list stiler) (ms rs : list stree) : Prop :=
         match ms, rs with
         | [], [] => True
         | m :: ms', r :: rs' =>
             match ts with
             | [] => ms = rs
             | t0 :: ts' => tiled H e t0 m r /\ all ts' ms' rs'
             end
         | _, _ => False
         end) ts (smodes a) rs
  end.

Lemma crun_obind : forall (A B : Type) h (c : gcomp spred (option A)) (f : A -> gcomp spred (option B)) r,
  crun h (obind c f) = Some (Some r) ->
  exists x, crun h c = Some (Some x) /\ crun h (f x) = Some (Some r).
Proof.
  intros A B h c f r Hr. unfold obind in Hr. rewrite crun_bind in Hr.
  destruct (crun h c) as [[x|]|]; cbn in Hr; try discriminate.
  exists x. auto.
Qed.

(** Wherever the concrete run of the tiled divide returns a layout, it is
    mode by mode the concrete one-mode result. *)
Theorem stile_concrete : forall H e t a R,
  crun (sholds e) (stile H t a) = Some (Some R) -> tiled H e t a R.
Proof.
  intros H e t. induction t as [| b | ts IH] using stiler_ind'; intros a R Hr.
  - cbn in Hr. injection Hr as <-. reflexivity.
  - cbn in Hr |- *. rewrite crun_bind in Hr.
    destruct (crun (sholds e) (sdivide H a b)) as [r|]; cbn in Hr; [|discriminate].
    injection Hr as <-. reflexivity.
  - cbn [stile] in Hr. destruct (length ts <=? length (smodes a))%nat; [|discriminate].
    apply crun_obind in Hr. destruct Hr as (rs & Hgo & Hf). cbn in Hf. injection Hf as <-.
    cbn [tiled]. exists rs. split; [reflexivity|].
    generalize dependent rs. generalize (smodes a) as ms.
    induction IH as [| t0 ts' IH0 IHall IHrec]; intros ms rs Hgo.
    + destruct ms as [|m ms']; cbn in Hgo; injection Hgo as <-; auto.
    + destruct ms as [|m ms']; cbn in Hgo.
      * injection Hgo as <-. exact I.
      * apply crun_obind in Hgo. destruct Hgo as (r & Hm & Hgo).
        apply crun_obind in Hgo. destruct Hgo as (rs' & Hrest & Hf).
        cbn in Hf. injection Hf as <-.
        split; [exact (IH0 m r Hm) | exact (IHrec ms' rs' Hrest)].
Qed.

(** ** The guards Rust returns are sufficient *)

(** For any oracle sound for the facts and the guards so far, the guards
    the tiled [logical_divide] returns (every mode's together) make its
    result, at every assignment satisfying the facts and them (and where
    the hooks are sound), mode by mode the concrete one-mode result. *)
Theorem tiler_divide_guards_sufficient : forall (sat : env -> Prop)
    (dec : list spred -> spred -> option bool) H t a R gs,
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  srun dec snegate [] (stile H t a) = Some (Some R, gs) ->
  forall e, sat e -> (forall g, In g gs -> sholds e g = true) ->
  tiled H e t a R.
Proof.
  intros sat dec H t a R gs Hdec Hrun e He Hg.
  apply stile_concrete.
  exact (sop_run_sound _ sat dec Hdec _ (Some R) gs Hrun e He Hg).
Qed.

(** ** What each divided mode computes *)

(** [sdivide_correct]'s statement for one mode: R is [A ∘ (B, C)] with C
    the complement the run computes. *)
Definition divides_as (H : hooks) (e : env) (a b R : stree) : Prop :=
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
    forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
      0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
      evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c).

(** [tiled_sem H e t a R]: R is A tiled by t, every divided mode [A_i]
    with a leaf and positive extents, by a tile [B_i] with positive
    extents, being [A_i ∘ (B_i, C_i)]. *)
Fixpoint tiled_sem (H : hooks) (e : env) (t : stiler) (a R : stree) {struct t} : Prop :=
  match t with
  | TUnder => R = a
  | TLayout b => sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
                 divides_as H e a b R
  | TTuple ts =>
      exists rs, R = STuple rs /\
      (fix all (ts : list stiler) (ms rs : list stree) : Prop :=
         match ms, rs with
         | [], [] => True
         | m :: ms', r :: rs' =>
             match ts with
             | [] => ms = rs
             | t0 :: ts' => tiled_sem H e t0 m r /\ all ts' ms' rs'
             end
         | _, _ => False
         end) ts (smodes a) rs
  end.

Theorem tiled_correct : forall H e t a R,
  hooks_sound H e -> tiled H e t a R -> tiled_sem H e t a R.
Proof.
  intros H e t. induction t as [| b | ts IH] using stiler_ind'; intros a R HS Ht.
  - exact Ht.
  - cbn in Ht |- *. intros Hne Ha Hb. exact (sdivide_correct H e a b R HS Hne Ha Hb Ht).
  - cbn [tiled] in Ht. destruct Ht as (rs & -> & Hall). cbn [tiled_sem].
    exists rs. split; [reflexivity|].
    generalize dependent rs. generalize (smodes a) as ms.
    induction IH as [| t0 ts' IH0 IHall IHrec]; intros ms rs Hall.
    + destruct ms, rs; exact Hall.
    + destruct ms as [|m ms'], rs as [|r rs']; try exact Hall.
      destruct Hall as [H0 Hrest]. split; [exact (IH0 m r HS H0) | exact (IHrec ms' rs' Hrest)].
Qed.

(** The tuple-tiler [logical_divide] under the facts and all its guards:
    every divided mode is [A_i ∘ (B_i, C_i)]. *)
Corollary tiler_divide_guards_correct : forall (sat : env -> Prop)
    (dec : list spred -> spred -> option bool) H t a R gs,
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> sholds x g = true) -> sholds x p = b) ->
  srun dec snegate [] (stile H t a) = Some (Some R, gs) ->
  forall e, sat e -> (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  tiled_sem H e t a R.
Proof.
  intros sat dec H t a R gs Hdec Hrun e He Hg HS.
  apply tiled_correct; [exact HS|].
  exact (tiler_divide_guards_sufficient sat dec H t a R gs Hdec Hrun e He Hg).
Qed.
