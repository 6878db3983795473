//! Which binary form a buffer holds, judged by reading it whole in each.

use super::{split_level_header, transcode};
use crate::Encoding;
use crate::options::ReadOptions;
use crate::read::wire::{BigEndian, LittleEndian, VarInt, Wire};

/// A binary NBT form, as [`detect`] tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DetectedForm {
    /// Java Edition: big-endian, MUTF-8.
    Java,
    /// Bedrock little-endian after a `level.dat` header
    /// ([`super::split_level_header`]).
    LevelDat,
    /// Bedrock little-endian, no header.
    LittleEndian,
    /// Bedrock network form: VarInt lengths, Int and Long.
    Network,
    /// No form reads the buffer as one document, or more than one does.
    Unknown,
}

/// The old name of [`DetectedForm`]: `simdnbt::document` has a `Form` too
/// (how a root is framed, now [`Framing`](crate::document::Framing)).
#[deprecated(since = "0.11.0", note = "renamed `simdnbt::bedrock::DetectedForm`")]
pub type Form = DetectedForm;

impl DetectedForm {
    /// The encoding of this form: [`Encoding::LittleEndian`] for
    /// [`DetectedForm::LevelDat`] too (the header aside), `None` for
    /// [`DetectedForm::Unknown`].
    ///
    /// ```
    /// use simdnbt::Encoding;
    /// use simdnbt::bedrock::DetectedForm;
    ///
    /// assert_eq!(DetectedForm::LevelDat.encoding(), Some(Encoding::LittleEndian));
    /// assert_eq!(DetectedForm::Unknown.encoding(), None);
    /// ```
    pub fn encoding(self) -> Option<Encoding> {
        match self {
            DetectedForm::Java => Some(Encoding::BigEndian),
            DetectedForm::LevelDat | DetectedForm::LittleEndian => Some(Encoding::LittleEndian),
            DetectedForm::Network => Some(Encoding::Network),
            DetectedForm::Unknown => None,
        }
    }
}

/// Says which form `bytes` (one inflated document: a named root tag of any
/// type, or a lone End) is in.
///
/// Conservative: a form is named only when the buffer reads as exactly one
/// whole document in it and in no other form (the full checks of the
/// readers, the default [`ReadOptions`]); anything else — garbage, a
/// compressed stream, trailing bytes, a document so small that two forms
/// read it (an empty compound is the same bytes in Java and little-endian
/// form) — is [`DetectedForm::Unknown`], never a guess.
///
/// ```
/// use simdnbt::bedrock::{DetectedForm, detect, to_little_endian, to_network};
///
/// // {n: 1} in a root named "r" (unnamed, its network form would read as
/// // Java too: 10, 0, 3, ... is a Java root whose name is 3 bytes long).
/// let java = [10, 0, 1, b'r', 3, 0, 1, b'n', 0, 0, 0, 1, 0];
/// assert_eq!(detect(&java), DetectedForm::Java);
/// assert_eq!(detect(&to_little_endian(&java).unwrap()), DetectedForm::LittleEndian);
/// assert_eq!(detect(&to_network(&java).unwrap()), DetectedForm::Network);
/// assert_eq!(detect(&[0x1f, 0x8b, 8, 0]), DetectedForm::Unknown);
/// assert_eq!(detect(&[0]), DetectedForm::Unknown); // End: every form's
/// ```
pub fn detect(bytes: &[u8]) -> DetectedForm {
    let mut found = DetectedForm::Unknown;
    let candidates = [
        (DetectedForm::Java, reads_whole::<BigEndian>(bytes)),
        (
            DetectedForm::LittleEndian,
            reads_whole::<LittleEndian>(bytes),
        ),
        (DetectedForm::Network, reads_whole::<VarInt>(bytes)),
        (
            DetectedForm::LevelDat,
            split_level_header(bytes).is_some_and(|(_, body)| reads_whole::<LittleEndian>(body)),
        ),
    ];
    for (form, reads) in candidates {
        if reads {
            if found != DetectedForm::Unknown {
                return DetectedForm::Unknown;
            }
            found = form;
        }
    }
    found
}

/// Whether `bytes` is one whole document in form `W`.
fn reads_whole<W: Wire>(bytes: &[u8]) -> bool {
    matches!(
        transcode::document::<W, W>(bytes, 0, &ReadOptions::default(), true),
        Ok((_, end)) if end == bytes.len()
    )
}
