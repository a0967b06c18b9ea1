//! Asking the model: a journaled answer replayed, else the prompt fitted to the context, sent,
//! parsed into the type asked for, re-asked while malformed, journaled and accounted.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::executor::Answer;
use super::journal::{self, Entry, KeyParts};
use super::provider::{Message, Prompt, Role};
use super::usage::Event;
use super::{ChatRequest, Llm, LlmError, Reply};

/// Tokens a chat template adds around the system and user messages (an over-estimate).
const TEMPLATE_TOKENS: usize = 32;

impl Llm {
    /// Asks for a JSON value of type `T`. A journaled answer is replayed; otherwise the model is
    /// asked (with the schema of `T`), the answer parsed into `T`, malformed answers re-asked up
    /// to the re-ask limit, and the accepted answer journaled before it is returned.
    pub async fn structured<T: DeserializeOwned + JsonSchema>(
        &self,
        req: &ChatRequest,
    ) -> Result<Reply<T>, LlmError> {
        let inner = &*self.inner;
        let schema = schemars::schema_for!(T).to_value();
        let key = journal::key(&KeyParts {
            llm: &inner.id,
            system: &req.system,
            user: &req.user,
            schema: &schema,
            max_tokens: req.max_tokens,
            temperature: req.temperature,
            seed: req.seed,
        });
        let asked_before = !inner.asked.lock().expect("asked lock").insert(key.clone());
        if let Some(stored) = inner.journal.as_ref().and_then(|j| j.get(&key)) {
            if let Some(reason) = stored.rejected {
                self.record(&req.tag, Event::CacheHit);
                self.record(&req.tag, Event::Rejected);
                return Err(LlmError::Rejected { reason });
            }
            if let Ok(value) = serde_json::from_value::<T>(stored.value) {
                self.record(&req.tag, Event::CacheHit);
                return Ok(Reply {
                    value,
                    cached: true,
                    journaled: stored.time,
                    repeat: asked_before,
                });
            }
        }
        let prompt_tokens =
            Self::estimate_tokens(&req.system) + Self::estimate_tokens(&req.user) + TEMPLATE_TOKENS;
        if let Some(ctx) = inner.context
            && prompt_tokens + req.max_tokens as usize > ctx
        {
            self.record(&req.tag, Event::Rejected);
            return Err(LlmError::Rejected {
                reason: format!(
                    "prompt of ~{prompt_tokens} tokens plus max_tokens {} exceeds the model's {ctx}-token context",
                    req.max_tokens
                ),
            });
        }

        let mut messages = vec![Message {
            role: Role::User,
            content: req.user.clone(),
        }];
        let mut reason = String::new();
        for _ in 0..=inner.max_reasks {
            let prompt = Prompt {
                model: inner.id.split_once(':').map_or("", |(_, m)| m),
                system: &req.system,
                messages: &messages,
                schema: &schema,
                max_tokens: req.max_tokens,
                temperature: req.temperature,
                seed: req.seed,
            };
            let extra: usize = messages[1..]
                .iter()
                .map(|m| Self::estimate_tokens(&m.content))
                .sum();
            let tokens = (prompt_tokens + extra + req.max_tokens as usize).min(u32::MAX as usize) as u32;
            let outcome = inner
                .exec
                .complete(&prompt, tokens, || self.record(&req.tag, Event::Retry))
                .await;
            let completion = match outcome {
                Ok(Answer::Usable(c)) => c,
                Ok(Answer::Unusable(why)) => {
                    // The provider answered, but not with a usable body: ask again.
                    self.record(
                        &req.tag,
                        Event::Call {
                            prompt: 0,
                            completion: 0,
                        },
                    );
                    reason = why;
                    continue;
                }
                Err(e) => {
                    if matches!(e, LlmError::Rejected { .. }) {
                        self.record(&req.tag, Event::Rejected);
                    }
                    return Err(e);
                }
            };
            self.record(
                &req.tag,
                Event::Call {
                    prompt: completion.prompt_tokens,
                    completion: completion.completion_tokens,
                },
            );
            match check::<T>(&completion.text, completion.truncated) {
                Ok((value, json)) => {
                    let mut journaled = None;
                    if let Some(j) = &inner.journal {
                        let time = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second())
                            .expect("now is a valid time");
                        journaled = Some(time);
                        j.append(&Entry {
                            key,
                            llm: inner.id.clone(),
                            tag: req.tag.clone(),
                            value: json,
                            prompt_tokens: completion.prompt_tokens,
                            completion_tokens: completion.completion_tokens,
                            time: Some(time),
                            rejected: None,
                        })
                        .map_err(|e| {
                            LlmError::Config(format!("cannot append to {}: {e}", j.path().display()))
                        })?;
                    }
                    return Ok(Reply {
                        value,
                        cached: false,
                        journaled,
                        repeat: false,
                    });
                }
                Err(why) => {
                    messages.truncate(1);
                    if !completion.truncated && !completion.text.trim().is_empty() {
                        messages.push(Message {
                            role: Role::Assistant,
                            content: completion.text,
                        });
                        messages.push(Message {
                            role: Role::User,
                            content: format!(
                                "That reply was not valid: {why}. Reply again with only a JSON value that matches the schema."
                            ),
                        });
                    }
                    reason = why;
                }
            }
        }
        self.record(&req.tag, Event::Rejected);
        let reason = format!("{reason} (after {} attempts)", inner.max_reasks + 1);
        if let Some(j) = &inner.journal {
            // The same request would be as malformed again: journal the verdict, so a rerun
            // replays it instead of paying for every re-ask once more.
            j.append(&Entry {
                key,
                llm: inner.id.clone(),
                tag: req.tag.clone(),
                value: Value::Null,
                prompt_tokens: 0,
                completion_tokens: 0,
                time: Some(
                    jiff::Timestamp::from_second(jiff::Timestamp::now().as_second())
                        .expect("now is a valid time"),
                ),
                rejected: Some(reason.clone()),
            })
            .map_err(|e| LlmError::Config(format!("cannot append to {}: {e}", j.path().display())))?;
        }
        Err(LlmError::Rejected { reason })
    }
}

/// Parses an answer into `T`, tolerating a Markdown code fence around the JSON.
fn check<T: DeserializeOwned>(text: &str, truncated: bool) -> Result<(T, Value), String> {
    if truncated {
        return Err("the answer was cut off at max_tokens".into());
    }
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|s| s.strip_suffix("```"))
        .unwrap_or(t)
        .trim();
    let json: Value = serde_json::from_str(t).map_err(|e| format!("invalid JSON: {e}"))?;
    let value =
        serde_json::from_value(json.clone()).map_err(|e| format!("JSON does not match the schema: {e}"))?;
    Ok((value, json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, JsonSchema, PartialEq)]
    struct A {
        n: u32,
    }

    #[test]
    fn answers_are_checked_against_the_type() {
        assert_eq!(
            check::<A>("```json\n{\"n\": 3}\n```", false).unwrap().0,
            A { n: 3 }
        );
        assert!(check::<A>("{\"n\": 3}", true).unwrap_err().contains("cut off"));
        assert!(
            check::<A>("{\"n\": ", false)
                .unwrap_err()
                .contains("invalid JSON")
        );
        assert!(check::<A>("{\"m\": 1}", false).unwrap_err().contains("schema"));
    }

    #[test]
    fn estimate_is_a_quarter_of_the_chars() {
        assert_eq!(Llm::estimate_tokens(""), 0);
        assert_eq!(Llm::estimate_tokens("abcde"), 2);
    }
}
