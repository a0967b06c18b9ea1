"""How keyword-easy a set's questions are, real part against synthetic part, judged by an
independent index (issue 22): bm25s over the corpus split into blank-line paragraphs.

For each labelled case: RR = 1/rank at which the paragraphs it needs are found (0 beyond the
top 100) and hit@1. A comparison or a multi-hop case needs every label (both sides, both hops):
its rank is that of the last label's first paragraph; any other case needs one label, the
first found. MRR by the first paragraph of any label, as this script measured before
2026-12-05, is printed beside it. Per part (real, synthetic, synthetic per tags.type): n
labelled, MRR, hit@1, mean words per question (whitespace words, over every question of the
part). With --summary (generate's --json summary): accepted/planned and the types accepted, and
whether the issue's targets hold. --show N prints N synthetic questions beside N real ones.

  python scripts/realism.py --set FILE [--corpus DIR] [--summary JSON] [--show 20]
                            [--label NAME] [--json OUT] [--stem]

Env: RAGSYNTH_BIN (ragsynth binary that reads the corpus text; `ragsynth` on PATH by default).
"""

import argparse
import json
from statistics import mean

import benchlib as bl

TARGET_MRR_GAP = 0.15
TARGET_WORD_GAP = 3.0
TARGET_ACCEPTED = 0.75


EVERY_LABEL = {"comparison", "multi_hop"}


def first_rank(ranking, paras, labels):
    """1-based rank of the first paragraph overlapping one of `labels`, 0 when none is ranked."""
    for rank, p in enumerate(ranking, 1):
        if any(bl.overlaps(paras[p], lab) for lab in labels):
            return rank
    return 0


def score(index, case):
    """(rank by the case's need, rank of any label's first paragraph); None when unlabelled."""
    labels = bl.labels(case)
    if not labels:
        return None
    ranking = index.ranking(case["question"])
    anyone = first_rank(ranking, index.paras, labels)
    if bl.kind(case) not in EVERY_LABEL or len(labels) < 2:
        return anyone, anyone
    each = [first_rank(ranking, index.paras, [lab]) for lab in labels]
    return (0 if 0 in each else max(each)), anyone


def part(name, cases, ranks):
    pairs = [ranks[id(c)] for c in cases if ranks[id(c)] is not None]
    scored = [needed for needed, _ in pairs]
    rr = [1 / r if r else 0.0 for r in scored]
    rr_any = [1 / r if r else 0.0 for _, r in pairs]
    return {
        "part": name,
        "cases": len(cases),
        "labelled": len(scored),
        "mrr": mean(rr) if rr else None,
        "mrr_any_label": mean(rr_any) if rr_any else None,
        "hit1": mean(1.0 if r == 1 else 0.0 for r in scored) if scored else None,
        "words": mean(len(c["question"].split()) for c in cases) if cases else None,
    }


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def targets(real, syn, summary):
    """The issue's targets, each as (what, holds, figures)."""
    out = []
    if real["mrr"] is not None and syn["mrr"] is not None:
        gap = abs(syn["mrr"] - real["mrr"])
        out.append(("synthetic MRR within 0.15 of real", gap <= TARGET_MRR_GAP,
                    f"{syn['mrr']:.2f} vs {real['mrr']:.2f}"))
    if real["words"] is not None and syn["words"] is not None:
        gap = abs(syn["words"] - real["words"])
        out.append(("mean words within 3", gap <= TARGET_WORD_GAP,
                    f"{syn['words']:.1f} vs {real['words']:.1f}"))
    if summary:
        kinds = summary["by_type"]
        planned = sum(k["planned"] for k in kinds.values())
        accepted = summary["accepted"]
        out.append((">= 75% of planned accepted", accepted >= TARGET_ACCEPTED * planned,
                    f"{accepted}/{planned}"))
        missing = [k for k, v in kinds.items() if v["accepted"] == 0]
        out.append(("every type present", not missing,
                    "missing " + ", ".join(missing) if missing else ", ".join(sorted(kinds))))
        if accepted:  # the issue's bound is relative (1.3x today's): printed, not judged here
            out.append(("LLM calls per accepted case (<= 1.3x the baseline's)", None,
                        f"{summary['llm']['calls'] / accepted:.2f}"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", required=True)
    ap.add_argument("--corpus", help="corpus folder (default: the set's corpus.root)")
    ap.add_argument("--summary", help="generate's --json summary of the run that made the set")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--label", default="", help="name of the run, printed in the header")
    ap.add_argument("--json", help="write the figures here as JSON")
    ap.add_argument("--stem", action="store_true", help="stem words (Snowball English)")
    a = ap.parse_args()

    header, cases = bl.load_set(a.set)
    corpus = a.corpus or bl.corpus_root(a.set, header)
    if not corpus:
        bl.die(f"{a.set}: no corpus.root; pass --corpus")
    paras = bl.paragraphs(bl.doc_texts(corpus))
    index = bl.Index(paras, stem=a.stem)
    ranks = {id(c): score(index, c) for c in cases}
    real = [c for c in cases if bl.is_real(c)]
    syn = [c for c in cases if not bl.is_real(c)]
    rows = [part("real", real, ranks), part("synthetic", syn, ranks)]
    for k in sorted({bl.kind(c) for c in syn}):
        rows.append(part(f"  synthetic {k}", [c for c in syn if bl.kind(c) == k], ranks))
    summary = json.load(open(a.summary)) if a.summary else None

    print(f"## {a.label or a.set}: bm25s over {len(paras)} paragraphs of {corpus}"
          + (" (stemmed)" if a.stem else ""))
    print("| part | cases | labelled | MRR | hit@1 | words/question | MRR, any label |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['part']} | {r['cases']} | {r['labelled']} | {fmt(r['mrr'])} "
              f"| {fmt(r['hit1'])} | {fmt(r['words'], '.1f')} | {fmt(r['mrr_any_label'])} |")
    checks = targets(rows[0], rows[1], summary)
    for what, holds, figures in checks:
        verdict = "      " if holds is None else "MET   " if holds else "MISSED"
        print(f"target {verdict} {what}: {figures}")
    if a.show:
        print(f"\n{'real':<60} | synthetic")
        rq = [c["question"] for c in real[: a.show]]
        sq = [c["question"] for c in syn[: a.show]]
        for i in range(max(len(rq), len(sq))):
            left = rq[i] if i < len(rq) else ""
            print(f"{left[:60]:<60} | {sq[i] if i < len(sq) else ''}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"label": a.label, "paragraphs": len(paras), "parts": rows,
                       "targets": [{"what": w, "holds": h, "figures": x} for w, h, x in checks]},
                      f, indent=1)


if __name__ == "__main__":
    main()
