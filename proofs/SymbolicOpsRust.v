(** * The symbolic operations through Rust's own oracle (issue 28, item 5)

    [SymbolicOps.v] proves the guards of [composition] and
    [logical_divide] sufficient for any oracle sound for the facts and the
    guards, over [sexpr]s whose [seval] is total (a quotient by 0 is 0).
    Rust's oracle is [Ctx::decide_fast]: a guard already recorded proves
    itself and refutes its negation (compared as canonical predicates),
    else [Facts::decide_quick] on the canonical polynomials Rust builds
    ([SymbolicQuot.v]).  That oracle is sound only where the predicate is
    defined (no divisor 0: Rust's [Pred::holds] is an error there; its
    simplification [p/p = 1] is wrong at a zero divisor under [seval]).

    Here: [to_qp] builds Rust's canonical polynomial of an [sexpr]
    ([Poly::add], [sub], [mul], [floor_div], [ceil_div]; [to_qp_eval]);
    [rust_sdec] is [Ctx::decide_fast] on it, proved sound at every
    assignment satisfying the facts where the predicate and the guards are
    defined ([rust_sdec_sound]); [srun_sound_def] is [srun_sound] for such
    an oracle, for a run whose concrete conditions (those [crun] meets at
    the assignment) are defined there ([gpath]); hence
    [composition_guards_sufficient_rust] and
    [divide_guards_sufficient_rust]: the theorems of [SymbolicOps.v] with
    Rust's oracle in place of the assumed one, at every assignment where
    the conditions the concrete run meets are defined (not proved here
    from the extents being positive).  [rust_hone_sound]
    and [rust_hsame_sound]: Rust's two syntactic tests of [compose_leaf]
    ([as_const() == Some(1)], [new == rs] on canonical polynomials) are
    sound where the expressions are defined.

    [rust_sdec_s] adds [Ctx::push]'s strengthening of the facts by the
    guards of the shape of a fact (section 10c's [strengthen_all]):
    [rust_sdec_s_sound], [rust_strengthened_run_sound],
    [composition_guards_sufficient_ctx], [divide_guards_sufficient_ctx];
    the bridge checks it against Rust's [decide_fast] decision for
    decision.  The peek and [branch_typical]'s side stay hooks. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import SymbolicFacts SymbolicOps SymbolicQuot.

Open Scope Z_scope.

(** ** Rust's canonical polynomial of an expression *)

Fixpoint to_qp (s : sexpr) : option qp :=
  match s with
  | SC c => Some (qconst c)
  | SV n => Some (qatom (AN n))
  | SAdd a b => match to_qp a, to_qp b with Some x, Some y => Some (qadd x y) | _, _ => None end
  | SSub a b => match to_qp a, to_qp b with Some x, Some y => Some (qsub x y) | _, _ => None end
  | SMul a b => match to_qp a, to_qp b with Some x, Some y => Some (qmul x y) | _, _ => None end
  | SFloor a b => match to_qp a, to_qp b with Some x, Some y => qfloor_div x y | _, _ => None end
  | SCeil a b => match to_qp a, to_qp b with Some x, Some y => qceil_div x y | _, _ => None end
  end.

(** Defined: no divisor evaluates to 0. *)
Fixpoint sdef (e : env) (s : sexpr) : Prop :=
  match s with
  | SC _ | SV _ => True
  | SAdd a b | SSub a b | SMul a b => sdef e a /\ sdef e b
  | SFloor a b | SCeil a b => sdef e a /\ sdef e b /\ seval e b <> 0
  end.

Lemma to_qp_eval : forall e s q, to_qp s = Some q -> sdef e s -> qeval e q = seval e s /\ qdef e q.
Proof.
  intros e s. induction s as [c | n | a IHa b IHb | a IHa b IHb | a IHa b IHb | a IHa b IHb | a IHa b IHb];
    intros q H D; cbn [to_qp sdef seval] in *.
  - injection H as <-. split; [apply qconst_eval | apply qconst_def].
  - injection H as <-. rewrite qatom_eval. split; [reflexivity | apply qatom_def; cbn; auto].
  - destruct (to_qp a) as [x|], (to_qp b) as [y|]; try discriminate. injection H as <-.
    destruct (IHa x eq_refl (proj1 D)), (IHb y eq_refl (proj2 D)).
    rewrite qadd_eval. split; [congruence | apply qadd_def; auto].
  - destruct (to_qp a) as [x|], (to_qp b) as [y|]; try discriminate. injection H as <-.
    destruct (IHa x eq_refl (proj1 D)), (IHb y eq_refl (proj2 D)).
    rewrite qsub_eval. split; [congruence | apply qmerge_def; auto].
  - destruct (to_qp a) as [x|], (to_qp b) as [y|]; try discriminate. injection H as <-.
    destruct (IHa x eq_refl (proj1 D)), (IHb y eq_refl (proj2 D)).
    rewrite qmul_eval. split; [congruence | apply qmul_def; auto].
  - destruct (to_qp a) as [x|], (to_qp b) as [y|]; try discriminate. destruct D as [Da [Db Nb]].
    destruct (IHa x eq_refl Da) as [Ex Dx], (IHb y eq_refl Db) as [Ey Dy]. split.
    + rewrite (qfloor_div_eval e x y q H) by lia. rewrite Ex, Ey. reflexivity.
    + apply (qfloor_div_def e x y q Dx Dy); [lia | exact H].
  - destruct (to_qp a) as [x|], (to_qp b) as [y|]; try discriminate. destruct D as [Da [Db Nb]].
    destruct (IHa x eq_refl Da) as [Ex Dx], (IHb y eq_refl Db) as [Ey Dy]. split.
    + rewrite (qceil_div_eval e x y q H) by lia. rewrite Ex, Ey. reflexivity.
    + apply (qceil_div_def e x y q Dx Dy); [lia | exact H].
Qed.

Definition to_qpred (p : spred) : option qpred :=
  match to_qp (slhs p), to_qp (srhs p) with
  | Some l, Some r => Some (mkqp (srel p) l r)
  | _, _ => None
  end.

Definition sdefp (e : env) (p : spred) : Prop := sdef e (slhs p) /\ sdef e (srhs p).

Lemma to_qpred_holds : forall e p q, to_qpred p = Some q -> sdefp e p ->
  qholds e q = sholds e p /\ qpdef e q.
Proof.
  intros e [r l s] q H [Dl Ds]. unfold to_qpred in H. cbn [slhs srhs srel] in *.
  destruct (to_qp l) as [l'|] eqn:L, (to_qp s) as [s'|] eqn:S; try discriminate. injection H as <-.
  destruct (to_qp_eval e l l' L Dl) as [El Dl'], (to_qp_eval e s s' S Ds) as [Es Ds'].
  unfold qholds, sholds, qpdef. cbn [qrel qlhs qrhs srel slhs srhs]. rewrite El, Es. auto.
Qed.

Lemma snegate_def : forall e p, sdefp e p -> sdefp e (snegate p).
Proof. intros e [r l s] [Dl Ds]. unfold snegate, sdefp. destruct r; cbn; auto. Qed.

(** ** [Ctx::decide_fast] *)

Definition qpred_eqb (p q : qpred) : bool :=
  rel_eqb (qrel p) (qrel q) && qp_eqb (qlhs p) (qlhs q) && qp_eqb (qrhs p) (qrhs q).

Lemma qpred_eqb_eq : forall p q, qpred_eqb p q = true -> p = q.
Proof.
  intros [r l s] [r' l' s'] H. unfold qpred_eqb in H. cbn in H.
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  apply qp_eqb_eq in H2. apply qp_eqb_eq in H3. subst. destruct r, r'; try discriminate; reflexivity.
Qed.

Definition matches (q : qpred) (g : spred) : bool :=
  match to_qpred g with Some g' => qpred_eqb q g' | None => false end.

(** A guard equal to [p] (as canonical predicates) proves it, one equal to
    its negation refutes it, else [decide_quick] on the facts. *)
Definition rust_sdec (F : list (nat * info)) (gs : list spred) (p : spred) : option bool :=
  match to_qpred p with
  | None => None
  | Some q =>
      if existsb (matches q) gs then Some true
      else match to_qpred (snegate p) with
           | Some nq => if existsb (matches nq) gs then Some false
                        else match qdecide F q with Some (Some b) => Some b | _ => None end
           | None => match qdecide F q with Some (Some b) => Some b | _ => None end
           end
  end.

Lemma matches_holds : forall e q g, matches q g = true -> sdefp e g -> qholds e q = sholds e g.
Proof.
  intros e q g H D. unfold matches in H. destruct (to_qpred g) as [g'|] eqn:G; [| discriminate].
  apply qpred_eqb_eq in H. subst. exact (proj1 (to_qpred_holds e g g' G D)).
Qed.

Theorem rust_sdec_sound : forall fs F, facts_parse fs = Ok F ->
  forall gs p b, rust_sdec F gs p = Some b ->
  forall x, (forall n, 1 <= x n) -> facts_hold x fs -> sdefp x p ->
  (forall g, In g gs -> sdefp x g /\ sholds x g = true) -> sholds x p = b.
Proof.
  intros fs F HF gs p b H x Hpos Hh Dp Hg. unfold rust_sdec in H.
  destruct (to_qpred p) as [q|] eqn:Q; [| discriminate].
  destruct (to_qpred_holds x p q Q Dp) as [Eq Dq].
  assert (Fq : qdecide F q = Some (Some b) -> sholds x p = b).
  { intro D. rewrite <- Eq. exact (qdecide_sound fs F q b HF D x Hpos Hh Dq). }
  destruct (existsb (matches q) gs) eqn:M.
  - injection H as <-. apply existsb_exists in M as [g [Hin Mg]]. destruct (Hg g Hin) as [Dg Tg].
    rewrite <- Eq, (matches_holds x q g Mg Dg). exact Tg.
  - destruct (to_qpred (snegate p)) as [nq|] eqn:NQ.
    + destruct (existsb (matches nq) gs) eqn:M2.
      * injection H as <-. apply existsb_exists in M2 as [g [Hin Mg]]. destruct (Hg g Hin) as [Dg Tg].
        destruct (to_qpred_holds x (snegate p) nq NQ (snegate_def x p Dp)) as [En _].
        rewrite (matches_holds x nq g Mg Dg), Tg, snegate_holds in En.
        apply (f_equal negb) in En. rewrite negb_involutive in En. exact (eq_sym En).
      * destruct (qdecide F q) as [[b'|]|] eqn:D; try discriminate. injection H as <-. apply Fq. reflexivity.
    + destruct (qdecide F q) as [[b'|]|] eqn:D; try discriminate. injection H as <-. apply Fq. reflexivity.
Qed.

(** ** Guarded runs whose conditions are defined *)

(** Every condition the concrete run (conditions evaluated by [h]) meets
    satisfies [D]. *)
Fixpoint gpath {P A : Type} (D : P -> Prop) (h : P -> bool) (c : gcomp P A) : Prop :=
  match c with
  | GRet _ => True
  | GBranch p _ k => D p /\ gpath D h (k (h p))
  | GRequire p k => D p /\ (h p = true -> gpath D h k)
  end.

(** [srun] only appends guards. *)
Lemma srun_mono : forall (P A : Type) (dec : list P -> P -> option bool) (negp : P -> P)
    (c : gcomp P A) gs a gs', srun dec negp gs c = Some (a, gs') -> forall g, In g gs -> In g gs'.
Proof.
  intros P A dec negp c. induction c as [a0 | p prefer k IH | p k IH]; intros gs a gs' H g Hin; cbn in H.
  - injection H as <- <-. exact Hin.
  - destruct (dec gs p) as [b|]; [exact (IH b gs a gs' H g Hin) |].
    apply (IH prefer _ a gs' H). apply in_or_app. left. exact Hin.
  - destruct (dec gs p) as [[|]|]; try discriminate; [exact (IH gs a gs' H g Hin) |].
    apply (IH _ a gs' H). apply in_or_app. left. exact Hin.
Qed.

(** [srun_sound] for an oracle sound where the condition and the guards
    are defined ([D]), for a run whose concrete conditions are defined. *)
Theorem srun_sound_def : forall (P A E : Type) (sat : E -> Prop) (D : E -> P -> Prop)
    (h : E -> P -> bool) (dec : list P -> P -> option bool) (negp : P -> P),
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> D x p -> (forall g, In g gs -> D x g /\ h x g = true) -> h x p = b) ->
  (forall x p, h x (negp p) = negb (h x p)) ->
  (forall x p, D x p -> D x (negp p)) ->
  forall (c : gcomp P A) gs a gs', srun dec negp gs c = Some (a, gs') ->
  forall x, sat x -> gpath (D x) (h x) c -> (forall g, In g gs -> D x g) ->
  (forall g, In g gs' -> h x g = true) -> crun (h x) c = Some a.
Proof.
  intros P A E sat D h dec negp Hdec Hneg Dneg c.
  induction c as [a0 | p prefer k IH | p k IH]; intros gs a gs' H x Hx Ha Dgs Hg; cbn in H, Ha |- *.
  - injection H as <- <-. reflexivity.
  - destruct Ha as [Dp Dk]. destruct (dec gs p) as [b|] eqn:Dc.
    + assert (Sub : forall g, In g gs -> In g gs') by exact (srun_mono P A dec negp _ gs a gs' H).
      assert (Hb : h x p = b)
        by exact (Hdec gs p b Dc x Hx Dp (fun g Hin => conj (Dgs g Hin) (Hg g (Sub g Hin)))).
      rewrite Hb in Dk |- *. exact (IH b gs a gs' H x Hx Dk Dgs Hg).
    + assert (Sub : forall g, In g (gs ++ [if prefer then p else negp p]) -> In g gs')
        by exact (srun_mono P A dec negp _ _ a gs' H).
      assert (Hp : h x (if prefer then p else negp p) = true).
      { apply Hg, Sub. apply in_or_app. right. left. reflexivity. }
      assert (Hb : h x p = prefer).
      { destruct prefer; [exact Hp |]. rewrite Hneg in Hp. apply negb_true_iff in Hp. exact Hp. }
      assert (Dgs2 : forall g, In g (gs ++ [if prefer then p else negp p]) -> D x g).
      { intros g Hin. apply in_app_or in Hin as [Hin | [<- | []]]; [auto |].
        destruct prefer; auto. }
      rewrite Hb in Dk |- *. exact (IH prefer _ a gs' H x Hx Dk Dgs2 Hg).
  - destruct Ha as [Dp Dk]. destruct (dec gs p) as [[|]|] eqn:Dc; try discriminate.
    + assert (Sub : forall g, In g gs -> In g gs') by exact (srun_mono P A dec negp _ gs a gs' H).
      assert (Hb : h x p = true)
        by exact (Hdec gs p true Dc x Hx Dp (fun g Hin => conj (Dgs g Hin) (Hg g (Sub g Hin)))).
      rewrite Hb. exact (IH gs a gs' H x Hx (Dk Hb) Dgs Hg).
    + assert (Sub : forall g, In g (gs ++ [p]) -> In g gs') by exact (srun_mono P A dec negp _ _ a gs' H).
      assert (Hp : h x p = true) by (apply Hg, Sub, in_or_app; right; left; reflexivity).
      assert (Dgs2 : forall g, In g (gs ++ [p]) -> D x g).
      { intros g Hin. apply in_app_or in Hin as [Hin | [<- | []]]; auto. }
      rewrite Hp. exact (IH _ a gs' H x Hx (Dk Hp) Dgs2 Hg).
Qed.

(** A computation through Rust's oracle: exact at every assignment
    satisfying the facts and the returned guards, where the conditions
    its concrete run meets are defined. *)
Theorem rust_run_sound : forall fs F (A : Type) (c : gcomp spred A) a gs,
  facts_parse fs = Ok F -> srun (rust_sdec F) snegate [] c = Some (a, gs) ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs -> gpath (sdefp e) (sholds e) c ->
  (forall g, In g gs -> sholds e g = true) -> crun (sholds e) c = Some a.
Proof.
  intros fs F A c a gs HF H e Hpos Hh Ha Hg.
  refine (srun_sound_def spred A env (fun x => (forall n, 1 <= x n) /\ facts_hold x fs)
            sdefp sholds (rust_sdec F) snegate _ snegate_holds snegate_def
            c [] a gs H e (conj Hpos Hh) Ha (fun g Hin => match Hin with end) Hg).
  intros gs0 p b D x [Hx1 Hx2] Dp Hgs. exact (rust_sdec_sound fs F HF gs0 p b D x Hx1 Hx2 Dp Hgs).
Qed.

(** ** [composition] and [logical_divide] through Rust's oracle *)

Theorem composition_guards_sufficient_rust : forall fs F H a b R gs,
  facts_parse fs = Ok F ->
  srun (rust_sdec F) snegate [] (scomposition H a b) = Some (R, gs) ->
  forall e, (forall n, 1 <= e n) -> facts_hold e fs -> gpath (sdefp e) (sholds e) (scomposition H a b) ->
  (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  prodB e (sleaves R) = prodB e (sleaves b) /\
  forall c, 0 <= c < prodB e (sleaves b) ->
    0 <= evalB e (sleaves b) c < prodB e (sleaves a) ->
    evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b) c).
Proof.
  intros fs F H a b R gs HF Hrun e Hpos Hh Ha Hg HS Hne Hpa Hpb.
  apply (scomposition_correct H e a b R HS Hne Hpa Hpb).
  exact (rust_run_sound fs F _ _ R gs HF Hrun e Hpos Hh Ha Hg).
Qed.

Theorem divide_guards_sufficient_rust : forall fs F H a b R gs,
  facts_parse fs = Ok F ->
  srun (rust_sdec F) snegate [] (sdivide H a b) = Some (R, gs) ->
  forall e, (forall n, 1 <= e n) -> facts_hold e fs -> gpath (sdefp e) (sholds e) (sdivide H a b) ->
  (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
    forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
      0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
      evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c).
Proof.
  intros fs F H a b R gs HF Hrun e Hpos Hh Ha Hg HS Hne Hpa Hpb.
  apply (sdivide_correct H e a b R HS Hne Hpa Hpb).
  exact (rust_run_sound fs F _ _ R gs HF Hrun e Hpos Hh Ha Hg).
Qed.

(** ** [compose_leaf]'s syntactic tests *)

(** [rs.as_const() == Some(1)] on Rust's canonical polynomial. *)
Definition rust_hone (x : sexpr) : bool :=
  match to_qp x with Some q => match as_constq q with Some c => Z.eqb c 1 | None => false end | None => false end.

(** [new == rs] on Rust's canonical polynomials. *)
Definition rust_hsame (x y : sexpr) : bool :=
  match to_qp x, to_qp y with Some p, Some q => qp_eqb p q | _, _ => false end.

Lemma rust_hone_sound : forall e x, sdef e x -> rust_hone x = true -> seval e x = 1.
Proof.
  intros e x D H. unfold rust_hone in H. destruct (to_qp x) as [q|] eqn:Q; [| discriminate].
  destruct (as_constq q) as [c|] eqn:C; [| discriminate]. apply Z.eqb_eq in H. subst.
  rewrite <- (proj1 (to_qp_eval e x q Q D)). exact (as_constq_eval e q 1 C).
Qed.

Lemma rust_hsame_sound : forall e x y, sdef e x -> sdef e y -> rust_hsame x y = true -> seval e x = seval e y.
Proof.
  intros e x y Dx Dy H. unfold rust_hsame in H.
  destruct (to_qp x) as [p|] eqn:P, (to_qp y) as [q|] eqn:Q; try discriminate.
  apply qp_eqb_eq in H. subst.
  rewrite <- (proj1 (to_qp_eval e x q P Dx)), <- (proj1 (to_qp_eval e y q Q Dy)). reflexivity.
Qed.

(** ** [Ctx::push]: guards of the shape of a fact strengthen the facts *)

Fixpoint qm_to_mono (m : qm) : option mono :=
  match m with
  | M1 => Some []
  | MA (AN n) k r => option_map (cons (n, k)) (qm_to_mono r)
  | MA _ _ _ => None
  end.

Fixpoint qp_to_poly (p : qp) : option poly :=
  match p with
  | QZ => Some []
  | QT m c r => match qm_to_mono m, qp_to_poly r with Some m', Some r' => Some ((m', c) :: r') | _, _ => None end
  end.

Lemma qp_to_poly_eval : forall e p p', qp_to_poly p = Some p' -> peval e p' = qeval e p.
Proof.
  assert (M : forall e m m', qm_to_mono m = Some m' -> meval e m' = qmeval e m).
  { intros e m. induction m as [| a k r IH]; intros m' H; cbn in H.
    - injection H as <-. reflexivity.
    - destruct a as [n | | |]; try discriminate. destruct (qm_to_mono r) as [r'|] eqn:R; cbn in H; [| discriminate].
      injection H as <-. cbn [meval qmeval qaeval]. rewrite (IH r' eq_refl). reflexivity. }
  intros e p. induction p as [| m c r IH]; intros p' H; cbn in H.
  - injection H as <-. reflexivity.
  - destruct (qm_to_mono m) as [m'|] eqn:Mm, (qp_to_poly r) as [r'|] eqn:R; try discriminate.
    injection H as <-. cbn [peval qeval]. rewrite (M e m m' Mm), (IH r' eq_refl). reflexivity.
Qed.

(** A guard as a quotient-free predicate (the only ones [strengthen] reads). *)
Definition spred_to_pred (g : spred) : option pred :=
  match to_qpred g with
  | Some q => match qp_to_poly (qlhs q), qp_to_poly (qrhs q) with
              | Some l, Some r => Some (mkpred (qrel q) l r)
              | _, _ => None
              end
  | None => None
  end.

Lemma spred_to_pred_holds : forall e g pg, spred_to_pred g = Some pg -> sdefp e g -> holdsb e pg = sholds e g.
Proof.
  intros e g pg H D. unfold spred_to_pred in H. destruct (to_qpred g) as [q|] eqn:Q; [| discriminate].
  destruct (qp_to_poly (qlhs q)) as [l|] eqn:L, (qp_to_poly (qrhs q)) as [r|] eqn:R; try discriminate.
  injection H as <-. rewrite <- (proj1 (to_qpred_holds e g q Q D)).
  unfold holdsb, qholds. cbn [prel plhs prhs]. rewrite (qp_to_poly_eval e _ _ L), (qp_to_poly_eval e _ _ R).
  reflexivity.
Qed.

Definition gpreds (gs : list spred) : list pred :=
  flat_map (fun g => match spred_to_pred g with Some pg => [pg] | None => [] end) gs.

(** [Ctx::decide_fast] with the facts strengthened by the guards so far. *)
Definition rust_sdec_s (raws : list raw) (F : list (nat * info)) (gs : list spred) (p : spred) : option bool :=
  rust_sdec (snd (strengthen_all raws F (gpreds gs))) gs p.

Lemma rust_sdec_fits_sound : forall F gs p b, rust_sdec F gs p = Some b ->
  forall x, fits F x -> sdefp x p ->
  (forall g, In g gs -> sdefp x g /\ sholds x g = true) -> sholds x p = b.
Proof.
  intros F gs p b H x Hf Dp Hg. unfold rust_sdec in H.
  destruct (to_qpred p) as [q|] eqn:Q; [| discriminate].
  destruct (to_qpred_holds x p q Q Dp) as [Eq Dq].
  assert (Fq : qdecide F q = Some (Some b) -> sholds x p = b).
  { intro D. rewrite <- Eq. exact (qdecide_fits_sound F q b x Hf Dq D). }
  destruct (existsb (matches q) gs) eqn:M.
  - injection H as <-. apply existsb_exists in M as [g [Hin Mg]]. destruct (Hg g Hin) as [Dg Tg].
    rewrite <- Eq, (matches_holds x q g Mg Dg). exact Tg.
  - destruct (to_qpred (snegate p)) as [nq|] eqn:NQ.
    + destruct (existsb (matches nq) gs) eqn:M2.
      * injection H as <-. apply existsb_exists in M2 as [g [Hin Mg]]. destruct (Hg g Hin) as [Dg Tg].
        destruct (to_qpred_holds x (snegate p) nq NQ (snegate_def x p Dp)) as [En _].
        rewrite (matches_holds x nq g Mg Dg), Tg, snegate_holds in En.
        apply (f_equal negb) in En. rewrite negb_involutive in En. exact (eq_sym En).
      * destruct (qdecide F q) as [[b'|]|] eqn:D; try discriminate. injection H as <-. apply Fq. reflexivity.
    + destruct (qdecide F q) as [[b'|]|] eqn:D; try discriminate. injection H as <-. apply Fq. reflexivity.
Qed.

Theorem rust_sdec_s_sound : forall raws F, wf_raws raws -> rebuild raws = Ok F ->
  forall gs p b, rust_sdec_s raws F gs p = Some b ->
  forall x, (forall n, 1 <= x n) -> raws_hold x raws -> sdefp x p ->
  (forall g, In g gs -> sdefp x g /\ sholds x g = true) -> sholds x p = b.
Proof.
  intros raws F Hw HF gs p b H x Hpos Hr Dp Hg. unfold rust_sdec_s in H.
  destruct (strengthen_all raws F (gpreds gs)) as [r' F'] eqn:S. cbn [snd] in H.
  destruct (strengthen_all_sound (gpreds gs) raws F r' F' Hw HF S) as [W [R Hs]].
  assert (Hgp : forall g, In g (gpreds gs) -> holdsb x g = true).
  { intros pg Hin. unfold gpreds in Hin. apply in_flat_map in Hin as [g [Hin Hpg]].
    destruct (spred_to_pred g) as [pg'|] eqn:G; [| destruct Hpg].
    destruct Hpg as [<- | []]. destruct (Hg g Hin) as [Dg Tg].
    rewrite (spred_to_pred_holds x g pg' G Dg). exact Tg. }
  exact (rust_sdec_fits_sound F' gs p b H x (fits_of_rebuild r' F' x W R Hpos (Hs x Hpos Hr Hgp)) Dp Hg).
Qed.

(** A run through Rust's oracle with the facts strengthened as [Ctx::push]
    does: exact where the concrete run's conditions are defined. *)
Theorem rust_strengthened_run_sound : forall raws F (A : Type) (c : gcomp spred A) a gs,
  wf_raws raws -> rebuild raws = Ok F -> srun (rust_sdec_s raws F) snegate [] c = Some (a, gs) ->
  forall e : env, (forall n, 1 <= e n) -> raws_hold e raws -> gpath (sdefp e) (sholds e) c ->
  (forall g, In g gs -> sholds e g = true) -> crun (sholds e) c = Some a.
Proof.
  intros raws F A c a gs Hw HF H e Hpos Hr Ha Hg.
  refine (srun_sound_def spred A env (fun x => (forall n, 1 <= x n) /\ raws_hold x raws)
            sdefp sholds (rust_sdec_s raws F) snegate _ snegate_holds snegate_def
            c [] a gs H e (conj Hpos Hr) Ha (fun g Hin => match Hin with end) Hg).
  intros gs0 p b D x [Hx1 Hx2] Dp Hgs. exact (rust_sdec_s_sound raws F Hw HF gs0 p b D x Hx1 Hx2 Dp Hgs).
Qed.

Theorem composition_guards_sufficient_ctx : forall raws F H a b R gs,
  wf_raws raws -> rebuild raws = Ok F ->
  srun (rust_sdec_s raws F) snegate [] (scomposition H a b) = Some (R, gs) ->
  forall e, (forall n, 1 <= e n) -> raws_hold e raws -> gpath (sdefp e) (sholds e) (scomposition H a b) ->
  (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  prodB e (sleaves R) = prodB e (sleaves b) /\
  forall c, 0 <= c < prodB e (sleaves b) ->
    0 <= evalB e (sleaves b) c < prodB e (sleaves a) ->
    evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b) c).
Proof.
  intros raws F H a b R gs Hw HF Hrun e Hpos Hr Ha Hg HS Hne Hpa Hpb.
  apply (scomposition_correct H e a b R HS Hne Hpa Hpb).
  exact (rust_strengthened_run_sound raws F _ _ R gs Hw HF Hrun e Hpos Hr Ha Hg).
Qed.

Theorem divide_guards_sufficient_ctx : forall raws F H a b R gs,
  wf_raws raws -> rebuild raws = Ok F ->
  srun (rust_sdec_s raws F) snegate [] (sdivide H a b) = Some (R, gs) ->
  forall e, (forall n, 1 <= e n) -> raws_hold e raws -> gpath (sdefp e) (sholds e) (sdivide H a b) ->
  (forall g, In g gs -> sholds e g = true) -> hooks_sound H e ->
  sleaves a <> [] -> pos_l e (sleaves a) -> pos_l e (sleaves b) ->
  exists C, crun (sholds e) (scomplement H b (ssize a)) = Some C /\
    prodB e (sleaves R) = prodB e (sleaves b) * prodB e (sleaves C) /\
    forall c, 0 <= c < prodB e (sleaves b) * prodB e (sleaves C) ->
      0 <= evalB e (sleaves b ++ sleaves C) c < prodB e (sleaves a) ->
      evalB e (sleaves R) c = evalB e (sleaves a) (evalB e (sleaves b ++ sleaves C) c).
Proof.
  intros raws F H a b R gs Hw HF Hrun e Hpos Hr Ha Hg HS Hne Hpa Hpb.
  apply (sdivide_correct H e a b R HS Hne Hpa Hpb).
  exact (rust_strengthened_run_sound raws F _ _ R gs Hw HF Hrun e Hpos Hr Ha Hg).
Qed.
