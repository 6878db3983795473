//! `#[simdnbt(...)]` attributes: parsed once, checked for conflicts, with
//! errors pointing at the offending attribute.

use syn::spanned::Spanned;
use syn::{Attribute, Error, LitStr, Path, Result};

/// How a missing field gets its value.
pub enum DefaultWith {
    /// `Default::default()`.
    Trait,
    /// A function: `#[simdnbt(default = "path::to::fn")]`.
    Function(Path),
}

/// Attributes on a struct.
#[derive(Default)]
pub struct ContainerAttrs {
    pub deny_unknown_fields: bool,
    /// `#[simdnbt(default)]`: missing fields come from `Self::default()`.
    pub default: bool,
}

/// Attributes on a named field.
#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<String>,
    pub flatten: bool,
    pub default: Option<DefaultWith>,
    pub skip: bool,
}

/// Attributes on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<String>,
}

fn simdnbt_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("simdnbt"))
}

fn unknown(meta: &syn::meta::ParseNestedMeta, place: &str, known: &str) -> Error {
    let name = meta
        .path
        .get_ident()
        .map_or_else(|| "?".to_string(), |i| i.to_string());
    meta.error(format!(
        "unknown simdnbt attribute `{name}` on {place}; expected {known}"
    ))
}

fn set_flag(flag: &mut bool, meta: &syn::meta::ParseNestedMeta) -> Result<()> {
    if *flag {
        return Err(meta.error("duplicate simdnbt attribute"));
    }
    *flag = true;
    Ok(())
}

fn set_rename(rename: &mut Option<String>, meta: &syn::meta::ParseNestedMeta) -> Result<()> {
    if rename.is_some() {
        return Err(meta.error("duplicate simdnbt attribute `rename`"));
    }
    let lit: LitStr = meta.value()?.parse()?;
    *rename = Some(lit.value());
    Ok(())
}

pub fn container(attrs: &[Attribute]) -> Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for attr in simdnbt_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("deny_unknown_fields") {
                set_flag(&mut out.deny_unknown_fields, &meta)
            } else if meta.path.is_ident("default") {
                set_flag(&mut out.default, &meta)
            } else {
                Err(unknown(
                    &meta,
                    "a struct",
                    "`deny_unknown_fields` or `default`",
                ))
            }
        })?;
    }
    Ok(out)
}

/// A field's attributes; conflicts are reported at `field_span` (its name).
pub fn field(attrs: &[Attribute], field_span: proc_macro2::Span) -> Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in simdnbt_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                set_rename(&mut out.rename, &meta)
            } else if meta.path.is_ident("flatten") {
                set_flag(&mut out.flatten, &meta)
            } else if meta.path.is_ident("skip") {
                set_flag(&mut out.skip, &meta)
            } else if meta.path.is_ident("default") {
                if out.default.is_some() {
                    return Err(meta.error("duplicate simdnbt attribute `default`"));
                }
                out.default = Some(if meta.input.peek(syn::Token![=]) {
                    let lit: LitStr = meta.value()?.parse()?;
                    DefaultWith::Function(lit.parse()?)
                } else {
                    DefaultWith::Trait
                });
                Ok(())
            } else {
                Err(unknown(
                    &meta,
                    "a field",
                    "`rename = \"..\"`, `flatten`, `default`, `default = \"path\"` or `skip`",
                ))
            }
        })?;
    }
    let conflict = |what: &str| Err(Error::new(field_span, what));
    if out.flatten && out.rename.is_some() {
        return conflict("`flatten` and `rename` cannot be combined: a flattened field has no key");
    }
    if out.flatten && out.default.is_some() {
        return conflict(
            "`flatten` and `default` cannot be combined: a flattened field is read from the whole compound",
        );
    }
    if out.skip && (out.flatten || out.rename.is_some()) {
        return conflict(
            "a `skip` field is neither read nor written: `rename` and `flatten` do not apply",
        );
    }
    Ok(out)
}

pub fn variant(attrs: &[Attribute]) -> Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    for attr in simdnbt_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                set_rename(&mut out.rename, &meta)
            } else {
                Err(unknown(&meta, "a variant", "`rename = \"..\"`"))
            }
        })?;
    }
    Ok(out)
}

/// Errors if any `#[simdnbt]` attribute is present where none is meaningful.
pub fn none_allowed(attrs: &[Attribute], place: &str) -> Result<()> {
    match simdnbt_attrs(attrs).next() {
        Some(attr) => Err(Error::new(
            attr.span(),
            format!("simdnbt attributes are not supported on {place}"),
        )),
        None => Ok(()),
    }
}
