//! Who is told of a released hire: the other party (the customer, in the professional's
//! words and with a way back to their quotes; or the professional, without blame), the
//! professionals whose quotes are live again, and after a third release in 30 days the
//! professional and the admins of the pause. The words are [`crate::words`]'.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    alerts::{self, Alerting},
    error::{ApiResult, not_found},
    outbox::NewOutboxMessage,
    state::AppState,
    store::{
        accounts::{self as account_store, AccountKind},
        hire_releases::{ReleaseRow, ReleasedBy},
        orders, professionals,
        quotes::ClosedQuote,
        repair_requests,
    },
    words::{self, Moment, PausedAfterReleases, ReleasedHire},
};

/// The messages of a release, read through its transaction `tx`.
pub(super) async fn released(
    tx: &mut PgConnection,
    state: &AppState,
    release: &ReleaseRow,
    revived: &[ClosedQuote],
) -> ApiResult<Vec<NewOutboxMessage>> {
    let request = repair_requests::get(&mut *tx, release.repair_request_id)
        .await?
        .ok_or_else(|| not_found("request"))?;
    let pro = account_store::contact(&mut *tx, AccountKind::Professional, release.professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let links = state.config.links();
    let mut told = Vec::new();
    match release.released_by {
        ReleasedBy::Professional => {
            let customer =
                account_store::contact(&mut *tx, AccountKind::Customer, request.customer_id)
                    .await?
                    .ok_or_else(|| not_found("account"))?;
            let link = links.request_quotes(request.id);
            let hire = |language| ReleasedHire {
                service: request.service_name.of(language),
                professional: &pro.name,
                reason: &release.reason,
                link: link.of(language),
            };
            let mail = words::of(customer.language)
                .hire_released_by_professional(&customer.name, &hire(customer.language));
            told.push(NewOutboxMessage::email(
                &customer.email,
                mail.subject,
                mail.body,
            ));
            let tag = format!("quotes:{}", request.id);
            let customer_id = [request.customer_id];
            let to = Alerting::new(AccountKind::Customer, &customer_id, &link, &tag).urgent(true);
            told.extend(
                alerts::to_devices(&mut *tx, to, |_, language| {
                    Some(words::of(language).hire_released_alert(&hire(language)))
                })
                .await?,
            );
        }
        ReleasedBy::Customer => {
            let service = request.service_name.of(pro.language);
            let mail = words::of(pro.language).hire_released_by_customer(&pro.name, service);
            told.push(NewOutboxMessage::email(&pro.email, mail.subject, mail.body));
        }
    }
    let link = links.professional_jobs();
    told.extend(revived.iter().map(|quote| {
        let service = quote.service_name.of(quote.language);
        let mail =
            words::of(quote.language).choosing_again(&quote.name, service, link.of(quote.language));
        NewOutboxMessage::email(&quote.email, mail.subject, mail.body)
    }));
    Ok(told)
}

/// The messages of a pause after `released` released hires: to the professional, in their
/// zone, and to each admin, in UTC.
pub(super) async fn paused(
    tx: &mut PgConnection,
    professional_id: Uuid,
    released: i64,
    until: DateTime<Utc>,
) -> ApiResult<Vec<NewOutboxMessage>> {
    let pro = professionals::get(&mut *tx, professional_id)
        .await?
        .ok_or_else(|| not_found("professional"))?;
    let paused = |until| PausedAfterReleases {
        professional: &pro.name,
        email: &pro.email,
        released,
        until,
    };
    let mail = words::of(pro.language)
        .paused_after_releases(&pro.name, &paused(Moment::new(until, &pro.time_zone)));
    let mut told = vec![NewOutboxMessage::email(&pro.email, mail.subject, mail.body)];
    for admin in orders::admin_recipients(&mut *tx).await? {
        let mail = words::of(admin.language)
            .paused_after_releases_admin(&admin.name, &paused(Moment::utc(until)));
        told.push(NewOutboxMessage::email(
            &admin.email,
            mail.subject,
            mail.body,
        ));
    }
    Ok(told)
}
