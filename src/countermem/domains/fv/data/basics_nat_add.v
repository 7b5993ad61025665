(* countermem coq-basics, environment nat_add: identities of + and * on nat.
   Every lemma below is one task. A task sees only the preamble and its own statement, so
   no proof may use an earlier lemma of this file. `@lemma group=G` joins look-alike pairs:
   same shape, different statement, and the proof of one fails on the other. *)
(* @preamble *)
Require Import Arith Lia.
(* @end-preamble *)

(* @lemma group=add_zero *)
Theorem add_0_l : forall n : nat, 0 + n = n.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=add_zero *)
Theorem add_0_r : forall n : nat, n + 0 = n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=add_succ *)
Theorem add_succ_l : forall n m : nat, S n + m = S (n + m).
Proof.
  intros n m. reflexivity.
Qed.

(* @lemma group=add_succ *)
Theorem add_succ_r : forall n m : nat, n + S m = S (n + m).
Proof.
  induction n as [| n IH]; intros m.
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=mul_zero *)
Theorem mul_0_l : forall n : nat, 0 * n = 0.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=mul_zero *)
Theorem mul_0_r : forall n : nat, n * 0 = 0.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. exact IH.
Qed.

(* @lemma group=mul_one *)
Theorem mul_1_l : forall n : nat, 1 * n = n.
Proof.
  intros n. simpl. rewrite Nat.add_0_r. reflexivity.
Qed.

(* @lemma group=mul_one *)
Theorem mul_1_r : forall n : nat, n * 1 = n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=self_op *)
Theorem add_self : forall n : nat, n + n = 2 * n.
Proof.
  intros n. simpl. rewrite Nat.add_0_r. reflexivity.
Qed.

(* @lemma group=self_op *)
Theorem mul_self : forall n : nat, n * n = n ^ 2.
Proof.
  intros n. simpl. rewrite Nat.mul_1_r. reflexivity.
Qed.

(* @lemma group=add_laws *)
Theorem add_comm_ind : forall n m : nat, n + m = m + n.
Proof.
  induction n as [| n IH]; intros m; simpl.
  - rewrite Nat.add_0_r. reflexivity.
  - rewrite IH. rewrite Nat.add_succ_r. reflexivity.
Qed.

(* @lemma group=add_laws *)
Theorem add_assoc_ind : forall n m p : nat, n + (m + p) = n + m + p.
Proof.
  induction n as [| n IH]; intros m p; simpl.
  - reflexivity.
  - rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem add_shuffle : forall n m p : nat, n + (m + p) = m + (n + p).
Proof.
  intros n m p. lia.
Qed.
