//! Compile-time checked SNBT literals for [`simdnbt`].
//!
//! [`snbt!`] parses its string literal as SNBT (Minecraft's text form of NBT)
//! while your crate compiles, with simdnbt's own SNBT parser, and expands to
//! code that builds the owned value: a typo is a compile error at the literal,
//! never a panic at run time, and nothing is parsed when the program runs.
//!
//! ```
//! use simdnbt::owned::{NbtCompound, NbtTag};
//! use simdnbt_macros::{snbt, snbt_compound};
//!
//! let item: NbtCompound = snbt_compound!(r#"{id: "minecraft:stone", Count: 64b, tag: {Damage: 3}}"#);
//! assert_eq!(item.byte("Count"), Some(64));
//! assert_eq!(item.compound("tag").and_then(|t| t.int("Damage")), Some(3));
//!
//! let pos: NbtTag = snbt!("[1.5d, 64.0d, -3.25d]");
//! assert_eq!(pos, simdnbt::snbt::from_str("[1.5d, 64.0d, -3.25d]").unwrap());
//! ```
//!
//! Bad SNBT does not compile; the error says what and where, as
//! [`simdnbt::snbt::from_str`] would at run time:
//!
//! ```compile_fail
//! let bad = simdnbt_macros::snbt!("{a: 1b, b: [1, 2}");
//! // error: invalid SNBT: line 1, column 17: …
//! ```
//!
//! # Why a separate crate
//!
//! The macro runs the SNBT parser, so it depends on `simdnbt`; `simdnbt` in
//! turn depends on its derive crate, so the macro can be neither in
//! `simdnbt-derive` nor re-exported by `simdnbt` (Cargo refuses the cycle).
//! Add both crates; the expansion names `::simdnbt`:
//!
//! ```toml
//! [dependencies]
//! simdnbt = { git = "…" }
//! simdnbt-macros = { git = "…" }
//! ```
//!
//! The literal is parsed by the same code as [`simdnbt::snbt::from_str`]
//! (1.21.5 grammar, depth limit 512, a repeated key keeps its last value);
//! this crate has no parser of its own. `\N{NAME}` escapes need this crate's
//! `unicode-names` feature (simdnbt's `snbt-unicode-names`).
//!
//! Numbers keep their exact bits (floats are built with `from_bits`, so `NaN`
//! payloads and `-0.0` survive) and strings their MUTF-8 bytes.
#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::{Literal, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::{Mutf8Str, Mutf8String};
use syn::LitStr;

/// Parses an SNBT string literal at compile time into a
/// [`simdnbt::owned::NbtTag`] of any type.
///
/// ```
/// use simdnbt::owned::{NbtList, NbtTag};
///
/// assert_eq!(simdnbt_macros::snbt!("7s"), NbtTag::Short(7));
/// assert_eq!(simdnbt_macros::snbt!("[I; 1, 2]"), NbtTag::IntArray(vec![1, 2]));
/// assert_eq!(simdnbt_macros::snbt!("[]"), NbtTag::List(NbtList::Empty));
/// ```
#[proc_macro]
pub fn snbt(input: TokenStream) -> TokenStream {
    expand(input.into(), Want::Tag)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Parses an SNBT string literal that must be a compound, at compile time,
/// into a [`simdnbt::owned::NbtCompound`].
///
/// ```
/// let c = simdnbt_macros::snbt_compound!("{a: 1, b: [\"x\", \"y\"]}");
/// assert_eq!(c.int("a"), Some(1));
/// ```
///
/// ```compile_fail
/// let c = simdnbt_macros::snbt_compound!("[1, 2]"); // not a compound
/// ```
#[proc_macro]
pub fn snbt_compound(input: TokenStream) -> TokenStream {
    expand(input.into(), Want::Compound)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[derive(Clone, Copy, PartialEq)]
enum Want {
    Tag,
    Compound,
}

fn expand(input: TokenStream2, want: Want) -> syn::Result<TokenStream2> {
    let lit: LitStr = syn::parse2(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected one string literal of SNBT, such as \"{a: 1b}\" or r#\"{id: \"x\"}\"#",
        )
    })?;
    let text = lit.value();
    let tag = simdnbt::snbt::from_str(&text).map_err(|e| {
        let hint = match e.kind() {
            // The names come with this crate's own simdnbt, not the user's.
            simdnbt::snbt::ErrorKind::CharacterNamesNotEnabled => {
                " (in `snbt!`: enable simdnbt-macros' `unicode-names` feature)"
            }
            _ => "",
        };
        syn::Error::new(
            span_at(&lit, e.offset()),
            format!("invalid SNBT: {e}{hint}"),
        )
    })?;
    Ok(match (tag, want) {
        (NbtTag::Compound(c), Want::Compound) => Builder::default().compound_expr(&c),
        (tag, Want::Tag) => Builder::default().tag_expr(&tag),
        (tag, Want::Compound) => {
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "expected an SNBT compound `{{…}}`, found {} (use `snbt!` for any tag)",
                    kind_name(&tag)
                ),
            ));
        }
    })
}

/// The span of byte `offset` of the literal's value: the character itself
/// where the compiler can point inside a literal (nightly) and the literal has
/// no escapes (so value and source offsets agree), else the whole literal.
fn span_at(lit: &LitStr, offset: usize) -> Span {
    let source = lit.token().to_string();
    let value = lit.value();
    let prefix = if source.starts_with('"') {
        1
    } else {
        // r"…", r#"…"#, …
        source.find('"').map_or(0, |q| q + 1)
    };
    let end = offset
        + value[offset.min(value.len())..]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
    if source.get(prefix..prefix + value.len()) == Some(value.as_str()) {
        if let Some(span) = lit
            .token()
            .subspan(prefix + offset..prefix + end.max(offset + 1))
        {
            return span;
        }
    }
    lit.span()
}

fn kind_name(tag: &NbtTag) -> &'static str {
    match tag {
        NbtTag::Byte(_) => "a Byte",
        NbtTag::Short(_) => "a Short",
        NbtTag::Int(_) => "an Int",
        NbtTag::Long(_) => "a Long",
        NbtTag::Float(_) => "a Float",
        NbtTag::Double(_) => "a Double",
        NbtTag::ByteArray(_) => "a Byte array",
        NbtTag::String(_) => "a String",
        NbtTag::List(_) => "a List",
        NbtTag::Compound(_) => "a Compound",
        NbtTag::IntArray(_) => "an Int array",
        NbtTag::LongArray(_) => "a Long array",
    }
}

/// Writes the construction of a value as a flat sequence of `let`s, children
/// first, so nesting in the literal (up to the parser's 512 levels) is neither
/// recursion here nor deeply nested code for the compiler to parse.
#[derive(Default)]
struct Builder {
    stmts: Vec<TokenStream2>,
    next_id: usize,
}

/// A container still being written: its children so far.
struct Frame<'a> {
    kind: Kind<'a>,
    next: usize,
    parts: Vec<TokenStream2>,
    /// The key of the entry whose (container) value is being written.
    pending_key: Option<TokenStream2>,
}

enum Kind<'a> {
    /// An `NbtCompound`.
    Compound(Vec<(&'a Mutf8Str, &'a NbtTag)>),
    /// An `NbtList::List`.
    Lists(&'a [NbtList]),
    /// An `NbtList::Compound`.
    Compounds(&'a [NbtCompound]),
}

impl<'a> Kind<'a> {
    fn of_compound(c: &'a NbtCompound) -> Self {
        Kind::Compound(c.iter().collect())
    }

    /// The container kind of a list whose elements are containers.
    fn of_list(l: &'a NbtList) -> Option<Self> {
        match l {
            NbtList::List(v) => Some(Kind::Lists(v)),
            NbtList::Compound(v) => Some(Kind::Compounds(v)),
            _ => None,
        }
    }

    fn is_compound(&self) -> bool {
        matches!(self, Kind::Compound(_))
    }
}

impl Frame<'_> {
    fn new(kind: Kind<'_>) -> Frame<'_> {
        Frame {
            kind,
            next: 0,
            parts: Vec::new(),
            pending_key: None,
        }
    }
}

impl Builder {
    fn tag_expr(mut self, tag: &NbtTag) -> TokenStream2 {
        let root = match tag {
            NbtTag::Compound(c) => {
                let id = self.container(Kind::of_compound(c));
                quote!(::simdnbt::owned::NbtTag::Compound(#id))
            }
            NbtTag::List(l) => match Kind::of_list(l) {
                Some(kind) => {
                    let id = self.container(kind);
                    quote!(::simdnbt::owned::NbtTag::List(#id))
                }
                None => {
                    let list = scalar_list(l);
                    quote!(::simdnbt::owned::NbtTag::List(#list))
                }
            },
            leaf => leaf_tag(leaf),
        };
        self.finish(root)
    }

    fn compound_expr(mut self, c: &NbtCompound) -> TokenStream2 {
        let id = self.container(Kind::of_compound(c));
        self.finish(quote!(#id))
    }

    fn finish(self, root: TokenStream2) -> TokenStream2 {
        let stmts = self.stmts;
        quote!({ #(#stmts)* #root })
    }

    /// Writes the `let`s of a container and its descendants; returns the
    /// name bound to it.
    fn container(&mut self, root: Kind<'_>) -> syn::Ident {
        let mut stack = vec![Frame::new(root)];
        loop {
            let frame = stack.last_mut().expect("the root frame is popped last");
            // The next child: written in place, or a container to descend into.
            let child = match &frame.kind {
                Kind::Compound(entries) => entries.get(frame.next).map(|&(key, tag)| {
                    let key = string(key);
                    match tag {
                        NbtTag::Compound(c) => Err((Some(key), Kind::of_compound(c))),
                        NbtTag::List(l) => match Kind::of_list(l) {
                            Some(kind) => Err((Some(key), kind)),
                            None => {
                                let list = scalar_list(l);
                                Ok(quote!((#key, ::simdnbt::owned::NbtTag::List(#list))))
                            }
                        },
                        leaf => {
                            let leaf = leaf_tag(leaf);
                            Ok(quote!((#key, #leaf)))
                        }
                    }
                }),
                Kind::Lists(lists) => lists.get(frame.next).map(|l| match Kind::of_list(l) {
                    Some(kind) => Err((None, kind)),
                    None => Ok(scalar_list(l)),
                }),
                Kind::Compounds(cs) => cs
                    .get(frame.next)
                    .map(|c| Err((None, Kind::of_compound(c)))),
            };
            match child {
                Some(Ok(part)) => {
                    frame.parts.push(part);
                    frame.next += 1;
                }
                Some(Err((key, kind))) => {
                    frame.pending_key = key;
                    frame.next += 1;
                    stack.push(Frame::new(kind));
                }
                None => {
                    let done = stack.pop().expect("a frame is on the stack");
                    let id = format_ident!("__snbt_{}", self.next_id);
                    self.next_id += 1;
                    let parts = &done.parts;
                    let expr = match done.kind {
                        Kind::Compound(_) => quote! {
                            ::simdnbt::owned::NbtCompound::from_values(::std::vec![#(#parts),*])
                        },
                        Kind::Lists(_) => {
                            quote!(::simdnbt::owned::NbtList::List(::std::vec![#(#parts),*]))
                        }
                        Kind::Compounds(_) => {
                            quote!(::simdnbt::owned::NbtList::Compound(
                                ::std::vec![#(#parts),*]
                            ))
                        }
                    };
                    self.stmts.push(quote!(let #id = #expr;));
                    let Some(parent) = stack.last_mut() else {
                        return id;
                    };
                    let part = match parent.pending_key.take() {
                        // A compound entry: wrap the container in its tag.
                        Some(key) if done.kind.is_compound() => {
                            quote!((#key, ::simdnbt::owned::NbtTag::Compound(#id)))
                        }
                        Some(key) => quote!((#key, ::simdnbt::owned::NbtTag::List(#id))),
                        // A list element: the container itself.
                        None => quote!(#id),
                    };
                    parent.parts.push(part);
                }
            }
        }
    }
}

/// A string's exact MUTF-8 bytes.
fn string(s: &Mutf8Str) -> TokenStream2 {
    let bytes = Literal::byte_string(s.as_bytes());
    quote!(::simdnbt::Mutf8String::from_slice(#bytes))
}

fn mutf8_string(s: &Mutf8String) -> TokenStream2 {
    string(s.as_str())
}

fn bytes(v: &[u8]) -> TokenStream2 {
    let lit = Literal::byte_string(v);
    quote!(<[u8]>::to_vec(#lit))
}

fn f32_bits(v: f32) -> TokenStream2 {
    let bits = Literal::u32_suffixed(v.to_bits());
    quote!(f32::from_bits(#bits))
}

fn f64_bits(v: f64) -> TokenStream2 {
    let bits = Literal::u64_suffixed(v.to_bits());
    quote!(f64::from_bits(#bits))
}

/// A tag that holds no container.
fn leaf_tag(tag: &NbtTag) -> TokenStream2 {
    let value = match tag {
        NbtTag::Byte(v) => quote!(Byte(#v)),
        NbtTag::Short(v) => quote!(Short(#v)),
        NbtTag::Int(v) => quote!(Int(#v)),
        NbtTag::Long(v) => quote!(Long(#v)),
        NbtTag::Float(v) => {
            let v = f32_bits(*v);
            quote!(Float(#v))
        }
        NbtTag::Double(v) => {
            let v = f64_bits(*v);
            quote!(Double(#v))
        }
        NbtTag::ByteArray(v) => {
            let v = bytes(v);
            quote!(ByteArray(#v))
        }
        NbtTag::String(s) => {
            let s = mutf8_string(s);
            quote!(String(#s))
        }
        NbtTag::IntArray(v) => quote!(IntArray(::std::vec![#(#v),*])),
        NbtTag::LongArray(v) => quote!(LongArray(::std::vec![#(#v),*])),
        NbtTag::List(_) | NbtTag::Compound(_) => unreachable!("containers are frames"),
    };
    quote!(::simdnbt::owned::NbtTag::#value)
}

/// A list whose elements are not containers.
fn scalar_list(list: &NbtList) -> TokenStream2 {
    let value = match list {
        NbtList::Empty => return quote!(::simdnbt::owned::NbtList::Empty),
        NbtList::Byte(v) => quote!(Byte(::std::vec![#(#v),*])),
        NbtList::Short(v) => quote!(Short(::std::vec![#(#v),*])),
        NbtList::Int(v) => quote!(Int(::std::vec![#(#v),*])),
        NbtList::Long(v) => quote!(Long(::std::vec![#(#v),*])),
        NbtList::Float(v) => {
            let v = v.iter().map(|&x| f32_bits(x));
            quote!(Float(::std::vec![#(#v),*]))
        }
        NbtList::Double(v) => {
            let v = v.iter().map(|&x| f64_bits(x));
            quote!(Double(::std::vec![#(#v),*]))
        }
        NbtList::ByteArray(v) => {
            let v = v.iter().map(|a| bytes(a));
            quote!(ByteArray(::std::vec![#(#v),*]))
        }
        NbtList::String(v) => {
            let v = v.iter().map(mutf8_string);
            quote!(String(::std::vec![#(#v),*]))
        }
        NbtList::IntArray(v) => {
            let v = v.iter().map(|a| quote!(::std::vec![#(#a),*]));
            quote!(IntArray(::std::vec![#(#v),*]))
        }
        NbtList::LongArray(v) => {
            let v = v.iter().map(|a| quote!(::std::vec![#(#a),*]));
            quote!(LongArray(::std::vec![#(#v),*]))
        }
        NbtList::List(_) | NbtList::Compound(_) => unreachable!("containers are frames"),
    };
    quote!(::simdnbt::owned::NbtList::#value)
}
