(* countermem coq-basics, environment nat_order: inequalities on nat.
   Linear goals fall to lia; the look-alike partner of each is nonlinear (nia) or needs
   induction, so the linear proof fails there. Every lemma is one task. *)
(* @preamble *)
Require Import Arith Lia.
(* @end-preamble *)

(* @lemma group=le_self_op *)
Theorem le_add_self : forall n : nat, n <= n + n.
Proof.
  intros n. lia.
Qed.

(* @lemma group=le_self_op *)
Theorem le_mul_self : forall n : nat, n <= n * n.
Proof.
  intros n. destruct n as [| k].
  - lia.
  - nia.
Qed.

(* @lemma group=le_mono *)
Theorem add_le_mono_r : forall a b c : nat, a <= b -> a + c <= b + c.
Proof.
  intros a b c H. lia.
Qed.

(* @lemma group=le_mono *)
Theorem mul_le_mono_r : forall a b c : nat, a <= b -> a * c <= b * c.
Proof.
  intros a b c H. nia.
Qed.

(* @lemma group=lt_growth *)
Theorem lt_double_succ : forall n : nat, n < 2 * n + 1.
Proof.
  intros n. lia.
Qed.

(* @lemma group=lt_growth *)
Theorem lt_pow2 : forall n : nat, n < 2 ^ n.
Proof.
  induction n as [| n IH].
  - simpl. lia.
  - simpl. lia.
Qed.

(* @lemma *)
Theorem two_ab_le : forall a b : nat, 2 * a * b <= a * a + b * b.
Proof.
  intros a b.
  destruct (Nat.le_ge_cases a b) as [H | H].
  - replace b with (a + (b - a)) by lia. nia.
  - replace a with (b + (a - b)) by lia. nia.
Qed.

(* @lemma *)
Theorem le_trans_3 : forall a b c d : nat, a <= b -> b <= c -> c <= d -> a <= d.
Proof.
  intros a b c d H1 H2 H3. lia.
Qed.

(* @lemma *)
Theorem le_antisym_eq : forall n m : nat, n <= m -> m <= n -> n = m.
Proof.
  intros n m H1 H2. lia.
Qed.

(* @lemma *)
Theorem max_ge_l : forall n m : nat, n <= Nat.max n m.
Proof.
  intros n m. lia.
Qed.

(* @lemma *)
Theorem even_or_odd : forall n : nat, exists k : nat, n = 2 * k \/ n = 2 * k + 1.
Proof.
  induction n as [| n IH].
  - exists 0. left. reflexivity.
  - destruct IH as [k [H | H]].
    + exists k. right. lia.
    + exists (S k). left. lia.
Qed.
