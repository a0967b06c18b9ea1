#!/usr/bin/env bash
# LLM executor benchmarks against a stub server with 200 ms latency (docs/benchmarks.md "LLM executor"):
# 400 requests at concurrency 16 vs the ideal 400 x 0.2 s / 16 and a bare-HTTP baseline, and how
# closely a requests-per-minute limit is held. Takes about 15 seconds once built.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --quiet --test llm_bench -- --ignored --nocapture --test-threads=1 2>&1 \
  | sed 's/^\.*//' | grep -E '(throughput|rpm limit [0-9]+):|FAILED|panicked'
