//! An evaluation of answers as one self-contained HTML page for sharing: the overall figures,
//! the per-tag table, the judges' cost, and every case with its verdicts and the judges'
//! reasons, the cases the system got wrong marked.

use std::fmt::Write as _;

use crate::eval::answers::AnswerReport;
use crate::eval::answers::report::Figures;

/// `&`, `<`, `>`, `"` and `'` escaped: ids, tags and reasons come from the set, the answers
/// file and a model.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const NAMES: [&str; 6] = [
    "exact_match",
    "f1",
    "correct",
    "refused_unanswerable",
    "refused_answerable",
    "grounded",
];

fn cells(f: &Figures) -> String {
    let named = f.named();
    NAMES
        .iter()
        .map(|n| match named.iter().find(|(m, _)| m == n) {
            Some((_, v)) => format!("<td>{v:.4}</td>"),
            None => "<td>-</td>".into(),
        })
        .collect()
}

fn flag(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

fn num(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.4}"))
}

/// The report as a page titled `title`.
pub fn page(r: &AnswerReport, title: &str) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
         body{{font-family:system-ui,sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}\
         th,td{{border:1px solid #ccc;padding:.25em .6em;text-align:left}}td{{font-variant-numeric:tabular-nums}}\
         tr.miss td{{background:#fdecea}}.note{{color:#555}}</style></head><body><h1>{}</h1>",
        esc(title),
        esc(title)
    );
    let f = &r.overall;
    let _ = write!(
        h,
        "<p>{} cases scored (split: {}): {} answerable, {} unanswerable; {} unanswered{}.</p>",
        f.cases,
        esc(&r.split),
        f.answerable,
        f.unanswerable,
        r.unanswered.len(),
        if r.skip_missing {
            " (left out)"
        } else {
            " (scored as wrong)"
        }
    );
    let head: String = NAMES.iter().map(|n| format!("<th>{n}</th>")).collect();
    let _ = write!(
        h,
        "<h2>Figures</h2><table><tr><th>scope</th><th>n</th>{head}</tr>"
    );
    let _ = write!(h, "<tr><td>all</td><td>{}</td>{}</tr>", f.cases, cells(f));
    for g in &r.groups {
        let _ = write!(
            h,
            "<tr><td>{}={}</td><td>{}</td>{}</tr>",
            esc(&g.tag),
            esc(&g.value),
            g.figures.cases,
            cells(&g.figures)
        );
    }
    h.push_str("</table>");
    match &r.judges {
        Some(j) => {
            let _ = write!(
                h,
                "<p class=\"note\">Judges: {}. {}</p><ul class=\"note\">",
                esc(&j.model),
                esc(&j.usage.to_string())
            );
            for c in &j.standing {
                let _ = write!(h, "<li>{}</li>", esc(&c.line()));
            }
            h.push_str("</ul>");
        }
        None => h.push_str(
            "<p class=\"note\">No LLM judges (--llm): correct and grounded are missing, refusals are lexical.</p>",
        ),
    }
    if !r.calibration.is_empty() {
        h.push_str(
            "<table class=\"calibration\"><tr><th>judge</th><th>agreement with people (eval --calibration)</th></tr>",
        );
        for (judge, record) in &r.calibration {
            let shown = record
                .as_ref()
                .map_or("not calibrated".to_string(), |rec| rec.summary());
            let _ = write!(h, "<tr><td>{judge}</td><td>{}</td></tr>", esc(&shown));
        }
        h.push_str("</table>");
    }
    h.push_str(
        "<h2>Cases</h2><table><tr><th>id</th><th>type</th><th>answered</th><th>EM</th><th>F1</th>\
         <th>refused</th><th>correct</th><th>grounded</th><th>reasons</th></tr>",
    );
    for q in &r.questions {
        let miss = q.correct == Some(false) || q.refusal_right() != Some(true);
        let kind = q
            .tags
            .iter()
            .find(|(t, _)| *t == "type")
            .map_or("", |(_, v)| v.as_str());
        let reasons: Vec<String> = q
            .reasons
            .iter()
            .map(|(k, v)| format!("<b>{k}</b>: {}", esc(v)))
            .collect();
        let _ = write!(
            h,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if miss { " class=\"miss\"" } else { "" },
            esc(&q.id),
            esc(kind),
            flag(Some(q.answered)),
            num(q.exact_match),
            num(q.f1),
            flag(q.refused),
            flag(q.correct),
            flag(q.grounded),
            reasons.join("<br>")
        );
    }
    h.push_str("</table></body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::answers::CaseResult;

    #[test]
    fn page_escapes_data_and_marks_misses() {
        let case = CaseResult {
            id: "<script>x</script>".into(),
            tags: vec![("type", "lookup".into())],
            answered: true,
            exact_match: Some(0.0),
            f1: Some(0.5),
            refused: Some(true),
            ..CaseResult::default()
        };
        let r = AnswerReport::build(vec![case], "dev".into(), false, 0);
        let page = page(&r, "answers & more");
        assert!(page.contains("&lt;script&gt;x&lt;/script&gt;") && !page.contains("<script>"));
        assert!(page.contains("<title>answers &amp; more</title>"));
        // An answerable case that refused is a miss.
        assert!(page.contains("<tr class=\"miss\"><td>&lt;script"), "{page}");
        assert!(page.contains("<td>0.5000</td>"));
    }
}
