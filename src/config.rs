//! `ragsynth.toml`: one file, one section per part (`[llm]`, `[prices]`, `[audit]`, ...). Each
//! part deserializes its own section, so adding a part never touches the others. Precedence is
//! command line > environment > file > built-in default; the defaults live in each part's types.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// The file looked for in the working directory when `--config` is not given.
pub const DEFAULT_FILE: &str = "ragsynth.toml";

/// A loaded configuration file (empty when there is none).
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    path: Option<PathBuf>,
    table: toml::Table,
    /// Found in the working directory rather than named by the user (`--config`): it may come
    /// with a cloned repository, so the LLM layer does not trust its URLs with keys.
    implicit: bool,
}

impl ConfigFile {
    /// Loads `explicit` (which must exist), else `./ragsynth.toml` if present, else nothing.
    pub fn load(explicit: Option<&Path>) -> Result<ConfigFile> {
        let path = match explicit {
            Some(p) => p.to_path_buf(),
            None => {
                let p = PathBuf::from(DEFAULT_FILE);
                if !p.exists() {
                    return Ok(ConfigFile::default());
                }
                p
            }
        };
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let mut file = Self::parse(&text, &path)?;
        file.implicit = explicit.is_none();
        Ok(file)
    }

    /// Parses configuration text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<ConfigFile> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
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
        })?;
        Ok(ConfigFile {
            path: Some(path.to_path_buf()),
            table,
            implicit: false,
        })
    }

    /// True when the file was found in the working directory, not named with `--config`.
    pub fn is_implicit(&self) -> bool {
        self.implicit
    }

    /// The file it came from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Deserializes section `[name]`, or the type's default when the section is absent.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T> {
        let Some(value) = self.table.get(name) else {
            return Ok(T::default());
        };
        let path = self.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_FILE));
        serde_path_to_error::deserialize(value.clone()).map_err(|e| Error::Field {
            path,
            line: None,
            case: None,
            field: format!("{name}.{}", e.path()),
            message: e.into_inner().to_string(),
        })
    }
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
}
