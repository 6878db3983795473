//! `json_roundtrip`: NBT → typed JSON → NBT is exact, and any bytes given to
//! the typed JSON reader give `Ok` or `Err`, never a panic.
//!
//! The input is read three ways: as binary NBT (a document that reads goes
//! through typed JSON and must come back as the same bytes, or be refused
//! as deeper than `json::MAX_DEPTH`); as typed JSON text (what reads writes
//! and reads back as itself); and, when its first byte is
//! [`STRUCTURED_SELECTOR`] or more, through the document generator (every
//! type, odd floats and strings, deep chains), whose documents go through
//! typed JSON.
//!
//! A text that reads as typed JSON has typed JSON's shape
//! (`json::has_typed_shape`, which the `nbt` tool uses to refuse broken
//! typed JSON instead of reading it as plain JSON), and a text that is
//! valid JSON but not valid typed JSON gets an error whose JSON pointer
//! names a value of that text.

use std::io::Cursor;

use simdnbt::json;
use simdnbt::owned::{self, BaseNbt};

use crate::generate;
use crate::roundtrip::STRUCTURED_SELECTOR;

/// The `json_roundtrip` target.
pub fn json_roundtrip(data: &[u8]) {
    if let Ok(owned::Nbt::Some(nbt)) = owned::read(&mut Cursor::new(data)) {
        through_json(&nbt);
    }
    match json::from_slice(data) {
        Ok(nbt) => {
            assert!(
                json::has_typed_shape(data),
                "typed JSON that reads is not seen as typed"
            );
            through_json(&nbt);
        }
        Err(e) => {
            if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
                assert!(
                    value.pointer(e.pointer()).is_some(),
                    "the error's pointer {:?} names no value: {e}",
                    e.pointer()
                );
            }
        }
    }
    if data.first().is_some_and(|&b| b >= STRUCTURED_SELECTOR) {
        let mut u = arbitrary::Unstructured::new(&data[1..]);
        if let Ok(doc) = generate::document(&mut u) {
            if let (owned::Nbt::Some(nbt), None) = (&doc.nbt, doc.expect_write_error) {
                through_json(nbt);
            }
        }
    }
}

fn write(nbt: &BaseNbt) -> Vec<u8> {
    let mut out = Vec::new();
    nbt.write(&mut out)
        .expect("a document that read (or was built valid) writes");
    out
}

/// `nbt` → typed JSON (compact and pretty) → the same bytes; a refusal only
/// for nesting past the limit.
pub fn through_json(nbt: &BaseNbt) {
    let text = match json::to_string(nbt) {
        Ok(text) => text,
        Err(e) => {
            assert!(
                e.to_string().contains("nested deeper than"),
                "typed JSON refused a document: {e}"
            );
            return;
        }
    };
    assert!(json::has_typed_shape(text.as_bytes()), "{text}");
    let back = json::from_str(&text)
        .unwrap_or_else(|e| panic!("typed JSON does not read its own output: {e}\n{text}"));
    assert!(
        write(&back) == write(nbt),
        "NBT → typed JSON → NBT changed the bytes: {text}"
    );
    let mut pretty = Vec::new();
    json::to_writer_pretty(&mut pretty, nbt).expect("wrote compact, writes pretty");
    let back = json::from_slice(&pretty).expect("typed JSON reads its pretty output");
    assert!(
        write(&back) == write(nbt),
        "the pretty form changed the bytes"
    );
}

/// Seeds: typed JSON texts (one per type and odd value) and broken ones.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let texts = [
        r#"{"name":"","compound":[]}"#,
        r#"{"name":[255],"compound":[{"name":"b","byte":-1},{"name":"s","short":2},{"name":"i","int":3},{"name":"l","long":-9223372036854775808}]}"#,
        r#"{"name":"","compound":[{"name":"f","float":"0x7fc01234"},{"name":"d","double":"0x8000000000000000"},{"name":"g","float":0.1},{"name":"h","double":1e300}]}"#,
        r#"{"name":"","compound":[{"name":"a","list":["end"]},{"name":"b","list":["int",1,2]},{"name":"c","list":["compound",[],[{"name":"x","string":[192,128]}]]},{"name":"d","list":["list",["end"],["float",1.5]]}]}"#,
        r#"{"name":"","compound":[{"name":"x","byte_array":[-128,127]},{"name":"y","int_array":[1]},{"name":"z","long_array":[]},{"name":"x","string":"dup"}]}"#,
        r#"{"compound":[{"int":1,"name":"reordered"}],"name":"n"}"#,
        r#"{"name":"","compound":[{"name":"a","name":"b","int":1}]}"#,
        r#"{"name":"","compound":[{"name":"a","list":["string","s",[237,160,128]]}]}"#,
        r#"{"name":"","compound":[{"name":"a","byte":300},{"name":"b","bite":1}]}"#,
        r#"{"name":"","compound":[{"name":"a","list":["int",1,"x"]},{"name":"f","float":1e39}]}"#,
    ];
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("json-{i:02}"), t.as_bytes().to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_hostile_inputs_pass() {
        for (_, seed) in seeds() {
            json_roundtrip(&seed);
        }
        let deep = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
        let lists = r#"{"name":"","compound":[{"name":"l","list":"#.to_owned()
            + &r#"["list","#.repeat(5000);
        json_roundtrip(deep.as_bytes());
        json_roundtrip(lists.as_bytes());
        json_roundtrip(b"\xff\xfe{");
        let chain = generate::deep_chain(200, true);
        through_json(&BaseNbt::new("", chain));
    }
}
