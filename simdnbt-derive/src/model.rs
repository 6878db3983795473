//! What the derives see of a type: its shape (named fields, newtype, unit),
//! each field's NBT key and attributes, and the bounds its generics need.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{Data, DeriveInput, Error, Fields, Generics, Ident, Result, Type, WherePredicate};

use crate::attrs::{self, ContainerAttrs, FieldAttrs};

/// A named field.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// The compound key: the field name, or its `rename`.
    pub key: String,
    pub attrs: FieldAttrs,
}

/// The shapes of struct the compound derives support.
pub enum Shape<'a> {
    Named(Vec<Field<'a>>),
    /// `struct Wrapper(Inner);`
    Newtype(&'a Type),
    /// `struct Marker;`
    Unit,
}

impl<'a> Shape<'a> {
    /// The bound each field type needs: `whole` (the compound trait) for a
    /// flattened field or a newtype's inner type, `value` (the tag trait) for
    /// a keyed field, `skipped` for a `skip` field (`None`: no bound).
    pub fn bounds(
        &self,
        whole: TokenStream,
        value: TokenStream,
        skipped: Option<TokenStream>,
    ) -> Vec<(&'a Type, TokenStream)> {
        match self {
            Shape::Named(fields) => fields
                .iter()
                .filter_map(|f| {
                    let bound = if f.attrs.flatten {
                        whole.clone()
                    } else if f.attrs.skip {
                        skipped.clone()?
                    } else {
                        value.clone()
                    };
                    Some((f.ty, bound))
                })
                .collect(),
            Shape::Newtype(ty) => vec![(*ty, whole)],
            Shape::Unit => Vec::new(),
        }
    }
}

/// The shape of a struct for `Deserialize` / `Serialize` (named `derive`), or a
/// compile error saying why it is not supported.
pub fn struct_shape<'a>(
    input: &'a DeriveInput,
    derive: &str,
) -> Result<(ContainerAttrs, Shape<'a>)> {
    let container = attrs::container(&input.attrs)?;
    let data = match &input.data {
        Data::Struct(s) => s,
        Data::Enum(e) => {
            return Err(Error::new(
                e.enum_token.span,
                format!(
                    "#[derive({derive})] maps a struct to a compound; it does not support enums. \
                     For an enum of unit variants stored as a String tag, derive FromNbtTag and ToNbtTag"
                ),
            ));
        }
        Data::Union(u) => {
            return Err(Error::new(
                u.union_token.span,
                format!("#[derive({derive})] does not support unions"),
            ));
        }
    };
    let shape = match &data.fields {
        Fields::Named(named) => {
            let mut fields = Vec::with_capacity(named.named.len());
            let mut keys: HashMap<String, &Ident> = HashMap::new();
            for f in &named.named {
                let ident = f.ident.as_ref().expect("named fields have names");
                let attrs = attrs::field(&f.attrs, ident.span())?;
                let key = attrs
                    .rename
                    .clone()
                    .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_string());
                if !attrs.skip && !attrs.flatten {
                    if let Some(other) = keys.insert(key.clone(), ident) {
                        return Err(Error::new(
                            ident.span(),
                            format!("fields `{other}` and `{ident}` both use the key {key:?}"),
                        ));
                    }
                }
                fields.push(Field {
                    ident,
                    ty: &f.ty,
                    key,
                    attrs,
                });
            }
            Shape::Named(fields)
        }
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            let field = &unnamed.unnamed[0];
            attrs::none_allowed(&field.attrs, "the field of a newtype struct")?;
            Shape::Newtype(&field.ty)
        }
        Fields::Unnamed(unnamed) => {
            return Err(Error::new(
                unnamed.paren_token.span.join(),
                format!(
                    "#[derive({derive})] supports tuple structs with exactly one field (newtypes); \
                     this one has {}. Use named fields, which become compound keys",
                    unnamed.unnamed.len()
                ),
            ));
        }
        Fields::Unit => Shape::Unit,
    };
    if container.deny_unknown_fields && matches!(shape, Shape::Newtype(_)) {
        return Err(Error::new(
            Span::call_site(),
            "`deny_unknown_fields` does not apply to a newtype: the inner type decides",
        ));
    }
    if container.default && !matches!(shape, Shape::Named(_)) {
        return Err(Error::new(
            Span::call_site(),
            "container `#[simdnbt(default)]` needs named fields",
        ));
    }
    Ok((container, shape))
}

/// Whether `ty` names one of `params` anywhere (so its impl needs a bound).
fn mentions(ty: &Type, params: &[&Ident]) -> bool {
    fn walk(tokens: TokenStream, params: &[&Ident]) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => params.iter().any(|p| **p == i),
            TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    walk(ty.to_token_stream(), params)
}

/// `generics` with `Ty: bound` added for each `(Ty, bound)` whose type uses a
/// type parameter (the others need no bound, or fail with a clear error).
fn with_bounds<'t>(
    generics: &Generics,
    needs: impl IntoIterator<Item = (&'t Type, TokenStream)>,
) -> Generics {
    let params: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    let mut out = generics.clone();
    if params.is_empty() {
        return out;
    }
    let clause = out.make_where_clause();
    for (ty, bound) in needs {
        if mentions(ty, &params) {
            let pred: WherePredicate = syn::parse_quote!(#ty: #bound);
            clause.predicates.push(pred);
        }
    }
    out
}

/// `impl Trait for Type { items }`, with the bounds `needs` asks for.
pub fn trait_impl<'t>(
    input: &DeriveInput,
    trait_path: TokenStream,
    needs: impl IntoIterator<Item = (&'t Type, TokenStream)>,
    items: TokenStream,
) -> TokenStream {
    let ident = &input.ident;
    let generics = with_bounds(&input.generics, needs);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #trait_path for #ident #ty_generics #where_clause {
            #items
        }
    }
}

/// `key` as MUTF-8 bytes, the form keys have in a document: like UTF-8 but
/// NUL is `C0 80` and characters beyond U+FFFF are two 3-byte surrogates.
pub fn mutf8(key: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(key.len());
    for c in key.chars() {
        match c as u32 {
            0 => out.extend([0xc0, 0x80]),
            0x1_0000.. => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let u = *unit as u32;
                    out.extend([
                        0xe0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3f) as u8,
                        0x80 | (u & 0x3f) as u8,
                    ]);
                }
            }
            _ => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// A byte-string literal of `key`'s MUTF-8 bytes, for `match` arms.
pub fn key_pattern(key: &str) -> TokenStream {
    let lit = proc_macro2::Literal::byte_string(&mutf8(key));
    quote!(#lit)
}

#[cfg(test)]
mod tests {
    use super::mutf8;

    #[test]
    fn keys_are_encoded_as_documents_store_them() {
        assert_eq!(mutf8("Count"), b"Count");
        assert_eq!(mutf8("é"), "é".as_bytes());
        assert_eq!(mutf8("a\0"), [b'a', 0xc0, 0x80]);
        assert_eq!(mutf8("😀"), [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
    }
}
