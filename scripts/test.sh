#!/usr/bin/env bash
# The test command (README "Tests"): formatting, lints, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo test --all-targets
