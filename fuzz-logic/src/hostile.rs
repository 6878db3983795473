//! The docs/format.md §4 cases: inputs every reader must answer, with the expected answer.

/// What a reader must answer for a §4 case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// `read` returns a document.
    Valid,
    /// `read` returns an error (and does not crash, overflow or allocate hugely).
    Error,
    /// `read` returns `Nbt::None` (an End root).
    None,
}

/// One §4 case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Short file-name-safe name.
    pub name: &'static str,
    /// The input (disk form: named root).
    pub bytes: Vec<u8>,
    /// What `simdnbt::borrow::read` / `owned::read` must answer.
    pub expect: Expect,
}

/// `R(x)` of docs/format.md §4: a named root compound (empty name) around `x`.
pub fn root(inner: &[u8]) -> Vec<u8> {
    let mut v = vec![0x0a, 0x00, 0x00];
    v.extend_from_slice(inner);
    v.push(0x00);
    v
}

fn string_root(bytes: &[u8]) -> Vec<u8> {
    let mut inner = vec![0x08, 0x00, 0x01, b's'];
    inner.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
    inner.extend_from_slice(bytes);
    root(&inner)
}

/// Deep lists: `R(09 00 01 6C` + `09 00 00 00 01`×`levels` + a final empty list).
pub fn deep_lists(levels: usize) -> Vec<u8> {
    let mut inner = vec![0x09, 0x00, 0x01, 0x6c];
    for _ in 0..levels {
        inner.extend_from_slice(&[0x09, 0x00, 0x00, 0x00, 0x01]);
    }
    inner.extend_from_slice(&[0x00, 0x00, 0x00, 0x00, 0x00]);
    root(&inner)
}

/// Deep compounds: `0A 00 00` + `0A 00 01 63`×`levels` + `00`×(`levels`+1).
pub fn deep_compounds(levels: usize) -> Vec<u8> {
    let mut v = vec![0x0a, 0x00, 0x00];
    for _ in 0..levels {
        v.extend_from_slice(&[0x0a, 0x00, 0x01, 0x63]);
    }
    v.extend(std::iter::repeat(0x00).take(levels + 1));
    v
}

/// Every read case of docs/format.md §4 (the over-long write case is a writer test).
/// `deep` is the nesting of the two depth cases (100 000 in docs/format.md; seeds for
/// the fuzzer use fewer levels so libFuzzer's `-max_len` stays small).
pub fn cases_with_depth(deep: usize) -> Vec<Case> {
    use Expect::*;
    let c = |name, bytes, expect| Case {
        name,
        bytes,
        expect,
    };
    vec![
        c("deep_lists", deep_lists(deep), Error),
        c("deep_compounds", deep_compounds(deep), Error),
        c(
            "huge_list",
            vec![
                0x0a, 0x00, 0x00, 0x09, 0x00, 0x01, 0x6c, 0x0a, 0x7f, 0xff, 0xff, 0xff,
            ],
            Error,
        ),
        c(
            "huge_int_array",
            vec![
                0x0a, 0x00, 0x00, 0x0b, 0x00, 0x01, 0x69, 0x7f, 0xff, 0xff, 0xff,
            ],
            Error,
        ),
        c(
            "negative_byte_array",
            root(&[0x07, 0x00, 0x01, 0x62, 0xff, 0xff, 0xff, 0xff]),
            Error,
        ),
        c(
            "negative_byte_list",
            root(&[0x09, 0x00, 0x01, 0x6c, 0x01, 0xff, 0xff, 0xff, 0xff]),
            Error,
        ),
        c(
            "list_of_end_len5",
            root(&[0x09, 0x00, 0x01, 0x6c, 0x00, 0x00, 0x00, 0x00, 0x05]),
            Error,
        ),
        c(
            "three_empty_compounds",
            root(&[
                0x09, 0x00, 0x01, 0x6c, 0x0a, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
            ]),
            Valid,
        ),
        c("nul", string_root(&[0x61, 0xc0, 0x80, 0x62]), Valid),
        c(
            "emoji",
            string_root(&[0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]),
            Valid,
        ),
        c(
            "invalid_lone_surrogate",
            string_root(&[0xed, 0xa0, 0x80]),
            Valid,
        ),
        c("invalid_ff", string_root(&[0xff]), Valid),
        c("invalid_overlong_c1", string_root(&[0xc1, 0x81]), Valid),
        c("invalid_truncated_e2", string_root(&[0xe2, 0x82]), Valid),
        c("empty", Vec::new(), Error),
        c("end_root", vec![0x00], None),
    ]
}

/// Every read case of docs/format.md §4 at full size (100 000 levels for the depth cases).
pub fn cases() -> Vec<Case> {
    cases_with_depth(100_000)
}

/// The over-long write case: a 70 000-byte string value.
pub fn over_long_string() -> Vec<u8> {
    vec![b'a'; 70_000]
}
