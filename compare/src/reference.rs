//! A deliberately plain NBT reader written for this crate: recursive, no tricks,
//! straight from docs/format.md §1–2. It is never benchmarked. It serves as
//! - the canonicaliser for peers whose tree cannot be walked through their public API
//!   (graphite: its compound entries are private, so it is read back from its own writer's bytes);
//! - an independent oracle the equivalence tests also hold simdnbt to.
//!
//! Strings are decoded with the workspace's one lossy MUTF-8 rule (`testkit::mutf8`).
//!
//! It accepts only file-form documents (root = id, name, payload) with a compound root,
//! enforces the 512-level depth limit and checks every length against the remaining input.

use testkit::mutf8::lossy as mutf8_lossy;
use testkit::{Doc, List, Value};

/// Parses a file-form NBT document into the canonical value.
pub fn read(input: &[u8]) -> Result<Doc, String> {
    let mut r = Reader { buf: input, pos: 0 };
    let id = r.u8()?;
    if id != 10 {
        return Err(format!("root tag id {id}, expected compound"));
    }
    let name = r.string()?;
    let root = r.payload(10, 1)?;
    Ok(Doc {
        name: Some(name),
        root,
    })
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

const MAX_DEPTH: usize = 512;

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.buf.len() - self.pos < n {
            return Err(format!("unexpected end of input at byte {}", self.pos));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().unwrap())
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn len(&mut self, elem_size: usize) -> Result<usize, String> {
        let at = self.pos;
        let n = i32::from_be_bytes(self.array()?);
        if n < 0 {
            return Err(format!("negative length {n} at byte {at}"));
        }
        let n = n as usize;
        if n.saturating_mul(elem_size) > self.buf.len() - self.pos {
            return Err(format!("length {n} exceeds input at byte {at}"));
        }
        Ok(n)
    }
    fn string(&mut self) -> Result<String, String> {
        let n = u16::from_be_bytes(self.array()?) as usize;
        Ok(mutf8_lossy(self.take(n)?))
    }
    fn payload(&mut self, id: u8, depth: usize) -> Result<Value, String> {
        Ok(match id {
            1 => Value::Byte(self.u8()? as i8),
            2 => Value::Short(i16::from_be_bytes(self.array()?)),
            3 => Value::Int(i32::from_be_bytes(self.array()?)),
            4 => Value::Long(i64::from_be_bytes(self.array()?)),
            5 => Value::Float(u32::from_be_bytes(self.array()?)),
            6 => Value::Double(u64::from_be_bytes(self.array()?)),
            7 => {
                let n = self.len(1)?;
                Value::ByteArray(self.take(n)?.to_vec())
            }
            8 => Value::String(self.string()?),
            9 => {
                if depth > MAX_DEPTH {
                    return Err(format!("depth limit exceeded at byte {}", self.pos));
                }
                let elem = self.u8()?;
                let n = self.len(min_size(elem))?;
                if elem == 0 && n > 0 {
                    return Err("list of End with non-zero length".into());
                }
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.payload(elem, depth + 1)?);
                }
                Value::List(List::typed(elem, items))
            }
            10 => {
                if depth > MAX_DEPTH {
                    return Err(format!("depth limit exceeded at byte {}", self.pos));
                }
                let mut entries = Vec::new();
                loop {
                    let id = self.u8()?;
                    if id == 0 {
                        break;
                    }
                    let key = self.string()?;
                    entries.push((key, self.payload(id, depth + 1)?));
                }
                Value::Compound(entries)
            }
            11 => {
                let n = self.len(4)?;
                let b = self.take(n * 4)?;
                Value::IntArray(
                    b.chunks_exact(4)
                        .map(|c| i32::from_be_bytes(c.try_into().unwrap()))
                        .collect(),
                )
            }
            12 => {
                let n = self.len(8)?;
                let b = self.take(n * 8)?;
                Value::LongArray(
                    b.chunks_exact(8)
                        .map(|c| i64::from_be_bytes(c.try_into().unwrap()))
                        .collect(),
                )
            }
            other => return Err(format!("unknown tag id {other} at byte {}", self.pos)),
        })
    }
}

/// Smallest encoded size of one payload of tag `id` (used to bound list lengths).
fn min_size(id: u8) -> usize {
    match id {
        0 => 0,
        1 => 1,
        2 => 2,
        3 | 5 => 4,
        4 | 6 => 8,
        7 | 11 | 12 | 9 => 4,
        8 => 2,
        10 => 1,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_small_documents_and_rejects_bad_ones() {
        let ok = testkit::hostile::case("three_empty_compounds").bytes;
        let d = read(&ok).unwrap();
        let Value::Compound(c) = &d.root else {
            panic!()
        };
        let Value::List(l) = &c[0].1 else { panic!() };
        assert_eq!(l.elem, Some(10));
        assert_eq!(l.items.len(), 3);
        for name in ["list_of_end_len5", "huge_list", "huge_int_array", "empty"] {
            assert!(read(&testkit::hostile::case(name).bytes).is_err(), "{name}");
        }
        // truncated
        assert!(read(&ok[..ok.len() - 1]).is_err());
        assert!(read(&[]).is_err());
    }

    #[test]
    fn depth_limit() {
        let deep = testkit::bytes::deep_compounds(600);
        assert!(read(&deep).unwrap_err().contains("depth"));
    }
}
