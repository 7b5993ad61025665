(* countermem coq-basics, environment nat_rec: recursive functions on nat, proved by induction.
   Every lemma below is one task; a task sees only the preamble and its own statement.
   `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import Arith Lia.

Fixpoint double (n : nat) : nat :=
  match n with
  | O => O
  | S k => S (S (double k))
  end.

Fixpoint triple (n : nat) : nat :=
  match n with
  | O => O
  | S k => S (S (S (triple k)))
  end.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | O => O
  | S k => S k + sum_to k
  end.

Fixpoint sum_odd (n : nat) : nat :=
  match n with
  | O => O
  | S k => 2 * k + 1 + sum_odd k
  end.
(* @end-preamble *)

(* @lemma group=double_closed *)
Theorem double_plus : forall n : nat, double n = n + n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. rewrite Nat.add_succ_r. reflexivity.
Qed.

(* @lemma group=double_closed *)
Theorem double_mult : forall n : nat, double n = n * 2.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem triple_mult : forall n : nat, triple n = 3 * n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. lia.
Qed.

(* @lemma group=double_dist *)
Theorem double_add : forall n m : nat, double (n + m) = double n + double m.
Proof.
  induction n as [| n IH]; intros m.
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=double_dist *)
Theorem double_mul : forall n m : nat, double (n * m) = double n * m.
Proof.
  assert (D : forall k : nat, double k = 2 * k).
  { induction k as [| k IH]; simpl; lia. }
  intros n m. rewrite !D. lia.
Qed.

(* @lemma group=sum_closed *)
Theorem sum_to_formula : forall n : nat, 2 * sum_to n = n * (n + 1).
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl sum_to. nia.
Qed.

(* @lemma group=sum_closed *)
Theorem sum_odd_square : forall n : nat, sum_odd n = n * n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl sum_odd. rewrite IH. nia.
Qed.

(* @lemma *)
Theorem sum_to_le_square : forall n : nat, sum_to n <= n * n.
Proof.
  induction n as [| n IH].
  - simpl. lia.
  - simpl sum_to. nia.
Qed.

(* @lemma *)
Theorem sum_to_mono : forall m n : nat, m <= n -> sum_to m <= sum_to n.
Proof.
  intros m n H. induction H as [| n H IH].
  - lia.
  - simpl. lia.
Qed.

(* @lemma *)
Theorem double_injective : forall n m : nat, double n = double m -> n = m.
Proof.
  induction n as [| n IH]; intros m H; destruct m as [| m]; simpl in H;
    try discriminate; try reflexivity.
  injection H as H. f_equal. apply IH. exact H.
Qed.
