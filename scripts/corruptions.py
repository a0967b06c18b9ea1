"""Known ways to corrupt a right case, for measuring generate's checks (issue 67). Each function
takes a right case and what make-check-sets.py knows about it (`ctx`, a `Source`) and returns
the corrupted case, or None where the corruption does not apply to that case. Every choice is
drawn from `rng`, seeded per case and corruption, so the sets are the same on every build.

A corrupted case is a copy of the right one with `id: <id>~<corruption>`, `corrupted_from: <id>`
and `tags.corruption`; only the parts the corruption names change. What each one does, and why
the result is wrong for a test set, is in its docstring; make-check-sets.py's header sums them up.
"""

import copy
import re

import benchlib as bl

# The order the sets are written and reported in.
NAMES = ["answer_moved", "label_moved", "answer_negated", "thing_swapped", "marked_unanswerable",
         "name_replaced", "joined", "single_hop"]

YES_NO = {"yes": "no", "no": "yes"}
NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w,]*\d)|(?<![\w.])\d+(?:\.\d+)?(?!\w)")
YEAR = re.compile(r"^(1[0-9]|20)\d\d$")
AUX = re.compile(r"\b(is|are|was|were|will|can|could|should|must|does|do|did|has|have|had|may|"
                 r"would)\b")
PREPOSITIONS = {"in", "of", "to", "by", "for", "with", "from", "about", "on", "at", "into",
                "over", "under", "between", "against", "after", "before", "during", "through"}
# Nouns that say what kind of thing a code is ("the `p2` variable"): the code is dropped then.
CODE_KINDS = {"enum", "trait", "struct", "macro", "crate", "function", "method", "class",
              "option", "flag", "variable", "attribute", "setting",
              "parameter", "argument", "field", "command", "module", "key", "value", "type",
              "filter", "decorator", "tag", "label", "directive", "object", "extension", "hook",
              "property", "environment", "test", "section", "file", "signal", "exception"}
RELATIVE = re.compile(r"(?<=[a-z])\s+(who|whose|which|that|where)\s+", re.I)


# ---- what the corruptions need to know about a case ----------------------------------------


class Source:
    """What make-check-sets.py knows about a right case beyond the case itself."""

    def __init__(self, family, answers=(), group=None, passage=None, others=(),
                 supporting=None, swap_pool=None, lowercase_queries=False, titles=()):
        self.family = family            # the Family: texts, sentences(doc), words
        self.answers = list(answers)    # every reference answer (SQuAD: each crowd answer)
        self.group = group              # cases of one group are joined with each other
        self.passage = passage          # (doc, start, end) answer_moved draws its span from
        self.others = list(others)      # DL 2020: passages judged not relevant (grade 0)
        self.supporting = supporting    # HotpotQA: {doc: {sentence index}} of supporting facts
        self.swap_pool = swap_pool      # "wiki" or "docs": where thing_swapped draws from
        self.lowercase_queries = lowercase_queries  # keyword queries: no capitalised names
        self.titles = list(titles)      # HotpotQA: its labels' titles, each one name


def derive(case, name, **changes):
    """A copy of `case` corrupted by `name`, with `changes` applied (None deletes a field)."""
    out = {"id": f"{case['id']}~{name}", "corrupted_from": case["id"]}
    for k, v in copy.deepcopy(case).items():
        if k != "id":
            out[k] = v
    for k, v in changes.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    out["tags"] = {**out.get("tags", {}), "corruption": name}
    return out


def kind(case):
    return (case.get("tags") or {}).get("type")


def span_text(ctx, lab):
    return ctx.family.texts[lab["doc"]][lab["start"]:lab["end"]]


def holds_answer(ctx, text):
    """Any reference answer in text: verbatim (case-insensitive), or its numbers and 2/3 of its
    content words (verify-cases.py's rule)."""
    low = text.lower()
    return any(a and (a.lower() in low or ctx.family.words.held(a, text)) for a in ctx.answers)


# ---- the corruptions ------------------------------------------------------------------------


def answer_moved(case, ctx, rng):
    """The answer replaced by another span of the same passage of about its length (the same
    number of words, within one sentence) that does not answer the question: it overlaps no
    reference answer and shares none of their content words. A span of the same shape is
    preferred (holding a number when the answer does, starting with a capital when it does).
    Label and question are kept: the answer is no longer the passage's answer to the question.
    Applies to lookups, identifiers and bridges with an answer other than yes/no (a bridge's
    span comes from hop 2's passage)."""
    answer = case.get("answer")
    if kind(case) not in ("lookup", "identifier", "multi_hop") or not ctx.passage or not answer \
            or answer.lower() in YES_NO:
        return None
    doc, start, end = ctx.passage
    text = ctx.family.texts[doc]
    n = len(bl.words(answer))
    banned = {w for a in ctx.answers for w in bl.content_words(a)}
    spans = [(doc, m.start(), m.end()) for a in ctx.answers if a
             for m in re.finditer(re.escape(a), text, re.I)]
    stop = bl.stopwords()
    tiers = ([], [], [])
    for s, e in ctx.family.sentences(doc, start, end):
        toks = list(re.finditer(r"\S+", text[s:e]))
        for i in range(len(toks) - n + 1):
            a, b = s + toks[i].start(), s + toks[i + n - 1].end()
            span = text[a:b].strip(",;:()\"'“”‘’.")
            if not span or re.search(r"[.;:!?\n]", span[:-1]) \
                    or "`" in span and span.count("`") % 2:
                continue
            a = text.index(span, a)
            b = a + len(span)
            ws = [w.lower() for w in bl.words(span)]
            if not ws or ws[0] in stop and answer.split()[0].lower() not in stop \
                    or ws[-1] in stop or set(ws) & banned or any(a < e2 and s2 < b
                                                                for _, s2, e2 in spans):
                continue
            if not 0.5 <= len(span) / max(1, len(answer)) <= 1.8:
                continue
            shape = (bool(re.search(r"\d", span)) == bool(re.search(r"\d", answer)),
                     span[0].isupper() == answer[0].isupper())
            tiers[0 if all(shape) else 1 if shape[0] else 2].append(span)
    pool = next((t for t in tiers if t), None)
    if not pool:
        return None
    moved = rng.choice(sorted(set(pool)))
    changes = {"answer": moved}
    if case.get("hops"):
        hops = copy.deepcopy(case["hops"])
        hops[-1]["answer"] = moved
        changes["hops"] = hops
    return derive(case, "answer_moved", **changes)


def label_moved(case, ctx, rng):
    """The label moved to a neighbouring sentence (the one before or after it, the other when
    that one holds the answer) that does not hold any reference answer. A bridge moves hop 2's
    label, a comparison its second side's, to a sentence of the same paragraph that is not one
    of HotpotQA's supporting facts. A DL 2020 query's labels move to passages NIST judged not
    relevant (grade 0) for it. Question and answer are kept: the label no longer supports them.
    """
    labels = copy.deepcopy(case.get("relevant") or [])
    if not labels:
        return None
    if ctx.others:  # DL 2020: judged passages, not sentences
        others = sorted(ctx.others)
        rng.shuffle(others)
        moved = [bl.whole(doc, ctx.family.texts[doc]) for doc in others[:len(labels)]]
        return derive(case, "label_moved", relevant=moved)
    i = len(labels) - 1 if kind(case) in ("multi_hop", "comparison") else 0
    lab = labels[i]
    doc = lab["doc"]
    sents = ctx.family.sentences(doc)
    if ctx.supporting is not None:
        near = [k for k in range(len(sents)) if k not in ctx.supporting.get(doc, set())]
        rng.shuffle(near)
    else:
        inside = [k for k, (s, e) in enumerate(sents) if s < lab["end"] and lab["start"] < e]
        if not inside:
            return None
        before, after = inside[0] - 1, inside[-1] + 1
        near = [before, after] if rng.random() < 0.5 else [after, before]
    for k in near:
        if not 0 <= k < len(sents):
            continue
        s, e = sents[k]
        text = ctx.family.texts[doc][s:e]
        if len(bl.words(text)) < 4 or holds_answer(ctx, text) \
                or s < lab["end"] and lab["start"] < e:
            continue
        labels[i] = bl.label(doc, ctx.family.texts[doc], s, e)
        return derive(case, "label_moved", relevant=labels)
    return None


def negate(answer, rng, other_side=None):
    """A contradiction of `answer`: yes <-> no; the other side of a comparison; its first number
    changed (a year by 3 to 12 years, another number by a quarter or more); else "not X", or the
    "not" put after its first auxiliary verb for an answer that is a sentence."""
    low = answer.strip().lower().rstrip(".")
    if low in YES_NO:
        return YES_NO[low]
    if other_side is not None:
        return other_side
    m = NUMBER.search(answer)
    if m:
        raw = m.group()
        value = float(raw.replace(",", ""))
        if YEAR.match(raw):
            new = str(int(value) + rng.choice([-1, 1]) * rng.randint(3, 12))
        elif "." in raw:
            new = f"{value * rng.choice([1.5, 2, 3]):.{len(raw.split('.')[1])}f}"
        else:
            n = int(value) + max(2, round(value * rng.choice([0.25, 0.5, 1.0])))
            new = f"{n:,}" if "," in raw else str(n)
        return answer[:m.start()] + new + answer[m.end():]
    if len(answer.split()) > 4:
        aux = AUX.search(answer)
        if aux:
            return answer[:aux.end()] + " not" + answer[aux.end():]
        return "It is not the case that " + answer[0].lower() + answer[1:]
    return "not " + answer


def answer_negated(case, ctx, rng):
    """The answer contradicted (see `negate`): "no" for "yes", the other side for a comparison
    whose answer names one side, a changed number, or "not X". Label and question are kept: the
    label says the opposite of the answer."""
    answer = case.get("answer")
    if not answer or kind(case) not in ("lookup", "identifier", "multi_hop", "comparison"):
        return None
    other = None
    names = [s.get("name") for s in case.get("sides") or []]
    if kind(case) == "comparison" and answer.lower() not in YES_NO:
        hit = [i for i, n in enumerate(names) if n and (n.lower() in answer.lower()
                                                         or answer.lower() in n.lower())]
        if len(hit) == 1 and len(names) == 2:
            other = names[1 - hit[0]]
    new = negate(answer, rng, other)
    changes = {"answer": new}
    if case.get("hops"):
        hops = copy.deepcopy(case["hops"])
        hops[-1]["answer"] = new
        changes["hops"] = hops
    return derive(case, "answer_negated", **changes)


# ---- the question's thing -------------------------------------------------------------------

CODE = re.compile(r"``?([^`\s][^`]*?)``?|(?<![\w`])((?:--?|:)?[A-Za-z_][\w]*(?:(?:\.|::|-)[A-Za-z_]"
                  r"\w*)*(?:\(\))?)(?![\w`])")
CAPITALISED = re.compile(r"(?<![\w-])(?:[A-Z][\w'’.-]*[\w]|[A-Z])(?:\s+(?:(?:of|de|von|van|der|"
                         r"den|du|da|di|la|le|the|and)\s+)*(?:[A-Z][\w'’.-]*[\w]|[A-Z]\b))*")


def code_shaped(token):
    """A token that reads as code: an underscore, a dot or :: between words, a call's (),
    a leading dash, or an upper-case word with a digit or _. (An inner capital alone is a
    product's name as often as code: "macOS", "uWSGI", "PyCharm".)"""
    return bool(re.fullmatch(r"[-:.\w()]+", token)) and bool(re.search(r"[A-Za-z]", token)) \
        and bool(re.search(
        r"\w_\w|_\w|\w(\.|::)\w|\(\)$|^--?\w|^[A-Z0-9_]*\d[A-Z0-9_]*$|^[A-Z]+_[A-Z_]+$", token))


def things(question, titles=()):
    """[(start, end, kind, text)] of the names a question asks about: codes (backticked or
    code-shaped), capitalised names (not the question's first word alone; a title of `titles`
    found verbatim is one name: "These Boots Are Made for Walkin'"), years and numbers."""
    out = [(m.start(), m.end(), "name", t) for t in titles if t
           for m in re.finditer(rf"(?<!\w){re.escape(t)}(?!\w)", question)]
    for m in CODE.finditer(question):
        if m.group(1):
            out.append((m.start(), m.end(), "code", m.group(1)))
        elif code_shaped(m.group(2)):
            out.append((m.start(2), m.end(2), "code", m.group(2)))
    for m in CAPITALISED.finditer(question):
        text = m.group()
        start = m.start()
        if start == 0 or re.match(r"\W*$", question[:start]):
            first, _, rest = text.partition(" ")
            if first.lower() in bl.stopwords() | {"what", "who", "which", "when", "where", "why",
                                                   "how", "in", "name"}:
                if not rest or not rest[0].isupper():
                    continue
                start += len(first) + 1
                text = rest
        text = re.sub(r"['’]s$", "", text)
        if text.lower() in bl.stopwords():
            continue
        out.append((start, start + len(text), "name", text))
    for m in NUMBER.finditer(question):
        out.append((m.start(), m.end(), "year" if YEAR.match(m.group()) else "number", m.group()))
    out.sort()
    kept = []
    for t in out:  # a code or name already holding this span wins
        if not any(k[0] <= t[0] and t[1] <= k[1] for k in kept):
            kept = [k for k in kept if not (t[0] <= k[0] and k[1] <= t[1])] + [t]
    return kept


def the_thing(case, ctx, kinds=("code", "name", "year", "number")):
    """The name the question asks about: of its names found in its labels' text, a code before
    a name before a year or number, then the one fewest documents of the corpus hold."""
    labels = case.get("relevant") or []
    span = " ".join(span_text(ctx, lab) for lab in labels).lower()
    found = [t for t in things(case["question"], ctx.titles) if t[2] in kinds
             and t[3].lower() in span]
    if not found:
        return None
    docs = ctx.family.texts.values()
    return min(found, key=lambda t: (kinds.index(t[2]),
                                     sum(t[3].lower() in d.lower() for d in docs), t[0]))


def swap_for(thing, ctx, rng, question=""):
    """Another thing of the same kind that no document of the corpus holds: a year or number
    nowhere in the corpus; a code from the other corpora's pool of the same shape; a name from
    their pool with the same number of words, preferring the same last word ("Siege of X"),
    then one seen after the word the question puts before the thing ("in Warsaw"), then the
    same last letters ("Normans" -> "-ans")."""
    start, _, k, text = thing
    corpus = ctx.family.lower_text
    if k in ("year", "number"):
        value = int(float(text.replace(",", "")))
        for _ in range(50):
            new = value + rng.choice([-1, 1]) * rng.randint(3, 40 if k == "year" else
                                                            max(3, value))
            if new > 0 and str(new) not in corpus:
                return f"{new:,}" if "," in text else str(new)
        return None
    seen = ctx.family.pools.get((ctx.swap_pool, k), {})
    pool = sorted(p for p in seen if p.lower() not in corpus)
    if k == "code":
        shape = code_shape(text)
        tiers = [[p for p in pool if code_shape(p) == shape], pool]
    else:
        n = len(text.split())
        same = [p for p in pool if len(p.split()) == n]
        last = text.split()[-1]
        prev = re.search(r"([a-z]+)\s+$", question[:start])
        after = [p for p in same if prev and prev.group(1) in seen[p]]
        tiers = [[p for p in same if n > 1 and p.split()[-1] == last],
                 [p for p in after if p[-3:] == text[-3:]], after,
                 [p for p in same if p[-3:] == text[-3:]], [p for p in same if p[-1] == text[-1]],
                 same]
    pick = next((t for t in tiers if t), None)
    return rng.choice(pick) if pick else None


def code_shape(token):
    return ("call" if token.endswith("()") else "flag" if token.startswith("-") else
            "dotted" if "." in token or "::" in token else
            "constant" if token.isupper() else "snake" if "_" in token else "other")


def thing_swapped(case, ctx, rng):
    """The question's thing (see `the_thing`) swapped for another of its kind that the corpus
    does not hold (see `swap_for`): a year for another year, a code for a code, a name for a
    name. Label and answer are kept, so the label no longer answers the question: the corpus
    cannot answer a question about a thing it never mentions. An identifier case's
    `identifier` follows the swap (it names what the question asks about); a comparison swaps
    one side's name in the question. Not for keyword queries (DL 2020: no capitalised names to find)."""
    if ctx.lowercase_queries or kind(case) == "unanswerable" or not ctx.swap_pool:
        return None
    thing = the_thing(case, ctx)
    if kind(case) == "comparison":
        sides = [s.get("name") for s in case.get("sides") or []]
        found = [t for t in things(case["question"]) if t[3] in sides[1:]] or \
                [t for t in things(case["question"]) if t[3] in sides]
        thing = found[-1] if found else None
    if thing is None:
        return None
    new = swap_for(thing, ctx, rng, case["question"])
    if not new:
        return None
    q = case["question"]
    ticks = re.match(r"`*", q[thing[0]:]).group()  # a backticked code stays backticked
    question = q[:thing[0]] + ticks + new + ticks + q[thing[1]:]
    changes = {"question": question}
    ident = case.get("identifier")
    if ident and thing[3] in ident:
        changes["identifier"] = ident.replace(thing[3], new)
    elif ident and ident in thing[3]:
        changes["identifier"] = new
    return derive(case, "thing_swapped", **changes)


def marked_unanswerable(case, ctx, rng):
    """An answerable lookup or identifier marked unanswerable: `relevant: []`, its answer,
    identifier, hops and sides dropped, type unanswerable. The corpus answers it (its labels
    said where), so an unanswerable check should catch it (the reverse of thing_swapped)."""
    if kind(case) not in ("lookup", "identifier") or not case.get("relevant"):
        return None
    tags = {**case.get("tags", {}), "type": "unanswerable"}
    return derive(case, "marked_unanswerable", relevant=[], answer=None, identifier=None,
                  tags=tags)


KEYWORD_SUBJECT = re.compile(r"^(what is|what are|who is|who was|where is|define|definition of|"
                             r"meaning of|what does)\s+((?:\S+\s+){0,4}?\S+?)(\s+mean)?\s*\??$",
                             re.I)


def reference(question, start, end, thing):
    """The question with the thing at [start, end) replaced by a reference that leans on the
    page. Dropped: a code after or before its kind ("the `p2` variable", "the enum
    `io::ErrorKind`"), a name used as an adjective ("the Norse leader", "a Happy Days
    spinoff") or ending "the <noun> <name>" ("the word Norman?"). Else a code becomes "the
    function", "this option", "this variable", "this attribute" or "this setting" by its shape;
    a name "their" as a possessive, "they"/"them" for "the <one-word plural>", "this one" when
    a word of the question's own follows it ("did Tesla die", "made Ralph earl"; "it" after
    "is"), else "this"; its article goes with it."""
    _, _, k, text = thing
    before, after = question[:start], question[end:]
    nxt = re.match(r"\s+([a-z]+)", after)
    prev = re.search(r"(\w+)\s+$", before)
    prev_word = prev.group(1).lower() if prev else ""
    if k == "code":
        if nxt and nxt.group(1) in CODE_KINDS or prev_word in CODE_KINDS:
            return re.sub(r"\s+([?.!]?)$", r"\1", (before.rstrip() + after))
        ref = {"call": "the function", "flag": "this option", "constant": "this variable",
               "dotted": "this attribute"}.get(code_shape(text), "this setting")
        if prev_word in ("the", "a", "an"):
            before = before[:prev.start()]
        return before + ref + after
    plural = text.endswith("s") and " " not in text and prev_word == "the"
    if nxt and prev_word in ("the", "a", "an") and not plural \
            and nxt.group(1) not in bl.stopwords() | PREPOSITIONS:
        return (before.rstrip() + after).strip()
    if not nxt and re.search(r"\bthe\s+[a-z]+\s+$", before) and prev_word not in bl.stopwords():
        return (before.rstrip() + after).strip()
    if prev_word in ("the", "a", "an"):
        before = before[:prev.start()]
        prev = re.search(r"(\w+)\s+$", before)
        prev_word = prev.group(1).lower() if prev else ""
    quoted = re.search(r"['‘’\"“]$", before)
    if not quoted and (re.match(r"['’]s(?!\w)", after)
                       or text.endswith("s") and re.match(r"['’](?!\w)", after)):
        return before + "their" + re.sub(r"^['’]s?", "", after)
    if plural:
        return before + ("them" if prev_word in PREPOSITIONS else "they") + after
    if nxt and nxt.group(1) not in bl.stopwords() | PREPOSITIONS and prev_word not in PREPOSITIONS:
        return before + ("it" if prev_word in BE else "this one") + after
    return before + "this" + after


BE = {"is", "are", "was", "were", "be", "been"}


def name_replaced(case, ctx, rng):
    """The question's name (see `the_thing`: a code or a capitalised name) replaced by a
    reference that only makes sense beside the page (see `reference`): "what is the type of the
    `p2` variable" -> "what is the type of the variable". A comparison's second side becomes
    "the other one"; a keyword query of the form "what is X", "define X", "meaning of X",
    "what does X mean" (X up to five words) asks about "it" ("what is the botanical name for
    it", "what is its net worth"). Label and answer are kept: the question no longer says what it asks about."""
    q = case["question"]
    if ctx.lowercase_queries:
        m = KEYWORD_SUBJECT.match(q.strip())
        if not m:
            return None
        rest = m.group(2)
        if m.group(1).lower() == "what does" and not m.group(3) or rest.lower().startswith("in "):
            return None
        owner = re.match(r"(.+?)['’]s\s+(.+)$", rest)
        of = re.match(r"(.+\s(?:of|for))\s+\S.*$", rest)
        ref = (f"its {owner.group(2)}" if owner else f"{of.group(1)} it" if of
               else "they" if m.group(1).lower() == "what are" else "it")
        return derive(case, "name_replaced",
                      question=q.strip()[:m.end(1)] + " " + ref + (m.group(3) or ""))
    if kind(case) == "comparison":
        sides = [s.get("name") for s in case.get("sides") or []]
        found = [t for t in things(q) if len(sides) == 2 and t[3] == sides[1]]
        if not found:
            return None
        t = found[-1]
        return derive(case, "name_replaced", question=q[:t[0]] + "the other one" + q[t[1]:])
    labels = case.get("relevant") or []
    thing = the_thing(case, ctx, ("code", "name")) if labels else next(
        (t for t in things(q) if t[2] in ("code", "name")), None)
    if thing is None:
        return None
    question = reference(q, thing[0], thing[1], thing)
    if question == q:
        return None
    return derive(case, "name_replaced", question=question[0].upper() + question[1:]
                  if q[0].isupper() else question)


LOWER_FIRST = {"what", "who", "whom", "whose", "when", "where", "which", "why", "how", "in",
               "is", "are", "was", "were", "does", "do", "did", "can", "the", "a", "an", "on",
               "at", "for", "from", "by", "to", "of", "after", "before", "during", "name"}


def join_questions(q1, q2):
    """"q1, and q2": the first question's end mark dropped, the second's first word lowered
    when it is a function word."""
    first, _, rest = q2.strip().partition(" ")
    if first.lower() in LOWER_FIRST:
        first = first.lower()
    return q1.strip().rstrip("?.! ") + ", and " + (first + " " + rest).strip()


def joined(case, ctx, rng, partners=(), joined_question=None):
    """Two questions joined by "and": a lookup, identifier or unanswerable joined with another
    right case of the same type and group (SQuAD and XQuAD: the same paragraph; the hand marks:
    the same document, else the same corpus; DL 2020: any other query), carrying both cases'
    labels and both answers ("a; b"); a bridge as scripts/hotpot-joined.py asks it ("What is
    said about <hop 1's title>, and what is <the bridge> known for?", hops kept). Two questions
    in one are two test cases, and a retrieval metric over one of them says nothing."""
    if kind(case) == "multi_hop":
        question = joined_question(case) if joined_question else None
        return derive(case, "joined", question=question) if question else None
    if kind(case) not in ("lookup", "identifier", "unanswerable"):
        return None
    pool = [p for p in partners if p["id"] != case["id"] and p["question"] != case["question"]]
    if not pool:
        return None
    other = rng.choice(pool)
    labels = copy.deepcopy(case.get("relevant") or [])
    keys = {(lab["doc"], lab["start"], lab["end"]) for lab in labels}
    labels += [copy.deepcopy(lab) for lab in other.get("relevant") or []
               if (lab["doc"], lab["start"], lab["end"]) not in keys]
    answer = "; ".join(a for a in (case.get("answer"), other.get("answer")) if a) or None
    return derive(case, "joined", question=join_questions(case["question"], other["question"]),
                  relevant=labels, answer=answer, joined_with=other["id"])


def single_hop(case, ctx, rng):
    """A bridge whose question names its bridge, so hop 1 is no longer needed: the bridge is
    put beside the description of it (", <bridge>," before the relative clause "who/that/which
    ...", as in "the woman, Shirley Temple, who portrayed ...") or, where the question has no
    relative clause, before the question ("Adriana Trigiani: The director of ..."). Only for
    bridges whose bridge is not the answer itself, nor already in the question (nor most of
    its words: a misspelt title names it too)."""
    bridge = case.get("bridge")
    q = case["question"]
    if kind(case) != "multi_hop" or not bridge or not case.get("hops") \
            or bridge.lower() == str(case.get("answer") or "").lower():
        return None
    main = set(bl.content_words(bridge))
    if bridge.lower() in q.lower() or len(main & set(bl.content_words(q))) * 2 > len(main):
        return None  # already (nearly) named: "Livesey Hal War Memorial"
    m = next((m for m in RELATIVE.finditer(q) if q[:m.start()].split()[-1].lower()
              not in bl.stopwords() | PREPOSITIONS), None)
    named = (q[:m.start()] + f", {bridge}, " + q[m.start():].lstrip()) if m else f"{bridge}: {q}"
    return derive(case, "single_hop", question=named)


FUNCTIONS = {"answer_moved": answer_moved, "label_moved": label_moved,
             "answer_negated": answer_negated, "thing_swapped": thing_swapped,
             "marked_unanswerable": marked_unanswerable, "name_replaced": name_replaced,
             "joined": joined, "single_hop": single_hop}


# ---- tests (run by `bench-checks.py --self-test`) -------------------------------------------


class _Family:
    """The least a corruption reads of a family: texts, sentences, words, pools."""

    def __init__(self, texts, pools=None):
        import importlib

        self.texts = texts
        self.lower_text = "\n".join(texts.values()).lower()
        self.words = importlib.import_module("verify-cases").Words()
        self.pools = pools or {}

    def sentences(self, doc, start=0, end=None):
        end = len(self.texts[doc]) if end is None else end
        return [(s, e) for s, e in bl.sentences(self.texts[doc]) if start <= s and e <= end]


def _tests():
    import random
    import unittest

    text = ("The Normans came from Normandy. Their leader was Rollo in 911. "
            "They spoke Old Norse at first. The duchy grew larger under Richard.")
    fam = _Family({"n.txt": text}, {("wiki", "name"): {"Bavaria": {"in"}, "Kent": {"from"}}})
    lab = bl.label("n.txt", text, 0, text.index(" They spoke"))
    case = {"id": "c1", "question": "Who was the leader of the Normans?", "answer": "Rollo",
            "relevant": [lab], "tags": {"type": "lookup", "source": "real"}}
    src = Source(fam, answers=["Rollo"], group="n.txt", passage=("n.txt", 0, len(text)),
                 swap_pool="wiki")

    class Tests(unittest.TestCase):
        def rng(self):
            return random.Random(0)

        def test_reference_drops_a_code_before_its_kind(self):
            q = "what is the type of the `p2` variable"
            t = things(q)[0]
            self.assertEqual(reference(q, t[0], t[1], t), "what is the type of the variable")

        def test_reference_leans_on_the_page(self):
            for q, want in [("What year did Tesla die?", "What year did this one die?"),
                            ("When were the Normans in Normandy?", "When were they in Normandy?"),
                            ("Who was Rollo's father?", "Who was their father?"),
                            ("Who was the Norse leader?", "Who was the leader?")]:
                t = next(t for t in things(q) if t[2] == "name")
                self.assertEqual(reference(q, t[0], t[1], t), want)

        def test_negate(self):
            rng = self.rng()
            self.assertEqual(negate("yes", rng), "no")
            self.assertEqual(negate("Rollo", rng), "not Rollo")
            self.assertNotIn("911", negate("in 911", rng))
            self.assertEqual(negate("the cache will keep compiled modules", rng),
                             "the cache will not keep compiled modules")
            self.assertEqual(negate("Ed Wood", rng, other_side="Scott Derrickson"),
                             "Scott Derrickson")

        def test_answer_moved_takes_another_span_of_the_passage(self):
            bad = answer_moved(case, src, self.rng())
            self.assertEqual(bad["corrupted_from"], "c1")
            self.assertEqual(bad["tags"]["corruption"], "answer_moved")
            self.assertIn(bad["answer"], text)
            self.assertNotIn("rollo", bad["answer"].lower())
            self.assertEqual(bad["relevant"], case["relevant"])

        def test_label_moved_to_a_neighbour_without_the_answer(self):
            bad = label_moved(case, src, self.rng())
            quote = bad["relevant"][0]["quote"]
            self.assertEqual(quote, "They spoke Old Norse at first.")
            self.assertEqual(text[bad["relevant"][0]["start"]:bad["relevant"][0]["end"]], quote)

        def test_thing_swapped_for_a_name_the_corpus_lacks(self):
            bad = thing_swapped(case, src, self.rng())
            self.assertIn(bad["question"], ["Who was the leader of the Bavaria?",
                                            "Who was the leader of the Kent?"])
            year = {**case, "question": "Who was the leader in 911?"}
            bad = thing_swapped(year, src, self.rng())
            swapped = bad["question"].removeprefix("Who was the leader in ").rstrip("?")
            self.assertTrue(swapped.isdigit() and swapped not in text, bad["question"])

        def test_thing_swapped_moves_the_identifier_along(self):
            code_text = "Set `max_size` to cap it. The cache keeps 10 items."
            docs = _Family({"c.txt": code_text}, {("docs", "code"): {"line_length": set()}})
            code = {"id": "i1", "question": "what does `max_size` cap", "answer": "it",
                    "identifier": "max_size", "tags": {"type": "identifier"},
                    "relevant": [bl.label("c.txt", code_text, 0, 25)]}
            bad = thing_swapped(code, Source(docs, swap_pool="docs"), self.rng())
            self.assertEqual((bad["question"], bad["identifier"]),
                             ("what does `line_length` cap", "line_length"))

        def test_marked_unanswerable(self):
            bad = marked_unanswerable(case, src, self.rng())
            self.assertEqual((bad["relevant"], bad["tags"]["type"]), ([], "unanswerable"))
            self.assertNotIn("answer", bad)

        def test_joined_carries_both_labels(self):
            other = {**case, "id": "c2", "question": "What did they speak?",
                     "answer": "Old Norse",
                     "relevant": [bl.label("n.txt", text, text.index("They spoke"),
                                           text.index(" The duchy"))]}
            bad = joined(case, src, self.rng(), partners=[case, other])
            self.assertEqual(bad["question"],
                             "Who was the leader of the Normans, and what did they speak?")
            self.assertEqual(len(bad["relevant"]), 2)
            self.assertEqual(bad["answer"], "Rollo; Old Norse")

        def test_single_hop_names_the_bridge(self):
            bridge = {"id": "b", "question": "What position was held by the woman who "
                      "portrayed Corliss Archer?", "answer": "Chief of Protocol",
                      "bridge": "Shirley Temple", "hops": [{}, {}],
                      "tags": {"type": "multi_hop"}}
            self.assertEqual(single_hop(bridge, src, self.rng())["question"],
                             "What position was held by the woman, Shirley Temple, who "
                             "portrayed Corliss Archer?")
            bridge["question"] = "The director of Big Stone Gap is based in what city?"
            bridge["bridge"] = "Adriana Trigiani"
            self.assertTrue(single_hop(bridge, src, self.rng())["question"].startswith(
                "Adriana Trigiani: "))

    return Tests
