//! One-shot inflation of a whole gzip or zlib stream into a `Vec`, with a hard
//! cap on the output size.
//!
//! We drive flate2's low-level [`Decompress`] ourselves rather than going through
//! `Read`: the output buffer is sized from the input up front and grown
//! geometrically, never past the cap, so a bomb stops after at most `limit + 1`
//! bytes of output, and a normal file is inflated in one or two calls.
//!
//! With the `libdeflate` feature libdeflate inflates first; this streaming
//! inflater runs only for the streams it refuses, and says why.

use flate2::{Decompress, FlushDecompress, Status};

use super::{Compression, InflateError, InflateErrorKind};

/// Inflates `input` (a complete stream in `format`) and appends the result to
/// `out`, failing once the output would exceed `limit` bytes. Bytes after the end
/// of the stream are ignored, as gzip and zlib readers conventionally do.
pub(crate) fn inflate_into(
    input: &[u8],
    format: Compression,
    limit: usize,
    out: &mut Vec<u8>,
) -> Result<(), InflateError> {
    #[cfg(feature = "libdeflate")]
    if super::libdeflate::inflate(input, format, limit, out) {
        return Ok(());
    }
    let mut stream = match format {
        Compression::Gzip => Decompress::new_gzip(15),
        Compression::Zlib => Decompress::new(true),
        Compression::Raw => {
            if input.len() > limit {
                return Err(too_large(format, limit, 0));
            }
            out.extend_from_slice(input);
            return Ok(());
        }
    };
    let start = out.len();
    // One byte of headroom past the cap: producing it proves the stream is too big.
    let cap = limit.saturating_add(1);
    // Chunks and player files inflate 3-8x; start at 4x (at least 4 KiB) so most
    // streams take one call, but never reserve past the cap: any cap works, down
    // to 0 (only an empty stream fits), and a small network quota costs no more
    // than itself.
    let first = input.len().saturating_mul(4).max(4096).min(cap);
    out.reserve_exact(first);
    loop {
        let consumed = stream.total_in() as usize;
        let produced = stream.total_out();
        let status = stream
            .decompress_vec(&input[consumed..], out, FlushDecompress::Finish)
            .map_err(|e| InflateError {
                format,
                kind: InflateErrorKind::Corrupt(e.to_string()),
                offset: stream.total_in() as usize,
            })?;
        if out.len() - start > limit {
            out.truncate(start);
            return Err(too_large(format, limit, stream.total_in() as usize));
        }
        if status == Status::StreamEnd {
            return Ok(());
        }
        let progressed = stream.total_in() as usize != consumed || stream.total_out() != produced;
        if out.len() == out.capacity() {
            let written = out.len() - start;
            if written >= cap {
                out.truncate(start);
                return Err(too_large(format, limit, stream.total_in() as usize));
            }
            let grow = written.max(4096).min(cap - written);
            out.reserve_exact(grow);
        } else if !progressed {
            // Room to write, nothing left to read, and no end marker: cut short.
            out.truncate(start);
            return Err(InflateError {
                format,
                kind: InflateErrorKind::Truncated,
                offset: input.len(),
            });
        }
    }
}

fn too_large(format: Compression, limit: usize, offset: usize) -> InflateError {
    InflateError {
        format,
        kind: InflateErrorKind::TooLarge { limit },
        offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::compress;

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn grows_past_the_first_guess() {
        // Zeros compress ~1000x, far past the 4x first reservation.
        let data = vec![0u8; 3 << 20];
        for format in [Compression::Gzip, Compression::Zlib] {
            let packed = compress(&data, format);
            let mut out = Vec::new();
            inflate_into(&packed, format, usize::MAX, &mut out).unwrap();
            assert_eq!(out, data);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn exact_limit_is_accepted_one_less_is_not() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let packed = compress(&data, Compression::Zlib);
        let mut out = Vec::new();
        inflate_into(&packed, Compression::Zlib, data.len(), &mut out).unwrap();
        assert_eq!(out, data);
        let mut out = Vec::new();
        let err = inflate_into(&packed, Compression::Zlib, data.len() - 1, &mut out).unwrap_err();
        assert_eq!(
            err.kind(),
            &InflateErrorKind::TooLarge {
                limit: data.len() - 1
            }
        );
        assert!(out.capacity() <= data.len());
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over zlib-rs/lz4_flex: too slow under Miri")]
    fn truncated_and_corrupt_streams() {
        let data = b"hello hello hello hello".repeat(50);
        for format in [Compression::Gzip, Compression::Zlib] {
            let packed = compress(&data, format);
            for cut in [0, 1, 5, packed.len() / 2, packed.len() - 1] {
                let mut out = Vec::new();
                let err = inflate_into(&packed[..cut], format, 1 << 20, &mut out).unwrap_err();
                assert!(
                    matches!(
                        err.kind(),
                        InflateErrorKind::Truncated | InflateErrorKind::Corrupt(_)
                    ),
                    "{format:?} cut at {cut}: {err}"
                );
                assert!(out.is_empty());
            }
            let mut bad = packed.clone();
            let last = bad.len() - 1;
            bad[last] ^= 0xff; // checksum byte
            let err = inflate_into(&bad, format, 1 << 20, &mut Vec::new()).unwrap_err();
            assert!(
                matches!(err.kind(), InflateErrorKind::Corrupt(_)),
                "{format:?}: {err}"
            );
        }
    }
}
