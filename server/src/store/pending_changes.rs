//! A professional's pending change: what an approved professional proposed of what an admin
//! vetted (legal name, registered address, qualification, experience, services, and the
//! licences they uploaded, `licences.awaiting_review`), kept beside the approved profile in
//! `professional_pending_changes` until an admin approves ([`apply`]) or refuses
//! ([`discard`]) it. Matching and hiring read only the approved values. Every function runs
//! in the caller's transaction, under the professional's row lock the caller took.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::VettedProfile;

/// The vetted part of professional `id`'s profile as approved.
pub async fn approved(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<VettedProfile>> {
    sqlx::query_as(
        "select p.name, p.registered_address, p.qualification, p.experience,
             array(select s.service_id from professional_services s
                   where s.professional_id = p.id order by s.service_id) as service_ids
         from professionals p where p.id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await
}

/// A pending change as stored: the proposed values all set or all `None` (only licences
/// wait), with how many licences await review.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingChangeRow {
    pub name: Option<String>,
    pub registered_address: Option<String>,
    pub qualification: Option<String>,
    pub experience: Option<String>,
    pub service_ids: Option<Vec<Uuid>>,
    pub revision: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub licences_awaiting_review: i64,
}

impl PendingChangeRow {
    /// The proposed values, when the change holds any.
    pub fn proposed(&self) -> Option<VettedProfile> {
        Some(VettedProfile {
            name: self.name.clone()?,
            registered_address: self.registered_address.clone()?,
            qualification: self.qualification.clone()?,
            experience: self.experience.clone(),
            service_ids: self.service_ids.clone()?,
        })
    }
}

const SELECT: &str = "select c.name, c.registered_address, c.qualification, c.experience,
        c.service_ids, c.revision, c.created_at, c.updated_at,
        (select count(*) from licences l
         where l.professional_id = c.professional_id and l.awaiting_review)
            as licences_awaiting_review
    from professional_pending_changes c where c.professional_id = $1";

/// Professional `id`'s pending change, if one waits.
pub async fn get(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
) -> sqlx::Result<Option<PendingChangeRow>> {
    sqlx::query_as(SELECT).bind(id).fetch_optional(db).await
}

/// Professional `id`'s pending change, locked until the transaction ends.
pub async fn lock(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<PendingChangeRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} for update of c")))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
}

/// Records the professional's edit: `proposed` replaces the proposed values (`None` takes
/// them back: the approved values were saved again), and the revision moves on. A change
/// left with nothing proposed and no licence awaiting review is gone.
pub async fn propose(
    tx: &mut PgConnection,
    id: Uuid,
    proposed: Option<&VettedProfile>,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into professional_pending_changes
             (professional_id, name, registered_address, qualification, experience, service_ids)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (professional_id) do update set name = excluded.name,
             registered_address = excluded.registered_address,
             qualification = excluded.qualification, experience = excluded.experience,
             service_ids = excluded.service_ids,
             revision = professional_pending_changes.revision + 1",
    )
    .bind(id)
    .bind(proposed.map(|v| v.name.as_str()))
    .bind(proposed.map(|v| v.registered_address.as_str()))
    .bind(proposed.map(|v| v.qualification.as_str()))
    .bind(proposed.and_then(|v| v.experience.as_deref()))
    .bind(proposed.map(|v| v.service_ids.as_slice()))
    .execute(&mut *tx)
    .await?;
    drop_if_empty(tx, id).await
}

/// A licence joined or left the change: the revision moves on (a change is started when
/// none waits); a change left empty is gone.
pub async fn licences_changed(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "insert into professional_pending_changes (professional_id) values ($1)
         on conflict (professional_id) do update
             set revision = professional_pending_changes.revision + 1",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    drop_if_empty(tx, id).await
}

async fn drop_if_empty(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "delete from professional_pending_changes c
         where c.professional_id = $1 and c.name is null
           and not exists (select 1 from licences l
                           where l.professional_id = $1 and l.awaiting_review)",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Applies the change to the profile: the proposed values replace the approved ones (services
/// deleted from the catalogue meanwhile left out) and the licences awaiting review join it.
pub async fn apply(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "update professionals p set name = c.name, registered_address = c.registered_address,
             qualification = c.qualification, experience = c.experience
         from professional_pending_changes c
         where c.professional_id = p.id and p.id = $1 and c.name is not null",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let proposed: Option<Option<Vec<Uuid>>> = sqlx::query_scalar(
        "delete from professional_pending_changes where professional_id = $1
         returning service_ids",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(Some(service_ids)) = proposed {
        super::professional_services::replace(tx, id, &service_ids).await?;
    }
    sqlx::query(
        "update licences set awaiting_review = false
         where professional_id = $1 and awaiting_review",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    // A professional who deleted their last approved licence is fit again with a new one.
    sqlx::query(
        "update professionals set licence_needed_since = null
         where id = $1 and exists (
            select 1 from licences where professional_id = $1 and not awaiting_review)",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Drops the change: the proposed values go and the licences awaiting review are deleted;
/// answers their file keys, for the caller to remove once committed.
pub async fn discard(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<Vec<String>> {
    sqlx::query("delete from professional_pending_changes where professional_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query_scalar(
        "delete from licences where professional_id = $1 and awaiting_review
         returning file_key",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await
}

/// A licence of the approved profile an admin revoked.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Revoked {
    pub id: Uuid,
    pub label: String,
    pub file_key: String,
}

/// Deletes the licences `ids` of the approved profile (none awaiting review); answers those
/// deleted, or `None` when one of `ids` is not such a licence of theirs (the caller then
/// rolls back).
pub async fn revoke(
    tx: &mut PgConnection,
    id: Uuid,
    ids: &[Uuid],
) -> sqlx::Result<Option<Vec<Revoked>>> {
    let revoked: Vec<Revoked> = sqlx::query_as(
        "delete from licences
         where professional_id = $1 and id = any($2) and not awaiting_review
         returning id, label, file_key",
    )
    .bind(id)
    .bind(ids)
    .fetch_all(&mut *tx)
    .await?;
    // Ids repeated count once.
    let mut wanted = ids.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    Ok((revoked.len() == wanted.len()).then_some(revoked))
}

/// How many licences of the approved profile professional `id` holds.
pub async fn approved_licences(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "select count(*) from licences where professional_id = $1 and not awaiting_review",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await
}
