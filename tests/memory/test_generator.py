import random

import pytest
from pydantic import ValidationError

from countermem.core import Action, CheckResult, Facts, LLMError, Usage
from countermem.llm import Message, ScriptedLLM, scripted_usage
from countermem.llm._scripted import ScriptedReply
from countermem.memory._generator import (
    ACTION_CHAR_LIMIT,
    DETAILS_CHAR_LIMIT,
    FACT_VALUE_CHAR_LIMIT,
    FACTS_CHAR_LIMIT,
    SITUATION_CHAR_LIMIT,
    GenerationRequest,
    Generator,
    GeneratorSettings,
    PromptLimits,
    parse_alternatives,
    render_facts,
    render_generation_prompt,
)

FAILED = Action(content="SELECT name FROM product WHERE price > 10")

WELL_FORMED = """\
### Alternative 1
Rationale: the table is called products, not product
Condition: "products" in tables
```sql
SELECT name FROM products WHERE price > 10
```

### Alternative 2
Rationale: prices are stored in cents
Condition: n_tables > 3 and "products.price" in columns
```sql
SELECT name FROM products WHERE price > 1000
```

### Alternative 3
Rationale: applies everywhere
Condition: none
```sql
SELECT DISTINCT name FROM products WHERE price > 10
```
"""


def failed_check(utility: float = 0.0, details: str = "no such table: product") -> CheckResult:
    return CheckResult(utility=utility, passed=False, completed=True, status="error", details=details)


def request(**changes: object) -> GenerationRequest:
    data: dict[str, object] = {
        "domain": "sql",
        "benchmark": "sql-shop",
        "action_language": "sql",
        "situation": "Question: names of products dearer than 10",
        "failed_action": FAILED,
        "failed_result": failed_check(),
        "facts": Facts(values={"tables": ("customers", "products"), "n_tables": 2, "has_foreign_keys": True}),
    }
    data.update(changes)
    return GenerationRequest.model_validate(data)


def parse(text: str, **options: object) -> tuple[list[str], list[str], list[str | None], list[str]]:
    alternatives, problems = parse_alternatives(text, failed_action=FAILED, action_language="sql", **options)  # type: ignore[arg-type]
    return (
        [a.action.content for a in alternatives],
        [a.rationale for a in alternatives],
        [a.condition_text for a in alternatives],
        problems,
    )


def test_well_formed_answer_parses_exactly() -> None:
    actions, rationales, conditions, problems = parse(WELL_FORMED)
    assert actions == [
        "SELECT name FROM products WHERE price > 10",
        "SELECT name FROM products WHERE price > 1000",
        "SELECT DISTINCT name FROM products WHERE price > 10",
    ]
    assert rationales[0] == "the table is called products, not product"
    assert conditions == ['"products" in tables', 'n_tables > 3 and "products.price" in columns', "none"]
    assert problems == []


def test_messy_small_model_formatting_is_forgiven() -> None:
    messy = (
        "Sure! Here are some fixes.\n\n"
        "**Alternative 1:**\n"
        "- **Rationale:** use the plural table name\n"
        '- **Condition:** `"products" in tables`\n'
        "```\nSELECT name FROM products WHERE price > 10\n```\n"
        "## Option 2\n"
        "Condition:\n"
        "n_tables >= 2\n"
        "```SQL\nSELECT name FROM products\nWHERE price >= 10```\n"
        "Alternative #3.\n"
        "Rationale: **compare as a number**\n"
        "Condition: **none**\n"
        "~~~sql\nSELECT name FROM products WHERE CAST(price AS REAL) > 10\n~~~\n"
    )
    actions, rationales, conditions, problems = parse(messy)
    assert actions == [
        "SELECT name FROM products WHERE price > 10",
        "SELECT name FROM products\nWHERE price >= 10",
        "SELECT name FROM products WHERE CAST(price AS REAL) > 10",
    ]
    assert rationales == ["use the plural table name", "", "compare as a number"]
    assert conditions == ['`"products" in tables`', "n_tables >= 2", "none"]
    assert problems == ["alternative 2: no rationale line; left empty"]


def test_garbage_yields_nothing_and_says_why() -> None:
    for text in [
        "",
        "   ",
        "I am sorry, I cannot help with that.",
        "### Alternative 1\nRationale: x\nCondition: none\n",
    ]:
        actions, _, _, problems = parse(text)
        assert actions == []
        assert problems, text
    actions, _, _, problems = parse("### Alternative 1\n```sql\nSELECT 1\n")
    assert actions == [] and problems == ["alternative 1: an unterminated code block; dropped"]


def test_parser_never_raises_on_random_text() -> None:
    rng = random.Random(7)
    alphabet = [
        "### Alternative 1\n",
        "```sql\n",
        "```\n",
        "Condition: ",
        "Rationale: ",
        "**",
        "\n",
        "x > 1",
        "é",
    ]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        alternatives, problems = parse_alternatives(text, failed_action=FAILED, action_language="sql")
        assert len(alternatives) <= 4
        assert alternatives or problems


def test_a_block_without_action_is_dropped_and_others_kept() -> None:
    text = WELL_FORMED.replace("```sql\nSELECT name FROM products WHERE price > 1000\n```\n", "")
    actions, _, conditions, problems = parse(text)
    assert len(actions) == 2
    assert conditions == ['"products" in tables', "none"]
    assert problems == ["alternative 2: no code block with the edited action; dropped"]


def test_identical_and_duplicate_alternatives_are_dropped() -> None:
    text = (
        "### Alternative 1\nRationale: a\nCondition: none\n```sql\nSELECT  name\nFROM product WHERE price > 10\n```\n"
        "### Alternative 2\nRationale: b\nCondition: none\n```sql\nSELECT 1\n```\n"
        "### Alternative 3\nRationale: c\nCondition: none\n```sql\n  SELECT 1  \n```\n"
    )
    actions, _, _, problems = parse(text)
    assert actions == ["SELECT 1"]
    assert problems == [
        "alternative 1: identical to the failed action; dropped",
        "alternative 3: duplicate of alternative 2; dropped",
    ]


def test_at_most_four_kept_and_the_first_ones() -> None:
    text = "".join(
        f"### Alternative {i}\nRationale: r{i}\nCondition: none\n```sql\nSELECT {i}\n```\n"
        for i in range(1, 7)
    )
    actions, _, _, problems = parse(text)
    assert actions == ["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4"]
    assert problems == ["2 valid alternative(s) beyond the limit of 4; kept the first"]
    actions, _, _, _ = parse(text, max_alternatives=2)
    assert actions == ["SELECT 1", "SELECT 2"]


def test_header_lines_inside_code_are_code() -> None:
    text = (
        "### Alternative 1\nRationale: guard empty input\nCondition: none\n"
        "```python\n# Edit 1\ndef f(xs):\n    ## Alternative 2\n    return xs[0] if xs else None\n```\n"
    )
    alternatives, problems = parse_alternatives(text, failed_action=Action(content="def f(xs): return xs[0]"))
    assert problems == []
    assert [a.action.content for a in alternatives] == [
        "# Edit 1\ndef f(xs):\n    ## Alternative 2\n    return xs[0] if xs else None"
    ]


def test_without_headers_each_code_block_is_one_alternative() -> None:
    text = (
        'Rationale: plural\nCondition: "products" in tables\n```sql\nSELECT name FROM products\n```\n'
        "Rationale: cents\nCondition: none\n```sql\nSELECT name FROM products WHERE price > 1000\n```\n"
    )
    actions, rationales, conditions, problems = parse(text)
    assert actions == ["SELECT name FROM products", "SELECT name FROM products WHERE price > 1000"]
    assert rationales == ["plural", "cents"]
    assert conditions == ['"products" in tables', "none"]
    assert problems == ["no `### Alternative N` headers; read each code block as one alternative"]


def test_missing_condition_stays_none_not_universal() -> None:
    actions, _, conditions, problems = parse("### Alternative 1\nRationale: r\n```sql\nSELECT 2\n```\n")
    assert actions == ["SELECT 2"] and conditions == [None]
    assert any("no condition" in p for p in problems)


def test_request_validation() -> None:
    with pytest.raises(ValidationError):
        request(max_alternatives=5)
    with pytest.raises(ValidationError):
        request(max_alternatives=0)
    passed = CheckResult(utility=1.0, passed=True, completed=True, status="passed")
    with pytest.raises(ValidationError, match="failed actions"):
        request(failed_result=passed)


def test_prompt_lists_facts_with_values_and_the_contract() -> None:
    messages, truncated = render_generation_prompt(request())
    assert truncated == []
    system, user = messages[0].content, messages[1].content
    assert "### Alternative 1" in system and "```sql" in system and "at most 4" in system
    assert 'tables = ["customers", "products"] (2 items)' in user
    assert "n_tables = 2" in user and "has_foreign_keys = true" in user
    assert FAILED.content in user and "no such table: product" in user
    assert "status: error; utility: 0.000" in user


def test_every_field_is_cut_to_its_documented_limit() -> None:
    huge_facts = Facts(
        values={
            **{f"fact_{i:03d}": "v" * 50 for i in range(100)},
            "columns": tuple(f"t.c{i}" for i in range(500)),
            "long_text": "y" * 5000,
        }
    )
    req = request(
        situation="S" * 10 + "x" * 20_000 + "TAIL-OF-SITUATION",
        failed_action=Action(content="SELECT " + "a, " * 5000 + "b"),
        failed_result=failed_check(details="D" * 9000),
        facts=huge_facts,
    )
    messages, truncated = render_generation_prompt(req)
    user = messages[1].content
    assert truncated == ["situation", "failed_action", "check_details", "facts"]
    situation = user.split("## Situation\n", 1)[1].split("\n\n## Failed action", 1)[0]
    assert len(situation) <= SITUATION_CHAR_LIMIT and situation.endswith("TAIL-OF-SITUATION")
    assert "characters cut" in situation
    action = user.split("```sql\n", 1)[1].split("\n```", 1)[0]
    assert len(action) <= ACTION_CHAR_LIMIT and action.startswith("SELECT a, ")
    details = user.split("(1.000 means passed)\n", 1)[1].split("\n\n## Facts", 1)[0]
    assert len(details) <= DETAILS_CHAR_LIMIT
    facts = user.split("(name = current value)\n", 1)[1].split("\n\nPropose", 1)[0]
    assert len(facts) <= FACTS_CHAR_LIMIT and facts.endswith("more facts not shown)")
    text, cut = render_facts(Facts(values={"columns": tuple(f"t.c{i}" for i in range(500))}))
    assert (
        cut
        and "+" in text
        and text.endswith("(500 items)")
        and len(text) <= FACT_VALUE_CHAR_LIMIT + len("columns = ")
    )
    small = PromptLimits(situation=100, failed_action=100, check_details=50, facts=80, fact_value=40)
    messages, _ = render_generation_prompt(req, small)
    assert len(messages[1].content) < 1000


def test_generator_counts_usage_and_returns_alternatives() -> None:
    llm = ScriptedLLM([WELL_FORMED, ScriptedReply(text="no idea", reasoning="thinking hard here")])
    generator = Generator(llm, settings=GeneratorSettings.batch())
    first = generator.propose(request())
    assert len(first.alternatives) == 3 and first.problems == [] and first.raw_text == WELL_FORMED
    sent: list[Message] = llm.calls[0]
    assert first.usage == scripted_usage(sent, ScriptedReply(text=WELL_FORMED))
    assert first.usage.prompt_tokens > 100 and first.usage.completion_tokens > 30
    second = generator.propose(request(max_alternatives=2))
    assert second.alternatives == [] and second.problems
    assert second.usage.reasoning_tokens == 3
    assert generator.usage_total == first.usage + second.usage
    assert generator.calls == 2
    assert "at most 2" in llm.calls[1][0].content
    assert isinstance(generator.usage_total, Usage)


def test_backend_failure_propagates() -> None:
    generator = Generator(ScriptedLLM([LLMError("server down")]), settings=GeneratorSettings.batch())
    with pytest.raises(LLMError):
        generator.propose(request())
    assert generator.usage_total == Usage() and generator.calls == 0


def test_condition_examples_are_valid_and_true_for_the_decision() -> None:
    from countermem.core import Facts
    from countermem.memory import parse_condition
    from countermem.memory._generator import GENERIC_CONDITION_EXAMPLES, condition_examples

    facts = Facts(values={"tables": ("singer", "concert"), "n_tables": 2, "has_foreign_keys": False,
                          "db_id": "concert_singer", "weird": ('say "hi"',)})
    text = condition_examples(facts)
    examples = [part.strip().strip("`") for part in text.split("`, `")]
    assert len(examples) == 4
    for example in examples:
        assert parse_condition(example).evaluate(facts), example
    assert condition_examples(Facts(values={})) == GENERIC_CONDITION_EXAMPLES
