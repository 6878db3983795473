//! The files a command runs over: the arguments, and the NBT, SNBT and region
//! files found in the folders among them. One walker for every command.

use std::path::{Path, PathBuf};

/// File extensions taken as binary NBT when a folder is searched (lower case).
const NBT_EXTENSIONS: &[&str] = &["dat", "dat_old", "nbt", "schem", "schematic", "litematic"];

/// File extensions taken as SNBT text when a folder is searched.
const SNBT_EXTENSIONS: &[&str] = &["snbt"];

/// Region-file extensions.
const REGION_EXTENSIONS: &[&str] = &["mca", "mcr"];

/// A file's extension, lower-cased.
pub fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Whether `path` is named as a region file (`.mca`, `.mcr`).
pub fn is_region(path: &Path) -> bool {
    extension(path).is_some_and(|e| REGION_EXTENSIONS.contains(&e.as_str()))
}

/// Whether `path` is named as SNBT text (`.snbt`).
pub fn is_snbt(path: &Path) -> bool {
    extension(path).is_some_and(|e| SNBT_EXTENSIONS.contains(&e.as_str()))
}

/// What to run over: region files and document files (binary NBT or SNBT),
/// from the arguments and the folders among them, each list in walk order.
#[derive(Default, Debug)]
pub struct Inputs {
    /// Region files.
    pub regions: Vec<PathBuf>,
    /// Every other file: binary NBT, or SNBT by extension.
    pub documents: Vec<PathBuf>,
    /// Arguments or folder entries that could not be read, as messages.
    pub unreadable: Vec<String>,
}

impl Inputs {
    fn add(&mut self, path: PathBuf) {
        if is_region(&path) {
            self.regions.push(path);
        } else {
            self.documents.push(path);
        }
    }

    /// Files named on the command line are taken whatever their name; in
    /// folders (walked with an explicit stack, in name order) only NBT, SNBT
    /// and region extensions. Symlinks inside folders are not followed, so a
    /// link loop cannot trap the walk; sockets, pipes and devices are skipped.
    pub fn collect(args: &[PathBuf]) -> Self {
        let mut inputs = Inputs::default();
        for arg in args {
            match std::fs::metadata(arg) {
                Ok(meta) if meta.is_dir() => inputs.walk(arg),
                Ok(_) => inputs.add(arg.clone()),
                Err(e) => inputs
                    .unreadable
                    .push(format!("{}: cannot read: {e}", arg.display())),
            }
        }
        inputs
    }

    fn walk(&mut self, root: &Path) {
        let mut dirs = vec![root.to_owned()];
        while let Some(dir) = dirs.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) => {
                    self.unreadable
                        .push(format!("{}: cannot read folder: {e}", dir.display()));
                    continue;
                }
            };
            let mut found: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            found.sort();
            let mut subdirs = Vec::new();
            for path in found {
                let Ok(meta) = std::fs::symlink_metadata(&path) else {
                    continue;
                };
                if meta.is_dir() {
                    subdirs.push(path);
                } else if meta.is_file() {
                    let known = extension(&path).is_some_and(|e| {
                        NBT_EXTENSIONS.contains(&e.as_str())
                            || SNBT_EXTENSIONS.contains(&e.as_str())
                            || REGION_EXTENSIONS.contains(&e.as_str())
                    });
                    if known {
                        self.add(path);
                    }
                }
            }
            // Reversed, so that popping the stack visits folders in name order.
            dirs.extend(subdirs.into_iter().rev());
        }
    }

    /// The total size of every file, the unit of the progress bar.
    pub fn total_bytes(&self) -> u64 {
        self.regions
            .iter()
            .chain(&self.documents)
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }
}
