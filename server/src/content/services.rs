//! Editing the service catalogue: creating a service (at the end), changing the fields an
//! update mask names, putting the active services in a new order, and removing one (a service
//! that a repair request or a professional names is archived, kept for those records; an
//! unused one is deleted). One change at a time ([`services::lock_catalogue`]), so the active
//! services always hold positions 1..n; every change is audited with before and after.

use std::collections::{BTreeSet, HashSet};

use bytes::Bytes;
use serde_json::json;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    accounts::removal::discard_file,
    domain::{Language, ServiceDescription, ServiceName, service::fill_from_other},
    error::{ApiError, ApiResult, ErrorReason, FieldViolation, Violations, not_found},
    providers::storage::{ContentKind, UploadError, sniff_upload},
    state::AppState,
    store::{
        audit,
        services::{self, NewServiceRow, ServiceRow, ServiceUpdate},
    },
};

/// Icons are small pictures: 1 MiB is plenty.
pub const MAX_ICON_BYTES: usize = 1024 * 1024;
/// More services than any catalogue will hold; a longer new order is refused unread.
pub const MAX_SERVICES: usize = repairs_proto::limits::reorder_services::SERVICE_IDS_MAX_ITEMS;

/// A service's fields as a request carries them, before validation (transport-free).
#[derive(Debug, Default)]
pub struct ServiceForm {
    pub name_en: String,
    pub name_fr: String,
    pub description_en: String,
    pub description_fr: String,
    pub icon_content_type: String,
    pub icon: Vec<u8>,
    pub active: bool,
}

/// What an update may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ServiceField {
    NameEn,
    NameFr,
    DescriptionEn,
    DescriptionFr,
    Icon,
    Active,
}

/// The update mask's paths (UpdateServiceRequest.update_mask) and the fields each names.
const MASK_PATHS: &[(&str, &[ServiceField])] = {
    use ServiceField::*;
    &[
        ("name", &[NameEn, NameFr]),
        ("name.en", &[NameEn]),
        ("name.fr", &[NameFr]),
        ("description", &[DescriptionEn, DescriptionFr]),
        ("description.en", &[DescriptionEn]),
        ("description.fr", &[DescriptionFr]),
        ("icon", &[Icon]),
        ("active", &[Active]),
    ]
};

/// The fields an update mask names; an empty mask or an unknown path is refused.
pub fn masked_fields(paths: &[String]) -> ApiResult<BTreeSet<ServiceField>> {
    if paths.is_empty() {
        return Err(ApiError::invalid(
            "update_mask",
            "name the fields to change",
        ));
    }
    let mut fields = BTreeSet::new();
    for path in paths {
        let (_, named) = MASK_PATHS
            .iter()
            .find(|(known, _)| known == path)
            .ok_or_else(|| {
                ApiError::invalid(
                    "update_mask",
                    format!(
                        "{path} is not a field of a service: use name.en, name.fr, name, description.en, description.fr, description, icon or active"
                    ),
                )
            })?;
        fields.extend(named.iter().copied());
    }
    Ok(fields)
}

/// A checked icon: its kind and bytes.
struct Icon {
    kind: ContentKind,
    bytes: Vec<u8>,
}

/// The icon of a request: none when no bytes came; otherwise a PNG, JPEG or WebP whose bytes
/// say what its type says, of at most [`MAX_ICON_BYTES`].
fn parse_icon(content_type: &str, bytes: Vec<u8>) -> ApiResult<Option<Icon>> {
    if bytes.is_empty() {
        return Ok(None);
    }
    match sniff_upload(&bytes, content_type, ContentKind::IMAGES, MAX_ICON_BYTES) {
        Ok(kind) => Ok(Some(Icon { kind, bytes })),
        Err(error @ UploadError::TooLarge { .. }) => Err(ApiError::ResourceExhausted {
            reason: error.reason(),
            message: format!("the icon is too large: {error}"),
        }),
        Err(error) => Err(ApiError::upload("icon", error)),
    }
}

/// The texts an update names (`wanted`), each checked; the others are left out.
#[derive(Debug, Default)]
struct Texts {
    name_en: Option<ServiceName>,
    name_fr: Option<ServiceName>,
    description_en: Option<ServiceDescription>,
    description_fr: Option<ServiceDescription>,
}

impl Texts {
    fn parse(
        (name_en, name_fr): (&str, &str),
        (description_en, description_fr): (&str, &str),
        wanted: &BTreeSet<ServiceField>,
    ) -> ApiResult<Self> {
        let mut v = Violations::default();
        let mut name = |field: ServiceField, path: &str, raw: &str, language| {
            wanted
                .contains(&field)
                .then(|| v.check(path, ServiceName::parse(raw, language)))
                .flatten()
        };
        let name_en = name(ServiceField::NameEn, "name.en", name_en, Language::English);
        let name_fr = name(ServiceField::NameFr, "name.fr", name_fr, Language::French);
        let mut description = |field: ServiceField, path: &str, raw: &str| {
            wanted
                .contains(&field)
                .then(|| v.check(path, ServiceDescription::parse(raw)))
                .flatten()
        };
        let description_en = description(
            ServiceField::DescriptionEn,
            "description.en",
            description_en,
        );
        let description_fr = description(
            ServiceField::DescriptionFr,
            "description.fr",
            description_fr,
        );
        if !v.0.is_empty() {
            return Err(ApiError::invalid_fields(v.0));
        }
        Ok(Self {
            name_en,
            name_fr,
            description_en,
            description_fr,
        })
    }
}

/// Stores an icon under a fresh key (the service's old icon stays until the change commits).
async fn store_icon(state: &AppState, service_id: Uuid, icon: Icon) -> ApiResult<String> {
    let key = format!(
        "services/{service_id}/icon-{}.{}",
        Uuid::now_v7(),
        icon.kind.extension()
    );
    state
        .storage
        .put(&key, icon.kind.content_type(), Bytes::from(icon.bytes))
        .await?;
    Ok(key)
}

/// Runs a catalogue change in one transaction under the catalogue's lock. The icon stored for
/// it (if any) is removed again when the change does not commit.
async fn in_catalogue_transaction<T>(
    state: &AppState,
    new_icon: Option<&str>,
    change: impl AsyncFnOnce(&mut PgConnection) -> ApiResult<T>,
) -> ApiResult<T> {
    let result = async {
        let mut tx = crate::store::transaction::begin(&state.db).await?;
        services::lock_catalogue(&mut tx).await?;
        let value = change(&mut tx).await?;
        tx.commit().await?;
        Ok(value)
    }
    .await;
    if result.is_err()
        && let Some(key) = new_icon
    {
        discard_file(state, key).await;
    }
    result
}

/// Ends a change to the service `id` inside its transaction: the catalogue's gaps closed, the
/// audit row written with `before` and the service as it is now (`None` once deleted), which
/// is returned.
async fn finish_change(
    tx: &mut PgConnection,
    (admin_id, action): (audit::Actor, &str),
    id: Uuid,
    before: Option<&ServiceRow>,
) -> ApiResult<Option<ServiceRow>> {
    services::renumber(&mut *tx).await?;
    let after = services::get(&mut *tx, id).await?;
    audit::record_change(
        &mut *tx,
        admin_id,
        action,
        ("service", &id.to_string()),
        before.map(|row| json!(row)).as_ref(),
        after.as_ref().map(|row| json!(row)).as_ref(),
    )
    .await?;
    Ok(after)
}

/// The catalogue in its order: the active services, and the archived ones too when asked.
pub async fn list(state: &AppState, include_archived: bool) -> ApiResult<Vec<ServiceRow>> {
    Ok(services::list(&state.db, include_archived).await?)
}

pub async fn get(state: &AppState, id: Uuid) -> ApiResult<ServiceRow> {
    services::get(&state.db, id)
        .await?
        .ok_or_else(|| not_found("service"))
}

/// CreateService: a new active service at the end of the catalogue. An empty name or
/// description in one language takes the other language's.
pub async fn create(
    state: &AppState,
    admin_id: audit::Actor,
    form: ServiceForm,
) -> ApiResult<ServiceRow> {
    let (name_en, name_fr) = fill_from_other(&form.name_en, &form.name_fr);
    let (description_en, description_fr) =
        fill_from_other(&form.description_en, &form.description_fr);
    let mut v = Violations::default();
    let name_en = v.check("name.en", ServiceName::parse(name_en, Language::English));
    let name_fr = v.check("name.fr", ServiceName::parse(name_fr, Language::French));
    let description_en = v.check("description.en", ServiceDescription::parse(description_en));
    let description_fr = v.check("description.fr", ServiceDescription::parse(description_fr));
    let (Some(name_en), Some(name_fr), Some(description_en), Some(description_fr)) =
        (name_en, name_fr, description_en, description_fr)
    else {
        return Err(ApiError::invalid_fields(v.0));
    };
    let icon = parse_icon(&form.icon_content_type, form.icon)?;
    let id = Uuid::now_v7();
    let icon_key = match icon {
        Some(icon) => Some(store_icon(state, id, icon).await?),
        None => None,
    };
    in_catalogue_transaction(state, icon_key.as_deref(), async |tx| {
        let new = NewServiceRow {
            id,
            name_en: name_en.as_str(),
            name_fr: name_fr.as_str(),
            description_en: description_en.as_str(),
            description_fr: description_fr.as_str(),
            icon_key: icon_key.as_deref(),
        };
        services::insert(&mut *tx, &new).await?;
        finish_change(tx, (admin_id, "service.create"), id, None)
            .await?
            .ok_or_else(|| not_found("service"))
    })
    .await
}

/// A stale etag (when one is given) is refused with ETAG_MISMATCH.
pub fn check_etag(row: &ServiceRow, etag: &str) -> ApiResult<()> {
    if etag.is_empty() || etag == row.etag() {
        return Ok(());
    }
    Err(ApiError::FailedPrecondition {
        reason: ErrorReason::EtagMismatch,
        message:
            "this service was changed by someone else since you opened it: reload it and try again"
                .to_owned(),
    })
}

/// UpdateService: the fields `paths` names take the form's values; the others stay. An
/// archived service brought back comes last in the catalogue.
pub async fn update(
    state: &AppState,
    admin_id: audit::Actor,
    (id, etag): (Uuid, &str),
    paths: &[String],
    form: ServiceForm,
) -> ApiResult<ServiceRow> {
    let fields = masked_fields(paths)?;
    let texts = Texts::parse(
        (&form.name_en, &form.name_fr),
        (&form.description_en, &form.description_fr),
        &fields,
    )?;
    let new_icon = if fields.contains(&ServiceField::Icon) {
        match parse_icon(&form.icon_content_type, form.icon)? {
            Some(icon) => Some(Some(store_icon(state, id, icon).await?)),
            None => Some(None),
        }
    } else {
        None
    };
    let stored_icon = new_icon.clone().flatten();
    let (before, after) = in_catalogue_transaction(state, stored_icon.as_deref(), async |tx| {
        let before = services::get_for_update(&mut *tx, id)
            .await?
            .ok_or_else(|| not_found("service"))?;
        check_etag(&before, etag)?;
        let change = ServiceUpdate {
            name_en: texts.name_en.as_ref().map(ServiceName::as_str),
            name_fr: texts.name_fr.as_ref().map(ServiceName::as_str),
            description_en: texts
                .description_en
                .as_ref()
                .map(ServiceDescription::as_str),
            description_fr: texts
                .description_fr
                .as_ref()
                .map(ServiceDescription::as_str),
            icon_key: new_icon.as_ref().map(Option::as_deref),
            active: fields
                .contains(&ServiceField::Active)
                .then_some(form.active),
        };
        services::update(&mut *tx, id, &change).await?;
        let after = finish_change(tx, (admin_id, "service.update"), id, Some(&before))
            .await?
            .ok_or_else(|| not_found("service"))?;
        Ok((before, after))
    })
    .await?;
    // The replaced icon is no longer referred to once the change is in.
    if new_icon.is_some()
        && let Some(old) = before.icon_key.as_deref()
        && after.icon_key.as_deref() != Some(old)
    {
        discard_file(state, old).await;
    }
    Ok(after)
}

fn order_incomplete(message: &str) -> ApiError {
    ApiError::InvalidArgument {
        reason: ErrorReason::ServiceOrderIncomplete,
        violations: vec![FieldViolation::new(
            "service_ids",
            format!("{message}; reload the list and try again"),
        )],
    }
}

/// Checks that `wanted` names each of the `active` services once.
fn check_order(wanted: &[Uuid], active: &[Uuid]) -> ApiResult<()> {
    let mut seen = HashSet::with_capacity(wanted.len());
    if let Some(twice) = wanted.iter().find(|id| !seen.insert(**id)) {
        return Err(order_incomplete(&format!(
            "the new order names the service {twice} twice"
        )));
    }
    let active_set: HashSet<&Uuid> = active.iter().collect();
    if let Some(stranger) = wanted.iter().find(|id| !active_set.contains(id)) {
        return Err(order_incomplete(&format!(
            "the service {stranger} is not in the catalogue (archived or removed)"
        )));
    }
    if wanted.len() < active.len() {
        return Err(order_incomplete(&format!(
            "the new order leaves out {} of the catalogue's services",
            active.len() - wanted.len()
        )));
    }
    Ok(())
}

/// ReorderServices: the active services take the positions 1..n in the order of `ids`, which
/// must name each of them once.
pub async fn reorder(state: &AppState, admin_id: audit::Actor, ids: &[String]) -> ApiResult<()> {
    if ids.len() > MAX_SERVICES {
        return Err(order_incomplete(&format!(
            "the new order names {} services; the catalogue holds at most {MAX_SERVICES}",
            ids.len()
        )));
    }
    let wanted = ids
        .iter()
        .enumerate()
        .map(|(index, raw)| crate::error::parse_id(&format!("service_ids[{index}]"), raw))
        .collect::<ApiResult<Vec<Uuid>>>()?;
    in_catalogue_transaction(state, None, async |tx| {
        let before = services::active_ids(&mut *tx).await?;
        check_order(&wanted, &before)?;
        services::set_order(&mut *tx, &wanted).await?;
        audit::record_change(
            &mut *tx,
            admin_id,
            "service.reorder",
            ("service_catalogue", "active"),
            Some(&json!(before)),
            Some(&json!(wanted)),
        )
        .await?;
        Ok(())
    })
    .await
}

/// What became of a removed service.
pub enum Removed {
    Archived(ServiceRow),
    Deleted,
}

/// DeleteService: archives a service in use, deletes an unused one (and its icon).
pub async fn remove(
    state: &AppState,
    admin_id: audit::Actor,
    id: Uuid,
    etag: &str,
) -> ApiResult<Removed> {
    let (before, removed) = in_catalogue_transaction(state, None, async |tx| {
        let before = services::get_for_update(&mut *tx, id)
            .await?
            .ok_or_else(|| not_found("service"))?;
        check_etag(&before, etag)?;
        let action = if services::in_use(&mut *tx, id).await? {
            services::archive(&mut *tx, id).await?;
            "service.archive"
        } else {
            services::delete(&mut *tx, id).await?;
            "service.delete"
        };
        let removed = match finish_change(tx, (admin_id, action), id, Some(&before)).await? {
            Some(archived) => Removed::Archived(archived),
            None => Removed::Deleted,
        };
        Ok((before, removed))
    })
    .await?;
    if let (Removed::Deleted, Some(icon)) = (&removed, before.icon_key.as_deref()) {
        discard_file(state, icon).await;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn mask_paths_name_their_fields() {
        use ServiceField::*;
        assert_eq!(
            masked_fields(&paths(&["name", "description.fr"])).unwrap(),
            BTreeSet::from([NameEn, NameFr, DescriptionFr])
        );
        assert_eq!(
            masked_fields(&paths(&["icon", "active", "icon"])).unwrap(),
            BTreeSet::from([Icon, Active])
        );
        for wrong in [&[][..], &["name.de"], &["position"], &["name", ""]] {
            assert!(masked_fields(&paths(wrong)).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn an_order_names_each_active_service_once() {
        let [a, b, c] = [Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7()];
        let active = [a, b];
        assert!(check_order(&[b, a], &active).is_ok());
        for wrong in [&[a][..], &[a, a], &[a, b, b], &[a, b, c], &[c, a], &[]] {
            let error = check_order(wrong, &active).unwrap_err();
            assert!(
                matches!(
                    error,
                    ApiError::InvalidArgument {
                        reason: ErrorReason::ServiceOrderIncomplete,
                        ..
                    }
                ),
                "{wrong:?}"
            );
        }
    }

    #[test]
    fn icons_are_small_images_whose_bytes_agree() {
        const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert!(parse_icon("", Vec::new()).unwrap().is_none());
        assert!(parse_icon("image/png", PNG.to_vec()).unwrap().is_some());
        let mismatch = parse_icon("image/jpeg", PNG.to_vec()).err().unwrap();
        assert!(matches!(
            mismatch,
            ApiError::InvalidArgument {
                reason: ErrorReason::FileTypeMismatch,
                ..
            }
        ));
        let pdf = parse_icon("application/pdf", b"%PDF-1.4".to_vec())
            .err()
            .unwrap();
        assert!(matches!(
            pdf,
            ApiError::InvalidArgument {
                reason: ErrorReason::FileTypeNotAllowed,
                ..
            }
        ));
        let mut big = PNG.to_vec();
        big.resize(MAX_ICON_BYTES + 1, 0);
        assert!(matches!(
            parse_icon("image/png", big).err().unwrap(),
            ApiError::ResourceExhausted {
                reason: ErrorReason::FileTooLarge,
                ..
            }
        ));
    }
}
