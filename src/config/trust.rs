//! What an untrusted configuration file may not set: the keys that name a program to run, a
//! host to send to, an environment variable to read, or a file outside the project. One table,
//! [`GUARDED`], read by the loader (which drops such a key from a file found in the working
//! directory, with a note) and by the reference table in `docs/safety.md`.
//!
//! Everything else (chunking, mix, style, thresholds, limits, prices) is plain data: a cloned
//! repository may set it, since the worst it can do is a poor test set.

use std::fmt;
use std::path::{Path, PathBuf};

use super::project::Project;

/// What a guarded key names, which decides when an untrusted file may still set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// A program ragsynth runs: never from an untrusted file.
    Program,
    /// A host ragsynth sends requests (and keys) to: never.
    Host,
    /// An environment variable whose value is sent: never.
    EnvVar,
    /// A model: from an untrusted file only a local one (`llamacpp`, `ollama`), its file inside
    /// the project; a hosted provider would get your key and your documents.
    Model,
    /// A file or folder read and sent to the model: only inside the project.
    ReadPath,
    /// A file or folder ragsynth writes: only inside the project.
    WrittenPath,
}

impl Names {
    /// The words the reference table shows.
    pub fn label(self) -> &'static str {
        match self {
            Names::Program => "a program to run",
            Names::Host => "a host to send to",
            Names::EnvVar => "an environment variable to send",
            Names::Model => "a provider (host and key) or a model file",
            Names::ReadPath => "files read and sent to the model",
            Names::WrittenPath => "files written",
        }
    }

    /// What an untrusted file may still set, for the reference table.
    pub fn untrusted(self) -> &'static str {
        match self {
            Names::Program | Names::Host | Names::EnvVar => "never",
            Names::Model => "`llamacpp[:<name or file inside the project>]`, `ollama:<model>`",
            Names::ReadPath | Names::WrittenPath => "a path inside the project (links resolved)",
        }
    }
}

/// One guarded key.
#[derive(Debug, Clone, Copy)]
pub struct Guarded {
    /// The section, e.g. `llm`.
    pub section: &'static str,
    /// The key within it.
    pub key: &'static str,
    /// What it names.
    pub names: Names,
    /// Why a file you did not choose may not set it.
    pub why: &'static str,
}

/// Every key an untrusted file may not set freely.
pub static GUARDED: &[Guarded] = &[
    Guarded {
        section: "llm",
        key: "server",
        names: Names::Program,
        why: "it is the llama-server binary ragsynth starts",
    },
    Guarded {
        section: "llm",
        key: "base_url",
        names: Names::Host,
        why: "requests go there, with your API key",
    },
    Guarded {
        section: "llm",
        key: "api_key_env",
        names: Names::EnvVar,
        why: "the value of that variable is sent as the API key",
    },
    Guarded {
        section: "llm",
        key: "model",
        names: Names::Model,
        why: "the provider would get your API key and your documents",
    },
    Guarded {
        section: "llm",
        key: "cache_dir",
        names: Names::WrittenPath,
        why: "the LLM journal is written (and replayed) there",
    },
    Guarded {
        section: "generate",
        key: "prompts",
        names: Names::ReadPath,
        why: "its templates are read and sent to the model",
    },
    Guarded {
        section: "generate",
        key: "output",
        names: Names::WrittenPath,
        why: "the test set is written there",
    },
];

/// A key an untrusted file set and ragsynth ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// The file.
    pub path: PathBuf,
    /// `section` and `key`.
    pub section: &'static str,
    pub key: &'static str,
    /// The value as written (TOML).
    pub value: String,
    /// Why it was ignored.
    pub why: String,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.path.display();
        write!(
            f,
            "{shown} (found in the working directory, not trusted) sets [{}] {} = {}: ignored, {}; \
             pass --trust (or --config {shown}) if you trust the file",
            self.section, self.key, self.value, self.why
        )
    }
}

/// Why an untrusted file may not set `value` for `row`, or `None` when it may.
pub(super) fn refusal(row: &Guarded, value: &toml::Value, project: &Project) -> Option<String> {
    let outside = |p: &Path| format!("{} lies outside the project ({})", p.display(), row.why);
    match row.names {
        Names::Program | Names::Host | Names::EnvVar => {
            Some(format!("it names {} ({})", row.names.label(), row.why))
        }
        Names::Model => {
            let spec = value.as_str()?.trim();
            let (provider, rest) = spec.split_once(':').unwrap_or((spec, ""));
            match provider {
                "ollama" => None,
                "llamacpp" if rest.is_empty() || project.contains(Path::new(rest)) => None,
                "llamacpp" => Some(outside(Path::new(rest))),
                _ => Some(format!(
                    "it names a hosted provider or a URL ({}); only a local model (llamacpp, ollama) may come from such a file",
                    row.why
                )),
            }
        }
        Names::ReadPath | Names::WrittenPath => {
            let path = Path::new(value.as_str()?);
            (!project.contains_folder(path)).then(|| outside(path))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(section: &str, key: &str) -> &'static Guarded {
        GUARDED
            .iter()
            .find(|g| g.section == section && g.key == key)
            .unwrap()
    }

    #[test]
    fn programs_hosts_and_variables_are_refused_paths_only_outside() {
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new(dir.path());
        let s = |v: &str| toml::Value::String(v.into());
        let refused = |section, key, v: &str| refusal(row(section, key), &s(v), &project);
        assert!(
            refused("llm", "server", "./pwn.sh")
                .unwrap()
                .contains("a program to run")
        );
        assert!(refused("llm", "base_url", "http://127.0.0.1:9/v1").is_some());
        assert!(refused("llm", "api_key_env", "GITHUB_TOKEN").is_some());
        for hosted in [
            "openai:gpt-4o",
            "anthropic:claude",
            "openai-compatible:m@http://x/v1",
            "x",
        ] {
            assert!(refused("llm", "model", hosted).is_some(), "{hosted}");
        }
        for local in [
            "llamacpp",
            "llamacpp:smollm2",
            "llamacpp:ragsynth.toml",
            "ollama:qwen2.5:7b",
        ] {
            assert_eq!(refused("llm", "model", local), None, "{local}");
        }
        assert!(refused("llm", "model", "llamacpp:/etc/passwd").is_some());
        assert_eq!(refused("generate", "output", "out/set.yaml"), None);
        assert!(refused("generate", "output", "../elsewhere.yaml").is_some());
        assert!(refused("generate", "prompts", "/tmp").is_some());
        assert!(refused("llm", "cache_dir", "/home").is_some());
    }
}
