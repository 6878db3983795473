//! `nbt`: look into, query, edit, convert, check and diff NBT files from the
//! command line. A thin layer over the `simdnbt` library; `nbt --help` and
//! the README's "The `nbt` tool" section show every command.

mod check;
mod convert;
mod diff;
mod failure;
mod input;
mod output;
mod show;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use simdnbt::region::ChunkCompression;

use failure::{Failure, Result};
use input::{InputOpts, Opened, Place};

const EXAMPLES: &str = "\
Examples:
  nbt show level.dat                      the whole file as pretty SNBT
  nbt show world/region/r.0.0.mca         the chunk table of a region file
  nbt show r.0.0.mca --chunk 3,7          one chunk
  nbt convert level.dat --to json         JSON on stdout
  nbt convert item.snbt --to gzip -o item.dat
  nbt check world/                        every NBT and region file in a world
  nbt diff old/level.dat new/level.dat    differences by path

Exit status: 0 success; 1 a negative answer (check found invalid files, get
matched nothing, diff found differences); 2 usage, input/output or data errors.";

/// Look into, query, edit, convert, check and diff NBT (Minecraft's Named
/// Binary Tag) files. gzip, zlib and uncompressed files are told apart
/// automatically; `-` reads stdin.
#[derive(Parser, Debug)]
#[command(name = "nbt", version, after_help = EXAMPLES)]
struct Cli {
    /// When to colour SNBT output
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Color {
    /// When stdout is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

impl Color {
    fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a file as pretty SNBT, or a region file's chunk table
    #[command(after_help = "\
Examples:
  nbt show player.dat
  nbt show r.0.0.mca                 chunk table: x, z, sector, sectors, compression, save time
  nbt show r.0.0.mca --chunk 3,7
  gzip -dc level.dat | nbt show -")]
    Show {
        /// The file (`-`: stdin)
        file: Place,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Convert between binary NBT, compressed NBT, SNBT and JSON
    #[command(after_help = "\
Examples:
  nbt convert level.dat --to snbt -o level.snbt
  nbt convert level.snbt --to gzip -o level.dat
  nbt convert data.json --to nbt -o data.nbt
  cat level.dat | nbt convert - --to json --compact

SNBT and JSON hold the root compound only: the root's name (usually empty)
is not kept. JSON does not keep NBT's number types: integers read back as
Int or Long, decimals as Double.")]
    Convert {
        /// The file (`-`: stdin)
        file: Place,
        /// Output format
        #[arg(long, value_enum)]
        to: convert::OutputFormat,
        /// Output file (`-` or none: stdout)
        #[arg(short, long, default_value = "-")]
        output: Place,
        /// SNBT or JSON on one line
        #[arg(long)]
        compact: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Validate NBT files, and every chunk of region files, in parallel
    #[command(after_help = "\
Examples:
  nbt check level.dat playerdata/*.dat
  nbt check ~/.minecraft/saves/World    every .dat/.nbt/.mca file below it

Prints one line per invalid file (its first problem, with the byte offset)
on stdout and a summary on stderr; a progress bar when stderr is a terminal.
Exit status: 0 all valid, 1 some invalid, 2 a file or folder could not be read.")]
    Check {
        /// Files and folders (folders are searched for .dat, .dat_old, .nbt,
        /// .schem, .schematic, .litematic, .mca and .mcr files)
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Show the differences between two documents, by path
    #[command(after_help = "\
Examples:
  nbt diff level.dat level.dat_old
  nbt diff a.mca b.mca --chunk 0,0

Lines: `- PATH: VALUE` only in A, `+ PATH: VALUE` only in B,
`~ PATH: OLD -> NEW` changed (with the types when they differ).
Lists are compared index by index. Exit status: 0 equal, 1 different.")]
    Diff {
        /// The first file (`-`: stdin)
        a: Place,
        /// The second file
        b: Place,
        #[command(flatten)]
        input: InputOpts,
    },
}

/// The name `show` prints for a chunk's compression.
pub fn chunk_compression_name(c: ChunkCompression) -> &'static str {
    match c {
        ChunkCompression::Gzip => "gzip",
        ChunkCompression::Zlib => "zlib",
        ChunkCompression::Uncompressed => "none",
        ChunkCompression::Lz4 => "lz4",
    }
}

fn run(cli: Cli) -> Result<u8> {
    let color = cli.color.enabled();
    match cli.command {
        Command::Show { file, input } => {
            match input::open(&file, &input)? {
                Opened::Region(region) => {
                    output::write_stdout(show::chunk_table(&region).as_bytes())?
                }
                Opened::Document(doc) => {
                    output::write_stdout(show::pretty(&*doc.nbt, color)?.as_bytes())?
                }
            }
            Ok(0)
        }
        Command::Convert {
            file,
            to,
            output,
            compact,
            input,
        } => {
            let doc = input::open_document(&file, &input)?;
            let bytes = convert::convert(&doc.nbt, to, compact)?;
            output::write_to(&output, &bytes, to.is_binary())?;
            Ok(0)
        }
        Command::Check { paths } => Ok(check::run(&paths)),
        Command::Diff { a, b, input } => {
            let da = input::open_document(&a, &input)?;
            let db = input::open_document(&b, &input)?;
            let mut lines = Vec::new();
            if da.nbt.name() != db.nbt.name() {
                lines.push(format!(
                    "~ (root name): {:?} -> {:?}",
                    da.nbt.name().to_str(),
                    db.nbt.name().to_str()
                ));
            }
            lines.extend(diff::diff(&da.nbt, &db.nbt));
            let mut text = lines.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            output::write_stdout(text.as_bytes())?;
            Ok(if lines.is_empty() { 0 } else { failure::NO })
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not errors; clap knows which is which.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { failure::TROUBLE } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Failure { message, code }) => {
            eprintln!("nbt: {message}");
            ExitCode::from(code)
        }
    }
}
