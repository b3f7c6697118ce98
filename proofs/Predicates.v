(** * Predicates over a whole transform DAG (issue 14, item 6, the rule set)

    [crates/tessera/src/domain/predicate.rs] derives the predicate of a
    schedule with Horn rules ([rules_assuming]), one group per propagation
    step, then drops every in-bound condition that the rules prove from the
    others ([derive_by_theorems]; a [Justification] per dropped condition,
    acyclic).  This file models one loop point of any DAG: each IterDomain
    [v] has an extent [ext v] and an index [idx v]; each step relates them
    as nvFuser's index maps do; [rules_of_step] lists the rules Rust emits
    for a step, condition for condition.

    Proved:
    - [rule_sound]: every rule of every step is sound at every point that
      satisfies the step's index map (the loop axiom holds at loop points);
    - [derivation_sound]: if the chosen conditions and the loop IDs are in
      bound, every condition dropped with a rule justification is in bound;
    - [predicate_iff_no_hole]: hence when every IterDomain is chosen, a loop
      ID, or dropped by a rule, the chosen conditions hold iff no IterDomain
      is out of bound ("no hole");
    - [derivation_sound_acyclic], [predicate_iff_no_hole_acyclic]: the
      same for a list of justifications in any order whose premises never
      form a cycle (Rust lists them in candidate order).

    The flags [divisible] and [closed] stand for Rust's decisions
    [split_divisible] and [xor_closed]; [Symbolic.v] proves that their
    [Yes] means what [step_valid] says.  Theorem 5 as a congruence is
    [Normalize.v]; [Closure.v] proves that Rust's worklist closure yields
    an [acyclic_justified] list; [EnumPass.v] the enumeration pass that
    drops the rest on concrete extents; [Plan.v] that any plan computing
    each index once gives indices satisfying [step_valid]. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import Swizzle.

Open Scope Z_scope.

(** A propagation step: the transform, and for split and merge the
    direction Rust propagates the index in ([back]: from the outputs to the
    input). [divisible] and [closed] are the outcomes of Rust's
    [split_divisible] and [xor_closed]. *)
Inductive step : Type :=
| SSplit (input outer inner : nat) (back divisible : bool)
| SMerge (outer inner output : nat) (back : bool)
| SResize (input output : nat) (l r : Z)
| SSwizzle (x y ox oy : nat) (closed : bool).

Definition inb (ext idx : nat -> Z) (v : nat) : Prop := 0 <= idx v < ext v.

(** The index map of a step at one point, and what the flags mean. *)
Definition step_valid (ext idx : nat -> Z) (st : step) : Prop :=
  match st with
  | SSplit input outer inner back divisible =>
      0 < ext inner /\ ext input <= ext outer * ext inner /\
      idx input = idx outer * ext inner + idx inner /\
      (back = false -> idx inner = idx input mod ext inner) /\
      (divisible = true -> ext input = ext outer * ext inner)
  | SMerge outer inner output back =>
      0 < ext inner /\ ext output = ext outer * ext inner /\
      idx output = idx outer * ext inner + idx inner /\
      (back = true -> idx inner = idx output mod ext inner)
  | SResize input output l r =>
      ext output = ext input + l + r /\ idx input = idx output - l
  | SSwizzle x y ox oy closed =>
      ext ox = ext x /\ ext oy = ext y /\ idx ox = idx x /\
      idx oy = Z.lxor (idx x) (idx y) /\
      (closed = true -> exists k, 0 <= k /\ ext y = 2 ^ k /\ ext x <= ext y)
  end.

(** A Horn rule: premises, conclusion. *)
Definition rule : Type := (list nat * nat)%type.

(** The rules [rules_assuming] emits for a step, in its order. *)
Definition rules_of_step (st : step) : list rule :=
  match st with
  | SSplit input outer inner back divisible =>
      [([input; inner], outer)] ++
      (if divisible then [([outer; inner], input)] else []) ++
      (if back then [] else [([], inner)])
  | SMerge outer inner output back =>
      (if back then [([], inner)] else []) ++
      [([output; inner], outer); ([outer; inner], output)]
  | SResize input output l r =>
      (if (0 <=? l) && (0 <=? r) then [([input], output)] else []) ++
      (if (l <=? 0) && (r <=? 0) then [([output], input)] else [])
  | SSwizzle x y ox oy closed =>
      [([x], ox); ([ox], x)] ++
      (if closed then [([ox; oy], y); ([x; y], oy)] else [])
  end.

Definition rule_holds (ext idx : nat -> Z) (ru : rule) : Prop :=
  (forall p, In p (fst ru) -> inb ext idx p) -> inb ext idx (snd ru).

(** XOR keeps [\[0, 2^k)]. *)
Lemma lxor_range : forall k a b, 0 <= k -> 0 <= a < 2 ^ k -> 0 <= b < 2 ^ k ->
  0 <= Z.lxor a b < 2 ^ k.
Proof.
  intros k a b Hk Ha Hb. apply range_bits in Ha, Hb; try exact Hk.
  apply range_bits; [exact Hk|]. destruct Ha as [Ha0 Ha]. destruct Hb as [Hb0 Hb].
  split; [apply Z.lxor_nonneg; split; intros; assumption|].
  intros n Hn. rewrite Z.lxor_spec, Ha, Hb by exact Hn. reflexivity.
Qed.

Theorem rule_sound : forall ext idx st, step_valid ext idx st ->
  forall ru, In ru (rules_of_step st) -> rule_holds ext idx ru.
Proof.
  intros ext idx st V ru Hin H. unfold inb in *.
  destruct st as [input outer inner back divisible|outer inner output back|input output l r
                 |x y ox oy closed]; simpl in V.
  - destruct V as [Hn2 [Hext [Hidx [Hback Hdiv]]]].
    simpl in Hin. destruct Hin as [Hin|Hin].
    + subst ru. simpl in *.
      pose proof (H input (or_introl eq_refl)). pose proof (H inner (or_intror (or_introl eq_refl))).
      nia.
    + apply in_app_iff in Hin. destruct Hin as [Hin|Hin].
      * destruct divisible; [|destruct Hin]. destruct Hin as [<-|[]]. simpl in *.
        specialize (Hdiv eq_refl).
        pose proof (H outer (or_introl eq_refl)). pose proof (H inner (or_intror (or_introl eq_refl))).
        nia.
      * destruct back; [destruct Hin|]. destruct Hin as [<-|[]]. simpl.
        rewrite (Hback eq_refl). apply Z.mod_pos_bound. exact Hn2.
  - destruct V as [Hn2 [Hext [Hidx Hback]]].
    simpl in Hin. apply in_app_iff in Hin. destruct Hin as [Hin|Hin].
    + destruct back; [|destruct Hin]. destruct Hin as [<-|[]]. simpl.
      rewrite (Hback eq_refl). apply Z.mod_pos_bound. exact Hn2.
    + destruct Hin as [<-|[<-|[]]]; simpl in *.
      * pose proof (H output (or_introl eq_refl)). pose proof (H inner (or_intror (or_introl eq_refl))).
        nia.
      * pose proof (H outer (or_introl eq_refl)). pose proof (H inner (or_intror (or_introl eq_refl))).
        nia.
  - destruct V as [Hext Hidx].
    simpl in Hin. apply in_app_iff in Hin. destruct Hin as [Hin|Hin].
    + destruct ((0 <=? l) && (0 <=? r)) eqn:E; [|destruct Hin].
      apply andb_prop in E. destruct E as [E1 E2]. apply Z.leb_le in E1, E2.
      destruct Hin as [<-|[]]. simpl in *. pose proof (H input (or_introl eq_refl)). lia.
    + destruct ((l <=? 0) && (r <=? 0)) eqn:E; [|destruct Hin].
      apply andb_prop in E. destruct E as [E1 E2]. apply Z.leb_le in E1, E2.
      destruct Hin as [<-|[]]. simpl in *. pose proof (H output (or_introl eq_refl)). lia.
  - destruct V as [Hex [Hey [Hix [Hiy Hclosed]]]].
    simpl in Hin. destruct Hin as [<-|[<-|Hin]].
    + simpl in *. pose proof (H x (or_introl eq_refl)). lia.
    + simpl in *. pose proof (H ox (or_introl eq_refl)). lia.
    + destruct closed; [|destruct Hin]. destruct (Hclosed eq_refl) as [k [Hk [Ey Exy]]].
      destruct Hin as [<-|[<-|[]]]; simpl in *.
      * pose proof (H ox (or_introl eq_refl)). pose proof (H oy (or_intror (or_introl eq_refl))).
        assert (Ey' : idx y = Z.lxor (idx ox) (idx oy)).
        { rewrite Hiy, Hix, <- Z.lxor_assoc, Z.lxor_nilpotent, Z.lxor_0_l. reflexivity. }
        rewrite Ey', Ey. apply lxor_range; [exact Hk| |]; lia.
      * pose proof (H x (or_introl eq_refl)). pose proof (H y (or_intror (or_introl eq_refl))).
        rewrite Hiy, Hey, Ey. apply lxor_range; [exact Hk| |]; lia.
Qed.

(** ** The derivation *)

(** A dropped condition: the IterDomain and the premises of the rule that
    dropped it. *)
Definition justification : Type := (nat * list nat)%type.

(** Rust's invariant on [Derivation::dropped] (rule-justified part): each
    entry is a rule of some step, and each premise is chosen, a loop ID, or
    dropped earlier. *)
Fixpoint justified (steps : list step) (known : list nat) (js : list justification) : Prop :=
  match js with
  | [] => True
  | (v, ps) :: js' =>
      (exists st, In st steps /\ In (ps, v) (rules_of_step st)) /\
      (forall p, In p ps -> In p known) /\
      justified steps (v :: known) js'
  end.

Theorem derivation_sound : forall ext idx steps known js,
  Forall (step_valid ext idx) steps ->
  (forall v, In v known -> inb ext idx v) ->
  justified steps known js ->
  forall v ps, In (v, ps) js -> inb ext idx v.
Proof.
  intros ext idx steps known js V. revert known.
  induction js as [|[w qs] js IH]; intros known K J v ps Hin; [destruct Hin|].
  destruct J as [[st [Hst Hru]] [Hps J']].
  assert (Hw : inb ext idx w).
  { rewrite Forall_forall in V.
    apply (rule_sound ext idx st (V st Hst) (qs, w) Hru).
    simpl. intros p Hp. apply K, Hps, Hp. }
  destruct Hin as [E|Hin].
  - injection E as -> ->. exact Hw.
  - apply (IH (w :: known)) with ps; [|exact J'|exact Hin].
    intros u [<-|Hu]; [exact Hw | apply K, Hu].
Qed.

(** The predicate is equivalent to "no hole": at a loop point (loop IDs in
    bound) that satisfies every step, if every IterDomain is chosen, a loop
    ID or dropped by a rule, then the chosen conditions hold iff every
    IterDomain is in bound. *)
Theorem predicate_iff_no_hole : forall ext idx steps loops chosen js (ids : list nat),
  Forall (step_valid ext idx) steps ->
  (forall v, In v loops -> inb ext idx v) ->
  justified steps (chosen ++ loops) js ->
  (forall v, In v ids -> In v chosen \/ In v loops \/ exists ps, In (v, ps) js) ->
  (forall v, In v chosen -> In v ids) ->
  ((forall v, In v chosen -> inb ext idx v) <-> (forall v, In v ids -> inb ext idx v)).
Proof.
  intros ext idx steps loops chosen js ids V L J Cover Sub. split.
  - intros C v Hv. destruct (Cover v Hv) as [Hc|[Hl|[ps Hj]]].
    + apply C, Hc.
    + apply L, Hl.
    + apply (derivation_sound ext idx steps (chosen ++ loops) js V) with ps; [|exact J|exact Hj].
      intros u Hu. apply in_app_iff in Hu. destruct Hu; [apply C | apply L]; assumption.
  - intros A v Hv. apply A, Sub, Hv.
Qed.

(** Rust's [Derivation::dropped] lists the dropped conditions in its
    candidate order, not in proof order; its invariant is that "premises
    never form a cycle".  [acyclic_justified]: every entry is a rule of
    some step, and some ranking puts every premise that is not known
    (chosen or loop) at a dropped entry of smaller rank.  This needs no
    order on the list. *)
Definition acyclic_justified (steps : list step) (known : list nat) (js : list justification) : Prop :=
  (forall v ps, In (v, ps) js -> exists st, In st steps /\ In (ps, v) (rules_of_step st)) /\
  exists rank : nat -> nat, forall v ps, In (v, ps) js -> forall p, In p ps ->
    In p known \/ exists ps', In (p, ps') js /\ (rank p < rank v)%nat.

Theorem derivation_sound_acyclic : forall ext idx steps known js,
  Forall (step_valid ext idx) steps ->
  (forall v, In v known -> inb ext idx v) ->
  acyclic_justified steps known js ->
  forall v ps, In (v, ps) js -> inb ext idx v.
Proof.
  intros ext idx steps known js V K [Rules [rank Rk]].
  assert (H : forall n v ps, rank v = n -> In (v, ps) js -> inb ext idx v).
  { intros n. induction n as [n IH] using (well_founded_induction lt_wf).
    intros v ps Hn Hin.
    destruct (Rules v ps Hin) as [st [Hst Hru]].
    rewrite Forall_forall in V.
    apply (rule_sound ext idx st (V st Hst) (ps, v) Hru). simpl.
    intros p Hp. destruct (Rk v ps Hin p Hp) as [Kp|[ps' [Hin' Hlt]]].
    - apply K, Kp.
    - apply (IH (rank p)) with ps'; [lia | reflexivity | exact Hin']. }
  intros v ps Hin. apply (H (rank v) v ps eq_refl Hin).
Qed.

(** Hence the predicate is equivalent to "no hole" for Rust's list as it
    is ordered. *)
Theorem predicate_iff_no_hole_acyclic : forall ext idx steps loops chosen js (ids : list nat),
  Forall (step_valid ext idx) steps ->
  (forall v, In v loops -> inb ext idx v) ->
  acyclic_justified steps (chosen ++ loops) js ->
  (forall v, In v ids -> In v chosen \/ In v loops \/ exists ps, In (v, ps) js) ->
  (forall v, In v chosen -> In v ids) ->
  ((forall v, In v chosen -> inb ext idx v) <-> (forall v, In v ids -> inb ext idx v)).
Proof.
  intros ext idx steps loops chosen js ids V L J Cover Sub. split.
  - intros C v Hv. destruct (Cover v Hv) as [Hc|[Hl|[ps Hj]]].
    + apply C, Hc.
    + apply L, Hl.
    + apply (derivation_sound_acyclic ext idx steps (chosen ++ loops) js V) with ps; [|exact J|exact Hj].
      intros u Hu. apply in_app_iff in Hu. destruct Hu; [apply C | apply L]; assumption.
  - intros A v Hv. apply A, Sub, Hv.
Qed.

(** Example: the three-splits example's first split, [I1, I2 = split I0 by 6] with
    [E(I0) = 32] (indivisible), propagated backward: Theorem 1 drops [I1]
    given [I0] and [I2]. *)
Example split_rule_example :
  In ([0%nat; 2%nat], 1%nat) (rules_of_step (SSplit 0 1 2 true false)).
Proof. simpl. auto. Qed.

Close Scope Z_scope.
