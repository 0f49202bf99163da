//! What a professional reads about a new request, by email and SMS, in their language. It
//! names the service, the city and the distance, never the street: the address is only
//! for the professional who is hired.

use crate::domain::Language;

/// The facts a notice tells.
#[derive(Debug, Clone, Copy)]
pub struct NewRequest<'a> {
    /// The service's name in the professional's language.
    pub service: &'a str,
    pub city: &'a str,
    pub province: &'a str,
    pub distance_km: i32,
    pub emergency: bool,
    /// `PUBLIC_URL/view-request/{id}`.
    pub link: &'a str,
}

/// An email's subject and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailNotice {
    pub subject: String,
    pub body: String,
}

pub fn email(language: Language, name: &str, request: &NewRequest<'_>) -> EmailNotice {
    let NewRequest {
        service,
        city,
        province,
        distance_km,
        emergency,
        link,
    } = *request;
    match language {
        Language::French => {
            let urgency = if emergency {
                "Le client a besoin d’aide tout de suite."
            } else {
                "Le client peut attendre quelques jours."
            };
            EmailNotice {
                subject: format!("Nouvelle demande\u{a0}: {service} à {city}"),
                body: format!(
                    "Bonjour {name},\n\nUne nouvelle demande ({service}) vient d’être publiée à {city}, {province}, à {distance_km}\u{a0}km de chez vous.\n{urgency}\n\nVoir la demande et envoyer un devis\u{a0}: {link}"
                ),
            }
        }
        Language::English => {
            let urgency = if emergency {
                "The customer needs help right away."
            } else {
                "The customer can wait a few days."
            };
            EmailNotice {
                subject: format!("New request: {service} in {city}"),
                body: format!(
                    "Hello {name},\n\nA new request ({service}) was just posted in {city}, {province}, {distance_km} km from your base.\n{urgency}\n\nSee the request and send a quote: {link}"
                ),
            }
        }
    }
}

pub fn sms(language: Language, request: &NewRequest<'_>) -> String {
    let NewRequest {
        service,
        city,
        distance_km,
        link,
        ..
    } = *request;
    match language {
        Language::French => {
            format!("Nouvelle demande\u{a0}: {service} à {city} ({distance_km}\u{a0}km). {link}")
        }
        Language::English => format!("New request: {service} in {city} ({distance_km} km). {link}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUEST: NewRequest<'static> = NewRequest {
        service: "Plumbing Services",
        city: "Calgary",
        province: "AB",
        distance_km: 12,
        emergency: true,
        link: "http://127.0.0.1:8080/view-request/abc",
    };

    #[test]
    fn notices_name_service_city_distance_and_link_in_both_languages() {
        for language in [Language::English, Language::French] {
            let mail = email(language, "Ana", &REQUEST);
            let text = sms(language, &REQUEST);
            for part in [&mail.subject, &mail.body, &text] {
                assert!(part.contains("Calgary"), "{part}");
            }
            for part in [&mail.body, &text] {
                assert!(
                    part.contains("Plumbing Services") && part.contains("12"),
                    "{part}"
                );
                assert!(part.contains(REQUEST.link), "{part}");
            }
            assert!(!mail.body.contains('\''), "typographic apostrophes only");
        }
        assert!(
            email(Language::French, "Ana", &REQUEST)
                .body
                .contains("tout de suite")
        );
        assert!(sms(Language::English, &REQUEST).chars().count() <= 160);
    }
}
