//! graphite_binary 0.1 (`nbt` module): an arena of nodes with sorted compound indexes.

use ::graphite_binary::nbt::{decode, encode, NBT};

use super::{parse_bench, write_bench, Peer};
use testkit::Order;

fn parse(input: &[u8]) -> Result<NBT, String> {
    decode::read(&mut &input[..]).map_err(|e| e.to_string())
}

pub const PEER: Peer = Peer {
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
    validate: |input| parse(input).map(drop),
    read: |input| parse_bench(input, |mut i| decode::read(&mut i)),
    write: Some(|input| Ok(write_bench(parse(input)?, encode::write))),
    decode_all: None,
    to_canonical: |input| crate::reference::read(&encode::write(&parse(input)?)),
    write_bytes: Some(|input| Ok(encode::write(&parse(input)?))),
};
