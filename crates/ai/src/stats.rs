//! Statistics shared by the tournaments, rollouts and reports.

/// The 95% interval for a share `p` of successes over `n` trials: the usual
/// normal interval, or Wilson's when `p` is 0 or 1. There the normal interval
/// collapses onto the point (200 wins of 200 would read "100%, certainly");
/// Wilson's runs from n / (n + 1.96²) to 1.
pub fn share_95(p: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let n = n.max(1.0);
    if p > 0.0 && p < 1.0 {
        let half = Z * (p * (1.0 - p) / n).sqrt();
        return ((p - half).max(0.0), (p + half).min(1.0));
    }
    // Wilson's interval with p = 0 or 1 reduces to these closed forms.
    let edge = Z * Z / (n + Z * Z);
    if p >= 1.0 {
        (1.0 - edge, 1.0)
    } else {
        (0.0, edge)
    }
}

/// Wilson's 95% score interval for `k` successes in `n` trials (sound at
/// the ends and for small `n`, where the normal interval is not).
pub fn wilson_95(k: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `x` rounded to four decimals, the precision of every share, equity and
/// rate the commands print (more digits would be noise).
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The 50th, 75th, 90th, 95th and 99th percentiles of the positive values
/// (nearest rank below), to four decimals; zeros when there are none. The
/// reviews' grade thresholds were read off these.
pub fn positive_percentiles(values: impl Iterator<Item = f64>) -> [f64; 5] {
    let mut all: Vec<f64> = values.filter(|&v| v > 0.0).collect();
    all.sort_by(f64::total_cmp);
    let mut out = [0.0; 5];
    if !all.is_empty() {
        for (slot, q) in out.iter_mut().zip([0.5, 0.75, 0.9, 0.95, 0.99]) {
            *slot = round4(all[((all.len() - 1) as f64 * q) as usize]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::share_95;

    #[test]
    fn wilson_intervals_match_the_published_values() {
        // 8 of 10: 0.490 to 0.943 (Wilson 1927, as tabulated by Newcombe 1998).
        let (lo, hi) = super::wilson_95(8.0, 10.0);
        assert!(
            (lo - 0.490).abs() < 1e-3 && (hi - 0.943).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = super::wilson_95(0.0, 20.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.161).abs() < 1e-3, "{hi}");
    }

    #[test]
    fn shares_at_the_ends_get_wilson_intervals() {
        let (lo, hi) = share_95(0.5, 100.0);
        assert!((lo - 0.402).abs() < 1e-3 && (hi - 0.598).abs() < 1e-3);
        // 100 of 100: from 100 / (100 + 1.96²) up to 1.
        let (lo, hi) = share_95(1.0, 100.0);
        assert!((lo - 100.0 / (100.0 + 1.96 * 1.96)).abs() < 1e-9, "{lo}");
        assert_eq!(hi, 1.0);
        let (lo, hi) = share_95(0.0, 100.0);
        assert!(lo == 0.0 && (hi - 1.96 * 1.96 / (100.0 + 1.96 * 1.96)).abs() < 1e-9);
    }
}
