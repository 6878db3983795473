//! Number formatting shared by the headline, the markdown and the charts.

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

/// Formats nanoseconds in ns, µs, ms or s with four significant digits
/// (`381.0 ns`, `1.133 µs`, `500.0 µs`).
pub fn time_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let decimals = if v < 10.0 {
        3
    } else if v < 100.0 {
        2
    } else {
        1
    };
    format!("{v:.decimals$} {unit}")
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
        assert_eq!(time_ns(500_000.0), "500.0 µs");
        assert_eq!(time_ns(12_345.0), "12.35 µs");
        assert_eq!(time_ns(5.0), "5.000 ns");
        assert_eq!(ratio(0.5), "0.50×");
    }
}
