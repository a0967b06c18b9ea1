"""Scores generate's checks on people-written cases (issue 67): how many right cases each check
turns away, how many corrupted cases it catches.

Reads the sets scripts/make-check-sets.py built (their manifest.json) and, per set, what
`ragsynth check SET --json` said: one JSON object a line, `{"id", "type", "codes": [...],
"hints": [{"code", ...}], "unchecked"}`, `codes` empty when generate would accept the case.
Results live in RESULTS/<set path without .yaml>.jsonl (squad2/right.jsonl for
squad2/right.yaml). A case of a set without a result line, a result line naming no case of its
set, or a case `check` could not check is counted and listed, never dropped silently; the
case's type is the set's (a different type in the result is counted as a mismatch).

Prints one Markdown block and writes the same figures as JSON:
- right cases turned away, per family and type: count, share, and by which codes; split into
  those a check other than a repeat turned away and those only a repeat check (RS3xx, judged
  against the set's other cases) did; totals over every family and over the families the
  checks were not written from (all but `marks`, the tuning half's hand marks);
- per corruption: cases caught by any code (count, share; per family); the same among the
  corrupted cases whose right case was accepted (there a catch is the corruption's, not the
  right case's own flag); caught per code, counting a code only where the right case did not
  get it ("new");
- per code: right cases it turns away (a review hint: hints) vs corrupted cases it newly
  catches ("precision on people-written data" = caught / (caught + turned away), on these
  sets' mix of cases).

With --csv, also writes docs/checks-measured.csv: one row per check `ragsynth check --list`
lists (`code,right_lost,right_total,corrupt_caught,corrupt_total,rejected_wrong,
rejected_marked`), measured on the families the checks were not written from only, with the
hand marks of rejections on fresh held-out runs; `#` lines say what and how (they are printed
on docs/checks.md). A review hint is measured as a rejection would be (its hinted cases).

  python scripts/bench-checks.py score --sets SETS --results RESULTS [--json OUT] [--label L]
                                       [--matrix FAMILY:TYPE]...
                                       [--csv OUT --check-list FILE --not-run CODES
                                        --marks DIR --note LINE...]
  python scripts/bench-checks.py from-verify --verify JSON --out RESULT.jsonl
      (verify-cases.py --all --json output as check results: each failed sub-check a code
      `verify:<name>`, for the before-figures of today's definitions)
  python scripts/bench-checks.py --self-test
"""

import argparse
import json
import os
import re
import sys
import tempfile
import unittest
from collections import Counter, defaultdict, namedtuple
from pathlib import Path

import benchlib as bl

TYPES = ["lookup", "identifier", "comparison", "multi_hop", "unanswerable"]
# The families whose cases the checks were not written from; `marks` (the tuning half's hand
# marks) is where they were written, so it stays out of docs/checks-measured.csv.
INDEPENDENT = ("dl20", "hotpot", "squad2", "xquad")
# The hand marks of rejections on fresh generate runs over the held-out corpora, under --marks.
REJECTION_MARKS = "**/*-rejections.marks.jsonl"

# What `check --json` said of one case: its rejecting codes, its review hints' codes, and why
# it could not be checked (None when it was).
Result = namedtuple("Result", "type codes hints unchecked")
# One checked case of a set, beside what its right case got (corrupted cases; empty for right).
Record = namedtuple("Record", "family variant kind codes hints base_codes base_hints")


def is_repeat(code):
    """The duplicate and repeat checks (RS3xx: RS301-RS305), which judge a case against the
    set's other cases: what they flag depends on which cases a set holds together."""
    return code.startswith("RS3")


def read_results(path):
    """{id: Result} of a check --json output; dies naming the line on bad input."""
    out = {}
    if not path.exists():
        return None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            bl.die(f"{path}:{n}: not JSON: {e}")
        hints = row.get("hints", []) if isinstance(row, dict) else None
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) \
                or not isinstance(row.get("codes"), list) \
                or not all(isinstance(c, str) for c in row["codes"]) \
                or not isinstance(hints, list) \
                or not all(isinstance(h, dict) and isinstance(h.get("code"), str) for h in hints) \
                or not isinstance(row.get("unchecked", ""), str):
            bl.die(f"{path}:{n}: expected {{\"id\": str, \"type\": str, \"codes\": [str], "
                   f"\"hints\": [{{\"code\": str}}], \"unchecked\": str}}")
        if row["id"] in out:
            bl.die(f"{path}:{n}: case {row['id']} twice")
        out[row["id"]] = Result(row.get("type"), sorted(set(row["codes"])),
                                sorted({h["code"] for h in hints}), row.get("unchecked"))
    return out


def result_path(results, set_path):
    return Path(results) / Path(set_path).with_suffix(".jsonl")


def share(k, n):
    return f"{k / n:.0%}" if n else "-"


def top(counter, k=6):
    return ", ".join(f"{c} {n}" for c, n in counter.most_common(k)) or "-"


def new_problems():
    return {"no_result_file": [], "no_result": [], "unknown_id": [], "unchecked": [],
            "type_mismatch": 0, "no_right_result": 0}


def walk(sets, results, problems):
    """Every checked case of every set as a Record, in manifest order; what could not be read
    goes to `problems`. A corrupted case is read beside what its right case got."""
    manifest = json.loads((Path(sets) / "manifest.json").read_text(encoding="utf-8"))
    right = {}
    for entry in manifest["sets"]:
        if entry["variant"] == "right":
            right[str(Path(entry["path"]).parent)] = \
                read_results(result_path(results, entry["path"])) or {}
    for entry in manifest["sets"]:
        _, cases = bl.load_set(Path(sets) / entry["path"])
        got = read_results(result_path(results, entry["path"]))
        if got is None:
            problems["no_result_file"].append(entry["path"])
            continue
        ids = {c["id"] for c in cases}
        problems["unknown_id"] += [f"{entry['path']}: {i}" for i in sorted(set(got) - ids)]
        variant, family = entry["variant"], entry["family"]
        for case in cases:
            r = got.get(case["id"])
            if r is None:
                problems["no_result"].append(f"{entry['path']}: {case['id']}")
                continue
            if r.unchecked is not None:
                problems["unchecked"].append(f"{entry['path']}: {case['id']}: {r.unchecked}")
                continue
            kind = bl.kind(case)
            problems["type_mismatch"] += r.type is not None and r.type != kind
            base = Result(None, [], [], None)
            if variant != "right":
                base = right.get(str(Path(entry["path"]).parent), {}).get(
                    case.get("corrupted_from"))
                if base is None or base.unchecked is not None:
                    problems["no_right_result"] += 1
                    base = Result(None, [], [], None)
            yield Record(family, variant, kind, r.codes, r.hints, base.codes, base.hints)


def type_order(t):
    return TYPES.index(t) if t in TYPES else 99


def score(sets, results):
    """The figures, as a dict (what --json writes), and the records they were counted from."""
    right = defaultdict(lambda: {"n": 0, "turned_away": 0, "not_repeat": 0, "repeat_only": 0,
                                 "codes": Counter(), "hints": Counter()})
    corrupt = defaultdict(lambda: {"n": 0, "caught": 0, "caught_not_repeat": 0,
                                   "codes": Counter(), "new_codes": Counter(),
                                   "base_n": 0, "base_caught": 0,
                                   "by_family": defaultdict(lambda: [0, 0]),
                                   "by_type": defaultdict(lambda: [0, 0])})
    codes = defaultdict(lambda: {"right_turned_away": 0, "corrupt_caught": 0,
                                 "corrupt_caught_new": 0, "hint": False})
    problems = new_problems()
    # Every set's figures per type, for the per-family matrix: {(family, type, variant): ...}.
    cells = defaultdict(lambda: {"n": 0, "flagged": 0, "codes": Counter()})
    records = list(walk(sets, results, problems))
    for r in records:
        flagged = r.codes
        cell = cells[(r.family, r.kind, r.variant)]
        cell["n"] += 1
        cell["flagged"] += bool(flagged)
        cell["codes"].update(flagged)
        for c in r.hints:
            codes[c]["hint"] = True
        if r.variant == "right":
            row = right[(r.family, r.kind)]
            row["n"] += 1
            row["turned_away"] += bool(flagged)
            not_repeat = any(not is_repeat(c) for c in flagged)
            row["not_repeat"] += not_repeat
            row["repeat_only"] += bool(flagged) and not not_repeat
            row["codes"].update(flagged)
            row["hints"].update(r.hints)
            for c in flagged + r.hints:
                codes[c]["right_turned_away"] += 1
        else:
            new = [c for c in flagged + r.hints if c not in r.base_codes + r.base_hints]
            row = corrupt[r.variant]
            row["n"] += 1
            row["caught"] += bool(flagged)
            row["caught_not_repeat"] += any(not is_repeat(c) for c in flagged)
            row["codes"].update(flagged)
            row["new_codes"].update(c for c in new if c in flagged)
            if not r.base_codes:
                row["base_n"] += 1
                row["base_caught"] += bool(flagged)
            for c in new:
                codes[c]["corrupt_caught_new"] += 1
            row["by_family"][r.family][0] += bool(flagged)
            row["by_family"][r.family][1] += 1
            row["by_type"][r.kind][0] += bool(flagged)
            row["by_type"][r.kind][1] += 1
            for c in flagged + r.hints:
                codes[c]["corrupt_caught"] += 1
    for c in codes.values():
        n = c["right_turned_away"] + c["corrupt_caught_new"]
        c["precision"] = round(c["corrupt_caught_new"] / n, 3) if n else None
    fig = {
        "right": [{"family": f, "type": t, **{k: dict(v) if isinstance(v, Counter) else v
                                             for k, v in row.items()}}
                  for (f, t), row in sorted(right.items(),
                                            key=lambda kv: (kv[0][0], type_order(kv[0][1])))],
        "corrupt": [{"corruption": name, "n": row["n"], "caught": row["caught"],
                     "caught_not_repeat": row["caught_not_repeat"],
                     "codes": dict(row["codes"]), "new_codes": dict(row["new_codes"]),
                     "right_accepted": {"n": row["base_n"], "caught": row["base_caught"]},
                     "by_family": {f: {"caught": k, "n": n} for f, (k, n) in
                                   sorted(row["by_family"].items())},
                     "by_type": {t: {"caught": k, "n": n} for t, (k, n) in
                                 sorted(row["by_type"].items())}}
                    for name, row in corrupt.items()],
        "codes": {c: v for c, v in sorted(codes.items())},
        "cells": [{"family": f, "type": t, "variant": v, "n": c["n"], "flagged": c["flagged"],
                   "codes": dict(c["codes"])} for (f, t, v), c in sorted(cells.items())],
        "problems": problems,
    }
    return fig, records


def totals_rows(rows, label):
    """Per type over `rows` (right rows of several families): a Markdown line each."""
    totals = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        t = totals[r["type"]]
        t[0] += r["n"]
        t[1] += r["turned_away"]
        t[2] += r["not_repeat"]
        t[3] += r["repeat_only"]
    return [f"| **{label}** | {t} | {n} | {k} | {share(k, n)} | {x} | {share(x, n)} | {p} | "
            f"{share(p, n)} | |"
            for t, (n, k, x, p) in sorted(totals.items(), key=lambda kv: type_order(kv[0]))]


def markdown(fig, label):
    out = [f"### {label}" if label else "", ""]
    out += ["People-written right cases turned away (any code), per family and type; then split: "
            "turned away by a check other than a repeat (the target is stated on these), and "
            "only by a repeat check (RS3xx: RS301-RS305, which judge a case against the set's "
            "other cases, so they depend on the set's composition). `independent` = every family "
            "but `marks` (the tuning half the checks were written from):", "",
            "| family | type | cases | turned away | share | not by a repeat | share | "
            "only by a repeat | share | by code |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in fig["right"]:
        out.append(f"| {r['family']} | {r['type']} | {r['n']} | {r['turned_away']} | "
                   f"{share(r['turned_away'], r['n'])} | {r['not_repeat']} | "
                   f"{share(r['not_repeat'], r['n'])} | {r['repeat_only']} | "
                   f"{share(r['repeat_only'], r['n'])} | {top(Counter(r['codes']))} |")
    out += totals_rows(fig["right"], "all")
    out += totals_rows([r for r in fig["right"] if r["family"] in INDEPENDENT], "independent")
    out += ["", "Corrupted cases caught, per corruption: by any code (and by a code other than a "
            "repeat); then only those whose right case was accepted (a catch there is the "
            "corruption's); per code, the codes the right case did not get:", "",
            "| corruption | cases | caught | share | not by a repeat | share | "
            "right one accepted: caught | share | independent: caught | share | "
            "per family (any code) | caught per code (new) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in fig["corrupt"]:
        fams = ", ".join(f"{f} {v['caught']}/{v['n']}" for f, v in r["by_family"].items())
        ra = r["right_accepted"]
        ind = [sum(v[k] for f, v in r["by_family"].items() if f in INDEPENDENT)
               for k in ("caught", "n")]
        out.append(f"| {r['corruption']} | {r['n']} | {r['caught']} | "
                   f"{share(r['caught'], r['n'])} | {r['caught_not_repeat']} | "
                   f"{share(r['caught_not_repeat'], r['n'])} | {ra['caught']}/{ra['n']} | "
                   f"{share(ra['caught'], ra['n'])} | {ind[0]}/{ind[1]} | "
                   f"{share(*ind)} | {fams} | "
                   f"{top(Counter(r['new_codes']), 8)} |")
    out += ["", "Per code, on people-written data: right cases it turns away (a review hint: "
            "hints), corrupted cases it catches that their right case did not get it "
            "(precision = caught / (caught + turned away), on these sets' mix):", "",
            "| code | right turned away | corrupt caught (new) | precision |",
            "|---|---|---|---|"]
    n_right = sum(r["n"] for r in fig["right"])
    n_corrupt = sum(r["n"] for r in fig["corrupt"])
    for c, v in sorted(fig["codes"].items(), key=lambda kv: -kv[1]["corrupt_caught_new"]):
        p = "-" if v["precision"] is None else f"{v['precision']:.0%}"
        name = f"{c} (hint)" if v["hint"] else f"{c} (repeat)" if is_repeat(c) else c
        out.append(f"| {name} | {v['right_turned_away']} of {n_right} | "
                   f"{v['corrupt_caught_new']} of {n_corrupt} | {p} |")
    pr = fig["problems"]
    notes = []
    if pr["no_result_file"]:
        notes.append(f"sets without results: {', '.join(pr['no_result_file'])}")
    if pr["no_result"]:
        notes.append(f"{len(pr['no_result'])} cases without a result line "
                     f"(first: {pr['no_result'][0]})")
    if pr["unknown_id"]:
        notes.append(f"{len(pr['unknown_id'])} result lines naming no case "
                     f"(first: {pr['unknown_id'][0]})")
    if pr["unchecked"]:
        notes.append(f"{len(pr['unchecked'])} cases `check` could not check "
                     f"(first: {pr['unchecked'][0]})")
    if pr["no_right_result"]:
        notes.append(f"{pr['no_right_result']} corrupted cases whose right case has no result "
                     "(read as accepted)")
    if pr["type_mismatch"]:
        notes.append(f"{pr['type_mismatch']} results give another type than the set's")
    if notes:
        out += ["", "Not scored: " + "; ".join(notes) + "."]
    return "\n".join(out).strip() + "\n"


# ---- docs/checks-measured.csv ---------------------------------------------------------------

LIST_LINE = re.compile(r"^(RS\d{3})\s+(\S+)\s+(\S+)\s+(\S+)\s+(rejects|review hint)\s+(\S.*)$")


def read_check_list(text, where="check --list"):
    """The checks of `ragsynth check --list`: [{code, name, stage, reads, hint, kinds}] in its
    order; dies naming a line it cannot read."""
    checks = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("code "):
            continue
        m = LIST_LINE.match(line.rstrip())
        if not m:
            bl.die(f"{where}:{n}: not a check line: {line!r}")
        kinds = {k.strip() for k in m[6].split(",")}
        kinds = set(TYPES) if kinds == {"all"} else kinds
        if not kinds <= set(TYPES):
            bl.die(f"{where}:{n}: unknown kinds {sorted(kinds - set(TYPES))}")
        checks.append({"code": m[1], "name": m[2], "stage": m[3], "reads": m[4],
                       "hint": m[5] == "review hint", "kinds": kinds})
    if not checks:
        bl.die(f"{where}: lists no check")
    return checks


def read_rejection_marks(root):
    """{code: [wrong, marked]} over every `*-rejections.marks.jsonl` under `root`, and the
    files read with their line counts; dies naming a line without `code` or
    `rejection_right`."""
    counts = defaultdict(lambda: [0, 0])
    files = []
    for path in sorted(Path(root).glob(REJECTION_MARKS)):
        n_marks = 0
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                bl.die(f"{path}:{n}: not JSON: {e}")
            if not isinstance(row, dict) or not isinstance(row.get("code"), str) \
                    or not isinstance(row.get("rejection_right"), bool):
                bl.die(f"{path}:{n}: expected {{\"code\": str, \"rejection_right\": bool}}")
            counts[row["code"]][0] += not row["rejection_right"]
            counts[row["code"]][1] += 1
            n_marks += 1
        files.append((path, n_marks))
    return dict(counts), files


def measured_rows(records, checks, not_run, marks, families=INDEPENDENT):
    """One row per check: (code, right_lost, right_total, corrupt_caught, corrupt_total,
    rejected_wrong, rejected_marked) on `families`' cases of the check's kinds. A check that
    `check` does not run gets 0 of 0 (not measured), never 0 of n. A corrupted case counts as
    caught by a code its right case did not get. Dies when a result names a code the list
    does not (results of another binary)."""
    listed = {c["code"] for c in checks}
    seen = {c for r in records for c in r.codes + r.hints}
    if seen - listed:
        bl.die(f"the results name {', '.join(sorted(seen - listed))}, which `check --list` "
               "does not list: are they another binary's?")
    rows = []
    for c in checks:
        code, kinds = c["code"], c["kinds"]
        lost = right = caught = corrupt = 0
        if code not in not_run:
            for r in records:
                if r.family not in families or r.kind not in kinds:
                    continue
                flagged = code in r.codes or code in r.hints
                if r.variant == "right":
                    right += 1
                    lost += flagged
                else:
                    corrupt += 1
                    caught += flagged and code not in r.base_codes + r.base_hints
        wrong, marked = marks.get(code, (0, 0))
        rows.append((code, lost, right, caught, corrupt, wrong, marked))
    return rows


def csv_text(rows, checks, not_run, records, marks_files, unlisted_marks, notes,
             families=INDEPENDENT):
    """docs/checks-measured.csv: `#` lines (what, data, how; printed on docs/checks.md), the
    header, one row per check."""
    right, corrupt = Counter(), Counter()
    for r in records:
        if r.family in families:
            (right if r.variant == "right" else corrupt)[r.family] += 1
    variants = sorted({r.variant for r in records if r.variant != "right"})
    repeats = [c["code"] for c in checks if is_repeat(c["code"])]
    hints = [c["code"] for c in checks if c["hint"]]
    lines = [
        "right_lost,right_total: people-written right cases of the check's kinds that it "
        "flags (turns away; a review hint: hints) / the right cases of its kinds.",
        "corrupt_caught,corrupt_total: the same cases corrupted in known ways that it flags "
        "where their right case did not get it / the corrupted cases of its kinds.",
        "rejected_wrong,rejected_marked: its rejections on fresh generate runs over the "
        "held-out docs corpora marked wrong by hand / those marked.",
        "Data the checks were not written from: right cases "
        + ", ".join(f"{f} {right[f]}" for f in families) + f" ({sum(right.values())}); "
        "corrupted (" + ", ".join(variants) + ") "
        + ", ".join(f"{f} {corrupt[f]}" for f in families) + f" ({sum(corrupt.values())}); "
        "the tuning half's hand marks (family `marks`) left out. Rejection marks: "
        + (", ".join(f"`{p}` {n}" for p, n in marks_files) or "none") + ".",
        "Repeat checks (" + ", ".join(repeats) + ") judge a case against the set's other "
        "cases: their figures depend on which cases these sets hold together.",
    ]
    if hints:
        lines.append("Review hints (" + ", ".join(hints) + ") turn nothing away: counted as "
                     "their hinted cases.")
    if not_run:
        lines.append("Not run by `ragsynth check` (0 of 0, not measured): "
                     + ", ".join(c["code"] for c in checks if c["code"] in not_run) + ".")
    if unlisted_marks:
        lines.append("Rejection marks of codes no longer listed, left out: "
                     + ", ".join(f"{c} {n}" for c, n in sorted(unlisted_marks.items())) + ".")
    lines += notes
    out = [f"# {line}" for line in lines]
    out.append("code,right_lost,right_total,corrupt_caught,corrupt_total,rejected_wrong,"
               "rejected_marked")
    out += [",".join(str(v) for v in row) for row in rows]
    return "\n".join(out) + "\n"


def write_csv(a, records, problems):
    checks = read_check_list(Path(a.check_list).read_text(encoding="utf-8"), a.check_list)
    given = {c for c in re.split(r"[,\s]+", a.not_run or "") if c}
    if not all(re.fullmatch(r"RS\d{3}", c) for c in given):
        bl.die(f"--not-run: expected codes, got {a.not_run!r}")
    not_run = given | {c["code"] for c in checks if c["stage"] == "outcome"}
    marks, files = read_rejection_marks(a.marks)
    listed = {c["code"] for c in checks}
    unlisted = {c: v[1] for c, v in marks.items() if c not in listed}
    # A case `check` could not check, a missing result: the CSV is not written from a partial run.
    bad = [k for k in ("no_result_file", "no_result", "unknown_id") if problems[k]]
    if bad:
        bl.die(f"not writing {a.csv}: the results are incomplete ({', '.join(bad)}); "
               "see the Markdown's 'Not scored' line")
    rows = measured_rows(records, checks, not_run, marks)
    unchecked = [u for u in problems["unchecked"] if u.split("/")[0] in INDEPENDENT]
    notes = ([f"{len(unchecked)} cases `check` could not check left out "
              f"(first: {unchecked[0]})."] if unchecked else []) + a.note
    text = csv_text(rows, checks, not_run, records, files, unlisted, notes)
    out = Path(a.csv)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return rows


def matrix(fig, family, kind):
    """One family's cases of one type: per code (rows) and variant (columns), the cases the
    code flags, and the cases no code flags."""
    cells = {c["variant"]: c for c in fig["cells"] if c["family"] == family and c["type"] == kind}
    if not cells:
        return ""
    variants = ["right"] + sorted(v for v in cells if v != "right")
    variants = [v for v in variants if v in cells]
    codes = sorted({c for v in variants for c in cells[v]["codes"]})
    out = [f"{family} {kind} cases flagged per code and set (of n):", "",
           "| code | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants),
           "| n | " + " | ".join(str(cells[v]["n"]) for v in variants) + " |",
           "| **none (accepted)** | " + " | ".join(str(cells[v]["n"] - cells[v]["flagged"])
                                                   for v in variants) + " |"]
    out += [f"| {c} | " + " | ".join(str(cells[v]["codes"].get(c, 0)) for v in variants) + " |"
            for c in codes]
    return "\n".join(out) + "\n"


def from_verify(a):
    """verify-cases.py --json output -> check-format lines (`verify:<sub-check>` codes)."""
    data = json.loads(Path(a.verify).read_text(encoding="utf-8"))
    lines = [json.dumps({"id": c["id"], "type": c["type"],
                         "codes": [f"verify:{n}" for n, ok in c["checks"].items() if not ok]})
             for c in data["cases"]]
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    os.replace(tmp, out)


# ---- self-test ------------------------------------------------------------------------------


class SelfTest(unittest.TestCase):
    """The scorer on a small fake `check --json` output, every figure known by hand."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = Path(self.dir.name)
        (root / "sets" / "fam").mkdir(parents=True)
        docs = root / "sets" / "fam" / "docs"
        docs.mkdir()
        (docs / "a.txt").write_text("Alpha is one. Beta is two.", encoding="utf-8")
        lab = {"doc": "a.txt", "start": 0, "end": 13, "quote": "Alpha is one."}

        def case(cid, kind, **extra):
            return {"id": cid, "question": f"q {cid}", "relevant": [] if kind == "unanswerable"
                    else [lab], "tags": {"type": kind, "source": "real"}, **extra}

        right = [case("l1", "lookup"), case("l2", "lookup"), case("l3", "lookup"),
                 case("u1", "unanswerable")]
        moved = [case("l1~answer_moved", "lookup", corrupted_from="l1"),
                 case("l2~answer_moved", "lookup", corrupted_from="l2")]
        marked = [case("l1~marked_unanswerable", "unanswerable", corrupted_from="l1")]
        bl.write_set(root / "sets" / "fam" / "right.yaml", docs, right)
        bl.write_set(root / "sets" / "fam" / "answer_moved.yaml", docs, moved)
        bl.write_set(root / "sets" / "fam" / "marked_unanswerable.yaml", docs, marked)
        (root / "sets" / "manifest.json").write_text(json.dumps({"sets": [
            {"path": "fam/right.yaml", "family": "fam", "variant": "right"},
            {"path": "fam/answer_moved.yaml", "family": "fam", "variant": "answer_moved"},
            {"path": "fam/marked_unanswerable.yaml", "family": "fam",
             "variant": "marked_unanswerable"}]}))
        res = root / "results" / "fam"
        res.mkdir(parents=True)

        def write(name, rows):
            (res / name).write_text("".join(json.dumps(r) + "\n" for r in rows))

        # Right: l1 turned away by RS201 and RS305, l2 accepted, l3 turned away by RS201,
        # u1 has no result line. Corrupt: l1~ caught by RS201, l2~ missed; the marked one
        # caught by RS501; one line names no case.
        write("right.jsonl", [
            {"id": "l1", "type": "lookup", "codes": ["RS201", "RS305"]},
            {"id": "l2", "type": "lookup", "codes": []},
            {"id": "l3", "type": "identifier", "codes": ["RS201"]}])
        write("answer_moved.jsonl", [
            {"id": "l1~answer_moved", "type": "lookup", "codes": ["RS201"]},
            {"id": "l2~answer_moved", "type": "lookup", "codes": []},
            {"id": "ghost", "type": "lookup", "codes": ["RS999"]}])
        write("marked_unanswerable.jsonl", [
            {"id": "l1~marked_unanswerable", "type": "unanswerable", "codes": ["RS501"]}])
        self.root = root
        self.case = case

    def add_dl20(self):
        """A second family, one the checks were not written from: a repeat-only and a hinted
        right case, an unchecked one, and corrupted copies."""
        sets = self.root / "sets"
        docs = sets / "fam" / "docs"
        case = self.case
        (sets / "dl20").mkdir()
        bl.write_set(sets / "dl20" / "right.yaml", docs, [
            case("d1", "lookup"), case("d2", "lookup"), case("d3", "unanswerable"),
            case("d4", "lookup")])
        bl.write_set(sets / "dl20" / "label_moved.yaml", docs, [
            case("d1~label_moved", "lookup", corrupted_from="d1"),
            case("d2~label_moved", "lookup", corrupted_from="d2")])
        bl.write_set(sets / "dl20" / "marked_unanswerable.yaml", docs, [
            case("d2~marked_unanswerable", "unanswerable", corrupted_from="d2")])
        manifest = json.loads((sets / "manifest.json").read_text())
        manifest["sets"] += [{"path": f"dl20/{v}.yaml", "family": "dl20", "variant": v}
                             for v in ("right", "label_moved", "marked_unanswerable")]
        (sets / "manifest.json").write_text(json.dumps(manifest))
        res = self.root / "results" / "dl20"
        res.mkdir()
        hint = [{"code": "RS101", "name": "copied-phrase", "detail": "copies"}]

        def write(name, rows):
            (res / name).write_text("".join(json.dumps(r) + "\n" for r in rows))

        write("right.jsonl", [
            {"id": "d1", "type": "lookup", "codes": ["RS302"], "hints": hint},
            {"id": "d2", "type": "lookup", "codes": []},
            {"id": "d3", "type": "unanswerable", "codes": ["RS201"]},
            {"id": "d4", "type": "lookup", "codes": [], "unchecked": "label outside"}])
        write("label_moved.jsonl", [
            {"id": "d1~label_moved", "type": "lookup", "codes": ["RS302", "RS507"],
             "hints": hint},
            {"id": "d2~label_moved", "type": "lookup", "codes": ["RS507"]}])
        write("marked_unanswerable.jsonl", [
            {"id": "d2~marked_unanswerable", "type": "unanswerable", "codes": []}])

    def tearDown(self):
        self.dir.cleanup()

    def test_figures(self):
        fig, _ = score(self.root / "sets", self.root / "results")
        right = {(r["family"], r["type"]): r for r in fig["right"]}
        self.assertEqual(right[("fam", "lookup")]["n"], 3)
        self.assertEqual(right[("fam", "lookup")]["turned_away"], 2)
        self.assertEqual(right[("fam", "lookup")]["codes"], {"RS201": 2, "RS305": 1})
        self.assertNotIn(("fam", "unanswerable"), right)  # u1 had no result line
        corrupt = {r["corruption"]: r for r in fig["corrupt"]}
        self.assertEqual((corrupt["answer_moved"]["caught"], corrupt["answer_moved"]["n"]),
                         (1, 2))
        self.assertEqual(corrupt["answer_moved"]["by_family"], {"fam": {"caught": 1, "n": 2}})
        self.assertEqual(corrupt["marked_unanswerable"]["codes"], {"RS501": 1})
        # l1~ got RS201, which l1 had already: caught, but not new.
        self.assertEqual(corrupt["answer_moved"]["new_codes"], {})
        self.assertEqual(corrupt["answer_moved"]["right_accepted"], {"n": 1, "caught": 0})
        self.assertEqual(corrupt["marked_unanswerable"]["right_accepted"], {"n": 0, "caught": 0})
        self.assertEqual(corrupt["marked_unanswerable"]["new_codes"], {"RS501": 1})
        self.assertEqual(fig["codes"]["RS201"], {"right_turned_away": 2, "corrupt_caught": 1,
                                                 "corrupt_caught_new": 0, "hint": False,
                                                 "precision": 0.0})
        self.assertEqual(fig["codes"]["RS501"]["precision"], 1.0)
        self.assertEqual(fig["problems"]["no_result"], ["fam/right.yaml: u1"])
        self.assertEqual(fig["problems"]["unknown_id"], ["fam/answer_moved.yaml: ghost"])
        self.assertEqual(fig["problems"]["type_mismatch"], 1)  # l3: identifier vs lookup
        md = markdown(fig, "fake")
        # l1's RS305 is a repeat, but RS201 turned it away too: not a repeat-only loss.
        self.assertIn("| fam | lookup | 3 | 2 | 67% | 2 | 67% | 0 | 0% | RS201 2, RS305 1 |", md)
        self.assertIn("| answer_moved | 2 | 1 | 50% | 1 | 50% | 0/1 | 0% | 0/0 | - | fam 1/2 "
                      "| - |", md)
        self.assertIn("| RS201 | 2 of 3 | 0 of 3 | 0% |", md)
        self.assertIn("| RS501 | 0 of 3 | 1 of 3 | 100% |", md)
        self.assertIn("1 cases without a result line", md)
        m = matrix(fig, "fam", "lookup")
        self.assertIn("| code | right | answer_moved |", m)
        self.assertIn("| **none (accepted)** | 1 | 1 |", m)
        self.assertIn("| RS201 | 2 | 1 |", m)

    def test_repeats_hints_and_unchecked(self):
        self.add_dl20()
        fig, _ = score(self.root / "sets", self.root / "results")
        md = markdown(fig, "fake")
        # d1 only a repeat turned away (its hint turns nothing away); d4 not checked.
        self.assertIn("| dl20 | lookup | 2 | 1 | 50% | 0 | 0% | 1 | 50% | RS302 1 |", md)
        self.assertIn("| **all** | lookup | 5 | 3 | 60% | 2 | 40% | 1 | 20% | |", md)
        self.assertIn("| **independent** | lookup | 2 | 1 | 50% | 0 | 0% | 1 | 50% | |", md)
        self.assertIn("| RS101 (hint) | 1 of 6 | 0 of 6 | 0% |", md)
        self.assertIn("| RS302 (repeat) | 1 of 6 | 0 of 6 | 0% |", md)
        self.assertIn("| label_moved | 2 | 2 | 100% | 2 | 100% | 1/1 | 100% | 2/2 | 100% | "
                      "dl20 2/2 | RS507 2 |", md)
        self.assertEqual(fig["problems"]["unchecked"], ["dl20/right.yaml: d4: label outside"])
        self.assertIn("1 cases `check` could not check", md)

    def csv_args(self, **over):
        self.add_dl20()
        listing = self.root / "list.txt"
        listing.write_text(
            "code   name             stage        reads    action  kinds\n"
            "RS801  no-fact          outcome      any      rejects all\n"
            "RS101  copied-phrase    case         terms    review hint lookup, identifier, "
            "comparison, multi_hop\n"
            "RS201  too-short        question     any      rejects all\n"
            "RS302  near-duplicate   case         any      rejects all\n"
            "RS305  second-hop-alone set          any      rejects lookup, identifier\n"
            "RS501  fake             case         any      rejects all\n"
            "RS507  not-in-label     case         terms    rejects lookup, identifier, "
            "comparison, multi_hop\n"
            "RS711  bridge-not-asked construction any      rejects multi_hop\n")
        marks = self.root / "heldout"
        (marks / "sub").mkdir(parents=True)
        (marks / "x-rejections.marks.jsonl").write_text(
            '{"code": "RS507", "rejection_right": true}\n'
            '{"code": "RS507", "rejection_right": false}\n\n'
            '{"code": "RS999", "rejection_right": false}\n')
        (marks / "sub" / "y-rejections.marks.jsonl").write_text(
            '{"code": "RS201", "rejection_right": false}\n')
        (marks / "x.marks.jsonl").write_text('{"code": "RS201", "rejection_right": true}\n')
        # fam's u1 has no result and `ghost` names no case: give them their lines.
        res = self.root / "results" / "fam"
        with (res / "right.jsonl").open("a") as f:
            f.write(json.dumps({"id": "u1", "type": "unanswerable", "codes": []}) + "\n")
        lines = (res / "answer_moved.jsonl").read_text().splitlines()
        (res / "answer_moved.jsonl").write_text("\n".join(lines[:2]) + "\n")
        a = {"csv": str(self.root / "out" / "m.csv"), "check_list": str(listing),
             "not_run": "RS711", "marks": str(marks), "note": ["Command: x", "Date: y"]}
        return argparse.Namespace(**{**a, **over})

    def test_csv(self):
        a = self.csv_args()
        fig, records = score(self.root / "sets", self.root / "results")
        rows = write_csv(a, records, fig["problems"])
        # Only dl20 (fam is not one of the independent families); d4 unchecked, left out.
        self.assertEqual(rows, [
            ("RS801", 0, 0, 0, 0, 0, 0),  # an outcome: not run, 0 of 0
            ("RS101", 1, 2, 0, 2, 0, 0),  # d1 hinted; d1~ too, but so was d1
            ("RS201", 1, 3, 0, 3, 1, 1),  # d3; the mark of the sub-folder counts
            ("RS302", 1, 3, 0, 3, 0, 0),  # d1~ got it, but d1 had it already
            ("RS305", 0, 2, 0, 2, 0, 0),  # fired on fam's l1 only
            ("RS501", 0, 3, 0, 3, 0, 0),
            ("RS507", 0, 2, 2, 2, 1, 2),  # the unanswerable copy is not of its kinds
            ("RS711", 0, 0, 0, 0, 0, 0)])  # not run (--not-run)
        text = Path(a.csv).read_text()
        self.assertIn("\ncode,right_lost,right_total,corrupt_caught,corrupt_total,"
                      "rejected_wrong,rejected_marked\nRS801,0,0,0,0,0,0\n", text)
        self.assertIn("# Data the checks were not written from: right cases dl20 3, hotpot 0, "
                      "squad2 0, xquad 0 (3); corrupted (answer_moved, label_moved, "
                      "marked_unanswerable) dl20 3, hotpot 0, squad2 0, xquad 0 (3);", text)
        self.assertIn("# Repeat checks (RS302, RS305) judge", text)
        self.assertIn("# Not run by `ragsynth check` (0 of 0, not measured): RS801, RS711.", text)
        self.assertIn("# Rejection marks of codes no longer listed, left out: RS999 1.", text)
        self.assertIn("# 1 cases `check` could not check left out (first: dl20/right.yaml: d4",
                      text)
        self.assertTrue(text.endswith("RS711,0,0,0,0,0,0\n"))
        self.assertIn("# Command: x\n# Date: y\ncode,", text)
        self.assertTrue(all(line.startswith("#") or line.count(",") == 6
                            for line in text.splitlines()))

    def test_csv_refuses_partial_results(self):
        a = self.csv_args()
        (self.root / "results" / "dl20" / "label_moved.jsonl").unlink()
        fig, records = score(self.root / "sets", self.root / "results")
        with self.assertRaises(SystemExit) as e:
            write_csv(a, records, fig["problems"])
        self.assertIn("incomplete (no_result_file)", str(e.exception.code))
        self.assertFalse(Path(a.csv).exists())

    def test_csv_refuses_codes_the_list_lacks(self):
        a = self.csv_args(not_run="")
        listing = Path(a.check_list)
        listing.write_text(listing.read_text().replace("RS507", "RS508"))
        fig, records = score(self.root / "sets", self.root / "results")
        with self.assertRaises(SystemExit) as e:
            write_csv(a, records, fig["problems"])
        self.assertIn("the results name RS507", str(e.exception.code))

    def test_check_list_lines(self):
        checks = read_check_list("code name\nRS216  asks-comparison  question  english  "
                                 "review hint lookup, identifier\n")
        self.assertEqual(checks, [{"code": "RS216", "name": "asks-comparison",
                                   "stage": "question", "reads": "english", "hint": True,
                                   "kinds": {"lookup", "identifier"}}])
        with self.assertRaises(SystemExit) as e:
            read_check_list("RS216 asks-comparison question english maybe all\n", "L")
        self.assertIn("L:1", str(e.exception.code))

    def test_a_missing_result_file_is_named(self):
        (self.root / "results" / "fam" / "answer_moved.jsonl").unlink()
        fig, _ = score(self.root / "sets", self.root / "results")
        self.assertEqual(fig["problems"]["no_result_file"], ["fam/answer_moved.yaml"])
        self.assertNotIn("answer_moved", {r["corruption"] for r in fig["corrupt"]})

    def test_bad_lines_are_named(self):
        bad = self.root / "results" / "fam" / "right.jsonl"
        bad.write_text('{"id": "l1", "codes": "RS201"}\n')
        with self.assertRaises(SystemExit) as e:
            score(self.root / "sets", self.root / "results")
        self.assertIn("right.jsonl:1", str(e.exception.code))

    def test_from_verify(self):
        src = self.root / "verify.json"
        src.write_text(json.dumps({"cases": [
            {"id": "a", "type": "multi_hop", "checks": {"bridge": True, "not_joined": False}},
            {"id": "b", "type": "lookup", "checks": {"answer": True}}]}))
        out = self.root / "v" / "x.jsonl"
        from_verify(argparse.Namespace(verify=src, out=out))
        rows = [json.loads(x) for x in out.read_text().splitlines()]
        self.assertEqual(rows, [{"id": "a", "type": "multi_hop", "codes": ["verify:not_joined"]},
                                {"id": "b", "type": "lookup", "codes": []}])


def main():
    if sys.argv[1:] == ["--self-test"]:
        import corruptions

        load = unittest.defaultTestLoader.loadTestsFromTestCase
        suite = unittest.TestSuite([load(SelfTest), load(corruptions._tests())])
        ok = unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful()
        sys.exit(0 if ok else 1)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score")
    s.add_argument("--sets", required=True)
    s.add_argument("--results", required=True)
    s.add_argument("--json")
    s.add_argument("--label", default="")
    s.add_argument("--matrix", action="append", default=[], metavar="FAMILY:TYPE",
                   help="also print the per-code, per-set table of one family's type")
    s.add_argument("--csv", help="also write docs/checks-measured.csv here")
    s.add_argument("--check-list", help="`ragsynth check --list` output (with --csv)")
    s.add_argument("--not-run", default="",
                   help="codes `check` did not run (its text report's `not run:`), with --csv")
    s.add_argument("--marks", default="benches/correctness/heldout",
                   help="folder of the held-out *-rejections.marks.jsonl files, with --csv")
    s.add_argument("--note", action="append", default=[],
                   help="a `#` line for the CSV (the command, the binary, the date)")
    v = sub.add_parser("from-verify")
    v.add_argument("--verify", required=True)
    v.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.cmd == "from-verify":
        return from_verify(a)
    if a.csv and not a.check_list:
        ap.error("--csv needs --check-list")
    fig, records = score(a.sets, a.results)
    print(markdown(fig, a.label))
    for spec in a.matrix:
        family, _, kind = spec.partition(":")
        print(matrix(fig, family, kind))
    if a.json:
        tmp = Path(a.json + ".tmp")
        tmp.write_text(json.dumps({"label": a.label, **fig}, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, a.json)
    if a.csv:
        write_csv(a, records, fig["problems"])


if __name__ == "__main__":
    main()
