//! Who is told what about a hire, and when: the hired professional (where the job is and
//! how to reach the customer), the professionals whose quotes lost, and, a day before a card
//! hold lapses, the customer (in their request's time zone) and the admins (in UTC). The
//! words are [`crate::words`]'.

use crate::{
    outbox::NewOutboxMessage,
    store::{
        accounts::Contact,
        orders::{AdminRecipient, LapsingHold},
        quotes::ClosedQuote,
        repair_requests::RepairRequestRow,
    },
    words::{self, Hired, LapsingOrder, Moment},
};

/// The email telling the hired professional `pro` where the job is and how to reach
/// `customer` (`link` lists their active jobs).
pub(super) fn hired(
    pro: &Contact,
    customer: &Contact,
    request: &RepairRequestRow,
    link: &str,
) -> NewOutboxMessage {
    let job = Hired {
        service: request.service_name.of(pro.language),
        customer: &customer.name,
        customer_phone: customer.phone.as_deref().unwrap_or(""),
        address: &request.street_address(),
        link,
    };
    let mail = words::of(pro.language).hired(&pro.name, &job);
    NewOutboxMessage::email(&pro.email, mail.subject, mail.body)
}

/// The email telling a professional whose quote lost that the customer hired someone else.
pub(super) fn not_selected(closed: &ClosedQuote) -> NewOutboxMessage {
    let service = closed.service_name.of(closed.language);
    let mail = words::of(closed.language).not_selected(&closed.name, service);
    NewOutboxMessage::email(&closed.email, mail.subject, mail.body)
}

/// The email warning the customer that their job's hold lapses soon (`link`: their active
/// requests), at the hour of their request's place.
pub(super) fn hold_lapsing(hold: &LapsingHold, link: &str) -> NewOutboxMessage {
    let language = hold.customer_language;
    let mail = words::of(language).hold_lapsing(
        &hold.customer_name,
        hold.service_name.of(language),
        Moment::new(hold.lapses_at, &hold.time_zone),
        link,
    );
    NewOutboxMessage::email(&hold.customer_email, mail.subject, mail.body)
}

/// The email warning `admin` of the same hold (`link`: the order history), in UTC.
pub(super) fn hold_lapsing_admin(
    hold: &LapsingHold,
    admin: &AdminRecipient,
    link: &str,
) -> NewOutboxMessage {
    let order_id = hold.order_id.to_string();
    let order = LapsingOrder {
        service: hold.service_name.of(admin.language),
        customer: &hold.customer_name,
        order_id: &order_id,
        lapses: Moment::utc(hold.lapses_at),
        link,
    };
    let mail = words::of(admin.language).hold_lapsing_admin(&admin.name, &order);
    NewOutboxMessage::email(&admin.email, mail.subject, mail.body)
}
