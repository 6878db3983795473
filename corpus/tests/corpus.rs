//! Checks of the corpus itself: shared files are found, hash-checked and
//! inflated to the right size; generated files are deterministic and
//! well-formed NBT (checked by a tiny independent walker below).

use corpus::{Compression, CorpusError};

// ------------------------------------------------------------ a tiny NBT walker

/// What the walker saw, so tests can assert on the shape of a file.
#[derive(Debug, Default)]
struct Stats {
    /// Number of tags (named or list elements) of each id 0..=12.
    tags: [usize; 13],
    /// Strings (names and values) holding a `C0 80` (encoded U+0000).
    nul_strings: usize,
    /// Strings holding a 6-byte surrogate pair.
    supplementary_strings: usize,
    /// Strings with any byte >= 0x80.
    non_ascii_strings: usize,
    max_depth: usize,
}

struct Walker<'a> {
    data: &'a [u8],
    pos: usize,
    /// Also check every string is canonical MUTF-8 (what our encoder writes).
    strict_mutf8: bool,
    stats: Stats,
}

type WalkResult<T> = Result<T, String>;

impl<'a> Walker<'a> {
    fn take(&mut self, n: usize) -> WalkResult<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(|| format!("unexpected end: need {n} bytes at offset {}", self.pos))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u8(&mut self) -> WalkResult<u8> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> WalkResult<u16> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn len(&mut self) -> WalkResult<usize> {
        let at = self.pos;
        let b = self.take(4)?;
        let n = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        usize::try_from(n).map_err(|_| format!("negative length {n} at offset {at}"))
    }

    fn string(&mut self) -> WalkResult<()> {
        let n = self.u16()? as usize;
        let at = self.pos;
        let s = self.take(n)?;
        if s.iter().any(|&b| b >= 0x80) {
            self.stats.non_ascii_strings += 1;
        }
        if s.windows(2).any(|w| w == [0xC0, 0x80]) {
            self.stats.nul_strings += 1;
        }
        if s.windows(4)
            .any(|w| w[0] == 0xED && (0xA0..=0xAF).contains(&w[1]) && w[3] == 0xED)
        {
            self.stats.supplementary_strings += 1;
        }
        if self.strict_mutf8 {
            check_mutf8(s).map_err(|e| format!("string at offset {at}: {e}"))?;
        }
        Ok(())
    }

    fn payload(&mut self, id: u8, depth: usize) -> WalkResult<()> {
        if depth > 512 {
            return Err(format!("nesting deeper than 512 at offset {}", self.pos));
        }
        self.stats.max_depth = self.stats.max_depth.max(depth);
        self.stats.tags[id as usize] += 1;
        match id {
            1 => drop(self.take(1)?),
            2 => drop(self.take(2)?),
            3 | 5 => drop(self.take(4)?),
            4 | 6 => drop(self.take(8)?),
            7 => {
                let n = self.len()?;
                self.take(n)?;
            }
            8 => self.string()?,
            9 => {
                let at = self.pos;
                let elem = self.u8()?;
                let n = self.len()?;
                if elem > 12 {
                    return Err(format!("bad list element id {elem} at offset {at}"));
                }
                if elem == 0 && n != 0 {
                    return Err(format!("list of End with length {n} at offset {at}"));
                }
                for _ in 0..n {
                    self.payload(elem, depth + 1)?;
                }
            }
            10 => loop {
                let at = self.pos;
                let tag = self.u8()?;
                if tag == 0 {
                    break;
                }
                if tag > 12 {
                    return Err(format!("bad tag id {tag} at offset {at}"));
                }
                self.string()?;
                self.payload(tag, depth + 1)?;
            },
            11 => {
                let n = self.len()?;
                self.take(n.checked_mul(4).ok_or("int array too long")?)?;
            }
            12 => {
                let n = self.len()?;
                self.take(n.checked_mul(8).ok_or("long array too long")?)?;
            }
            _ => return Err(format!("bad tag id {id}")),
        }
        Ok(())
    }
}

/// Canonical MUTF-8: no raw 00, no 4-byte forms, no overlong forms except
/// `C0 80`, surrogates only as well-formed high+low pairs.
fn check_mutf8(s: &[u8]) -> Result<(), String> {
    let cont = |i: usize| -> Result<u32, String> {
        match s.get(i) {
            Some(&b) if b & 0xC0 == 0x80 => Ok((b & 0x3F) as u32),
            _ => Err(format!("bad continuation byte at {i}")),
        }
    };
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        match b {
            0x00 => return Err(format!("raw 00 at {i}")),
            0x01..=0x7F => i += 1,
            0xC0 => {
                if s.get(i + 1) != Some(&0x80) {
                    return Err(format!("overlong 2-byte form at {i}"));
                }
                i += 2;
            }
            0xC2..=0xDF => {
                cont(i + 1)?;
                i += 2;
            }
            0xE0..=0xEF => {
                let c = ((b & 0x0F) as u32) << 12 | cont(i + 1)? << 6 | cont(i + 2)?;
                if c < 0x800 {
                    return Err(format!("overlong 3-byte form at {i}"));
                }
                if (0xD800..0xDC00).contains(&c) {
                    // High surrogate: must be followed by a low one.
                    if s.get(i + 3) != Some(&0xED) {
                        return Err(format!("unpaired high surrogate at {i}"));
                    }
                    let low = 0xD000 | cont(i + 4)? << 6 | cont(i + 5)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(format!("high surrogate without low at {i}"));
                    }
                    i += 6;
                } else if (0xDC00..0xE000).contains(&c) {
                    return Err(format!("unpaired low surrogate at {i}"));
                } else {
                    i += 3;
                }
            }
            _ => return Err(format!("byte {b:#04x} not allowed in MUTF-8 at {i}")),
        }
    }
    Ok(())
}

/// Walks a disk-form file (root id, name, payload) and demands that it ends
/// exactly at the last byte.
fn walk(data: &[u8], strict_mutf8: bool) -> Result<Stats, String> {
    let mut w = Walker {
        data,
        pos: 0,
        strict_mutf8,
        stats: Stats::default(),
    };
    let id = w.u8()?;
    if id == 0 {
        return Err("root is End".into());
    }
    w.string()?;
    w.payload(id, 1)?;
    if w.pos != data.len() {
        return Err(format!(
            "root ends at offset {} but the file has {} bytes",
            w.pos,
            data.len()
        ));
    }
    Ok(w.stats)
}

// ------------------------------------------------------------ the walker itself

#[test]
fn walker_rejects_broken_input() {
    // hello_world.nbt, built by hand.
    let mut good = vec![
        0x0A, 0x00, 0x01, b'h', 0x08, 0x00, 0x01, b'n', 0x00, 0x01, b'x', 0x00,
    ];
    walk(&good, true).unwrap();
    assert!(walk(&good[..good.len() - 1], true).is_err(), "truncated");
    good.push(0x00);
    assert!(walk(&good, true).is_err(), "trailing byte");
    // List of End with length 5.
    let bad = [
        0x0A, 0x00, 0x00, 0x09, 0x00, 0x01, b'l', 0x00, 0, 0, 0, 5, 0x00,
    ];
    assert!(walk(&bad, false).is_err());
    // Negative byte array length.
    let bad = [
        0x0A, 0x00, 0x00, 0x07, 0x00, 0x01, b'b', 0xFF, 0xFF, 0xFF, 0xFF, 0x00,
    ];
    assert!(walk(&bad, false).is_err());
    // Strict MUTF-8: raw NUL, 4-byte UTF-8 and a lone surrogate are rejected.
    assert!(check_mutf8(b"a\0b").is_err());
    assert!(check_mutf8("😀".as_bytes()).is_err());
    assert!(check_mutf8(&[0xED, 0xA0, 0xBD]).is_err());
    assert!(check_mutf8(&[0x61, 0xC0, 0x80, 0x62]).is_ok());
    assert!(check_mutf8(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]).is_ok());
}

// ------------------------------------------------------------ shared files

/// (name, inflated size, root id) of every shared file.
const SHARED_SIZES: &[(&str, usize, u8)] = &[
    ("complex_player.dat", 3380, 0x0A),
    ("bigtest.nbt", 1544, 0x0A),
    ("hello_world.nbt", 33, 0x0A),
    ("level.dat", 4430, 0x0A),
    ("simple_player.dat", 591, 0x0A),
    ("inttest1023.nbt", 4104, 0x0A),
    ("hypixel.nbt", 18670, 0x0A),
    ("stringtest.nbt", 350, 0x09),
    ("chunk1.14.nbt", 36699, 0x0A),
];

#[test]
fn every_shared_file_loads_with_the_pinned_size() {
    assert_eq!(SHARED_SIZES.len(), corpus::SHARED.len());
    for (file, &(name, size, root)) in corpus::SHARED.iter().zip(SHARED_SIZES) {
        assert_eq!(file.name, name);
        let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bytes.len(), size, "{name}: inflated size");
        assert_eq!(bytes[0], root, "{name}: root tag id");
        let stats = walk(bytes, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(stats.tags.iter().sum::<usize>() > 0);
    }
}

#[test]
fn shipped_bytes_match_hash_and_compression() {
    for file in corpus::SHARED {
        let shipped = corpus::load_as_shipped(file.name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(corpus::sha256_hex(shipped), file.sha256, "{}", file.name);
        match file.compressed {
            Compression::Gzip => assert_eq!(&shipped[..2], [0x1F, 0x8B], "{}", file.name),
            Compression::Zlib => assert_eq!(shipped[0], 0x78, "{}", file.name),
            Compression::None => {
                assert_eq!(shipped, corpus::load(file.name).unwrap(), "{}", file.name)
            }
        }
        let (source, path) = corpus::shipped_from(file.name).unwrap();
        assert!(file.sources.contains(source));
        assert!(path.ends_with(source.path), "{}", path.display());
    }
}

#[test]
fn loads_are_cached() {
    for name in ["bigtest.nbt", "hello_world.nbt", "generated_unicode_1m"] {
        let a = corpus::load(name).unwrap();
        let b = corpus::load(name).unwrap();
        assert_eq!(a.as_ptr(), b.as_ptr(), "{name} was loaded twice");
    }
}

#[test]
fn known_content() {
    let hello = corpus::load("hello_world.nbt").unwrap();
    assert_eq!(&hello[..14], b"\x0a\x00\x0bhello world");
    let stats = walk(corpus::load("bigtest.nbt").unwrap(), false).unwrap();
    // bigtest has every tag type except the two newer arrays.
    for id in 1..=10 {
        assert!(stats.tags[id] > 0, "bigtest lacks tag {id}");
    }
    let stats = walk(corpus::load("chunk1.14.nbt").unwrap(), false).unwrap();
    assert!(stats.tags[12] > 0, "chunk1.14 has long arrays");
}

#[test]
fn name_lists() {
    let all: Vec<_> = corpus::all_names().collect();
    let (shared, real) = (corpus::SHARED.len(), corpus::REAL_WORLD.len());
    assert_eq!(all.len(), shared + real + corpus::GENERATED.len());
    assert_eq!(all[0], "complex_player.dat");
    assert_eq!(all[shared], "1.12.chunk");
    assert_eq!(&all[shared + real..], corpus::GENERATED);
    let bench = corpus::bench_names();
    assert_eq!(&bench[..7], corpus::UPSTREAM_BENCH);
    assert_eq!(bench[7], "chunk1.14.nbt");
    assert_eq!(&bench[8..], corpus::GENERATED);
    for name in &bench {
        assert!(all.contains(name), "{name}");
    }
}

#[test]
fn errors_are_clear() {
    let e = corpus::load("nope.nbt").unwrap_err();
    assert!(matches!(e, CorpusError::UnknownName(_)));
    assert!(e.to_string().contains("nope.nbt"));
    let e = corpus::load_as_shipped("generated_chunks_1m").unwrap_err();
    assert!(matches!(e, CorpusError::NotShared(_)));
}

// ------------------------------------------------------------ generated files

/// (name, size, sha256). Changing the generator means re-pinning these on
/// purpose: benchmarks compare across commits only while inputs stay equal.
const GENERATED_PINS: &[(&str, usize, &str)] = &[
    (
        "generated_chunks_1m",
        1013874,
        "bcae814c635af31e7398d71a9c9c9d485ee8c3eefa029e8862f0fce2cf103c28",
    ),
    (
        "generated_chunks_12m",
        12568237,
        "ac36b29c19c667d4b01daf258e358a923fcaff791eab37e9dd653ce82a340f4a",
    ),
    (
        "generated_inventory_1m",
        1039484,
        "567d30dca19fc95889b211f1f7ac428544d71cd62962adc96d64404f6a6de4ca",
    ),
    (
        "generated_unicode_1m",
        1048442,
        "7decf4c16d7f305e64d32d57cdd2cc13795abee3af89338c9a54d895f072f84c",
    ),
];

fn nominal_size(name: &str) -> usize {
    if name.ends_with("_12m") {
        12 << 20
    } else {
        1 << 20
    }
}

#[test]
fn generated_files_are_pinned() {
    assert_eq!(GENERATED_PINS.len(), corpus::GENERATED.len());
    let mut report = String::new();
    for (&(name, size, sha), &expected_name) in GENERATED_PINS.iter().zip(corpus::GENERATED) {
        assert_eq!(name, expected_name);
        let bytes = corpus::load(name).unwrap();
        let actual = corpus::sha256_hex(bytes);
        report.push_str(&format!(
            "    (\"{name}\", {}, \"{actual}\"),\n",
            bytes.len()
        ));
        if bytes.len() != size || actual != sha {
            eprintln!("{name}: {} bytes, sha256 {actual}", bytes.len());
        }
    }
    for &(name, size, sha) in GENERATED_PINS {
        let bytes = corpus::load(name).unwrap();
        assert!(
            bytes.len() == size && corpus::sha256_hex(bytes) == sha,
            "generated output changed; if on purpose, re-pin:\n{report}"
        );
    }
}

#[test]
fn generated_files_are_well_formed_and_sized() {
    for &name in corpus::GENERATED {
        let bytes = corpus::load(name).unwrap();
        assert_eq!(
            &bytes[..3],
            [0x0A, 0x00, 0x00],
            "{name}: named empty root compound"
        );
        let nominal = nominal_size(name);
        let (lo, hi) = (nominal - nominal / 10, nominal + nominal / 10);
        assert!(
            (lo..=hi).contains(&bytes.len()),
            "{name}: {} bytes, want {lo}..={hi}",
            bytes.len()
        );
        let stats = walk(bytes, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {stats:?}");
    }
}

#[test]
fn generated_files_have_the_promised_shape() {
    for name in ["generated_chunks_1m", "generated_chunks_12m"] {
        let s = walk(corpus::load(name).unwrap(), true).unwrap();
        assert!(s.tags[12] > 100, "{name}: long arrays");
        assert!(s.tags[7] > 100, "{name}: light byte arrays");
        assert!(s.tags[9] > 100, "{name}: lists");
    }
    let s = walk(corpus::load("generated_inventory_1m").unwrap(), true).unwrap();
    for id in [1, 2, 3, 5, 6, 8, 9, 10, 11] {
        assert!(
            s.tags[id] > 100,
            "inventory: tag {id} only {} times",
            s.tags[id]
        );
    }
    let s = walk(corpus::load("generated_unicode_1m").unwrap(), true).unwrap();
    assert!(
        s.nul_strings > 100,
        "unicode: {} strings with C0 80",
        s.nul_strings
    );
    assert!(s.supplementary_strings > 1000, "unicode: emoji");
    assert!(
        s.non_ascii_strings > s.tags[8] / 2,
        "unicode: mostly non-ASCII strings"
    );
}

// ------------------------------------------------------------ real-world files

/// (name, size) of every [`corpus::REAL_WORLD`] file (all uncompressed, compound roots).
const REAL_WORLD_SIZES: &[(&str, usize)] = &[
    ("1.12.chunk", 53007),
    ("1.17.0.chunk", 52867),
    ("1.17.1-custom-heights.chunk", 62063),
    ("1.17.1.chunk", 46240),
    ("21w44a-test1.nbt", 103723),
    ("chunk.nbt", 50892),
    ("etho-empty.chunk", 27761),
    ("etho-end-r.-6.-1.c.7.25.nbt", 5437),
    ("etho-max-heights.chunk", 51214),
    ("etho-old-heightmaps.chunk", 38021),
    ("etho-old-in-new.chunk", 21419),
    ("etho-old-in-new2.chunk", 34506),
    ("etho.chunk", 23636),
    ("forge-1.20.1.nbt", 44838),
    ("issue99-chunk.nbt", 10670),
    ("unicode.chunk", 63992),
    ("registry_codec_1.20.dat", 39164),
    ("servers 2.dat", 97845),
];

#[test]
fn every_real_world_file_loads_and_walks() {
    assert_eq!(REAL_WORLD_SIZES.len(), corpus::REAL_WORLD.len());
    for (file, &(name, size)) in corpus::REAL_WORLD.iter().zip(REAL_WORLD_SIZES) {
        assert_eq!(file.name, name);
        assert_eq!(file.compressed, Compression::None, "{name}");
        let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bytes.len(), size, "{name}");
        assert_eq!(bytes[0], 0x0A, "{name}: root tag id");
        let shipped = corpus::load_as_shipped(name).unwrap();
        assert_eq!(corpus::sha256_hex(shipped), file.sha256, "{name}");
        walk(bytes, false).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(corpus::all_names().any(|n| n == name));
    }
}

#[test]
fn the_region_file_loads_with_its_hash() {
    let bytes = corpus::load_as_shipped("1.19.4.mca").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bytes.len(), 4_268_032);
    assert_eq!(bytes.len() % 4096, 0);
    assert_eq!(corpus::sha256_hex(bytes), corpus::REGIONS[0].sha256);
    assert!(!corpus::all_names().any(|n| n == "1.19.4.mca"));
}

/// Every package a file is read from is pinned, at that version, in the list
/// `cargo fetch` downloads (`corpus/packages/Cargo.toml`): a source missing
/// there would only be found on machines that happen to have it.
#[test]
fn every_source_package_is_in_the_package_list() {
    let list = include_str!("../packages/Cargo.toml");
    for file in corpus::package_files() {
        for source in file.sources {
            // Cargo's requirements leave out build metadata (`+mc.1.20.1`).
            let version = source.version.split('+').next().unwrap();
            let pin = format!("{} = \"={version}\"", source.package);
            assert!(
                list.lines().any(|l| l.trim() == pin),
                "{}: `{pin}` is not in corpus/packages/Cargo.toml",
                file.name
            );
        }
    }
}
