//! `review --answers` over HTTP, without a browser: two servers marking the same file at once
//! lose none of each other's marks, a mark is refused for an unknown case, a judge without a
//! verdict or a foreign Host/Origin, and the per-case file itself is never written.

mod review_support;

use review_support::judged::judged_workspace;
use review_support::{ReviewServer, raw_request};
use serde_json::{Value, json};

fn post(s: &ReviewServer, body: &Value, origin: Option<&str>) -> review_support::Raw {
    let host = format!("127.0.0.1:{}", s.port);
    let body = body.to_string();
    let mut headers = vec![("Host", host.as_str()), ("Content-Type", "application/json")];
    if let Some(o) = origin {
        headers.push(("Origin", o));
    }
    raw_request(s.port, "POST", "/api/marks", &headers, &body)
}

#[test]
fn two_servers_marking_at_once_keep_every_mark_and_bad_marks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_testset, pq) = judged_workspace(dir.path());
    let before = std::fs::read_to_string(&pq).unwrap();
    let (a, b) = (ReviewServer::start_answers(&pq), ReviewServer::start_answers(&pq));
    let marks = [
        ("ret-prune", "correct", "right"),
        ("ret-prune", "refused", "wrong"),
        ("ret-prune", "grounded", "right"),
        ("plan-limit-error", "correct", "wrong"),
        ("plan-limit-error", "refused", "right"),
        ("encrypt-and-price", "correct", "right"),
        ("encrypt-and-price", "refused", "right"),
        ("encrypt-and-price", "grounded", "wrong"),
        ("no-tape", "refused", "right"),
    ];
    // Each server saves every other mark, from two threads at once.
    std::thread::scope(|scope| {
        for (k, server) in [&a, &b].into_iter().enumerate() {
            let marks = &marks;
            scope.spawn(move || {
                for (id, judge, mark) in marks.iter().skip(k).step_by(2) {
                    let r = post(server, &json!({"id": id, "judge": judge, "mark": mark}), None);
                    assert_eq!(r.status, 200, "{id} {judge}: {}", r.body);
                }
            });
        }
    });
    let saved = std::fs::read_to_string(dir.path().join("per-question.marks.jsonl")).unwrap();
    assert_eq!(saved.lines().count(), marks.len(), "{saved}");
    for (id, judge, mark) in marks {
        let want = format!("\"id\":\"{id}\",\"judge\":\"{judge}\"");
        let line = saved
            .lines()
            .find(|l| l.contains(&want))
            .unwrap_or_else(|| panic!("{want} lost: {saved}"));
        assert!(line.contains(&format!("\"mark\":\"{mark}\"")), "{line}");
    }
    // Either server lists what both saved.
    let host = format!("127.0.0.1:{}", a.port);
    let list = raw_request(a.port, "GET", "/api/answers", &[("Host", &host)], "");
    let list: Value = serde_json::from_str(&list.body).unwrap();
    assert_eq!(list["marks"]["no-tape"]["refused"]["mark"], "right");

    for (body, status) in [
        (json!({"id": "nope", "judge": "correct", "mark": "right"}), 404),
        (json!({"id": "no-tape", "judge": "correct", "mark": "right"}), 422),
        (json!({"id": "no-tape", "judge": "refused", "mark": "maybe"}), 422),
        (json!({"id": "no-tape", "judge": "style", "mark": "right"}), 422),
        (json!({"id": "no-tape"}), 400),
    ] {
        let r = post(&a, &body, None);
        assert_eq!(r.status, status, "{body}: {}", r.body);
    }
    let r = post(
        &a,
        &json!({"id": "no-tape", "judge": "refused", "mark": null}),
        Some("http://attacker.example"),
    );
    assert_eq!(r.status, 403);
    let r = raw_request(
        a.port,
        "GET",
        "/api/answers",
        &[("Host", &format!("attacker.example:{}", a.port))],
        "",
    );
    assert_eq!(r.status, 403);
    // Taking a mark back removes its line.
    let r = post(
        &b,
        &json!({"id": "no-tape", "judge": "refused", "mark": null}),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let saved = std::fs::read_to_string(dir.path().join("per-question.marks.jsonl")).unwrap();
    assert_eq!(saved.lines().count(), marks.len() - 1);
    assert_eq!(
        std::fs::read_to_string(&pq).unwrap(),
        before,
        "the per-case file is only read"
    );
}
