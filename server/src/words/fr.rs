//! Every French text the server writes, in Quebec French typography, as the web app writes
//! it (web/src/locales/french-typography.ts): the typographic apostrophe, a no-break space
//! (U+00A0) before a colon and none before ; ! ?, and in "1 234,56 $", "25 décembre 2026"
//! and "14 h 30".

use chrono::{Datelike, NaiveDateTime, Timelike};

use super::{
    Alert, CreditNote, DisputeOpened, HirePayment, HireReceipt, Hired, HoldEnd, JobPaid,
    LapsingOrder, Mail, MembershipReceipt, Moment, NewMessage, NewQuote, NewRequest,
    PausedAfterReleases, PaymentStep, ProblemReported, ProblemResolved, ReleasedHire, Reviewed,
    Sold, UnreadMessages, Words,
    format::{
        ALERT_EXCERPT_CHARS, ReceiptLabels, amount_parts, excerpt, excerpt_of, hire_receipt_lines,
        receipt_lines, sms_quoting, symbol,
    },
};
use crate::{
    domain::{Money, Topic},
    tax::{Rate, TaxName},
};

pub struct French;

const MONTHS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

/// "1er décembre 2026", "25 décembre 2026".
fn day_text(wall: NaiveDateTime) -> String {
    let month = MONTHS[wall.month0() as usize];
    let ordinal = if wall.day() == 1 { "er" } else { "" };
    format!("{}{ordinal} {month} {}", wall.day(), wall.year())
}

/// "14 h 30", and "9 h" on the hour.
fn clock_text(wall: NaiveDateTime) -> String {
    match wall.minute() {
        0 => format!("{}\u{a0}h", wall.hour()),
        minute => format!("{}\u{a0}h\u{a0}{minute:02}", wall.hour()),
    }
}

/// How far a request is, in French: "environ 12 km", or "moins de 1 km" (never
/// "environ 0 km").
fn distance(km: i32) -> String {
    match km {
        ..=0 => "moins de 1\u{a0}km".to_owned(),
        km => format!("environ {km}\u{a0}km"),
    }
}

/// ", à environ 12 min de route" quand un routeur a calculé le trajet ; rien sinon.
fn by_road(minutes: Option<i32>) -> String {
    minutes.map_or_else(String::new, |m| format!(", à {} de route", minutes_text(m)))
}

/// "environ 12 min", "moins de 1 min".
fn minutes_text(minutes: i32) -> String {
    match minutes {
        ..=0 => "moins de 1\u{a0}min".to_owned(),
        m => format!("environ {m}\u{a0}min"),
    }
}

const RECEIPT: ReceiptLabels = ReceiptLabels {
    heading: "Reçu",
    seller: "Vendeur\u{a0}: ",
    date: "Date\u{a0}: ",
    buyer: "Acheteur\u{a0}: ",
    description: "Description\u{a0}: Abonnement professionnel, un mois",
    free: "Ce mois vous est offert avec votre coupon.",
    subtotal: "Sous-total\u{a0}: ",
    total: "Total\u{a0}: ",
    colon: "\u{a0}: ",
    programs: ("TPS/TVH", "TVQ"),
    registration: |program, number| match number {
        Some(number) => format!("Numéro d’inscription à la {program}\u{a0}: {number}"),
        None => format!("{program}\u{a0}: aucune inscription"),
    },
    printable: "Reçu imprimable\u{a0}: ",
};

fn courriel(subject: impl Into<String>, body: String) -> Mail {
    Mail {
        subject: subject.into(),
        body,
    }
}

impl French {
    /// A receipt's lines: its number, the job, who did it, the amount and when, under the
    /// labels `amount` and `date`.
    fn receipt_lines(
        &self,
        payment: &HirePayment<'_>,
        (amount, date): (&str, &str),
        when: Moment,
    ) -> String {
        let (service, professional) = (payment.service, payment.professional);
        let (money, when) = (self.money(payment.amount), self.date_time(when));
        format!(
            "Numéro de reçu\u{a0}: {}\nService\u{a0}: {service}\nTravail effectué par\u{a0}: {professional}\n{amount}\u{a0}: {money}\n{date}\u{a0}: {when}",
            payment.order_id
        )
    }
}

impl Words for French {
    fn price_with_taxes(&self, total: &str, fee: &str) -> String {
        format!("{total} taxes comprises ({fee} avant taxes)")
    }

    fn money(&self, amount: Money) -> String {
        let (units, cents) = amount_parts(amount, '\u{a0}');
        format!("{units},{cents:02}\u{a0}{}", symbol(amount.currency()))
    }

    fn date(&self, when: Moment) -> String {
        day_text(when.wall()) + when.date_note()
    }

    fn date_time(&self, when: Moment) -> String {
        let wall = when.wall();
        let offset = when.offset();
        format!("{} à {} ({offset})", day_text(wall), clock_text(wall))
    }

    fn tax_name(&self, tax: TaxName) -> &'static str {
        match tax {
            TaxName::Gst => "TPS",
            TaxName::Hst => "TVH",
            TaxName::Qst => "TVQ",
            TaxName::Pst => "TVP",
        }
    }

    fn percent(&self, rate: Rate) -> String {
        format!("{}\u{a0}%", rate.rate_percent().replace('.', ","))
    }

    fn password_reset(&self, name: &str, link: &str) -> Mail {
        courriel(
            "Réinitialiser votre mot de passe",
            format!(
                "Bonjour {name},\n\nPour choisir un nouveau mot de passe, ouvrez ce lien dans l’heure :\n{link}\n\nSi vous n’avez rien demandé, ignorez ce message."
            ),
        )
    }

    fn data_export_ready(&self, name: &str, until: Moment, link: &str) -> Mail {
        courriel(
            "Une copie de vos données est prête",
            format!(
                "Bonjour {name},\n\nLa copie de vos données que vous avez demandée est prête. Téléchargez-la depuis la page de votre compte jusqu’au {}\u{a0}:\n{link}\n\nSi vous ne l’avez pas demandée, dites-le-nous en répondant à ce courriel.",
                self.date(until)
            ),
        )
    }

    fn account_closed(&self, name: &str, erased_on: Moment, keep_link: &str) -> Mail {
        courriel(
            "Votre compte est fermé",
            format!(
                "Bonjour {name},\n\nVotre compte est fermé à votre demande. Vos renseignements personnels seront effacés le {}; les reçus et les registres que la loi nous oblige à garder ne vous nommeront plus.\n\nSi vous changez d’avis d’ici là, ouvrez ce lien pour garder votre compte :\n{keep_link}\n\nSi vous n’avez rien demandé, ouvrez ce lien sans tarder et changez votre mot de passe.",
                self.date(erased_on)
            ),
        )
    }

    fn email_confirmation(&self, name: &str, link: &str) -> Mail {
        courriel(
            "Confirmez votre adresse courriel",
            format!(
                "Bonjour {name},\n\nPour confirmer votre adresse courriel, ouvrez ce lien dans les trois jours :\n{link}\n\nSi vous n’avez pas créé de compte, ignorez ce message."
            ),
        )
    }

    fn phone_code(&self, code: &str) -> String {
        format!("Votre code de vérification est {code}. Il expire dans 10 minutes.")
    }

    fn profile_approved(&self, name: &str, link: &str) -> Mail {
        courriel(
            "Votre profil est approuvé",
            format!(
                "Bonjour {name},\n\nVotre profil de professionnel est approuvé. Activez votre abonnement pour recevoir des demandes.\n\nConnectez-vous pour commencer\u{a0}:\n{link}"
            ),
        )
    }

    fn registration_denied(&self, name: &str, reason: &str) -> Mail {
        courriel(
            "Votre inscription a été refusée",
            format!(
                "Bonjour {name},\n\nVotre inscription a été refusée pour la raison suivante :\n{reason}\n\nVous pouvez mettre votre profil à jour et le soumettre de nouveau."
            ),
        )
    }

    fn pending_change_approved(&self, name: &str) -> Mail {
        courriel(
            "La modification de votre profil est approuvée",
            format!(
                "Bonjour {name},\n\nUn administrateur a approuvé la modification de votre profil. Elle fait maintenant partie de votre profil."
            ),
        )
    }

    fn pending_change_refused(&self, name: &str, reason: &str) -> Mail {
        courriel(
            "La modification de votre profil a été refusée",
            format!(
                "Bonjour {name},\n\nUn administrateur a refusé la modification de votre profil pour la raison suivante\u{a0}:\n{reason}\n\nVotre profil reste tel qu’il a été approuvé et vous continuez de recevoir des demandes. Vous pouvez refaire la modification."
            ),
        )
    }

    fn licence_revoked(&self, name: &str, reason: &str) -> Mail {
        courriel(
            "Votre permis a été révoqué",
            format!(
                "Bonjour {name},\n\nUn administrateur a refusé la modification de votre profil et révoqué votre permis pour la raison suivante\u{a0}:\n{reason}\n\nVous ne pouvez pas accepter de travaux tant qu’un permis n’est pas approuvé de nouveau. Vos soumissions en attente sont donc retirées. Téléversez un permis valide et soumettez votre profil pour examen."
            ),
        )
    }

    fn new_request_email(&self, name: &str, request: &NewRequest<'_>) -> Mail {
        let (service, city, province) = (request.service, request.city, request.province);
        let (distance, road) = (
            distance(request.distance_km),
            by_road(request.drive_minutes),
        );
        let (photos, link) = (request.photos, request.link);
        let urgency = match request.emergency {
            true => "Le client a besoin d’aide tout de suite.",
            false => "Le client peut attendre quelques jours.",
        };
        courriel(
            format!("Nouvelle demande\u{a0}: {service} à {city}"),
            format!(
                "Bonjour {name},\n\nUne nouvelle demande ({service}) vient d’être publiée à {city}, {province}, à {distance} de chez vous{road}.\n{urgency}\nPhotos des dégâts\u{a0}: {photos}.\n\nVoir la demande et envoyer une soumission\u{a0}: {link}"
            ),
        )
    }

    fn new_request_sms(&self, request: &NewRequest<'_>) -> String {
        let (service, city, link) = (request.service, request.city, request.link);
        let distance = format!(
            "{}{}",
            distance(request.distance_km),
            by_road(request.drive_minutes)
        );
        let photos = request.photos;
        format!(
            "Nouvelle demande\u{a0}: {service} à {city} ({distance}, photos\u{a0}: {photos}). {link}"
        )
    }

    fn new_request_alert(&self, request: &NewRequest<'_>) -> Alert {
        let (service, city) = (request.service, request.city);
        let kind = if request.emergency {
            "Urgence"
        } else {
            "Nouvelle demande"
        };
        Alert {
            title: format!("{kind}\u{a0}: {service} à {city}"),
            body: format!(
                "À {} de vous{}. Photos\u{a0}: {}. Ouvrez la demande pour envoyer une soumission.",
                distance(request.distance_km),
                by_road(request.drive_minutes),
                request.photos
            ),
        }
    }

    fn new_quote_alert(&self, quote: &NewQuote<'_>) -> Alert {
        Alert {
            title: format!("Nouvelle soumission\u{a0}: {}", quote.service),
            body: format!(
                "{} propose {}. Ouvrez votre demande pour voir les soumissions.",
                quote.professional,
                self.quoted_price(quote.fee, quote.total)
            ),
        }
    }

    fn trip_started_alert(&self, professional: &str, service: &str, minutes: i32) -> Alert {
        Alert {
            title: format!("{professional} est en route"),
            body: format!(
                "{service}\u{a0}: arrivée dans {}. Ouvrez votre demande pour suivre l’arrivée.",
                minutes_text(minutes)
            ),
        }
    }

    fn trip_started_sms(&self, professional: &str, minutes: i32, link: &str) -> String {
        format!(
            "{professional} est en route\u{a0}: arrivée dans {}. Suivre l’arrivée\u{a0}: {link}",
            minutes_text(minutes)
        )
    }

    fn trip_arrived_alert(&self, professional: &str, service: &str) -> Alert {
        Alert {
            title: format!("{professional} est arrivé"),
            body: format!("{service}\u{a0}: {professional} est à votre porte."),
        }
    }

    fn request_cancelled(&self, name: &str, service: &str) -> Mail {
        courriel(
            format!("Demande annulée\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe client a annulé sa demande ({service}) sur laquelle vous aviez envoyé une soumission. Votre soumission est close; vous n’avez rien à faire."
            ),
        )
    }

    fn new_quote_email(&self, name: &str, quote: &NewQuote<'_>) -> Mail {
        let (service, professional, link) = (quote.service, quote.professional, quote.link);
        let fee = self.quoted_price(quote.fee, quote.total);
        courriel(
            format!("Nouvelle soumission pour votre demande\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{professional} vous propose ses services pour votre demande ({service}) pour {fee}.\n\nVoir les soumissions et engager un professionnel\u{a0}: {link}"
            ),
        )
    }

    fn new_quote_sms(&self, quote: &NewQuote<'_>) -> String {
        let (service, link) = (quote.service, quote.link);
        format!(
            "Nouvelle soumission ({service})\u{a0}: {}. {link}",
            self.quoted_price(quote.fee, quote.total)
        )
    }

    fn quote_withdrawn(&self, name: &str, professional: &str, service: &str) -> Mail {
        courriel(
            format!("Soumission retirée\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{professional} ne peut pas accepter de travaux sur notre plateforme pour le moment; sa soumission pour votre demande ({service}) est retirée. Votre demande reste ouverte aux autres professionnels."
            ),
        )
    }

    fn quote_closed_alert(&self, service: &str, cancelled: bool) -> Alert {
        if cancelled {
            Alert {
                title: format!("Demande annulée\u{a0}: {service}"),
                body: "Le client a annulé sa demande. Vous n’avez rien à faire.".to_owned(),
            }
        } else {
            Alert {
                title: format!("Soumission non choisie\u{a0}: {service}"),
                body: "Le client a engagé un autre professionnel. Votre soumission est close."
                    .to_owned(),
            }
        }
    }

    fn hired_alert(&self, service: &str, customer: &str) -> Alert {
        Alert {
            title: format!("Vous êtes engagé\u{a0}: {service}"),
            body: format!(
                "{customer} vous a engagé. Ouvrez le travail pour l’adresse et son téléphone."
            ),
        }
    }

    fn hired_sms(&self, job: &Hired<'_>) -> String {
        let (service, customer, link) = (job.service, job.customer, job.link);
        format!("{customer} vous a engagé ({service}). L’adresse et son téléphone\u{a0}: {link}")
    }

    fn hired(&self, name: &str, job: &Hired<'_>) -> Mail {
        let (service, customer, phone) = (job.service, job.customer, job.customer_phone);
        let (address, link) = (job.address, job.link);
        courriel(
            format!("Vous êtes engagé\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{customer} vous a engagé pour sa demande ({service}).\n\nAdresse\u{a0}: {address}\nTéléphone du client\u{a0}: {phone}\n\nVoir le travail\u{a0}: {link}"
            ),
        )
    }

    fn not_selected(&self, name: &str, service: &str) -> Mail {
        courriel(
            format!("Soumission non choisie\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe client a choisi un autre professionnel pour sa demande ({service}). Votre soumission est close; vous n’avez rien à faire."
            ),
        )
    }

    fn hold_lapsing(&self, name: &str, service: &str, lapses: Moment, link: &str) -> Mail {
        courriel(
            format!("La préautorisation expire bientôt\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLa préautorisation de votre carte pour le travail ({service}) expire le {}. Marquez le travail comme terminé avant, ou autorisez la carte de nouveau\u{a0}: {link}",
                self.date_time(lapses)
            ),
        )
    }

    fn hold_lapsing_admin(&self, name: &str, order: &LapsingOrder<'_>) -> Mail {
        let (service, customer) = (order.service, order.customer);
        let (id, link) = (order.order_id, order.link);
        let lapses = self.date_time(order.lapses);
        courriel(
            format!("Préautorisation bientôt expirée\u{a0}: commande {id}"),
            format!(
                "Bonjour {name},\n\nLa préautorisation de la commande {id} ({service}, client\u{a0}: {customer}) expire le {lapses}. Le client a été prévenu. Vous pouvez prélever le paiement ou libérer la préautorisation depuis l’historique des commandes\u{a0}: {link}"
            ),
        )
    }

    fn hold_placed(&self, name: &str, payment: &HirePayment<'_>, lapses: Option<Moment>) -> Mail {
        let (service, professional) = (payment.service, payment.professional);
        let (amount, link) = (self.money(payment.amount), payment.link);
        let lapse = match lapses {
            Some(lapses) => format!(
                "Si le travail n’est pas terminé d’ici le {}, la préautorisation expire et rien n’est débité.",
                self.date_time(lapses)
            ),
            None => "Si le travail n’est pas terminé avant l’expiration de la préautorisation, rien n’est débité."
                .to_owned(),
        };
        courriel(
            format!("Préautorisation sur votre carte\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nVous avez engagé {professional} pour votre demande ({service}). Une préautorisation de {amount} est placée sur votre carte\u{a0}: votre carte n’est débitée que lorsque vous marquez le travail comme terminé.\n{lapse}\n\nVoir vos demandes actives\u{a0}: {link}"
            ),
        )
    }

    fn payment_receipt(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        charged: Moment,
        receipt: &HireReceipt<'_>,
    ) -> Mail {
        let lines = self.receipt_lines(payment, ("Montant débité", "Débité le"), charged);
        let details = hire_receipt_lines(self, payment.professional, receipt, &RECEIPT);
        let (service, link) = (payment.service, payment.link);
        courriel(
            format!("Votre reçu\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nMerci. Votre carte a été débitée pour votre demande ({service}).\n\n{lines}\n\n{details}\n\nVoir vos commandes\u{a0}: {link}"
            ),
        )
    }

    fn refund(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        refunded: Moment,
        receipt: &HireReceipt<'_>,
    ) -> Mail {
        let lines = self.receipt_lines(payment, ("Montant remboursé", "Remboursé le"), refunded);
        let details = hire_receipt_lines(self, payment.professional, receipt, &RECEIPT);
        let (service, link) = (payment.service, payment.link);
        courriel(
            format!("Remboursement\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe paiement de votre demande ({service}) a été remboursé sur votre carte. Votre banque peut prendre quelques jours pour l’afficher.\n\n{lines}\n\n{details}\n\nVoir vos commandes\u{a0}: {link}"
            ),
        )
    }

    fn credit_note(&self, name: &str, note: &CreditNote<'_>) -> Mail {
        let CreditNote {
            service,
            order_id,
            reason,
            link,
            ..
        } = *note;
        let amount = self.money(note.amount);
        let how = if note.in_full {
            "en totalité"
        } else {
            "en partie"
        };
        let mut lines = format!(
            "Commande\u{a0}: {order_id}\nTotal initial\u{a0}: {}\nMontant remboursé\u{a0}: {amount}\nTaxes de vente remboursées\u{a0}: {}\nRemboursé le\u{a0}: {}\nMotif\u{a0}: {reason}",
            self.money(note.original),
            self.money(note.taxes),
            self.date_time(note.refunded),
        );
        let intro = match note.professional_share {
            None => format!(
                "Le paiement de votre demande ({service}) a été remboursé {how}\u{a0}: {amount} retourne sur votre carte. Votre banque peut prendre quelques jours pour l’afficher."
            ),
            Some(share) => {
                lines.push_str(&format!(
                    "\nVotre part remboursée\u{a0}: {}",
                    self.money(share)
                ));
                format!(
                    "Le paiement du client pour le travail ({service}) a été remboursé {how}\u{a0}: {amount} est retourné sur sa carte. Votre part est déduite de ce qui vous est dû, ou réglée avec vous si elle vous a déjà été versée."
                )
            }
        };
        courriel(
            format!("Note de crédit\u{a0}: {service}"),
            format!("Bonjour {name},\n\n{intro}\n\n{lines}\n\nVotre note de crédit\u{a0}: {link}"),
        )
    }

    fn hold_ended(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        end: HoldEnd,
        ended: Moment,
    ) -> Mail {
        let (service, professional) = (payment.service, payment.professional);
        let (amount, link) = (self.money(payment.amount), payment.link);
        let ended = self.date_time(ended);
        let (subject, what, next) = match end {
            HoldEnd::Released => ("libérée", "a été libérée", "Voir vos commandes"),
            HoldEnd::Lapsed => (
                "expirée",
                "a expiré",
                "Si le travail reste à faire, autorisez la carte de nouveau depuis vos demandes actives",
            ),
        };
        courriel(
            format!("Préautorisation {subject}\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLa préautorisation de {amount} sur votre carte pour votre demande ({service}) avec {professional} {what} le {ended}. Votre carte n’a pas été débitée.\n\n{next}\u{a0}: {link}"
            ),
        )
    }

    fn payment_alert(&self, payment: &HirePayment<'_>, step: PaymentStep) -> Alert {
        let (service, amount) = (payment.service, self.money(payment.amount));
        let (title, body) = match step {
            PaymentStep::HoldPlaced => (
                format!("Préautorisation sur votre carte\u{a0}: {service}"),
                format!(
                    "Une préautorisation de {amount} est placée pour {}.",
                    payment.professional
                ),
            ),
            PaymentStep::Charged => (
                format!("Votre reçu\u{a0}: {service}"),
                format!("Votre carte a été débitée de {amount}."),
            ),
            PaymentStep::Refunded => (
                format!("Remboursement\u{a0}: {service}"),
                format!("{amount} a été remboursé sur votre carte."),
            ),
            PaymentStep::HoldEnded(end) => (
                format!("Fin de la préautorisation\u{a0}: {service}"),
                match end {
                    HoldEnd::Released => {
                        format!("La préautorisation de {amount} est libérée; rien n’a été débité.")
                    }
                    HoldEnd::Lapsed => format!(
                        "La préautorisation de {amount} a expiré; rien n’a été débité. Engagez de nouveau pour continuer."
                    ),
                },
            ),
        };
        Alert { title, body }
    }

    fn job_paid_alert(&self, paid: &JobPaid<'_>) -> Alert {
        Alert {
            title: format!("Travail payé\u{a0}: {}", paid.service),
            body: format!(
                "{} a payé. Il vous est dû {}.",
                paid.customer,
                self.money(paid.net)
            ),
        }
    }

    fn hire_released_by_professional(&self, name: &str, hire: &ReleasedHire<'_>) -> Mail {
        let (service, professional) = (hire.service, hire.professional);
        let (reason, link) = (hire.reason, hire.link);
        courriel(
            format!("{professional} ne peut pas venir\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{professional} ne peut pas venir pour votre demande ({service}). Selon ses mots\u{a0}: «\u{a0}{reason}\u{a0}»\n\nLa préautorisation de votre carte est libérée et rien n’a été prélevé. Votre demande est de nouveau ouverte avec les autres soumissions que vous aviez\u{a0}: choisissez un autre professionnel dès maintenant, sans publier de nouveau\u{a0}: {link}"
            ),
        )
    }

    fn hire_released_alert(&self, hire: &ReleasedHire<'_>) -> Alert {
        Alert {
            title: format!("{} ne peut pas venir", hire.professional),
            body: format!(
                "{}\u{a0}: vos autres soumissions sont de nouveau ouvertes. Choisissez un autre professionnel.",
                hire.service
            ),
        }
    }

    fn hire_released_by_customer(&self, name: &str, service: &str) -> Mail {
        courriel(
            format!("Travail libéré\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe client a libéré le travail ({service})\u{a0}: il lui fallait quelqu’un plus tôt et il choisit un autre professionnel. Vous n’avez pas à vous déplacer, et rien ne lui a été prélevé. Si vous étiez en route, écrivez-lui dans la conversation."
            ),
        )
    }

    fn choosing_again(&self, name: &str, service: &str, link: &str) -> Mail {
        courriel(
            format!("Votre soumission est de nouveau ouverte\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe professionnel choisi pour une demande sur laquelle vous avez soumissionné ({service}) n’a pas pu faire le travail; le client choisit donc de nouveau et votre soumission est de nouveau ouverte. Si vous ne pouvez plus le faire, retirez-la\u{a0}: {link}"
            ),
        )
    }

    fn paused_after_releases(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail {
        let (released, until) = (paused.released, self.date_time(paused.until));
        courriel(
            format!(
                "Vos alertes de demandes sont en pause jusqu’au {}",
                self.date(paused.until)
            ),
            format!(
                "Bonjour {name},\n\n{released} de vos travaux ont été libérés au cours des 30 derniers jours. Pour que les clients en situation d’urgence joignent quelqu’un qui peut venir, vos alertes de nouvelles demandes sont en pause jusqu’au {until}. Vos soumissions ouvertes restent telles quelles. Quand vous serez prêt de nouveau, mettez fin à la pause depuis votre profil (Disponibilité)."
            ),
        )
    }

    fn paused_after_releases_admin(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail {
        let (professional, email) = (paused.professional, paused.email);
        let (released, until) = (paused.released, self.date_time(paused.until));
        courriel(
            format!("En pause après {released} travaux libérés\u{a0}: {professional}"),
            format!(
                "Bonjour {name},\n\n{released} travaux de {professional} ({email}) ont été libérés au cours des 30 derniers jours, par ce professionnel ou par ses clients. Ses alertes de demandes sont en pause jusqu’au {until}; il en a été informé. Vous voudrez peut-être lui demander ce qui se passe; la pause peut être levée depuis son profil."
            ),
        )
    }

    fn job_paid(&self, name: &str, paid: &JobPaid<'_>) -> Mail {
        let (service, customer) = (paid.service, paid.customer);
        let (order_id, link) = (paid.order_id, paid.link);
        let (amount, fee, net) = (
            self.money(paid.amount),
            self.money(paid.fee),
            self.money(paid.net),
        );
        let when = self.date_time(paid.paid);
        let fee_taxes: String = paid
            .fee_taxes
            .iter()
            .map(|tax| {
                let (name, rate) = (self.tax_name(tax.name), self.percent(tax.rate));
                let amount = self.money(tax.amount);
                format!("\n{name} {rate} sur les frais de plateforme\u{a0}: {amount}")
            })
            .collect();
        let receipt = paid.receipt_link;
        courriel(
            format!("Travail payé\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nLe paiement du travail ({service}) que vous avez effectué pour {customer} a été reçu le {when}.\n\nCommande\u{a0}: {order_id}\nMontant du travail\u{a0}: {amount}\nFrais de plateforme\u{a0}: {fee}{fee_taxes}\nVotre versement\u{a0}: {net}\nReçu imprimable\u{a0}: {receipt}\n\nVoir vos commandes\u{a0}: {link}"
            ),
        )
    }

    fn hidden_phone(&self) -> &'static str {
        "[numéro communiqué après l’embauche]"
    }

    fn hidden_email(&self) -> &'static str {
        "[courriel communiqué après l’embauche]"
    }

    fn no_photos(&self) -> &'static str {
        "aucune"
    }

    fn photos_attached(&self, count: usize) -> String {
        match count {
            1 => "(une photo)".to_owned(),
            n => format!("({n}\u{a0}photos)"),
        }
    }

    fn new_message_alert(&self, message: &NewMessage<'_>) -> Alert {
        Alert {
            title: format!("Nouveau message\u{a0}: {}", message.service),
            body: format!(
                "{}\u{a0}: {}",
                message.from,
                excerpt_of(message.text, ALERT_EXCERPT_CHARS)
            ),
        }
    }

    fn unread_messages_sms(&self, unread: &UnreadMessages<'_>) -> String {
        let (from, link) = (unread.from, unread.link);
        let first = unread.texts.first().map_or("", String::as_str);
        sms_quoting(
            first,
            |start| format!("\u{a0}: «\u{a0}{start}\u{a0}»"),
            |quoted| format!("{from} vous a écrit{quoted}. Répondre\u{a0}: {link}"),
        )
    }

    fn unread_messages(&self, name: &str, unread: &UnreadMessages<'_>) -> Mail {
        let (service, from, count, link) = (unread.service, unread.from, unread.count, unread.link);
        let what = match count {
            1 => "un message que vous n’avez pas lu".to_owned(),
            n => format!("{n}\u{a0}messages que vous n’avez pas lus"),
        };
        let quoted: Vec<String> = unread
            .texts
            .iter()
            .map(|text| format!("«\u{a0}{}\u{a0}»", excerpt(text)))
            .collect();
        let more = match count.saturating_sub(unread.texts.len()) {
            0 => String::new(),
            n => format!("\n\n… et {n}\u{a0}de plus."),
        };
        courriel(
            format!("{from} vous a écrit\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{from} vous a écrit au sujet de la demande ({service})\u{a0}: {what}.\n\n{}{more}\n\nLire et répondre\u{a0}: {link}",
                quoted.join("\n\n")
            ),
        )
    }

    fn reviewed(&self, name: &str, review: &Reviewed<'_>) -> Mail {
        let (service, customer) = (review.service, review.customer);
        let (rating, link) = (review.rating, review.link);
        let words = match excerpt(review.text) {
            text if text.is_empty() => "Aucun commentaire.".to_owned(),
            text => format!("«\u{a0}{text}\u{a0}»"),
        };
        courriel(
            format!("Nouvelle évaluation\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{customer} a évalué votre travail pour sa demande ({service}).\n\nNote\u{a0}: {rating} sur 5\n{words}\n\nVoir vos évaluations sur votre profil\u{a0}: {link}"
            ),
        )
    }

    fn membership_receipt(&self, name: &str, receipt: &MembershipReceipt<'_>) -> Mail {
        courriel(
            "Reçu de votre abonnement",
            format!(
                "Bonjour {name},\n\nMerci! Votre abonnement professionnel est prolongé d’un mois. Il est actif jusqu’au {}.\n\n{}",
                self.date(receipt.ends),
                receipt_lines(self, name, receipt, &RECEIPT)
            ),
        )
    }

    fn membership_reminder(&self, name: &str, ends: Moment) -> Mail {
        courriel(
            "Votre abonnement se termine bientôt",
            format!(
                "Bonjour {name},\n\nVotre abonnement professionnel se termine le {}. Renouvelez-le pour continuer à recevoir des demandes.",
                self.date(ends)
            ),
        )
    }

    fn unsubscribe_footer(&self, topic: Topic, sender: &str, link: &str) -> String {
        let what = match topic {
            Topic::NewRequests => {
                "les alertes de nouvelles demandes de réparation près de chez vous"
            }
            Topic::RequestUpdates => "les nouvelles de vos demandes et de vos travaux",
            Topic::Reminders => "les rappels de votre abonnement",
        };
        format!(
            "Vous recevez {what} en raison de votre compte chez {sender}. Pour ne plus recevoir ces courriels, ouvrez {link} (sans vous connecter) ou faites votre choix dans la page de votre compte."
        )
    }

    fn receipt_description(&self, sold: Sold<'_>) -> String {
        match sold {
            Sold::Membership => "Abonnement professionnel, un mois".to_owned(),
            Sold::TestCharge => "Paiement d’essai".to_owned(),
            Sold::RepairWork {
                service,
                postal_code: "",
            } => format!("{service}\u{a0}: travaux de réparation"),
            Sold::RepairWork {
                service,
                postal_code,
            } => format!("{service}\u{a0}: travaux de réparation au {postal_code}"),
        }
    }

    fn contact_message(&self, sender: &str, email: &str, message: &str) -> Mail {
        courriel(
            format!("Formulaire de contact\u{a0}: {sender}"),
            format!("De\u{a0}: {sender} <{email}>\n\n{message}\n"),
        )
    }

    fn support(&self) -> &'static str {
        "Soutien"
    }

    fn problem_reported(&self, name: &str, problem: &ProblemReported<'_>) -> Mail {
        let ProblemReported {
            service,
            customer,
            link,
            ..
        } = *problem;
        let text = excerpt(problem.text);
        courriel(
            format!("Une question sur un travail terminé\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{customer} nous a écrit au sujet du travail que vous avez terminé pour lui ({service})\u{a0}:\n\n«\u{a0}{text}\u{a0}»\n\nVotre conversation avec ce client est rouverte pour que vous puissiez trouver une solution ensemble; notre équipe de soutien peut la lire et vous aider. Répondez ici\u{a0}: {link}"
            ),
        )
    }

    fn problem_reported_admin(&self, name: &str, problem: &ProblemReported<'_>) -> Mail {
        let ProblemReported {
            service,
            customer,
            professional,
            link,
            ..
        } = *problem;
        let text = excerpt(problem.text);
        courriel(
            format!("Problème signalé après un travail\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\n{customer} a signalé un problème avec un travail terminé ({service}, fait par {professional})\u{a0}:\n\n«\u{a0}{text}\u{a0}»\n\nL’historique du travail, sa conversation et le formulaire de résolution\u{a0}: {link}"
            ),
        )
    }

    fn dispute_opened_admin(&self, name: &str, dispute: &DisputeOpened<'_>) -> Mail {
        let (amount, reason, link) = (self.money(dispute.amount), dispute.reason, dispute.link);
        let due = dispute.due.map_or_else(
            || "dès que possible".to_owned(),
            |due| format!("jusqu’au {}", self.date_time(due)),
        );
        courriel(
            format!("Contestation de paiement par carte\u{a0}: {amount}"),
            format!(
                "Bonjour {name},\n\nUn titulaire de carte a contesté auprès de sa banque un paiement de {amount} (motif indiqué\u{a0}: {reason}). Le versement au professionnel pour ce travail est retenu jusqu’à la décision de la banque. La banque reçoit les preuves {due}\u{a0}: examinez ce que la plateforme détient sur le travail et envoyez-le depuis {link}"
            ),
        )
    }

    fn problem_resolved(&self, name: &str, resolved: &ProblemResolved<'_>) -> Mail {
        let ProblemResolved {
            service,
            note,
            link,
            ..
        } = *resolved;
        let refund = if resolved.refunded {
            "\n\nLe paiement a été remboursé en partie ou en totalité; le reçu du remboursement se trouve dans votre historique de commandes."
        } else {
            ""
        };
        courriel(
            format!("Problème réglé\u{a0}: {service}"),
            format!(
                "Bonjour {name},\n\nNotre équipe de soutien a clos le problème signalé sur le travail ({service}). Sa note\u{a0}:\n\n{note}{refund}\n\nLa conversation reste consultable ici\u{a0}: {link}"
            ),
        )
    }
}
