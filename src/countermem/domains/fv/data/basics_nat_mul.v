(* countermem coq-basics, environment nat_mul: multiplication and powers on nat, proved by
   induction and rewriting with the standard library's addition facts. Every lemma below is
   one task; a task sees only the preamble and its own statement, so no proof may use an
   earlier lemma of this file. `@lemma group=G` joins look-alike pairs: same shape, different
   statement, and the proof of one fails on the other. *)
(* @preamble *)
Require Import Arith Lia.
(* @end-preamble *)

(* @lemma group=mul_succ *)
Theorem mul_succ_l_eq : forall n m : nat, S n * m = m + n * m.
Proof.
  intros n m. reflexivity.
Qed.

(* @lemma group=mul_succ *)
Theorem mul_succ_r_eq : forall n m : nat, n * S m = n + n * m.
Proof.
  intros n m. induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. rewrite !Nat.add_assoc. rewrite (Nat.add_comm m n). reflexivity.
Qed.

(* @lemma group=mul_distr *)
Theorem mul_add_distr_r_ind : forall n m p : nat, (n + m) * p = n * p + m * p.
Proof.
  intros n m p. induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. rewrite Nat.add_assoc. reflexivity.
Qed.

(* @lemma group=mul_distr *)
Theorem mul_add_distr_l_ind : forall n m p : nat, p * (n + m) = p * n + p * m.
Proof.
  intros n m p. induction p as [| p IH].
  - reflexivity.
  - simpl. rewrite IH. lia.
Qed.

(* @lemma group=mul_laws *)
Theorem mul_comm_ind : forall n m : nat, n * m = m * n.
Proof.
  induction n as [| n IH]; intros m; simpl.
  - rewrite Nat.mul_0_r. reflexivity.
  - rewrite IH. rewrite Nat.mul_succ_r. rewrite Nat.add_comm. reflexivity.
Qed.

(* @lemma group=mul_laws *)
Theorem mul_assoc_ind : forall n m p : nat, n * (m * p) = n * m * p.
Proof.
  induction n as [| n IH]; intros m p; simpl.
  - reflexivity.
  - rewrite IH. rewrite Nat.mul_add_distr_r. reflexivity.
Qed.

(* @lemma group=pow_zero *)
Theorem pow_0_r_eq : forall n : nat, n ^ 0 = 1.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=pow_zero *)
Theorem pow_0_l_eq : forall n : nat, n <> 0 -> 0 ^ n = 0.
Proof.
  intros n H. destruct n as [| k].
  - contradiction.
  - reflexivity.
Qed.

(* @lemma group=pow_one *)
Theorem pow_1_l_eq : forall n : nat, 1 ^ n = 1.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=pow_one *)
Theorem pow_1_r_eq : forall n : nat, n ^ 1 = n.
Proof.
  intros n. simpl. rewrite Nat.mul_1_r. reflexivity.
Qed.

(* @lemma group=pow_law *)
Theorem pow_add_r_ind : forall n a b : nat, n ^ (a + b) = n ^ a * n ^ b.
Proof.
  intros n a b. induction a as [| a IH].
  - simpl. rewrite Nat.add_0_r. reflexivity.
  - simpl. rewrite IH. rewrite Nat.mul_assoc. reflexivity.
Qed.

(* @lemma group=pow_law *)
Theorem pow_mul_l_ind : forall n m a : nat, (n * m) ^ a = n ^ a * m ^ a.
Proof.
  intros n m a. induction a as [| a IH].
  - reflexivity.
  - simpl. rewrite IH. ring.
Qed.

(* @lemma *)
Theorem mul_eq_0_cases : forall n m : nat, n * m = 0 -> n = 0 \/ m = 0.
Proof.
  intros n m H. destruct n as [| n].
  - left. reflexivity.
  - destruct m as [| m].
    + right. reflexivity.
    + simpl in H. discriminate H.
Qed.
