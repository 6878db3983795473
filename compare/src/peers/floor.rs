//! The floor ([`crate::floor`]) as a peer: its `read` is the walker, so every
//! reader's time can be put over the least a validating serial reader must
//! spend. It keeps no tree, so it has no other workload and no canonical
//! value; `tests/floor.rs` checks it against `simdnbt::borrow::read` instead.

use crate::adapter::{Adapter, Info};
use testkit::{Doc, Order};

/// The walker of [`crate::floor`]; its "tree" is the end offset.
pub struct Floor;

impl Adapter for Floor {
    type Tree<'a> = usize;
    const INFO: Info = Info {
        name: "floor",
        krate: "compare",
        version: "0.1.0",
        nightly: false,
        order: Order::Exact,
        notes: "Not a library: the yardstick. A walker that checks what any serial reader of Java \
                NBT must (root, tag ids, name, string and array lengths against what is left, list \
                headers, depth 512) and records nothing, accepting exactly what simdnbt_borrow \
                accepts (tests/floor.rs). No tree, so no write, decode_all, edit or canonical \
                value; read only.",
    };
    const WRITES: bool = false;
    const VISITS: bool = false;

    fn parse(input: &[u8]) -> Result<usize, String> {
        crate::floor::walk(input).ok_or_else(|| "invalid NBT".to_string())
    }

    /// Never called (`WRITES` is false).
    fn write(_: &usize) -> Result<Vec<u8>, String> {
        Err("not a library: the floor keeps no tree".into())
    }

    /// Never called (`VISITS` is false).
    fn visit(_: &usize) {}

    fn to_canonical(_: &usize) -> Result<Doc, String> {
        Err("not a library: the floor keeps no tree".into())
    }
}
