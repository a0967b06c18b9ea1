//! Asking a judge one item's question, through the request builders and reply readings the
//! commands use (`judge::*_request`, [`AnswersReply::agrees`], `eval::answers::judged`), so the
//! kappa measured is that of the judge `generate`, `audit` and `eval --answers` run.

use super::Item;
use crate::eval::answers::judged::{self, Verdict};
use crate::judge::{self, AnswerableReply, AnswersReply, Passage, SupportedReply};
use crate::llm::{Llm, LlmError};
use crate::prompts::Prompts;

/// The judge's verdict on `item`; `None` when its reply stayed malformed.
pub async fn verdict(
    llm: &Llm,
    prompts: &Prompts,
    context: usize,
    item: &Item,
) -> Result<Option<bool>, LlmError> {
    let passages: Vec<Passage<'_>> = item
        .passages
        .iter()
        .map(|t| Passage { doc: "", text: t })
        .collect();
    let config = |e: crate::Error| LlmError::Config(e.to_string());
    let (q, a) = (item.question.as_str(), item.answer.as_str());
    let reply = match item.judge {
        "answerable" => {
            let req = judge::answerable_request(prompts, context, q, &passages).map_err(config)?;
            llm.structured::<AnswerableReply>(&req)
                .await
                .map(|r| r.value.answerable)
        }
        "supported" => {
            let req = judge::supported_request(prompts, context, q, a, &passages).map_err(config)?;
            llm.structured::<SupportedReply>(&req)
                .await
                .map(|r| r.value.supported)
        }
        "answers" => {
            let fact = item.passages.first().map_or("", String::as_str);
            let req = judge::answers_request(prompts, context, q, fact).map_err(config)?;
            llm.structured::<AnswersReply>(&req)
                .await
                .map(|r| r.value.agrees(a))
        }
        "correct" | "refused" | "grounded" => {
            let (verdict, req) = match item.judge {
                "correct" => {
                    let refs: Vec<&str> = item.references.iter().map(String::as_str).collect();
                    (Verdict::Correct, judge::correct_request(prompts, q, &refs, a))
                }
                "refused" => (Verdict::Refused, judge::refused_request(prompts, q, a)),
                _ => (
                    Verdict::Grounded,
                    judge::grounded_request(prompts, context, q, a, &passages),
                ),
            };
            return Ok(judged::ask(llm, &req.map_err(config)?, verdict)
                .await?
                .map(|(v, _)| v));
        }
        other => return Err(LlmError::Config(format!("no judge is called {other}"))),
    };
    match reply {
        Ok(v) => Ok(Some(v)),
        Err(LlmError::Rejected { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}
