//! Enums: unit variants as strings, externally tagged variants as one-entry compounds.

use super::*;

/// A unit variant written as its name (a String).
pub(super) struct UnitVariant<'de> {
    pub(super) name: &'de Mutf8Str,
    pub(super) ctx: Ctx<'de>,
}

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(KeyDe {
            key: self.name,
            ctx: self.ctx,
        })?;
        Ok((v, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: value}",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: [..]}",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"a compound {variant: {..}}",
        ))
    }
}

/// Opens the compound at the reader and reads its first entry's head if it
/// is its only entry (the reader is then at its payload); `None` otherwise.
pub(super) fn one_entry<'de>(p: &mut Pull<'de>, blame: usize) -> Result<Option<Head<'de>>> {
    p.open_compound(blame)?;
    let Some(head) = p.entry()? else {
        return Ok(None);
    };
    let inside = p.mark();
    p.skip(head.id, head.at)?;
    if p.entry()?.is_some() {
        return Ok(None);
    }
    p.rewind(inside);
    Ok(Some(head))
}

/// A variant with content: a compound of one entry, `{variant: value}`.
pub(super) struct TaggedVariant<'a, 'de> {
    pub(super) r: &'a mut Reader<'de>,
    pub(super) head: Head<'de>,
}

impl<'a, 'de> TaggedVariant<'a, 'de> {
    fn key(&self) -> &'de Mutf8Str {
        Mutf8Str::from_slice(self.head.name)
    }

    pub(super) fn content<T>(self, f: impl FnOnce(ValueDe<'_, 'de>) -> Result<T>) -> Result<T> {
        let h = self.head;
        let key = self.key();
        let start = self.r.pull.pos();
        let value = match Node::read(&mut self.r.pull, h.id, h.at) {
            Ok(node) => f(ValueDe {
                r: &mut *self.r,
                node,
            }),
            Err(e) => Err(e),
        }
        .and_then(|v| self.r.finish_value(h.id, start, h.at).map(|()| v));
        value.map_err(|e| in_key(e, key, h.at))
    }
}

impl<'a, 'de> EnumAccess<'de> for TaggedVariant<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed
            .deserialize(KeyDe {
                key: self.key(),
                ctx: self.r.ctx,
            })
            .map_err(|e| e.at(self.head.at))?;
        Ok((v, self))
    }
}

impl<'a, 'de> VariantAccess<'de> for TaggedVariant<'a, 'de> {
    type Error = Error;

    /// `{variant: anything}` is accepted for a unit variant too.
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.content(|v| seed.deserialize(v))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.content(|v| de::Deserializer::deserialize_seq(v, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.content(|v| de::Deserializer::deserialize_map(v, visitor))
    }
}

/// A value with its tag id as the variant name (the owned tree's way to
/// learn exact types; see `owned.rs`).
pub(super) struct Typed<'a, 'de> {
    pub(super) id: u8,
    pub(super) value: ValueDe<'a, 'de>,
}

impl<'a, 'de> EnumAccess<'de> for Typed<'a, 'de> {
    type Error = Error;
    type Variant = ValueDe<'a, 'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let name = crate::serde::owned::TYPE_NAMES[self.id as usize];
        let v = seed.deserialize(de::value::StrDeserializer::<Error>::new(name))?;
        Ok((v, self.value))
    }
}

impl<'de> VariantAccess<'de> for ValueDe<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}
