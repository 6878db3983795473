//! `nbt replace --regex`: the replacement text TO, parsed once against the
//! regular expression before any file is read.
//!
//! The rule (sed's, Perl's, JavaScript's and Python's): `$N` is group N,
//! where N is every digit that follows the `$` (`$1_axe` is group 1, then
//! `_axe`; `$12` is group 12); `${N}` and `${name}` are group N and the group
//! named `name` (braces end a number early: `${1}2` is group 1, then `2`);
//! `$$` is one `$`. Any other `$` is an error, and so is a reference to a
//! group FROM does not have: the regex crate's own expansion reads `$1_axe`
//! as a group named `1_axe` and puts nothing in its place, which changed data
//! without a word. A group that exists but took no part in a match gives the
//! empty text.

use regex::{Captures, Regex};

/// One part of a parsed replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Text copied as it is.
    Text(String),
    /// The text of a capture group, by index.
    Group(usize),
}

/// A replacement text, checked against the groups of its regular expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    /// Parses `to` for `regex`; the error names the reference that is wrong.
    pub fn parse(to: &str, regex: &Regex) -> Result<Self, String> {
        let groups = regex.captures_len();
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = to;
        while let Some(at) = rest.find('$') {
            text.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (group, used) = if let Some(tail) = after.strip_prefix('$') {
                text.push('$');
                rest = tail;
                continue;
            } else if let Some(inner) = after.strip_prefix('{') {
                let Some(close) = inner.find('}') else {
                    return Err(format!(
                        "TO has `${{` without its `}}`: `{}` (write `$$` for a literal `$`)",
                        &rest[at..]
                    ));
                };
                let name = &inner[..close];
                let group = if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
                    number(name, groups, &format!("${{{name}}}"))?
                } else if name.is_empty() {
                    return Err("TO has `${}`, which names no group".into());
                } else {
                    named(name, regex)?
                };
                (group, 2 + close + 1)
            } else {
                let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    let next = after.chars().next();
                    return Err(match next {
                        Some(c) if c.is_alphabetic() || c == '_' => {
                            let name: String = after
                                .chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect();
                            format!(
                                "TO has `${name}`: write `${{{name}}}` for the group named \
                                 `{name}`, or `$$` for a literal `$`"
                            )
                        }
                        _ => "TO has a `$` that starts no group reference: write `$$` for a \
                              literal `$`, `$1` or `${name}` for a group"
                            .into(),
                    });
                }
                let number_text = &after[..digits];
                (
                    number(number_text, groups, &format!("${number_text}"))?,
                    1 + digits,
                )
            };
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Group(group));
            rest = &rest[at + used..];
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template { pieces })
    }

    /// Appends the replacement for one match to `out`.
    pub fn expand(&self, caps: &Captures<'_>, out: &mut String) {
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Group(i) => out.push_str(caps.get(*i).map_or("", |m| m.as_str())),
            }
        }
    }

    /// `text` with every match of `regex` replaced.
    pub fn replace_all(&self, regex: &Regex, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for caps in regex.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            out.push_str(&text[last..whole.start()]);
            self.expand(&caps, &mut out);
            last = whole.end();
        }
        out.push_str(&text[last..]);
        out
    }
}

/// Group `digits` (a group the expression has).
fn number(digits: &str, groups: usize, written: &str) -> Result<usize, String> {
    match digits.parse::<usize>() {
        Ok(n) if n < groups => Ok(n),
        _ => {
            let mut message = format!(
                "TO refers to group {written}, but FROM has groups 0 to {} only",
                groups - 1
            );
            if digits.len() > 1 && !written.starts_with("${") {
                let (first, rest) = digits.split_at(1);
                message.push_str(&format!(
                    " (for group {first} followed by `{rest}`, write `${{{first}}}{rest}`)"
                ));
            }
            Err(message + "; write `$$` for a literal `$`")
        }
    }
}

/// The index of the group named `name`.
fn named(name: &str, regex: &Regex) -> Result<usize, String> {
    regex
        .capture_names()
        .position(|n| n == Some(name))
        .ok_or_else(|| {
            format!("TO refers to group `${{{name}}}`, but FROM has no group named `{name}`")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace(from: &str, to: &str, text: &str) -> Result<String, String> {
        let re = Regex::new(from).unwrap();
        Ok(Template::parse(to, &re)?.replace_all(&re, text))
    }

    #[test]
    fn digits_end_where_the_digits_end() {
        let r = |to| replace("minecraft:(.*)_sword", to, "minecraft:diamond_sword");
        assert_eq!(r("minecraft:$1_axe").unwrap(), "minecraft:diamond_axe");
        assert_eq!(r("minecraft:${1}_axe").unwrap(), "minecraft:diamond_axe");
        assert_eq!(r("$0!").unwrap(), "minecraft:diamond_sword!");
        assert_eq!(r("$$1").unwrap(), "$1");
        assert_eq!(r("${1}0").unwrap(), "diamond0");
        let named = replace("(?P<kind>[a-z]+)_sword", "${kind}_axe", "iron_sword");
        assert_eq!(named.unwrap(), "iron_axe");
    }

    #[test]
    fn a_missing_group_or_a_stray_dollar_is_an_error_naming_it() {
        let r = |to| replace("a(b)", to, "ab").unwrap_err();
        assert!(r("$2").contains("group $2"), "{}", r("$2"));
        assert!(r("$10").contains("group $10"), "{}", r("$10"));
        assert!(r("${x}").contains("no group named `x`"), "{}", r("${x}"));
        assert!(r("${9}").contains("group ${9}"), "{}", r("${9}"));
        assert!(r("$name").contains("`${name}`"), "{}", r("$name"));
        assert!(r("5$").contains("`$$`"), "{}", r("5$"));
        assert!(r("${1").contains("without its"), "{}", r("${1"));
        assert!(r("${}").contains("names no group"), "{}", r("${}"));
    }

    /// The rule, written independently of [`Template`]: a regular expression
    /// finds each reference, which is rewritten in the regex crate's braced
    /// form (unambiguous there) and expanded by the regex crate; an invalid
    /// reference is found by the same scan.
    fn reference(token: &Regex, re: &Regex, to: &str, text: &str) -> Option<String> {
        let names: Vec<Option<&str>> = re.capture_names().collect();
        let mut braced = String::new();
        let mut last = 0;
        for t in token.captures_iter(to) {
            let whole = t.get(0).unwrap();
            braced.push_str(&to[last..whole.start()].replace('$', "$$"));
            last = whole.end();
            if t.get(1).is_some() {
                braced.push_str("$$");
            } else if let Some(m) = t.get(2).or(t.get(3)) {
                let name = m.as_str();
                let ok = match name.parse::<usize>() {
                    Ok(n) if name.bytes().all(|b| b.is_ascii_digit()) => n < names.len(),
                    _ => !name.is_empty() && names.contains(&Some(name)),
                };
                if !ok {
                    return None;
                }
                braced.push_str(&format!("${{{name}}}"));
            } else {
                return None;
            }
        }
        braced.push_str(&to[last..]);
        Some(re.replace_all(text, braced.as_str()).into_owned())
    }

    /// A fixed-seed xorshift: the same cases on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn text(&mut self, alphabet: &[&str], most: u64) -> String {
            let len = self.next() % (most + 1);
            (0..len)
                .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize])
                .collect()
        }
    }

    #[test]
    fn expansion_matches_the_reference_rule() {
        let regexes = [
            "a(b)(c)?",
            "(?P<x>a+)(b)",
            "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)",
            "(?P<n1>.)",
            "b",
        ];
        let pieces = [
            "$", "{", "}", "0", "1", "2", "9", "x", "n1", "_", "a", "é", "1_axe",
        ];
        let regexes: Vec<Regex> = regexes.iter().map(|r| Regex::new(r).unwrap()).collect();
        let token = Regex::new(r"\$(?:(\$)|\{([^}]*)\}|([0-9]+)|)").unwrap();
        let mut rng = Rng(0x5eed_1234_abcd_0042);
        let (mut ok, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let re = &regexes[(rng.next() % regexes.len() as u64) as usize];
            let to = rng.text(&pieces, 8);
            let text = rng.text(&["a", "b", "c", "ab", "abc", "d", "aab"], 6);
            let ours = Template::parse(&to, re).map(|t| t.replace_all(re, &text));
            let expected = reference(&token, re, &to, &text);
            assert_eq!(
                ours.as_ref().ok(),
                expected.as_ref(),
                "{re} / {to:?} / {text:?}"
            );
            match ours {
                Ok(_) => ok += 1,
                Err(_) => refused += 1,
            }
        }
        // Both outcomes are exercised, not one of them only.
        assert!(
            ok > 2000 && refused > 2000,
            "{ok} expanded, {refused} refused"
        );
    }
}
