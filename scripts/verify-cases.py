"""Checks each case of a test set against its type's promise, from the document text alone and
independently of ragsynth's own verification (issue 23). Per type, the share of cases that pass
every check of their type:

- every labelled case: each label's span (document text between start and end, as ragsynth reads
  the document) holds its quote (`quote`)
- lookup: has a label; the answer's numbers and content words are in the labelled spans (`answer`)
- identifier: an `identifier` field, verbatim in the question (`in_question`) and in a labelled
  span (`in_span`), in at most RARE_DOCS documents (`rare`; the count is printed)
- comparison: each side has a label, one or two in all (`side_labels`: a table holding both
  rows is one label), two `sides` with different names (`two_sides`), the
  question names both (`names_both`), each side's name and value in its own labelled span
  (`side_name`, `side_value`; case-insensitive, value by its numbers and content words)
- multi_hop: `hops` (two or more, each with labels) and a `bridge` (`hops`, `bridge`); the bridge
  not in the question, nor its main words (capitalised or numbered words, else all its content
  words) (`bridge_unnamed`); the bridge in hop 1's span (`bridge_in_hop1`); the final answer's
  content words in hop 2's span (`answer_in_hop2`); bm25s with the question alone does not rank
  hop 2's paragraph first among all paragraphs (`hop2_not_first`); not two questions joined
  (a question, then "and what ...", ", how ..." or ", and can ...", or text after "?")
  (`not_joined`). Also counted, not checked: two wh-words.
- unanswerable: no label (`no_label`); reported only: the containment of the question's content
  words in the best bm25s paragraph.
"Content words are in a span" means: every number of the text is there, and at least 2/3 of its
content words (stopwords dropped, Snowball stems compared; at least one when it has any).

With --summary (generate's --json summary): planned, accepted and LLM calls per accepted case per
type, and the wall time. Cases checked: the synthetic ones (`--all`: every case).

  python scripts/verify-cases.py --set FILE [--corpus DIR] [--summary JSON] [--all]
                                 [--label NAME] [--json OUT] [--details]

Env: RAGSYNTH_BIN (ragsynth binary that reads the corpus text; `ragsynth` on PATH by default).
"""

import argparse
import json
import re
from collections import Counter, defaultdict

import benchlib as bl

RARE_DOCS = 3
CONTENT_SHARE = 2 / 3
TYPES = ["lookup", "identifier", "comparison", "multi_hop", "unanswerable"]
WH = re.compile(r"\b(what|which|who|whom|whose|when|where|why|how)\b", re.I)
AUX = r"(is|are|was|were|does|do|did|can|could|will|would|should|has|have)"
# A second question after the first: "... and which ...", "..., how ...", "..., and can ...".
SECOND = re.compile(r"\band\s+(what|which|who|when|where|why|how)\b"
                    r"|[,;]\s*(what|when|where|why|how)\b"
                    rf"|[,;]\s*and\s+{AUX}\b", re.I)
NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def joined(question):
    """Two questions in one: a second question clause (a wh-word after "and" or a comma, or
    ", and" and an auxiliary) after a first one (a wh-word before it, or an auxiliary opening the
    question), or more text after a question mark."""
    q = question.strip()
    if re.search(r"\?\s*\S", q):
        return True
    asks = re.match(AUX + r"\b", q, re.I)
    return any(asks or WH.search(q[: m.start()]) for m in SECOND.finditer(q))


class Words:
    """Word matching for the checks: stopwords dropped, Snowball stems compared."""

    def __init__(self):
        import Stemmer

        self.stem = Stemmer.Stemmer("english").stemWord
        self.stop = bl.stopwords()

    def content(self, text):
        return [self.stem(w) for w in bl.content_words(text, self.stop)]

    def stems(self, text):
        return {self.stem(w.lower()) for w in bl.words(text)}

    def held(self, text, span):
        """Every number of `text` and >= 2/3 of its content words are in `span`."""
        numbers = {n.replace(",", "") for n in NUMBER.findall(text or "")}
        if not numbers <= {n.replace(",", "") for n in NUMBER.findall(span)}:
            return False
        words = set(self.content(text))
        if not words:
            return bool(numbers) or bool((text or "").strip()) and text.lower() in span.lower()
        return len(words & self.stems(span)) >= max(1, CONTENT_SHARE * len(words))

    def named(self, name, text):
        """`name` in `text`: verbatim (case-insensitive) or all its content words."""
        if not name or not name.strip():
            return False
        words = set(self.content(name))
        return name.lower() in text.lower() or bool(words) and words <= self.stems(text)


class Checker:
    def __init__(self, texts, index):
        self.texts, self.index, self.w = texts, index, Words()

    def span(self, lab):
        return self.texts.get(lab.get("doc"), "")[lab.get("start", 0):lab.get("end", 0)]

    def spans(self, case, picks=None):
        labs = bl.labels(case)
        if picks is not None:
            labs = [labs[i] for i in picks if isinstance(i, int) and 0 <= i < len(labs)]
        return " \n".join(self.span(lab) for lab in labs)

    def check(self, case):
        """({check: passed}, {figure: value}) for the case's type."""
        kind = bl.kind(case)
        checks, figures = {}, {}
        labs = bl.labels(case)
        if labs:
            checks["quote"] = all((lab.get("quote") or "") in self.span(lab) for lab in labs)
        getattr(self, kind, self.lookup)(case, checks, figures)
        return checks, figures

    def lookup(self, case, checks, figures):
        checks["answer"] = bool(bl.labels(case)) and self.w.held(case.get("answer"),
                                                                 self.spans(case))

    def identifier(self, case, checks, figures):
        ident = case.get("identifier") or ""
        checks["in_question"] = bool(ident) and ident in case["question"]
        checks["in_span"] = bool(ident) and ident in self.spans(case)
        docs = sum(1 for t in self.texts.values() if ident and ident in t)
        figures["documents"] = docs
        checks["rare"] = bool(ident) and docs <= RARE_DOCS

    def comparison(self, case, checks, figures):
        sides = [s for s in case.get("sides") or [] if isinstance(s, dict)]
        checks["side_labels"] = len(bl.labels(case)) in (1, 2) and bool(sides) and all(
            s.get("relevant") for s in sides)
        names = [(s.get("name") or "").strip().lower() for s in sides]
        checks["two_sides"] = len(sides) == 2 and all(names) and names[0] != names[1]
        checks["names_both"] = bool(sides) and all(self.w.named(s.get("name"), case["question"])
                                                   for s in sides)
        own = [self.spans(case, s.get("relevant") or []) for s in sides]
        checks["side_name"] = bool(sides) and all(self.w.named(s.get("name"), t)
                                                  for s, t in zip(sides, own))
        checks["side_value"] = bool(sides) and all(
            bool(s.get("value")) and self.w.held(str(s["value"]), t) for s, t in zip(sides, own))

    def multi_hop(self, case, checks, figures):
        hops = [h for h in case.get("hops") or [] if isinstance(h, dict)]
        bridge = str(case.get("bridge") or "")
        question = case["question"]
        checks["hops"] = len(hops) >= 2 and all(h.get("relevant") for h in hops)
        checks["bridge"] = bool(bridge.strip())
        checks["bridge_unnamed"] = bool(bridge.strip()) and not self.leaks(bridge, question)
        hop1 = self.spans(case, hops[0].get("relevant") or []) if hops else ""
        hop2_picks = hops[-1].get("relevant") or [] if hops else []
        hop2 = self.spans(case, hop2_picks)
        checks["bridge_in_hop1"] = bool(bridge.strip()) and self.w.named(bridge, hop1)
        checks["answer_in_hop2"] = bool(hop2) and self.w.held(case.get("answer"), hop2)
        labs = bl.labels(case)
        hop2_labs = [labs[i] for i in hop2_picks if isinstance(i, int) and 0 <= i < len(labs)]
        top = self.index.ranking(question, k=1)
        checks["hop2_not_first"] = bool(hop2_labs) and not (
            top and any(bl.overlaps(self.index.paras[top[0]], lab) for lab in hop2_labs))
        checks["not_joined"] = not joined(question)
        figures["two_wh"] = len(WH.findall(question)) >= 2

    def leaks(self, bridge, question):
        """The bridge, or one of its main words, is in the question."""
        if bridge.lower() in question.lower():
            return True
        words = [w for w in bl.words(bridge) if len(w) > 1 and w.lower() not in self.w.stop]
        main = [w for w in words if w[0].isupper() or any(ch.isdigit() for ch in w)] or words
        return bool({self.w.stem(w.lower()) for w in main} & self.w.stems(question))

    def unanswerable(self, case, checks, figures):
        checks["no_label"] = not case.get("relevant")
        top = self.index.ranking(case["question"], k=1)
        words = set(self.w.content(case["question"]))
        if top and words:
            para = self.w.stems(self.index.paras[top[0]][3])
            figures["containment"] = len(words & para) / len(words)


def table(results, summary, label, paragraphs):
    by_type = defaultdict(list)
    for case, checks, figures in results:
        by_type[bl.kind(case)].append((case, checks, figures))
    kinds = (summary or {}).get("by_type", {})
    names = [k for k in TYPES if k in by_type or k in kinds]
    names += sorted(set(by_type) - set(names))
    wall = (summary or {}).get("wall_seconds")
    print(f"## {label}: {len(results)} cases checked, bm25s over {paragraphs} paragraphs"
          + (f"; generate wall time {wall:.0f} s" if wall else ""))
    print("| type | accepted/planned | verified | share | calls/accepted | failed checks | "
          "figures |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for k in names:
        rs = by_type.get(k, [])
        ok = sum(all(c.values()) for _, c, _ in rs)
        failed = Counter(name for _, c, _ in rs for name, v in c.items() if not v)
        s = kinds.get(k, {})
        planned = s.get("planned")
        calls = s.get("llm_calls")
        per = calls / s["accepted"] if calls is not None and s.get("accepted") else None
        figs = figures_of(k, [f for _, _, f in rs])
        rows.append({"type": k, "checked": len(rs), "verified": ok, "planned": planned,
                     "accepted": s.get("accepted", len(rs) if summary is None else 0),
                     "llm_calls": calls, "failed": dict(failed), "figures": figs})
        acc = f"{s.get('accepted', 0)}/{planned}" if planned is not None else f"{len(rs)}/-"
        print(f"| {k} | {acc} | {ok}/{len(rs)} | {share(ok, len(rs))} | "
              f"{'-' if per is None else f'{per:.2f}'} | "
              f"{', '.join(f'{n} {v}' for n, v in failed.most_common()) or '-'} | {figs or '-'} |")
    if summary:
        planned = sum(v["planned"] for v in kinds.values())
        acc = summary["accepted"]
        calls = summary["llm"]["calls"]
        ok = sum(all(c.values()) for _, c, _ in results)
        print(f"| all | {acc}/{planned} | {ok}/{len(results)} | {share(ok, len(results))} | "
              f"{calls / acc if acc else float('nan'):.2f} | | |")
    return rows


def figures_of(kind, figs):
    if kind == "identifier" and figs:
        docs = [f["documents"] for f in figs if "documents" in f]
        return f"documents holding it: {sorted(docs)}"
    if kind == "multi_hop" and figs:
        return f"two wh-words: {sum(f.get('two_wh', False) for f in figs)}"
    if kind == "unanswerable":
        cont = [f["containment"] for f in figs if "containment" in f]
        if cont:
            return f"best paragraph's containment: mean {sum(cont) / len(cont):.2f}"
    return ""


def share(ok, n):
    return f"{ok / n:.0%}" if n else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", required=True)
    ap.add_argument("--corpus", help="corpus folder (default: the set's corpus.root)")
    ap.add_argument("--summary", help="generate's --json summary of the run that made the set")
    ap.add_argument("--all", action="store_true", help="check real cases too")
    ap.add_argument("--label", default="")
    ap.add_argument("--json", help="write per-case results and the table here")
    ap.add_argument("--details", action="store_true", help="print each failing case")
    a = ap.parse_args()

    header, cases = bl.load_set(a.set)
    corpus = a.corpus or bl.corpus_root(a.set, header)
    if not corpus:
        bl.die(f"{a.set}: no corpus.root; pass --corpus")
    texts = bl.doc_texts(corpus)
    index = bl.Index(bl.paragraphs(texts))
    checker = Checker(texts, index)
    chosen = [c for c in cases if a.all or not bl.is_real(c)]
    results = [(c, *checker.check(c)) for c in chosen]
    summary = json.load(open(a.summary)) if a.summary else None
    rows = table(results, summary, a.label or a.set, len(index.paras))
    if a.details:
        for case, checks, _ in results:
            bad = [n for n, v in checks.items() if not v]
            if bad:
                print(f"  [{bl.kind(case)}] {case.get('id')}: fails {', '.join(bad)}: "
                      f"{case['question']}  -> {case.get('answer')}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"label": a.label, "rows": rows, "cases": [
                {"id": c.get("id"), "type": bl.kind(c), "question": c["question"],
                 "checks": ch, "figures": fg} for c, ch, fg in results]}, f, indent=1)


if __name__ == "__main__":
    main()
