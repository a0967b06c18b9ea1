//! The project a configuration file may speak for: the working directory. A path an untrusted
//! file names must lie inside it once `..` and every symlink are resolved, so a cloned
//! repository cannot point ragsynth at `~/.ssh` or make it write into `~/.bashrc` through a
//! link it ships.

use std::path::{Component, Path, PathBuf};

/// The working directory, resolved, against which paths are confined.
#[derive(Debug, Clone)]
pub struct Project {
    root: PathBuf,
}

impl Project {
    /// The project rooted at `dir` (resolved; kept as given when it cannot be).
    pub fn new(dir: &Path) -> Project {
        Project {
            root: dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
        }
    }

    /// The root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// True when `path` (relative paths are read from the root) lies inside the project once
    /// `..` and symlinks are resolved. A path that does not exist yet is judged by its longest
    /// existing ancestor plus the rest, which may hold no `..`.
    pub fn contains(&self, path: &Path) -> bool {
        let full = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        resolve(&full).is_some_and(|p| p.starts_with(&self.root))
    }

    /// [`contains`](Self::contains) for a folder and every entry directly in it, so a link
    /// inside a folder of the project cannot lead out of it either.
    pub fn contains_folder(&self, dir: &Path) -> bool {
        if !self.contains(dir) {
            return false;
        }
        let full = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            self.root.join(dir)
        };
        match std::fs::read_dir(&full) {
            Ok(entries) => entries.flatten().all(|e| self.contains(&e.path())),
            Err(_) => true, // not a folder yet: nothing in it to lead out
        }
    }
}

/// `path` with symlinks and `..` resolved: the longest existing ancestor canonicalized, then the
/// missing rest appended (`None` when the rest climbs with `..`).
fn resolve(path: &Path) -> Option<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    let real = loop {
        if let Ok(real) = existing.canonicalize() {
            break real;
        }
        rest.push(existing.file_name()?.to_os_string());
        if !existing.pop() || existing.as_os_str().is_empty() {
            return None;
        }
    };
    if rest
        .iter()
        .any(|part| Path::new(part).components().any(|c| c == Component::ParentDir))
    {
        return None;
    }
    Some(rest.iter().rev().fold(real, |mut out, part| {
        out.push(part);
        out
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_confined_after_links_and_dots_are_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("prompts")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("away")).unwrap();
        let p = Project::new(dir.path());
        assert!(p.contains(Path::new("prompts")));
        assert!(p.contains(Path::new("output/new/set.yaml")), "not created yet");
        assert!(p.contains(&dir.path().join("prompts/../x")));
        assert!(!p.contains(Path::new("../x")));
        assert!(!p.contains(Path::new("prompts/../../x")));
        assert!(!p.contains(Path::new("/etc/passwd")));
        assert!(!p.contains(Path::new("away/set.yaml")), "through a link");
        assert!(
            !p.contains(Path::new("output/../../x")),
            "missing part climbing out"
        );
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("prompts/lookup.j2")).unwrap();
        assert!(p.contains(Path::new("prompts")));
        assert!(
            !p.contains_folder(Path::new("prompts")),
            "a link inside leads out"
        );
    }
}
