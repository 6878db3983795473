//! Reading a file no further than a cap: a file's length says nothing about
//! what reading it costs (a symlink to `/dev/zero`, a sparse file, a pipe), so
//! the readers of compressed files stop once they hold more than any input
//! under the inflation cap can need.

use std::io::{self, Read};

/// The most stored bytes a stream that inflates to at most `limit` bytes can
/// take: deflate's stored blocks add 5 bytes per 64 KiB and LZ4's block
/// headers 4 per 64 KiB (well under `limit / 64`), plus room for the gzip, zlib
/// and lz4-java headers and trailers.
pub(crate) fn stored_bound(limit: usize) -> usize {
    limit.saturating_add(limit / 64).saturating_add(4096)
}

/// Appends what `reader` gives to `buf` until `buf` holds `upto` bytes or the
/// reader ends. `hint` is the expected total (a file's length): the buffer is
/// sized to `min(hint, upto)` once, so a regular file costs one allocation.
/// Past the hint (a device, a pipe, a file that grew) it grows by doubling,
/// never past `upto` — `Read::take` with `read_to_end` would double up to twice
/// the cap there.
pub(crate) fn fill(
    reader: &mut impl Read,
    buf: &mut Vec<u8>,
    upto: usize,
    hint: usize,
) -> io::Result<()> {
    let mut filled = buf.len();
    if filled >= upto {
        return Ok(());
    }
    buf.reserve_exact(hint.min(upto).saturating_sub(filled));
    let result = loop {
        if filled == upto {
            break Ok(());
        }
        if filled == buf.len() {
            if buf.len() == buf.capacity() {
                // Full at the hint: a small read tells the end of the file from
                // more data before anything larger is allocated.
                let mut probe = [0u8; 64];
                let want = probe.len().min(upto - filled);
                match read_some(reader, &mut probe[..want]) {
                    Ok(0) => break Ok(()),
                    Ok(n) => {
                        buf.truncate(filled);
                        buf.reserve_exact(filled.max(8192).min(upto - filled));
                        buf.extend_from_slice(&probe[..n]);
                        filled += n;
                        continue;
                    }
                    Err(e) => break Err(e),
                }
            }
            buf.resize(buf.capacity().min(upto), 0);
        }
        match read_some(reader, &mut buf[filled..]) {
            Ok(0) => break Ok(()),
            Ok(n) => filled += n,
            Err(e) => break Err(e),
        }
    };
    buf.truncate(filled);
    result
}

/// A file's length as a size hint for [`fill`] (0 when unknown).
pub(crate) fn len_hint(file: &std::fs::File) -> usize {
    file.metadata()
        .map_or(0, |m| usize::try_from(m.len()).unwrap_or(usize::MAX))
}

/// One `read`, retried when interrupted by a signal.
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out `total` bytes `chunk` at a time.
    struct Trickle {
        total: usize,
        chunk: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.chunk).min(self.total);
            buf[..n].fill(7);
            self.total -= n;
            Ok(n)
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "safe code over Vec: a minute under Miri")]
    fn stops_at_upto_and_never_allocates_past_it() {
        for (total, chunk, upto, hint) in [
            (100_000, 1000, 50_001, 0),
            (100_000, 100_000, 50_001, 100_000),
            (100_000, 7, 50_001, 10),
            (10, 3, 50_001, 0),
            (10, 3, 50_001, 10),
            (0, 1, 50_001, 0),
            (50_001, 4096, 50_001, 0),
        ] {
            let mut buf = Vec::new();
            fill(&mut Trickle { total, chunk }, &mut buf, upto, hint).unwrap();
            assert_eq!(buf.len(), total.min(upto), "{total} {chunk} {hint}");
            assert!(buf.iter().all(|&b| b == 7));
            assert!(
                buf.capacity() <= upto,
                "{total} {chunk} {hint}: {}",
                buf.capacity()
            );
        }
    }

    #[test]
    fn an_exact_hint_is_one_allocation() {
        let mut buf = Vec::new();
        let total = 30_000;
        fill(
            &mut Trickle { total, chunk: 4096 },
            &mut buf,
            1 << 20,
            total,
        )
        .unwrap();
        assert_eq!((buf.len(), buf.capacity()), (total, total));
    }

    #[test]
    fn appends_to_what_is_there() {
        let mut buf = vec![1, 2];
        fill(&mut Trickle { total: 5, chunk: 2 }, &mut buf, 6, 0).unwrap();
        assert_eq!(buf, [1, 2, 7, 7, 7, 7]);
    }
}
