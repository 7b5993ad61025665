"""The pages of a run folder: its task list, and one task's steps (prompt, reply, check, record offered)."""

from __future__ import annotations

from collections.abc import Callable

from countermem.agents import MODEL_CALLS, Event, TaskOutcome, prompt_of
from countermem.llm import Message
from countermem.view._html import LIST_CAP, attr, badge, esc, facts, filters, link, note, pre, section, table
from countermem.view._ids import Links, record_id, run_id, store_id, task_id
from countermem.view._load import RunData
from countermem.view._store_pages import check_cell, pager

TASKS_TABLE = "tasks"
RecordLink = Callable[[str], str]
"""HTML for a record id: a link to its page when the run's store is known, else the bare id."""


def record_linker(run: RunData, store_key: str | None, links: Links) -> RecordLink:
    def make(rid: str) -> str:
        if store_key is None:
            return f"<code>{esc(rid)}</code>"
        return link(links.href(record_id(store_key, rid)), rid, record=rid)

    return make


def run_page(
    run: RunData, key: str, links: Links, *, store_key: str | None, up: tuple[str, str] | None = None, page: int = 1
) -> tuple[str, str]:
    config = run.config
    solved = sum(o.solved for o in run.outcomes)
    records = record_linker(run, store_key, links)
    store = (
        link(links.href(store_id(store_key)), str(run.store)) if store_key is not None and run.store is not None
        else note("no store known for this run (none named in stage.json or inside the folder; give --store)")
    )
    summary = facts([
        ("folder", esc(run.path)),
        ("benchmark", esc(config.get("benchmark", "?"))),
        ("backbone / model", esc(f"{config.get('backbone', '?')} / {config.get('model', '?')}")),
        ("stage / method", esc(f"{config.get('stage', '?')} / {config.get('method') or '–'}")),
        ("agent", esc(config.get("agent", "?"))),
        ("split / seed", esc(f"{config.get('split', '?')} / {config.get('seed', '?')}")),
        ("started", esc(run.manifest.get("started_at", "?"))),
        ("git commit", esc(run.manifest.get("git_commit", "?"))),
        ("tasks", f"{len(run.outcomes)} finished, {solved} solved"
         + (f", {len(run.unfinished)} unfinished" if run.unfinished else "")),
        ("memory store", store),
    ])
    pages = max(1, -(-len(run.outcomes) // LIST_CAP))
    page = min(max(page, 1), pages)
    shown = run.outcomes[(page - 1) * LIST_CAP : page * LIST_CAP]
    admitted = run.admitted
    rows = [_task_row(o, key, links, records, None if admitted is None else admitted.get(o.task_id, [])) for o in shown]
    body = [f"<h1>Run {esc(run.path.name)}</h1>"]
    if up is not None:
        body.append(f"<p>{link(up[0], up[1])}</p>")
    body += [summary, f"<h2>Tasks ({len(run.outcomes)})</h2>"]
    if pages > 1:
        body.append(note(f"tasks {(page - 1) * LIST_CAP + 1}-{(page - 1) * LIST_CAP + len(shown)} of {len(run.outcomes)}"))
        body.append(pager(pages, page, lambda n: links.href(run_id(key, n))))
    row_attrs = [
        f"data-solved={attr('yes' if o.solved else 'no')} data-status={attr(o.final_status)} "
        f"data-task={attr(o.task_id)} data-record={attr(' '.join(o.advice_record_ids))}"
        for o in shown
    ]
    controls = filters(
        TASKS_TABLE, {"solved": ["no", "yes"], "status": sorted({o.final_status for o in shown})},
        {"task": "text in the task id", "record": "id of a record offered"},
    )
    body.append(controls + table(
        ["task", "solved", "utility", "status", "steps", "trials", "evaluator calls", "records offered",
         *([] if admitted is None else ["records admitted"]), "stop"],
        rows, cls="tasks", row_attrs=row_attrs, table_id=TASKS_TABLE,
    ) if shown else note("no task finished yet"))
    if run.unfinished:
        items = "".join(f"<li>{link(links.href(task_id(key, t)), t)}</li>" for t in run.unfinished[:LIST_CAP])
        body.append(section(f"Unfinished tasks ({len(run.unfinished)})", f"<ul>{items}</ul>"))
    if run.stage:
        body.append(section("Stage report (stage.json)", facts((k, esc(v)) for k, v in run.stage.items()), open_=False))
    body.append(section("Config", facts((k, esc(v)) for k, v in config.items()), open_=False))
    return f"run {run.path.name}", "".join(body)


def _task_row(
    o: TaskOutcome, key: str, links: Links, records: RecordLink, admitted: list[str] | None
) -> list[str]:
    offered = ", ".join(records(r) for r in dict.fromkeys(o.advice_record_ids)) or "–"
    return [
        link(links.href(task_id(key, o.task_id)), o.task_id, task=o.task_id),
        badge("yes" if o.solved else "no", "yes" if o.solved else "no"),
        f"{o.final_utility:.3f}", esc(o.final_status), str(o.steps), str(o.trials), str(o.evaluator_calls),
        offered, *([] if admitted is None else [", ".join(records(r) for r in admitted) or "–"]),
        esc(o.stop_reason),
    ]


def task_page(
    run: RunData, key: str, task: str, links: Links, *, store_key: str | None
) -> tuple[str, str]:
    events, unreadable = run.transcript(task)
    outcome = next((o for o in run.outcomes if o.task_id == task), None)
    records = record_linker(run, store_key, links)
    body = [f"<h1>Task {esc(task)}</h1><p>{link(links.href(run_id(key)), f'← run {run.path}')}</p>"]
    if outcome is not None:
        body.append(facts([
            ("solved", badge("yes" if outcome.solved else "no", "yes" if outcome.solved else "no")),
            ("final", esc(f"{outcome.final_status}, utility {outcome.final_utility:.3f}")),
            ("steps / trials", f"{outcome.steps} / {outcome.trials}"),
            ("evaluator calls / failed attempts", f"{outcome.evaluator_calls} / {outcome.failed_attempts}"),
            ("tokens (prompt + completion)", f"{outcome.usage.prompt_tokens} + {outcome.usage.completion_tokens}"),
            ("records offered", ", ".join(records(r) for r in outcome.advice_record_ids) or "none"),
            ("stop", esc(outcome.stop_reason)),
        ]))
    if run.admitted is not None:
        admitted = ", ".join(records(r) for r in run.admitted.get(task, [])) or "none"
        body.append(f'<p class="admitted">records admitted from this task: {admitted}</p>')
    else:
        body.append(note("this task has no result line (unfinished)"))
    if unreadable:
        body.append(note(f"{unreadable} line(s) of the transcript do not read as events and are left out"))
    if not events:
        body.append(note("no transcript for this task"))
    elif not any(e.messages for e in events if e.kind in MODEL_CALLS):
        body.append(note("this transcript did not record prompts (written before transcripts kept them)"))
    body += [_event(events, i, records) for i in range(len(events))]
    return f"task {task}", "".join(body)


def _messages(messages: list[Message]) -> str:
    return "".join(f'<div class="msg"><b>{esc(m.role)}</b>{pre(m.content)}</div>' for m in messages)


def _event(events: list[Event], index: int, records: RecordLink) -> str:
    e = events[index]
    head = f"<h2>step {e.step} · trial {e.trial} · {esc(e.kind)}</h2>"
    parts = [head]
    if e.kind in MODEL_CALLS:
        if e.messages is not None:
            whole = prompt_of(events, index) or []
            parts.append(section(f"prompt: {len(e.messages)} new message(s)", _messages(e.messages)))
            if len(whole) > len(e.messages):
                parts.append(section(f"whole prompt ({len(whole)} messages)", _messages(whole), open_=False))
        usage = f" · {e.usage.prompt_tokens} + {e.usage.completion_tokens} tokens" if e.usage else ""
        parts.append(f"<p><b>reply</b>{' (cached)' if e.cached else ''}{esc(usage)}</p>{pre(e.text)}")
    elif e.kind in ("check", "submit"):
        if e.action is not None:
            parts.append(pre(e.action.content, "action"))
        parts.append(check_cell(e.result))
        if e.text:
            parts.append(note(e.text))
    elif e.kind == "advice":
        offered = records(e.record_id) if e.record_id else "no record"
        parts.append(f'<p class="offered">record offered: {offered}</p>')
        if e.text:
            parts.append(pre(e.text))
    else:
        parts.append(pre(e.text) if e.text else "")
    return f'<div class="step {esc(e.kind)}">{"".join(parts)}</div>'
