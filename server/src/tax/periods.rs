//! When a rate is in force: from its first day to its last (both included), the last left
//! open while it still is; and the check that a series of periods gives every day from the
//! table's first one exactly one rate, so no day is taxed twice or silently not at all.

use chrono::NaiveDate;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Period {
    from: NaiveDate,
    /// The last day in force; `None` while it still is.
    until: Option<NaiveDate>,
}

impl Period {
    pub(super) fn new(from: NaiveDate, until: Option<NaiveDate>) -> Result<Self, String> {
        match until {
            Some(until) if until < from => Err(format!("it ends on {until}, before it starts")),
            _ => Ok(Self { from, until }),
        }
    }

    pub(super) fn from(self) -> NaiveDate {
        self.from
    }

    pub(super) fn contains(self, date: NaiveDate) -> bool {
        self.from <= date && self.until.is_none_or(|until| date <= until)
    }
}

/// Ok when `periods` cover each day from `start` on exactly once; otherwise the first day
/// covered twice or not at all, in words.
pub(super) fn check_cover(mut periods: Vec<Period>, start: NaiveDate) -> Result<(), String> {
    periods.sort_by_key(|period| period.from);
    // The first day not covered yet; `None` once a period runs to the end.
    let mut next = Some(start);
    for period in periods {
        let day = match next {
            Some(day) if period.from >= day => day,
            // It starts on a day already covered.
            _ => return Err(format!("two rates on {}", period.from)),
        };
        if period.from > day {
            let last_missing = period.from.pred_opt().unwrap_or(day);
            return Err(format!("no rate from {day} to {last_missing}"));
        }
        next = period.until.and_then(|until| until.succ_opt());
    }
    match next {
        None => Ok(()),
        Some(day) => Err(format!(
            "no rate from {day} on (leave effective_until empty on the rate in force)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn period(from: &str, until: Option<&str>) -> Period {
        Period::new(day(from), until.map(day)).unwrap()
    }

    const START: &str = "2020-01-01";

    #[test]
    fn a_period_holds_its_first_and_last_days() {
        let closed = period("2020-01-01", Some("2025-03-31"));
        assert!(closed.contains(day("2020-01-01")));
        assert!(closed.contains(day("2025-03-31")));
        assert!(!closed.contains(day("2025-04-01")));
        assert!(!closed.contains(day("2019-12-31")));
        assert!(period("2025-04-01", None).contains(day("2999-01-01")));
        assert!(Period::new(day("2025-04-01"), Some(day("2025-03-31"))).is_err());
        assert!(Period::new(day("2025-04-01"), Some(day("2025-04-01"))).is_ok());
    }

    #[test]
    fn periods_that_follow_each_other_cover_every_day() {
        let series = vec![
            period("2025-04-01", None),
            period(START, Some("2025-03-31")),
        ];
        assert_eq!(check_cover(series, day(START)), Ok(()));
        assert_eq!(check_cover(vec![period(START, None)], day(START)), Ok(()));
    }

    #[test]
    fn the_first_day_covered_twice_or_not_at_all_is_named() {
        for (series, problem) in [
            (vec![], "no rate from 2020-01-01 on"),
            (
                vec![period("2020-02-01", None)],
                "no rate from 2020-01-01 to 2020-01-31",
            ),
            (
                vec![
                    period(START, Some("2025-03-31")),
                    period("2025-04-02", None),
                ],
                "no rate from 2025-04-01 to 2025-04-01",
            ),
            (
                vec![
                    period(START, Some("2025-04-01")),
                    period("2025-04-01", None),
                ],
                "two rates on 2025-04-01",
            ),
            (
                vec![period(START, None), period("2025-04-01", None)],
                "two rates on 2025-04-01",
            ),
            (
                vec![period(START, Some("2025-03-31"))],
                "no rate from 2025-04-01 on",
            ),
        ] {
            let error = check_cover(series, day(START)).unwrap_err();
            assert!(error.starts_with(problem), "{error}");
        }
    }
}
