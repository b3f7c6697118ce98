(** * Symbolic decisions with facts (issue 28, item 5)

    [symbolic/facts.rs] transcribed over unbounded [Z], names numbered
    (the quotient variable [X'] of a name [X] carries the same number):

    - polynomials without quotient atoms ([poly]: terms [(monomial, c)],
      a monomial a list of [(name, power)]), with Rust's canonicalizing
      [add], [sub], [mul], [substitute] ([padd], [psub], [pmul], [psubst]),
      each proved to denote the sum, difference, product, substitution;
    - the fact base ([Facts::parse] + [rebuild]): a fact [X % m == r],
      [a*X + b REL 0] (REL one of [>= <= > < ==]) is read into a raw
      constraint ([parse_fact]), every name gets its implicit [X >= 1],
      and the constraints of each name are folded into a residue class
      (combined by the CRT stepping Rust runs, modulus the lcm) and a range,
      [X = x0 + m*X'], [0 <= X' <= ymax] ([NameInfo]).  [rebuild_exact]:
      when the base is built, an assignment with every name [>= 1]
      satisfies every fact iff every name with facts has that form;
      [rebuild_contra]: a contradiction is reported only when no assignment
      satisfies the facts;  [witness_any_sound]: the smallest values
      ([Facts::witness_any]) satisfy the facts;
    - the decisions ([decide_static], i.e. [decide_quick]) for [>=], [==],
      [!=], divides, not-divides on polynomials rewritten in quotient
      variables ([to_y]) with interval bounds ([Iv]) and coefficient gcds:
      [decide_sound]: [Some b] means the predicate evaluates to [b] at
      every assignment satisfying the facts;
    - the guarded computations of [Ctx::branch] / [Ctx::require]
      ([gcomp], [srun], [crun]): [srun_sound] says a computation whose
      choices go through a sound oracle, recording a guard whenever the
      oracle does not know, takes at every assignment that satisfies the
      facts and the guards the branches the concrete computation takes,
      and ends in the same leaf; [ctx_run_sound] instantiates it with
      [Ctx::decide_fast] (the guards so far, literally, then the facts),
      and [ctx_strengthened_run_sound] with the facts [Facts::strengthen]
      grows from the guards of the shape of a fact, as [Ctx::push] does
      ([guard_raw_sound], [strengthen_sound]).

    Not modelled (see proofs/README.md, section 10c): definitions
    [X == a*Y + b] (so every name is free, and Rust's [gcd(a, m)] and
    [modinv(a, m)] are 1 and [1 mod m]), [set_nonnegative], quotient atoms
    ([Floor], [Ceil], [Mod], [Swizzle]) inside polynomials, the
    counterexample search of [Facts::decide], and Rust's checked
    [i64]/[i128] overflow (the model has none). *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.

Open Scope Z_scope.

(** ** Polynomials *)

Definition mono := list (nat * nat).
Definition poly := list (mono * Z).
Definition env := nat -> Z.

Fixpoint zpow (x : Z) (k : nat) : Z :=
  match k with O => 1 | S k => x * zpow x k end.

Fixpoint meval (e : env) (m : mono) : Z :=
  match m with [] => 1 | (v, k) :: r => zpow (e v) k * meval e r end.

Fixpoint peval (e : env) (p : poly) : Z :=
  match p with [] => 0 | (m, c) :: r => c * meval e m + peval e r end.

Lemma zpow_add : forall x (a b : nat), zpow x (a + b)%nat = zpow x a * zpow x b.
Proof. intros x a b. induction a; cbn [zpow Nat.add]. { ring. } rewrite IHa. ring. Qed.

(** Rust's [mono_mul]: the merge of two monomials sorted by name. *)
Fixpoint mono_mul (a : mono) : mono -> mono :=
  match a with
  | [] => fun b => b
  | (v, k) :: a' =>
      fix go (b : mono) : mono :=
        match b with
        | [] => a
        | (w, l) :: b' =>
            if Nat.ltb v w then (v, k) :: mono_mul a' b
            else if Nat.ltb w v then (w, l) :: go b'
            else (v, (k + l)%nat) :: mono_mul a' b'
        end
  end.

Lemma mono_mul_eval : forall e a b, meval e (mono_mul a b) = meval e a * meval e b.
Proof.
  intros e a. induction a as [| [v k] a IH]; intro b; cbn [mono_mul meval]. { ring. }
  induction b as [| [w l] b IHb]; cbn [meval]. { ring. }
  destruct (Nat.ltb v w) eqn:H1; cbn [meval].
  - rewrite IH. cbn [meval]. ring.
  - destruct (Nat.ltb w v) eqn:H2; cbn [meval].
    + rewrite IHb. ring.
    + apply Nat.ltb_ge in H1. apply Nat.ltb_ge in H2.
      assert (w = v) by lia. subst. rewrite IH, zpow_add. ring.
Qed.

Fixpoint mono_eqb (a b : mono) : bool :=
  match a, b with
  | [], [] => true
  | (v, k) :: a', (w, l) :: b' => Nat.eqb v w && Nat.eqb k l && mono_eqb a' b'
  | _, _ => false
  end.

Lemma mono_eqb_eq : forall a b, mono_eqb a b = true -> a = b.
Proof.
  induction a as [| [v k] a IH]; destruct b as [| [w l] b]; cbn; try congruence.
  intro H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  apply Nat.eqb_eq in H1. apply Nat.eqb_eq in H2. rewrite (IH b H3). congruence.
Qed.

(** Adding one term: Rust's [from_terms] merge of equal monomials, dropping
    a zero coefficient. *)
Fixpoint add_term (m : mono) (c : Z) (p : poly) : poly :=
  match p with
  | [] => if Z.eqb c 0 then [] else [(m, c)]
  | (m', c') :: r =>
      if mono_eqb m m' then (if Z.eqb (c + c') 0 then r else (m', c + c') :: r)
      else (m', c') :: add_term m c r
  end.

Lemma add_term_eval : forall e m c p, peval e (add_term m c p) = c * meval e m + peval e p.
Proof.
  intros e m c p. induction p as [| [m' c'] r IH]; cbn [add_term].
  - destruct (Z.eqb_spec c 0); cbn [peval]; subst; ring.
  - destruct (mono_eqb m m') eqn:E.
    + apply mono_eqb_eq in E. subst. destruct (Z.eqb_spec (c + c') 0); cbn [peval].
      * assert (c' = - c) by lia. subst. ring.
      * ring.
    + cbn [peval]. rewrite IH. ring.
Qed.

Definition padd (p q : poly) : poly := fold_right (fun t acc => add_term (fst t) (snd t) acc) q p.
Definition pscale (k : Z) (p : poly) : poly :=
  fold_right (fun t acc => add_term (fst t) (k * snd t) acc) [] p.
Definition psub (p q : poly) : poly := padd p (pscale (-1) q).
Definition pconst (c : Z) : poly := if Z.eqb c 0 then [] else [([], c)].
Definition pvar (v : nat) : poly := [([(v, 1%nat)], 1)].
Definition pmul_term (m : mono) (c : Z) (q : poly) : poly :=
  fold_right (fun t acc => add_term (mono_mul m (fst t)) (c * snd t) acc) [] q.
Definition pmul (p q : poly) : poly :=
  fold_right (fun t acc => padd (pmul_term (fst t) (snd t) q) acc) [] p.
Fixpoint ppow (q : poly) (k : nat) : poly :=
  match k with O => pconst 1 | S k => pmul q (ppow q k) end.
Fixpoint msubst (f : nat -> poly) (m : mono) : poly :=
  match m with [] => pconst 1 | (v, k) :: r => pmul (ppow (f v) k) (msubst f r) end.
(** Rust's [Poly::substitute] (without quotient atoms). *)
Definition psubst (f : nat -> poly) (p : poly) : poly :=
  fold_right (fun t acc => padd (pscale (snd t) (msubst f (fst t))) acc) [] p.

Lemma padd_eval : forall e p q, peval e (padd p q) = peval e p + peval e q.
Proof.
  intros e p q. induction p as [| [m c] r IH]; cbn [padd fold_right peval fst snd]. { ring. }
  unfold padd in IH. rewrite add_term_eval, IH. ring.
Qed.

Lemma pscale_eval : forall e k p, peval e (pscale k p) = k * peval e p.
Proof.
  intros e k p. induction p as [| [m c] r IH]; cbn [pscale fold_right peval fst snd]. { ring. }
  unfold pscale in IH. rewrite add_term_eval, IH. ring.
Qed.

Lemma psub_eval : forall e p q, peval e (psub p q) = peval e p - peval e q.
Proof. intros. unfold psub. rewrite padd_eval, pscale_eval. ring. Qed.

Lemma pconst_eval : forall e c, peval e (pconst c) = c.
Proof. intros. unfold pconst. destruct (Z.eqb_spec c 0); cbn [peval meval]; lia. Qed.

Lemma pvar_eval : forall e v, peval e (pvar v) = e v.
Proof. intros. cbn [pvar peval meval zpow]. ring. Qed.

Lemma pmul_term_eval : forall e m c q, peval e (pmul_term m c q) = c * meval e m * peval e q.
Proof.
  intros e m c q. induction q as [| [m' c'] r IH]; cbn [pmul_term fold_right peval fst snd]. { ring. }
  unfold pmul_term in IH. rewrite add_term_eval, IH, mono_mul_eval. ring.
Qed.

Lemma pmul_eval : forall e p q, peval e (pmul p q) = peval e p * peval e q.
Proof.
  intros e p q. induction p as [| [m c] r IH]; cbn [pmul fold_right peval fst snd]. { ring. }
  unfold pmul in IH. rewrite padd_eval, pmul_term_eval, IH. ring.
Qed.

Lemma ppow_eval : forall e q k, peval e (ppow q k) = zpow (peval e q) k.
Proof.
  intros e q k. induction k; cbn [ppow zpow]. { apply pconst_eval. }
  rewrite pmul_eval, IHk. ring.
Qed.

Lemma msubst_eval : forall e f m, peval e (msubst f m) = meval (fun v => peval e (f v)) m.
Proof.
  intros e f m. induction m as [| [v k] r IH]; cbn [msubst meval]. { apply pconst_eval. }
  rewrite pmul_eval, ppow_eval, IH. ring.
Qed.

Lemma psubst_eval : forall e f p, peval e (psubst f p) = peval (fun v => peval e (f v)) p.
Proof.
  intros e f p. induction p as [| [m c] r IH]; cbn [psubst fold_right peval fst snd]. { ring. }
  unfold psubst in IH. rewrite padd_eval, pscale_eval, msubst_eval, IH. ring.
Qed.

Definition is_zero (p : poly) : bool := match p with [] => true | _ => false end.

Lemma is_zero_psub : forall e a b, is_zero (psub a b) = true -> peval e a = peval e b.
Proof.
  intros e a b H. pose proof (psub_eval e a b) as E.
  destruct (psub a b); cbn in H; [| discriminate]. cbn in E. lia.
Qed.

(** Rust's [as_const], [constant_term] and the gcd of the non-constant
    coefficients (a fold of [gcd] from 0). *)
Definition as_const (p : poly) : option Z :=
  match p with [] => Some 0 | [([], c)] => Some c | _ => None end.

Fixpoint const_term (p : poly) : Z :=
  match p with
  | [] => 0
  | ([], c) :: r => c + const_term r
  | _ :: r => const_term r
  end.

Fixpoint coef_gcd (p : poly) : Z :=
  match p with
  | [] => 0
  | ([], _) :: r => coef_gcd r
  | (_, c) :: r => Z.gcd (coef_gcd r) c
  end.

Lemma as_const_eval : forall e p c, as_const p = Some c -> peval e p = c.
Proof.
  intros e p c H. destruct p as [| [m c'] [| t r]]; cbn in H.
  - inversion H. reflexivity.
  - destruct m; inversion H; subst. cbn. ring.
  - destruct m; discriminate.
Qed.

Lemma coef_gcd_divides : forall e p, (coef_gcd p | peval e p - const_term p).
Proof.
  intros e p. induction p as [| [m c] r IH]; cbn [coef_gcd const_term peval].
  - exists 0. ring.
  - destruct m as [| t m].
    + cbn [meval]. replace (c * 1 + peval e r - (c + const_term r)) with (peval e r - const_term r) by ring.
      exact IH.
    + replace (c * (meval e (t :: m)) + peval e r - const_term r)
        with (c * meval e (t :: m) + (peval e r - const_term r)) by ring.
      apply Z.divide_add_r.
      * apply Z.divide_mul_l. apply Z.gcd_divide_r.
      * eapply Z.divide_trans; [apply Z.gcd_divide_l | exact IH].
Qed.

Lemma coef_gcd_nonneg : forall p, 0 <= coef_gcd p.
Proof.
  induction p as [| [m c] r IH]; cbn. { lia. }
  destruct m; [exact IH | apply Z.gcd_nonneg].
Qed.

(** ** Intervals ([Iv]: optional, i.e. infinite, ends) *)

Record iv := mkiv { lo : option Z; hi : option Z }.

Definition olo (o : option Z) (x : Z) : Prop := match o with Some l => l <= x | None => True end.
Definition ohi (o : option Z) (x : Z) : Prop := match o with Some h => x <= h | None => True end.
Definition in_iv (x : Z) (I : iv) : Prop := olo (lo I) x /\ ohi (hi I) x.

Definition point (c : Z) : iv := mkiv (Some c) (Some c).
Definition top : iv := mkiv None None.
Definition oadd (a b : option Z) : option Z :=
  match a, b with Some x, Some y => Some (x + y) | _, _ => None end.
Definition iadd (I J : iv) : iv := mkiv (oadd (lo I) (lo J)) (oadd (hi I) (hi J)).
Definition oneg (a : option Z) : option Z := match a with Some x => Some (- x) | None => None end.
Definition ineg (I : iv) : iv := mkiv (oneg (hi I)) (oneg (lo I)).
Definition ispos (o : option Z) : bool := match o with Some x => 0 <=? x | None => false end.
Definition isneg (o : option Z) : bool := match o with Some x => x <=? 0 | None => false end.

(** Both factors [>= 0]: Rust's first non-finite case. *)
Definition imul_pos (I J : iv) : iv :=
  match lo I, lo J with
  | Some a, Some c =>
      mkiv (Some (a * c)) (match hi I, hi J with Some b, Some d => Some (b * d) | _, _ => None end)
  | _, _ => top
  end.

(** [Iv::mul]: the four corner products when every end is finite; otherwise
    the non-negative case, its two mirrors ([self.neg().mul(o).neg()] runs
    the non-negative case), or nothing. *)
Definition imul (I J : iv) : iv :=
  match lo I, hi I, lo J, hi J with
  | Some a, Some b, Some c, Some d =>
      mkiv (Some (Z.min (Z.min (a * c) (a * d)) (Z.min (b * c) (b * d))))
           (Some (Z.max (Z.max (a * c) (a * d)) (Z.max (b * c) (b * d))))
  | _, _, _, _ =>
      if ispos (lo I) && ispos (lo J) then imul_pos I J
      else if isneg (hi I) && ispos (lo J) then ineg (imul_pos (ineg I) J)
      else if isneg (hi J) && ispos (lo I) then ineg (imul_pos I (ineg J))
      else top
  end.

Lemma iadd_sound : forall x y I J, in_iv x I -> in_iv y J -> in_iv (x + y) (iadd I J).
Proof.
  intros x y [[l1|] [h1|]] [[l2|] [h2|]]; unfold in_iv, iadd, oadd, olo, ohi; cbn; lia.
Qed.

Lemma ineg_sound : forall x I, in_iv x I -> in_iv (- x) (ineg I).
Proof. intros x [[l|] [h|]]; unfold in_iv, ineg, oneg, olo, ohi; cbn; lia. Qed.

Lemma imul_pos_sound : forall x y I J, ispos (lo I) = true -> ispos (lo J) = true ->
  in_iv x I -> in_iv y J -> in_iv (x * y) (imul_pos I J).
Proof.
  intros x y [[a|] hI] [[c|] hJ]; cbn; try discriminate.
  intros Ha Hc [Hx1 Hx2] [Hy1 Hy2]. apply Z.leb_le in Ha. apply Z.leb_le in Hc.
  cbn in *. unfold imul_pos, in_iv; cbn. split. { cbn. nia. }
  destruct hI as [b|], hJ as [d|]; cbn in *; nia.
Qed.

Lemma corner_min : forall a b c d x y, a <= x <= b -> c <= y <= d ->
  Z.min (Z.min (a * c) (a * d)) (Z.min (b * c) (b * d)) <= x * y.
Proof.
  intros. rewrite !Z.min_le_iff.
  destruct (Z.le_gt_cases 0 y), (Z.le_gt_cases 0 a), (Z.le_gt_cases 0 b).
  all: first [left; left; nia | left; right; nia | right; left; nia | right; right; nia].
Qed.

Lemma corner_max : forall a b c d x y, a <= x <= b -> c <= y <= d ->
  x * y <= Z.max (Z.max (a * c) (a * d)) (Z.max (b * c) (b * d)).
Proof.
  intros. rewrite !Z.max_le_iff.
  destruct (Z.le_gt_cases 0 y), (Z.le_gt_cases 0 a), (Z.le_gt_cases 0 b).
  all: first [left; left; nia | left; right; nia | right; left; nia | right; right; nia].
Qed.

Lemma imul_sound : forall x y I J, in_iv x I -> in_iv y J -> in_iv (x * y) (imul I J).
Proof.
  intros x y I J HI HJ. unfold imul.
  assert (Hgen : in_iv (x * y)
    (if ispos (lo I) && ispos (lo J) then imul_pos I J
     else if isneg (hi I) && ispos (lo J) then ineg (imul_pos (ineg I) J)
     else if isneg (hi J) && ispos (lo I) then ineg (imul_pos I (ineg J))
     else top)).
  { assert (M1 : isneg (hi I) = true -> ispos (lo (ineg I)) = true).
    { destruct I as [l [h|]]; cbn; intro H; try discriminate. apply Z.leb_le in H. apply Z.leb_le. lia. }
    assert (M2 : isneg (hi J) = true -> ispos (lo (ineg J)) = true).
    { destruct J as [l [h|]]; cbn; intro H; try discriminate. apply Z.leb_le in H. apply Z.leb_le. lia. }
    destruct (ispos (lo I)) eqn:P1, (ispos (lo J)) eqn:P2, (isneg (hi I)) eqn:N1,
      (isneg (hi J)) eqn:N2; cbn [andb].
    all: first
      [ apply imul_pos_sound; now auto
      | replace (x * y) with (- (- x * y)) by ring; apply ineg_sound;
        apply imul_pos_sound; [now auto | now auto | apply ineg_sound; exact HI | exact HJ]
      | replace (x * y) with (- (x * - y)) by ring; apply ineg_sound;
        apply imul_pos_sound; [now auto | now auto | exact HI | apply ineg_sound; exact HJ]
      | unfold in_iv, top; cbn; tauto ]. }
  destruct I as [[a|] [b|]], J as [[c|] [d|]]; cbn [lo hi] in *; try exact Hgen.
  destruct HI as [H1 H2], HJ as [H3 H4]; cbn in *.
  split; cbn; [apply corner_min | apply corner_max]; lia.
Qed.

(** Bounds of the quotient variables: [X'] in [[0, ymax]]. *)
Fixpoint ipow (t x : iv) (k : nat) : iv :=
  match k with O => t | S k => ipow (imul t x) x k end.

Lemma ipow_sound : forall k t x z y, in_iv z t -> in_iv y x -> in_iv (z * zpow y k) (ipow t x k).
Proof.
  induction k; intros t x z y Hz Hy; cbn [ipow zpow].
  - replace (z * 1) with z by ring. exact Hz.
  - replace (z * (y * zpow y k)) with ((z * y) * zpow y k) by ring.
    apply IHk; auto. apply imul_sound; auto.
Qed.

(** ** The fact base ([Facts::parse], [Facts::rebuild]) *)

(** A raw constraint on one name ([Kind] without [Def]). *)
Inductive kind : Type := KRes (m r : Z) | KLo (c : Z) | KHi (c : Z) | KVal (c : Z).

Definition kholds (k : kind) (v : Z) : Prop :=
  match k with
  | KRes m r => v mod m = r
  | KLo c => c <= v
  | KHi c => v <= c
  | KVal c => v = c
  end.

Definition wf_kind (k : kind) : Prop :=
  match k with KRes m r => 0 < m /\ 0 <= r < m | _ => True end.

Definition raw := (nat * kind)%type.

Inductive outcome (A : Type) : Type := Ok (a : A) | Contra | Unsup.
Arguments Ok {A} a.
Arguments Contra {A}.
Arguments Unsup {A}.

Fixpoint alookup {A : Type} (y : nat) (l : list (nat * A)) : option A :=
  match l with [] => None | (z, a) :: r => if Nat.eqb y z then Some a else alookup y r end.

(** The accumulator of one name: residue class [r mod m], lower and upper
    bound ([None]: none yet; Rust starts the lower bound at [i64::MIN], and
    every name gets its implicit [>= 1] before any other constraint). *)
Record acc := mkacc { am : Z; ar : Z; alo : option Z; ahi : option Z }.
Definition acc0 : acc := mkacc 1 0 None None.

(** The smallest value [>= l] of the class. *)
Definition x0_of (e : acc) (l : Z) : Z := l + (ar e - l) mod am e.

(** Rust's CRT search: [x], [x + em], ... until [x ≡ r2 (mod m2)]. *)
Fixpoint crt_search (fuel : nat) (x em r2 m2 : Z) : option Z :=
  match fuel with
  | O => None
  | S f => if (x - r2) mod m2 =? 0 then Some x else crt_search f (x + em) em r2 m2
  end.

Definition omax (o : option Z) (v : Z) : Z := match o with Some l => Z.max l v | None => v end.
Definition omin (o : option Z) (v : Z) : Z := match o with Some h => Z.min h v | None => v end.

(** One constraint folded in (the name is free, [a = 1], [b = 0]: Rust's
    [g = gcd(1, m) = 1], [m2 = m] and [r2 = (r mod m) * modinv(1, m) mod m
    = r mod m]). *)
Definition acc_kind (e : acc) (k : kind) : outcome acc :=
  match k with
  | KRes m r =>
      let r2 := r mod m in
      let g2 := Z.gcd (am e) m in
      if negb ((r2 - ar e) mod g2 =? 0) then Contra
      else
        let l := (am e / g2) * m in
        let steps := m / g2 in
        if 1048576 <? steps then Unsup
        else match crt_search (Z.to_nat (Z.max steps 1)) (ar e) (am e) r2 m with
             | None => Contra
             | Some x => Ok (mkacc l (x mod l) (alo e) (ahi e))
             end
  | KLo c => Ok (mkacc (am e) (ar e) (Some (omax (alo e) c)) (ahi e))
  | KHi c => Ok (mkacc (am e) (ar e) (alo e) (Some (omin (ahi e) c)))
  | KVal c => Ok (mkacc (am e) (ar e) (Some (omax (alo e) c)) (Some (omin (ahi e) c)))
  end.

(** Then Rust's consistency test: the smallest value [>= lo] is [<= hi]. *)
Definition acc_step (e : acc) (k : kind) : outcome acc :=
  match acc_kind e k with
  | Ok e' =>
      match alo e', ahi e' with
      | Some l, Some h => if h <? x0_of e' l then Contra else Ok e'
      | _, _ => Ok e'
      end
  | Contra => Contra
  | Unsup => Unsup
  end.

Definition cur (A : list (nat * acc)) (y : nat) : acc :=
  match alookup y A with Some e => e | None => acc0 end.

Fixpoint aupdate (y : nat) (k : kind) (A : list (nat * acc)) : outcome (list (nat * acc)) :=
  match A with
  | [] => match acc_step acc0 k with Ok e => Ok [(y, e)] | Contra => Contra | Unsup => Unsup end
  | (z, e) :: r =>
      if Nat.eqb y z then
        match acc_step e k with Ok e' => Ok ((z, e') :: r) | Contra => Contra | Unsup => Unsup end
      else match aupdate y k r with Ok r' => Ok ((z, e) :: r') | Contra => Contra | Unsup => Unsup end
  end.

Fixpoint fold_cons (A : list (nat * acc)) (cs : list raw) : outcome (list (nat * acc)) :=
  match cs with
  | [] => Ok A
  | (n, k) :: r =>
      match aupdate n k A with Ok A' => fold_cons A' r | Contra => Contra | Unsup => Unsup end
  end.

(** [NameInfo]: [X = x0 + m*X'], [0 <= X' <= ymax]. *)
Record info := mkinfo { im : Z; ix0 : Z; iymax : option Z }.

Definition info_of (e : acc) (l : Z) : info :=
  let x0 := x0_of e l in mkinfo (am e) x0 (option_map (fun h => (h - x0) / am e) (ahi e)).

Fixpoint finish (A : list (nat * acc)) : outcome (list (nat * info)) :=
  match A with
  | [] => Ok []
  | (y, e) :: r =>
      match alo e, finish r with
      | Some l, Ok F => Ok ((y, info_of e l) :: F)
      | _, Contra => Contra
      | _, _ => Unsup
      end
  end.

(** [rebuild]: the implicit [X >= 1] of every name (in order), then the facts. *)
Definition constraints (raws : list raw) : list raw :=
  map (fun r => (fst r, KLo 1)) raws ++ raws.

Definition rebuild (raws : list raw) : outcome (list (nat * info)) :=
  match fold_cons [] (constraints raws) with Ok A => finish A | Contra => Contra | Unsup => Unsup end.

(** *** Soundness of the fold *)

Definition sat_on (cs : list raw) (y : nat) (v : Z) : Prop := forall k, In (y, k) cs -> kholds k v.

Definition consistent (e : acc) : Prop :=
  match alo e, ahi e with Some l, Some h => x0_of e l <= h | _, _ => True end.

Definition acc_ok (e : acc) (cs : list raw) (y : nat) : Prop :=
  0 < am e /\
  (forall v, ((am e | v - ar e) /\ olo (alo e) v /\ ohi (ahi e) v) <-> sat_on cs y v) /\
  consistent e.

Lemma sat_on_app : forall cs y n k v,
  sat_on (cs ++ [(n, k)]) y v <-> sat_on cs y v /\ (n = y -> kholds k v).
Proof.
  unfold sat_on. intros. split.
  - intro H. split.
    + intros k' Hk. apply H. apply in_or_app. auto.
    + intros ->. apply H. apply in_or_app. right. left. reflexivity.
  - intros [H1 H2] k' Hk. apply in_app_or in Hk as [Hk | [Hk | []]].
    + auto.
    + inversion Hk. subst. auto.
Qed.

Lemma x0_class : forall e l, 0 < am e -> (am e | x0_of e l - ar e).
Proof.
  intros e l Hm. unfold x0_of.
  pose proof (Z.div_mod (ar e - l) (am e) ltac:(lia)).
  exists (- ((ar e - l) / am e)). lia.
Qed.

Lemma x0_ge : forall e l, 0 < am e -> l <= x0_of e l.
Proof. intros. unfold x0_of. pose proof (Z.mod_pos_bound (ar e - l) (am e) H). lia. Qed.

Lemma x0_le : forall e l v, 0 < am e -> (am e | v - ar e) -> l <= v -> x0_of e l <= v.
Proof.
  intros e l v Hm [q Hq] Hl. unfold x0_of.
  assert (E : (ar e - l) mod am e = (v - l) mod am e).
  { replace (v - l) with ((ar e - l) + q * am e) by lia. rewrite Z.mod_add; lia. }
  rewrite E. pose proof (Z.mod_le (v - l) (am e) ltac:(lia) Hm). lia.
Qed.

Lemma divide_mod0 : forall a b, 0 < b -> (a mod b = 0 <-> (b | a)).
Proof. intros. split; intro H1; [apply Z.mod_divide | apply Z.mod_divide]; auto; lia. Qed.

Lemma crt_search_sound : forall fuel x em r2 m2 z, crt_search fuel x em r2 m2 = Some z ->
  (exists j, z = x + j * em) /\ (z - r2) mod m2 = 0.
Proof.
  induction fuel; intros x em r2 m2 z H; cbn in H; [discriminate |].
  destruct ((x - r2) mod m2 =? 0) eqn:E.
  - inversion H; subst. split; [exists 0; ring | apply Z.eqb_eq; exact E].
  - apply IHfuel in H as [[j Hj] H2]. split; [exists (j + 1); lia | exact H2].
Qed.

Lemma crt_search_complete : forall fuel x em r2 m2 (k : nat), (k < fuel)%nat ->
  (x + Z.of_nat k * em - r2) mod m2 = 0 -> crt_search fuel x em r2 m2 <> None.
Proof.
  induction fuel; intros x em r2 m2 k Hk H; [lia |]. cbn.
  destruct ((x - r2) mod m2 =? 0) eqn:E; [discriminate |].
  destruct k as [| k].
  - change (Z.of_nat 0) with 0 in H. replace (x + 0 * em - r2) with (x - r2) in H by ring.
    apply Z.eqb_neq in E. lia.
  - apply (IHfuel _ _ _ _ k); [lia |]. rewrite Nat2Z.inj_succ in H.
    replace (x + em + Z.of_nat k * em - r2) with (x + Z.succ (Z.of_nat k) * em - r2) by lia. exact H.
Qed.

Lemma lcm_eq : forall a m, 0 < a -> 0 < m -> (a / Z.gcd a m) * m = Z.lcm a m.
Proof.
  intros a m Ha Hm. unfold Z.lcm.
  destruct (Z.gcd_divide_l a m) as [p Hp]. destruct (Z.gcd_divide_r a m) as [q Hq].
  assert (G : 0 < Z.gcd a m). { pose proof (Z.gcd_nonneg a m). destruct (Z.eq_dec (Z.gcd a m) 0) as [E|E].
    - apply Z.gcd_eq_0 in E. lia.
    - lia. }
  remember (Z.gcd a m) as g.
  assert (E1 : a / g = p) by (rewrite Hp; apply Z.div_mul; lia).
  assert (E2 : m / g = q) by (rewrite Hq; apply Z.div_mul; lia).
  rewrite E1, E2. rewrite Z.abs_eq by nia. rewrite Hp. ring_simplify. rewrite Hq. ring.
Qed.

(** The new class after a residue: exactly the intersection. *)
Lemma acc_kind_res_ok : forall e m r e', 0 < am e -> 0 < m ->
  acc_kind e (KRes m r) = Ok e' ->
  0 < am e' /\ alo e' = alo e /\ ahi e' = ahi e /\
  forall v, (am e' | v - ar e') <-> ((am e | v - ar e) /\ (m | v - r mod m)).
Proof.
  intros e m r e' Ha Hm H. cbn in H.
  destruct (negb ((r mod m - ar e) mod Z.gcd (am e) m =? 0)); [discriminate |].
  destruct (1048576 <? m / Z.gcd (am e) m); [discriminate |].
  destruct (crt_search _ _ _ _ _) as [x|] eqn:S; [| discriminate].
  inversion H; subst; clear H. cbn.
  apply crt_search_sound in S as [[j Hj] Hx].
  rewrite lcm_eq by lia.
  assert (HL : 0 < Z.lcm (am e) m).
  { pose proof (Z.lcm_nonneg (am e) m). destruct (Z.eq_dec (Z.lcm (am e) m) 0) as [E|E].
    - apply Z.lcm_eq_0 in E. lia.
    - lia. }
  split; [exact HL |]. split; [reflexivity |]. split; [reflexivity |].
  apply divide_mod0 in Hx; [| lia].
  intro v.
  assert (Cx : (Z.lcm (am e) m | x - x mod Z.lcm (am e) m)).
  { pose proof (Z.div_mod x (Z.lcm (am e) m) ltac:(lia)). exists (x / Z.lcm (am e) m). lia. }
  split.
  - intro Hv. assert (Hvx : (Z.lcm (am e) m | v - x)).
    { replace (v - x) with ((v - x mod Z.lcm (am e) m) - (x - x mod Z.lcm (am e) m)) by ring.
      apply Z.divide_sub_r; auto. }
    split.
    + replace (v - ar e) with ((v - x) + j * am e) by lia.
      apply Z.divide_add_r; [| apply Z.divide_mul_r, Z.divide_refl].
      eapply Z.divide_trans; [apply Z.divide_lcm_l | exact Hvx].
    + replace (v - r mod m) with ((v - x) + (x - r mod m)) by ring.
      apply Z.divide_add_r; auto.
      eapply Z.divide_trans; [apply Z.divide_lcm_r | exact Hvx].
  - intros [H1 H2].
    assert (Hvx : (Z.lcm (am e) m | v - x)).
    { apply Z.lcm_least.
      - replace (v - x) with ((v - ar e) - j * am e) by lia.
        apply Z.divide_sub_r; auto. apply Z.divide_mul_r, Z.divide_refl.
      - replace (v - x) with ((v - r mod m) - (x - r mod m)) by ring. apply Z.divide_sub_r; auto. }
    replace (v - x mod Z.lcm (am e) m) with ((v - x) + (x - x mod Z.lcm (am e) m)) by ring.
    apply Z.divide_add_r; auto.
Qed.

Lemma kres_iff : forall m r v, 0 < m -> 0 <= r < m -> (v mod m = r <-> (m | v - r mod m)).
Proof.
  intros m r v Hm Hr. rewrite Z.mod_small with (a := r) by lia. split.
  - intro H. exists (v / m). pose proof (Z.div_mod v m ltac:(lia)). lia.
  - intros [q Hq]. replace v with (r + q * m) by lia. rewrite Z.mod_add by lia.
    apply Z.mod_small; lia.
Qed.

Lemma acc_kind_ok : forall e cs y k e', acc_ok e cs y -> wf_kind k -> acc_kind e k = Ok e' ->
  0 < am e' /\ forall v, ((am e' | v - ar e') /\ olo (alo e') v /\ ohi (ahi e') v) <->
                         sat_on (cs ++ [(y, k)]) y v.
Proof.
  intros e cs y k e' [Hm [Hiff _]] Hwf H. split.
  - destruct k; cbn in H; try (inversion H; subst; cbn; exact Hm).
    destruct Hwf. eapply acc_kind_res_ok in H as [? _]; auto.
  - intro v. rewrite sat_on_app. rewrite <- Hiff.
    destruct k as [m r | c | c | c]; cbn [kholds wf_kind] in *.
    + destruct Hwf as [Hm0 Hr]. eapply acc_kind_res_ok in H as [_ [Hl [Hh Hc]]]; auto.
      rewrite Hl, Hh, Hc, kres_iff by auto. intuition.
    + inversion H; subst; cbn. destruct (alo e); cbn; intuition lia.
    + inversion H; subst; cbn. destruct (ahi e); cbn; intuition lia.
    + inversion H; subst; cbn. destruct (alo e), (ahi e); cbn; intuition lia.
Qed.

Lemma acc_step_ok : forall e cs y k e', acc_ok e cs y -> wf_kind k -> acc_step e k = Ok e' ->
  acc_ok e' (cs ++ [(y, k)]) y.
Proof.
  intros e cs y k e' Hok Hwf H. unfold acc_step in H.
  destruct (acc_kind e k) as [e1| |] eqn:K; try discriminate.
  destruct (acc_kind_ok e cs y k e1 Hok Hwf K) as [Hm Hiff].
  assert (e' = e1 /\ consistent e1) as [-> Hc].
  { unfold consistent. destruct (alo e1) as [l|], (ahi e1) as [h|];
      try (inversion H; subst; split; auto; fail).
    destruct (h <? x0_of e1 l) eqn:L; inversion H; subst. apply Z.ltb_ge in L. split; auto. }
  split; [exact Hm | split; [exact Hiff | exact Hc]].
Qed.

(** A contradiction: no value of the name meets its constraints. *)
Lemma acc_step_contra : forall e cs y k, acc_ok e cs y -> wf_kind k -> acc_step e k = Contra ->
  forall v, ~ sat_on (cs ++ [(y, k)]) y v.
Proof.
  intros e cs y k Hok Hwf H v Hv. unfold acc_step in H.
  destruct (acc_kind e k) as [e1| |] eqn:K.
  - destruct (acc_kind_ok e cs y k e1 Hok Hwf K) as [Hm Hiff].
    apply Hiff in Hv as [Hc [Hl Hh]].
    destruct (alo e1) as [l|], (ahi e1) as [h|]; try discriminate.
    destruct (h <? x0_of e1 l) eqn:L; [| discriminate]. apply Z.ltb_lt in L.
    cbn in Hl, Hh. pose proof (x0_le e1 l v Hm Hc Hl). lia.
  - destruct Hok as [Hm [Hiff _]]. apply sat_on_app in Hv as [Hv Hk].
    specialize (Hk eq_refl). apply Hiff in Hv as [Hc _].
    destruct k as [m r | | |]; cbn in K; try discriminate. destruct Hwf as [Hm0 Hr].
    apply (kres_iff m r v Hm0 Hr) in Hk.
    destruct (negb ((r mod m - ar e) mod Z.gcd (am e) m =? 0)) eqn:G.
    + apply negb_true_iff, Z.eqb_neq in G. apply G. apply divide_mod0.
      { pose proof (Z.gcd_nonneg (am e) m). destruct (Z.eq_dec (Z.gcd (am e) m) 0) as [E|E];
          [apply Z.gcd_eq_0 in E; lia | lia]. }
      replace (r mod m - ar e) with ((v - ar e) - (v - r mod m)) by ring.
      apply Z.divide_sub_r.
      * eapply Z.divide_trans; [apply Z.gcd_divide_l | exact Hc].
      * eapply Z.divide_trans; [apply Z.gcd_divide_r | exact Hk].
    + destruct (1048576 <? m / Z.gcd (am e) m); [discriminate |].
      destruct (crt_search _ _ _ _ _) eqn:S; [discriminate |].
      set (g := Z.gcd (am e) m) in *.
      assert (Hg : 0 < g).
      { pose proof (Z.gcd_nonneg (am e) m). destruct (Z.eq_dec g 0) as [E|E];
          [apply Z.gcd_eq_0 in E; lia | unfold g in *; lia]. }
      destruct (Z.gcd_divide_r (am e) m) as [K1 HK1]. fold g in HK1.
      destruct (Z.gcd_divide_l (am e) m) as [A1 HA1]. fold g in HA1.
      assert (EK : m / g = K1) by (rewrite HK1; apply Z.div_mul; lia).
      rewrite EK in S.
      destruct Hc as [j Hj].
      assert (HK : 0 < K1) by nia.
      apply (crt_search_complete (Z.to_nat (Z.max K1 1)) (ar e) (am e) (r mod m) m
               (Z.to_nat (j mod K1))).
      * pose proof (Z.mod_pos_bound j K1 HK). lia.
      * rewrite Z2Nat.id by (pose proof (Z.mod_pos_bound j K1 HK); lia).
        apply divide_mod0; [lia |].
        replace (ar e + j mod K1 * am e - r mod m)
          with ((v - r mod m) - (j / K1) * A1 * m) by (pose proof (Z.div_mod j K1 ltac:(lia)); nia).
        apply Z.divide_sub_r; [exact Hk | apply Z.divide_mul_r, Z.divide_refl].
      * exact S.
  - discriminate.
Qed.

Definition inv (A : list (nat * acc)) (cs : list raw) : Prop :=
  forall y, (alookup y A = None -> forall k, ~ In (y, k) cs) /\
            (forall e, alookup y A = Some e -> acc_ok e cs y /\ exists k, In (y, k) cs).

Lemma acc0_ok : forall cs y, (forall k, ~ In (y, k) cs) -> acc_ok acc0 cs y.
Proof.
  intros cs y H. split; [cbn; lia | split].
  - intro v. cbn. split.
    + intros _ k Hk. exfalso. exact (H k Hk).
    + intros _. split; [apply Z.divide_1_l | split; exact I].
  - exact I.
Qed.

Lemma cur_ok : forall A cs y, inv A cs -> acc_ok (cur A y) cs y.
Proof.
  intros A cs y H. unfold cur. destruct (H y) as [H1 H2].
  destruct (alookup y A) as [e|] eqn:E; [apply (H2 e eq_refl) | apply acc0_ok; auto].
Qed.

Lemma aupdate_ok : forall n k A A', aupdate n k A = Ok A' ->
  exists e', acc_step (cur A n) k = Ok e' /\ alookup n A' = Some e' /\
             forall y, y <> n -> alookup y A' = alookup y A.
Proof.
  intros n k A. induction A as [| [z e] r IH]; intros A' H; cbn in H.
  - destruct (acc_step acc0 k) as [e'| |] eqn:S; inversion H; subst.
    exists e'. unfold cur. cbn. rewrite Nat.eqb_refl. split; [first [exact S | reflexivity] | split; [reflexivity |]].
    intros y Hy. apply Nat.eqb_neq in Hy. rewrite Hy. reflexivity.
  - unfold cur. cbn. destruct (Nat.eqb n z) eqn:E.
    + apply Nat.eqb_eq in E. subst.
      destruct (acc_step e k) as [e'| |] eqn:S; inversion H; subst.
      exists e'. cbn. rewrite Nat.eqb_refl. split; [first [exact S | reflexivity] | split; [reflexivity |]].
      intros y Hy. apply Nat.eqb_neq in Hy. rewrite Hy. reflexivity.
    + destruct (aupdate n k r) as [r'| |] eqn:U; inversion H; subst.
      destruct (IH r' eq_refl) as [e' [S [L O]]]. exists e'.
      cbn. rewrite E. split; [exact S | split; [exact L |]].
      intros y Hy. destruct (Nat.eqb y z); auto.
Qed.

Lemma aupdate_contra : forall n k A, aupdate n k A = Contra -> acc_step (cur A n) k = Contra.
Proof.
  intros n k A. induction A as [| [z e] r IH]; intro H; cbn in H.
  - destruct (acc_step acc0 k) eqn:S; inversion H. exact S.
  - unfold cur. cbn. destruct (Nat.eqb n z) eqn:E.
    + destruct (acc_step e k) eqn:S; inversion H. reflexivity.
    + destruct (aupdate n k r) eqn:U; inversion H. apply IH. reflexivity.
Qed.

Lemma inv_step : forall A cs n k A', inv A cs -> wf_kind k -> aupdate n k A = Ok A' ->
  inv A' (cs ++ [(n, k)]).
Proof.
  intros A cs n k A' HI Hwf H. destruct (aupdate_ok n k A A' H) as [e' [S [L O]]].
  intro y. destruct (Nat.eq_dec y n) as [->|Hy].
  - rewrite L. split; [discriminate |]. intros e E. inversion E; subst.
    split.
    + eapply acc_step_ok; [apply cur_ok; exact HI | exact Hwf | exact S].
    + exists k. apply in_or_app. right. left. reflexivity.
  - rewrite (O y Hy). destruct (HI y) as [H1 H2]. split.
    + intros N k' Hk. apply in_app_or in Hk as [Hk | [Hk | []]].
      * exact (H1 N k' Hk).
      * inversion Hk. congruence.
    + intros e E. destruct (H2 e E) as [[Hm [Hiff Hc]] [k0 Hk0]]. split.
      * split; [exact Hm | split; [| exact Hc]]. intro v. rewrite Hiff, sat_on_app.
        split; [intro; split; auto; intros; congruence | tauto].
      * exists k0. apply in_or_app. left. exact Hk0.
Qed.

Lemma fold_cons_ok : forall rest A cs A', inv A cs -> Forall (fun r => wf_kind (snd r)) rest ->
  fold_cons A rest = Ok A' -> inv A' (cs ++ rest).
Proof.
  induction rest as [| [n k] rest IH]; intros A cs A' HI Hwf H; cbn in H.
  - inversion H; subst. rewrite app_nil_r. exact HI.
  - inversion Hwf; subst. destruct (aupdate n k A) as [A1| |] eqn:U; try discriminate.
    replace (cs ++ (n, k) :: rest) with ((cs ++ [(n, k)]) ++ rest) by (rewrite <- app_assoc; reflexivity).
    eapply IH; [eapply inv_step; eauto | exact H3 | exact H].
Qed.

Lemma fold_cons_contra : forall rest A cs (e : env), inv A cs ->
  Forall (fun r => wf_kind (snd r)) rest -> fold_cons A rest = Contra ->
  ~ (forall n k, In (n, k) (cs ++ rest) -> kholds k (e n)).
Proof.
  induction rest as [| [n k] rest IH]; intros A cs e HI Hwf H Hall; cbn in H; [discriminate |].
  inversion Hwf; subst.
  destruct (aupdate n k A) as [A1| |] eqn:U; try discriminate.
  - apply (IH A1 (cs ++ [(n, k)]) e); auto.
    + eapply inv_step; eauto.
    + intros n' k' Hk. apply Hall. rewrite <- app_assoc in Hk. exact Hk.
  - apply aupdate_contra in U.
    apply (acc_step_contra (cur A n) cs n k (cur_ok A cs n HI) H2 U (e n)).
    intros k' Hk. apply Hall. apply in_app_or in Hk as [Hk | Hk]; apply in_or_app;
      [left; exact Hk | right; destruct Hk as [Hk | []]; left; exact Hk].
Qed.

Lemma finish_ok : forall A F, finish A = Ok F -> forall y,
  (forall i, alookup y F = Some i -> exists e l, alookup y A = Some e /\ alo e = Some l /\ i = info_of e l) /\
  (alookup y F = None -> alookup y A = None).
Proof.
  induction A as [| [z e] r IH]; intros F H y; cbn in H.
  - inversion H; subst. cbn. split; [discriminate | auto].
  - destruct (alo e) as [l|] eqn:Lo; destruct (finish r) as [F'| |] eqn:Fr; try discriminate.
    inversion H; subst. cbn. destruct (Nat.eqb y z) eqn:E.
    + split; [| discriminate]. intros i Hi. inversion Hi; subst. exists e, l. auto.
    + apply (IH F' eq_refl y).
Qed.

Definition raws_hold (e : env) (raws : list raw) : Prop := forall n k, In (n, k) raws -> kholds k (e n).
Definition wf_raws (raws : list raw) : Prop := Forall (fun r => wf_kind (snd r)) raws.

Lemma constraints_hold : forall e raws, (forall n, 1 <= e n) ->
  (raws_hold e raws <-> forall n k, In (n, k) ([] ++ constraints raws) -> kholds k (e n)).
Proof.
  intros e raws Hpos. cbn. unfold constraints, raws_hold. split.
  - intros H n k Hk. apply in_app_or in Hk as [Hk | Hk]; auto.
    apply in_map_iff in Hk as [[n' k'] [Eq _]]. inversion Eq; subst. cbn. apply Hpos.
  - intros H n k Hk. apply H. apply in_or_app. right. exact Hk.
Qed.

Lemma constraints_wf : forall raws, wf_raws raws -> Forall (fun r => wf_kind (snd r)) (constraints raws).
Proof.
  intros raws H. unfold constraints. apply Forall_app. split; auto.
  apply Forall_forall. intros x Hx. apply in_map_iff in Hx as [r [<- _]]. exact I.
Qed.

Lemma inv_nil : inv [] [].
Proof. intro y. split; [intros _ k [] | discriminate]. Qed.

(** The form of a value: [v = x0 + m*t], [0 <= t <= ymax]. *)
Definition form_ok (i : info) (v : Z) : Prop :=
  exists t, v = ix0 i + im i * t /\ 0 <= t /\ (forall h, iymax i = Some h -> t <= h).

Lemma info_form : forall e cs y l, acc_ok e cs y -> alo e = Some l ->
  forall v, sat_on cs y v <-> form_ok (info_of e l) v.
Proof.
  intros e cs y l [Hm [Hiff Hc]] Hl v. rewrite <- Hiff. rewrite Hl. unfold form_ok, info_of. cbn.
  pose proof (x0_class e l Hm) as Cx. pose proof (x0_ge e l Hm) as Gx.
  split.
  - intros [Hd [Hlo Hhi]]. pose proof (x0_le e l v Hm Hd Hlo) as Le.
    assert (D : (am e | v - x0_of e l)).
    { replace (v - x0_of e l) with ((v - ar e) - (x0_of e l - ar e)) by ring. apply Z.divide_sub_r; auto. }
    destruct D as [t Ht]. exists t. split; [lia | split; [nia |]].
    intros h Hh. destruct (ahi e) as [h'|]; inversion Hh; subst. cbn in Hhi.
    apply Z.div_le_lower_bound; lia.
  - intros [t [Ht [Ht0 Hth]]]. split; [| split].
    + replace (v - ar e) with ((x0_of e l - ar e) + t * am e) by lia.
      apply Z.divide_add_r; auto. apply Z.divide_mul_r, Z.divide_refl.
    + cbn. nia.
    + destruct (ahi e) as [h|]; cbn; [| exact I].
      specialize (Hth _ eq_refl). pose proof (Z.mul_div_le (h - x0_of e l) (am e) Hm). nia.
Qed.

(** [rebuild_exact]: the normalized base describes exactly the assignments
    that satisfy the facts. *)
Theorem rebuild_exact : forall raws F, wf_raws raws -> rebuild raws = Ok F ->
  forall e : env, (forall n, 1 <= e n) ->
  (raws_hold e raws <-> forall y i, alookup y F = Some i -> form_ok i (e y)).
Proof.
  intros raws F Hwf H e Hpos. unfold rebuild in H.
  destruct (fold_cons [] (constraints raws)) as [A| |] eqn:Fo; try discriminate.
  pose proof (fold_cons_ok _ _ _ _ inv_nil (constraints_wf raws Hwf) Fo) as HI.
  rewrite (constraints_hold e raws Hpos). split.
  - intros Hall y i Hi. destruct (finish_ok A F H y) as [Hs _].
    destruct (Hs i Hi) as [a [l [Ha [Hl ->]]]]. destruct (HI y) as [_ H2].
    destruct (H2 a Ha) as [Hok _]. apply (info_form a _ y l Hok Hl). intros k Hk. apply Hall. exact Hk.
  - intros Hf n k Hk. destruct (HI n) as [H1 H2].
    destruct (alookup n A) as [a|] eqn:Ha; [| exfalso; exact (H1 eq_refl k Hk)].
    destruct (finish_ok A F H n) as [_ Hn].
    destruct (alookup n F) as [i|] eqn:Fi.
    + destruct (finish_ok A F H n) as [Hs _]. destruct (Hs i Fi) as [a' [l [Ha' [Hl ->]]]].
      rewrite Ha in Ha'. inversion Ha'; subst.
      destruct (H2 a' eq_refl) as [Hok _].
      specialize (Hf n _ Fi). apply (info_form a' _ n l Hok Hl) in Hf. exact (Hf k Hk).
    + specialize (Hn eq_refl). congruence.
Qed.

Lemma finish_not_contra : forall A, finish A <> Contra.
Proof.
  induction A as [| [z e] r IH]; cbn; [discriminate |].
  destruct (alo e), (finish r); try discriminate; congruence.
Qed.

(** [rebuild_contra]: a contradiction only when no assignment satisfies the facts. *)
Theorem rebuild_contra : forall raws, wf_raws raws -> rebuild raws = Contra ->
  forall e : env, (forall n, 1 <= e n) -> ~ raws_hold e raws.
Proof.
  intros raws Hwf H e Hpos Hh. unfold rebuild in H.
  destruct (fold_cons [] (constraints raws)) as [A| |] eqn:Fo.
  - exfalso. exact (finish_not_contra A H).
  - apply (fold_cons_contra _ _ _ e inv_nil (constraints_wf raws Hwf) Fo).
    apply (proj1 (constraints_hold e raws Hpos)). exact Hh.
  - discriminate.
Qed.

(** The normalized facts of a name: [m > 0], [x0 >= 1], [ymax >= 0]. *)
Theorem rebuild_info : forall raws F, wf_raws raws -> rebuild raws = Ok F ->
  forall y i, alookup y F = Some i ->
  0 < im i /\ 1 <= ix0 i /\ (forall h, iymax i = Some h -> 0 <= h).
Proof.
  intros raws F Hwf H y i Hi. unfold rebuild in H.
  destruct (fold_cons [] (constraints raws)) as [A| |] eqn:Fo; try discriminate.
  pose proof (fold_cons_ok _ _ _ _ inv_nil (constraints_wf raws Hwf) Fo) as HI.
  destruct (finish_ok A F H y) as [Hs _]. destruct (Hs i Hi) as [a [l [Ha [Hl ->]]]].
  destruct (HI y) as [_ H2]. destruct (H2 a Ha) as [Hok [k Hk]].
  pose proof Hok as [Hm [_ Hc]].
  assert (Hx : form_ok (info_of a l) (x0_of a l)).
  { exists 0. unfold info_of. cbn. split; [ring | split; [lia |]].
    intros h Hh. destruct (ahi a) as [h'|] eqn:Eh; inversion Hh; subst.
    unfold consistent in Hc. rewrite Hl, Eh in Hc. apply Z.div_pos; lia. }
  apply (info_form a _ y l Hok Hl) in Hx.
  split; [exact Hm | split].
  - apply (Hx (KLo 1)). cbn. unfold constraints. apply in_or_app. left.
    cbn [app] in Hk. unfold constraints in Hk. apply in_app_or in Hk as [Hk | Hk].
    + apply in_map_iff in Hk as [r [Eq Hr]]. apply in_map_iff. exists r. split; auto.
      inversion Eq. reflexivity.
    + apply in_map_iff. exists (y, k). auto.
  - intros h Hh. unfold info_of in Hh. cbn in Hh. destruct (ahi a) as [h'|] eqn:Eh; inversion Hh; subst.
    unfold consistent in Hc. rewrite Hl, Eh in Hc. apply Z.div_pos; lia.
Qed.

(** ** The decisions *)

Definition info_or_default (F : list (nat * info)) (n : nat) : info :=
  match alookup n F with Some i => i | None => mkinfo 1 1 None end.

(** [y_of]: [X ↦ x0 + m*X'] (the constant [x0] when [ymax = 0]). *)
Definition yform (F : list (nat * info)) (n : nat) : poly :=
  let i := info_or_default F n in
  match iymax i with
  | Some 0 => pconst (ix0 i)
  | _ => padd (pscale (im i) (pvar n)) (pconst (ix0 i))
  end.

Definition to_y (F : list (nat * info)) (p : poly) : poly :=
  match as_const p with Some _ => p | None => psubst (yform F) p end.

Definition var_iv (F : list (nat * info)) (v : nat) : iv := mkiv (Some 0) (iymax (info_or_default F v)).

Fixpoint term_iv (F : list (nat * info)) (t : iv) (m : mono) : iv :=
  match m with [] => t | (v, k) :: r => term_iv F (ipow t (var_iv F v) k) r end.

Fixpoint poly_iv (F : list (nat * info)) (acc : iv) (p : poly) : iv :=
  match p with [] => acc | (m, c) :: r => poly_iv F (iadd acc (term_iv F (point c) m)) r end.

(** [Facts::interval]. *)
Definition interval (F : list (nat * info)) (p : poly) : iv := poly_iv F (point 0) p.

Definition in_box (F : list (nat * info)) (y : env) : Prop := forall v, in_iv (y v) (var_iv F v).

Lemma interval_sound : forall F y p, in_box F y -> in_iv (peval y p) (interval F p).
Proof.
  intros F y p Hb. unfold interval.
  assert (G : forall p acc a, in_iv a acc -> in_iv (a + peval y p) (poly_iv F acc p)).
  { induction p0 as [| [m c] r IH]; intros acc a Ha; cbn [poly_iv peval].
    - replace (a + 0) with a by ring. exact Ha.
    - replace (a + (c * meval y m + peval y r)) with ((a + c * meval y m) + peval y r) by ring.
      apply IH. apply iadd_sound; auto.
      assert (T : forall m t z, in_iv z t -> in_iv (z * meval y m) (term_iv F t m)).
      { induction m0 as [| [v k] r' IHm]; intros t z Hz; cbn [term_iv meval].
        - replace (z * 1) with z by ring. exact Hz.
        - replace (z * (zpow (y v) k * meval y r')) with ((z * zpow (y v) k) * meval y r') by ring.
          apply IHm. apply ipow_sound; auto. }
      apply T. unfold point, in_iv; cbn; lia. }
  replace (peval y p) with (0 + peval y p) by ring. apply G. unfold point, in_iv; cbn; lia.
Qed.

Inductive rel : Type := RGe | REq | RNe | RDv | RNDv.
Record pred := mkpred { prel : rel; plhs : poly; prhs : poly }.

Definition divb (l r : Z) : bool := ((l =? 0) && (r =? 0)) || (negb (l =? 0) && (r mod l =? 0)).

(** [Pred::holds]. *)
Definition holdsb (e : env) (p : pred) : bool :=
  let l := peval e (plhs p) in
  let r := peval e (prhs p) in
  match prel p with
  | RGe => r <=? l
  | REq => l =? r
  | RNe => negb (l =? r)
  | RDv => divb l r
  | RNDv => negb (divb l r)
  end.

Definition gt0 (o : option Z) : bool := match o with Some x => 0 <? x | None => false end.
Definition lt0 (o : option Z) : bool := match o with Some x => x <? 0 | None => false end.

(** [decide_zero]: [Some false] by the coefficient gcd or the interval. *)
Definition decide_zero (F : list (nat * info)) (d : poly) : option bool :=
  match as_const d with
  | Some c => Some (c =? 0)
  | None =>
      let b := const_term d in
      let g := coef_gcd d in
      if negb (g =? 0) && negb (b mod g =? 0) then Some false
      else let I := interval F d in
           if gt0 (lo I) || lt0 (hi I) then Some false else None
  end.

(** Rust's [exact_div] (a one-term divisor dividing every term). *)
Fixpoint mono_remove (v k : nat) (m : mono) : option mono :=
  match m with
  | [] => None
  | (w, l) :: r =>
      if Nat.eqb v w then
        (if Nat.leb k l then Some (if Nat.eqb k l then r else (w, (l - k)%nat) :: r) else None)
      else option_map (cons (w, l)) (mono_remove v k r)
  end.

Fixpoint mono_div (m qm : mono) : option mono :=
  match qm with
  | [] => Some m
  | (a, k) :: r => match mono_remove a k m with Some m' => mono_div m' r | None => None end
  end.

Fixpoint exact_div_go (qm : mono) (qc : Z) (p : poly) : option poly :=
  match p with
  | [] => Some []
  | (m, c) :: r =>
      if negb (Z.rem c qc =? 0) then None
      else match mono_div m qm, exact_div_go qm qc r with
           | Some m', Some k => Some (add_term m' (Z.quot c qc) k)
           | _, _ => None
           end
  end.

Definition exact_div (p q : poly) : option poly :=
  match q with [(qm, qc)] => exact_div_go qm qc p | _ => None end.

(** [p.floor_div(q).mul(q) == p] with no quotient left, for a non-constant
    [q]: [p] is zero, equal to [q], or [q] divides it term by term. *)
Definition divides_exactly (p q : poly) : bool :=
  is_zero p || is_zero (psub p q) ||
  match exact_div p q with Some k => is_zero (psub (pmul k q) p) | None => false end.

Definition decide_divides (F : list (nat * info)) (q p : poly) : option bool :=
  let qy := to_y F q in
  let py := to_y F p in
  if match as_const py with Some c => c =? 0 | None => false end then Some true
  else match as_const qy with
       | Some c0 =>
           if c0 =? 0 then decide_zero F py
           else
             let c := Z.abs c0 in
             let b := const_term py in
             let g := coef_gcd py in
             if (g mod c =? 0) && (b mod c =? 0) then Some true
             else
               let g2 := Z.gcd c g in
               if negb (b mod (Z.max g2 1) =? 0) && negb (g2 =? 0) then Some false
               else if g =? 0 then Some (b mod c =? 0)
               else None
       | None =>
           if divides_exactly p q || divides_exactly py qy then Some true
           else match as_const py with
                | Some c => if match lo (interval F qy) with Some l => Z.abs c <? l | None => false end
                            then Some false else None
                | None => None
                end
       end.

(** [decide_static] (= [decide_quick]). *)
Definition decide_static (F : list (nat * info)) (p : pred) : option bool :=
  let l := plhs p in
  let r := prhs p in
  match prel p with
  | RGe =>
      match as_const (psub l r) with
      | Some d => Some (0 <=? d)
      | None =>
          let I := interval F (to_y F (psub l r)) in
          if ispos (lo I) then Some true else if lt0 (hi I) then Some false else None
      end
  | REq =>
      match as_const (psub l r) with
      | Some d => Some (d =? 0)
      | None => decide_zero F (to_y F (psub l r))
      end
  | RNe =>
      match as_const (psub l r) with
      | Some d => Some (negb (d =? 0))
      | None => option_map negb (decide_zero F (to_y F (psub l r)))
      end
  | RDv => decide_divides F l r
  | RNDv => option_map negb (decide_divides F l r)
  end.

(** *** Soundness *)

(** The quotient variables of an assignment of the form. *)
Definition yenv (F : list (nat * info)) (e : env) : env :=
  fun v => match alookup v F with Some i => (e v - ix0 i) / im i | None => e v - 1 end.

Definition fits (F : list (nat * info)) (e : env) : Prop :=
  (forall n, 1 <= e n) /\
  (forall y i, alookup y F = Some i -> form_ok i (e y) /\ 0 < im i).

Lemma yenv_spec : forall F e, fits F e ->
  in_box F (yenv F e) /\ forall v, peval (yenv F e) (yform F v) = e v.
Proof.
  intros F e [Hpos Hf].
  assert (K : forall v, (forall h, iymax (info_or_default F v) = Some h -> yenv F e v <= h) /\
                        0 <= yenv F e v /\
                        e v = ix0 (info_or_default F v) + im (info_or_default F v) * yenv F e v).
  { intro v. unfold yenv, info_or_default. destruct (alookup v F) as [i|] eqn:E.
    - destruct (Hf v i E) as [[t [Ht [Ht0 Hth]]] Hm].
      replace ((e v - ix0 i) / im i) with t by (rewrite Ht; replace (ix0 i + im i * t - ix0 i) with (t * im i) by ring;
        rewrite Z.div_mul; lia).
      split; [exact Hth | split; [exact Ht0 | exact Ht]].
    - cbn [iymax im ix0]. specialize (Hpos v). split; [intros h Hh; discriminate | split; lia]. }
  split.
  - intro v. destruct (K v) as [H1 [H2 _]]. unfold in_iv, var_iv; cbn. split; [exact H2 |].
    destruct (iymax (info_or_default F v)) as [h|]; cbn; auto.
  - intro v. destruct (K v) as [H1 [H2 H3]]. unfold yform.
    destruct (iymax (info_or_default F v)) as [[|h|h]|] eqn:Y.
    + rewrite pconst_eval. specialize (H1 0 eq_refl).
      assert (Y0 : yenv F e v = 0) by lia. rewrite Y0 in H3. lia.
    + rewrite padd_eval, pscale_eval, pvar_eval, pconst_eval. lia.
    + rewrite padd_eval, pscale_eval, pvar_eval, pconst_eval. lia.
    + rewrite padd_eval, pscale_eval, pvar_eval, pconst_eval. lia.
Qed.

Lemma to_y_eval : forall F e p, fits F e -> peval (yenv F e) (to_y F p) = peval e p.
Proof.
  intros F e p H. unfold to_y. destruct (as_const p) as [c|] eqn:C.
  - rewrite (as_const_eval _ p c C), (as_const_eval _ p c C). reflexivity.
  - rewrite psubst_eval. destruct (yenv_spec F e H) as [_ Hy].
    assert (Ext : forall q, peval (fun v => peval (yenv F e) (yform F v)) q = peval e q).
    { induction q as [| [m c] r IH]; cbn [peval]; [reflexivity |]. rewrite IH. f_equal. f_equal.
      induction m as [| [v k] m' IHm]; cbn [meval]; [reflexivity |]. rewrite IHm, Hy. reflexivity. }
    apply Ext.
Qed.

Lemma interval_y : forall F e p, fits F e -> in_iv (peval e p) (interval F (to_y F p)).
Proof.
  intros F e p H. rewrite <- (to_y_eval F e p H). apply interval_sound. apply (yenv_spec F e H).
Qed.

Lemma decide_zero_sound : forall F y d b, in_box F y -> decide_zero F d = Some b ->
  (peval y d =? 0) = b.
Proof.
  intros F y d b Hb H. unfold decide_zero in H.
  destruct (as_const d) as [c|] eqn:C.
  - inversion H; subst. rewrite (as_const_eval y d c C). reflexivity.
  - pose proof (coef_gcd_divides y d) as Dg. pose proof (coef_gcd_nonneg d) as Gn.
    destruct (negb (coef_gcd d =? 0) && negb (const_term d mod coef_gcd d =? 0)) eqn:G.
    + inversion H; subst. apply andb_true_iff in G as [G1 G2].
      apply negb_true_iff, Z.eqb_neq in G1. apply negb_true_iff, Z.eqb_neq in G2.
      apply Z.eqb_neq. intro Z0. rewrite Z0 in Dg. apply G2. apply divide_mod0; [lia |].
      replace (const_term d) with (- (0 - const_term d)) by ring. apply Z.divide_opp_r. exact Dg.
    + pose proof (interval_sound F y d Hb) as [Hl Hh].
      destruct (gt0 (lo (interval F d)) || lt0 (hi (interval F d))) eqn:I; inversion H; subst.
      apply Z.eqb_neq. apply orb_true_iff in I as [I | I].
      * destruct (lo (interval F d)) as [l|]; cbn in I, Hl; [apply Z.ltb_lt in I; lia | discriminate].
      * destruct (hi (interval F d)) as [h|]; cbn in I, Hh; [apply Z.ltb_lt in I; lia | discriminate].
Qed.

Lemma mod_abs_divide : forall c r, c <> 0 -> (r mod c = 0 <-> (Z.abs c | r)).
Proof.
  intros c r Hc. rewrite Z.divide_abs_l. split; intro H.
  - apply Z.mod_divide; auto.
  - apply Z.mod_divide; auto.
Qed.

Lemma divb_mul : forall k q, divb q (k * q) = true.
Proof.
  intros k q. unfold divb. destruct (Z.eqb_spec q 0) as [->|Hq].
  - replace (k * 0) with 0 by ring. reflexivity.
  - cbn. rewrite Z.mod_mul by auto. reflexivity.
Qed.

Lemma divides_exactly_sound : forall e p q, divides_exactly p q = true ->
  exists k, peval e p = k * peval e q.
Proof.
  intros e p q H. unfold divides_exactly in H. apply orb_true_iff in H as [H | H].
  - apply orb_true_iff in H as [H | H].
    + exists 0. destruct p; [reflexivity | discriminate].
    + exists 1. rewrite (is_zero_psub e p q H). ring.
  - destruct (exact_div p q) as [k|]; [| discriminate].
    exists (peval e k). rewrite <- (is_zero_psub e _ _ H), pmul_eval. reflexivity.
Qed.

Lemma decide_divides_sound : forall F e q p b, fits F e -> decide_divides F q p = Some b ->
  divb (peval e q) (peval e p) = b.
Proof.
  intros F e q p b Hf H. unfold decide_divides in H.
  destruct (yenv_spec F e Hf) as [Hbox _].
  pose proof (to_y_eval F e p Hf) as Ep. pose proof (to_y_eval F e q Hf) as Eq.
  set (y := yenv F e) in *. set (py := to_y F p) in *. set (qy := to_y F q) in *.
  destruct (match as_const py with Some c => c =? 0 | None => false end) eqn:Z0.
  { injection H as <-. destruct (as_const py) as [c|] eqn:C; [| discriminate].
    apply Z.eqb_eq in Z0. subst. rewrite (as_const_eval y py 0 C) in Ep. rewrite <- Ep.
    unfold divb. rewrite Zmod_0_l. destruct (peval e q =? 0); reflexivity. }
  destruct (as_const qy) as [c0|] eqn:Cq.
  - rewrite (as_const_eval y qy c0 Cq) in Eq. rewrite <- Eq.
    destruct (Z.eqb_spec c0 0) as [->|Hc0].
    + apply (decide_zero_sound F y py b Hbox) in H. rewrite Ep in H. rewrite <- H.
      unfold divb. cbn. destruct (peval e p =? 0); reflexivity.
    + assert (Dv : divb c0 (peval e p) = (peval e p mod c0 =? 0)).
      { unfold divb. destruct (Z.eqb_spec c0 0); [contradiction | cbn].
        destruct (peval e p =? 0); reflexivity. }
      rewrite Dv. clear Dv.
      pose proof (coef_gcd_divides y py) as Dg. pose proof (coef_gcd_nonneg py) as Gn.
      rewrite Ep in Dg. set (g := coef_gcd py) in *. set (bb := const_term py) in *.
      set (r := peval e p) in *.
      assert (Ca : 0 < Z.abs c0) by lia.
      destruct ((g mod Z.abs c0 =? 0) && (bb mod Z.abs c0 =? 0)) eqn:T1.
      * injection H as <-. apply andb_true_iff in T1 as [T1 T2].
        apply Z.eqb_eq in T1. apply Z.eqb_eq in T2. apply Z.eqb_eq. apply mod_abs_divide; auto.
        apply divide_mod0 in T1; auto. apply divide_mod0 in T2; auto.
        replace r with ((r - bb) + bb) by ring. apply Z.divide_add_r; auto.
        eapply Z.divide_trans; [exact T1 | exact Dg].
      * destruct (negb (bb mod Z.max (Z.gcd (Z.abs c0) g) 1 =? 0) && negb (Z.gcd (Z.abs c0) g =? 0)) eqn:T2.
        -- injection H as <-. apply andb_true_iff in T2 as [T2 T3].
           apply negb_true_iff, Z.eqb_neq in T2. apply negb_true_iff, Z.eqb_neq in T3.
           pose proof (Z.gcd_nonneg (Z.abs c0) g).
           rewrite Z.max_l in T2 by lia.
           apply Z.eqb_neq. intro Hr. apply mod_abs_divide in Hr; auto.
           apply T2. apply divide_mod0; [lia |].
           replace bb with (r - (r - bb)) by ring. apply Z.divide_sub_r.
           ++ eapply Z.divide_trans; [apply Z.gcd_divide_l | exact Hr].
           ++ eapply Z.divide_trans; [apply Z.gcd_divide_r | exact Dg].
        -- destruct (Z.eqb_spec g 0) as [G0|G0]; [| discriminate].
           injection H as <-. rewrite G0 in Dg. apply Z.divide_0_l in Dg.
           assert (Rb : r = bb) by lia. rewrite Rb.
           destruct (Z.eqb_spec (bb mod c0) 0) as [E1|E1], (Z.eqb_spec (bb mod Z.abs c0) 0) as [E2|E2];
             auto.
           ++ exfalso. apply E2. apply mod_abs_divide in E1; auto. apply divide_mod0; auto.
           ++ exfalso. apply E1. apply mod_abs_divide; auto. apply divide_mod0 in E2; auto.
  - destruct (divides_exactly p q || divides_exactly py qy) eqn:D.
    + injection H as <-. apply orb_true_iff in D as [D | D].
      * destruct (divides_exactly_sound e p q D) as [k Hk]. rewrite Hk. apply divb_mul.
      * destruct (divides_exactly_sound y py qy D) as [k Hk]. rewrite <- Ep, <- Eq, Hk. apply divb_mul.
    + destruct (as_const py) as [c|] eqn:Cp; [| discriminate].
      pose proof (interval_sound F y qy Hbox) as [Hl _].
      destruct (lo (interval F qy)) as [l|] eqn:L; [| discriminate].
      destruct (Z.abs c <? l) eqn:Lt; [| discriminate]. injection H as <-. apply Z.ltb_lt in Lt.
      cbn in Hl. rewrite Eq in Hl. rewrite (as_const_eval y py c Cp) in Ep. rewrite <- Ep.
      apply Z.eqb_neq in Z0.
      unfold divb. destruct (Z.eqb_spec (peval e q) 0) as [Q0|Q0]; [lia |]. cbn.
      apply Z.eqb_neq. intro Hm. apply Z.mod_divide in Hm; auto.
      apply Z.divide_abs_r in Hm. apply Z.divide_pos_le in Hm; lia.
Qed.

Lemma fits_of_rebuild : forall raws F e, wf_raws raws -> rebuild raws = Ok F ->
  (forall n, 1 <= e n) -> raws_hold e raws -> fits F e.
Proof.
  intros raws F e Hwf H Hpos Hh. split; [exact Hpos |]. intros y i Hi. split.
  - exact (proj1 (rebuild_exact raws F Hwf H e Hpos) Hh y i Hi).
  - exact (proj1 (rebuild_info raws F Hwf H y i Hi)).
Qed.

Lemma decide_fits_sound : forall F p b e, fits F e -> decide_static F p = Some b -> holdsb e p = b.
Proof.
  intros F [r l q] b e Hf H. unfold decide_static, holdsb in *. cbn [prel plhs prhs] in *.
  pose proof (interval_y F e (psub l q) Hf) as [Il Ih]. rewrite psub_eval in Il, Ih.
  destruct (yenv_spec F e Hf) as [Hbox _].
  pose proof (to_y_eval F e (psub l q) Hf) as Ey. rewrite psub_eval in Ey.
  destruct r.
  - destruct (as_const (psub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_const_eval e _ _ C) as Ed. rewrite psub_eval in Ed.
      destruct (Z.leb_spec (peval e q) (peval e l)), (Z.leb_spec 0 d); auto; lia.
    + destruct (ispos (lo (interval F (to_y F (psub l q))))) eqn:P.
      * injection H as <-. destruct (lo _) as [x|]; cbn in P, Il; [| discriminate].
        apply Z.leb_le in P. apply Z.leb_le. lia.
      * destruct (lt0 (hi (interval F (to_y F (psub l q))))) eqn:N; [| discriminate].
        injection H as <-. destruct (hi _) as [x|]; cbn in N, Ih; [| discriminate].
        apply Z.ltb_lt in N. apply Z.leb_gt. lia.
  - destruct (as_const (psub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_const_eval e _ _ C) as Ed. rewrite psub_eval in Ed.
      destruct (Z.eqb_spec (peval e l) (peval e q)), (Z.eqb_spec d 0); auto; lia.
    + apply (decide_zero_sound F _ _ b Hbox) in H. rewrite Ey in H. rewrite <- H.
      destruct (Z.eqb_spec (peval e l) (peval e q)), (Z.eqb_spec (peval e l - peval e q) 0); auto; lia.
  - destruct (as_const (psub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_const_eval e _ _ C) as Ed. rewrite psub_eval in Ed.
      destruct (Z.eqb_spec (peval e l) (peval e q)), (Z.eqb_spec d 0); auto; lia.
    + destruct (decide_zero F (to_y F (psub l q))) as [b'|] eqn:D; [| discriminate].
      injection H as <-. apply (decide_zero_sound F _ _ b' Hbox) in D. rewrite Ey in D. rewrite <- D.
      destruct (Z.eqb_spec (peval e l) (peval e q)), (Z.eqb_spec (peval e l - peval e q) 0); auto; lia.
  - exact (decide_divides_sound F e l q b Hf H).
  - destruct (decide_divides F l q) as [b'|] eqn:D; [| discriminate].
    injection H as <-. rewrite (decide_divides_sound F e l q b' Hf D). reflexivity.
Qed.

(** [decide_sound]: [decide_quick]'s [Some b] is the predicate's value at
    every assignment (every name [>= 1]) that satisfies the facts. *)
Theorem decide_sound : forall raws F p b, wf_raws raws -> rebuild raws = Ok F ->
  decide_static F p = Some b ->
  forall e : env, (forall n, 1 <= e n) -> raws_hold e raws -> holdsb e p = b.
Proof.
  intros raws F p b Hwf H D e Hpos Hh.
  exact (decide_fits_sound F p b e (fits_of_rebuild raws F e Hwf H Hpos Hh) D).
Qed.

(** [witness_any]: each name with facts at its smallest value [x0] (the
    search's first candidate, all quotient variables 0); other names 1. *)
Definition witness (F : list (nat * info)) (n : nat) : Z :=
  match alookup n F with Some i => ix0 i | None => 1 end.

Theorem witness_any_sound : forall raws F, wf_raws raws -> rebuild raws = Ok F ->
  (forall n, 1 <= witness F n) /\ raws_hold (witness F) raws.
Proof.
  intros raws F Hwf H.
  assert (Hpos : forall n, 1 <= witness F n).
  { intro n. unfold witness. destruct (alookup n F) as [i|] eqn:E; [| lia].
    apply (rebuild_info raws F Hwf H n i E). }
  split; [exact Hpos |]. apply (proj2 (rebuild_exact raws F Hwf H (witness F) Hpos)).
  intros y i Hi. unfold witness. rewrite Hi. exists 0. split; [ring | split; [lia |]].
  intros h Hh. apply (rebuild_info raws F Hwf H y i Hi). exact Hh.
Qed.

(** ** Reading a fact ([parse_fact] after the expression parser) *)

Inductive cmp : Type := CGe | CLe | CGt | CLt | CEq.

(** A fact as the parser sees it: [X % m == r], or [a*X + b REL 0] (the
    difference of the two sides, one name with a non-zero coefficient). *)
Inductive sfact : Type := SRes (n : nat) (m r : Z) | SLin (n : nat) (a b : Z) (op : cmp).

Definition cmp_holds (op : cmp) (x : Z) : Prop :=
  match op with CGe => 0 <= x | CLe => x <= 0 | CGt => 0 < x | CLt => x < 0 | CEq => x = 0 end.

Definition sholds (e : env) (f : sfact) : Prop :=
  match f with
  | SRes n m r => e n mod m = r
  | SLin n a b op => cmp_holds op (a * e n + b)
  end.

(** [ceil_div_i] and [floor_div_real] (Rust, over unbounded integers). *)
Definition ceil_div_i (a b : Z) : Z :=
  if b <? 0 then - ((- (- a)) / (- b)) else - ((- a) / b).
Definition floor_div_real (a b : Z) : Z := - ceil_div_i (- a) b.

(** [linear_bound a b upper]: [a*n + b >= 0] ([upper = false]) or [<= 0]. *)
Definition linear_bound (a b : Z) (upper : bool) : kind :=
  let nb := - b in
  if 0 <? a then (if upper then KHi (nb / a) else KLo (ceil_div_i nb a))
  else (if upper then KLo (ceil_div_i nb a) else KHi (floor_div_real nb a)).

Definition parse_fact (f : sfact) : outcome (list raw) :=
  match f with
  | SRes n m r =>
      if m <=? 0 then Unsup
      else if (r <? 0) || (m <=? r) then Contra
      else Ok [(n, KRes m r)]
  | SLin n a b op =>
      if a =? 0 then Unsup
      else match op with
           | CEq => if negb (Z.rem (- b) a =? 0) then Contra else Ok [(n, KVal (Z.quot (- b) a))]
           | CGe => Ok [(n, linear_bound a b false)]
           | CLe => Ok [(n, linear_bound a b true)]
           | CGt => Ok [(n, linear_bound a (b - 1) false)]
           | CLt => Ok [(n, linear_bound a (b + 1) true)]
           end
  end.

Lemma ceil_div_spec : forall a b v, b <> 0 -> (ceil_div_i a b <= v <-> (if 0 <? b then a <= b * v else b * v <= a)).
Proof.
  intros a b v Hb. unfold ceil_div_i. destruct (Z.ltb_spec b 0), (Z.ltb_spec 0 b); try lia.
  - rewrite Z.opp_involutive.
    pose proof (Z.div_mod a (- b) ltac:(lia)). pose proof (Z.mod_pos_bound a (- b) ltac:(lia)). nia.
  - pose proof (Z.div_mod (- a) b ltac:(lia)). pose proof (Z.mod_pos_bound (- a) b ltac:(lia)). nia.
Qed.

Lemma linear_bound_iff : forall a b upper v, a <> 0 ->
  (kholds (linear_bound a b upper) v <-> (if upper then a * v + b <= 0 else 0 <= a * v + b)).
Proof.
  intros a b upper v Ha. unfold linear_bound.
  destruct (Z.ltb_spec 0 a), upper; cbn [kholds].
  - pose proof (Z.div_mod (- b) a ltac:(lia)). pose proof (Z.mod_pos_bound (- b) a ltac:(lia)). nia.
  - rewrite ceil_div_spec by lia. destruct (Z.ltb_spec 0 a); lia.
  - rewrite ceil_div_spec by lia. destruct (Z.ltb_spec 0 a); lia.
  - unfold floor_div_real. pose proof (ceil_div_spec (- - b) a (- v) Ha) as C.
    destruct (Z.ltb_spec 0 a); [lia |]. split; intro Hv.
    + assert (ceil_div_i (- - b) a <= - v) by lia. apply C in H1. lia.
    + assert (a * - v <= - - b) by lia. apply C in H1. lia.
Qed.

Lemma parse_fact_ok : forall f rs, parse_fact f = Ok rs -> wf_raws rs /\
  forall e, (sholds e f <-> raws_hold e rs).
Proof.
  intros [n m r | n a b op] rs H; cbn in H.
  - destruct (Z.leb_spec m 0); [discriminate |].
    destruct ((r <? 0) || (m <=? r)) eqn:R; [discriminate |]. injection H as <-.
    apply orb_false_iff in R as [R1 R2]. apply Z.ltb_ge in R1. apply Z.leb_gt in R2.
    split; [constructor; [cbn; lia | constructor] |].
    intro e. unfold raws_hold. cbn. split.
    + intros Hm n' k [Hk | []]. injection Hk as <- <-. exact Hm.
    + intro Hk. apply (Hk n (KRes m r)). left. reflexivity.
  - destruct (Z.eqb_spec a 0); [discriminate |].
    assert (One : forall k, wf_kind k -> forall P : env -> Prop, (forall e, P e <-> kholds k (e n)) ->
              wf_raws [(n, k)] /\ forall e, (P e <-> raws_hold e [(n, k)])).
    { intros k Hk P HP. split; [constructor; [exact Hk | constructor] |]. intro e. unfold raws_hold.
      rewrite HP. split.
      - intros Hv n' k' [Hn | []]. injection Hn as <- <-. exact Hv.
      - intro Hv. apply Hv. left. reflexivity. }
    destruct op; cbn [sholds cmp_holds].
    + injection H as <-. apply One; [unfold linear_bound; destruct (0 <? a), false; exact I |].
      intro e. rewrite linear_bound_iff by auto. lia.
    + injection H as <-. apply One; [unfold linear_bound; destruct (0 <? a), true; exact I |].
      intro e. rewrite linear_bound_iff by auto. lia.
    + injection H as <-. apply One; [unfold linear_bound; destruct (0 <? a), false; exact I |].
      intro e. rewrite linear_bound_iff by auto. lia.
    + injection H as <-. apply One; [unfold linear_bound; destruct (0 <? a), true; exact I |].
      intro e. rewrite linear_bound_iff by auto. lia.
    + destruct (negb (Z.rem (- b) a =? 0)) eqn:R; [discriminate |]. injection H as <-.
      apply negb_false_iff, Z.eqb_eq in R. apply One; [exact I |].
      intro e. cbn [kholds]. pose proof (Z.quot_rem' (- b) a). rewrite R in H. split; intro Hv.
      * assert (a * (e n) = a * Z.quot (- b) a) by lia. apply Z.mul_reg_l in H0; auto.
      * rewrite Hv. lia.
Qed.

Lemma parse_fact_contra : forall f, parse_fact f = Contra -> forall e, ~ sholds e f.
Proof.
  intros [n m r | n a b op] H e Hs; cbn in H, Hs.
  - destruct (Z.leb_spec m 0); [discriminate |].
    destruct ((r <? 0) || (m <=? r)) eqn:R; [| discriminate].
    pose proof (Z.mod_pos_bound (e n) m ltac:(lia)).
    apply orb_true_iff in R as [R | R]; [apply Z.ltb_lt in R | apply Z.leb_le in R]; lia.
  - destruct (Z.eqb_spec a 0); [discriminate |].
    destruct op; try discriminate. cbn in Hs.
    destruct (negb (Z.rem (- b) a =? 0)) eqn:R; [| discriminate].
    apply negb_true_iff, Z.eqb_neq in R. apply R.
    replace (- b) with (e n * a) by lia. apply Z.rem_mul. auto.
Qed.

(** [Facts::parse]: each fact read in order, then [rebuild]. *)
Fixpoint parse_all (fs : list sfact) : outcome (list raw) :=
  match fs with
  | [] => Ok []
  | f :: r =>
      match parse_fact f with
      | Ok rs => match parse_all r with Ok rs' => Ok (rs ++ rs') | o => o end
      | Contra => Contra
      | Unsup => Unsup
      end
  end.

Definition facts_parse (fs : list sfact) : outcome (list (nat * info)) :=
  match parse_all fs with Ok raws => rebuild raws | Contra => Contra | Unsup => Unsup end.

Definition facts_hold (e : env) (fs : list sfact) : Prop := forall f, In f fs -> sholds e f.

Lemma parse_all_ok : forall fs raws, parse_all fs = Ok raws -> wf_raws raws /\
  forall e, (facts_hold e fs <-> raws_hold e raws).
Proof.
  induction fs as [| f r IH]; intros raws H; cbn in H.
  - injection H as <-. split; [constructor |]. intro e. unfold facts_hold, raws_hold. cbn. tauto.
  - destruct (parse_fact f) as [rs| |] eqn:P; try discriminate.
    destruct (parse_all r) as [rs'| |] eqn:Q; try discriminate. injection H as <-.
    destruct (parse_fact_ok f rs P) as [W1 E1]. destruct (IH rs' eq_refl) as [W2 E2].
    split; [apply Forall_app; auto |]. intro e. unfold facts_hold, raws_hold in *.
    split.
    + intros Hf n k Hk. apply in_app_or in Hk as [Hk | Hk].
      * apply (proj1 (E1 e)); [apply Hf; left; reflexivity | exact Hk].
      * apply (proj1 (E2 e)); [intros f' Hf'; apply Hf; right; exact Hf' | exact Hk].
    + intros Hr f' [<- | Hf'].
      * apply (proj2 (E1 e)). intros n k Hk. apply Hr. apply in_or_app. left. exact Hk.
      * apply (proj2 (E2 e)); [| exact Hf']. intros n k Hk. apply Hr. apply in_or_app. right. exact Hk.
Qed.

Lemma parse_all_contra : forall fs, parse_all fs = Contra -> forall e, ~ facts_hold e fs.
Proof.
  induction fs as [| f r IH]; intros H e Hf; cbn in H; [discriminate |].
  destruct (parse_fact f) as [rs| |] eqn:P; try discriminate.
  - destruct (parse_all r) as [rs'| |] eqn:Q; try discriminate.
    apply (IH eq_refl e). intros f' Hf'. apply Hf. right. exact Hf'.
  - apply (parse_fact_contra f P e). apply Hf. left. reflexivity.
Qed.

(** The end-to-end statements, over the facts as written. *)
Theorem facts_parse_contra : forall fs, facts_parse fs = Contra ->
  forall e : env, (forall n, 1 <= e n) -> ~ facts_hold e fs.
Proof.
  intros fs H e Hpos Hf. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  - destruct (parse_all_ok fs raws P) as [W E].
    apply (rebuild_contra raws W H e Hpos). apply E. exact Hf.
  - exact (parse_all_contra fs P e Hf).
Qed.

Theorem facts_parse_exact : forall fs F, facts_parse fs = Ok F ->
  forall e : env, (forall n, 1 <= e n) ->
  (facts_hold e fs <-> forall y i, alookup y F = Some i -> form_ok i (e y)).
Proof.
  intros fs F H e Hpos. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (parse_all_ok fs raws P) as [W E]. rewrite E. apply (rebuild_exact raws F W H e Hpos).
Qed.

Theorem facts_decide_sound : forall fs F p b, facts_parse fs = Ok F -> decide_static F p = Some b ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs -> holdsb e p = b.
Proof.
  intros fs F p b H D e Hpos Hf. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (parse_all_ok fs raws P) as [W E].
  exact (decide_sound raws F p b W H D e Hpos (proj1 (E e) Hf)).
Qed.

Theorem facts_witness_sound : forall fs F, facts_parse fs = Ok F ->
  (forall n, 1 <= witness F n) /\ facts_hold (witness F) fs.
Proof.
  intros fs F H. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (parse_all_ok fs raws P) as [W E].
  destruct (witness_any_sound raws F W H) as [H1 H2]. split; [exact H1 | apply E; exact H2].
Qed.

(** ** Guards: [Ctx::branch] and [Ctx::require] *)

(** A computation that makes its choices through conditions: a result, a
    branch on [p] (with the side preferred when undecided), or an
    obligation [p]. *)
Inductive gcomp (P A : Type) : Type :=
| GRet (a : A)
| GBranch (p : P) (prefer : bool) (k : bool -> gcomp P A)
| GRequire (p : P) (k : gcomp P A).
Arguments GRet {P A} a.
Arguments GBranch {P A} p prefer k.
Arguments GRequire {P A} p k.

(** Run symbolically: [dec gs p] decides [p] given the guards [gs] so far;
    an undecided branch records [p] (or its negation) and takes the
    preferred side, an undecided obligation records [p], a refuted one
    fails ([None]). *)
Fixpoint srun {P A : Type} (dec : list P -> P -> option bool) (negp : P -> P)
    (gs : list P) (c : gcomp P A) : option (A * list P) :=
  match c with
  | GRet a => Some (a, gs)
  | GBranch p prefer k =>
      match dec gs p with
      | Some b => srun dec negp gs (k b)
      | None => srun dec negp (gs ++ [if prefer then p else negp p]) (k prefer)
      end
  | GRequire p k =>
      match dec gs p with
      | Some true => srun dec negp gs k
      | Some false => None
      | None => srun dec negp (gs ++ [p]) k
      end
  end.

(** Run concretely at an assignment: every condition evaluated. *)
Fixpoint crun {P A : Type} (h : P -> bool) (c : gcomp P A) : option A :=
  match c with
  | GRet a => Some a
  | GBranch p _ k => crun h (k (h p))
  | GRequire p k => if h p then crun h k else None
  end.

(** [srun_sound]: given an oracle sound for the assignments that satisfy
    the facts and the guards passed to it, every assignment that satisfies
    the facts and all the returned guards makes the concrete run take the
    same branches and end in the same result. *)
Theorem srun_sound : forall (P A E : Type) (sat : E -> Prop) (h : E -> P -> bool)
    (dec : list P -> P -> option bool) (negp : P -> P),
  (forall gs p b, dec gs p = Some b ->
     forall x, sat x -> (forall g, In g gs -> h x g = true) -> h x p = b) ->
  (forall x p, h x (negp p) = negb (h x p)) ->
  forall (c : gcomp P A) gs a gs', srun dec negp gs c = Some (a, gs') ->
  forall x, sat x -> (forall g, In g gs' -> h x g = true) ->
  (forall g, In g gs -> In g gs') /\ crun (h x) c = Some a.
Proof.
  intros P A E sat h dec negp Hdec Hneg c.
  induction c as [a0 | p prefer k IH | p k IH]; intros gs a gs' H x Hx Hg; cbn in H |- *.
  - injection H as <- <-. auto.
  - destruct (dec gs p) as [b|] eqn:D.
    + destruct (IH b gs a gs' H x Hx Hg) as [Sub R]. split; [exact Sub |].
      rewrite (Hdec gs p b D x Hx (fun g Hin => Hg g (Sub g Hin))). exact R.
    + destruct (IH prefer _ a gs' H x Hx Hg) as [Sub R].
      assert (Hp : h x (if prefer then p else negp p) = true).
      { apply Hg, Sub. apply in_or_app. right. left. reflexivity. }
      split; [intros g Hin; apply Sub, in_or_app; left; exact Hin |].
      destruct prefer; [rewrite Hp; exact R |].
      rewrite Hneg in Hp. apply negb_true_iff in Hp. rewrite Hp. exact R.
  - destruct (dec gs p) as [[|]|] eqn:D; try discriminate.
    + destruct (IH gs a gs' H x Hx Hg) as [Sub R]. split; [exact Sub |].
      rewrite (Hdec gs p true D x Hx (fun g Hin => Hg g (Sub g Hin))). exact R.
    + destruct (IH _ a gs' H x Hx Hg) as [Sub R].
      assert (Hp : h x p = true) by (apply Hg, Sub, in_or_app; right; left; reflexivity).
      split; [intros g Hin; apply Sub, in_or_app; left; exact Hin |]. rewrite Hp. exact R.
Qed.

(** [Pred::negate]: [a >= b] becomes [b >= a + 1]; the others swap. *)
Definition negate (p : pred) : pred :=
  match prel p with
  | RGe => mkpred RGe (prhs p) (padd (plhs p) (pconst 1))
  | REq => mkpred RNe (plhs p) (prhs p)
  | RNe => mkpred REq (plhs p) (prhs p)
  | RDv => mkpred RNDv (plhs p) (prhs p)
  | RNDv => mkpred RDv (plhs p) (prhs p)
  end.

Lemma negate_holds : forall e p, holdsb e (negate p) = negb (holdsb e p).
Proof.
  intros e [r l q]. unfold negate, holdsb. destruct r; cbn [prel plhs prhs].
  - rewrite padd_eval, pconst_eval. destruct (Z.leb_spec (peval e q) (peval e l)),
      (Z.leb_spec (peval e l + 1) (peval e q)); auto; lia.
  - reflexivity.
  - rewrite negb_involutive. reflexivity.
  - reflexivity.
  - rewrite negb_involutive. reflexivity.
Qed.

Definition rel_eqb (a b : rel) : bool :=
  match a, b with
  | RGe, RGe | REq, REq | RNe, RNe | RDv, RDv | RNDv, RNDv => true
  | _, _ => false
  end.

Fixpoint poly_eqb (p q : poly) : bool :=
  match p, q with
  | [], [] => true
  | (m, c) :: p', (m', c') :: q' => mono_eqb m m' && Z.eqb c c' && poly_eqb p' q'
  | _, _ => false
  end.

Definition pred_eqb (p q : pred) : bool :=
  rel_eqb (prel p) (prel q) && poly_eqb (plhs p) (plhs q) && poly_eqb (prhs p) (prhs q).

Lemma pred_eqb_eq : forall p q, pred_eqb p q = true -> p = q.
Proof.
  assert (PE : forall p q, poly_eqb p q = true -> p = q).
  { induction p as [| [m c] p IH]; destruct q as [| [m' c'] q]; cbn; try congruence.
    intro H. apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
    apply mono_eqb_eq in H1. apply Z.eqb_eq in H2. rewrite (IH q H3). congruence. }
  intros [r l q] [r' l' q'] H. unfold pred_eqb in H. cbn in H.
  apply andb_true_iff in H as [H H3]. apply andb_true_iff in H as [H1 H2].
  apply PE in H2. apply PE in H3. destruct r, r'; try discriminate; congruence.
Qed.

(** [Ctx::decide_fast]: a guard already recorded proves itself and refutes
    its negation; otherwise the facts decide. *)
Definition ctx_decide (F : list (nat * info)) (gs : list pred) (p : pred) : option bool :=
  if existsb (pred_eqb p) gs then Some true
  else if existsb (pred_eqb (negate p)) gs then Some false
  else decide_static F p.

(** [ctx_run_sound]: a computation run through [Ctx] (decisions by
    [ctx_decide], guards recorded) is exact at every assignment that
    satisfies the facts and its guards. *)
Theorem ctx_run_sound : forall fs F (A : Type) (c : gcomp pred A) a gs,
  facts_parse fs = Ok F -> srun (ctx_decide F) negate [] c = Some (a, gs) ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs ->
  (forall g, In g gs -> holdsb e g = true) -> crun (holdsb e) c = Some a.
Proof.
  intros fs F A c a gs HF H e Hpos Hf Hg.
  refine (proj2 (srun_sound pred A env (fun x => (forall n, 1 <= x n) /\ facts_hold x fs)
                   holdsb (ctx_decide F) negate _ negate_holds c [] a gs H e (conj Hpos Hf) Hg)).
  intros gs0 p b D x [Hx1 Hx2] Hgs. unfold ctx_decide in D.
  destruct (existsb (pred_eqb p) gs0) eqn:E1.
  - injection D as <-. apply existsb_exists in E1 as [g [Hin Eq]]. apply pred_eqb_eq in Eq.
    subst. apply Hgs. exact Hin.
  - destruct (existsb (pred_eqb (negate p)) gs0) eqn:E2.
    + injection D as <-. apply existsb_exists in E2 as [g [Hin Eq]]. apply pred_eqb_eq in Eq.
      subst. apply Hgs in Hin. rewrite negate_holds in Hin. apply negb_true_iff in Hin. exact Hin.
    + exact (facts_decide_sound fs F p b HF D x Hx1 Hx2).
Qed.

(** *** [Facts::strengthen]: guards of the shape of a fact become facts *)

Definition nonconst (p : poly) : poly :=
  filter (fun t => match fst t with [] => false | _ => true end) p.

(** [single_name]: [Some (n, a, b)] when [p = a*n + b]. *)
Definition single_name (p : poly) : option (nat * Z * Z) :=
  match nonconst p with
  | [([(n, 1%nat)], a)] => Some (n, a, const_term p)
  | _ => None
  end.

Lemma peval_split : forall e p, peval e p = peval e (nonconst p) + const_term p.
Proof.
  intros e p. induction p as [| [m c] r IH]; cbn [peval const_term nonconst filter fst]; [reflexivity |].
  destruct m as [| t m]; cbn [peval meval]; unfold nonconst in IH; rewrite IH; ring.
Qed.

Lemma single_name_eval : forall e p n a b, single_name p = Some (n, a, b) -> peval e p = a * e n + b.
Proof.
  intros e p n a b H. unfold single_name in H. rewrite peval_split.
  destruct (nonconst p) as [| [[| [v [| [| k]]] [|]] c] [|]]; try discriminate.
  injection H as <- <- <-. cbn [peval meval zpow]. ring.
Qed.

(** The raw fact a guard adds ([None]: it stays a guard only). *)
Definition guard_raw (F : list (nat * info)) (p : pred) : option raw :=
  match prel p with
  | RDv =>
      match as_const (plhs p), single_name (prhs p) with
      | Some m, Some (n, a, b) => if (0 <? m) && (a =? 1) && (b =? 0) then Some (n, KRes m 0) else None
      | _, _ => None
      end
  | RNDv => None
  | r =>
      match single_name (psub (plhs p) (prhs p)) with
      | None => None
      | Some (n, a, b) =>
          match r with
          | RGe => if a =? 1 then Some (n, KLo (- b)) else if a =? -1 then Some (n, KHi b) else None
          | REq => if a =? 1 then Some (n, KVal (- b)) else None
          | RNe =>
              if (a =? 1) || (a =? -1) then
                let v := if a =? 1 then - b else b in
                match alookup n F with
                | Some i => if v =? ix0 i then Some (n, KLo (v + 1)) else None
                | None => None
                end
              else None
          | _ => None
          end
      end
  end.

Lemma guard_raw_sound : forall F p n k, guard_raw F p = Some (n, k) ->
  wf_kind k /\ forall e, fits F e -> holdsb e p = true -> kholds k (e n).
Proof.
  intros F [r l q] n k H. unfold guard_raw in H. cbn [prel plhs prhs] in H.
  destruct r.
  4: { destruct (as_const l) as [m|] eqn:C; [| discriminate].
       destruct (single_name q) as [[[n' a] b]|] eqn:S; [| discriminate].
       destruct ((0 <? m) && (a =? 1) && (b =? 0)) eqn:T; [| discriminate].
       injection H as <- <-. apply andb_true_iff in T as [T T3]. apply andb_true_iff in T as [T1 T2].
       apply Z.ltb_lt in T1. apply Z.eqb_eq in T2. apply Z.eqb_eq in T3. subst.
       split; [cbn; lia |]. intros e _ Hh. unfold holdsb in Hh. cbn [prel plhs prhs] in Hh.
       rewrite (as_const_eval e l m C), (single_name_eval e q n' 1 0 S) in Hh.
       replace (1 * e n' + 0) with (e n') in Hh by ring.
       unfold divb in Hh. destruct (Z.eqb_spec m 0); [lia |]. cbn [andb orb negb] in Hh.
       apply Z.eqb_eq in Hh. exact Hh. }
  4: discriminate.
  all: destruct (single_name (psub l q)) as [[[n' a] b]|] eqn:S; [| discriminate].
  all: pose proof (fun e => single_name_eval e _ _ _ _ S) as E.
  all: unfold holdsb; cbn [prel plhs prhs].
  - destruct (Z.eqb_spec a 1); [| destruct (Z.eqb_spec a (-1)); [| discriminate]];
      injection H as <- <-; (split; [exact I |]); intros x _ Hh; specialize (E x);
      rewrite psub_eval in E; apply Z.leb_le in Hh; cbn; lia.
  - destruct (Z.eqb_spec a 1); [| discriminate]. injection H as <- <-. split; [exact I |].
    intros x _ Hh. specialize (E x). rewrite psub_eval in E. apply Z.eqb_eq in Hh. cbn. lia.
  - destruct ((a =? 1) || (a =? -1)) eqn:A; [| discriminate].
    destruct (alookup n' F) as [i|] eqn:L; [| discriminate].
    destruct ((if a =? 1 then - b else b) =? ix0 i) eqn:V; [| discriminate].
    injection H as <- <-. split; [exact I |]. intros x [_ Hf] Hh.
    specialize (E x). rewrite psub_eval in E. apply negb_true_iff, Z.eqb_neq in Hh.
    destruct (Hf n' i L) as [[t [Ht [Ht0 _]]] Hm]. apply Z.eqb_eq in V. cbn.
    apply orb_true_iff in A as [A | A]; apply Z.eqb_eq in A; subst a.
    + rewrite Z.eqb_refl in V |- *. nia.
    + replace (-1 =? 1) with false in V |- * by reflexivity. nia.
Qed.

(** [Facts::strengthen]: the raw fact is added when the base stays
    consistent; the base is kept as it was otherwise. *)
Definition strengthen (st : list raw * list (nat * info)) (p : pred) : list raw * list (nat * info) :=
  match guard_raw (snd st) p with
  | Some r => match rebuild (fst st ++ [r]) with Ok F' => (fst st ++ [r], F') | _ => st end
  | None => st
  end.

Lemma strengthen_sound : forall raws F p raws' F', wf_raws raws -> rebuild raws = Ok F ->
  strengthen (raws, F) p = (raws', F') ->
  wf_raws raws' /\ rebuild raws' = Ok F' /\
  forall e, (forall n, 1 <= e n) -> raws_hold e raws -> holdsb e p = true -> raws_hold e raws'.
Proof.
  intros raws F p raws' F' Hwf H S. unfold strengthen in S. cbn [fst snd] in S.
  destruct (guard_raw F p) as [[n k]|] eqn:G.
  - match type of S with context [rebuild ?x] => destruct (rebuild x) as [F2| |] eqn:R end.
    2, 3: injection S as <- <-; split; [exact Hwf | split; [exact H | auto]].
    injection S as <- <-. destruct (guard_raw_sound F p n k G) as [Wk Hk].
    split; [apply Forall_app; split; [exact Hwf | constructor; [exact Wk | constructor]] |].
    split; [exact R |]. intros e Hpos Hr Hp n' k' Hin. apply in_app_or in Hin as [Hin | [Hin | []]].
    + exact (Hr n' k' Hin).
    + injection Hin as <- <-. apply Hk; [| exact Hp]. exact (fits_of_rebuild raws F e Hwf H Hpos Hr).
  - injection S as <- <-. split; [exact Hwf | split; [exact H | auto]].
Qed.

(** [Ctx] with [strengthen]: each recorded guard strengthens the facts the
    later decisions use. *)
Definition strengthen_all (raws : list raw) (F : list (nat * info)) (gs : list pred) :=
  fold_left strengthen gs (raws, F).

Lemma strengthen_all_sound : forall gs raws F raws' F', wf_raws raws -> rebuild raws = Ok F ->
  strengthen_all raws F gs = (raws', F') ->
  wf_raws raws' /\ rebuild raws' = Ok F' /\
  forall e, (forall n, 1 <= e n) -> raws_hold e raws -> (forall g, In g gs -> holdsb e g = true) ->
  raws_hold e raws'.
Proof.
  induction gs as [| g gs IH]; intros raws F raws' F' Hwf H S; cbn in S.
  - injection S as <- <-. split; [exact Hwf | split; [exact H | auto]].
  - destruct (strengthen (raws, F) g) as [r1 F1] eqn:S1.
    destruct (strengthen_sound raws F g r1 F1 Hwf H S1) as [W1 [R1 E1]].
    unfold strengthen_all in IH. destruct (IH r1 F1 raws' F' W1 R1 S) as [W2 [R2 E2]].
    split; [exact W2 | split; [exact R2 |]]. intros e Hpos Hr Hg. apply E2; auto.
    + apply E1; auto. apply Hg. left. reflexivity.
    + intros g' Hin. apply Hg. right. exact Hin.
Qed.

(** [Ctx::decide_fast] over the strengthened facts. *)
Definition ctx_decide_s (raws : list raw) (F : list (nat * info)) (gs : list pred) (p : pred) :=
  if existsb (pred_eqb p) gs then Some true
  else if existsb (pred_eqb (negate p)) gs then Some false
  else decide_static (snd (strengthen_all raws F gs)) p.

Theorem ctx_strengthened_run_sound : forall raws F (A : Type) (c : gcomp pred A) a gs,
  wf_raws raws -> rebuild raws = Ok F -> srun (ctx_decide_s raws F) negate [] c = Some (a, gs) ->
  forall e : env, (forall n, 1 <= e n) -> raws_hold e raws ->
  (forall g, In g gs -> holdsb e g = true) -> crun (holdsb e) c = Some a.
Proof.
  intros raws F A c a gs Hwf HF H e Hpos Hr Hg.
  refine (proj2 (srun_sound pred A env (fun x => (forall n, 1 <= x n) /\ raws_hold x raws)
                   holdsb (ctx_decide_s raws F) negate _ negate_holds c [] a gs H e (conj Hpos Hr) Hg)).
  intros gs0 p b D x [Hx1 Hx2] Hgs. unfold ctx_decide_s in D.
  destruct (existsb (pred_eqb p) gs0) eqn:E1.
  - injection D as <-. apply existsb_exists in E1 as [g [Hin Eq]]. apply pred_eqb_eq in Eq.
    subst. apply Hgs. exact Hin.
  - destruct (existsb (pred_eqb (negate p)) gs0) eqn:E2.
    + injection D as <-. apply existsb_exists in E2 as [g [Hin Eq]]. apply pred_eqb_eq in Eq.
      subst. apply Hgs in Hin. rewrite negate_holds in Hin. apply negb_true_iff in Hin. exact Hin.
    + destruct (strengthen_all raws F gs0) as [r' F'] eqn:S.
      destruct (strengthen_all_sound gs0 raws F r' F' Hwf HF S) as [W [R Hs]].
      exact (decide_sound r' F' p b W R D x Hx1 (Hs x Hx1 Hx2 Hgs)).
Qed.

(** *** A straight-line run through [Ctx], for the bridge *)

(** Steps [(is_branch, p, prefer)]: [Ctx::branch(p, prefer)] or
    [Ctx::require(p)]; the result is the list of the branches' answers. *)
Fixpoint steps_comp (steps : list (bool * pred * bool)) (acc : list bool) : gcomp pred (list bool) :=
  match steps with
  | [] => GRet (rev acc)
  | (is_branch, p, prefer) :: r =>
      if is_branch then GBranch p prefer (fun b => steps_comp r (b :: acc))
      else GRequire p (steps_comp r acc)
  end.

(** [Ctx::new(Facts::parse(fs))], then the steps: the branches' answers, the
    guards and the strengthened facts, or [None] when an obligation is
    refuted. *)
Definition ctx_run (fs : list sfact) (steps : list (bool * pred * bool))
    : outcome (option (list bool * list pred * list (nat * info))) :=
  match parse_all fs with
  | Ok raws =>
      match rebuild raws with
      | Ok F =>
          match srun (ctx_decide_s raws F) negate [] (steps_comp steps []) with
          | Some (bs, gs) => Ok (Some (bs, gs, snd (strengthen_all raws F gs)))
          | None => Ok None
          end
      | Contra => Contra
      | Unsup => Unsup
      end
  | Contra => Contra
  | Unsup => Unsup
  end.

Corollary ctx_run_sound_steps : forall fs steps bs gs F', ctx_run fs steps = Ok (Some (bs, gs, F')) ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs ->
  (forall g, In g gs -> holdsb e g = true) -> crun (holdsb e) (steps_comp steps []) = Some bs.
Proof.
  intros fs steps bs gs F' H e Hpos Hf Hg. unfold ctx_run in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (rebuild raws) as [F| |] eqn:R; try discriminate.
  destruct (srun (ctx_decide_s raws F) negate [] (steps_comp steps [])) as [[bs0 gs0]|] eqn:H0;
    [| discriminate].
  injection H as <- <- _.
  destruct (parse_all_ok fs raws P) as [W E].
  exact (ctx_strengthened_run_sound raws F _ _ bs0 gs0 W R H0 e Hpos (proj1 (E e) Hf) Hg).
Qed.
