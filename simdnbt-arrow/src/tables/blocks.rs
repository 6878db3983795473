//! `blocks`: how many blocks of each state each section holds, from the
//! palettes and packed indices: 1.18+ `sections[].block_states.{palette,
//! data}`, 1.13–1.17 `Level.Sections[].{Palette, BlockStates}` (the packing
//! chosen by `DataVersion` as the library's [`simdnbt::region::chunk`]
//! module describes), and before 1.13 the numeric `Blocks`/`Add`/`Data`
//! arrays (state `legacy:ID:META`).

use std::fmt::Write as _;

use arrow_schema::{DataType, Field};
use simdnbt::borrow::{NbtCompound, NbtList};
use simdnbt::raw_list::RawList;
use simdnbt::region::chunk::NO_SPANNING_FROM;

use super::{Doc, field, int_like, level};
use crate::cols::Cols;

const SECTION_Y: usize = 3;
const BLOCK_STATE: usize = 4;
const COUNT: usize = 5;

/// Blocks in a section.
const BLOCKS: usize = 4096;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("section_y", DataType::Int32),
        field("block_state", DataType::Utf8),
        field("count", DataType::Int32),
    ]
}

/// How many of `len` positions hold each of `palette_len` palette entries,
/// from indices packed into `data` with `max(min_bits, ⌈log2 palette_len⌉)`
/// bits each; `spanning`: the pre-1.16 packing, where an index may run on
/// into the next long. A palette of one entry needs no data. `counts` is
/// overwritten. Errors say what does not fit, never panic.
pub fn count_palette_indices(
    data: Option<RawList<'_, i64>>,
    palette_len: usize,
    min_bits: u32,
    spanning: bool,
    len: usize,
    counts: &mut Vec<u32>,
) -> Result<(), String> {
    counts.clear();
    if palette_len == 0 {
        return Err("empty palette".into());
    }
    if palette_len == 1 {
        counts.push(len as u32);
        return Ok(());
    }
    let bits = (usize::BITS - (palette_len - 1).leading_zeros()).max(min_bits) as usize;
    if bits == 0 || bits > 32 {
        return Err(format!(
            "a palette of {palette_len} needs {bits} bits per index"
        ));
    }
    let expected = if spanning {
        (len * bits).div_ceil(64)
    } else {
        len.div_ceil(64 / bits)
    };
    let found = data.map_or(0, |d| d.len());
    if found != expected {
        return Err(format!(
            "{found} longs of data, a palette of {palette_len} ({bits} bits) needs {expected}"
        ));
    }
    let Some(data) = data else {
        return Err("no data".into());
    };
    counts.resize(palette_len, 0);
    let mask = (1u64 << bits) - 1;
    // Runs of one index are counted in a register and added when the index
    // changes: sections are mostly long runs (air, stone), and adding to one
    // counter per block would wait on the previous add every time.
    let mut run = Run {
        index: 0,
        length: 0,
        start: 0,
    };
    let mut at = 0;
    if spanning {
        let mut longs = data.iter().map(|l| l as u64);
        let mut have = 0usize;
        // The bits not yet taken: fewer than 32 left over plus one long.
        let mut buf: u128 = 0;
        while at < len {
            while have < bits {
                buf |= u128::from(longs.next().unwrap_or(0)) << have;
                have += 64;
            }
            let index = (buf as u64) & mask;
            buf >>= bits;
            have -= bits;
            run.push(index, at, counts)?;
            at += 1;
        }
    } else if bits <= 16 {
        return count_packed(data, palette_len, bits, len, counts);
    } else {
        let per_long = 64 / bits;
        for long in data.iter() {
            let mut v = long as u64;
            for _ in 0..per_long.min(len - at) {
                run.push(v & mask, at, counts)?;
                v >>= bits;
                at += 1;
            }
        }
    }
    run.flush(counts)?;
    Ok(())
}

/// The 1.16+ packing with at most 16 bits per index: a histogram of every
/// index the bits can hold (`2^bits` counters, so no index is out of range
/// while counting), kept in four copies used in turn so that consecutive
/// equal indices do not wait on each other's add; then indices past the
/// palette are an error naming the first position that holds one. A long
/// whose fields all hold one index is counted in one step.
fn count_packed(
    data: RawList<'_, i64>,
    palette_len: usize,
    bits: usize,
    len: usize,
    counts: &mut Vec<u32>,
) -> Result<(), String> {
    let size = 1usize << bits;
    let mask = (size - 1) as u64;
    let per_long = 64 / bits;
    let used = u64::MAX >> (64 - per_long * bits);
    // 1 at the bottom of every field: `index * repeat` fills each field with index.
    let repeat = (0..per_long).fold(0u64, |acc, i| acc | 1 << (i * bits));
    counts.clear();
    counts.resize(4 * size, 0);
    let (t0, rest) = counts.split_at_mut(size);
    let (t1, rest) = rest.split_at_mut(size);
    let (t2, t3) = rest.split_at_mut(size);
    let mut at = 0;
    for long in data.iter() {
        let mut v = long as u64;
        let take = per_long.min(len - at);
        at += take;
        if take == per_long && v & used == (v & mask).wrapping_mul(repeat) {
            t0[(v & mask) as usize] += per_long as u32;
            continue;
        }
        let mut k = 0;
        while k + 4 <= take {
            t0[(v & mask) as usize] += 1;
            t1[((v >> bits) & mask) as usize] += 1;
            t2[((v >> (2 * bits)) & mask) as usize] += 1;
            t3[((v >> (3 * bits)) & mask) as usize] += 1;
            v = v.checked_shr(4 * bits as u32).unwrap_or(0);
            k += 4;
        }
        while k < take {
            t0[(v & mask) as usize] += 1;
            v >>= bits;
            k += 1;
        }
    }
    for i in 0..size {
        t0[i] += t1[i] + t2[i] + t3[i];
    }
    counts.truncate(size);
    if let Some(index) = (palette_len..size).find(|&i| counts[i] > 0) {
        let at = (0..len)
            .find(|&at| {
                let long = data.get(at / per_long).unwrap_or(0) as u64;
                (long >> ((at % per_long) * bits)) & mask == index as u64
            })
            .unwrap_or(0);
        return Err(format!(
            "position {at}: index {index} past the palette of {palette_len}"
        ));
    }
    counts.truncate(palette_len);
    Ok(())
}

/// A run of one palette index, not yet added to the counts.
struct Run {
    index: u64,
    length: u32,
    /// Where the run started (for the error).
    start: usize,
}

impl Run {
    #[inline(always)]
    fn push(&mut self, index: u64, at: usize, counts: &mut [u32]) -> Result<(), String> {
        if index == self.index {
            self.length += 1;
            return Ok(());
        }
        self.flush(counts)?;
        *self = Run {
            index,
            length: 1,
            start: at,
        };
        Ok(())
    }

    fn flush(&self, counts: &mut [u32]) -> Result<(), String> {
        if self.length == 0 {
            return Ok(());
        }
        let palette_len = counts.len();
        let slot = counts.get_mut(self.index as usize).ok_or_else(|| {
            format!(
                "position {}: index {} past the palette of {palette_len}",
                self.start, self.index
            )
        })?;
        *slot += self.length;
        Ok(())
    }
}

/// A block state as `name[key=value,...]`, properties sorted by key (the
/// name alone when there are none).
pub(crate) fn state_name(entry: &NbtCompound<'_, '_>, out: &mut String) -> Option<()> {
    out.clear();
    out.push_str(&entry.string("Name")?.to_str());
    if let Some(props) = entry.compound("Properties") {
        let mut pairs: Vec<(String, String)> = props
            .iter()
            .map(|(k, v)| {
                let value = match v.string() {
                    Some(s) => s.to_str().into_owned(),
                    None => super::snbt_tag(&v).unwrap_or_default(),
                };
                (k.to_str().into_owned(), value)
            })
            .collect();
        if !pairs.is_empty() {
            pairs.sort();
            out.push('[');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{k}={v}");
            }
            out.push(']');
        }
    }
    Some(())
}

struct Emit<'c, 'd> {
    doc: &'d Doc<'d>,
    cols: &'c mut Cols,
    snbt: Option<usize>,
}

impl Emit<'_, '_> {
    fn row(
        &mut self,
        y: Option<i32>,
        state: &str,
        count: u32,
        entry: Option<&NbtCompound<'_, '_>>,
    ) {
        self.doc.put_place(self.cols);
        self.cols.i32(SECTION_Y, y);
        self.cols.str(BLOCK_STATE, Some(state));
        self.cols.i32(COUNT, Some(count as i32));
        if let Some(s) = self.snbt.filter(|&s| self.cols.want(s)) {
            let text = entry.and_then(super::snbt_compound);
            self.cols.str(s, text.as_deref());
        }
        self.cols.end_row();
    }
}

fn paletted(
    emit: &mut Emit<'_, '_>,
    y: Option<i32>,
    palette: NbtList<'_, '_>,
    data: Option<RawList<'_, i64>>,
    spanning: bool,
    counts: &mut Vec<u32>,
    name: &mut String,
) -> Result<(), String> {
    let Some(entries) = palette.compounds() else {
        return Err("palette is not a list of compounds".into());
    };
    count_palette_indices(data, entries.len(), 4, spanning, BLOCKS, counts)?;
    // Names first, so that a bad entry skips the whole section, not half of it.
    let mut rows = Vec::new();
    for (entry, &count) in entries.iter().zip(counts.iter()) {
        if count == 0 {
            continue;
        }
        state_name(&entry, name).ok_or("a palette entry has no Name")?;
        rows.push((name.clone(), count, entry));
    }
    for (state, count, entry) in rows {
        emit.row(y, &state, count, Some(&entry));
    }
    Ok(())
}

fn nibble(array: &[u8], i: usize) -> u16 {
    array
        .get(i >> 1)
        .map_or(0, |b| u16::from((b >> ((i & 1) << 2)) & 0xf))
}

/// Pre-1.13 sections: block ids in `Blocks` (+ `Add`, high bits), metadata in `Data`.
fn legacy(
    emit: &mut Emit<'_, '_>,
    y: Option<i32>,
    section: &NbtCompound<'_, '_>,
) -> Result<(), String> {
    let blocks = section.byte_array("Blocks").unwrap_or_default();
    if blocks.len() != BLOCKS {
        return Err(format!("Blocks has {} bytes, not {BLOCKS}", blocks.len()));
    }
    let meta = section.byte_array("Data").unwrap_or_default();
    let add = section.byte_array("Add").unwrap_or_default();
    for (name, array) in [("Data", meta), ("Add", add)] {
        if !array.is_empty() && array.len() != BLOCKS / 2 {
            return Err(format!(
                "{name} has {} bytes, not {}",
                array.len(),
                BLOCKS / 2
            ));
        }
    }
    let mut keys: Vec<u32> = (0..BLOCKS)
        .map(|i| {
            let id = u32::from(blocks[i]) | u32::from(nibble(add, i)) << 8;
            id << 4 | u32::from(nibble(meta, i))
        })
        .collect();
    keys.sort_unstable();
    let mut i = 0;
    while i < keys.len() {
        let key = keys[i];
        let run = keys[i..].iter().take_while(|&&k| k == key).count();
        let state = format!("legacy:{}:{}", key >> 4, key & 0xf);
        emit.row(y, &state, run as u32, None);
        i += run;
    }
    Ok(())
}

pub(crate) fn rows(
    doc: &Doc<'_>,
    root: NbtCompound<'_, '_>,
    cols: &mut Cols,
    snbt: Option<usize>,
    warn: &mut Vec<String>,
) {
    let spanning = root.int("DataVersion").unwrap_or(0) < NO_SPANNING_FROM;
    let (list, modern) = match root.list("sections") {
        Some(list) => (list, true),
        None => match level(root).list("Sections") {
            Some(list) => (list, false),
            None => return,
        },
    };
    let Some(sections) = list.compounds() else {
        return;
    };
    let mut emit = Emit { doc, cols, snbt };
    let (mut counts, mut name) = (Vec::new(), String::new());
    for (i, section) in sections.iter().enumerate() {
        let y = int_like(section.get("Y")).and_then(|y| i32::try_from(y).ok());
        let result = if modern {
            match section.compound("block_states") {
                Some(states) => match states.list("palette") {
                    Some(palette) => paletted(
                        &mut emit,
                        y,
                        palette,
                        states.long_array_raw("data"),
                        spanning,
                        &mut counts,
                        &mut name,
                    ),
                    None => Err("block_states has no palette".into()),
                },
                None => Ok(()),
            }
        } else if let Some(palette) = section.list("Palette") {
            paletted(
                &mut emit,
                y,
                palette,
                section.long_array_raw("BlockStates"),
                spanning,
                &mut counts,
                &mut name,
            )
        } else if section.contains("Blocks") {
            legacy(&mut emit, y, &section)
        } else {
            Ok(())
        };
        if let Err(e) = result {
            warn.push(format!(
                "sections[{i}] (y {}): skipped: {e}",
                y.map_or("?".into(), |y| y.to_string())
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(longs: &[i64]) -> Vec<u8> {
        longs.iter().flat_map(|l| l.to_be_bytes()).collect()
    }

    #[test]
    fn both_packings_count_the_same_blocks() {
        // 5 entries: 4 bits (the minimum), which never spans: both packings agree.
        let longs: Vec<i64> = (0..256).map(|_| 0x4321_0432_1043_2104).collect();
        let bytes = raw(&longs);
        let mut a = Vec::new();
        let mut b = Vec::new();
        count_palette_indices(Some(RawList::new(&bytes)), 5, 4, false, 4096, &mut a).unwrap();
        count_palette_indices(Some(RawList::new(&bytes)), 5, 4, true, 4096, &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.iter().sum::<u32>(), 4096);
    }

    #[test]
    fn five_bits_span_longs_before_1_16_only() {
        // 17 entries: 5 bits. Packed 1.16+: 12 per long, 342 longs; spanning: 320.
        let mut counts = Vec::new();
        let zeros = vec![0u8; 342 * 8];
        count_palette_indices(Some(RawList::new(&zeros)), 17, 4, false, 4096, &mut counts).unwrap();
        assert_eq!(counts[0], 4096);
        let zeros = vec![0u8; 320 * 8];
        count_palette_indices(Some(RawList::new(&zeros)), 17, 4, true, 4096, &mut counts).unwrap();
        assert_eq!(counts[0], 4096);
        // Position 12 of the spanning packing starts at bit 60 and runs into
        // the next long: value 0b1_0000 (16) = top nibble 0 of long 0 and
        // low bit 1 of long 1.
        let mut longs = vec![0i64; 320];
        longs[1] = 1;
        let bytes = raw(&longs);
        count_palette_indices(Some(RawList::new(&bytes)), 17, 4, true, 4096, &mut counts).unwrap();
        assert_eq!(counts[16], 1);
        assert_eq!(counts[0], 4095);
    }

    /// Position by position, as the format describes it.
    fn naive(longs: &[i64], palette_len: usize, bits: usize, spanning: bool) -> Vec<u32> {
        let mut counts = vec![0; palette_len];
        for at in 0..4096 {
            let index = if spanning {
                let bit = at * bits;
                let mut v = (longs[bit / 64] as u64) >> (bit % 64);
                if bit % 64 + bits > 64 {
                    v |= (longs[bit / 64 + 1] as u64) << (64 - bit % 64);
                }
                v & ((1 << bits) - 1)
            } else {
                let per = 64 / bits;
                ((longs[at / per] as u64) >> ((at % per) * bits)) & ((1 << bits) - 1)
            };
            counts[index as usize] += 1;
        }
        counts
    }

    #[test]
    fn runs_and_whole_longs_count_as_position_by_position() {
        // Palettes of 2 to 300 (4 to 9 bits), longs of one index and mixed
        // ones (values kept inside the palette by masking to its size).
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for palette_len in [2usize, 16, 17, 33, 64, 65, 300] {
            let bits = (usize::BITS - (palette_len - 1).leading_zeros()).max(4) as usize;
            for spanning in [false, true] {
                let n = if spanning {
                    (4096 * bits).div_ceil(64)
                } else {
                    4096usize.div_ceil(64 / bits)
                };
                let longs: Vec<i64> = (0..n)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Every third long uniform (index 1), the rest index 0 or 1 mixed.
                        let per = 64 / bits;
                        let fill = (0..per).fold(0u64, |a, k| a | 1 << (k * bits));
                        match i % 3 {
                            0 => fill as i64,
                            1 => 0,
                            _ => (x & fill) as i64,
                        }
                    })
                    .collect();
                let bytes = raw(&longs);
                let mut counts = Vec::new();
                count_palette_indices(
                    Some(RawList::new(&bytes)),
                    palette_len,
                    4,
                    spanning,
                    4096,
                    &mut counts,
                )
                .unwrap();
                assert_eq!(
                    counts,
                    naive(&longs, palette_len, bits, spanning),
                    "{palette_len} {spanning}"
                );
            }
        }
    }

    #[test]
    fn wrong_data_is_an_error_not_a_panic() {
        let mut counts = Vec::new();
        let short = vec![0u8; 8];
        assert!(
            count_palette_indices(Some(RawList::new(&short)), 17, 4, false, 4096, &mut counts)
                .is_err()
        );
        assert!(count_palette_indices(None, 2, 4, false, 4096, &mut counts).is_err());
        assert!(count_palette_indices(None, 0, 4, false, 4096, &mut counts).is_err());
        // Index past the palette: all ones in 4-bit fields, palette of 3.
        let ones = vec![0xffu8; 256 * 8];
        let e = count_palette_indices(Some(RawList::new(&ones)), 3, 4, false, 4096, &mut counts);
        assert!(e.unwrap_err().contains("past the palette"));
        // A palette too large for 32-bit indices.
        assert!(count_palette_indices(None, usize::MAX / 2, 4, false, 4096, &mut counts).is_err());
        // One entry: no data needed, any data ignored.
        count_palette_indices(Some(RawList::new(&short)), 1, 4, false, 4096, &mut counts).unwrap();
        assert_eq!(counts, [4096]);
    }
}
