//! Legacy lists answer one JSON array. The BFF follows the server's pages up to a bound, so
//! no legacy call asks the server for a whole table at once; when more remain, the reply's
//! `X-Next-Page-Token` header names where `?page_token=` goes on.

use std::future::Future;

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tonic::Status;

use super::error::ApiError;

/// The page size asked of the server.
pub const PAGE_SIZE: i32 = 100;

/// The most records one legacy list reply carries (whole pages of [`PAGE_SIZE`]).
pub const LIST_LIMIT: usize = 500;

/// Where a list that was cut at [`LIST_LIMIT`] goes on.
pub const NEXT_PAGE_TOKEN: &str = "x-next-page-token";

/// A page of records and the server's next page token ("" on the last page).
pub type Page<T> = (Vec<T>, String);

/// Follows the server's pages from `page_token` ("" for the first) until the last one or
/// until [`LIST_LIMIT`] records; returns them and the token to go on with ("" when none).
pub async fn collect<T, F, Fut>(page_token: String, mut fetch: F) -> Result<Page<T>, ApiError>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<Page<T>, Status>>,
{
    let mut records = Vec::new();
    let mut token = page_token;
    loop {
        let (page, next) = fetch(token.clone()).await?;
        records.extend(page);
        // A server repeating its token would loop forever; stop instead.
        if next.is_empty() || next == token {
            return Ok((records, String::new()));
        }
        token = next;
        if records.len() >= LIST_LIMIT {
            return Ok((records, token));
        }
    }
}

/// The legacy array, with `X-Next-Page-Token` when the list goes on.
pub fn reply<T: Serialize>((records, next): Page<T>) -> Response {
    let mut response = Json(records).into_response();
    if let Ok(next) = HeaderValue::from_str(&next)
        && !next.is_empty()
    {
        response.headers_mut().insert(NEXT_PAGE_TOKEN, next);
    }
    response
}

/// A list's query string, or a legacy 400 naming what is wrong with it.
pub fn query<T: DeserializeOwned>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(query)| query)
        .map_err(|rejection| ApiError::new(StatusCode::BAD_REQUEST, rejection.body_text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server with `total` records in pages of `size`, tokens being the next offset.
    async fn pages(total: usize, size: usize, from: String) -> Result<Page<usize>, Status> {
        let start: usize = from.parse().unwrap_or(0);
        let end = (start + size).min(total);
        let next = if end < total {
            end.to_string()
        } else {
            String::new()
        };
        Ok(((start..end).collect(), next))
    }

    #[tokio::test]
    async fn a_short_list_comes_whole() {
        let (records, next) = collect(String::new(), |t| pages(250, 100, t))
            .await
            .unwrap();
        assert_eq!(records, (0..250).collect::<Vec<_>>());
        assert_eq!(next, "");
    }

    #[tokio::test]
    async fn a_long_list_stops_at_the_limit_and_goes_on_from_its_token() {
        let (first, next) = collect(String::new(), |t| pages(1234, 100, t))
            .await
            .unwrap();
        assert_eq!(first.len(), LIST_LIMIT);
        assert_eq!(next, "500");
        let (second, next) = collect(next, |t| pages(1234, 100, t)).await.unwrap();
        assert_eq!(second.first(), Some(&500));
        assert_eq!(next, "1000");
        let (last, next) = collect(next, |t| pages(1234, 100, t)).await.unwrap();
        assert_eq!(last.len(), 234);
        assert_eq!(next, "");
    }

    #[tokio::test]
    async fn a_repeated_token_ends_the_list() {
        let (records, next) = collect(String::new(), |_| async {
            Ok::<_, Status>((vec![1], "same".to_owned()))
        })
        .await
        .unwrap();
        // First page from "", then "same" once more, which names itself again.
        assert_eq!(records, [1, 1]);
        assert_eq!(next, "");
    }

    #[test]
    fn a_cut_list_says_where_it_goes_on() {
        let cut = reply((vec![1, 2], "next+/=".to_owned()));
        assert_eq!(cut.status(), StatusCode::OK);
        assert_eq!(cut.headers()[NEXT_PAGE_TOKEN], "next+/=");
        let whole = reply((vec![1, 2], String::new()));
        assert!(whole.headers().get(NEXT_PAGE_TOKEN).is_none());
    }

    #[tokio::test]
    async fn a_failed_page_is_the_lists_error() {
        let error = collect::<usize, _, _>(String::new(), |_| async {
            Err(Status::permission_denied("Not your requests"))
        })
        .await
        .unwrap_err();
        assert_eq!(error.status(), StatusCode::FORBIDDEN);
        assert_eq!(error.msg(), "Not your requests");
    }
}
