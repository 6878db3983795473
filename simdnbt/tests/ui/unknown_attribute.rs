use simdnbt::{Deserialize, FromNbtTag};

#[derive(Deserialize)]
struct Field {
    #[simdnbt(renamed = "x")]
    a: i32,
}

#[derive(Deserialize)]
#[simdnbt(deny_unknown_field)]
struct Container {
    a: i32,
}

#[derive(FromNbtTag)]
enum Variant {
    #[simdnbt(flatten)]
    A,
}

fn main() {}
