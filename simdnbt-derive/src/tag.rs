//! `#[derive(FromNbtTag)]` and `#[derive(ToNbtTag)]`: unit enums as String
//! tags holding the variant name (or its `rename`), newtypes as their inner
//! type's tag.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DataEnum, DeriveInput, Error, Fields, Ident, Result, Type};

use crate::attrs;
use crate::model;

/// What a value derive maps.
enum ValueShape<'a> {
    /// Unit variants and their String values.
    Enum(Vec<(&'a Ident, String)>),
    Newtype(&'a Type),
}

fn value_shape<'a>(input: &'a DeriveInput, derive: &str) -> Result<ValueShape<'a>> {
    let container = attrs::container(&input.attrs)?;
    if container.deny_unknown_fields || container.default {
        return Err(Error::new(
            Span::call_site(),
            format!(
                "#[derive({derive})] takes no container attributes; \
                 `deny_unknown_fields` and `default` belong to #[derive(Deserialize)]"
            ),
        ));
    }
    match &input.data {
        Data::Enum(DataEnum { variants, .. }) => {
            let mut out = Vec::with_capacity(variants.len());
            let mut seen: HashMap<String, &Ident> = HashMap::new();
            for v in variants {
                if !matches!(v.fields, Fields::Unit) {
                    return Err(Error::new(
                        v.fields.span(),
                        format!(
                            "#[derive({derive})] supports enums of unit variants only (stored as \
                             a String tag); variant `{}` has fields",
                            v.ident
                        ),
                    ));
                }
                let name = attrs::variant(&v.attrs)?
                    .rename
                    .unwrap_or_else(|| v.ident.to_string());
                if let Some(other) = seen.insert(name.clone(), &v.ident) {
                    return Err(Error::new(
                        v.ident.span(),
                        format!("variants `{other}` and `{}` are both {name:?}", v.ident),
                    ));
                }
                out.push((&v.ident, name));
            }
            Ok(ValueShape::Enum(out))
        }
        Data::Struct(s) => match &s.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                attrs::none_allowed(&f.unnamed[0].attrs, "the field of a newtype struct")?;
                Ok(ValueShape::Newtype(&f.unnamed[0].ty))
            }
            _ => Err(Error::new(
                s.struct_token.span,
                format!(
                    "#[derive({derive})] on a struct supports newtypes (one unnamed field) only; \
                     for a struct stored as a compound derive {}, which makes it {derive} as well",
                    if derive == "FromNbtTag" {
                        "Deserialize"
                    } else {
                        "Serialize"
                    }
                ),
            )),
        },
        Data::Union(u) => Err(Error::new(
            u.union_token.span,
            format!("#[derive({derive})] does not support unions"),
        )),
    }
}

pub fn expand_from(input: &DeriveInput) -> Result<TokenStream> {
    let shape = value_shape(input, "FromNbtTag")?;
    let (body, needs) = match &shape {
        ValueShape::Enum(variants) => {
            let arms = variants.iter().map(|(v, name)| {
                let pattern = model::key_pattern(name);
                quote!(#pattern => ::core::option::Option::Some(Self::#v),)
            });
            let body = quote! {
                fn from_nbt_tag(tag: ::simdnbt::borrow::NbtTag<'_, '_>) -> ::core::option::Option<Self> {
                    match tag.string()?.as_bytes() {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            };
            (body, Vec::new())
        }
        ValueShape::Newtype(ty) => {
            let body = quote! {
                fn from_nbt_tag(tag: ::simdnbt::borrow::NbtTag<'_, '_>) -> ::core::option::Option<Self> {
                    <#ty as ::simdnbt::FromNbtTag>::from_nbt_tag(tag).map(Self)
                }
                fn from_optional_nbt_tag(
                    tag: ::core::option::Option<::simdnbt::borrow::NbtTag<'_, '_>>,
                ) -> ::core::result::Result<::core::option::Option<Self>, ::simdnbt::DeserializeError> {
                    <#ty as ::simdnbt::FromNbtTag>::from_optional_nbt_tag(tag).map(|v| v.map(Self))
                }
            };
            (body, vec![(*ty, quote!(::simdnbt::FromNbtTag))])
        }
    };
    Ok(model::trait_impl(
        input,
        quote!(::simdnbt::FromNbtTag),
        needs,
        body,
    ))
}

pub fn expand_to(input: &DeriveInput) -> Result<TokenStream> {
    let shape = value_shape(input, "ToNbtTag")?;
    let (body, needs) = match &shape {
        ValueShape::Enum(variants) => {
            let arms = variants.iter().map(|(v, name)| quote!(Self::#v => #name,));
            let body = quote! {
                fn to_nbt_tag(self) -> ::simdnbt::owned::NbtTag {
                    let name: &'static str = match self {
                        #(#arms)*
                    };
                    ::simdnbt::owned::NbtTag::String(name.into())
                }
            };
            (body, Vec::new())
        }
        ValueShape::Newtype(ty) => {
            let body = quote! {
                fn to_nbt_tag(self) -> ::simdnbt::owned::NbtTag {
                    <#ty as ::simdnbt::ToNbtTag>::to_nbt_tag(self.0)
                }
                fn to_optional_nbt_tag(self) -> ::core::option::Option<::simdnbt::owned::NbtTag> {
                    <#ty as ::simdnbt::ToNbtTag>::to_optional_nbt_tag(self.0)
                }
            };
            (body, vec![(*ty, quote!(::simdnbt::ToNbtTag))])
        }
    };
    Ok(model::trait_impl(
        input,
        quote!(::simdnbt::ToNbtTag),
        needs,
        body,
    ))
}
