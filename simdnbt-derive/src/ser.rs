//! `#[derive(Serialize)]`.
//!
//! Fields are appended in declaration order through `NbtCompound::push`,
//! which leaves out `None`s; a flattened field's compound is appended in place.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, Result};

use crate::model::{self, Shape};

pub fn expand(input: &DeriveInput) -> Result<TokenStream> {
    let (_container, shape) = model::struct_shape(input, "Serialize")?;

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
                // `push`: the keys are distinct (checked at compile time), so
                // no lookups; a flattened type's keys are appended as they come.
                if f.attrs.flatten {
                    quote! {
                        for (key, tag) in <#ty as ::simdnbt::Serialize>::to_compound(self.#ident) {
                            compound.push(key, tag);
                        }
                    }
                } else {
                    quote!(compound.push(#key, self.#ident);)
                }
            });
            quote! {
                let mut compound = ::simdnbt::owned::NbtCompound::with_capacity(#capacity);
                #(#inserts)*
                compound
            }
        }
    };

    let needs = shape.bounds(
        quote!(::simdnbt::Serialize),
        quote!(::simdnbt::ToNbtTag),
        None,
    );
    let items = quote! {
        fn to_compound(self) -> ::simdnbt::owned::NbtCompound {
            #body
        }
    };
    Ok(model::trait_impl(
        input,
        quote!(::simdnbt::Serialize),
        needs,
        items,
    ))
}
