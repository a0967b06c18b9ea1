"""Converts the first 50 HotpotQA dev questions (distractor setting, ../shared/data/hotpotqa) into
one corpus and one ragsynth set, to test a multi-hop bridge verification on questions people
wrote (issue 23).

Corpus: one `<title>.txt` per paragraph title over the 50 questions' 10 paragraphs each, deduped
by title, the paragraph's sentences joined as HotpotQA gives them (each carries its own leading
space). Set: one case per question, source real, accepted, tags.difficulty = HotpotQA's level,
one label per supporting paragraph (from its first to its last supporting sentence).
- bridge questions -> type multi_hop with two `hops`: hop 1 is the supporting paragraph whose
  title the question names (or, when that is unclear, the one whose supporting sentences do not
  hold the answer), hop 2 the other; hop 1's answer and the case's `bridge` are hop 2's title
  (without a parenthesised qualifier) when the question does not name it; hop 2's answer is the
  answer. HotpotQA has no per-hop questions, so the hops carry none.
- comparison questions -> type comparison with one label and one side (the title) per paragraph.
How each bridge's hops were chosen is kept in the case's `hotpot` field and summed up at the end.

  python scripts/make-hotpot.py SHARED_DATA OUT      (scripts/corpora.sh hotpot runs it)

Writes OUT/docs/ (with SOURCE.txt) and OUT/set.yaml. Env: RAGSYNTH_BIN, when set or on PATH,
reads the corpus back as ragsynth does and checks every label's span against its quote.
"""

import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

import benchlib as bl


def file_name(title):
    return re.sub(r"[/\\\x00]", "_", title).lstrip(".") + ".txt"


def bare(title):
    """The title without a trailing parenthesised qualifier: "Kiss and Tell (1945 film)"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", title).strip()


def norm(text):
    return " ".join(bl.words(text.lower()))


def supporting(record, paragraphs):
    """{title: (start, end)} of the supporting sentences, in the order HotpotQA lists them."""
    spans = {}
    for title, sid in zip(record["supporting_facts"]["title"],
                          record["supporting_facts"]["sent_id"]):
        sentences = paragraphs[title]
        if sid >= len(sentences):
            continue  # HotpotQA points past a few paragraphs' last sentence
        start = sum(len(s) for s in sentences[:sid])
        lead = len(sentences[sid]) - len(sentences[sid].lstrip())
        s, e = start + lead, start + len(sentences[sid].rstrip())
        old = spans.get(title)
        spans[title] = (min(old[0], s), max(old[1], e)) if old else (s, e)
    return spans


def hops(question, answer, titles, texts):
    """(hop 1, hop 2, rule) for a bridge question's two supporting titles."""
    named = [t for t in titles if norm(bare(t)) in norm(question)]
    holds = [t for t in titles if norm(answer) in norm(texts[t])]
    if len(named) == 1:
        first = named[0]
        rule = "named" if holds != [first] else "named, though its span holds the answer"
    elif len(holds) == 1:
        first, rule = next(t for t in titles if t != holds[0]), "answer"
    else:
        first, rule = titles[0], "unclear: HotpotQA's order"
    return first, next(t for t in titles if t != first), rule


def convert(record, n, paragraphs, texts):
    spans = supporting(record, paragraphs)
    titles = list(spans)
    case = {"id": f"hotpot-{n:02d}", "question": record["question"], "answer": record["answer"]}
    if len(titles) != 2:
        return None, f"{case['id']}: {len(titles)} supporting paragraphs"
    span_text = {t: texts[t][s:e] for t, (s, e) in spans.items()}
    note = {}
    if record["type"] == "bridge":
        first, second, rule = hops(record["question"], record["answer"], titles, span_text)
        titles = [first, second]
        named = norm(bare(second)) in norm(record["question"])
        case["hops"] = [{"answer": bare(second), "relevant": [0]},
                        {"answer": record["answer"], "relevant": [1]}]
        if not named:
            case["bridge"] = bare(second)
        note = {"hops": rule, "bridge": "named in the question" if named
                else "the answer" if norm(bare(second)) == norm(record["answer"]) else "unnamed"}
        kind = "multi_hop"
    else:
        case["sides"] = [{"name": bare(t), "relevant": [i]} for i, t in enumerate(titles)]
        kind = "comparison"
    case["relevant"] = [bl.label(file_name(t), texts[t], *spans[t]) for t in titles]
    case["tags"] = {"type": kind, "source": "real", "difficulty": record.get("level")}
    case["review"] = "accepted"
    if note:
        case["hotpot"] = note
    return case, None


def build(shared, out):
    """Writes OUT/docs (one file per title, SOURCE.txt) and returns what the set is made from:
    {records, paragraphs (title: sentences), texts (title: text), cases, problems, clashes,
    docs}. make-check-sets.py builds its HotpotQA sets from the same."""
    src = Path(shared) / "hotpotqa" / "hotpot-dev-distractor-first50.json"
    records = json.loads(src.read_text(encoding="utf-8"))
    paragraphs, clashes = {}, []
    for r in records:
        for title, sentences in zip(r["context"]["title"], r["context"]["sentences"]):
            if paragraphs.setdefault(title, sentences) != sentences:
                clashes.append(title)
    texts = {t: "".join(s) for t, s in paragraphs.items()}
    names = Counter(file_name(t) for t in texts)
    if max(names.values()) > 1:
        bl.die(f"{src}: two titles share a file name: {names.most_common(1)[0][0]}")
    docs = Path(out) / "docs"
    docs.mkdir(parents=True)
    for title, text in texts.items():
        (docs / file_name(title)).write_text(text, encoding="utf-8")
    cases, problems = [], []
    for n, r in enumerate(records, 1):
        case, problem = convert(r, n, paragraphs, texts)
        (cases.append(case) if case else problems.append(problem))
    (docs / "SOURCE.txt").write_text(
        "HotpotQA dev set, distractor setting, first 50 questions, as kept in "
        "shared/data/hotpotqa\n"
        f"  {src.name} sha256 {hashlib.sha256(src.read_bytes()).hexdigest()}\n"
        f"{len(texts)} paragraphs, one file per title (sentences joined); set.yaml beside this "
        "folder.\nlicence: CC BY-SA 4.0 (HotpotQA)\n", encoding="utf-8")
    (docs / ".ragsynthignore").write_text("SOURCE.txt\n")
    return {"records": records, "paragraphs": paragraphs, "texts": texts, "cases": cases,
            "problems": problems, "clashes": clashes, "docs": docs}


def main():
    out = Path(sys.argv[2])
    b = build(sys.argv[1], out)
    texts, cases, docs = b["texts"], b["cases"], b["docs"]
    bl.write_set(out / "set.yaml", docs, cases)
    types = Counter(c["tags"]["type"] for c in cases)
    rules = Counter(c["hotpot"]["hops"] for c in cases if "hotpot" in c)
    bridges = Counter(c["hotpot"]["bridge"] for c in cases if "hotpot" in c)
    print(f"hotpot: {len(texts)} paragraphs, {len(cases)} cases {dict(types)}; hop 1 chosen by "
          f"{dict(rules)}; bridge {dict(bridges)}; titles with two texts: "
          f"{b['clashes'] or 'none'}; left out: {b['problems'] or 'none'}", file=sys.stderr)
    bl.check_spans(out / "set.yaml", docs, cases)


if __name__ == "__main__":
    main()
