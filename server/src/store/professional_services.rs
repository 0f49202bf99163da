//! The services each professional offers, as approved (`professional_services`): what
//! matching reads.

use sqlx::PgConnection;
use uuid::Uuid;

/// Replaces the services professional `id` offers by those of `service_ids` still in the
/// catalogue (archived ones included).
pub async fn replace(tx: &mut PgConnection, id: Uuid, service_ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query("delete from professional_services where professional_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "insert into professional_services (professional_id, service_id)
         select $1, s.id from services s where s.id = any($2::uuid[])",
    )
    .bind(id)
    .bind(service_ids)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
