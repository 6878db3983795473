//! Read limits for servers that read NBT from strangers.

/// The nesting limit vanilla Minecraft enforces (NbtAccounter): at most 512
/// compound/list levels, counting the root.
pub const DEFAULT_MAX_DEPTH: u32 = 512;

/// The default cap on the size a compressed input may inflate to (256 MiB): far
/// above any real player, level or chunk file, yet a bound on the memory a
/// decompression bomb can take. See [`ReadOptions::max_inflated_bytes`].
pub const DEFAULT_MAX_INFLATED: usize = 256 * 1024 * 1024;

/// Limits a reader applies. Both readers ([`crate::borrow`] and [`crate::owned`])
/// take the same options and enforce them identically.
///
/// The defaults match vanilla Minecraft's disk reader: depth 512 and no byte quota.
/// A network server should also set a quota, as vanilla does (2 MiB for most packets):
///
/// ```
/// use simdnbt::ReadOptions;
/// let opts = ReadOptions::default().max_bytes(2 * 1024 * 1024);
/// let bytes = [0x0a, 0x00, 0x00, 0x00];
/// let nbt = simdnbt::borrow::read_with(&mut std::io::Cursor::new(&bytes[..]), &opts).unwrap();
/// assert!(nbt.is_some());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    pub(crate) max_depth: u32,
    pub(crate) max_bytes: Option<usize>,
    /// Largest inflated size accepted from gzip/zlib/LZ4 input (compression and region readers).
    pub(crate) max_inflated: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            max_depth: DEFAULT_MAX_DEPTH,
            max_bytes: None,
            max_inflated: DEFAULT_MAX_INFLATED,
        }
    }
}

impl ReadOptions {
    /// Sets the deepest nesting of compounds and lists accepted, counting the root
    /// (default 512). A deeper input is [`crate::ErrorKind::MaxDepthExceeded`].
    ///
    /// Raising it past 512 reads documents vanilla would reject. The two
    /// writers then differ, on purpose: the borrow writer
    /// ([`crate::borrow::BaseNbt::write`] and friends) gives back the bytes it
    /// read, unchanged — its signature, upstream's, cannot fail, and a copy of
    /// the input is exactly as valid as the input — so the output needs the same
    /// raised limit to read again; the owned writer refuses any tree deeper than
    /// 512 with [`crate::WriteError::MaxDepthExceeded`], because owned trees can
    /// be built by hand to any depth.
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets a budget of input bytes a read may consume, like vanilla's NbtAccounter
    /// quota (default: unlimited). Reading past it is [`crate::ErrorKind::BudgetExceeded`].
    /// Since every reader's memory use is bounded by a small multiple of the bytes
    /// it consumes, this also bounds memory.
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = Some(bytes);
        self
    }

    /// Sets the largest size, in bytes, that compressed input may inflate to
    /// (default [`DEFAULT_MAX_INFLATED`], 256 MiB). Inflating stops as soon as the
    /// output would pass it and the read fails, so a decompression bomb costs at
    /// most this much memory. When [`ReadOptions::max_bytes`] is also set, the
    /// smaller of the two applies: a read cannot consume more input than that.
    ///
    /// ```
    /// let opts = simdnbt::ReadOptions::default().max_inflated_bytes(1 << 20);
    /// # let _ = opts;
    /// ```
    pub fn max_inflated_bytes(mut self, bytes: usize) -> Self {
        self.max_inflated = bytes;
        self
    }

    /// The inflation cap in effect: [`ReadOptions::max_inflated_bytes`], lowered
    /// to [`ReadOptions::max_bytes`] when that is set and smaller.
    pub fn inflate_limit(&self) -> usize {
        match self.max_bytes {
            Some(budget) => budget.min(self.max_inflated),
            None => self.max_inflated,
        }
    }
}
