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

/// The hostile cases of Bedrock's network form (docs/format.md, "Bedrock
/// forms"): VarInts over-long, unterminated or at their widest, huge and
/// negative counts and lengths, unknown ids, the depth limit. The bytes are
/// network-form documents (named root compound, VarInt name lengths); the
/// answer is what `simdnbt::bedrock::from_network` and
/// `simdnbt::bedrock::owned::read_network` must both give.
pub fn network_cases_with_depth(deep: usize) -> Vec<Case> {
    use ErrorKind::*;
    use Expect::{Error, Valid};
    assert!(deep >= 512, "the depth cases must be too deep");
    let c = |name, bytes: Vec<u8>, expect| Case {
        name,
        bytes,
        expect,
    };
    // `0a 00`: the root compound, its name empty; then `body`, then End.
    let doc = |body: &[u8]| [&[0x0a, 0][..], body, &[0]].concat();
    let mut deep_lists = vec![0x0a, 0, 0x09, 1, b'l'];
    // One level more than `deep`: the limit is met with input left.
    for _ in 0..=deep {
        deep_lists.extend_from_slice(&[0x09, 0x02]); // a list of one list
    }
    let mut deep_compounds = vec![0x0a, 0];
    for _ in 0..=deep {
        deep_compounds.extend_from_slice(&[0x0a, 0]);
    }
    vec![
        c(
            "net_widest_varints",
            doc(&[
                // Int i32::MIN (5 bytes), Long i64::MAX (10 bytes).
                &[3, 1, b'i', 0xff, 0xff, 0xff, 0xff, 0x0f][..],
                &[
                    4, 1, b'l', 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
                ],
            ]
            .concat()),
            Valid,
        ),
        c(
            "net_int_six_bytes",
            doc(&[3, 1, b'i', 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
            Error(InvalidVarInt, 5),
        ),
        c(
            "net_int_bits_past_32",
            doc(&[3, 1, b'i', 0xff, 0xff, 0xff, 0xff, 0x1f]),
            Error(InvalidVarInt, 5),
        ),
        c(
            "net_long_eleven_bytes",
            doc(&[
                4, 1, b'l', 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
            ]),
            Error(InvalidVarInt, 5),
        ),
        c(
            "net_long_bits_past_64",
            doc(&[
                4, 1, b'l', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02,
            ]),
            Error(InvalidVarInt, 5),
        ),
        c(
            "net_int_unterminated",
            vec![0x0a, 0, 3, 1, b'i', 0x80, 0x80],
            Error(UnexpectedEof, 7),
        ),
        c(
            "net_root_name_unterminated",
            vec![0x0a, 0x80],
            Error(UnexpectedEof, 2),
        ),
        c(
            "net_name_length_huge",
            vec![0x0a, 0, 8, 0xff, 0xff, 0xff, 0xff, 0x0f],
            Error(UnexpectedEof, 8),
        ),
        c(
            "net_name_length_six_bytes",
            doc(&[8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Error(InvalidVarInt, 3),
        ),
        c(
            "net_string_length_huge",
            doc(&[8, 1, b's', 0xff, 0xff, 0xff, 0xff, 0x0f]),
            Error(UnexpectedEof, 11),
        ),
        c(
            "net_list_count_huge",
            doc(&[9, 1, b'l', 0x0a, 0xfe, 0xff, 0xff, 0xff, 0x0f]),
            Error(LengthExceedsInput, 6),
        ),
        c(
            "net_list_count_negative",
            doc(&[9, 1, b'l', 0x01, 0x01]),
            Error(NegativeLength(-1), 6),
        ),
        c(
            "net_list_of_end_not_empty",
            doc(&[9, 1, b'l', 0x00, 0x02]),
            Error(ListOfEndNotEmpty, 6),
        ),
        c(
            "net_list_unknown_element",
            doc(&[9, 1, b'l', 0x0d, 0x00]),
            Error(UnknownTagId(13), 5),
        ),
        c(
            "net_int_array_count_huge",
            doc(&[11, 1, b'a', 0xfe, 0xff, 0xff, 0xff, 0x0f]),
            Error(LengthExceedsInput, 5),
        ),
        c(
            "net_byte_array_negative",
            doc(&[7, 1, b'a', 0x03]),
            Error(NegativeLength(-2), 5),
        ),
        c(
            "net_long_array_element_cut",
            vec![0x0a, 0, 12, 1, b'a', 0x02, 0x80],
            Error(UnexpectedEof, 7),
        ),
        c("net_unknown_id", doc(&[13, 0]), Error(UnknownTagId(13), 2)),
        c(
            "net_deep_lists",
            deep_lists,
            Error(MaxDepthExceeded, 5 + 2 * 511),
        ),
        c(
            "net_deep_compounds",
            deep_compounds,
            Error(MaxDepthExceeded, 2 + 2 * 511),
        ),
    ]
}

/// [`network_cases_with_depth`] at [`SPEC_DEPTH`].
pub fn network_cases() -> Vec<Case> {
    network_cases_with_depth(SPEC_DEPTH)
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
