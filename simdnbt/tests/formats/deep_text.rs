//! The text readers at their deepest accepted input on a 256 KiB thread:
//! typed JSON ([`json::MAX_DEPTH`] compounds) reads, one level more is an
//! error; neither overflows the stack. (SNBT's 512 levels run on a 128 KiB
//! thread in `snbt.rs`.)
#![cfg(feature = "json")]

use simdnbt::json;

use crate::support::on_small_stack;

/// Typed JSON of the root compound and `steps - 1` nested levels below it:
/// each a compound, or if `list` a list holding a compound (two levels).
fn nested_json(steps: usize, list: bool) -> String {
    let mut inner = "[]".to_owned();
    for _ in 1..steps {
        inner = if list {
            format!(r#"[{{"name":"a","list":["compound",{inner}]}}]"#)
        } else {
            format!(r#"[{{"name":"a","compound":{inner}}}]"#)
        };
    }
    format!(r#"{{"name":"","compound":{inner}}}"#)
}

#[test]
fn typed_json_at_its_depth_limit_reads_on_a_256_kib_thread() {
    for list in [false, true] {
        // A list level holds a compound level: two levels a step.
        let steps = if list {
            json::MAX_DEPTH / 2
        } else {
            json::MAX_DEPTH
        };
        let ok = nested_json(steps, list);
        let too_deep = nested_json(steps + 1, list);
        let (ok, too_deep) = on_small_stack(move || {
            (
                json::from_str(&ok).map(|_| ()).map_err(|e| e.to_string()),
                json::from_str(&too_deep)
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
            )
        });
        ok.unwrap_or_else(|e| panic!("list {list}: {e}"));
        let e = too_deep.unwrap_err();
        assert!(e.contains("deeper than"), "list {list}: {e}");
    }
}
