//! `#[derive(Deserialize)]`.
//!
//! The generated `from_compound` walks the borrowed compound once, keeping the
//! last tag seen for each field's key (the one `get` returns: a repeated key's
//! last entry counts, as in the game), then
//! converts each. Keys are compared as raw MUTF-8 bytes, so nothing is decoded
//! to match a key.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DeriveInput, Result};

use crate::attrs::DefaultWith;
use crate::model::{self, Field, Shape};

pub fn expand(input: &DeriveInput) -> Result<TokenStream> {
    let (container, shape) = model::struct_shape(input, "Deserialize")?;

    let body = match &shape {
        Shape::Newtype(ty) => quote! {
            ::core::result::Result::Ok(Self(
                <#ty as ::simdnbt::Deserialize>::from_compound(compound)?,
            ))
        },
        Shape::Unit => {
            let check = if container.deny_unknown_fields {
                quote! {
                    if let ::core::option::Option::Some((key, _)) = compound.iter().next() {
                        return ::core::result::Result::Err(::simdnbt::__private::unknown_field(key));
                    }
                }
            } else {
                TokenStream::new()
            };
            quote! {
                let _ = compound;
                #check
                ::core::result::Result::Ok(Self)
            }
        }
        Shape::Named(fields) => {
            // A flattened field's type reads the whole compound, and which keys
            // it uses is not known here: with one, no key counts as unknown.
            let has_flatten = fields.iter().any(|f| f.attrs.flatten);
            let deny = container.deny_unknown_fields && !has_flatten;
            named_body(fields, deny, container.default)
        }
    };

    let needs = shape.bounds(
        quote!(::simdnbt::Deserialize),
        quote!(::simdnbt::FromNbtTag),
        Some(quote!(::core::default::Default)),
    );
    let items = quote! {
        fn from_compound(
            compound: ::simdnbt::borrow::NbtCompound<'_, '_>,
        ) -> ::core::result::Result<Self, ::simdnbt::DeserializeError> {
            #body
        }
    };
    Ok(model::trait_impl(
        input,
        quote!(::simdnbt::Deserialize),
        needs,
        items,
    ))
}

fn slot(i: usize) -> syn::Ident {
    format_ident!("__slot{}", i)
}

fn named_body(fields: &[Field<'_>], deny_unknown: bool, container_default: bool) -> TokenStream {
    let keyed: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.attrs.skip && !f.attrs.flatten)
        .collect();

    let slots = keyed.iter().map(|(i, _)| {
        let slot = slot(*i);
        quote!(let mut #slot = ::core::option::Option::None;)
    });
    let arms = keyed.iter().map(|(i, f)| {
        let slot = slot(*i);
        let pattern = model::key_pattern(&f.key);
        quote! {
            #pattern => #slot = ::core::option::Option::Some(tag),
        }
    });
    let fallback = if deny_unknown {
        quote!(_ => return ::core::result::Result::Err(::simdnbt::__private::unknown_field(key)),)
    } else {
        quote!(_ => {})
    };
    let scan = (!keyed.is_empty() || deny_unknown).then(|| {
        quote! {
            for (key, tag) in compound.iter() {
                let _ = &tag;
                match key.as_bytes() {
                    #(#arms)*
                    #fallback
                }
            }
        }
    });

    let defaults = container_default
        .then(|| quote!(let __default: Self = ::core::default::Default::default();));
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let ident = f.ident;
        let ty = f.ty;
        let key = &f.key;
        let slot = slot(i);
        let default_value = match &f.attrs.default {
            Some(DefaultWith::Trait) => Some(quote!(::core::default::Default::default())),
            Some(DefaultWith::Function(path)) => Some(quote!(#path())),
            None if container_default => Some(quote!(__default.#ident)),
            None => None,
        };
        let value = if f.attrs.flatten {
            quote!(<#ty as ::simdnbt::Deserialize>::from_compound(compound)?)
        } else if f.attrs.skip {
            default_value.unwrap_or_else(|| quote!(::core::default::Default::default()))
        } else {
            let read = quote!(::simdnbt::__private::field::<#ty>(#slot, #key)?);
            match default_value {
                Some(default_value) => quote! {
                    match #slot {
                        ::core::option::Option::None => #default_value,
                        slot => ::simdnbt::__private::field::<#ty>(slot, #key)?,
                    }
                },
                None => read,
            }
        };
        quote!(#ident: #value,)
    });

    quote! {
        let _ = &compound;
        #(#slots)*
        #scan
        #defaults
        ::core::result::Result::Ok(Self { #(#inits)* })
    }
}
