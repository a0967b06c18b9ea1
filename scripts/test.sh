#!/usr/bin/env bash
# The test command (README "Tests", docs/install.md): formatting, lints, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# The build folder the demo and CI use too, so none of them rebuilds what another built.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${RAGSYNTH_CACHE:-$HOME/.cache/ragsynth}/target}"
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo test --all-targets
