//! The owned model ([`crate::owned`]) read from and written to the Bedrock
//! forms directly: the validating core reads the little-endian or network
//! input into the owned builder, with no Java copy in between.
//!
//! Strings become MUTF-8 as the transcoder makes them ([`super`]'s
//! "Strings"): a valid UTF-8 string reads as the same text, any other keeps
//! its bytes.
//!
//! ```
//! use std::io::Cursor;
//! use simdnbt::bedrock;
//! use simdnbt::owned::{BaseNbt, Nbt, NbtCompound, NbtTag};
//!
//! let nbt = Nbt::Some(BaseNbt::new("", NbtCompound::from_values(vec![
//!     ("Name".into(), NbtTag::String("Steve 😀".into())),
//!     ("xp".into(), NbtTag::Long(-5)),
//! ])));
//! let mut net = Vec::new();
//! bedrock::owned::write_network(&nbt, &mut net).unwrap();
//! assert_eq!(bedrock::owned::read_network(&mut Cursor::new(&net[..])).unwrap(), nbt);
//! let mut le = Vec::new();
//! bedrock::owned::write_le(&nbt, &mut le).unwrap();
//! assert_eq!(bedrock::owned::read_le(&mut Cursor::new(&le[..])).unwrap(), nbt);
//! ```

use std::io::Cursor;

use crate::error::{Error, WriteError};
use crate::options::ReadOptions;
use crate::owned::Nbt;
use crate::read::wire::{BigEndian, LittleEndian, VarInt, Wire};

/// Reads a little-endian document (a named root compound, or a lone End)
/// at the cursor and moves the cursor past it, as [`crate::owned::read`]
/// does for the Java form.
///
/// # Errors
/// The first structural problem, with its offset in the input: the errors
/// of [`crate::owned::read`], at the same offsets.
pub fn read_le(data: &mut Cursor<&[u8]>) -> Result<Nbt, Error> {
    read_in::<LittleEndian>(data, &ReadOptions::default())
}

/// [`read_le`] within the limits of `opts`.
pub fn read_le_with(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Nbt, Error> {
    read_in::<LittleEndian>(data, opts)
}

/// Reads a network-form (VarInt) document at the cursor and moves the cursor
/// past it.
///
/// # Errors
/// As [`read_le`], plus
/// [`ErrorKind::InvalidVarInt`](crate::ErrorKind::InvalidVarInt).
pub fn read_network(data: &mut Cursor<&[u8]>) -> Result<Nbt, Error> {
    read_in::<VarInt>(data, &ReadOptions::default())
}

/// [`read_network`] within the limits of `opts`.
pub fn read_network_with(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Nbt, Error> {
    read_in::<VarInt>(data, opts)
}

fn read_in<W: Wire>(data: &mut Cursor<&[u8]>, opts: &ReadOptions) -> Result<Nbt, Error> {
    crate::owned::read_root_in::<W>(data, opts, true)
}

/// Appends `nbt` in the little-endian form.
///
/// Written as Java by [`Nbt::write`], then turned into the Bedrock form by
/// the core: the same checks, so nothing invalid is ever emitted.
///
/// # Errors
/// As [`Nbt::write`] (a string over 65535 bytes once encoded).
pub fn write_le(nbt: &Nbt, out: &mut Vec<u8>) -> Result<(), WriteError> {
    write_in::<LittleEndian>(nbt, out)
}

/// Appends `nbt` in the network (VarInt) form; as [`write_le`].
pub fn write_network(nbt: &Nbt, out: &mut Vec<u8>) -> Result<(), WriteError> {
    write_in::<VarInt>(nbt, out)
}

fn write_in<W: Wire>(nbt: &Nbt, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let mut java = Vec::new();
    nbt.write(&mut java)?;
    // The tree's own depth, not a reader's limit: the writer took it.
    let opts = ReadOptions::default().max_depth(u32::MAX);
    let (form, _) = super::transcode::document::<BigEndian, W>(&java, 0, &opts, true)
        .expect("the Java writer's output is valid NBT");
    out.extend_from_slice(&form);
    Ok(())
}
