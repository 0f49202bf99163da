//! Latency figures the benchmarks print: p50, p95 and max of a set of timings.

use std::time::Duration;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

/// Prints `<label> n=.. p50=.. p95=.. p99=.. max=..` in milliseconds, and answers the p99.
pub fn report(label: &str, mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let p99 = percentile(&times, 0.99);
    println!(
        "{label} n={} p50={:>6.2} ms p95={:>6.2} ms p99={:>6.2} ms max={:>6.2} ms",
        times.len(),
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.95)),
        ms(p99),
        ms(times[times.len() - 1]),
    );
    p99
}
