//! Helpers shared by the `serde_*` test files.
#![allow(dead_code)]

use std::io::Cursor;

use simdnbt::owned::{self, BaseNbt, NbtCompound, NbtTag};

/// Writes a document (root name `""`) from owned entries: how the tests
/// craft inputs.
pub fn doc(entries: Vec<(&str, NbtTag)>) -> Vec<u8> {
    let mut out = Vec::new();
    BaseNbt::new("", compound(entries)).write(&mut out).unwrap();
    out
}

/// A compound of owned entries.
pub fn compound(entries: Vec<(&str, NbtTag)>) -> NbtCompound {
    NbtCompound::from_values(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

/// Reads bytes with the owned reader.
pub fn read(bytes: &[u8]) -> BaseNbt {
    owned::read(&mut Cursor::new(bytes)).unwrap().unwrap()
}
