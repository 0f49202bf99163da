//! Each message in both languages: its key parts, money and moments as the reader's
//! language writes them.

use chrono::{DateTime, Utc};

use super::*;
use crate::{
    domain::Language::{English, French},
    tax::{Rate, TaxLine, TaxName},
};

const NBSP: char = '\u{a0}';

fn at(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn cad(cents: i64) -> Money {
    Money::parse(cents, "CAD").unwrap()
}

/// Christmas 2026, 2:30 p.m. in Calgary.
fn christmas_in_calgary() -> Moment {
    Moment::new(at("2026-12-25T21:30:00Z"), "America/Edmonton")
}

/// French writes no straight apostrophe in the product's newer texts.
fn typographic(mail: &Mail) -> bool {
    !mail.subject.contains('\'') && !mail.body.contains('\'')
}

/// Each case in English, then in French.
fn both<T: Copy>(write: impl Fn(&dyn Words, T) -> String, cases: &[(T, &str, &str)]) {
    for &(value, english, french) in cases {
        assert_eq!(write(of(English), value), english);
        assert_eq!(write(of(French), value), french);
    }
}

#[test]
fn money_reads_as_each_language_writes_it() {
    both(
        |words, amount| words.money(amount),
        &[
            (cad(12_000), "$120.00", "120,00\u{a0}$"),
            (cad(7), "$0.07", "0,07\u{a0}$"),
            (
                cad(123_456_789),
                "$1,234,567.89",
                "1\u{a0}234\u{a0}567,89\u{a0}$",
            ),
            (Money::parse(2399, "EUR").unwrap(), "€23.99", "23,99\u{a0}€"),
        ],
    );
}

#[test]
fn dates_read_in_the_reader_s_zone() {
    both(
        |words, moment| words.date(moment),
        &[
            (
                christmas_in_calgary(),
                "December 25, 2026",
                "25 décembre 2026",
            ),
            // 1 a.m. UTC on the 2nd is still the 1st in Calgary; French writes it "1er".
            (
                Moment::new(at("2026-12-02T01:00:00Z"), "America/Edmonton"),
                "December 1, 2026",
                "1er décembre 2026",
            ),
            // No zone known: UTC, and said.
            (
                Moment::utc(at("2026-08-02T01:00:00Z")),
                "August 2, 2026 (UTC)",
                "2 août 2026 (UTC)",
            ),
        ],
    );
}

#[test]
fn times_read_on_the_language_s_clock_with_the_zone() {
    both(
        |words, moment| words.date_time(moment),
        &[
            (
                christmas_in_calgary(),
                "December 25, 2026 at 2:30 p.m. (UTC\u{2212}7)",
                "25 décembre 2026 à 14\u{a0}h\u{a0}30 (UTC\u{2212}7)",
            ),
            (
                Moment::utc(at("2026-03-01T09:00:00Z")),
                "March 1, 2026 at 9:00 a.m. (UTC)",
                "1er mars 2026 à 9\u{a0}h (UTC)",
            ),
            (
                Moment::utc(at("2026-03-01T00:05:00Z")),
                "March 1, 2026 at 12:05 a.m. (UTC)",
                "1er mars 2026 à 0\u{a0}h\u{a0}05 (UTC)",
            ),
        ],
    );
}

#[test]
fn account_emails_carry_the_link_in_both_languages() {
    let link = "http://x/reset-password/1/abc";
    let en = of(English).password_reset("Ana", link);
    assert_eq!(en.subject, "Reset your password");
    assert!(en.body.starts_with("Hello Ana,") && en.body.contains(link));
    let fr = of(French).password_reset("Ana", link);
    assert_eq!(fr.subject, "Réinitialiser votre mot de passe");
    assert!(fr.body.starts_with("Bonjour Ana,") && fr.body.contains(link));

    let link = "http://x/verify-email/abc";
    let en = of(English).email_confirmation("Ana", link);
    assert_eq!(en.subject, "Confirm your email address");
    assert!(en.body.contains("three days") && en.body.contains(link));
    let fr = of(French).email_confirmation("Élise Roy", link);
    assert_eq!(fr.subject, "Confirmez votre adresse courriel");
    assert!(fr.body.starts_with("Bonjour Élise Roy,") && fr.body.contains(link));
}

#[test]
fn the_phone_code_text_names_the_code_in_both_languages() {
    assert_eq!(
        of(English).phone_code("123456"),
        "Your verification code is 123456. It expires in 10 minutes."
    );
    assert_eq!(
        of(French).phone_code("123456"),
        "Votre code de vérification est 123456. Il expire dans 10 minutes."
    );
}

#[test]
fn review_decisions_in_both_languages() {
    let link = "http://127.0.0.1:8080/login-as-professional";
    let en = of(English).profile_approved("Ana", link);
    assert_eq!(en.subject, "Your profile is approved");
    assert!(
        en.body
            .contains(&format!("Sign in to get started:\n{link}"))
    );
    let lien = "http://127.0.0.1:8080/fr/login-as-professional";
    let fr = of(French).profile_approved("Ana", lien);
    assert!(fr.body.contains("approuvé"));
    assert!(
        fr.body
            .contains(&format!("Connectez-vous pour commencer\u{a0}:\n{lien}"))
    );
    let reason = "The licence is unreadable.";
    let en = of(English).registration_denied("Ana", reason);
    assert_eq!(en.subject, "Your registration was denied");
    assert!(en.body.contains(reason));
    let fr = of(French).registration_denied("Ana", reason);
    assert_eq!(fr.subject, "Votre inscription a été refusée");
    assert!(fr.body.contains(reason));
}

#[test]
fn pending_change_decisions_in_both_languages() {
    let reason = "The licence is unreadable.";
    let en = of(English).pending_change_approved("Ana");
    assert_eq!(en.subject, "Your profile change is approved");
    let fr = of(French).pending_change_approved("Ana");
    assert!(fr.subject.contains("approuvée") && quebec(&fr));
    // A refusal keeps them approved; a revoked licence says why their quotes end.
    let en = of(English).pending_change_refused("Ana", reason);
    assert!(en.body.contains(reason) && en.body.contains("keep receiving requests"));
    let fr = of(French).pending_change_refused("Ana", reason);
    assert!(fr.body.contains(reason) && quebec(&fr), "{fr:?}");
    let en = of(English).licence_revoked("Ana", reason);
    assert!(en.body.contains(reason) && en.body.contains("quotes are withdrawn"));
    let fr = of(French).licence_revoked("Ana", reason);
    assert!(fr.body.contains(reason) && fr.body.contains("révoqué") && quebec(&fr));
}

const REQUEST: NewRequest<'static> = NewRequest {
    service: "Plumbing Services",
    city: "Calgary",
    province: "AB",
    distance_km: 12,
    drive_minutes: None,
    emergency: true,
    photos: "3",
    link: "http://127.0.0.1:8080/view-request/abc",
};

#[test]
fn new_request_notices_name_service_city_distance_and_link_never_the_street() {
    for language in [English, French] {
        let mail = of(language).new_request_email("Ana", &REQUEST);
        let text = of(language).new_request_sms(&REQUEST);
        for part in [&mail.subject, &mail.body, &text] {
            assert!(part.contains("Calgary"), "{part}");
        }
        for part in [&mail.body, &text] {
            assert!(part.contains("Plumbing Services"), "{part}");
            assert!(part.contains(REQUEST.link), "{part}");
        }
        assert!(typographic(&mail), "{mail:?}");
        assert!(text.chars().count() <= 160, "{text}");
    }
    let en = of(English).new_request_email("Ana", &REQUEST);
    assert!(en.body.contains("about 12 km from your base") && en.body.contains("right away"));
    assert!(en.body.contains("Photos of the damage: 3."), "{}", en.body);
    let fr = of(French).new_request_email("Ana", &REQUEST);
    assert!(
        fr.body.contains("à environ 12\u{a0}km de chez vous") && fr.body.contains("tout de suite")
    );
    assert!(
        fr.body.contains("Photos des dégâts\u{a0}: 3."),
        "{}",
        fr.body
    );
    for language in [English, French] {
        let alert = of(language).new_request_alert(&REQUEST);
        assert!(alert.body.contains(": 3."), "{}", alert.body);
    }
    let calm = NewRequest {
        emergency: false,
        ..REQUEST
    };
    assert!(
        of(French)
            .new_request_email("Ana", &calm)
            .body
            .contains("quelques jours")
    );
    assert_eq!(
        of(English).new_request_sms(&REQUEST),
        format!(
            "New request: Plumbing Services in Calgary (about 12 km, photos: 3). {}",
            REQUEST.link
        )
    );
}

#[test]
fn a_request_under_a_kilometre_away_is_less_than_1_km_never_about_0() {
    let near = NewRequest {
        distance_km: 0,
        ..REQUEST
    };
    let en = of(English);
    assert!(
        en.new_request_email("Ana", &near)
            .body
            .contains("less than 1 km from your base")
    );
    assert!(
        en.new_request_sms(&near)
            .contains("(less than 1 km, photos: 3)")
    );
    assert!(
        en.new_request_alert(&near)
            .body
            .starts_with("Less than 1 km from you.")
    );
    assert!(
        en.new_request_alert(&REQUEST)
            .body
            .starts_with("About 12 km from you.")
    );
    let fr = of(French);
    assert!(
        fr.new_request_email("Ana", &near)
            .body
            .contains(&format!("à moins de 1{NBSP}km de chez vous"))
    );
    assert!(
        fr.new_request_sms(&near)
            .contains(&format!("(moins de 1{NBSP}km, photos"))
    );
    assert!(
        fr.new_request_alert(&near)
            .body
            .starts_with(&format!("À moins de 1{NBSP}km de vous."))
    );
    for language in [English, French] {
        let words = of(language);
        let all = [
            words.new_request_email("Ana", &near).body,
            words.new_request_sms(&near),
            words.new_request_alert(&near).body,
        ];
        assert!(
            all.iter()
                .all(|text| !text.contains(" 0 km") && !text.contains(" 0\u{a0}km"))
        );
    }
}

#[test]
fn a_cancelled_request_closes_the_quote_in_both_languages() {
    let en = of(English).request_cancelled("Ana", "Plumbing");
    assert_eq!(en.subject, "Request cancelled: Plumbing");
    let fr = of(French).request_cancelled("Ana", "Plomberie");
    assert_eq!(fr.subject, format!("Demande annulée{NBSP}: Plomberie"));
    assert!(fr.body.contains("Votre soumission est close") && typographic(&fr));
}

#[test]
fn a_new_quote_names_the_fee_in_the_reader_s_money_and_the_link() {
    let quote = NewQuote {
        service: "Plumbing",
        professional: "Ana",
        fee: cad(12_050),
        total: cad(12_050),
        link: "http://x/application-list/1",
    };
    let en = of(English).new_quote_email("Bo", &quote);
    assert_eq!(en.subject, "New quote on your request: Plumbing");
    assert!(
        en.body.contains("Ana quoted $120.50 for your request"),
        "{}",
        en.body
    );
    assert!(en.body.contains(quote.link));
    let fr = of(French).new_quote_email("Bo", &quote);
    assert!(fr.subject.starts_with("Nouvelle soumission"));
    assert!(fr.body.contains("pour 120,50\u{a0}$."), "{}", fr.body);
    assert!(!fr.body.contains("CAD") && !en.body.contains("CAD"));
    assert_eq!(
        of(English).new_quote_sms(&quote),
        "New quote (Plumbing): $120.50. http://x/application-list/1"
    );
    assert_eq!(
        of(French).new_quote_sms(&quote),
        "Nouvelle soumission (Plumbing)\u{a0}: 120,50\u{a0}$. http://x/application-list/1"
    );
}

#[test]
fn a_taxed_quote_gives_the_customer_its_total_and_its_fee_before_taxes() {
    let quote = NewQuote {
        service: "Plumbing",
        professional: "Ana",
        fee: cad(20_000),
        total: cad(22_995),
        link: "http://x/application-list/1",
    };
    let en = of(English).new_quote_email("Bo", &quote);
    assert!(
        en.body
            .contains("Ana quoted $229.95 taxes included ($200.00 before taxes)"),
        "{}",
        en.body
    );
    let fr = of(French).new_quote_sms(&quote);
    assert!(
        fr.contains("229,95\u{a0}$ taxes comprises (200,00\u{a0}$ avant taxes)"),
        "{fr}"
    );
    let alert = of(French).new_quote_alert(&quote);
    assert!(
        alert.body.contains("229,95\u{a0}$ taxes comprises"),
        "{}",
        alert.body
    );
}

#[test]
fn a_withdrawn_quote_names_its_professional_in_both_languages() {
    let en = of(English).quote_withdrawn("Bo", "Ana", "Plumbing");
    assert_eq!(en.subject, "Quote withdrawn: Plumbing");
    assert!(en.body.contains("Ana cannot take jobs"));
    let fr = of(French).quote_withdrawn("Bo", "Ana", "Plomberie");
    assert_eq!(fr.subject, format!("Soumission retirée{NBSP}: Plomberie"));
    assert!(fr.body.contains("Ana ne peut pas accepter") && typographic(&fr));
}

#[test]
fn the_hired_professional_reads_the_address_and_phone_in_both_languages() {
    let job = Hired {
        service: "Plumbing",
        customer: "Bo",
        customer_phone: "+14035550100",
        address: "100 8 Ave SW, Calgary, AB T2P 1J9",
        link: "http://x/professional-active-requests",
    };
    for language in [English, French] {
        let mail = of(language).hired("Ana", &job);
        assert!(mail.subject.contains("Plumbing"));
        for part in [job.address, job.customer_phone, job.link, "Bo"] {
            assert!(mail.body.contains(part), "{part}: {}", mail.body);
        }
    }
    assert_eq!(
        of(English).hired("Ana", &job).subject,
        "You are hired: Plumbing"
    );
    assert!(
        of(French)
            .hired("Ana", &job)
            .body
            .contains("Téléphone du client\u{a0}: +14035550100")
    );
}

#[test]
fn unread_messages_are_texted_in_one_sms_quoting_the_first_one_s_start() {
    let texts = vec![
        "Bonjour, je peux passer demain matin vers 8 h si la valve est accessible.".to_owned(),
        "Deuxième".to_owned(),
    ];
    let unread = UnreadMessages {
        service: "Plomberie",
        from: "Marc-André Gagnon",
        texts: &texts,
        count: 2,
        link: "https://repairs.example.ca/user-request-details/0190a6c0-0000-7000-8000-000000000001",
    };
    for language in [English, French] {
        let text = of(language).unread_messages_sms(&unread);
        assert!(
            text.contains(unread.from) && text.contains(unread.link),
            "{text}"
        );
        assert!(
            text.contains("Bonjour, je peux passer") && !text.contains("Deuxième"),
            "{text}"
        );
        assert_one_sms(&text);
    }
    assert!(
        of(French)
            .unread_messages_sms(&unread)
            .starts_with(&format!(
                "Marc-André Gagnon vous a écrit{NBSP}: «{NBSP}Bonjour"
            ))
    );
    // A name and a link that leave no room: the text still tells who wrote, and where.
    let long_name = "Marie-Ève ".repeat(8);
    let long = UnreadMessages {
        from: &long_name,
        ..unread
    };
    for language in [English, French] {
        let text = of(language).unread_messages_sms(&long);
        assert!(
            !text.contains("Bonjour") && text.contains(long.link),
            "{text}"
        );
    }
}

/// One SMS: at most 160 characters.
fn assert_one_sms(text: &str) {
    let chars = text.chars().count();
    assert!(chars <= 160, "{chars} chars: {text}");
}

#[test]
fn the_hire_s_text_names_the_customer_the_service_and_the_link_in_one_sms() {
    let job = Hired {
        service: "Services de plomberie d’urgence",
        customer: "Marie-Ève Tremblay-Gagnon",
        customer_phone: "+14035550100",
        address: "100 8 Ave SW, Calgary, AB T2P 1J9",
        link: "https://repairs.example.ca/professional-active-requests",
    };
    for language in [English, French] {
        let text = of(language).hired_sms(&job);
        for part in [job.service, job.customer, job.link] {
            assert!(text.contains(part), "{part}: {text}");
        }
        // The street stays on the job's page: a text is read on a lock screen.
        assert!(!text.contains(job.address), "{text}");
        assert_one_sms(&text);
    }
    assert!(
        of(French)
            .hired_sms(&job)
            .starts_with("Marie-Ève Tremblay-Gagnon vous a engagé")
    );
}

#[test]
fn a_lost_quote_is_told_in_both_languages() {
    assert_eq!(
        of(English).not_selected("Ana", "Plumbing").subject,
        "Quote not selected: Plumbing"
    );
    let fr = of(French).not_selected("Ana", "Plomberie");
    assert!(fr.subject.contains("non choisie") && typographic(&fr));
}

#[test]
fn a_lapsing_hold_tells_the_customer_when_in_their_zone() {
    let link = "http://x/user-active-requests";
    let lapses = christmas_in_calgary();
    let en = of(English).hold_lapsing("Bo", "Plumbing", lapses, link);
    assert_eq!(en.subject, "Card hold lapses soon: Plumbing");
    assert!(
        en.body
            .contains("lapses on December 25, 2026 at 2:30 p.m. (UTC\u{2212}7)."),
        "{}",
        en.body
    );
    let fr = of(French).hold_lapsing("Bo", "Plomberie", lapses, link);
    assert!(
        fr.body
            .contains("expire le 25 décembre 2026 à 14\u{a0}h\u{a0}30 (UTC\u{2212}7)."),
        "{}",
        fr.body
    );
    assert!(en.body.contains(link) && fr.body.contains(link) && typographic(&fr));
}

#[test]
fn a_lapsing_hold_tells_the_admins_in_utc() {
    let order = LapsingOrder {
        service: "Plumbing",
        customer: "Bo",
        order_id: "0192",
        lapses: Moment::utc(at("2026-12-25T21:30:00Z")),
        link: "http://x/admin/order-history",
    };
    let en = of(English).hold_lapsing_admin("Ada", &order);
    assert_eq!(en.subject, "Card hold lapses soon: order 0192");
    assert!(en.body.contains("December 25, 2026 at 9:30 p.m. (UTC)"));
    let fr = of(French).hold_lapsing_admin("Ada", &order);
    assert!(fr.subject.starts_with("Préautorisation bientôt expirée"));
    assert!(
        fr.body
            .contains("25 décembre 2026 à 21\u{a0}h\u{a0}30 (UTC)")
    );
    for mail in [&en, &fr] {
        assert!(mail.body.contains("0192") && mail.body.contains(order.link));
    }
}

fn tax(name: TaxName, thousandths: u32, cents: i64) -> TaxLine {
    TaxLine {
        name,
        rate: Rate::from_thousandths_percent(thousandths).unwrap(),
        amount: cad(cents),
    }
}

/// A Montréal month: 29.99 $, GST 5% and QST 9.975%, sold on 3 December 2026.
fn montreal_receipt<'a>(taxes: &'a [TaxLine], ends: Moment) -> MembershipReceipt<'a> {
    MembershipReceipt {
        seller: "Repairs Inc.",
        gst_hst_number: Some("123456789RT0001"),
        qst_number: Some("1234567890TQ0001"),
        date: Moment::utc(at("2026-12-03T00:00:00Z")),
        subtotal: cad(2999),
        taxes,
        total: cad(2999 + 150 + 299),
        ends,
        link: "http://x/fr/receipts/p-1",
    }
}

/// A Montréal job of 120.50 $ with GST and QST under the professional's numbers.
fn hire_receipt<'a>(taxes: &'a [TaxLine]) -> HireReceipt<'a> {
    HireReceipt {
        gst_hst_number: Some("123456789RT0001"),
        qst_number: Some("1234567890TQ0001"),
        subtotal: cad(12_050),
        taxes,
        total: cad(12_050 + 603 + 1_202),
        link: "http://x/receipts/p-1",
    }
}

/// Fails unless `mail`'s body holds each of `lines`.
fn assert_holds(mail: &Mail, lines: &[&str]) {
    for line in lines {
        assert!(mail.body.contains(line), "{line:?} in {}", mail.body);
    }
}

#[test]
fn receipts_show_what_a_tax_auditor_asks_for_in_each_language() {
    let end = Moment::new(at("2027-01-03T10:00:00Z"), "America/Toronto");
    let taxes = [tax(TaxName::Gst, 5_000, 150), tax(TaxName::Qst, 9_975, 299)];
    let receipt = montreal_receipt(&taxes, end);
    let fr = of(French).membership_receipt("Ana Roy", &receipt);
    assert_eq!(fr.subject, "Reçu de votre abonnement");
    assert_holds(
        &fr,
        &[
            "Il est actif jusqu’au 3 janvier 2027.",
            "Vendeur\u{a0}: Repairs Inc.",
            "Numéro d’inscription à la TPS/TVH\u{a0}: 123456789RT0001",
            "Numéro d’inscription à la TVQ\u{a0}: 1234567890TQ0001",
            "Date\u{a0}: 3 décembre 2026 (UTC)",
            "Acheteur\u{a0}: Ana Roy",
            "Description\u{a0}: Abonnement professionnel, un mois",
            "Sous-total\u{a0}: 29,99\u{a0}$",
            "TPS 5\u{a0}%\u{a0}: 1,50\u{a0}$",
            "TVQ 9,975\u{a0}%\u{a0}: 2,99\u{a0}$",
            "Total\u{a0}: 34,48\u{a0}$",
        ],
    );
    assert!(quebec(&fr), "{}", fr.body);
    let en = of(English).membership_receipt("Ana Roy", &receipt);
    assert_eq!(en.subject, "Your membership receipt");
    assert_holds(
        &en,
        &[
            "It is active until January 3, 2027.",
            "Seller: Repairs Inc.",
            "GST/HST registration number: 123456789RT0001",
            "QST registration number: 1234567890TQ0001",
            "Date: December 3, 2026 (UTC)",
            "Buyer: Ana Roy",
            "Description: Professional membership, one month",
            "Subtotal: $29.99",
            "GST 5%: $1.50",
            "QST 9.975%: $2.99",
            "Total: $34.48",
        ],
    );
}

#[test]
fn an_unregistered_platform_s_receipt_says_so_and_a_free_month_costs_nothing() {
    let end = Moment::utc(at("2027-01-03T10:00:00Z"));
    let untaxed = MembershipReceipt {
        gst_hst_number: None,
        qst_number: None,
        total: cad(2999),
        ..montreal_receipt(&[], end)
    };
    let en = of(English).membership_receipt("Ana", &untaxed).body;
    assert!(
        en.contains("GST/HST: not registered\nQST: not registered"),
        "{en}"
    );
    assert!(en.contains("Subtotal: $29.99\nTotal: $29.99"), "{en}");
    let fr = of(French).membership_receipt("Ana", &untaxed).body;
    assert!(
        fr.contains("TPS/TVH\u{a0}: aucune inscription\nTVQ\u{a0}: aucune inscription"),
        "{fr}"
    );
    let free = MembershipReceipt {
        subtotal: cad(0),
        total: cad(0),
        ..untaxed
    };
    let en = of(English).membership_receipt("Ana", &free).body;
    assert!(
        en.contains("This month is free with your coupon.\nTotal: $0.00"),
        "{en}"
    );
    let fr = of(French).membership_receipt("Ana", &free).body;
    assert!(
        fr.contains("offert") && fr.contains("Total\u{a0}: 0,00\u{a0}$"),
        "{fr}"
    );
}

#[test]
fn taxes_are_named_and_rated_as_each_language_writes_them() {
    let rate = |thousandths| Rate::from_thousandths_percent(thousandths).unwrap();
    both(
        |words, (name, thousandths)| {
            format!(
                "{} {}",
                words.tax_name(name),
                words.percent(rate(thousandths))
            )
        },
        &[
            ((TaxName::Gst, 5_000), "GST 5%", "TPS 5\u{a0}%"),
            ((TaxName::Hst, 14_000), "HST 14%", "TVH 14\u{a0}%"),
            ((TaxName::Qst, 9_975), "QST 9.975%", "TVQ 9,975\u{a0}%"),
        ],
    );
}

#[test]
fn reminders_name_the_end_in_both_languages() {
    let end = Moment::utc(at("2026-12-23T10:00:00Z"));
    let fr = of(French).membership_reminder("Ana", end);
    assert_eq!(fr.subject, "Votre abonnement se termine bientôt");
    assert!(
        fr.body.contains("se termine le 23 décembre 2026 (UTC)."),
        "{}",
        fr.body
    );
    let en = of(English).membership_reminder("Ana", end);
    assert_eq!(en.subject, "Your membership ends soon");
    assert!(
        en.body.contains("ends on December 23, 2026 (UTC)."),
        "{}",
        en.body
    );
}

#[test]
fn a_contact_message_names_its_sender_in_both_languages() {
    let en = of(English).contact_message("Élise", "elise@example.ca", "Hi!");
    assert_eq!(en.subject, "Contact form: Élise");
    assert_eq!(en.body, "From: Élise <elise@example.ca>\n\nHi!\n");
    let fr = of(French).contact_message("Élise", "elise@example.ca", "Salut");
    assert!(fr.body.contains("elise@example.ca") && fr.body.contains("Salut"));
}

fn problem_reported() -> ProblemReported<'static> {
    ProblemReported {
        service: "Plumbing",
        customer: "Éric",
        professional: "Ana Roy",
        text: "The leak is back under the sink",
        link: "http://x/admin/problems/1",
    }
}

fn problem_resolved(refunded: bool) -> ProblemResolved<'static> {
    ProblemResolved {
        service: "Plumbing",
        note: "Ana will come back on Monday at no charge.",
        refunded,
        link: "http://x/user-view-request/1",
    }
}

#[test]
fn a_problem_after_the_job_is_told_without_blame_in_both_languages() {
    for language in [English, French] {
        let words = of(language);
        let told = words.problem_reported("Ana", &problem_reported());
        assert!(told.body.contains("Éric") && told.body.contains("The leak is back"));
        assert!(told.body.contains("http://x/admin/problems/1"));
        let admin = words.problem_reported_admin("Admin", &problem_reported());
        assert!(admin.body.contains("Ana Roy") && admin.subject.contains("Plumbing"));
        let closed = words.problem_resolved("Éric", &problem_resolved(true));
        assert!(closed.body.contains("Monday at no charge"));
        let plain = words.problem_resolved("Éric", &problem_resolved(false));
        assert!(closed.body.len() > plain.body.len(), "the refund is said");
    }
    assert_eq!(of(English).support(), "Support");
    assert_eq!(of(French).support(), "Soutien");
    let fr = of(French).problem_reported("Ana", &problem_reported());
    assert!(
        fr.subject
            .starts_with("Une question sur un travail terminé")
    );
}

#[test]
fn a_drive_a_router_reckoned_is_told_in_minutes_by_road() {
    let by_road = NewRequest {
        drive_minutes: Some(12),
        ..REQUEST
    };
    assert!(
        of(English)
            .new_request_alert(&by_road)
            .body
            .starts_with("About 12 km from you, about 12 min by road.")
    );
    assert!(
        of(French)
            .new_request_alert(&by_road)
            .body
            .starts_with("À environ 12\u{a0}km de vous, à environ 12\u{a0}min de route.")
    );
    assert!(
        of(English)
            .new_request_sms(&by_road)
            .contains("(about 12 km, about 12 min by road, photos: 3)")
    );
    let started = of(French).trip_started_alert("Marc", "Plomberie", 14);
    assert_eq!(started.title, "Marc est en route");
    assert!(
        started.body.contains("environ 14\u{a0}min"),
        "{}",
        started.body
    );
    assert_eq!(
        of(English).trip_started_sms("Marc", 0, "http://x/r/1"),
        "Marc is on the way: less than 1 min. Follow the arrival: http://x/r/1"
    );
}

/// Every message, written with sample values, in the language of `words`.
fn every_text(words: &dyn Words) -> Vec<String> {
    let when = christmas_in_calgary();
    let request = NewRequest {
        service: "Plumbing",
        city: "Calgary",
        province: "AB",
        distance_km: 4,
        drive_minutes: Some(9),
        emergency: true,
        photos: "2",
        link: "http://x/view-request/1",
    };
    let quote = NewQuote {
        service: "Plumbing",
        professional: "Ana Roy",
        fee: cad(12050),
        total: cad(12050),
        link: "http://x/application-list/1",
    };
    let hired = Hired {
        service: "Plumbing",
        customer: "Éric",
        customer_phone: "+14035550100",
        address: "1 Main St",
        link: "http://x/job/1",
    };
    let order = LapsingOrder {
        service: "Plumbing",
        customer: "Éric",
        order_id: "o-1",
        lapses: when,
        link: "http://x/admin/orders",
    };
    let payment = HirePayment {
        service: "Plumbing",
        professional: "Ana Roy",
        amount: cad(12050),
        order_id: "o-1",
        link: "http://x/user-order-history",
    };
    let paid = JobPaid {
        service: "Plumbing",
        customer: "Éric",
        amount: cad(12050),
        fee: cad(1205),
        net: cad(10845),
        order_id: "o-1",
        paid: when,
        link: "http://x/stripe-connect",
        fee_taxes: &[],
        receipt_link: "http://x/receipts/p-1",
    };
    let review = Reviewed {
        service: "Plumbing",
        customer: "Éric",
        rating: 5,
        text: "Great work",
        link: "http://x/view-professional-profile",
    };
    let taxes = [tax(TaxName::Hst, 14_000, 420)];
    let mails = [
        words.password_reset("Ana", "http://x/reset"),
        words.email_confirmation("Ana", "http://x/confirm"),
        words.profile_approved("Ana", "http://x/login-as-professional"),
        words.registration_denied("Ana", "No licence"),
        words.pending_change_approved("Ana"),
        words.pending_change_refused("Ana", "The licence is unreadable"),
        words.licence_revoked("Ana", "The licence expired"),
        words.new_request_email("Ana", &request),
        words.request_cancelled("Ana", "Plumbing"),
        words.new_quote_email("Éric", &quote),
        words.quote_withdrawn("Éric", "Ana Roy", "Plumbing"),
        words.hired("Ana", &hired),
        words.not_selected("Ana", "Plumbing"),
        words.hold_lapsing("Éric", "Plumbing", when, "http://x/jobs"),
        words.hold_lapsing_admin("Admin", &order),
        words.hold_placed("Éric", &payment, Some(when)),
        words.hold_placed("Éric", &payment, None),
        words.payment_receipt("Éric", &payment, when, &hire_receipt(&taxes)),
        words.refund("Éric", &payment, when, &hire_receipt(&taxes)),
        words.hold_ended("Éric", &payment, HoldEnd::Released, when),
        words.hold_ended("Éric", &payment, HoldEnd::Lapsed, when),
        words.job_paid("Ana", &paid),
        words.reviewed("Ana", &review),
        words.membership_receipt("Ana", &montreal_receipt(&taxes, when)),
        words.membership_receipt(
            "Ana",
            &MembershipReceipt {
                gst_hst_number: None,
                qst_number: None,
                subtotal: cad(0),
                total: cad(0),
                ..montreal_receipt(&[], when)
            },
        ),
        words.membership_reminder("Ana", when),
        words.problem_reported("Ana", &problem_reported()),
        words.problem_reported_admin("Admin", &problem_reported()),
        words.problem_resolved("Éric", &problem_resolved(true)),
        words.problem_resolved("Ana", &problem_resolved(false)),
    ];
    let texts = [
        words.phone_code("1234"),
        words.new_request_sms(&request),
        words.new_quote_sms(&quote),
        words.trip_started_sms("Marc", 14, "http://x/user-view-request/1"),
    ];
    let alerts = [
        words.new_request_alert(&request),
        words.new_request_alert(&NewRequest {
            emergency: false,
            ..request
        }),
        words.new_quote_alert(&quote),
        words.hired_alert("Plumbing", "Éric"),
        words.quote_closed_alert("Plumbing", true),
        words.quote_closed_alert("Plumbing", false),
        words.payment_alert(&payment, PaymentStep::HoldPlaced),
        words.payment_alert(&payment, PaymentStep::Charged),
        words.payment_alert(&payment, PaymentStep::Refunded),
        words.payment_alert(&payment, PaymentStep::HoldEnded(HoldEnd::Released)),
        words.payment_alert(&payment, PaymentStep::HoldEnded(HoldEnd::Lapsed)),
        words.job_paid_alert(&paid),
        words.trip_started_alert("Marc", "Plumbing", 14),
        words.trip_started_alert("Marc", "Plumbing", 0),
        words.trip_arrived_alert("Marc", "Plumbing"),
    ];
    mails
        .into_iter()
        .flat_map(|mail| [mail.subject, mail.body])
        .chain(texts)
        .chain(
            alerts
                .into_iter()
                .flat_map(|alert| [alert.title, alert.body]),
        )
        .collect()
}

/// Whether `text` holds `word` of the glossary's avoid list: a whole word, any case; a
/// trailing `*` allows any ending. Links are paths, not words, and are skipped.
fn holds_word(text: &str, word: &str) -> bool {
    let text: Vec<&str> = text
        .split_whitespace()
        .filter(|token| !token.starts_with("http"))
        .collect();
    let text = text.join(" ");
    let (stem, any_ending) = match word.strip_suffix('*') {
        Some(stem) => (stem.to_lowercase(), true),
        None => (word.to_lowercase(), false),
    };
    let text = text.to_lowercase();
    text.match_indices(&stem).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + stem.len()..].chars().next();
        !before.is_some_and(char::is_alphabetic)
            && (any_ending || !after.is_some_and(char::is_alphabetic))
    })
}

#[test]
fn every_message_uses_the_glossary_s_words() {
    let glossary: serde_json::Value =
        serde_json::from_str(include_str!("../../../web/src/locales/glossary.json")).unwrap();
    for (language, code) in [(English, "en"), (French, "fr")] {
        let avoid: Vec<&str> = glossary["avoid"][code]
            .as_array()
            .unwrap()
            .iter()
            .map(|word| word.as_str().unwrap())
            .collect();
        assert!(!avoid.is_empty());
        for text in every_text(of(language)) {
            let found: Vec<_> = avoid.iter().filter(|w| holds_word(&text, w)).collect();
            assert!(found.is_empty(), "{found:?} in {text:?}");
        }
    }
}

#[test]
fn french_messages_keep_quebec_typography() {
    for text in every_text(of(French)) {
        assert!(!text.contains('\''), "straight apostrophe in {text:?}");
        for sign in [';', '!', '?'] {
            assert!(
                !text.contains(&format!("{NBSP}{sign}")) && !text.contains(&format!(" {sign}")),
                "space before {sign} in {text:?}"
            );
        }
    }
}

#[test]
fn the_glossary_reader_sees_whole_words_only() {
    assert!(holds_word("Nouveau devis", "devis"));
    assert!(holds_word("L’encaissement", "encaiss*"));
    assert!(!holds_word("ils sont avisés", "avis"));
    assert!(!holds_word("appliquer", "applied"));
}

/// French as the web's catalogues write it (web/src/locales/french-typography.ts): the
/// typographic apostrophe, a no-break space before a colon that punctuates, nothing before
/// ; ! ?.
fn quebec(mail: &Mail) -> bool {
    [&mail.subject, &mail.body].iter().all(|text| {
        let chars: Vec<char> = text.chars().collect();
        !text.contains('\'')
            && chars.windows(2).all(|pair| match pair {
                [before, ';' | '!' | '?'] => !before.is_whitespace(),
                _ => true,
            })
            && chars.iter().enumerate().all(|(i, c)| {
                let punctuates = chars.get(i + 1).is_none_or(|next| next.is_whitespace());
                *c != ':' || !punctuates || i > 0 && chars[i - 1] == NBSP
            })
    })
}

/// A hire of 120.50 CAD: what the customer's receipts speak of.
fn hire_payment(link: &'static str) -> HirePayment<'static> {
    HirePayment {
        service: "Plumbing",
        professional: "Élise Roy",
        amount: cad(12_050),
        order_id: "0192-abc",
        link,
    }
}

#[test]
fn the_hold_placed_names_the_amount_the_professional_and_when_it_lapses() {
    let payment = hire_payment("http://x/user-active-requests");
    let lapses = Some(christmas_in_calgary());
    let en = of(English).hold_placed("Bo", &payment, lapses);
    assert_eq!(en.subject, "Card hold placed: Plumbing");
    for part in [
        "You hired Élise Roy for your request (Plumbing). A hold of $120.50 is placed on your card",
        "charged only when you mark the job completed",
        "completed by December 25, 2026 at 2:30 p.m. (UTC\u{2212}7), the hold lapses",
        payment.link,
    ] {
        assert!(en.body.contains(part), "{part}: {}", en.body);
    }
    let fr = of(French).hold_placed("Bo", &payment, lapses);
    assert_eq!(
        fr.subject,
        format!("Préautorisation sur votre carte{NBSP}: Plumbing")
    );
    for part in [
        "Vous avez engagé Élise Roy pour votre demande (Plumbing).",
        "Une préautorisation de 120,50\u{a0}$ est placée sur votre carte",
        "marquez le travail comme terminé",
        "d’ici le 25 décembre 2026 à 14\u{a0}h\u{a0}30 (UTC\u{2212}7), la préautorisation expire",
        payment.link,
    ] {
        assert!(fr.body.contains(part), "{part}: {}", fr.body);
    }
    assert!(quebec(&fr), "{fr:?}");
    // A hold whose end the gateway did not say.
    let unsaid = of(English).hold_placed("Bo", &payment, None);
    assert!(
        unsaid
            .body
            .contains("before the hold lapses, nothing is charged")
    );
    assert!(quebec(&of(French).hold_placed("Bo", &payment, None)));
}

#[test]
fn the_payment_receipt_names_what_was_charged_for_what_to_whom_and_when() {
    let payment = hire_payment("http://x/user-order-history");
    let charged = christmas_in_calgary();
    let job_taxes = [
        tax(TaxName::Gst, 5_000, 603),
        tax(TaxName::Qst, 9_975, 1_202),
    ];
    let receipt = hire_receipt(&job_taxes);
    let en = of(English).payment_receipt("Bo", &payment, charged, &receipt);
    assert_eq!(en.subject, "Your receipt: Plumbing");
    for part in [
        "Receipt number: 0192-abc\n",
        "Service: Plumbing\n",
        "Professional: Élise Roy\n",
        "Amount charged: $120.50\n",
        "Charged on: December 25, 2026 at 2:30 p.m. (UTC\u{2212}7)\n",
        "Seller: Élise Roy\nGST/HST registration number: 123456789RT0001\n",
        "Subtotal: $120.50\nGST 5%: $6.03\nQST 9.975%: $12.02\nTotal: $138.55\n",
        "Printable receipt: http://x/receipts/p-1",
        payment.link,
    ] {
        assert!(en.body.contains(part), "{part}: {}", en.body);
    }
    let fr = of(French).payment_receipt("Bo", &payment, charged, &receipt);
    assert_eq!(fr.subject, format!("Votre reçu{NBSP}: Plumbing"));
    for part in [
        "Numéro de reçu\u{a0}: 0192-abc\n",
        "Travail effectué par\u{a0}: Élise Roy\n",
        "Montant débité\u{a0}: 120,50\u{a0}$\n",
        "Débité le\u{a0}: 25 décembre 2026 à 14\u{a0}h\u{a0}30 (UTC\u{2212}7)\n",
        "Vendeur\u{a0}: Élise Roy\n",
        "TPS 5\u{a0}%\u{a0}: 6,03\u{a0}$\nTVQ 9,975\u{a0}%\u{a0}: 12,02\u{a0}$\n",
        payment.link,
    ] {
        assert!(fr.body.contains(part), "{part}: {}", fr.body);
    }
    assert!(quebec(&fr), "{fr:?}");
}

#[test]
fn a_refund_and_a_hold_s_end_say_how_much_and_when() {
    let payment = hire_payment("http://x/user-order-history");
    let when = christmas_in_calgary();
    let receipt = hire_receipt(&[]);
    let en = of(English).refund("Bo", &payment, when, &receipt);
    assert_eq!(en.subject, "Refund: Plumbing");
    assert!(
        en.body.contains("Amount refunded: $120.50\n"),
        "{}",
        en.body
    );
    assert!(
        en.body
            .contains("Refunded on: December 25, 2026 at 2:30 p.m.")
    );
    let fr = of(French).refund("Bo", &payment, when, &receipt);
    assert_eq!(fr.subject, format!("Remboursement{NBSP}: Plumbing"));
    assert!(
        fr.body.contains("Montant remboursé\u{a0}: 120,50\u{a0}$\n"),
        "{}",
        fr.body
    );
    assert!(quebec(&fr), "{fr:?}");

    let en = of(English).hold_ended("Bo", &payment, HoldEnd::Released, when);
    assert_eq!(en.subject, "Card hold released: Plumbing");
    assert!(
        en.body.contains("The hold of $120.50 on your card for your request (Plumbing) with Élise Roy was released on December 25, 2026"),
        "{}",
        en.body
    );
    assert!(en.body.contains("Your card was not charged."));
    let lapsed = of(English).hold_ended("Bo", &payment, HoldEnd::Lapsed, when);
    assert_eq!(lapsed.subject, "Card hold lapsed: Plumbing");
    assert!(lapsed.body.contains("authorize the card again"));
    for end in [HoldEnd::Released, HoldEnd::Lapsed] {
        let fr = of(French).hold_ended("Bo", &payment, end, when);
        assert!(
            fr.body
                .contains("La préautorisation de 120,50\u{a0}$ sur votre carte"),
            "{}",
            fr.body
        );
        assert!(fr.body.contains("Votre carte n’a pas été débitée."));
        assert!(quebec(&fr), "{fr:?}");
    }
    assert_eq!(
        of(French)
            .hold_ended("Bo", &payment, HoldEnd::Lapsed, when)
            .subject,
        format!("Préautorisation expirée{NBSP}: Plumbing")
    );
}

#[test]
fn the_paid_professional_reads_the_amount_the_fee_and_the_net() {
    let paid = JobPaid {
        service: "Plumbing",
        customer: "Bo",
        amount: cad(9_000),
        fee: cad(1_080),
        net: cad(7_920),
        order_id: "0192-abc",
        paid: christmas_in_calgary(),
        link: "http://x/professional-order-history",
        fee_taxes: &[],
        receipt_link: "http://x/receipts/p-1",
    };
    let en = of(English).job_paid("Ana", &paid);
    assert_eq!(en.subject, "Job paid: Plumbing");
    for part in [
        "Job amount: $90.00\n",
        "Platform fee: $10.80\n",
        "Your payout: $79.20\n",
        "Order: 0192-abc",
        "for Bo went through on December 25, 2026 at 2:30 p.m.",
        paid.link,
    ] {
        assert!(en.body.contains(part), "{part}: {}", en.body);
    }
    let fr = of(French).job_paid("Ana", &paid);
    assert_eq!(fr.subject, format!("Travail payé{NBSP}: Plumbing"));
    for part in [
        "Montant du travail\u{a0}: 90,00\u{a0}$\n",
        "Frais de plateforme\u{a0}: 10,80\u{a0}$\n",
        "Votre versement\u{a0}: 79,20\u{a0}$\n",
        paid.link,
    ] {
        assert!(fr.body.contains(part), "{part}: {}", fr.body);
    }
    assert!(quebec(&fr), "{fr:?}");
}

#[test]
fn the_reviewed_professional_reads_the_rating_and_the_words_or_their_start() {
    let review = Reviewed {
        service: "Plumbing",
        customer: "Bo",
        rating: 4,
        text: "Quick and tidy.",
        link: "http://x/view-professional-profile",
    };
    let en = of(English).reviewed("Ana", &review);
    assert_eq!(en.subject, "New review: Plumbing");
    for part in [
        "Rating: 4 out of 5\n",
        "\u{201c}Quick and tidy.\u{201d}",
        review.link,
    ] {
        assert!(en.body.contains(part), "{part}: {}", en.body);
    }
    let fr = of(French).reviewed("Ana", &review);
    assert_eq!(fr.subject, format!("Nouvelle évaluation{NBSP}: Plumbing"));
    for part in [
        "Note\u{a0}: 4 sur 5\n",
        "«\u{a0}Quick and tidy.\u{a0}»",
        review.link,
    ] {
        assert!(fr.body.contains(part), "{part}: {}", fr.body);
    }
    assert!(quebec(&fr), "{fr:?}");
    let silent = Reviewed { text: "", ..review };
    assert!(
        of(English)
            .reviewed("Ana", &silent)
            .body
            .contains("They left no comment.")
    );
    assert!(
        of(French)
            .reviewed("Ana", &silent)
            .body
            .contains("Aucun commentaire.")
    );
    let long = "Very good work. ".repeat(40);
    let long = Reviewed {
        text: &long,
        ..review
    };
    let quoted = of(English).reviewed("Ana", &long).body;
    assert!(quoted.contains("Very good…\u{201d}"), "{quoted}");
    assert!(quoted.len() < 700, "{quoted}");
}

#[test]
fn a_new_message_alert_names_the_writer_and_quotes_the_start() {
    let long = "Is the shut-off valve under the sink accessible? ".repeat(5);
    let message = NewMessage {
        service: "Plumbing",
        from: "Ana Lopez",
        text: &long,
    };
    let en = of(English).new_message_alert(&message);
    assert_eq!(en.title, "New message: Plumbing");
    assert!(
        en.body.starts_with("Ana Lopez: Is the shut-off"),
        "{}",
        en.body
    );
    assert!(
        en.body.ends_with('…') && en.body.chars().count() < 130,
        "{}",
        en.body
    );
    let fr = of(French).new_message_alert(&message);
    assert_eq!(fr.title, format!("Nouveau message{NBSP}: Plumbing"));
    assert!(
        fr.body.starts_with(&format!("Ana Lopez{NBSP}: Is")),
        "{}",
        fr.body
    );
}

#[test]
fn unread_messages_come_in_one_email_quoting_each_and_counting_the_rest() {
    let texts = vec!["Is the valve accessible?".to_owned(), "Call me".to_owned()];
    let unread = UnreadMessages {
        service: "Plumbing",
        from: "Ana Lopez",
        texts: &texts,
        count: 5,
        link: "https://repairs.example.ca/view-request/r1",
    };
    let en = of(English).unread_messages("Bo", &unread);
    assert_eq!(en.subject, "Ana Lopez wrote to you: Plumbing");
    for part in [
        "Hello Bo,",
        "5 messages you have not read",
        "\u{201c}Is the valve accessible?\u{201d}\n\n\u{201c}Call me\u{201d}",
        "and 3 more.",
        unread.link,
    ] {
        assert!(en.body.contains(part), "{part}: {}", en.body);
    }
    let fr = of(French).unread_messages("Bo", &unread);
    assert_eq!(
        fr.subject,
        format!("Ana Lopez vous a écrit{NBSP}: Plumbing")
    );
    for part in [
        "Bonjour Bo,",
        "5\u{a0}messages que vous n’avez pas lus",
        "«\u{a0}Call me\u{a0}»",
        "et 3\u{a0}de plus.",
        unread.link,
    ] {
        assert!(fr.body.contains(part), "{part}: {}", fr.body);
    }
    assert!(quebec(&fr), "{fr:?}");
    let one = UnreadMessages {
        texts: &texts[..1],
        count: 1,
        ..unread
    };
    let en = of(English).unread_messages("Bo", &one).body;
    assert!(en.contains(": a message you have not read."), "{en}");
    assert!(!en.contains("more"), "{en}");
}

#[test]
fn a_message_of_photos_alone_says_how_many() {
    assert_eq!(of(English).photos_attached(1), "(a photo)");
    assert_eq!(of(English).photos_attached(3), "(3 photos)");
    assert_eq!(of(French).photos_attached(1), "(une photo)");
    assert_eq!(of(French).photos_attached(2), "(2\u{a0}photos)");
}

#[test]
fn hidden_contact_details_say_when_they_are_shared() {
    for words in [of(English), of(French)] {
        assert!(words.hidden_phone().starts_with('['));
        assert!(words.hidden_email().ends_with(']'));
        assert_ne!(words.hidden_phone(), words.hidden_email());
    }
}
