//! A stored photo as replies carry it (`repairs.marketplace.v1.Photo`): both sizes as
//! absolute signed links valid an hour, made like licences' links, for whoever the reply
//! goes to (the caller of a reply that carries a photo was allowed to see it).

use chrono::Duration;
use repairs_proto::marketplace as pb;

use super::{convert::timestamp, professional_view::file_link};
use crate::{domain::StoredPhoto, state::AppState};

/// How long a photo's links work (the contract says an hour).
const PHOTO_LINK_LIFETIME: Duration = Duration::hours(1);

pub fn photo_to_proto(state: &AppState, photo: &StoredPhoto) -> pb::Photo {
    pb::Photo {
        id: photo.id.to_string(),
        url: file_link(state, &photo.large_key, PHOTO_LINK_LIFETIME),
        thumbnail_url: file_link(state, &photo.thumbnail_key, PHOTO_LINK_LIFETIME),
        width: photo.width,
        height: photo.height,
        create_time: Some(timestamp(photo.created_at)),
    }
}
