use simdnbt::{Deserialize, FromNbtTag, Serialize, ToNbtTag};

#[derive(Deserialize)]
enum NotAStruct {
    A,
}

#[derive(Serialize)]
struct Pair(i32, i32);

#[derive(FromNbtTag)]
enum WithData {
    A,
    B(i32),
}

#[derive(ToNbtTag)]
struct Named {
    a: i32,
}

#[derive(Deserialize)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
