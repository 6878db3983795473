//! crates.io simdnbt 0.10 (feature `nightly-peers`): `upstream_borrow` and
//! `upstream_owned`. Our crate follows its API, so both the adapters
//! (`simdnbt_api.rs`) and the kit's converters to the canonical value
//! (`testkit::simdnbt_converters!`) are the same macros as for ours,
//! instantiated for this crate.

use testkit::Order;

use crate::adapter::Peer;

/// The kit's `from_simdnbt` converters, for simdnbt 0.10.
mod from_upstream {
    testkit::simdnbt_converters!(::upstream_simdnbt);
}

simdnbt_adapters! {
    crate: ::upstream_simdnbt,
    convert: self::from_upstream,
    borrow: Info {
        name: "upstream_borrow",
        krate: "simdnbt",
        version: "0.10.0",
        nightly: true,
        order: Order::Exact,
        notes: "crates.io simdnbt 0.10 borrowed reader (nightly: portable SIMD): builds a tape over \
                the input; strings stay raw MUTF-8, arrays stay big-endian until requested. Keeps \
                order and duplicates.",
    },
    owned: Info {
        name: "upstream_owned",
        krate: "simdnbt",
        version: "0.10.0",
        nightly: true,
        order: Order::Exact,
        notes: "crates.io simdnbt 0.10 owned tree: strings copied as raw MUTF-8, arrays converted to \
                native Vecs; a list of End becomes `NbtList::Empty`.",
    },
}

/// `upstream_borrow` and `upstream_owned`.
pub fn peers() -> Vec<Peer> {
    vec![Peer::of::<Borrow>(), Peer::of::<Owned>()]
}
