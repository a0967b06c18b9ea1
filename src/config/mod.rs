//! The configuration: `[llm]`, `[prices]`, `[audit]`, ... — one section per part, each part
//! deserializing its own section, so adding a part never touches the others.
//!
//! It is read in layers, and where a layer comes from decides what it may set. The user's own
//! file (`$XDG_CONFIG_HOME/ragsynth/config.toml`, else `~/.config/ragsynth/config.toml`) and a
//! file named with `--config` are trusted. A `ragsynth.toml` merely found in the working
//! directory may have come with a cloned repository: it may set chunking, mix, thresholds and
//! the like, but not the keys [`trust::GUARDED`] lists (a program, a host, a variable, a path
//! outside the project) — those are dropped with a note — unless `--trust` is given.
//!
//! Precedence, highest first: command line, environment, `--config FILE`, the user's file, the
//! working directory's file. Layers merge key by key within a section. Defaults live in each
//! part's types.

mod project;
pub mod trust;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub use project::Project;
pub use trust::{GUARDED, Guarded, Ignored, Names};

use crate::{Error, Result};

/// The file looked for in the working directory when `--config` is not given.
pub const DEFAULT_FILE: &str = "ragsynth.toml";

/// Where a configuration file came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The user's own file under `~/.config/ragsynth/`.
    User,
    /// Named with `--config` (or `RAGSYNTH_CONFIG`).
    Named,
    /// `ragsynth.toml` found in the working directory; trusted only with `--trust`.
    Found {
        /// `--trust` was given.
        trusted: bool,
    },
}

impl Origin {
    /// Whether the file may set the guarded keys.
    pub fn trusted(self) -> bool {
        !matches!(self, Origin::Found { trusted: false })
    }
}

/// What to read: where the user's file is, a `--config` file, and whether the working
/// directory's file is trusted.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The user's file (read when it exists).
    pub user: Option<PathBuf>,
    /// `--config FILE` (must exist); replaces the working directory's file.
    pub named: Option<PathBuf>,
    /// The working directory (its `ragsynth.toml`, and the project paths are confined to).
    pub workdir: Option<PathBuf>,
    /// `--trust`: the working directory's file may set every key.
    pub trust: bool,
}

impl Sources {
    /// The usual places: the user's file, `named`, and the current directory.
    pub fn standard(named: Option<&Path>, trust: bool) -> Sources {
        Sources {
            user: user_file(),
            named: named.map(Path::to_path_buf),
            workdir: std::env::current_dir().ok(),
            trust,
        }
    }
}

/// `$XDG_CONFIG_HOME/ragsynth/config.toml`, else `$HOME/.config/ragsynth/config.toml`.
pub fn user_file() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base = var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")))?;
    Some(base.join("ragsynth").join("config.toml"))
}

/// The configuration as read from every layer (empty when there is none).
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    /// Sections merged, highest precedence last applied.
    table: toml::Table,
    /// The file each `section.key` came from, for errors.
    from: BTreeMap<String, PathBuf>,
    /// The files read, in precedence order (lowest first).
    files: Vec<(PathBuf, Origin)>,
    /// Keys an untrusted file set and were dropped.
    ignored: Vec<Ignored>,
}

impl ConfigFile {
    /// Reads every layer `sources` names (see the module doc).
    pub fn load(sources: &Sources) -> Result<ConfigFile> {
        // (file to read, name shown, origin), lowest precedence first.
        let mut layers: Vec<(PathBuf, PathBuf, Origin)> = Vec::new();
        if sources.named.is_none()
            && let Some(found) = sources.workdir.as_deref().map(|d| d.join(DEFAULT_FILE))
            && found.is_file()
        {
            let origin = Origin::Found {
                trusted: sources.trust,
            };
            layers.push((found, PathBuf::from(DEFAULT_FILE), origin));
        }
        if let Some(user) = sources.user.as_deref().filter(|p| p.is_file()) {
            layers.push((user.to_path_buf(), user.to_path_buf(), Origin::User));
        }
        if let Some(named) = &sources.named {
            layers.push((named.clone(), named.clone(), Origin::Named));
        }
        let project = Project::new(sources.workdir.as_deref().unwrap_or(Path::new(".")));
        let mut config = ConfigFile::default();
        for (file, shown, origin) in layers {
            let text = std::fs::read_to_string(&file).map_err(|e| Error::io(&shown, e))?;
            config.add((shown.clone(), parse_table(&text, &shown)?), origin, &project);
        }
        Ok(config)
    }

    /// Parses configuration text as one trusted layer; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<ConfigFile> {
        let table = parse_table(text, path)?;
        let mut config = ConfigFile::default();
        config.add(
            (path.to_path_buf(), table),
            Origin::Named,
            &Project::new(Path::new(".")),
        );
        Ok(config)
    }

    /// Lays `file` over what is there, dropping the guarded keys an untrusted origin may not set.
    fn add(&mut self, (path, mut table): (PathBuf, toml::Table), origin: Origin, project: &Project) {
        if !origin.trusted() {
            for row in GUARDED {
                let Some(section) = table.get_mut(row.section).and_then(toml::Value::as_table_mut) else {
                    continue;
                };
                let Some(value) = section.get(row.key) else {
                    continue;
                };
                if let Some(why) = trust::refusal(row, value, project) {
                    self.ignored.push(Ignored {
                        path: path.clone(),
                        section: row.section,
                        key: row.key,
                        value: value.to_string(),
                        why,
                    });
                    section.remove(row.key);
                }
            }
        }
        for (name, value) in table {
            match (self.table.get_mut(&name), value) {
                (Some(toml::Value::Table(have)), toml::Value::Table(new)) => {
                    for (key, v) in new {
                        self.from.insert(format!("{name}.{key}"), path.clone());
                        have.insert(key, v);
                    }
                }
                (_, value) => {
                    if let toml::Value::Table(t) = &value {
                        for key in t.keys() {
                            self.from.insert(format!("{name}.{key}"), path.clone());
                        }
                    }
                    self.from.insert(name.clone(), path.clone());
                    self.table.insert(name, value);
                }
            }
        }
        self.files.push((path, origin));
    }

    /// The files read, lowest precedence first, with where each came from.
    pub fn files(&self) -> &[(PathBuf, Origin)] {
        &self.files
    }

    /// The keys an untrusted file set and ragsynth ignored (the caller tells the user).
    pub fn ignored(&self) -> &[Ignored] {
        &self.ignored
    }

    /// Deserializes section `[name]`, or the type's default when the section is absent.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T> {
        let Some(value) = self.table.get(name) else {
            return Ok(T::default());
        };
        serde_path_to_error::deserialize(value.clone()).map_err(|e| {
            let field = format!("{name}.{}", e.path());
            let key = field.split('.').take(2).collect::<Vec<_>>().join(".");
            let path = self
                .from
                .get(&key)
                .or_else(|| self.from.get(name))
                .cloned()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_FILE));
            Error::Field {
                path,
                line: None,
                case: None,
                field,
                message: e.into_inner().to_string(),
            }
        })
    }
}

/// Parses TOML text; an error names `path`, the line and the column.
fn parse_table(text: &str, path: &Path) -> Result<toml::Table> {
    text.parse().map_err(|e: toml::de::Error| {
        let (line, column) = e
            .span()
            .map(|s| {
                let before = &text[..s.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                (Some(line), Some(column))
            })
            .unwrap_or((None, None));
        Error::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Part {
        size: Option<u32>,
    }

    #[test]
    fn sections_and_errors_name_the_field() {
        let c = ConfigFile::parse("[part]\nsize = 3\n[bad]\nsize = \"x\"\n", Path::new("r.toml")).unwrap();
        assert_eq!(c.section::<Part>("part").unwrap(), Part { size: Some(3) });
        assert_eq!(c.section::<Part>("absent").unwrap(), Part::default());
        let e = c.section::<Part>("bad").unwrap_err().to_string();
        assert!(e.contains("r.toml") && e.contains("bad.size"), "{e}");
        let e = ConfigFile::parse("[x\n", Path::new("r.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("r.toml:1:"), "{e}");
    }

    #[derive(Debug, Default, serde::Deserialize, PartialEq)]
    struct Gen {
        n: Option<u32>,
        mix: Option<String>,
        output: Option<String>,
    }

    #[test]
    fn layers_merge_by_key_and_a_found_file_may_not_name_a_program() {
        let work = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            work.path().join(DEFAULT_FILE),
            "[llm]\nserver = \"./pwn.sh\"\n[generate]\nn = 5\nmix = \"lookup=1\"\noutput = \"../x.yaml\"\n",
        )
        .unwrap();
        let user = home.path().join("config.toml");
        std::fs::write(&user, "[generate]\nn = 9\n").unwrap();
        let sources = |trust| Sources {
            user: Some(user.clone()),
            named: None,
            workdir: Some(work.path().to_path_buf()),
            trust,
        };
        let c = ConfigFile::load(&sources(false)).unwrap();
        let g: Gen = c.section("generate").unwrap();
        assert_eq!(
            (g.n, g.mix.as_deref(), g.output),
            (Some(9), Some("lookup=1"), None)
        );
        let ignored: Vec<_> = c
            .ignored()
            .iter()
            .map(|i| format!("{}.{}", i.section, i.key))
            .collect();
        assert_eq!(ignored, ["llm.server", "generate.output"]);
        let note = c.ignored()[0].to_string();
        assert!(
            note.starts_with("ragsynth.toml (found in the working directory, not trusted) sets [llm] server = \"./pwn.sh\": ignored")
                && note.contains("--trust"),
            "{note}"
        );
        assert!(c.table["llm"].as_table().unwrap().get("server").is_none());

        let trusted = ConfigFile::load(&sources(true)).unwrap();
        assert!(trusted.ignored().is_empty());
        assert_eq!(trusted.table["llm"]["server"].as_str(), Some("./pwn.sh"));
        assert_eq!(
            trusted.section::<Gen>("generate").unwrap().n,
            Some(9),
            "the user's file still wins"
        );

        let named = home.path().join("named.toml");
        std::fs::write(&named, "[generate]\nn = \"many\"\n").unwrap();
        let c = ConfigFile::load(&Sources {
            named: Some(named.clone()),
            ..sources(false)
        })
        .unwrap();
        assert!(
            c.ignored().is_empty(),
            "the found file is not read beside --config"
        );
        let e = c.section::<Gen>("generate").unwrap_err().to_string();
        assert!(e.contains("named.toml") && e.contains("generate.n"), "{e}");
    }
}
