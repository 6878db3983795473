//! SNBT ("stringified NBT"), the text form of NBT used in commands, data packs
//! and logs, with the grammar of Minecraft Java Edition 1.21.5.
//!
//! ```
//! use simdnbt::owned::NbtTag;
//! use simdnbt::snbt;
//!
//! let tag = snbt::from_str(r#"{id: "minecraft:stone", count: 3b, pos: [I; 1, 64, -3]}"#)?;
//! let compound = tag.compound().unwrap();
//! assert_eq!(compound.byte("count"), Some(3));
//! assert_eq!(compound.int_array("pos"), Some(&[1, 64, -3][..]));
//!
//! assert_eq!(snbt::to_string(&tag)?, r#"{id:"minecraft:stone",count:3b,pos:[I;1,64,-3]}"#);
//! // A string that would read as something else stays quoted.
//! assert_eq!(snbt::to_string(&NbtTag::from("true"))?, r#""true""#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`from_str`] reads any tag as the root ([`compound_from_str`] insists on a
//! compound); [`to_string`] and [`to_string_pretty`] print owned, borrowed and
//! [`crate::document`] values (anything [`ToSnbt`]). Text printed here reads back, in vanilla
//! 1.21.5 and in [`from_str`], as the same value, float bits included; the few
//! values that cannot be printed that way are a [`PrintError`] or listed below.
//!
//! # Grammar
//!
//! The rules are those of the game's 1.21.5 SNBT grammar, as the Minecraft
//! wiki describes them; where the wiki is silent the choice is noted.
//!
//! **Values.** A value starting with `0-9`, `+`, `-` or `.` is a number (never an
//! unquoted string); `"` or `'` starts a quoted string, `{` a compound, `[` a
//! list or typed array; anything else is an unquoted string, `true`/`false`, or a
//! function call.
//!
//! **Whitespace** (Java's `Character.isWhitespace`: ASCII space, tab, line
//! breaks, `\x0B`, `\x0C`, `\x1C`–`\x1F` and the Unicode space separators other
//! than no-break spaces) may stand around values, keys, `:` and `,`, after the
//! `;` of a typed array, and at the start and end of the text. It may not stand
//! inside a number, between `[` and `B;`/`I;`/`L;`, or between a function name
//! and its `(`.
//!
//! **Booleans.** `true` and `false`, in any case (`TRUE`, `False`), are bytes 1
//! and 0. As a compound key they are just strings.
//!
//! **Integers.** An optional sign, then decimal digits, `0x` + hex digits or
//! `0b` + binary digits (`x` and `b` in either case), then an optional suffix:
//! a type letter `b` (byte), `s` (short), `i` (int), `l` (long), optionally
//! preceded by `u` (unsigned) or `s` (signed): `ub sb us ss ui si ul sl`;
//! letters in either case. No suffix means int.
//! - `_` may separate digits, but not start or end a run of them (`1_000` yes,
//!   `_1`, `1_`, `0x_1` no).
//! - A leading `0` followed by more digits is an error ("octal is not
//!   supported"): `0`, `0b`, `0x1` are fine, `01` is not.
//! - Hex digits run on greedily: `0x1b` is the int 27, not a byte; write
//!   `0x1ub` for a byte.
//! - Decimal numbers are signed and hex/binary numbers unsigned, unless the
//!   suffix says `s…` or `u…`. An unsigned number may use the whole width and is
//!   stored as the same bits (`255ub` and `0xFFub` are byte -1,
//!   `0xFFFFFFFF` is int -1) but cannot have a minus sign (`-1ub`, `-0x1` are
//!   errors). A signed number must fit the signed range (`128b`,
//!   `0x80000000si` are errors; `-128b` and `-0x80sb` are fine).
//! - Out of range is always an error, never a wrap.
//!
//! **Floats.** An optional sign, then `1.`, `1.5`, `.5` (each with an optional
//! exponent and suffix), `1e5` (optional suffix) or `1f`/`1d`; exponent `e` or
//! `E`, optional sign, digits; `_` between digits as for integers. Suffix `f`
//! is float, `d` or none is double. The value is correctly rounded (as Java's
//! `parseFloat`/`parseDouble`); a result that is not finite (`1e39f`, `1e309`)
//! is an error; underflow gives zero.
//!
//! **NaN and infinities.** The grammar has no syntax for them: `NaNd` and
//! `Infinityd` start with a letter, so they read as the *strings* `"NaNd"` and
//! `"Infinityd"` (vanilla's printer writes them so, and vanilla reads them back
//! as strings too); `-Infinityd` starts with `-` and is an error. The printer
//! refuses NaN and infinite floats ([`PrintError::NonFiniteNumber`]) instead of
//! writing text that would read back as a string.
//!
//! **Quoted strings** in `"…"` or `'…'` hold any characters, line breaks
//! included. Escapes: `\\`, `\'`, `\"` (either quote in either kind of string),
//! `\b`, `\s` (space), `\t`, `\n`, `\f`, `\r`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`
//! (at most U+10FFFF) and `\N{NAME}` (a Unicode character name, in any case;
//! surrounding spaces ignored). Any other escape is an error. `\uD800` gives an
//! unpaired surrogate, stored in MUTF-8 as Java would; `\uD83D\uDE00` gives the
//! same bytes as `😀`. `\N{…}` needs the Unicode name tables: they come from the
//! `unicode_names2` crate with the `snbt-unicode-names` feature (opt-in: about
//! 500 KB of tables and a build-time code generator, for an escape vanilla
//! never writes); without it every `\N{…}` is an
//! [`ErrorKind::CharacterNamesNotEnabled`], whose message names the feature.
//!
//! **Unquoted strings** are runs of `0-9 A-Z a-z _ - . +`. As a value they cannot
//! start with `0-9 + - .` (those are numbers) and are not `true`/`false`; as a
//! compound key any such run is fine (`{1:a}` has key `"1"`).
//!
//! **Compounds** `{key: value, …}`; keys unquoted or quoted. A trailing comma is
//! allowed (`{a:1,}`), an empty entry is not (`{,}`, `{a:1,,}`). A repeated key
//! keeps the last value (vanilla's compound is a map), at the place the key
//! first appeared.
//!
//! **The empty key.** Binary NBT allows `""` as a key, and 1.21.5's
//! heterogeneous lists depend on it, but the game's grammar rejects `""` as a
//! key ("Key cannot be empty"). Here [`from_str`] accepts `""` as a key, so
//! that every document this printer writes reads back exactly; the printer
//! writes `""` only for documents that hold an empty key outside the
//! heterogeneous-list form below, which vanilla 1.21.5 cannot read at all.
//!
//! **Lists** `[value, …]`, trailing comma allowed. Elements of one type make a
//! list of that type. `[]` is a list of End: SNBT cannot say an empty list's
//! element type, so an empty list of another type prints as `[]` and reads
//! back as a list of End (vanilla 1.21.5 writes every empty list so). Elements of different types make
//! a *heterogeneous list*, stored as vanilla 1.21.5 stores it: a list of
//! compounds in which each element that is not a compound, or is a compound
//! with the single key `""`, is wrapped as `{"": value}`; other compounds stay
//! as they are. The printer writes such a list back as the plain list
//! (`[1b, "a", {x: 1}]`) whenever that reads back as the same compounds; when
//! it would not (every unwrapped value of one type, or a wrapper around an
//! ordinary compound), it prints the compounds as they are, with `""` keys.
//!
//! **Typed arrays** `[B; …]`, `[I; …]`, `[L; …]` (upper-case letter, then `;`
//! right after `[`), trailing comma allowed, elements integers only. An element
//! without a type suffix takes the array's type; `[B;` takes only `b`, `[I;`
//! takes `b`, `s`, `i`, `[L;` takes `b`, `s`, `i`, `l`; each element is
//! range-checked as its own type (with the signedness rules above) and then
//! widened: `[B;300]` and `[B;1s]` are errors, `[I;255ub]` is `[I;-1]`.
//!
//! **Functions.** `bool(x)`: byte 1 if the number (or boolean) `x` is not zero,
//! else 0; `uuid(s)`: the string `s` as Java's `UUID.fromString` reads it
//! (five `-`-separated hex groups, at most 36 characters), as the int array of
//! four ints vanilla stores UUIDs as. Names are case-sensitive; any other name
//! or argument count is an error. Arguments are values (nested calls too), with
//! a trailing comma allowed.
//!
//! **Depth.** At most 512 nested compounds, lists and calls, counting the root,
//! as vanilla's limit; deeper is [`ErrorKind::MaxDepthExceeded`]. The parser and
//! the printer keep their own stacks, so no input overflows the thread's stack;
//! the printer refuses a tree deeper than 512 ([`PrintError::MaxDepthExceeded`])
//! rather than write text no reader takes back.
//!
//! **Memory and time.** Parsing is one pass, linear in the text (a list that
//! turns heterogeneous moves its elements, it does not copy them). The tree
//! takes at most about 64 bytes of allocation per byte of text, allocator
//! overhead aside: the worst case `tests/memory/snbt.rs` finds, near that
//! bound, is a heterogeneous list of one-digit numbers and empty strings,
//! where every element becomes a `{"": value}` compound; ordinary text takes
//! far less (each case in `reports/memory.md`, "SNBT").
//!
//! **Not confirmed** against the game (the wiki does not say, and these follow
//! the grammar as best known): whitespace inside `[B;`, a trailing comma in a
//! call's arguments, whether `bool(0.5)` is true (here: it is, the value is not
//! zero), leading and trailing whitespace around the whole text, and that
//! vanilla keeps non-wrapper compounds unwrapped in heterogeneous lists.
//! Java's `UUID.fromString` also takes a `+` or `-` sign inside a group; here
//! groups are hex digits only.
//!
//! # Printing
//!
//! Compact: `{a:1b,b:[1,2],c:"x"}`; pretty ([`to_string_pretty`]): four-space
//! indentation, one compound entry or list element (of lists of compounds and
//! lists) per line, numbers, strings and arrays on one line: `[1, 2]`,
//! `[I; 1, 2]`. Types: `1b`, `1s`, `1`, `1L`, `1.5f`, `1.5d`. Floats and doubles
//! print the shortest text that parses back to the same bits (`ryu`), so `-0.0`
//! and subnormals round-trip. Keys print bare when they are unquoted-string
//! characters starting with a letter or `_` and are not `true`/`false`, else
//! quoted; string values are always quoted, in `"` unless the string holds `"`
//! but no `'`. Inside quotes the quote and `\` are escaped, control characters
//! (C0, DEL, C1) become `\n \t \r \b \f` or `\xHH`, unpaired surrogates
//! `\uDXXX`; other characters are written as UTF-8. A string that is not MUTF-8
//! Java could hold (a raw `FF` byte, an overlong form, a cut-off sequence) is a
//! [`PrintError::InvalidString`]; 4-byte UTF-8 sequences, which are not MUTF-8
//! but which non-Java writers emit, print as their character and so read back
//! as the same text in the 6-byte form Java writes (the one case where the
//! bytes change). Borrowed documents are printed through their
//! owned form ([`crate::borrow::NbtTag::to_owned`]).

mod builtin;
mod error;
mod number;
mod parse;
mod print;
mod string;

#[cfg(test)]
mod differential;

pub use error::{Error, ErrorKind, PrintError};
pub(crate) use parse::parse_value;

use crate::{borrow, document, owned};
use print::Item;

/// Parses SNBT text into a tag of any type.
///
/// ```
/// use simdnbt::owned::{NbtList, NbtTag};
///
/// assert_eq!(simdnbt::snbt::from_str("0xFFub").unwrap(), NbtTag::Byte(-1));
/// assert_eq!(simdnbt::snbt::from_str("[1, 2]").unwrap(), NbtTag::List(NbtList::Int(vec![1, 2])));
/// assert!(simdnbt::snbt::from_str("[B; 300]").is_err());
/// ```
pub fn from_str(text: &str) -> Result<owned::NbtTag, Error> {
    parse::parse(text)
}

/// Parses SNBT text whose root must be a compound.
///
/// ```
/// let c = simdnbt::snbt::compound_from_str("{a: 1, b: 'x'}").unwrap();
/// assert_eq!(c.int("a"), Some(1));
/// assert!(simdnbt::snbt::compound_from_str("[1]").is_err());
/// ```
pub fn compound_from_str(text: &str) -> Result<owned::NbtCompound, Error> {
    match parse::parse(text)? {
        owned::NbtTag::Compound(c) => Ok(c),
        _ => {
            let start = text.len() - text.trim_start().len();
            Err(Error::at(ErrorKind::NotACompound, text, start))
        }
    }
}

/// Prints `value` as compact SNBT.
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
///
/// let mut c = NbtCompound::new();
/// c.insert("x", NbtTag::Float(0.1));
/// assert_eq!(simdnbt::snbt::to_string(&c).unwrap(), "{x:0.1f}");
/// ```
pub fn to_string<T: ToSnbt + ?Sized>(value: &T) -> Result<String, PrintError> {
    value.print_snbt(false, false)
}

/// Prints `value` as SNBT with line breaks and four-space indentation.
///
/// ```
/// let c = simdnbt::snbt::compound_from_str("{a:[1,2],b:{c:'x'}}").unwrap();
/// assert_eq!(
///     simdnbt::snbt::to_string_pretty(&c).unwrap(),
///     "{\n    a: [1, 2],\n    b: {\n        c: \"x\"\n    }\n}"
/// );
/// ```
pub fn to_string_pretty<T: ToSnbt + ?Sized>(value: &T) -> Result<String, PrintError> {
    value.print_snbt(true, false)
}

/// [`to_string_pretty`] with ANSI terminal colours, for showing to a person:
/// keys cyan, strings green, numbers yellow. The escape codes make the text
/// no longer SNBT; without them it is exactly [`to_string_pretty`]'s.
///
/// ```
/// let c = simdnbt::snbt::compound_from_str("{a: 1b}").unwrap();
/// assert_eq!(
///     simdnbt::snbt::to_string_pretty_colored(&c).unwrap(),
///     "{\n    \x1b[36ma\x1b[0m: \x1b[33m1b\x1b[0m\n}"
/// );
/// ```
pub fn to_string_pretty_colored<T: ToSnbt + ?Sized>(value: &T) -> Result<String, PrintError> {
    value.print_snbt(true, true)
}

mod sealed {
    pub trait Sealed {}
}

/// Values [`to_string`] and [`to_string_pretty`] print: owned and borrowed tags,
/// compounds, lists and documents.
pub trait ToSnbt: sealed::Sealed {
    /// Prints as SNBT, compact or pretty, with or without terminal colours.
    #[doc(hidden)]
    fn print_snbt(&self, pretty: bool, color: bool) -> Result<String, PrintError>;
}

macro_rules! to_snbt {
    ($( [$($lt:lifetime),*] $t:ty => |$v:ident| $item:expr; )*) => {$(
        impl<$($lt),*> sealed::Sealed for $t {}
        impl<$($lt),*> ToSnbt for $t {
            fn print_snbt(&self, pretty: bool, color: bool) -> Result<String, PrintError> {
                let $v = self;
                print::print($item, pretty, color)
            }
        }
    )*};
}

to_snbt! {
    [] owned::NbtTag => |v| Item::Tag(v);
    [] owned::NbtCompound => |v| Item::Compound(v);
    [] owned::NbtList => |v| Item::List(v);
    [] owned::BaseNbt => |v| Item::Compound(v);
}

macro_rules! to_snbt_borrowed {
    ($( [$($lt:lifetime),*] $t:ty; )*) => {$(
        impl<$($lt),*> sealed::Sealed for $t {}
        impl<$($lt),*> ToSnbt for $t {
            fn print_snbt(&self, pretty: bool, color: bool) -> Result<String, PrintError> {
                self.to_owned().print_snbt(pretty, color)
            }
        }
    )*};
}

to_snbt_borrowed! {
    ['a, 'tape] borrow::NbtTag<'a, 'tape>;
    ['a, 'tape] borrow::NbtCompound<'a, 'tape>;
    ['a, 'tape] borrow::NbtList<'a, 'tape>;
    ['a] borrow::BaseNbt<'a>;
    ['d] document::NbtTag<'d>;
    ['d] document::NbtCompound<'d>;
    ['d] document::NbtList<'d>;
}

/// A document prints its root value.
impl sealed::Sealed for document::Document {}
impl ToSnbt for document::Document {
    fn print_snbt(&self, pretty: bool, color: bool) -> Result<String, PrintError> {
        self.root().to_owned().print_snbt(pretty, color)
    }
}
