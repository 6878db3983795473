//! Adapters for simdnbt itself (this workspace's crate) and, behind `nightly-peers`,
//! for crates.io simdnbt 0.10 (`upstream_borrow`, `upstream_owned`).

use crate::peers::Peer;

/// `simdnbt_borrow` and `simdnbt_owned`.
pub fn peers() -> Vec<Peer> {
    Vec::new()
}

/// `upstream_borrow` and `upstream_owned`.
#[cfg(feature = "nightly-peers")]
pub fn upstream_peers() -> Vec<Peer> {
    Vec::new()
}
