//! The optional formats, each behind its feature: SNBT, gzip/zlib, region files
//! and Bedrock's little-endian NBT.

#[path = "../support/mod.rs"]
mod support;

mod bedrock;
mod compression;
mod network;
mod region;
mod snbt;
