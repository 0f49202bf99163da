//! Every English text the server writes. Canadian English: "$1,234.56", "December 25, 2026",
//! "2:30 p.m.".

use chrono::{Datelike, Timelike};

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

pub struct English;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// How far a request is: "about 12 km", or "less than 1 km" (never "about 0 km").
fn distance(km: i32) -> String {
    match km {
        ..=0 => "less than 1 km".to_owned(),
        km => format!("about {km} km"),
    }
}

/// ", about 12 min by road" when a router reckoned the drive; nothing otherwise.
fn by_road(minutes: Option<i32>) -> String {
    minutes.map_or_else(String::new, |m| format!(", {} by road", minutes_text(m)))
}

/// "about 12 min", "less than 1 min".
fn minutes_text(minutes: i32) -> String {
    match minutes {
        ..=0 => "less than 1 min".to_owned(),
        m => format!("about {m} min"),
    }
}

/// `text` with its first letter in upper case, to open a sentence.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

const RECEIPT: ReceiptLabels = ReceiptLabels {
    heading: "Receipt",
    seller: "Seller: ",
    date: "Date: ",
    buyer: "Buyer: ",
    description: "Description: Professional membership, one month",
    free: "This month is free with your coupon.",
    subtotal: "Subtotal: ",
    total: "Total: ",
    colon: ": ",
    programs: ("GST/HST", "QST"),
    registration: |program, number| match number {
        Some(number) => format!("{program} registration number: {number}"),
        None => format!("{program}: not registered"),
    },
    printable: "Printable receipt: ",
};

fn mail(subject: impl Into<String>, body: String) -> Mail {
    Mail {
        subject: subject.into(),
        body,
    }
}

impl English {
    /// A receipt's lines: its number, the job, who did it, the amount and when, under the
    /// labels `amount` and `date`.
    fn receipt_lines(
        &self,
        payment: &HirePayment<'_>,
        (amount, date): (&str, &str),
        when: Moment,
    ) -> String {
        let HirePayment {
            service,
            professional,
            order_id,
            ..
        } = *payment;
        let (money, when) = (self.money(payment.amount), self.date_time(when));
        format!(
            "Receipt number: {order_id}\nService: {service}\nProfessional: {professional}\n{amount}: {money}\n{date}: {when}"
        )
    }
}

impl Words for English {
    fn price_with_taxes(&self, total: &str, fee: &str) -> String {
        format!("{total} taxes included ({fee} before taxes)")
    }

    fn money(&self, amount: Money) -> String {
        let (units, cents) = amount_parts(amount, ',');
        format!("{}{units}.{cents:02}", symbol(amount.currency()))
    }

    fn date(&self, when: Moment) -> String {
        let day = when.wall();
        let month = MONTHS[day.month0() as usize];
        format!("{month} {}, {}{}", day.day(), day.year(), when.date_note())
    }

    fn date_time(&self, when: Moment) -> String {
        let wall = when.wall();
        let (afternoon, hour) = wall.hour12();
        let half = if afternoon { "p.m." } else { "a.m." };
        let month = MONTHS[wall.month0() as usize];
        let (day, year, minute) = (wall.day(), wall.year(), wall.minute());
        let offset = when.offset();
        format!("{month} {day}, {year} at {hour}:{minute:02} {half} ({offset})")
    }

    fn tax_name(&self, tax: TaxName) -> &'static str {
        tax.as_str()
    }

    fn percent(&self, rate: Rate) -> String {
        format!("{}%", rate.rate_percent())
    }

    fn password_reset(&self, name: &str, link: &str) -> Mail {
        mail(
            "Reset your password",
            format!(
                "Hello {name},\n\nTo choose a new password, open this link within the hour:\n{link}\n\nIf you did not ask for this, ignore this message."
            ),
        )
    }

    fn data_export_ready(&self, name: &str, until: Moment, link: &str) -> Mail {
        mail(
            "A copy of your data is ready",
            format!(
                "Hello {name},\n\nThe copy of your data you asked for is ready. Download it from your account page until {}:\n{link}\n\nIf you did not ask for it, tell us by replying to this email.",
                self.date(until)
            ),
        )
    }

    fn account_closed(&self, name: &str, erased_on: Moment, keep_link: &str) -> Mail {
        mail(
            "Your account is closed",
            format!(
                "Hello {name},\n\nYour account is closed, as you asked. Your personal information will be erased on {}; the receipts and records the law makes us keep will no longer name you.\n\nIf you change your mind before then, open this link to keep your account:\n{keep_link}\n\nIf you did not ask for this, open the link at once and change your password.",
                self.date(erased_on)
            ),
        )
    }

    fn email_confirmation(&self, name: &str, link: &str) -> Mail {
        mail(
            "Confirm your email address",
            format!(
                "Hello {name},\n\nTo confirm your email address, open this link within three days:\n{link}\n\nIf you did not create an account, ignore this message."
            ),
        )
    }

    fn phone_code(&self, code: &str) -> String {
        format!("Your verification code is {code}. It expires in 10 minutes.")
    }

    fn profile_approved(&self, name: &str, link: &str) -> Mail {
        mail(
            "Your profile is approved",
            format!(
                "Hello {name},\n\nYour professional profile is approved. Activate your membership to start receiving requests.\n\nSign in to get started:\n{link}"
            ),
        )
    }

    fn registration_denied(&self, name: &str, reason: &str) -> Mail {
        mail(
            "Your registration was denied",
            format!(
                "Hello {name},\n\nYour registration was denied for this reason:\n{reason}\n\nYou can update your profile and submit it again."
            ),
        )
    }

    fn pending_change_approved(&self, name: &str) -> Mail {
        mail(
            "Your profile change is approved",
            format!(
                "Hello {name},\n\nAn administrator approved the change to your profile. It is now part of your profile."
            ),
        )
    }

    fn pending_change_refused(&self, name: &str, reason: &str) -> Mail {
        mail(
            "Your profile change was refused",
            format!(
                "Hello {name},\n\nAn administrator refused the change to your profile for this reason:\n{reason}\n\nYour profile stays as it was approved, and you keep receiving requests. You can make the change again."
            ),
        )
    }

    fn licence_revoked(&self, name: &str, reason: &str) -> Mail {
        mail(
            "Your licence was revoked",
            format!(
                "Hello {name},\n\nAn administrator refused the change to your profile and revoked your licence for this reason:\n{reason}\n\nYou cannot take jobs until a licence is approved again, so your waiting quotes are withdrawn. Upload a valid licence and submit your profile for review."
            ),
        )
    }

    fn new_request_email(&self, name: &str, request: &NewRequest<'_>) -> Mail {
        let NewRequest {
            service,
            city,
            province,
            distance_km,
            drive_minutes,
            emergency,
            photos,
            link,
        } = *request;
        let (distance, road) = (distance(distance_km), by_road(drive_minutes));
        let urgency = if emergency {
            "The customer needs help right away."
        } else {
            "The customer can wait a few days."
        };
        mail(
            format!("New request: {service} in {city}"),
            format!(
                "Hello {name},\n\nA new request ({service}) was just posted in {city}, {province}, {distance} from your base{road}.\n{urgency}\nPhotos of the damage: {photos}.\n\nSee the request and send a quote: {link}"
            ),
        )
    }

    fn new_request_sms(&self, request: &NewRequest<'_>) -> String {
        let NewRequest {
            service,
            city,
            distance_km,
            drive_minutes,
            photos,
            link,
            ..
        } = *request;
        let distance = format!("{}{}", distance(distance_km), by_road(drive_minutes));
        format!("New request: {service} in {city} ({distance}, photos: {photos}). {link}")
    }

    fn new_request_alert(&self, request: &NewRequest<'_>) -> Alert {
        let (service, city) = (request.service, request.city);
        let kind = if request.emergency {
            "Emergency"
        } else {
            "New request"
        };
        Alert {
            title: format!("{kind}: {service} in {city}"),
            body: format!(
                "{} from you{}. Photos: {}. Open the request to send a quote.",
                capitalised(&distance(request.distance_km)),
                by_road(request.drive_minutes),
                request.photos
            ),
        }
    }

    fn new_quote_alert(&self, quote: &NewQuote<'_>) -> Alert {
        Alert {
            title: format!("New quote: {}", quote.service),
            body: format!(
                "{} offers {}. Open your request to see the quotes.",
                quote.professional,
                self.quoted_price(quote.fee, quote.total)
            ),
        }
    }

    fn trip_started_alert(&self, professional: &str, service: &str, minutes: i32) -> Alert {
        Alert {
            title: format!("{professional} is on the way"),
            body: format!(
                "{service}: {} to your door. Open your request to follow the arrival.",
                minutes_text(minutes)
            ),
        }
    }

    fn trip_started_sms(&self, professional: &str, minutes: i32, link: &str) -> String {
        format!(
            "{professional} is on the way: {}. Follow the arrival: {link}",
            minutes_text(minutes)
        )
    }

    fn trip_arrived_alert(&self, professional: &str, service: &str) -> Alert {
        Alert {
            title: format!("{professional} has arrived"),
            body: format!("{service}: {professional} is at your door."),
        }
    }

    fn request_cancelled(&self, name: &str, service: &str) -> Mail {
        mail(
            format!("Request cancelled: {service}"),
            format!(
                "Hello {name},\n\nThe customer cancelled their request ({service}) that you quoted on. Your quote is closed; there is nothing for you to do."
            ),
        )
    }

    fn new_quote_email(&self, name: &str, quote: &NewQuote<'_>) -> Mail {
        let NewQuote {
            service,
            professional,
            link,
            ..
        } = *quote;
        let fee = self.quoted_price(quote.fee, quote.total);
        mail(
            format!("New quote on your request: {service}"),
            format!(
                "Hello {name},\n\n{professional} quoted {fee} for your request ({service}).\n\nSee the quotes and hire a professional: {link}"
            ),
        )
    }

    fn new_quote_sms(&self, quote: &NewQuote<'_>) -> String {
        let fee = self.quoted_price(quote.fee, quote.total);
        format!("New quote ({}): {fee}. {}", quote.service, quote.link)
    }

    fn quote_withdrawn(&self, name: &str, professional: &str, service: &str) -> Mail {
        mail(
            format!("Quote withdrawn: {service}"),
            format!(
                "Hello {name},\n\n{professional} cannot take jobs on our platform at the moment, so their quote for your request ({service}) is withdrawn. Your request stays open to other professionals."
            ),
        )
    }

    fn quote_closed_alert(&self, service: &str, cancelled: bool) -> Alert {
        if cancelled {
            Alert {
                title: format!("Request cancelled: {service}"),
                body: "The customer cancelled their request. There is nothing for you to do."
                    .to_owned(),
            }
        } else {
            Alert {
                title: format!("Quote not selected: {service}"),
                body: "The customer hired another professional. Your quote is closed.".to_owned(),
            }
        }
    }

    fn hired_alert(&self, service: &str, customer: &str) -> Alert {
        Alert {
            title: format!("You are hired: {service}"),
            body: format!("{customer} hired you. Open the job for the address and their phone."),
        }
    }

    fn hired(&self, name: &str, job: &Hired<'_>) -> Mail {
        let Hired {
            service,
            customer,
            customer_phone,
            address,
            link,
        } = *job;
        mail(
            format!("You are hired: {service}"),
            format!(
                "Hello {name},\n\n{customer} hired you for their request ({service}).\n\nAddress: {address}\nCustomer's phone: {customer_phone}\n\nSee the job: {link}"
            ),
        )
    }

    fn hired_sms(&self, job: &Hired<'_>) -> String {
        let (service, customer, link) = (job.service, job.customer, job.link);
        format!("{customer} hired you ({service}). The address and their phone: {link}")
    }

    fn not_selected(&self, name: &str, service: &str) -> Mail {
        mail(
            format!("Quote not selected: {service}"),
            format!(
                "Hello {name},\n\nThe customer chose another professional for their request ({service}). Your quote is closed; there is nothing for you to do."
            ),
        )
    }

    fn hold_lapsing(&self, name: &str, service: &str, lapses: Moment, link: &str) -> Mail {
        let lapses = self.date_time(lapses);
        mail(
            format!("Card hold lapses soon: {service}"),
            format!(
                "Hello {name},\n\nThe card hold for the job ({service}) lapses on {lapses}. Mark the job completed before then, or authorize the card again: {link}"
            ),
        )
    }

    fn hold_lapsing_admin(&self, name: &str, order: &LapsingOrder<'_>) -> Mail {
        let LapsingOrder {
            service,
            customer,
            order_id,
            link,
            ..
        } = *order;
        let lapses = self.date_time(order.lapses);
        mail(
            format!("Card hold lapses soon: order {order_id}"),
            format!(
                "Hello {name},\n\nThe card hold of order {order_id} ({service}, customer: {customer}) lapses on {lapses}. The customer was told. You can charge it or release it from the order history: {link}"
            ),
        )
    }

    fn hold_placed(&self, name: &str, payment: &HirePayment<'_>, lapses: Option<Moment>) -> Mail {
        let HirePayment {
            service,
            professional,
            link,
            ..
        } = *payment;
        let amount = self.money(payment.amount);
        let lapse = match lapses {
            Some(lapses) => format!(
                "If the job is not completed by {}, the hold lapses and nothing is charged.",
                self.date_time(lapses)
            ),
            None => {
                "If the job is not completed before the hold lapses, nothing is charged.".to_owned()
            }
        };
        mail(
            format!("Card hold placed: {service}"),
            format!(
                "Hello {name},\n\nYou hired {professional} for your request ({service}). A hold of {amount} is placed on your card: your card is charged only when you mark the job completed.\n{lapse}\n\nSee your active requests: {link}"
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
        let lines = self.receipt_lines(payment, ("Amount charged", "Charged on"), charged);
        let details = hire_receipt_lines(self, payment.professional, receipt, &RECEIPT);
        let (service, link) = (payment.service, payment.link);
        mail(
            format!("Your receipt: {service}"),
            format!(
                "Hello {name},\n\nThank you. Your card was charged for your request ({service}).\n\n{lines}\n\n{details}\n\nSee your orders: {link}"
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
        let lines = self.receipt_lines(payment, ("Amount refunded", "Refunded on"), refunded);
        let details = hire_receipt_lines(self, payment.professional, receipt, &RECEIPT);
        let (service, link) = (payment.service, payment.link);
        mail(
            format!("Refund: {service}"),
            format!(
                "Hello {name},\n\nYour payment for your request ({service}) was refunded to your card. Your bank may take a few days to show it.\n\n{lines}\n\n{details}\n\nSee your orders: {link}"
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
        let how = if note.in_full { "in full" } else { "in part" };
        let mut lines = format!(
            "Order: {order_id}\nOriginal total: {}\nAmount refunded: {amount}\nSales taxes refunded: {}\nRefunded on: {}\nReason: {reason}",
            self.money(note.original),
            self.money(note.taxes),
            self.date_time(note.refunded),
        );
        let intro = match note.professional_share {
            None => format!(
                "The payment for your request ({service}) was refunded {how}: {amount} goes back to your card. Your bank may take a few days to show it."
            ),
            Some(share) => {
                lines.push_str(&format!("\nYour share given back: {}", self.money(share)));
                format!(
                    "The customer's payment for the job ({service}) was refunded {how}: {amount} went back to their card. Your share of it is taken off what you are owed, or settled with you if it was already paid out."
                )
            }
        };
        mail(
            format!("Credit note: {service}"),
            format!("Hello {name},\n\n{intro}\n\n{lines}\n\nYour credit note: {link}"),
        )
    }

    fn hold_ended(
        &self,
        name: &str,
        payment: &HirePayment<'_>,
        end: HoldEnd,
        ended: Moment,
    ) -> Mail {
        let HirePayment {
            service,
            professional,
            link,
            ..
        } = *payment;
        let amount = self.money(payment.amount);
        let ended = self.date_time(ended);
        let (subject, what, next) = match end {
            HoldEnd::Released => ("released", "was released", "See your orders"),
            HoldEnd::Lapsed => (
                "lapsed",
                "lapsed",
                "If the job is still to be done, authorize the card again from your active requests",
            ),
        };
        mail(
            format!("Card hold {subject}: {service}"),
            format!(
                "Hello {name},\n\nThe hold of {amount} on your card for your request ({service}) with {professional} {what} on {ended}. Your card was not charged.\n\n{next}: {link}"
            ),
        )
    }

    fn payment_alert(&self, payment: &HirePayment<'_>, step: PaymentStep) -> Alert {
        let (service, amount) = (payment.service, self.money(payment.amount));
        let (title, body) = match step {
            PaymentStep::HoldPlaced => (
                format!("Hold placed: {service}"),
                format!(
                    "{amount} is held on your card for {}.",
                    payment.professional
                ),
            ),
            PaymentStep::Charged => (
                format!("Your receipt: {service}"),
                format!("Your card was charged {amount}."),
            ),
            PaymentStep::Refunded => (
                format!("Refund: {service}"),
                format!("{amount} was refunded to your card."),
            ),
            PaymentStep::HoldEnded(end) => (
                format!("Hold ended: {service}"),
                match end {
                    HoldEnd::Released => {
                        format!("The hold of {amount} was released; nothing was charged.")
                    }
                    HoldEnd::Lapsed => format!(
                        "The hold of {amount} lapsed; nothing was charged. Hire again to go on."
                    ),
                },
            ),
        };
        Alert { title, body }
    }

    fn job_paid_alert(&self, paid: &JobPaid<'_>) -> Alert {
        Alert {
            title: format!("Job paid: {}", paid.service),
            body: format!(
                "{} paid. You are owed {}.",
                paid.customer,
                self.money(paid.net)
            ),
        }
    }

    fn hire_released_by_professional(&self, name: &str, hire: &ReleasedHire<'_>) -> Mail {
        let (service, professional) = (hire.service, hire.professional);
        let (reason, link) = (hire.reason, hire.link);
        mail(
            format!("{professional} can't make it: {service}"),
            format!(
                "Hello {name},\n\n{professional} can't come for your request ({service}). In their words: \u{201c}{reason}\u{201d}\n\nThe hold on your card is released and nothing was charged. Your request is open again with the other quotes you had: choose another professional now, no need to post again: {link}"
            ),
        )
    }

    fn hire_released_alert(&self, hire: &ReleasedHire<'_>) -> Alert {
        Alert {
            title: format!("{} can't make it", hire.professional),
            body: format!(
                "{}: your other quotes are open again. Choose another professional.",
                hire.service
            ),
        }
    }

    fn hire_released_by_customer(&self, name: &str, service: &str) -> Mail {
        mail(
            format!("Job released: {service}"),
            format!(
                "Hello {name},\n\nThe customer released the job ({service}): they needed someone there sooner and are choosing another professional. You don't need to go, and nothing was charged to them. If you were on your way, write to them in the conversation."
            ),
        )
    }

    fn choosing_again(&self, name: &str, service: &str, link: &str) -> Mail {
        mail(
            format!("Your quote is live again: {service}"),
            format!(
                "Hello {name},\n\nThe professional hired for a request you quoted on ({service}) could not do the job, so the customer is choosing again and your quote is live again. If you can no longer do it, withdraw it: {link}"
            ),
        )
    }

    fn paused_after_releases(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail {
        let (released, until) = (paused.released, self.date_time(paused.until));
        mail(
            format!(
                "Your request alerts are paused until {}",
                self.date(paused.until)
            ),
            format!(
                "Hello {name},\n\n{released} of your jobs were released in the last 30 days. So that customers with an emergency reach someone who can come, your new request alerts are paused until {until}. Your live quotes stay as they are. When you are ready again, end the pause from your profile (Availability)."
            ),
        )
    }

    fn paused_after_releases_admin(&self, name: &str, paused: &PausedAfterReleases<'_>) -> Mail {
        let (professional, email) = (paused.professional, paused.email);
        let (released, until) = (paused.released, self.date_time(paused.until));
        mail(
            format!("Paused after {released} released jobs: {professional}"),
            format!(
                "Hello {name},\n\n{released} jobs of {professional} ({email}) were released in the last 30 days, by them or by their customers. Their request alerts are paused until {until}; they were told. You may want to ask them what is happening; the pause can be ended from their profile."
            ),
        )
    }

    fn job_paid(&self, name: &str, paid: &JobPaid<'_>) -> Mail {
        let JobPaid {
            service,
            customer,
            order_id,
            link,
            ..
        } = *paid;
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
                format!(
                    "\n{name} {rate} on the platform fee: {}",
                    self.money(tax.amount)
                )
            })
            .collect();
        let receipt = paid.receipt_link;
        mail(
            format!("Job paid: {service}"),
            format!(
                "Hello {name},\n\nThe payment for the job ({service}) you did for {customer} went through on {when}.\n\nOrder: {order_id}\nJob amount: {amount}\nPlatform fee: {fee}{fee_taxes}\nYour payout: {net}\nPrintable receipt: {receipt}\n\nSee your orders: {link}"
            ),
        )
    }

    fn hidden_phone(&self) -> &'static str {
        "[phone number shared once hired]"
    }

    fn hidden_email(&self) -> &'static str {
        "[email shared once hired]"
    }

    fn no_photos(&self) -> &'static str {
        "none"
    }

    fn photos_attached(&self, count: usize) -> String {
        match count {
            1 => "(a photo)".to_owned(),
            n => format!("({n} photos)"),
        }
    }

    fn new_message_alert(&self, message: &NewMessage<'_>) -> Alert {
        Alert {
            title: format!("New message: {}", message.service),
            body: format!(
                "{}: {}",
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
            |start| format!(" \u{201c}{start}\u{201d}"),
            |quoted| format!("{from} wrote to you{quoted}. Answer: {link}"),
        )
    }

    fn unread_messages(&self, name: &str, unread: &UnreadMessages<'_>) -> Mail {
        let UnreadMessages {
            service,
            from,
            count,
            link,
            ..
        } = *unread;
        let what = match count {
            1 => "a message you have not read".to_owned(),
            n => format!("{n} messages you have not read"),
        };
        let quoted: Vec<String> = unread
            .texts
            .iter()
            .map(|text| format!("\u{201c}{}\u{201d}", excerpt(text)))
            .collect();
        let more = match count.saturating_sub(unread.texts.len()) {
            0 => String::new(),
            n => format!("\n\n… and {n} more."),
        };
        mail(
            format!("{from} wrote to you: {service}"),
            format!(
                "Hello {name},\n\n{from} wrote to you about the request ({service}): {what}.\n\n{}{more}\n\nRead and answer: {link}",
                quoted.join("\n\n")
            ),
        )
    }

    fn reviewed(&self, name: &str, review: &Reviewed<'_>) -> Mail {
        let Reviewed {
            service,
            customer,
            rating,
            link,
            ..
        } = *review;
        let words = match excerpt(review.text) {
            text if text.is_empty() => "They left no comment.".to_owned(),
            text => format!("\u{201c}{text}\u{201d}"),
        };
        mail(
            format!("New review: {service}"),
            format!(
                "Hello {name},\n\n{customer} reviewed your work on their request ({service}).\n\nRating: {rating} out of 5\n{words}\n\nSee your reviews on your profile: {link}"
            ),
        )
    }

    fn membership_receipt(&self, name: &str, receipt: &MembershipReceipt<'_>) -> Mail {
        let end = self.date(receipt.ends);
        let lines = receipt_lines(self, name, receipt, &RECEIPT);
        mail(
            "Your membership receipt",
            format!(
                "Hello {name},\n\nThank you! Your professional membership is extended by one month. It is active until {end}.\n\n{lines}"
            ),
        )
    }

    fn membership_reminder(&self, name: &str, ends: Moment) -> Mail {
        let end = self.date(ends);
        mail(
            "Your membership ends soon",
            format!(
                "Hello {name},\n\nYour professional membership ends on {end}. Renew it to keep receiving requests."
            ),
        )
    }

    fn unsubscribe_footer(&self, topic: Topic, sender: &str, link: &str) -> String {
        let what = match topic {
            Topic::NewRequests => "alerts of new repair requests near you",
            Topic::RequestUpdates => "updates on your requests and jobs",
            Topic::Reminders => "reminders about your membership",
        };
        format!(
            "You receive {what} because of your account with {sender}. To stop these emails, open {link} (no sign-in needed) or choose on your account page."
        )
    }

    fn receipt_description(&self, sold: Sold<'_>) -> String {
        match sold {
            Sold::Membership => "Professional membership, one month".to_owned(),
            Sold::TestCharge => "Test charge".to_owned(),
            Sold::RepairWork {
                service,
                postal_code: "",
            } => format!("{service}: repair work"),
            Sold::RepairWork {
                service,
                postal_code,
            } => format!("{service}: repair work at {postal_code}"),
        }
    }

    fn contact_message(&self, sender: &str, email: &str, message: &str) -> Mail {
        mail(
            format!("Contact form: {sender}"),
            format!("From: {sender} <{email}>\n\n{message}\n"),
        )
    }

    fn support(&self) -> &'static str {
        "Support"
    }

    fn problem_reported(&self, name: &str, problem: &ProblemReported<'_>) -> Mail {
        let ProblemReported {
            service,
            customer,
            link,
            ..
        } = *problem;
        let text = excerpt(problem.text);
        mail(
            format!("A question about a finished job: {service}"),
            format!(
                "Hello {name},\n\n{customer} wrote to us about the job you finished for them ({service}):\n\n\u{201c}{text}\u{201d}\n\nYour conversation with them is open again so you can sort it out together; our support team can read it and help. Reply here: {link}"
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
        mail(
            format!("Problem reported after a job: {service}"),
            format!(
                "Hello {name},\n\n{customer} reported a problem with a finished job ({service}, done by {professional}):\n\n\u{201c}{text}\u{201d}\n\nThe job's history, its conversation and the resolve form: {link}"
            ),
        )
    }

    fn dispute_opened_admin(&self, name: &str, dispute: &DisputeOpened<'_>) -> Mail {
        let (amount, reason, link) = (self.money(dispute.amount), dispute.reason, dispute.link);
        let due = dispute.due.map_or_else(
            || "as soon as possible".to_owned(),
            |due| format!("by {}", self.date_time(due)),
        );
        mail(
            format!("Card dispute: {amount}"),
            format!(
                "Hello {name},\n\nA cardholder disputed a charge of {amount} with their bank (reason given: {reason}). The professional's payout for this job is held until the bank decides. The bank takes evidence {due}: review what the platform holds about the job and send it from {link}"
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
            "\n\nThe payment was refunded in part or in full; the refund receipt is in your order history."
        } else {
            ""
        };
        mail(
            format!("Problem closed: {service}"),
            format!(
                "Hello {name},\n\nOur support team closed the problem reported on the job ({service}). Their note:\n\n{note}{refund}\n\nThe conversation stays readable here: {link}"
            ),
        )
    }
}
