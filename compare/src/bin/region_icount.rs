//! Instruction counts for the region readers (`compare/src/region.rs`), for
//! callgrind, which counts repeatably on a noisy machine:
//!
//! ```text
//! cargo build --release -p compare --bin region_icount
//! valgrind --tool=callgrind --toggle-collect='*region_icount*measured*' \
//!     target/release/region_icount simdnbt_borrow 2
//! ```
//!
//! Readers: the four of `region/read`, their `_inflate` halves, and the
//! `_parse` halves over pre-inflated chunks, and one-shot inflation of every
//! chunk with zlib-rs (`one_shot_zlib_rs`) and miniz_oxide (`one_shot_miniz_oxide`). Only `measured` is counted; one
//! uncounted call warms up first.

use std::hint::black_box;
use std::io::Cursor;
use std::process::ExitCode;

use compare::region::*;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[inline(never)]
fn measured(run: &mut dyn FnMut(), n: u64) {
    for _ in 0..n {
        run();
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [reader, n] = args.as_slice() else {
        eprintln!("usage: region_icount <reader> <iterations>");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("iterations must be a number");
        return ExitCode::from(2);
    };
    let file = corpus::load_as_shipped("1.19.4.mca").expect("corpus region file");
    let chunks = inflated_chunks(file);
    let whole: Option<fn(&[u8]) -> usize> = match reader.as_str() {
        "simdnbt_borrow" => Some(simdnbt_borrow),
        "simdnbt_owned" => Some(simdnbt_owned),
        "fastanvil_fastnbt" => Some(fastanvil_fastnbt),
        "valence" => Some(valence),
        "simdnbt_inflate" => Some(simdnbt_inflate),
        "fastanvil_inflate" => Some(fastanvil_inflate),
        "valence_inflate" => Some(valence_inflate),
        _ => None,
    };
    let mut run: Box<dyn FnMut()> = match (whole, reader.as_str()) {
        (Some(f), _) => Box::new(move || {
            black_box(f(black_box(file)));
        }),
        (None, "one_shot_zlib_rs") => Box::new(move || {
            black_box(inflate_zlib_rs(&zlib_chunks(file)));
        }),
        (None, "one_shot_miniz_oxide") => Box::new(move || {
            black_box(inflate_miniz_oxide(&zlib_chunks(file)));
        }),
        (None, "simdnbt_borrow_parse") => Box::new(|| {
            for c in &chunks {
                black_box(simdnbt::borrow::read(&mut Cursor::new(&c[..])).unwrap());
            }
        }),
        (None, "simdnbt_owned_parse") => Box::new(|| {
            for c in &chunks {
                black_box(simdnbt::owned::read(&mut Cursor::new(&c[..])).unwrap());
            }
        }),
        (None, "fastnbt_parse") => Box::new(|| {
            for c in &chunks {
                black_box(fastnbt::from_bytes::<fastnbt::Value>(c).unwrap());
            }
        }),
        (None, "valence_nbt_parse") => Box::new(|| {
            for c in &chunks {
                black_box(valence_nbt::from_binary::<String>(&mut &c[..]).unwrap());
            }
        }),
        _ => {
            eprintln!("unknown reader {reader}");
            return ExitCode::from(2);
        }
    };
    run();
    measured(&mut *run, n);
    ExitCode::SUCCESS
}
