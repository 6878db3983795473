//! Derive macros for [simdnbt](https://docs.rs/simdnbt)'s `Deserialize`,
//! `Serialize`, `FromNbtTag` and `ToNbtTag`. Use them through `simdnbt`
//! (feature `derive`, on by default), whose crate docs describe the attributes.
//!
//! - `Deserialize` / `Serialize` on a struct with named fields map it to a
//!   compound (one key per field); on a one-field tuple struct, to the inner
//!   type's compound; on a unit struct, to an empty compound.
//! - `FromNbtTag` / `ToNbtTag` on an enum of unit variants map it to a String
//!   tag holding the variant name; on a one-field tuple struct, to the inner
//!   type's tag.
//!
//! Anything else is a compile error that says what is supported.

mod attrs;
mod de;
mod model;
mod ser;
mod tag;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// `impl simdnbt::Deserialize`: read the type from a compound.
#[proc_macro_derive(Deserialize, attributes(simdnbt))]
pub fn derive_deserialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    de::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `impl simdnbt::Serialize`: write the type as a compound.
#[proc_macro_derive(Serialize, attributes(simdnbt))]
pub fn derive_serialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    ser::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `impl simdnbt::FromNbtTag`: read a unit enum from a String tag, or a newtype
/// from its inner type's tag.
#[proc_macro_derive(FromNbtTag, attributes(simdnbt))]
pub fn derive_from_nbt_tag(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    tag::expand_from(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `impl simdnbt::ToNbtTag`: write a unit enum as a String tag, or a newtype as
/// its inner type's tag.
#[proc_macro_derive(ToNbtTag, attributes(simdnbt))]
pub fn derive_to_nbt_tag(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    tag::expand_to(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
