//! Asking the user's RAG system one question: an HTTP POST of `{"id", "question"}`, or one
//! JSON line on the stdin of a long-lived command, which answers with one JSON line on its
//! stdout. Every way an attempt can fail is a [`Failure`] with its kind, so the runner can
//! retry what may pass next time and name the rest.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

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
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }

    /// Whether another attempt may pass: everything but a client error (4xx other than 408
    /// and 429), which the same request will get again.
    pub fn retryable(&self) -> bool {
        match self.kind {
            FailureKind::Status(s) => !(400..500).contains(&s) || s == 408 || s == 429,
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
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Http { url, .. } => write!(f, "{url}"),
            Target::Command(c) => write!(f, "`{c}`"),
        }
    }
}

/// A connection to the target.
pub enum Transport {
    Http {
        client: reqwest::Client,
        url: String,
        headers: Vec<(String, String)>,
    },
    Command {
        command: String,
        process: Mutex<Option<Box<Process>>>,
    },
}

/// The running command.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Transport {
    /// A transport to `target`; nothing is sent yet.
    pub fn new(target: &Target) -> Transport {
        match target {
            Target::Http { url, headers } => Transport::Http {
                client: reqwest::Client::new(),
                url: url.clone(),
                headers: headers.clone(),
            },
            Target::Command(c) => Transport::Command {
                command: c.clone(),
                process: Mutex::new(None),
            },
        }
    }

    /// Asks one question; the reply's JSON, or why there is none.
    pub async fn ask(&self, id: &str, question: &str, timeout: Duration) -> Result<Value, Failure> {
        let body = json!({"id": id, "question": question});
        match self {
            Transport::Http { client, url, headers } => http(client, url, headers, &body, timeout).await,
            Transport::Command { command, process } => {
                let mut slot = process.lock().await;
                let outcome = line(command, &mut slot, &body, timeout).await;
                if outcome.is_err() {
                    // A process that timed out or broke the protocol is not trusted with the
                    // next question: it starts afresh.
                    if let Some(mut p) = slot.take() {
                        let _ = p.child.start_kill();
                    }
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
            drop(p.stdin);
            if tokio::time::timeout(Duration::from_secs(2), p.child.wait())
                .await
                .is_err()
            {
                let _ = p.child.start_kill();
            }
        }
    }
}

async fn http(
    client: &reqwest::Client,
    url: &str,
    headers: &[(String, String)],
    body: &Value,
    timeout: Duration,
) -> Result<Value, Failure> {
    let mut request = client.post(url).json(body).timeout(timeout);
    for (k, v) in headers {
        request = request.header(k, v);
    }
    let response = request.send().await.map_err(|e| sent(&e))?;
    let status = response.status();
    let text = response.text().await.map_err(|e| sent(&e))?;
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
) -> Result<Value, Failure> {
    if slot.is_none() {
        *slot = Some(Box::new(spawn(command)?));
    }
    let p = slot.as_mut().expect("started above");
    let mut request = body.to_string();
    request.push('\n');
    let exchange = async {
        p.stdin.write_all(request.as_bytes()).await?;
        p.stdin.flush().await?;
        let mut reply = String::new();
        let n = p.stdout.read_line(&mut reply).await?;
        Ok::<_, std::io::Error>((n, reply))
    };
    let (n, reply) = match tokio::time::timeout(timeout, exchange).await {
        Err(_) => {
            return Err(Failure::new(
                FailureKind::Timeout,
                format!("no reply line within {timeout:?}"),
            ));
        }
        Ok(Err(e)) => return Err(exited(p, format!("writing the question failed ({e})")).await),
        Ok(Ok(x)) => x,
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

fn spawn(command: &str) -> Result<Process, Failure> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| Failure::new(FailureKind::Unreachable, format!("could not start it: {e}")))?;
    let stdin = child.stdin.take().expect("piped");
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
        let t = Transport::new(&Target::Command(
            r#"while read -r l; do echo '{"answer": "ok"}'; done"#.into(),
        ));
        for _ in 0..2 {
            let v = t.ask("q1", "Why?", Duration::from_secs(5)).await.unwrap();
            assert_eq!(v["answer"], "ok");
        }
        t.close().await;
        let dead = Transport::new(&Target::Command("echo broken >&2; exit 3".into()));
        let e = dead.ask("q1", "Why?", Duration::from_secs(5)).await.unwrap_err();
        assert_eq!(e.kind, FailureKind::Unreachable);
        assert!(
            e.message.contains("exit status: 3") && e.message.contains("broken"),
            "{}",
            e.message
        );
    }
}
