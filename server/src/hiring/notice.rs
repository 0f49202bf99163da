//! What people read about a hire, by email, in their language.

use crate::domain::Language;

/// The hired professional: the job, where it is and how to reach the customer.
pub struct Hired<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    pub customer_phone: &'a str,
    pub address: &'a str,
    pub link: &'a str,
}

pub fn hired_email(language: Language, name: &str, job: &Hired<'_>) -> (String, String) {
    let Hired {
        service,
        customer,
        customer_phone,
        address,
        link,
    } = *job;
    match language {
        Language::French => (
            format!("Vous êtes engagé\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{customer} vous a engagé pour sa demande ({service}).\n\nAdresse\u{a0}: {address}\nTéléphone du client\u{a0}: {customer_phone}\n\nVoir le travail\u{a0}: {link}"
            ),
        ),
        Language::English => (
            format!("You are hired: {service}"),
            format!(
                "Hello {name},\n\n{customer} hired you for their request ({service}).\n\nAddress: {address}\nCustomer's phone: {customer_phone}\n\nSee the job: {link}"
            ),
        ),
    }
}

/// A professional whose quote lost: the customer chose someone else.
pub fn not_selected_email(language: Language, name: &str, service: &str) -> (String, String) {
    match language {
        Language::French => (
            format!("Devis non retenu\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe client a choisi un autre professionnel pour sa demande ({service}). Votre devis est clos\u{a0}; vous n’avez rien à faire."
            ),
        ),
        Language::English => (
            format!("Quote not selected: {service}"),
            format!(
                "Hello {name},\n\nThe customer chose another professional for their request ({service}). Your quote is closed; there is nothing for you to do."
            ),
        ),
    }
}

/// The customer warned that their job's hold lapses within a day.
pub fn hold_lapsing_email(
    language: Language,
    name: &str,
    service: &str,
    lapses: &str,
    link: &str,
) -> (String, String) {
    match language {
        Language::French => (
            format!("L’autorisation de paiement expire bientôt\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nL’autorisation de carte pour le travail ({service}) expire le {lapses} (UTC). Marquez le travail comme terminé avant, ou autorisez la carte de nouveau\u{a0}: {link}"
            ),
        ),
        Language::English => (
            format!("Card hold lapses soon: {service}"),
            format!(
                "Hello {name},\n\nThe card hold for the job ({service}) lapses on {lapses} (UTC). Mark the job completed before then, or authorise the card again: {link}"
            ),
        ),
    }
}

/// An admin warned that an order's hold lapses within a day (the customer is told too).
pub struct LapsingOrder<'a> {
    pub service: &'a str,
    pub customer: &'a str,
    pub order_id: &'a str,
    /// When, in UTC.
    pub lapses: &'a str,
    /// The admins' order history.
    pub link: &'a str,
}

pub fn hold_lapsing_admin_email(
    language: Language,
    name: &str,
    order: &LapsingOrder<'_>,
) -> (String, String) {
    let LapsingOrder {
        service,
        customer,
        order_id,
        lapses,
        link,
    } = *order;
    match language {
        Language::French => (
            format!("Autorisation de paiement bientôt expirée\u{a0}: commande {order_id}"),
            format!(
                "Bonjour {name},\n\nL’autorisation de carte de la commande {order_id} ({service}, client\u{a0}: {customer}) expire le {lapses} (UTC). Le client a été prévenu. Vous pouvez encaisser ou libérer le paiement depuis l’historique des commandes\u{a0}: {link}"
            ),
        ),
        Language::English => (
            format!("Card hold lapses soon: order {order_id}"),
            format!(
                "Hello {name},\n\nThe card hold of order {order_id} ({service}, customer: {customer}) lapses on {lapses} (UTC). The customer was told. You can capture or release it from the order history: {link}"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hired_professional_reads_the_address_and_phone_in_both_languages() {
        let job = Hired {
            service: "Plumbing",
            customer: "Bo",
            customer_phone: "+14035550100",
            address: "100 8 Ave SW, Calgary, AB T2P 1J9",
            link: "http://x/professional-active-requests",
        };
        for language in [Language::English, Language::French] {
            let (subject, body) = hired_email(language, "Ana", &job);
            assert!(subject.contains("Plumbing"));
            assert!(body.contains(job.address) && body.contains(job.customer_phone));
        }
        assert!(
            not_selected_email(Language::French, "Ana", "Plomberie")
                .0
                .contains("non retenu")
        );
    }
}
