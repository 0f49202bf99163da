//! Files in an S3 bucket (FILES_BUCKET), against moto's S3 server on 127.0.0.1: the adapter
//! through its trait, and replicas sharing the bucket, so a file stored through one server
//! downloads through another's signed `/files/...` link. One test, so moto (seconds to
//! start) starts once.

use bytes::Bytes;
use chrono::{Duration, Utc};
use repairs_server::providers::storage::{S3Storage, assert_behaves_as_a_store, sign_file_url};

use crate::helpers::{TestServer, moto::Moto};

const PHOTO: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR a photo";

/// A file in the bucket comes back with its type until deleted; a bucket that is not there
/// is told by name.
async fn the_adapter_behaves_as_a_store(moto: &Moto) {
    let bucket = moto.bucket().await;
    let s3 = S3Storage::new(moto.config(&bucket)).unwrap();
    s3.check().await.unwrap();
    assert_behaves_as_a_store(&s3, "licences/0190c3/front.pdf").await;

    // A bucket that is not there is told at start, by name.
    let missing = S3Storage::new(moto.config("no-such-bucket")).unwrap();
    let error = missing.check().await.unwrap_err().to_string();
    assert!(
        error.starts_with("FILES_BUCKET=no-such-bucket: the bucket cannot be read"),
        "{error}"
    );
}

#[tokio::test]
async fn files_live_in_a_bucket_every_replica_reads() {
    let moto = Moto::start().await;
    the_adapter_behaves_as_a_store(&moto).await;

    // A file stored through one replica downloads through another's link.
    let bucket = moto.bucket().await;
    let secret = format!("replicas-share-this-secret-{}", uuid::Uuid::now_v7());
    let replica = || {
        TestServer::start_with(|config| {
            moto.configure(config, &bucket);
            config.jwt_secret = Some(secret.clone());
        })
    };
    let a = replica().await;
    let b = replica().await;

    let key = "photos/0190c3/profile.png";
    let state = &a.server.state;
    state
        .storage
        .put(key, "image/png", Bytes::from_static(PHOTO))
        .await
        .unwrap();
    let link = sign_file_url(
        state.file_link_key.as_slice(),
        key,
        Utc::now() + Duration::minutes(10),
    )
    .unwrap();
    let reply = reqwest::get(format!("http://{}{link}", b.server.http_addr))
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.headers()["content-type"], "image/png");
    assert_eq!(&reply.bytes().await.unwrap()[..], PHOTO);
    // Nothing went to the replica's own folder.
    assert!(!a.data_dir.path().join("files").exists());

    // A replica whose bucket is not there does not start, and says why.
    let refused = match repairs_server::start({
        let data_dir = b.data_dir.path().join("other");
        let mut config = repairs_server::config::Config::for_tests(
            data_dir,
            b.database.url.clone(),
            Some(crate::helpers::test_redis_url()),
        );
        moto.configure(&mut config, "no-such-bucket");
        config
    })
    .await
    {
        Ok(_) => panic!("a server started on a bucket that is not there"),
        Err(error) => format!("{error:#}"),
    };
    assert!(refused.contains("FILES_BUCKET=no-such-bucket"), "{refused}");

    a.stop().await;
    b.stop().await;
    moto.stop().await;
}
