//! Compounds as serde maps and structs.

use super::*;

/// A compound's entries, in input order, pulled as serde asks for them.
pub(super) struct MapDe<'a, 'de> {
    pub(super) r: &'a mut Reader<'de>,
    /// The entry whose key was taken and whose value was not.
    pub(super) pending: Option<Head<'de>>,
    /// The compound's End was read.
    pub(super) done: bool,
}

impl<'a, 'de> MapDe<'a, 'de> {
    /// Opens the compound at the reader (`blame`: where a depth error names).
    #[inline(always)]
    pub(super) fn open(r: &'a mut Reader<'de>, blame: usize) -> Result<Self> {
        r.pull.open_compound(blame)?;
        Ok(MapDe {
            r,
            pending: None,
            done: false,
        })
    }

    /// Skips what the visitor left of the compound, its End included.
    #[inline(always)]
    pub(super) fn finish(mut self) -> Result<()> {
        if self.done {
            return Ok(());
        }
        if let Some(h) = self.pending.take() {
            self.r.pull.skip(h.id, h.at)?;
        }
        Ok(self.r.pull.skip_entries()?)
    }
}

#[cold]
pub(super) fn in_key(e: Error, key: &Mutf8Str, off: usize) -> Error {
    e.at(off).in_key(&key.to_str())
}

impl<'de> MapAccess<'de> for MapDe<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if let Some(h) = self.pending.take() {
            // The previous value was not asked for.
            self.r.pull.skip(h.id, h.at)?;
        }
        if self.done {
            return Ok(None);
        }
        let Some(h) = self.r.pull.entry()? else {
            self.done = true;
            return Ok(None);
        };
        self.pending = Some(h);
        let key = Mutf8Str::from_slice(h.name);
        match seed.deserialize(KeyDe {
            key,
            ctx: self.r.ctx,
        }) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(in_key(e, key, h.at)),
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some(h) = self.pending.take() else {
            return Err(Error::msg("a map value was asked for before its key"));
        };
        let start = self.r.pull.pos();
        let value = seed
            .deserialize(ValueDe {
                r: &mut *self.r,
                node: Node::pending(h.id, h.at),
            })
            .and_then(|v| {
                // Every payload takes a byte at least: a value the seed
                // did not read, leaf or container, is skipped.
                if self.r.pull.pos() == start {
                    self.r.pull.skip(h.id, h.at)?;
                }
                Ok(v)
            });
        match value {
            Ok(v) => Ok(v),
            Err(e) => Err(in_key(e, Mutf8Str::from_slice(h.name), h.at)),
        }
    }
}
