//! The content tests' world: a running server, ContentService and AccountsService clients,
//! and an admin's session.

use prost_types::FieldMask;
use repairs_proto::{
    accounts::accounts_service_client::AccountsServiceClient,
    content::content_service_client::ContentServiceClient,
};
use tonic::transport::Channel;

use super::{TestServer, admin_token};

pub struct Setup {
    pub server: TestServer,
    pub content: ContentServiceClient<Channel>,
    pub accounts: AccountsServiceClient<Channel>,
    pub admin: String,
}

pub async fn setup() -> Setup {
    let server = TestServer::start().await;
    let channel = server.channel().await;
    let mut accounts = AccountsServiceClient::new(channel.clone());
    let admin = admin_token(&server, &mut accounts).await;
    Setup {
        content: ContentServiceClient::new(channel),
        accounts,
        admin,
        server,
    }
}

/// An update mask of these paths.
pub fn mask(paths: &[&str]) -> Option<FieldMask> {
    Some(FieldMask {
        paths: paths.iter().map(|p| (*p).to_owned()).collect(),
    })
}
