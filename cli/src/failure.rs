//! The tool's one error type: a message for the user and the exit status.

use std::fmt;

/// Exit status of a failed command: usage, input/output or data errors.
pub const TROUBLE: u8 = 2;
/// Exit status of a negative answer: `check` found invalid files, `get`
/// matched nothing, `diff` found differences.
pub const NO: u8 = 1;

/// Why a command stopped: a sentence for stderr and the exit status.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, naming the input (no `nbt:` prefix).
    pub message: String,
    /// The process exit status.
    pub code: u8,
}

impl Failure {
    /// A failure with exit status [`TROUBLE`].
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: TROUBLE,
        }
    }

    /// A negative answer (exit status [`NO`]) with a message.
    pub fn no(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: NO,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The result of a command.
pub type Result<T> = std::result::Result<T, Failure>;
