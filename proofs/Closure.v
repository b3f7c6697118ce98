(** * Rust's forward chaining yields an acyclic derivation (issue 14, item 6)

    [closure] of [domain/predicate.rs] is a worklist forward chaining over
    Horn rules: [missing k] counts the premises of rule [k] not yet taken
    off the queue; [watch p] lists the rules with premise [p] (once per
    occurrence); assumed conditions are proved first, then every rule
    without premises fires, then each condition taken off the queue
    decrements the counters of the rules that watch it, and a rule whose
    counter reaches 0 fires: its conclusion, if not yet proved, is proved
    by it and queued.  [run] below is that code, step for step (a state
    with the [proved] array, the counters and the queue; a stamp records
    when each condition was proved; [fuel] bounds the loop).

    Proved ([closure_acyclic]): for any fuel, whenever the closure proves
    [x] by rule [k], [k] concludes [x] and every premise of [k] was proved
    before [x] (smaller stamp).  Hence ([closure_justified]) the list
    [derive_by_theorems] builds from it, in any order, is
    [Predicates.acyclic_justified], and [Predicates.derivation_sound_acyclic]
    applies to it. *)

From Coq Require Import Arith Lia List Permutation.
Import ListNotations.
From Tessera Require Import Predicates.

Lemma NoDup_app_comm : forall (A : Type) (l1 l2 : list A), NoDup (l1 ++ l2) -> NoDup (l2 ++ l1).
Proof. intros A l1 l2 H. exact (Permutation_NoDup (Permutation_app_comm l1 l2) H). Qed.
Arguments NoDup_app_comm {A l1 l2}.

Definition hrule : Type := (list nat * nat)%type.

Definition upd {A} (f : nat -> A) (x : nat) (v : A) : nat -> A :=
  fun y => if Nat.eqb y x then v else f y.

Record state := State {
  proved : nat -> option (option nat);
  stamp : nat -> nat;
  clock : nat;
  missing : nat -> nat;
  queue : list nat
}.


Definition prem (rules : list hrule) (k : nat) : list nat := fst (nth k rules ([], O)).
Definition concl (rules : list hrule) (k : nat) : nat := snd (nth k rules ([], O)).

(** [(watch rules)[p]]: built as Rust builds it, rule by rule, premise by premise. *)
Definition watch (rules : list hrule) (p : nat) : list nat :=
  concat (map (fun k => repeat k (count_occ Nat.eq_dec ((prem rules) k) p)) (seq 0 (length rules))).

Definition set_proved (s : state) (x : nat) (j : option nat) : state :=
  State (upd (proved s) x (Some j)) (upd (stamp s) x (clock s)) (S (clock s)) (missing s)
        (queue s ++ [x]).

Definition fire (rules : list hrule) (s : state) (k : nat) : state :=
  match proved s ((concl rules) k) with
  | None => set_proved s ((concl rules) k) (Some k)
  | Some _ => s
  end.

Definition assume1 (s : state) (a : nat) : state :=
  match proved s a with
  | None => set_proved s a None
  | Some _ => s
  end.

Definition dec (rules : list hrule) (s : state) (k : nat) : state :=
  let s' := State (proved s) (stamp s) (clock s) (upd (missing s) k (missing s k - 1)) (queue s) in
  if Nat.eqb (missing s k - 1) 0 then (fire rules) s' k else s'.

Definition process (rules : list hrule) (s : state) (id : nat) : state := fold_left (dec rules) ((watch rules) id) s.

Fixpoint run (rules : list hrule) (fuel : nat) (s : state) : state :=
  match fuel with
  | O => s
  | S f =>
      match queue s with
      | [] => s
      | id :: q => (run rules) f ((process rules) (State (proved s) (stamp s) (clock s) (missing s) q) id)
      end
  end.

Definition init (rules : list hrule) : state :=
  State (fun _ => None) (fun _ => O) O (fun k => length ((prem rules) k)) [].

Definition closure (rules : list hrule) (assumed : list nat) (fuel : nat) : state :=
  let s1 := fold_left assume1 assumed (init rules) in
  let s2 := fold_left (fun s k => if Nat.eqb (missing s k) 0 then (fire rules) s k else s)
                      (seq 0 (length rules)) s1 in
  (run rules) fuel s2.

(** ** The invariant *)

(** Every condition proved by a rule has all the rule's premises proved
    before it. *)
Definition good (rules : list hrule) (s : state) : Prop :=
  (forall x, proved s x <> None -> stamp s x < clock s) /\
  (forall x k, proved s x = Some (Some k) ->
     k < length rules /\ (concl rules) k = x /\
     forall p, In p ((prem rules) k) -> proved s p <> None /\ stamp s p < stamp s x).

Lemma good_set (rules : list hrule) : forall s x j, (good rules) s -> proved s x = None ->
  (forall k, j = Some k -> k < length rules /\ (concl rules) k = x /\
     forall p, In p ((prem rules) k) -> proved s p <> None) ->
  (good rules) (set_proved s x j).
Proof.
  intros s x j [G1 G2] Hx Hj. split.
  - intros y Hy. simpl in *. unfold upd in *. destruct (Nat.eqb y x) eqn:E; [lia|].
    specialize (G1 y Hy). lia.
  - intros y k Hy. simpl in *. unfold upd in *. destruct (Nat.eqb y x) eqn:E.
    + apply Nat.eqb_eq in E. subst y. injection Hy as ->.
      destruct (Hj k eq_refl) as [Hk [Hc Hp]]. split; [exact Hk|]. split; [exact Hc|].
      intros p Hin. pose proof (Hp p Hin) as Pp.
      destruct (Nat.eqb p x) eqn:Epx.
      * apply Nat.eqb_eq in Epx. subst p. contradiction.
      * split; [exact Pp|]. apply G1, Pp.
    + destruct (G2 y k Hy) as [Hk [Hc Hp]]. split; [exact Hk|]. split; [exact Hc|].
      intros p Hin. destruct (Hp p Hin) as [Pp Sp].
      destruct (Nat.eqb p x) eqn:Epx.
      * apply Nat.eqb_eq in Epx. subst p. contradiction.
      * split; [exact Pp | exact Sp].
Qed.

Lemma proved_mono_set : forall s x j y, proved s y <> None -> proved (set_proved s x j) y <> None.
Proof.
  intros s x j y H. simpl. unfold upd. destruct (Nat.eqb y x); [discriminate | exact H].
Qed.

Lemma stamp_keep_set : forall s x j y, proved s y <> None -> proved s x = None ->
  stamp (set_proved s x j) y = stamp s y.
Proof.
  intros s x j y H Hx. simpl. unfold upd. destruct (Nat.eqb y x) eqn:E; [|reflexivity].
  apply Nat.eqb_eq in E. subst. contradiction.
Qed.

(** The counters: [missing k] is at least the number of premise
    occurrences of rule [k] not in [P] (the conditions taken off the queue),
    plus the pending occurrences [pend k]. *)
Definition cnt_out (P : list nat) (l : list nat) : nat :=
  length (filter (fun p => negb (existsb (Nat.eqb p) P)) l).

Definition inv (rules : list hrule) (s : state) (P : list nat) (pend : nat -> nat) : Prop :=
  (good rules) s /\
  (forall p, In p P -> proved s p <> None) /\
  (forall q, In q (queue s) -> proved s q <> None) /\
  (forall k, cnt_out P ((prem rules) k) + pend k <= missing s k) /\
  NoDup (queue s ++ P).

Lemma cnt_out_zero : forall P l, cnt_out P l = 0 -> forall p, In p l -> In p P.
Proof.
  intros P l H p Hin. unfold cnt_out in H. apply length_zero_iff_nil in H.
  destruct (existsb (Nat.eqb p) P) eqn:E.
  - apply existsb_exists in E. destruct E as [q [Hq Eq]]. apply Nat.eqb_eq in Eq. subst. exact Hq.
  - assert (In p (filter (fun p => negb (existsb (Nat.eqb p) P)) l))
      by (apply filter_In; rewrite E; auto).
    rewrite H in H0. destruct H0.
Qed.

(** [(fire rules)] keeps [(inv rules)] when all premises of [k] are proved. *)
Lemma fire_inv (rules : list hrule) : forall s P pend k, (inv rules) s P pend -> k < length rules ->
  (forall p, In p ((prem rules) k) -> proved s p <> None) ->
  (inv rules) ((fire rules) s k) P pend /\ missing ((fire rules) s k) = missing s /\
  (forall y, proved s y <> None -> proved ((fire rules) s k) y <> None /\ stamp ((fire rules) s k) y = stamp s y).
Proof.
  intros s P pend k [G [HP [HQ [HM ND]]]] Hk Hprem. unfold fire.
  destruct (proved s ((concl rules) k)) as [j|] eqn:Ec.
  - split; [split; [exact G|]; split; [exact HP|]; split; [exact HQ|]; split; assumption|].
    split; [reflexivity|]. intros y Hy. split; [exact Hy | reflexivity].
  - split; [|split; [reflexivity|]].
    + split; [apply (good_set rules); [exact G | exact Ec |]|].
      { intros k' E. injection E as <-. split; [exact Hk|]. split; [reflexivity | exact Hprem]. }
      split; [intros p Hp; apply proved_mono_set, HP, Hp|].
      split; [|split; [exact HM|]].
      * intros q Hq. simpl in Hq. apply in_app_iff in Hq. destruct Hq as [Hq|[<-|[]]].
        -- apply proved_mono_set, HQ, Hq.
        -- simpl. unfold upd. rewrite Nat.eqb_refl. discriminate.
      * simpl. rewrite <- app_assoc. apply NoDup_app_comm. simpl. constructor.
        -- intro Hin. apply in_app_iff in Hin. destruct Hin as [Hin|Hin].
           ++ apply (HP _ Hin), Ec.
           ++ apply (HQ _ Hin), Ec.
        -- apply NoDup_app_comm. exact ND.
    + intros y Hy. split; [apply proved_mono_set, Hy | apply stamp_keep_set; assumption].
Qed.

(** The fold over [(watch rules) id]: [rest] is what remains of it. *)
Lemma dec_fold_inv (rules : list hrule) : forall rest s P id,
  ~ In id P -> proved s id <> None -> (forall k, In k rest -> k < length rules) ->
  (inv rules) s (id :: P) (fun k => count_occ Nat.eq_dec rest k) ->
  (inv rules) (fold_left (dec rules) rest s) (id :: P) (fun _ => 0) /\
  (forall y, proved s y <> None -> proved (fold_left (dec rules) rest s) y <> None /\
             stamp (fold_left (dec rules) rest s) y = stamp s y).
Proof.
  induction rest as [|k rest IH]; intros s P id Hid Pid Hr I.
  - split; [|intros y Hy; split; [exact Hy | reflexivity]].
    destruct I as [G [HP [HQ [HM ND]]]]. split; [exact G|]. split; [exact HP|]. split; [exact HQ|].
    split; [|exact ND]. intros k. specialize (HM k). cbv beta in HM |- *.
    change (count_occ Nat.eq_dec [] k) with 0 in HM. exact HM.
  - simpl fold_left.
    destruct I as [G [HP [HQ [HM ND]]]].
    set (s' := State (proved s) (stamp s) (clock s) (upd (missing s) k (missing s k - 1)) (queue s)).
    assert (I' : (inv rules) s' (id :: P) (fun k' => count_occ Nat.eq_dec rest k')).
    { split; [exact G|]. split; [exact HP|]. split; [exact HQ|]. split; [|exact ND].
      intros k'. simpl. unfold upd. specialize (HM k'). simpl in HM.
      destruct (Nat.eqb k' k) eqn:E.
      - apply Nat.eqb_eq in E. subst k'. destruct (Nat.eq_dec k k); [lia | contradiction].
      - apply Nat.eqb_neq in E. destruct (Nat.eq_dec k k'); [congruence | lia]. }
    assert (Step : (inv rules) ((dec rules) s k) (id :: P) (fun k' => count_occ Nat.eq_dec rest k') /\
                   (forall y, proved s y <> None -> proved ((dec rules) s k) y <> None /\
                              stamp ((dec rules) s k) y = stamp s y)).
    { unfold dec. fold s'.
      destruct (Nat.eqb (missing s k - 1) 0) eqn:Ez.
      - apply Nat.eqb_eq in Ez.
        assert (Hall : forall p, In p ((prem rules) k) -> proved s' p <> None).
        { intros p Hin. specialize (HM k). simpl in HM.
          destruct (Nat.eq_dec k k) as [_|C]; [|contradiction].
          assert (Z : cnt_out (id :: P) ((prem rules) k) = 0) by lia.
          apply HP. apply (cnt_out_zero _ _ Z p Hin). }
        destruct ((fire_inv rules) s' (id :: P) _ k I' (Hr k (or_introl eq_refl)) Hall) as [I'' [_ Keep]].
        split; [exact I''|]. intros y Hy. apply Keep, Hy.
      - split; [exact I'|]. intros y Hy. split; [exact Hy | reflexivity]. }
    destruct Step as [Is Keep].
    assert (Pid' : proved ((dec rules) s k) id <> None) by (apply Keep, Pid).
    destruct (IH ((dec rules) s k) P id Hid Pid' (fun k' H => Hr k' (or_intror H)) Is) as [I2 Keep2].
    split; [exact I2|]. intros y Hy. destruct (Keep y Hy) as [A B].
    destruct (Keep2 y A) as [C D]. split; [exact C | congruence].
Qed.

(** [(watch rules) id] holds rule [k] once per occurrence of [id] among its premises. *)
Lemma count_occ_repeat : forall k j c, count_occ Nat.eq_dec (repeat j c) k = if Nat.eq_dec j k then c else 0.
Proof.
  intros k j c. induction c as [|c IH]; simpl; [destruct (Nat.eq_dec j k); reflexivity|].
  destruct (Nat.eq_dec j k); rewrite IH; destruct (Nat.eq_dec j k); try lia; contradiction.
Qed.

Lemma count_occ_concat_seq : forall (f : nat -> nat) k start len,
  count_occ Nat.eq_dec (concat (map (fun j => repeat j (f j)) (seq start len))) k =
  if andb (start <=? k) (k <? start + len) then f k else 0.
Proof.
  intros f k start len. revert start. induction len as [|len IH]; intros start.
  - simpl. destruct (start <=? k) eqn:E1; destruct (k <? start + 0) eqn:E2; simpl; try reflexivity.
    apply Nat.leb_le in E1. apply Nat.ltb_lt in E2. lia.
  - simpl. rewrite count_occ_app, count_occ_repeat, IH.
    destruct (Nat.eq_dec start k) as [->|N].
    + rewrite Nat.leb_refl. destruct (S k <=? k) eqn:E; [apply Nat.leb_le in E; lia|].
      destruct (k <? k + S len) eqn:E2; [simpl; lia|apply Nat.ltb_ge in E2; lia].
    + destruct (start <=? k) eqn:E1, (S start <=? k) eqn:E3, (k <? start + S len) eqn:E4,
        (k <? S start + len) eqn:E5; simpl;
        repeat match goal with
        | H : (_ <=? _) = true |- _ => apply Nat.leb_le in H
        | H : (_ <=? _) = false |- _ => apply Nat.leb_gt in H
        | H : (_ <? _) = true |- _ => apply Nat.ltb_lt in H
        | H : (_ <? _) = false |- _ => apply Nat.ltb_ge in H
        end; lia.
Qed.

Lemma watch_bound (rules : list hrule) : forall id k, In k ((watch rules) id) -> k < length rules.
Proof.
  intros id k H. unfold watch in H. apply in_concat in H. destruct H as [l [Hl Hk]].
  apply in_map_iff in Hl. destruct Hl as [j [<- Hj]]. apply in_seq in Hj.
  apply repeat_spec in Hk. lia.
Qed.

Lemma count_watch_le (rules : list hrule) : forall id k, count_occ Nat.eq_dec ((watch rules) id) k <= count_occ Nat.eq_dec ((prem rules) k) id.
Proof.
  intros id k. unfold watch. rewrite (count_occ_concat_seq (fun j => count_occ Nat.eq_dec ((prem rules) j) id)).
  destruct (andb (0 <=? k) (k <? 0 + length rules)); lia.
Qed.

Lemma cnt_out_cons : forall id P l, ~ In id P ->
  cnt_out P l = cnt_out (id :: P) l + count_occ Nat.eq_dec l id.
Proof.
  intros id P l H. unfold cnt_out. induction l as [|p l IH]; [reflexivity|].
  destruct (Nat.eq_dec p id) as [->|N].
  - rewrite count_occ_cons_eq by reflexivity.
    assert (E : existsb (Nat.eqb id) P = false).
    { destruct (existsb (Nat.eqb id) P) eqn:E; [|reflexivity].
      apply existsb_exists in E. destruct E as [q [Hq Eq]]. apply Nat.eqb_eq in Eq. subst. contradiction. }
    cbn [filter existsb]. rewrite E, Nat.eqb_refl. cbn [negb orb length].
    cbn [existsb] in IH. lia.
  - rewrite count_occ_cons_neq by exact N.
    assert (E : Nat.eqb p id = false) by (apply Nat.eqb_neq; exact N).
    cbn [filter existsb]. rewrite E. cbn [orb].
    cbn [existsb] in IH.
    destruct (negb (existsb (Nat.eqb p) P)); cbn [length]; lia.
Qed.

Lemma process_inv (rules : list hrule) : forall s P id,
  ~ In id (queue s ++ P) -> proved s id <> None -> (inv rules) s P (fun _ => 0) ->
  (inv rules) ((process rules) s id) (id :: P) (fun _ => 0) /\
  (forall y, proved s y <> None -> proved ((process rules) s id) y <> None /\
             stamp ((process rules) s id) y = stamp s y).
Proof.
  intros s P id Hid Pid [G [HP [HQ [HM ND]]]]. unfold process.
  assert (HidP : ~ In id P) by (intro H; apply Hid, in_app_iff; right; exact H).
  apply (dec_fold_inv rules); [exact HidP | exact Pid | apply (watch_bound rules) |].
  split; [exact G|]. split; [intros p [<-|Hp]; [exact Pid | apply HP, Hp]|]. split; [exact HQ|].
  split.
  - intros k. specialize (HM k). rewrite (cnt_out_cons id P ((prem rules) k) HidP) in HM.
    pose proof ((count_watch_le rules) id k). lia.
  - apply NoDup_app_comm. simpl. constructor.
    + intro H. apply Hid. apply in_app_iff in H. apply in_app_iff. tauto.
    + apply NoDup_app_comm. exact ND.
Qed.

Lemma run_good (rules : list hrule) : forall fuel s P, (inv rules) s P (fun _ => 0) -> (good rules) ((run rules) fuel s).
Proof.
  induction fuel as [|fuel IH]; intros s P I; [apply I|].
  simpl. destruct (queue s) as [|id q] eqn:Eq; [apply I|].
  destruct I as [G [HP [HQ [HM ND]]]].
  set (s0 := State (proved s) (stamp s) (clock s) (missing s) q).
  assert (I0 : (inv rules) s0 P (fun _ => 0)).
  { split; [exact G|]. split; [exact HP|].
    split; [intros x Hx; apply HQ; rewrite Eq; right; exact Hx|]. split; [exact HM|].
    rewrite Eq in ND. simpl in ND. inversion ND; assumption. }
  assert (Hid : ~ In id (queue s0 ++ P)) by (rewrite Eq in ND; inversion ND; assumption).
  assert (Pid : proved s0 id <> None) by (apply HQ; rewrite Eq; left; reflexivity).
  destruct ((process_inv rules) s0 P id Hid Pid I0) as [I1 _].
  apply (IH _ (id :: P) I1).
Qed.

Lemma cnt_out_nil : forall l, cnt_out [] l = length l.
Proof. unfold cnt_out. induction l as [|p l IH]; simpl; [reflexivity | f_equal; exact IH]. Qed.

(** The start: assumptions proved first (no rule), then the rules without
    premises (fire rules). *)
Lemma assume_inv (rules : list hrule) : forall l s, (inv rules) s [] (fun _ => 0) ->
  (inv rules) (fold_left assume1 l s) [] (fun _ => 0) /\ missing (fold_left assume1 l s) = missing s.
Proof.
  induction l as [|a l IH]; intros s I; [split; [exact I | reflexivity]|].
  simpl. assert (Step : (inv rules) (assume1 s a) [] (fun _ => 0) /\ missing (assume1 s a) = missing s).
  { unfold assume1. destruct (proved s a) as [j|] eqn:Ea; [split; [exact I | reflexivity]|].
    destruct I as [G [HP [HQ [HM ND]]]].
    split; [|reflexivity].
    split; [apply (good_set rules); [exact G | exact Ea | intros k E; discriminate]|].
    split; [intros p []|]. split; [|split; [exact HM|]].
    - intros q Hq. simpl in Hq. apply in_app_iff in Hq. destruct Hq as [Hq|[<-|[]]].
      + apply proved_mono_set, HQ, Hq.
      + simpl. unfold upd. rewrite Nat.eqb_refl. discriminate.
    - simpl. rewrite app_nil_r in *. apply NoDup_app_comm. simpl. constructor; [|exact ND].
      intro Hin. apply (HQ _ Hin), Ea. }
  destruct Step as [I' M']. destruct (IH _ I') as [I'' M'']. split; [exact I''|]. congruence.
Qed.

Lemma init_fire_inv (rules : list hrule) : forall ks s, (forall k, In k ks -> k < length rules) ->
  (inv rules) s [] (fun _ => 0) -> missing s = missing (init rules) ->
  (inv rules) (fold_left (fun s k => if Nat.eqb (missing s k) 0 then (fire rules) s k else s) ks s) [] (fun _ => 0).
Proof.
  induction ks as [|k ks IH]; intros s Hks I M; [exact I|].
  simpl. destruct (Nat.eqb (missing s k) 0) eqn:Ez.
  - apply Nat.eqb_eq in Ez. rewrite M in Ez. simpl in Ez. apply length_zero_iff_nil in Ez.
    destruct ((fire_inv rules) s [] _ k I (Hks k (or_introl eq_refl))) as [I' [M' _]]; [rewrite Ez; intros p []|].
    apply IH; [intros k' H; apply Hks; right; exact H | exact I' | congruence].
  - apply IH; [intros k' H; apply Hks; right; exact H | exact I | exact M].
Qed.

Lemma init_is_inv (rules : list hrule) : (inv rules) (init rules) [] (fun _ => 0).
Proof.
  split; [split; [intros x H; contradiction H; reflexivity | intros x k H; discriminate]|].
  split; [intros p []|]. split; [intros q []|]. split; [|constructor].
  intros k. simpl. rewrite cnt_out_nil. lia.
Qed.

(** Whatever the fuel, a condition the (closure rules) proves by rule [k] is the
    conclusion of [k], and every premise of [k] was proved before it. *)
Theorem closure_acyclic (rules : list hrule) : forall assumed fuel x k,
  proved ((closure rules) assumed fuel) x = Some (Some k) ->
  k < length rules /\ (concl rules) k = x /\ forall p, In p ((prem rules) k) ->
    proved ((closure rules) assumed fuel) p <> None /\
    stamp ((closure rules) assumed fuel) p < stamp ((closure rules) assumed fuel) x.
Proof.
  intros assumed fuel. unfold closure.
  destruct ((assume_inv rules) assumed (init rules) (init_is_inv rules)) as [I1 M1].
  assert (Hks : forall k, In k (seq 0 (length rules)) -> k < length rules)
    by (intros k H; apply in_seq in H; lia).
  pose proof ((init_fire_inv rules) (seq 0 (length rules)) _ Hks I1 M1) as I2.
  destruct ((run_good rules) fuel _ [] I2) as [_ G]. exact G.
Qed.

(** Conditions proved without a rule are the assumed ones. *)
Definition from_assumed (A : list nat) (s : state) : Prop :=
  forall x, proved s x = Some None -> In x A.

Lemma fire_from (rules : list hrule) : forall A s k, from_assumed A s -> from_assumed A ((fire rules) s k).
Proof.
  intros A s k H x Hx. unfold fire in Hx. destruct (proved s ((concl rules) k)) eqn:E; [apply H, Hx|].
  simpl in Hx. unfold upd in Hx. destruct (Nat.eqb x ((concl rules) k)); [discriminate | apply H, Hx].
Qed.

Lemma dec_fold_from (rules : list hrule) : forall A rest s, from_assumed A s -> from_assumed A (fold_left (dec rules) rest s).
Proof.
  intros A rest. induction rest as [|k rest IH]; intros s H; [exact H|].
  simpl. apply IH. unfold dec.
  destruct (Nat.eqb (missing s k - 1) 0); [apply (fire_from rules)|]; exact H.
Qed.

Lemma run_from (rules : list hrule) : forall A fuel s, from_assumed A s -> from_assumed A ((run rules) fuel s).
Proof.
  intros A fuel. induction fuel as [|fuel IH]; intros s H; [exact H|].
  simpl. destruct (queue s) as [|id q]; [exact H|].
  apply IH. unfold process. apply (dec_fold_from rules). exact H.
Qed.

Theorem closure_assumed (rules : list hrule) : forall assumed fuel x,
  proved ((closure rules) assumed fuel) x = Some None -> In x assumed.
Proof.
  intros assumed fuel. unfold closure. apply (run_from rules).
  assert (H1 : forall l s, (forall a, In a l -> In a assumed) -> from_assumed assumed s ->
             from_assumed assumed (fold_left assume1 l s)).
  { induction l as [|a l IH]; intros s Hl H; [exact H|]. simpl. apply IH; [intros; apply Hl; right; assumption|].
    intros x Hx. unfold assume1 in Hx. destruct (proved s a) eqn:E; [apply H, Hx|].
    simpl in Hx. unfold upd in Hx. destruct (Nat.eqb x a) eqn:Ex.
    - apply Nat.eqb_eq in Ex. subst. apply Hl. left. reflexivity.
    - apply H, Hx. }
  assert (H2 : forall ks s, from_assumed assumed s ->
             from_assumed assumed (fold_left (fun s k => if Nat.eqb (missing s k) 0 then (fire rules) s k else s) ks s)).
  { induction ks as [|k ks IH]; intros s H; [exact H|]. simpl. apply IH.
    destruct (Nat.eqb (missing s k) 0); [apply (fire_from rules)|]; exact H. }
  apply H2, H1; [intros; assumption|]. intros x Hx. discriminate.
Qed.



(** ** Rust's [Derivation::dropped] is acyclic *)

(** [rules_assuming] lists the loop axioms first, then each step's rules. *)
Definition loop_axioms (loops : list nat) : list hrule := map (fun l => ([], l)) loops.

Definition rust_rules (loops : list nat) (steps : list step) : list hrule :=
  loop_axioms loops ++ concat (map rules_of_step steps).

(** [derive_by_theorems]: for each candidate [x] in its order, the
    premises of the rule that proved it. *)
Definition dropped (rules : list hrule) (s : state) (order : list nat) : list justification :=
  flat_map (fun x => match proved s x with
                     | Some (Some k) => [(x, prem rules k)]
                     | _ => []
                     end) order.

Lemma in_dropped : forall rules s order v ps, In (v, ps) (dropped rules s order) ->
  In v order /\ exists k, proved s v = Some (Some k) /\ ps = prem rules k.
Proof.
  intros rules s order v ps H. unfold dropped in H. apply in_flat_map in H.
  destruct H as [x [Hx Hin]]. destruct (proved s x) as [[k|]|] eqn:E; [|destruct Hin|destruct Hin].
  destruct Hin as [Eq|[]]. injection Eq as <- <-. split; [exact Hx|]. exists k. split; [exact E | reflexivity].
Qed.

Lemma rule_in_steps : forall steps loops k,
  let rules := rust_rules loops steps in
  k < length rules -> In (concl rules k) loops \/
  exists st, In st steps /\ In (prem rules k, concl rules k) (rules_of_step st).
Proof.
  intros steps loops k rules Hlt.
  assert (Hr : In (prem rules k, concl rules k) rules).
  { unfold prem, concl. rewrite <- surjective_pairing. apply nth_In, Hlt. }
  unfold rules, rust_rules in Hr. apply in_app_iff in Hr. destruct Hr as [Hr|Hr].
  - left. unfold loop_axioms in Hr. apply in_map_iff in Hr. destruct Hr as [l [E Hl]].
    injection E as _ El. subst l. exact Hl.
  - right. apply in_concat in Hr. destruct Hr as [rs [Hrs Hin']].
    apply in_map_iff in Hrs. destruct Hrs as [st [<- Hst]]. exists st. split; assumption.
Qed.

Theorem closure_justified : forall steps loops chosen order fuel,
  let rules := rust_rules loops steps in
  (forall v, In v order -> ~ In v loops) ->
  (forall st r, In st steps -> In r (rules_of_step st) -> ~ In (snd r) loops -> In (snd r) order) ->
  acyclic_justified steps (chosen ++ loops) (dropped rules (closure rules chosen fuel) order).
Proof.
  intros steps loops chosen order fuel rules Hol Hcov.
  set (s := closure rules chosen fuel).
  split.
  - intros v ps Hin. destruct (in_dropped rules s order v ps Hin) as [Hv [k [Hk ->]]].
    destruct (closure_acyclic rules chosen fuel v k Hk) as [Hlt [Hc _]].
    destruct (rule_in_steps steps loops k Hlt) as [Hl|[st [Hst Hin']]]; [fold rules in Hl | fold rules in Hin'].
    + exfalso. rewrite Hc in Hl. exact (Hol v Hv Hl).
    + exists st. rewrite Hc in Hin'. split; assumption.
  - exists (stamp s). intros v ps Hin p Hp.
    destruct (in_dropped rules s order v ps Hin) as [Hv [k [Hk ->]]].
    destruct (closure_acyclic rules chosen fuel v k Hk) as [_ [_ Hpr]].
    destruct (Hpr p Hp) as [Pp Sp]. fold s in Pp, Sp.
    destruct (proved s p) as [[k'|]|] eqn:Ep; [|left; apply in_app_iff; left;
      apply (closure_assumed rules chosen fuel p Ep) | contradiction].
    destruct (in_dec Nat.eq_dec p loops) as [Hl|Hl]; [left; apply in_app_iff; right; exact Hl|].
    right. exists (prem rules k'). split; [|exact Sp].
    unfold dropped. apply in_flat_map. exists p. split.
    + destruct (closure_acyclic rules chosen fuel p k' Ep) as [Hlt' [Hc' _]].
      destruct (rule_in_steps steps loops k' Hlt') as [Hl'|[st [Hst Hin']]]; [fold rules in Hl' | fold rules in Hin'].
      * rewrite Hc' in Hl'. contradiction.
      * rewrite <- Hc'. apply (Hcov st _ Hst Hin'). simpl. rewrite Hc'. exact Hl.
    + rewrite Ep. left. reflexivity.
Qed.

(** Hence, with [Predicates.derivation_sound_acyclic]: at a loop point
    satisfying every step, if the chosen conditions hold, every condition
    Rust drops by the rules holds. *)
Corollary closure_sound : forall ext idx steps loops chosen order fuel,
  let rules := rust_rules loops steps in
  Forall (step_valid ext idx) steps ->
  (forall v, In v loops -> inb ext idx v) ->
  (forall v, In v chosen -> inb ext idx v) ->
  (forall v, In v order -> ~ In v loops) ->
  (forall st r, In st steps -> In r (rules_of_step st) -> ~ In (snd r) loops -> In (snd r) order) ->
  forall v ps, In (v, ps) (dropped rules (closure rules chosen fuel) order) -> inb ext idx v.
Proof.
  intros ext idx steps loops chosen order fuel rules V L C Hol Hcov.
  apply (derivation_sound_acyclic ext idx steps (chosen ++ loops)); [exact V| |].
  - intros u Hu. apply in_app_iff in Hu. destruct Hu; [apply C | apply L]; assumption.
  - apply closure_justified; assumption.
Qed.
