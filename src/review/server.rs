//! The local HTTP server behind the review page.
//!
//! Routes: `/` (the page), `/assets/*` (embedded stylesheet and script), `GET /api/cases`
//! (every case's summary and the file's version), `GET /api/cases/{id}` (one case's card),
//! `POST /api/cases/{id}` (a decision, saved at once), `GET /api/doc?path=` (a document of the
//! loaded corpus). Every request passes [`guard`] first.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};

use super::guard::{HostPolicy, host_literal};
use super::page;
use super::store::{Decision, Refused, Store};
use super::view::{self, Explain};
use crate::corpus::{Corpus, WalkOptions};
use crate::testset::Review;
use crate::workspace::{CorpusNeed, OpenOptions, Workspace};
use crate::{Error, Result};

/// How to serve a review.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The test-set file to review.
    pub testset: PathBuf,
    /// Corpus directory (default: the set's `corpus.root`, when it exists).
    pub corpus: Option<PathBuf>,
    /// Address to listen on (default loopback; anything else must be asked for).
    pub bind: IpAddr,
    /// Port (0: a free one).
    pub port: u16,
    /// Explains audit rule codes on the page.
    pub explain: Option<Explain>,
    /// How the corpus is walked (links leaving it are skipped by default).
    pub walk: WalkOptions,
}

impl ServeOptions {
    /// Options for reviewing `testset` on a free loopback port.
    pub fn new(testset: impl Into<PathBuf>) -> ServeOptions {
        ServeOptions {
            testset: testset.into(),
            corpus: None,
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            explain: None,
            walk: WalkOptions::default(),
        }
    }
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
    addr: SocketAddr,
    notes: Vec<String>,
    app: Arc<App>,
}

struct App {
    store: Mutex<Store>,
    corpus: Option<Corpus>,
    explain: Option<Explain>,
    hosts: HostPolicy,
    title: String,
}

impl App {
    fn store(&self) -> MutexGuard<'_, Store> {
        // A handler that panicked mid-decision leaves the set as it was saved: keep serving.
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Loads the test set (and its corpus) and binds the listening socket.
pub async fn serve(opts: ServeOptions) -> Result<Server> {
    let ws = Workspace::open(
        &opts.testset,
        &OpenOptions {
            corpus: opts.corpus.clone(),
            need: CorpusNeed::Optional {
                without: "passages show their quotes only",
            },
            walk: opts.walk.clone(),
            ..OpenOptions::default()
        },
    )?;
    let notes = ws.notes.iter().map(ToString::to_string).collect();
    let (tracked, corpus) = ws.into_parts();
    let store = Store::from(tracked.expect("opened for writing"));
    let (listener, addr) = bind(opts.bind, opts.port).await?;
    let title = format!(
        "Review · {}",
        opts.testset
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let app = Arc::new(App {
        store: Mutex::new(store),
        corpus,
        explain: opts.explain,
        hosts: HostPolicy::new(opts.bind, addr.port()),
        title,
    });
    let router = Router::new()
        .route("/", get(index))
        .route("/assets/review.css", get(css))
        .route("/assets/review.js", get(js))
        .route("/api/cases", get(list))
        .route("/api/cases/{id}", get(card).post(decide))
        .route("/api/doc", get(document))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(app.hosts.clone(), guard))
        .with_state(app.clone());
    Ok(Server {
        listener,
        router,
        addr,
        notes,
        app,
    })
}

impl Server {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL (loopback name when bound to an unspecified address).
    pub fn url(&self) -> String {
        url_of(self.addr)
    }

    /// Things the user should know (corpus not found, ...).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// `(cases, pending, needs_label)` in the loaded set: what waits for a person.
    pub fn counts(&self) -> (usize, usize, usize) {
        let store = self.app.store();
        let cases = &store.set().cases;
        let with = |r: Review| cases.iter().filter(|c| view::status(c) == r).count();
        (cases.len(), with(Review::Pending), with(Review::NeedsLabel))
    }

    /// Serves until `shutdown` completes.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<()> {
        serve_until(self.listener, self.router, shutdown).await
    }
}

/// Binds the listening socket on `ip:port` (0: a free port); returns it and its address.
pub(super) async fn bind(ip: IpAddr, port: u16) -> Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind((ip, port))
        .await
        .map_err(|error| Error::Network {
            doing: format!("cannot listen on {}:{}", host_literal(ip), port),
            error,
        })?;
    let addr = listener.local_addr().map_err(|error| Error::Network {
        doing: "cannot read the bound address".into(),
        error,
    })?;
    Ok((listener, addr))
}

/// The page's URL for a server bound to `addr` (loopback name when bound to an unspecified
/// address).
pub(super) fn url_of(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        addr.ip()
    };
    format!("http://{}:{}/", host_literal(ip), addr.port())
}

/// Refuses requests addressed to another name (DNS rebinding) or sent from another site, and
/// adds the headers that keep the page from being framed or sniffed.
pub(super) async fn guard(State(hosts): State<HostPolicy>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let value = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    let host_ok = value(header::HOST).is_some_and(|h| hosts.allows_host(h));
    let origin_ok = value(header::ORIGIN).is_none_or(|o| hosts.allows_origin(o));
    if !host_ok {
        return refuse(
            StatusCode::FORBIDDEN,
            "request refused: the Host header does not name this server",
        );
    }
    if !origin_ok {
        return refuse(StatusCode::FORBIDDEN, "request refused: sent from another origin");
    }
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

pub(super) fn refuse(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

async fn index(State(app): State<Arc<App>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page::live(&app.title),
    )
        .into_response()
}

pub(super) async fn css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], page::CSS).into_response()
}

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        page::JS,
    )
        .into_response()
}

pub(super) async fn not_found() -> Response {
    refuse(StatusCode::NOT_FOUND, "not found")
}

/// Explanations of every rule code flagged somewhere in the set.
/// Serves `router` on `listener` until `shutdown` completes (both pages).
pub(super) async fn serve_until(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|error| Error::Network {
            doing: "server stopped".into(),
            error,
        })
}

fn explanations(store: &Store, explain: Option<Explain>) -> BTreeMap<String, String> {
    let Some(explain) = explain else {
        return BTreeMap::new();
    };
    store
        .set()
        .cases
        .iter()
        .flat_map(|c| view::summary(c).flags)
        .filter_map(|code| explain(&code).map(|e| (code, e)))
        .collect()
}

async fn list(State(app): State<Arc<App>>) -> Response {
    let store = app.store();
    // The page opens on what waits for review, then the rest.
    let cases: Vec<_> = view::in_review_order(&store.set().cases)
        .into_iter()
        .map(view::summary)
        .collect();
    axum::Json(json!({
        "mode": "live",
        "file": store.path().display().to_string(),
        "version": store.version(),
        "corpus": app.corpus.as_ref().map(|c| c.root.display().to_string()),
        "cases": cases,
        "explanations": explanations(&store, app.explain),
    }))
    .into_response()
}

/// One case's card. Locating its passages can take a while for a long quote, so it is built on
/// a blocking thread, with the store unlocked: other requests go on meanwhile.
async fn card(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(case) = app.store().set().case(&id).cloned() else {
        return refuse(StatusCode::NOT_FOUND, &format!("no case with id `{id}`"));
    };
    let built =
        tokio::task::spawn_blocking(move || view::detail(&case, app.corpus.as_ref(), app.explain)).await;
    match built {
        Ok(detail) => axum::Json(detail).into_response(),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "building the card failed"),
    }
}

async fn decide(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    let version = body
        .get("version")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let decision: Decision = match serde_json::from_value(body) {
        Ok(d) => d,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, &format!("bad decision: {e}")),
    };
    // Saving reads, merges and writes the file: off the request threads too.
    let saved = tokio::task::spawn_blocking(move || decision_response(&app, &id, &version, &decision)).await;
    saved.unwrap_or_else(|_| refuse(StatusCode::INTERNAL_SERVER_ERROR, "saving the decision failed"))
}

fn decision_response(app: &App, id: &str, version: &str, decision: &Decision) -> Response {
    let mut store = app.store();
    match store.decide(id, version, decision) {
        Ok(saved) => {
            let case = store.set().case(id).map(view::summary);
            axum::Json(json!({ "version": store.version(), "case": case, "merged": saved.merged }))
                .into_response()
        }
        Err(e) => {
            let status = match &e {
                Refused::Conflict(_) => StatusCode::CONFLICT,
                Refused::NotFound(_) => StatusCode::NOT_FOUND,
                Refused::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
                Refused::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            };
            (
                status,
                axum::Json(json!({ "error": e.to_string(), "version": store.version() })),
            )
                .into_response()
        }
    }
}

#[derive(Deserialize)]
struct DocQuery {
    path: String,
}

/// A document's text, looked up by its label path among the documents the corpus loaded: the
/// path is a key, never joined to a directory, so nothing outside the corpus can be named.
async fn document(State(app): State<Arc<App>>, Query(q): Query<DocQuery>) -> Response {
    match app.corpus.as_ref().and_then(|c| c.doc(&q.path)) {
        Some(doc) => axum::Json(json!({ "path": doc.path, "text": doc.text })).into_response(),
        None => refuse(StatusCode::NOT_FOUND, "not a document of the corpus"),
    }
}
