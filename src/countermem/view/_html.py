"""HTML building blocks: escaping, tables, diffs, and the page shell with its inline CSS and JS.

Every string that comes from a record, a transcript or a config is model-written or
user-written, so it goes through `esc` (and attribute values through `attr`) before it is put
into a page: an action holding `<script>` shows as text and never runs. The pages fetch nothing:
the CSS and the few lines of JS live in the page itself.
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Iterable, Sequence

LIST_CAP = 500
"""Most rows one page lists; longer lists are paged or cut with a note, so a page stays usable."""


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def attr(value: object) -> str:
    return f'"{esc(value)}"'


def link(href: str, text: object, **data: str) -> str:
    extra = "".join(f" data-{k}={attr(v)}" for k, v in data.items())
    return f"<a href={attr(href)}{extra}>{esc(text)}</a>"


def pre(text: object, cls: str = "") -> str:
    klass = f" class={attr(cls)}" if cls else ""
    return f"<pre{klass}>{esc(text)}</pre>"


def section(title: str, body: str, *, open_: bool = True, anchor: str = "") -> str:
    """A collapsible section (`details`), open unless said otherwise."""
    where = f" id={attr(anchor)}" if anchor else ""
    return f"<details{where}{' open' if open_ else ''}><summary>{esc(title)}</summary>{body}</details>"


def table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], *, cls: str = "", row_attrs: Sequence[str] = (),
    table_id: str = "",
) -> str:
    """A table whose cells are already HTML (escape them first); `row_attrs` adds attributes per row."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for index, row in enumerate(rows):
        extra = f" {row_attrs[index]}" if index < len(row_attrs) else ""
        body.append(f"<tr{extra}>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>")
    klass = (f" id={attr(table_id)}" if table_id else "") + (f" class={attr(cls)}" if cls else "")
    return f"<table{klass}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def facts(pairs: Iterable[tuple[str, str]]) -> str:
    """A two-column table of name and value (the value already HTML)."""
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in pairs)
    return f'<table class="facts"><tbody>{rows}</tbody></table>'


def diff(before: str, after: str, *, before_name: str = "original", after_name: str = "improved") -> str:
    """A unified line diff, removed lines red and added lines green; identical texts say so."""
    lines = list(
        difflib.unified_diff(
            before.splitlines(), after.splitlines(), fromfile=before_name, tofile=after_name, lineterm="", n=3
        )
    )
    if not lines:
        return '<p class="note">the two are identical</p>'
    out = []
    for line in lines:
        kind = "meta" if line.startswith(("---", "+++", "@@")) else {"+": "add", "-": "del"}.get(line[:1], "ctx")
        out.append(f'<span class="{kind}">{esc(line)}</span>')
    return '<pre class="diff">' + "".join(out) + "</pre>"  # each line a block: no newline between


def badge(text: object, kind: str) -> str:
    return f'<span class="badge {esc(kind)}">{esc(text)}</span>'


def note(text: str) -> str:
    return f'<p class="note">{esc(text)}</p>'


def shell(title: str, body: str, *, home: str, home_href: str, script: str = "") -> str:
    """A whole HTML document: the head with inline CSS, a top bar linking home, the body, inline JS."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f'<header><a href={attr(home_href)} class="home">countermem view</a> <span>{esc(home)}</span></header>'
        f"<main>{body}</main><script>{FILTER_JS}{script}</script></body></html>\n"
    )


CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#243447;color:#fff;padding:8px 16px}header a.home{color:#fff;font-weight:600;text-decoration:none}
header span{opacity:.75;margin-left:8px}
main{padding:12px 20px;max-width:1400px}
h1{font-size:20px;margin:8px 0 12px}h2{font-size:16px}
a{color:#1a5fb4}
table{border-collapse:collapse;margin:6px 0 14px;background:#fff}
th,td{border:1px solid #d5d9e0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef1f5}
table.facts th{width:200px;font-weight:600}
pre{background:#fff;border:1px solid #d5d9e0;padding:8px;white-space:pre-wrap;word-break:break-word;max-height:480px;overflow:auto;margin:4px 0 10px}
pre.diff .add{background:#dcfce3;display:block}pre.diff .del{background:#fde2e1;display:block}
pre.diff .meta{color:#6b7280;display:block}pre.diff .ctx{display:block}
details{background:#fff;border:1px solid #d5d9e0;border-radius:4px;margin:8px 0;padding:4px 10px}
summary{cursor:pointer;font-weight:600;padding:2px 0}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:12px;color:#fff;background:#6b7280}
.badge.passed,.badge.yes{background:#1a7f37}.badge.wrong,.badge.error,.badge.no,.badge.malformed{background:#b42318}
.badge.timeout,.badge.rejected,.badge.unchecked{background:#9a6700}
.note{color:#6b7280;font-style:italic}
.retired-box{background:#fde2e1;border:1px solid #b42318;border-radius:4px;padding:8px 12px;margin:8px 0}
.retired-box b{color:#b42318;margin-right:8px}
tr.retired td{background:#f3f4f6;color:#6b7280}
.filters{background:#fff;border:1px solid #d5d9e0;padding:8px;margin:8px 0}
.filters label{margin-right:14px}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.step{border-left:4px solid #d5d9e0;padding-left:10px;margin:10px 0}
.step.llm{border-color:#1a5fb4}.step.check,.step.submit{border-color:#1a7f37}.step.advice{border-color:#9a6700}
.step.parse_error,.step.limit{border-color:#b42318}.step.reflection{border-color:#7c3aed}
.msg{margin:4px 0}.msg b{font-size:12px;text-transform:uppercase;color:#6b7280}
nav.pages a{margin-right:8px}
"""

FILTER_JS = """
function cmFilter(){
  document.querySelectorAll('.filters').forEach(function(f){
    if(f.closest('section[hidden]'))return;
    var table=document.getElementById(f.dataset.table);if(!table)return;
    var want={};f.querySelectorAll('[data-key]').forEach(function(i){want[i.dataset.key]=i.value.trim().toLowerCase();});
    var shown=0,rows=table.querySelectorAll('tbody tr');
    rows.forEach(function(r){
      var ok=true;
      for(var k in want){var v=want[k];if(!v)continue;var have=(r.dataset[k]||'').toLowerCase();
        if(f.querySelector('[data-key="'+k+'"]').tagName==='SELECT'?have!==v:have.indexOf(v)<0){ok=false;}}
      r.hidden=!ok;if(ok)shown++;});
    var count=f.querySelector('.count');if(count)count.textContent=shown+' of '+rows.length+' shown';
  });
}
document.addEventListener('input',function(e){if(e.target.closest('.filters'))cmFilter();});
document.addEventListener('change',function(e){if(e.target.closest('.filters'))cmFilter();});
"""


def filters(table_id: str, selects: dict[str, list[str]], texts: dict[str, str]) -> str:
    """Filter controls over the rows of `table_id`: a select per key (exact match) and a text box
    per key (substring); rows carry the values as `data-<key>` attributes."""
    parts = []
    for key, options in selects.items():
        opts = '<option value="">all</option>' + "".join(f"<option value={attr(o)}>{esc(o)}</option>" for o in options)
        parts.append(f"<label>{esc(key)} <select data-key={attr(key)} name={attr(key)}>{opts}</select></label>")
    for key, placeholder in texts.items():
        parts.append(
            f"<label>{esc(key)} <input type=\"search\" data-key={attr(key)} name={attr(key)} "
            f"placeholder={attr(placeholder)}></label>"
        )
    return f'<div class="filters" data-table={attr(table_id)}>{"".join(parts)}<span class="count"></span></div>'
