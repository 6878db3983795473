//! The derive macros' compile errors: each unsupported shape or attribute is a
//! clear message pointing at the code, never a panic inside the macro.
//! (`TRYBUILD=overwrite cargo test --test derive_errors` refreshes the
//! `.stderr` files after a deliberate change of wording.)

#[test]
fn derive_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
