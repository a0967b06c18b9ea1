//! Reading the YAML form of a test set in one pass of the parser: every top-level value, and
//! for each case its line, the lines of its fields and its source text (cut from the file when
//! the layout makes that safe), so an untouched case can be written back byte for byte.
//!
//! The parser's own limits are lifted (sets of 100k cases are tens of MB) except the number of
//! aliases; what aliases expand to is bounded while the values are built (`bounded`).

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::Spanned;
use serde_saphyr::budget::BudgetBreach;

use super::TestSet;
use super::bounded::{Bounded, with_budget};
use super::typed::{Format, build, parse_error};
use super::yaml_error;
use crate::{Error, Result, limits};

/// The top-level mapping, read in one pass (the YAML parser is the slow part of loading): every
/// key's value, and for `cases` the line of each case and of each of its fields.
struct YamlTop {
    map: Map<String, Value>,
    lines: Vec<(usize, Vec<(String, usize)>)>,
}

type SpannedCase = Spanned<indexmap::IndexMap<String, Spanned<Bounded>>>;

impl<'de> Deserialize<'de> for YamlTop {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct TopVisitor;
        impl<'de> serde::de::Visitor<'de> for TopVisitor {
            type Value = YamlTop;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping with `ragsynth:` and `cases:` keys")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> std::result::Result<YamlTop, A::Error> {
                let mut map = Map::new();
                let mut lines = Vec::new();
                while let Some(key) = m.next_key::<String>()? {
                    if key != "cases" {
                        map.insert(key, m.next_value::<Bounded>()?.0);
                        continue;
                    }
                    let cases: Option<Vec<SpannedCase>> = m.next_value()?;
                    let mut values = Vec::new();
                    for case in cases.unwrap_or_default() {
                        let fields = case
                            .value
                            .iter()
                            .map(|(k, v)| (k.clone(), v.referenced.line() as usize));
                        lines.push((case.referenced.line() as usize, fields.collect()));
                        values.push(Value::Object(
                            case.value.into_iter().map(|(k, v)| (k, v.value.0)).collect(),
                        ));
                    }
                    map.insert(key, Value::Array(values));
                }
                Ok(YamlTop { map, lines })
            }
        }
        d.deserialize_map(TopVisitor)
    }
}

fn yaml_options(expansion: u64) -> serde_saphyr::Options {
    // Test sets of 100k cases are tens of MB: lift the parser's default size limits, but keep a
    // bound on aliases (what they expand to is bounded in `bounded`). The copies the parser
    // keeps of anchored nodes (nested anchors, as in "billion laughs") are what an expansion
    // costs it: bounded by the same budget, so one setting raises both.
    let as_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    let mut budget = serde_saphyr::Budget::default();
    budget.max_events = usize::MAX;
    budget.max_nodes = usize::MAX;
    budget.max_total_scalar_bytes = usize::MAX;
    budget.max_reader_input_bytes = None;
    budget.max_aliases = as_usize(limits::YAML_ALIASES.get());
    budget.max_recorded_anchor_bytes = as_usize(expansion);
    budget.max_recorded_anchor_events = as_usize(expansion / limits::YAML_NODE_COST);
    budget.enforce_alias_anchor_ratio = false;
    let mut aliases = serde_saphyr::options::AliasLimits::default();
    aliases.max_total_replayed_events = as_usize(expansion / limits::YAML_NODE_COST);
    let mut o = serde_saphyr::Options::default();
    o.budget = Some(budget);
    o.alias_limits = aliases;
    o
}

/// What a fixed limit of the parser (none that a setting raises) was passed by.
fn beyond(breach: &BudgetBreach) -> String {
    match breach {
        BudgetBreach::Depth { depth } => format!("nests lists and maps {depth} levels deep"),
        BudgetBreach::Anchors { anchors } => format!("defines more than {anchors} anchors"),
        BudgetBreach::Documents { documents } => format!("holds more than {documents} documents"),
        BudgetBreach::MergeKeys { merge_keys } => format!("uses more than {merge_keys} merge keys (`<<`)"),
        other => format!("passes a limit of the parser ({other:?})"),
    }
}

/// Which of the parser's limits stopped it, if one did.
enum Stopped<'e> {
    /// One of its budget's.
    Budget(&'e BudgetBreach),
    /// The events aliases replay: what an expansion costs it.
    Replays,
}

fn stopped(mut e: &serde_saphyr::Error) -> Option<Stopped<'_>> {
    use serde_saphyr::Error as E;
    loop {
        match e {
            E::WithSnippet { error, .. } | E::AliasError { error, .. } => e = error,
            E::Budget { breach, .. } => return Some(Stopped::Budget(breach)),
            E::AliasReplayLimitExceeded { .. } | E::AliasExpansionLimitExceeded { .. } => {
                return Some(Stopped::Replays);
            }
            _ => return None,
        }
    }
}

pub(super) fn load_yaml(text: &str, path: &Path) -> Result<TestSet> {
    let to_parse_error = |e: serde_saphyr::Error| {
        let message = yaml_error::message(&e);
        match e.location() {
            Some(l) => {
                let (line, column, message) =
                    yaml_error::locate(text, l.line() as usize, l.column() as usize, message);
                parse_error(path, Some(line), Some(column), message)
            }
            None => parse_error(path, None, None, message),
        }
    };
    let budget = limits::yaml_expansion_budget(text.len());
    let (parsed, over) = with_budget(budget, || {
        serde_saphyr::from_str_with_options::<YamlTop>(text, yaml_options(budget))
    });
    let YamlTop {
        map: top,
        lines: case_lines,
    } = parsed.map_err(|e| {
        let line = e.location().map(|l| l.line() as usize);
        let limit = |message: String| Error::Limit {
            path: path.to_path_buf(),
            line,
            message,
        };
        let expands = || {
            limit(format!(
                "the YAML expands to more than {} (aliases repeat what their anchor holds); {}",
                limits::human(budget),
                limits::YAML_EXPANSION.how_to_raise()
            ))
        };
        match stopped(&e) {
            _ if over => expands(),
            Some(
                Stopped::Replays
                | Stopped::Budget(
                    BudgetBreach::RecordedAnchorEvents { .. } | BudgetBreach::RecordedAnchorBytes { .. },
                ),
            ) => expands(),
            Some(Stopped::Budget(BudgetBreach::Aliases { aliases })) => limit(format!(
                "more than {} YAML aliases (`*name`; {aliases} seen); raise the limit with {}=<count>",
                limits::YAML_ALIASES.get(),
                limits::YAML_ALIASES.var
            )),
            Some(Stopped::Budget(other)) => {
                limit(format!("the YAML {}: no test set comes near that", beyond(other)))
            }
            None => to_parse_error(e),
        }
    })?;
    let cases_last = top.keys().next_back().map(String::as_str) == Some("cases");
    let mut set = build(top, path, Format::Yaml, |i| {
        case_lines.get(i).map(|(l, f)| (*l, f.clone()))
    })?;
    if cases_last {
        attach_yaml_sources(&mut set, text);
    }
    Ok(set)
}

/// Cuts the YAML text into the header and one slice per case, when the file is laid out so
/// that this is safe: block-style `cases:` as the last key, each item starting on its own
/// `- ` line at one indentation.
fn attach_yaml_sources(set: &mut TestSet, text: &str) {
    if set.cases.is_empty() || set.cases.iter().any(|c| c.line().is_none()) {
        return;
    }
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut starts = Vec::with_capacity(set.cases.len());
    let mut indent = None;
    for case in &set.cases {
        let line = case.line().unwrap_or(1);
        let Some(&begin) = line_starts.get(line - 1) else {
            return;
        };
        let line_text = text[begin..].lines().next().unwrap_or_default();
        let trimmed = line_text.trim_start_matches(' ');
        let this_indent = line_text.len() - trimmed.len();
        if !trimmed.starts_with("- ") || *indent.get_or_insert(this_indent) != this_indent {
            return;
        }
        starts.push(begin);
    }
    let header_raw = &text[..starts[0]];
    for (i, case) in set.cases.iter_mut().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let mut raw = text[starts[i]..end].to_string();
        if !raw.ends_with('\n') {
            raw.push('\n');
        }
        if let Some(o) = case.origin.as_mut() {
            o.raw = Some(raw);
        }
    }
    if let Some(h) = set.origin.as_mut() {
        h.raw = Some(header_raw.to_string());
        h.item_indent = indent.unwrap_or(2);
    }
}
