//! `corpus` command line: list the corpus or export it (inflated) to a directory.
//!
//! ```text
//! cargo run -p corpus -- list
//! cargo run -p corpus -- export DIR [NAME...]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  corpus list                 print name, inflated size and source of every file
  corpus export DIR [NAME...] write every file (or the named ones), inflated, to DIR";

fn list() -> Result<(), corpus::CorpusError> {
    for name in corpus::all_names() {
        let bytes = corpus::load(name)?;
        let source = match corpus::shipped_from(name) {
            Ok((source, path)) => format!(
                "{}@{} {} ({})",
                source.package,
                source.version,
                source.path,
                path.display()
            ),
            Err(corpus::CorpusError::NotShared(_)) => "generated".to_owned(),
            Err(e) => return Err(e),
        };
        println!("{name}\t{}\t{source}", bytes.len());
    }
    Ok(())
}

fn export(dir: PathBuf, names: Vec<String>) -> Result<(), String> {
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let names: Vec<String> = if names.is_empty() {
        corpus::all_names().map(str::to_owned).collect()
    } else {
        names
    };
    for name in names {
        let bytes = corpus::load(&name).map_err(|e| e.to_string())?;
        let path = dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("{}\t{}", path.display(), bytes.len());
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let result = match args.next().as_deref() {
        Some("list") if args.len() == 0 => list().map_err(|e| e.to_string()),
        Some("export") => match args.next() {
            Some(dir) => export(PathBuf::from(dir), args.collect()),
            None => Err(USAGE.to_owned()),
        },
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
