#!/usr/bin/env bash
# Runs the README's run command (`scripts/demo.sh`) with a fresh LLM journal, so every call is
# really made, and writes what it printed — the accepted and rejected counts, the first pending
# questions verbatim, and the timings — into docs/benchmarks.md between the `demo:begin` and
# `demo:end` markers, with the date and the machine's load. The demo figures come from here,
# not from a hand.
#
#   bash scripts/readme-demo.sh [N=12]
set -euo pipefail
cd "$(dirname "$0")/.."
journal="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$journal" "$log"' EXIT
load_before=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s)
DEMO_JOURNAL="$journal" bash scripts/demo.sh "${1:-12}" >"$log" 2>&1 || { cat "$log"; exit 1; }
wall=$(($(date +%s) - start))
load_after=$(cut -d' ' -f1 /proc/loadavg)
python3 - docs/benchmarks.md "$log" "$wall" "$load_before" "$load_after" "$(nproc)" <<'PY'
import datetime, re, sys
page, log, wall, before, after, cores = sys.argv[1:]
out = open(log).read().splitlines()
keep = [l for l in out if l.startswith(("generated:", "rejected candidates:", "  [", "timings:"))]
today = datetime.date.today().isoformat()
block = (f"<!-- demo:begin (written by scripts/readme-demo.sh) -->\n"
         f"`bash scripts/demo.sh` on {today}, {cores} cores, load average {before} before and {after} after, "
         f"fresh LLM journal, {wall} s in all:\n\n```text\n" + "\n".join(keep) + "\n```\n<!-- demo:end -->")
text = open(page).read()
new, n = re.subn(r"<!-- demo:begin.*?<!-- demo:end -->", lambda _: block, text, flags=re.S)
if n != 1:
    sys.exit("readme-demo: docs/benchmarks.md has no demo:begin / demo:end block")
open(page, "w").write(new)
print(block)
PY
