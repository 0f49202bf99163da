//! Splitting a refund across the parts of a payment in proportion, to the cent.
//!
//! A payment of `whole` cents is made of parts (the professional's share, the platform's
//! fee, the fee's taxes; or the amount before tax and each tax) that add up to `whole`.
//! Each refund gives back some cents of it; this module says how many of each part. The
//! split aims at cumulative targets: after refunds totalling `R`, part `i` should have given
//! back `part_i × R / whole`. A refund gives each part what brings it closest to its target,
//! never less than nothing nor more than the part has left, and the cents of the refund add
//! up exactly. So a payment refunded in several steps ends with every part given back whole,
//! exactly as one full refund would.

/// How many cents of each part a refund of `refund` gives back, after refunds that gave
/// back `given` (per part) already. `parts` add up to the payment; `given[i] <= parts[i]`;
/// `refund` is at most what is left. The answer adds up to `refund`, each share between 0
/// and what that part has left.
pub fn split(parts: &[i64], given: &[i64], refund: i64) -> Vec<i64> {
    assert_eq!(parts.len(), given.len(), "one given amount per part");
    let whole: i64 = parts.iter().sum();
    let given_total: i64 = given.iter().sum();
    let left = |i: usize| parts[i] - given[i];
    assert!(
        refund >= 0 && given_total + refund <= whole,
        "a refund of {refund} after {given_total} exceeds the whole of {whole}"
    );
    if parts.is_empty() || whole == 0 {
        return vec![0; parts.len()];
    }
    let after = i128::from(given_total + refund);
    let whole = i128::from(whole);
    // How far part i would be behind its target, in cents × whole, were it given `share`.
    let behind =
        |i: usize, share: i64| i128::from(parts[i]) * after - i128::from(given[i] + share) * whole;
    // First each part's target rounded down, within what it has left.
    let mut shares: Vec<i64> = (0..parts.len())
        .map(|i| {
            let target = i128::from(parts[i]) * after / whole;
            let wanted = i64::try_from(target).unwrap_or(i64::MAX) - given[i];
            wanted.clamp(0, left(i))
        })
        .collect();
    // Then cents one at a time: taken from the part furthest ahead of its target, or given
    // to the part furthest behind it (with something left), until the shares add up.
    loop {
        let total: i64 = shares.iter().sum();
        if total == refund {
            return shares;
        }
        let pick = if total > refund {
            (0..parts.len())
                .filter(|&i| shares[i] > 0)
                .min_by_key(|&i| (behind(i, shares[i]), std::cmp::Reverse(i)))
        } else {
            (0..parts.len())
                .filter(|&i| shares[i] < left(i))
                .max_by_key(|&i| (behind(i, shares[i]), std::cmp::Reverse(i)))
        };
        // The parts have room for the refund (asserted above), so there always is one.
        let Some(i) = pick else { return shares };
        shares[i] += if total > refund { -1 } else { 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refunds `steps` in turn, checking each split; the cents given back per part.
    fn refund_in_steps(parts: &[i64], steps: &[i64]) -> Vec<i64> {
        let mut given = vec![0; parts.len()];
        for &step in steps {
            let shares = split(parts, &given, step);
            assert_eq!(shares.iter().sum::<i64>(), step, "{parts:?} {steps:?}");
            for (i, share) in shares.iter().enumerate() {
                assert!(
                    *share >= 0,
                    "a part gave back less than nothing: {shares:?}"
                );
                given[i] += share;
                assert!(given[i] <= parts[i], "a part gave back more than it had");
            }
        }
        given
    }

    #[test]
    fn a_full_refund_gives_back_each_part_whole() {
        assert_eq!(
            split(&[8_500, 1_000, 150], &[0, 0, 0], 9_650),
            vec![8_500, 1_000, 150]
        );
    }

    #[test]
    fn a_half_refund_splits_in_proportion() {
        assert_eq!(split(&[8_000, 2_000], &[0, 0], 5_000), vec![4_000, 1_000]);
    }

    #[test]
    fn odd_cents_go_to_the_part_furthest_behind() {
        // 16.5, 9.9 and 6.6: the floors, then a cent each to the two furthest behind.
        assert_eq!(split(&[50, 30, 20], &[0, 0, 0], 33), vec![16, 10, 7]);
        assert_eq!(split(&[1, 1, 1], &[0, 0, 0], 1), vec![1, 0, 0]);
        assert_eq!(split(&[1, 1, 1], &[1, 0, 0], 1), vec![0, 1, 0]);
    }

    #[test]
    fn partial_refunds_end_exactly_at_the_whole() {
        let parts = [10_001, 1_667, 83];
        let whole: i64 = parts.iter().sum();
        assert_eq!(refund_in_steps(&parts, &[1, 1, 1, whole - 3]), parts);
        assert_eq!(refund_in_steps(&parts, &[3_917, 3_917, 3_917]), parts);
        assert_eq!(refund_in_steps(&parts, &[whole]), parts);
    }

    #[test]
    fn every_way_of_refunding_small_payments_stays_whole_and_in_bounds() {
        // Every payment of up to three parts below 7 cents each, refunded cent by cent, in
        // pairs and in a first step of every size then the rest.
        for a in 0..7 {
            for b in 0..7 {
                for c in 0..7 {
                    let parts = [a, b, c];
                    let whole = a + b + c;
                    let cents = vec![1; usize::try_from(whole).unwrap()];
                    assert_eq!(refund_in_steps(&parts, &cents), parts);
                    for first in 0..=whole {
                        assert_eq!(refund_in_steps(&parts, &[first, whole - first]), parts);
                    }
                }
            }
        }
    }

    #[test]
    fn each_refund_keeps_every_part_within_a_cent_of_its_share() {
        let parts = [7_919, 1_187, 178];
        let whole: i64 = parts.iter().sum();
        let mut given = vec![0; 3];
        let mut refunded = 0;
        for step in [13, 977, 2_000, 1, 4_000, 2_293] {
            let shares = split(&parts, &given, step);
            refunded += step;
            for i in 0..3 {
                given[i] += shares[i];
                let exact = parts[i] as f64 * refunded as f64 / whole as f64;
                assert!(
                    (given[i] as f64 - exact).abs() < 1.0 + 1e-9,
                    "{given:?} vs {exact}"
                );
            }
        }
        assert_eq!(refunded, whole);
        assert_eq!(given, parts);
    }

    #[test]
    fn no_parts_no_shares() {
        assert_eq!(split(&[], &[], 0), Vec::<i64>::new());
        assert_eq!(split(&[0, 0], &[0, 0], 0), vec![0, 0]);
    }
}
