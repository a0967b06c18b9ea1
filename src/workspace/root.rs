//! The one root resolver: how a test-set header spells its corpus directory, and whether two
//! spellings name the same directory. `import`, `remap` and `generate` write headers through
//! it, so they agree on every path.
//!
//! Paths are compared as the file system sees them: the part that exists is resolved through
//! its symlinks (a set reached through a linked directory still finds its corpus), the part
//! that does not exist yet is cleaned lexically.

use std::path::{Component, Path, PathBuf};

/// `dir` as a test-set header stores it: relative to the directory holding `file` (the working
/// directory for a bare file name), `/`-separated; `.` for that directory itself. Absolute only
/// when the two paths share no root (another drive).
pub fn relative_root(file: &Path, dir: &Path) -> String {
    let base = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (from, to) = (resolved(base), resolved(dir));
    // Climb from the set's directory until it holds the corpus: one `..` a step.
    let mut parts: Vec<String> = Vec::new();
    let mut ancestor = from.as_path();
    let rest = loop {
        if let Ok(rest) = to.strip_prefix(ancestor) {
            break rest;
        }
        match ancestor.parent() {
            Some(up) => {
                parts.push("..".into());
                ancestor = up;
            }
            // Another drive: there is nothing to climb to.
            None => return to.to_string_lossy().replace('\\', "/"),
        }
    };
    parts.extend(rest.iter().map(|c| c.to_string_lossy().into_owned()));
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// True when `a` and `b` name the same existing directory (or file).
pub fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// An absolute, `..`-free form of `p`: its longest existing ancestor resolved through symlinks,
/// the rest cleaned lexically.
fn resolved(p: &Path) -> PathBuf {
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (mut out, rest) = p
        .ancestors()
        .find_map(|a| Some((a.canonicalize().ok()?, p.strip_prefix(a).ok()?)))
        .unwrap_or_else(|| (PathBuf::new(), p.as_path()));
    for c in rest.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => out.push(name),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_relative_to_the_test_set_directory() {
        for (set, corpus, root) in [
            ("/w/out/set.yaml", "/w/corpora/docs", "../corpora/docs"),
            ("/w/set.yaml", "/w/docs/", "docs"),
            ("/w/set.yaml", "/w/./x/../", "."),
            // Relative even across the tree: the header promises a path from the file.
            ("/tmp/x/set.yaml", "/w/docs", "../../w/docs"),
        ] {
            assert_eq!(
                relative_root(Path::new(set), Path::new(corpus)),
                root,
                "{set} {corpus}"
            );
        }
    }

    #[test]
    fn existing_paths_are_compared_through_their_links() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpora/docs");
        std::fs::create_dir_all(dir.path().join("output")).unwrap();
        std::fs::create_dir_all(&corpus).unwrap();
        let from = |rel: &str| relative_root(&dir.path().join(rel), &corpus);
        assert_eq!(from("output/testset.yaml"), "../corpora/docs");
        assert_eq!(from("t.yaml"), "corpora/docs");
        assert_eq!(from("corpora/docs/t.yaml"), ".");
        #[cfg(unix)]
        {
            // A set reached through a link is placed where the link leads.
            std::os::unix::fs::symlink(dir.path().join("output"), dir.path().join("link")).unwrap();
            assert_eq!(from("link/set.yaml"), "../corpora/docs");
        }
        assert!(same_dir(&corpus, &dir.path().join("corpora/./docs")));
        assert!(!same_dir(&corpus, dir.path()));
    }
}
