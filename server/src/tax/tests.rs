//! Table tests of the rule over the shipped rates: every province and territory on the last
//! day of Nova Scotia's 15% and the first of its 14%, for both supplies, for a seller
//! registered for GST/HST only, for QST only, for both, or for neither; rounding; a coupon
//! of 100%; and the shipped file's periods, day by day.

use chrono::NaiveDate;

use super::*;
use crate::domain::{Cents, Currency, DiscountPercent, GstHstNumber, Money, Province, QstNumber};

pub(crate) fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

pub(crate) fn cad(cents: i64) -> Money {
    Money::new(Cents::new(cents).unwrap(), Currency::Cad)
}

pub(crate) fn registered(gst_hst: bool, qst: bool) -> Registrations {
    Registrations {
        gst_hst: gst_hst.then(|| GstHstNumber::parse("123456789RT0001").unwrap()),
        qst: qst.then(|| QstNumber::parse("1234567890TQ0001").unwrap()),
    }
}

/// A tax line as a receipt reads it: name, percent, cents.
type Line = (&'static str, &'static str, i64);

/// Which of a fully registered seller's lines another seller keeps.
type Keeps = fn(&Line) -> bool;

fn lines(
    supply: Supply,
    seller: &Registrations,
    place: Province,
    date: NaiveDate,
    base: i64,
) -> Vec<(&'static str, String, i64)> {
    RateTable::shipped()
        .unwrap()
        .taxes(supply, seller, place, date, cad(base))
        .unwrap()
        .into_iter()
        .map(|line| {
            assert_eq!(line.amount.currency(), Currency::Cad);
            (
                line.name.as_str(),
                line.rate.rate_percent(),
                line.amount.cents().get(),
            )
        })
        .collect()
}

const BEFORE: &str = "2025-03-31";
const AFTER: &str = "2025-04-01";

/// What a seller registered for GST/HST and QST charges on $100, on `BEFORE` and `AFTER`.
#[rustfmt::skip]
const ON_100_DOLLARS: [(Province, &[Line], &[Line]); 13] = [
    (Province::Alberta,                 &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::BritishColumbia,         &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::Manitoba,                &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::NewBrunswick,            &[("HST", "15", 1500)], &[("HST", "15", 1500)]),
    (Province::NewfoundlandAndLabrador, &[("HST", "15", 1500)], &[("HST", "15", 1500)]),
    (Province::NovaScotia,              &[("HST", "15", 1500)], &[("HST", "14", 1400)]),
    (Province::NorthwestTerritories,    &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::Nunavut,                 &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::Ontario,                 &[("HST", "13", 1300)], &[("HST", "13", 1300)]),
    (Province::PrinceEdwardIsland,      &[("HST", "15", 1500)], &[("HST", "15", 1500)]),
    (
        Province::Quebec,
        &[("GST", "5", 500), ("QST", "9.975", 998)],
        &[("GST", "5", 500), ("QST", "9.975", 998)],
    ),
    (Province::Saskatchewan,            &[("GST", "5", 500)],   &[("GST", "5", 500)]),
    (Province::Yukon,                   &[("GST", "5", 500)],   &[("GST", "5", 500)]),
];

#[test]
fn every_province_before_and_after_nova_scotias_change_registered_or_not() {
    let every_province: Vec<Province> = ON_100_DOLLARS.iter().map(|(p, _, _)| *p).collect();
    assert_eq!(every_province, Province::ALL);
    let sellers: [(&str, Registrations, Keeps); 4] = [
        ("both", registered(true, true), |_| true),
        ("GST/HST only", registered(true, false), |line| {
            line.0 != "QST"
        }),
        ("QST only", registered(false, true), |line| line.0 == "QST"),
        ("neither", registered(false, false), |_| false),
    ];
    for (province, before, after) in ON_100_DOLLARS {
        for (date, full) in [(BEFORE, before), (AFTER, after)] {
            for supply in Supply::ALL {
                for (who, seller, keeps) in &sellers {
                    let expected: Vec<(&str, String, i64)> = full
                        .iter()
                        .filter(|line| keeps(line))
                        .map(|(name, percent, cents)| (*name, (*percent).to_owned(), *cents))
                        .collect();
                    assert_eq!(
                        lines(supply, seller, province, day(date), 10_000),
                        expected,
                        "{} {date} {} {who}",
                        province.code(),
                        supply.as_str()
                    );
                }
            }
        }
    }
}

#[test]
fn the_issues_two_stories() {
    // A Halifax professional's $29.99 membership: 14% HST, $4.1986 -> $4.20.
    assert_eq!(
        lines(
            Supply::PlatformToProfessional,
            &registered(true, true),
            Province::NovaScotia,
            day("2026-12-02"),
            2_999
        ),
        [("HST", "14".to_owned(), 420)]
    );
    // A $200 job in Montréal by a professional registered for both: $10 and $19.95.
    assert_eq!(
        lines(
            Supply::RepairWork,
            &registered(true, true),
            Province::Quebec,
            day("2026-12-02"),
            20_000
        ),
        [
            ("GST", "5".to_owned(), 1_000),
            ("QST", "9.975".to_owned(), 1_995)
        ]
    );
}

#[test]
fn each_tax_rounds_half_a_cent_up_on_its_own() {
    let seller = registered(true, true);
    let quebec = |base| {
        lines(
            Supply::RepairWork,
            &seller,
            Province::Quebec,
            day(AFTER),
            base,
        )
    };
    for (base, gst, qst) in [
        // 5% of 10 cents is 0.5 and 9.975% is 0.9975: 1 cent each, 2 in all, where
        // 14.975% of the whole would have been 1.4975 cents, 1.
        (10, 1, 1),
        // QST 199.5 cents (exactly half) -> 200; GST 100.
        (2_000, 100, 200),
        // QST 239.49975 -> 239; GST 120.05 -> 120.
        (2_401, 120, 239),
        // QST 159.50025 -> 160; GST 79.95 -> 80.
        (1_599, 80, 160),
        // GST 0.45 -> 0 and 0.55 -> 1.
        (9, 0, 1),
        (11, 1, 1),
    ] {
        let amounts: Vec<i64> = quebec(base)
            .into_iter()
            .map(|(_, _, cents)| cents)
            .collect();
        assert_eq!(amounts, [gst, qst], "{base}");
    }
    let ontario = lines(
        Supply::RepairWork,
        &seller,
        Province::Ontario,
        day(AFTER),
        50,
    );
    assert_eq!(ontario, [("HST", "13".to_owned(), 7)], "6.5 cents");
}

#[test]
fn a_100_percent_coupon_leaves_tax_lines_of_nothing() {
    let price = cad(2_999);
    let base = DiscountPercent::parse(100).unwrap().apply(price);
    assert_eq!(base.cents(), Cents::ZERO);
    let seller = registered(true, true);
    for (province, expected) in [
        (Province::NovaScotia, vec![("HST", "14".to_owned(), 0)]),
        (
            Province::Quebec,
            vec![("GST", "5".to_owned(), 0), ("QST", "9.975".to_owned(), 0)],
        ),
    ] {
        assert_eq!(
            lines(
                Supply::PlatformToProfessional,
                &seller,
                province,
                day(AFTER),
                base.cents().get()
            ),
            expected
        );
    }
}

#[test]
fn a_date_before_the_table_is_refused_not_left_untaxed() {
    let table = RateTable::shipped().unwrap();
    let error = table
        .taxes(
            Supply::RepairWork,
            &registered(true, true),
            Province::Ontario,
            day("2019-12-31"),
            cad(10_000),
        )
        .unwrap_err();
    assert_eq!(
        error,
        TaxError::BeforeTable {
            date: day("2019-12-31"),
            starts: day("2020-01-01")
        }
    );
}

/// Day by day, apart from the reader's own check: in the shipped file each province's
/// GST/HST (and each QST or PST it names) has exactly one rate, for each supply, on every
/// day from 2020-01-01 to the end of 2030.
#[test]
fn the_shipped_periods_never_overlap_and_leave_no_gap_from_2020() {
    let rows = RateTable::shipped().unwrap().rows();
    let days = day("2020-01-01")
        .iter_days()
        .take_while(|d| *d <= day("2030-12-31"));
    let registrations = [Registration::GstHst, Registration::Qst, Registration::Pst];
    for province in Province::ALL {
        for registration in registrations {
            for supply in Supply::ALL {
                let series: Vec<_> = rows
                    .iter()
                    .filter(|row| {
                        row.province == province
                            && row.tax.registration() == registration
                            && row.applies_to.includes(supply)
                    })
                    .collect();
                let named = !series.is_empty();
                assert!(
                    named || registration != Registration::GstHst,
                    "{} has no GST/HST",
                    province.code()
                );
                for date in days.clone() {
                    let in_force = series.iter().filter(|row| row.period.contains(date));
                    assert_eq!(
                        in_force.count(),
                        usize::from(named),
                        "{} {registration} {} on {date}",
                        province.code(),
                        supply.as_str()
                    );
                }
            }
        }
    }
}
