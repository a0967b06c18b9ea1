#!/usr/bin/env bash
# Checks `ragsynth eval --answers`'s exact match and token F1 against the SQuAD v2 metric on
# SQuAD 2.0 data: builds a test set (one document per paragraph) and a mixed answers file
# from ../shared/data/squad2 — right answers, wordier right answers, another question's answer,
# refusals, empty answers and made-up answers to the unanswerable questions — scores it with
# ragsynth, and compares every case and the overall figures with a Python implementation of
# the official evaluation script's metric (`evaluate-v2.0.py`: normalize_answer, compute_exact,
# compute_f1, the max over gold answers, and the empty gold answer for unanswerable
# questions), written out below. Exits 1 on a difference above 1e-4.
#
# The Python here is a transcription of the official functions, not the official file itself
# (this machine has no network to fetch it); read them side by side.
#
#   bash scripts/check-squad-em-f1.sh [OUT]   (data: $RAGSYNTH_SHARED_DATA or ../shared/data;
#   binary: $RAGSYNTH_BIN, else a debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${RAGSYNTH_SHARED_DATA:-$PWD/../shared/data}/squad2/squad2-normans.json"
[ -f "$data" ] || { echo "check-squad-em-f1: no $data; skipped"; exit 0; }
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
if [ -z "${RAGSYNTH_BIN:-}" ]; then
  cargo build --quiet
  RAGSYNTH_BIN="${CARGO_TARGET_DIR:-target}/debug/ragsynth"
fi

python3 - "$data" "$out" <<'PY'
import json, os, sys
data, out = sys.argv[1], sys.argv[2]
d = json.load(open(data, encoding="utf-8"))
os.makedirs(f"{out}/corpus", exist_ok=True)
cases, answers, truth = [], [], {}
n = 0
for a in d["data"]:
    for pi, p in enumerate(a["paragraphs"]):
        doc = f"p{pi:03}.txt"
        open(f"{out}/corpus/{doc}", "w", encoding="utf-8").write(p["context"])
        qas = p["qas"]
        others = [q["answers"][0]["text"] for q in qas if q["answers"]]
        for q in qas:
            n += 1
            golds = [x["text"] for x in q["answers"]]
            case = {"id": q["id"], "question": q["question"],
                    "tags": {"type": "unanswerable" if q["is_impossible"] else "lookup",
                             "topic": "normans", "source": "real"},
                    "review": "accepted", "split": "dev", "relevant": []}
            if golds:
                g = q["answers"][0]
                case["answer"] = golds[0]
                if len(golds) > 1:
                    case["answers"] = golds[1:]
                case["relevant"] = [{"doc": doc, "start": g["answer_start"],
                                     "end": g["answer_start"] + len(g["text"]), "quote": g["text"]}]
                wrong = next((o for o in others if o not in golds), "the Franks")
                pred = [golds[0], f"It was {golds[-1]}.", wrong, "I don't know."][n % 4]
            else:
                made_up = others[n % len(others)] if others else "In 1066."
                pred = ["", "I don't know.", made_up, "The Normans."][n % 4]
            cases.append(case)
            answers.append({"id": q["id"], "answer": pred})
            truth[q["id"]] = golds
with open(f"{out}/testset.yaml", "w", encoding="utf-8") as f:
    f.write("ragsynth: 1\ncorpus:\n  root: corpus\nchunking: {splitter: text, unit: chars, size: 1200, overlap: 0}\ncases:\n")
    for c in cases:
        f.write("  - " + json.dumps(c, ensure_ascii=False) + "\n")
with open(f"{out}/answers.jsonl", "w", encoding="utf-8") as f:
    for x in answers:
        f.write(json.dumps(x, ensure_ascii=False) + "\n")
json.dump(truth, open(f"{out}/gold.json", "w", encoding="utf-8"))
print(f"{len(cases)} questions, {sum(1 for g in truth.values() if not g)} unanswerable")
PY

"$RAGSYNTH_BIN" eval "$out/testset.yaml" --answers "$out/answers.jsonl" --format json \
  --out "$out/per-question.jsonl" > "$out/report.json"

python3 - "$out" <<'PY'
import collections, json, re, string, sys
out = sys.argv[1]

# --- the official SQuAD v2.0 metric (evaluate-v2.0.py), transcribed ---
def normalize_answer(s):
  """Lower text and remove punctuation, articles and extra whitespace."""
  def remove_articles(text):
    regex = re.compile(r'\b(a|an|the)\b', re.UNICODE)
    return re.sub(regex, ' ', text)
  def white_space_fix(text):
    return ' '.join(text.split())
  def remove_punc(text):
    exclude = set(string.punctuation)
    return ''.join(ch for ch in text if ch not in exclude)
  def lower(text):
    return text.lower()
  return white_space_fix(remove_articles(remove_punc(lower(s))))

def get_tokens(s):
  if not s: return []
  return normalize_answer(s).split()

def compute_exact(a_gold, a_pred):
  return int(normalize_answer(a_gold) == normalize_answer(a_pred))

def compute_f1(a_gold, a_pred):
  gold_toks = get_tokens(a_gold)
  pred_toks = get_tokens(a_pred)
  common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
  num_same = sum(common.values())
  if len(gold_toks) == 0 or len(pred_toks) == 0:
    # If either is no-answer, then F1 is 1 if they agree, 0 otherwise
    return int(gold_toks == pred_toks)
  if num_same == 0:
    return 0
  precision = 1.0 * num_same / len(pred_toks)
  recall = 1.0 * num_same / len(gold_toks)
  f1 = (2 * precision * recall) / (precision + recall)
  return f1

def get_raw_scores(truth, preds):
  exact_scores, f1_scores = {}, {}
  for qid, golds in truth.items():
    gold_answers = [a for a in golds if normalize_answer(a)]
    if not gold_answers:
      # For unanswerable questions, only correct answer is empty string
      gold_answers = ['']
    a_pred = preds[qid]
    exact_scores[qid] = max(compute_exact(a, a_pred) for a in gold_answers)
    f1_scores[qid] = max(compute_f1(a, a_pred) for a in gold_answers)
  return exact_scores, f1_scores
# --- end of the official metric ---

truth = json.load(open(f"{out}/gold.json", encoding="utf-8"))
preds = {}
for line in open(f"{out}/answers.jsonl", encoding="utf-8"):
  x = json.loads(line)
  preds[x["id"]] = x["answer"]
exact, f1 = get_raw_scores(truth, preds)
official = {"exact": sum(exact.values()) / len(exact), "f1": sum(f1.values()) / len(f1)}

ours = {}
for line in open(f"{out}/per-question.jsonl", encoding="utf-8"):
  x = json.loads(line)
  ours[x["id"]] = (x["exact_match"], x["f1"])
report = json.load(open(f"{out}/report.json", encoding="utf-8"))
bad = [(q, (exact[q], f1[q]), ours.get(q)) for q in truth
       if q not in ours or abs(ours[q][0] - exact[q]) > 1e-4 or abs(ours[q][1] - f1[q]) > 1e-4]
m = report["metrics"]
print(f"{len(truth)} answers: official EM {official['exact']:.6f} F1 {official['f1']:.6f}; "
      f"ragsynth EM {m['exact_match']:.6f} F1 {m['f1']:.6f}; {len(bad)} case(s) differ")
for b in bad[:10]:
  print("  differs:", b)
if bad or abs(m["exact_match"] - official["exact"]) > 1e-4 or abs(m["f1"] - official["f1"]) > 1e-4:
  sys.exit(1)
print("check-squad-em-f1: ok (to 1e-4)")
PY
