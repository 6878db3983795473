//! `Some(None)` (an option inside an option) is no value, as `None` is: every
//! API that takes a `ToNbtTag` leaves the tree as it was (it used to panic in
//! `Option::to_nbt_tag`).

use simdnbt::document::Document;
use simdnbt::owned::{BaseNbt, NbtCompound, NbtList, NbtTag};

fn nested_none() -> Option<Option<i32>> {
    Some(None)
}

#[test]
fn owned_insert_and_push_of_some_none_change_nothing() {
    let mut c = NbtCompound::new();
    c.insert("a", 1);
    c.insert("x", nested_none());
    c.insert("a", nested_none()); // no replacement either
    c.push("y", nested_none());
    c.push("z", Some(Some(None::<String>)));
    c.extend([("w", nested_none())]);
    assert_eq!(c.len(), 1);
    assert_eq!(c.int("a"), Some(1));
    // A nested Some still writes its value.
    c.insert("b", Some(Some(2)));
    assert_eq!(c.int("b"), Some(2));
}

fn bytes(doc: &Document) -> Vec<u8> {
    let mut out = Vec::new();
    doc.write(&mut out);
    out
}

fn doc_with_list() -> Document {
    let mut c = NbtCompound::new();
    c.insert("a", 1);
    c.insert("l", NbtTag::List(NbtList::Int(vec![1])));
    Document::from_owned(&BaseNbt::new("", c)).unwrap()
}

#[test]
fn document_insert_and_push_of_some_none_change_nothing() {
    let mut doc = doc_with_list();
    let before = bytes(&doc);
    let mut root = doc.as_compound_mut().unwrap();
    root.insert("x", nested_none()).unwrap();
    root.insert("a", nested_none()).unwrap();
    root.push("y", nested_none()).unwrap();
    assert_eq!(bytes(&doc), before);
}

#[test]
fn document_list_push_of_some_none_changes_nothing() {
    let mut doc = doc_with_list();
    let before = bytes(&doc);
    let mut root = doc.as_compound_mut().unwrap();
    let mut l = root.list_mut("l").unwrap();
    l.push(nested_none()).unwrap();
    l.insert(0, nested_none()).unwrap();
    assert_eq!(l.len(), 1);
    assert_eq!(bytes(&doc), before);
}
