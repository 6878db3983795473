//! `corpus` command line: list the corpus, export it to a directory, or lay
//! out a world folder from it.
//!
//! ```text
//! cargo run -p corpus -- list
//! cargo run -p corpus -- export [--inflate] DIR [NAME...]
//! cargo run -p corpus -- world DIR
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage:
  corpus list                           print name, inflated size and source of every file
  corpus export [--inflate] DIR [NAME...]
                                        write every file (or the named ones) to DIR as shipped
                                        (gzip stays gzip; --inflate: inflated); a region file is
                                        written under a name the game and `nbt` read, r.0.0.mca
  corpus world DIR                      a world folder, laid out as the game does:
                                        DIR/level.dat (gzip, 1.8), DIR/playerdata/player.dat
                                        (gzip), DIR/region/r.0.0.mca (1.19.4, 676 chunks)";

/// The region file of the corpus, under the name a world gives it (`r.X.Z.mca`:
/// region readers and `nbt` find region files by that pattern).
const REGION: (&str, &str) = ("1.19.4.mca", "r.0.0.mca");

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

fn export(dir: PathBuf, inflate: bool, names: Vec<String>) -> Result<(), String> {
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let names: Vec<String> = if names.is_empty() {
        corpus::all_names()
            .chain([REGION.0])
            .map(str::to_owned)
            .collect()
    } else {
        names
    };
    for name in names {
        let file_name = if name == REGION.0 { REGION.1 } else { &name };
        write(&dir.join(file_name), &name, inflate)?;
    }
    Ok(())
}

/// A world folder: the transcript's files, where the game keeps them.
fn world(dir: PathBuf) -> Result<(), String> {
    for (path, name) in [
        ("level.dat", "level.dat"),
        ("playerdata/player.dat", "complex_player.dat"),
        ("region/r.0.0.mca", REGION.0),
    ] {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        write(&path, name, false)?;
    }
    Ok(())
}

/// Writes corpus file `name` to `path`, as shipped (generated files, which
/// ship in no package, as generated) or inflated.
fn write(path: &Path, name: &str, inflate: bool) -> Result<(), String> {
    let bytes = match corpus::load_as_shipped(name) {
        Ok(shipped) if !inflate => shipped,
        Err(corpus::CorpusError::NotShared(_)) | Ok(_) => {
            corpus::load(name).map_err(|e| e.to_string())?
        }
        Err(e) => return Err(e.to_string()),
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("{}\t{}\t{name}", path.display(), bytes.len());
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let result = match args.next().as_deref() {
        Some("list") if args.len() == 0 => list().map_err(|e| e.to_string()),
        Some("export") => {
            let mut rest: Vec<String> = args.collect();
            let inflate = rest.first().is_some_and(|a| a == "--inflate");
            if inflate {
                rest.remove(0);
            }
            match rest.split_first() {
                Some((dir, names)) => export(PathBuf::from(dir), inflate, names.to_vec()),
                None => Err(USAGE.to_owned()),
            }
        }
        Some("world") => match (args.next(), args.next()) {
            (Some(dir), None) => world(PathBuf::from(dir)),
            _ => Err(USAGE.to_owned()),
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
