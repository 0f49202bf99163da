//! What a copy of one person's data holds, read kind by kind, each as a JSON array (or object)
//! built by Postgres: their own fields, and of anyone else only what they saw — the other
//! party of a conversation, a quote or a review by first name alone, never their contacts.
//! The fields of each file are documented in docs/data-export.md.

use sqlx::PgConnection;
use uuid::Uuid;

use super::accounts::AccountKind;

/// One file of the archive: its name and its JSON.
pub struct Record {
    pub file: &'static str,
    pub json: serde_json::Value,
}

/// The other party's first name, for `name` a column holding their whole name.
const FIRST_NAME: &str = "split_part(trim({name}), ' ', 1)";

fn first_name(column: &str) -> String {
    FIRST_NAME.replace("{name}", column)
}

/// Every kind of record account `id` has, in the archive's order. Read in `tx` (one
/// snapshot, so the files agree with each other).
pub async fn all_of(
    tx: &mut PgConnection,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Vec<Record>> {
    let side = kind.as_str();
    let mut files: Vec<(&'static str, String)> = vec![(
        "account.json",
        format!(
            "select to_jsonb(a) - array['password_hash', 'token_version', 'home_point']
             from {} a where a.id = $1",
            match kind {
                AccountKind::Customer => "customers",
                AccountKind::Professional => "professionals",
            }
        ),
    )];
    match kind {
        AccountKind::Customer => files.extend([
            (
                "requests.json",
                "select coalesce(jsonb_agg(to_jsonb(r) - array['point', 'request_hash']
                                           order by r.created_at), '[]')
                 from repair_requests r where r.customer_id = $1"
                    .to_owned(),
            ),
            (
                "quotes.json",
                format!(
                    "select coalesce(jsonb_agg(jsonb_build_object(
                         'id', q.id, 'repair_request_id', q.repair_request_id,
                         'professional_first_name', {}, 'fee_cents', q.fee_cents,
                         'currency', q.currency, 'estimated_minutes', q.estimated_minutes,
                         'state', q.state, 'created_at', q.created_at)
                         order by q.created_at), '[]')
                     from quotes q join repair_requests r on r.id = q.repair_request_id
                     join professionals p on p.id = q.professional_id
                     where r.customer_id = $1",
                    first_name("p.name")
                ),
            ),
            (
                "orders.json",
                "select coalesce(jsonb_agg(to_jsonb(o) - array['request_id']
                                           order by o.created_at), '[]')
                 from orders o where o.customer_id = $1"
                    .to_owned(),
            ),
            (
                "reviews.json",
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'id', v.id, 'repair_request_id', v.repair_request_id, 'rating', v.rating,
                     'body', v.body, 'created_at', v.created_at) order by v.created_at), '[]')
                 from reviews v where v.customer_id = $1"
                    .to_owned(),
            ),
        ]),
        AccountKind::Professional => files.extend([
            (
                "licences.json",
                "select coalesce(jsonb_agg(to_jsonb(l) - 'file_key' order by l.uploaded_at), '[]')
                 from licences l where l.professional_id = $1"
                    .to_owned(),
            ),
            (
                "services.json",
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'service_id', s.id, 'name_en', s.name_en, 'name_fr', s.name_fr)), '[]')
                 from professional_services ps join services s on s.id = ps.service_id
                 where ps.professional_id = $1"
                    .to_owned(),
            ),
            (
                "quotes.json",
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'id', q.id, 'repair_request_id', q.repair_request_id,
                     'city', r.city, 'province', r.province, 'fee_cents', q.fee_cents,
                     'currency', q.currency, 'estimated_minutes', q.estimated_minutes,
                     'state', q.state, 'created_at', q.created_at) order by q.created_at), '[]')
                 from quotes q join repair_requests r on r.id = q.repair_request_id
                 where q.professional_id = $1"
                    .to_owned(),
            ),
            (
                "orders.json",
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'id', o.id, 'repair_request_id', o.repair_request_id,
                     'amount_cents', o.amount_cents, 'currency', o.currency,
                     'hired_at', o.hired_at, 'completed_at', o.completed_at)
                     order by o.created_at), '[]')
                 from orders o where o.professional_id = $1"
                    .to_owned(),
            ),
            (
                "reviews.json",
                format!(
                    "select coalesce(jsonb_agg(jsonb_build_object(
                         'id', v.id, 'repair_request_id', v.repair_request_id,
                         'customer_first_name', {}, 'rating', v.rating, 'body', v.body,
                         'created_at', v.created_at) order by v.created_at), '[]')
                     from reviews v join customers c on c.id = v.customer_id
                     where v.professional_id = $1",
                    first_name("c.name")
                ),
            ),
        ]),
    }
    files.extend([
        (
            "messages.json",
            format!(
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'conversation_id', c.id, 'repair_request_id', c.repair_request_id,
                     'sequence', m.sequence,
                     'from', case when m.author = '{side}' then 'you'
                                  else {other} end,
                     'text', case when m.deleted_at is null then m.text end,
                     'created_at', m.created_at) order by c.id, m.sequence), '[]')
                 from conversations c
                 join conversation_messages m on m.conversation_id = c.id
                 join customers cu on cu.id = c.customer_id
                 join professionals pr on pr.id = c.professional_id
                 where c.{side}_id = $1",
                other = match kind {
                    AccountKind::Customer => first_name("pr.name"),
                    AccountKind::Professional => first_name("cu.name"),
                },
            ),
        ),
        (
            "payments.json",
            "select coalesce(jsonb_agg((to_jsonb(p) - array['client_secret'])
                                       || jsonb_build_object('receipt', to_jsonb(h))
                                       order by p.created_at), '[]')
             from payments p left join hire_receipts h on h.payment_id = p.id
             where p.payer_id = $1"
                .to_owned(),
        ),
        (
            "devices.json",
            format!(
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'platform', d.platform, 'language', d.language, 'created_at', d.created_at)
                     order by d.created_at), '[]')
                 from push_subscriptions d where d.{side}_id = $1"
            ),
        ),
        (
            "notification_preferences.json",
            format!(
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'topic', n.topic, 'channel', n.channel, 'enabled', n.enabled,
                     'source', n.source, 'updated_at', n.updated_at)), '[]')
                 from notification_preferences n
                 where n.account_kind = '{side}' and n.account_id = $1"
            ),
        ),
        (
            "consents.json",
            format!(
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'subject', c.subject, 'version', c.version, 'given', c.given,
                     'source', c.source, 'client_address', host(c.client_address),
                     'at', c.created_at) order by c.created_at, c.id), '[]')
                 from consents c where c.account_kind = '{side}' and c.account_id = $1"
            ),
        ),
        (
            "sign_ins.json",
            format!(
                "select coalesce(jsonb_agg(jsonb_build_object(
                     'signed_in_at', s.created_at, 'ended_at', s.ended_at,
                     'end_reason', s.end_reason, 'expires_at', s.expires_at)
                     order by s.created_at), '[]')
                 from session_families s where s.role = '{side}' and s.account_id = $1"
            ),
        ),
    ]);
    let mut records = Vec::with_capacity(files.len());
    for (file, query) in files {
        let json: Option<serde_json::Value> = sqlx::query_scalar(sqlx::AssertSqlSafe(query))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        records.push(Record {
            file,
            json: json.unwrap_or(serde_json::Value::Null),
        });
    }
    Ok(records)
}

/// A photo of the person's to put in the archive: its path there and its storage key.
pub struct PhotoFile {
    pub path: String,
    pub key: String,
}

/// The photos account `id` took: of their requests' damage (a customer), sent in their
/// messages, and a professional's own photo and licences.
pub async fn files_of(
    tx: &mut PgConnection,
    kind: AccountKind,
    id: Uuid,
) -> sqlx::Result<Vec<PhotoFile>> {
    let query = match kind {
        AccountKind::Customer => {
            "select 'photos/requests/' || p.repair_request_id || '/' || p.id || '.jpg', p.large_key
             from repair_request_photos p join repair_requests r on r.id = p.repair_request_id
             where r.customer_id = $1
             union all
             select 'photos/messages/' || m.id || '.jpg', m.large_key
             from message_photos m where m.uploader_id = $1
             order by 1"
        }
        AccountKind::Professional => {
            "select 'photos/profile' || coalesce(substring(photo_key from '\\.[a-z0-9]+$'), ''),
                    photo_key
             from professionals where id = $1 and photo_key is not null
             union all
             select 'licences/' || l.id || '-' || regexp_replace(l.file_name, '[^A-Za-z0-9._-]', '_', 'g'),
                    l.file_key
             from licences l where l.professional_id = $1
             union all
             select 'photos/messages/' || m.id || '.jpg', m.large_key
             from message_photos m where m.uploader_id = $1
             order by 1"
        }
    };
    let rows: Vec<(String, String)> = sqlx::query_as(query).bind(id).fetch_all(tx).await?;
    Ok(rows
        .into_iter()
        .map(|(path, key)| PhotoFile { path, key })
        .collect())
}
