//! Replays the `snbt` target's logic on stable: its grammar seeds, the shared
//! corpus (binary files, and each printed as SNBT, with every 53rd prefix),
//! generated documents from fixed bytes, and edge documents built by hand.

use simdnbt::Mutf8String;
use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt_fuzz_logic::snbt::{self, check_compound, read_any_root, text_round_trip};

fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn grammar_seeds_replay() {
    for (name, bytes) in snbt::text_seeds() {
        eprintln!("{name}");
        simdnbt_fuzz_logic::snbt(&bytes);
        let text = String::from_utf8(bytes).unwrap();
        for (i, _) in text.char_indices().step_by(3) {
            text_round_trip(&text[..i]);
        }
    }
}

#[test]
fn corpus_as_snbt_replays() {
    big_stack(|| {
        for file in corpus::SHARED {
            let bytes = corpus::load(file.name).unwrap();
            simdnbt_fuzz_logic::snbt(bytes);
            let tag = read_any_root(bytes).unwrap();
            if let NbtTag::Compound(c) = &tag {
                check_compound(c);
            }
            let text = simdnbt::snbt::to_string(&tag).unwrap();
            text_round_trip(&text);
            for (i, _) in text.char_indices().step_by(53) {
                text_round_trip(&text[..i]);
            }
        }
    });
}

#[test]
fn generated_documents_replay() {
    big_stack(|| {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for i in 0..300usize {
            let mut data = vec![0xF0, (i * 7) as u8];
            for _ in 0..(16 + 4 * (i % 64)) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                data.push(x as u8);
            }
            simdnbt_fuzz_logic::snbt(&data);
        }
    });
}

#[test]
fn edge_documents() {
    let w = |t: NbtTag| NbtCompound::from_values(vec![(Mutf8String::new(), t)]);
    let docs = [
        // Empty typed lists read back as End lists.
        vec![("l", NbtTag::List(NbtList::Int(vec![])))],
        // Wrapper lists, plain and literal.
        vec![(
            "h",
            NbtTag::List(NbtList::Compound(vec![
                w(NbtTag::Byte(1)),
                w(NbtTag::Int(1)),
            ])),
        )],
        vec![(
            "h",
            NbtTag::List(NbtList::Compound(vec![
                w(NbtTag::Byte(1)),
                w(NbtTag::Byte(2)),
            ])),
        )],
        vec![(
            "h",
            NbtTag::List(NbtList::Compound(vec![
                w(NbtTag::Compound(NbtCompound::new())),
                w(NbtTag::Int(1)),
            ])),
        )],
        // Repeated keys, also the empty one.
        vec![
            ("a", NbtTag::Int(1)),
            ("a", NbtTag::Int(2)),
            ("", NbtTag::Int(3)),
            ("", NbtTag::Int(4)),
        ],
        // Strings Java holds but UTF-8 does not, and one it does not hold.
        vec![(
            "s",
            NbtTag::String(Mutf8String::from_vec(vec![0xED, 0xA0, 0x80])),
        )],
        vec![(
            "s",
            NbtTag::String(Mutf8String::from_vec(vec![0xF0, 0x9F, 0x98, 0x80])),
        )],
        vec![("s", NbtTag::String(Mutf8String::from_vec(vec![0xFF])))],
        vec![("f", NbtTag::Float(f32::NAN)), ("d", NbtTag::Double(-0.0))],
    ];
    for doc in docs {
        let c = NbtCompound::from_values(doc.into_iter().map(|(k, v)| (k.into(), v)).collect());
        check_compound(&c);
    }
}
