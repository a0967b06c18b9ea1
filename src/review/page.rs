//! The page: one HTML shell, one stylesheet, one script, all compiled into the binary so the
//! page works offline and loads nothing from elsewhere. The live server links the stylesheet
//! and script; the static export inlines them with the data, as one self-contained file.

use serde::Serialize;

/// The HTML shell.
pub const HTML: &str = include_str!("assets/review.html");
/// The stylesheet.
pub const CSS: &str = include_str!("assets/review.css");
/// The script: rendering, keyboard, plots.
pub const JS: &str = include_str!("assets/review.js");
/// The shell of the judged-answers page (`review --answers`).
pub const ANSWERS_HTML: &str = include_str!("assets/answers.html");
/// Its script: cases, verdicts, marks by keyboard.
pub const ANSWERS_JS: &str = include_str!("assets/answers.js");

/// The judged-answers page for the live server.
pub fn live_answers(title: &str) -> String {
    fill_shell(
        ANSWERS_HTML,
        title,
        r#"<link rel="stylesheet" href="/assets/review.css">"#,
        r#"<script src="/assets/answers.js" defer></script>"#,
        &serde_json::json!({ "mode": "live" }),
    )
}

/// The page for the live server: assets by URL, data fetched from the API.
pub fn live(title: &str) -> String {
    fill(
        title,
        r#"<link rel="stylesheet" href="/assets/review.css">"#,
        r#"<script src="/assets/review.js" defer></script>"#,
        &serde_json::json!({ "mode": "live" }),
    )
}

/// The self-contained page: assets inline, every case's detail embedded as JSON.
pub fn standalone(title: &str, data: &impl Serialize) -> String {
    fill(
        title,
        &format!("<style>\n{CSS}</style>"),
        &format!("<script>\n{}</script>", JS.replace("</script", "<\\/script")),
        data,
    )
}

fn fill(title: &str, style: &str, script: &str, data: &impl Serialize) -> String {
    fill_shell(HTML, title, style, script, data)
}

fn fill_shell(shell: &str, title: &str, style: &str, script: &str, data: &impl Serialize) -> String {
    // '<' never appears raw inside the JSON, so no string in it can close the script element.
    let json = serde_json::to_string(data)
        .expect("page data serializes")
        .replace('<', "\\u003c");
    let title = escape(title);
    // One pass over the shell, so text put into one slot is never searched for another.
    let mut out = String::with_capacity(shell.len() + style.len() + script.len() + json.len());
    let mut rest = shell;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open..].find("}}").map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(match &rest[open + 2..close] {
            "title" => &title,
            "style" => style,
            "script" => script,
            "data" => &json,
            other => unreachable!("the page shell has no slot `{other}`"),
        });
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    out
}

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_cannot_close_its_script_element() {
        let page = standalone(
            "a <b> {{data}}",
            &serde_json::json!({"q": "</script><script>alert(1) {{script}}"}),
        );
        assert!(page.contains("a &lt;b&gt;"));
        assert!(!page.contains("</script><script>alert"));
        assert!(page.contains("\\u003c/script>"));
        assert!(page.contains("a &lt;b&gt; {{data}}</title>"));
        assert!(page.contains("alert(1) {{script}}"));
    }
}
