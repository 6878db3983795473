//! The `bedrock` fuzz target's checks on truncated and byte-flipped copies of
//! every corpus file, in the Java form and both Bedrock forms: the transcoders
//! and the owned readers must answer exactly as the reader does (same inputs
//! accepted, same error kind and offset), and the network hostile table.

/// xorshift: the corruptions are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn corrupted_corpus_files() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for name in corpus::all_names() {
        let java = corpus::load(name).unwrap();
        let java = &java[..java.len().min(64 * 1024)];
        let le = simdnbt::bedrock::to_little_endian(java).ok();
        let net = simdnbt::bedrock::to_network(java).ok();
        for original in [Some(java), le.as_deref(), net.as_deref()]
            .into_iter()
            .flatten()
        {
            for _ in 0..60 {
                let mut bytes = original.to_vec();
                if rng.next() % 3 == 0 {
                    bytes.truncate(rng.next() as usize % bytes.len());
                } else {
                    for _ in 0..1 + rng.next() % 3 {
                        let at = rng.next() as usize % bytes.len();
                        bytes[at] = rng.next() as u8;
                    }
                }
                simdnbt_fuzz_logic::bedrock(&bytes);
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}

#[test]
fn network_hostile_cases() {
    for case in testkit::hostile::network_cases_with_depth(600) {
        simdnbt_fuzz_logic::bedrock(&case.bytes);
    }
}
