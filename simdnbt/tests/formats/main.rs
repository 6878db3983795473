//! The optional formats, each behind its feature: SNBT, gzip/zlib, region files
//! and Bedrock's little-endian NBT.

#[path = "../support/mod.rs"]
mod support;

mod bedrock;
mod bedrock_document;
mod bedrock_network_document;
mod chunk;
mod compression;
mod deep_text;
mod json;
mod network;
mod prismarine;
mod region;
mod snbt;
