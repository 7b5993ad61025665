"""Scoped stages on the SIMULATED bed: a team-b run never sees team-a's records, in any file it writes.

Team a builds records on sql-shop; team b then builds its own into the same store with advice
from earlier records on (construct_advice = top1) and evaluates: nothing of team a's records
reaches b's prompts, transcripts, results, metrics or report (`report.md`), and b's coverage is
zero until team a's scope is shared with it.
"""

from pathlib import Path

from countermem.domains import load_benchmark
from countermem.experiment import RunConfig, RunDir, simulated_llm_for
from countermem.experiment._stages import MemorySettings, construct_memory, evaluate_memory
from countermem.memory import ScopeAccess, SQLiteStore

BASE = {"benchmark": "sql-shop", "backbone": "simulated", "model": "simulated"}


def _files_text(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in sorted(folder.rglob("*")) if p.is_file()
                     and p.suffix in (".json", ".jsonl", ".md", ".txt", ""))


def test_a_team_b_run_never_reads_team_a_records(tmp_path: Path) -> None:
    bench = load_benchmark("sql-shop")
    tasks = bench.tasks()
    wholesale = [t for t in tasks if t.environment == "shop_wholesale"][:10]
    llm = simulated_llm_for(bench, tasks, universal_rate=0.3, seed=0)
    settings = MemorySettings(store=tmp_path / "store.sqlite", embedder="lexical", selector="top1",
                              record_scope="team-a")
    built = construct_memory(RunConfig(split="construct", **BASE), settings, llm, bench, wholesale,
                             RunDir(tmp_path / "construct-a"), simulated=True)
    assert built.report.construction_admitted >= 5
    with SQLiteStore(settings.store, read_only=True) as store:
        a_ids = [r.id for r in store.all()]
        assert {r.scope for r in store.all()} == {"team-a"}

    team_b = settings.model_copy(update={"record_scope": "team-b", "construct_advice": "top1"})
    construct_memory(RunConfig(split="construct", **BASE), team_b, llm, bench, wholesale[5:],
                     RunDir(tmp_path / "construct-b"), simulated=True)
    alone = evaluate_memory(RunConfig(split="heldout", **BASE), team_b, llm, bench, wholesale,
                            RunDir(tmp_path / "eval-b"), simulated=True)
    with SQLiteStore(settings.store, read_only=True, access=ScopeAccess.of("team-b")) as store:
        b_ids = {r.id for r in store.all()}
    assert b_ids and not b_ids & set(a_ids)
    assert alone.report.records_selected > 0
    for run in ("construct-b", "eval-b"):
        text = _files_text(tmp_path / run)
        assert not [i for i in a_ids if i in text], run
        assert "team-a" not in text
    shared = evaluate_memory(RunConfig(split="heldout", **BASE),
                             team_b.model_copy(update={"readable_scopes": ("team-a",)}), llm, bench, wholesale,
                             RunDir(tmp_path / "eval-b-shared"), simulated=True)
    text = _files_text(tmp_path / "eval-b-shared")
    assert any(i in text for i in a_ids)  # the check above can fail: a shared scope does show up
    assert shared.report.retrieval_attempts > 0
