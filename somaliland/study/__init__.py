"""Monte Carlo balance studies: study files, a resumable runner on local processes or Dask, results, reports.

`load_study` reads a study file; `run_study` plays its games on any `concurrent.futures.Executor`;
`read_table` opens a results table; `write_report` turns a results folder into a Markdown report.
"""

from somaliland.study.errors import StudyError
from somaliland.study.seeds import game_seed
from somaliland.study.spec import Cell, SeatSpec, Study, load_study, parse_study
from somaliland.study.store import read_manifest, read_table

__all__ = ["Cell", "SeatSpec", "Study", "StudyError", "game_seed", "load_study", "parse_study", "read_manifest",
           "read_table"]
