//! The README's command lines stay true: every `ragsynth <command> ...` line in a fenced code
//! block names a real subcommand, and every flag on it appears in that subcommand's `--help`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use assert_cmd::Command;

/// Subcommand -> flags used with it in the README's code blocks.
fn readme_usage() -> BTreeMap<String, BTreeSet<String>> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let mut usage: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut in_code = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let Some(rest) = line.trim_start().strip_prefix("ragsynth ").filter(|_| in_code) else {
            continue;
        };
        // Comments after `#` are prose.
        let rest = rest.split(" #").next().unwrap();
        let mut words = rest.split_whitespace();
        let Some(command) = words.next() else { continue };
        let flags = usage.entry(command.to_string()).or_default();
        for word in words {
            let word = word.trim_start_matches(['[', '(']);
            if let Some(flag) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) {
                let name: String = flag
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !name.is_empty() && !name.chars().all(|c| c.is_ascii_digit()) {
                    let dashes = if word.starts_with("--") { "--" } else { "-" };
                    flags.insert(format!("{dashes}{name}"));
                }
            }
        }
    }
    usage
}

#[test]
fn every_readme_command_line_matches_the_help() {
    let usage = readme_usage();
    assert!(
        ["generate", "audit", "eval", "import", "remap", "review", "chunk"]
            .iter()
            .all(|c| usage.contains_key(*c)),
        "the README shows each command: {usage:?}"
    );
    for (command, flags) in &usage {
        let out = Command::cargo_bin("ragsynth")
            .unwrap()
            .args([command, "--help"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README uses `ragsynth {command}`, which is not a command"
        );
        let help = String::from_utf8(out.stdout).unwrap();
        for flag in flags {
            let listed = help
                .split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '[' || c == '<')
                .any(|w| w == flag);
            assert!(
                listed,
                "README uses `ragsynth {command} {flag}`, which its --help does not list"
            );
        }
    }
}
