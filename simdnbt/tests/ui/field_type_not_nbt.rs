use simdnbt::Deserialize;

struct NotNbt;

#[derive(Deserialize)]
struct Holder {
    value: NotNbt,
}

fn main() {}
