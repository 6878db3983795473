//! Which value of a broken document an error falls in. The reader reports a
//! byte offset; `simdnbt::path::locate_error` runs the same reader core again
//! with a sink that keeps the path, so `check` can say `in Inventory[3].id`.

/// A reader's error on `nbt`, then `note` (which bytes the offset counts),
/// then the path of the value it is in when that is not the root:
/// `unexpected end of input at byte 90, in Inventory[2].id`.
pub fn describe(error: &simdnbt::Error, nbt: &[u8], note: &str) -> String {
    match simdnbt::path::locate_error(nbt) {
        // The same failure (it is the same core, unless `error` came from
        // reading with other limits): say where.
        Some((located, path))
            if located == *error && located.offset() == error.offset() && !path.is_empty() =>
        {
            format!("{error}{note}, in {path}")
        }
        _ => format!("{error}{note}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(snbt: &str) -> Vec<u8> {
        let c = simdnbt::snbt::compound_from_str(snbt).unwrap();
        let mut out = Vec::new();
        simdnbt::owned::BaseNbt::new("", c).write(&mut out).unwrap();
        out
    }

    fn described(bytes: &[u8]) -> String {
        let e = simdnbt::borrow::read(&mut std::io::Cursor::new(bytes)).unwrap_err();
        describe(&e, bytes, "")
    }

    #[test]
    fn names_the_value_a_cut_falls_in() {
        let bytes = doc("{a: 1b, b: {c: [I; 1, 2, 3], d: [{e: 'xyz'}, {e: 'w'}]}, f: [1L, 2L]}");
        let cut_after = |needle: &[u8], extra: usize| {
            let start = bytes
                .windows(needle.len())
                .position(|w| w == needle)
                .unwrap();
            described(&bytes[..start + extra])
        };
        assert!(cut_after(b"xyz", 1).ends_with(", in b.d[0].e"));
        assert!(cut_after(b"\x00\x00\x00\x03\x00\x00\x00\x01", 6).ends_with(", in b.c"));
        assert!(cut_after(b"\x00\x00\x00\x00\x00\x00\x00\x02", 3).ends_with(", in f"));
        // Cut in the root's own header: no path.
        assert_eq!(described(&bytes[..2]), "unexpected end of input at byte 2");
    }
}
