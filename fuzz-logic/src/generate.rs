//! Structured inputs: owned NBT documents built from fuzzer bytes.
//!
//! Covers all 13 tag types (End as the element type of empty lists), nesting,
//! strings as raw bytes (ASCII, MUTF-8 with `C0 80` and 6-byte supplementary
//! characters, invalid sequences), float bit patterns (NaN payloads, -0.0),
//! empty lists of every element type and long lists. Size and depth are capped
//! so one execution stays fast; rarely, a deep chain near the 512 limit or an
//! over-long string checks that the writer refuses exactly what it must.

use arbitrary::{Result, Unstructured};
use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtList, NbtTag};
use simdnbt::{Mutf8String, WriteError};

/// Nesting the ordinary generator goes to (the deep chain goes further).
const MAX_DEPTH: usize = 6;
/// Elements per generated list or array, except "long" ones.
const MAX_SHORT: usize = 8;
/// Elements of a long list or array.
const MAX_LONG: usize = 4096;
/// Tags (all levels) per document.
const MAX_NODES: usize = 400;

/// A generated document and what writing it must give.
#[derive(Debug)]
pub struct Generated {
    /// The document.
    pub nbt: Nbt,
    /// `Some` when the document breaks a writer limit on purpose.
    pub expect_write_error: Option<WriteError>,
}

struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    nodes: usize,
}

/// Interesting string bytes: MUTF-8 (valid and invalid) and plain.
const STRINGS: &[&[u8]] = &[
    b"",
    b"a",
    b"minecraft:stone",
    &[0x61, 0xc0, 0x80, 0x62],             // "a\0b"
    &[0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], // U+1F600 as a surrogate pair
    &[0xc3, 0xa9, 0xe6, 0x97, 0xa5],       // "é日"
    &[0xed, 0xa0, 0x80],                   // lone high surrogate
    &[0xff],                               // never valid
    &[0xc1, 0x81],                         // overlong
    &[0xe2, 0x82],                         // truncated
    &[0xf0, 0x9f, 0x98, 0x80],             // 4-byte UTF-8 (not MUTF-8)
    &[0x00],                               // raw NUL (MUTF-8 writes C0 80)
];

fn f32_bits(u: &mut Unstructured) -> Result<f32> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => f32::from_bits(0x7fc0_0000 | (u.arbitrary::<u32>()? & 0x003f_ffff)), // quiet NaN, payload
        1 => f32::from_bits(0xff80_0001 | (u.arbitrary::<u32>()? & 0x003f_ffff)), // signalling, negative
        2 => -0.0,
        3 => f32::INFINITY,
        _ => f32::from_bits(u.arbitrary()?),
    })
}

fn f64_bits(u: &mut Unstructured) -> Result<f64> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => {
            f64::from_bits(0x7ff8_0000_0000_0000 | (u.arbitrary::<u64>()? & 0x0007_ffff_ffff_ffff))
        }
        1 => {
            f64::from_bits(0xfff0_0000_0000_0001 | (u.arbitrary::<u64>()? & 0x0007_ffff_ffff_ffff))
        }
        2 => -0.0,
        3 => f64::NEG_INFINITY,
        _ => f64::from_bits(u.arbitrary()?),
    })
}

impl Gen<'_, '_> {
    fn len(&mut self) -> Result<usize> {
        Ok(match self.u.int_in_range(0u8..=15)? {
            0 => 0,
            15 => self.u.int_in_range(0..=MAX_LONG)?,
            _ => self.u.int_in_range(0..=MAX_SHORT)?,
        })
    }

    fn vec<T>(&mut self, mut f: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Vec<T>> {
        let n = self.len()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            // Once the input runs out, `Unstructured` yields zeros: keep going so
            // long lists exist even from short inputs.
            v.push(f(self.u)?);
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<Mutf8String> {
        Ok(Mutf8String::from_vec(
            match self.u.int_in_range(0u8..=3)? {
                0 => STRINGS[self.u.choose_index(STRINGS.len())?].to_vec(),
                1 => {
                    // Concatenate a few of the interesting pieces.
                    let n = self.u.int_in_range(1..=4)?;
                    let mut v = Vec::new();
                    for _ in 0..n {
                        v.extend_from_slice(STRINGS[self.u.choose_index(STRINGS.len())?]);
                    }
                    v
                }
                2 => {
                    let s: String = self.u.arbitrary()?;
                    s.into_bytes()
                }
                _ => {
                    let n = self.u.int_in_range(0..=64)?;
                    self.u.bytes(n)?.to_vec()
                }
            },
        ))
    }

    fn tag(&mut self, depth: usize) -> Result<NbtTag> {
        self.nodes += 1;
        let containers = depth < MAX_DEPTH && self.nodes < MAX_NODES;
        let id = self.u.int_in_range(1u8..=12)?;
        Ok(match id {
            1 => NbtTag::Byte(self.u.arbitrary()?),
            2 => NbtTag::Short(self.u.arbitrary()?),
            3 => NbtTag::Int(self.u.arbitrary()?),
            4 => NbtTag::Long(self.u.arbitrary()?),
            5 => NbtTag::Float(f32_bits(self.u)?),
            6 => NbtTag::Double(f64_bits(self.u)?),
            7 => NbtTag::ByteArray(self.vec(|u| u.arbitrary())?),
            8 => NbtTag::String(self.string()?),
            9 if containers => NbtTag::List(self.list(depth + 1)?),
            10 if containers => NbtTag::Compound(self.compound(depth + 1)?),
            11 => NbtTag::IntArray(self.vec(|u| u.arbitrary())?),
            12 => NbtTag::LongArray(self.vec(|u| u.arbitrary())?),
            _ => NbtTag::Int(self.u.arbitrary()?),
        })
    }

    fn list(&mut self, depth: usize) -> Result<NbtList> {
        self.nodes += 1;
        let containers = depth < MAX_DEPTH && self.nodes < MAX_NODES;
        let id = self.u.int_in_range(0u8..=12)?;
        // Empty lists of every element type are common on purpose.
        let empty = self.u.ratio(1u8, 4u8)?;
        macro_rules! leaf {
            ($variant:ident, $f:expr) => {
                NbtList::$variant(if empty { Vec::new() } else { self.vec($f)? })
            };
        }
        Ok(match id {
            0 => NbtList::Empty,
            1 => leaf!(Byte, |u| u.arbitrary()),
            2 => leaf!(Short, |u| u.arbitrary()),
            3 => leaf!(Int, |u| u.arbitrary()),
            4 => leaf!(Long, |u| u.arbitrary()),
            5 => leaf!(Float, f32_bits),
            6 => leaf!(Double, f64_bits),
            7 => NbtList::ByteArray(if empty {
                Vec::new()
            } else {
                self.small(|g| g.vec(|u| u.arbitrary()))?
            }),
            8 => NbtList::String(if empty {
                Vec::new()
            } else {
                self.small(|g| g.string())?
            }),
            9 if containers && !empty => NbtList::List(self.small(|g| g.list(depth + 1))?),
            9 => NbtList::List(Vec::new()),
            10 if containers && !empty => NbtList::Compound(self.small(|g| g.compound(depth + 1))?),
            10 => NbtList::Compound(Vec::new()),
            11 => NbtList::IntArray(if empty {
                Vec::new()
            } else {
                self.small(|g| g.vec(|u| u.arbitrary()))?
            }),
            _ => NbtList::LongArray(if empty {
                Vec::new()
            } else {
                self.small(|g| g.vec(|u| u.arbitrary()))?
            }),
        })
    }

    /// A short list of generated elements (1..=MAX_SHORT).
    fn small<T>(&mut self, mut f: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let n = self.u.int_in_range(1..=MAX_SHORT)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(f(self)?);
        }
        Ok(v)
    }

    fn compound(&mut self, depth: usize) -> Result<NbtCompound> {
        self.nodes += 1;
        let n = if self.nodes < MAX_NODES {
            self.u.int_in_range(0..=MAX_SHORT)?
        } else {
            0
        };
        let mut c = NbtCompound::with_capacity(n);
        for _ in 0..n {
            // Sometimes repeat an earlier key: duplicates must survive in order.
            let key = if !c.is_empty() && self.u.ratio(1u8, 8u8)? {
                let i = self.u.choose_index(c.len())?;
                c.keys().nth(i).expect("index in range").to_owned()
            } else {
                self.string()?
            };
            let tag = self.tag(depth)?;
            c.push(key, tag);
        }
        Ok(c)
    }
}

/// A chain of `levels` nested containers (counting the root compound).
pub fn deep_chain(levels: usize, lists: bool) -> NbtCompound {
    // Built bottom-up, iteratively.
    let mut inner: Option<NbtTag> = None;
    for _ in 1..levels {
        inner = Some(match (lists, inner.take()) {
            (true, Some(NbtTag::List(l))) => NbtTag::List(NbtList::List(vec![l])),
            (true, Some(other)) => NbtTag::List(NbtList::Compound(vec![NbtCompound::from(other)])),
            (true, None) => NbtTag::List(NbtList::Int(vec![1])),
            (false, Some(t)) => NbtTag::Compound(NbtCompound::from_values(vec![("c".into(), t)])),
            (false, None) => NbtTag::Compound(NbtCompound::new()),
        });
    }
    let mut root = NbtCompound::new();
    if let Some(t) = inner {
        root.insert("d", t);
    }
    root
}

/// Builds one document from the fuzzer's bytes.
pub fn document(u: &mut Unstructured) -> Result<Generated> {
    let mode = u.int_in_range(0u8..=63)?;
    let name = {
        let mut g = Gen { u, nodes: 0 };
        g.string()?
    };
    match mode {
        // End root.
        0 => Ok(Generated {
            nbt: Nbt::None,
            expect_write_error: None,
        }),
        // A chain near the depth limit: up to 512 levels must write and read
        // back; 513 and more must be refused by the writer.
        1 => {
            let levels = u.int_in_range(500usize..=520)?;
            let lists = u.arbitrary()?;
            Ok(Generated {
                nbt: Nbt::Some(BaseNbt::new(name, deep_chain(levels, lists))),
                expect_write_error: (levels > 512).then_some(WriteError::MaxDepthExceeded),
            })
        }
        // A string (value or key) over 65535 encoded bytes must be refused.
        2 => {
            let len = u.int_in_range(65_530usize..=65_540)?;
            let mut root = NbtCompound::new();
            let s = Mutf8String::from_vec(vec![b'x'; len]);
            if u.arbitrary()? {
                root.insert("s", NbtTag::String(s));
            } else {
                root.insert(s, NbtTag::Byte(1));
            }
            Ok(Generated {
                nbt: Nbt::Some(BaseNbt::new(name, root)),
                expect_write_error: (len > 65_535).then_some(WriteError::StringTooLong { len }),
            })
        }
        _ => {
            let mut g = Gen { u, nodes: 0 };
            let root = g.compound(1)?;
            Ok(Generated {
                nbt: Nbt::Some(BaseNbt::new(name, root)),
                expect_write_error: None,
            })
        }
    }
}
