//! libdeflate for whole buffers (the `libdeflate` feature): a region chunk,
//! a `.dat` file, the check that a new chunk decompresses to what was
//! compressed. On the corpus region's chunks it inflates more bytes per
//! CPU-second than zlib-rs and deflates at least as fast from level 4 up,
//! with smaller output (each count in `reports/files.md`).
//!
//! libdeflate works on whole buffers only and must be given room for all of
//! its output up front. A zlib stream does not say how large it inflates, so
//! the output room starts at a guess and grows geometrically, never past the
//! cap; a stream libdeflate refuses (broken, or over the cap) goes to the
//! streaming inflater ([`super::inflate`]), which says exactly what is wrong
//! and where, so every error is the one a build without this feature gives.
//!
//! Both sides write into the spare capacity of a `Vec` rather than a zeroed
//! slice: libdeflate's own crate (`libdeflater`) takes `&mut [u8]`, and
//! clearing the generous guess for every chunk would cost more than a
//! tenth of the inflating. A zlib stream is inflated into the caller's
//! buffer when it has capacity already (one reused between chunks), else
//! into a scratch buffer kept per thread and copied out at its exact size;
//! a gzip stream, which ends with its size, straight into the caller's
//! buffer.

use std::cell::RefCell;
use std::ptr::NonNull;

use libdeflate_sys as sys;

use super::Compression;

/// A libdeflate decompressor (about 10 KiB of tables), one per thread.
struct Decompressor(NonNull<sys::libdeflate_decompressor>);

impl Drop for Decompressor {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { sys::libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

/// A libdeflate compressor for one level, one per thread.
struct Compressor(NonNull<sys::libdeflate_compressor>);

impl Drop for Compressor {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_compressor, freed once.
        unsafe { sys::libdeflate_free_compressor(self.0.as_ptr()) }
    }
}

thread_local! {
    static DECOMPRESSOR: RefCell<Option<Decompressor>> = const { RefCell::new(None) };
    static COMPRESSOR: RefCell<Option<(u32, Compressor)>> = const { RefCell::new(None) };
    /// Room to inflate into when the caller's buffer has too little.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Inflates the whole `format` stream `input`, appending at most `cap`
/// bytes to `out`. `false` when libdeflate refuses it (broken, more than
/// `cap` bytes, or no memory for its tables): `out` is as it was, and the
/// streaming inflater should tell why.
pub(super) fn inflate(input: &[u8], format: Compression, cap: usize, out: &mut Vec<u8>) -> bool {
    let run: Run = match format {
        Compression::Gzip => sys::libdeflate_gzip_decompress_ex,
        Compression::Zlib => sys::libdeflate_zlib_decompress_ex,
        Compression::Raw => return false,
    };
    DECOMPRESSOR.with_borrow_mut(|kept| {
        let d = match kept {
            Some(d) => d.0,
            None => {
                // SAFETY: no preconditions; NULL means out of memory.
                let Some(d) = NonNull::new(unsafe { sys::libdeflate_alloc_decompressor() }) else {
                    return false;
                };
                kept.insert(Decompressor(d)).0
            }
        };
        if format == Compression::Gzip {
            // A gzip stream ends with its size (mod 2^32): room for exactly
            // that, straight into `out`, neither a scratch buffer nor a copy,
            // so a file read at the cap holds one cap-sized buffer at most.
            // A size that lies is refused (libdeflate checks it, after the
            // room grew as below) and the streaming inflater says why.
            let size = input
                .last_chunk::<4>()
                .map_or(0, |t| u32::from_le_bytes(*t));
            return inflate_with(d, run, input, (size as usize).min(cap), cap, out);
        }
        // NBT inflates 3-8x: a guess of 8x fits nearly every chunk at once.
        let room = input.len().saturating_mul(8).max(4096).min(cap);
        if out.capacity() > 0 {
            // A buffer the caller reuses between chunks (a scan's, a
            // writer's read-back): grown to the room once, then inflated
            // into directly.
            return inflate_with(d, run, input, room, cap, out);
        }
        // A new buffer: into this thread's scratch buffer, then copied
        // into `out` at its exact size. A fresh guess-sized buffer per
        // stream costs more in page faults (fresh memory, zeroed by the
        // kernel) than the copy.
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.clear();
            let done = inflate_with(d, run, input, room, cap, scratch);
            if done {
                out.extend_from_slice(scratch);
            }
            if scratch.capacity() > KEEP {
                *scratch = Vec::new();
            }
            done
        })
    })
}

/// The most scratch room kept between calls; a larger buffer (a huge
/// chunk, a file, a bomb up to the cap) is freed after use.
const KEEP: usize = 8 << 20;

/// The zlib or gzip decompressor of libdeflate.
type Run = unsafe extern "C" fn(
    *mut sys::libdeflate_decompressor,
    *const std::ffi::c_void,
    usize,
    *mut std::ffi::c_void,
    usize,
    *mut usize,
    *mut usize,
) -> sys::libdeflate_result;

/// Inflates `input` with `run`, appending to `out`, with `room` bytes of
/// room at first, doubled while too small, never past `cap`.
fn inflate_with(
    d: NonNull<sys::libdeflate_decompressor>,
    run: Run,
    input: &[u8],
    mut room: usize,
    cap: usize,
    out: &mut Vec<u8>,
) -> bool {
    let start = out.len();
    loop {
        out.reserve_exact(room);
        let mut read = 0usize;
        let mut written = 0usize;
        // SAFETY: the decompressor is this thread's and live; libdeflate
        // reads `input.len()` bytes of `input` and writes at most `room`
        // bytes at the end of `out`, which has that much spare capacity
        // (reserved above); it reports in `written` how many it wrote, and
        // only those become part of `out`.
        let result = unsafe {
            let result = run(
                d.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().add(start).cast(),
                room,
                &mut read,
                &mut written,
            );
            if result == sys::libdeflate_result_LIBDEFLATE_SUCCESS {
                out.set_len(start + written);
            }
            result
        };
        match result {
            sys::libdeflate_result_LIBDEFLATE_SUCCESS => return true,
            sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE if room < cap => {
                room = room.saturating_mul(2).max(4096).min(cap);
            }
            _ => return false,
        }
    }
}

/// The lowest level libdeflate compresses at. Below it zlib-rs is faster:
/// its levels 1-3 are zlib-ng's quick and fast strategies, while
/// libdeflate's compress harder (slower for smaller output); from level 4
/// libdeflate is as fast or faster and a little smaller (each level on the
/// corpus chunks: `reports/files.md`).
pub(super) const FROM_LEVEL: u32 = 4;

/// `input` compressed as one whole `format` stream at `level` (0..=9), or
/// `None` below [`FROM_LEVEL`] or if libdeflate cannot (no memory for its
/// tables): the caller compresses with zlib-rs then.
pub(super) fn compress(input: &[u8], format: Compression, level: u32) -> Option<Vec<u8>> {
    if level < FROM_LEVEL {
        return None;
    }
    let (bound, run): (
        unsafe extern "C" fn(_, _) -> _,
        unsafe extern "C" fn(_, _, _, _, _) -> _,
    ) = match format {
        Compression::Gzip => (
            sys::libdeflate_gzip_compress_bound,
            sys::libdeflate_gzip_compress,
        ),
        Compression::Zlib => (
            sys::libdeflate_zlib_compress_bound,
            sys::libdeflate_zlib_compress,
        ),
        Compression::Raw => return None,
    };
    COMPRESSOR.with_borrow_mut(|kept| {
        let c = match kept {
            Some((at, c)) if *at == level => c.0,
            _ => {
                // SAFETY: no preconditions; levels 0..=12 are valid and NULL
                // means out of memory.
                let c = NonNull::new(unsafe { sys::libdeflate_alloc_compressor(level as i32) })?;
                kept.insert((level, Compressor(c))).1.0
            }
        };
        // SAFETY: the compressor is this thread's and live. The bound is the
        // most any input of this length takes; libdeflate writes at most
        // `room` bytes into the spare capacity reserved for them and returns
        // how many (0: did not fit), and only those become part of `out`.
        unsafe {
            let room = bound(c.as_ptr(), input.len());
            let mut out = Vec::<u8>::with_capacity(room);
            let n = run(
                c.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                room,
            );
            if n == 0 {
                return None;
            }
            out.set_len(n);
            // Chunks compress 3-10x: give back the unused bound.
            out.shrink_to_fit();
            Some(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn sample() -> Vec<u8> {
        (0..200_000u32)
            .flat_map(|i| [(i % 251) as u8, (i / 97 % 7) as u8, 0])
            .collect()
    }

    #[test]
    #[cfg_attr(miri, ignore = "C code: Miri cannot run it")]
    fn what_libdeflate_writes_zlib_rs_reads() {
        let data = sample();
        for level in FROM_LEVEL..=9 {
            let zlib = compress(&data, Compression::Zlib, level).unwrap();
            let mut back = Vec::new();
            flate2::read::ZlibDecoder::new(&zlib[..])
                .read_to_end(&mut back)
                .unwrap();
            assert!(back == data, "zlib level {level}");
            let gzip = compress(&data, Compression::Gzip, level).unwrap();
            let mut back = Vec::new();
            flate2::read::GzDecoder::new(&gzip[..])
                .read_to_end(&mut back)
                .unwrap();
            assert!(back == data, "gzip level {level}");
        }
        assert_eq!(compress(&data, Compression::Zlib, FROM_LEVEL - 1), None);
    }

    #[test]
    #[cfg_attr(miri, ignore = "C code: Miri cannot run it")]
    fn gzip_goes_straight_into_the_output_at_its_size() {
        let data = sample();
        let packed = compress(&data, Compression::Gzip, 6).unwrap();
        SCRATCH.with_borrow_mut(|s| *s = Vec::new());
        let mut out = vec![7];
        assert!(inflate(&packed, Compression::Gzip, 1 << 24, &mut out));
        assert_eq!((out[0], &out[1..]), (7, &data[..]));
        // Room for its size only, and no scratch buffer: a file read at
        // the cap holds one cap-sized buffer, not two.
        assert!(out.capacity() < data.len() + 4096, "{}", out.capacity());
        assert_eq!(SCRATCH.with_borrow(Vec::capacity), 0);
        // Over the cap: refused, never more room than the cap.
        let mut out = Vec::new();
        assert!(!inflate(
            &packed,
            Compression::Gzip,
            data.len() - 1,
            &mut out
        ));
        assert!(out.is_empty() && out.capacity() < data.len());
        // A size that lies (libdeflate checks it): refused.
        let mut lying = packed.clone();
        let n = lying.len();
        lying[n - 4..].copy_from_slice(&16u32.to_le_bytes());
        assert!(!inflate(
            &lying,
            Compression::Gzip,
            1 << 24,
            &mut Vec::new()
        ));
    }

    #[test]
    #[cfg_attr(miri, ignore = "C code: Miri cannot run it")]
    fn room_grows_to_the_cap_and_no_further() {
        // Zeros: 1000x, far past the first guess of 8x.
        let data = vec![0u8; 1 << 20];
        let packed = compress(&data, Compression::Zlib, 6).unwrap();
        let mut out = vec![7];
        assert!(inflate(&packed, Compression::Zlib, data.len(), &mut out));
        assert_eq!((out[0], &out[1..]), (7, &data[..]));
        // One byte under: refused, `out` as it was, never more room than the
        // cap (the scratch buffer emptied first: it keeps what earlier
        // calls grew it to, up to `KEEP`).
        SCRATCH.with_borrow_mut(|s| *s = Vec::new());
        let mut out = Vec::new();
        assert!(!inflate(
            &packed,
            Compression::Zlib,
            data.len() - 1,
            &mut out
        ));
        assert!(out.is_empty() && out.capacity() < data.len());
        assert!(SCRATCH.with_borrow(|s| s.capacity() < data.len()));
        // A buffer with the room already: inflated straight into it.
        let mut out = Vec::with_capacity(16 << 20);
        let at = out.as_ptr();
        assert!(inflate(&packed, Compression::Zlib, 1 << 21, &mut out));
        assert!(out == data && out.as_ptr() == at);
        // Any buffer with capacity (one reused between chunks): grown and
        // inflated into directly, not through the scratch buffer.
        SCRATCH.with_borrow_mut(|s| *s = Vec::new());
        let mut out = Vec::with_capacity(1);
        assert!(inflate(&packed, Compression::Zlib, 1 << 21, &mut out));
        assert!(out == data && SCRATCH.with_borrow(Vec::capacity) == 0);
        // Broken: refused, for the streaming inflater to explain.
        let mut bad = packed.clone();
        bad[2] ^= 0x55;
        assert!(!inflate(&bad, Compression::Zlib, 1 << 21, &mut Vec::new()));
    }
}
