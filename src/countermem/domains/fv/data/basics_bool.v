(* countermem coq-basics, environment bool: booleans, by case analysis (destruct) or, for the
   parity function of the preamble, by induction. Every lemma is one task; a task sees only the
   preamble and its own statement. `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import Bool Arith Lia.

Fixpoint evenb (n : nat) : bool :=
  match n with
  | O => true
  | S O => false
  | S (S k) => evenb k
  end.

Definition nandb (a b : bool) : bool := negb (a && b).
(* @end-preamble *)

(* @lemma group=andb_true *)
Theorem andb_true_left : forall b : bool, true && b = b.
Proof.
  intros b. reflexivity.
Qed.

(* @lemma group=andb_true *)
Theorem andb_true_right : forall b : bool, b && true = b.
Proof.
  intros b. destruct b; reflexivity.
Qed.

(* @lemma group=orb_false *)
Theorem orb_false_left : forall b : bool, false || b = b.
Proof.
  intros b. reflexivity.
Qed.

(* @lemma group=orb_false *)
Theorem orb_false_right : forall b : bool, b || false = b.
Proof.
  intros b. destruct b; reflexivity.
Qed.

(* @lemma group=evenb_step *)
Theorem evenb_SS : forall n : nat, evenb (S (S n)) = evenb n.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=evenb_step *)
Theorem evenb_S : forall n : nat, evenb (S n) = negb (evenb n).
Proof.
  induction n as [| n IH].
  - reflexivity.
  - rewrite IH. rewrite negb_involutive. reflexivity.
Qed.

(* @lemma group=evenb_sum *)
Theorem evenb_double : forall n : nat, evenb (n + n) = true.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite Nat.add_succ_r. exact IH.
Qed.

(* @lemma group=evenb_sum *)
Theorem evenb_mul_two : forall n : nat, evenb (n * 2) = true.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. exact IH.
Qed.

(* @lemma *)
Theorem negb_invol : forall b : bool, negb (negb b) = b.
Proof.
  intros b. destruct b; reflexivity.
Qed.

(* @lemma *)
Theorem andb_commut : forall a b : bool, a && b = b && a.
Proof.
  intros a b. destruct a, b; reflexivity.
Qed.

(* @lemma *)
Theorem nandb_self : forall b : bool, nandb b b = negb b.
Proof.
  intros b. destruct b; reflexivity.
Qed.

(* @lemma *)
Theorem andb_true_split : forall a b : bool, a && b = true -> a = true /\ b = true.
Proof.
  intros a b H. destruct a, b; simpl in H; try discriminate H.
  split; reflexivity.
Qed.

(* @lemma *)
Theorem eqb_refl_nat : forall n : nat, Nat.eqb n n = true.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. exact IH.
Qed.
