(** * Symbolic decisions on quotient atoms (issue 28, item 5)

    [SymbolicFacts.v] proves [decide_quick] sound on quotient-free
    predicates.  Rust's [Facts::decide_quick] also decides predicates whose
    polynomials contain quotient atoms ([Floor], [Ceil], [Mod] of
    polynomials): it rewrites them in quotient variables ([to_y], which is
    [Poly::substitute], so every quotient atom is rebuilt by
    [Poly::floor_div] / [ceil_div] / [rem] with their simplifications) and
    bounds each atom by [Facts::atom_interval].  This file transcribes that
    path over a tree type of canonical polynomials with quotient atoms
    ([qp]: terms [(monomial, c)] sorted by Rust's derived [Ord], a monomial
    [(atom, power)] sorted by atom; names numbered as in
    [SymbolicFacts.v]):

    - the canonicalizing operations [Poly::merge] ([qmerge]: [add], [sub]),
      [scale], [mul] ([from_terms]: sort, merge, drop zeros), [mono_mul],
      [split_multiples], [exact_div], [floor_div] (constant divisors:
      multiples come out, an exact constant quotient is a constant, nested
      constant quotients flatten; other divisors: 0, [p/p = 1], exact
      division), [ceil_div], [rem], [Atom::substitute] /
      [Poly::substitute] ([qsubst]), each proved to denote Euclidean
      quotient, ceiling and remainder wherever the divisor is not 0
      ([qfloor_div_eval], [qceil_div_eval], [qrem_eval], [qsubst_eval]);
    - [Facts::interval] / [Facts::atom_interval] ([qinterval], [atom_iv]),
      proved to bound every value in the box of the quotient variables
      ([qinterval_sound]);
    - [decide_static] on such predicates ([qdecide]: the constant
      difference, [decide_zero], the sign of the interval,
      [decide_divides] with Rust's [p.floor_div(q).mul(q) == p] test) and
      [Facts::tidy] ([qtidy]).

    Proved: [qdecide_sound]: if [qdecide] answers [Some (Some b)], the
    predicate evaluates to [b] at every assignment (every name [>= 1])
    that satisfies the facts and where the predicate is defined (no
    divisor evaluates to 0: Rust's [Pred::holds] is an error there);
    [qtidy_sound]: [tidy] keeps the value at every such assignment.

    Not modelled: [Swizzle] atoms, the linear fast path [decide_linear]
    (Rust documents it as the general path step for step; the bridge
    compares Rust's whole [decide_quick], fast path included, with
    [qdecide]), the memo, and Rust's checked [i64]/[i128] overflow. *)

From Coq Require Import Arith Lia List ZArith Bool.
Import ListNotations.
From Tessera Require Import SymbolicFacts.

Open Scope Z_scope.

(** ** Polynomials with quotient atoms *)

Inductive qp : Type := QZ | QT (m : qm) (c : Z) (r : qp)
with qm : Type := M1 | MA (a : qa) (k : nat) (r : qm)
with qa : Type := AN (n : nat) | AF (x y : qp) | AC (x y : qp) | AM (x y : qp).

Scheme qp_ind2 := Induction for qp Sort Prop
  with qm_ind2 := Induction for qm Sort Prop
  with qa_ind2 := Induction for qa Sort Prop.
Combined Scheme q_mutind from qp_ind2, qm_ind2, qa_ind2.

(** Rust's derived [Ord]: [Name < Floor < Ceil < Mod], fields and lists
    lexicographically (names by number: the same order as their text). *)
Definition lex (o : comparison) (k : comparison) : comparison :=
  match o with Eq => k | _ => o end.

Fixpoint cmp_qp (p q : qp) {struct p} : comparison :=
  match p, q with
  | QZ, QZ => Eq
  | QZ, QT _ _ _ => Lt
  | QT _ _ _, QZ => Gt
  | QT m c r, QT m' c' r' => lex (cmp_qm m m') (lex (Z.compare c c') (cmp_qp r r'))
  end
with cmp_qm (m n : qm) {struct m} : comparison :=
  match m, n with
  | M1, M1 => Eq
  | M1, MA _ _ _ => Lt
  | MA _ _ _, M1 => Gt
  | MA a k r, MA a' k' r' => lex (cmp_qa a a') (lex (Nat.compare k k') (cmp_qm r r'))
  end
with cmp_qa (a b : qa) {struct a} : comparison :=
  match a, b with
  | AN n, AN n' => Nat.compare n n'
  | AN _, _ => Lt
  | _, AN _ => Gt
  | AF x y, AF x' y' => lex (cmp_qp x x') (cmp_qp y y')
  | AF _ _, _ => Lt
  | _, AF _ _ => Gt
  | AC x y, AC x' y' => lex (cmp_qp x x') (cmp_qp y y')
  | AC _ _, _ => Lt
  | _, AC _ _ => Gt
  | AM x y, AM x' y' => lex (cmp_qp x x') (cmp_qp y y')
  end.

Lemma lex_eq : forall o k, lex o k = Eq -> o = Eq /\ k = Eq.
Proof. intros [] k H; cbn in H; auto; discriminate. Qed.

Lemma cmp_eq_all :
  (forall p q, cmp_qp p q = Eq -> p = q) /\
  (forall m n, cmp_qm m n = Eq -> m = n) /\
  (forall a b, cmp_qa a b = Eq -> a = b).
Proof.
  apply q_mutind.
  - intros [] H; cbn in H; congruence.
  - intros m IHm c r IHr [| m' c' r'] H; cbn in H; [discriminate |].
    apply lex_eq in H as [H1 H]. apply lex_eq in H as [H2 H3].
    apply Z.compare_eq in H2. rewrite (IHm _ H1), (IHr _ H3). congruence.
  - intros [] H; cbn in H; congruence.
  - intros a IHa k r IHr [| a' k' r'] H; cbn in H; [discriminate |].
    apply lex_eq in H as [H1 H]. apply lex_eq in H as [H2 H3].
    apply Nat.compare_eq in H2. rewrite (IHa _ H1), (IHr _ H3). congruence.
  - intros n [n' | | |] H; cbn in H; try discriminate. apply Nat.compare_eq in H. congruence.
  - intros x IHx y IHy [| x' y' | |] H; cbn in H; try discriminate.
    apply lex_eq in H as [H1 H2]. rewrite (IHx _ H1), (IHy _ H2). reflexivity.
  - intros x IHx y IHy [| | x' y' |] H; cbn in H; try discriminate.
    apply lex_eq in H as [H1 H2]. rewrite (IHx _ H1), (IHy _ H2). reflexivity.
  - intros x IHx y IHy [| | | x' y'] H; cbn in H; try discriminate.
    apply lex_eq in H as [H1 H2]. rewrite (IHx _ H1), (IHy _ H2). reflexivity.
Qed.

Definition qp_eqb (p q : qp) : bool := match cmp_qp p q with Eq => true | _ => false end.
Definition qm_eqb (m n : qm) : bool := match cmp_qm m n with Eq => true | _ => false end.
Definition qa_eqb (a b : qa) : bool := match cmp_qa a b with Eq => true | _ => false end.

Lemma qp_eqb_eq : forall p q, qp_eqb p q = true -> p = q.
Proof. intros p q H. unfold qp_eqb in H. destruct (cmp_qp p q) eqn:E; try discriminate. exact (proj1 cmp_eq_all p q E). Qed.
Lemma qa_eqb_eq : forall a b, qa_eqb a b = true -> a = b.
Proof. intros a b H. unfold qa_eqb in H. destruct (cmp_qa a b) eqn:E; try discriminate. exact (proj2 (proj2 cmp_eq_all) a b E). Qed.

(** *** Values: [Poly::eval] (Euclidean quotient and remainder, the real
    quotient rounded up; at a divisor 0, where Rust's evaluation is an
    error, 0 and Coq's [mod]). *)

Definition efloor (a b : Z) : Z := if b <? 0 then - (a / - b) else a / b.
Definition eceil (a b : Z) : Z := if b <? 0 then - (a / - b) else - ((- a) / b).
Definition emod (a b : Z) : Z := a mod (Z.abs b).

Fixpoint qeval (e : env) (p : qp) : Z :=
  match p with QZ => 0 | QT m c r => c * qmeval e m + qeval e r end
with qmeval (e : env) (m : qm) : Z :=
  match m with M1 => 1 | MA a k r => zpow (qaeval e a) k * qmeval e r end
with qaeval (e : env) (a : qa) : Z :=
  match a with
  | AN n => e n
  | AF x y => efloor (qeval e x) (qeval e y)
  | AC x y => eceil (qeval e x) (qeval e y)
  | AM x y => emod (qeval e x) (qeval e y)
  end.

(** Defined: no divisor evaluates to 0. *)
Fixpoint qdef (e : env) (p : qp) : Prop :=
  match p with QZ => True | QT m _ r => mdef e m /\ qdef e r end
with mdef (e : env) (m : qm) : Prop :=
  match m with M1 => True | MA a _ r => adef e a /\ mdef e r end
with adef (e : env) (a : qa) : Prop :=
  match a with
  | AN _ => True
  | AF x y | AC x y | AM x y => qdef e x /\ qdef e y /\ qeval e y <> 0
  end.

(** *** Operations *)

Definition qconst (c : Z) : qp := if c =? 0 then QZ else QT M1 c QZ.
Definition qatom (a : qa) : qp := QT (MA a 1 M1) 1 QZ.

Definition as_constq (p : qp) : option Z :=
  match p with QZ => Some 0 | QT M1 c QZ => Some c | _ => None end.

Definition is_qz (p : qp) : bool := match p with QZ => true | _ => false end.

(** [mono_mul]: the merge of two monomials sorted by atom. *)
Fixpoint mmul (a : qm) : qm -> qm :=
  match a with
  | M1 => fun b => b
  | MA x k a' =>
      fix go (b : qm) : qm :=
        match b with
        | M1 => a
        | MA y l b' =>
            match cmp_qa x y with
            | Lt => MA x k (mmul a' b)
            | Gt => MA y l (go b')
            | Eq => MA x (k + l) (mmul a' b')
            end
        end
  end.

(** Every coefficient times [s]. *)
Fixpoint qmap (s : Z) (p : qp) : qp :=
  match p with QZ => QZ | QT m c r => QT m (c * s) (qmap s r) end.

(** [Poly::merge]: [a + sg * b], both sorted. *)
Fixpoint qmerge (sg : Z) (a : qp) : qp -> qp :=
  match a with
  | QZ => qmap sg
  | QT m c a' =>
      fix go (b : qp) : qp :=
        match b with
        | QZ => a
        | QT n d b' =>
            match cmp_qm m n with
            | Lt => QT m c (qmerge sg a' b)
            | Gt => QT n (d * sg) (go b')
            | Eq => if c + d * sg =? 0 then qmerge sg a' b' else QT m (c + d * sg) (qmerge sg a' b')
            end
        end
  end.

Definition qadd (a b : qp) : qp := qmerge 1 a b.
Definition qsub (a b : qp) : qp := qmerge (-1) a b.

(** [Poly::scale]. *)
Definition qscale (c : Z) (p : qp) : qp :=
  if c =? 0 then QZ else if c =? 1 then p else qmap c p.

(** [from_terms]: a term put in its place among sorted terms (equal
    monomials merged), zero coefficients dropped at the end. *)
Fixpoint qins (m : qm) (c : Z) (p : qp) : qp :=
  match p with
  | QZ => QT m c QZ
  | QT m' c' r =>
      match cmp_qm m m' with
      | Lt => QT m c p
      | Eq => QT m' (c' + c) r
      | Gt => QT m' c' (qins m c r)
      end
  end.

Fixpoint qfilter (p : qp) : qp :=
  match p with QZ => QZ | QT m c r => if c =? 0 then qfilter r else QT m c (qfilter r) end.

Fixpoint mul_term (m : qm) (c : Z) (q acc : qp) : qp :=
  match q with QZ => acc | QT n d r => mul_term m c r (qins (mmul m n) (c * d) acc) end.

Fixpoint mul_raw (p q acc : qp) : qp :=
  match p with QZ => acc | QT m c r => mul_raw r q (mul_term m c q acc) end.

(** [Poly::mul]. *)
Definition qmul (p q : qp) : qp :=
  match as_constq q with
  | Some c => qscale c p
  | None => match as_constq p with Some c => qscale c q | None => qfilter (mul_raw p q QZ) end
  end.

Fixpoint qpow_mul (t b : qp) (k : nat) : qp :=
  match k with O => t | S k => qpow_mul (qmul t b) b k end.

(** [split_multiples]: [p = c*whole + rest], rest's coefficients in [[0, c)]. *)
Fixpoint split_mult (p : qp) (c : Z) : qp * qp :=
  match p with
  | QZ => (QZ, QZ)
  | QT m k r =>
      let (w, s) := split_mult r c in
      ((if k / c =? 0 then w else QT m (k / c) w), (if k mod c =? 0 then s else QT m (k mod c) s))
  end.

(** [exact_div]: a one-term divisor dividing every term. *)
Fixpoint mremove (a : qa) (k : nat) (m : qm) : option qm :=
  match m with
  | M1 => None
  | MA b l r =>
      if qa_eqb b a then (if Nat.leb k l then Some (if Nat.eqb l k then r else MA b (l - k) r) else None)
      else option_map (MA b l) (mremove a k r)
  end.

Fixpoint mdiv (m qm0 : qm) : option qm :=
  match qm0 with
  | M1 => Some m
  | MA a k r => match mremove a k m with Some m' => mdiv m' r | None => None end
  end.

Fixpoint exact_go (qm0 : qm) (qc : Z) (p acc : qp) : option qp :=
  match p with
  | QZ => Some acc
  | QT m c r =>
      if negb (Z.rem c qc =? 0) then None
      else match mdiv m qm0 with
           | Some m' => exact_go qm0 qc r (qins m' (Z.quot c qc) acc)
           | None => None
           end
  end.

Definition qexact_div (p q : qp) : option qp :=
  match q with
  | QT qm0 qc QZ => if qc =? 0 then None else option_map qfilter (exact_go qm0 qc p QZ)
  | _ => None
  end.

(** [floor_div] by a constant [c >= 2]; [fuel] bounds the flattening of
    nested constant quotients [floor(floor(p/a)/c) = floor(p/(a*c))]. *)
Definition flat_of (rest : qp) : option (qp * Z) :=
  match rest with
  | QT (MA (AF p' a) 1 M1) 1 QZ =>
      match as_constq a with Some av => if 0 <? av then Some (p', av) else None | None => None end
  | _ => None
  end.

Fixpoint fdiv_pos (fuel : nat) (p : qp) (c : Z) : qp :=
  let (w, rest) := split_mult p c in
  match as_constq rest with
  | Some b => qadd w (qconst (b / c))
  | None =>
      match fuel, flat_of rest with
      | S f, Some (p', av) => qadd w (fdiv_pos f p' (av * c))
      | _, _ => qadd w (qatom (AF rest (qconst c)))
      end
  end.

Definition fuel0 : nat := 64.

Definition fdiv_c (p : qp) (c : Z) : qp := if c =? 1 then p else fdiv_pos fuel0 p c.

(** [Poly::floor_div] ([None]: Rust's [DivisionByZero]). *)
Definition qfloor_div (p q : qp) : option qp :=
  match as_constq q with
  | Some c =>
      if c =? 0 then None
      else if c <? 0 then Some (qscale (-1) (fdiv_c p (- c)))
      else Some (fdiv_c p c)
  | None =>
      if is_qz p then Some QZ
      else if qp_eqb p q then Some (qconst 1)
      else match qexact_div p q with Some k => Some k | None => Some (qatom (AF p q)) end
  end.

Definition cdiv_c (p : qp) (c : Z) : qp :=
  if c =? 1 then p
  else let (w, rest) := split_mult p c in
       match as_constq rest with
       | Some b => qadd w (qconst (- ((- b) / c)))
       | None => qadd w (qatom (AC rest (qconst c)))
       end.

(** [Poly::ceil_div]. *)
Definition qceil_div (p q : qp) : option qp :=
  match as_constq q with
  | Some c =>
      if c =? 0 then None
      else if c <? 0 then Some (cdiv_c (qscale (-1) p) (- c))
      else Some (cdiv_c p c)
  | None =>
      if is_qz p then Some QZ
      else match qexact_div p q with Some k => Some k | None => Some (qatom (AC p q)) end
  end.

(** [Poly::rem]. *)
Definition qrem (p q : qp) : option qp :=
  match as_constq q with
  | Some c0 =>
      if c0 =? 0 then None
      else let c := Z.abs c0 in
           if c =? 1 then Some QZ
           else let rest := snd (split_mult p c) in
                match as_constq rest with
                | Some b => Some (qconst (b mod c))
                | None => Some (qatom (AM rest (qconst c)))
                end
  | None =>
      if is_qz p || qp_eqb p q then Some QZ
      else match qexact_div p q with Some _ => Some QZ | None => Some (qatom (AM p q)) end
  end.

(** [Poly::substitute] / [Atom::substitute] (terms accumulated as Rust does). *)
Fixpoint qsubst (f : nat -> qp) (p : qp) (acc : qp) : option qp :=
  match p with
  | QZ => Some acc
  | QT m c r =>
      match msubst_q f m (qconst c) with
      | Some t => qsubst f r (qadd acc t)
      | None => None
      end
  end
with msubst_q (f : nat -> qp) (m : qm) (t : qp) : option qp :=
  match m with
  | M1 => Some t
  | MA a k r =>
      match asubst f a with
      | Some b => msubst_q f r (qpow_mul t b k)
      | None => None
      end
  end
with asubst (f : nat -> qp) (a : qa) : option qp :=
  match a with
  | AN n => Some (f n)
  | AF x y => match qsubst f x QZ, qsubst f y QZ with Some x', Some y' => qfloor_div x' y' | _, _ => None end
  | AC x y => match qsubst f x QZ, qsubst f y QZ with Some x', Some y' => qceil_div x' y' | _, _ => None end
  | AM x y => match qsubst f x QZ, qsubst f y QZ with Some x', Some y' => qrem x' y' | _, _ => None end
  end.

(** *** The operations denote what they claim *)

Lemma qm_eq : forall m n, cmp_qm m n = Eq -> m = n.
Proof. exact (proj1 (proj2 cmp_eq_all)). Qed.
Lemma qa_eq : forall a b, cmp_qa a b = Eq -> a = b.
Proof. exact (proj2 (proj2 cmp_eq_all)). Qed.

Lemma qmap_eval : forall e s p, qeval e (qmap s p) = s * qeval e p.
Proof. intros e s p. induction p as [| m c r IH]; cbn [qmap qeval]; [ring | rewrite IH; ring]. Qed.

Lemma qmerge_cons : forall sg m c a' n d b', qmerge sg (QT m c a') (QT n d b') =
  match cmp_qm m n with
  | Lt => QT m c (qmerge sg a' (QT n d b'))
  | Gt => QT n (d * sg) (qmerge sg (QT m c a') b')
  | Eq => if c + d * sg =? 0 then qmerge sg a' b' else QT m (c + d * sg) (qmerge sg a' b')
  end.
Proof. reflexivity. Qed.

Lemma qmerge_eval : forall e sg a b, qeval e (qmerge sg a b) = qeval e a + sg * qeval e b.
Proof.
  intros e sg a. induction a as [| m c a' IH].
  - intro b. cbn [qmerge]. rewrite qmap_eval. cbn [qins qeval qmeval qmap]. ring.
  - induction b as [| n d b' IHb].
    + cbn [qmerge qeval]. ring.
    + rewrite qmerge_cons. destruct (cmp_qm m n) eqn:E.
      * apply qm_eq in E. subst n. destruct (Z.eqb_spec (c + d * sg) 0) as [Z0|Z0]; cbn [qeval]; rewrite IH.
        -- cbn [qeval]. nia.
        -- cbn [qeval]. ring.
      * cbn [qeval]. rewrite IH. cbn [qeval]. ring.
      * cbn [qeval]. rewrite IHb. cbn [qeval]. ring.
Qed.

Lemma qadd_eval : forall e a b, qeval e (qadd a b) = qeval e a + qeval e b.
Proof. intros. unfold qadd. rewrite qmerge_eval. ring. Qed.
Lemma qsub_eval : forall e a b, qeval e (qsub a b) = qeval e a - qeval e b.
Proof. intros. unfold qsub. rewrite qmerge_eval. ring. Qed.

Lemma mmul_cons : forall x k a' y l b', mmul (MA x k a') (MA y l b') =
  match cmp_qa x y with
  | Lt => MA x k (mmul a' (MA y l b'))
  | Gt => MA y l (mmul (MA x k a') b')
  | Eq => MA x (k + l) (mmul a' b')
  end.
Proof. reflexivity. Qed.

Lemma mmul_eval : forall e a b, qmeval e (mmul a b) = qmeval e a * qmeval e b.
Proof.
  intros e a. induction a as [| x k a' IH].
  - intro b. cbn [mmul qmeval]. ring.
  - induction b as [| y l b' IHb].
    + cbn [mmul qmeval]. ring.
    + rewrite mmul_cons. destruct (cmp_qa x y) eqn:E; cbn [qmeval].
      * apply qa_eq in E. subst y. rewrite IH, zpow_add. cbn [qmeval]. ring.
      * rewrite IH. cbn [qmeval]. ring.
      * rewrite IHb. cbn [qmeval]. ring.
Qed.

Lemma qscale_eval : forall e c p, qeval e (qscale c p) = c * qeval e p.
Proof.
  intros e c p. unfold qscale. destruct (Z.eqb_spec c 0); [subst; reflexivity |].
  destruct (Z.eqb_spec c 1); [subst; ring |]. rewrite qmap_eval. ring.
Qed.

Lemma qins_eval : forall e m c p, qeval e (qins m c p) = c * qmeval e m + qeval e p.
Proof.
  intros e m c p. induction p as [| m' c' r IH].
  - cbn [qins qeval qmeval qmap]. ring.
  - cbn [qins]. destruct (cmp_qm m m') eqn:E; cbn [qeval].
    + apply qm_eq in E. subst. ring.
    + ring.
    + rewrite IH. ring.
Qed.

Lemma qfilter_eval : forall e p, qeval e (qfilter p) = qeval e p.
Proof.
  intros e p. induction p as [| m c r IH]; [reflexivity |].
  cbn [qfilter]. destruct (Z.eqb_spec c 0); cbn [qeval]; rewrite IH; [subst |]; ring.
Qed.

Lemma mul_term_eval : forall e m c q acc, qeval e (mul_term m c q acc) = qeval e acc + c * qmeval e m * qeval e q.
Proof.
  intros e m c q. induction q as [| n d r IH];
    intro acc; cbn [mul_term qeval]; [ring |].
  rewrite IH, qins_eval, mmul_eval. ring.
Qed.

Lemma mul_raw_eval : forall e p q acc, qeval e (mul_raw p q acc) = qeval e acc + qeval e p * qeval e q.
Proof.
  intros e p q. induction p as [| m c r IH];
    intro acc; cbn [mul_raw qeval]; [ring |].
  rewrite IH, mul_term_eval. ring.
Qed.

Lemma as_constq_eval : forall e p c, as_constq p = Some c -> qeval e p = c.
Proof.
  intros e [| [| a k m] c' [| m' c'' r]] c H; cbn in H; try discriminate; inversion H; subst; cbn; ring.
Qed.

Lemma qconst_eval : forall e c, qeval e (qconst c) = c.
Proof. intros. unfold qconst. destruct (Z.eqb_spec c 0); cbn; lia. Qed.

Lemma qatom_eval : forall e a, qeval e (qatom a) = qaeval e a.
Proof. intros. cbn [qatom qeval qmeval zpow]. ring. Qed.

Lemma qmul_eval : forall e p q, qeval e (qmul p q) = qeval e p * qeval e q.
Proof.
  intros e p q. unfold qmul. destruct (as_constq q) as [c|] eqn:C.
  - rewrite qscale_eval, (as_constq_eval e q c C). ring.
  - destruct (as_constq p) as [c|] eqn:D.
    + rewrite qscale_eval, (as_constq_eval e p c D). ring.
    + rewrite qfilter_eval, mul_raw_eval. cbn [qins qeval qmeval qmap]. ring.
Qed.

Lemma qpow_mul_eval : forall e k t b, qeval e (qpow_mul t b k) = qeval e t * zpow (qeval e b) k.
Proof. intros e k. induction k; intros t b; cbn [qpow_mul zpow]; [ring |]. rewrite IHk, qmul_eval. ring. Qed.

Lemma split_mult_eval : forall e p c, c <> 0 ->
  qeval e p = c * qeval e (fst (split_mult p c)) + qeval e (snd (split_mult p c)).
Proof.
  intros e p c Hc. induction p as [| m k r IH]; [cbn [split_mult fst snd qeval]; ring |].
  cbn [split_mult]. destruct (split_mult r c) as [w s]. cbn [fst snd] in *.
  pose proof (Z.div_mod k c Hc) as Dm.
  destruct (Z.eqb_spec (k / c) 0) as [A|A], (Z.eqb_spec (k mod c) 0) as [B|B]; cbn [qeval]; rewrite IH; nia.
Qed.

Lemma mremove_eval : forall e a k m m', mremove a k m = Some m' -> qmeval e m = zpow (qaeval e a) k * qmeval e m'.
Proof.
  intros e a k m. induction m as [| b l r IH];
    intros m' H; cbn [mremove] in H; [discriminate |].
  destruct (qa_eqb b a) eqn:E.
  - apply qa_eqb_eq in E. subst b. destruct (Nat.leb_spec k l); [| discriminate]. injection H as <-.
    destruct (Nat.eqb_spec l k).
    + subst. cbn [qmeval]. ring.
    + cbn [qmeval]. replace l with (k + (l - k))%nat at 1 by lia. rewrite zpow_add. ring.
  - destruct (mremove a k r) as [r'|] eqn:R; cbn in H; [| discriminate]. injection H as <-.
    cbn [qmeval]. rewrite (IH r' eq_refl). ring.
Qed.

Lemma mdiv_eval : forall e q m m', mdiv m q = Some m' -> qmeval e m = qmeval e q * qmeval e m'.
Proof.
  intros e q. induction q as [| a k r IH];
    intros m m' H; cbn [mdiv] in H.
  - injection H as <-. cbn [qins qeval qmeval qmap]. ring.
  - destruct (mremove a k m) as [m1|] eqn:R; [| discriminate].
    rewrite (mremove_eval e a k m m1 R), (IH m1 m' H). cbn [qmeval]. ring.
Qed.

Lemma exact_go_eval : forall e qm0 qc p acc r, qc <> 0 -> exact_go qm0 qc p acc = Some r ->
  qc * qmeval e qm0 * (qeval e r - qeval e acc) = qeval e p.
Proof.
  intros e qm0 qc p. induction p as [| m c p' IH];
    intros acc r Hq H; cbn [exact_go] in H.
  - injection H as <-. cbn [qins qeval qmeval qmap]. ring.
  - destruct (Z.eqb_spec (Z.rem c qc) 0) as [R|R]; cbn in H; [| discriminate].
    destruct (mdiv m qm0) as [m'|] eqn:D; [| discriminate].
    specialize (IH _ _ Hq H). rewrite qins_eval in IH. cbn [qeval].
    rewrite (mdiv_eval e qm0 m m' D). pose proof (Z.quot_rem' c qc) as Q. rewrite R in Q.
    nia.
Qed.

Lemma qexact_div_eval : forall e p q k, qexact_div p q = Some k -> qeval e p = qeval e q * qeval e k.
Proof.
  intros e p q k H. destruct q as [| qm0 qc [| m c r]]; cbn in H; try discriminate.
  destruct (Z.eqb_spec qc 0); [discriminate |].
  destruct (exact_go qm0 qc p QZ) as [k'|] eqn:G; cbn in H; [| discriminate]. injection H as <-.
  rewrite qfilter_eval. pose proof (exact_go_eval e qm0 qc p QZ k' n G) as X. cbn in X |- *. nia.
Qed.

Lemma efloor_pos : forall a b, 0 < b -> efloor a b = a / b.
Proof. intros a b H. unfold efloor. destruct (Z.ltb_spec b 0); lia. Qed.

Lemma flat_of_eval : forall e rest p' av, flat_of rest = Some (p', av) ->
  0 < av /\ qeval e rest = qeval e p' / av.
Proof.
  intros e rest p' av H. unfold flat_of in H.
  repeat match type of H with
  | context [match ?x with _ => _ end] => let E := fresh "E" in destruct x eqn:E; try discriminate
  end.
  injection H as <- <-. subst.
  match goal with L : (0 <? _) = true |- _ => apply Z.ltb_lt in L end.
  split; [lia |]. cbn [qeval qmeval qaeval zpow].
  match goal with A : as_constq _ = Some _ |- _ => rewrite (as_constq_eval e _ _ A) end.
  rewrite efloor_pos by lia. ring.
Qed.

Lemma fdiv_pos_eval : forall e f p c, 2 <= c -> qeval e (fdiv_pos f p c) = qeval e p / c.
Proof.
  intros e f. induction f as [| f IH]; intros p c Hc; cbn [fdiv_pos];
    pose proof (split_mult_eval e p c ltac:(lia)) as S; destruct (split_mult p c) as [w rest]; cbn [fst snd] in S;
    rewrite S;
    (assert (Plain : qeval e (qadd w (qatom (AF rest (qconst c)))) = (c * qeval e w + qeval e rest) / c);
    [ rewrite qadd_eval, qatom_eval; cbn [qaeval]; rewrite qconst_eval, efloor_pos by lia;
      rewrite Z.mul_comm, Z.div_add_l by lia; ring |]);
    (destruct (as_constq rest) as [b|] eqn:B;
    [ rewrite qadd_eval, qconst_eval, (as_constq_eval e rest b B);
      rewrite Z.mul_comm, Z.div_add_l by lia; ring |]).
  - exact Plain.
  - destruct (flat_of rest) as [[p' av]|] eqn:Fl; [| exact Plain].
    destruct (flat_of_eval e rest p' av Fl) as [Hav Ev].
    rewrite qadd_eval, IH by nia. rewrite Ev, (Z.mul_comm c (qeval e w)), Z.div_add_l by lia.
    rewrite Z.div_div by lia. ring.
Qed.

Lemma fdiv_c_eval : forall e p c, 1 <= c -> qeval e (fdiv_c p c) = qeval e p / c.
Proof.
  intros e p c H. unfold fdiv_c. destruct (Z.eqb_spec c 1).
  - subst. rewrite Z.div_1_r. reflexivity.
  - apply fdiv_pos_eval. lia.
Qed.

Lemma is_qz_eval : forall e p, is_qz p = true -> qeval e p = 0.
Proof. intros e [|] H; cbn in H; [reflexivity | discriminate]. Qed.

Lemma qfloor_div_eval : forall e p q r, qfloor_div p q = Some r -> qeval e q <> 0 ->
  qeval e r = efloor (qeval e p) (qeval e q).
Proof.
  intros e p q r H Hq. unfold qfloor_div in H. destruct (as_constq q) as [c|] eqn:C.
  - rewrite (as_constq_eval e q c C) in *. destruct (Z.eqb_spec c 0); [discriminate |].
    unfold efloor. destruct (Z.ltb_spec c 0); injection H as <-.
    + rewrite qscale_eval, fdiv_c_eval by lia. ring.
    + apply fdiv_c_eval. lia.
  - destruct (is_qz p) eqn:Z0.
    + injection H as <-. rewrite (is_qz_eval e p Z0). unfold efloor. cbn. destruct (qeval e q <? 0); reflexivity.
    + destruct (qp_eqb p q) eqn:E.
      * apply qp_eqb_eq in E. subst. injection H as <-. rewrite qconst_eval. unfold efloor.
        destruct (Z.ltb_spec (qeval e q) 0).
        -- replace (qeval e q) with ((-1) * (- qeval e q)) at 1 by ring. rewrite Z.div_mul by lia. ring.
        -- rewrite Z.div_same; lia.
      * destruct (qexact_div p q) as [k|] eqn:X.
        -- injection H as <-. rewrite (qexact_div_eval e p q k X). unfold efloor.
           destruct (Z.ltb_spec (qeval e q) 0).
           ++ replace (qeval e q * qeval e k) with ((- qeval e k) * (- qeval e q)) by ring.
              rewrite Z.div_mul by lia. ring.
           ++ rewrite Z.mul_comm, Z.div_mul by lia. reflexivity.
        -- injection H as <-. apply qatom_eval.
Qed.

Lemma cdiv_c_eval : forall e p c, 1 <= c -> qeval e (cdiv_c p c) = - ((- qeval e p) / c).
Proof.
  intros e p c Hc. unfold cdiv_c. destruct (Z.eqb_spec c 1).
  - subst. rewrite Z.div_1_r. ring.
  - pose proof (split_mult_eval e p c ltac:(lia)) as S. destruct (split_mult p c) as [w rest]. cbn [fst snd] in S.
    rewrite S. replace (- (c * qeval e w + qeval e rest)) with ((- qeval e w) * c + - qeval e rest) by ring.
    rewrite Z.div_add_l by lia.
    destruct (as_constq rest) as [b|] eqn:B.
    + rewrite qadd_eval, qconst_eval, (as_constq_eval e rest b B). ring.
    + rewrite qadd_eval, qatom_eval. cbn [qaeval]. rewrite qconst_eval. unfold eceil.
      destruct (Z.ltb_spec c 0); [lia |]. ring.
Qed.

Lemma qceil_div_eval : forall e p q r, qceil_div p q = Some r -> qeval e q <> 0 ->
  qeval e r = eceil (qeval e p) (qeval e q).
Proof.
  intros e p q r H Hq. unfold qceil_div in H. destruct (as_constq q) as [c|] eqn:C.
  - rewrite (as_constq_eval e q c C) in *. destruct (Z.eqb_spec c 0); [discriminate |].
    unfold eceil. destruct (Z.ltb_spec c 0); injection H as <-.
    + rewrite cdiv_c_eval, qscale_eval by lia. f_equal. f_equal. ring.
    + apply cdiv_c_eval. lia.
  - destruct (is_qz p) eqn:Z0.
    + injection H as <-. rewrite (is_qz_eval e p Z0). unfold eceil. cbn.
      destruct (qeval e q <? 0); reflexivity.
    + destruct (qexact_div p q) as [k|] eqn:X.
      * injection H as <-. rewrite (qexact_div_eval e p q k X). unfold eceil.
        destruct (Z.ltb_spec (qeval e q) 0).
        -- replace (qeval e q * qeval e k) with ((- qeval e k) * (- qeval e q)) by ring.
           rewrite Z.div_mul by lia. ring.
        -- replace (- (qeval e q * qeval e k)) with ((- qeval e k) * qeval e q) by ring.
           rewrite Z.div_mul by lia. ring.
      * injection H as <-. apply qatom_eval.
Qed.

Lemma qrem_eval : forall e p q r, qrem p q = Some r -> qeval e q <> 0 ->
  qeval e r = emod (qeval e p) (qeval e q).
Proof.
  intros e p q r H Hq. unfold qrem, emod in *. destruct (as_constq q) as [c0|] eqn:C.
  - rewrite (as_constq_eval e q c0 C) in *. destruct (Z.eqb_spec c0 0); [discriminate |].
    destruct (Z.eqb_spec (Z.abs c0) 1) as [A|A].
    + injection H as <-. rewrite A, Z.mod_1_r. reflexivity.
    + pose proof (split_mult_eval e p (Z.abs c0) ltac:(lia)) as S.
      destruct (split_mult p (Z.abs c0)) as [w rest]. cbn [fst snd] in *.
      assert (M : qeval e p mod Z.abs c0 = qeval e rest mod Z.abs c0).
      { rewrite S, Z.add_comm, Z.mul_comm, Z.mod_add by lia. reflexivity. }
      rewrite M. destruct (as_constq rest) as [b|] eqn:B; injection H as <-.
      * rewrite qconst_eval, (as_constq_eval e rest b B). reflexivity.
      * rewrite qatom_eval. cbn [qaeval]. unfold emod. rewrite qconst_eval, Z.abs_involutive. reflexivity.
  - destruct (is_qz p || qp_eqb p q) eqn:Z0.
    + injection H as <-. apply orb_true_iff in Z0 as [Z0|Z0].
      * rewrite (is_qz_eval e p Z0). cbn [qeval]. rewrite Z.mod_0_l by lia. reflexivity.
      * apply qp_eqb_eq in Z0. subst. cbn [qeval]. symmetry. apply Z.mod_divide; [lia |].
        apply Z.divide_abs_l, Z.divide_refl.
    + destruct (qexact_div p q) as [k|] eqn:X; injection H as <-.
      * rewrite (qexact_div_eval e p q k X). cbn [qeval]. symmetry. apply Z.mod_divide; [lia |].
        apply Z.divide_abs_l. exists (qeval e k). ring.
      * rewrite qatom_eval. reflexivity.
Qed.

(** [Poly::substitute] denotes the substituted expression wherever the
    expression is defined. *)
Lemma qsubst_eval_all : forall (f : nat -> qp) (e e' : env), (forall n, qeval e' (f n) = e n) ->
  (forall p acc r, qsubst f p acc = Some r -> qdef e p -> qeval e' r = qeval e' acc + qeval e p) /\
  (forall m t r, msubst_q f m t = Some r -> mdef e m -> qeval e' r = qeval e' t * qmeval e m) /\
  (forall a r, asubst f a = Some r -> adef e a -> qeval e' r = qaeval e a).
Proof.
  intros f e e' Hf. apply q_mutind.
  - intros acc r H _. cbn [qsubst] in H. injection H as <-. cbn [qeval]. ring.
  - intros m IHm c r IHr acc res H [Dm Dr]. cbn [qsubst] in H.
    destruct (msubst_q f m (qconst c)) as [t|] eqn:T; [| discriminate].
    rewrite (IHr _ _ H Dr), qadd_eval, (IHm _ _ T Dm), qconst_eval. cbn [qeval]. ring.
  - intros t r H _. cbn [msubst_q] in H. injection H as <-. cbn [qmeval]. ring.
  - intros a IHa k r IHr t res H [Da Dr]. cbn [msubst_q] in H.
    destruct (asubst f a) as [b|] eqn:B; [| discriminate].
    rewrite (IHr _ _ H Dr), qpow_mul_eval, (IHa _ eq_refl Da). cbn [qmeval]. ring.
  - intros n r H _. cbn [asubst] in H. injection H as <-. apply Hf.
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [asubst] in H.
    destruct (qsubst f x QZ) as [x'|] eqn:X; [| discriminate].
    destruct (qsubst f y QZ) as [y'|] eqn:Y; [| discriminate].
    pose proof (IHx _ _ X Dx) as Ex. pose proof (IHy _ _ Y Dy) as Ey. cbn [qeval] in Ex, Ey.
    cbn [qaeval]. rewrite (qfloor_div_eval e' x' y' r H) by lia. rewrite Ex, Ey. f_equal; ring.
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [asubst] in H.
    destruct (qsubst f x QZ) as [x'|] eqn:X; [| discriminate].
    destruct (qsubst f y QZ) as [y'|] eqn:Y; [| discriminate].
    pose proof (IHx _ _ X Dx) as Ex. pose proof (IHy _ _ Y Dy) as Ey. cbn [qeval] in Ex, Ey.
    cbn [qaeval]. rewrite (qceil_div_eval e' x' y' r H) by lia. rewrite Ex, Ey. f_equal; ring.
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [asubst] in H.
    destruct (qsubst f x QZ) as [x'|] eqn:X; [| discriminate].
    destruct (qsubst f y QZ) as [y'|] eqn:Y; [| discriminate].
    pose proof (IHx _ _ X Dx) as Ex. pose proof (IHy _ _ Y Dy) as Ey. cbn [qeval] in Ex, Ey.
    cbn [qaeval]. rewrite (qrem_eval e' x' y' r H) by lia. rewrite Ex, Ey. f_equal; ring.
Qed.

(** Definedness survives [add]/[sub]: every term comes from an operand. *)
Lemma qmap_def : forall e s p, qdef e p -> qdef e (qmap s p).
Proof. intros e s p. induction p as [| m c r IH]; cbn [qmap qdef]; tauto. Qed.

Lemma qmerge_def : forall e sg a b, qdef e a -> qdef e b -> qdef e (qmerge sg a b).
Proof.
  intros e sg a. induction a as [| m c a' IH].
  - intros b _ Hb. cbn [qmerge]. apply qmap_def. exact Hb.
  - induction b as [| n d b' IHb]; intros Ha Hb.
    + exact Ha.
    + rewrite qmerge_cons. cbn [qdef] in Ha, Hb. destruct (cmp_qm m n) eqn:E.
      * destruct (c + d * sg =? 0); cbn [qdef]; [apply IH; tauto | split; [tauto | apply IH; tauto]].
      * cbn [qdef]. split; [tauto |]. apply IH; [tauto |]. cbn [qdef]. tauto.
      * cbn [qdef]. split; [tauto |]. apply IHb; [cbn [qdef]; tauto | tauto].
Qed.

(** ** [to_y]: names in quotient variables *)

(** [y_of]: [X ↦ x0 + m*X'] (the constant [x0] when [ymax = 0]), canonical. *)
Definition qyform (F : list (nat * info)) (n : nat) : qp :=
  let i := info_or_default F n in
  match iymax i with
  | Some 0 => qconst (ix0 i)
  | _ => qadd (qconst (ix0 i)) (qscale (im i) (qatom (AN n)))
  end.

Definition qto_y (F : list (nat * info)) (p : qp) : option qp :=
  match as_constq p with Some _ => Some p | None => qsubst (qyform F) p QZ end.

Lemma qyform_eval : forall F e n, fits F e -> qeval (yenv F e) (qyform F n) = e n.
Proof.
  intros F e n Hf. destruct (yenv_spec F e Hf) as [_ Hy]. rewrite <- (Hy n).
  unfold qyform, yform. destruct (iymax (info_or_default F n)) as [[|h|h]|];
    rewrite ?qadd_eval, ?qscale_eval, ?qatom_eval, ?qconst_eval, ?padd_eval, ?pscale_eval,
      ?pvar_eval, ?pconst_eval; cbn [qaeval]; ring.
Qed.

Lemma qto_y_eval : forall F e p r, fits F e -> qdef e p -> qto_y F p = Some r ->
  qeval (yenv F e) r = qeval e p.
Proof.
  intros F e p r Hf Hd H. unfold qto_y in H. destruct (as_constq p) as [c|] eqn:C.
  - injection H as <-. rewrite !(as_constq_eval _ p c C). reflexivity.
  - pose proof (proj1 (qsubst_eval_all (qyform F) e (yenv F e) (fun n => qyform_eval F e n Hf)) p QZ r H Hd) as E.
    cbn [qeval] in E. lia.
Qed.

(** ** [Facts::interval] and [Facts::atom_interval] *)

(** [Mod]: in [[0, y - 1]] for a divisor [y >= 1], and at most [x] for [x >= 0]. *)
Definition mod_iv (xi yi : iv) : iv :=
  match lo xi, lo yi with
  | Some xl, Some yl =>
      if 1 <=? yl then
        mkiv (Some 0)
          (match hi yi, hi xi with
           | Some yh, Some xh => if 0 <=? xl then Some (Z.min (yh - 1) xh) else Some (yh - 1)
           | Some yh, None => Some (yh - 1)
           | None, Some xh => if 0 <=? xl then Some xh else None
           | None, None => None
           end)
      else top
  | _, _ => top
  end.

(** [Floor] / [Ceil] of [x >= 0] by [y >= 1]: monotone in both. *)
Definition div_iv (ceil : bool) (xi yi : iv) : iv :=
  match lo xi, lo yi with
  | Some xl, Some yl =>
      if (0 <=? xl) && (1 <=? yl) then
        let q n d := if ceil then (n + d - 1) / d else n / d in
        mkiv (Some (match hi yi with Some yh => q xl yh | None => 0 end))
             (match hi xi with Some xh => Some (q xh yl) | None => None end)
      else top
  | _, _ => top
  end.

Fixpoint qp_iv (F : list (nat * info)) (acc : iv) (p : qp) : iv :=
  match p with QZ => acc | QT m c r => qp_iv F (iadd acc (qm_iv F (point c) m)) r end
with qm_iv (F : list (nat * info)) (t : iv) (m : qm) : iv :=
  match m with M1 => t | MA a k r => qm_iv F (ipow t (atom_iv F a) k) r end
with atom_iv (F : list (nat * info)) (a : qa) : iv :=
  match a with
  | AN n => var_iv F n
  | AF x y => div_iv false (qp_iv F (point 0) x) (qp_iv F (point 0) y)
  | AC x y => div_iv true (qp_iv F (point 0) x) (qp_iv F (point 0) y)
  | AM x y => mod_iv (qp_iv F (point 0) x) (qp_iv F (point 0) y)
  end.

Definition qinterval (F : list (nat * info)) (p : qp) : iv := qp_iv F (point 0) p.

Lemma top_in : forall x, in_iv x top.
Proof. intros. unfold in_iv, top; cbn. auto. Qed.

Lemma mod_iv_sound : forall x y xi yi, in_iv x xi -> in_iv y yi -> in_iv (emod x y) (mod_iv xi yi).
Proof.
  intros x y [xl xh] [yl yh] [Hxl Hxh] [Hyl Hyh]. unfold mod_iv, emod. cbn [lo hi] in *.
  destruct xl as [xl|]; [| apply top_in]. destruct yl as [yl|]; [| apply top_in].
  destruct (Z.leb_spec 1 yl); [| apply top_in]. cbn in Hxl, Hyl.
  rewrite Z.abs_eq by lia. pose proof (Z.mod_pos_bound x y ltac:(lia)) as Bd.
  split; cbn; [lia |].
  assert (Le : 0 <= xl -> x mod y <= x) by (intro; apply Z.mod_le; lia).
  destruct yh as [yh|], xh as [xh|]; cbn in Hxh, Hyh; auto;
    try (destruct (Z.leb_spec 0 xl)); cbn; try lia.
Qed.

Lemma ceil_char : forall x y, 0 < y -> - ((- x) / y) = (x + y - 1) / y.
Proof.
  intros x y Hy. pose proof (Z.div_mod (- x) y ltac:(lia)) as D. pose proof (Z.mod_pos_bound (- x) y Hy) as B.
  set (q := (- x) / y) in *. set (r := (- x) mod y) in *.
  apply Z.div_unique with (r := y - 1 - r); [left; lia | lia].
Qed.

Lemma div_iv_sound : forall (ceil : bool) (x y : Z) (xi yi : iv), in_iv x xi -> in_iv y yi ->
  in_iv (if ceil then eceil x y else efloor x y) (div_iv ceil xi yi).
Proof.
  intros ceil x y [xl xh] [yl yh] [Hxl Hxh] [Hyl Hyh]. unfold div_iv. cbn [lo hi] in *.
  destruct xl as [xl|]; [| apply top_in]. destruct yl as [yl|]; [| apply top_in].
  destruct ((0 <=? xl) && (1 <=? yl)) eqn:C; [| apply top_in].
  apply andb_true_iff in C as [C1 C2]. apply Z.leb_le in C1. apply Z.leb_le in C2. cbn in Hxl, Hyl.
  assert (Hv : (if ceil then eceil x y else efloor x y) = (if ceil then (x + y - 1) / y else x / y)).
  { destruct ceil; unfold eceil, efloor; destruct (Z.ltb_spec y 0); try lia; auto. apply ceil_char. lia. }
  rewrite Hv. clear Hv.
  assert (Mono : forall n d n' d', 0 <= n <= n' -> 1 <= d' <= d ->
            (if ceil then (n + d - 1) / d else n / d) <= (if ceil then (n' + d' - 1) / d' else n' / d')).
  { intros n d n' d' Hn Hd. destruct ceil.
    - assert (Hc1 : d * ((n + d - 1) / d) <= n + d - 1) by (apply Z.mul_div_le; lia).
      assert (Hc0 : 0 <= (n + d - 1) / d) by (apply Z.div_pos; lia).
      apply Z.div_le_lower_bound; [lia |].
      set (c := (n + d - 1) / d) in *.
      destruct (Z.eq_dec c 0) as [->|Hc]; [lia |].
      assert (M : d' * (c - 1) <= d * (c - 1)) by (apply Z.mul_le_mono_nonneg_r; lia).
      nia.
    - apply Z.le_trans with (n' / d); [apply Z.div_le_mono; lia |]. apply Z.div_le_compat_l; lia. }
  split; cbn.
  - destruct yh as [yh|]; cbn in Hyh.
    + apply Mono; lia.
    + destruct ceil; apply Z.div_pos; lia.
  - destruct xh as [xh|]; cbn in Hxh; auto. apply Mono; lia.
Qed.

(** Every value in the box of the quotient variables lies in the interval
    (no definedness needed: an atom gets a bound only for a divisor [>= 1]). *)
Lemma q_iv_sound_all : forall F y, in_box F y ->
  (forall p acc z, in_iv z acc -> in_iv (z + qeval y p) (qp_iv F acc p)) /\
  (forall m t z, in_iv z t -> in_iv (z * qmeval y m) (qm_iv F t m)) /\
  (forall a, in_iv (qaeval y a) (atom_iv F a)).
Proof.
  intros F y Hb. apply q_mutind.
  - intros acc z Hz. cbn [qeval qp_iv]. replace (z + 0) with z by ring. exact Hz.
  - intros m IHm c r IHr acc z Hz. cbn [qeval qp_iv].
    replace (z + (c * qmeval y m + qeval y r)) with ((z + c * qmeval y m) + qeval y r) by ring.
    apply IHr. apply iadd_sound; [exact Hz |]. apply IHm. unfold point, in_iv; cbn; lia.
  - intros t z Hz. cbn [qmeval qm_iv]. replace (z * 1) with z by ring. exact Hz.
  - intros a IHa k r IHr t z Hz. cbn [qmeval qm_iv].
    replace (z * (zpow (qaeval y a) k * qmeval y r)) with ((z * zpow (qaeval y a) k) * qmeval y r) by ring.
    apply IHr. apply ipow_sound; auto.
  - intros n. cbn [qaeval atom_iv]. apply Hb.
  - intros x IHx v IHv. cbn [qaeval atom_iv].
    assert (X := IHx (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    assert (V := IHv (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    rewrite Z.add_0_l in X, V. exact (div_iv_sound false _ _ _ _ X V).
  - intros x IHx v IHv. cbn [qaeval atom_iv].
    assert (X := IHx (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    assert (V := IHv (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    rewrite Z.add_0_l in X, V. exact (div_iv_sound true _ _ _ _ X V).
  - intros x IHx v IHv. cbn [qaeval atom_iv].
    assert (X := IHx (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    assert (V := IHv (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)).
    rewrite Z.add_0_l in X, V. exact (mod_iv_sound _ _ _ _ X V).
Qed.

Theorem qinterval_sound : forall F y p, in_box F y -> in_iv (qeval y p) (qinterval F p).
Proof.
  intros F y p Hb. unfold qinterval.
  pose proof (proj1 (q_iv_sound_all F y Hb) p (point 0) 0 ltac:(unfold point, in_iv; cbn; lia)) as H.
  rewrite Z.add_0_l in H. exact H.
Qed.

(** ** The decisions *)

Fixpoint qconst_term (p : qp) : Z :=
  match p with QZ => 0 | QT M1 c r => c + qconst_term r | QT _ _ r => qconst_term r end.

Fixpoint qcoef_gcd (p : qp) : Z :=
  match p with QZ => 0 | QT M1 _ r => qcoef_gcd r | QT _ c r => Z.gcd (qcoef_gcd r) c end.

Lemma qcoef_gcd_divides : forall e p, (qcoef_gcd p | qeval e p - qconst_term p).
Proof.
  intros e p. induction p as [| m c r IH]; cbn [qcoef_gcd qconst_term qeval].
  - exists 0. ring.
  - destruct m as [| a k m].
    + cbn [qmeval]. replace (c * 1 + qeval e r - (c + qconst_term r)) with (qeval e r - qconst_term r) by ring.
      exact IH.
    + replace (c * qmeval e (MA a k m) + qeval e r - qconst_term r)
        with (c * qmeval e (MA a k m) + (qeval e r - qconst_term r)) by ring.
      apply Z.divide_add_r.
      * apply Z.divide_mul_l. apply Z.gcd_divide_r.
      * eapply Z.divide_trans; [apply Z.gcd_divide_l | exact IH].
Qed.

Lemma qcoef_gcd_nonneg : forall p, 0 <= qcoef_gcd p.
Proof.
  induction p as [| m c r IH]; cbn. { lia. }
  destruct m; [exact IH | apply Z.gcd_nonneg].
Qed.

(** [decide_zero]. *)
Definition qdecide_zero (F : list (nat * info)) (d : qp) : option bool :=
  match as_constq d with
  | Some c => Some (c =? 0)
  | None =>
      let b := qconst_term d in
      let g := qcoef_gcd d in
      if negb (g =? 0) && negb (b mod g =? 0) then Some false
      else let I := qinterval F d in
           if gt0 (lo I) || lt0 (hi I) then Some false else None
  end.

Lemma qdecide_zero_sound : forall F y d b, in_box F y -> qdecide_zero F d = Some b ->
  (qeval y d =? 0) = b.
Proof.
  intros F y d b Hb H. unfold qdecide_zero in H.
  destruct (as_constq d) as [c|] eqn:C.
  - inversion H; subst. rewrite (as_constq_eval y d c C). reflexivity.
  - pose proof (qcoef_gcd_divides y d) as Dg. pose proof (qcoef_gcd_nonneg d) as Gn.
    destruct (negb (qcoef_gcd d =? 0) && negb (qconst_term d mod qcoef_gcd d =? 0)) eqn:G.
    + inversion H; subst. apply andb_true_iff in G as [G1 G2].
      apply negb_true_iff, Z.eqb_neq in G1. apply negb_true_iff, Z.eqb_neq in G2.
      apply Z.eqb_neq. intro E. rewrite E in Dg. apply G2.
      apply Z.mod_divide; [lia |]. replace (qconst_term d) with (- (0 - qconst_term d)) by ring.
      apply Z.divide_opp_r. exact Dg.
    + pose proof (qinterval_sound F y d Hb) as [Hl Hh].
      destruct (gt0 (lo (qinterval F d)) || lt0 (hi (qinterval F d))) eqn:I; [| discriminate].
      inversion H; subst. apply Z.eqb_neq. apply orb_true_iff in I as [I|I].
      * destruct (lo (qinterval F d)) as [l|]; cbn in I, Hl; [apply Z.ltb_lt in I; lia | discriminate].
      * destruct (hi (qinterval F d)) as [h|]; cbn in I, Hh; [apply Z.ltb_lt in I; lia | discriminate].
Qed.

(** Whether a quotient atom occurs (at the top level). *)
Fixpoint m_has_quot (m : qm) : bool :=
  match m with M1 => false | MA (AN _) _ r => m_has_quot r | MA _ _ _ => true end.
Fixpoint has_quotient (p : qp) : bool :=
  match p with QZ => false | QT m _ r => m_has_quot m || has_quotient r end.

(** [p.floor_div(q)?.mul(q)? == *p && !p.floor_div(q)?.has_quotient()]. *)
Definition qdivides_exactly (p q : qp) : bool :=
  match qfloor_div p q with
  | Some k => qp_eqb (qmul k q) p && negb (has_quotient k)
  | None => false
  end.

Lemma qdivides_exactly_sound : forall e p q, qdivides_exactly p q = true ->
  exists k, qeval e p = k * qeval e q.
Proof.
  intros e p q H. unfold qdivides_exactly in H. destruct (qfloor_div p q) as [k|]; [| discriminate].
  apply andb_true_iff in H as [H _]. apply qp_eqb_eq in H. exists (qeval e k). rewrite <- H, qmul_eval. ring.
Qed.

(** [decide_divides] ([None]: an error). *)
Definition qdecide_divides (F : list (nat * info)) (q p : qp) : option (option bool) :=
  match qto_y F q, qto_y F p with
  | Some qy, Some py =>
      Some
      (if match as_constq py with Some c => c =? 0 | None => false end then Some true
       else match as_constq qy with
            | Some c0 =>
                if c0 =? 0 then qdecide_zero F py
                else
                  let c := Z.abs c0 in
                  let b := qconst_term py in
                  let g := qcoef_gcd py in
                  if (g mod c =? 0) && (b mod c =? 0) then Some true
                  else
                    let g2 := Z.gcd c g in
                    if negb (b mod (Z.max g2 1) =? 0) && negb (g2 =? 0) then Some false
                    else if g =? 0 then Some (b mod c =? 0)
                    else None
            | None =>
                if qdivides_exactly p q || qdivides_exactly py qy then Some true
                else match as_constq py with
                     | Some c => if match lo (qinterval F qy) with Some l => Z.abs c <? l | None => false end
                                 then Some false else None
                     | None => None
                     end
            end)
  | _, _ => None
  end.

Record qpred := mkqp { qrel : rel; qlhs : qp; qrhs : qp }.

(** [Pred::holds]. *)
Definition qholds (e : env) (p : qpred) : bool :=
  let l := qeval e (qlhs p) in
  let r := qeval e (qrhs p) in
  match qrel p with
  | RGe => r <=? l
  | REq => l =? r
  | RNe => negb (l =? r)
  | RDv => divb l r
  | RNDv => negb (divb l r)
  end.

Definition qpdef (e : env) (p : qpred) : Prop := qdef e (qlhs p) /\ qdef e (qrhs p).

(** [decide_static] on predicates with quotient atoms ([None]: Rust's
    error, [Some None]: undecided). *)
Definition qdecide (F : list (nat * info)) (p : qpred) : option (option bool) :=
  let l := qlhs p in
  let r := qrhs p in
  match qrel p with
  | RGe =>
      match as_constq (qsub l r) with
      | Some d => Some (Some (0 <=? d))
      | None =>
          option_map (fun d => let I := qinterval F d in
                               if ispos (lo I) then Some true else if lt0 (hi I) then Some false else None)
                     (qto_y F (qsub l r))
      end
  | REq =>
      match as_constq (qsub l r) with
      | Some d => Some (Some (d =? 0))
      | None => option_map (qdecide_zero F) (qto_y F (qsub l r))
      end
  | RNe =>
      match as_constq (qsub l r) with
      | Some d => Some (Some (negb (d =? 0)))
      | None => option_map (fun d => option_map negb (qdecide_zero F d)) (qto_y F (qsub l r))
      end
  | RDv => qdecide_divides F l r
  | RNDv => option_map (option_map negb) (qdecide_divides F l r)
  end.

Lemma qdecide_divides_sound : forall F e q p b, fits F e -> qdef e q -> qdef e p ->
  qdecide_divides F q p = Some (Some b) -> divb (qeval e q) (qeval e p) = b.
Proof.
  intros F e q p b Hf Dq Dp H. unfold qdecide_divides in H.
  destruct (yenv_spec F e Hf) as [Hbox _].
  destruct (qto_y F q) as [qy|] eqn:Tq; [| discriminate].
  destruct (qto_y F p) as [py|] eqn:Tp; [| discriminate].
  injection H as H.
  pose proof (qto_y_eval F e p py Hf Dp Tp) as Ep. pose proof (qto_y_eval F e q qy Hf Dq Tq) as Eq.
  set (y := yenv F e) in *.
  destruct (match as_constq py with Some c => c =? 0 | None => false end) eqn:Z0.
  { injection H as <-. destruct (as_constq py) as [c|] eqn:C; [| discriminate].
    apply Z.eqb_eq in Z0. subst. rewrite (as_constq_eval y py 0 C) in Ep. rewrite <- Ep.
    unfold divb. rewrite Zmod_0_l. destruct (qeval e q =? 0); reflexivity. }
  destruct (as_constq qy) as [c0|] eqn:Cq.
  - rewrite (as_constq_eval y qy c0 Cq) in Eq. rewrite <- Eq.
    destruct (Z.eqb_spec c0 0) as [->|Hc0].
    + apply (qdecide_zero_sound F y py b Hbox) in H. rewrite Ep in H. rewrite <- H.
      unfold divb. cbn. destruct (qeval e p =? 0); reflexivity.
    + assert (Dv : divb c0 (qeval e p) = (qeval e p mod c0 =? 0)).
      { unfold divb. destruct (Z.eqb_spec c0 0); [contradiction | cbn].
        destruct (qeval e p =? 0); reflexivity. }
      rewrite Dv. clear Dv.
      pose proof (qcoef_gcd_divides y py) as Dg. pose proof (qcoef_gcd_nonneg py) as Gn.
      rewrite Ep in Dg. set (g := qcoef_gcd py) in *. set (bb := qconst_term py) in *.
      set (r := qeval e p) in *.
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
  - destruct (qdivides_exactly p q || qdivides_exactly py qy) eqn:D.
    + injection H as <-. apply orb_true_iff in D as [D | D].
      * destruct (qdivides_exactly_sound e p q D) as [k Hk]. rewrite Hk. apply divb_mul.
      * destruct (qdivides_exactly_sound y py qy D) as [k Hk]. rewrite <- Ep, <- Eq, Hk. apply divb_mul.
    + destruct (as_constq py) as [c|] eqn:Cp; [| discriminate].
      pose proof (qinterval_sound F y qy Hbox) as [Hl _].
      destruct (lo (qinterval F qy)) as [l|] eqn:L; [| discriminate].
      destruct (Z.abs c <? l) eqn:Lt; [| discriminate]. injection H as <-. apply Z.ltb_lt in Lt.
      cbn in Hl. rewrite Eq in Hl. rewrite (as_constq_eval y py c Cp) in Ep. rewrite <- Ep.
      apply Z.eqb_neq in Z0.
      unfold divb. destruct (Z.eqb_spec (qeval e q) 0) as [Q0|Q0]; [lia |]. cbn.
      apply Z.eqb_neq. intro Hm. apply Z.mod_divide in Hm; auto.
      apply Z.divide_abs_r in Hm. apply Z.divide_pos_le in Hm; lia.
Qed.

Lemma qdecide_fits_sound : forall F p b e, fits F e -> qpdef e p -> qdecide F p = Some (Some b) ->
  qholds e p = b.
Proof.
  intros F [r l q] b e Hf [Dl Dq] H. unfold qdecide, qholds in *. cbn [qrel qlhs qrhs] in *.
  destruct (yenv_spec F e Hf) as [Hbox _].
  assert (Dd : qdef e (qsub l q)) by (apply qmerge_def; auto).
  destruct r.
  - destruct (as_constq (qsub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_constq_eval e _ _ C) as Ed. rewrite qsub_eval in Ed.
      destruct (Z.leb_spec (qeval e q) (qeval e l)), (Z.leb_spec 0 d); auto; lia.
    + destruct (qto_y F (qsub l q)) as [d|] eqn:T; cbn in H; [| discriminate].
      pose proof (qto_y_eval F e _ d Hf Dd T) as Ey. rewrite qsub_eval in Ey.
      pose proof (qinterval_sound F (yenv F e) d Hbox) as [Il Ih]. rewrite Ey in Il, Ih.
      destruct (ispos (lo (qinterval F d))) eqn:P.
      * injection H as <-. destruct (lo _) as [x|]; cbn in P, Il; [| discriminate].
        apply Z.leb_le in P. apply Z.leb_le. lia.
      * destruct (lt0 (hi (qinterval F d))) eqn:N; [| discriminate].
        injection H as <-. destruct (hi _) as [x|]; cbn in N, Ih; [| discriminate].
        apply Z.ltb_lt in N. apply Z.leb_gt. lia.
  - destruct (as_constq (qsub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_constq_eval e _ _ C) as Ed. rewrite qsub_eval in Ed.
      destruct (Z.eqb_spec (qeval e l) (qeval e q)), (Z.eqb_spec d 0); auto; lia.
    + destruct (qto_y F (qsub l q)) as [d|] eqn:T; cbn in H; [| discriminate].
      pose proof (qto_y_eval F e _ d Hf Dd T) as Ey. rewrite qsub_eval in Ey.
      injection H as H. apply (qdecide_zero_sound F _ _ b Hbox) in H. rewrite Ey in H. rewrite <- H.
      destruct (Z.eqb_spec (qeval e l) (qeval e q)), (Z.eqb_spec (qeval e l - qeval e q) 0); auto; lia.
  - destruct (as_constq (qsub l q)) as [d|] eqn:C.
    + injection H as <-. pose proof (as_constq_eval e _ _ C) as Ed. rewrite qsub_eval in Ed.
      destruct (Z.eqb_spec (qeval e l) (qeval e q)), (Z.eqb_spec d 0); auto; lia.
    + destruct (qto_y F (qsub l q)) as [d|] eqn:T; cbn in H; [| discriminate].
      pose proof (qto_y_eval F e _ d Hf Dd T) as Ey. rewrite qsub_eval in Ey.
      destruct (qdecide_zero F d) as [b'|] eqn:D; cbn in H; [| discriminate].
      injection H as <-. apply (qdecide_zero_sound F _ _ b' Hbox) in D. rewrite Ey in D. rewrite <- D.
      destruct (Z.eqb_spec (qeval e l) (qeval e q)), (Z.eqb_spec (qeval e l - qeval e q) 0); auto; lia.
  - exact (qdecide_divides_sound F e l q b Hf Dl Dq H).
  - destruct (qdecide_divides F l q) as [[b'|]|] eqn:D; cbn in H; try discriminate.
    injection H as <-. rewrite (qdecide_divides_sound F e l q b' Hf Dl Dq D). reflexivity.
Qed.

(** [decide_quick] on predicates with quotient atoms: [Some (Some b)] is
    the predicate's value at every assignment (every name [>= 1]) that
    satisfies the facts and where the predicate is defined. *)
Theorem qdecide_sound : forall fs F p b, facts_parse fs = Ok F -> qdecide F p = Some (Some b) ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs -> qpdef e p -> qholds e p = b.
Proof.
  intros fs F p b H D e Hpos Hh Hd. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (parse_all_ok fs raws P) as [W E].
  exact (qdecide_fits_sound F p b e (fits_of_rebuild raws F e W H Hpos (proj1 (E e) Hh)) Hd D).
Qed.

(** ** [Facts::tidy] *)

(** *** Definedness survives the operations *)

Lemma qmdef_app : forall e a b, mdef e a -> mdef e b -> mdef e (mmul a b).
Proof.
  intros e a. induction a as [| x k a' IH].
  - intros b _ Hb. exact Hb.
  - induction b as [| y l b' IHb]; intros Ha Hb; [exact Ha |].
    rewrite mmul_cons. cbn [mdef] in Ha, Hb. destruct (cmp_qa x y); cbn [mdef].
    + split; [tauto | apply IH; tauto].
    + split; [tauto | apply IH; [tauto | cbn [mdef]; tauto]].
    + split; [tauto | apply IHb; [cbn [mdef]; tauto | tauto]].
Qed.

Lemma qconst_def : forall e c, qdef e (qconst c).
Proof. intros. unfold qconst. destruct (c =? 0); cbn; auto. Qed.

Lemma qscale_def : forall e c p, qdef e p -> qdef e (qscale c p).
Proof.
  intros e c p H. unfold qscale. destruct (c =? 0); [cbn; auto |]. destruct (c =? 1); auto. apply qmap_def, H.
Qed.

Lemma qins_def : forall e m c p, mdef e m -> qdef e p -> qdef e (qins m c p).
Proof.
  intros e m c p Hm. induction p as [| m' c' r IH]; intro Hp; cbn [qins]; [cbn; auto |].
  cbn [qdef] in Hp. destruct (cmp_qm m m'); cbn [qdef]; tauto.
Qed.

Lemma qfilter_def : forall e p, qdef e p -> qdef e (qfilter p).
Proof.
  intros e p. induction p as [| m c r IH]; intro H; cbn [qfilter]; [exact H |].
  cbn [qdef] in H. destruct (c =? 0); cbn [qdef]; tauto.
Qed.

Lemma qmul_def : forall e p q, qdef e p -> qdef e q -> qdef e (qmul p q).
Proof.
  intros e p q Hp Hq. unfold qmul.
  destruct (as_constq q); [apply qscale_def, Hp |].
  destruct (as_constq p); [apply qscale_def, Hq |]. apply qfilter_def.
  assert (T : forall m c q acc, mdef e m -> qdef e q -> qdef e acc -> qdef e (mul_term m c q acc)).
  { intros m c q0. induction q0 as [| n d r IH]; intros acc Hm Hq0 Ha; cbn [mul_term]; [exact Ha |].
    cbn [qdef] in Hq0. apply IH; [exact Hm | tauto |]. apply qins_def; [apply qmdef_app; tauto | exact Ha]. }
  assert (R : forall p acc, qdef e p -> qdef e acc -> qdef e (mul_raw p q acc)).
  { intros p0. induction p0 as [| m c r IH]; intros acc Hp0 Ha; cbn [mul_raw]; [exact Ha |].
    cbn [qdef] in Hp0. apply IH; [tauto |]. apply T; tauto. }
  apply R; [exact Hp | cbn; auto].
Qed.

Lemma qadd_def : forall e a b, qdef e a -> qdef e b -> qdef e (qadd a b).
Proof. intros. apply qmerge_def; auto. Qed.

Lemma qpow_mul_def : forall e k t b, qdef e t -> qdef e b -> qdef e (qpow_mul t b k).
Proof. intros e k. induction k; intros t b Ht Hb; cbn [qpow_mul]; auto. apply IHk; auto. apply qmul_def; auto. Qed.

Lemma split_mult_def : forall e p c, qdef e p ->
  qdef e (fst (split_mult p c)) /\ qdef e (snd (split_mult p c)).
Proof.
  intros e p c. induction p as [| m k r IH]; intro H; cbn [split_mult]; [cbn; auto |].
  cbn [qdef] in H. destruct (split_mult r c) as [w s]. cbn [fst snd] in *. destruct (IH (proj2 H)).
  destruct (k / c =? 0), (k mod c =? 0); cbn [qdef]; tauto.
Qed.

Lemma mremove_def : forall e a k m m', mdef e m -> mremove a k m = Some m' -> mdef e m'.
Proof.
  intros e a k m. induction m as [| b l r IH]; intros m' Hm H; cbn [mremove] in H; [discriminate |].
  cbn [mdef] in Hm. destruct (qa_eqb b a).
  - destruct (Nat.leb k l); [| discriminate]. injection H as <-. destruct (Nat.eqb l k); cbn [mdef]; tauto.
  - destruct (mremove a k r) as [r'|] eqn:R; cbn in H; [| discriminate]. injection H as <-.
    cbn [mdef]. split; [tauto | apply (IH r'); tauto].
Qed.

Lemma mdiv_def : forall e q m m', mdef e m -> mdiv m q = Some m' -> mdef e m'.
Proof.
  intros e q. induction q as [| a k r IH]; intros m m' Hm H; cbn [mdiv] in H; [congruence |].
  destruct (mremove a k m) as [m1|] eqn:R; [| discriminate].
  exact (IH m1 m' (mremove_def e a k m m1 Hm R) H).
Qed.

Lemma qexact_div_def : forall e p q k, qdef e p -> qexact_div p q = Some k -> qdef e k.
Proof.
  intros e p q k Hp H. destruct q as [| qm0 qc [| m c r]]; cbn in H; try discriminate.
  destruct (qc =? 0); [discriminate |].
  assert (G : forall p acc r, qdef e p -> qdef e acc -> exact_go qm0 qc p acc = Some r -> qdef e r).
  { intros p0. induction p0 as [| m c p' IH]; intros acc r Hp0 Ha Hg; cbn [exact_go] in Hg; [congruence |].
    cbn [qdef] in Hp0. destruct (negb (Z.rem c qc =? 0)); [discriminate |].
    destruct (mdiv m qm0) as [m'|] eqn:D; [| discriminate].
    apply (IH (qins m' (Z.quot c qc) acc) r (proj2 Hp0)); [| exact Hg].
    apply qins_def; [apply (mdiv_def e qm0 m m'); tauto | exact Ha]. }
  destruct (exact_go qm0 qc p QZ) as [k'|] eqn:X; cbn in H; [| discriminate]. injection H as <-.
  apply qfilter_def. apply (G p QZ); [exact Hp | cbn; auto | exact X].
Qed.

Lemma qatom_def : forall e a, adef e a -> qdef e (qatom a).
Proof. intros. cbn. tauto. Qed.

Lemma fdiv_pos_def : forall e f p c, 2 <= c -> qdef e p -> qdef e (fdiv_pos f p c).
Proof.
  intros e f. induction f as [| f IH]; intros p c Hc Hp; cbn [fdiv_pos];
    destruct (split_mult_def e p c Hp) as [Hw Hr]; destruct (split_mult p c) as [w rest]; cbn [fst snd] in *;
    (assert (Plain : qdef e (qadd w (qatom (AF rest (qconst c)))));
     [apply qadd_def; [exact Hw | apply qatom_def; cbn [adef]; rewrite qconst_eval;
       split; [exact Hr | split; [apply qconst_def | lia]]] |]);
    (destruct (as_constq rest); [apply qadd_def; [exact Hw | apply qconst_def] |]).
  - exact Plain.
  - destruct (flat_of rest) as [[p' av]|] eqn:Fl; [| exact Plain].
    destruct (flat_of_eval e rest p' av Fl) as [Hav _].
    apply qadd_def; [exact Hw |]. apply IH; [nia |].
    unfold flat_of in Fl.
    repeat match type of Fl with
    | context [match ?x with _ => _ end] => let E := fresh "E" in destruct x eqn:E; try discriminate
    end.
    injection Fl as <- <-. subst. cbn [qdef mdef adef] in Hr. tauto.
Qed.

Lemma fdiv_c_def : forall e p c, 1 <= c -> qdef e p -> qdef e (fdiv_c p c).
Proof.
  intros e p c Hc Hp. unfold fdiv_c. destruct (Z.eqb_spec c 1); [exact Hp |]. apply fdiv_pos_def; [lia | exact Hp].
Qed.

Lemma cdiv_c_def : forall e p c, 1 <= c -> qdef e p -> qdef e (cdiv_c p c).
Proof.
  intros e p c Hc Hp. unfold cdiv_c. destruct (Z.eqb_spec c 1); [exact Hp |].
  destruct (split_mult_def e p c Hp) as [Hw Hr]. destruct (split_mult p c) as [w rest]. cbn [fst snd] in *.
  destruct (as_constq rest); apply qadd_def; auto; [apply qconst_def |].
  apply qatom_def. cbn [adef]. rewrite qconst_eval. split; [exact Hr | split; [apply qconst_def | lia]].
Qed.

Lemma qfloor_div_def : forall e p q r, qdef e p -> qdef e q -> qeval e q <> 0 ->
  qfloor_div p q = Some r -> qdef e r.
Proof.
  intros e p q r Hp Hq Nq H. unfold qfloor_div in H. destruct (as_constq q) as [c|] eqn:C.
  - destruct (Z.eqb_spec c 0); [discriminate |].
    destruct (Z.ltb_spec c 0); injection H as <-.
    + apply qscale_def, fdiv_c_def; [lia | exact Hp].
    + apply fdiv_c_def; [lia | exact Hp].
  - destruct (is_qz p); [injection H as <-; cbn; auto |].
    destruct (qp_eqb p q); [injection H as <-; apply qconst_def |].
    destruct (qexact_div p q) as [k|] eqn:X; injection H as <-.
    + exact (qexact_div_def e p q k Hp X).
    + apply qatom_def. cbn [adef]. tauto.
Qed.

Lemma qceil_div_def : forall e p q r, qdef e p -> qdef e q -> qeval e q <> 0 ->
  qceil_div p q = Some r -> qdef e r.
Proof.
  intros e p q r Hp Hq Nq H. unfold qceil_div in H. destruct (as_constq q) as [c|] eqn:C.
  - destruct (Z.eqb_spec c 0); [discriminate |].
    destruct (Z.ltb_spec c 0); injection H as <-.
    + apply cdiv_c_def; [lia | apply qscale_def, Hp].
    + apply cdiv_c_def; [lia | exact Hp].
  - destruct (is_qz p); [injection H as <-; cbn; auto |].
    destruct (qexact_div p q) as [k|] eqn:X; injection H as <-.
    + exact (qexact_div_def e p q k Hp X).
    + apply qatom_def. cbn [adef]. tauto.
Qed.

Lemma qrem_def : forall e p q r, qdef e p -> qdef e q -> qeval e q <> 0 ->
  qrem p q = Some r -> qdef e r.
Proof.
  intros e p q r Hp Hq Nq H. unfold qrem in H. destruct (as_constq q) as [c0|] eqn:C.
  - destruct (Z.eqb_spec c0 0); [discriminate |].
    destruct (Z.abs c0 =? 1); [injection H as <-; cbn; auto |].
    destruct (split_mult_def e p (Z.abs c0) Hp) as [_ Hr].
    destruct (as_constq (snd (split_mult p (Z.abs c0)))); injection H as <-; [apply qconst_def |].
    apply qatom_def. cbn [adef]. rewrite qconst_eval. split; [exact Hr | split; [apply qconst_def | lia]].
  - destruct (is_qz p || qp_eqb p q); [injection H as <-; cbn; auto |].
    destruct (qexact_div p q); injection H as <-; [cbn; auto |].
    apply qatom_def. cbn [adef]. tauto.
Qed.

(** *** [tidy]: quotients the facts make exact *)

Fixpoint qtidy_go (F : list (nat * info)) (p : qp) (acc : qp) : option qp :=
  match p with
  | QZ => Some acc
  | QT m c r =>
      match mtidy F m (qconst c) with
      | Some t => qtidy_go F r (qadd acc t)
      | None => None
      end
  end
with mtidy (F : list (nat * info)) (m : qm) (t : qp) : option qp :=
  match m with
  | M1 => Some t
  | MA a k r =>
      match atidy F a with
      | Some b => mtidy F r (qpow_mul t b k)
      | None => None
      end
  end
with atidy (F : list (nat * info)) (a : qa) : option qp :=
  match a with
  | AN n => Some (qatom (AN n))
  | AF x y =>
      match (if has_quotient x then qtidy_go F x QZ else Some x),
            (if has_quotient y then qtidy_go F y QZ else Some y) with
      | Some x', Some y' => qfloor_div x' y'
      | _, _ => None
      end
  | AC x y =>
      match (if has_quotient x then qtidy_go F x QZ else Some x),
            (if has_quotient y then qtidy_go F y QZ else Some y) with
      | Some x', Some y' =>
          match qdecide F (mkqp RDv y' x') with
          | Some d => if match d with Some true => true | _ => false end
                      then qfloor_div x' y' else qceil_div x' y'
          | None => None
          end
      | _, _ => None
      end
  | AM x y =>
      match (if has_quotient x then qtidy_go F x QZ else Some x),
            (if has_quotient y then qtidy_go F y QZ else Some y) with
      | Some x', Some y' =>
          match qdecide F (mkqp RDv y' x') with
          | Some d => if match d with Some true => true | _ => false end
                      then Some QZ else qrem x' y'
          | None => None
          end
      | _, _ => None
      end
  end.

(** [Facts::tidy]. *)
Definition qtidy (F : list (nat * info)) (p : qp) : option qp :=
  if has_quotient p then qtidy_go F p QZ else Some p.

Lemma divb_exact : forall x y, y <> 0 -> divb y x = true -> exists k, x = k * y.
Proof.
  intros x y Hy H. unfold divb in H. apply orb_true_iff in H as [H|H].
  - apply andb_true_iff in H as [H _]. apply Z.eqb_eq in H. contradiction.
  - apply andb_true_iff in H as [_ H]. apply Z.eqb_eq in H. apply Z.mod_divide in H; auto.
Qed.

Lemma qtidy_all : forall F e, fits F e ->
  (forall p acc r, qtidy_go F p acc = Some r -> qdef e p -> qdef e acc ->
     qeval e r = qeval e acc + qeval e p /\ qdef e r) /\
  (forall m t r, mtidy F m t = Some r -> mdef e m -> qdef e t ->
     qeval e r = qeval e t * qmeval e m /\ qdef e r) /\
  (forall a r, atidy F a = Some r -> adef e a -> qeval e r = qaeval e a /\ qdef e r).
Proof.
  intros F e Hf. apply q_mutind.
  - intros acc r H _ Ha. cbn [qtidy_go] in H. injection H as <-. cbn [qeval]. split; [ring | exact Ha].
  - intros m IHm c r IHr acc res H [Dm Dr] Ha. cbn [qtidy_go] in H.
    destruct (mtidy F m (qconst c)) as [t|] eqn:T; [| discriminate].
    destruct (IHm _ _ T Dm (qconst_def e c)) as [Et Dt].
    destruct (IHr _ _ H Dr (qadd_def e _ _ Ha Dt)) as [Er Dres].
    rewrite Er, qadd_eval, Et, qconst_eval. cbn [qeval]. split; [ring | exact Dres].
  - intros t r H _ Ht. cbn [mtidy] in H. injection H as <-. cbn [qmeval]. split; [ring | exact Ht].
  - intros a IHa k r IHr t res H [Da Dr] Ht. cbn [mtidy] in H.
    destruct (atidy F a) as [b|] eqn:B; [| discriminate].
    destruct (IHa _ eq_refl Da) as [Eb Db].
    destruct (IHr _ _ H Dr (qpow_mul_def e k t b Ht Db)) as [Er Dres].
    rewrite Er, qpow_mul_eval, Eb. cbn [qmeval]. split; [ring | exact Dres].
  - intros n r H _. cbn [atidy] in H. injection H as <-. rewrite qatom_eval. split; [reflexivity |].
    apply qatom_def. cbn. auto.
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [atidy] in H.
    assert (Sx : forall x', (if has_quotient x then qtidy_go F x QZ else Some x) = Some x' ->
                 qeval e x' = qeval e x /\ qdef e x').
    { intros x' Hx'. destruct (has_quotient x); [| injection Hx' as <-; auto].
      destruct (IHx _ _ Hx' Dx ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    assert (Sy : forall y', (if has_quotient y then qtidy_go F y QZ else Some y) = Some y' ->
                 qeval e y' = qeval e y /\ qdef e y').
    { intros y' Hy'. destruct (has_quotient y); [| injection Hy' as <-; auto].
      destruct (IHy _ _ Hy' Dy ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    destruct (if has_quotient x then qtidy_go F x QZ else Some x) as [x'|]; [| discriminate].
    destruct (if has_quotient y then qtidy_go F y QZ else Some y) as [y'|]; [| discriminate].
    destruct (Sx x' eq_refl) as [Ex Dx']. destruct (Sy y' eq_refl) as [Ey Dy'].
    cbn [qaeval]. split.
    + rewrite (qfloor_div_eval e x' y' r H) by lia. rewrite Ex, Ey. reflexivity.
    + apply (qfloor_div_def e x' y' r Dx' Dy'); [lia | exact H].
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [atidy] in H.
    assert (Sx : forall x', (if has_quotient x then qtidy_go F x QZ else Some x) = Some x' ->
                 qeval e x' = qeval e x /\ qdef e x').
    { intros x' Hx'. destruct (has_quotient x); [| injection Hx' as <-; auto].
      destruct (IHx _ _ Hx' Dx ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    assert (Sy : forall y', (if has_quotient y then qtidy_go F y QZ else Some y) = Some y' ->
                 qeval e y' = qeval e y /\ qdef e y').
    { intros y' Hy'. destruct (has_quotient y); [| injection Hy' as <-; auto].
      destruct (IHy _ _ Hy' Dy ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    destruct (if has_quotient x then qtidy_go F x QZ else Some x) as [x'|]; [| discriminate].
    destruct (if has_quotient y then qtidy_go F y QZ else Some y) as [y'|]; [| discriminate].
    destruct (Sx x' eq_refl) as [Ex Dx']. destruct (Sy y' eq_refl) as [Ey Dy'].
    destruct (qdecide F (mkqp RDv y' x')) as [d|] eqn:Dq; [| discriminate].
    cbn [qaeval]. destruct d as [[|]|].
    + pose proof (qdecide_fits_sound F (mkqp RDv y' x') true e Hf (conj Dy' Dx') Dq) as Dv.
      cbn [qholds qrel qlhs qrhs] in Dv. destruct (divb_exact (qeval e x') (qeval e y') ltac:(lia) Dv) as [k Hk].
      split.
      * rewrite (qfloor_div_eval e x' y' r H) by lia. rewrite <- Ex, <- Ey, Hk. unfold efloor, eceil.
        destruct (Z.ltb_spec (qeval e y') 0).
        -- replace (k * qeval e y') with ((- k) * (- qeval e y')) by ring. rewrite Z.div_mul by lia. ring.
        -- replace (- (k * qeval e y')) with ((- k) * qeval e y') by ring. rewrite !Z.div_mul by lia. ring.
      * apply (qfloor_div_def e x' y' r Dx' Dy'); [lia | exact H].
    + split; [rewrite (qceil_div_eval e x' y' r H) by lia; rewrite Ex, Ey; reflexivity |].
      apply (qceil_div_def e x' y' r Dx' Dy'); [lia | exact H].
    + split; [rewrite (qceil_div_eval e x' y' r H) by lia; rewrite Ex, Ey; reflexivity |].
      apply (qceil_div_def e x' y' r Dx' Dy'); [lia | exact H].
  - intros x IHx y IHy r H [Dx [Dy Ny]]. cbn [atidy] in H.
    assert (Sx : forall x', (if has_quotient x then qtidy_go F x QZ else Some x) = Some x' ->
                 qeval e x' = qeval e x /\ qdef e x').
    { intros x' Hx'. destruct (has_quotient x); [| injection Hx' as <-; auto].
      destruct (IHx _ _ Hx' Dx ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    assert (Sy : forall y', (if has_quotient y then qtidy_go F y QZ else Some y) = Some y' ->
                 qeval e y' = qeval e y /\ qdef e y').
    { intros y' Hy'. destruct (has_quotient y); [| injection Hy' as <-; auto].
      destruct (IHy _ _ Hy' Dy ltac:(cbn; auto)) as [E D]. cbn [qeval] in E. split; [lia | exact D]. }
    destruct (if has_quotient x then qtidy_go F x QZ else Some x) as [x'|]; [| discriminate].
    destruct (if has_quotient y then qtidy_go F y QZ else Some y) as [y'|]; [| discriminate].
    destruct (Sx x' eq_refl) as [Ex Dx']. destruct (Sy y' eq_refl) as [Ey Dy'].
    destruct (qdecide F (mkqp RDv y' x')) as [d|] eqn:Dq; [| discriminate].
    cbn [qaeval]. destruct d as [[|]|].
    + pose proof (qdecide_fits_sound F (mkqp RDv y' x') true e Hf (conj Dy' Dx') Dq) as Dv.
      cbn [qholds qrel qlhs qrhs] in Dv. destruct (divb_exact (qeval e x') (qeval e y') ltac:(lia) Dv) as [k Hk].
      injection H as <-. split; [| cbn; auto]. cbn [qeval]. unfold emod. rewrite <- Ex, <- Ey, Hk.
      symmetry. apply Z.mod_divide; [lia |]. apply Z.divide_abs_l. exists k. reflexivity.
    + split; [rewrite (qrem_eval e x' y' r H) by lia; rewrite Ex, Ey; reflexivity |].
      apply (qrem_def e x' y' r Dx' Dy'); [lia | exact H].
    + split; [rewrite (qrem_eval e x' y' r H) by lia; rewrite Ex, Ey; reflexivity |].
      apply (qrem_def e x' y' r Dx' Dy'); [lia | exact H].
Qed.

(** [tidy] keeps the value at every assignment (every name [>= 1]) that
    satisfies the facts and where the polynomial is defined. *)
Theorem qtidy_sound : forall fs F p p', facts_parse fs = Ok F -> qtidy F p = Some p' ->
  forall e : env, (forall n, 1 <= e n) -> facts_hold e fs -> qdef e p -> qeval e p' = qeval e p.
Proof.
  intros fs F p p' H T e Hpos Hh Hd. unfold facts_parse in H.
  destruct (parse_all fs) as [raws| |] eqn:P; try discriminate.
  destruct (parse_all_ok fs raws P) as [W E].
  pose proof (fits_of_rebuild raws F e W H Hpos (proj1 (E e) Hh)) as Hf.
  unfold qtidy in T. destruct (has_quotient p); [| congruence].
  destruct (proj1 (qtidy_all F e Hf) p QZ p' T Hd ltac:(cbn; auto)) as [Ev _]. cbn [qeval] in Ev. lia.
Qed.
