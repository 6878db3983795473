//! The peers the comparison benches know about, and which crate backs each.

/// One benchmarked library configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer {
    /// Name used in benchmark function ids (`<name>_read`, …).
    pub name: &'static str,
    /// Package name in `Cargo.lock`.
    pub package: &'static str,
    /// Which `Cargo.lock` entry of that package: this workspace's own
    /// (path) package, or one from a registry.
    pub source: PackageSource,
}

/// Where a peer's package comes from, to tell this workspace's `simdnbt`
/// from the upstream `simdnbt` on crates.io, which share a package name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackageSource {
    /// A workspace member (no `source` line in `Cargo.lock`).
    Workspace,
    /// A registry package (`source = "registry+…"`).
    Registry,
}

/// Peers that are this workspace's simdnbt.
pub const OURS: [&str; 3] = ["simdnbt_borrow", "simdnbt_owned", "simdnbt_doc"];

/// The read/decode_all baseline every ratio is taken against.
pub const BASELINE: &str = "simdnbt_borrow";

/// Every known peer, in the order the report lists them when not sorted by
/// speed.
pub const KNOWN: &[Peer] = &[
    peer("simdnbt_borrow", "simdnbt", PackageSource::Workspace),
    peer("simdnbt_owned", "simdnbt", PackageSource::Workspace),
    peer("simdnbt_doc", "simdnbt", PackageSource::Workspace),
    peer("upstream_borrow", "simdnbt", PackageSource::Registry),
    peer("upstream_owned", "simdnbt", PackageSource::Registry),
    peer("na_nbt_borrow", "na_nbt", PackageSource::Registry),
    peer("na_nbt_owned", "na_nbt", PackageSource::Registry),
    peer("na_nbt_owned_be", "na_nbt", PackageSource::Registry),
    peer("ussr_borrow", "ussr-nbt", PackageSource::Registry),
    peer("ussr_owned", "ussr-nbt", PackageSource::Registry),
    peer("shen", "shen-nbt5", PackageSource::Registry),
    peer("graphite", "graphite_binary", PackageSource::Registry),
    peer("valence", "valence_nbt", PackageSource::Registry),
    peer("crab", "crab_nbt", PackageSource::Registry),
    peer("hematite", "hematite-nbt", PackageSource::Registry),
    peer("fastnbt", "fastnbt", PackageSource::Registry),
    peer("quartz", "quartz_nbt", PackageSource::Registry),
    peer("azalea", "azalea-nbt", PackageSource::Registry),
    // Not a library: compare's own walker (`compare::floor`), the yardstick.
    peer("floor", "compare", PackageSource::Workspace),
];

const fn peer(name: &'static str, package: &'static str, source: PackageSource) -> Peer {
    Peer {
        name,
        package,
        source,
    }
}

/// Looks a peer up by its benchmark name.
pub fn find(name: &str) -> Option<&'static Peer> {
    KNOWN.iter().find(|p| p.name == name)
}

/// Whether `name` is one of this workspace's simdnbt configurations.
pub fn is_ours(name: &str) -> bool {
    OURS.contains(&name)
}
