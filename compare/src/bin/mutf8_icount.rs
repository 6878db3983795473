//! Instruction-count driver for the MUTF-8 codecs (`compare::mutf8_cases`),
//! run under callgrind by `compare/mutf8_icount.sh`:
//!
//! ```text
//! mutf8_icount <simdnbt|simd_cesu8> <decode|decode_lossy|encode> <case> <iterations>
//! ```
//!
//! Only `mutf8_icount_measured` is counted; building the cases is not.

use std::hint::black_box;
use std::process::ExitCode;

use compare::mutf8_cases::{Case, WORKLOADS, Workload, cases};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The counted region: `n` runs of the workload.
#[inline(never)]
fn mutf8_icount_measured(run: Workload, case: &Case, n: u64) -> usize {
    (0..n).map(|_| run(black_box(case))).sum()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [lib, op, name, n] = args.as_slice() else {
        eprintln!("usage: mutf8_icount <library> <operation> <case> <iterations>");
        return ExitCode::from(2);
    };
    let Some(&(_, _, run)) = WORKLOADS.iter().find(|w| w.0 == lib && w.1 == op) else {
        eprintln!("unknown library/operation {lib} {op}");
        return ExitCode::from(2);
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("iterations must be a number");
        return ExitCode::from(2);
    };
    let Some(case) = cases().into_iter().find(|c| c.name == name) else {
        eprintln!("unknown case {name}");
        return ExitCode::from(2);
    };
    // Warm up: CPU feature detection and allocator pages are paid once.
    black_box(mutf8_icount_measured(run, &case, 3));
    black_box(mutf8_icount_measured(run, &case, n));
    ExitCode::SUCCESS
}
