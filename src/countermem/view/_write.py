"""Writing every page of a site into one self-contained HTML file."""

from __future__ import annotations

import os
from pathlib import Path

from countermem.core import ConfigError
from countermem.view._site import Site


def write_html(site: Site, out: Path, *, overwrite: bool = False) -> Path:
    """Write the site to `out` (whole or not at all: written beside it, then renamed)."""
    if out.is_dir():
        raise ConfigError(f"--out {out} is a folder; give the path of the HTML file to write")
    if not out.parent.is_dir():
        raise ConfigError(f"cannot write {out}: folder {out.parent} does not exist")
    if out.exists() and not overwrite:
        raise ConfigError(f"{out} already exists; give a new path, or pass --force to replace it")
    partial = out.with_name(f".{out.name}.partial")
    try:
        partial.write_text(site.single_file(), encoding="utf-8")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return out
