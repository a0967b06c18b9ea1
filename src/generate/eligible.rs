//! Which chunks have enough prose to ask about: tables of contents, link lists, code-only
//! blocks and fragments are left out of the plan (and counted, so the summary says why).

use serde::Serialize;

/// Why a chunk is not asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LowContent {
    /// Too few words to ask anything.
    Tiny,
    /// Mostly links.
    Links,
    /// Mostly short list items or headings: a table of contents or a menu.
    Toc,
    /// Mostly code.
    Code,
}

impl LowContent {
    /// Name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            LowContent::Tiny => "tiny",
            LowContent::Links => "links",
            LowContent::Toc => "table_of_contents",
            LowContent::Code => "code",
        }
    }
}

/// Fewest words a chunk needs to be asked about.
pub const MIN_WORDS: usize = 25;

/// Classifies a chunk that has too little prose to ask about.
pub fn low_content(text: &str) -> Option<LowContent> {
    let mut in_code = false;
    let (mut code_chars, mut prose_chars) = (0usize, 0usize);
    let (mut lines, mut link_lines, mut short_items) = (0usize, 0usize, 0usize);
    let mut prose = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            continue;
        }
        if t.is_empty() {
            continue;
        }
        if in_code {
            code_chars += t.len();
            continue;
        }
        prose_chars += t.len();
        lines += 1;
        let links = t.matches("](").count() + t.matches("http://").count() + t.matches("https://").count();
        let body = t.trim_start_matches(['-', '*', '+', '#', ' ', '|']);
        let n_words = crate::text::words(body).len();
        if links > 0 && n_words <= 6 * links + 2 {
            link_lines += 1;
        }
        let item =
            t.starts_with(['-', '*', '+', '#']) || t.chars().next().is_some_and(|c| c.is_ascii_digit());
        if item && n_words <= 6 && !body.ends_with(['.', ':', '?', '!']) {
            short_items += 1;
        }
        prose.push_str(body);
        prose.push('\n');
    }
    if code_chars > 0 && code_chars * 10 >= (code_chars + prose_chars) * 6 {
        return Some(LowContent::Code);
    }
    if lines > 0 && link_lines * 2 >= lines {
        return Some(LowContent::Links);
    }
    if lines >= 4 && short_items * 10 >= lines * 6 {
        return Some(LowContent::Toc);
    }
    if crate::text::words(&prose).len() < MIN_WORDS {
        return Some(LowContent::Tiny);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prose(topic: &str) -> String {
        format!(
            "The {topic} setting controls how the agent behaves when a backup runs at night. \
             It defaults to a safe value, can be changed in the console, and takes effect at \
             the next scheduled run without restarting the service or the agent itself."
        )
    }

    #[test]
    fn low_content_kinds() {
        assert_eq!(low_content("Short note."), Some(LowContent::Tiny));
        let links = "- [Install](install.md)\n- [Configure](configuration.md)\n- [FAQ](faq.md)\n";
        assert_eq!(low_content(links), Some(LowContent::Links));
        let toc = "# Contents\n- Install\n- Configure\n- Restore\n- Retention\n- Security\n";
        assert_eq!(low_content(toc), Some(LowContent::Toc));
        let code = format!("Run:\n```\n{}\n```\n", "tide backup --all --verbose\n".repeat(20));
        assert_eq!(low_content(&code), Some(LowContent::Code));
        assert_eq!(low_content(&prose("retention")), None);
    }
}
