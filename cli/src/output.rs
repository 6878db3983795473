//! Writing results to stdout or a file.

use std::io::{IsTerminal, Write};

use crate::failure::{Failure, Result};
use crate::input::Place;

/// Writes `bytes` to stdout. A closed pipe (`nbt show x | head`) is not an error.
pub fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::new(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes `bytes` to `place` (`-`: stdout). Binary output is not sent to a terminal.
pub fn write_to(place: &Place, bytes: &[u8], binary: bool) -> Result<()> {
    match place {
        Place::Std => {
            if binary && std::io::stdout().is_terminal() {
                return Err(Failure::new(
                    "not writing binary NBT to a terminal: give -o FILE, or redirect stdout",
                ));
            }
            write_stdout(bytes)
        }
        Place::File(path) => std::fs::write(path, bytes)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", path.display()))),
    }
}
