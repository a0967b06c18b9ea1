//! `review --answers`: a person checks the answer judges' verdicts, case by case.
//!
//! The page shows each case of a per-case file (`eval --answers --out`): the question, the
//! reference answers, the system's answer and contexts, and every verdict the judges gave with
//! their reasons; the person marks each verdict right or wrong by keyboard. Each mark is saved
//! at once into `<file stem>.marks.jsonl` beside the file ([`crate::eval::answers::marks`]:
//! folder locked, merged with the file as it is on disk, renamed into place), which
//! `eval --calibration` reads. The per-case file itself is never written.
//!
//! Routes: `/`, `/assets/*`, `GET /api/answers` (the cases, and the marks as on disk now),
//! `POST /api/marks` (`{"id", "judge", "mark": "right" | "wrong" | null}`). Every request
//! passes the same host/origin guard as the test-set review.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::guard::HostPolicy;
use super::page;
use super::server::{bind, css, guard, not_found, refuse, url_of};
use crate::eval::answers::marks::{self, Change, JUDGES, Marks};
use crate::eval::answers::per_question::PerQuestion;
use crate::{Error, Result};

/// A bound judged-answers review, ready to run.
pub struct AnswersServer {
    listener: tokio::net::TcpListener,
    router: Router,
    addr: SocketAddr,
    app: Arc<App>,
}

struct App {
    file: PerQuestion,
    marks_path: PathBuf,
    order: Vec<String>,
    /// Serializes this server's saves (other processes are kept apart by the folder lock).
    saving: Mutex<()>,
    title: String,
}

impl App {
    fn known(&self) -> impl Fn(&str) -> bool + '_ {
        |id| self.file.case(id).is_some()
    }

    fn marks(&self) -> Result<Marks> {
        Marks::load(&self.marks_path, self.known())
    }
}

/// Loads the per-case file at `path` (and its marks, checked) and binds `ip:port`.
pub async fn serve_answers(path: PathBuf, ip: std::net::IpAddr, port: u16) -> Result<AnswersServer> {
    let file = PerQuestion::load(&path)?;
    if file.cases.is_empty() {
        return Err(Error::Field {
            path: path.clone(),
            line: None,
            case: None,
            field: "id".into(),
            message: "no case in the file: write it with `ragsynth eval … --answers … --out`".into(),
        });
    }
    let marks_path = marks::path_for(&path);
    let order = file.cases.iter().map(|c| c.id.clone()).collect();
    let title = format!(
        "Judged answers · {}",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let app = Arc::new(App {
        file,
        marks_path,
        order,
        saving: Mutex::new(()),
        title,
    });
    // A marks file that does not load is reported now, not on the first mark.
    app.marks()?;
    let (listener, addr) = bind(ip, port).await?;
    let router = Router::new()
        .route("/", get(index))
        .route("/assets/review.css", get(css))
        .route("/assets/answers.js", get(js))
        .route("/api/answers", get(list))
        .route("/api/marks", post(mark))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            HostPolicy::new(ip, addr.port()),
            guard,
        ))
        .with_state(app.clone());
    Ok(AnswersServer {
        listener,
        router,
        addr,
        app,
    })
}

impl AnswersServer {
    /// The page's URL.
    pub fn url(&self) -> String {
        url_of(self.addr)
    }

    /// The marks file.
    pub fn marks_path(&self) -> &std::path::Path {
        &self.app.marks_path
    }

    /// `(cases, verdicts, marked)`: what there is to check, and what is checked already.
    pub fn counts(&self) -> (usize, usize, usize) {
        let verdicts = self
            .app
            .file
            .cases
            .iter()
            .map(|c| c.verdicts.values().filter(|v| v.is_some()).count())
            .sum();
        let marked = self.app.marks().map(|m| m.by_key.len()).unwrap_or(0);
        (self.app.file.cases.len(), verdicts, marked)
    }

    /// Serves until `shutdown` completes.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<()> {
        super::server::serve_until(self.listener, self.router, shutdown).await
    }
}

async fn index(State(app): State<Arc<App>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page::live_answers(&app.title),
    )
        .into_response()
}

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        page::ANSWERS_JS,
    )
        .into_response()
}

/// The marks as the page uses them: `{id: {judge: {"verdict", "mark"}}}`.
fn marks_json(marks: &Marks) -> Value {
    let mut out: BTreeMap<&str, BTreeMap<&str, Value>> = BTreeMap::new();
    for ((id, judge), m) in &marks.by_key {
        out.entry(id.as_str()).or_default().insert(
            judge,
            json!({"verdict": m.verdict, "mark": if m.right { "right" } else { "wrong" }}),
        );
    }
    json!(out)
}

fn failed(e: &Error) -> Response {
    refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string())
}

async fn list(State(app): State<Arc<App>>) -> Response {
    let marks = match app.marks() {
        Ok(m) => m,
        Err(e) => return failed(&e),
    };
    axum::Json(json!({
        "file": app.file.path.display().to_string(),
        "marks_file": app.marks_path.display().to_string(),
        "judged_by": app.file.judged_by,
        "judges": JUDGES,
        "cases": app.file.cases,
        "marks": marks_json(&marks),
    }))
    .into_response()
}

#[derive(Deserialize)]
struct MarkBody {
    id: String,
    judge: String,
    /// `right`, `wrong`, or `null` to take the mark back.
    mark: Option<String>,
}

async fn mark(State(app): State<Arc<App>>, axum::Json(body): axum::Json<Value>) -> Response {
    let body: MarkBody = match serde_json::from_value(body) {
        Ok(b) => b,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, &format!("bad mark: {e}")),
    };
    let Some(case) = app.file.case(&body.id) else {
        return refuse(StatusCode::NOT_FOUND, &format!("no case with id `{}`", body.id));
    };
    let Some(judge) = JUDGES.into_iter().find(|j| *j == body.judge) else {
        return refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "judge must be correct, refused or grounded",
        );
    };
    let change = match (body.mark.as_deref(), case.verdicts[judge]) {
        (None, _) => Change::Clear {
            id: body.id.clone(),
            judge,
        },
        (Some(_), None) => {
            return refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!("case `{}` has no `{judge}` verdict to mark", body.id),
            );
        }
        (Some(m @ ("right" | "wrong")), Some(verdict)) => Change::Set {
            id: body.id.clone(),
            judge,
            verdict,
            right: m == "right",
        },
        (Some(other), _) => {
            return refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!("mark must be right, wrong or null, not `{other}`"),
            );
        }
    };
    // Reading, merging and writing the file: off the request threads.
    let saved = tokio::task::spawn_blocking(move || {
        let _one = app.saving.lock().unwrap_or_else(|p| p.into_inner());
        marks::save(&app.marks_path, &app.order, app.known(), change)
            .map(|m| (marks_json(&m), m.by_key.len()))
    })
    .await;
    match saved {
        Ok(Ok((marks, marked))) => axum::Json(json!({ "marks": marks, "marked": marked })).into_response(),
        Ok(Err(e)) => failed(&e),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "saving the mark failed"),
    }
}
