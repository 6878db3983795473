//! lz4-java's block stream, the format of region chunks with compression type 4
//! (Minecraft 1.20.5+). It is *not* the LZ4 frame format.
//!
//! The stream is a run of blocks, each with a 21-byte header:
//!
//! | bytes | field |
//! |-------|-------|
//! | 8 | magic `LZ4Block` |
//! | 1 | token: method in the high nibble (`0x10` stored, `0x20` LZ4), block-size exponent − 10 in the low nibble |
//! | 4 | compressed length, little-endian |
//! | 4 | original length, little-endian (at most `1 << (10 + exponent)`) |
//! | 4 | XXH32 (seed `0x9747b28c`) of the original bytes, top four bits cleared, little-endian |
//!
//! followed by the block's data: an LZ4 block (`lz4_flex::block`), or the bytes
//! themselves when stored. A block with both lengths 0 ends the stream (the end
//! of the input at a block boundary is accepted as an end too). Blocks
//! are independent (no shared dictionary), so each decodes on its own.

const MAGIC: &[u8; 8] = b"LZ4Block";
const HEADER_LEN: usize = 21;
const METHOD_STORED: u8 = 0x10;
const METHOD_LZ4: u8 = 0x20;
const SEED: u32 = 0x9747_b28c;
/// lz4-java's default block size (64 KiB), which Minecraft uses.
const BLOCK_SIZE: usize = 1 << 16;
/// Token low nibble for 64 KiB blocks: log2(65536) − 10.
const BLOCK_EXPONENT: u8 = 6;

/// Why an LZ4 block stream was refused; `offset` is the byte of the stream
/// where the bad block's header starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lz4Error {
    pub(crate) offset: usize,
    pub(crate) problem: Lz4Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lz4Problem {
    Truncated,
    BadMagic,
    BadHeader(&'static str),
    TooLarge { limit: usize },
    BadBlock,
    Checksum,
}

impl std::fmt::Display for Lz4Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lz4Problem::Truncated => f.write_str("the stream ends before its end block"),
            Lz4Problem::BadMagic => f.write_str("a block does not start with `LZ4Block`"),
            Lz4Problem::BadHeader(what) => write!(f, "bad block header: {what}"),
            Lz4Problem::TooLarge { limit } => {
                write!(f, "inflates to more than the limit of {limit} bytes")
            }
            Lz4Problem::BadBlock => f.write_str("invalid LZ4 block data"),
            Lz4Problem::Checksum => f.write_str("block checksum mismatch"),
        }
    }
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Decodes a whole block stream, appending to `out`, refusing more than `limit`
/// output bytes. Bytes after the end block are ignored (lz4-java stops there too);
/// an input that ends cleanly between blocks, without an end block, is accepted.
pub(crate) fn decode(input: &[u8], limit: usize, out: &mut Vec<u8>) -> Result<(), Lz4Error> {
    let start = out.len();
    let mut pos = 0;
    let result = loop {
        let fail = |problem| {
            Err(Lz4Error {
                offset: pos,
                problem,
            })
        };
        if pos == input.len() {
            // No end block: lz4-java itself always writes one, but lz4-java-wrc
            // (fastanvil's writer) never does, and its reader stops here too.
            break Ok(());
        }
        let Some(header) = input.get(pos..pos + HEADER_LEN) else {
            break fail(Lz4Problem::Truncated);
        };
        if &header[..8] != MAGIC {
            break fail(Lz4Problem::BadMagic);
        }
        let token = header[8];
        let method = token & 0xf0;
        let max_len = 1usize << (10 + (token & 0x0f));
        let packed_len = le32(&header[9..]) as usize;
        let len = le32(&header[13..]) as usize;
        let check = le32(&header[17..]);
        if method != METHOD_STORED && method != METHOD_LZ4 {
            break fail(Lz4Problem::BadHeader("unknown method"));
        }
        if len > max_len || packed_len > i32::MAX as usize {
            break fail(Lz4Problem::BadHeader("length out of range"));
        }
        if len == 0 {
            if packed_len != 0 || check != 0 {
                break fail(Lz4Problem::BadHeader("empty block with data"));
            }
            break Ok(());
        }
        if method == METHOD_STORED && packed_len != len {
            break fail(Lz4Problem::BadHeader("stored block lengths differ"));
        }
        if out.len() - start + len > limit {
            break fail(Lz4Problem::TooLarge { limit });
        }
        let data_at = pos + HEADER_LEN;
        let Some(data) = input.get(data_at..data_at + packed_len) else {
            break fail(Lz4Problem::Truncated);
        };
        let block_start = out.len();
        if method == METHOD_STORED {
            out.extend_from_slice(data);
        } else {
            out.resize(block_start + len, 0);
            match lz4_flex::block::decompress_into(data, &mut out[block_start..]) {
                Ok(n) if n == len => {}
                _ => break fail(Lz4Problem::BadBlock),
            }
        }
        if xxh32(&out[block_start..], SEED) & 0x0fff_ffff != check {
            break fail(Lz4Problem::Checksum);
        }
        pos = data_at + packed_len;
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Encodes `data` as lz4-java does with its defaults (64 KiB blocks, a block
/// stored when LZ4 would not shrink it, an end block).
pub(crate) fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 2 + HEADER_LEN * 2);
    for block in data.chunks(BLOCK_SIZE) {
        let packed = lz4_flex::block::compress(block);
        let (method, body) = if packed.len() < block.len() {
            (METHOD_LZ4, &packed[..])
        } else {
            (METHOD_STORED, block)
        };
        push_header(
            &mut out,
            method,
            body.len(),
            block.len(),
            xxh32(block, SEED) & 0x0fff_ffff,
        );
        out.extend_from_slice(body);
    }
    push_header(&mut out, METHOD_STORED, 0, 0, 0);
    out
}

fn push_header(out: &mut Vec<u8>, method: u8, packed_len: usize, len: usize, check: u32) {
    out.extend_from_slice(MAGIC);
    out.push(method | BLOCK_EXPONENT);
    // Block lengths are at most 64 KiB (plus LZ4's small worst-case growth).
    out.extend_from_slice(&(packed_len as u32).to_le_bytes());
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(&check.to_le_bytes());
}

/// XXH32, the 32-bit xxHash, which lz4-java uses for block checksums.
pub(crate) fn xxh32(data: &[u8], seed: u32) -> u32 {
    const P1: u32 = 0x9e37_79b1;
    const P2: u32 = 0x85eb_ca77;
    const P3: u32 = 0xc2b2_ae3d;
    const P4: u32 = 0x27d4_eb2f;
    const P5: u32 = 0x1656_67b1;
    let round = |acc: u32, lane: u32| {
        acc.wrapping_add(lane.wrapping_mul(P2))
            .rotate_left(13)
            .wrapping_mul(P1)
    };
    let mut stripes = data.chunks_exact(16);
    let mut hash = if data.len() >= 16 {
        let mut v = [
            seed.wrapping_add(P1).wrapping_add(P2),
            seed.wrapping_add(P2),
            seed,
            seed.wrapping_sub(P1),
        ];
        for stripe in &mut stripes {
            for (lane, word) in v.iter_mut().zip(stripe.chunks_exact(4)) {
                *lane = round(*lane, le32(word));
            }
        }
        v[0].rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18))
    } else {
        seed.wrapping_add(P5)
    };
    hash = hash.wrapping_add(data.len() as u32);
    let mut words = stripes.remainder().chunks_exact(4);
    for word in &mut words {
        hash = hash
            .wrapping_add(le32(word).wrapping_mul(P3))
            .rotate_left(17)
            .wrapping_mul(P4);
    }
    for &byte in words.remainder() {
        hash = hash
            .wrapping_add(u32::from(byte).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    hash ^= hash >> 15;
    hash = hash.wrapping_mul(P2);
    hash ^= hash >> 13;
    hash = hash.wrapping_mul(P3);
    hash ^ (hash >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xxh32_reference_vectors() {
        // From the xxHash reference implementation's test suite.
        assert_eq!(xxh32(b"", 0), 0x02cc_5d05);
        assert_eq!(xxh32(b"", 0x9e37_79b1), 0x36b7_8ae7);
        assert_eq!(xxh32(b"a", 0), 0x550d_7456);
        assert_eq!(xxh32(b"abc", 0), 0x32d1_53ff);
        assert_eq!(
            xxh32(b"Nobody inspects the spammish repetition", 0),
            0xe229_3b2f
        );
    }

    fn sample(len: usize) -> Vec<u8> {
        (0..len).map(|i| ((i * 31) % 97) as u8).collect()
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn round_trips_across_block_boundaries() {
        for len in [
            0,
            1,
            100,
            BLOCK_SIZE - 1,
            BLOCK_SIZE,
            BLOCK_SIZE + 1,
            3 * BLOCK_SIZE + 17,
        ] {
            let data = sample(len);
            let packed = encode(&data);
            let mut out = Vec::new();
            decode(&packed, usize::MAX, &mut out).unwrap();
            assert_eq!(out, data, "len {len}");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn incompressible_blocks_are_stored() {
        let mut state = 0x1234_5678u32;
        let data: Vec<u8> = (0..5000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state as u8
            })
            .collect();
        let packed = encode(&data);
        assert_eq!(packed[8], METHOD_STORED | BLOCK_EXPONENT);
        let mut out = Vec::new();
        decode(&packed, usize::MAX, &mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn hostile_streams_are_errors() {
        let data = sample(2 * BLOCK_SIZE);
        let packed = encode(&data);
        let problem =
            |bytes: &[u8], limit| decode(bytes, limit, &mut Vec::new()).unwrap_err().problem;
        for cut in [5, HEADER_LEN, HEADER_LEN + 3, packed.len() - 1] {
            assert_eq!(
                problem(&packed[..cut], usize::MAX),
                Lz4Problem::Truncated,
                "cut {cut}"
            );
        }
        // Clean ends between blocks, without the end block, are accepted.
        let mut out = Vec::new();
        decode(&[], usize::MAX, &mut out).unwrap();
        assert!(out.is_empty());
        decode(&packed[..packed.len() - HEADER_LEN], usize::MAX, &mut out).unwrap();
        assert_eq!(out, data);
        let mut bad = packed.clone();
        bad[0] = b'X';
        assert_eq!(problem(&bad, usize::MAX), Lz4Problem::BadMagic);
        let mut bad = packed.clone();
        bad[8] = 0x30 | BLOCK_EXPONENT;
        assert!(matches!(
            problem(&bad, usize::MAX),
            Lz4Problem::BadHeader(_)
        ));
        let mut bad = packed.clone();
        bad[8] = METHOD_LZ4; // 1 KiB blocks: the 64 KiB length is out of range
        assert!(matches!(
            problem(&bad, usize::MAX),
            Lz4Problem::BadHeader(_)
        ));
        let mut bad = packed.clone();
        bad[17] ^= 1;
        assert_eq!(problem(&bad, usize::MAX), Lz4Problem::Checksum);
        let mut bad = packed.clone();
        bad[HEADER_LEN] ^= 0xff;
        assert!(matches!(
            problem(&bad, usize::MAX),
            Lz4Problem::BadBlock | Lz4Problem::Checksum
        ));
        assert_eq!(
            problem(&packed, BLOCK_SIZE + 5),
            Lz4Problem::TooLarge {
                limit: BLOCK_SIZE + 5
            }
        );
        // An end block that claims data.
        let mut end = Vec::new();
        push_header(&mut end, METHOD_STORED, 3, 0, 0);
        assert!(matches!(
            problem(&end, usize::MAX),
            Lz4Problem::BadHeader(_)
        ));
    }
}
