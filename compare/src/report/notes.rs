//! What each peer skips or validates while parsing, for the report's notes
//! section.
//!
//! Each entry was checked against the crate's source at the version the
//! `compare` crate pins (registry sources of na_nbt 0.2.1, ussr-nbt 0.2.1,
//! shen-nbt5 0.4.6, graphite_binary 0.1.0, valence_nbt 0.8.0, crab_nbt
//! 0.2.11, hematite-nbt 0.5.2, fastnbt 2.6.3, quartz_nbt 0.2.9, azalea-nbt
//! 0.8.0, simdnbt 0.10.0). The two entries for this workspace's simdnbt
//! describe the design its `Mutf8Str` / `RawList` contracts set out, shared
//! with upstream 0.10; re-check them against the workspace parser.
//!
//! The report takes notes as `(peer, notes)` pairs, so this table can be
//! replaced by one built from the bench adapters' own notes.

/// `(peer, notes)` pairs, in [`super::peers::KNOWN`] order. One or two
/// sentences each.
pub const NOTES: &[(&str, &str)] = &[
    (
        "simdnbt_borrow",
        "Borrowed view of the input: strings stay `Mutf8Str` slices and numeric arrays stay \
         big-endian `RawList` slices, so MUTF-8 decoding and byte swapping are deferred to \
         access time.",
    ),
    (
        "simdnbt_owned",
        "Owned tree in input order: strings are copied as raw MUTF-8 (`Mutf8String`, decoded on \
         access) and numeric arrays are converted to native-endian `Vec`s while parsing.",
    ),
    (
        "upstream_borrow",
        "Parses into a flat tape of 64-bit elements; strings stay `Mutf8Str` slices (`to_str` \
         decodes on access and yields an empty string for invalid MUTF-8) and arrays stay \
         big-endian `RawList` slices until read.",
    ),
    (
        "upstream_owned",
        "Owned tree whose compounds are `Vec<(Mutf8String, NbtTag)>` in input order; strings are \
         copied as raw MUTF-8 without decoding, int and long arrays are converted to native `Vec`s.",
    ),
    (
        "na_nbt_borrow",
        "`read_borrowed` makes one pass that records an index of container offsets; scalars, \
         strings and arrays are read from the input on access, and strings stay raw MUTF-8 until \
         `decode`, `decode_lossy` or `decode_strict` is called.",
    ),
    (
        "na_nbt_owned",
        "`read_owned` builds a mutable owned tree, converting numbers from the source to the \
         storage byte order while parsing; strings are copied as raw MUTF-8 bytes, not decoded.",
    ),
    (
        "ussr_borrow",
        "Borrowed tree (a `Vec` of entries per compound, input order kept) whose strings, byte \
         arrays and numeric arrays/lists are slices of the input: no MUTF-8 validation or decoding \
         and no byte swapping while parsing. Default depth limit 128.",
    ),
    (
        "ussr_owned",
        "Owned tree read from any `io::Read`; strings are copied as raw MUTF-8 (`MString`) without \
         validation or decoding. Default depth limit 128.",
    ),
    (
        "shen",
        "Owned tree with compounds as `Vec<(String, NbtValue)>` in input order; strings are \
         decoded as plain UTF-8 with `String::from_utf8_lossy`, not MUTF-8, so an encoded NUL or \
         a surrogate pair becomes U+FFFD. Takes the input as `&mut [u8]`.",
    ),
    (
        "graphite",
        "Owned arena of nodes in one `Vec`, each compound a key-sorted `Vec` filled by \
         binary-search insertion (a duplicate key is an error); strings are decoded from Java \
         CESU-8 (invalid is an error) and arrays copied into native `Vec`s.",
    ),
    (
        "valence",
        "Owned tree whose compounds are `BTreeMap`s without the `preserve_order` feature (keys \
         come back sorted); strings are decoded from Java CESU-8 (invalid is an error), arrays \
         converted to native `Vec`s, nesting limited to depth 512.",
    ),
    (
        "crab",
        "Owned tree over `bytes::Buf` whose compounds are `Vec`s in input order; each insert \
         scans for the key and drops a later duplicate, and a tag that fails to parse silently \
         ends its compound. Strings are decoded from Java CESU-8 (invalid is an error).",
    ),
    (
        "hematite",
        "Owned tree read through `io::Read` with compounds as `HashMap`s (input order lost); \
         every string is read into a fresh `Vec` and decoded from Java CESU-8, arrays converted \
         to native `Vec`s.",
    ),
    (
        "fastnbt",
        "serde deserialisation into `fastnbt::Value`: compounds are `HashMap<String, Value>` \
         (input order lost), strings are decoded from Java CESU-8 (invalid is an error) and \
         arrays converted to native `Vec`s.",
    ),
    (
        "quartz",
        "Owned tree read through `io::Read` with compounds as `HashMap`s (no `preserve_order`); \
         every string is read into a fresh `Vec` and decoded from Java CESU-8 (invalid is an \
         error), arrays converted to native `Vec`s.",
    ),
    (
        "azalea",
        "Owned tree; strings are decoded as plain UTF-8 into `CompactString` (invalid bytes fall \
         back to a lossy copy with a logged warning), each compound is sorted by key after \
         reading, and a missing tag id at the end of the input reads as End.",
    ),
];

/// The notes for `peer` in `notes`, if any.
pub fn lookup<'a>(notes: &[(&str, &'a str)], peer: &str) -> Option<&'a str> {
    notes.iter().find(|(n, _)| *n == peer).map(|(_, t)| *t)
}
