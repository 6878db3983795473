//! The three deflate implementations measured for region chunks, behind one
//! interface, each with state kept between streams (as the library keeps its
//! compressor): libdeflate (`libdeflater`), zlib-rs (through flate2, what the
//! library uses without its `libdeflate` feature) and zlib-ng (its C API,
//! `libz-ng-sys`: flate2's backends are exclusive per build, and turning on
//! flate2's `zlib-ng` here would switch the library's own zlib path too).
//!
//! Used by `compare/benches/codec.rs` (criterion), the `codec-rounds` driver
//! (CPU time in interleaved rounds, the yardstick on a loaded machine) and the
//! `set-floor` program.

use std::os::raw::{c_int, c_uint, c_void};

/// A deflate implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// libdeflate 1.x (C), whole-buffer only.
    Libdeflate,
    /// zlib-rs (Rust), through flate2.
    ZlibRs,
    /// zlib-ng 2.x (C), native API.
    ZlibNg,
}

/// Every codec, the reference (zlib-rs, today's) first.
pub const CODECS: [Codec; 3] = [Codec::ZlibRs, Codec::Libdeflate, Codec::ZlibNg];

impl Codec {
    /// A short name for tables and bench ids.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Libdeflate => "libdeflate",
            Codec::ZlibRs => "zlib-rs",
            Codec::ZlibNg => "zlib-ng",
        }
    }

    /// The codec with this [`Codec::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        CODECS.into_iter().find(|c| c.name() == name)
    }
}

/// The zlib-format data of every zlib chunk of a region file (the bytes after
/// the length and compression byte), in header order.
pub fn zlib_chunks(region: &[u8]) -> Vec<&[u8]> {
    let mut chunks = Vec::new();
    for entry in region.get(..4096).unwrap_or_default().chunks_exact(4) {
        let sector = u32::from_be_bytes([0, entry[0], entry[1], entry[2]]) as usize;
        if sector < 2 || entry[3] == 0 {
            continue;
        }
        let at = sector * 4096;
        let Some(head) = region.get(at..at + 5) else {
            continue;
        };
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        if head[4] != 2 || len == 0 {
            continue;
        }
        if let Some(data) = region.get(at + 5..at + 4 + len) {
            chunks.push(data);
        }
    }
    chunks
}

/// Every codec's state, kept between streams: a decompressor, and a
/// compressor per level (made on first use, reset for each stream).
pub struct Codecs {
    ld_in: libdeflater::Decompressor,
    ld_out: Vec<Option<libdeflater::Compressor>>,
    rs_in: flate2::Decompress,
    rs_out: Vec<Option<flate2::Compress>>,
    ng_in: NgStream,
    ng_out: Vec<Option<NgStream>>,
}

impl Default for Codecs {
    fn default() -> Self {
        Self::new()
    }
}

impl Codecs {
    /// Fresh state for every codec.
    pub fn new() -> Self {
        Self {
            ld_in: libdeflater::Decompressor::new(),
            ld_out: (0..=9).map(|_| None).collect(),
            rs_in: flate2::Decompress::new(true),
            rs_out: (0..=9).map(|_| None).collect(),
            ng_in: NgStream::inflater(),
            ng_out: (0..=9).map(|_| None).collect(),
        }
    }

    /// Inflates the zlib stream `input` into `out`, which is exactly its
    /// inflated size (known: the bench's case of a bound known up front).
    /// Panics on a bad stream (the inputs are the corpus's).
    pub fn inflate(&mut self, codec: Codec, input: &[u8], out: &mut [u8]) {
        let n = match codec {
            Codec::Libdeflate => self.ld_in.zlib_decompress(input, out).expect("libdeflate"),
            Codec::ZlibRs => {
                self.rs_in.reset(true);
                let status = self
                    .rs_in
                    .decompress(input, out, flate2::FlushDecompress::Finish)
                    .expect("zlib-rs");
                assert_eq!(status, flate2::Status::StreamEnd);
                self.rs_in.total_out() as usize
            }
            Codec::ZlibNg => self.ng_in.inflate(input, out),
        };
        assert_eq!(n, out.len(), "{} inflated another size", codec.name());
    }

    /// Inflates the zlib stream `input` into `out` when its size is not known:
    /// `out` (kept between calls, so it is cleared only while it grows) is
    /// doubled until the stream fits. Returns the inflated length.
    pub fn inflate_unknown(&mut self, codec: Codec, input: &[u8], out: &mut Vec<u8>) -> usize {
        if out.len() < 1 << 16 {
            out.resize(1 << 16, 0);
        }
        loop {
            let fits = match codec {
                Codec::Libdeflate => match self.ld_in.zlib_decompress(input, out) {
                    Ok(n) => Some(n),
                    Err(libdeflater::DecompressionError::InsufficientSpace) => None,
                    Err(e) => panic!("libdeflate: {e:?}"),
                },
                Codec::ZlibRs => {
                    self.rs_in.reset(true);
                    let status = self
                        .rs_in
                        .decompress(input, out, flate2::FlushDecompress::Finish)
                        .expect("zlib-rs");
                    (status == flate2::Status::StreamEnd).then(|| self.rs_in.total_out() as usize)
                }
                Codec::ZlibNg => self.ng_in.try_inflate(input, out),
            };
            match fits {
                Some(n) => return n,
                None => out.resize(out.len() * 2, 0),
            }
        }
    }

    /// Compresses `input` as one zlib stream at `level` (0..=9) into `out`
    /// (cleared first).
    pub fn deflate(&mut self, codec: Codec, level: u32, input: &[u8], out: &mut Vec<u8>) {
        let level = level.min(9);
        out.clear();
        match codec {
            Codec::Libdeflate => {
                let c = self.ld_out[level as usize].get_or_insert_with(|| {
                    libdeflater::Compressor::new(
                        libdeflater::CompressionLvl::new(level as i32).expect("0..=9"),
                    )
                });
                out.resize(c.zlib_compress_bound(input.len()), 0);
                let n = c.zlib_compress(input, out).expect("bound is enough");
                out.truncate(n);
            }
            Codec::ZlibRs => {
                let c = self.rs_out[level as usize].get_or_insert_with(|| {
                    flate2::Compress::new(flate2::Compression::new(level), true)
                });
                c.reset();
                out.reserve(input.len() + input.len() / 1000 + 64);
                let status = c
                    .compress_vec(input, out, flate2::FlushCompress::Finish)
                    .expect("zlib-rs");
                assert_eq!(status, flate2::Status::StreamEnd);
            }
            Codec::ZlibNg => {
                let c =
                    self.ng_out[level as usize].get_or_insert_with(|| NgStream::deflater(level));
                c.deflate(input, out);
            }
        }
    }
}

/// A zlib-ng stream, boxed: zlib keeps a pointer from its state back to the
/// stream and refuses a stream that moved.
struct NgStream {
    stream: Box<libz_ng_sys::z_stream>,
    deflate: bool,
}

const Z_OK: c_int = 0;
const Z_STREAM_END: c_int = 1;
const Z_FINISH: c_int = 4;
const Z_BUF_ERROR: c_int = -5;
const Z_DEFLATED: c_int = 8;

/// zlib-ng's allocator hooks over Rust's allocator (the stream type has no
/// room for "use the default"): a 16-byte header keeps each block's size.
unsafe extern "C" fn ng_alloc(_: *mut c_void, items: c_uint, size: c_uint) -> *mut c_void {
    let Some(bytes) = (items as usize).checked_mul(size as usize) else {
        return std::ptr::null_mut();
    };
    let Ok(layout) = std::alloc::Layout::from_size_align(bytes + 16, 16) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the layout is not zero-sized (16 bytes of header at least).
    let p = unsafe { std::alloc::alloc(layout) };
    if p.is_null() {
        return p.cast();
    }
    // SAFETY: `p` is 16-aligned and at least 16 bytes long; the block returned
    // starts after the header and keeps the 16-byte alignment.
    unsafe {
        p.cast::<usize>().write(bytes + 16);
        p.add(16).cast()
    }
}

unsafe extern "C" fn ng_free(_: *mut c_void, block: *mut c_void) {
    if block.is_null() {
        return;
    }
    // SAFETY: `block` came from `ng_alloc`: its header, 16 bytes before it,
    // holds the size of the layout it was allocated with.
    unsafe {
        let p = block.cast::<u8>().sub(16);
        let size = p.cast::<usize>().read();
        std::alloc::dealloc(p, std::alloc::Layout::from_size_align_unchecked(size, 16));
    }
}

impl NgStream {
    fn blank() -> Box<libz_ng_sys::z_stream> {
        Box::new(libz_ng_sys::z_stream {
            next_in: std::ptr::null_mut(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null_mut(),
            state: std::ptr::null_mut(),
            zalloc: ng_alloc,
            zfree: ng_free,
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        })
    }

    fn inflater() -> Self {
        let mut stream = Self::blank();
        // SAFETY: a blank stream with allocator hooks, as inflateInit wants.
        let rc = unsafe { libz_ng_sys::zng_inflateInit(&mut *stream) };
        assert_eq!(rc, Z_OK);
        Self {
            stream,
            deflate: false,
        }
    }

    fn deflater(level: u32) -> Self {
        let mut stream = Self::blank();
        // SAFETY: as above; window 15 and memLevel 8 are zlib's defaults.
        let rc = unsafe {
            libz_ng_sys::zng_deflateInit2(&mut *stream, level as c_int, Z_DEFLATED, 15, 8, 0)
        };
        assert_eq!(rc, Z_OK);
        Self {
            stream,
            deflate: true,
        }
    }

    fn inflate(&mut self, input: &[u8], out: &mut [u8]) -> usize {
        self.try_inflate(input, out)
            .expect("zlib-ng: output too small")
    }

    /// Inflates into `out`, or `None` if it is too small.
    fn try_inflate(&mut self, input: &[u8], out: &mut [u8]) -> Option<usize> {
        let s = &mut *self.stream;
        // SAFETY: an initialised inflater; zlib reads `avail_in` bytes from
        // `next_in` (never writing them) and writes at most `avail_out` bytes
        // at `next_out`, both of which point into live slices.
        unsafe {
            assert_eq!(libz_ng_sys::inflateReset(s), Z_OK);
            s.next_in = input.as_ptr().cast_mut();
            s.avail_in = input.len() as c_uint;
            s.next_out = out.as_mut_ptr();
            s.avail_out = out.len() as c_uint;
            match libz_ng_sys::inflate(s, Z_FINISH) {
                Z_STREAM_END => Some(s.total_out),
                Z_BUF_ERROR if s.avail_out == 0 => None,
                rc => panic!("zlib-ng inflate: {rc}"),
            }
        }
    }

    fn deflate(&mut self, input: &[u8], out: &mut Vec<u8>) {
        let s = &mut *self.stream;
        // SAFETY: an initialised deflater; `out` has `bound` bytes of spare
        // capacity, zlib writes at most `avail_out` of them, and `set_len`
        // covers only the `total_out` bytes it wrote.
        unsafe {
            assert_eq!(libz_ng_sys::deflateReset(s), Z_OK);
            let bound = libz_ng_sys::deflateBound(s, input.len() as _) as usize;
            out.reserve(bound);
            s.next_in = input.as_ptr().cast_mut();
            s.avail_in = input.len() as c_uint;
            s.next_out = out.as_mut_ptr();
            s.avail_out = bound as c_uint;
            assert_eq!(libz_ng_sys::deflate(s, Z_FINISH), Z_STREAM_END);
            out.set_len(s.total_out);
        }
    }
}

impl Drop for NgStream {
    fn drop(&mut self) {
        // SAFETY: the stream was initialised as the kind it is ended as.
        unsafe {
            if self.deflate {
                libz_ng_sys::deflateEnd(&mut *self.stream);
            } else {
                libz_ng_sys::inflateEnd(&mut *self.stream);
            }
        }
    }
}

/// CPU time this thread has run, in nanoseconds (Linux's schedstat): a
/// measure that other processes on a loaded machine do not inflate.
pub fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("/proc/thread-self/schedstat (Linux)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_reads_every_codecs_output() {
        let region = corpus::load_as_shipped("1.19.4.mca").unwrap();
        let chunks = zlib_chunks(region);
        assert_eq!(chunks.len(), 676);
        let mut codecs = Codecs::new();
        let mut packed = Vec::new();
        for data in chunks.iter().step_by(67) {
            let mut nbt = vec![0; 1 << 21];
            codecs.rs_in.reset(true);
            codecs
                .rs_in
                .decompress(data, &mut nbt, flate2::FlushDecompress::Finish)
                .unwrap();
            nbt.truncate(codecs.rs_in.total_out() as usize);
            for by in CODECS {
                for level in [1, 6, 9] {
                    codecs.deflate(by, level, &nbt, &mut packed);
                    for reader in CODECS {
                        let mut out = vec![0; nbt.len()];
                        codecs.inflate(reader, &packed, &mut out);
                        assert!(out == nbt, "{} -> {}", by.name(), reader.name());
                    }
                }
            }
        }
    }
}
