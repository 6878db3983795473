//! placeholder

pub mod report;
