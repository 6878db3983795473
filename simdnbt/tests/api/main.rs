//! The public API as users meet it: upstream simdnbt 0.10's tests and names
//! (`compat`), the derive macros' compile errors, NBT paths, and the docs'
//! claims about the source tree (`docs`).

#[cfg(feature = "derive")]
mod compat;
#[cfg(feature = "derive")]
mod derive_errors;
mod docs;
mod document_compound;
mod nested_option;
mod owned_compound;
mod path;
mod path_document;
