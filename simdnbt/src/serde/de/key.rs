//! Compound keys as serde identifiers, strings and numbers.

use super::*;

/// A compound key. Besides strings it reads as any integer, float, bool or
/// char written in it (so `HashMap<i32, T>` works), and as a unit variant.
pub(super) struct KeyDe<'de> {
    pub(super) key: &'de Mutf8Str,
    pub(super) ctx: Ctx<'de>,
}

impl<'de> KeyDe<'de> {
    pub(super) fn parse<T: std::str::FromStr>(&self) -> Result<T> {
        let s = self.key.to_str();
        s.parse().map_err(|_| {
            Error::msg(format_args!(
                "invalid map key {s:?}: expected a {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

macro_rules! parse_key {
    ($($method:ident, $visit:ident;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.parse()?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyDe<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_mutf8(self.key, self.ctx, visitor)
    }

    parse_key! {
        deserialize_bool, visit_bool; deserialize_i8, visit_i8; deserialize_i16, visit_i16;
        deserialize_i32, visit_i32; deserialize_i64, visit_i64; deserialize_i128, visit_i128;
        deserialize_u8, visit_u8; deserialize_u16, visit_u16; deserialize_u32, visit_u32;
        deserialize_u64, visit_u64; deserialize_u128, visit_u128; deserialize_f32, visit_f32;
        deserialize_f64, visit_f64; deserialize_char, visit_char;
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::serde::owned::MUTF8_TOKEN {
            return visitor.visit_borrowed_bytes(self.key.as_bytes());
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(UnitVariant {
            name: self.key,
            ctx: self.ctx,
        })
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.key.as_bytes())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    ::serde::forward_to_deserialize_any! {
        str string identifier unit unit_struct seq tuple tuple_struct map struct ignored_any
    }
}
