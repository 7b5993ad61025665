"""Verified lessons: what a record teaches, stated without its source task's names, and checked.

Why (issue 24, README): shown a record as another task's code (its Mistake and Correction
blocks), the 0.5B and the 1.5B copy that code into the task at hand: the source task's tables,
its question, even its mistake. Replayed once with the 1.5B, the same advice stated as a lesson
with no names from the source task made it fix its own query. So after a content record is
admitted, the generator's model writes the correction as a lesson, and the lesson is admitted
only when

1. it names nothing of the source task: no identifier or quoted value of the failed or the
   corrected action that is not a keyword of the action language (`source_names`), and
2. it teaches the edit: a model given the source task, its own failed action with the check
   result, and the lesson alone (never the corrected action) writes an action that passes, or
   gains more than the admission threshold, when checked from the source task's reset state.

The paper verifies the edit; nothing there verifies that what a later agent is shown teaches
it. A lesson that fails either test is kept on the record with the reason (for the analysis),
and lesson rendering (`AdvisorOptions.rendering = "lesson"`) offers only records whose lesson
passed (`has_verified_lesson`) or form repairs, which teach their form applied to the agent's
own answer already.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from countermem.core import Action, CheckResult, Usage
from countermem.domains import State, WorldModel, check_action
from countermem.llm import LLM, GenerationParams, Message
from countermem.memory._generator import RepairMode, clip, parse_single
from countermem.memory._record import Lesson, Record

LessonExamples = Literal["fixed", "varied", "none"]
LessonControl = Literal["off", "record", "required"]

LESSON_CHAR_LIMIT = 400
"""A lesson is one or two sentences; a longer one is cut here before it is checked."""

_KEYWORDS: dict[str, frozenset[str]] = {
    "sql": frozenset(
        ["select", "from", "where", "group", "by", "order", "having", "limit", "offset", "join", "inner", "left", "right", "outer", "full", "cross", "on", "as", "and", "or", "not", "in", "is", "null", "like", "between", "distinct", "count", "sum", "avg", "min", "max", "case", "when", "then", "else", "end", "asc", "desc", "union", "all", "intersect", "except", "exists", "with", "insert", "update", "delete", "into", "values", "set", "create", "table", "cast", "round", "coalesce", "ifnull", "lower", "upper", "length", "substr", "date", "strftime", "julianday", "abs", "total", "iif", "nullif", "instr", "replace", "trim"]
    ),
    "python": frozenset(
        ["def", "return", "if", "elif", "else", "for", "while", "in", "not", "and", "or", "is", "none", "true", "false", "import", "from", "as", "class", "try", "except", "finally", "raise", "with", "lambda", "yield", "pass", "break", "continue", "global", "nonlocal", "assert", "del", "len", "range", "list", "dict", "set", "tuple", "str", "int", "float", "bool", "sorted", "reversed", "enumerate", "zip", "map", "filter", "sum", "min", "max", "abs", "any", "all", "print", "isinstance", "append", "extend", "pop", "insert", "sort", "split", "join", "strip", "lower", "upper", "replace", "startswith", "endswith", "keys", "values", "items", "get", "self"]
    ),
    "coq": frozenset(
        ["theorem", "lemma", "proof", "qed", "intros", "intro", "induction", "destruct", "simpl", "reflexivity", "rewrite", "apply", "exact", "auto", "lia", "omega", "assumption", "split", "left", "right", "exists", "unfold", "symmetry", "trivial", "discriminate", "inversion", "injection", "subst", "case", "eauto", "easy", "now", "congruence", "ring", "nat", "bool", "list", "prop", "forall", "fun", "match", "with", "end", "let", "in", "if", "then", "else", "type", "set"]
    ),
    "smt2": frozenset(
        ["declare", "const", "fun", "define", "assert", "check", "sat", "get", "model", "set", "logic", "option", "info", "int", "real", "bool", "and", "or", "not", "ite", "distinct", "true", "false", "let", "forall", "exists", "push", "pop", "exit"]
    ),
}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = re.compile(r"'([^'\n]{2,})'|\"([^\"\n]{2,})\"")
_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_MID_SENTENCE_CAPITAL = re.compile(r"(?<=[a-z,;:] )([A-Z][a-z]{2,})")
_WORD = re.compile(r"[A-Za-z]+")
_FUNCTION_WORDS = frozenset(
    ["a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "from", "with", "into", "onto", "over", "under", "about", "as", "and", "or", "but", "nor", "not", "no", "so", "if", "then", "than", "that", "this", "these", "those", "there", "their", "them", "they", "it", "its", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "one", "two", "his", "her", "our", "your", "my", "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "all", "any", "each", "every", "some", "such", "same", "other", "another", "own", "only", "also", "just", "more", "most", "less", "least", "many", "much", "few", "very", "too", "out", "up", "down", "off", "again", "once", "here"]
)
GENERIC_WORDS = frozenset(
    ["question", "questions", "ask", "asks", "asked", "answer", "answers", "item", "items", "thing", "things", "value", "values", "name", "names", "number", "numbers", "count", "counts", "total", "totals", "sum", "average", "amount", "amounts", "list", "lists", "show", "find", "return", "returns", "row", "rows", "column", "columns", "table", "tables", "record", "records", "result", "results", "query", "queries", "key", "keys", "id", "ids", "function", "functions", "argument", "arguments", "input", "inputs", "output", "outputs", "string", "strings", "integer", "integers", "element", "elements", "given", "write", "first", "last", "top", "bottom", "highest", "lowest", "largest", "smallest", "greatest", "biggest", "maximum", "minimum", "order", "ordered", "sorted", "different", "distinct", "unique", "times", "time", "whether", "true", "false", "case", "cases", "type", "types", "kind", "kinds", "group", "groups", "each", "per", "every", "condition", "conditions", "lesson", "action", "actions", "task", "tasks", "mistake", "fix", "correct", "corrected", "failed", "check"]
)
"""Words a general lesson uses whatever the task (with `_FUNCTION_WORDS`): a phrase of the source
situation made of these alone ("the number of", "for each group") names nothing of the task."""
PHRASE_WORDS = 3
"""Words in a row a lesson may not repeat from its source situation when one is a content word."""


def repeated_phrases(lesson: str, situation: str, action_language: str, length: int = PHRASE_WORDS) -> list[str]:
    """The content words of every `length`-word phrase that `lesson` repeats from `situation`, sorted.

    A content word is one of three or more letters that is neither a function word, a word a
    general lesson needs (`GENERIC_WORDS`), nor a keyword of the action language: "how many orders
    were returned" repeated from its question gives `orders`, `returned`; "the number of" gives none."""
    keywords = _KEYWORDS.get(action_language.lower(), frozenset())

    def content(word: str) -> bool:
        return len(word) >= 3 and word not in _FUNCTION_WORDS and word not in GENERIC_WORDS and word not in keywords

    source = [w.lower() for w in _WORD.findall(situation)]
    grams = {tuple(source[i : i + length]) for i in range(len(source) - length + 1)}
    mine = [w.lower() for w in _WORD.findall(lesson)]
    found: set[str] = set()
    for i in range(len(mine) - length + 1):
        gram = tuple(mine[i : i + length])
        if gram in grams:
            found.update(w for w in gram if content(w))
    return sorted(found)


_LESSON_LINE = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?lesson(?:\*\*)?\s*[:：]\s*(.+)$", re.IGNORECASE | re.MULTILINE)


class LessonSettings(BaseModel):
    """Whether construction writes lessons for admitted records, and how hard it tries."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    enabled: bool = False
    """Write and verify a lesson for each admitted content record (needed by `countermem-lesson`)."""
    writes: int = Field(default=2, ge=1, le=4)
    """Calls to write the lesson; the second one names what the first leaked from the task."""
    attempts: int = Field(default=2, ge=1, le=4)
    """Actions drawn from the lesson to verify it (greedy, then sampled); the first that gains counts."""
    candidates: int = Field(default=1, ge=1, le=4)
    """Lessons written per record (greedy, then sampled), each checked until one is verified: as
    construction proposes up to 4 edits and verifies each, a record may get up to 4 lessons."""
    max_tokens: int = Field(default=160, ge=32)
    """Tokens per lesson-writing call."""
    verify_with: str = "agent"
    """Which model applies the lesson in its check: `agent` (the model that will read it) or `generator`."""
    examples: LessonExamples = "fixed"
    """Example lessons in the writing prompt: `fixed` (three, two of them SQL: the first version), `varied`
    (five of the task's own action language, with a warning not to copy them) or `none` (a
    description of a lesson's form instead)."""
    source_phrases: bool = False
    """Also refuse a lesson that repeats three words in a row of its source task's situation (its
    question, schema or prompt) with a content word among them, as naming the source task: it is
    rewritten, then those words are scrubbed, as leaked names are."""
    control: LessonControl = "off"
    """After a lesson passes, also apply an empty lesson (the failed action and its check alone, as
    many draws): `record` keeps that control's check on the lesson, `required` also verifies the
    lesson only when the control did not gain (a lesson the agent did not need teaches nothing)."""


def has_verified_lesson(record: Record) -> bool:
    return record.lesson is not None and record.lesson.verified


def source_names(actions: Iterable[str], action_language: str) -> set[str]:
    """Identifiers and quoted values of the source task's actions a lesson must not repeat (lower case).

    A `text` action (a worked math answer) is prose, so there the names are its numbers of two or
    more characters and the capitalised words inside a sentence (people, places): a lesson may say
    "subtract before you multiply", not "Janet's 16 eggs"."""
    if action_language.lower() == "text":
        return _prose_names(actions)
    keywords = _KEYWORDS.get(action_language.lower(), frozenset())
    names: set[str] = set()
    for text in actions:
        for match in _QUOTED.finditer(text):
            value = (match.group(1) or match.group(2) or "").strip().lower()
            if len(value) >= 2:
                names.add(value)
        for word in _IDENTIFIER.findall(_QUOTED.sub(" ", text)):
            lowered = word.lower()
            if len(lowered) >= 3 and lowered not in keywords:
                names.add(lowered)
    return names


def _prose_names(texts: Iterable[str]) -> set[str]:
    names: set[str] = set()
    for text in texts:
        names.update(number for number in _NUMBER.findall(text) if len(number) >= 2)
        for match in _MID_SENTENCE_CAPITAL.finditer(text):
            names.add(match.group(1).lower())
    return names


def leaked_names(lesson: str, names: set[str]) -> list[str]:
    """The source names that occur in `lesson` as whole words or values, sorted."""
    lowered = lesson.lower()
    words = {w.lower() for w in _IDENTIFIER.findall(lesson)}

    def occurs(name: str) -> bool:
        if _IDENTIFIER.fullmatch(name):
            return name in words
        return re.search(rf"(?<![A-Za-z0-9_.]){re.escape(name)}(?![A-Za-z0-9_])", lowered) is not None

    return sorted(n for n in names if occurs(n))


WRITE_HEAD = """\
You turn a verified correction into a short lesson for OTHER tasks. Another agent will read only \
your lesson while it works on a DIFFERENT task, with different tables, columns, functions, \
variables and values. Write one or two sentences in general terms: what kind of mistake the \
failed action made and how to fix that kind of mistake. Write no code. Never name any table, \
column, function, variable, file or value of this task; say "the column you group by", "the item \
the question asks for", "the function's argument" instead. Answer with one line: `Lesson: <text>`."""

FIXED_EXAMPLES = (
    "When the question asks which item has the most of something, return only that item; rank with "
    "ORDER BY COUNT(...) DESC LIMIT 1 instead of selecting the count.",
    "When a status or category is stored as a code, compare with the code the schema documents, not "
    "with the word in the question.",
    "When the function must return a value, build it and return it at the end instead of printing it.",
)
"""The first version's examples, whatever the domain (two SQL, one Python)."""

VARIED_EXAMPLES: dict[str, tuple[str, ...]] = {
    "sql": (
        "When the question asks for names, select the name column, not the id that points to it.",
        "When rows without a match must be kept, use a LEFT JOIN and test the joined key for NULL.",
        "When the question asks for an average per group, group by the group's key before averaging.",
        "When comparing text values, use the spelling and case stored in the table, not the question's.",
        "When the question asks for the top N, order by the measure in the right direction and LIMIT N.",
    ),
    "python": (
        "When the function must return a value, build it and return it at the end instead of printing it.",
        "When the input can be empty, handle the empty case before reading its first element.",
        "When a loop must include its last value, make the range end one past it.",
        "When the result must keep the input's order, do not sort it or pass it through a set.",
        "When strings are compared without regard to case, lower both sides before comparing.",
    ),
    "coq": (
        "When the goal is about a recursive function of a natural number, do induction on that number first.",
        "When a hypothesis is an equation needed the other way round, rewrite with it from right to left.",
        "When the goal is linear arithmetic over naturals, finish it with lia instead of chaining rewrites.",
        "When the induction hypothesis is too weak, generalize the other variable before the induction.",
        "When the goal matches on a value, destruct that value and simplify each case.",
    ),
    "smt2": (
        "When a quantity must be whole, declare it as an integer, not a real.",
        "When all items must differ, assert distinct over all of them instead of a few pairwise inequalities.",
        "When the problem bounds a quantity, assert both its lower and its upper bound.",
        "When the problem says at most, use less-or-equal, not strictly less.",
        "When the model's values are needed, ask for the model after checking satisfiability.",
    ),
    "dimacs": (
        "When at most one of several variables may be true, add one clause per pair with both negated.",
        "When the header gives the counts, make them match the variables and clauses that follow.",
        "When a constraint says if A then B, write it as the clause not A or B.",
        "When every item needs some value, add a clause listing all of its possible values.",
        "When a clause is finished, end it with the terminating zero.",
    ),
    "text": (
        "When a change happens before the total is asked for, apply the change before summing.",
        "When a rate is given per unit, multiply it by the number of units before comparing.",
        "When percentages are applied one after another, apply each to the amount left by the previous one.",
        "When the question asks what is left, subtract what was used from the starting amount.",
        "When quantities come in different units, convert them to one unit before computing.",
    ),
}
"""Five per action language, of kinds a shop, a function or a proof commonly gets wrong; none is
a correction the benchmarks' records hold, so a lesson equal to one is a copy, not a finding."""

NO_EXAMPLES = (
    "A good lesson starts with \"When\", names the kind of situation in general terms, and says what to "
    "do instead, in your own words about THIS correction."
)


def lesson_examples(variant: LessonExamples, action_language: str) -> tuple[str, ...]:
    if variant == "fixed":
        return FIXED_EXAMPLES
    if variant == "varied":
        return VARIED_EXAMPLES.get(action_language.lower(), VARIED_EXAMPLES["text"])
    return ()


def write_system(variant: LessonExamples, action_language: str) -> str:
    """The lesson writer's system message for an examples variant."""
    examples = lesson_examples(variant, action_language)
    if variant == "none":
        return f"{WRITE_HEAD}\n\n{NO_EXAMPLES}"
    shown = "\n".join(f"Lesson: {e}" for e in examples)
    if variant == "varied":
        return (
            f"{WRITE_HEAD}\n\nExamples of the form of a lesson (from other tasks; they are NOT about this "
            f"correction, never copy one):\n{shown}"
        )
    return f"{WRITE_HEAD}\n\nExamples of good lessons (from other tasks):\n{shown}"


WRITE_SYSTEM = write_system("fixed", "sql")
"""The first version's prompt (kept by name for the scripted oracle and old transcripts)."""


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


def copied_example(lesson: str, examples: Iterable[str], threshold: float = 0.7) -> str | None:
    """The shown example `lesson` repeats (word-set Jaccard >= `threshold`), else None.

    The 1.5B returned the prompt's first example word for word for 4 of 17 records: such a
    lesson is what the prompt taught, not what the correction did."""
    mine = _words(lesson)
    if not mine:
        return None
    for example in examples:
        theirs = _words(example)
        if theirs and len(mine & theirs) / len(mine | theirs) >= threshold:
            return example
    return None


WRITE_USER = """\
## Task
{situation}

## Failed action
```{lang}
{failed}
```

## Check result of the failed action
{details}

## Corrected action (it passed)
```{lang}
{improved}
```

Write the lesson."""

COPY_NOTE = (
    "That lesson is one of the examples, not what THIS correction teaches. Compare the failed and the "
    "corrected action and say, in general terms, what changed and why. Answer with one line: "
    "`Lesson: <text>`."
)

NO_LESSON = "(no lesson: correct the action from the check result alone)"
"""What the control check is given in place of a lesson."""

RETRY_NOTE = (
    "Your lesson named {names} from this task. The other agent's task has none of them. Write the "
    "lesson again in general terms, without those names. Answer with one line: `Lesson: <text>`."
)

APPLY_SYSTEM = """\
You are an agent working under these instructions:

<agent-instructions>
{instructions}
</agent-instructions>

Your last action failed its check. You are given a lesson learned from a verified correction on \
another task. Apply the lesson to YOUR action for THIS task, keeping your own names. Answer with \
the complete corrected action in one ```{lang} code block."""

APPLY_USER = """\
## Task
{situation}

## Your failed action
```{lang}
{failed}
```

## Check result
{details}

## Lesson
{lesson}

Write the corrected action."""


def scrub_names(lesson: str, names: set[str]) -> str:
    """`lesson` with every source name replaced by a placeholder (`<name>`, `<value>`, `<number>`).

    Small writers repeat the source task's names however they are asked; the placeholders keep
    the lesson's shape ("count the rows of <name> where <name> = '<value>'") and drop what a
    reader would copy. Whether the scrubbed lesson still teaches is for the check to say."""
    out = lesson
    for name in sorted(names, key=len, reverse=True):
        out = re.sub(rf"(['\"]){re.escape(name)}\1", r"\1<value>\1", out, flags=re.IGNORECASE)
        if _IDENTIFIER.fullmatch(name):
            out = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", "<name>", out, flags=re.IGNORECASE)
        else:
            placeholder = "<number>" if _NUMBER.fullmatch(name) else "<value>"
            out = re.sub(rf"(?<![A-Za-z0-9_.]){re.escape(name)}(?![A-Za-z0-9_])", placeholder, out, flags=re.IGNORECASE)
    return out


LESSON_MARKERS = (WRITE_SYSTEM.split("\n", 1)[0], APPLY_SYSTEM.split("{", 1)[0])
"""The fixed openings of the lesson prompts' system messages (write, apply)."""


def lesson_prompt_kind(messages: list[Message]) -> str | None:
    """`write` or `apply` for a lesson prompt (to route a scripted backbone), else None."""
    if not messages or messages[0].role != "system":
        return None
    if messages[0].content.startswith(LESSON_MARKERS[0]):
        return "write"
    if messages[0].content.startswith(LESSON_MARKERS[1]):
        return "apply"
    return None


def lesson_prompt_situation(messages: list[Message]) -> str:
    """The `## Task` section of a lesson prompt's first user message."""
    user = next((m.content for m in messages if m.role == "user"), "")
    _, _, rest = user.partition("## Task\n")
    return rest.split("\n\n## ", 1)[0]


def parse_lesson(text: str) -> str:
    """The lesson line of an answer (the first non-empty line when it has no label), cut to the limit."""
    text = _CODE_BLOCK.sub(" ", text)
    match = _LESSON_LINE.search(text)
    lesson = match.group(1) if match else next((line for line in text.splitlines() if line.strip()), "")
    lesson = " ".join(lesson.replace("`", "").split()).strip("* ")
    return lesson if len(lesson) <= LESSON_CHAR_LIMIT else lesson[: LESSON_CHAR_LIMIT - 3] + "..."


class LessonWriter:
    """Writes and verifies the lesson of an admitted record; counts the tokens and checks it spent."""

    def __init__(
        self,
        writer: LLM,
        verifier: LLM,
        settings: LessonSettings,
        *,
        action_language: str,
        instructions: str = "",
        mode: RepairMode = "edit",
        min_gain: float = 0.05,
        seed: int = 0,
    ) -> None:
        self.writer = writer
        self.verifier = verifier
        self.settings = settings
        self.action_language = action_language
        self.instructions = instructions
        self.mode = mode
        self.min_gain = min_gain
        self.seed = seed
        self.usage_total = Usage()
        self.calls = 0
        self.world_model_calls = 0
        self.written = 0
        self.verified = 0

    def _call(self, llm: LLM, messages: list[Message], params: GenerationParams) -> str:
        completion = llm.complete(messages, params)
        self.calls += 1
        self.usage_total = self.usage_total + completion.usage
        return completion.text

    def lesson_for(self, record: Record, world_model: WorldModel, state: State) -> Lesson:
        """Write the record's lesson, then check it from `state` (the source task's reset state).

        With `candidates` > 1, further lessons are drawn (sampled) until one is verified; the
        first verified one is kept, else the last one written, with the reason it failed."""
        lang = self.action_language
        situation, _ = clip(record.situation, 3000)
        failed, _ = clip(record.original_action.content, 2000)
        improved, _ = clip(record.improved_action.content, 2000)
        details, _ = clip(record.original_check.details or "(no details)", 600)
        prompt = [
            Message(role="system", content=write_system(self.settings.examples, lang)),
            Message(
                role="user",
                content=WRITE_USER.format(
                    situation=situation, lang=lang, failed=failed, details=details, improved=improved
                ),
            ),
        ]
        names = source_names([record.original_action.content, record.improved_action.content], lang)
        self.written += 1
        lesson: Lesson | None = None
        tried: set[str] = set()
        for candidate in range(self.settings.candidates):
            params = GenerationParams(
                temperature=0.0 if candidate == 0 else 0.8, max_tokens=self.settings.max_tokens,
                seed=self.seed + candidate,
            )
            written = self._write(prompt, params, names, lang, record.situation)
            if written.text in tried:
                continue
            tried.add(written.text)
            lesson = self._judge(record, written, situation, failed, details, world_model, state)
            if lesson.verified:
                self.verified += 1
                break
            if self.settings.control == "required" and lesson.control is not None:
                break  # the agent fixes it without any lesson: no other lesson can be verified
        assert lesson is not None
        return lesson

    def _names_in(self, lesson: str, names: set[str], lang: str, situation: str) -> set[str]:
        """`names` plus, with `source_phrases`, the content words of phrases `lesson` repeats from `situation`."""
        if not self.settings.source_phrases:
            return names
        return names | set(repeated_phrases(lesson, situation, lang))

    def _write(
        self, prompt: list[Message], params: GenerationParams, names: set[str], lang: str, situation: str
    ) -> Lesson:
        """One lesson, rewritten when it names the source task or copies an example (not yet checked)."""
        examples = lesson_examples(self.settings.examples, lang)
        messages = list(prompt)
        lesson, copied = "", None
        leaked: list[str] = []
        for write in range(self.settings.writes):
            answer = self._call(self.writer, messages, params)
            lesson = parse_lesson(answer)
            leaked = leaked_names(lesson, self._names_in(lesson, names, lang, situation))
            copied = copied_example(lesson, examples)
            if lesson and not leaked and copied is None:
                break
            if write + 1 < self.settings.writes:
                note = (
                    COPY_NOTE if lesson and copied is not None and not leaked
                    else RETRY_NOTE.format(names=", ".join(leaked) or "nothing (the answer was empty)")
                )
                messages = [*messages, Message(role="assistant", content=answer), Message(role="user", content=note)]
        scrubbed: list[str] = []
        if lesson and leaked:
            found = self._names_in(lesson, names, lang, situation)
            lesson, scrubbed = scrub_names(lesson, found), leaked
            leaked = leaked_names(lesson, self._names_in(lesson, names, lang, situation))
        return Lesson(
            text=lesson, verified=False, writer=self.writer.name, verifier=self.verifier.name, leaked=leaked,
            scrubbed=scrubbed, copied_example=copied is not None,
        )

    def _judge(
        self, record: Record, written: Lesson, situation: str, failed: str, details: str,
        world_model: WorldModel, state: State,
    ) -> Lesson:
        """The written lesson with its verdict: checked from `state`, then against the no-lesson control."""
        if not written.text:
            return written.model_copy(update={"reason": "the writer gave no lesson"})
        if written.leaked:
            return written.model_copy(update={"reason": f"names the source task: {', '.join(written.leaked)}"})
        if written.copied_example:
            return written.model_copy(update={"reason": "copies an example of the writing prompt"})
        best = self._verify(record, written.text, situation, failed, details, world_model, state)
        gain = None if best is None else best.utility - record.original_check.utility
        if best is None or gain is None or gain <= self.min_gain:
            reason = (
                "no action could be read from the lesson's answers" if best is None
                else f"the action written from the lesson gained {gain:.3f}, not more than {self.min_gain}"
            )
            return written.model_copy(update={"reason": reason, "check": best})
        if self.settings.control == "off":
            return written.model_copy(update={"verified": True, "check": best})
        control = self._verify(record, NO_LESSON, situation, failed, details, world_model, state)
        control_gain = None if control is None else control.utility - record.original_check.utility
        if self.settings.control == "required" and control_gain is not None and control_gain > self.min_gain:
            reason = f"the agent fixes it without the lesson (the control gained {control_gain:.3f})"
            return written.model_copy(update={"reason": reason, "check": best, "control": control})
        return written.model_copy(update={"verified": True, "check": best, "control": control})

    def _verify(
        self,
        record: Record,
        lesson: str,
        situation: str,
        failed: str,
        details: str,
        world_model: WorldModel,
        state: State,
    ) -> CheckResult | None:
        lang = self.action_language
        instructions = self.instructions.strip() or f"Write the action as {lang or 'text'}."
        messages = [
            Message(role="system", content=APPLY_SYSTEM.format(instructions=instructions, lang=lang)),
            Message(
                role="user",
                content=APPLY_USER.format(situation=situation, lang=lang, failed=failed, details=details, lesson=lesson),
            ),
        ]
        best: CheckResult | None = None
        resume_at = world_model.snapshot()
        try:
            best = self._draw_and_check(record, messages, world_model, state)
        finally:
            world_model.restore(resume_at)
        return best

    def _draw_and_check(
        self, record: Record, messages: list[Message], world_model: WorldModel, state: State
    ) -> CheckResult | None:
        lang = self.action_language
        best: CheckResult | None = None
        for attempt in range(self.settings.attempts):
            params = GenerationParams(
                temperature=0.0 if attempt == 0 else 0.8, max_tokens=384 if lang == "sql" else 1024,
                seed=self.seed + attempt,
            )
            answer = self._call(self.verifier, messages, params)
            alternative, _ = parse_single(answer, action_language=lang, mode=self.mode)
            if alternative is None:
                continue
            world_model.restore(state)
            result = check_action(world_model, Action(content=alternative.action.content))
            self.world_model_calls += 1
            if best is None or result.utility > best.utility:
                best = result
            if result.utility - record.original_check.utility > self.min_gain:
                break
        return best
