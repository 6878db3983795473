//! docs/format.md §4: the inputs every reader must answer, with the answer: a
//! document, `Nbt::None`, or an error of a given kind at a given byte offset.
//! `simdnbt`'s hostile tests and fuzz-logic's replay tests both walk [`cases`].

use simdnbt::ErrorKind;

use crate::bytes::{deep_compounds, deep_lists, r, string_doc};

/// What a reader (`simdnbt::borrow::read`, `simdnbt::owned::read`) must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// A document.
    Valid,
    /// `Nbt::None` (an End root).
    None,
    /// An error of this kind at this byte offset (and no crash, overflow or huge allocation).
    Error(ErrorKind, usize),
}

impl Expect {
    /// Asserts that a read answered as expected; `read` is `Ok(true)` for a document,
    /// `Ok(false)` for `Nbt::None`. `what` names the case and reader in the message.
    #[track_caller]
    pub fn check(self, read: Result<bool, simdnbt::Error>, what: &str) {
        match (self, read) {
            (Expect::Valid, Ok(true)) | (Expect::None, Ok(false)) => {}
            (Expect::Error(kind, offset), Err(e)) => assert_eq!(
                (e.kind(), e.offset()),
                (kind, offset),
                "{what}: error kind and offset"
            ),
            (expect, got) => panic!("{what}: expected {expect:?}, got {got:?}"),
        }
    }
}

/// One §4 case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Short file-name-safe name (fuzz seeds are named after it).
    pub name: &'static str,
    /// The input (disk form: named root).
    pub bytes: Vec<u8>,
    /// What the readers must answer.
    pub expect: Expect,
}

/// Nesting of the two depth cases in docs/format.md.
pub const SPEC_DEPTH: usize = 100_000;

/// Every read case of docs/format.md §4 (the over-long write case is
/// [`over_long_string`]). `deep` is the nesting of the two depth cases (fuzz seeds
/// use fewer levels than [`SPEC_DEPTH`] so libFuzzer's `-max_len` stays small); it
/// must be past the limit, and the error offsets do not depend on it.
pub fn cases_with_depth(deep: usize) -> Vec<Case> {
    use ErrorKind::*;
    use Expect::{Error, Valid};
    assert!(deep >= 512, "the depth cases must be too deep");
    let c = |name, bytes, expect| Case {
        name,
        bytes,
        expect,
    };
    vec![
        // The root is level 1, "l" (payload at 7) level 2; nested list j at 7 + 5j
        // is level j + 2, so list 511 is the first too deep.
        c(
            "deep_lists",
            deep_lists(deep),
            Error(MaxDepthExceeded, 7 + 5 * 511),
        ),
        // Child compound k (level k + 1) has its tag id at 3 + 4(k - 1).
        c(
            "deep_compounds",
            deep_compounds(deep),
            Error(MaxDepthExceeded, 3 + 4 * 511),
        ),
        c(
            "huge_list",
            vec![10, 0, 0, 9, 0, 1, 0x6c, 10, 0x7f, 0xff, 0xff, 0xff],
            Error(LengthExceedsInput, 8),
        ),
        c(
            "huge_int_array",
            vec![10, 0, 0, 11, 0, 1, 0x69, 0x7f, 0xff, 0xff, 0xff],
            Error(LengthExceedsInput, 7),
        ),
        c(
            "negative_byte_array",
            r(&[7, 0, 1, b'b', 0xff, 0xff, 0xff, 0xff]),
            Error(NegativeLength(-1), 7),
        ),
        c(
            "negative_byte_list",
            r(&[9, 0, 1, b'l', 1, 0xff, 0xff, 0xff, 0xff]),
            Error(NegativeLength(-1), 8),
        ),
        c(
            "list_of_end_len5",
            r(&[9, 0, 1, 0x6c, 0, 0, 0, 0, 5]),
            Error(ListOfEndNotEmpty, 8),
        ),
        c(
            "three_empty_compounds",
            r(&[9, 0, 1, 0x6c, 10, 0, 0, 0, 3, 0, 0, 0]),
            Valid,
        ),
        c("nul", string_doc(b"a\xC0\x80b"), Valid),
        c("emoji", string_doc(b"\xED\xA0\xBD\xED\xB8\x80"), Valid),
        c("invalid_lone_surrogate", string_doc(b"\xED\xA0\x80"), Valid),
        c("invalid_ff", string_doc(b"\xFF"), Valid),
        c("invalid_overlong_c1", string_doc(b"\xC1\x81"), Valid),
        c("invalid_truncated_e2", string_doc(b"\xE2\x82"), Valid),
        c("empty", Vec::new(), Error(UnexpectedEof, 0)),
        c("end_root", vec![0], Expect::None),
    ]
}

/// Every read case of docs/format.md §4 at full size ([`SPEC_DEPTH`] levels).
pub fn cases() -> Vec<Case> {
    cases_with_depth(SPEC_DEPTH)
}

/// One case by name; panics if there is none.
pub fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no §4 case {name}"))
}

/// The over-long write case: a 70 000-byte string value (the writer must refuse it).
pub fn over_long_string() -> Vec<u8> {
    vec![b'a'; 70_000]
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use simdnbt::{borrow, owned};

    use super::*;

    #[test]
    fn every_case_is_answered_as_expected_by_both_readers() {
        for case in cases_with_depth(600) {
            let b = borrow::read(&mut Cursor::new(&case.bytes[..]));
            let o = owned::read(&mut Cursor::new(&case.bytes[..]));
            let b = b.map(|n| matches!(n, borrow::Nbt::Some(_)));
            let o = o.map(|n| matches!(n, owned::Nbt::Some(_)));
            case.expect.check(b, &format!("{} (borrow)", case.name));
            case.expect.check(o, &format!("{} (owned)", case.name));
        }
    }
}
