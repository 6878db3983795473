//! A paletted container: the palette and the unpacked indices.

use super::ChunkErrorKind;
use crate::borrow::NbtCompound;

/// A palette and one index into it per position (block states: 4096, in
/// YZX order; biomes: 64).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paletted {
    palette: Vec<String>,
    /// Empty when the palette has one entry (every position is entry 0).
    indices: Vec<u16>,
    len: usize,
}

impl Paletted {
    /// Decodes `compound[palette_key]` and `compound[data_key]`: `len`
    /// positions of at least `min_bits` bits each; `spanning`: the pre-1.16
    /// packing where an index may run on into the next long.
    pub(super) fn decode(
        compound: &NbtCompound<'_, '_>,
        palette_key: &'static str,
        data_key: &'static str,
        len: usize,
        min_bits: u32,
        spanning: bool,
    ) -> Result<Paletted, ChunkErrorKind> {
        let bad = ChunkErrorKind::BadPalette { key: palette_key };
        let list = compound.list(palette_key).ok_or(bad.clone())?;
        let palette: Vec<String> = if let Some(states) = list.compounds() {
            let names: Option<Vec<String>> = states
                .iter()
                .map(|c| c.string("Name").map(|s| s.to_str().into_owned()))
                .collect();
            names.ok_or(bad.clone())?
        } else if let Some(strings) = list.strings() {
            strings.iter().map(|s| s.to_str().into_owned()).collect()
        } else {
            return Err(bad);
        };
        if palette.is_empty() || palette.len() > usize::from(u16::MAX) + 1 {
            return Err(bad);
        }
        if palette.len() == 1 {
            return Ok(Paletted {
                palette,
                indices: Vec::new(),
                len,
            });
        }
        let bits = (usize::BITS - (palette.len() - 1).leading_zeros()).max(min_bits) as usize;
        let expected = if spanning {
            (len * bits).div_ceil(64)
        } else {
            len.div_ceil(64 / bits)
        };
        let data = compound.long_array_raw(data_key);
        let found = data.map_or(0, |d| d.len());
        if found != expected {
            return Err(ChunkErrorKind::WrongLongCount {
                key: data_key,
                expected,
                found,
            });
        }
        let data = data.map(|d| d.to_vec()).unwrap_or_default();
        let mask = (1u64 << bits) - 1;
        let mut indices = Vec::with_capacity(len);
        for at in 0..len {
            let index = if spanning {
                let bit = at * bits;
                let (word, offset) = (bit / 64, bit % 64);
                let mut v = (data[word] as u64) >> offset;
                if offset + bits > 64 {
                    v |= (data[word + 1] as u64) << (64 - offset);
                }
                v & mask
            } else {
                let per_long = 64 / bits;
                ((data[at / per_long] as u64) >> ((at % per_long) * bits)) & mask
            } as usize;
            if index >= palette.len() {
                return Err(ChunkErrorKind::IndexPastPalette {
                    at,
                    index,
                    palette_len: palette.len(),
                });
            }
            indices.push(index as u16);
        }
        Ok(Paletted {
            palette,
            indices,
            len,
        })
    }

    /// The palette: each distinct block state (or biome) name.
    pub fn palette(&self) -> &[String] {
        &self.palette
    }

    /// The palette index at position `i`.
    pub fn index(&self, i: usize) -> Option<usize> {
        if i >= self.len {
            return None;
        }
        Some(self.indices.get(i).map_or(0, |&v| usize::from(v)))
    }

    /// The name at position `i`.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.palette.get(self.index(i)?).map(String::as_str)
    }

    /// The number of positions (4096 or 64).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no positions (never, for decoded data).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many positions hold each palette entry, by palette index.
    pub fn counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.palette.len()];
        if self.indices.is_empty() {
            counts[0] = self.len as u64;
        } else {
            for &i in &self.indices {
                counts[usize::from(i)] += 1;
            }
        }
        counts
    }
}
