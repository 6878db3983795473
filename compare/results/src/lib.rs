//! # compare-results: what a run of the compare benchmarks measured
//!
//! Shared by the `compare` bench, which records its run, and the report
//! generator (`compare-report`), which turns one run into `reports/`:
//!
//! - [`criterion`]: reading criterion's `new/benchmark.json` and
//!   `estimates.json` back, with what could not be used;
//! - [`record`]: the run record ([`record::Run`]) the bench writes when it
//!   ends: its results, environment, peers' notes and skips;
//! - [`env`](mod@env): the machine, toolchain, profile and lock file, detected when
//!   the run starts;
//! - [`tables`], [`headline`], [`format`](mod@format): results ranked per file and
//!   workload with ratios, the headline table, number formatting;
//! - [`peers`]: the names the benches use and the packages behind them.
#![deny(missing_docs)]

pub mod criterion;
pub mod env;
pub mod format;
pub mod headline;
pub mod peers;
pub mod record;
pub mod tables;
