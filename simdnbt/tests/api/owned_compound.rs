//! `owned::NbtCompound` as a map: lookups, `insert` and `remove` O(1) on big
//! compounds (a hash index from 64 entries), against a plain `Vec` model of
//! the documented rules (order kept, the last entry of a repeated key is the
//! one that counts, `remove` removes every entry of its key).

use std::time::{Duration, Instant};

use simdnbt::Mutf8String;
use simdnbt::owned::{NbtCompound, NbtTag};

/// A million keys inserted, looked up, replaced and some removed: with a
/// scan per lookup this is about 10^12 key comparisons (80 000 inserts took
/// 21.7 s in a release build); with the index, a few seconds in a debug
/// build.
#[test]
fn a_million_key_compound_is_built_and_queried_in_bounded_time() {
    const N: usize = 1_000_000;
    let start = Instant::now();
    let key = |i: usize| format!("k{i}");
    let mut c = NbtCompound::new();
    for i in 0..N {
        c.insert(key(i), i as i32);
    }
    assert_eq!(c.len(), N);
    for i in 0..N {
        assert_eq!(c.int(&key(i)), Some(i as i32));
    }
    assert!(!c.contains("missing"));
    // Replacing keeps the length and the order.
    for i in (0..N).step_by(3) {
        c.insert(key(i), -1);
    }
    assert_eq!(c.len(), N);
    assert_eq!(c.iter().nth(3).map(|(k, _)| k.to_str()), Some("k3".into()));
    assert_eq!(c.int("k3"), Some(-1));
    // Removing from the end is O(1) each.
    for i in (N - 1000..N).rev() {
        assert!(c.remove(&key(i)).is_some());
    }
    // From the middle: the rest moves down, the index follows.
    assert_eq!(c.remove("k500000").and_then(|t| t.int()), Some(500_000));
    assert_eq!(c.int("k500002"), Some(500_002));
    assert_eq!(c.int("k499998"), Some(-1));
    assert_eq!(
        c.iter().nth(500_000).map(|(k, _)| k.to_str()),
        Some("k500001".into())
    );
    assert_eq!(c.len(), N - 1001);
    // A clone (no index yet) and its first lookup.
    let d = c.clone();
    assert_eq!(d.int("k2"), Some(2));
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(60),
        "a million-key compound took {took:?}"
    );
}

/// Removing most of a million keys: one by one from the front, each
/// `remove` moves the rest (about 2.5 * 10^11 entry moves, hours); `retain`
/// is one pass, and lookups afterwards go through a new index.
#[test]
fn retain_removes_many_keys_in_one_pass() {
    const N: usize = 1_000_000;
    let start = Instant::now();
    let mut c: NbtCompound = (0..N)
        .map(|i| (format!("k{i}"), NbtTag::Int(i as i32)))
        .collect();
    assert_eq!(c.int("k10"), Some(10));
    c.retain(|k, v| {
        if k.to_str() == "k7" {
            *v = NbtTag::Int(-7);
        }
        v.int().is_some_and(|i| i % 1000 == 7 || i == -7)
    });
    assert_eq!(c.len(), N / 1000);
    assert_eq!(c.int("k7"), Some(-7));
    assert_eq!(c.int("k10"), None);
    for i in (0..N).step_by(1000) {
        let want = if i == 0 { -7 } else { i as i32 + 7 };
        assert_eq!(c.int(&format!("k{}", i + 7)), Some(want));
    }
    let order: Vec<_> = c.keys().take(3).map(|k| k.to_str().into_owned()).collect();
    assert_eq!(order, ["k7", "k1007", "k2007"]);
    // And everything, from a compound that had an index.
    c.retain(|_, _| false);
    assert!(c.is_empty() && !c.contains("k7"));
    c.insert("k7", 1);
    assert_eq!(c.int("k7"), Some(1));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(120), "retain took {took:?}");
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
#[derive(Default)]
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
/// some hold U+0000 (stored as `C0 80`, or as a raw `00` byte when built
/// from raw bytes, which lookups by name also find).
fn key(rng: &mut Rng, pool: usize) -> String {
    let i = rng.below(pool);
    if i % 17 == 0 {
        format!("nul\0{i}")
    } else {
        format!("key{i}")
    }
}

/// The key as stored: the MUTF-8 encoding of `k`, or for a key with U+0000,
/// sometimes the raw `00` byte that crafted input holds (appended with
/// `push`, as a reader would: `insert` of such a key compares it as stored).
fn stored(rng: &mut Rng, k: &str) -> Mutf8String {
    if k.contains('\0') && rng.below(2) == 0 {
        Mutf8String::from_vec(k.as_bytes().to_vec())
    } else {
        Mutf8String::from_string(k.to_owned())
    }
}

fn check(c: &NbtCompound, m: &Model, pool: usize, step: usize) {
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

/// Random operations on a compound and on the model, compared after each:
/// sizes cross the index threshold both ways, keys repeat (`push`,
/// `from_values`), keys are renamed (`keys_mut`) and values changed in place.
#[test]
fn insert_get_remove_agree_with_a_vec_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..12 {
        let pool = [8, 40, 200, 600][round % 4];
        let mut c = NbtCompound::new();
        let mut m = Model::default();
        for step in 0..1500 {
            let k = key(&mut rng, pool);
            let v = rng.next() as i32;
            match rng.below(100) {
                0..=39 => {
                    c.insert(k.as_str(), v);
                    m.insert(&k, v);
                }
                40..=49 => {
                    c.push(stored(&mut rng, &k), v);
                    m.0.push((k.clone(), v));
                }
                50..=69 => {
                    assert_eq!(
                        c.remove(&k).and_then(|t| t.int()),
                        m.remove(&k),
                        "step {step}"
                    );
                }
                70..=79 => {
                    assert_eq!(c.int(&k), m.get(&k));
                    if let Some(x) = c.int_mut(&k) {
                        *x = v;
                        let i = m.0.iter().rposition(|(x, _)| *x == k).unwrap();
                        m.0[i].1 = v;
                    }
                }
                80..=84 => {
                    let more: Vec<(String, i32)> = (0..rng.below(40))
                        .map(|_| (key(&mut rng, pool), rng.next() as i32))
                        .collect();
                    // A key new to the compound is appended (again if it
                    // repeats within `more`); an old one is replaced.
                    let before = m.0.len();
                    for (k, v) in &more {
                        match m.0[..before].iter().rposition(|(x, _)| x == k) {
                            Some(i) => m.0[i].1 = *v,
                            None => m.0.push((k.clone(), *v)),
                        }
                    }
                    c.extend(more);
                }
                85..=87 => {
                    // Rename the entries of one key.
                    let to = key(&mut rng, pool);
                    for (stored_key, _) in c.keys_mut().zip(&mut m.0) {
                        if stored_key.to_str() == k {
                            *stored_key = Mutf8String::from_string(to.clone());
                        }
                    }
                    for (mk, _) in m.0.iter_mut().filter(|(x, _)| *x == k) {
                        mk.clone_from(&to);
                    }
                }
                88..=89 => {
                    for (t, (_, mv)) in c.values_mut().zip(&mut m.0) {
                        *t = NbtTag::Int(mv.wrapping_add(1));
                        *mv = mv.wrapping_add(1);
                    }
                }
                90 => {
                    c.clear();
                    m.0.clear();
                }
                91..=92 => {
                    // Rebuilt from its entries (no lookups: repeats kept).
                    c = NbtCompound::from_values(c.into_iter().collect());
                }
                93 => c = c.clone(),
                _ => {
                    let taken = c.take(&k).and_then(|t| t.int());
                    assert_eq!(taken, m.remove(&k), "step {step}");
                }
            }
            if step % 25 == 0 || c.len() < 40 {
                check(&c, &m, pool, step);
            } else {
                assert_eq!(c.int(&k), m.get(&k), "step {step}, {k:?}");
            }
        }
        check(&c, &m, pool, usize::MAX);
    }
}

/// The index is built by a shared (`&self`) lookup; threads that look up at
/// once agree.
#[test]
fn lookups_from_many_threads_at_once_agree() {
    let c: NbtCompound = (0..1000)
        .map(|i| (format!("k{i}"), NbtTag::Int(i)))
        .collect();
    std::thread::scope(|s| {
        for t in 0..4 {
            let c = &c;
            s.spawn(move || {
                for i in (t..1000).step_by(7) {
                    assert_eq!(c.int(&format!("k{i}")), Some(i));
                }
            });
        }
    });
}

#[test]
fn a_compound_is_as_big_as_a_vec() {
    // 24 bytes before the index and after: its pointer is in the space the
    // entries' length and capacity no longer take (32 bits each).
    assert_eq!(std::mem::size_of::<NbtCompound>(), 24);
    assert_eq!(std::mem::size_of::<NbtTag>(), 32);
}
