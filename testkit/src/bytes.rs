//! Byte builders for crafted inputs: docs/format.md §4's `R(x)`, named tags, string
//! documents, the §4 depth cases and nesting chains of any shape. All iterative, so
//! a 100 000-level input is as cheap to build as a small one.

/// `0A 00 00` + `body` + `00`: docs/format.md §4's `R(x)`, a root compound with an
/// empty name around `body`.
///
/// ```
/// assert_eq!(testkit::bytes::r(&[1, 0, 1, b'b', 5]), [10, 0, 0, 1, 0, 1, b'b', 5, 0]);
/// ```
pub fn r(body: &[u8]) -> Vec<u8> {
    let mut v = vec![0x0a, 0, 0];
    v.extend_from_slice(body);
    v.push(0);
    v
}

/// A named tag: id, u16 name length, name, payload.
///
/// ```
/// assert_eq!(testkit::bytes::named(3, "i", &[0, 0, 0, 7]), [3, 0, 1, b'i', 0, 0, 0, 7]);
/// ```
pub fn named(id: u8, name: impl AsRef<[u8]>, payload: &[u8]) -> Vec<u8> {
    let name = name.as_ref();
    let mut v = vec![id];
    v.extend_from_slice(&(name.len() as u16).to_be_bytes());
    v.extend_from_slice(name);
    v.extend_from_slice(payload);
    v
}

/// Concatenates byte pieces.
pub fn cat(pieces: &[&[u8]]) -> Vec<u8> {
    pieces.concat()
}

/// A String payload: u16 length, then `raw` as it is (any bytes, valid MUTF-8 or not).
pub fn string_payload(raw: &[u8]) -> Vec<u8> {
    cat(&[&(raw.len() as u16).to_be_bytes(), raw])
}

/// `R(08 00 01 73 <len> raw)`: a root compound holding one String called "s".
pub fn string_doc(raw: &[u8]) -> Vec<u8> {
    r(&named(8, "s", &string_payload(raw)))
}

/// The network form (unnamed root, docs/format.md §1) of a disk-form document
/// whose root name is empty.
pub fn unnamed(named_doc: &[u8]) -> Vec<u8> {
    assert_eq!(
        &named_doc[..3],
        &[0x0a, 0, 0],
        "a root compound with an empty name"
    );
    cat(&[&[0x0a], &named_doc[3..]])
}

/// docs/format.md §4 deep lists: `R(09 00 01 6C` + `09 00 00 00 01`×`levels` + a
/// final empty list`)`. The root is level 1 and "l" level 2, so `levels` ≥ 511 is
/// too deep (the 511th nested list is level 513).
pub fn deep_lists(levels: usize) -> Vec<u8> {
    let mut inner = vec![0x09, 0x00, 0x01, 0x6c];
    for _ in 0..levels {
        inner.extend_from_slice(&[0x09, 0x00, 0x00, 0x00, 0x01]);
    }
    inner.extend_from_slice(&[0x00, 0x00, 0x00, 0x00, 0x00]);
    r(&inner)
}

/// docs/format.md §4 deep compounds: `0A 00 00` + `0A 00 01 63`×`levels` +
/// `00`×(`levels`+1): `levels` + 1 levels, so `levels` ≥ 512 is too deep.
pub fn deep_compounds(levels: usize) -> Vec<u8> {
    let mut v = vec![0x0a, 0x00, 0x00];
    for _ in 0..levels {
        v.extend_from_slice(&[0x0a, 0x00, 0x01, 0x63]);
    }
    v.resize(v.len() + levels + 1, 0);
    v
}

/// A container kind in a nesting chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Compound.
    C,
    /// List.
    L,
}

impl Kind {
    /// The tag id.
    pub fn id(self) -> u8 {
        match self {
            Kind::C => 10,
            Kind::L => 9,
        }
    }
}

/// A chain of `depth` containers whose kinds repeat `pattern`
/// (`[C]` = pure compounds, `[L]` = pure lists, `[C, L]` = alternating, ...).
pub fn chain(pattern: &[Kind], depth: usize) -> Vec<Kind> {
    pattern.iter().copied().cycle().take(depth).collect()
}

/// The payload of `kinds[0]` with `kinds[1]` inside it, and so on: a compound
/// holds its child under the name "c", a list holds exactly one element. The
/// innermost compound holds an Int, the innermost list is a list of two Bytes
/// (a list of scalars is a level too). Built without recursion.
pub fn chain_payload(kinds: &[Kind]) -> Vec<u8> {
    assert!(!kinds.is_empty());
    let mut prefix = Vec::with_capacity(kinds.len() * 5 + 16);
    let mut suffix = Vec::with_capacity(kinds.len());
    for w in kinds.windows(2) {
        match w[0] {
            Kind::C => {
                prefix.extend_from_slice(&[w[1].id(), 0, 1, b'c']);
                suffix.push(0);
            }
            Kind::L => prefix.extend_from_slice(&[w[1].id(), 0, 0, 0, 1]),
        }
    }
    match kinds[kinds.len() - 1] {
        Kind::C => prefix.extend_from_slice(&[3, 0, 1, b'x', 0, 0, 0, 42, 0]),
        Kind::L => prefix.extend_from_slice(&[1, 0, 0, 0, 2, 7, 8]),
    }
    suffix.reverse();
    prefix.extend_from_slice(&suffix);
    prefix
}

/// Disk form of a chain whose root is a compound: `0A 00 00` + payload.
pub fn chain_named(kinds: &[Kind]) -> Vec<u8> {
    assert_eq!(kinds[0], Kind::C);
    cat(&[&[0x0a, 0, 0], &chain_payload(kinds)])
}

/// Network (unnamed tag) form of any chain: id + payload.
pub fn chain_tag(kinds: &[Kind]) -> Vec<u8> {
    cat(&[&[kinds[0].id()], &chain_payload(kinds)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_match_the_spelled_out_bytes() {
        assert_eq!(deep_compounds(1), [10, 0, 0, 10, 0, 1, b'c', 0, 0]);
        assert_eq!(
            deep_lists(1),
            [10, 0, 0, 9, 0, 1, b'l', 9, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(string_doc(b"x"), [10, 0, 0, 8, 0, 1, b's', 0, 1, b'x', 0]);
        assert_eq!(unnamed(&r(&[])), [10, 0]);
        let kinds = chain(&[Kind::C, Kind::L], 3);
        assert_eq!(kinds, [Kind::C, Kind::L, Kind::C]);
        assert_eq!(
            chain_tag(&kinds),
            [
                10, 9, 0, 1, b'c', 10, 0, 0, 0, 1, 3, 0, 1, b'x', 0, 0, 0, 42, 0, 0
            ]
        );
    }
}
