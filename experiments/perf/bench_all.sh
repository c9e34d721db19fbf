#!/usr/bin/env bash
# The README's Performance figures, measured in one run so that their ratios compare (the machine is shared
# and noisy). Optionally the same benchmarks for an older commit, in a worktree, interleaved with the new.
#
#   experiments/perf/bench_all.sh [OLD_COMMIT] > bench.log     # from the repository, after `make setup`
#
# Takes about 8 minutes on 2 cores (8 more games and a study per old commit). Run it on a quiet machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S="$ROOT/.venv/bin/somaliland"
OLD=${1:-}
[ -x "$S" ] || { echo "bench_all.sh: $S is missing: run 'make setup' first" >&2; exit 2; }
# run from /tmp with PYTHONPATH, so the code measured is the tree named, not the current directory's
at() { local tree=$1; shift; echo "=== $(git -C "$tree" rev-parse --short HEAD): somaliland $*"; (cd /tmp && PYTHONPATH="$tree" "$S" "$@"); }
if [ -n "$OLD" ]; then
  OLD_TREE=$(mktemp -d /tmp/bench-old.XXXXXX)
  git -C "$ROOT" worktree add --detach "$OLD_TREE" "$OLD" >/dev/null
  trap 'git -C "$ROOT" worktree remove --force "$OLD_TREE"' EXIT
fi
date -u
at "$ROOT" bench game --games 8
[ -n "$OLD" ] && at "$OLD_TREE" bench game --games 8
at "$ROOT" bench study --games 24
[ -n "$OLD" ] && at "$OLD_TREE" bench study --games 24
at "$ROOT" bench study --games 24 --players 3
at "$ROOT" bench study --games 24 --players 2
at "$ROOT" bench study --games 24 --rate-hz 480
at "$ROOT" bench game --games 8 --world per_game
at "$ROOT" bench study --games 24 --world per_game
at "$ROOT" bench study --games 24
at "$ROOT" bench roll --throws 400
date -u
