//! What each peer skips or validates while parsing, for the report's notes
//! section. Checked against each crate's documentation and source at the
//! version in `Cargo.lock`; keep every entry to what was verified.

/// `(peer, notes)` pairs, in [`super::peers::KNOWN`] order.
pub const NOTES: &[(&str, &str)] = &[];
