//! Compounds as serde maps and structs.

use super::*;

/// A compound's entries, in input order.
pub(super) struct MapDe<'de, 't> {
    pub(super) iter: NbtCompoundIter<'de, 't>,
    /// The compound (for `size_hint`, which few visitors ask) and the
    /// entries taken so far.
    pub(super) compound: NbtCompound<'de, 't>,
    pub(super) taken: usize,
    pub(super) pending: Option<(&'de Mutf8Str, NbtTag<'de, 't>)>,
    pub(super) ctx: Ctx,
}

impl<'de, 't> MapDe<'de, 't> {
    #[inline]
    pub(super) fn new(c: NbtCompound<'de, 't>, ctx: Ctx) -> Self {
        MapDe {
            iter: c.iter(),
            compound: c,
            taken: 0,
            pending: None,
            ctx,
        }
    }
}

#[cold]
pub(super) fn in_key(e: Error, key: &Mutf8Str, off: usize) -> Error {
    e.at(off).in_key(&key.to_str())
}

impl<'de, 't> MapAccess<'de> for MapDe<'de, 't> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, tag)) = self.iter.next() else {
            return Ok(None);
        };
        self.taken += 1;
        self.pending = Some((key, tag));
        let ctx = self.ctx;
        match seed.deserialize(KeyDe { key, ctx }) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(in_key(e, key, ctx.entry_off(key))),
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some((key, tag)) = self.pending.take() else {
            return Err(Error::msg("a map value was asked for before its key"));
        };
        let ctx = self.ctx;
        let value = ValueDe {
            node: Node::from_tag(tag),
            ctx,
        };
        match seed.deserialize(value) {
            Ok(v) => Ok(v),
            Err(e) => Err(in_key(e, key, ctx.entry_off(key))),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.compound.len().saturating_sub(self.taken))
    }
}
