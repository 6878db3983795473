//! What a run over many files shows while it works and says at the end: a
//! progress bar on a terminal (nothing on a pipe) and counts.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar counting `total` bytes, drawn on stderr only when it is a
/// terminal (hidden otherwise, so pipes and logs get nothing).
pub fn progress_bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// `1 file`, `2 files`; `1 match`, `2 matches`.
pub fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else if what.ends_with("ch") || what.ends_with('s') {
        format!("{n} {what}es")
    } else {
        format!("{n} {what}s")
    }
}
