import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from countermem.cli._memory import memory_app
from countermem.core import Action, CheckResult
from countermem.memory import Record, RecordSource, SQLiteStore, file_sha256

runner = CliRunner()


def make(
    i: int, *, domain: str = "sql", benchmark: str = "spider", gain: float = 1.0, **extra: object
) -> Record:
    return Record.model_validate(
        {
            "domain": domain,
            "benchmark": benchmark,
            "situation": f"Question {i}: how many [bold]users[/bold]?\nSchema: users(id, name)",
            "original_action": Action(content=f"SELECT count(*)\nFROM user{i}"),
            "improved_action": Action(content=f"SELECT count(*)\nFROM users{i}"),
            "original_check": CheckResult(
                utility=0.0, passed=False, completed=True, status="error", details="no such table"
            ),
            "improved_check": CheckResult(utility=gain, passed=gain == 1.0, completed=True, status="passed"),
            "condition": '"users" in tables',
            "rationale": "the table name is plural",
            "source": RecordSource(task_id=f"{benchmark}-{i}", benchmark=benchmark),
            **extra,
        }
    )


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "memory.db"
    with SQLiteStore(path, capacity=3) as store:
        store.add(make(0, gain=0.2))
        store.add(make(1, benchmark="bird"))
        store.add(make(2, domain="smt", benchmark="smtlib", condition="none", situation="x" * 5000))
        store.add(make(3))
        store.update_counters(make(1, benchmark="bird").id, retrieved=4, selected=3, succeeded=2, harmed=1)
    return path


def test_list_shows_records_and_filters(store_path: Path) -> None:
    result = runner.invoke(memory_app, ["list", str(store_path)])
    assert result.exit_code == 0, result.output
    for i, benchmark in ((1, "bird"), (3, "spider")):
        assert make(i, benchmark=benchmark).id in result.output
    assert make(0, gain=0.2).id not in result.output  # evicted by the utility rule
    assert "3/2/1" in result.output
    assert "3 of 3 records" in result.output
    only_sql = runner.invoke(memory_app, ["list", str(store_path), "--domain", "sql", "--limit", "1"])
    assert only_sql.exit_code == 0
    assert "1 of 3 records" in only_sql.output
    assert make(1, benchmark="bird").id in only_sql.output
    assert make(3).id not in only_sql.output


def test_show_prints_everything_a_person_needs(store_path: Path) -> None:
    record = make(1, benchmark="bird")
    result = runner.invoke(memory_app, ["show", str(store_path), record.id[:8] + record.id[8:12]])
    assert result.exit_code == 0, result.output
    out = result.output
    assert record.id in out and "version 2" in out
    assert "-FROM user1" in out and "+FROM users1" in out
    assert '"users" in tables' in out
    assert "[bold]users[/bold]" in out  # shown literally, not as markup
    assert "task bird-1" in out and "stage construct" in out
    assert "retrieved 4, selected 3, succeeded 2, harmed 1" in out
    assert "no such table" in out and "passed" in out
    assert "the table name is plural" in out


def test_show_marks_truncated_and_evicted_records(store_path: Path) -> None:
    truncated = runner.invoke(
        memory_app, ["show", str(store_path), make(2, domain="smt", benchmark="smtlib", condition="none").id]
    )
    assert "situation (truncated)" in truncated.output
    evicted = runner.invoke(memory_app, ["show", str(store_path), make(0, gain=0.2).id])
    assert evicted.exit_code == 0 and "EVICTED" in evicted.output


def test_show_unknown_id_fails_with_a_message(store_path: Path) -> None:
    result = runner.invoke(memory_app, ["show", str(store_path), "r-nope"])
    assert result.exit_code == 1
    assert "no record 'r-nope'" in result.output
    ambiguous = runner.invoke(memory_app, ["show", str(store_path), "r-"])
    assert ambiguous.exit_code == 1 and "matches 3 records" in ambiguous.output


def test_stats(store_path: Path) -> None:
    result = runner.invoke(memory_app, ["stats", str(store_path), "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["count"] == 3 and stats["capacity"] == 3
    assert stats["evictions_by_reason"] == {"lowest-utility": 1}
    assert stats["by_domain"] == {"smt": 1, "sql": 2}
    assert stats["universal_conditions"] == 1
    table = runner.invoke(memory_app, ["stats", str(store_path)])
    assert table.exit_code == 0 and "lowest-utility: 1" in table.output and "3 / capacity 3" in table.output


def test_export_and_freeze(store_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "records.jsonl"
    result = runner.invoke(memory_app, ["export", str(store_path), str(out)])
    assert result.exit_code == 0 and "wrote 3 records" in result.output
    assert len([Record.model_validate_json(line) for line in out.read_text().splitlines()]) == 3
    frozen = tmp_path / "frozen.db"
    result = runner.invoke(memory_app, ["freeze", str(store_path), str(frozen)])
    assert result.exit_code == 0, result.output
    assert f"sha256 {file_sha256(frozen)}" in result.output
    listed = runner.invoke(memory_app, ["list", str(frozen)])
    assert listed.exit_code == 0 and make(3).id in listed.output
    again = runner.invoke(memory_app, ["freeze", str(store_path), str(frozen)])
    assert again.exit_code == 1 and "already exists" in again.output


def test_missing_store_fails_with_a_message(tmp_path: Path) -> None:
    result = runner.invoke(memory_app, ["list", str(tmp_path / "absent.db")])
    assert result.exit_code == 1
    assert "no memory store" in result.output


def _one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code not in (0, None) and isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    return str(lines[0])


def test_export_to_an_unwritable_destination_is_one_line(store_path: Path, tmp_path: Path) -> None:
    # Tests run as root, where chmod does not stop a write; a folder as the destination fails for root too.
    folder = tmp_path / "a-folder"
    folder.mkdir()
    line = _one_line_error(runner.invoke(memory_app, ["export", str(store_path), str(folder)]))
    assert "a-folder" in line and "writable" in line


def test_a_store_without_its_records_table_is_one_line(store_path: Path) -> None:
    import sqlite3

    with sqlite3.connect(store_path) as conn:
        conn.execute("DROP TABLE records")
    for command in ("list", "stats"):
        line = _one_line_error(runner.invoke(memory_app, [command, str(store_path)]))
        assert "records" in line and str(store_path) in line


# --- issue 19: no store destroyed by an export, no terminal driven by a record --------------------


def test_export_refuses_an_existing_file_and_never_writes_over_the_store(store_path: Path, tmp_path: Path) -> None:
    store_bytes = store_path.read_bytes()
    notes = tmp_path / "notes.jsonl"
    notes.write_text("keep me\n")
    line = _one_line_error(runner.invoke(memory_app, ["export", str(store_path), str(notes)]))
    assert "already exists" in line and "--force" in line
    assert notes.read_text() == "keep me\n"
    for args in (["export", str(store_path), str(store_path)], ["export", str(store_path), str(store_path), "--force"]):
        result = runner.invoke(memory_app, args)
        assert result.exit_code == 1, result.output
    assert "over itself" in result.output
    assert store_path.read_bytes() == store_bytes
    listed = runner.invoke(memory_app, ["list", str(store_path)])
    assert listed.exit_code == 0 and "3 of 3 records" in listed.output
    forced = runner.invoke(memory_app, ["export", str(store_path), str(notes), "--force"])
    assert forced.exit_code == 0 and "wrote 3 records" in forced.output
    assert len(notes.read_text().splitlines()) == 3


HOSTILE = "clear\x1b[2J title\x1b]0;owned\x07 over\rwrite c1\x9b2J"


def test_record_text_cannot_drive_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "hostile.db"
    record = make(
        7,
        situation=f"situation {HOSTILE}",
        rationale=f"rationale {HOSTILE}",
        original_action=Action(content=f"SELECT 1 -- {HOSTILE}"),
        improved_action=Action(content=f"SELECT 2 -- {HOSTILE}"),
        original_check=CheckResult(utility=0.0, passed=False, completed=True, status="error", details=HOSTILE),
        benchmark=f"spider{HOSTILE}",
        source=RecordSource(task_id=f"task {HOSTILE}", benchmark=f"spider{HOSTILE}"),
    )
    with SQLiteStore(path) as store:
        store.add(record)
    for command in (["show", str(path), record.id], ["list", str(path)], ["stats", str(path)]):
        result = runner.invoke(memory_app, command)
        assert result.exit_code == 0, result.output
        assert not any((ord(ch) < 0x20 and ch not in "\n\t") or 0x7F <= ord(ch) <= 0x9F for ch in result.output)
        assert "\\x1b" in result.output
    shown = runner.invoke(memory_app, ["show", str(path), record.id]).output
    assert "\\x1b[2J" in shown and "\\x1b]0;owned\\x07" in shown and "over\\x0dwrite" in shown


def test_list_and_stats_report_a_quarantined_record_and_show_the_rest(store_path: Path) -> None:
    import sqlite3

    victim = make(3).id
    with sqlite3.connect(store_path) as conn:
        body = json.loads(conn.execute("SELECT body FROM records WHERE id = ?", (victim,)).fetchone()[0])
        deep = "(" * 300 + "n_vars > 1" + ")" * 300
        body["condition"] = {"source": deep, "canonical": deep}
        conn.execute("UPDATE records SET body = ? WHERE id = ?", (json.dumps(body), victim))
    listed = runner.invoke(memory_app, ["list", str(store_path)])
    assert listed.exit_code == 0, listed.output
    assert "2 of 2 records" in listed.output and make(1, benchmark="bird").id in listed.output
    assert f"record {victim} cannot be read" in listed.output and "nested too deeply" in listed.output
    stats = runner.invoke(memory_app, ["stats", str(store_path)])
    assert stats.exit_code == 0 and victim in stats.output and "quarantined" in stats.output
    as_json = json.loads(runner.invoke(memory_app, ["stats", str(store_path), "--json"]).stdout)
    assert list(as_json["quarantined"]) == [victim]
    shown = runner.invoke(memory_app, ["show", str(store_path), victim])
    assert shown.exit_code == 1 and "quarantined" in shown.output
def test_show_prints_provenance_and_redactions(tmp_path: Path) -> None:
    from countermem.memory import Provenance

    path = tmp_path / "p.db"
    record = make(
        7,
        provenance=Provenance(
            proposing_model="openai:qwen-1.5b", agent_model="local:qwen-0.5b", agent_weights="ab" * 32,
            checker="sqlite3", checker_version="3.40.1", data_sha256="cd" * 32,
            countermem_version="0.1.0", git_commit="f9a4e25", environment="concert_singer",
        ),
        redactions={"e-mail": 2, "AWS Access Key": 1},
    )
    with SQLiteStore(path) as store:
        store.add(record)
    out = runner.invoke(memory_app, ["show", str(path), record.id], env={"COLUMNS": "200"}).output
    for text in ("provenance", "openai:qwen-1.5b", "local:qwen-0.5b", "ab" * 32, "sqlite3 3.40.1",
                 "cd" * 32, "0.1.0 (commit f9a4e25)", "concert_singer", "e-mail: 2", "AWS Access Key: 1"):
        assert text in out, text
    stats = runner.invoke(memory_app, ["stats", str(path)]).output
    assert "secrets redacted" in stats and "AWS Access Key: 1, e-mail: 2" in stats


def test_show_of_a_record_stored_before_provenance_says_unknown(store_path: Path) -> None:
    import sqlite3

    record = make(3)
    body = json.loads(record.model_dump_json())
    del body["provenance"], body["redactions"]
    with sqlite3.connect(store_path) as conn:
        conn.execute("UPDATE records SET body = ? WHERE id = ?", (json.dumps(body), record.id))
    result = runner.invoke(memory_app, ["show", str(store_path), record.id])
    assert result.exit_code == 0, result.output
    assert "checker" in result.output and "unknown unknown" in result.output
    assert "secrets redacted  none" in result.output


def test_show_prints_the_lesson_its_check_and_control(tmp_path: Path, store_path: Path) -> None:
    from countermem.memory import Lesson

    failed = CheckResult(utility=0.0, passed=False, completed=True, status="wrong")
    lesson = Lesson(
        text="When counting people through a join, count distinct ids.", verified=False,
        reason="the agent fixes it without the lesson (the control gained 1.000)",
        writer="local:qwen2.5-coder-1.5b", verifier="local:qwen2.5-coder-0.5b",
        check=CheckResult(utility=1.0, passed=True, completed=True, status="passed"),
        control=failed.model_copy(update={"utility": 1.0, "passed": True, "status": "passed"}),
        scrubbed=["customers"],
    )
    path = tmp_path / "l.db"
    record = make(8, lesson=lesson)
    with SQLiteStore(path) as store:
        store.add(record)
    out = runner.invoke(memory_app, ["show", str(path), record.id], env={"COLUMNS": "200"}).output
    for text in ("lesson", "count distinct ids", "no: the agent fixes it without the lesson",
                 "passed, utility 1.000", "customers", "local:qwen2.5-coder-1.5b / local:qwen2.5-coder-0.5b"):
        assert text in out, text
    plain = runner.invoke(memory_app, ["show", str(store_path), make(3).id], env={"COLUMNS": "200"}).output
    assert "control (no lesson)" not in plain, "a record without a lesson shows no lesson panel"
