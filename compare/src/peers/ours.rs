//! Adapters for simdnbt itself (this workspace's crate): `simdnbt_borrow` and
//! `simdnbt_owned`, from the shared simdnbt-API adapters (`simdnbt_api.rs`).

use testkit::Order;

use crate::adapter::Peer;

simdnbt_adapters! {
    crate: ::simdnbt,
    convert: testkit::from_simdnbt,
    borrow: Info {
        name: "simdnbt_borrow",
        krate: "simdnbt",
        version: "0.11.0",
        nightly: false,
        order: Order::Exact,
        notes: "This workspace's borrowed reader: one validating pass builds a compact tape of \
                tag positions over the input; strings stay raw MUTF-8 slices (decoded on request, \
                lossy or checked) and arrays stay big-endian slices (converted on request). Keeps \
                order, duplicate keys, float bits and empty-list element types; depth limit 512; \
                lengths checked before allocation. Its writer copies the validated input bytes.",
    },
    owned: Info {
        name: "simdnbt_owned",
        krate: "simdnbt",
        version: "0.11.0",
        nightly: false,
        order: Order::Exact,
        notes: "This workspace's owned tree: strings copied as raw MUTF-8 (not decoded), arrays and \
                primitive lists converted to native Vecs while parsing. Keeps order, duplicate keys \
                and empty-list element types; the writer re-encodes and returns an error instead of \
                writing an invalid file.",
    },
}

/// `simdnbt_borrow` and `simdnbt_owned`.
pub fn peers() -> Vec<Peer> {
    vec![Peer::of::<Borrow>(), Peer::of::<Owned>()]
}
