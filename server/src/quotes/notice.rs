//! What customers are told about the quotes on their requests: a new quote (an email, and
//! a text when they opted in and verified their phone), and a quote withdrawn because its
//! professional can no longer take jobs. The words are [`crate::words`]'.

use crate::{
    billing::sale,
    config::links::PageLink,
    domain::{Language, Role, SmsUpdates, Subscriber, Topic},
    outbox::NewOutboxMessage,
    store::{
        customers::CustomerRow,
        quotes::{QuoteRow, WithdrawnQuote},
    },
    words::{self, Alert, NewQuote},
};

/// The facts of `quote` as its customer reads them in `language`.
fn facts<'a>(quote: &'a QuoteRow, language: Language, link: &'a str) -> NewQuote<'a> {
    NewQuote {
        service: quote.service_name.of(language),
        professional: &quote.professional_name,
        fee: quote.fee(),
        total: sale::quote_sale(quote).total(),
        link,
    }
}

/// The push alert of `quote` on a device of its customer set to `language`.
pub(super) fn new_quote_alert(quote: &QuoteRow, language: Language, link: &PageLink) -> Alert {
    words::of(language).new_quote_alert(&facts(quote, language, link.of(language)))
}

/// The messages telling `customer` of `quote` on their request (`link` lists its quotes).
pub(super) fn new_quote(
    customer: &CustomerRow,
    quote: &QuoteRow,
    link: &PageLink,
) -> Vec<NewOutboxMessage> {
    let words = words::of(customer.language);
    let facts = facts(quote, customer.language, link.of(customer.language));
    let mail = words.new_quote_email(&customer.name, &facts);
    let subscriber = Subscriber {
        topic: Topic::RequestUpdates,
        role: Role::Customer,
        account_id: customer.id,
        language: customer.language,
    };
    let mut messages = vec![NewOutboxMessage::email(
        &customer.email,
        mail.subject,
        mail.body,
    )];
    let choice = SmsUpdates::from_code(&customer.sms_updates).unwrap_or_default();
    if let Some(phone) = choice.texts_to(customer.phone.as_deref(), customer.phone_verified) {
        messages.push(NewOutboxMessage::sms(phone, words.new_quote_sms(&facts)));
    }
    messages
        .into_iter()
        .map(|message| message.for_subscriber(subscriber))
        .collect()
}

/// The email telling a customer that a quote on their request was withdrawn.
pub(super) fn withdrawn(quote: &WithdrawnQuote) -> NewOutboxMessage {
    let language = quote.customer_language;
    let mail = words::of(language).quote_withdrawn(
        &quote.customer_name,
        &quote.professional_name,
        quote.service_name.of(language),
    );
    NewOutboxMessage::email(&quote.customer_email, mail.subject, mail.body)
}
