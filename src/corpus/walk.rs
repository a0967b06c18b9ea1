//! Listing the files of a corpus: gitignore-aware, hidden files left out, sorted by label path.
//!
//! The corpus is a boundary. Symlinks are followed only while they stay inside the corpus root
//! (compared after resolving every link): a link to `/etc/passwd` or to a folder elsewhere is
//! skipped with a warning naming it, unless the user asks for `follow_outside_links`. Files
//! whose names are not UTF-8, and special files (FIFOs, devices, sockets), are skipped too.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::read::read_document;
use super::{DocKind, Document, SkipReason, Skipped, WalkOptions};
use crate::fsutil::relative_slash_path;
use crate::{Error, Result};

/// The list of candidate files of a corpus, sorted, not yet read.
#[derive(Debug)]
pub struct Walk {
    root: PathBuf,
    files: Vec<PathBuf>,
    walk_skips: Vec<Skipped>,
    options: WalkOptions,
}

impl Walk {
    /// Lists the documents under `root` (a directory, or a single file). Hidden files and paths
    /// matched by `.gitignore`, `.ignore` or `.ragsynthignore` files are left out, also outside a
    /// git repository.
    pub fn new(root: &Path, options: WalkOptions) -> Result<Walk> {
        let meta = std::fs::metadata(root).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::CorpusMissing {
                root: root.to_path_buf(),
                from_set: false,
            },
            _ => Error::io(root, e),
        })?;
        let mut files = Vec::new();
        let skips = Arc::new(Mutex::new(Vec::new()));
        if meta.is_file() {
            files.push(root.to_path_buf());
        } else {
            let inside = root.canonicalize().map_err(|e| Error::io(root, e))?;
            let follow_outside = options.follow_outside_links;
            let filter_skips = Arc::clone(&skips);
            let walker = ignore::WalkBuilder::new(root)
                .follow_links(true)
                .require_git(false)
                .add_custom_ignore_filename(".ragsynthignore")
                .sort_by_file_path(|a, b| a.cmp(b))
                .filter_entry(move |e| match admit(e, &inside, follow_outside) {
                    Ok(()) => true,
                    Err(skip) => {
                        if let Some(s) = skip {
                            lock(&filter_skips).push(s);
                        }
                        false
                    }
                })
                .build();
            for entry in walker {
                match entry {
                    Ok(e) => {
                        let Some(kind) = e.file_type() else { continue };
                        if DocKind::from_path(e.path()).is_none() || kind.is_dir() {
                            continue;
                        }
                        if kind.is_file() {
                            files.push(e.into_path());
                        } else {
                            lock(&skips).push(Skipped {
                                path: e.into_path(),
                                reason: SkipReason::NotRegular,
                            });
                        }
                    }
                    Err(err) => lock(&skips).push(skip_from_walk_error(root, err)),
                }
            }
        }
        // Sort by the label path so ids and fingerprints do not depend on the platform's order.
        let base = walk_base(root, meta.is_file());
        files.sort_by_cached_key(|p| relative_slash_path(&base, p).unwrap_or_default());
        let walk_skips = std::mem::take(&mut *lock(&skips));
        Ok(Walk {
            root: root.to_path_buf(),
            files,
            walk_skips,
            options,
        })
    }

    /// Candidate files found.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Files the walker itself left out (links leaving the corpus, symlink loops, unreadable
    /// directories, names that are not UTF-8, special files).
    pub fn walk_skips(&self) -> &[Skipped] {
        &self.walk_skips
    }

    /// Reads the documents one at a time, in path order.
    pub fn documents(&self) -> impl Iterator<Item = Result<Document, Skipped>> + '_ {
        let base = walk_base(&self.root, self.root.is_file());
        self.files
            .iter()
            .map(move |p| read_document(&base, p, &self.options))
    }
}

fn lock(skips: &Mutex<Vec<Skipped>>) -> std::sync::MutexGuard<'_, Vec<Skipped>> {
    skips.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether the walk may enter or list `e`: `Err(Some(skip))` to leave it out with a warning,
/// `Err(None)` to leave it out silently (not a document anyway).
fn admit(e: &ignore::DirEntry, inside: &Path, follow_outside: bool) -> Result<(), Option<Skipped>> {
    let is_dir = e.file_type().is_some_and(|t| t.is_dir());
    let matters = is_dir || DocKind::from_path(e.path()).is_some();
    let skip = |reason| {
        Err(matters.then(|| Skipped {
            path: e.path().to_path_buf(),
            reason,
        }))
    };
    if e.depth() > 0 && e.file_name().to_str().is_none() {
        return skip(SkipReason::NonUtf8Name);
    }
    if e.path_is_symlink() && !follow_outside {
        // A dangling link is left to the walker, which reports it.
        if let Ok(target) = e.path().canonicalize()
            && !target.starts_with(inside)
        {
            return skip(SkipReason::OutsideCorpus(target));
        }
    }
    Ok(())
}

fn walk_base(root: &Path, is_file: bool) -> PathBuf {
    if is_file {
        root.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        root.to_path_buf()
    }
}

fn skip_from_walk_error(root: &Path, err: ignore::Error) -> Skipped {
    fn find(err: &ignore::Error) -> Option<(PathBuf, SkipReason)> {
        match err {
            ignore::Error::Loop { child, .. } => Some((child.clone(), SkipReason::SymlinkLoop)),
            ignore::Error::WithPath { path, err } => {
                let reason = find(err)
                    .map(|(_, r)| r)
                    .unwrap_or_else(|| SkipReason::Walk(err.to_string()));
                Some((path.clone(), reason))
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => find(err),
            ignore::Error::Partial(errs) => errs.first().and_then(find),
            _ => None,
        }
    }
    match find(&err) {
        Some((path, reason)) => Skipped { path, reason },
        None => Skipped {
            path: root.to_path_buf(),
            reason: SkipReason::Walk(err.to_string()),
        },
    }
}
