//! crates.io simdnbt 0.10 (feature `nightly-peers`): `upstream_borrow` and
//! `upstream_owned`. Our crate follows its API, so both the adapters
//! (`simdnbt_api.rs`) and the kit's converters to the canonical value
//! (`testkit/src/from_simdnbt.rs`) are compiled a second time here against it:
//! one source for both crates.

use ::upstream_simdnbt as nbt;
use testkit::{List, Order, Value};

use crate::peers::{Info, Peer};

#[path = "../../testkit/src/from_simdnbt.rs"]
mod convert;

// The same file as `ours.rs`'s `api` on purpose, compiled against the other crate.
#[allow(clippy::duplicate_mod)]
#[path = "simdnbt_api.rs"]
mod api;

/// `upstream_borrow`
const BORROW: Info = Info {
    name: "upstream_borrow",
    krate: "simdnbt",
    version: "0.10.0",
    nightly: true,
    order: Order::Exact,
    notes: "crates.io simdnbt 0.10 borrowed reader (nightly: portable SIMD): builds a tape over \
            the input; strings stay raw MUTF-8, arrays stay big-endian until requested. Keeps \
            order and duplicates.",
};

/// `upstream_owned`
const OWNED: Info = Info {
    name: "upstream_owned",
    krate: "simdnbt",
    version: "0.10.0",
    nightly: true,
    order: Order::Exact,
    notes: "crates.io simdnbt 0.10 owned tree: strings copied as raw MUTF-8, arrays converted to \
            native Vecs; a list of End becomes `NbtList::Empty`.",
};

/// `upstream_borrow` and `upstream_owned`.
pub fn peers() -> Vec<Peer> {
    vec![Peer::of::<api::Borrow>(), Peer::of::<api::Owned>()]
}
