//! What a customer reads when a quote arrives on their request, by email and SMS, in their
//! language.

use crate::domain::Language;

/// The facts a new-quote notice tells.
#[derive(Debug, Clone, Copy)]
pub struct NewQuote<'a> {
    /// The service's name in the customer's language.
    pub service: &'a str,
    pub professional: &'a str,
    /// The fee as `Money` displays it ("120.00 CAD").
    pub fee: &'a str,
    /// `PUBLIC_URL/application-list/{request id}`.
    pub link: &'a str,
}

/// An email's subject and body.
pub fn email(language: Language, name: &str, quote: &NewQuote<'_>) -> (String, String) {
    let NewQuote {
        service,
        professional,
        fee,
        link,
    } = *quote;
    match language {
        Language::French => (
            format!("Nouveau devis pour votre demande\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{professional} vous propose ses services pour votre demande ({service}) pour {fee}.\n\nVoir les devis et engager un professionnel\u{a0}: {link}"
            ),
        ),
        Language::English => (
            format!("New quote on your request: {service}"),
            format!(
                "Hello {name},\n\n{professional} quoted {fee} for your request ({service}).\n\nSee the quotes and hire a professional: {link}"
            ),
        ),
    }
}

/// The text message.
pub fn sms(language: Language, quote: &NewQuote<'_>) -> String {
    let NewQuote {
        service, fee, link, ..
    } = *quote;
    match language {
        Language::French => format!("Nouveau devis ({service})\u{a0}: {fee}. {link}"),
        Language::English => format!("New quote ({service}): {fee}. {link}"),
    }
}

/// The email telling a professional the request they quoted on was cancelled.
pub fn cancelled_email(language: Language, name: &str, service: &str) -> (String, String) {
    match language {
        Language::French => (
            format!("Demande annulée\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe client a annulé sa demande ({service}) sur laquelle vous aviez envoyé un devis. Votre devis est clos\u{a0}; vous n’avez rien à faire."
            ),
        ),
        Language::English => (
            format!("Request cancelled: {service}"),
            format!(
                "Hello {name},\n\nThe customer cancelled their request ({service}) that you quoted on. Your quote is closed; there is nothing for you to do."
            ),
        ),
    }
}

/// The email telling a customer that a professional who quoted on their request cannot take
/// it (refused, removed, or back in review): the quote is withdrawn.
pub fn withdrawn_email(
    language: Language,
    name: &str,
    professional: &str,
    service: &str,
) -> (String, String) {
    match language {
        Language::French => (
            format!("Devis retiré\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{professional} ne peut pas accepter de travaux sur notre plateforme pour le moment\u{a0}; son devis pour votre demande ({service}) est retiré. Votre demande reste ouverte aux autres professionnels."
            ),
        ),
        Language::English => (
            format!("Quote withdrawn: {service}"),
            format!(
                "Hello {name},\n\n{professional} cannot take jobs on our platform at the moment, so their quote for your request ({service}) is withdrawn. Your request stays open to other professionals."
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTE: NewQuote<'static> = NewQuote {
        service: "Plumbing",
        professional: "Ana",
        fee: "120.00 CAD",
        link: "http://x/application-list/1",
    };

    #[test]
    fn both_languages_name_the_fee_and_the_link() {
        for language in [Language::English, Language::French] {
            let (subject, body) = email(language, "Bo", &QUOTE);
            assert!(subject.contains("Plumbing"));
            assert!(body.contains("120.00 CAD") && body.contains(QUOTE.link));
            assert!(sms(language, &QUOTE).contains(QUOTE.link));
        }
        assert!(
            email(Language::French, "Bo", &QUOTE)
                .0
                .starts_with("Nouveau devis")
        );
    }
}
