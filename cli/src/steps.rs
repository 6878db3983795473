//! Paths built from the root outwards (`diff`, `check`), printed as
//! `simdnbt::path::NbtPath` prints them.

use simdnbt::path::NbtPath;

/// One step of a path, outermost first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A compound key.
    Key(String),
    /// A list or array index.
    Index(usize),
}

/// The path as `NbtPath` prints it; `(root)` for the empty path.
pub fn path_text(steps: &[Step]) -> String {
    if steps.is_empty() {
        return "(root)".into();
    }
    // NbtPath is built innermost first.
    let path = steps.iter().rev().fold(NbtPath::new(), |p, s| match s {
        Step::Key(k) => p.with_key(k.clone()),
        Step::Index(i) => p.with_index(*i),
    });
    path.to_string()
}
