//! What both languages share to write money and moments: the amount's parts, the wall time
//! in the reader's zone and the zone's offset. How each language puts them together (the
//! symbol's side, the separators, the month names, the clock) is in its own file.

use chrono::{DateTime, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::Tz;

use super::{HireReceipt, MembershipReceipt, Words};
use crate::domain::{Currency, Money};
use crate::tax::TaxLine;

/// An instant, and the time zone of the one who reads it. Where the zone is unknown it is
/// read in UTC, and the words say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    at: DateTime<Utc>,
    zone: Option<Tz>,
}

impl Moment {
    /// `zone` as the `time_zone` columns hold it: an IANA name, or empty where the place
    /// has none (an unknown name reads as empty).
    pub fn new(at: DateTime<Utc>, zone: &str) -> Self {
        Self {
            at,
            zone: zone.parse().ok(),
        }
    }

    /// For a reader whose zone is unknown (admins).
    pub fn utc(at: DateTime<Utc>) -> Self {
        Self { at, zone: None }
    }

    /// The reader's wall time.
    pub(super) fn wall(self) -> NaiveDateTime {
        match self.zone {
            Some(zone) => zone.from_utc_datetime(&self.at.naive_utc()).naive_local(),
            None => self.at.naive_utc(),
        }
    }

    /// The zone a time is read in: "UTC−7", "UTC−3:30", "UTC+1"; "UTC" where it is unknown.
    pub(super) fn offset(self) -> String {
        let seconds = self.zone.map_or(0, |zone| {
            zone.offset_from_utc_datetime(&self.at.naive_utc())
                .fix()
                .local_minus_utc()
        });
        let sign = if seconds < 0 { '\u{2212}' } else { '+' };
        let (hours, minutes) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
        match (hours, minutes) {
            (0, 0) => "UTC".to_owned(),
            (_, 0) => format!("UTC{sign}{hours}"),
            _ => format!("UTC{sign}{hours}:{minutes:02}"),
        }
    }

    /// What follows a date alone: nothing where the reader's zone is known (the date is
    /// theirs), " (UTC)" where it is not.
    pub(super) fn date_note(self) -> &'static str {
        match self.zone {
            Some(_) => "",
            None => " (UTC)",
        }
    }
}

/// How one language labels a receipt's lines; [`receipt_lines`] and [`hire_receipt_lines`]
/// lay them out. Each label ends with its colon as the language writes it ("Seller: ",
/// "Vendeur : ").
pub(super) struct ReceiptLabels {
    pub heading: &'static str,
    pub seller: &'static str,
    pub date: &'static str,
    pub buyer: &'static str,
    /// The membership's whole line.
    pub description: &'static str,
    /// The whole line, for a month a coupon made free.
    pub free: &'static str,
    pub subtotal: &'static str,
    pub total: &'static str,
    /// Between a tax's name and rate and its amount.
    pub colon: &'static str,
    /// The names of the GST/HST and QST registrations.
    pub programs: (&'static str, &'static str),
    /// A registration's line: the seller's number, or that it is not registered.
    pub registration: fn(program: &str, number: Option<&str>) -> String,
    /// Before the printable receipt's link.
    pub printable: &'static str,
}

/// The seller and its registrations.
fn seller_lines(
    labels: &ReceiptLabels,
    seller: &str,
    (gst_hst_number, qst_number): (Option<&str>, Option<&str>),
) -> Vec<String> {
    let (gst_hst, qst) = labels.programs;
    vec![
        format!("{}{seller}", labels.seller),
        (labels.registration)(gst_hst, gst_hst_number),
        (labels.registration)(qst, qst_number),
    ]
}

/// The subtotal and each tax.
fn tax_lines(
    words: &dyn Words,
    labels: &ReceiptLabels,
    subtotal: Money,
    taxes: &[TaxLine],
) -> Vec<String> {
    let mut lines = vec![format!("{}{}", labels.subtotal, words.money(subtotal))];
    lines.extend(taxes.iter().map(|tax| {
        let (name, rate) = (words.tax_name(tax.name), words.percent(tax.rate));
        format!("{name} {rate}{}{}", labels.colon, words.money(tax.amount))
    }));
    lines
}

/// A membership receipt's lines, in the language of `words` and its `labels`: the seller
/// and its registrations, the date, the buyer, the description, then the subtotal and each
/// tax (or that the month is free), the total and the printable receipt.
pub(super) fn receipt_lines(
    words: &dyn Words,
    buyer: &str,
    receipt: &MembershipReceipt<'_>,
    labels: &ReceiptLabels,
) -> String {
    let mut lines = vec![labels.heading.to_owned()];
    lines.extend(seller_lines(
        labels,
        receipt.seller,
        (receipt.gst_hst_number, receipt.qst_number),
    ));
    lines.extend([
        format!("{}{}", labels.date, words.date(receipt.date)),
        format!("{}{buyer}", labels.buyer),
        labels.description.to_owned(),
    ]);
    if receipt.total.cents().get() == 0 {
        lines.push(labels.free.to_owned());
    } else {
        lines.extend(tax_lines(words, labels, receipt.subtotal, receipt.taxes));
    }
    lines.push(format!("{}{}", labels.total, words.money(receipt.total)));
    if !receipt.link.is_empty() {
        lines.push(format!("{}{}", labels.printable, receipt.link));
    }
    lines.join("\n")
}

/// A hire receipt's auditor's lines: the professional `seller` and their registrations,
/// the subtotal, each tax, the total and the printable receipt.
pub(super) fn hire_receipt_lines(
    words: &dyn Words,
    seller: &str,
    receipt: &HireReceipt<'_>,
    labels: &ReceiptLabels,
) -> String {
    let mut lines = seller_lines(labels, seller, (receipt.gst_hst_number, receipt.qst_number));
    lines.extend(tax_lines(words, labels, receipt.subtotal, receipt.taxes));
    lines.push(format!("{}{}", labels.total, words.money(receipt.total)));
    lines.push(format!("{}{}", labels.printable, receipt.link));
    lines.join("\n")
}

/// "$" or "€".
pub(super) fn symbol(currency: Currency) -> &'static str {
    match currency {
        Currency::Cad => "$",
        Currency::Eur => "€",
    }
}

/// The whole units, in groups of three joined by `separator`, and the cents.
pub(super) fn amount_parts(amount: Money, separator: char) -> (String, i64) {
    let cents = amount.cents().get();
    let digits = (cents / 100).to_string();
    let mut units = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            units.push(separator);
        }
        units.push(digit);
    }
    (units, cents % 100)
}

/// How much of a person's words an email quotes.
pub(super) const EXCERPT_CHARS: usize = 300;

/// How much of a message a push alert shows.
pub(super) const ALERT_EXCERPT_CHARS: usize = 100;

/// The characters of one SMS.
const SMS_CHARS: usize = 160;
/// A quote shorter than this says too little to be worth its room.
const SMS_QUOTE_MIN_CHARS: usize = 15;

/// A text of one SMS quoting the start of `message`: `frame` writes the text around the quote
/// it is given (`quote("…")` puts the marks), and the quote takes the room the rest leaves;
/// none when too little is left (a long name, a long link).
pub(super) fn sms_quoting(
    message: &str,
    quote: impl Fn(&str) -> String,
    frame: impl Fn(&str) -> String,
) -> String {
    let used = frame(&quote("")).chars().count();
    match SMS_CHARS.saturating_sub(used) {
        room if room >= SMS_QUOTE_MIN_CHARS => {
            // One character of the room goes to the "…" of a cut message.
            frame(&quote(&excerpt_of(message, room - 1)))
        }
        _ => frame(""),
    }
}

/// The words whole when they fit in [`EXCERPT_CHARS`], else their start, cut after a whole
/// word, and "…".
pub(super) fn excerpt(text: &str) -> String {
    excerpt_of(text, EXCERPT_CHARS)
}

/// [`excerpt`] within `chars` characters.
pub(super) fn excerpt_of(text: &str, chars: usize) -> String {
    let text = text.trim();
    let Some((cut, _)) = text.char_indices().nth(chars) else {
        return text.to_owned();
    };
    let head = &text[..cut];
    // After a whole word: the last space of the head, unless the text broke at a space.
    let head = match text[cut..].starts_with(char::is_whitespace) {
        true => head,
        false => head
            .rsplit_once(char::is_whitespace)
            .map_or(head, |(start, _)| start),
    };
    format!("{}…", head.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn a_moment_reads_in_its_zone_with_the_offset_of_that_day() {
        let winter = Moment::new(at("2026-12-25T21:30:00Z"), "America/Edmonton");
        assert_eq!(winter.wall().to_string(), "2026-12-25 14:30:00");
        assert_eq!(winter.offset(), "UTC\u{2212}7");
        assert_eq!(winter.date_note(), "");
        let summer = Moment::new(at("2026-07-01T12:00:00Z"), "America/St_Johns");
        assert_eq!(summer.offset(), "UTC\u{2212}2:30");
        let paris = Moment::new(at("2026-12-25T12:00:00Z"), "Europe/Paris");
        assert_eq!(paris.offset(), "UTC+1");
    }

    #[test]
    fn without_a_known_zone_a_moment_reads_in_utc_and_says_so() {
        for zone in ["", "Mars/Olympus"] {
            let moment = Moment::new(at("2026-12-25T21:30:00Z"), zone);
            assert_eq!(moment, Moment::utc(at("2026-12-25T21:30:00Z")));
            assert_eq!(moment.wall().to_string(), "2026-12-25 21:30:00");
            assert_eq!(moment.offset(), "UTC");
            assert_eq!(moment.date_note(), " (UTC)");
        }
    }

    #[test]
    fn an_excerpt_keeps_short_words_and_cuts_long_ones_after_a_word() {
        assert_eq!(excerpt("  Fixed it fast.  "), "Fixed it fast.");
        let fits = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&fits), fits);
        let long = "word ".repeat(100);
        let cut = excerpt(&long);
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= EXCERPT_CHARS + 1, "{cut}");
        // One word longer than the excerpt: cut inside it.
        let one = "a".repeat(EXCERPT_CHARS + 5);
        assert_eq!(excerpt(&one).chars().count(), EXCERPT_CHARS + 1);
    }

    #[test]
    fn units_are_grouped_by_three() {
        let parts = |cents| amount_parts(Money::parse(cents, "CAD").unwrap(), ',');
        assert_eq!(parts(5), ("0".to_owned(), 5));
        assert_eq!(parts(12_050), ("120".to_owned(), 50));
        assert_eq!(parts(123_456), ("1,234".to_owned(), 56));
        assert_eq!(parts(100_000_000), ("1,000,000".to_owned(), 0));
        assert_eq!(symbol(Currency::Eur), "€");
    }
}
