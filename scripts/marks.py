"""Hand marks of generated cases, right or wrong, for the correctness benchmark (issue 26).

`write`: from a set a person has reviewed with `ragsynth review` (review: accepted = right;
rejected or edited = wrong, the reviewer's reason as the note; pending = not marked yet), writes
the marks file kept in the repo: one JSON line per synthetic case with id, type, question, answer,
quote (first 200 characters of the first label's), right (true/false), review and note. The
file is written anew from the set (the marks of an earlier run stay in git history).

`report`: per corpus, the accepted/planned of the generate run (its --json summary, when given)
and the share of marked cases that are right, matching marks to the set's synthetic cases by id,
or by question text when the id is not found. A mark without a case and a case without a mark
are listed, never dropped silently.

  python scripts/marks.py write --set SET --marks FILE
  python scripts/marks.py report --set SET --marks FILE [--summary JSON] [--label NAME]
"""

import argparse
import json
import os
import sys
from pathlib import Path

import benchlib as bl

QUOTE_CHARS = 200


def read_marks(path):
    marks = []
    if not Path(path).exists():
        return marks
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            m = json.loads(line)
        except json.JSONDecodeError as e:
            bl.die(f"{path}:{n}: not JSON: {e}")
        if not isinstance(m.get("right"), bool) or not (m.get("id") or m.get("question")):
            bl.die(f"{path}:{n}: a mark needs `right` (true/false) and an `id` or `question`")
        marks.append(m)
    return marks


def mark_of(case):
    review = case.get("review") or "pending"
    if review == "pending":
        return None
    labels = bl.labels(case)
    quote = (labels[0].get("quote") or "")[:QUOTE_CHARS] if labels else ""
    note = case.get("review_reason") or ("edited in review" if review == "edited" else "")
    return {"id": case.get("id"), "type": bl.kind(case), "question": case["question"],
            "answer": case.get("answer"), "quote": quote, "right": review == "accepted",
            "review": review, "note": note}


def write(a):
    _, cases = bl.load_set(a.set)
    synthetic = [c for c in cases if not bl.is_real(c)]
    new = [m for m in map(mark_of, synthetic) if m]
    path = Path(a.marks)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in new),
                   encoding="utf-8")
    os.replace(tmp, path)
    pending = len(synthetic) - len(new)
    print(f"{path}: {len(new)} marks from {a.set} ({sum(m['right'] for m in new)} right), "
          f"{pending} synthetic case(s) still pending review",
          file=sys.stderr)


def norm(q):
    return " ".join(bl.words((q or "").lower()))


def match(marks, cases):
    """(pairs of (mark, case), marks without a case, cases without a mark)."""
    by_id = {c.get("id"): c for c in cases}
    by_q = {norm(c["question"]): c for c in cases}
    pairs, orphans, used = [], [], set()
    for m in marks:
        c = by_id.get(m.get("id")) or by_q.get(norm(m.get("question")))
        if c is None or id(c) in used:
            orphans.append(m)
        else:
            used.add(id(c))
            pairs.append((m, c))
    return pairs, orphans, [c for c in cases if id(c) not in used]


def report(a):
    _, cases = bl.load_set(a.set)
    synthetic = [c for c in cases if not bl.is_real(c)]
    pairs, orphans, unmarked = match(read_marks(a.marks), synthetic)
    right = sum(m["right"] for m, _ in pairs)
    acc = f"{len(synthetic)}/-"
    if a.summary:
        s = json.load(open(a.summary))
        acc = f"{s['accepted']}/{sum(k['planned'] for k in s['by_type'].values())}"
    share = f"{right / len(pairs):.0%}" if pairs else "-"
    print(f"| {a.label or a.set} | {acc} | {len(pairs)} | {right} | {share} | {len(unmarked)} "
          f"| {len(orphans)} |")
    by_type = {}
    for m, c in pairs:
        t = by_type.setdefault(bl.kind(c), [0, 0])
        t[0] += m["right"]
        t[1] += 1
    print("  by type: " + ", ".join(f"{k} {r}/{n}" for k, (r, n) in sorted(by_type.items())),
          file=sys.stderr)
    for m in orphans:
        print(f"  mark without a case: {m.get('id')}: {m.get('question')}", file=sys.stderr)
    for c in unmarked:
        print(f"  case without a mark: {c.get('id')}: {c['question']}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--set", required=True)
    w.add_argument("--marks", required=True)
    r = sub.add_parser("report")
    r.add_argument("--set", required=True)
    r.add_argument("--marks", required=True)
    r.add_argument("--summary")
    r.add_argument("--label", default="")
    a = ap.parse_args()
    write(a) if a.cmd == "write" else report(a)


if __name__ == "__main__":
    main()
