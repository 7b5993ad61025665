"""Secrets in a trajectory never reach the store file or a prompt; the checks still see them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from countermem.baselines import UnverifiedAdmitter
from countermem.core import Action, CheckResult, Cost, Facts, Task, Usage
from countermem.domains import State
from countermem.memory import Admitter, Record, SecretRedactor, SQLiteStore, render_record
from countermem.memory._generator import Alternative, Proposal

AWS_KEY = "AKIAQ4XR7TZ2PLMN3VBW"
PASSWORD = "Tr0ub4dor-and-3"
GITHUB_TOKEN = "ghp_Zq8Xw1Lm4Np7Rs0Tv3Yb6Cd9Ef2Gh5Jk8LmQ"
BEARER = "d41e8c9a7b3f46c2a1e5"
EMAIL = "dana.lee@example-corp.com"
SECRETS = (AWS_KEY, PASSWORD, GITHUB_TOKEN, BEARER, EMAIL)

TASK = Task(
    id="leaky-1", benchmark="toy", domain="toy",
    prompt=f"Reach u=1. Questions go to {EMAIL}.", environment="db-7",
)
SITUATION = (
    f"Task: reach u=1. Questions go to {EMAIL}.\n"
    f"Observation: env AWS_ACCESS_KEY_ID={AWS_KEY}\n"
    f"Observation: curl -H 'Authorization: Bearer {BEARER}' https://api.internal/v1\n"
    "Action: u=0.2"
)
FAILED = Action(content=f'u=0.2\npassword = "{PASSWORD}"\ngit clone https://{GITHUB_TOKEN}@github.com/o/r')
IMPROVED = Action(content=f"u=1\nnotify {EMAIL}")


class ScoreWorldModel:
    """Judges `u=<utility>` actions and remembers every action it was asked to check."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    def reset(self, task: Task) -> State:
        return State(task_id=task.id, payload=0)

    def snapshot(self) -> State:
        return State(task_id=TASK.id, payload=0)

    def restore(self, state: State) -> None:
        pass

    def check(self, action: Action) -> CheckResult:
        self.checked.append(action.content)
        match = re.search(r"u=([0-9.]+)", action.content)
        utility = float(match.group(1)) if match else 0.0
        return CheckResult(
            utility=utility, passed=utility == 1.0, completed=True,
            status="passed" if utility == 1.0 else "wrong",
            details=f"sent to {EMAIL}", cost=Cost(calls=1),
        )


def _admit(admitter: Admitter | UnverifiedAdmitter, wm: ScoreWorldModel) -> Record:
    failed = CheckResult(
        utility=0.2, passed=False, completed=True, status="wrong", details=f"login {PASSWORD} refused"
    )
    report = admitter.verify_and_admit(
        task=TASK, world_model=wm, state=State(task_id=TASK.id, payload=0),
        failed_action=FAILED, failed_result=failed,
        proposal=Proposal(
            alternatives=[Alternative(action=IMPROVED, rationale=f"mail {EMAIL} first", condition_text="none")],
            usage=Usage(), raw_text="",
        ),
        facts=Facts(), situation=SITUATION,
    )
    assert report.record is not None
    return report.record


def _store_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    wal = Path(f"{path}-wal")
    return data + (wal.read_bytes() if wal.exists() else b"")


@pytest.mark.parametrize("kind", ["verified", "unverified"])
def test_planted_secrets_never_reach_the_store_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "store.sqlite"
    wm = ScoreWorldModel()
    with SQLiteStore(path) as store:
        admitter = Admitter(store) if kind == "verified" else UnverifiedAdmitter(store)
        record = _admit(admitter, wm)
        raw = _store_bytes(path)  # while open: the WAL still holds the admission
    raw += _store_bytes(path)
    for secret in SECRETS:
        assert secret.encode() not in raw, f"{secret} reached the store file"
    for placeholder in (b"<SECRET:AWS Access Key>", b"<SECRET:password>", b"<SECRET:GitHub Token>",
                        b"<SECRET:bearer token>", b"<SECRET:e-mail>"):
        assert placeholder in raw
    assert record.redactions["AWS Access Key"] == 1 and record.redactions["GitHub Token"] == 1
    assert record.redactions["bearer token"] == 1 and record.redactions["password"] >= 1
    # e-mail: situation, improved action, rationale, task brief, check details
    assert record.redactions["e-mail"] >= 4
    if kind == "verified":
        assert IMPROVED.content in wm.checked  # the world model judged the real action, secret and all
        assert record.improved_check.utility == 1.0


def test_a_prompt_rendered_from_the_record_carries_no_secret(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "store.sqlite") as store:
        record = _admit(Admitter(store), ScoreWorldModel())
        stored = store.get(record.id)
    for rendering in ("correction", "lesson"):
        prompt = render_record(stored, "text", show_task=True, last_action=FAILED, rendering=rendering)
        assert "<SECRET:" in prompt
        assert not any(secret in prompt for secret in SECRETS), prompt


def test_stats_count_redactions_by_kind(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "store.sqlite") as store:
        record = _admit(Admitter(store), ScoreWorldModel())
        stats = store.stats()
    assert stats.redactions == record.redactions and stats.redactions["GitHub Token"] == 1


def test_redaction_can_be_switched_off(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "store.sqlite") as store:
        record = _admit(Admitter(store, redact=False), ScoreWorldModel())
    assert AWS_KEY in record.situation and record.redactions == {}


def test_redaction_is_idempotent_and_leaves_ordinary_actions_alone() -> None:
    redactor = SecretRedactor()
    once = redactor.redact(SITUATION + "\n" + FAILED.content)
    again = redactor.redact(once.text)
    assert again.text == once.text and not again.counts
    ordinary = [
        "SELECT name FROM users WHERE email LIKE '%@example.com' AND id = 'deadbeef12345678'",
        "def check(password: str) -> bool:\n    password = password.strip()\n    return len(password) > 8",
        "(assert (= x #b1010))\n(check-sat)",
        "p cnf 3 2\n1 -2 0\n2 3 0",
        "y = a @ b.T\n@property\ndef f(self): return self.x@self.weights.mean()",
    ]
    for text in ordinary:
        result = redactor.redact(text)
        assert result.text == text and not result.counts, result


def test_a_partial_hit_is_widened_to_the_whole_token() -> None:
    # detect-secrets reports only the `ghp` prefix of a GitHub token
    result = SecretRedactor().redact(f"token {GITHUB_TOKEN} end")
    assert result.text == "token <SECRET:GitHub Token> end"


def test_a_private_key_block_is_removed_whole() -> None:
    text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x\nq9Zr==\n-----END RSA PRIVATE KEY-----\nok"
    assert SecretRedactor().redact(text).text == "key:\n<SECRET:private key>\nok"


def test_without_detect_secrets_redaction_refuses_instead_of_storing_unscanned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from countermem.core import ConfigError

    monkeypatch.setitem(sys.modules, "detect_secrets.core.plugins.util", None)  # import fails
    with SQLiteStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(ConfigError, match=r"detect-secrets.*redact = false"):
            Admitter(store)
        assert Admitter(store, redact=False).redactor is None


def test_the_public_learn_path_stamps_and_redacts_and_its_advice_carries_no_secret(tmp_path: Path) -> None:
    from countermem.core import Decision
    from countermem.domains import CheckerInfo
    from countermem.llm import Message, ScriptedLLM
    from countermem.memory import learn, open_memory

    class PriceWorld:
        def reset(self, task: Task) -> State:
            self.task = task
            return State(task_id=task.id, payload=task)

        def snapshot(self) -> State:
            return State(task_id=self.task.id, payload=self.task)

        def restore(self, state: State) -> None:
            self.task = state.payload

        def check(self, action: Action) -> CheckResult:
            ok = action.content.strip() == self.task.gold
            return CheckResult(utility=float(ok), passed=ok, completed=True, status="passed" if ok else "wrong")

    def propose(messages: list[Message]) -> str:
        return f"### Alternative 1\nRationale: add 20% tax; ask {EMAIL}\nCondition: taxed\n```text\n12.00\n```"

    memory = open_memory(tmp_path / "m.sqlite", action_language="text", embedder="lexical")
    world, facts = PriceWorld(), Facts(values={"taxed": True})
    task = Task(id="price-0", benchmark="prices", domain="shop", gold="12.00",
                prompt=f"Gross price of an item costing 10? (token {GITHUB_TOKEN})")
    state = world.reset(task)
    report = learn(
        memory, ScriptedLLM(propose, model="gen"), task=task, world_model=world, state=state,
        failed_action=Action(content="10.00"), failed_result=world.check(Action(content="10.00")),
        facts=facts, situation=f"{task.prompt}\nAWS_ACCESS_KEY_ID={AWS_KEY}",
        agent=ScriptedLLM([], model="agent"), checker=CheckerInfo("python", "3.11", "packaged"),
    )
    assert report.record is not None
    p = report.record.provenance
    assert (p.proposing_model, p.agent_model, p.checker) == ("scripted:gen", "scripted:agent", "python")
    assert {"e-mail", "GitHub Token", "AWS Access Key"} <= report.record.redactions.keys()
    other = Task(id="price-1", benchmark="prices", domain="shop", prompt="Gross price of an item costing 20?")
    advice = memory.advise(Decision(task=other, situation=other.prompt, facts=facts))
    assert advice is not None and "12.00" in advice.text and "<SECRET:" in advice.text
    assert not any(secret in advice.text for secret in SECRETS)
