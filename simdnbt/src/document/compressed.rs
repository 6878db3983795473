//! Documents in gzip or zlib files ([`crate::compression`]): read inflated
//! into the document's own storage (no second copy), written back
//! compressed.

use std::path::Path;

use super::{Document, Framing};
use crate::compression::{
    Compression, Decompressed, FileError, compress, read_file_with, write_file,
};
use crate::error::{Error, ErrorKind};
use crate::options::ReadOptions;

impl Decompressed {
    /// Reads the inflated bytes (the file form: a named root, of any type)
    /// as a [`Document`], which keeps them as its storage: no copy.
    ///
    /// ```
    /// use simdnbt::compression::{compress, Compression, Decompressed};
    /// let gz = compress(&[0x0a, 0, 0, 0x01, 0, 1, b'b', 7, 0], Compression::Gzip);
    /// let doc = Decompressed::from_bytes(&gz)?.into_document()?;
    /// assert_eq!(doc.byte("b"), Some(7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_document(self) -> Result<Document, Error> {
        let (bytes, _, opts) = self.into_parts();
        file_document(bytes, &opts)
    }
}

/// The document in `bytes` (file form, a root of any type); an End root is
/// [`ErrorKind::InvalidRootType`]`(0)`: a file holds a document.
fn file_document(bytes: Vec<u8>, opts: &ReadOptions) -> Result<Document, Error> {
    Document::from_vec_with(bytes, Framing::Named, opts)?.ok_or(Error::new(
        ErrorKind::InvalidRootType(crate::tag_id::END),
        0,
    ))
}

impl Document {
    /// Reads the file at `path` (gzip, zlib or raw, as
    /// [`crate::compression::detect`] finds it) as a document, with its
    /// compression, so that [`Document::write_file`] can store it back the
    /// same way.
    ///
    /// ```no_run
    /// use simdnbt::document::Document;
    ///
    /// let (mut doc, compression) = Document::read_file("level.dat")?;
    /// doc.as_compound_mut().unwrap().compound_mut("Data").unwrap().set("raining", 0i8)?;
    /// doc.write_file("level.dat", compression)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_file(path: impl AsRef<Path>) -> Result<(Document, Compression), FileError> {
        Document::read_file_with(path, &ReadOptions::default())
    }

    /// [`Document::read_file`] with explicit limits (they cap the inflated
    /// size too).
    pub fn read_file_with(
        path: impl AsRef<Path>,
        opts: &ReadOptions,
    ) -> Result<(Document, Compression), FileError> {
        let (bytes, compression, opts) = read_file_with(path, opts)?.into_parts();
        Ok((file_document(bytes, &opts)?, compression))
    }

    /// The document's bytes (its own form) compressed as `format`.
    pub fn to_compressed(&self, format: Compression) -> Vec<u8> {
        compress(&self.to_bytes(), format)
    }

    /// Writes the document (its own form) to `path`, compressed as `format`.
    pub fn write_file(&self, path: impl AsRef<Path>, format: Compression) -> Result<(), FileError> {
        write_file(path, &self.to_bytes(), format)
    }
}
