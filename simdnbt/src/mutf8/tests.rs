use std::borrow::Cow;

use super::decode::*;
use super::encode::*;
use super::string::*;
use super::*;
use crate::simd::tests::Rng;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The overlapping-load check agrees with a byte loop for every length it
/// takes, with one high byte at every position (and none), and declines
/// longer inputs.
#[test]
fn short_ascii_checks_every_byte() {
    // Under Miri, every length the check takes and one past it.
    let longest = if cfg!(miri) { 17 } else { 24 };
    for n in 0..=longest {
        let plain: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
        let got = short_ascii(&plain);
        if n <= 16 {
            assert_eq!(got.map(str::as_bytes), Some(&plain[..]), "len {n}");
        } else {
            assert_eq!(got, None, "len {n}");
        }
        for at in 0..n {
            let highs: &[u8] = if cfg!(miri) {
                &[0x80]
            } else {
                &[0x80, 0xC0, 0xFF]
            };
            for &high in highs {
                let mut v = plain.clone();
                v[at] = high;
                assert_eq!(short_ascii(&v), None, "len {n}, {high:#x} at {at}");
                assert_eq!(decode_lossy(&v), decode_lossy_general(&v), "len {n}");
            }
        }
    }
}

/// Both inline constructors give the block a byte-by-byte copy would, for
/// every inline length, and `from_prefixed` does with or without `SIZE`
/// bytes after the prefix (past the length the block's bytes are
/// unspecified: `from_prefixed` copies what follows in the input).
#[test]
fn inline_blocks_match_a_plain_copy() {
    for n in 0..=INLINE_CAP + 3 {
        let bytes: Vec<u8> = (0..n as u8).map(|i| 0xA0 ^ i).collect();
        let s = Mutf8String::from_slice(&bytes);
        assert_eq!(s.as_bytes(), &bytes[..], "len {n}");
        match s.inline_block() {
            Some(block) => {
                let mut want = [0u8; SIZE];
                want[0] = n as u8;
                want[1..=n].copy_from_slice(&bytes);
                assert_eq!(block.as_array(), &want, "len {n}");
                assert_eq!(block.len(), n);
            }
            None => assert!(n > INLINE_CAP),
        }
        let mut prefixed = vec![0xEE, (n >> 8) as u8, n as u8];
        prefixed.extend_from_slice(&bytes);
        for trailing in [0, 1, SIZE - n.min(SIZE), 40] {
            let mut input = prefixed.clone();
            input.extend(std::iter::repeat_n(0xFF, trailing));
            let p = Mutf8String::from_prefixed(&input, 1);
            assert_eq!(p, s, "len {n}, {trailing} trailing");
            assert_eq!(p.as_bytes(), &bytes[..], "len {n}, {trailing} trailing");
            assert_eq!(p.inline_block().is_some(), n <= INLINE_CAP);
            if let Some(block) = p.inline_block() {
                assert_eq!(
                    &block.as_array()[..=n],
                    &s.inline_block().unwrap().as_array()[..=n]
                );
            }
            let c = p.clone();
            assert_eq!(c.as_bytes(), &bytes[..]);
        }
    }
}

/// A long prefix whose low byte is small is not taken for a short string.
#[test]
fn from_prefixed_reads_both_length_bytes() {
    let mut input = vec![0x01, 0x05];
    input.extend((0..0x105).map(|i| i as u8));
    let s = Mutf8String::from_prefixed(&input, 0);
    assert_eq!(s.len(), 0x105);
    assert!(s.inline_block().is_none());
    assert_eq!(s.as_bytes(), &input[2..]);
}

/// Independent reference encoder: Java's writeUTF over UTF-16 units.
fn java_encode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for u in s.encode_utf16() {
        let u = u32::from(u);
        if u != 0 && u < 0x80 {
            out.push(u as u8);
        } else if u < 0x800 {
            out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
        } else {
            out.extend_from_slice(&[
                0xE0 | (u >> 12) as u8,
                0x80 | ((u >> 6) & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
            ]);
        }
    }
    out
}

#[test]
fn nbt_md_valid_cases() {
    let s = Mutf8Str::from_slice(&[0x61, 0xC0, 0x80, 0x62]);
    assert_eq!(s.try_to_str().unwrap(), "a\0b");
    assert_eq!(s.to_str(), "a\0b");
    assert_eq!(s, "a\0b");
    let e = Mutf8Str::from_slice(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
    assert_eq!(e.try_to_str().unwrap(), "😀");
    assert_eq!(e.to_string_lossy(), "😀");
    assert_eq!(e, "😀");
    assert_eq!(encode("a\0b").as_ref(), [0x61, 0xC0, 0x80, 0x62]);
    assert_eq!(encode("😀").as_ref(), [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
    assert_eq!(encoded_len("a\0b"), 4);
    assert_eq!(encoded_len("😀"), 6);
}

#[test]
fn nbt_md_invalid_cases() {
    // (bytes, valid_up_to, lossy)
    let cases: &[(&[u8], usize, &str)] = &[
        (&[0xED, 0xA0, 0x80], 0, "\u{FFFD}"),
        (&[0xFF], 0, "\u{FFFD}"),
        (&[0xC1, 0x81], 0, "\u{FFFD}\u{FFFD}"),
        (&[0xE2, 0x82], 0, "\u{FFFD}"),
        (b"ab\xED\xA0\x80cd", 2, "ab\u{FFFD}cd"),
        (b"ab\xE2\x82", 2, "ab\u{FFFD}"),
        (b"\xC3\xA9\xFF", 2, "é\u{FFFD}"),
        (b"x\xED\xB8\x80", 1, "x\u{FFFD}"),
        (b"x\xED\xA0\xBDy", 1, "x\u{FFFD}y"),
        (b"\xED\xA0\xBD\xED\xA0\xBD", 0, "\u{FFFD}\u{FFFD}"),
        (b"\xC0", 0, "\u{FFFD}"),
        (b"\xC0\x81", 0, "\u{FFFD}\u{FFFD}"),
        (b"\xE0\x80\x80", 0, "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\x80", 0, "\u{FFFD}"),
        (b"a\xC0\x80\xFF", 3, "a\0\u{FFFD}"),
        ("é😀".as_bytes(), 2, "é\u{FFFD}"),
        (b"\xF0\x9F", 0, "\u{FFFD}"),
        (b"\xF5\x80", 0, "\u{FFFD}\u{FFFD}"),
    ];
    for &(bytes, valid_up_to, lossy) in cases {
        let s = Mutf8Str::from_slice(bytes);
        let err = s.try_to_str().unwrap_err();
        assert_eq!(err.valid_up_to(), valid_up_to, "{bytes:02X?}");
        assert_eq!(decode(bytes).unwrap_err(), err);
        assert_eq!(s.to_str(), lossy, "{bytes:02X?}");
        assert_eq!(decode_lossy(bytes), lossy);
        assert_eq!(s.as_bytes(), bytes, "raw bytes kept");
        let owned = s.to_owned();
        assert_eq!(owned.clone().try_into_string().unwrap_err(), err);
        assert_eq!(owned.clone().into_string(), lossy);
        assert_eq!(owned.into_vec(), bytes);
        assert!(err.to_string().contains(&valid_up_to.to_string()));
    }
}

#[test]
fn four_byte_utf8_is_rejected() {
    for s in ["😀", "a😀", "\u{10000}", "\u{10FFFF}", "ééé😀"] {
        let err = decode(s.as_bytes()).unwrap_err();
        assert_eq!(err.valid_up_to(), s.find(|c: char| c > '\u{FFFF}').unwrap());
        assert_eq!(decode_lossy(s.as_bytes()).matches('\u{FFFD}').count(), 1);
    }
}

#[test]
fn raw_nul_is_accepted() {
    assert_eq!(decode(b"a\0b").unwrap(), "a\0b");
    assert_eq!(decode("é\0".as_bytes()).unwrap(), "é\0");
    assert_eq!(decode(b"\0\xC0\x80").unwrap(), "\0\0");
}

#[test]
fn borrows_when_possible() {
    assert!(matches!(decode(b"hello"), Ok(Cow::Borrowed(_))));
    assert!(matches!(
        decode("héllo ✓ \u{D7FF}\u{E000}".as_bytes()),
        Ok(Cow::Borrowed(_))
    ));
    assert!(matches!(decode_lossy("✓".as_bytes()), Cow::Borrowed(_)));
    assert!(matches!(decode(b"a\xC0\x80"), Ok(Cow::Owned(_))));
    assert!(matches!(encode("plain ✓ é"), Cow::Borrowed(_)));
    assert!(matches!(encode("a\0"), Cow::Owned(_)));
    assert!(matches!(Mutf8Str::from_str("abc"), Cow::Borrowed(_)));
    assert!(matches!(Mutf8Str::from_str("😀"), Cow::Owned(_)));
    let s = String::from("reuse");
    let p = s.as_ptr();
    assert_eq!(Mutf8String::from(s).as_bytes().as_ptr(), p);
    let v = b"and this".to_vec();
    let p = v.as_ptr();
    assert_eq!(Mutf8String::from_vec(v).as_bytes().as_ptr(), p);
    // The heap form gives back the very buffer, capacity included.
    let mut v = Vec::with_capacity(300);
    v.extend_from_slice(b"short");
    let (p, cap) = (v.as_ptr(), v.capacity());
    let back = Mutf8String::from_vec(v).into_vec();
    assert_eq!(
        (back.as_ptr(), back.capacity(), &back[..]),
        (p, cap, &b"short"[..])
    );
    let s = String::with_capacity(1000) + "text";
    let (p, cap) = (s.as_ptr(), s.capacity());
    let back = Mutf8String::from(s).into_string();
    assert_eq!(
        (back.as_ptr(), back.capacity(), &back[..]),
        (p, cap, "text")
    );
}

#[test]
fn every_char_class_round_trips() {
    let chars = [
        '\0',
        '\u{1}',
        'A',
        '\u{7F}',
        '\u{80}',
        'é',
        '\u{7FF}',
        '\u{800}',
        '✓',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFD}',
        '\u{FFFF}',
        '\u{10000}',
        '😀',
        '\u{10FFFF}',
    ];
    for c in chars {
        let s = format!("x{c}y{c}");
        let enc = encode(&s);
        assert_eq!(enc.as_ref(), java_encode(&s), "{c:?}");
        assert_eq!(encoded_len(&s), enc.len());
        assert_eq!(decode(&enc).unwrap(), s);
        assert_eq!(decode_lossy(&enc), s);
        assert!(!enc[1..].contains(&0) || c != '\0');
        assert!(enc.iter().all(|&b| b < 0xF0), "no 4-byte sequences");
        let m = Mutf8String::from(s.as_str());
        assert_eq!(m, s.as_str());
        assert_eq!(m, *s.as_str());
        assert_eq!(Mutf8String::from(s.clone()), m);
        assert_eq!(m.clone().try_into_string().unwrap(), s);
        assert_eq!(m.to_string(), s);
    }
}

fn random_char(rng: &mut Rng) -> char {
    loop {
        let r = rng.next();
        let cp = match r % 6 {
            0 => (r >> 8) as u32 % 0x80,
            1 => 0x80 + (r >> 8) as u32 % 0x780,
            2 => 0x800 + (r >> 8) as u32 % 0xF800,
            3 => 0x10000 + (r >> 8) as u32 % 0x100000,
            4 => [
                0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
            ][(r >> 8) as usize % 10],
            _ => u32::from(b'a') + (r >> 8) as u32 % 26,
        };
        if let Some(c) = char::from_u32(cp) {
            return c;
        }
    }
}

#[test]
fn random_strings_round_trip() {
    let mut rng = Rng::new(0x004D_5554_4638);
    let iters = if cfg!(miri) { 40 } else { 3000 };
    for _ in 0..iters {
        let len = (rng.next() % 40) as usize;
        let s: String = (0..len).map(|_| random_char(&mut rng)).collect();
        let enc = encode(&s);
        assert_eq!(enc.as_ref(), java_encode(&s));
        assert_eq!(encoded_len(&s), enc.len());
        assert_eq!(decode(&enc).unwrap(), s);
        assert_eq!(decode_lossy(&enc), s);
        assert_eq!(Mutf8Str::from_slice(&enc), s.as_str());
    }
}

#[test]
fn random_bytes_checked_and_lossy_agree() {
    let mut rng = Rng::new(0xB17E5);
    let iters = if cfg!(miri) { 60 } else { 20000 };
    let alphabet = [
        0x00, 0x41, 0x80, 0xA0, 0xBD, 0xB8, 0xC0, 0xC1, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xFF,
        0x9F,
    ];
    for _ in 0..iters {
        let len = (rng.next() % 12) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let r = rng.next();
                if r % 3 == 0 {
                    (r >> 8) as u8
                } else {
                    alphabet[(r >> 16) as usize % alphabet.len()]
                }
            })
            .collect();
        let lossy = decode_lossy(&bytes);
        match decode(&bytes) {
            Ok(s) => assert_eq!(s, lossy),
            Err(e) => {
                let n = e.valid_up_to();
                let prefix = decode(&bytes[..n]).unwrap();
                assert!(lossy.starts_with(&*prefix));
                assert!(lossy[prefix.len()..].starts_with('\u{FFFD}'));
            }
        }
    }
}

#[test]
fn layout_matches_byte_slices() {
    use std::mem::{align_of, size_of};
    assert_eq!(size_of::<&Mutf8Str>(), size_of::<&[u8]>());
    assert_eq!(align_of::<&Mutf8Str>(), align_of::<&[u8]>());
    let parts: [&[u8]; 2] = [b"ab", b"\xC0\x80"];
    let names: &[&Mutf8Str] =
        // SAFETY: &Mutf8Str has the layout of &[u8] (repr(transparent)).
        unsafe { &*(&parts[..] as *const [&[u8]] as *const [&Mutf8Str]) };
    assert_eq!(names[0], "ab");
    assert_eq!(names[1], "\0");
}

fn hash_of(v: &(impl Hash + ?Sized)) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// Each length around the inline limit, built every way.
#[test]
fn inline_and_heap_forms_agree() {
    for len in [0usize, 1, 3, 4, 7, 8, 14, 15, 16, 17, 22, 23, 24, 40] {
        let bytes: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        let inline_or_heap = Mutf8String::from_slice(&bytes);
        assert_eq!(inline_or_heap.inline_block().is_some(), len <= INLINE_CAP);
        let heap = Mutf8String::heap(bytes.clone());
        assert!(heap.inline_block().is_none());
        let moved = Mutf8String::from_vec(bytes.clone());
        assert!(moved.inline_block().is_none(), "from_vec keeps its buffer");
        let from_str = Mutf8String::from(std::str::from_utf8(&bytes).unwrap());
        let from_string = Mutf8String::from(String::from_utf8(bytes.clone()).unwrap());
        let owned = Mutf8Str::from_slice(&bytes).to_owned();
        for s in [
            &inline_or_heap,
            &heap,
            &moved,
            &from_str,
            &from_string,
            &owned,
        ] {
            assert_eq!(s.as_bytes(), &bytes[..]);
            assert_eq!(s.len(), len);
            assert_eq!(*s, inline_or_heap);
            assert_eq!(s.cmp(&heap), std::cmp::Ordering::Equal);
            assert_eq!(
                s.partial_cmp(&inline_or_heap),
                Some(std::cmp::Ordering::Equal)
            );
            assert_eq!(hash_of(s), hash_of(&heap));
            assert_eq!(hash_of(s), hash_of(Mutf8Str::from_slice(&bytes)));
            assert_eq!(s.clone(), *s);
            assert_eq!(s.clone().inline_block().is_some(), len <= INLINE_CAP);
            assert_eq!(s.clone().into_vec(), bytes);
            assert_eq!(s.clone().into_string().as_bytes(), &bytes[..]);
            assert_eq!(s.clone().try_into_string().unwrap().as_bytes(), &bytes[..]);
            assert_eq!(AsRef::<[u8]>::as_ref(s), &bytes[..]);
            assert_eq!(s.as_str().as_bytes(), &bytes[..]);
            assert_eq!(**s, *Mutf8Str::from_slice(&bytes));
            assert_eq!(format!("{s}"), std::str::from_utf8(&bytes).unwrap());
        }
        // Ordering across forms: a shorter prefix sorts first.
        if len > 0 {
            let shorter = Mutf8String::heap(bytes[..len - 1].to_vec());
            assert!(shorter < inline_or_heap);
            assert!(Mutf8String::from_slice(&bytes[..len - 1]) < heap);
        }
    }
}

#[test]
fn inline_strings_keep_invalid_bytes() {
    let raw = b"\xFF\xC0\x80\xED\xA0\x80";
    let s = Mutf8String::from_slice(raw);
    assert!(s.inline_block().is_some());
    assert_eq!(s.as_bytes(), raw);
    assert!(s.clone().try_into_string().is_err());
    assert_eq!(s.clone().into_string(), "\u{FFFD}\0\u{FFFD}");
    assert_eq!(s.into_vec(), raw);
    let e = Mutf8String::from("\0\0\0\0\0\0\0\0");
    assert_eq!(e.len(), 16);
    assert!(e.inline_block().is_none(), "an encoded buffer is kept");
    assert_eq!(e.as_bytes(), b"\xC0\x80".repeat(8));
    // 16 bytes: inline where 23 fit (64-bit targets), not where 15 do.
    assert_eq!(
        e.clone().inline_block().is_some(),
        16 <= INLINE_CAP,
        "a clone is inline when it fits"
    );
}

#[test]
fn sizes() {
    #[cfg(target_pointer_width = "64")]
    {
        assert_eq!(std::mem::size_of::<Mutf8String>(), 24);
        assert_eq!(std::mem::size_of::<Option<Mutf8String>>(), 24);
        assert_eq!(INLINE_CAP, 23);
        assert_eq!(std::mem::size_of::<crate::owned::NbtTag>(), 32);
        assert_eq!(
            std::mem::size_of::<(Mutf8String, crate::owned::NbtTag)>(),
            56
        );
    }
    #[cfg(target_pointer_width = "32")]
    {
        assert_eq!(std::mem::size_of::<Mutf8String>(), 16);
        assert_eq!(INLINE_CAP, 15);
    }
    // Any width: the niche keeps `Option` free.
    assert_eq!(
        std::mem::size_of::<Option<Mutf8String>>(),
        std::mem::size_of::<Mutf8String>()
    );
    assert_eq!(Mutf8String::default().as_bytes(), b"");
    assert_eq!(Mutf8String::new(), Mutf8String::heap(Vec::new()));
}

#[test]
fn traits() {
    let hash = |v: &dyn Fn(&mut DefaultHasher)| {
        let mut h = DefaultHasher::new();
        v(&mut h);
        h.finish()
    };
    let owned = Mutf8String::from("k\0");
    let borrowed: &Mutf8Str = &owned;
    assert_eq!(hash(&|h| owned.hash(h)), hash(&|h| borrowed.hash(h)));
    let mut map = std::collections::HashMap::new();
    map.insert(owned.clone(), 1);
    assert_eq!(map.get(Mutf8Str::from_slice(b"k\xC0\x80")), Some(&1));
    assert!(Mutf8Str::from_slice(b"a") < Mutf8Str::from_slice(b"b"));
    let (a, b) = (Mutf8String::from("a"), Mutf8String::from("b"));
    assert!(a < b);
    let d: &Mutf8Str = Default::default();
    assert!(d.is_empty());
    assert_eq!(Mutf8String::default(), Mutf8String::new());
    assert_eq!(Mutf8String::new().len(), 0);
    assert_eq!(
        format!("{:?}", Mutf8Str::from_slice(b"a\"\xC0\x80\xFF")),
        "\"a\\\"\\0\u{FFFD}\""
    );
    assert_eq!(format!("{}", Mutf8Str::from_slice(b"a\xFF")), "a\u{FFFD}");
    assert_eq!(format!("{:>4}", Mutf8Str::from_slice(b"ab")), "  ab");
    assert_eq!(format!("{owned:?}"), "\"k\\0\"");
    assert_eq!(format!("{owned}"), "k\0");
    assert_eq!(AsRef::<[u8]>::as_ref(borrowed), b"k\xC0\x80");
    assert!(Mutf8Str::from_slice(b"abc").is_ascii());
    assert!(!Mutf8Str::from_slice(b"ab\xC3\xA9").is_ascii());
    assert_eq!(
        Mutf8Str::from_slice(b"a\0b"),
        "a\0b",
        "a raw 00 is U+0000 too"
    );
    assert_ne!(Mutf8Str::from_slice(b"a\0b\0"), "a\0b");
    assert_eq!(Mutf8String::from(borrowed), owned);
    assert_eq!(Mutf8String::from_vec(vec![0xFF]).as_bytes(), [0xFF]);
    assert_eq!(owned.as_str().len(), 3);
    let e: Box<dyn std::error::Error> = Box::new(decode(b"\xFF").unwrap_err());
    assert_eq!(e.to_string(), "invalid MUTF-8 at byte 0");
}
