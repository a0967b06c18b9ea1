//! A recording HTTP/1.1 server on a loopback port for tests that need what a mock library
//! cannot do: a reply that never ends, a body of any size, a redirect to anywhere. Every
//! request is recorded whole (method, path, headers, body) so a test can assert what was, and
//! was not, sent.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The whole request as text, for "does it contain the secret" checks.
    pub fn text(&self) -> String {
        let headers: Vec<String> = self.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!(
            "{} {}\n{}\n\n{}",
            self.method,
            self.path,
            headers.join("\n"),
            String::from_utf8_lossy(&self.body)
        )
    }
}

/// What to answer.
pub enum Reply {
    /// A whole reply.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A chunked body that never ends (until the client goes away).
    Endless,
}

impl Reply {
    pub fn json(status: u16, body: &serde_json::Value) -> Reply {
        Reply::Full {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::Full {
            status,
            headers: vec![("location".into(), location.into())],
            body: Vec::new(),
        }
    }
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// A running server.
pub struct RawServer {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    seen: Arc<Mutex<Vec<Recorded>>>,
}

impl RawServer {
    /// Starts a server answering every request with `handler`.
    pub async fn start(handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let log = seen.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (log, handler) = (log.clone(), handler.clone());
                tokio::spawn(async move {
                    let _ = serve(stream, &log, handler.as_ref()).await;
                });
            }
        });
        RawServer { url, seen }
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.seen.lock().unwrap().clone()
    }
}

async fn serve(mut stream: TcpStream, log: &Mutex<Vec<Recorded>>, handler: &Handler) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let head_end = loop {
        let mut chunk = [0u8; 8192];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let (method, path) = (
        first.next().unwrap_or_default().to_string(),
        first.next().unwrap_or_default().to_string(),
    );
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let mut chunk = vec![0u8; 65536];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let request = Recorded {
        method,
        path,
        headers,
        body,
    };
    let reply = handler(&request);
    log.lock().unwrap().push(request);
    match reply {
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
        }
        Reply::Endless => {
            stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
                .await?;
            stream.write_all(b"1\r\n{\r\n").await?;
            let piece = vec![b' '; 65536];
            loop {
                stream
                    .write_all(format!("{:x}\r\n", piece.len()).as_bytes())
                    .await?;
                stream.write_all(&piece).await?;
                stream.write_all(b"\r\n").await?;
            }
        }
    }
    stream.shutdown().await
}
