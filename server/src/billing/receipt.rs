//! The receipt a professional gets for each month of membership, in their language.

use chrono::{DateTime, Utc};

use crate::domain::{Language, Money};

/// An email's subject and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub subject: String,
    pub body: String,
}

/// "29,99 €" (no-break space) in French, "€29.99" in English.
fn amount_text(language: Language, amount: Money) -> String {
    let cents = amount.cents().get();
    let (units, rest) = (cents / 100, cents % 100);
    let code = amount.currency().code();
    let symbol = match code {
        "EUR" => "€",
        _ => "$",
    };
    match language {
        Language::French => format!("{units},{rest:02}\u{a0}{symbol}"),
        Language::English => format!("{symbol}{units}.{rest:02}"),
    }
}

/// The receipt of one month: what was paid (`None`: free with a coupon) and the new end.
pub fn membership_receipt(
    language: Language,
    name: &str,
    paid: Option<Money>,
    ends_at: DateTime<Utc>,
) -> Receipt {
    let end = ends_at.format("%Y-%m-%d");
    match language {
        Language::French => {
            let paid = paid.map_or_else(
                || "Ce mois vous est offert avec votre coupon.".to_owned(),
                |amount| format!("Montant payé\u{a0}: {}.", amount_text(language, amount)),
            );
            Receipt {
                subject: "Reçu de votre abonnement".to_owned(),
                body: format!(
                    "Bonjour {name},\n\nMerci\u{a0}! Votre abonnement professionnel est prolongé d’un mois.\n{paid}\nIl est actif jusqu’au {end} (UTC)."
                ),
            }
        }
        Language::English => {
            let paid = paid.map_or_else(
                || "This month is free with your coupon.".to_owned(),
                |amount| format!("Amount paid: {}.", amount_text(language, amount)),
            );
            Receipt {
                subject: "Your membership receipt".to_owned(),
                body: format!(
                    "Hello {name},\n\nThank you! Your professional membership is extended by one month.\n{paid}\nIt is active until {end} (UTC)."
                ),
            }
        }
    }
}

/// The reminder sent three days before a membership ends.
pub fn membership_reminder(language: Language, name: &str, ends_at: DateTime<Utc>) -> Receipt {
    let end = ends_at.format("%Y-%m-%d");
    match language {
        Language::French => Receipt {
            subject: "Votre abonnement se termine bientôt".to_owned(),
            body: format!(
                "Bonjour {name},\n\nVotre abonnement professionnel se termine le {end} (UTC). Renouvelez-le pour continuer à recevoir des demandes."
            ),
        },
        Language::English => Receipt {
            subject: "Your membership ends soon".to_owned(),
            body: format!(
                "Hello {name},\n\nYour professional membership ends on {end} (UTC). Renew it to keep receiving requests."
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipts_speak_the_professional_s_language() {
        let end = "2026-12-23T10:00:00Z".parse().unwrap();
        let price = Money::parse(2399, "EUR").unwrap();
        let fr = membership_receipt(Language::French, "Ana", Some(price), end);
        assert!(fr.body.contains("23,99\u{a0}€"), "{}", fr.body);
        assert!(fr.body.contains("2026-12-23"));
        assert!(!fr.body.contains('\''), "typographic apostrophes only");
        let en = membership_receipt(Language::English, "Ana", Some(price), end);
        assert!(en.body.contains("€23.99"), "{}", en.body);
        let free = membership_receipt(Language::English, "Ana", None, end);
        assert!(free.body.contains("free with your coupon"));
    }
}
