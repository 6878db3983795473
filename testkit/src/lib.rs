//! # testkit: the test code `simdnbt`'s integration tests, `compare` and
//! `fuzz-logic` share (dev-only, never published)
//!
//! - [`value`]: one canonical, library-neutral NBT value ([`Value`], [`Doc`]) and
//!   [`diff`], with the ordering modes libraries need ([`Order`]: exact with
//!   duplicates, unordered, or a map where the last duplicate wins);
//! - [`mutf8`]: the one lossy MUTF-8 rule, and the pinned string cases;
//! - [`from_simdnbt`]: simdnbt's borrow views and owned tree as [`Value`]s;
//! - [`peers`] (feature `peers`): fastnbt's and valence_nbt's trees as [`Value`]s;
//! - [`edit`]: edit scripts applied to a `simdnbt::document::Document` and to an
//!   owned tree, which must agree after every edit; [`document`]: the document
//!   reader against the borrow reader in every cursor form;
//! - [`filter`]: NBT-path filter matching written plainly (vanilla's
//!   `compareNbt`), the reference for `simdnbt::path`'s matcher; [`path`]:
//!   path evaluation written plainly (`..key` by recursion), the reference
//!   for its evaluator;
//! - [`bytes`]: byte builders for crafted inputs (`R(x)`, named tags, chains);
//! - [`hostile`]: the docs/format.md §4 cases with the expected answer (error kind
//!   and offset);
//! - `world` (feature `world`): a world folder assembled from the corpus, for
//!   `simdnbt-arrow` and the CLI's table commands.
//!
//! `simdnbt` uses this crate as a dev-dependency of its *integration* tests only:
//! the kit depends on `simdnbt`, and there it is the same crate instance as the one
//! the tests link. Unit tests inside `simdnbt/src` would see a second, different
//! `simdnbt` and must not use the kit.

pub mod bytes;
pub mod document;
pub mod edit;
pub mod filter;
pub mod from_simdnbt;
pub mod hostile;
pub mod mutf8;
pub mod path;
#[cfg(feature = "peers")]
pub mod peers;
pub mod value;
#[cfg(feature = "world")]
pub mod world;

pub use value::{Doc, List, Order, Value, diff, diff_all};
