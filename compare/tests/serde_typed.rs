//! The typed structs of the `serde` bench: every peer reads the corpus file
//! into the same value, simdnbt writes the file's exact bytes back, and what
//! every peer writes reads back (with simdnbt) as the same value. So the bench
//! compares like with like.
//!
//! na_nbt 0.2.1 is not among them: its serde mapping reads and writes a `Vec`
//! as a list of `{"": v}` compounds and an `Option` as a compound wrapper, so
//! it cannot read vanilla files into plain structs (the test below proves it).

use compare::typed::{Level, Player};
use serde::{Serialize, de::DeserializeOwned};

fn check<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(file: &str) {
    let bytes = compare::inputs::load(file).unwrap();
    let ours: T = simdnbt::serde::from_slice(bytes).unwrap();
    assert!(
        simdnbt::serde::to_vec(&ours).unwrap() == bytes,
        "{file}: simdnbt wrote other bytes"
    );

    let fast: T = fastnbt::from_bytes(bytes).unwrap();
    let quartz: T = quartz_nbt::serde::deserialize(bytes, quartz_nbt::io::Flavor::Uncompressed)
        .unwrap()
        .0;
    let hem: T = nbt::from_reader(&mut &bytes[..]).unwrap();
    for (peer, v) in [("fastnbt", &fast), ("quartz", &quartz), ("hematite", &hem)] {
        assert_eq!(v, &ours, "{file}: {peer} read another value");
    }

    let mut hem_out = Vec::new();
    nbt::to_writer(&mut hem_out, &ours, None).unwrap();
    let written = [
        ("fastnbt", fastnbt::to_bytes(&ours).unwrap()),
        (
            "quartz",
            quartz_nbt::serde::serialize(&ours, None, quartz_nbt::io::Flavor::Uncompressed)
                .unwrap(),
        ),
        ("hematite", hem_out),
    ];
    for (peer, out) in written {
        let back: T =
            simdnbt::serde::from_slice(&out).unwrap_or_else(|e| panic!("{file}: {peer}: {e}"));
        assert_eq!(back, ours, "{file}: {peer} wrote another value");
    }
}

#[test]
fn complex_player_typed_everywhere() {
    check::<Player>("complex_player.dat");
}

#[test]
fn level_typed_everywhere() {
    check::<Level>("level.dat");
}

#[test]
fn na_nbt_cannot_read_vanilla_files_into_plain_structs() {
    let bytes = compare::inputs::load("complex_player.dat").unwrap();
    let e = na_nbt::from_slice_be::<Player>(bytes).unwrap_err();
    assert!(e.to_string().contains("wrapped item"), "{e}");
}
