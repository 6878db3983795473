//! Filter matching (vanilla's `NbtUtils.compareNbt` with partial lists; the
//! rules are in the module docs), with an explicit stack: a filter nests at
//! most 512 levels, but nothing here recurses on it either way.

use super::eval::View;
use super::value::Value;
use crate::owned::NbtCompound;
use crate::tag_id;

/// A comparison in progress: a filter compound or list against a document
/// value of the same type.
enum Frame<'f, V> {
    /// The next filter entry to look up is `next`.
    Compound {
        filter: &'f NbtCompound,
        target: V,
        next: usize,
    },
    /// Filter element `fi` against document element `ti` (the document's
    /// elements collected once).
    List {
        filter: Value<'f>,
        len: usize,
        targets: Vec<V>,
        fi: usize,
        ti: usize,
    },
}

/// Starts comparing `filter` with `target`: a result for leaves and type
/// mismatches, a frame for compounds and non-empty lists.
fn start<'f, V: View>(filter: Value<'f>, target: V) -> Result<Frame<'f, V>, bool> {
    let filter = filter.typed();
    if filter.id() != target.id() {
        return Err(false);
    }
    match filter {
        Value::Compound(c) => Ok(Frame::Compound {
            filter: c,
            target,
            next: 0,
        }),
        Value::List(l) => {
            let target_len = target.len().unwrap_or(0);
            if l.is_empty() {
                return Err(target_len == 0);
            }
            let mut targets = Vec::with_capacity(target_len);
            target.elements(&mut targets);
            for t in &mut targets {
                *t = t.unwrapped();
            }
            Ok(Frame::List {
                filter,
                len: l.len(),
                targets,
                fi: 0,
                ti: 0,
            })
        }
        _ => Err(target.leaf().matched_by(&filter.leaf())),
    }
}

/// Whether `target` matches the filter compound.
pub(super) fn matches<V: View>(filter: &NbtCompound, target: V) -> bool {
    if target.id() != tag_id::COMPOUND {
        return false;
    }
    let mut stack = vec![Frame::Compound {
        filter,
        target,
        next: 0,
    }];
    // The result of the comparison that just finished (`None`: a frame was
    // just pushed and has not looked at anything yet).
    let mut result: Option<bool> = None;
    while let Some(top) = stack.last_mut() {
        let child = match top {
            Frame::Compound {
                filter,
                target,
                next,
            } => {
                if result == Some(false) {
                    stack.pop();
                    continue;
                }
                let Some((key, value)) = filter.values.get(*next) else {
                    stack.pop();
                    result = Some(true);
                    continue;
                };
                *next += 1;
                match target.child(&key.as_str().to_string_lossy()) {
                    Some(t) => start(Value::Tag(value), t),
                    None => Err(false),
                }
            }
            Frame::List {
                filter,
                len,
                targets,
                fi,
                ti,
            } => {
                match result {
                    Some(true) => {
                        *fi += 1;
                        *ti = 0;
                    }
                    Some(false) => *ti += 1,
                    None => {}
                }
                if *fi == *len {
                    stack.pop();
                    result = Some(true);
                    continue;
                }
                let (Some(f), Some(&t)) = (View::element(*filter, *fi), targets.get(*ti)) else {
                    stack.pop();
                    result = Some(false);
                    continue;
                };
                start(f.unwrapped(), t)
            }
        };
        match child {
            Ok(frame) => {
                stack.push(frame);
                result = None;
            }
            Err(r) => result = Some(r),
        }
    }
    result.unwrap_or(false)
}
