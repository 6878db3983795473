//! Advisory locks, so that two writing runs never lose an update: each reads
//! a file, edits it and renames the result over it, so the second to rename
//! would silently drop the first one's edit.
//!
//! A writing run inside a world (a folder with a `level.dat`, or anything
//! below one) holds the world's `session.lock` for the whole run, as the game
//! does (a world without one, a copy, gets none made: nothing is added to a
//! world); every file it edits is locked too, from before it is read until
//! it is replaced, which alone keeps runs from losing updates, inside worlds
//! and out. A lock another
//! run holds is an error at once, or, with `--wait`, waited for. The locks
//! are `flock`-style (the `fs4` crate): they keep `nbt` runs apart, not
//! other programs that do not take them.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::failure::{Failure, Result};
use crate::input::Place;

/// A lock held until dropped.
#[derive(Debug)]
pub struct Held {
    _file: File,
}

/// The world `path` is in: the nearest folder at or above it with a
/// `level.dat`.
fn world_of(path: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(path).ok()?;
    let mut dir = if start.is_dir() {
        Some(start.as_path())
    } else {
        start.parent()
    };
    while let Some(d) = dir {
        if d.join("level.dat").is_file() {
            return Some(d.to_owned());
        }
        dir = d.parent();
    }
    None
}

/// Locks the world `place` is in (its `session.lock`) for a writing run;
/// `None` for stdin, a place in no world, and a world without the file.
pub fn world(place: &Place, wait: bool) -> Result<Option<Held>> {
    let Place::File(path) = place else {
        return Ok(None);
    };
    let Some(world) = world_of(path) else {
        return Ok(None);
    };
    let lock = world.join("session.lock");
    if !lock.is_file() {
        return Ok(None);
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&lock)
        .map_err(|e| Failure::new(format!("cannot open {}: {e}", lock.display())))?;
    take(
        &file,
        &lock,
        wait,
        "the world is being edited by another `nbt` run",
    )?;
    Ok(Some(Held { _file: file }))
}

/// Locks the file at `path` (the file a symlink points to) from before it
/// is read until it is replaced.
pub fn file(path: &Path, wait: bool) -> Result<Held> {
    // Said as reading it would say it: the lock is taken where it is read.
    let unreadable =
        |e: std::io::Error| Failure::new(format!("cannot read {}: {e}", path.display()));
    let target = std::fs::canonicalize(path).map_err(unreadable)?;
    loop {
        let file = File::open(&target).map_err(unreadable)?;
        take(
            &file,
            &target,
            wait,
            "it is being edited by another `nbt` run",
        )?;
        // Edits replace the file: a lock waited for may be on the file that
        // was there before. Then the new one is locked.
        if same_file(&file, &target) {
            return Ok(Held { _file: file });
        }
    }
}

fn take(file: &File, path: &Path, wait: bool, why: &str) -> Result<()> {
    let failed = |e: std::io::Error| Failure::new(format!("cannot lock {}: {e}", path.display()));
    match fs4::FileExt::try_lock(file) {
        Ok(()) => Ok(()),
        Err(fs4::TryLockError::WouldBlock) if wait => fs4::FileExt::lock(file).map_err(failed),
        Err(fs4::TryLockError::WouldBlock) => Err(Failure::new(format!(
            "{} is locked: {why}; nothing was changed (try again when it is done, or pass \
             --wait to wait for it)",
            path.display()
        ))),
        Err(fs4::TryLockError::Error(e)) => Err(failed(e)),
    }
}

/// Whether `file` is the file at `path` now.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Without inode numbers in stable std, a lock is taken to be on the file
/// at the path (a run that waited may hold a replaced file's lock).
#[cfg(not(unix))]
fn same_file(_: &File, _: &Path) -> bool {
    true
}
