(* countermem coq-basics, environment list_basic: append, length, map and rev from the
   standard library. Every lemma is one task; a task sees only the preamble and its own
   statement. `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import List Arith Lia.
Import ListNotations.
(* @end-preamble *)

(* @lemma group=app_nil *)
Theorem app_nil_left : forall (A : Type) (l : list A), [] ++ l = l.
Proof.
  intros A l. reflexivity.
Qed.

(* @lemma group=app_nil *)
Theorem app_nil_right : forall (A : Type) (l : list A), l ++ [] = l.
Proof.
  intros A l. induction l as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=ne_nil *)
Theorem cons_ne_nil : forall (A : Type) (x : A) (l : list A), x :: l <> [].
Proof.
  intros A x l H. discriminate H.
Qed.

(* @lemma group=ne_nil *)
Theorem snoc_ne_nil : forall (A : Type) (x : A) (l : list A), l ++ [x] <> [].
Proof.
  intros A x l H. destruct l as [| y t]; discriminate H.
Qed.

(* @lemma group=length_op *)
Theorem length_append : forall (A : Type) (l1 l2 : list A),
  length (l1 ++ l2) = length l1 + length l2.
Proof.
  intros A l1 l2. induction l1 as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=length_op *)
Theorem length_reverse : forall (A : Type) (l : list A), length (rev l) = length l.
Proof.
  intros A l. induction l as [| x t IH].
  - reflexivity.
  - simpl. rewrite app_length. simpl. rewrite IH. lia.
Qed.

(* @lemma group=map_op *)
Theorem map_length_ind : forall (A B : Type) (f : A -> B) (l : list A),
  length (map f l) = length l.
Proof.
  intros A B f l. induction l as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=map_op *)
Theorem map_app_ind : forall (A B : Type) (f : A -> B) (l1 l2 : list A),
  map f (l1 ++ l2) = map f l1 ++ map f l2.
Proof.
  intros A B f l1 l2. induction l1 as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=rev_op *)
Theorem rev_append_distr : forall (A : Type) (l1 l2 : list A),
  rev (l1 ++ l2) = rev l2 ++ rev l1.
Proof.
  intros A l1 l2. induction l1 as [| x t IH].
  - simpl. rewrite app_nil_r. reflexivity.
  - simpl. rewrite IH. rewrite app_assoc. reflexivity.
Qed.

(* @lemma group=rev_op *)
Theorem rev_rev : forall (A : Type) (l : list A), rev (rev l) = l.
Proof.
  intros A l. induction l as [| x t IH].
  - reflexivity.
  - simpl. rewrite rev_app_distr. simpl. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem app_assoc_ind : forall (A : Type) (l1 l2 l3 : list A),
  (l1 ++ l2) ++ l3 = l1 ++ (l2 ++ l3).
Proof.
  intros A l1 l2 l3. induction l1 as [| x t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem in_app_left : forall (A : Type) (x : A) (l1 l2 : list A),
  In x l1 -> In x (l1 ++ l2).
Proof.
  intros A x l1 l2 H. apply in_or_app. left. exact H.
Qed.
