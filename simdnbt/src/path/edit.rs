//! `set` and `remove` on owned documents.

use super::{NbtPath, PathError, PathErrorKind};
use crate::owned::{NbtCompound, NbtTag};

pub(super) fn set(
    path: &NbtPath,
    root: &mut NbtCompound,
    value: NbtTag,
) -> Result<usize, PathError> {
    let _ = (root, value);
    Err(PathError::new(path, PathErrorKind::NothingSelected))
}

pub(super) fn remove(path: &NbtPath, root: &mut NbtCompound) -> usize {
    let _ = (path, root);
    0
}
