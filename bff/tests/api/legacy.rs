//! The legacy `/api` surface: every call of the table is routed, errors are legacy JSON.

use std::io::{Read, Write};

use crate::helpers::{Bff, NO_WEB, assert_security_headers};
use repairs_bff::legacy::table::Verb;
use serde_json::{Value, json};

/// No server behind it: nothing in this issue calls one.
async fn start() -> Bff {
    Bff::start(None, NO_WEB, &[]).await
}

fn method(verb: Verb) -> reqwest::Method {
    match verb {
        Verb::Get => reqwest::Method::GET,
        Verb::Post => reqwest::Method::POST,
        Verb::Delete => reqwest::Method::DELETE,
    }
}

/// The pattern with every `{param}` filled in.
fn concrete(pattern: &str) -> String {
    pattern
        .split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                "p1"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

async fn send(client: &reqwest::Client, bff: &Bff, verb: Verb, path: &str) -> (u16, Value) {
    let response = client
        .request(method(verb), bff.url(path))
        .send()
        .await
        .unwrap();
    assert_security_headers(&response);
    let status = response.status().as_u16();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "{verb} {path}"
    );
    (status, response.json().await.unwrap())
}

/// Every call of the table is routed to its translation, with and without its trailing slash:
/// with no server behind the BFF and no token, each answers what its translation makes of that
/// (the sign-in it needs, its body's errors, or the unavailable server), never 404, 405 or 501.
#[tokio::test]
async fn every_call_of_the_table_is_routed_to_its_translation() {
    assert_eq!(repairs_bff::legacy::calls().count(), 84);
    let bff = start().await;
    let client = reqwest::Client::new();
    for call in repairs_bff::legacy::calls() {
        let path = concrete(call.path);
        // Express matched a path with and without its trailing slash; so do we.
        let twin = path
            .strip_suffix('/')
            .map_or_else(|| format!("{path}/"), str::to_owned);
        for path in [&path, &twin] {
            let (status, body) = send(&client, &bff, call.verb, path).await;
            assert!(
                ![404, 405, 501].contains(&status),
                "{call} as {path}: {status} {body}"
            );
        }
    }
    bff.stop().await;
}

#[tokio::test]
async fn unknown_api_paths_are_json_404_and_wrong_methods_json_405() {
    let bff = start().await;
    let client = reqwest::Client::new();
    let not_found = json!({ "msg": "Not found" });
    for (verb, path) in [
        (Verb::Get, "/api/nope"),
        (Verb::Post, "/api/nope"),
        (Verb::Get, "/api"),
        (Verb::Get, "/api/"),
        (Verb::Get, "/api/requests/a/b"),
        (Verb::Delete, "/api/users/x/y/z"),
    ] {
        assert_eq!(
            send(&client, &bff, verb, path).await,
            (404, not_found.clone()),
            "{verb} {path}"
        );
    }
    let (status, body) = send(&client, &bff, Verb::Delete, "/api/users/login").await;
    assert_eq!(status, 405);
    assert_eq!(body["msg"], "Method not allowed");

    // Not tonic-web's 400 either, whatever the content type says.
    let response = client
        .post(bff.url("/api/nope"))
        .header("content-type", "application/grpc-web+proto")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    bff.stop().await;
}

#[tokio::test]
async fn translated_calls_without_a_server_are_503_json() {
    let bff = start().await;
    let client = reqwest::Client::new();
    for (verb, path) in [
        (Verb::Get, "/api/services"),
        (
            Verb::Get,
            "/api/users/get-user/0190a6f2-7c1e-7000-8000-000000000001",
        ),
    ] {
        let (status, body) = send(&client, &bff, verb, path).await;
        assert_eq!(status, 503, "{verb} {path}");
        // Transport detail stays in the logs; the caller reads the default wording.
        assert_eq!(
            body,
            json!({ "msg": "Service unavailable, please try again" })
        );
    }
    let response = client
        .post(bff.url("/api/users/login"))
        .json(&json!({ "email": "a@b.c", "password": "x" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    // And the files behind /files too (no file server either).
    let response = client
        .get(bff.url("/files/professionals/x/photo.png?exp=1&sig=ab"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    assert_security_headers(&response);
    bff.stop().await;
}

#[tokio::test]
async fn legacy_refusals_made_by_the_bff_need_no_server() {
    let bff = start().await;
    let client = reqwest::Client::new();
    let facebook = client
        .post(bff.url("/api/users/fb-login"))
        .json(&json!({ "email": "a@b.c", "name": "A" }))
        .send()
        .await
        .unwrap();
    assert_eq!(facebook.status(), 400);
    assert_security_headers(&facebook);
    let body: Value = facebook.json().await.unwrap();
    assert_eq!(
        body["msg"],
        "Facebook sign-in needs the access token from the Facebook login dialog"
    );
    for path in [
        "/api/users/reset-password",
        "/api/professionals/reset-password",
    ] {
        let reset = client
            .post(bff.url(path))
            .json(&json!({ "id": "x", "password": "new password" }))
            .send()
            .await
            .unwrap();
        assert_eq!(reset.status(), 400, "{path}");
    }
    let profile = client
        .post(bff.url("/api/professionals/profile"))
        .header("content-type", "text/plain")
        .body("name=x")
        .send()
        .await
        .unwrap();
    assert_eq!(profile.status(), 415);
    let by_token = client
        .get(bff.url("/api/professionals/get-professional/not-a-jwt"))
        .send()
        .await
        .unwrap();
    assert_eq!(by_token.status(), 401);
    bff.stop().await;
}

#[tokio::test]
async fn malformed_json_is_400() {
    let bff = start().await;
    let response = reqwest::Client::new()
        .post(bff.url("/api/users/login"))
        .header("content-type", "application/json")
        .body(r#"{"email": "a@b.c", "#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert_security_headers(&response);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({ "msg": "Malformed JSON body" }));
    bff.stop().await;
}

#[tokio::test]
async fn bodies_over_6_mib_are_413() {
    let bff = start().await;
    let response = reqwest::Client::new()
        .post(bff.url("/api/professionals/profile"))
        .header("content-type", "application/json")
        .body(vec![b' '; 6 * 1024 * 1024 + 1])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
    assert_security_headers(&response);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["msg"].as_str().unwrap().contains("too large"),
        "{body}"
    );

    // Exactly at the limit is read (and then answered as the call would be: 503 here, with
    // no server behind the BFF).
    let head = "--XB\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n";
    let tail = "\r\n--XB--\r\n";
    let mut body = head.as_bytes().to_vec();
    body.resize(6 * 1024 * 1024 - tail.len(), b'x');
    body.extend_from_slice(tail.as_bytes());
    let response = reqwest::Client::new()
        .post(bff.url("/api/services/create"))
        .header("content-type", "multipart/form-data; boundary=XB")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    bff.stop().await;
}

#[tokio::test]
async fn streamed_bodies_over_6_mib_are_413_too() {
    let bff = start().await;
    let addr = bff.addr;
    // A chunked body announces no length: the limit has to hold while reading.
    let reply = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        let head = "POST /api/users HTTP/1.1\r\nHost: bff\r\nContent-Type: application/json\r\n\
                    Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        stream.write_all(head.as_bytes()).unwrap();
        let chunk = vec![b' '; 1024 * 1024];
        for _ in 0..7 {
            // The BFF may answer and close before all of it is sent.
            let sent = write!(stream, "{:x}\r\n", chunk.len())
                .and_then(|()| stream.write_all(&chunk))
                .and_then(|()| stream.write_all(b"\r\n"));
            if sent.is_err() {
                break;
            }
        }
        let _ = stream.write_all(b"0\r\n\r\n");
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        String::from_utf8_lossy(&reply).into_owned()
    })
    .await
    .unwrap();
    assert!(
        reply.starts_with("HTTP/1.1 413"),
        "{}",
        reply.lines().next().unwrap_or_default()
    );
    assert!(reply.contains("too large"), "{reply}");
    bff.stop().await;
}
