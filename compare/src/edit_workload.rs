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
