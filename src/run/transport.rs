//! Asking the user's RAG system one question: an HTTP POST of `{"id", "question"}`, or one
//! JSON line on the stdin of a long-lived command, which answers with one JSON line on its
//! stdout. Every way an attempt can fail is a [`Failure`] with its kind, so the runner can
//! retry what may pass next time and name the rest.
//!
//! A reply is bounded ([`Bounds`]): an HTTP body is read as a stream up to a size, a command's
//! reply line the same, and no redirect is followed unless asked ([`crate::http`]). The
//! command runs in a process group of its own, and a command that times out or breaks the
//! protocol is stopped with everything it started, not only its shell. Messages are redacted:
//! a URL's credentials and query, `--header` values and echoed keys never reach a file.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use crate::http::{self, BodyError, Redirects};
use crate::limits::human;
use crate::redact::redact;

/// Why an attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureKind {
    /// Nothing listens, or the command could not start or exited.
    Unreachable,
    /// No reply within the timeout.
    Timeout,
    /// An HTTP status other than 2xx.
    Status(u16),
    /// A reply that is not JSON, or lacks the answer.
    Malformed,
    /// Anything else on the way (a dropped connection).
    Transport,
    /// A reply over the size limit, or a redirect not followed: asking again gets the same.
    Refused,
}

impl FailureKind {
    /// The kind as a short name (`http_500`, `timeout`, ...), for counts and error files.
    pub fn name(self) -> String {
        match self {
            FailureKind::Unreachable => "unreachable".into(),
            FailureKind::Timeout => "timeout".into(),
            FailureKind::Status(s) => format!("http_{s}"),
            FailureKind::Malformed => "malformed_reply".into(),
            FailureKind::Transport => "transport".into(),
            FailureKind::Refused => "refused".into(),
        }
    }
}

/// One failed attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
}

impl Failure {
    /// A failure; the message is redacted (it may quote a URL or a server's echo).
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: redact(&message.into()).into_owned(),
        }
    }

    /// Whether another attempt may pass: a timeout, a dropped connection, a malformed reply, a
    /// 5xx, 408 or 429 — not another status (a client error or a redirect gets the same answer
    /// again), nor a refused reply.
    pub fn retryable(&self) -> bool {
        match self.kind {
            FailureKind::Status(s) => s >= 500 || s == 408 || s == 429,
            FailureKind::Refused => false,
            _ => true,
        }
    }
}

/// Where the questions go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// POST to this URL.
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
    /// One long-lived `sh -c` process.
    Command(String),
}

impl std::fmt::Display for Target {
    /// The target as shown and journaled: a URL without its credentials or query values.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Http { url, .. } => write!(f, "{}", crate::redact::url(url)),
            Target::Command(c) => write!(f, "`{}`", redact(c)),
        }
    }
}

/// How large a reply may be, and which redirects are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Bytes of an HTTP body or of a command's reply line.
    pub reply_bytes: u64,
    /// Redirects followed (none by default).
    pub redirects: Redirects,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            reply_bytes: crate::limits::REPLY_BYTES.get(),
            redirects: Redirects::Never,
        }
    }
}

/// The failure of a reply over `limit` bytes.
fn too_large(limit: u64) -> Failure {
    Failure::new(
        FailureKind::Refused,
        format!(
            "the reply is larger than {}, the limit on a reply; raise it with --max-reply-bytes",
            human(limit)
        ),
    )
}

/// A connection to the target.
pub enum Transport {
    Http {
        client: reqwest::Client,
        url: String,
        headers: Vec<(String, String)>,
        limit: u64,
    },
    Command {
        command: String,
        process: Mutex<Option<Box<Process>>>,
        limit: u64,
    },
}

/// The running command: the leader of a process group of its own.
pub struct Process {
    child: Child,
    /// Taken (closed) when the run ends, so the command sees the end of its input.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Process {
    /// Kills the command and everything it started (its process group).
    fn kill(&mut self) {
        if let Some(pid) = self.child.id().and_then(|p| i32::try_from(p).ok()) {
            // SAFETY: killpg takes plain integers; the group is the one `spawn` created, whose
            // id cannot be reused while a member lives.
            unsafe { libc::killpg(pid, libc::SIGKILL) };
        }
        let _ = self.child.start_kill();
    }
}

impl Drop for Process {
    /// A run that ends, however it ends, leaves none of the command's processes behind.
    fn drop(&mut self) {
        self.kill();
    }
}

impl Transport {
    /// A transport to `target` within `bounds`; nothing is sent yet.
    pub fn new(target: &Target, bounds: Bounds) -> crate::Result<Transport> {
        Ok(match target {
            Target::Http { url, headers } => Transport::Http {
                client: http::client(bounds.redirects)
                    .build()
                    .map_err(|e| crate::Error::Config(format!("cannot build the HTTP client: {e}")))?,
                url: url.clone(),
                headers: headers.clone(),
                limit: bounds.reply_bytes,
            },
            Target::Command(c) => Transport::Command {
                command: c.clone(),
                process: Mutex::new(None),
                limit: bounds.reply_bytes,
            },
        })
    }

    /// Asks one question; the reply's JSON, or why there is none.
    pub async fn ask(&self, id: &str, question: &str, timeout: Duration) -> Result<Value, Failure> {
        let body = json!({"id": id, "question": question});
        match self {
            Transport::Http {
                client,
                url,
                headers,
                limit,
            } => post(client, url, headers, &body, timeout, *limit).await,
            Transport::Command {
                command,
                process,
                limit,
            } => {
                let mut slot = process.lock().await;
                let outcome = line(command, &mut slot, &body, timeout, *limit).await;
                if outcome.is_err() {
                    // A process that timed out or broke the protocol is not trusted with the
                    // next question: it and what it started are stopped, and it starts afresh.
                    drop(slot.take());
                }
                outcome
            }
        }
    }

    /// Stops the command, if one runs.
    pub async fn close(&self) {
        if let Transport::Command { process, .. } = self
            && let Some(mut p) = process.lock().await.take()
        {
            // End of input: the command may finish on its own; what is left is stopped with
            // the group when `p` is dropped.
            drop(p.stdin.take());
            let _ = tokio::time::timeout(Duration::from_secs(2), p.child.wait()).await;
        }
    }
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    headers: &[(String, String)],
    body: &Value,
    timeout: Duration,
    limit: u64,
) -> Result<Value, Failure> {
    let mut request = client.post(url).json(body).timeout(timeout);
    for (k, v) in headers {
        request = request.header(k, v);
    }
    let response = request.send().await.map_err(|e| sent(&e))?;
    let status = response.status();
    if status.is_redirection() {
        let to = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok());
        return Err(Failure::new(
            FailureKind::Status(status.as_u16()),
            http::not_followed(status.as_u16(), to, "--follow-redirects"),
        ));
    }
    let bytes = http::body(response, limit).await.map_err(|e| match e {
        BodyError::TooLarge { limit } => too_large(limit),
        BodyError::Transport(e) => sent(&e),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    if !status.is_success() {
        return Err(Failure::new(
            FailureKind::Status(status.as_u16()),
            format!("HTTP {status}: {}", excerpt(&text)),
        ));
    }
    serde_json::from_str(&text).map_err(|e| {
        Failure::new(
            FailureKind::Malformed,
            format!("the reply is not JSON ({e}): {}", excerpt(&text)),
        )
    })
}

/// What a reqwest error means for the run.
fn sent(e: &reqwest::Error) -> Failure {
    let kind = if e.is_timeout() {
        FailureKind::Timeout
    } else if e.is_connect() {
        FailureKind::Unreachable
    } else {
        FailureKind::Transport
    };
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    Failure::new(kind, message)
}

async fn line(
    command: &str,
    slot: &mut Option<Box<Process>>,
    body: &Value,
    timeout: Duration,
    limit: u64,
) -> Result<Value, Failure> {
    if slot.is_none() {
        *slot = Some(Box::new(spawn(command)?));
    }
    let p = slot.as_mut().expect("started above");
    let mut request = body.to_string();
    request.push('\n');
    let exchange = async {
        let stdin = p.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(request.as_bytes()).await?;
        stdin.flush().await?;
        read_line(&mut p.stdout, limit).await
    };
    let (n, reply) = match tokio::time::timeout(timeout, exchange).await {
        Err(_) => {
            return Err(Failure::new(
                FailureKind::Timeout,
                format!("no reply line within {timeout:?}"),
            ));
        }
        Ok(Err(e)) => return Err(exited(p, format!("writing the question failed ({e})")).await),
        Ok(Ok(None)) => return Err(too_large(limit)),
        Ok(Ok(Some(read))) => read,
    };
    if n == 0 {
        return Err(exited(p, "the command closed its output".to_string()).await);
    }
    serde_json::from_str(reply.trim_end()).map_err(|e| {
        Failure::new(
            FailureKind::Malformed,
            format!("the reply line is not JSON ({e}): {}", excerpt(&reply)),
        )
    })
}

/// One reply line (its byte count and text, the newline kept), `None` once it passes `limit`
/// bytes: read a buffer at a time, so a command that writes without end costs at most the limit.
async fn read_line(out: &mut BufReader<ChildStdout>, limit: u64) -> std::io::Result<Option<(usize, String)>> {
    let mut line = Vec::new();
    loop {
        let buf = out.fill_buf().await?;
        if buf.is_empty() {
            break;
        }
        let (take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if (line.len() + take) as u64 > limit.saturating_add(1) {
            return Ok(None);
        }
        line.extend_from_slice(&buf[..take]);
        out.consume(take);
        if done {
            break;
        }
    }
    let n = line.len();
    Ok(Some((n, String::from_utf8_lossy(&line).into_owned())))
}

fn spawn(command: &str) -> Result<Process, Failure> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own: a timeout stops the command and all it started (`Process::kill`).
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| Failure::new(FailureKind::Unreachable, format!("could not start it: {e}")))?;
    let stdin = child.stdin.take();
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    Ok(Process { child, stdin, stdout })
}

/// The failure of a command that stopped answering, with the end of what it wrote on stderr.
async fn exited(p: &mut Process, what: String) -> Failure {
    let status = tokio::time::timeout(Duration::from_millis(500), p.child.wait()).await;
    let mut err = String::new();
    if let Some(mut stderr) = p.child.stderr.take() {
        let _ = tokio::time::timeout(Duration::from_millis(200), stderr.read_to_string(&mut err)).await;
    }
    let status = match status {
        Ok(Ok(s)) => format!("; it exited with {s}"),
        _ => String::new(),
    };
    let tail: Vec<&str> = err
        .lines()
        .rev()
        .take(3)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let said = if tail.is_empty() {
        String::new()
    } else {
        format!("; its stderr ends: {}", tail.join(" | "))
    };
    Failure::new(FailureKind::Unreachable, format!("{what}{status}{said}"))
}

/// The start of a reply, for messages.
fn excerpt(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &t[..cut]),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_errors_are_not_retried_but_server_errors_and_timeouts_are() {
        let f = |kind| Failure::new(kind, "");
        assert!(f(FailureKind::Status(500)).retryable());
        assert!(f(FailureKind::Status(429)).retryable());
        assert!(!f(FailureKind::Status(404)).retryable());
        assert!(f(FailureKind::Timeout).retryable());
        assert_eq!(FailureKind::Status(503).name(), "http_503");
    }

    #[tokio::test]
    async fn a_command_answers_line_by_line_and_a_dead_one_is_named() {
        let t = Transport::new(
            &Target::Command(r#"while read -r l; do echo '{"answer": "ok"}'; done"#.into()),
            Bounds::default(),
        )
        .unwrap();
        for _ in 0..2 {
            let v = t.ask("q1", "Why?", Duration::from_secs(5)).await.unwrap();
            assert_eq!(v["answer"], "ok");
        }
        t.close().await;
        let dead = Transport::new(
            &Target::Command("echo broken >&2; exit 3".into()),
            Bounds::default(),
        )
        .unwrap();
        let e = dead.ask("q1", "Why?", Duration::from_secs(5)).await.unwrap_err();
        assert_eq!(e.kind, FailureKind::Unreachable);
        assert!(
            e.message.contains("exit status: 3") && e.message.contains("broken"),
            "{}",
            e.message
        );
    }
}
