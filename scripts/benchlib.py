"""Shared parts of the independent measures (scripts/*.py): reading and writing test-set files,
the documents' text as ragsynth reads it, paragraphs, a bm25s index over them, and words.

Nothing here calls ragsynth's own index, audit or verification: the judge is bm25s (PyPI
package; PyStemmer's Snowball stemmer on request) over blank-line paragraphs. The one thing
taken from ragsynth is the documents' text (`ragsynth chunk --format jsonl` with one chunk per document),
because label offsets count characters of that text (HTML is converted to text first).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

CHUNKING = {"splitter": "auto", "unit": "chars", "size": 1200, "overlap": 120}
WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*", re.UNICODE)


def die(msg):
    sys.exit(f"{Path(sys.argv[0]).name}: {msg}")


# ---- test-set files -------------------------------------------------------------------------


def load_set(path):
    """(header, cases) of a ragsynth set: YAML (`cases:` list) or JSON Lines (one case a line;
    a first line without `question` is the header)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        die(f"{path}: cannot read the set: {e}")
    if path.suffix in (".jsonl", ".ndjson"):
        header, cases = {}, []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                die(f"{path}:{n}: not JSON: {e}")
            (cases.append(row) if "question" in row else header.update(row))
        return header, cases
    try:
        doc = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        die(f"{path}: not YAML: {e}")
    return {k: v for k, v in doc.items() if k != "cases"}, doc.get("cases") or []


def corpus_root(set_path, header):
    root = (header.get("corpus") or {}).get("root")
    return (Path(set_path).parent / root).resolve() if root else None


def fingerprint(corpus_dir, docs):
    """ragsynth's corpus fingerprint: sha256 over `path NUL sha256(bytes) LF`, in path order."""
    h = hashlib.sha256()
    for rel in sorted(docs):
        digest = hashlib.sha256((Path(corpus_dir) / rel).read_bytes()).hexdigest()
        h.update(rel.encode() + b"\0" + digest.encode() + b"\n")
    return "sha256:" + h.hexdigest()


def write_set(path, corpus_dir, cases):
    """Write a format-1 YAML set whose corpus root is relative to the set's folder."""
    path, corpus_dir = Path(path), Path(corpus_dir)
    docs = [str(p.relative_to(corpus_dir)) for p in corpus_dir.rglob("*")
            if p.is_file() and p.suffix in (".txt", ".md", ".rst", ".html")
            and p.name != "SOURCE.txt"]
    doc = {
        "ragsynth": 1,
        "corpus": {"root": os.path.relpath(corpus_dir, path.parent),
                   "fingerprint": fingerprint(corpus_dir, docs)},
        "chunking": CHUNKING,
        "cases": cases,
    }
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100),
                   encoding="utf-8")
    tmp.replace(path)


def label(doc, text, start, end):
    return {"doc": doc, "start": start, "end": end, "quote": text[start:end]}


def whole(doc, text):
    """A label over all of a document's text but its leading and trailing blanks."""
    return label(doc, text, len(text) - len(text.lstrip()), len(text.rstrip()))


def labels(case):
    """The case's confirmed labels: a label `import` proposed (`candidate: {rank, score}`) and
    nobody confirmed is not one."""
    return [lab for lab in case.get("relevant") or []
            if isinstance(lab, dict) and "candidate" not in lab]


def is_real(case):
    return (case.get("tags") or {}).get("source") != "synthetic"


def kind(case):
    return (case.get("tags") or {}).get("type") or ("unanswerable" if not case.get("relevant")
                                                     else "lookup")


# ---- documents and paragraphs ---------------------------------------------------------------


def ragsynth_bin():
    return os.environ.get("RAGSYNTH_BIN", "ragsynth")


def doc_texts(corpus):
    """{doc path: text} as ragsynth reads the corpus: one chunk per document, padded back to its
    start offset (the splitter trims leading whitespace)."""
    out = subprocess.run(
        [ragsynth_bin(), "chunk", str(corpus), "--size", "100000000", "--overlap", "0",
         "--format", "jsonl"], check=True, capture_output=True, text=True).stdout
    texts = {}
    for line in out.splitlines():
        c = json.loads(line)
        prev = texts.get(c["doc"], "")
        if len(prev) > c["start"]:
            die(f"{corpus}: {c['doc']} came back as more than one chunk")
        texts[c["doc"]] = prev + " " * (c["start"] - len(prev)) + c["text"]
    return texts


def check_spans(set_path, docs, cases):
    """Reads the corpus back as ragsynth does and checks every label's span holds its quote."""
    if not shutil.which(ragsynth_bin()):
        print(f"{set_path}: spans not checked (no ragsynth binary; set RAGSYNTH_BIN)",
              file=sys.stderr)
        return
    texts = doc_texts(docs)
    for c in cases:
        for lab in c["relevant"]:
            got = texts.get(lab["doc"], "")[lab["start"]:lab["end"]]
            if got != lab["quote"]:
                die(f"{set_path}: {c['id']}: {lab['doc']} {lab['start']}..{lab['end']} "
                    "does not hold its quote as ragsynth reads the file")
    print(f"{set_path}: every span holds its quote", file=sys.stderr)


def paragraphs(texts):
    """Blank-line separated paragraphs: [(doc, start, end, text)] in corpus order."""
    paras = []
    for doc in sorted(texts):
        text, pos = texts[doc], 0
        for m in re.finditer(r"\n[ \t]*\n", text + "\n\n"):
            chunk = text[pos:m.start()]
            if chunk.strip():
                lead = len(chunk) - len(chunk.lstrip())
                paras.append((doc, pos + lead, m.start(), chunk.strip()))
            pos = m.end()
    return paras


# A sentence ends at . ! or ? (and any closing quote or bracket) before blanks and a capital,
# digit or opening mark; or at a blank line; or before a line that opens a list item, table row,
# heading or directive.
SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[\"'“‘(\[`*_]*[A-Z0-9])"
                          r"|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[|*+#-]|\d+\.|\.\.)\s)")
# Words whose period does not end a sentence: titles, "e.g.", "c." (circa), "No." and initials.
ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "e.g", "i.e", "cf", "c", "ca",
                 "no", "vol", "pp", "fig", "mt", "ft", "approx", "inc", "ltd", "co", "gen", "col",
                 "lt", "capt", "sgt", "rev", "prof", "u.s", "u.k"}


def sentences(text, start=0, end=None):
    """[(start, end)] of the sentences of text[start:end], blanks trimmed, in order."""
    end = len(text) if end is None else end
    out, pos = [], start
    for m in SENTENCE_END.finditer(text, start, end):
        if text[m.start()] == ".":
            before = re.search(r"([\w.]+)$", text[pos:m.start()])
            word = before.group(1).lower() if before else ""
            if word in ABBREVIATIONS or re.fullmatch(r"[a-z]", word):
                continue
        cut = m.start() + 1 if text[m.start()] in ".!?" else m.start()
        while cut < m.end() and text[cut] in "\"'”’)]":
            cut += 1
        out.append((pos, cut))
        pos = m.end()
    out.append((pos, end))
    trimmed = []
    for s, e in out:
        chunk = text[s:e]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            trimmed.append((s + lead, s + len(chunk.rstrip())))
    return trimmed


def overlaps(para, lab):
    doc, start, end, _ = para
    return doc == lab.get("doc") and start < lab.get("end", 0) and lab.get("start", 0) < end


class Index:
    """A bm25s index over the paragraphs: its defaults (BM25 "lucene", k1 1.5, b 0.75), its
    English stopwords, and no stemmer unless asked (PyStemmer's Snowball English) — the setting
    that gave the figures issue 22 quotes."""

    def __init__(self, paras, stem=False):
        import bm25s

        self.bm25s, self.paras = bm25s, paras
        self.stemmer = None
        if stem:
            import Stemmer

            self.stemmer = Stemmer.Stemmer("english")
        self.retriever = bm25s.BM25()
        self.retriever.index(self._tokens([p[3] for p in paras]), show_progress=False)

    def _tokens(self, texts, ids=True):
        return self.bm25s.tokenize(texts, stopwords="en", stemmer=self.stemmer,
                                   return_ids=ids, show_progress=False)

    def ranking(self, query, k=100):
        """Paragraph indices, best first: at most k, only those sharing a term with the query."""
        tokens = self._tokens([query], ids=False)
        if not tokens[0]:
            return []
        docs, scores = self.retriever.retrieve(tokens, k=min(k, len(self.paras)),
                                               show_progress=False)
        return [int(d) for d, s in zip(docs[0], scores[0]) if s > 0]


# ---- words ----------------------------------------------------------------------------------


def words(text):
    return WORD.findall(text or "")


# English function words for the content-word checks (the index keeps bm25s's own, shorter list).
FUNCTION_WORDS = """a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it its
itself just me more most my myself no nor not now of off on once only or other our ours ourselves
out over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves also may might must shall s t
""".split()


def stopwords():
    return set(FUNCTION_WORDS)


def content_words(text, stop=None):
    stop = stop if stop is not None else stopwords()
    return [w.lower() for w in words(text) if w.lower() not in stop]
