use super::BeNumber;
use super::kernels::{self, Kernel};

/// Small seeded PRNG (xorshift64*), so failures reproduce.
pub(crate) struct Rng(u64);
impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next() as u8;
        }
    }
}

#[cfg(not(miri))]
const MAX_LEN: usize = 257;
#[cfg(miri)]
const MAX_LEN: usize = 70;

/// The lengths to test: all of them natively, a spread under Miri (slow).
fn lengths() -> impl Iterator<Item = usize> {
    (0..=MAX_LEN).filter(|&l| !cfg!(miri) || l < 18 || l % 13 == 0 || l == MAX_LEN)
}

/// The start offsets to test: every one natively; under Miri one of each
/// alignment class (8-aligned, odd, 2- and 4-aligned only), which is what
/// its alignment checks tell apart.
fn offsets() -> &'static [usize] {
    if cfg!(miri) {
        &[0, 1, 2, 4]
    } else {
        &[0, 1, 2, 3, 4, 5, 6, 7]
    }
}

/// Bytes that exercise float corner cases as well as random data.
fn special_lanes<T: BeNumber>() -> Vec<u8> {
    let mut v = Vec::new();
    match T::SIZE {
        4 => {
            for bits in [
                0x7FC0_0001u32,
                0xFF80_0000,
                0x8000_0000,
                0x7F80_0001,
                0xFFFF_FFFF,
                1,
            ] {
                v.extend_from_slice(&bits.to_be_bytes());
            }
        }
        8 => {
            for bits in [
                0x7FF8_0000_0000_0001u64,
                0xFFF0_0000_0000_0000,
                0x8000_0000_0000_0000,
                0x7FF0_0000_0000_0001,
                u64::MAX,
                1,
            ] {
                v.extend_from_slice(&bits.to_be_bytes());
            }
        }
        _ => v.extend_from_slice(&[0x80, 0x00, 0x7F, 0xFF, 0xFF, 0xFF]),
    }
    v
}

fn check_type<T: BeNumber + std::fmt::Debug>(kernel: Kernel, rng: &mut Rng) {
    let mut buf = vec![0u8; MAX_LEN * T::SIZE + 8];
    for len in lengths() {
        for &offset in offsets() {
            // Fresh random bytes where the kernels read (and before, to the
            // offset); filling the rest too cost Miri more than the kernels.
            rng.fill(&mut buf[..offset + len * T::SIZE]);
            let specials = special_lanes::<T>();
            if len * T::SIZE >= specials.len() {
                buf[offset..offset + specials.len()].copy_from_slice(&specials);
            }
            let input = &buf[offset..offset + len * T::SIZE];
            // Reference: the std scalar conversion, element by element.
            let reference: Vec<T> = input.chunks_exact(T::SIZE).map(T::from_be_slice).collect();

            let got: Vec<T> = kernels::from_be_bytes(kernel, input);
            assert_eq!(got.len(), len);
            // Compare bit patterns by re-encoding with std's `to_be_bytes`.
            let mut back = Vec::new();
            for x in &got {
                x.push_be(&mut back);
            }
            assert_eq!(
                back, input,
                "{kernel:?} from_be_bytes len {len} offset {offset}"
            );

            // extend_be_bytes appends after existing bytes; values come from an
            // unaligned-free Vec, bytes must equal the input.
            let mut out = vec![0xAAu8; offset];
            kernels::extend_be_bytes(kernel, &mut out, &reference);
            assert_eq!(&out[..offset], &vec![0xAAu8; offset][..]);
            assert_eq!(
                &out[offset..],
                input,
                "{kernel:?} extend len {len} offset {offset}"
            );
        }
    }
}

fn check_kernel(kernel: Kernel) {
    let mut rng = Rng::new(0x5EED_0000 + kernel as u64);
    check_type::<i16>(kernel, &mut rng);
    check_type::<i32>(kernel, &mut rng);
    check_type::<i64>(kernel, &mut rng);
    check_type::<f32>(kernel, &mut rng);
    check_type::<f64>(kernel, &mut rng);
}

fn check_ascii_kernel(kernel: Kernel) {
    let mut rng = Rng::new(0xA5C1 + kernel as u64);
    let mut buf = vec![0u8; MAX_LEN + 8];
    for len in lengths() {
        for &offset in offsets() {
            for b in &mut buf[..offset + len] {
                *b = (rng.next() as u8) & 0x7F;
            }
            let s = &mut buf[offset..offset + len];
            assert!(
                kernels::is_ascii(kernel, s),
                "{kernel:?} len {len} offset {offset}"
            );
            if len > 0 {
                // One high byte anywhere must be found.
                let at = (rng.next() as usize) % len;
                s[at] |= 0x80;
                assert!(
                    !kernels::is_ascii(kernel, s),
                    "{kernel:?} len {len} at {at}"
                );
                assert_eq!(kernels::is_ascii(kernel, s), s.is_ascii());
            }
        }
    }
}

fn require(kernel: Kernel) -> bool {
    let ok = kernels::available().contains(&kernel);
    if !ok {
        eprintln!("{kernel:?} not available on this CPU; skipped");
    }
    ok
}

#[test]
fn scalar_path() {
    check_kernel(Kernel::Scalar);
    check_ascii_kernel(Kernel::Scalar);
}

#[test]
fn ssse3_path() {
    if require(Kernel::Ssse3) {
        check_kernel(Kernel::Ssse3);
        check_ascii_kernel(Kernel::Ssse3);
    }
}

#[test]
fn avx2_path() {
    if require(Kernel::Avx2) {
        check_kernel(Kernel::Avx2);
        check_ascii_kernel(Kernel::Avx2);
    }
}

#[test]
fn neon_path() {
    if require(Kernel::Neon) {
        check_kernel(Kernel::Neon);
        check_ascii_kernel(Kernel::Neon);
    }
}

#[test]
fn best_path_is_available_and_cached() {
    let best = kernels::best();
    assert!(kernels::available().contains(&best));
    assert_eq!(kernels::best(), best);
    assert_eq!(*kernels::available().last().unwrap(), best);
}

#[test]
fn public_functions() {
    assert_eq!(super::from_be_bytes::<i16>(&[0x12, 0x34]), [0x1234]);
    assert_eq!(super::from_be_bytes::<i64>(&[]), Vec::<i64>::new());
    let v: Vec<f32> = super::from_be_bytes(&[0x80, 0, 0, 0]);
    assert_eq!(v[0].to_bits(), 0x8000_0000);
    let mut out = Vec::new();
    super::extend_be_bytes(&mut out, &[f64::from_bits(0x7FF8_0000_0000_0001)]);
    assert_eq!(out, [0x7F, 0xF8, 0, 0, 0, 0, 0, 1]);
    assert!(super::is_ascii(b""));
    assert!(!super::is_ascii(&[0xFF]));
    let mut le = Vec::new();
    super::extend_swapped(4, &mut le, &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(le, [4, 3, 2, 1, 8, 7, 6, 5]);
}

#[test]
#[should_panic(expected = "length is not a multiple of the element size")]
fn from_be_bytes_rejects_partial_element() {
    let _ = super::from_be_bytes::<i32>(&[1, 2, 3]);
}

/// `ByteSet::find` against a plain search, at every length up to 80 and every
/// start, with the set's bytes and their neighbours at random places.
#[cfg(feature = "snbt")]
#[test]
fn byte_set_find_matches_a_plain_search() {
    use super::ByteSet;
    const SET: ByteSet<3> = ByteSet::new(0x20, [b'"', 0x7F, 0xED]);
    let near = [
        0x1F, 0x20, 0x21, b'"', 0x23, 0x7E, 0x7F, 0x80, 0xEC, 0xED, 0xEE, 0x00, 0xFF,
    ];
    let mut rng = Rng::new(0x0B17_E5E7);
    let max = if cfg!(miri) { 40 } else { 80 };
    let rounds = if cfg!(miri) { 2 } else { 40 };
    for len in 0..=max {
        for _ in 0..rounds {
            // Mostly bytes outside the set, so that runs cross blocks.
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = rng.next();
                    if r % 8 == 0 {
                        near[(r >> 8) as usize % near.len()]
                    } else {
                        b'a' + (r >> 8) as u8 % 26
                    }
                })
                .collect();
            for from in 0..=len {
                let want = (from..len)
                    .find(|&i| bytes[i] < 0x20 || [b'"', 0x7F, 0xED].contains(&bytes[i]))
                    .unwrap_or(len);
                assert_eq!(SET.find(&bytes, from), want, "{bytes:02X?} from {from}");
            }
        }
    }
}

/// Sequences at the edges of "UTF-8 of the Basic Multilingual Plane": the
/// MUTF-8 forms UTF-8 rejects (`C0 80`, surrogates paired and lone), 4-byte
/// UTF-8, the largest 3-byte character, raw `00`, overlongs, a stray
/// continuation byte and truncated sequences.
const BMP_EDGES: &[&[u8]] = &[
    b"\x00",
    b"\xC0\x80",
    b"\xED\xA0\xBD\xED\xB8\x80",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xED\x9F\xBF",
    b"\xF0\x9F\x98\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xEF\xBF\xBF",
    b"\xC2\xA7",
    b"\xDF\xBF",
    b"\xC2\x7F",
    b"\xC2\xC2\xA7",
    b"\xA7\xC2",
    b"\xE0\x80\x80",
    b"\xC1\x81",
    b"\x80",
    b"\xC2",
    b"\xE2\x82",
    b"\xF0\x9F\x98",
    b"\xFF",
];

/// The definition: valid UTF-8 and no byte `F0` or above.
fn bmp_reference(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok() && bytes.iter().all(|&b| b < 0xF0)
}

/// `is_bmp_utf8` on every available kernel, and `classify` by both of its
/// loops, agree with the definition for every edge sequence at every
/// position of ASCII and of 2-byte text, in every length across the 16-byte
/// loads, the 64-byte block that short inputs are padded to and past it.
#[test]
fn bmp_utf8_agrees_with_its_definition() {
    use super::bmp_utf8::{Class, classify, classify_swar, is_bmp_utf8_on};
    let class = |b: &[u8]| match (b.iter().all(|&x| x < 0x80), b.iter().any(|&x| x >= 0xF0)) {
        (true, _) => Class::Ascii,
        (false, true) => Class::FourByteLead,
        (false, false) => Class::Other,
    };
    // Under Miri (slow): the lengths around each load and block edge, and
    // each edge sequence at the start, the middle and the end.
    let lengths: Vec<usize> = if cfg!(miri) {
        vec![0, 3, 7, 8, 15, 16, 17, 33, 64, 65]
    } else {
        (0..=140).collect()
    };
    let fillers: [&[u8]; 2] = [b"a", "é".as_bytes()];
    let mut checked = 0;
    for filler in fillers {
        for &len in &lengths {
            let text: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
            let mut cases = vec![text.clone()];
            for edge in BMP_EDGES {
                if edge.len() > len {
                    continue;
                }
                let last = len - edge.len();
                let ats: Vec<usize> = if cfg!(miri) {
                    vec![0, last / 2, last]
                } else {
                    (0..=last).collect()
                };
                for at in ats {
                    let mut v = text.clone();
                    v[at..at + edge.len()].copy_from_slice(edge);
                    cases.push(v);
                }
            }
            for v in &cases {
                let want = bmp_reference(v);
                assert_eq!(classify(v), class(v), "{v:02X?}");
                assert_eq!(classify_swar(v), class(v), "{v:02X?}");
                for kernel in kernels::available() {
                    assert_eq!(is_bmp_utf8_on(kernel, v), want, "{kernel:?} {v:02X?}");
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > if cfg!(miri) { 300 } else { 10_000 },
        "{checked} cases"
    );
}

/// The 2-byte check decides every input made of ASCII, 2-byte leads and
/// continuation bytes (valid or not) as the definition does, at every length
/// up to the block with each kind of byte at every position, and leaves
/// every input with another non-ASCII byte undecided.
#[cfg(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    target_feature = "sse2"
))]
#[test]
fn two_byte_check_decides_latin_text() {
    use super::bmp_utf8::two_byte_sse2;
    let lengths: Vec<usize> = if cfg!(miri) {
        vec![0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64]
    } else {
        (0..=64).collect()
    };
    let mut decided = 0;
    for &len in &lengths {
        for filler in [&b"ab"[..], "é".as_bytes(), "aé".as_bytes()] {
            let text: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
            assert_eq!(two_byte_sse2(&text), Some(bmp_reference(&text)));
            let ats: Vec<usize> = if cfg!(miri) {
                [0, len / 2, len.saturating_sub(1)]
                    .into_iter()
                    .filter(|&i| i < len)
                    .collect()
            } else {
                (0..len).collect()
            };
            for at in ats {
                for b in [
                    0x00, 0x41, 0x7F, 0x80, 0xA7, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xF0,
                    0xFF,
                ] {
                    let mut v = text.clone();
                    v[at] = b;
                    let simple = v.iter().all(|&x| x < 0xC0 || (0xC2..=0xDF).contains(&x));
                    let got = two_byte_sse2(&v);
                    if simple {
                        assert_eq!(got, Some(bmp_reference(&v)), "{v:02X?}");
                        decided += 1;
                    } else {
                        assert_eq!(got, None, "{v:02X?}");
                    }
                }
            }
        }
    }
    assert!(decided > if cfg!(miri) { 200 } else { 10_000 }, "{decided}");
}

/// A padded block holds the input at its start and zeros after it, for
/// every length a block takes.
#[test]
fn padded_block_is_the_input_then_zeros() {
    use super::bmp_utf8::padded_block;
    for len in 0..=64 {
        let bytes: Vec<u8> = (1..=len as u8).collect();
        let block = padded_block(&bytes);
        assert_eq!(&block[..len], &bytes[..], "len {len}");
        assert!(block[len..].iter().all(|&b| b == 0), "len {len}");
    }
}
