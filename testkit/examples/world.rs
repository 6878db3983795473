//! Writes the test world of `testkit::world` to a folder, for the tests that
//! are not in Rust (`cli/tests/python`):
//!
//! ```sh
//! cargo run -p testkit --features world --example world -- DIR
//! ```

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: world DIR");
        return std::process::ExitCode::from(2);
    };
    match testkit::world::assemble(std::path::Path::new(&dir)) {
        Ok(info) => {
            println!(
                "{}: {} region chunks, {} entity chunks",
                info.dir.display(),
                info.region_chunks,
                info.entity_chunks
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("world: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
