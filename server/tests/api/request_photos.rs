//! Photos of the damage on a repair request (AddRepairRequestPhoto, RemoveRepairRequestPhoto),
//! against the running server: every stored copy is written again with no metadata of the
//! original, turned upright; what is not a photo, or would open into too many pixels, is
//! refused; a request holds 8 at most, also under concurrent adds; only its customer changes
//! them, only while it is open; whoever may read the request sees them, nobody else gets a
//! link; the customer's deletion deletes them; a row that cannot be written leaves no file.

use std::path::PathBuf;

use image::GenericImageView;
use repairs_proto::{
    accounts as apb,
    marketplace::{self as pb},
    matching::{self as mpb, matching_service_client::MatchingServiceClient},
};
use repairs_server::{outbox::NewOutboxMessage, testing::photos};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    AccountsClient, TestServer, admin_token, break_inserts,
    market::{self, CALGARY_PRO, Market, Pro, db},
    photo_files::{self, fetch},
    reason, repair_inserts, violated_fields, wait_for_message, with_token,
};

async fn add(
    market: &mut Market,
    token: &str,
    request_id: &str,
    content: Vec<u8>,
) -> Result<pb::Photo, tonic::Status> {
    market
        .add_repair_request_photo(with_token(
            pb::AddRepairRequestPhotoRequest {
                repair_request_id: request_id.into(),
                content,
            },
            token,
        ))
        .await
        .map(|r| r.into_inner().photo.unwrap())
}

async fn remove(
    market: &mut Market,
    token: &str,
    request_id: &str,
    photo_id: &str,
) -> Result<(), tonic::Status> {
    market
        .remove_repair_request_photo(with_token(
            pb::RemoveRepairRequestPhotoRequest {
                repair_request_id: request_id.into(),
                photo_id: photo_id.into(),
            },
            token,
        ))
        .await
        .map(drop)
}

/// The stored photos of request `id`, whatever the database says.
fn stored_files(server: &TestServer, id: &str) -> Vec<PathBuf> {
    photo_files::stored_under(server, &format!("repair-requests/{id}"))
}

fn refused_as(status: &tonic::Status, code: Code, why: &str) {
    assert_eq!(status.code(), code, "{status:?}");
    assert_eq!(reason(status), why, "{status:?}");
}

#[tokio::test]
async fn a_photo_with_gps_comes_back_in_both_sizes_without_any_metadata() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    let original = photos::with_metadata(&photos::jpeg(2400, 1800), &photos::exif_with_gps(None));
    assert!(photos::jpeg_markers(&original).contains(&0xE1));

    let photo = add(&mut market, &customer, &request.id, original)
        .await
        .unwrap();
    assert_eq!((photo.width, photo.height), (1600, 1200));
    assert!(photo.create_time.is_some());
    let large = fetch(&server, &photo.url).await.unwrap();
    let thumbnail = fetch(&server, &photo.thumbnail_url).await.unwrap();
    for (copy, size) in [(&large, (1600, 1200)), (&thumbnail, (400, 300))] {
        photos::assert_no_metadata(copy);
        let decoded = image::load_from_memory(copy).unwrap();
        assert_eq!(decoded.dimensions(), size);
    }

    // The request carries it from then on, with working links.
    let read = market::get(&mut market, &customer, &request.id)
        .await
        .unwrap();
    assert_eq!(read.photos.len(), 1);
    assert_eq!(read.photos[0].id, photo.id);
    assert_eq!(
        fetch(&server, &read.photos[0].thumbnail_url).await.unwrap(),
        thumbnail
    );
    server.stop().await;
}

#[tokio::test]
async fn a_photo_taken_sideways_comes_back_upright() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    // Orientation 6: the pixels lie on their side; turned a quarter clockwise to show.
    let sideways = photos::with_metadata(&photos::jpeg(300, 200), &photos::exif_with_gps(Some(6)));
    let photo = add(&mut market, &customer, &request.id, sideways)
        .await
        .unwrap();
    assert_eq!((photo.width, photo.height), (200, 300));
    let upright = image::load_from_memory(&fetch(&server, &photo.url).await.unwrap())
        .unwrap()
        .to_rgb8();
    assert_eq!(upright.dimensions(), (200, 300));
    // The original's red left half is on top, its green top band on the right.
    let top = upright.get_pixel(60, 40).0;
    assert!(top[0] > 150 && top[2] < 80, "{top:?}");
    let right = upright.get_pixel(195, 150).0;
    assert!(right[1] > 150 && right[0] < 80, "{right:?}");
    server.stop().await;
}

#[tokio::test]
async fn what_is_not_a_photo_is_refused_with_its_reason_and_nothing_is_stored() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    let id = request.id.clone();

    // A 20,000 x 20,000 PNG of a few kilobytes: refused from its header, never decoded.
    let bomb = photos::png_bomb(20_000, 20_000);
    assert!(bomb.len() < 16 * 1024, "{} bytes", bomb.len());
    let started = std::time::Instant::now();
    let refused = add(&mut market, &customer, &id, bomb).await.unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "PHOTO_TOO_MANY_PIXELS");
    assert_eq!(violated_fields(&refused), ["content"]);
    assert!(
        refused.message().contains("20000 x 20000 pixels"),
        "{}",
        refused.message()
    );
    // 1.6 GB of pixels could not have been decoded in that time on a debug build.
    assert!(started.elapsed() < std::time::Duration::from_secs(5));

    // A file named photo.jpg that is not an image (its bytes say so, whatever its name).
    let text = b"<html><body>photo.jpg</body></html>".to_vec();
    let refused = add(&mut market, &customer, &id, text).await.unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "FILE_TYPE_NOT_ALLOWED");
    assert!(
        refused.message().contains("JPEG, PNG or WebP"),
        "{}",
        refused.message()
    );
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    let refused = add(&mut market, &customer, &id, gif).await.unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "FILE_TYPE_NOT_ALLOWED");

    let refused = add(&mut market, &customer, &id, Vec::new())
        .await
        .unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "FILE_EMPTY");

    let mut too_large = photos::jpeg(64, 64);
    too_large.resize(15 * 1024 * 1024 + 1, 0);
    let refused = add(&mut market, &customer, &id, too_large)
        .await
        .unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "FILE_TOO_LARGE");

    // Starts as a JPEG, damaged within its tables.
    let damaged = photos::jpeg(400, 300)[..80].to_vec();
    let refused = add(&mut market, &customer, &id, damaged).await.unwrap_err();
    refused_as(&refused, Code::InvalidArgument, "PHOTO_UNREADABLE");

    // Exactly 15 MiB passes the size checks (the transport's included): a photo padded
    // after its end.
    let mut padded = photos::jpeg(64, 64);
    padded.resize(15 * 1024 * 1024, 0);
    add(&mut market, &customer, &id, padded).await.unwrap();

    let read = market::get(&mut market, &customer, &id).await.unwrap();
    assert_eq!(read.photos.len(), 1);
    assert_eq!(stored_files(&server, &id).len(), 2);
    server.stop().await;
}

#[tokio::test]
async fn whoever_may_read_the_request_sees_its_photos_and_nobody_else_gets_a_link() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    let (near, near_token, _) = market::professional(&server, CALGARY_PRO).await;
    let far = Pro {
        area: "H2X",
        sms: false,
        language: "fr",
    };
    let (far, far_token, _) = market::professional(&server, far).await;
    let (_, stranger) = market::customer(&server).await;
    let photo = add(&mut market, &customer, &request.id, photos::jpeg(800, 600))
        .await
        .unwrap();

    // A matching professional: on the request, in the open list and on the dashboard.
    let seen = market::get(&mut market, &near_token, &request.id)
        .await
        .unwrap();
    assert_eq!(seen.photos.len(), 1);
    assert!(
        fetch(&server, &seen.photos[0].thumbnail_url)
            .await
            .is_some()
    );
    let matching = MatchingServiceClient::new(server.channel().await);
    let lists = market.clone();
    // The requests a professional sees in their open list and on their dashboard.
    let listed = |professional: Uuid, token: String| {
        let (mut matching, mut market) = (matching.clone(), lists.clone());
        async move {
            let open = matching
                .list_open_requests(with_token(
                    mpb::ListOpenRequestsRequest {
                        professional_id: professional.to_string(),
                        page_size: 10,
                        page_token: String::new(),
                    },
                    &token,
                ))
                .await
                .unwrap()
                .into_inner()
                .repair_requests
                .into_iter()
                .map(|open| open.repair_request.unwrap());
            let dashboard = market
                .get_professional_dashboard(with_token(
                    pb::GetProfessionalDashboardRequest::default(),
                    &token,
                ))
                .await
                .unwrap()
                .into_inner()
                .latest_repair_requests;
            open.chain(dashboard).collect::<Vec<_>>()
        }
    };
    let seen_in_lists = listed(near, near_token.clone()).await;
    assert_eq!(seen_in_lists.len(), 2);
    for listed in seen_in_lists {
        assert_eq!(listed.photos[0].id, photo.id);
    }

    // A professional it does not match, and another customer: no request, no link anywhere.
    for token in [&far_token, &stranger] {
        let refused = market::get(&mut market, token, &request.id)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::NotFound);
    }
    assert!(listed(far, far_token.clone()).await.is_empty());
    let others = market
        .list_customer_repair_requests(with_token(
            pb::ListCustomerRepairRequestsRequest {
                view: pb::CustomerRepairRequestView::All as i32,
                page_size: 10,
                ..Default::default()
            },
            &stranger,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(others.repair_requests.is_empty());

    // Nor can they add or remove one.
    let refused = add(&mut market, &stranger, &request.id, photos::jpeg(64, 64))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = remove(&mut market, &stranger, &request.id, &photo.id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    let refused = add(&mut market, &near_token, &request.id, photos::jpeg(64, 64))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "ROLE_NOT_ALLOWED");

    // A tampered link opens nothing.
    let forged = photo.url.replace("large.jpg", "thumbnail.jpg");
    assert!(fetch(&server, &forged).await.is_none());
    server.stop().await;
}

#[tokio::test]
async fn a_request_holds_eight_photos_even_under_concurrent_adds() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    let id = request.id.clone();
    for _ in 0..6 {
        add(&mut market, &customer, &id, photos::jpeg(320, 240))
            .await
            .unwrap();
    }
    // Six more at once for the two places left.
    let adds: Vec<_> = (0..6)
        .map(|_| {
            let (mut market, customer, id) = (market.clone(), customer.clone(), id.clone());
            tokio::spawn(
                async move { add(&mut market, &customer, &id, photos::jpeg(320, 240)).await },
            )
        })
        .collect();
    let mut added = 0;
    for call in adds {
        match call.await.unwrap() {
            Ok(_) => added += 1,
            Err(refused) => {
                refused_as(&refused, Code::FailedPrecondition, "TOO_MANY_PHOTOS");
                assert!(refused.message().contains("at most 8"), "{refused:?}");
            }
        }
    }
    assert_eq!(added, 2);
    let read = market::get(&mut market, &customer, &id).await.unwrap();
    assert_eq!(read.photos.len(), 8);
    // Oldest first, and the refused uploads left no file behind.
    let times: Vec<_> = read
        .photos
        .iter()
        .map(|p| p.create_time.unwrap())
        .map(|t| (t.seconds, t.nanos))
        .collect();
    assert!(times.is_sorted(), "{times:?}");
    assert_eq!(stored_files(&server, &id).len(), 16);
    let counted: i32 =
        sqlx::query_scalar("select photo_count from repair_requests where id = $1::uuid")
            .bind(&id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(counted, 8);

    // The ninth, alone, is refused too; removing one makes room again.
    let ninth = add(&mut market, &customer, &id, photos::jpeg(320, 240))
        .await
        .unwrap_err();
    refused_as(&ninth, Code::FailedPrecondition, "TOO_MANY_PHOTOS");
    remove(&mut market, &customer, &id, &read.photos[0].id)
        .await
        .unwrap();
    add(&mut market, &customer, &id, photos::jpeg(320, 240))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_removed_photo_is_gone_with_its_files_and_only_an_open_request_changes() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    let id = request.id.clone();
    let kept = add(&mut market, &customer, &id, photos::jpeg(640, 480))
        .await
        .unwrap();
    let dropped = add(
        &mut market,
        &customer,
        &id,
        photos::png_with_transparency(300, 300),
    )
    .await
    .unwrap();
    let mut watch = market::watch(&mut market, &customer, &id, 0).await.unwrap();
    let snapshot = market::next_message(&mut watch).await;
    remove(&mut market, &customer, &id, &dropped.id)
        .await
        .unwrap();
    // Its watchers see it go.
    let change = market::next_message(&mut watch).await;
    assert!(change.revision > snapshot.revision);
    let Some(pb::watch_repair_request_response::Event::Change(change)) = change.event else {
        panic!("a change: {change:?}");
    };
    let photos_now: Vec<String> = change
        .repair_request
        .unwrap()
        .photos
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(photos_now, std::slice::from_ref(&kept.id));
    assert!(fetch(&server, &dropped.url).await.is_none());
    assert!(fetch(&server, &dropped.thumbnail_url).await.is_none());
    assert_eq!(stored_files(&server, &id).len(), 2);
    let again = remove(&mut market, &customer, &id, &dropped.id)
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::NotFound);

    // Once cancelled, the request's photos stay as they are, readable.
    market::cancel(&mut market, &customer, &id).await.unwrap();
    let refusals = [
        add(&mut market, &customer, &id, photos::jpeg(64, 64))
            .await
            .map(drop),
        remove(&mut market, &customer, &id, &kept.id).await,
    ];
    for refused in refusals {
        let refused = refused.unwrap_err();
        refused_as(
            &refused,
            Code::FailedPrecondition,
            "REPAIR_REQUEST_NOT_OPEN",
        );
    }
    let read = market::get(&mut market, &customer, &id).await.unwrap();
    assert_eq!(read.photos.len(), 1);
    assert!(fetch(&server, &read.photos[0].url).await.is_some());
    server.stop().await;
}

#[tokio::test]
async fn a_photo_whose_row_cannot_be_written_leaves_no_file() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    break_inserts(db(&server), "repair_request_photos").await;
    let failed = add(&mut market, &customer, &request.id, photos::jpeg(640, 480))
        .await
        .unwrap_err();
    assert_eq!(failed.code(), Code::Internal);
    assert!(stored_files(&server, &request.id).is_empty());
    let counted: i32 =
        sqlx::query_scalar("select photo_count from repair_requests where id = $1::uuid")
            .bind(&request.id)
            .fetch_one(db(&server))
            .await
            .unwrap();
    assert_eq!(counted, 0, "the count went back with the failed insert");
    repair_inserts(db(&server), "repair_request_photos").await;
    add(&mut market, &customer, &request.id, photos::jpeg(640, 480))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test]
async fn deleting_the_customer_deletes_their_photos_and_files() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (customer, token) = market::customer(&server).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let placed = market::place(&mut market, &token, Uuid::now_v7(), market::in_calgary())
            .await
            .unwrap();
        add(&mut market, &token, &placed.id, photos::jpeg(640, 480))
            .await
            .unwrap();
        ids.push(placed.id);
    }
    // One of them past open: its photos go too.
    market::cancel(&mut market, &token, &ids[0]).await.unwrap();
    let mut accounts = AccountsClient::new(server.channel().await);
    let admin = admin_token(&server, &mut accounts).await;
    accounts
        .delete_customer(with_token(
            apb::DeleteCustomerRequest {
                id: customer.to_string(),
            },
            &admin,
        ))
        .await
        .unwrap();
    for id in &ids {
        assert!(stored_files(&server, id).is_empty(), "files of {id}");
        let read = market::get(&mut market, &admin, id).await.unwrap();
        assert!(read.photos.is_empty());
    }
    let rows: i64 = sqlx::query_scalar("select count(*) from repair_request_photos")
        .fetch_one(db(&server))
        .await
        .unwrap();
    assert_eq!(rows, 0);
    server.stop().await;
}

#[tokio::test]
async fn the_new_request_alert_counts_the_photos_there_are_when_it_is_sent() {
    let (server, mut market, customer, request) = market::open_request(|_| {}).await;
    // The alerts of the request placed above went to nobody; a professional it matches now
    // is told by the legacy per-professional call, before and after photos.
    let (_, _, pro_email) = market::professional(&server, CALGARY_PRO).await;
    MatchingServiceClient::new(server.channel().await)
        .notify_professional(with_token(
            mpb::NotifyProfessionalRequest {
                repair_request_id: request.id.clone(),
                professional_email: pro_email.clone(),
            },
            &customer,
        ))
        .await
        .unwrap();
    let sent = wait_for_message(server.data_dir(), "email.jsonl", &pro_email, "", 1).await;
    let body = sent["body"].as_str().unwrap();
    assert!(body.contains("Photos of the damage: none."), "{body}");
    // What the outbox keeps is where the count goes, not a count.
    let stored: String = sqlx::query_scalar(
        "select body from outbox_messages where recipient = $1 and channel = 'email'",
    )
    .bind(&pro_email)
    .fetch_one(db(&server))
    .await
    .unwrap();
    let marker = repairs_server::outbox::photo_count::marker(request.id.parse().unwrap(), "none");
    assert!(stored.contains(&marker), "{stored}");

    // The same alert sent after two photos were added counts them.
    for _ in 0..2 {
        add(&mut market, &customer, &request.id, photos::jpeg(320, 240))
            .await
            .unwrap();
    }
    let again = NewOutboxMessage::email(&pro_email, "New request", stored);
    repairs_server::outbox::enqueue(db(&server), &again)
        .await
        .unwrap();
    server.server.state.outbox.wake();
    alert_saying(&server, &pro_email, "Photos of the damage: 2.").await;
    server.stop().await;
}

/// Where the new-request email to `email` stands: the request it is held for, and in how
/// many seconds it is due.
async fn email_hold(server: &TestServer, email: &str) -> (Option<Uuid>, f64) {
    sqlx::query_as(
        "select held_for_request,
                extract(epoch from next_attempt_at - now())::float8
         from outbox_messages where recipient = $1 and channel = 'email'",
    )
    .bind(email)
    .fetch_one(db(server))
    .await
    .unwrap()
}

/// A customer's request in Calgary placed saying `photos_to_follow` photos come next, and a
/// professional it matches: the client, the customer's token, the professional's email and
/// the request.
async fn placed_with_photos(
    server: &TestServer,
    photos_to_follow: i32,
) -> (Market, String, String, pb::RepairRequest) {
    let mut market = market::market(server).await;
    let (_, customer) = market::customer(server).await;
    let (_, _, pro_email) = market::professional(server, CALGARY_PRO).await;
    let request = market::place_with_photos(
        &mut market,
        &customer,
        Uuid::now_v7(),
        market::in_calgary(),
        photos_to_follow,
    )
    .await
    .unwrap();
    (market, customer, pro_email, request)
}

/// Waits for the email to `email` that says `photos`.
async fn alert_saying(server: &TestServer, email: &str, photos: &str) {
    let sent = wait_for_message(server.data_dir(), "email.jsonl", email, photos, 1).await;
    assert!(!sent["body"].as_str().unwrap().contains("[[photos:"));
}

#[tokio::test]
async fn a_new_requests_alerts_wait_for_the_photos_that_follow_and_count_them() {
    let server = TestServer::start().await;
    let (mut market, customer, pro_email, request) = placed_with_photos(&server, 2).await;
    let id: Uuid = request.id.parse().unwrap();
    // Written with the request, held for its photos (two minutes at most); still held
    // after the first of two.
    for photos_in in 0..2 {
        if photos_in > 0 {
            add(&mut market, &customer, &request.id, photos::jpeg(320, 240))
                .await
                .unwrap();
            server.server.state.outbox.wake();
        }
        let (held, due_in) = email_hold(&server, &pro_email).await;
        assert_eq!(held, Some(id), "with {photos_in} photos");
        assert!(due_in > 60.0, "due in {due_in} s with {photos_in} photos");
    }
    // The second releases it, and it counts both.
    add(&mut market, &customer, &request.id, photos::jpeg(320, 240))
        .await
        .unwrap();
    assert_eq!(email_hold(&server, &pro_email).await.0, None);
    alert_saying(&server, &pro_email, "Photos of the damage: 2.").await;
    server.stop().await;
}

#[tokio::test]
async fn alerts_leave_at_the_end_of_the_wait_when_the_photos_do_not_all_come() {
    let server = TestServer::start_with(|config| {
        config.request_photos_wait = std::time::Duration::from_secs(1);
    })
    .await;
    let (mut market, customer, pro_email, request) = placed_with_photos(&server, 3).await;
    add(&mut market, &customer, &request.id, photos::jpeg(320, 240))
        .await
        .unwrap();
    assert!(email_hold(&server, &pro_email).await.0.is_some());
    // The other two never come: the alert leaves after the wait with the one there is.
    alert_saying(&server, &pro_email, "Photos of the damage: 1.").await;
    server.stop().await;
}

#[tokio::test]
async fn photos_to_follow_is_bounded_by_the_photos_a_request_holds() {
    let server = TestServer::start().await;
    let mut market = market::market(&server).await;
    let (_, customer) = market::customer(&server).await;
    for photos_to_follow in [-1, 9, i32::MAX] {
        let refused = market::place_with_photos(
            &mut market,
            &customer,
            Uuid::now_v7(),
            market::in_calgary(),
            photos_to_follow,
        )
        .await
        .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{photos_to_follow}");
        assert_eq!(
            violated_fields(&refused),
            ["photos_to_follow"],
            "{photos_to_follow}"
        );
    }
    server.stop().await;
}
