//! `simdnbt::path::locate_error`: the reader's own error, and the path of the
//! value it happened in.

use std::io::Cursor;

use simdnbt::path::{NbtPath, locate_error};
use simdnbt::{borrow, owned};

fn reader_error(bytes: &[u8]) -> Option<simdnbt::Error> {
    borrow::read(&mut Cursor::new(bytes)).err()
}

#[test]
fn every_hostile_case_gives_the_readers_error() {
    for case in testkit::hostile::cases() {
        let located = locate_error(&case.bytes).map(|(e, _)| e);
        assert_eq!(located, reader_error(&case.bytes), "{}", case.name);
        if let Some(e) = located {
            assert_eq!(e.offset(), reader_error(&case.bytes).unwrap().offset());
        }
    }
}

/// Cutting a document short leaves everything before the cut as it was, so the
/// path of the failure must lead somewhere in the whole document.
#[test]
fn a_cut_document_fails_at_a_path_of_the_whole_one() {
    let mut checked = 0;
    for name in [
        "complex_player.dat",
        "level.dat",
        "bigtest.nbt",
        "hypixel.nbt",
    ] {
        let whole = corpus::load(name).unwrap();
        let doc = owned::read(&mut Cursor::new(whole)).unwrap().unwrap();
        let step = (whole.len() / 300).max(1);
        for cut in (1..whole.len()).step_by(step) {
            let bytes = &whole[..cut];
            let (error, path) = locate_error(bytes).expect("a cut document fails");
            let expected = reader_error(bytes).unwrap();
            assert_eq!(
                (error.kind(), error.offset()),
                (expected.kind(), expected.offset())
            );
            if !path.is_empty() {
                assert!(
                    path.get(&doc).is_some(),
                    "{name} cut at {cut}: {path} is not in the document"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn names_the_container_of_a_broken_value() {
    let whole = corpus::load("complex_player.dat").unwrap();
    let doc = owned::read(&mut Cursor::new(whole)).unwrap().unwrap();
    // Cut inside the first inventory item's display name (a string value).
    let name = doc
        .list("Inventory")
        .and_then(|l| l.compounds())
        .and_then(|items| items[0].compound("tag"))
        .and_then(|tag| tag.compound("display"))
        .and_then(|d| d.string("Name"))
        .expect("complex_player.dat has a named first item")
        .to_str()
        .into_owned();
    // (The same name is on SelectedItem, earlier in the file: look after "Inventory".)
    let items = whole.windows(9).position(|w| w == b"Inventory").unwrap();
    let at = items
        + whole[items..]
            .windows(name.len())
            .position(|w| w == name.as_bytes())
            .unwrap();
    let (_, path) = locate_error(&whole[..at + 1]).unwrap();
    assert_eq!(
        path,
        NbtPath::parse("Inventory[0].tag.display.Name").unwrap()
    );
    // Inside a list header: the list itself.
    let (_, path) = locate_error(&whole[..items + 11]).unwrap();
    assert_eq!(path.to_string(), "Inventory");
    // A valid document, and End, have nothing to locate.
    assert!(locate_error(whole).is_none());
    assert!(locate_error(&[0]).is_none());
}
