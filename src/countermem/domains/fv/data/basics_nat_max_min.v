(* countermem coq-basics, environment nat_max_min: maximum and minimum of two naturals written
   as our own recursive functions `mx` and `mn` that recurse on their second argument (so
   neither `lia` nor `reflexivity` sees through them: proofs go by induction on `m` and case
   analysis on `n`), tied to the standard library's `Nat.max` and `Nat.min`. Every lemma below is one task; a task sees only the
   preamble and its own statement. `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import Arith Lia.

Fixpoint mx (n m : nat) {struct m} : nat :=
  match m with
  | O => n
  | S m' =>
      match n with
      | O => m
      | S n' => S (mx n' m')
      end
  end.

Fixpoint mn (n m : nat) {struct m} : nat :=
  match m with
  | O => O
  | S m' =>
      match n with
      | O => O
      | S n' => S (mn n' m')
      end
  end.
(* @end-preamble *)

(* @lemma group=mx_zero *)
Theorem mx_0_r : forall n : nat, mx n 0 = n.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=mx_zero *)
Theorem mx_0_l : forall n : nat, mx 0 n = n.
Proof.
  intros n. destruct n as [| n].
  - reflexivity.
  - reflexivity.
Qed.

(* @lemma group=mn_zero *)
Theorem mn_0_r : forall n : nat, mn n 0 = 0.
Proof.
  intros n. reflexivity.
Qed.

(* @lemma group=mn_zero *)
Theorem mn_0_l : forall n : nat, mn 0 n = 0.
Proof.
  intros n. destruct n as [| n]; reflexivity.
Qed.

(* @lemma group=mx_laws *)
Theorem mx_comm : forall n m : nat, mx n m = mx m n.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n].
  - reflexivity.
  - reflexivity.
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=mx_laws *)
Theorem mx_idem : forall n : nat, mx n n = n.
Proof.
  induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=mn_laws *)
Theorem mn_comm : forall n m : nat, mn n m = mn m n.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n];
    simpl; try reflexivity.
  rewrite IH. reflexivity.
Qed.

(* @lemma group=mn_laws *)
Theorem mn_le_l : forall n m : nat, mn n m <= n.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n]; simpl.
  - lia.
  - lia.
  - lia.
  - specialize (IH n). lia.
Qed.

(* @lemma group=spec *)
Theorem mx_is_max : forall n m : nat, mx n m = Nat.max n m.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n];
    cbn [mx]; try reflexivity.
  rewrite IH. apply Nat.succ_max_distr.
Qed.

(* @lemma group=spec *)
Theorem mn_is_min : forall n m : nat, mn n m = Nat.min n m.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n];
    cbn [mn]; try reflexivity.
  rewrite IH. apply Nat.succ_min_distr.
Qed.

(* @lemma *)
Theorem mx_plus_mn : forall n m : nat, mx n m + mn n m = n + m.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n]; simpl.
  - reflexivity.
  - reflexivity.
  - rewrite Nat.add_0_r. reflexivity.
  - specialize (IH n). lia.
Qed.

(* @lemma *)
Theorem mx_ge_r : forall n m : nat, m <= mx n m.
Proof.
  intros n m. revert n. induction m as [| m IH]; intros n; destruct n as [| n]; simpl.
  - lia.
  - lia.
  - lia.
  - specialize (IH n). lia.
Qed.

(* @lemma *)
Theorem max_min_absorb : forall n m : nat, Nat.max n (Nat.min n m) = n.
Proof.
  intros n m. lia.
Qed.
