"""Where this project's caches are kept between processes: one folder, `$SOMALILAND_CACHE` (default
~/.cache/somaliland), each cache in a folder of its own in it (the players' surveys: `surveys/`)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """Return the folder this project's caches are kept in between processes."""
    return Path(os.environ.get("SOMALILAND_CACHE") or Path.home() / ".cache" / "somaliland")
