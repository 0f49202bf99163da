//! What a professional is told of a review of their work: its rating, its words (or their
//! start) and where they read their reviews. The words are [`crate::words`]'.

use crate::{
    config::links::PageLink,
    outbox::NewOutboxMessage,
    store::{accounts::Contact, reviews::ReviewRow, services::ServiceNames},
    words::{self, Reviewed},
};

/// The email telling professional `pro` of `review` of their job for `service` (`link`:
/// their profile, with their reviews).
pub(super) fn reviewed(
    pro: &Contact,
    review: &ReviewRow,
    service: &ServiceNames,
    link: &PageLink,
) -> NewOutboxMessage {
    let told = Reviewed {
        service: service.of(pro.language),
        customer: &review.customer_name,
        rating: review.rating,
        text: &review.body,
        link: link.of(pro.language),
    };
    let mail = words::of(pro.language).reviewed(&pro.name, &told);
    NewOutboxMessage::email(&pro.email, mail.subject, mail.body)
}
