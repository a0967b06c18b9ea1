"""Builds the people-written test sets that measure generate's checks (issue 67): right cases
written by people, and the same cases corrupted in known ways, one ragsynth set per family and
variant, for `ragsynth check SET --json` and scripts/bench-checks.py.

Families (every case `source: real`, `review: accepted`; one corpus file per paragraph or
passage, as make-hotpot.py does):
- squad2: SQuAD 2.0 dev "Normans" (39 paragraphs, normans-NN.txt). Answerable -> lookup, the
  label the sentence(s) holding the first crowd answer's span, the answer that crowd answer;
  unanswerable -> unanswerable (`relevant: []`, no answer).
- xquad: XQuAD English (240 paragraphs, <title>-NN.txt), a seeded sample of --xquad questions
  (200) -> lookup, labelled as squad2.
- hotpot: HotpotQA dev distractor, first 50 (make-hotpot.py's corpus and cases): bridges ->
  multi_hop (hops, bridge), comparisons -> comparison (sides, no values: HotpotQA has none).
- dl20: TREC DL 2020 (make-dl20.py's corpus and cases): keyword queries -> lookup labelled with
  their judged passages of grade >= 2. No answer: DL 2020 has no reference answers, and one cut
  from the passage would be ours, not people's.
- marks: the tuning half's hand marks (benches/correctness/*.marks.jsonl, never heldout/) whose
  `right` is true, one set per corpus (marks-black, ...; the corpora of scripts/corpora.sh).
  A mark keeps the first 200 characters of its first label's quote: the label is where that
  text is in the corpus (the occurrence whose paragraph holds most of the answer's words),
  extended to the end of its sentence when the quote was cut. An identifier's `identifier` is
  the code of its question found in the label, else the longest backticked text of the label
  that the question gives verbatim ("403 Forbidden"). A comparison's sides are the two names of its
  question ("between A and B", "how do A and B differ"), their values from an answer "A: x;
  B: y"; a side its label does not name is labelled with the sentence of the same document
  that names it as a whole word (else the line), holds its value (verbatim first) and shares
  most words with it. A bridge's bridge is a code of hop 1's label the question does not name,
  its hop 2 the shortest sentence or paragraph elsewhere that names the bridge and holds the
  answer. A case none of this works for is left out and named.
- identifiers written by people: none. SQuAD, XQuAD and HotpotQA are Wikipedia questions, and
  DL 2020's queries name acronyms and terms ("what is rsrq", "meaning of shebang"), not codes,
  keys or flags given verbatim; only the hand marks hold identifier cases.

Corruptions (scripts/corruptions.py, one function each; every choice seeded per case):
- answer_moved: the answer replaced by another span of the same passage, the same number of
  words, that overlaps no reference answer and shares none of their words.
- label_moved: the label moved to the neighbouring sentence that does not hold the answer
  (HotpotQA: hop 2's / the second side's label to a non-supporting sentence of its paragraph;
  DL 2020: to passages judged not relevant, grade 0).
- answer_negated: yes <-> no, the other side of a comparison, a changed number, or "not X".
- thing_swapped: the question's thing (a code, name, year or number of the question that its
  label holds) swapped for another of its kind that the corpus never mentions; label and answer
  kept, so the corpus cannot answer it.
- marked_unanswerable: an answerable lookup or identifier marked unanswerable (`relevant: []`):
  the reverse, an unanswerable case the corpus answers.
- name_replaced: the question's name replaced by a reference that leans on the page ("the
  function", "this", "they"; a code followed by its kind dropped: "the `p2` variable" -> "the
  variable"); keyword queries "what is X" -> "what is it".
- joined: two questions of the same group joined by "and" (both labels and answers); a bridge
  as scripts/hotpot-joined.py asks it.
- single_hop: a bridge whose question names its bridge, so hop 1 is not needed.
A corrupted case: `id: <id>~<corruption>`, `corrupted_from: <id>`, `tags.corruption`.

Every set is checked with the ragsynth binary: `ragsynth audit SET --select RS401,...,RS405`
must find nothing (each label's span holds its quote, docs exist, the fingerprint matches).

  python scripts/make-check-sets.py SHARED_DATA OUT [--seed N] [--xquad N]
  python scripts/make-check-sets.py --show OUT [--n 10] [--only CORRUPTION]   (spot-check)

Writes OUT/<family>/{docs/, right.yaml, <corruption>.yaml} (the marks' sets point at
scripts/corpora.sh's corpora) and OUT/manifest.json (every set: family, corpus, variant, cases
per type; the cases left out and why). Env: RAGSYNTH_BIN (default `ragsynth` on PATH).
"""

import argparse
import hashlib
import importlib
import json
import random
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import benchlib as bl
import corruptions as cx

HERE = Path(__file__).resolve().parent
MARK_CORPORA = ["black", "rustbook", "flask", "attrs", "click", "jinja"]
QUOTE_CHARS = 200
LABEL_RULES = "RS401,RS402,RS403,RS404,RS405"


class Family:
    """A corpus and its right cases, each with its `corruptions.Source`."""

    def __init__(self, name, folder, corpus_dir, texts, swap_pool=None, bounds=None):
        self.name, self.folder, self.corpus_dir, self.texts = name, folder, corpus_dir, texts
        self.swap_pool, self.bounds = swap_pool, bounds or {}
        self.lower_text = "\n".join(texts.values()).lower()
        self.cases, self.left_out = [], []
        self.words = WORDS
        self.pools = {}
        self._sentences = {}

    def sentences(self, doc, start=0, end=None):
        """The doc's sentences (HotpotQA's own, else benchlib's split) inside [start, end)."""
        if doc not in self._sentences:
            self._sentences[doc] = self.bounds.get(doc) or bl.sentences(self.texts[doc])
        end = len(self.texts[doc]) if end is None else end
        return [(s, e) for s, e in self._sentences[doc] if start <= s and e <= end]

    def add(self, case, **source):
        self.cases.append((case, cx.Source(self, swap_pool=self.swap_pool, **source)))


def sentence_label(fam, doc, start, end):
    """The label over the sentences of doc that [start, end) touches."""
    text = fam.texts[doc]
    touched = [(s, e) for s, e in fam.sentences(doc) if s < end and start < e]
    s = min([start] + [s for s, _ in touched])
    e = max([end] + [e for _, e in touched])
    return bl.label(doc, text, s, e)


def paragraph_of(text, start, end):
    """(start, end) of the blank-line paragraph(s) around [start, end)."""
    before = [m.end() for m in re.finditer(r"\n[ \t]*\n", text[:start])]
    after = re.search(r"\n[ \t]*\n", text[end:])
    return (before[-1] if before else 0), (end + after.start() if after else len(text))


def real(case_id, question, kind, relevant, answer=None, **extra):
    case = {"id": case_id, "question": question}
    if answer is not None:
        case["answer"] = answer
    case["relevant"] = relevant
    case.update(extra)
    case["tags"] = {"type": kind, "source": "real"}
    case["review"] = "accepted"
    return case


def write_docs(folder, docs, source):
    """Writes {file name: text} into folder/docs with SOURCE.txt and its ignore file."""
    folder.mkdir(parents=True)
    for name, text in docs.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "SOURCE.txt").write_text(source, encoding="utf-8")
    (folder / ".ragsynthignore").write_text("SOURCE.txt\n")


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---- SQuAD 2.0 and XQuAD --------------------------------------------------------------------


def squad_like(fam, questions, prefix):
    """Adds squad-format questions [(doc, qa)] as lookups / unanswerables."""
    for doc, qa in questions:
        text = fam.texts[doc]
        cid = f"{prefix}-{qa['id']}"
        if qa.get("is_impossible"):
            fam.add(real(cid, qa["question"], "unanswerable", []), group=doc)
            continue
        answers = []
        for a in qa["answers"]:
            s = a["answer_start"]
            if text[s:s + len(a["text"])] != a["text"]:
                s = text.find(a["text"])
            if s >= 0:
                answers.append((a["text"], s))
        if not answers:
            fam.left_out.append(f"{cid}: no crowd answer found in its paragraph")
            continue
        first, start = answers[0]
        lab = sentence_label(fam, doc, start, start + len(first))
        fam.add(real(cid, qa["question"], "lookup", [lab], first),
                answers=sorted({a for a, _ in answers}), group=doc, passage=(doc, 0, len(text)))


def squad2(shared, out, seed):
    src = Path(shared) / "squad2" / "squad2-normans.json"
    article = json.loads(src.read_text(encoding="utf-8"))["data"][0]
    docs = {f"normans-{i:02d}.txt": p["context"] for i, p in enumerate(article["paragraphs"])}
    folder = out / "squad2"
    write_docs(folder / "docs", docs,
               "SQuAD 2.0 dev, the article \"Normans\", as kept in shared/data/squad2\n"
               f"  {src.name} sha256 {sha(src)}\n{len(docs)} paragraphs, one file each.\n"
               "licence: CC BY-SA 4.0 (SQuAD 2.0)\n")
    fam = Family("squad2", folder, folder / "docs", docs, swap_pool="wiki")
    squad_like(fam, [(f"normans-{i:02d}.txt", qa)
                           for i, p in enumerate(article["paragraphs"]) for qa in p["qas"]],
               "squad2")
    return fam


def xquad(shared, out, seed, sample):
    src = Path(shared) / "xquad" / "xquad.en.json"
    data = json.loads(src.read_text(encoding="utf-8"))["data"]
    docs, questions = {}, []
    for article in data:
        for i, p in enumerate(article["paragraphs"]):
            name = re.sub(r"[^\w.-]", "_", article["title"]) + f"-{i:02d}.txt"
            docs[name] = p["context"]
            questions += [(name, qa) for qa in p["qas"]]
    rng = random.Random(f"{seed}:xquad")
    chosen = sorted(rng.sample(range(len(questions)), min(sample, len(questions))))
    folder = out / "xquad"
    write_docs(folder / "docs", docs,
               "XQuAD English, as kept in shared/data/xquad\n"
               f"  {src.name} sha256 {sha(src)}\n{len(docs)} paragraphs, one file each; the set "
               f"holds {len(chosen)} of its {len(questions)} questions (seed {seed}).\n"
               "licence: CC BY-SA 4.0 (XQuAD)\n")
    fam = Family("xquad", folder, folder / "docs", docs, swap_pool="wiki")
    squad_like(fam, [questions[i] for i in chosen], "xquad")
    return fam


# ---- HotpotQA and DL 2020 (their converters' corpora and cases) ----------------------------


def hotpot(shared, out, seed):
    mod = importlib.import_module("make-hotpot")
    b = mod.build(shared, out / "hotpot")
    bounds, texts, title_of = {}, {}, {}
    for title, sents in b["paragraphs"].items():
        doc = mod.file_name(title)
        title_of[doc] = title
        texts[doc] = b["texts"][title]
        pos, spans = 0, []
        for s in sents:
            lead = len(s) - len(s.lstrip())
            spans.append((pos + lead, pos + len(s.rstrip())))
            pos += len(s)
        bounds[doc] = spans
    fam = Family("hotpot", out / "hotpot", b["docs"], texts, swap_pool="wiki", bounds=bounds)
    for case in b["cases"]:
        record = b["records"][int(case["id"].split("-")[1]) - 1]
        supporting = defaultdict(set)
        for title, sid in zip(record["supporting_facts"]["title"],
                              record["supporting_facts"]["sent_id"]):
            supporting[mod.file_name(title)].add(sid)
        last = case["relevant"][-1]["doc"]
        titles = [mod.bare(title_of[lab["doc"]]) for lab in case["relevant"]]
        fam.add(case, answers=[case["answer"]], supporting=dict(supporting),
                passage=(last, 0, len(texts[last])), titles=titles)
    return fam


def dl20(shared, out, seed):
    mod = importlib.import_module("make-dl20")
    b = mod.build(shared, out / "dl20")
    texts = {f"{d}.txt": t for d, t in b["text"].items()}
    fam = Family("dl20", out / "dl20", b["docs"], texts)
    for case in b["cases"]:
        case["tags"]["type"] = "lookup"
        qid = case["id"].split("-")[1]
        others = [f"{d}.txt" for d, g in b["grades"][qid].items() if g == 0]
        fam.add(case, group="all", others=others, lowercase_queries=True)
    return fam


# ---- the hand marks -------------------------------------------------------------------------


def locate(fam, quote, answer):
    """(doc, start, end) of the quote in the corpus: of several, the one whose paragraph holds
    the most of the answer's content words; None when it is nowhere."""
    hits = [(doc, m.start()) for doc in sorted(fam.texts)
            for m in re.finditer(re.escape(quote), fam.texts[doc])] if quote else []
    if not hits:
        return None
    want = set(bl.content_words(answer or ""))

    def score(hit):
        doc, s = hit
        ps, pe = paragraph_of(fam.texts[doc], s, s + len(quote))
        return -len(want & set(bl.content_words(fam.texts[doc][ps:pe])))

    doc, start = min(hits, key=score)
    end = start + len(quote)
    if len(quote) >= QUOTE_CHARS:  # cut by marks.py: the label ran on to its sentence's end
        ends = [e for s, e in fam.sentences(doc) if s < end <= e]
        end = max([end] + ends)
    return doc, start, end


def bare_code(text):
    return text.strip("`").strip()


def side_names(question):
    m = re.search(r"(?:difference between|how (?:do|does))\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?"
                  r"(.+?)(?:\s+(?:differ|handle|compare)\b.*)?\??\s*$", question, re.I)
    return [bare_code(m.group(1)), bare_code(m.group(2))] if m else None


def side_values(answer, names):
    parts = [p.strip() for p in (answer or "").split(";")]
    values = {}
    for p in parts:
        name, sep, value = p.partition(":")
        if sep and bare_code(name).lower() in [n.lower() for n in names]:
            values[bare_code(name).lower()] = value.strip()
    return values


def mark_comparison(fam, cid, m, first):
    """A comparison from its mark, or (None, why)."""
    names = side_names(m["question"])
    if not names:
        return None, "no two sides in the question"
    values = side_values(m["answer"], names)
    labels, sides = [first], []
    want = set(bl.content_words(" ".join(values.values()) or m["answer"] or ""))
    for name in names:
        value = values.get(name.lower())
        named = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w])")
        if named.search(first["quote"]):
            sides.append({"name": name, **({"value": value} if value else {}), "relevant": [0]})
            continue
        doc, text = first["doc"], fam.texts[first["doc"]]
        own = set(bl.content_words(value)) if value else want
        lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]*\S[^\n]*", text)]
        found = [(s, e) for s, e in fam.sentences(doc) + lines
                 if named.search(text[s:e]) and (not value or fam.words.held(value, text[s:e]))]
        if not found:
            return None, f"no sentence of {doc} names the side {name!r}"
        s, e = min(found, key=lambda se: (
            not (value and value.lower().rstrip(".") in text[se[0]:se[1]].lower()),
            -len(own & set(bl.content_words(text[se[0]:se[1]]))), abs(se[0] - first["start"])))
        s += len(text[s:e]) - len(text[s:e].lstrip())
        labels.append(bl.label(doc, fam.texts[doc], s, e))
        sides.append({"name": name, **({"value": value} if value else {}),
                      "relevant": [len(labels) - 1]})
    if len(labels) > 2:
        return None, "more than two labels"
    return real(cid, m["question"], "comparison", labels, m["answer"], sides=sides), None


def mark_bridge(fam, cid, m, first):
    """A bridge from its mark, or (None, why): the bridge a code of hop 1's label that the
    question does not name; hop 2 the sentence (else paragraph) elsewhere that names it and
    holds the answer."""
    hop1 = fam.texts[first["doc"]][first["start"]:first["end"]]
    codes = [t[3] for t in cx.things(hop1) if t[2] == "code"]
    codes = [c for c in dict.fromkeys(codes) if c.lower() not in m["question"].lower()]
    best = None
    for code in codes:
        for doc in sorted(fam.texts):
            text = fam.texts[doc]
            spans = fam.sentences(doc) + [paragraph_of(text, s, s) for s, _ in
                                          fam.sentences(doc)]
            for s, e in spans:
                chunk = text[s:e]
                if code not in chunk or doc == first["doc"] and s < first["end"] \
                        and first["start"] < e or not fam.words.held(m["answer"], chunk):
                    continue
                key = (e - s, doc, s)
                if best is None or key < best[0]:
                    best = (key, code, bl.label(doc, text, s, e))
    if best is None:
        return None, "no bridge: no code of hop 1's label names a passage holding the answer"
    _, code, hop2 = best
    return real(cid, m["question"], "multi_hop", [first, hop2], m["answer"],
                hops=[{"answer": code, "relevant": [0]}, {"answer": m["answer"],
                                                          "relevant": [1]}],
                bridge=code), None


def marks(name, repo):
    corpus = subprocess.run(["bash", str(HERE / "corpora.sh"), name], check=True,
                            capture_output=True, text=True).stdout.strip()
    texts = bl.doc_texts(corpus)
    fam = Family(f"marks-{name}", None, Path(corpus), texts, swap_pool="docs")
    path = repo / "benches" / "correctness" / f"{name}.marks.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        m = json.loads(line)
        if m.get("right") is not True:
            continue
        cid, kind = f"{name}-{m['id']}", m.get("type") or "lookup"
        if kind == "unanswerable":
            fam.add(real(cid, m["question"], "unanswerable", []), group="all")
            continue
        where = locate(fam, m.get("quote") or "", m.get("answer"))
        if where is None:
            fam.left_out.append(f"{cid}: its quote is nowhere in the corpus")
            continue
        doc, s, e = where
        first = bl.label(doc, texts[doc], s, e)
        if kind == "comparison":
            case, why = mark_comparison(fam, cid, m, first)
        elif kind == "multi_hop":
            case, why = mark_bridge(fam, cid, m, first)
        else:
            extra = {}
            if kind == "identifier":
                codes = [t[3] for t in cx.things(m["question"]) if t[2] == "code"
                         and t[3] in first["quote"]]
                # Else what the label marks as code (backticks) and the question says verbatim.
                codes = codes or sorted((c for c in re.findall(r"``?([^`\n]+?)``?", first["quote"])
                                         if c in m["question"]), key=len, reverse=True)
                if not codes:
                    fam.left_out.append(f"{cid}: no code of its question is in its label")
                    continue
                extra["identifier"] = codes[0]
            case, why = real(cid, m["question"], kind, [first], m.get("answer"), **extra), None
        if case is None:
            fam.left_out.append(f"{cid}: {why}")
            continue
        ps, pe = paragraph_of(texts[doc], s, e)
        fam.add(case, answers=[m.get("answer") or ""], group=doc, passage=(doc, ps, pe))
    return fam


# ---- the thing_swapped pools ----------------------------------------------------------------


def pools(families):
    """{(pool, kind): {name: {word before it}}}: capitalised names of the Wikipedia corpora
    ("wiki") and codes (backticked, code-shaped) and names of the docs corpora ("docs"), each
    seen twice or more, a name never opening a sentence and never written in lower case there
    (a proper name, not "Modifications"). swap_for() keeps those the target corpus never
    mentions, of the question's thing's shape, preferring names seen after the same word."""
    seen = defaultdict(Counter)
    before = defaultdict(lambda: defaultdict(set))
    lower = defaultdict(set)
    for fam in families:
        pool = fam.swap_pool
        if not pool:
            continue
        for text in fam.texts.values():
            lower[pool].update(w for w in bl.words(text) if w.islower())
            for m in cx.CAPITALISED.finditer(text):
                prev = re.search(r"([a-z]+)[,;]?\s+$", text[max(0, m.start() - 30):m.start()])
                if prev and m.group().lower() not in bl.stopwords() and len(m.group()) > 2:
                    seen[(pool, "name")][m.group()] += 1
                    before[(pool, "name")][m.group()].add(prev.group(1))
            if pool == "docs":
                for m in re.finditer(r"``?([^`\s]{3,40})``?", text):
                    if cx.code_shaped(m.group(1)):
                        seen[(pool, "code")][m.group(1)] += 1
                        before[(pool, "code")][m.group(1)]
    return {k: {n: before[k][n] for n, c in v.items() if c >= 2
                and not (k[1] == "name" and " " not in n and n.lower() in lower[k[0]])}
            for k, v in seen.items()}


# ---- writing, validating, showing -----------------------------------------------------------


def audit(path):
    """Dies unless `ragsynth audit --select RS401..RS405` finds nothing in the set."""
    if not shutil.which(bl.ragsynth_bin()):
        bl.die(f"{path}: cannot validate the labels: no ragsynth binary (set RAGSYNTH_BIN)")
    out = subprocess.run([bl.ragsynth_bin(), "audit", str(path), "--select", LABEL_RULES,
                          "--format", "json", "--fail-on", "never"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        bl.die(f"{path}: ragsynth audit failed: {out.stderr.strip()}")
    findings = json.loads(out.stdout)["findings"]
    if findings:
        bl.die(f"{path}: {len(findings)} label finding(s), first: {json.dumps(findings[0])}")


def build(a):
    out = Path(a.out)
    if out.exists():
        bl.die(f"{out} exists; remove it or give another folder")
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    repo = HERE.parent
    families = [squad2(a.shared, tmp, a.seed), xquad(a.shared, tmp, a.seed, a.xquad),
                hotpot(a.shared, tmp, a.seed), dl20(a.shared, tmp, a.seed)]
    families += [marks(name, repo) for name in MARK_CORPORA]
    shared_pools = pools(families)
    joined_question = importlib.import_module("hotpot-joined").joined_question
    manifest = {"seed": a.seed, "xquad_sample": a.xquad, "sets": [], "left_out": {}}
    for fam in families:
        fam.pools = shared_pools
        folder = fam.folder or tmp / fam.name
        folder.mkdir(exist_ok=True)
        fam.folder = folder
        variants = {"right": [c for c, _ in fam.cases]}
        for name in cx.NAMES:
            made = []
            for case, src in fam.cases:
                rng = random.Random(f"{a.seed}:{name}:{case['id']}")
                extra = {}
                if name == "joined":
                    extra = {"partners": [c for c, s in fam.cases
                                          if cx.kind(c) == cx.kind(case) and s.group == src.group
                                          and src.group is not None],
                             "joined_question": joined_question}
                bad = cx.FUNCTIONS[name](case, src, rng, **extra)
                if bad is not None:
                    made.append(bad)
            if made:
                variants[name] = made
        for variant, cases in variants.items():
            path = folder / f"{variant}.yaml"
            bl.write_set(path, fam.corpus_dir, cases)
            manifest["sets"].append({
                "path": str(path.relative_to(tmp)), "family": fam.name.split("-")[0],
                "corpus": fam.name, "variant": variant, "cases": len(cases),
                "types": dict(Counter(cx.kind(c) for c in cases))})
        manifest["left_out"][fam.name] = fam.left_out
        print(f"{fam.name}: {len(fam.cases)} right cases "
              f"{dict(Counter(cx.kind(c) for c, _ in fam.cases))}; "
              + ", ".join(f"{v} {len(c)}" for v, c in variants.items() if v != "right")
              + (f"; left out {len(fam.left_out)}" if fam.left_out else ""), file=sys.stderr)
        for why in fam.left_out:
            print(f"  left out: {why}", file=sys.stderr)
    # The sets' corpus roots are relative to their folders: validate them where they will be.
    tmp.rename(out)
    for entry in manifest["sets"]:
        audit(out / entry["path"])
    print(f"{len(manifest['sets'])} sets: {LABEL_RULES} clean in every one", file=sys.stderr)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def show(a):
    """Prints --n corrupted cases per corruption (seeded) beside the right case they came from,
    with their labels' text: the spot-check."""
    out = Path(a.show)
    manifest = json.loads((out / "manifest.json").read_text())
    by_corruption = defaultdict(list)
    for entry in manifest["sets"]:
        if entry["variant"] == "right" or a.only and entry["variant"] != a.only:
            continue
        _, cases = bl.load_set(out / entry["path"])
        _, right = bl.load_set(out / Path(entry["path"]).with_name("right.yaml"))
        right = {c["id"]: c for c in right}
        by_corruption[entry["variant"]] += [(entry["corpus"], right[c["corrupted_from"]], c)
                                            for c in cases]
    for name in cx.NAMES:
        rows = by_corruption.get(name)
        if not rows:
            continue
        rng = random.Random(f"{a.seed}:show:{name}")
        print(f"\n=== {name}: {a.n} of {len(rows)}")
        for corpus, old, new in rng.sample(rows, min(a.n, len(rows))):
            print(f"\n[{corpus}] {new['id']} ({cx.kind(new)})")
            for key in ("question", "answer", "bridge", "identifier"):
                if old.get(key) != new.get(key):
                    print(f"  {key}: {old.get(key)!r}\n   -> {new.get(key)!r}")
                elif key in ("question", "answer"):
                    print(f"  {key}: {old.get(key)!r}")
            if old.get("relevant") != new.get("relevant"):
                for lab in old.get("relevant") or []:
                    print(f"  label was: {lab['doc']}: {lab['quote'][:300]!r}")
                for lab in new.get("relevant") or []:
                    print(f"  label now: {lab['doc']}: {lab['quote'][:300]!r}")
            else:
                for lab in new.get("relevant") or []:
                    print(f"  label: {lab['doc']}: {lab['quote'][:300]!r}")


WORDS = None


def main():
    global WORDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shared", nargs="?", help="../shared/data")
    ap.add_argument("out", nargs="?", help="where the sets go")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--xquad", type=int, default=200, help="XQuAD questions sampled")
    ap.add_argument("--show", metavar="OUT", help="print a spot-check sample of built sets")
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--only", help="with --show: one corruption")
    a = ap.parse_args()
    if a.show:
        return show(a)
    if not (a.shared and a.out):
        ap.error("SHARED_DATA and OUT are required (or --show OUT)")
    WORDS = importlib.import_module("verify-cases").Words()
    build(a)


if __name__ == "__main__":
    main()
