//! Reading a document from a file or stdin in any form the tool knows (NBT,
//! gzip or zlib NBT, Bedrock's little-endian and network forms, SNBT, JSON, a
//! region-file chunk) into the library's document model, which every command
//! reads and edits, keeping what `store` needs to write it back in that form.
//! What cannot be read is refused with where it is broken.

use std::fmt;
use std::io::{Cursor, Read};
use std::path::PathBuf;
use std::str::FromStr;

use clap::{Args, ValueEnum};
use simdnbt::Encoding;
use simdnbt::bedrock::LevelHeader;
use simdnbt::compression::{Compression, Decompressed};
use simdnbt::document::Document;
use simdnbt::owned::BaseNbt;
use simdnbt::region::{ChunkCompression, Region, RegionError};

use crate::failure::{Failure, Result};

/// Where input comes from or output goes: a file, or `-` for stdin/stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// stdin or stdout.
    Std,
    /// A file.
    File(PathBuf),
}

impl FromStr for Place {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Ok(if s == "-" {
            Place::Std
        } else {
            Place::File(PathBuf::from(s))
        })
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Std => f.write_str("<stdin>"),
            Place::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Place {
    /// The file's extension, lower-cased (none for stdin).
    fn extension(&self) -> Option<String> {
        match self {
            Place::Std => None,
            Place::File(path) => path
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase),
        }
    }

    /// Every byte of the input.
    pub fn read_all(&self) -> Result<Vec<u8>> {
        match self {
            Place::Std => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut bytes)
                    .map_err(|e| Failure::new(format!("cannot read stdin: {e}")))?;
                Ok(bytes)
            }
            Place::File(path) => std::fs::read(path)
                .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display()))),
        }
    }
}

/// The input formats `--from` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Binary NBT, raw, gzip or zlib (detected).
    Nbt,
    /// SNBT text.
    Snbt,
    /// JSON (numbers become Int/Long/Double, as JSON has no NBT types).
    Json,
    /// A Minecraft region file (`.mca`, `.mcr`).
    Region,
}

/// A chunk's position in a region file, as `X,Z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkPos {
    /// Column (only the low five bits count).
    pub x: i32,
    /// Row (only the low five bits count).
    pub z: i32,
}

impl FromStr for ChunkPos {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let bad = || format!("`{s}` is not a chunk position X,Z (two integers, e.g. 3,-7)");
        let (x, z) = s.split_once(',').ok_or_else(bad)?;
        Ok(ChunkPos {
            x: x.trim().parse().map_err(|_| bad())?,
            z: z.trim().parse().map_err(|_| bad())?,
        })
    }
}

/// How to read the input: the options every command that reads a document takes.
#[derive(Args, Clone, Debug, Default)]
pub struct InputOpts {
    /// Binary NBT is little-endian (Bedrock Edition); a level.dat header
    /// (version, length) before it is recognised and kept
    #[arg(long, visible_alias = "bedrock")]
    pub le: bool,
    /// Binary NBT is Bedrock's network form (VarInt lengths and integers, as
    /// in packets)
    #[arg(long, visible_alias = "network", conflicts_with = "le")]
    pub varint: bool,
    /// Input format [default: by extension (.snbt, .json, .mca, .mcr), else binary NBT]
    #[arg(long, value_enum)]
    pub from: Option<InputFormat>,
    /// Which chunk of a region file: X,Z (local 0..31, or absolute chunk
    /// coordinates, which must lie in the region an r.X.Z.mca file name says)
    #[arg(long, value_name = "X,Z", allow_hyphen_values = true)]
    pub chunk: Option<ChunkPos>,
}

/// The encoding `--le` and `--varint` name (Java when neither does;
/// `--varint` implies little-endian).
pub fn encoding(le: bool, varint: bool) -> Encoding {
    match (le, varint) {
        (_, true) => Encoding::Network,
        (true, _) => Encoding::LittleEndian,
        _ => Encoding::BigEndian,
    }
}

impl InputOpts {
    /// The encoding the flags name.
    pub fn binary_form(&self) -> Encoding {
        encoding(self.le, self.varint)
    }

    /// The format `place` is read in: `--from`, else by its extension.
    pub fn format(&self, place: &Place) -> InputFormat {
        if let Some(format) = self.from {
            return format;
        }
        match place.extension().as_deref() {
            Some("snbt") => InputFormat::Snbt,
            Some("json") => InputFormat::Json,
            Some("mca") | Some("mcr") => InputFormat::Region,
            _ => InputFormat::Nbt,
        }
    }

    /// The options for `place` as one file of a folder: `--le` and
    /// `--varint` say how the folder's binary NBT is stored, so they apply to
    /// the binary NBT files only; the SNBT, JSON and region files beside them
    /// are read as they always are (a Bedrock world folder holds `.json` and
    /// `.txt` files too).
    pub fn in_folder(&self, place: &Place) -> InputOpts {
        let mut opts = self.clone();
        let binary = self.format(place) == InputFormat::Nbt;
        opts.le &= binary;
        opts.varint &= binary;
        opts
    }
}

/// How a document was stored, enough to store it the same way again.
#[derive(Debug)]
pub enum StoredAs {
    /// Binary NBT, compressed as found.
    Binary {
        /// gzip, zlib or raw.
        compression: Compression,
        /// Java, or one of Bedrock's encodings.
        encoding: Encoding,
        /// The Bedrock level.dat header before the document, if it had one.
        header: Option<LevelHeader>,
    },
    /// SNBT text.
    Snbt,
    /// Plain JSON text (numbers typed by their value).
    Json,
    /// Typed JSON text (`simdnbt::json`: every type kept).
    TypedJson,
    /// One chunk of a region file.
    Chunk {
        /// The whole region, to put the chunk back into.
        region: Box<Region>,
        /// The chunk.
        pos: ChunkPos,
        /// How the chunk was compressed.
        compression: ChunkCompression,
    },
}

/// A document as the tool holds it (`simdnbt::document::Document`, whatever
/// form it was read from), and where and how it was stored.
#[derive(Debug)]
pub struct Stored {
    /// The document (`None` for a file holding a single End byte).
    pub doc: Option<Document>,
    /// How it was stored (for binary NBT and chunks, `doc`'s own encoding).
    pub form: StoredAs,
}

/// What an input holds: a document, or a region file when no chunk was named.
#[derive(Debug)]
pub enum Opened {
    /// A document.
    Document(Stored),
    /// A region file, no `--chunk` given.
    Region(Box<Region>),
}

/// What is said of a file read as plain JSON (it does not have typed JSON's
/// shape, `{"name": …, "compound": […]}`).
pub const PLAIN_JSON_NOTICE: &str = "read as plain JSON, not typed JSON: its numbers are \
    read as Int, Long or Double (typed JSON, from `nbt convert --to json --typed`, keeps every type)";

/// Reads `place` as `opts` say.
pub fn open(place: &Place, opts: &InputOpts) -> Result<Opened> {
    let bytes = place.read_all()?;
    let format = opts.format(place);
    if (opts.le || opts.varint) && format != InputFormat::Nbt {
        let flag = if opts.le { "--le" } else { "--varint" };
        return Err(Failure::new(format!(
            "{place}: {flag} is for binary NBT, and this is read as {}",
            format_name(format)
        )));
    }
    if format != InputFormat::Region {
        if opts.chunk.is_some() {
            return Err(Failure::new(format!(
                "{place}: --chunk is for region files (.mca), and this is read as {}",
                format_name(format)
            )));
        }
        let doc = decode(place, &bytes, format, opts.binary_form())?;
        if matches!(doc.form, StoredAs::Json) {
            eprintln!("nbt: {place}: {PLAIN_JSON_NOTICE}");
        }
        return Ok(Opened::Document(doc));
    }
    let Some(pos) = opts.chunk else {
        let (region, bad) = open_region_lenient(place, bytes)?;
        for bad in &bad {
            eprintln!("nbt: {}", skipped_chunk(place, bad));
        }
        return Ok(Opened::Region(Box::new(region)));
    };
    let (region, bytes, compression) = read_chunk(place, bytes, pos)?;
    let doc = chunk_document(place, &region, pos, bytes)?;
    Ok(Opened::Document(Stored {
        doc,
        form: StoredAs::Chunk {
            region: Box::new(region),
            pos,
            compression,
        },
    }))
}

/// The region file `bytes` (from `place`) and the uncompressed bytes of its
/// chunk at `pos`, with how that was compressed; refused, saying why, when
/// the chunk cannot be read (its header entry is bad, it is not in the
/// region or not in this region, ...).
pub(crate) fn read_chunk(
    place: &Place,
    bytes: Vec<u8>,
    pos: ChunkPos,
) -> Result<(Region, Vec<u8>, ChunkCompression)> {
    let (region, bad) = open_region_lenient(place, bytes)?;
    let index = |x: i32, z: i32| (x & 31, z & 31);
    let asked = bad.iter().find(|b| {
        b.pos()
            .is_some_and(|p| index(p.x.into(), p.z.into()) == index(pos.x, pos.z))
    });
    if let Some(bad) = asked {
        check_in_region(place, pos)?;
        return Err(Failure::new(format!(
            "{place}: {bad}: a bad header entry, so the chunk cannot be read"
        )));
    }
    let (chunk, compression) = chunk_bytes(place, &region, pos)?;
    Ok((region, chunk, compression))
}

/// Reads `place` as a document; a region file needs `--chunk`.
pub fn open_document(place: &Place, opts: &InputOpts) -> Result<Stored> {
    match open(place, opts)? {
        Opened::Document(doc) => Ok(doc),
        Opened::Region(_) => Err(Failure::new(format!(
            "{place} is a region file: say which chunk with --chunk X,Z"
        ))),
    }
}

fn format_name(format: InputFormat) -> &'static str {
    match format {
        InputFormat::Nbt => "binary NBT",
        InputFormat::Snbt => "SNBT",
        InputFormat::Json => "JSON",
        InputFormat::Region => "a region file",
    }
}

/// Checks a region file's header, refusing the file for one bad entry;
/// named `r.X.Z.mca` files find external chunks beside them.
pub(crate) fn open_region(place: &Place, bytes: Vec<u8>) -> Result<Region> {
    let region = Region::from_bytes(bytes).map_err(|e| Failure::new(format!("{place}: {e}")))?;
    Ok(locate_external(place, region))
}

/// [`open_region`], except that a bad header entry costs only its own
/// chunk: the region without those chunks, and what is wrong with each.
pub(crate) fn open_region_lenient(
    place: &Place,
    bytes: Vec<u8>,
) -> Result<(Region, Vec<RegionError>)> {
    let (region, bad) =
        Region::from_bytes_lenient(bytes).map_err(|e| Failure::new(format!("{place}: {e}")))?;
    Ok((locate_external(place, region), bad))
}

/// What is said of a chunk left out for a bad header entry (`bad`).
pub(crate) fn skipped_chunk(place: &Place, bad: &RegionError) -> String {
    format!("{place}: {bad} (a bad header entry): the chunk is skipped, the others are not")
}

fn locate_external(place: &Place, region: Region) -> Region {
    match place {
        Place::File(path) => match simdnbt::region::region_position(path) {
            Some((x, z)) => {
                let dir = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
                    _ => PathBuf::from("."),
                };
                region.with_external_dir(dir, x, z)
            }
            None => region,
        },
        Place::Std => region,
    }
}

/// Refuses `pos` when the file's name says which region it is (`r.X.Z.mca`)
/// and `pos`, read as absolute chunk coordinates, lies in another region: the
/// library takes only the low five bits, so another region's chunk would
/// quietly stand for one of this file's. Local coordinates (both in 0..31)
/// are always accepted, and so is anything for a file not named that way.
pub(crate) fn check_in_region(place: &Place, pos: ChunkPos) -> Result<()> {
    let Place::File(path) = place else {
        return Ok(());
    };
    let Some((rx, rz)) = simdnbt::region::region_position(path) else {
        return Ok(());
    };
    let local = (0..32).contains(&pos.x) && (0..32).contains(&pos.z);
    let (x_region, z_region) = (pos.x.div_euclid(32), pos.z.div_euclid(32));
    if local || (x_region, z_region) == (rx, rz) {
        return Ok(());
    }
    let span = |r: i32| {
        let start = i64::from(r) * 32;
        format!("{start}..{}", start + 31)
    };
    Err(Failure::new(format!(
        "{place}: chunk {},{} is in region file r.{x_region}.{z_region}.mca, not in this one \
         (r.{rx}.{rz}.mca); give local coordinates (0..31) or absolute ones in this region \
         (x {}, z {})",
        pos.x,
        pos.z,
        span(rx),
        span(rz)
    )))
}

/// The uncompressed bytes of the chunk at `pos` of `region` and how it was
/// compressed, refused with what is wrong (`place`: the region file).
pub(crate) fn chunk_bytes(
    place: &Place,
    region: &Region,
    pos: ChunkPos,
) -> Result<(Vec<u8>, ChunkCompression)> {
    check_in_region(place, pos)?;
    let Some(info) = region.info(pos.x, pos.z) else {
        return Err(Failure::new(format!(
            "{}: chunk {},{} is not in the region",
            place, pos.x, pos.z
        )));
    };
    let bytes = region
        .chunk(pos.x, pos.z)
        .map_err(|e| Failure::new(format!("{place}: {e}")))?
        .unwrap_or_default();
    // A chunk that read has a compression the library decodes (and writes).
    let compression = info.compression.ok_or_else(|| {
        Failure::new(format!(
            "{place}: chunk {},{}: unsupported compression",
            pos.x, pos.z
        ))
    })?;
    Ok((bytes, compression))
}

/// What is said of a chunk whose bytes are not NBT (`error`, from any reader).
pub(crate) fn invalid_chunk(
    place: &Place,
    pos: ChunkPos,
    error: &simdnbt::Error,
    bytes: &[u8],
) -> Failure {
    Failure::new(format!(
        "{place}: chunk {},{}: invalid NBT: {}",
        pos.x,
        pos.z,
        crate::locate::describe(error, bytes, "")
    ))
}

/// The document in a chunk's uncompressed `bytes` (taken, not copied), read
/// from `region` at `pos`; what is wrong is said with where in the chunk.
pub(crate) fn chunk_document(
    place: &Place,
    region: &Region,
    pos: ChunkPos,
    bytes: Vec<u8>,
) -> Result<Option<Document>> {
    Document::from_vec(bytes).or_else(|e| {
        // The bytes again (they were taken), to say which value is wrong.
        let (bytes, _) = chunk_bytes(place, region, pos)?;
        Err(invalid_chunk(place, pos, &e, &bytes))
    })
}

/// Decodes a whole non-region input; binary NBT in form `binary`.
pub(crate) fn decode(
    place: &Place,
    bytes: &[u8],
    format: InputFormat,
    binary: Encoding,
) -> Result<Stored> {
    if format == InputFormat::Nbt {
        return decode_binary(place, bytes, binary);
    }
    let (root, form) = decode_text(place, bytes, format)?;
    // Text can hold what binary NBT cannot (a string over 65535 bytes,
    // nesting past 512); the tool holds every document to binary NBT's
    // limits, as it writes every form to them.
    let doc = Document::from_owned(&root).map_err(|e| {
        Failure::new(format!(
            "{place}: binary NBT cannot hold it ({e}), and text files are held to the same \
             limits"
        ))
    })?;
    Ok(Stored {
        doc: Some(doc),
        form,
    })
}

/// Reads SNBT or JSON text into the owned tree (what the text readers
/// build); the form says which it was.
pub(crate) fn decode_text(
    place: &Place,
    bytes: &[u8],
    format: InputFormat,
) -> Result<(BaseNbt, StoredAs)> {
    match format {
        InputFormat::Snbt => {
            let text = std::str::from_utf8(bytes).map_err(|e| {
                Failure::new(format!(
                    "{place}: not UTF-8 text (byte {}), so not SNBT",
                    e.valid_up_to()
                ))
            })?;
            let root = simdnbt::snbt::compound_from_str(text)
                .map_err(|e| Failure::new(format!("{place}: invalid SNBT: {e}")))?;
            Ok((BaseNbt::new("", root), StoredAs::Snbt))
        }
        InputFormat::Json => {
            // Typed JSON (`convert --to json --typed`) first: it is exact. A
            // file with its shape that does not read is broken typed JSON,
            // never read as plain JSON (which would retype every number).
            let typed = match simdnbt::json::from_slice(bytes) {
                Ok(root) => return Ok((root, StoredAs::TypedJson)),
                Err(e) if simdnbt::json::has_typed_shape(bytes) => {
                    return Err(Failure::new(format!("{place}: invalid typed JSON: {e}")));
                }
                Err(e) => e,
            };
            let root: BaseNbt = serde_json::from_slice(bytes).map_err(|e| {
                Failure::new(format!(
                    "{place}: invalid JSON: {e} (as typed JSON: {typed})"
                ))
            })?;
            Ok((root, StoredAs::Json))
        }
        // `open` reads binary NBT and regions itself; this is only reached
        // by mistake.
        InputFormat::Nbt | InputFormat::Region => Err(Failure::new(format!(
            "{place}: not text: read as {}",
            format_name(format)
        ))),
    }
}

/// Binary NBT (gzip, zlib or raw; Java, or Bedrock little-endian or network
/// form, read by the library's Bedrock document, which keeps its encoding)
/// read straight into a document.
fn decode_binary(place: &Place, bytes: &[u8], binary: Encoding) -> Result<Stored> {
    let file =
        Decompressed::from_bytes(bytes).map_err(|e| Failure::new(format!("{place}: {e}")))?;
    let compression = file.compression();
    let data = file.as_bytes();
    let note = inflated_note(compression);
    let encoding = match binary {
        Encoding::BigEndian => {
            // Java first: a Java document is read once; only one that fails,
            // or leaves bytes after its root, is tried as Bedrock.
            let mut cursor = Cursor::new(data);
            let read = simdnbt::document::read(&mut cursor);
            let whole = read.is_ok() && cursor.position() as usize == data.len();
            match bedrock_instead(data, whole) {
                Some(bedrock) => bedrock,
                None => {
                    let doc = read.map_err(|e| {
                        Failure::new(format!(
                            "{place}: invalid NBT: {}",
                            crate::locate::describe(&e, data, &note)
                        ))
                    })?;
                    return Ok(Stored {
                        doc,
                        form: StoredAs::Binary {
                            compression,
                            encoding: Encoding::BigEndian,
                            header: None,
                        },
                    });
                }
            }
        }
        bedrock => bedrock,
    };
    let (doc, header) =
        read_bedrock(data, encoding).map_err(|e| Failure::new(format!("{place}: {e}{note}")))?;
    if binary == Encoding::BigEndian {
        bedrock_notice(place, encoding, header);
    }
    Ok(Stored {
        doc,
        form: StoredAs::Binary {
            compression,
            encoding,
            header,
        },
    })
}

/// The whole Bedrock document `data` holds in `encoding` (little-endian:
/// after a level.dat header when it has one), and the header.
fn read_bedrock(
    data: &[u8],
    encoding: Encoding,
) -> std::result::Result<(Option<Document>, Option<LevelHeader>), String> {
    use simdnbt::document::bedrock;
    let (header, body) = match simdnbt::bedrock::split_level_header(data) {
        Some((header, body)) if encoding == Encoding::LittleEndian => (Some(header), body),
        _ => (None, data),
    };
    let mut cursor = Cursor::new(body);
    let read = match encoding {
        Encoding::Network => bedrock::read_network(&mut cursor),
        _ => bedrock::read_le(&mut cursor),
    };
    match read {
        Ok(doc) if cursor.position() as usize == body.len() => Ok((doc, header)),
        // Broken, or bytes after the root: said as the whole-document
        // transcoder says it (it runs the same core, so it finds the same
        // problem at the same offset, and says where in the file that is).
        other => Err(match (bedrock_to_java(data, encoding), other) {
            (Err(message), _) => message,
            (Ok(_), Err(e)) => format!("cannot read as a document: {e}"),
            (Ok(_), Ok(_)) => "bytes after the document".into(),
        }),
    }
}

/// Says on stderr that `place`, read with no flag, is read as Bedrock.
pub(crate) fn bedrock_notice(place: &Place, encoding: Encoding, header: Option<LevelHeader>) {
    let varint = encoding == Encoding::Network;
    eprintln!(
        "nbt: {place} is not Java NBT but reads as Bedrock {}: read as that \
         (--{} says so and silences this)",
        if varint {
            "network-form (VarInt) NBT"
        } else if header.is_some() {
            "little-endian NBT after a level.dat header"
        } else {
            "little-endian NBT"
        },
        if varint { "varint" } else { "le" },
    );
}

/// The Bedrock encoding to read `bytes` (inflated) in when no flag names one:
/// only when they are not a whole Java document (`whole_java`: they read as
/// one, to their end) and are exactly one Bedrock document
/// ([`simdnbt::bedrock::detect`], which never guesses).
pub(crate) fn bedrock_instead(bytes: &[u8], whole_java: bool) -> Option<Encoding> {
    if whole_java {
        return None;
    }
    simdnbt::bedrock::detect(bytes)
        .encoding()
        .filter(|e| *e != Encoding::BigEndian)
}

/// A whole Bedrock document in `encoding` (little-endian: after a level.dat
/// header when it has one) in the Java form, and its header; the error says
/// where in `data` it is broken. Java input is returned as it is.
pub fn bedrock_to_java(
    data: &[u8],
    encoding: Encoding,
) -> std::result::Result<(Vec<u8>, Option<LevelHeader>), String> {
    use simdnbt::bedrock;
    match encoding {
        Encoding::BigEndian => Ok((data.to_vec(), None)),
        Encoding::Network => bedrock::from_network(data)
            .map(|java| (java, None))
            .map_err(|e| format!("invalid network-form (VarInt) NBT: {e}")),
        Encoding::LittleEndian => match bedrock::split_level_header(data) {
            Some((header, body)) => bedrock::to_big_endian(body)
                .map(|java| (java, Some(header)))
                .map_err(|e| {
                    format!(
                        "invalid little-endian NBT: {} at byte {} of the document, byte {} of \
                         the file (after the 8-byte level.dat header)",
                        e.kind(),
                        e.offset(),
                        e.offset() + 8
                    )
                }),
            None => bedrock::to_big_endian(data)
                .map(|java| (java, None))
                .map_err(|e| format!("invalid little-endian NBT: {e}")),
        },
    }
}

/// `body` after a level.dat header of `header`'s version (and `body`'s
/// length), or as it is when there is none.
pub fn with_header(body: Vec<u8>, header: Option<LevelHeader>) -> Result<Vec<u8>> {
    let Some(header) = header else {
        return Ok(body);
    };
    if u32::try_from(body.len()).is_err() {
        return Err(Failure::new(
            "the document is 4 GiB or more, too long for a level.dat header",
        ));
    }
    let mut out = Vec::with_capacity(8 + body.len());
    simdnbt::bedrock::write_level_header(header.version, &body, &mut out);
    Ok(out)
}

/// After a byte offset: which bytes it counts, when they are not the file's.
pub fn inflated_note(compression: Compression) -> String {
    match compression {
        Compression::Raw => String::new(),
        c => format!(" (of the data inflated from {})", c.name()),
    }
}
