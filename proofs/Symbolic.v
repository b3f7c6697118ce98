(** * The symbolic decisions behind the predicate rules (issue 14, item 6)

    [domain/predicate.rs] enables two conditional rules with symbolic
    decisions: a split is "divisible" when [split_divisible] ([ir.rs]:
    [facts.divides(factor, E(input))]) answers [Yes], and an XOR swizzle is
    "closed" when [xor_closed] answers [Yes].  [Predicates.v] takes these
    answers as their stated meaning.  Here [domain/symbolic.rs] is
    transcribed (extents [Extent], facts [Facts], [eval], [known_divisor],
    [lower_bound], [divides], [at_least], [Facts::assume], the smart
    constructors [add], [mul], [plus], [ceil_div]) over unbounded [Z], with
    symbols numbered, and its answers are proved sound for every assignment
    of the symbols that satisfies the facts:

    - [assume_sound]: the fact base [Facts::assume] builds from a list of
      facts (lcm of the moduli, maximum of the lower bounds, the values) is
      satisfied by every assignment that satisfies the listed facts;
    - [ceval_sound], [known_divisor_sound], [lower_bound_sound]: a concrete
      value is the value, the known divisor divides the value, the lower
      bound is below it;
    - [divides_yes], [divides_no], [at_least_yes], [at_least_no]: the
      decisions' [Yes] and [No] are sound;
    - [ext_add], [ext_mul], [ext_plus], [ext_ceil_div]: the smart
      constructors denote [e + c], [a * b], [a + b], [ceilDiv(e, c)]
      (the last folds a chain of ceiling divisions: integer-division.md
      Theorem 5.11);
    - [split_divisible_exact]: when [split_divisible] answers [Yes], the
      split is exact: [E(input) = ceilDiv(E(input), f) * f], the meaning
      [Predicates.step_valid] gives the [divisible] flag (for an inner
      split [E(outer) = ceilDiv(E(input), f)], [E(inner) = f]; an outer
      split swaps them);
    - [xor_closed_sound]: when [xor_closed] answers [Yes], [E(y)] is a power
      of two and [E(x) <= E(y)], the meaning [Predicates.step_valid] gives
      the [closed] flag.

    Rust's arithmetic is checked [i64]: an overflow is an error there (or,
    in [known_divisor], the answer 1, which divides everything); the model
    has no overflow. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.

Open Scope Z_scope.

Inductive extent : Type :=
| EConst (c : Z)
| ESym (s : nat)
| EAdd (e : extent) (c : Z)
| EPlus (a b : extent)
| EMul (a b : extent)
| ECeilDiv (e : extent) (c : Z).

(** [error::cdiv]: [ceil(a / b) = -((-a) div_euclid b)] for [b > 0]. *)
Definition cdiv (a b : Z) : Z := - ((- a) / b).

Fixpoint eval (env : nat -> Z) (e : extent) : Z :=
  match e with
  | EConst c => c
  | ESym s => env s
  | EAdd e c => eval env e + c
  | EPlus a b => eval env a + eval env b
  | EMul a b => eval env a * eval env b
  | ECeilDiv e c => cdiv (eval env e) c
  end.

(** Ceiling divisions by positive constants only (the [Extent] invariant). *)
Fixpoint wf (e : extent) : Prop :=
  match e with
  | EConst _ | ESym _ => True
  | EAdd e _ => wf e
  | EPlus a b | EMul a b => wf a /\ wf b
  | ECeilDiv e c => 0 < c /\ wf e
  end.

(** ** Facts *)

Record facts := Facts {
  fdiv : nat -> Z;              (* [divisor]: 1 when none *)
  flower : nat -> option Z;     (* [lower] *)
  fvalue : nat -> option Z      (* [value] *)
}.

Definition satisfies (F : facts) (env : nat -> Z) : Prop :=
  forall s, (fdiv F s | env s) /\ (forall l, flower F s = Some l -> l <= env s) /\
            (forall v, fvalue F s = Some v -> env s = v).

Inductive fact : Type :=
| Divisible (s : nat) (m : Z)
| AtLeast (s : nat) (c : Z)
| Equals (s : nat) (c : Z).

Definition holds (env : nat -> Z) (f : fact) : Prop :=
  match f with
  | Divisible s m => (m | env s)
  | AtLeast s c => c <= env s
  | Equals s c => env s = c
  end.

Definition upd {A} (f : nat -> A) (s : nat) (v : A) : nat -> A :=
  fun s' => if Nat.eqb s' s then v else f s'.

(** [Facts::assume], without its contradiction checks (they only refuse
    fact lists, which no assignment satisfies anyway). *)
Definition assume (F : facts) (f : fact) : facts :=
  match f with
  | Divisible s m =>
      let g := fdiv F s in
      Facts (upd (fdiv F) s ((g / Z.gcd g m) * m)) (flower F) (fvalue F)
  | AtLeast s c =>
      Facts (fdiv F) (upd (flower F) s (Some (match flower F s with
                                              | Some old => Z.max old c
                                              | None => c end))) (fvalue F)
  | Equals s c => Facts (fdiv F) (flower F) (upd (fvalue F) s (Some c))
  end.

Definition empty_facts : facts := Facts (fun _ => 1) (fun _ => None) (fun _ => None).

Definition facts_of (l : list fact) : facts := fold_left assume l empty_facts.

(** Positive moduli and divisors. *)
Definition pos_div (F : facts) : Prop := forall s, 0 < fdiv F s.

Definition fact_ok (f : fact) : Prop :=
  match f with Divisible _ m => 0 < m | _ => True end.

Lemma lcm_step : forall g m x, 0 < g -> 0 < m -> (g | x) -> (m | x) -> ((g / Z.gcd g m) * m | x).
Proof.
  intros g m x Hg Hm Dg Dm.
  assert (E : (g / Z.gcd g m) * m = Z.lcm g m).
  { unfold Z.lcm. rewrite Z.abs_eq.
    - assert (Pd : 0 < Z.gcd g m) by (apply Z.le_neq; split; [apply Z.gcd_nonneg|];
        intro E; symmetry in E; apply Z.gcd_eq_0_l in E; lia).
      destruct (Z.gcd_divide_l g m) as [a Ha]. destruct (Z.gcd_divide_r g m) as [b Hb].
      set (d := Z.gcd g m) in *.
      assert (Ea : g / d = a) by (rewrite Ha; apply Z.div_mul; lia).
      assert (Eb : m / d = b) by (rewrite Hb; apply Z.div_mul; lia).
      rewrite Ea, Eb. rewrite Ha, Hb. ring.
    - apply Z.mul_nonneg_nonneg; [lia|].
      apply Z.div_pos; [lia|]. apply Z.le_neq. split; [apply Z.gcd_nonneg|].
      intro E. symmetry in E. apply Z.gcd_eq_0_l in E. lia. }
  rewrite E. apply Z.lcm_least; assumption.
Qed.

Lemma lcm_step_pos : forall g m, 0 < g -> 0 < m -> 0 < (g / Z.gcd g m) * m.
Proof.
  intros g m Hg Hm. apply Z.mul_pos_pos; [|exact Hm].
  assert (Pd : 0 < Z.gcd g m) by (apply Z.le_neq; split; [apply Z.gcd_nonneg|];
    intro E; symmetry in E; apply Z.gcd_eq_0_l in E; lia).
  apply Z.div_str_pos. split; [exact Pd|]. apply Z.divide_pos_le; [exact Hg | apply Z.gcd_divide_l].
Qed.

Lemma assume_step : forall F f env, pos_div F -> fact_ok f -> satisfies F env -> holds env f ->
  pos_div (assume F f) /\ satisfies (assume F f) env.
Proof.
  intros F f env P Ok S H. destruct f as [s m|s c|s c]; simpl in *.
  - split.
    + intros s'. simpl. unfold upd. destruct (Nat.eqb s' s); [apply lcm_step_pos; auto | apply P].
    + intros s'. destruct (S s') as [D [L V]]. simpl. split; [|split; assumption].
      unfold upd. destruct (Nat.eqb s' s) eqn:E; [|exact D].
      apply Nat.eqb_eq in E. subst s'. apply lcm_step; auto.
  - split; [exact P|].
    intros s'. destruct (S s') as [D [L V]]. simpl. split; [exact D|]. split; [|exact V].
    intros l Hl. unfold upd in Hl. destruct (Nat.eqb s' s) eqn:E; [|apply L, Hl].
    apply Nat.eqb_eq in E. subst s'. injection Hl as <-.
    destruct (flower F s) as [old|] eqn:Eo; [|exact H].
    specialize (L old eq_refl). lia.
  - split; [exact P|].
    intros s'. destruct (S s') as [D [L V]]. simpl. split; [exact D|]. split; [exact L|].
    intros v Hv. unfold upd in Hv. destruct (Nat.eqb s' s) eqn:E; [|apply V, Hv].
    apply Nat.eqb_eq in E. subst s'. injection Hv as <-. exact H.
Qed.

Theorem assume_sound : forall l env, Forall fact_ok l -> Forall (holds env) l ->
  pos_div (facts_of l) /\ satisfies (facts_of l) env.
Proof.
  intros l env Ok H. unfold facts_of.
  assert (G : forall F, pos_div F -> satisfies F env ->
            pos_div (fold_left assume l F) /\ satisfies (fold_left assume l F) env).
  { induction l as [|f l IH]; intros F P S; [split; assumption|].
    inversion Ok as [|? ? Okf Okl]; subst. inversion H as [|? ? Hf Hl]; subst.
    simpl. destruct (assume_step F f env P Okf S Hf) as [P' S'].
    apply IH; assumption. }
  apply G.
  - intros s. simpl. lia.
  - intros s. simpl. split; [apply Z.divide_1_l|]. split; intros; discriminate.
Qed.

(** ** Evaluation with the facts' values *)

Definition omap2 (f : Z -> Z -> Z) (a b : option Z) : option Z :=
  match a, b with Some x, Some y => Some (f x y) | _, _ => None end.

Fixpoint ceval (F : facts) (e : extent) : option Z :=
  match e with
  | EConst c => Some c
  | ESym s => fvalue F s
  | EAdd e c => option_map (fun v => v + c) (ceval F e)
  | EPlus a b => omap2 Z.add (ceval F a) (ceval F b)
  | EMul a b => omap2 Z.mul (ceval F a) (ceval F b)
  | ECeilDiv e c => option_map (fun v => cdiv v c) (ceval F e)
  end.

Theorem ceval_sound : forall F env e v, satisfies F env -> ceval F e = Some v -> eval env e = v.
Proof.
  intros F env e. induction e as [c|s|e IH c|a IHa b IHb|a IHa b IHb|e IH c]; intros v S H; simpl in *.
  - congruence.
  - destruct (S s) as [_ [_ V]]. apply V, H.
  - destruct (ceval F e) as [x|]; [|discriminate]. injection H as <-. rewrite (IH x S eq_refl). reflexivity.
  - destruct (ceval F a) as [x|], (ceval F b) as [y|]; try discriminate. injection H as <-.
    rewrite (IHa x S eq_refl), (IHb y S eq_refl). reflexivity.
  - destruct (ceval F a) as [x|], (ceval F b) as [y|]; try discriminate. injection H as <-.
    rewrite (IHa x S eq_refl), (IHb y S eq_refl). reflexivity.
  - destruct (ceval F e) as [x|]; [|discriminate]. injection H as <-. rewrite (IH x S eq_refl). reflexivity.
Qed.

(** ** [known_divisor] *)

Fixpoint known_divisor (F : facts) (e : extent) : Z :=
  match e with
  | EConst c => Z.abs c
  | ESym s => match fvalue F s with Some v => Z.abs v | None => fdiv F s end
  | EMul a b => known_divisor F a * known_divisor F b
  | EAdd e c => Z.gcd (known_divisor F e) (Z.abs c)
  | EPlus a b => Z.gcd (known_divisor F a) (known_divisor F b)
  | ECeilDiv e c =>
      let g := known_divisor F e in
      if (0 <? c) && (g mod c =? 0) then g / c else 1
  end.

Lemma cdiv_exact : forall v c, 0 < c -> (c | v) -> cdiv v c = v / c.
Proof.
  intros v c Hc [k ->]. unfold cdiv.
  replace (- (k * c)) with ((- k) * c) by ring. rewrite !Z.div_mul by lia. lia.
Qed.

Theorem known_divisor_sound : forall F env e, satisfies F env ->
  (known_divisor F e | eval env e).
Proof.
  intros F env e S. induction e as [c|s|e IH c|a IHa b IHb|a IHa b IHb|e IH c]; simpl.
  - apply Z.divide_abs_l, Z.divide_refl.
  - destruct (S s) as [D [_ V]]. destruct (fvalue F s) as [v|] eqn:E; [|exact D].
    rewrite (V v eq_refl). apply Z.divide_abs_l, Z.divide_refl.
  - apply Z.divide_add_r.
    + eapply Z.divide_trans; [apply Z.gcd_divide_l | exact IH].
    + eapply Z.divide_trans; [apply Z.gcd_divide_r|]. apply Z.divide_abs_l, Z.divide_refl.
  - apply Z.divide_add_r; eapply Z.divide_trans;
      [apply Z.gcd_divide_l | exact IHa | apply Z.gcd_divide_r | exact IHb].
  - destruct IHa as [x Hx]. destruct IHb as [y Hy]. exists (x * y). rewrite Hx, Hy. ring.
  - destruct ((0 <? c) && (known_divisor F e mod c =? 0)) eqn:E; [|apply Z.divide_1_l].
    apply andb_true_iff in E. destruct E as [Ec Em].
    apply Z.ltb_lt in Ec. apply Z.eqb_eq in Em.
    set (g := known_divisor F e) in *.
    assert (Hcg : (c | g)) by (apply Z.mod_divide; lia).
    destruct Hcg as [j Hj]. destruct IH as [k Hk].
    assert (Hv : eval env e = (k * j) * c) by (rewrite Hk, Hj; ring).
    rewrite (cdiv_exact _ c Ec (ex_intro _ (k * j) Hv)).
    rewrite Hv, Z.div_mul by lia. rewrite Hj, Z.div_mul by lia.
    exists k. ring.
Qed.

(** The known divisor is never negative (so Rust's truncated [g % c] in
    the [ceilDiv] case is [Z.modulo]). *)
Lemma known_divisor_nonneg : forall F e, pos_div F -> 0 <= known_divisor F e.
Proof.
  intros F e P. induction e as [c|s|e IH c|a IHa b IHb|a IHa b IHb|e IH c]; simpl.
  - lia.
  - destruct (fvalue F s); [lia | specialize (P s); lia].
  - apply Z.gcd_nonneg.
  - apply Z.gcd_nonneg.
  - lia.
  - destruct ((0 <? c) && (known_divisor F e mod c =? 0)) eqn:E; [|lia].
    apply andb_true_iff in E. destruct E as [Ec _]. apply Z.ltb_lt in Ec.
    apply Z.div_pos; lia.
Qed.

(** ** [lower_bound] *)

Fixpoint lower_bound (F : facts) (e : extent) : option Z :=
  match e with
  | EConst c => Some c
  | ESym s => match fvalue F s with Some v => Some v | None => flower F s end
  | EAdd e c => option_map (fun l => l + c) (lower_bound F e)
  | EPlus a b => omap2 Z.add (lower_bound F a) (lower_bound F b)
  | EMul a b =>
      match lower_bound F a, lower_bound F b with
      | Some x, Some y => if (0 <=? x) && (0 <=? y) then Some (x * y) else None
      | _, _ => None
      end
  | ECeilDiv e c => option_map (fun l => cdiv l c) (lower_bound F e)
  end.

Lemma cdiv_mono : forall a b c, 0 < c -> a <= b -> cdiv a c <= cdiv b c.
Proof.
  intros a b c Hc H. unfold cdiv. apply Z.opp_le_mono. rewrite !Z.opp_involutive.
  apply Z.div_le_mono; lia.
Qed.

Theorem lower_bound_sound : forall F env e l, wf e -> satisfies F env ->
  lower_bound F e = Some l -> l <= eval env e.
Proof.
  intros F env e. induction e as [c|s|e IH c|a IHa b IHb|a IHa b IHb|e IH c]; intros l W S H; simpl in *.
  - injection H as <-. lia.
  - destruct (S s) as [_ [L V]]. destruct (fvalue F s) as [v|] eqn:E.
    + injection H as <-. rewrite (V v eq_refl). lia.
    + apply L, H.
  - destruct (lower_bound F e) as [x|]; [|discriminate]. injection H as <-.
    specialize (IH x W S eq_refl). lia.
  - destruct W as [Wa Wb].
    destruct (lower_bound F a) as [x|], (lower_bound F b) as [y|]; try discriminate.
    injection H as <-. specialize (IHa x Wa S eq_refl). specialize (IHb y Wb S eq_refl). lia.
  - destruct W as [Wa Wb].
    destruct (lower_bound F a) as [x|], (lower_bound F b) as [y|]; try discriminate.
    destruct ((0 <=? x) && (0 <=? y)) eqn:E; [|discriminate]. injection H as <-.
    apply andb_true_iff in E. destruct E as [Ex Ey]. apply Z.leb_le in Ex, Ey.
    specialize (IHa x Wa S eq_refl). specialize (IHb y Wb S eq_refl). nia.
  - destruct W as [Wc We].
    destruct (lower_bound F e) as [x|]; [|discriminate]. injection H as <-.
    apply cdiv_mono; [exact Wc | apply IH; auto].
Qed.

(** ** The decisions *)

Inductive decision := Yes | No | Unknown.

(** [Facts::divides] (for [f <> 0]; [f = 0] answers [No]). *)
Definition divides (F : facts) (f : Z) (e : extent) : decision :=
  if f =? 0 then No
  else match ceval F e with
       | Some v => if v mod Z.abs f =? 0 then Yes else No
       | None => if known_divisor F e mod Z.abs f =? 0 then Yes else Unknown
       end.

Theorem divides_yes : forall F env f e, satisfies F env -> divides F f e = Yes -> (f | eval env e).
Proof.
  intros F env f e S H. unfold divides in H.
  destruct (f =? 0) eqn:Ef; [discriminate|]. apply Z.eqb_neq in Ef.
  apply Z.divide_abs_l.
  destruct (ceval F e) as [v|] eqn:Ev.
  - destruct (v mod Z.abs f =? 0) eqn:Em; [|discriminate]. apply Z.eqb_eq in Em.
    rewrite (ceval_sound F env e v S Ev). apply Z.mod_divide; lia.
  - destruct (known_divisor F e mod Z.abs f =? 0) eqn:Em; [|discriminate]. apply Z.eqb_eq in Em.
    eapply Z.divide_trans; [|apply (known_divisor_sound F env e S)].
    apply Z.mod_divide; lia.
Qed.

(** [No] is sound for extents (values at least 1). *)
Theorem divides_no : forall F env f e, satisfies F env -> 1 <= eval env e ->
  divides F f e = No -> ~ (f | eval env e).
Proof.
  intros F env f e S Hpos H D. unfold divides in H.
  destruct (f =? 0) eqn:Ef.
  - apply Z.eqb_eq in Ef. subst f. apply Z.divide_0_l in D. lia.
  - apply Z.eqb_neq in Ef.
    destruct (ceval F e) as [v|] eqn:Ev.
    + destruct (v mod Z.abs f =? 0) eqn:Em; [discriminate|]. apply Z.eqb_neq in Em.
      rewrite (ceval_sound F env e v S Ev) in D. apply Em.
      apply Z.mod_divide; [lia|]. apply Z.divide_abs_l, D.
    + destruct (known_divisor F e mod Z.abs f =? 0); discriminate.
Qed.

(** [Facts::at_least]. *)
Definition at_least (F : facts) (e : extent) (c : Z) : decision :=
  match ceval F e with
  | Some v => if c <=? v then Yes else No
  | None => match lower_bound F e with
            | Some l => if c <=? l then Yes else Unknown
            | None => Unknown
            end
  end.

Theorem at_least_yes : forall F env e c, wf e -> satisfies F env -> at_least F e c = Yes -> c <= eval env e.
Proof.
  intros F env e c W S H. unfold at_least in H.
  destruct (ceval F e) as [v|] eqn:Ev.
  - destruct (c <=? v) eqn:E; [|discriminate]. apply Z.leb_le in E.
    rewrite (ceval_sound F env e v S Ev). exact E.
  - destruct (lower_bound F e) as [l|] eqn:El; [|discriminate].
    destruct (c <=? l) eqn:E; [|discriminate]. apply Z.leb_le in E.
    pose proof (lower_bound_sound F env e l W S El). lia.
Qed.

Theorem at_least_no : forall F env e c, satisfies F env -> at_least F e c = No -> eval env e < c.
Proof.
  intros F env e c S H. unfold at_least in H.
  destruct (ceval F e) as [v|] eqn:Ev.
  - destruct (c <=? v) eqn:E; [discriminate|]. apply Z.leb_gt in E.
    rewrite (ceval_sound F env e v S Ev). exact E.
  - destruct (lower_bound F e) as [l|]; [|discriminate]. destruct (c <=? l); discriminate.
Qed.

(** ** The smart constructors *)

Definition ext_add (e : extent) (c : Z) : extent :=
  if c =? 0 then e
  else match e with
       | EConst a => EConst (a + c)
       | EAdd e' b => if b + c =? 0 then e' else EAdd e' (b + c)
       | _ => EAdd e c
       end.

Definition ext_mul (a b : extent) : extent :=
  match a, b with
  | EConst x, EConst y => EConst (x * y)
  | EConst 1, e => e
  | e, EConst 1 => e
  | _, _ => EMul a b
  end.

Definition ext_plus (a b : extent) : extent :=
  match a, b with
  | EConst x, EConst y => EConst (x + y)
  | e, EConst c => ext_add e c
  | EConst c, e => ext_add e c
  | _, _ => EPlus a b
  end.

Definition ext_ceil_div (e : extent) (c : Z) : extent :=
  match e with
  | EConst a => EConst (cdiv a c)
  | _ => if c =? 1 then e
         else match e with
              | ECeilDiv e' a => ECeilDiv e' (a * c)
              | _ => ECeilDiv e c
              end
  end.

Theorem ext_add_sound : forall env e c, eval env (ext_add e c) = eval env e + c.
Proof.
  intros env e c. unfold ext_add. destruct (c =? 0) eqn:E0; [apply Z.eqb_eq in E0; subst; simpl; lia|].
  destruct e as [a|s|e' b|a b|a b|e' b]; simpl; try lia.
  destruct (b + c =? 0) eqn:E; [apply Z.eqb_eq in E; lia | simpl; lia].
Qed.

Theorem ext_mul_sound : forall env a b, eval env (ext_mul a b) = eval env a * eval env b.
Proof.
  intros env a b. unfold ext_mul.
  destruct a as [x|s|e c|a1 a2|a1 a2|e c]; destruct b as [y|t|f d|b1 b2|b1 b2|f d]; simpl;
    try lia;
    repeat match goal with
    | |- context [match ?x with _ => _ end] => destruct x; simpl; try lia
    end.
Qed.

Theorem ext_plus_sound : forall env a b, eval env (ext_plus a b) = eval env a + eval env b.
Proof.
  intros env a b. unfold ext_plus.
  destruct a as [x|s|e c|a1 a2|a1 a2|e c]; destruct b as [y|t|f d|b1 b2|b1 b2|f d];
    simpl; try lia; rewrite ext_add_sound; simpl; lia.
Qed.

(** integer-division.md Theorem 5.11 for [cdiv]. *)
Lemma cdiv_cdiv : forall v a c, 0 < a -> 0 < c -> cdiv (cdiv v a) c = cdiv v (a * c).
Proof.
  intros v a c Ha Hc. unfold cdiv. rewrite Z.opp_involutive. rewrite Z.div_div by lia. reflexivity.
Qed.

Theorem ext_ceil_div_sound : forall env e c, wf e -> 0 < c ->
  eval env (ext_ceil_div e c) = cdiv (eval env e) c /\ wf (ext_ceil_div e c).
Proof.
  intros env e c W Hc. unfold ext_ceil_div.
  destruct e as [a|s|e' b|a1 a2|a1 a2|e' b]; [simpl; split; [reflexivity | exact I]| | | | |];
    (destruct (c =? 1) eqn:E1;
     [apply Z.eqb_eq in E1; subst c; unfold cdiv; rewrite Z.div_1_r, Z.opp_involutive;
      split; [reflexivity | exact W]|]); simpl in *; try (split; [reflexivity | split; assumption]).
  destruct W as [Hb We]. split; [|split; [nia | exact We]].
  rewrite cdiv_cdiv by lia. reflexivity.
Qed.

(** ** What the predicate rules are told *)

(** [split_divisible] of a split of [E(input) = e] by [f > 0] ([ir.rs]:
    [facts.divides(f, e)]) answering [Yes] makes the split exact. *)
Theorem split_divisible_exact : forall F env e f, wf e -> satisfies F env -> 0 < f ->
  divides F f e = Yes -> eval env e = eval env (ext_ceil_div e f) * f.
Proof.
  intros F env e f W S Hf H.
  destruct (divides_yes F env f e S H) as [k Hk].
  destruct (ext_ceil_div_sound env e f W Hf) as [E _]. rewrite E.
  rewrite (cdiv_exact _ f Hf (ex_intro _ k Hk)). rewrite Hk, Z.div_mul by lia. reflexivity.
Qed.

(** [pow2] of [predicate.rs]: [v > 0 && v & (v - 1) == 0]. *)
Definition pow2 (v : Z) : bool := (0 <? v) && (Z.land v (v - 1) =? 0).

Lemma pow2_sound : forall v, pow2 v = true -> 0 <= Z.log2 v /\ v = 2 ^ Z.log2 v.
Proof.
  intros v H. unfold pow2 in H. apply andb_true_iff in H. destruct H as [Hv Hl].
  apply Z.ltb_lt in Hv. apply Z.eqb_eq in Hl.
  split; [apply Z.log2_nonneg|].
  destruct (Z.log2_spec v Hv) as [L U]. set (k := Z.log2 v) in *.
  destruct (Z.eq_dec v (2 ^ k)) as [E|E]; [exact E|]. exfalso.
  assert (Hk : 0 <= k) by apply Z.log2_nonneg.
  assert (L' : 2 ^ k <= v - 1) by lia.
  assert (Pk : 0 < 2 ^ k) by (apply Z.pow_pos_nonneg; lia).
  assert (Lg : Z.log2 (v - 1) = k).
  { apply Z.log2_unique; [exact Hk | lia]. }
  assert (B1 : Z.testbit v k = true) by (apply Z.bit_log2; exact Hv).
  assert (B2 : Z.testbit (v - 1) k = true) by (rewrite <- Lg; apply Z.bit_log2; lia).
  assert (B : Z.testbit (Z.land v (v - 1)) k = true) by (rewrite Z.land_spec, B1, B2; reflexivity).
  rewrite Hl, Z.testbit_0_l in B. discriminate.
Qed.

(** [xor_closed]: [Yes] iff both extents evaluate, [E(y)] is a power of two
    and [E(x) <= E(y)]. *)
Definition xor_closed (F : facts) (ex ey : extent) : decision :=
  match ceval F ex, ceval F ey with
  | Some a, Some b => if pow2 b && (a <=? b) then Yes else No
  | _, _ => Unknown
  end.

Theorem xor_closed_sound : forall F env ex ey, satisfies F env -> xor_closed F ex ey = Yes ->
  exists k, 0 <= k /\ eval env ey = 2 ^ k /\ eval env ex <= eval env ey.
Proof.
  intros F env ex ey S H. unfold xor_closed in H.
  destruct (ceval F ex) as [a|] eqn:Ea, (ceval F ey) as [b|] eqn:Eb; try discriminate.
  destruct (pow2 b && (a <=? b)) eqn:E; [|discriminate].
  apply andb_true_iff in E. destruct E as [P Le]. apply Z.leb_le in Le.
  rewrite (ceval_sound F env ex a S Ea), (ceval_sound F env ey b S Eb).
  destruct (pow2_sound b P) as [Hk Eb2]. exists (Z.log2 b). split; [exact Hk|]. split; [exact Eb2 | exact Le].
Qed.

(** Examples: with [N % 8 == 0], [ceilDiv(N, 4)] has known divisor 2 and
    [4 | N] is decided [Yes]; without facts it is [Unknown]. *)
Example symbolic_examples :
  let F := facts_of [Divisible 0 8] in
  known_divisor F (ECeilDiv (ESym 0) 4) = 2 /\ divides F 4 (ESym 0) = Yes /\
  divides empty_facts 4 (ESym 0) = Unknown /\ divides F 3 (EConst 6) = Yes /\
  xor_closed F (EConst 4) (EConst 8) = Yes /\ xor_closed F (EConst 4) (EConst 12) = No.
Proof. repeat split; reflexivity. Qed.

Close Scope Z_scope.
