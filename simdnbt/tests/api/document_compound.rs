//! A document's compounds as maps: lookups, `insert` and `remove` O(1)
//! amortised on big compounds (a hash index from 128 children), against a
//! plain `Vec` model of the documented rules (order kept, the last entry of a
//! repeated key is the one that counts, `remove` removes every entry of its
//! key), while edits move blocks and compact the document.

use std::io::Cursor;
use std::time::{Duration, Instant};

use simdnbt::document::{Document, NbtCompound};

fn empty() -> Document {
    Document::from_vec(vec![0x0a, 0, 0, 0]).unwrap().unwrap()
}

/// A million keys inserted into a nested compound, looked up through `&`
/// and through handles, replaced, some removed: with a scan per lookup this
/// is about 10^12 name comparisons (hours); with the index, 13 CPU seconds
/// in a debug build. The bound is wall time on a loaded machine.
#[test]
fn a_million_key_document_compound_is_built_and_queried_in_bounded_time() {
    const N: usize = 1_000_000;
    let start = Instant::now();
    let key = |i: usize| format!("k{i}");
    let mut doc = empty();
    {
        let mut root = doc.as_compound_mut().unwrap();
        root.insert("before", 1).unwrap();
        root.insert("big", simdnbt::owned::NbtCompound::new())
            .unwrap();
        root.insert("after", 2).unwrap();
        let mut big = root.compound_mut("big").unwrap();
        for i in 0..N {
            big.insert(&key(i), i as i32).unwrap();
        }
        assert_eq!(big.len(), N);
        // Looked up by the handles' own lookup, replaced in place.
        for i in (0..N).step_by(3) {
            big.insert(&key(i), -1).unwrap();
        }
        assert_eq!(big.len(), N);
        // A value of another type: written again, its node replaced.
        big.insert("k4", "four").unwrap();
        // Removing from the end.
        for i in (N - 100..N).rev() {
            assert!(big.remove(&key(i)));
        }
        assert!(!big.remove("missing"));
    }
    let big = doc.compound("big").unwrap();
    assert_eq!(big.len(), N - 100);
    for i in 0..N - 100 {
        let want = match i {
            4 => None,
            _ if i % 3 == 0 => Some(-1),
            _ => Some(i as i32),
        };
        assert_eq!(big.int(&key(i)), want, "{i}");
    }
    assert_eq!(
        big.string("k4").map(|s| s.to_str().into_owned()),
        Some("four".into())
    );
    assert!(!big.contains("k999999"));
    assert_eq!(
        big.keys().nth(5).map(|k| k.to_str().into_owned()),
        Some("k5".into())
    );
    // A copy (no index yet) and its lookups; the written form reads back.
    let copy = doc.clone();
    for i in (1..N - 100).step_by(1000) {
        assert_eq!(copy.compound("big").unwrap().int(&key(i)).is_some(), i != 4);
    }
    let out = doc.to_bytes();
    let back = simdnbt::borrow::read(&mut Cursor::new(&out[..]))
        .unwrap()
        .unwrap();
    assert_eq!(back.compound("big").unwrap().int("k7"), Some(7));
    assert_eq!(back.int("after"), Some(2));
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(300),
        "a million-key document compound took {took:?}"
    );
}

/// A small deterministic PRNG (xorshift64*), so the model test needs no
/// dependency and every run checks the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The model: entries in order, keys as names.
#[derive(Default, Clone)]
struct Model(Vec<(String, i32)>);

impl Model {
    fn get(&self, k: &str) -> Option<i32> {
        self.0.iter().rev().find(|(x, _)| x == k).map(|e| e.1)
    }
    fn insert(&mut self, k: &str, v: i32) {
        match self.0.iter().rposition(|(x, _)| x == k) {
            Some(i) => self.0[i].1 = v,
            None => self.0.push((k.to_owned(), v)),
        }
    }
    fn remove(&mut self, k: &str) -> Option<i32> {
        let last = self.get(k);
        self.0.retain(|(x, _)| x != k);
        last
    }
}

/// A key from a pool big enough for compounds past the index threshold;
/// some hold U+0000.
fn key(rng: &mut Rng, pool: usize) -> String {
    let i = rng.below(pool);
    if i % 17 == 0 {
        format!("nul\0{i}")
    } else {
        format!("key{i}")
    }
}

fn check(c: NbtCompound<'_>, m: &Model, pool: usize, step: usize) {
    assert_eq!(c.len(), m.0.len(), "step {step}");
    for (i, ((k, v), (mk, mv))) in c.iter().zip(&m.0).enumerate() {
        assert_eq!(&k.to_str(), mk, "step {step}, entry {i}");
        assert_eq!(v.int(), Some(*mv), "step {step}, entry {i}");
    }
    for i in 0..pool {
        for k in [format!("key{i}"), format!("nul\0{i}")] {
            assert_eq!(c.int(&k), m.get(&k), "step {step}, get {k:?}");
        }
    }
}

/// Random operations on two sibling compounds of a document and on their
/// models, compared after each: sizes cross the index threshold both ways,
/// keys repeat (`push`), blocks move as the siblings grow in turn, the
/// document compacts itself, and lookups go through `&` and through handles.
#[test]
fn document_insert_get_remove_agree_with_a_vec_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..8 {
        let pool = [40, 300, 1200, 8][round % 4];
        let mut doc = empty();
        {
            let mut root = doc.as_compound_mut().unwrap();
            for name in ["a", "b"] {
                root.insert(name, simdnbt::owned::NbtCompound::new())
                    .unwrap();
            }
        }
        let mut models = [Model::default(), Model::default()];
        for step in 0..3000 {
            let which = rng.below(2);
            let name = ["a", "b"][which];
            let m = &mut models[which];
            let k = key(&mut rng, pool);
            let v = rng.next() as i32;
            let mut root = doc.as_compound_mut().unwrap();
            let mut c = root.compound_mut(name).unwrap();
            match rng.below(1000) {
                0..=449 => {
                    c.insert(&k, v).unwrap();
                    m.insert(&k, v);
                }
                450..=549 => {
                    c.push(&k, v).unwrap();
                    m.0.push((k.clone(), v));
                }
                550..=749 => {
                    assert_eq!(c.remove(&k), m.remove(&k).is_some(), "step {step}");
                }
                750..=849 => {
                    // Through a handle's lookup: a value of another type
                    // (written again), then back to an int.
                    if m.get(&k).is_some() {
                        c.insert(&k, "s").unwrap();
                        c.insert(&k, v).unwrap();
                        m.insert(&k, v);
                    }
                }
                850..=852 => {
                    c.clear();
                    m.0.clear();
                }
                853..=855 => doc = doc.clone(),
                856..=858 => doc.compact(),
                _ => {
                    let taken = c.take(&k).and_then(|t| t.int());
                    assert_eq!(taken, m.remove(&k), "step {step}");
                }
            }
            let c = doc.compound(name).unwrap();
            if step % 50 == 0 {
                check(c, &models[which], pool, step);
            } else {
                assert_eq!(c.int(&k), models[which].get(&k), "step {step}, {k:?}");
            }
        }
        for (name, m) in ["a", "b"].into_iter().zip(&models) {
            check(doc.compound(name).unwrap(), m, pool, usize::MAX);
            // The written form has the same entries.
            let out = doc.to_bytes();
            let back = Document::from_vec(out).unwrap().unwrap();
            check(back.compound(name).unwrap(), m, pool, usize::MAX);
        }
    }
}

/// Each edit of an indexed compound keeps its index right: removes from the
/// middle and the end, a repeated key, appends that move the block, `clear`.
#[test]
fn edits_of_an_indexed_compound_keep_lookups_right() {
    const N: usize = 600;
    let mut doc = empty();
    let mut m = Model::default();
    let all = |doc: &Document, m: &Model| {
        let c = doc.compound("c").unwrap();
        for i in 0..N + 10 {
            let k = format!("k{i}");
            assert_eq!(c.int(&k), m.get(&k), "{k}");
        }
    };
    let mut root = doc.as_compound_mut().unwrap();
    root.insert("c", simdnbt::owned::NbtCompound::new())
        .unwrap();
    root.insert("d", simdnbt::owned::NbtCompound::new())
        .unwrap();
    for i in 0..N {
        root.compound_mut("c")
            .unwrap()
            .push(&format!("k{i}"), i as i32)
            .unwrap();
        m.0.push((format!("k{i}"), i as i32));
        // The sibling grows too, so the blocks move past each other.
        root.compound_mut("d").unwrap().push("x", 0).unwrap();
    }
    // Enough lookups to build the index, from `&`.
    for _ in 0..60 {
        all(&doc, &m);
    }
    let edit = |doc: &mut Document,
                m: &mut Model,
                f: &dyn Fn(&mut simdnbt::document::NbtCompoundMut<'_>, &mut Model)| {
        let mut root = doc.as_compound_mut().unwrap();
        f(&mut root.compound_mut("c").unwrap(), m);
        all(doc, m);
    };
    edit(&mut doc, &mut m, &|c, m| {
        assert!(c.remove("k300"));
        m.remove("k300");
    });
    edit(&mut doc, &mut m, &|c, m| {
        assert!(c.remove(&format!("k{}", N - 1)));
        m.remove(&format!("k{}", N - 1));
    });
    edit(&mut doc, &mut m, &|c, m| {
        assert!(c.remove("k0"));
        m.remove("k0");
    });
    for i in 0..N {
        edit(&mut doc, &mut m, &|c, m| {
            // New keys and old ones, some repeated on purpose.
            let k = format!("k{}", (i * 7) % (N + 10));
            if i % 5 == 0 {
                c.push(&k, -(i as i32)).unwrap();
                m.0.push((k, -(i as i32)));
            } else {
                c.insert(&k, i as i32).unwrap();
                m.insert(&k, i as i32);
            }
        });
        if i % 50 == 0 {
            let mut root = doc.as_compound_mut().unwrap();
            root.compound_mut("d").unwrap().push("x", 0).unwrap();
        }
        if i % 97 == 0 {
            edit(&mut doc, &mut m, &|c, m| {
                let k = format!("k{}", i % N);
                assert_eq!(c.remove(&k), m.remove(&k).is_some());
            });
        }
    }
    check(doc.compound("c").unwrap(), &m, N + 10, 0);
    edit(&mut doc, &mut m, &|c, m| {
        c.clear();
        m.0.clear();
    });
    for i in 0..N {
        edit(&mut doc, &mut m, &|c, m| {
            c.insert(&format!("k{i}"), 1).unwrap();
            m.insert(&format!("k{i}"), 1);
        });
    }
}

/// The index is built by a shared (`&self`) lookup; threads that look up at
/// once agree.
#[test]
fn document_lookups_from_many_threads_at_once_agree() {
    let mut doc = empty();
    {
        let mut root = doc.as_compound_mut().unwrap();
        for i in 0..1000 {
            root.push(&format!("k{i}"), i).unwrap();
        }
    }
    let doc = &doc;
    std::thread::scope(|s| {
        for t in 0..4 {
            s.spawn(move || {
                for _ in 0..3 {
                    for i in (t..1000).step_by(7) {
                        assert_eq!(doc.int(&format!("k{i}")), Some(i));
                    }
                }
            });
        }
    });
}
