//! The documentation's command lines stay true: every `ragsynth <command> ...` line in a fenced
//! code block of the README or of any page under `docs/` names a real subcommand, and every
//! flag on it (continuation lines included) appears in that subcommand's `--help`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// Subcommand -> flags used with it -> the files that use them.
type Usage = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The README and every Markdown page under `docs/`, relative to the crate root.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![PathBuf::from("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    pages.sort();
    pages
}

/// Adds the command lines of one page's code blocks to `usage`.
fn read_usage(page: &Path, usage: &mut Usage) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
    let mut in_code = false;
    let mut command: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            command = None;
            continue;
        }
        if !in_code {
            continue;
        }
        // Comments after `#` are prose.
        let rest = match trimmed.strip_prefix("ragsynth ") {
            Some(rest) => {
                let mut words = rest.split_whitespace();
                command = words.next().map(str::to_string);
                rest.split_once(char::is_whitespace).map_or("", |(_, r)| r)
            }
            // An indented line of flags continues the command above it.
            None if command.is_some() && line.starts_with(' ') && trimmed.starts_with(['[', '-']) => trimmed,
            None => {
                command = None;
                continue;
            }
        };
        let Some(command) = &command else { continue };
        let rest = rest.split(" #").next().unwrap();
        // A quoted argument (`--cmd "my_rag --serve"`) is a value, not flags of ragsynth's.
        let rest: String = rest.split('"').step_by(2).collect::<Vec<_>>().join(" ");
        let flags = usage.entry(command.clone()).or_default();
        for word in rest.split_whitespace() {
            let word = word.trim_start_matches(['[', '(']);
            if let Some(flag) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) {
                let name: String = flag
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !name.is_empty() && !name.chars().all(|c| c.is_ascii_digit()) {
                    let dashes = if word.starts_with("--") { "--" } else { "-" };
                    flags
                        .entry(format!("{dashes}{name}"))
                        .or_default()
                        .insert(page.display().to_string());
                }
            }
        }
    }
}

#[test]
fn every_documented_command_line_matches_the_help() {
    let mut readme = Usage::new();
    read_usage(Path::new("README.md"), &mut readme);
    assert!(
        ["generate", "audit", "eval", "import", "remap", "review", "chunk"]
            .iter()
            .all(|c| readme.contains_key(*c)),
        "the README shows each command: {readme:?}"
    );
    let mut usage = Usage::new();
    let pages = pages();
    assert!(pages.len() > 5, "docs/ holds the guides: {pages:?}");
    for page in &pages {
        read_usage(page, &mut usage);
    }
    for (command, flags) in &usage {
        let out = Command::cargo_bin("ragsynth")
            .unwrap()
            .args([command, "--help"])
            .output()
            .unwrap();
        let pages: BTreeSet<&String> = flags.values().flatten().collect();
        assert!(
            out.status.success(),
            "{pages:?} use `ragsynth {command}`, which is not a command"
        );
        let help = String::from_utf8(out.stdout).unwrap();
        for (flag, pages) in flags {
            let listed = help
                .split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '[' || c == '<')
                .any(|w| w == flag);
            assert!(
                listed,
                "{pages:?} use `ragsynth {command} {flag}`, which its --help does not list"
            );
        }
    }
}
