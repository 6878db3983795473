//! The two functions of the 1.21.5 grammar: `bool(x)` and `uuid(s)`.

use super::error::ErrorKind;
use crate::owned::NbtTag;

/// A function name the grammar knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Builtin {
    Bool,
    Uuid,
}

impl Builtin {
    /// The function called `name` (case-sensitive, as vanilla's table lookup).
    pub(super) fn named(name: &str) -> Option<Builtin> {
        match name {
            "bool" => Some(Builtin::Bool),
            "uuid" => Some(Builtin::Uuid),
            _ => None,
        }
    }

    /// Applies the function; both take exactly one argument.
    pub(super) fn call(self, mut args: Vec<NbtTag>) -> Result<NbtTag, ErrorKind> {
        if args.len() != 1 {
            return Err(ErrorKind::UnknownFunction);
        }
        let arg = args.pop().unwrap_or(NbtTag::Byte(0));
        match self {
            Builtin::Bool => {
                bool_of(&arg)
                    .map(|b| NbtTag::Byte(b as i8))
                    .ok_or(ErrorKind::InvalidArgument(
                        "bool() takes a number or boolean",
                    ))
            }
            Builtin::Uuid => arg
                .string()
                .and_then(|s| s.try_to_str().ok().and_then(|s| parse_uuid(&s)))
                .map(|u| NbtTag::IntArray(u.to_vec()))
                .ok_or(ErrorKind::InvalidArgument("uuid() takes a string UUID")),
        }
    }
}

/// `bool(x)`: a number is true when it is not zero (true/false are already
/// bytes 1/0 here).
fn bool_of(tag: &NbtTag) -> Option<bool> {
    Some(match *tag {
        NbtTag::Byte(v) => v != 0,
        NbtTag::Short(v) => v != 0,
        NbtTag::Int(v) => v != 0,
        NbtTag::Long(v) => v != 0,
        NbtTag::Float(v) => v != 0.0,
        NbtTag::Double(v) => v != 0.0,
        _ => return None,
    })
}

/// Java's `UUID.fromString` shape: at most 36 characters, five groups of hex
/// digits separated by `-`, each group masked to its width (32, 16, 16, 16, 48
/// bits). As four ints, most significant first (vanilla's UUID int array).
pub(super) fn parse_uuid(s: &str) -> Option<[i32; 4]> {
    if s.len() > 36 {
        return None;
    }
    let mut groups = [0u64; 5];
    let mut parts = s.split('-');
    for g in groups.iter_mut() {
        let part = parts.next()?;
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        // Java parses each group as a signed long before masking.
        let v = u64::from_str_radix(part, 16).ok()?;
        if v > i64::MAX as u64 {
            return None;
        }
        *g = v;
    }
    if parts.next().is_some() {
        return None;
    }
    let most = (groups[0] & 0xFFFF_FFFF) << 32 | (groups[1] & 0xFFFF) << 16 | (groups[2] & 0xFFFF);
    let least = (groups[3] & 0xFFFF) << 48 | (groups[4] & 0xFFFF_FFFF_FFFF);
    Some([
        (most >> 32) as i32,
        most as i32,
        (least >> 32) as i32,
        least as i32,
    ])
}
