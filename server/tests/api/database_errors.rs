//! The one mapping of database errors (`repairs_server::error`), fed errors a real Postgres
//! gives: what a caller caused is theirs to hear (4xx), never INTERNAL.

use repairs_server::error::ApiError;
use repairs_server::testing::test_database_url;
use sqlx::{Connection, PgConnection};
use tonic::{Code, Status};

#[tokio::test]
async fn text_with_a_nul_character_is_the_caller_s_invalid_argument() {
    let mut db = PgConnection::connect(&test_database_url()).await.unwrap();
    let error = sqlx::query("select $1::text")
        .bind("pi_\0x")
        .execute(&mut db)
        .await
        .unwrap_err();
    let status: Status = ApiError::from(error).into();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("NUL"), "{status:?}");

    // Any other query error stays ours.
    let error = sqlx::query("select 1 / $1")
        .bind(0)
        .execute(&mut db)
        .await
        .unwrap_err();
    let status: Status = ApiError::from(error).into();
    assert_eq!(status.code(), Code::Internal, "{status:?}");
}
