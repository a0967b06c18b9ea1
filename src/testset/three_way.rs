//! Three-way merge of a test set: the file as a command read it (*base*), the set the command
//! wants to write (*mine*) and the file as it is on disk now (*theirs*, written meanwhile by
//! someone else — a review page, another command, an editor).
//!
//! Each side's change is kept: cases are matched by id, a case only one side changed takes that
//! side's version, a case both changed is merged field by field, cases either side added are
//! kept (theirs in their place, mine appended). Two different values for the same field are a
//! conflict and nothing is merged: the message names the case, the field and both values, so
//! the caller can refuse instead of dropping the other writer's change.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Case, FORMAT_VERSION, TestSet};

/// Case fields the `audit` figures are computed from: figures computed before the other writer
/// changed one of these describe a case that no longer exists, and are not written.
const AUDIT_INPUTS: &[&str] = &["question", "answer", "relevant", "tags"];

/// Header fields new labels depend on (their offsets and chunk ids).
const LABEL_CONTEXT: &[&str] = &["corpus", "chunking"];

/// The merged set and what was left out of this command's changes, and why.
#[derive(Debug)]
pub(crate) struct Merged {
    pub set: TestSet,
    pub notes: Vec<String>,
}

/// A case's identity: its id and which occurrence of that id it is (ids should be unique, but
/// a file that breaks that must still merge without mixing two cases up).
type Key = (String, usize);

fn keys(cases: &[Case]) -> Vec<Key> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    cases
        .iter()
        .map(|c| {
            let n = seen.entry(c.id.as_str()).or_default();
            *n += 1;
            (c.id.clone(), *n)
        })
        .collect()
}

fn index(cases: &[Case]) -> HashMap<Key, &Case> {
    keys(cases).into_iter().zip(cases).collect()
}

/// Merges `mine` (changed from `base`) onto `theirs`; `Err` is the conflict, in words.
pub(crate) fn merge(base: &TestSet, mine: &TestSet, theirs: TestSet) -> Result<Merged, String> {
    let mut notes = Vec::new();
    let base_by = index(&base.cases);
    let mine_by = index(&mine.cases);
    let header = merge_header(base, mine, &theirs, labels_changed(&base_by, mine))?;

    let their_keys = keys(&theirs.cases);
    let in_theirs: HashSet<&Key> = their_keys.iter().collect();
    let mut cases = Vec::with_capacity(theirs.cases.len() + mine.cases.len());
    for (key, t) in their_keys.iter().zip(theirs.cases.iter()) {
        let id = &key.0;
        match (base_by.get(key), mine_by.get(key)) {
            (Some(b), Some(m)) => cases.push(merge_case(b, m, t, &mut notes)?),
            (Some(b), None) if t == *b => {} // removed here, untouched there
            (Some(_), None) => {
                return Err(format!(
                    "case `{id}` was changed in the file since it was read, and this command removes it"
                ));
            }
            (None, Some(m)) if *m == t => cases.push(t.clone()),
            (None, Some(_)) => {
                return Err(format!(
                    "case `{id}` was added to the file since it was read, and this command adds a different case with the same id"
                ));
            }
            (None, None) => cases.push(t.clone()),
        }
    }
    for (key, m) in keys(&mine.cases).iter().zip(&mine.cases) {
        if in_theirs.contains(key) {
            continue;
        }
        match base_by.get(key) {
            None => cases.push(m.clone()),
            Some(b) if *b == m => {} // removed there, untouched here
            Some(_) => {
                return Err(format!(
                    "case `{}` was removed from the file since it was read, and this command changes it",
                    key.0
                ));
            }
        }
    }

    let mut set = header_set(header, &theirs)?;
    set.cases = cases;
    set.origin = theirs.origin;
    Ok(Merged { set, notes })
}

/// True when `mine` adds labels or changes any case's labels.
fn labels_changed(base_by: &HashMap<Key, &Case>, mine: &TestSet) -> bool {
    keys(&mine.cases)
        .iter()
        .zip(&mine.cases)
        .any(|(k, m)| match base_by.get(k) {
            Some(b) => b.relevant != m.relevant,
            None => !m.relevant.is_empty(),
        })
}

/// One case both sides may have changed.
fn merge_case(b: &Case, m: &Case, t: &Case, notes: &mut Vec<String>) -> Result<Case, String> {
    if m == b {
        return Ok(t.clone());
    }
    if t == b {
        let mut c = m.clone();
        c.origin = t.origin.clone();
        return Ok(c);
    }
    let (bv, mv, tv) = (fields(b), fields(m), fields(t));
    let inputs_changed_there = AUDIT_INPUTS.iter().any(|k| bv.get(*k) != tv.get(*k));
    let mut out = Map::new();
    let all = tv.keys().chain(mv.keys()).chain(bv.keys());
    let mut done = HashSet::new();
    for k in all {
        if !done.insert(k.as_str()) {
            continue;
        }
        let (bk, mk, tk) = (bv.get(k), mv.get(k), tv.get(k));
        let pick = if mk == bk || mk == tk {
            tk
        } else if k == "audit" && inputs_changed_there {
            notes.push(format!(
                "case `{}`: audit figures not written, the case was edited meanwhile (run audit again)",
                t.id
            ));
            tk
        } else if tk == bk {
            mk
        } else {
            return Err(format!(
                "case `{}` field `{k}` is now {} in the file (changed since it was read), and this command sets it to {}",
                t.id,
                show(tk),
                show(mk)
            ));
        };
        if let Some(v) = pick {
            out.insert(k.clone(), v.clone());
        }
    }
    let mut case: Case = serde_json::from_value(Value::Object(out))
        .map_err(|e| format!("case `{}`: the merged case is not valid: {e}", t.id))?;
    case.origin = t.origin.clone();
    Ok(case)
}

fn fields(case: &Case) -> Map<String, Value> {
    match serde_json::to_value(case) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// A value for a message: compact JSON, shortened.
fn show(v: Option<&Value>) -> String {
    match v {
        None => "absent".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 80 {
                format!("{}…", s.chars().take(80).collect::<String>())
            } else {
                s
            }
        }
    }
}

/// The header's fields as one map: `ragsynth`, `corpus`, `chunking`, then unknown keys.
fn header_map(set: &TestSet) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("ragsynth".into(), Value::from(set.version));
    if let Some(c) = &set.corpus {
        m.insert("corpus".into(), serde_json::to_value(c).unwrap_or_default());
    }
    if let Some(c) = &set.chunking {
        m.insert("chunking".into(), serde_json::to_value(c).unwrap_or_default());
    }
    for (k, v) in &set.extra {
        m.insert(k.clone(), v.clone());
    }
    m
}

fn merge_header(
    base: &TestSet,
    mine: &TestSet,
    theirs: &TestSet,
    labels_changed: bool,
) -> Result<Map<String, Value>, String> {
    let (bh, mh, th) = (header_map(base), header_map(mine), header_map(theirs));
    if labels_changed && let Some(k) = LABEL_CONTEXT.iter().find(|k| bh.get(**k) != th.get(**k)) {
        return Err(format!(
            "the header's `{k}` changed in the file since it was read (now {}), and this command's labels were made under the old one",
            show(th.get(*k))
        ));
    }
    let mut out = Map::new();
    let mut done = HashSet::new();
    for k in th.keys().chain(mh.keys()).chain(bh.keys()) {
        if !done.insert(k.as_str()) {
            continue;
        }
        let (bk, mk, tk) = (bh.get(k), mh.get(k), th.get(k));
        let pick = if mk == bk || mk == tk {
            tk
        } else if tk == bk {
            mk
        } else {
            return Err(format!(
                "the header's `{k}` is now {} in the file (changed since it was read), and this command sets it to {}",
                show(tk),
                show(mk)
            ));
        };
        if let Some(v) = pick {
            out.insert(k.clone(), v.clone());
        }
    }
    Ok(out)
}

/// A set with the header `map` describes (no cases yet).
fn header_set(mut map: Map<String, Value>, theirs: &TestSet) -> Result<TestSet, String> {
    fn typed<T: serde::de::DeserializeOwned>(v: Value, what: &str) -> Result<T, String> {
        serde_json::from_value(v).map_err(|e| format!("the merged `{what}` is not valid: {e}"))
    }
    let version = map
        .shift_remove("ragsynth")
        .and_then(|v| v.as_u64())
        .unwrap_or(FORMAT_VERSION);
    let corpus = map
        .shift_remove("corpus")
        .map(|v| typed(v, "corpus"))
        .transpose()?;
    let chunking = map
        .shift_remove("chunking")
        .map(|v| typed(v, "chunking"))
        .transpose()?;
    Ok(TestSet {
        version,
        corpus,
        chunking,
        extra: map,
        cases: Vec::new(),
        origin: theirs.origin.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::{Format, Review, load_str, to_string};
    use std::path::Path;

    const BASE: &str = "ragsynth: 1
corpus: {root: docs}
cases:
  - id: real-1
    question:   how long are snapshots kept   # odd spacing survives
    relevant: []
  - id: syn-1
    question: What is the retention?
    relevant: []
    tags: {type: lookup, source: synthetic}
    review: pending
";

    fn parse(text: &str) -> TestSet {
        load_str(text, Path::new("set.yaml"), Format::Yaml).unwrap()
    }

    #[test]
    fn review_fields_there_and_audit_fields_here_both_survive() {
        let base = parse(BASE);
        let mut mine = base.clone();
        mine.case_mut("syn-1").unwrap().audit = Some(serde_json::json!({"flags": ["RS101"]}));
        let mut theirs = base.clone();
        theirs.case_mut("syn-1").unwrap().review = Some(Review::Accepted);
        theirs.cases.push(Case::new("syn-2", "A new one?"));
        let merged = merge(&base, &mine, theirs).unwrap();
        let c = merged.set.case("syn-1").unwrap();
        assert_eq!(c.review, Some(Review::Accepted));
        assert!(c.audit.is_some());
        assert_eq!(merged.set.cases.len(), 3);
        let text = to_string(&merged.set, Format::Yaml);
        assert!(
            text.contains("how long are snapshots kept   # odd spacing survives"),
            "{text}"
        );
    }

    #[test]
    fn new_cases_here_are_appended_after_the_ones_added_there() {
        let base = parse(BASE);
        let mut mine = base.clone();
        mine.cases.push(Case::new("syn-mine", "Mine?"));
        let mut theirs = base.clone();
        theirs.cases.push(Case::new("syn-theirs", "Theirs?"));
        let ids: Vec<String> = merge(&base, &mine, theirs)
            .unwrap()
            .set
            .cases
            .iter()
            .map(|c| c.id.clone())
            .collect();
        assert_eq!(ids, ["real-1", "syn-1", "syn-theirs", "syn-mine"]);
    }

    #[test]
    fn the_same_field_changed_two_ways_is_a_conflict_naming_both_values() {
        let base = parse(BASE);
        let mut mine = base.clone();
        mine.case_mut("syn-1").unwrap().review = Some(Review::Accepted);
        let mut theirs = base.clone();
        theirs.case_mut("syn-1").unwrap().review = Some(Review::Rejected);
        theirs.case_mut("syn-1").unwrap().answer = Some("x".into());
        let e = merge(&base, &mine, theirs).unwrap_err();
        assert!(e.contains("`syn-1` field `review`"), "{e}");
        assert!(e.contains("\"rejected\"") && e.contains("\"accepted\""), "{e}");
    }

    #[test]
    fn stale_audit_figures_give_way_to_an_edit() {
        let base = parse(BASE);
        let mut mine = base.clone();
        mine.case_mut("syn-1").unwrap().audit = Some(serde_json::json!({"overlap": 0.9}));
        let mut theirs = base.clone();
        theirs.case_mut("syn-1").unwrap().question = "How long are snapshots kept?".into();
        let merged = merge(&base, &mine, theirs).unwrap();
        let c = merged.set.case("syn-1").unwrap();
        assert_eq!(c.question, "How long are snapshots kept?");
        assert_eq!(c.audit, None);
        assert_eq!(merged.notes.len(), 1, "{:?}", merged.notes);
    }

    #[test]
    fn labels_made_under_a_chunking_changed_there_are_refused() {
        let base = parse(BASE);
        let mut mine = base.clone();
        let mut c = Case::new("syn-new", "New?");
        c.relevant.push(crate::testset::Label {
            doc: "a.md".into(),
            start: 0,
            end: 4,
            quote: "text".into(),
            chunk: Some("a.md#0".into()),
            grade: None,
            extra: Map::new(),
        });
        mine.cases.push(c);
        let mut theirs = base.clone();
        theirs.chunking = Some(crate::chunk::Chunking::default());
        let e = merge(&base, &mine, theirs).unwrap_err();
        assert!(e.contains("`chunking`"), "{e}");
    }
}
