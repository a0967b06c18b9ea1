//! LlamaIndex's two dataset files: `EmbeddingQAFinetuneDataset` (`generate_question_context_pairs`,
//! saved as one object of `queries`, `corpus` and `relevant_docs` keyed by node id) and
//! `LabelledRagDataset` (`RagDatasetGenerator`, saved as `examples` of `query`,
//! `reference_contexts`, `reference_answer` and who wrote them).

use std::path::Path;

use serde_json::{Map, Value};

use super::lists::{self, NotAList};
use super::records::Input;
use super::{ForeignCase, Passage};
use crate::testset::Source;
use crate::{Error, Result};

fn object<'a>(path: &Path, doc: &'a Map<String, Value>, key: &str) -> Result<&'a Map<String, Value>> {
    doc.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .and_then(|(_, v)| v.as_object())
        .ok_or_else(|| Error::Field {
            path: path.to_path_buf(),
            line: Some(1),
            case: None,
            field: key.to_string(),
            message: "expected an object keyed by id".into(),
        })
}

/// The queries of an `EmbeddingQAFinetuneDataset`, each with the corpus nodes it names.
pub fn pairs(path: &Path, input: &Input) -> Result<Vec<ForeignCase>> {
    let doc = input.document.as_ref().expect("detected by its object");
    let (queries, corpus, relevant) = (
        object(path, doc, "queries")?,
        object(path, doc, "corpus")?,
        object(path, doc, "relevant_docs")?,
    );
    let mut out = Vec::with_capacity(queries.len());
    for (qid, q) in queries {
        let bad = |field: String, message: String| Error::Field {
            path: path.to_path_buf(),
            line: None,
            case: Some(qid.clone()),
            field,
            message,
        };
        let question = q
            .as_str()
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| bad(format!("queries.{qid}"), "expected the question's text".into()))?;
        let ids = relevant
            .get(qid)
            .map_or(Ok(Vec::new()), lists::list_field)
            .map_err(|NotAList(m)| bad(format!("relevant_docs.{qid}"), m))?;
        let mut passages = Vec::with_capacity(ids.len());
        for id in ids {
            let text = corpus.get(&id).and_then(Value::as_str).ok_or_else(|| {
                bad(
                    format!("relevant_docs.{qid}"),
                    format!("node `{id}` is not in `corpus`"),
                )
            })?;
            passages.push(Passage {
                text: text.to_string(),
                name: Some(id),
            });
        }
        out.push(ForeignCase {
            line: 1,
            id: Some(qid.clone()),
            question: question.trim().to_string(),
            passages,
            source: Some(Source::Synthetic),
            ..ForeignCase::default()
        });
    }
    Ok(out)
}

/// The examples of a `LabelledRagDataset`.
pub fn labelled(path: &Path, input: &Input) -> Result<Vec<ForeignCase>> {
    input
        .records
        .iter()
        .map(|r| {
            let question = r.text(&["query"]).ok_or_else(|| Error::Field {
                path: path.to_path_buf(),
                line: Some(r.line),
                case: None,
                field: "query".into(),
                message: "missing: a LlamaIndex example needs `query`".into(),
            })?;
            let items = r
                .get("reference_contexts")
                .map_or(Ok(Vec::new()), lists::list_field)
                .map_err(|NotAList(m)| Error::Field {
                    path: path.to_path_buf(),
                    line: Some(r.line),
                    case: None,
                    field: "reference_contexts".into(),
                    message: m,
                })?;
            let source = match r.text(&["query_by.type"]).map(|t| t.to_lowercase()).as_deref() {
                Some("human") => Some(Source::Real),
                Some("ai") => Some(Source::Synthetic),
                _ => None,
            };
            let fields = r
                .fields
                .iter()
                .filter(|(k, v)| {
                    !["query", "reference_contexts", "reference_answer", "query_by"]
                        .iter()
                        .any(|u| k.eq_ignore_ascii_case(u))
                        && !v.is_null()
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Ok(ForeignCase {
                line: r.line,
                question,
                answer: r.text(&["reference_answer"]),
                passages: items
                    .into_iter()
                    .filter(|t| !t.trim().is_empty())
                    .map(|text| Passage { text, name: None })
                    .collect(),
                source,
                model: r.text(&["query_by.model_name"]),
                fields,
                ..ForeignCase::default()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::records::{Layout, Record};
    use super::*;
    use serde_json::json;

    #[test]
    fn pairs_name_their_nodes_and_a_missing_node_is_an_error() {
        let doc = json!({"queries": {"q1": "What is x?"}, "corpus": {"n1": "x is y."},
            "relevant_docs": {"q1": ["n1"]}, "mode": "text"});
        let input = Input {
            layout: Layout::Json,
            records: Vec::new(),
            document: doc.as_object().cloned(),
            columns: Vec::new(),
        };
        let cases = pairs(Path::new("p.json"), &input).unwrap();
        assert_eq!(cases[0].passages[0].name.as_deref(), Some("n1"));
        assert_eq!(cases[0].id.as_deref(), Some("q1"));
        let mut broken = input.clone();
        broken.document.as_mut().unwrap()["relevant_docs"] = json!({"q1": ["n9"]});
        let e = pairs(Path::new("p.json"), &broken).unwrap_err().to_string();
        assert!(
            e.contains("case `q1`") && e.contains("node `n9` is not in `corpus`"),
            "{e}"
        );
    }

    #[test]
    fn labelled_examples_know_who_wrote_them() {
        let fields = json!({"query": "Why?", "query_by": {"model_name": "gpt-4", "type": "ai"},
            "reference_contexts": ["c1", "c2"], "reference_answer": "Because.",
            "reference_answer_by": {"model_name": "gpt-4", "type": "ai"}});
        let input = Input {
            layout: Layout::Json,
            records: vec![Record {
                line: 3,
                fields: fields.as_object().unwrap().clone(),
            }],
            document: None,
            columns: Vec::new(),
        };
        let c = &labelled(Path::new("l.json"), &input).unwrap()[0];
        assert_eq!((c.line, c.passages.len()), (3, 2));
        assert_eq!(c.source, Some(Source::Synthetic));
        assert_eq!(c.model.as_deref(), Some("gpt-4"));
        assert!(c.fields.contains_key("reference_answer_by"));
    }
}
