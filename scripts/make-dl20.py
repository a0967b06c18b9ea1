"""Converts TREC DL 2020 (../shared/data/msmarco-dl20) into a corpus and a ragsynth set of real
questions: every passage of the 54 judged queries' BM25 top 100, one `<docid>.txt` each (deduped
by docid), and the 54 queries as real, accepted cases labelled with each of their judged passages
of grade >= 2 that the pool holds (the whole passage, less surrounding blanks, as the span). A
query none of whose relevant passages is in the pool is left out (and named): an empty label
list would claim the corpus cannot answer it.

  python scripts/make-dl20.py SHARED_DATA OUT      (scripts/corpora.sh dl20 runs it)

Writes OUT/docs/ (with SOURCE.txt) and OUT/set.yaml. Env: RAGSYNTH_BIN, when set or on PATH,
reads the corpus back as ragsynth does and checks every label's span against its quote.
"""

import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

import benchlib as bl


def read(shared):
    """(runs file, qrels file, {docid: passage}, {qid: query}, {qid: {docid: grade}}): every
    passage of the BM25 top 100s and every judgment of a passage the pool holds."""
    data = Path(shared) / "msmarco-dl20"
    runs_file, qrels_file = data / "bm25_top100_dl20.json", data / "qrels.dl20-passage.txt"
    runs = json.loads(runs_file.read_text(encoding="utf-8"))
    text, query = {}, {}
    for run in runs:
        for hit in run["hits"]:
            query[str(hit["qid"])] = run["query"]
            text.setdefault(str(hit["docid"]), hit["content"])
    grades = defaultdict(dict)
    for n, line in enumerate(qrels_file.read_text().splitlines(), 1):
        f = line.split()
        if len(f) != 4:
            bl.die(f"{qrels_file}:{n}: expected `qid 0 pid grade`")
        if f[2] in text:
            grades[f[0]][f[2]] = int(f[3])
    return runs_file, qrels_file, text, query, grades


def build(shared, out):
    """Writes OUT/docs (one file per passage, SOURCE.txt) and returns
    {text, query, grades, cases, unlabelled, docs}; make-check-sets.py builds its DL 2020 sets
    from the same."""
    runs_file, qrels_file, text, query, grades = read(shared)
    docs = Path(out) / "docs"
    docs.mkdir(parents=True)
    for docid, t in text.items():
        (docs / f"{docid}.txt").write_text(t, encoding="utf-8")
    cases, unlabelled = [], []
    for qid in sorted(query, key=int):
        relevant = sorted((-g, pid) for pid, g in grades.get(qid, {}).items() if g >= 2)
        labels = [bl.whole(f"{pid}.txt", text[pid]) for _, pid in relevant]
        if not labels:  # `relevant: []` would claim the corpus cannot answer it
            unlabelled.append(qid)
            continue
        cases.append({"id": f"dl20-{qid}", "question": query[qid], "relevant": labels,
                      "tags": {"source": "real"}, "review": "accepted"})
    sha = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (runs_file, qrels_file)}
    (docs / "SOURCE.txt").write_text(
        "TREC Deep Learning 2020 passage track, as kept in shared/data/msmarco-dl20\n"
        "(qrels and topics from castorini/anserini-tools, passages from castorini/rank_llm):\n"
        + "".join(f"  {name} sha256 {h}\n" for name, h in sha.items())
        + f"{len(text)} passages (every hit of the {len(set(query.values()))} queries' BM25 top "
        "100, deduped by docid), one file each; set.yaml beside this folder: the queries as real "
        f"cases labelled with their passages of grade >= 2 ({len(cases)} queries; left out, none "
        f"of their relevant passages in the pool: {', '.join(unlabelled) or 'none'}).\n"
        "licence: MS MARCO terms, non-commercial research use.\n", encoding="utf-8")
    (docs / ".ragsynthignore").write_text("SOURCE.txt\n")
    return {"text": text, "query": query, "grades": grades, "cases": cases,
            "unlabelled": unlabelled, "docs": docs}


def main():
    out = Path(sys.argv[2])
    b = build(sys.argv[1], out)
    cases, docs = b["cases"], b["docs"]
    bl.write_set(out / "set.yaml", docs, cases)
    print(f"dl20: {len(b['text'])} passages, {len(cases)} queries, "
          f"{sum(len(c['relevant']) for c in cases)} labels; left out, no relevant passage in the "
          f"pool: {b['unlabelled'] or 'none'}",
          file=sys.stderr)
    bl.check_spans(out / "set.yaml", docs, cases)


if __name__ == "__main__":
    main()
