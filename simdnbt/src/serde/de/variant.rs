//! Enums: unit variants as strings, externally tagged variants as one-entry compounds.

use super::*;

/// A unit variant written as its name (a String).
pub(super) struct UnitVariant<'de> {
    pub(super) name: &'de Mutf8Str,
    pub(super) ctx: Ctx,
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

/// A variant with content: a compound of one entry, `{variant: value}`.
pub(super) struct TaggedVariant<'de, 't> {
    pub(super) key: &'de Mutf8Str,
    pub(super) tag: NbtTag<'de, 't>,
    pub(super) ctx: Ctx,
}

impl<'de, 't> TaggedVariant<'de, 't> {
    pub(super) fn content<T>(self, f: impl FnOnce(ValueDe<'de, 't>) -> Result<T>) -> Result<T> {
        let value = ValueDe {
            node: Node::from_tag(self.tag),
            ctx: self.ctx,
        };
        f(value).map_err(|e| in_key(e, self.key, self.ctx.entry_off(self.key)))
    }
}

impl<'de, 't> EnumAccess<'de> for TaggedVariant<'de, 't> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed
            .deserialize(KeyDe {
                key: self.key,
                ctx: self.ctx,
            })
            .map_err(|e| e.at(self.ctx.entry_off(self.key)))?;
        Ok((v, self))
    }
}

impl<'de, 't> VariantAccess<'de> for TaggedVariant<'de, 't> {
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
pub(super) struct Typed<'de, 't> {
    pub(super) id: u8,
    pub(super) value: ValueDe<'de, 't>,
}

impl<'de, 't> EnumAccess<'de> for Typed<'de, 't> {
    type Error = Error;
    type Variant = ValueDe<'de, 't>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let name = crate::serde::owned::TYPE_NAMES[self.id as usize];
        let v = seed.deserialize(de::value::StrDeserializer::<Error>::new(name))?;
        Ok((v, self.value))
    }
}

impl<'de, 't> VariantAccess<'de> for ValueDe<'de, 't> {
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
