//! graphite_binary 0.1 (`nbt` module): an arena of nodes with sorted compound indexes.

use ::graphite_binary::nbt::{NBT, decode, encode};

use crate::adapter::{Adapter, Info};
use testkit::{Doc, Order};

/// graphite_binary's node arena.
///
/// No edit workload: the arena cannot remove a key. `NBT` has `insert_root`,
/// `insert` (into a compound node the caller holds by `&mut`, so a nested
/// change means cloning every compound on the path out of the arena and
/// inserting each back into its parent) and `append` (to a list), but no
/// `remove`, no `get_mut`, and no way to list a compound's keys (its
/// `NBTCompound` and the node `Vec` are private), so the workload's two
/// removals cannot be made and a tree without them cannot even be rebuilt.
pub struct Graphite;

impl Adapter for Graphite {
    type Tree<'a> = NBT;
    const INFO: Info = Info {
        name: "graphite",
        krate: "graphite_binary",
        version: "0.1.0",
        nightly: false,
        order: Order::Unordered,
        notes: "Owned arena: every node in one Vec, compounds as key-sorted (key, index) Vecs \
                (binary search; a duplicate key replaces the earlier one), lists as index Vecs with \
                their element type. Strings decoded from Java CESU-8/MUTF-8 into `String` \
                (invalid data is an error); arrays converted to native Vecs. Keys come back sorted, \
                not in input order. No public API enumerates a compound's entries, so decode_all \
                is not measured and the canonical value is taken by reading graphite's own written \
                bytes with this crate's reference reader.",
    };
    const VISITS: bool = false;

    fn parse(input: &[u8]) -> Result<NBT, String> {
        decode::read(&mut &input[..]).map_err(|e| e.to_string())
    }

    fn write(n: &NBT) -> Result<Vec<u8>, String> {
        Ok(encode::write(n))
    }

    /// Never called (`VISITS` is false): no public API enumerates a compound.
    fn visit(_: &NBT) {}

    fn to_canonical(n: &NBT) -> Result<Doc, String> {
        crate::reference::read(&encode::write(n))
    }
}
