#!/usr/bin/env bash
# Calibrates the audit's overlap rules on public data: converts TREC DL 2020 (real queries +
# judged passages) and XQuAD (crowd questions beside their paragraph) into test sets and corpora
# under OUT (default: a temp dir; never inside the repo), audits both, and prints the share of
# each set every overlap rule flags — the calibration table in docs/benchmarks.md.
#
# usage: scripts/calibrate-audit.sh [OUT]   (data: $RAGSYNTH_SHARED_DATA or ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
export RAGSYNTH_SHARED_DATA="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}"
export RAGSYNTH_CALIBRATION_OUT="$out"
cargo test --release --test audit_calibration -- --nocapture 2>&1 | grep -E '^\||run >=|skipped|panicked|^test result'
echo "converted sets: $out/dl20/testset.jsonl, $out/xquad/testset.jsonl (audit them with: ragsynth audit FILE)"
