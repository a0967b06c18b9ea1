//! Arguments of `ragsynth run`, and the run settings they describe.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use ragsynth::http::Redirects;
use ragsynth::limits::{REPLY_BYTES, parse_size};
use ragsynth::redact;
use ragsynth::run::{Bounds, Fields, RunOptions, Strings, Target};
use ragsynth::testset::Selection;

/// `ragsynth run`.
#[derive(Debug, Args)]
#[command(after_help = "\
The system gets {\"id\": ..., \"question\": ...} for every case and replies with a JSON object holding \
the answer and what it retrieved: {\"answer\": \"...\", \"contexts\": [...]}, each context a passage's \
text, {\"doc\", \"start\", \"end\"} or {\"text\"} / {\"id\"}.
--http: one POST per question, the question as the JSON body, the reply as the response body.
--cmd: the command is started once and kept running; it reads one JSON line per question on its \
stdin and writes one JSON reply line per question on its stdout, in order (one question at a time).
Every outcome is journaled in DIR/journal.jsonl as it arrives: run the same command again after an \
interruption and only the questions without an answer are asked.")]
pub struct RunArgs {
    /// Test set whose questions are asked (YAML or JSON Lines).
    pub testset: PathBuf,
    /// POST each question as JSON to this URL.
    #[arg(
        long,
        value_name = "URL",
        conflicts_with = "cmd",
        required_unless_present = "cmd"
    )]
    pub http: Option<String>,
    /// Start this shell command once and send it each question as one JSON line on stdin.
    #[arg(long, value_name = "COMMAND")]
    pub cmd: Option<String>,
    /// Folder for run.jsonl (eval --run), answers.jsonl (eval --answers), errors.jsonl and the
    /// journal.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Ask pending cases too, not only accepted ones (rejected ones never).
    #[arg(long)]
    pub include_pending: bool,
    /// Questions in flight at once (--http; a command answers one at a time).
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Seconds to wait for one reply.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Attempts after the first for a question that timed out, got a 5xx, a dropped
    /// connection or a malformed reply.
    #[arg(long, default_value_t = 4)]
    pub retries: usize,
    /// First wait before a retry, in milliseconds; it doubles (with jitter) up to 30 s.
    #[arg(long, default_value_t = 500)]
    pub backoff_ms: u64,
    /// The reply's answer field (dots reach into objects: `data.answer`).
    #[arg(long, default_value = "answer")]
    pub answer_field: String,
    /// The reply's list of retrieved contexts.
    #[arg(long, default_value = "contexts")]
    pub contexts_field: String,
    /// What a string in the contexts list is: a passage's text, or a chunk id / document path.
    #[arg(long, value_enum, default_value_t = ContextStrings::Texts)]
    pub contexts_are: ContextStrings,
    /// An HTTP header for every request, `Name: value` (repeatable; e.g. an API key). Its value
    /// is masked in every message and file ragsynth writes.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Largest reply: an HTTP body, or one line of a command's output (`K`, `M`, `G` allowed)
    /// [default: 16M, or RAGSYNTH_MAX_REPLY_BYTES].
    #[arg(long, value_name = "BYTES")]
    pub max_reply_bytes: Option<String>,
    /// Most contexts one answer may hold.
    #[arg(long, default_value_t = ragsynth::run::DEFAULT_MAX_CONTEXTS)]
    pub max_contexts: usize,
    /// Follow a 307 or 308 redirect to the same host (none is followed otherwise; a 301, 302 or
    /// 303 never, as it would turn the question's POST into a GET without it).
    #[arg(long)]
    pub follow_redirects: bool,
}

/// `--contexts-are`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ContextStrings {
    /// Retrieved passages' text (located in the corpus by eval).
    Texts,
    /// Chunk ids (`doc#n`) or document paths.
    Ids,
}

impl RunArgs {
    /// The run settings, checked.
    pub fn options(&self) -> anyhow::Result<RunOptions> {
        anyhow::ensure!(
            self.timeout.is_finite() && self.timeout > 0.0,
            "--timeout must be a positive number of seconds, not {}",
            self.timeout
        );
        let target = match (&self.http, &self.cmd) {
            (Some(url), _) => {
                let headers = self
                    .headers
                    .iter()
                    .map(|h| {
                        let (k, v) = h.split_once(':').ok_or_else(|| {
                            anyhow::anyhow!("--header must be `Name: value`, not `{}`", redact::redact(h))
                        })?;
                        redact::register(v.trim());
                        Ok((k.trim().to_string(), v.trim().to_string()))
                    })
                    .collect::<anyhow::Result<_>>()?;
                register_url_secrets(url);
                Target::Http {
                    url: url.clone(),
                    headers,
                }
            }
            (None, Some(cmd)) => Target::Command(cmd.clone()),
            (None, None) => anyhow::bail!("name the system: --http URL or --cmd COMMAND"),
        };
        Ok(RunOptions {
            target,
            fields: Fields {
                answer: self.answer_field.clone(),
                contexts: self.contexts_field.clone(),
                strings: match self.contexts_are {
                    ContextStrings::Texts => Strings::Texts,
                    ContextStrings::Ids => Strings::Ids,
                },
            },
            concurrency: self.concurrency.max(1),
            timeout: Duration::from_secs_f64(self.timeout),
            retries: self.retries,
            backoff: Duration::from_millis(self.backoff_ms),
            selection: Selection {
                include_pending: self.include_pending,
            },
            bounds: Bounds {
                reply_bytes: match &self.max_reply_bytes {
                    Some(text) => parse_size(text).filter(|&n| n > 0).ok_or_else(|| {
                        anyhow::anyhow!("--max-reply-bytes {text}: give a size such as 64M")
                    })?,
                    None => REPLY_BYTES.get(),
                },
                redirects: if self.follow_redirects {
                    Redirects::SameOrigin
                } else {
                    Redirects::Never
                },
            },
            max_contexts: self.max_contexts,
        })
    }
}

/// A password and query values in the system's URL are secrets: masked wherever they turn up
/// (a server echoing its URL, say), not only where the URL is shown.
fn register_url_secrets(url: &str) {
    if let Ok(u) = reqwest::Url::parse(url) {
        u.password().into_iter().for_each(redact::register);
        redact::register(u.username());
        u.query_pairs().for_each(|(_, v)| redact::register(&v));
    }
}
