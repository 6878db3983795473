//! crates.io simdnbt 0.10 (feature `nightly-peers`): the kit's converters from
//! simdnbt's trees to the canonical value, compiled a second time against the
//! upstream crate, whose API ours follows (one source for both).

use ::upstream_simdnbt as nbt;
use testkit::{List, Value};

#[path = "../../testkit/src/from_simdnbt.rs"]
pub(crate) mod convert;
