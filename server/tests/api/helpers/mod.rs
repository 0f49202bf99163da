//! What the tests share. The harness itself lives in the server crate (feature
//! `test-support`) so the BFF's tests start the server the same way (and the benchmarks
//! reuse its local stand-ins: `LocalServer`, the push service); here are the worlds built on
//! it (the marketplace's, the content admin's).

pub use repairs_server::testing::*;

pub mod content;
pub mod market;
pub mod moto;
pub mod photo_files;
pub mod sessions;

mod relay;
pub use relay::relayed;

use std::{net::SocketAddr, sync::Arc};

use repairs_proto::content::content_service_client::ContentServiceClient;
use repairs_server::cache::{Cache, RedisCache};
use tonic::transport::Channel;

/// A URL of 127.0.0.1 where nothing listens.
pub fn closed_port_url() -> String {
    format!("http://127.0.0.1:{}", free_port())
}

/// A port on 127.0.0.1 where nothing listens: bound, then released.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind 127.0.0.1:0")
        .local_addr()
        .expect("local address")
        .port()
}

/// A channel to a server started by `repairs_server::start` (a second server process on a
/// test's database), listening on `addr`.
pub async fn channel_to(addr: SocketAddr) -> Channel {
    Channel::from_shared(format!("http://{addr}"))
        .expect("url")
        .connect()
        .await
        .expect("connect to the server")
}

pub type Content = ContentServiceClient<Channel>;

pub async fn content_client(server: &TestServer) -> Content {
    ContentServiceClient::new(server.channel().await)
}

/// The test Redis as a cache, under a key prefix of its own.
pub async fn redis_cache() -> Arc<dyn Cache> {
    let prefix = format!("test:{}:", uuid::Uuid::now_v7());
    Arc::new(
        RedisCache::connect(&test_redis_url(), &prefix)
            .await
            .expect("connect to TEST_REDIS_URL"),
    )
}

/// The emails written to the outbox for `to` whose subject starts with `subject`, oldest
/// first: (subject, body). Read from the table, so a message counts as soon as it is written.
pub async fn emails_to(db: &sqlx::PgPool, to: &str, subject: &str) -> Vec<(String, String)> {
    sqlx::query_as(
        "select subject, body from outbox_messages
         where channel = 'email' and recipient = $1 and starts_with(subject, $2)
         order by id",
    )
    .bind(to)
    .bind(subject)
    .fetch_all(db)
    .await
    .expect("read the outbox")
}

/// Professional `id`'s own save of `profile` (named Paul Pro, at their own address), as
/// `token`.
pub fn save_profile(
    id: uuid::Uuid,
    token: &str,
    profile: repairs_proto::accounts::ProfessionalProfile,
) -> tonic::Request<repairs_proto::accounts::UpdateProfessionalProfileRequest> {
    with_token(
        repairs_proto::accounts::UpdateProfessionalProfileRequest {
            id: id.to_string(),
            name: "Paul Pro".into(),
            email: format!("{id}@example.ca"),
            profile: Some(profile),
            ..Default::default()
        },
        token,
    )
}
