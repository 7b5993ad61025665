(* countermem coq-basics, environment tree: binary trees of nat with size, height, mirror and
   flattening defined in the preamble, proved by structural induction (two hypotheses, one per
   subtree) and lia. Every lemma below is one task; a task sees only the preamble and its own
   statement. `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import List Arith Lia.
Import ListNotations.

Inductive tree : Type :=
  | Leaf : tree
  | Node : tree -> nat -> tree -> tree.

Fixpoint size (t : tree) : nat :=
  match t with
  | Leaf => 0
  | Node l _ r => size l + 1 + size r
  end.

Fixpoint leaves (t : tree) : nat :=
  match t with
  | Leaf => 1
  | Node l _ r => leaves l + leaves r
  end.

Fixpoint height (t : tree) : nat :=
  match t with
  | Leaf => 0
  | Node l _ r => S (Nat.max (height l) (height r))
  end.

Fixpoint tsum (t : tree) : nat :=
  match t with
  | Leaf => 0
  | Node l x r => tsum l + x + tsum r
  end.

Fixpoint mirror (t : tree) : tree :=
  match t with
  | Leaf => Leaf
  | Node l x r => Node (mirror r) x (mirror l)
  end.

Fixpoint tmap (f : nat -> nat) (t : tree) : tree :=
  match t with
  | Leaf => Leaf
  | Node l x r => Node (tmap f l) (f x) (tmap f r)
  end.

Fixpoint flatten (t : tree) : list nat :=
  match t with
  | Leaf => []
  | Node l x r => flatten l ++ [x] ++ flatten r
  end.
(* @end-preamble *)

(* @lemma group=mirror_shape *)
Theorem mirror_node : forall (l r : tree) (x : nat), mirror (Node l x r) = Node (mirror r) x (mirror l).
Proof.
  intros l r x. reflexivity.
Qed.

(* @lemma group=mirror_shape *)
Theorem mirror_mirror : forall t : tree, mirror (mirror t) = t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. reflexivity.
Qed.

(* @lemma group=mirror_measure *)
Theorem size_mirror : forall t : tree, size (mirror t) = size t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. lia.
Qed.

(* @lemma group=mirror_measure *)
Theorem height_mirror : forall t : tree, height (mirror t) = height t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. rewrite Nat.max_comm. reflexivity.
Qed.

(* @lemma *)
Theorem tsum_mirror : forall t : tree, tsum (mirror t) = tsum t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. lia.
Qed.

(* @lemma group=count_nodes *)
Theorem leaves_size : forall t : tree, leaves t = size t + 1.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. lia.
Qed.

(* @lemma group=count_nodes *)
Theorem length_flatten : forall t : tree, length (flatten t) = size t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite app_length. simpl. rewrite IHl, IHr. lia.
Qed.

(* @lemma *)
Theorem flatten_mirror : forall t : tree, flatten (mirror t) = rev (flatten t).
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. rewrite rev_app_distr. simpl.
    rewrite <- app_assoc. reflexivity.
Qed.

(* @lemma group=tmap_measure *)
Theorem size_tmap : forall (f : nat -> nat) (t : tree), size (tmap f t) = size t.
Proof.
  intros f t. induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. reflexivity.
Qed.

(* @lemma group=tmap_measure *)
Theorem tsum_tmap_succ : forall t : tree, tsum (tmap S t) = tsum t + size t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. lia.
Qed.

(* @lemma *)
Theorem tmap_mirror : forall (f : nat -> nat) (t : tree), tmap f (mirror t) = mirror (tmap f t).
Proof.
  intros f t. induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. rewrite IHl, IHr. reflexivity.
Qed.

(* @lemma group=height_bound *)
Theorem height_le_size : forall t : tree, height t <= size t.
Proof.
  induction t as [| l IHl x r IHr].
  - reflexivity.
  - simpl. lia.
Qed.

(* @lemma group=height_bound *)
Theorem size_lt_pow_height : forall t : tree, size t < 2 ^ height t.
Proof.
  induction t as [| l IHl x r IHr].
  - simpl. lia.
  - simpl.
    assert (Hl : 2 ^ height l <= 2 ^ Nat.max (height l) (height r)).
    { apply Nat.pow_le_mono_r; lia. }
    assert (Hr : 2 ^ height r <= 2 ^ Nat.max (height l) (height r)).
    { apply Nat.pow_le_mono_r; lia. }
    lia.
Qed.

(* @lemma *)
Theorem size_zero_leaf : forall t : tree, size t = 0 -> t = Leaf.
Proof.
  intros t H. destruct t as [| l x r].
  - reflexivity.
  - simpl in H. lia.
Qed.
