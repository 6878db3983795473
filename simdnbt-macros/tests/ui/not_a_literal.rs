fn main() {
    let text = "{}";
    let _ = simdnbt_macros::snbt!(text);
    let _ = simdnbt_macros::snbt_compound!("[1, 2]");
}
