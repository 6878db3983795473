//! The adapter table: one [`Peer`] per library (and per mode of a library),
//! each built by [`Peer::of`] from an [`Adapter`](crate::Adapter) impl in this
//! folder, one file per library. simdnbt's own adapters (`ours.rs`) and
//! crates.io simdnbt 0.10's (`upstream.rs`, feature `nightly-peers`) are one
//! macro (`simdnbt_api.rs`) instantiated for each crate.

use std::sync::OnceLock;

use crate::adapter::Peer;

#[macro_use]
mod simdnbt_api;

mod crab;
mod fastnbt;
mod floor;
mod graphite;
mod hematite;
mod na_nbt;
mod ours;
mod quartz;
mod shen;
mod simdnbt_doc;
mod ussr;
mod valence;

#[cfg(feature = "nightly-peers")]
mod azalea;
#[cfg(feature = "nightly-peers")]
mod upstream;

/// Every adapter compiled into this build, simdnbt's own first, the floor
/// ([`crate::floor`], not a library) last of the stable ones.
pub fn peers() -> &'static [Peer] {
    static PEERS: OnceLock<Vec<Peer>> = OnceLock::new();
    PEERS.get_or_init(|| {
        let mut v = Vec::new();
        v.extend(ours::peers());
        v.push(Peer::of::<simdnbt_doc::SimdnbtDoc>());
        v.extend([
            Peer::of::<na_nbt::Borrow>(),
            Peer::of::<na_nbt::Owned>(),
            Peer::of::<na_nbt::OwnedBe>(),
            Peer::of::<ussr::Borrow>(),
            Peer::of::<ussr::Owned>(),
            Peer::of::<shen::Shen>(),
            Peer::of::<graphite::Graphite>(),
            Peer::of::<valence::Valence>(),
            Peer::of::<crab::Crab>(),
            Peer::of::<hematite::Hematite>().edits_with::<hematite::HematiteValue>(),
            Peer::of::<fastnbt::Fastnbt>(),
            Peer::of::<quartz::Quartz>(),
        ]);
        // Last: a yardstick, not a library.
        v.push(Peer::of::<floor::Floor>());
        #[cfg(feature = "nightly-peers")]
        {
            v.push(Peer::of::<azalea::Azalea>());
            v.extend(upstream::peers());
        }
        v
    })
}

/// `(peer name, notes)` for every compiled-in adapter, the shape the report generator takes.
pub fn peer_notes() -> Vec<(&'static str, &'static str)> {
    peers()
        .iter()
        .map(|p| (p.info.name, p.info.notes))
        .collect()
}

/// Looks a peer up by name.
pub fn peer(name: &str) -> Option<&'static Peer> {
    peers().iter().find(|p| p.info.name == name)
}
