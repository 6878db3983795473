//! Replays the `serde_roundtrip` target on stable: its committed regressions
//! (`fuzz/regressions/serde_roundtrip/`, through `tests/replay.rs` with every
//! target), the corpus files, their truncations and single-byte mutations,
//! and many structured-mode inputs.

use simdnbt_fuzz_logic::serde_roundtrip::{self, STRUCTURED_SELECTOR, Typed, serde_roundtrip};

fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn corpus_and_mutations() {
    big_stack(|| {
        for file in corpus::SHARED {
            let bytes = corpus::load(file.name).unwrap();
            serde_roundtrip(bytes);
            for cut in (0..bytes.len()).step_by(131) {
                serde_roundtrip(&bytes[..cut]);
            }
            let mut m = bytes.to_vec();
            for i in (0..m.len()).step_by(53) {
                let old = m[i];
                m[i] ^= 0x5a;
                serde_roundtrip(&m);
                m[i] = old;
            }
        }
    });
}

#[test]
fn structured_inputs() {
    big_stack(|| {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut written = 0;
        for i in 0..400u32 {
            let mut s = vec![STRUCTURED_SELECTOR];
            for _ in 0..(i * 11 % 1500) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(x as u8);
            }
            serde_roundtrip(&s);
            written += 1;
        }
        assert_eq!(written, 400);
    });
}

#[test]
fn a_typed_document_is_read_from_handmade_bytes() {
    // {"int": 7, "items": [{"id": "a", "Count": 1}], "type": "Pig", "saddle": 1b}
    let mut c = simdnbt::owned::NbtCompound::new();
    c.insert("int", simdnbt::owned::NbtTag::Int(7));
    let mut item = simdnbt::owned::NbtCompound::new();
    item.insert("id", simdnbt::owned::NbtTag::String("a".into()));
    item.insert("Count", simdnbt::owned::NbtTag::Byte(1));
    c.insert(
        "items",
        simdnbt::owned::NbtTag::List(simdnbt::owned::NbtList::Compound(vec![item])),
    );
    c.insert("type", simdnbt::owned::NbtTag::String("Pig".into()));
    c.insert("saddle", simdnbt::owned::NbtTag::Byte(1));
    let mut bytes = Vec::new();
    simdnbt::owned::BaseNbt::new("", c)
        .write(&mut bytes)
        .unwrap();
    let t: Typed = simdnbt::serde::from_slice(&bytes).unwrap();
    let again = simdnbt::serde::to_vec(&t).unwrap();
    let back: Typed = simdnbt::serde::from_slice(&again).unwrap();
    assert_eq!(back, t);
    serde_roundtrip::raw_typed(&bytes);
    assert!(format!("{t:?}").contains("Pig"));
}
