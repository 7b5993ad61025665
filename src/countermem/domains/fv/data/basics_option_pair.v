(* countermem coq-basics, environment option_pair: pairs, options and association lists with
   functions defined in the preamble; most proofs take the pair or option apart (`destruct`),
   list facts go by induction. Every lemma below is one task; a task sees only the preamble and
   its own statement. `@lemma group=G` joins look-alike pairs. *)
(* @preamble *)
Require Import List Arith Lia.
Import ListNotations.

Definition swap {A B : Type} (p : A * B) : B * A :=
  let (a, b) := p in (b, a).

Definition get_or {A : Type} (d : A) (o : option A) : A :=
  match o with
  | Some x => x
  | None => d
  end.

Definition omap {A B : Type} (f : A -> B) (o : option A) : option B :=
  match o with
  | Some x => Some (f x)
  | None => None
  end.

Definition obind {A B : Type} (o : option A) (f : A -> option B) : option B :=
  match o with
  | Some x => f x
  | None => None
  end.

Fixpoint firsts {A B : Type} (l : list (A * B)) : list A :=
  match l with
  | [] => []
  | (a, _) :: t => a :: firsts t
  end.

Fixpoint lookup (k : nat) (l : list (nat * nat)) : option nat :=
  match l with
  | [] => None
  | (k', v) :: t => if Nat.eqb k k' then Some v else lookup k t
  end.
(* @end-preamble *)

(* @lemma group=swap *)
Theorem swap_pair : forall (A B : Type) (a : A) (b : B), swap (a, b) = (b, a).
Proof.
  intros A B a b. reflexivity.
Qed.

(* @lemma group=swap *)
Theorem swap_swap : forall (A B : Type) (p : A * B), swap (swap p) = p.
Proof.
  intros A B p. destruct p as [a b]. reflexivity.
Qed.

(* @lemma *)
Theorem fst_swap : forall (A B : Type) (p : A * B), fst (swap p) = snd p.
Proof.
  intros A B p. destruct p as [a b]. reflexivity.
Qed.

(* @lemma group=get_or *)
Theorem get_or_some : forall (A : Type) (d x : A), get_or d (Some x) = x.
Proof.
  intros A d x. reflexivity.
Qed.

(* @lemma group=get_or *)
Theorem get_or_omap : forall (A B : Type) (f : A -> B) (d : A) (o : option A),
  get_or (f d) (omap f o) = f (get_or d o).
Proof.
  intros A B f d o. destruct o as [x |].
  - reflexivity.
  - reflexivity.
Qed.

(* @lemma group=obind_unit *)
Theorem obind_some_l : forall (A B : Type) (x : A) (f : A -> option B), obind (Some x) f = f x.
Proof.
  intros A B x f. reflexivity.
Qed.

(* @lemma group=obind_unit *)
Theorem obind_some_r : forall (A : Type) (o : option A), obind o (@Some A) = o.
Proof.
  intros A o. destruct o as [x |].
  - reflexivity.
  - reflexivity.
Qed.

(* @lemma group=omap_law *)
Theorem omap_id : forall (A : Type) (o : option A), omap (fun x => x) o = o.
Proof.
  intros A o. destruct o as [x |]; reflexivity.
Qed.

(* @lemma group=omap_law *)
Theorem omap_compose : forall (A B C : Type) (f : A -> B) (g : B -> C) (o : option A),
  omap g (omap f o) = omap (fun x => g (f x)) o.
Proof.
  intros A B C f g o. destruct o as [x |]; reflexivity.
Qed.

(* @lemma group=firsts_op *)
Theorem firsts_length : forall (A B : Type) (l : list (A * B)), length (firsts l) = length l.
Proof.
  intros A B l. induction l as [| [a b] t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=firsts_op *)
Theorem firsts_app : forall (A B : Type) (l1 l2 : list (A * B)),
  firsts (l1 ++ l2) = firsts l1 ++ firsts l2.
Proof.
  intros A B l1 l2. induction l1 as [| [a b] t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma *)
Theorem firsts_is_map_fst : forall (A B : Type) (l : list (A * B)), firsts l = map fst l.
Proof.
  intros A B l. induction l as [| [a b] t IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed.

(* @lemma group=lookup_cons *)
Theorem lookup_cons_same : forall (k v : nat) (l : list (nat * nat)),
  lookup k ((k, v) :: l) = Some v.
Proof.
  intros k v l. simpl. rewrite Nat.eqb_refl. reflexivity.
Qed.

(* @lemma group=lookup_cons *)
Theorem lookup_cons_other : forall (k k' v : nat) (l : list (nat * nat)),
  k <> k' -> lookup k ((k', v) :: l) = lookup k l.
Proof.
  intros k k' v l H. simpl. apply Nat.eqb_neq in H. rewrite H. reflexivity.
Qed.
