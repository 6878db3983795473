//! Number formatting shared by the markdown and the charts.

/// Bytes in a MiB.
pub const MIB: f64 = 1024.0 * 1024.0;

/// Formats a byte rate like criterion does: `MiB/s` below 1 GiB/s,
/// `GiB/s` from there, `KiB/s` for very slow rates.
pub fn throughput(bytes_per_sec: f64) -> String {
    let mib = bytes_per_sec / MIB;
    if mib >= 1024.0 {
        format!("{:.2} GiB/s", mib / 1024.0)
    } else if mib >= 1.0 {
        format!("{mib:.1} MiB/s")
    } else {
        format!("{:.1} KiB/s", bytes_per_sec / 1024.0)
    }
}

/// Formats nanoseconds with a unit that keeps 3–4 significant digits.
pub fn time_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.3} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// Formats a ratio as `0.50×`.
pub fn ratio(r: f64) -> String {
    format!("{r:.2}×")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(throughput(MIB * 512.0), "512.0 MiB/s");
        assert_eq!(throughput(MIB * 2048.0), "2.00 GiB/s");
        assert_eq!(throughput(512.0), "0.5 KiB/s");
        assert_eq!(time_ns(381.01), "381.0 ns");
        assert_eq!(time_ns(1132.5), "1.133 µs");
        assert_eq!(time_ns(2_500_000.0), "2.500 ms");
        assert_eq!(ratio(0.5), "0.50×");
    }
}
