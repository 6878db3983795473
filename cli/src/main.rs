//! `nbt`: look into, query, edit, convert, check and diff NBT files from the
//! command line. A thin layer over the `simdnbt` library; `nbt --help` and
//! its manual, `cli/README.md`, show every command.

#[cfg(feature = "mimalloc")]
mod alloc;
mod batches;
mod check;
mod convert;
mod diff;
mod export;
mod failure;
mod input;
mod locate;
mod lock;
mod many;
mod output;
mod prune;
mod query;
mod recompress;
mod report;
mod show;
mod sql;
mod store;
mod template;
mod walk;

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
  nbt get level.dat Data.LevelName        one value (an NBT path)
  nbt get player.dat 'Inventory[{Slot:0b}].id' --raw
  nbt set level.dat Data.allowCommands 1b edit in place, same compression
  nbt rm player.dat 'Inventory[{Slot:0b}]' remove matching values
  nbt show world/region/r.0.0.mca         the chunk table of a region file
  nbt show r.0.0.mca --chunk 3,7          one chunk
  nbt convert level.dat --to json         JSON on stdout
  nbt convert item.snbt --to gzip -o item.dat
  nbt check world/                        every NBT and region file in a world
  nbt find world/ '..CustomName'          every match in every file and chunk
  nbt set world/ DataVersion 3700 --dry-run   what a world-wide edit would change
  nbt replace world/ '..id' minecraft:stone minecraft:granite
  nbt diff old/level.dat new/level.dat    differences by path
  nbt sql world/ 'SELECT id, count(*) FROM entities GROUP BY id'
  nbt export world/ --table chunks --to parquet -o chunks/
  nbt prune world/ --where 'inhabited_time < 1200' --dry-run

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
  nbt show level.dat Data.Player.Inventory
  nbt show world/playerdata                every file, each under `# FILE`
  gzip -dc level.dat | nbt show -")]
    Show {
        /// The file or folder (`-`: stdin)
        file: Place,
        /// Show only the values at this NBT path
        path: Option<String>,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Print the values at an NBT path, one per line
    #[command(after_help = "\
Examples:
  nbt get level.dat Data.LevelName                 \"New World\"
  nbt get level.dat Data.LevelName --raw           New World
  nbt get player.dat 'Inventory[].id' --json
  nbt get r.0.0.mca Status                         every chunk: FILE chunk (X, Z)<TAB>value
  nbt get r.0.0.mca Status --chunk 3,7
  nbt get world/ DataVersion                       every file and chunk of a world

Paths are Minecraft's NBT paths: a.b, list[0], list[-1], list[], list[{id:\"x\"}],
\"quoted key\", a{filter:1b}. Exit status 1 when nothing matches.")]
    Get {
        /// The file (`-`: stdin)
        file: Place,
        /// An NBT path
        path: String,
        /// Strings without quotes
        #[arg(long, conflicts_with = "json")]
        raw: bool,
        /// Values as JSON
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Set the values at an NBT path (edits the file in place)
    #[command(after_help = "\
Examples:
  nbt set level.dat Data.LevelName '\"Renamed\"'
  nbt set level.dat Data.GameRules.doDaylightCycle '\"false\"'
  nbt set player.dat 'Inventory[].Count' 64b
  nbt set r.0.0.mca Status '\"full\"' --chunk 3,7
  nbt set world/ DataVersion 3700 --backup    every file and chunk of a world

VALUE is SNBT (1b, 2.5f, \"text\", [1, 2], {a: 1}). A missing last key is
created. The file keeps its compression (and Bedrock form, and region
chunk); it is written to a temporary file beside it, read back, and only
then renamed over the original (a symlink: the file it points to, and the
link stays). If the result would not read back, nothing is written. With
`-` the result goes to stdout.

A folder, or a region file without --chunk, is many documents: only the
documents where the path selects a value are changed (no key is created in
the others); each file that changes is written as above (in a region, only the changed chunks are
encoded again; the others keep their bytes); one line per changed file and
a summary on stderr; a file that fails is reported and the others go on
(exit status 2).")]
    Set {
        /// The file or folder (`-`: stdin, result on stdout)
        file: Place,
        /// An NBT path
        path: String,
        /// The new value, in SNBT
        #[arg(allow_hyphen_values = true)]
        value: String,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Remove the values at an NBT path (edits the file in place)
    #[command(after_help = "\
Examples:
  nbt rm player.dat 'Inventory[{Slot:0b}]'
  nbt rm level.dat Data.Player
  nbt rm r.0.0.mca 'block_entities[]' --chunk 3,7
  nbt rm r.0.0.mca --chunk 3,7                  the whole chunk
  nbt rm world/ '..Motion' --dry-run            every file and chunk of a world

Exit status 1, and the file untouched, when nothing matches. Folders and
region files without --chunk: as for `nbt set`.")]
    Rm {
        /// The file or folder (`-`: stdin, result on stdout)
        file: Place,
        /// An NBT path (none, with --chunk: remove the whole chunk)
        path: Option<String>,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Replace text in the string values at an NBT path (edits in place)
    #[command(after_help = "\
Examples:
  nbt replace level.dat Data.LevelName Old New
  nbt replace world/ '..id' minecraft:oak_sign minecraft:spruce_sign --dry-run
  nbt replace player.dat 'Inventory[].id' '^minecraft:(.*)_ore$' 'minecraft:deepslate_${1}_ore' --regex

Every occurrence of FROM in each string the path selects becomes TO; other
values are left alone. With --regex, FROM is a regular expression (the regex
crate's syntax) and TO may use its groups: $1 (every digit after the `$`:
`$1_axe` is group 1, then `_axe`), ${1}, ${name}; `$$` is a `$`. A reference
to a group FROM does not have, or any other `$`, is refused before anything
is read. --dry-run shows each change, PATH: OLD -> NEW. Files are written as
by `nbt set`, and folders and region files are many documents in the same way.")]
    Replace {
        /// The file or folder (`-`: stdin, result on stdout)
        file: Place,
        /// An NBT path
        path: String,
        /// The text to find (with --regex, a regular expression)
        #[arg(allow_hyphen_values = true, value_name = "FROM")]
        old: String,
        /// What to put in its place
        #[arg(allow_hyphen_values = true, value_name = "TO")]
        new: String,
        /// FROM is a regular expression
        #[arg(long)]
        regex: bool,
        #[command(flatten)]
        input: InputOpts,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Find the values at an NBT path in files, folders and region files
    #[command(after_help = "\
Examples:
  nbt find world/ DataVersion                  every file and chunk
  nbt find world/ '..CustomName' --json        one JSON object per line
  nbt find world/region/r.0.0.mca 'block_entities[{id:\"minecraft:chest\"}]' --count
  nbt find player.dat 'Inventory[].id'

One line per match on stdout: FILE[ chunk (X, Z)] CONCRETE-PATH = VALUE,
in folder order; a summary on stderr (files, chunks, matches, failed, MB/s);
a progress bar when stderr is a terminal. Exit status: 0 some match, 1 none,
2 a file or chunk could not be read (the others are still searched).")]
    Find {
        /// The file or folder (`-`: stdin)
        file: Place,
        /// An NBT path
        path: String,
        /// Only the number of matches
        #[arg(long, conflicts_with = "json")]
        count: bool,
        /// One JSON object per match: file, chunk ([x, z] or null), path, value
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Convert between binary NBT, compressed NBT, SNBT and JSON
    #[command(after_help = "\
Examples:
  nbt convert level.dat --to snbt -o level.snbt
  nbt convert level.snbt --to gzip -o level.dat
  nbt convert data.json --to nbt -o data.nbt
  nbt convert --le bedrock/level.dat --to snbt
  nbt convert level.snbt --to nbt-le -o level.nbt
  cat level.dat | nbt convert - --to json --compact
  nbt convert r.0.0.mca --to snbt              every chunk, each under `# r.0.0.mca chunk (X, Z)`
  nbt convert r.0.0.mca --to gzip -o chunks/   one file per chunk: chunks/chunk.X.Z.nbt
  nbt convert level.dat --to json --typed -o level.json
  nbt convert level.json --to gzip -o level.dat
  nbt convert world/ --region-compression lz4  every chunk of every region file, in place
  nbt convert r.0.0.mca --region-compression zlib --chunk 3,4 --level 9

`--region-compression` stores chunks again in another compression, in place:
the NBT bytes unchanged (checked before each file is replaced through a
temporary file), timestamps kept, chunks already in it untouched.

SNBT and JSON hold the root compound only, not the root's name (usually
empty; `Level` in the classic bigtest.nbt): when a name is dropped, a notice
on stderr says so and how to restore it, `--root-name NAME` when converting
back to binary:
  nbt convert bigtest.nbt --to snbt -o bigtest.snbt     notice: \"Level\" not kept
  nbt convert bigtest.snbt --to nbt --root-name Level -o bigtest.nbt
JSON does not keep NBT's number types: integers read back as Int or Long,
decimals as Double. `--typed` JSON keeps everything (types, order, float bits,
the root's name; the shape is in simdnbt's docs/format.md), and `.json` input
in that shape reads back exactly.")]
    Convert {
        /// The file (`-`: stdin)
        file: Place,
        /// Output format
        #[arg(long, value_enum, required_unless_present = "region_compression")]
        to: Option<convert::OutputFormat>,
        /// Store every chunk of the region files (a file, or a world folder)
        /// again in this compression, in place
        #[arg(long, value_enum, value_name = "KIND",
              conflicts_with_all = ["to", "output", "compact", "typed", "root_name"])]
        region_compression: Option<recompress::RegionCompression>,
        #[command(flatten)]
        rewrite: RecompressArgs,
        /// Output file (`-` or none: stdout)
        #[arg(short, long, default_value = "-")]
        output: Place,
        /// SNBT or JSON on one line
        #[arg(long)]
        compact: bool,
        /// With `--to json`: typed JSON, which keeps every NBT type and reads
        /// back exactly
        #[arg(long)]
        typed: bool,
        /// Name the root of binary output NAME (default: the input's root
        /// name; SNBT and JSON input have none, so the empty name)
        #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
        root_name: Option<String>,
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
        /// .schem, .schematic, .litematic, .snbt, .mca and .mcr files)
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// NBT files are little-endian (Bedrock Edition), level.dat header recognised
        #[arg(long, visible_alias = "bedrock")]
        le: bool,
        /// NBT files are Bedrock's network form (VarInts, as in packets)
        #[arg(long, visible_alias = "network", conflicts_with = "le")]
        varint: bool,
    },
    /// Show the differences between two documents, by path
    #[command(after_help = "\
Examples:
  nbt diff level.dat level.dat_old
  nbt diff a.mca b.mca --chunk 0,0
  nbt diff a.mca b.mca                  every chunk
  nbt diff backup/world world           every file (by its path in the folder)

Lines: `- PATH: VALUE` only in A, `+ PATH: VALUE` only in B,
`~ PATH: OLD -> NEW` changed (with the types when they differ).
Lists are compared index by index. Two region files are compared chunk by
chunk, two folders file by file: each line then starts with where it is
(`r.0.0.mca chunk (3, 0): ~ Status: ...`), and a chunk or file on one side
only is `- WHERE` or `+ WHERE`. Exit status: 0 equal, 1 different, 2 a file
or chunk could not be read.")]
    Diff {
        /// The first file (`-`: stdin)
        a: Place,
        /// The second file
        b: Place,
        #[command(flatten)]
        input: InputOpts,
    },
    /// Query a world with SQL: its chunks, entities, block entities, items,
    /// players and blocks as tables
    Sql(sql::SqlArgs),
    /// Write a table of a world as a Parquet, CSV or NDJSON dataset
    Export(export::ExportArgs),
    /// Remove the chunks whose `chunks` row matches an SQL condition
    Prune(prune::PruneArgs),
}

/// How `convert --region-compression` writes.
#[derive(clap::Args, Clone, Copy, Debug)]
struct RecompressArgs {
    /// With --region-compression: check everything, and write nothing
    #[arg(long, requires = "region_compression")]
    dry_run: bool,
    /// With --region-compression: keep each original region file as FILE.bak
    #[arg(long, requires = "region_compression")]
    backup: bool,
    /// With --region-compression zlib or gzip: the level, 0 (stored) to 9
    #[arg(long, value_name = "N", requires = "region_compression",
          value_parser = clap::value_parser!(u32).range(0..=9))]
    level: Option<u32>,
}

impl From<RecompressArgs> for store::WriteOpts {
    fn from(w: RecompressArgs) -> Self {
        store::WriteOpts {
            dry_run: w.dry_run,
            backup: w.backup,
            level: w.level.unwrap_or(store::DEFAULT_LEVEL),
            wait: false,
        }
    }
}

/// How an editing command writes: the options `set`, `rm` and `replace` take.
#[derive(clap::Args, Clone, Copy, Debug)]
struct WriteArgs {
    /// Say what would change, and write nothing
    #[arg(long)]
    dry_run: bool,
    /// Keep each original beside it as FILE.bak (a file whose FILE.bak
    /// exists is refused and left as it is)
    #[arg(long)]
    backup: bool,
    /// zlib/gzip level of what is compressed again, 0 (stored) to 9
    /// (smallest); chunks and documents left unchanged keep their bytes
    #[arg(long, value_name = "N", default_value_t = store::DEFAULT_LEVEL,
          value_parser = clap::value_parser!(u32).range(0..=9))]
    level: u32,
    /// When another `nbt` run is writing the same world or file, wait for
    /// it to finish (without: refuse at once, changing nothing)
    #[arg(long)]
    wait: bool,
}

impl WriteArgs {
    /// The lock a writing run holds on the world `file` is in (see
    /// `lock.rs`); none for a dry run, which writes nothing.
    fn lock_world(&self, file: &input::Place) -> Result<Option<lock::Held>> {
        match self.dry_run {
            true => Ok(None),
            false => lock::world(file, self.wait),
        }
    }
}

impl From<WriteArgs> for store::WriteOpts {
    fn from(w: WriteArgs) -> Self {
        store::WriteOpts {
            dry_run: w.dry_run,
            backup: w.backup,
            level: w.level,
            wait: w.wait,
        }
    }
}

/// The name `show` prints for a chunk's compression (`id`: the stored byte,
/// for one the library cannot decode).
pub fn chunk_compression_name(c: Option<ChunkCompression>, id: u8) -> String {
    match c {
        Some(ChunkCompression::Gzip) => "gzip".into(),
        Some(ChunkCompression::Zlib) => "zlib".into(),
        Some(ChunkCompression::Uncompressed) => "none".into(),
        Some(ChunkCompression::Lz4) => "lz4".into(),
        None if id == 127 => "custom (127)".into(),
        None => format!("unknown ({id})"),
    }
}

fn run(cli: Cli) -> Result<u8> {
    let layout = if cli.color.enabled() {
        output::Layout::Colored
    } else {
        output::Layout::Pretty
    };
    match cli.command {
        Command::Show { file, path, input } => {
            if let Place::File(dir) = &file
                && dir.is_dir()
            {
                return show::folder(dir, path.as_deref(), &input, layout);
            }
            let text = match (input::open(&file, &input)?, path) {
                (Opened::Region(_), Some(_)) => {
                    return Err(Failure::new(format!(
                        "{file} is a region file: say which chunk with --chunk X,Z \
                         (or use `nbt get` for every chunk)"
                    )));
                }
                (Opened::Region(region), None) => show::chunk_table(&region),
                (Opened::Document(doc), None) => output::document_snbt(doc.doc.as_ref(), layout)?,
                (Opened::Document(doc), Some(path)) => query::show(doc.doc.as_ref(), &path, layout)
                    .map_err(|f| Failure {
                        message: format!("{file}: {}", f.message),
                        ..f
                    })?,
            };
            output::write_stdout(text.as_bytes())?;
            Ok(0)
        }
        Command::Get {
            file,
            path,
            raw,
            json,
            input,
        } => {
            let style = match (raw, json) {
                (_, true) => query::ValueStyle::Json,
                (true, _) => query::ValueStyle::Raw,
                _ => query::ValueStyle::Snbt,
            };
            query::get(&file, &input, &path, style)
        }
        Command::Set {
            file,
            path,
            value,
            input,
            write,
        } => {
            let path = query::parse_path(&path)?;
            let value = simdnbt::snbt::from_str(&value)
                .map_err(|e| Failure::new(format!("invalid SNBT value `{value}`: {e}")))?;
            store::storable(&value)?;
            let _world = write.lock_world(&file)?;
            let strict = !many::is_many(&file, &input);
            let edit = |doc: &mut _| query::set_edit(&path, &value, doc, strict);
            query::edit(&file, &input, &path, &edit, "set", write.into())
        }
        Command::Rm {
            file,
            path: None,
            input,
            write,
        } => {
            let _world = write.lock_world(&file)?;
            query::rm_chunk(&file, &input, write.into())
        }
        Command::Rm {
            file,
            path: Some(path),
            input,
            write,
        } => {
            let path = query::parse_path(&path)?;
            let _world = write.lock_world(&file)?;
            let edit = |doc: &mut _| query::rm_edit(&path, doc);
            query::edit(&file, &input, &path, &edit, "removed", write.into())
        }
        Command::Replace {
            file,
            path,
            old,
            new,
            regex,
            input,
            write,
        } => {
            let path = query::parse_path(&path)?;
            let pattern = query::Pattern::new(&old, &new, regex)?;
            let _world = write.lock_world(&file)?;
            let edit = |doc: &mut _| query::replace_edit(&path, &pattern, write.dry_run, doc);
            query::edit(&file, &input, &path, &edit, "replaced", write.into())
        }
        Command::Find {
            file,
            path,
            count,
            json,
            input,
        } => {
            let style = match (count, json) {
                (true, _) => query::FindStyle::Count,
                (_, true) => query::FindStyle::Json,
                _ => query::FindStyle::Lines,
            };
            query::find(&file, &input, &path, style)
        }
        Command::Convert {
            file,
            to,
            output,
            compact,
            typed,
            root_name,
            input,
            region_compression,
            rewrite,
        } => {
            if let Some(kind) = region_compression {
                return recompress::run(&file, kind, input.chunk, rewrite.into());
            }
            let to = to.ok_or_else(|| Failure::new("--to or --region-compression is needed"))?;
            if input.chunk.is_none() && input.format(&file) == input::InputFormat::Region {
                return convert::region(&file, to, compact, typed, &output);
            }
            let mut doc = input::open_document(&file, &input)?;
            convert::name_root(&mut doc, to, root_name)?;
            let bytes = match typed {
                true => convert::typed_json(&doc, to, compact)?,
                false => convert::convert(&doc, to, compact)?,
            };
            output::write_to(&output, &bytes, to.is_binary())?;
            if typed {
                return Ok(0);
            }
            if let Some(notice) = convert::dropped_name_notice(&doc, to) {
                eprintln!("nbt: {file}: {notice}");
            }
            Ok(0)
        }
        Command::Check { paths, le, varint } => Ok(check::run(&paths, input::encoding(le, varint))),
        Command::Diff { a, b, input } => {
            let whole_region =
                |p: &Place| input.chunk.is_none() && input.format(p) == input::InputFormat::Region;
            match (&a, &b) {
                (Place::File(pa), Place::File(pb)) if pa.is_dir() && pb.is_dir() => {
                    many::diff::report(many::diff::folders(pa, pb, &input))
                }
                (Place::File(pa), Place::File(pb)) if whole_region(&a) && whole_region(&b) => {
                    many::diff::report(many::diff::regions(pa, pb, ""))
                }
                _ => {
                    let da = input::open_document(&a, &input)?;
                    let db = input::open_document(&b, &input)?;
                    many::diff::report(many::diff::Differences {
                        lines: many::diff::documents(da.doc.as_ref(), db.doc.as_ref(), ""),
                        failures: Vec::new(),
                    })
                }
            }
        }
        Command::Sql(args) => sql::run(args),
        Command::Export(args) => export::run(args),
        Command::Prune(args) => prune::run(args),
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
