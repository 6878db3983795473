//! The `edit` workload: what a tool or a server saving player data does — read
//! a file, change 10 values, insert 5 keys, remove 2, write it back — for every
//! library with a mutable tree.
//!
//! The edits are chosen once per input (untimed) from its canonical value, so
//! every library makes the same ones ([`EditScript::for_input`]). Values are
//! visited breadth first from the root, in document order, through compounds
//! and lists of compounds:
//!
//! - **change**: the first 10 numbers (strings when there are fewer than 10
//!   numbers), each set to a new value of its own type (numbers +1, strings
//!   with `"!"` appended);
//! - **remove**: the next 2 numbers or strings (a small removal, as when a
//!   tool drops a tag from an item, not a whole subtree);
//! - **insert**: 5 new keys in the root compound, one each of Int, String,
//!   Long, Byte and Double.
//!
//! Keys that occur twice in their compound are never used (map-based libraries
//! keep only one of them).

use std::collections::{HashSet, VecDeque};

use testkit::Value;

/// One step of a path from the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The value of this key of a compound.
    Key(String),
    /// Element `i` of a list of compounds.
    Index(usize),
}

/// A path from the root to a value: steps into compounds and lists of
/// compounds, ending with the value's key.
pub type Path = Vec<Step>;

/// The edits of one input; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct EditScript {
    /// A number or string and its new value (of the same type).
    pub changes: Vec<(Path, Value)>,
    /// New keys of the root compound and their values.
    pub inserts: Vec<(String, Value)>,
    /// Numbers or strings to remove.
    pub removes: Vec<Path>,
}

impl Step {
    /// The key, for the last step of a path.
    pub fn key(&self) -> Result<&str, String> {
        match self {
            Step::Key(k) => Ok(k),
            Step::Index(_) => Err("a path ends with a key".into()),
        }
    }
}

/// A library's mutable compound, as the edit workload walks and edits it.
/// Each peer with a mutable tree implements it for its compound type and makes
/// the script's edits with [`EditScript::edit`]; the steps a library cannot
/// express this way (na_nbt's and simdnbt's own edit APIs) implement the
/// script themselves.
pub trait EditCompound: Sized {
    /// The library's value type.
    type Tag;
    /// The value of `key`.
    fn entry(&mut self, key: &str) -> Option<&mut Self::Tag>;
    /// `tag` as a compound.
    fn compound(tag: &mut Self::Tag) -> Option<&mut Self>;
    /// Element `i` of `tag`, a list of compounds.
    fn element(tag: &mut Self::Tag, i: usize) -> Option<&mut Self>;
    /// Removes `key`; `false` if it is not there.
    fn remove(&mut self, key: &str) -> bool;
    /// Adds a key the compound does not have yet.
    fn insert(&mut self, key: &str, tag: Self::Tag);
    /// The library's value of an edit's value (a number or string).
    fn leaf(v: &Value) -> Result<Self::Tag, String>;
}

/// [`EditCompound::leaf`] for a value enum whose number and string variants
/// are named like the format's tags and hold Rust's own types (`Byte(i8)`,
/// …, `String(String)`).
macro_rules! plain_leaf {
    ($tag:ident) => {
        fn leaf(v: &::testkit::Value) -> Result<Self::Tag, String> {
            use ::testkit::Value as V;
            Ok(match v {
                V::Byte(x) => $tag::Byte(*x),
                V::Short(x) => $tag::Short(*x),
                V::Int(x) => $tag::Int(*x),
                V::Long(x) => $tag::Long(*x),
                V::Float(bits) => $tag::Float(f32::from_bits(*bits)),
                V::Double(bits) => $tag::Double(f64::from_bits(*bits)),
                V::String(s) => $tag::String(s.clone()),
                other => return Err(format!("not an edit value: {other:?}")),
            })
        }
    };
}
pub(crate) use plain_leaf;

/// Values changed per input.
pub const CHANGES: usize = 10;
/// Keys inserted.
pub const INSERTS: usize = 5;
/// Keys removed.
pub const REMOVES: usize = 2;

/// The keys of `entries` that occur once.
fn unique_keys(entries: &[(String, Value)]) -> HashSet<&str> {
    let mut seen = HashSet::new();
    let mut twice = HashSet::new();
    for (k, _) in entries {
        if !seen.insert(k.as_str()) {
            twice.insert(k.as_str());
        }
    }
    seen.retain(|k| !twice.contains(k));
    seen
}

/// The value a change sets `old` to.
fn changed(old: &Value) -> Option<Value> {
    Some(match old {
        Value::Byte(v) => Value::Byte(v.wrapping_add(1)),
        Value::Short(v) => Value::Short(v.wrapping_add(1)),
        Value::Int(v) => Value::Int(v.wrapping_add(1)),
        Value::Long(v) => Value::Long(v.wrapping_add(1)),
        Value::Float(bits) => Value::float(f32::from_bits(*bits) + 1.0),
        Value::Double(bits) => Value::double(f64::from_bits(*bits) + 1.0),
        Value::String(s) => Value::String(format!("{s}!")),
        _ => return None,
    })
}

impl EditScript {
    /// The script for an input (a named root compound), from simdnbt's
    /// canonical reading of it.
    pub fn for_input(input: &[u8]) -> Result<EditScript, String> {
        let doc = (crate::peer("simdnbt_borrow")
            .ok_or("no simdnbt_borrow")?
            .to_canonical)(input)?;
        let Value::Compound(root) = &doc.root else {
            return Err("the root is not a compound".into());
        };
        Ok(Self::for_root(root))
    }

    /// The script for a root compound's entries.
    pub fn for_root(root: &[(String, Value)]) -> EditScript {
        let mut numbers = Vec::new();
        let mut strings = Vec::new();
        let mut queue: VecDeque<(Path, &[(String, Value)])> = VecDeque::new();
        queue.push_back((Vec::new(), root));
        while let Some((path, entries)) = queue.pop_front() {
            let unique = unique_keys(entries);
            for (k, v) in entries {
                if !unique.contains(k.as_str()) {
                    continue;
                }
                let mut p = path.clone();
                p.push(Step::Key(k.clone()));
                match v {
                    Value::Compound(c) => queue.push_back((p, c)),
                    Value::List(l) => {
                        for (i, e) in l.items.iter().enumerate() {
                            if let Value::Compound(c) = e {
                                let mut q = p.clone();
                                q.push(Step::Index(i));
                                queue.push_back((q, c));
                            }
                        }
                    }
                    Value::String(_) => strings.push((p, changed(v).unwrap())),
                    _ => {
                        if let Some(new) = changed(v) {
                            numbers.push((p, new));
                        }
                    }
                }
            }
        }
        // Numbers first, then strings: changes, then removals.
        let mut leaves = numbers.into_iter().chain(strings);
        let changes: Vec<_> = leaves.by_ref().take(CHANGES).collect();
        let removes: Vec<Path> = leaves.take(REMOVES).map(|(p, _)| p).collect();
        let values = [
            Value::Int(1),
            Value::String("inserted value".into()),
            Value::Long(1 << 40),
            Value::Byte(1),
            Value::double(0.5),
        ];
        let inserts = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| (format!("simdnbt_edit_{i}"), v))
            .filter(|(k, _)| !root.iter().any(|(r, _)| r == k))
            .take(INSERTS)
            .collect();
        EditScript {
            changes,
            inserts,
            removes,
        }
    }

    /// Makes the script's edits on a library's root compound: changes, then
    /// removals, then inserts.
    pub fn edit<C: EditCompound>(&self, root: &mut C) -> Result<(), String> {
        for (path, value) in &self.changes {
            let (c, key) = walk(root, path)?;
            *c.entry(key).ok_or("no such key")? = C::leaf(value)?;
        }
        for path in &self.removes {
            let (c, key) = walk(root, path)?;
            if !c.remove(key) {
                return Err("no such key".into());
            }
        }
        for (key, value) in &self.inserts {
            root.insert(key, C::leaf(value)?);
        }
        Ok(())
    }

    /// The entries of the compound that holds the value at `path`, and its key.
    fn parent<'v>(
        root: &'v mut Vec<(String, Value)>,
        path: &'v [Step],
    ) -> (&'v mut Vec<(String, Value)>, &'v str) {
        let (last, steps) = path.split_last().expect("a path has a key");
        let mut entries = root;
        let mut steps = steps.iter().peekable();
        while let Some(step) = steps.next() {
            let Step::Key(key) = step else {
                panic!("an index without a list in {path:?}")
            };
            let value = &mut entries
                .iter_mut()
                .find(|(k, _)| k == key)
                .expect("the path")
                .1;
            entries = match (value, steps.peek()) {
                (Value::Compound(c), _) => c,
                (Value::List(l), Some(Step::Index(i))) => {
                    steps.next();
                    match &mut l.items[*i] {
                        Value::Compound(c) => c,
                        _ => panic!("not a compound in {path:?}"),
                    }
                }
                _ => panic!("the path {path:?} leads nowhere"),
            };
        }
        (entries, last.key().expect("a path ends with a key"))
    }

    /// The script applied to a canonical root compound (the expected result).
    pub fn apply(&self, root: &mut Vec<(String, Value)>) {
        for (path, new) in &self.changes {
            let (entries, key) = Self::parent(root, path);
            entries
                .iter_mut()
                .find(|(k, _)| k == key)
                .expect("the key")
                .1 = new.clone();
        }
        for path in &self.removes {
            let (entries, key) = Self::parent(root, path);
            entries.retain(|(k, _)| k != key);
        }
        for (k, v) in &self.inserts {
            root.push((k.clone(), v.clone()));
        }
    }
}

/// The compound of a library's tree that holds the value at `path`, and the
/// value's key.
fn walk<'c, C: EditCompound>(
    root: &'c mut C,
    path: &'c [Step],
) -> Result<(&'c mut C, &'c str), String> {
    let (last, mut steps) = path.split_last().ok_or("empty path")?;
    let mut c = root;
    while let [Step::Key(key), rest @ ..] = steps {
        let tag = c.entry(key).ok_or("no such key")?;
        (c, steps) = match rest {
            [Step::Index(i), rest @ ..] => {
                (C::element(tag, *i).ok_or("not a list of compounds")?, rest)
            }
            _ => (C::compound(tag).ok_or("not a compound")?, rest),
        };
    }
    Ok((c, last.key()?))
}
