//! `#[derive(Serialize)]`.
//!
//! Fields are inserted in declaration order through `NbtCompound::insert`,
//! which leaves out `None`s; a flattened field's compound is appended in place.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, Result};

use crate::model::{self, Shape};

pub fn expand(input: &DeriveInput) -> Result<TokenStream> {
    let (_container, shape) = model::struct_shape(input, "Serialize")?;
    let ident = &input.ident;

    let body = match &shape {
        Shape::Newtype(ty) => quote!(<#ty as ::simdnbt::Serialize>::to_compound(self.0)),
        Shape::Unit => quote!(::simdnbt::owned::NbtCompound::new()),
        Shape::Named(fields) => {
            let written: Vec<_> = fields.iter().filter(|f| !f.attrs.skip).collect();
            let capacity = written.len();
            let inserts = written.iter().map(|f| {
                let ident = f.ident;
                let ty = f.ty;
                let key = &f.key;
                if f.attrs.flatten {
                    quote!(compound.extend(<#ty as ::simdnbt::Serialize>::to_compound(self.#ident));)
                } else {
                    quote!(compound.insert(#key, self.#ident);)
                }
            });
            quote! {
                let mut compound = ::simdnbt::owned::NbtCompound::with_capacity(#capacity);
                #(#inserts)*
                compound
            }
        }
    };

    let needs = match &shape {
        Shape::Named(fields) => fields
            .iter()
            .filter(|f| !f.attrs.skip)
            .map(|f| {
                let bound = if f.attrs.flatten {
                    quote!(::simdnbt::Serialize)
                } else {
                    quote!(::simdnbt::ToNbtTag)
                };
                (f.ty, bound)
            })
            .collect(),
        Shape::Newtype(ty) => vec![(*ty, quote!(::simdnbt::Serialize))],
        Shape::Unit => Vec::new(),
    };
    let generics = model::with_bounds(&input.generics, needs);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    Ok(quote! {
        #[automatically_derived]
        impl #impl_generics ::simdnbt::Serialize for #ident #ty_generics #where_clause {
            fn to_compound(self) -> ::simdnbt::owned::NbtCompound {
                #body
            }
        }
    })
}
