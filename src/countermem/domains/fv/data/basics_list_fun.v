(* countermem coq-basics, environment list_fun: recursive functions on lists defined in the
   preamble, proved by induction (helper facts go in an `assert` inside the proof). Every lemma
   is one task; a task sees only the preamble and its own statement. *)
(* @preamble *)
Require Import List Arith Lia.
Import ListNotations.

Fixpoint sum_list (l : list nat) : nat :=
  match l with
  | [] => 0
  | x :: t => x + sum_list t
  end.

Fixpoint count (n : nat) (l : list nat) : nat :=
  match l with
  | [] => 0
  | x :: t => (if Nat.eqb x n then 1 else 0) + count n t
  end.

Fixpoint snoc {A : Type} (l : list A) (x : A) : list A :=
  match l with
  | [] => [x]
  | h :: t => h :: snoc t x
  end.

Fixpoint my_rev {A : Type} (l : list A) : list A :=
  match l with
  | [] => []
  | h :: t => snoc (my_rev t) h
  end.

Fixpoint repeat_n {A : Type} (x : A) (n : nat) : list A :=
  match n with
  | O => []
  | S k => x :: repeat_n x k
  end.
(* @end-preamble *)

(* @lemma group=sum_list_op *)
Theorem sum_list_app : forall l1 l2 : list nat,
  sum_list (l1 ++ l2) = sum_list l1 + sum_list l2.
Proof.
  induction l1 as [| x t IH]; intros l2.
  - reflexivity.
  - simpl. rewrite IH. lia.
Qed.

(* @lemma group=sum_list_op *)
Theorem sum_list_rev : forall l : list nat, sum_list (rev l) = sum_list l.
Proof.
  assert (H : forall l1 l2 : list nat, sum_list (l1 ++ l2) = sum_list l1 + sum_list l2).
  { induction l1 as [| x t IH]; intros l2.
    - reflexivity.
    - simpl. rewrite IH. lia. }
  induction l as [| x t IH].
  - reflexivity.
  - simpl. rewrite H. simpl. rewrite IH. lia.
Qed.

(* @lemma group=snoc_shape *)
Theorem snoc_is_app : forall (A : Type) (l : list A) (x : A), snoc l x = l ++ [x].
Proof.
  intros A l x. induction l as [| h t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=snoc_shape *)
Theorem snoc_app_assoc : forall (A : Type) (l1 l2 : list A) (x : A),
  snoc (l1 ++ l2) x = l1 ++ snoc l2 x.
Proof.
  intros A l1 l2 x. induction l1 as [| h t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem length_snoc : forall (A : Type) (l : list A) (x : A), length (snoc l x) = S (length l).
Proof.
  intros A l x. induction l as [| h t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=my_rev_law *)
Theorem my_rev_snoc : forall (A : Type) (l : list A) (x : A), my_rev (snoc l x) = x :: my_rev l.
Proof.
  intros A l x. induction l as [| h t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=my_rev_law *)
Theorem my_rev_involutive : forall (A : Type) (l : list A), my_rev (my_rev l) = l.
Proof.
  intros A l.
  assert (H : forall (m : list A) (x : A), my_rev (snoc m x) = x :: my_rev m).
  { induction m as [| h t IH]; intros x.
    - reflexivity.
    - simpl. rewrite IH. reflexivity. }
  induction l as [| h t IH].
  - reflexivity.
  - simpl. rewrite H. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem my_rev_length : forall (A : Type) (l : list A), length (my_rev l) = length l.
Proof.
  intros A l.
  assert (H : forall (m : list A) (x : A), length (snoc m x) = S (length m)).
  { induction m as [| h t IH]; intros x.
    - reflexivity.
    - simpl. rewrite IH. reflexivity. }
  induction l as [| h t IH].
  - reflexivity.
  - simpl. rewrite H. rewrite IH. reflexivity.
Qed.

(* @lemma group=repeat_n_op *)
Theorem length_repeat_n : forall (x n : nat), length (repeat_n x n) = n.
Proof.
  intros x n. induction n as [| n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=repeat_n_op *)
Theorem sum_list_repeat_n : forall (x n : nat), sum_list (repeat_n x n) = x * n.
Proof.
  intros x n. induction n as [| n IH].
  - simpl. lia.
  - simpl. rewrite IH. lia.
Qed.

(* @lemma *)
Theorem count_app : forall (n : nat) (l1 l2 : list nat),
  count n (l1 ++ l2) = count n l1 + count n l2.
Proof.
  intros n l1 l2. induction l1 as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. lia.
Qed.

(* @lemma *)
Theorem count_le_length : forall (n : nat) (l : list nat), count n l <= length l.
Proof.
  intros n l. induction l as [| x t IH].
  - simpl. lia.
  - simpl. destruct (Nat.eqb x n); simpl; lia.
Qed.
