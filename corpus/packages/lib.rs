//! Nothing to build: this package only lists the crates.io packages whose
//! sources hold the shared corpus files (see `Cargo.toml` here).
