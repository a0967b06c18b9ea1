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


def main():
    data, out = Path(sys.argv[1]) / "msmarco-dl20", Path(sys.argv[2])
    runs_file, qrels_file = data / "bm25_top100_dl20.json", data / "qrels.dl20-passage.txt"
    runs = json.loads(runs_file.read_text(encoding="utf-8"))
    text, query = {}, {}
    for run in runs:
        for hit in run["hits"]:
            query[str(hit["qid"])] = run["query"]
            text.setdefault(str(hit["docid"]), hit["content"])
    relevant = defaultdict(list)
    for n, line in enumerate(qrels_file.read_text().splitlines(), 1):
        f = line.split()
        if len(f) != 4:
            bl.die(f"{qrels_file}:{n}: expected `qid 0 pid grade`")
        if int(f[3]) >= 2 and f[2] in text:
            relevant[f[0]].append((-int(f[3]), f[2]))
    docs = out / "docs"
    docs.mkdir(parents=True)
    for docid, t in text.items():
        (docs / f"{docid}.txt").write_text(t, encoding="utf-8")
    cases, unlabelled = [], []
    for qid in sorted(query, key=int):
        labels = [bl.whole(f"{pid}.txt", text[pid]) for _, pid in sorted(relevant.get(qid, []))]
        if not labels:  # `relevant: []` would claim the corpus cannot answer it
            unlabelled.append(qid)
            continue
        cases.append({"id": f"dl20-{qid}", "question": query[qid], "relevant": labels,
                      "tags": {"source": "real"}, "review": "accepted"})
    bl.write_set(out / "set.yaml", docs, cases)
    sha = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (runs_file, qrels_file)}
    (docs / "SOURCE.txt").write_text(
        "TREC Deep Learning 2020 passage track, as kept in shared/data/msmarco-dl20\n"
        "(qrels and topics from castorini/anserini-tools, passages from castorini/rank_llm):\n"
        + "".join(f"  {name} sha256 {h}\n" for name, h in sha.items())
        + f"{len(text)} passages (every hit of the {len(runs)} queries' BM25 top 100, deduped by "
        "docid), one file each; set.yaml beside this folder: the queries as real cases labelled "
        f"with their passages of grade >= 2 ({len(cases)} queries; left out, none of their "
        f"relevant passages in the pool: {', '.join(unlabelled) or 'none'}).\n"
        "licence: MS MARCO terms, non-commercial research use.\n", encoding="utf-8")
    (docs / ".ragsynthignore").write_text("SOURCE.txt\n")
    print(f"dl20: {len(text)} passages, {len(cases)} queries, "
          f"{sum(len(c['relevant']) for c in cases)} labels; left out, no relevant passage in the "
          f"pool: {unlabelled or 'none'}",
          file=sys.stderr)
    bl.check_spans(out / "set.yaml", docs, cases)


if __name__ == "__main__":
    main()
