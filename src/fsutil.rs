//! Small file-system helpers shared by every command that writes.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Writes `bytes` to `path` atomically: a temporary file in the same directory is written,
/// flushed to disk and renamed over the target, so readers never see a half-written file and an
/// interrupted write leaves the old file intact. When `path` is a symlink its target is written
/// (renaming over the link itself would replace the link with a copy).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = resolve_links(path);
    let path = target.as_path();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".ragsynth-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    // Keep the permissions of the file we replace, so an atomic write is not a chmod; a new
    // file gets the usual 0644 rather than the temporary file's private 0600.
    match std::fs::metadata(path) {
        Ok(meta) => {
            let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
        }
        Err(_) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
            }
        }
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// The file `path` finally names: symlinks followed (also a dangling one, whose target is
/// where a write creates the file), at most 40 deep like the kernel. A path that is not a link
/// is returned as is.
pub fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        let is_link = std::fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        current = match current.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    current
}

/// An exclusive advisory lock on a directory, held while a test set in it is re-read, merged
/// and renamed into place, so two ragsynth writers never interleave those steps. Released on
/// drop. Writers that do not take it (an editor) are still caught by the content check.
#[derive(Debug)]
pub struct DirLock {
    _file: Option<std::fs::File>,
}

impl DirLock {
    /// Locks `dir`, waiting for another holder. A file system that cannot lock a directory
    /// gives an empty guard: the content check alone then protects the write.
    pub fn acquire(dir: &Path) -> DirLock {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let file = std::fs::File::open(dir).ok().filter(|f| f.lock().is_ok());
        DirLock { _file: file }
    }
}

/// Renders a path relative to `root` with `/` separators, as labels store it; `None` when a
/// component is not valid UTF-8 (decoding it lossily could give two files the same name).
pub fn relative_slash_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.yaml");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.yaml")]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644);
        }
    }

    #[cfg(unix)]
    #[test]
    fn writing_through_a_symlink_writes_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/set.yaml");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("set.yaml");
        std::os::unix::fs::symlink("real/set.yaml", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let dangling = dir.path().join("later.yaml");
        std::os::unix::fs::symlink("real/later.yaml", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("real/later.yaml")).unwrap(),
            "made"
        );
    }
}
