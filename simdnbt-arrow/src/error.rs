//! Errors (a scan cannot start or a table is wrongly defined) and warnings
//! (one chunk or file could not be read: reported, skipped, the scan goes on).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a source could not be opened, a table defined or a partition scanned.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A file or folder could not be read.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },
    /// A folder holds nothing this crate reads: no region files, player files
    /// or `level.dat`.
    NothingToRead {
        /// The folder.
        path: PathBuf,
    },
    /// A region file's header is broken, so none of its chunks can be trusted.
    Region {
        /// The region file.
        path: PathBuf,
        /// The library's error, naming the chunk whose header entry is wrong.
        error: simdnbt::region::RegionError,
    },
    /// A file is not NBT (or does not inflate).
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the byte offset.
        message: String,
    },
    /// A custom table's path does not parse.
    Path {
        /// The column (`"rows"` for the rows path).
        column: String,
        /// The path as given.
        text: String,
        /// The parser's error.
        error: simdnbt::path::PathParseError,
    },
    /// A custom column's type is not one of [`crate::ColumnType`]'s names.
    UnknownType {
        /// The column.
        column: String,
        /// The type as given.
        text: String,
    },
    /// Two columns of a table have the same name.
    DuplicateColumn {
        /// The name.
        column: String,
    },
    /// A projection names a column the table does not have.
    Projection {
        /// The table.
        table: String,
        /// The index asked for.
        index: usize,
        /// The table's number of columns.
        columns: usize,
    },
    /// Arrow refused a batch (a bug in this crate if it happens).
    Arrow(arrow_schema::ArrowError),
    /// A scan's worker stopped on a panic (a bug in this crate if it
    /// happens): the batches before it are not all the rows.
    WorkerPanicked {
        /// The panic's message.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::NothingToRead { path } => write!(
                f,
                "{}: no region files (region/, DIM-1/region/, DIM1/region/, \
                 dimensions/*/*/region/, entities/), player files or level.dat here",
                path.display()
            ),
            Error::Region { path, error } => write!(f, "{}: {error}", path.display()),
            Error::File { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Path {
                column,
                text,
                error,
            } => write!(f, "column `{column}`: path `{text}`: {error}"),
            Error::UnknownType { column, text } => write!(
                f,
                "column `{column}`: unknown type `{text}` (byte, short, int, long, float, \
                 double, string or snbt)"
            ),
            Error::DuplicateColumn { column } => write!(f, "column `{column}` given twice"),
            Error::Projection {
                table,
                index,
                columns,
            } => write!(
                f,
                "table `{table}` has {columns} columns; column index {index} does not exist"
            ),
            Error::Arrow(e) => write!(f, "arrow: {e}"),
            Error::WorkerPanicked { message } => write!(
                f,
                "a scan worker panicked ({message}); the rows so far are incomplete"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { error, .. } => Some(error),
            Error::Region { error, .. } => Some(error),
            Error::Path { error, .. } => Some(error),
            Error::Arrow(e) => Some(e),
            _ => None,
        }
    }
}

impl From<arrow_schema::ArrowError> for Error {
    fn from(e: arrow_schema::ArrowError) -> Self {
        Error::Arrow(e)
    }
}

/// Something a scan skipped: a chunk that does not inflate or parse, a
/// section whose palette and data disagree, a region file whose header is
/// broken, a value of the wrong type for a custom column. The scan goes on
/// without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The file.
    pub path: PathBuf,
    /// The chunk, in absolute chunk coordinates (local ones when the region
    /// file's name does not give its position); `None` for a whole file.
    pub chunk: Option<(i32, i32)>,
    /// What was skipped and why.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some((x, z)) = self.chunk {
            write!(f, ": chunk ({x}, {z})")?;
        }
        write!(f, ": {}", self.message)
    }
}
