"""Scores generate's checks on people-written cases (issue 67): how many right cases each check
turns away, how many corrupted cases it catches.

Reads the sets scripts/make-check-sets.py built (their manifest.json) and, per set, what
`ragsynth check SET --json` said: one JSON object a line, `{"id", "type", "codes": [...]}`,
`codes` empty when generate would accept the case. Results live in RESULTS/<set path without
.yaml>.jsonl (squad2/right.jsonl for squad2/right.yaml). A case of a set without a result line,
or a result line naming no case of its set, is counted and listed, never dropped silently; the
case's type is the set's (a different type in the result is counted as a mismatch).

Prints one Markdown block (for docs/checks.md) and writes the same figures as JSON:
- right cases turned away, per family and type: count, share, and by which codes;
- per corruption: cases caught by any code (count, share; per family); the same among the
  corrupted cases whose right case was accepted (there a catch is the corruption's, not the
  right case's own flag); caught per code, counting a code only where the right case did not
  get it ("new");
- per code: right cases it turns away vs corrupted cases it newly catches ("precision on
  people-written data" = caught / (caught + turned away), on these sets' mix of cases).

  python scripts/bench-checks.py score --sets SETS --results RESULTS [--json OUT] [--label L]
                                       [--matrix FAMILY:TYPE]...
  python scripts/bench-checks.py from-verify --verify JSON --out RESULT.jsonl
      (verify-cases.py --all --json output as check results: each failed sub-check a code
      `verify:<name>`, for the before-figures of today's definitions)
  python scripts/bench-checks.py --self-test
"""

import argparse
import json
import os
import sys
import tempfile
import unittest
from collections import Counter, defaultdict
from pathlib import Path

import benchlib as bl

TYPES = ["lookup", "identifier", "comparison", "multi_hop", "unanswerable"]


def read_results(path):
    """{id: (type, [codes])} of a check --json output; dies naming the line on bad input."""
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
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) \
                or not isinstance(row.get("codes"), list) \
                or not all(isinstance(c, str) for c in row["codes"]):
            bl.die(f"{path}:{n}: expected {{\"id\": str, \"type\": str, \"codes\": [str]}}")
        if row["id"] in out:
            bl.die(f"{path}:{n}: case {row['id']} twice")
        out[row["id"]] = (row.get("type"), sorted(set(row["codes"])))
    return out


def result_path(results, set_path):
    return Path(results) / Path(set_path).with_suffix(".jsonl")


def share(k, n):
    return f"{k / n:.0%}" if n else "-"


def top(counter, k=6):
    return ", ".join(f"{c} {n}" for c, n in counter.most_common(k)) or "-"


def score(sets, results):
    """The figures, as a dict (what --json writes)."""
    manifest = json.loads((Path(sets) / "manifest.json").read_text(encoding="utf-8"))
    right = defaultdict(lambda: {"n": 0, "turned_away": 0, "codes": Counter()})
    corrupt = defaultdict(lambda: {"n": 0, "caught": 0, "codes": Counter(), "new_codes": Counter(),
                                   "base_n": 0, "base_caught": 0,
                                   "by_family": defaultdict(lambda: [0, 0]),
                                   "by_type": defaultdict(lambda: [0, 0])})
    codes = defaultdict(lambda: {"right_turned_away": 0, "corrupt_caught": 0,
                                 "corrupt_caught_new": 0})
    problems = {"no_result_file": [], "no_result": [], "unknown_id": [], "type_mismatch": 0,
                "no_right_result": 0}
    # What the right cases got, by folder: a corrupted case is read beside its right one.
    # Every set's figures per type, for the per-family matrix: {(family, type, variant): ...}.
    cells = defaultdict(lambda: {"n": 0, "flagged": 0, "codes": Counter()})
    right_codes = {}
    for entry in manifest["sets"]:
        if entry["variant"] == "right":
            got = read_results(result_path(results, entry["path"])) or {}
            right_codes[str(Path(entry["path"]).parent)] = {i: c for i, (_, c) in got.items()}
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
            if case["id"] not in got:
                problems["no_result"].append(f"{entry['path']}: {case['id']}")
                continue
            kind = bl.kind(case)
            their_type, flagged = got[case["id"]]
            cell = cells[(family, kind, variant)]
            cell["n"] += 1
            cell["flagged"] += bool(flagged)
            cell["codes"].update(flagged)
            problems["type_mismatch"] += their_type is not None and their_type != kind
            if variant == "right":
                row = right[(family, kind)]
                row["n"] += 1
                row["turned_away"] += bool(flagged)
                row["codes"].update(flagged)
                for c in flagged:
                    codes[c]["right_turned_away"] += 1
            else:
                base = right_codes.get(str(Path(entry["path"]).parent), {}).get(
                    case.get("corrupted_from"))
                if base is None:
                    problems["no_right_result"] += 1
                    base = []
                new = [c for c in flagged if c not in base]
                row = corrupt[variant]
                row["n"] += 1
                row["caught"] += bool(flagged)
                row["codes"].update(flagged)
                row["new_codes"].update(new)
                if not base:
                    row["base_n"] += 1
                    row["base_caught"] += bool(flagged)
                for c in new:
                    codes[c]["corrupt_caught_new"] += 1
                row["by_family"][family][0] += bool(flagged)
                row["by_family"][family][1] += 1
                row["by_type"][kind][0] += bool(flagged)
                row["by_type"][kind][1] += 1
                for c in flagged:
                    codes[c]["corrupt_caught"] += 1
    for c in codes.values():
        n = c["right_turned_away"] + c["corrupt_caught_new"]
        c["precision"] = round(c["corrupt_caught_new"] / n, 3) if n else None
    return {
        "right": [{"family": f, "type": t, **{k: dict(v) if isinstance(v, Counter) else v
                                             for k, v in row.items()}}
                  for (f, t), row in sorted(right.items(), key=lambda kv: (
                      kv[0][0], TYPES.index(kv[0][1]) if kv[0][1] in TYPES else 99))],
        "corrupt": [{"corruption": name, "n": row["n"], "caught": row["caught"],
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


def markdown(fig, label):
    out = [f"### {label}" if label else "", ""]
    out += ["People-written right cases turned away (any code), per family and type:", "",
            "| family | type | cases | turned away | share | by code |",
            "|---|---|---|---|---|---|"]
    totals = defaultdict(lambda: [0, 0])
    for r in fig["right"]:
        out.append(f"| {r['family']} | {r['type']} | {r['n']} | {r['turned_away']} | "
                   f"{share(r['turned_away'], r['n'])} | {top(Counter(r['codes']))} |")
        totals[r["type"]][0] += r["turned_away"]
        totals[r["type"]][1] += r["n"]
    for t in sorted(totals, key=lambda t: TYPES.index(t) if t in TYPES else 99):
        k, n = totals[t]
        out.append(f"| **all** | {t} | {n} | {k} | {share(k, n)} | |")
    out += ["", "Corrupted cases caught, per corruption: by any code; then only those whose "
            "right case was accepted (a catch there is the corruption's); per code, the codes "
            "the right case did not get:", "",
            "| corruption | cases | caught | share | right one accepted: caught | share | "
            "per family (any code) | caught per code (new) |", "|---|---|---|---|---|---|---|---|"]
    for r in fig["corrupt"]:
        fams = ", ".join(f"{f} {v['caught']}/{v['n']}" for f, v in r["by_family"].items())
        ra = r["right_accepted"]
        out.append(f"| {r['corruption']} | {r['n']} | {r['caught']} | "
                   f"{share(r['caught'], r['n'])} | {ra['caught']}/{ra['n']} | "
                   f"{share(ra['caught'], ra['n'])} | {fams} | "
                   f"{top(Counter(r['new_codes']), 8)} |")
    out += ["", "Per code, on people-written data: right cases it turns away, corrupted cases it "
            "catches that their right case did not get it (precision = caught / (caught + "
            "turned away), on these sets' mix):", "",
            "| code | right turned away | corrupt caught (new) | precision |",
            "|---|---|---|---|"]
    n_right = sum(r["n"] for r in fig["right"])
    n_corrupt = sum(r["n"] for r in fig["corrupt"])
    for c, v in sorted(fig["codes"].items(), key=lambda kv: -kv[1]["corrupt_caught_new"]):
        p = "-" if v["precision"] is None else f"{v['precision']:.0%}"
        out.append(f"| {c} | {v['right_turned_away']} of {n_right} | "
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
    if pr["no_right_result"]:
        notes.append(f"{pr['no_right_result']} corrupted cases whose right case has no result "
                     "(read as accepted)")
    if pr["type_mismatch"]:
        notes.append(f"{pr['type_mismatch']} results give another type than the set's")
    if notes:
        out += ["", "Not scored: " + "; ".join(notes) + "."]
    return "\n".join(out).strip() + "\n"


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

    def tearDown(self):
        self.dir.cleanup()

    def test_figures(self):
        fig = score(self.root / "sets", self.root / "results")
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
                                                 "corrupt_caught_new": 0, "precision": 0.0})
        self.assertEqual(fig["codes"]["RS501"]["precision"], 1.0)
        self.assertEqual(fig["problems"]["no_result"], ["fam/right.yaml: u1"])
        self.assertEqual(fig["problems"]["unknown_id"], ["fam/answer_moved.yaml: ghost"])
        self.assertEqual(fig["problems"]["type_mismatch"], 1)  # l3: identifier vs lookup
        md = markdown(fig, "fake")
        self.assertIn("| fam | lookup | 3 | 2 | 67% | RS201 2, RS305 1 |", md)
        self.assertIn("| answer_moved | 2 | 1 | 50% | 0/1 | 0% | fam 1/2 | - |", md)
        self.assertIn("| RS201 | 2 of 3 | 0 of 3 | 0% |", md)
        self.assertIn("| RS501 | 0 of 3 | 1 of 3 | 100% |", md)
        self.assertIn("1 cases without a result line", md)
        m = matrix(fig, "fam", "lookup")
        self.assertIn("| code | right | answer_moved |", m)
        self.assertIn("| **none (accepted)** | 1 | 1 |", m)
        self.assertIn("| RS201 | 2 | 1 |", m)

    def test_a_missing_result_file_is_named(self):
        (self.root / "results" / "fam" / "answer_moved.jsonl").unlink()
        fig = score(self.root / "sets", self.root / "results")
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
    v = sub.add_parser("from-verify")
    v.add_argument("--verify", required=True)
    v.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.cmd == "from-verify":
        return from_verify(a)
    fig = score(a.sets, a.results)
    print(markdown(fig, a.label))
    for spec in a.matrix:
        family, _, kind = spec.partition(":")
        print(matrix(fig, family, kind))
    if a.json:
        tmp = Path(a.json + ".tmp")
        tmp.write_text(json.dumps({"label": a.label, **fig}, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, a.json)


if __name__ == "__main__":
    main()
