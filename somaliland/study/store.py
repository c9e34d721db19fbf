"""A study's results folder: Parquet chunks that are complete or absent, and a journal of finished games.

Layout of DIR:
    study.toml, manifest.json   the study as run and what identifies it (fingerprint, seed scheme)
    journal.jsonl               finished games not yet in a chunk: one JSON line each, flushed and fsynced
    chunks/NNNNNN.json          a chunk's commit mark: the (cell, game, seed, ok) it holds
    players/ contracts/ captures/ games/ errors/   part-NNNNNN.parquet, one per chunk that has rows
    .staging/                   files being written; renamed into place when closed

A chunk's Parquet files are written under .staging and renamed into their table folders, then its mark
is written the same way, then the journal is emptied. A game is done when a mark or a whole journal line
holds it. Opening the folder (every run does) removes what an interrupted chunk left behind and turns
journal lines into a chunk, skipping games already marked, so SIGKILL at any moment loses only the games
in flight and never duplicates one.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from somaliland.study.errors import StudyError
from somaliland.study.seeds import __doc__ as SEED_SCHEME
from somaliland.study.spec import Study
from somaliland.study.tables import TABLES
from somaliland.study.worker import GameOutcome

MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"


class ResultStore:
    """An open results folder: which games are done, and where finished games go."""

    def __init__(self, out: Path, chunk_games: int) -> None:
        self.out, self.chunk_games = out, chunk_games
        self.done: set[tuple[int, int]] = set()
        self.buffer: list[GameOutcome] = []
        self.journal = None

    # -- opening and recovery ------------------------------------------------------------------------
    @classmethod
    def open(cls, out: str | Path, study: Study, study_text: str, chunk_games: int = 100) -> "ResultStore":
        """Open (or create) the results folder of a study and recover from any interrupted run.

        Raises:
            StudyError: the folder holds the results of a different study definition.
        """
        out = Path(out)
        store = cls(out, chunk_games)
        manifest = out / MANIFEST
        if manifest.exists():
            old = json.loads(manifest.read_text())
            if old.get("fingerprint") != study.fingerprint:
                raise StudyError(str(out), "fingerprint", f"results of the same study definition as {study.source} "
                                 f"(only games_per_cell, name and question may change between runs); "
                                 f"use another --out", old.get("source"))
        else:
            out.mkdir(parents=True, exist_ok=True)
            _atomic_text(manifest, json.dumps({
                "name": study.name, "source": study.source,
                "base_dir": os.path.relpath(Path(study.source).resolve().parent, out.resolve()),
                "fingerprint": study.fingerprint, "master_seed": study.master_seed,
                "seed_scheme": " ".join(SEED_SCHEME.split("\n\n", 1)[1].split()),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }, indent=1))
        _atomic_text(out / "study.toml", study_text)  # the latest games_per_cell is what reports call planned
        store._recover()
        return store

    def _recover(self) -> None:
        shutil.rmtree(self.out / ".staging", ignore_errors=True)
        marks = self._marks()
        for mark in marks.values():
            self.done.update((c, g) for c, g, _, _ in json.loads(mark.read_text())["games"])
        for table in TABLES:
            for part in (self.out / table).glob("part-*.parquet"):
                if part.stem.removeprefix("part-") not in marks:  # renamed before its chunk was marked
                    part.unlink()
        journal = self.out / JOURNAL
        if journal.exists():
            for line in journal.read_text().splitlines():
                try:
                    outcome = GameOutcome(**json.loads(line))
                except (ValueError, TypeError):
                    continue  # the torn last line of a killed run: that game was in flight
                if (outcome.cell, outcome.game) not in self.done:
                    self.buffer.append(outcome)
                    self.done.add((outcome.cell, outcome.game))
        self.flush()

    def _marks(self) -> dict[str, Path]:
        return {p.stem: p for p in sorted((self.out / "chunks").glob("*.json"))}

    # -- writing -------------------------------------------------------------------------------------
    def add(self, outcome: GameOutcome) -> None:
        """Record a finished game: journaled at once, in a Parquet chunk when enough have gathered."""
        key = (outcome.cell, outcome.game)
        if key in self.done:
            return
        if self.journal is None:
            self.journal = open(self.out / JOURNAL, "a", encoding="utf-8")
        self.journal.write(json.dumps(asdict(outcome), allow_nan=True) + "\n")
        self.journal.flush()
        os.fsync(self.journal.fileno())
        self.done.add(key)
        self.buffer.append(outcome)
        if len(self.buffer) >= self.chunk_games:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games as one chunk (tables, then its mark) and empty the journal."""
        if not self.buffer:
            return
        import pandas as pd

        marks = self._marks()
        name = f"{int(max(marks)) + 1 if marks else 1:06d}"
        staging = self.out / ".staging"
        staging.mkdir(exist_ok=True)
        for table in TABLES:
            rows = [row for o in self.buffer for row in o.tables.get(table, [])]
            if rows:
                tmp = staging / f"{table}-{name}.parquet"
                pd.DataFrame(rows).to_parquet(tmp, index=False)
                (self.out / table).mkdir(exist_ok=True)
                os.replace(tmp, self.out / table / f"part-{name}.parquet")
        (self.out / "chunks").mkdir(exist_ok=True)
        mark = {"games": [[o.cell, o.game, o.seed, o.ok] for o in self.buffer]}
        _atomic_text(self.out / "chunks" / f"{name}.json", json.dumps(mark), staging)
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        open(self.out / JOURNAL, "w").close()
        self.buffer.clear()

    def close(self) -> None:
        """Flush what is buffered and close the journal."""
        self.flush()
        if self.journal is not None:
            self.journal.close()
            self.journal = None


def _atomic_text(path: Path, text: str, staging: Path | None = None) -> None:
    tmp = (staging or path.parent) / f".{path.name}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_table(out: str | Path, table: str):
    """Return one results table of a study folder as a DataFrame (empty if no game added rows to it).

    Raises:
        StudyError: the folder is not a study's results folder, or the table name is unknown.
    """
    import pandas as pd

    out = Path(out)
    if not (out / MANIFEST).exists():
        raise StudyError(str(out), MANIFEST, "a study results folder (made by `somaliland study run`)", "no manifest")
    if table not in TABLES:
        raise StudyError(str(out), "table", f"one of {', '.join(TABLES)}", table)
    marked = {p.stem for p in (out / "chunks").glob("*.json")}
    parts = sorted(p for p in (out / table).glob("part-*.parquet") if p.stem.removeprefix("part-") in marked)
    if not parts:
        return pd.DataFrame()
    return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)


def study_of(out: str | Path) -> tuple[Study, dict[str, Any]]:
    """Return the study that made a results folder (from the copy kept there) and the folder's manifest.

    Raises:
        StudyError: the folder is not a study's results folder, or its study file no longer checks.
    """
    from somaliland.study.spec import parse_study

    out = Path(out)
    manifest = read_manifest(out)
    text = (out / "study.toml").read_text(encoding="utf-8")
    return parse_study(text, str(out / "study.toml"), (out / manifest["base_dir"]).resolve()), manifest


def read_manifest(out: str | Path) -> dict[str, Any]:
    """Return a results folder's manifest.

    Raises:
        StudyError: there is none.
    """
    path = Path(out) / MANIFEST
    if not path.exists():
        raise StudyError(str(out), MANIFEST, "a study results folder (made by `somaliland study run`)", "no manifest")
    return json.loads(path.read_text())
