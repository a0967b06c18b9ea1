"""Issue 23's HotpotQA check: does the multi-hop verification tell a bridge question from the
same two passages asked as two lookups joined by "and"?

From the converted HotpotQA set (`scripts/corpora.sh hotpot --set`), writes a copy whose
multi-hop questions are replaced by the joined form of the same two passages, each lookup
naming its own subject as a lookup does: "What is said about <hop 1's title>, and what is
<the bridge> known for?" (hops, labels and bridge kept). Run verify-cases.py --all on both
sets and compare how many multi-hop cases pass.

  python scripts/hotpot-joined.py --set SET --out JOINED
"""

import argparse
import os

import yaml


def joined_question(case):
    """The joined form of a bridge case (one with a `bridge`), or None for any other case."""
    if (case.get("tags") or {}).get("type") != "multi_hop" or not case.get("bridge"):
        return None
    hop1 = case["hops"][0]["relevant"][0]
    title = os.path.splitext(case["relevant"][hop1]["doc"])[0]
    return f"What is said about {title}, and what is {case['bridge']} known for?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with open(a.set, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    n = 0
    for case in data.get("cases") or []:
        question = joined_question(case)
        if question is None:
            continue
        case["question"] = question
        case["id"] = case["id"] + "-joined"
        n += 1
    with open(a.out + ".tmp", "w", encoding="utf-8") as f:
        yaml.safe_dump(data, f, allow_unicode=True, sort_keys=False)
    os.replace(a.out + ".tmp", a.out)
    print(f"{n} multi-hop questions joined into {a.out}")


if __name__ == "__main__":
    main()
