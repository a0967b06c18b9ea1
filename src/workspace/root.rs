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
    let from: Vec<Component<'_>> = from.components().collect();
    let to_parts: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return to.to_string_lossy().replace('\\', "/");
    }
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
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
        assert_eq!(
            relative_root(Path::new("/w/out/set.yaml"), Path::new("/w/corpora/docs")),
            "../corpora/docs"
        );
        assert_eq!(
            relative_root(Path::new("/w/set.yaml"), Path::new("/w/docs/")),
            "docs"
        );
        assert_eq!(
            relative_root(Path::new("/w/set.yaml"), Path::new("/w/./x/../")),
            "."
        );
        // Relative even across the tree: the header promises a path from the file.
        assert_eq!(
            relative_root(Path::new("/tmp/x/set.yaml"), Path::new("/w/docs")),
            "../../w/docs"
        );
    }

    #[test]
    fn existing_paths_are_compared_through_their_links() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpora/docs");
        std::fs::create_dir_all(&corpus).unwrap();
        let out = dir.path().join("output/testset.yaml");
        assert_eq!(relative_root(&out, &corpus), "../corpora/docs");
        assert_eq!(relative_root(&dir.path().join("t.yaml"), &corpus), "corpora/docs");
        assert_eq!(relative_root(&corpus.join("t.yaml"), &corpus), ".");
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(dir.path().join("output"), &link).unwrap();
            std::fs::create_dir_all(dir.path().join("output")).unwrap();
            // A set reached through a link is placed where the link leads.
            assert_eq!(relative_root(&link.join("set.yaml"), &corpus), "../corpora/docs");
        }
        assert!(same_dir(&corpus, &dir.path().join("corpora/./docs")));
        assert!(!same_dir(&corpus, dir.path()));
    }
}
