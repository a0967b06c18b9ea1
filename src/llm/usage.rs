//! What the run cost: calls, cache hits, tokens, retries, rejections, per tag and in total, and
//! the price in USD from a built-in table that `[prices]` in `ragsynth.toml` extends.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Counters of one tag (e.g. `lookup`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TagUsage {
    /// Answers received from the provider (re-asks included).
    pub calls: u64,
    /// Answers replayed from the journal.
    pub cache_hits: u64,
    /// Prompt tokens as reported by the provider.
    pub prompt_tokens: u64,
    /// Completion tokens as reported by the provider.
    pub completion_tokens: u64,
    /// Transient failures that were retried.
    pub retries: u64,
    /// Requests given up as malformed or too long.
    pub rejected: u64,
    /// USD, when the model's price is known.
    pub cost_usd: Option<f64>,
}

/// A snapshot of the whole run's usage: the counters over every tag (serialized inline, next
/// to `by_tag`), and per tag.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Usage {
    /// The whole run.
    #[serde(flatten)]
    pub total: TagUsage,
    /// The same counters per request tag.
    pub by_tag: BTreeMap<String, TagUsage>,
}

/// Which counter an event bumps.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Call { prompt: u64, completion: u64 },
    CacheHit,
    Retry,
    Rejected,
}

impl TagUsage {
    fn add(&mut self, e: Event) {
        match e {
            Event::Call { prompt, completion } => {
                self.calls += 1;
                self.prompt_tokens += prompt;
                self.completion_tokens += completion;
            }
            Event::CacheHit => self.cache_hits += 1,
            Event::Retry => self.retries += 1,
            Event::Rejected => self.rejected += 1,
        }
    }
}

impl Usage {
    pub(crate) fn record(&mut self, tag: &str, e: Event) {
        self.total.add(e);
        self.by_tag.entry(tag.to_string()).or_default().add(e);
    }

    /// Fills in the costs from `price`.
    pub(crate) fn priced(mut self, price: Option<Price>) -> Usage {
        for t in std::iter::once(&mut self.total).chain(self.by_tag.values_mut()) {
            t.cost_usd = price.map(|p| p.cost(t.prompt_tokens, t.completion_tokens));
        }
        self
    }
}

/// One line for a run summary, e.g. `LLM: 12 calls, 3 cached, 4.1k prompt + 900 completion tokens, 1 retry, 0 rejected, $0.0012`.
impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.total;
        write!(
            f,
            "LLM: {} calls, {} cached, {} prompt + {} completion tokens, {} retries, {} rejected, ",
            t.calls, t.cache_hits, t.prompt_tokens, t.completion_tokens, t.retries, t.rejected
        )?;
        match t.cost_usd {
            Some(c) => write!(f, "${c:.4}"),
            None => write!(f, "cost unknown (add the model to [prices])"),
        }
    }
}

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Per million prompt tokens.
    pub input: f64,
    /// Per million completion tokens.
    pub output: f64,
    /// Per million prompt tokens through the batch API (default: half of `input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_input: Option<f64>,
    /// Per million completion tokens through the batch API (default: half of `output`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_output: Option<f64>,
}

impl Price {
    /// A price of `input` and `output` USD per million tokens, the batch rates half of each.
    pub const fn new(input: f64, output: f64) -> Price {
        Price {
            input,
            output,
            batch_input: None,
            batch_output: None,
        }
    }

    /// The price through the batch API: the table's batch rates, else half the online ones
    /// (OpenAI's Batch API and Anthropic's Message Batches both charge half).
    pub fn batched(self) -> Price {
        Price::new(
            self.batch_input.unwrap_or(self.input * BATCH_SHARE),
            self.batch_output.unwrap_or(self.output * BATCH_SHARE),
        )
    }

    /// USD of `prompt` and `completion` tokens.
    pub fn cost(self, prompt: u64, completion: u64) -> f64 {
        (prompt as f64 * self.input + completion as f64 * self.output) / 1e6
    }
}

/// What a batch costs of the online price, where the table gives no batch rate.
pub const BATCH_SHARE: f64 = 0.5;

/// List prices (USD per 1M tokens) of common hosted models when this table was written; the
/// `[prices]` section overrides and extends it.
const BUILT_IN: &[(&str, f64, f64)] = &[
    ("openai:gpt-4o-mini", 0.15, 0.60),
    ("openai:gpt-4o", 2.50, 10.00),
    ("openai:gpt-4.1", 2.00, 8.00),
    ("openai:gpt-4.1-mini", 0.40, 1.60),
    ("openai:gpt-4.1-nano", 0.10, 0.40),
    ("anthropic:claude-haiku-4-5", 1.00, 5.00),
    ("anthropic:claude-sonnet-4-5", 3.00, 15.00),
    ("anthropic:claude-3-5-haiku", 0.80, 4.00),
];

/// The `[prices]` section: `"provider:model" = {input = 0.15, output = 0.6}` (USD per 1M tokens).
pub type PriceTable = BTreeMap<String, Price>;

/// The price of `provider:model`: local providers are free; otherwise the longest table entry
/// that prefixes the id (so dated snapshots such as `gpt-4o-mini-2024-07-18` match), user
/// entries first.
pub fn price_of(provider: &str, model: &str, user: &PriceTable) -> Option<Price> {
    if matches!(provider, "llamacpp" | "ollama") {
        return Some(Price::new(0.0, 0.0));
    }
    let id = format!("{provider}:{model}");
    let best = |entries: &mut dyn Iterator<Item = (&str, Price)>| {
        entries
            .filter(|(k, _)| id.starts_with(k) || model.starts_with(k))
            .max_by_key(|(k, _)| k.len())
            .map(|(_, p)| p)
    };
    best(&mut user.iter().map(|(k, p)| (k.as_str(), *p)))
        .or_else(|| best(&mut BUILT_IN.iter().map(|(k, i, o)| (*k, Price::new(*i, *o)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_match_longest_prefix_and_user_entries_win() {
        let none = PriceTable::new();
        assert_eq!(
            price_of("openai", "gpt-4o-mini-2024-07-18", &none).unwrap().input,
            0.15
        );
        assert_eq!(price_of("openai", "gpt-4o", &none).unwrap().input, 2.50);
        assert_eq!(price_of("llamacpp", "x", &none).unwrap().output, 0.0);
        assert!(price_of("openai-compatible", "mystery", &none).is_none());
        let mut user = PriceTable::new();
        user.insert("mystery".into(), Price::new(1.0, 2.0));
        user.insert("openai:gpt-4o-mini".into(), Price::new(9.0, 9.0));
        assert_eq!(
            price_of("openai-compatible", "mystery", &user).unwrap().output,
            2.0
        );
        assert_eq!(price_of("openai", "gpt-4o-mini", &user).unwrap().input, 9.0);
    }

    #[test]
    fn usage_adds_up_per_tag_and_prices() {
        let mut u = Usage::default();
        u.record(
            "a",
            Event::Call {
                prompt: 1_000_000,
                completion: 0,
            },
        );
        u.record(
            "b",
            Event::Call {
                prompt: 0,
                completion: 1_000_000,
            },
        );
        u.record("b", Event::CacheHit);
        u.record("b", Event::Retry);
        u.record("a", Event::Rejected);
        let u = u.priced(Some(Price::new(1.0, 2.0)));
        let t = &u.total;
        assert_eq!((t.calls, t.cache_hits, t.retries, t.rejected), (2, 1, 1, 1));
        assert_eq!(t.cost_usd, Some(3.0));
        // Serialized as before the split: the totals inline, then `by_tag`.
        let json = serde_json::to_value(&u).unwrap();
        assert_eq!(
            (json["calls"].as_u64(), json["by_tag"]["b"]["calls"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(u.by_tag["a"].cost_usd, Some(1.0));
        assert_eq!(u.by_tag["b"].cache_hits, 1);
        assert!(u.to_string().contains("$3.0000"));
    }
}
