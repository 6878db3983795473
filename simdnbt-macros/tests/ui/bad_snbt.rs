fn main() {
    // A bracket that does not close what it should.
    let _ = simdnbt_macros::snbt!("{a: 1b, b: [1, 2}");
    // Unclosed compound.
    let _ = simdnbt_macros::snbt!(r#"{id: "minecraft:stone""#);
    // A byte out of range.
    let _ = simdnbt_macros::snbt!("[B; 300]");
    // A Unicode name without the name tables.
    let _ = simdnbt_macros::snbt!(r#""\N{SNOWMAN}""#);
}
