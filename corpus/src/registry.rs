//! Finding shared corpus files in the cargo registry sources.
//!
//! Cargo unpacks every downloaded package to
//! `$CARGO_HOME/registry/src/<index-dir>/<package>-<version>/`. We look in
//! every `<index-dir>` (their names hash the index URL and differ between cargo
//! versions), and if the file is in none of them we run `cargo fetch` once for
//! the package list (`corpus/packages/Cargo.toml`) and look again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{CorpusError, CorpusFile, Source};

/// Set once `cargo fetch` has been attempted in this process (successfully or not).
static FETCHED: AtomicBool = AtomicBool::new(false);

fn cargo_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        if !home.is_empty() {
            return Some(PathBuf::from(home));
        }
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"))?;
    Some(PathBuf::from(home).join(".cargo"))
}

/// Every `registry/src/<index-dir>` directory, sorted for a stable search order.
fn registry_src_dirs() -> Vec<PathBuf> {
    let Some(home) = cargo_home() else {
        return Vec::new();
    };
    let root = home.join("registry").join("src");
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(&root) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect(),
        Err(_) => Vec::new(),
    };
    dirs.sort();
    if dirs.is_empty() {
        // Nothing unpacked yet: still report the conventional place in errors.
        dirs.push(root.join("index.crates.io-*"));
    }
    dirs
}

type Found = (&'static Source, PathBuf, Vec<u8>);

/// One pass over all sources (preferred first) and registry directories.
fn search(
    file: &'static CorpusFile,
    looked: &mut Vec<(&'static Source, PathBuf)>,
) -> Result<Option<Found>, CorpusError> {
    search_in(file, &registry_src_dirs(), looked)
}

/// [`search`] over the given `registry/src/<index-dir>` directories.
fn search_in(
    file: &'static CorpusFile,
    dirs: &[PathBuf],
    looked: &mut Vec<(&'static Source, PathBuf)>,
) -> Result<Option<Found>, CorpusError> {
    looked.clear();
    for source in file.sources {
        for dir in dirs {
            let path = dir
                .join(format!("{}-{}", source.package, source.version))
                .join(source.path);
            match std::fs::read(&path) {
                Ok(bytes) => return Ok(Some((source, path, bytes))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => looked.push((source, path)),
                Err(error) => {
                    return Err(CorpusError::Io {
                        file: file.name,
                        path,
                        error,
                    });
                }
            }
        }
    }
    Ok(None)
}

/// Runs `cargo fetch` for the package list and describes the outcome.
fn cargo_fetch() -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("packages/Cargo.toml");
    eprintln!(
        "corpus: shared corpus file missing, running `cargo fetch --manifest-path {}`",
        manifest.display()
    );
    match Command::new(&cargo)
        .arg("fetch")
        .arg("--manifest-path")
        .arg(&manifest)
        .status()
    {
        Ok(status) if status.success() => "it succeeded, but the file is still missing".into(),
        Ok(status) => format!("it failed ({status})"),
        Err(e) => format!("could not start {}: {e}", PathBuf::from(cargo).display()),
    }
}

/// Reads `file` as shipped from the first source that has it, fetching once if needed.
pub(crate) fn read(file: &'static CorpusFile) -> Result<Found, CorpusError> {
    let mut looked = Vec::new();
    if let Some(found) = search(file, &mut looked)? {
        return Ok(found);
    }
    let mut fetch = None;
    if !FETCHED.swap(true, Ordering::SeqCst) {
        let outcome = cargo_fetch();
        if let Some(found) = search(file, &mut looked)? {
            return Ok(found);
        }
        fetch = Some(outcome);
    }
    Err(CorpusError::Missing {
        file: file.name,
        looked,
        fetch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Compression, SHARED};

    /// A scratch `registry/src` with one index directory, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(tag: &str) -> Self {
            let root = std::env::temp_dir()
                .join(format!("corpus-registry-test-{}-{tag}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(root.join("index.example-0000")).unwrap();
            Scratch(root)
        }

        fn dirs(&self) -> Vec<PathBuf> {
            vec![self.0.join("index.example-0000")]
        }

        fn put(&self, source: &Source, bytes: &[u8]) {
            let path = self.dirs()[0]
                .join(format!("{}-{}", source.package, source.version))
                .join(source.path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn falls_back_to_later_sources_in_order() {
        let file = &SHARED[1]; // bigtest.nbt: azalea, hematite (big1.nbt), quartz, simdnbt
        assert_eq!(file.compressed, Compression::Gzip);
        let scratch = Scratch::new("fallback");
        let mut looked = Vec::new();

        assert!(
            search_in(file, &scratch.dirs(), &mut looked)
                .unwrap()
                .is_none()
        );
        assert_eq!(looked.len(), file.sources.len());

        scratch.put(&file.sources[3], b"from simdnbt");
        scratch.put(&file.sources[1], b"from hematite");
        let (source, path, bytes) = search_in(file, &scratch.dirs(), &mut looked)
            .unwrap()
            .unwrap();
        assert_eq!(source.package, "hematite-nbt");
        assert!(path.ends_with("hematite-nbt-0.5.2/tests/big1.nbt"));
        assert_eq!(bytes, b"from hematite");
        assert_eq!(looked.len(), 1, "only azalea was looked at before");

        scratch.put(&file.sources[0], b"from azalea");
        let (source, _, _) = search_in(file, &scratch.dirs(), &mut looked)
            .unwrap()
            .unwrap();
        assert_eq!(
            source.package, "azalea-nbt",
            "the first listed package wins"
        );
    }
}
