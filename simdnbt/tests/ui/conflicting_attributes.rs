use simdnbt::{Deserialize, FromNbtTag};

#[derive(Deserialize)]
struct Inner {
    x: i32,
}

#[derive(Deserialize)]
struct FlattenRename {
    #[simdnbt(flatten, rename = "inner")]
    inner: Inner,
}

#[derive(Deserialize)]
struct SameKey {
    a: i32,
    #[simdnbt(rename = "a")]
    b: i32,
}

#[derive(FromNbtTag)]
enum SameName {
    #[simdnbt(rename = "x")]
    A,
    #[simdnbt(rename = "x")]
    B,
}

#[derive(Deserialize)]
struct Twice {
    #[simdnbt(default)]
    #[simdnbt(default)]
    a: i32,
}

fn main() {}
