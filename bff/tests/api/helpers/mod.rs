//! A BFF on 127.0.0.1 port 0 for one test, stopped by the test.

pub mod legacy;
pub mod server;

use std::net::SocketAddr;

use clap::Parser;
use repairs_bff::config::Config;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The security headers every reply must carry.
pub const SECURITY_HEADERS: [&str; 6] = [
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "content-security-policy",
    "permissions-policy",
    "cross-origin-opener-policy",
];

pub struct Bff {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<anyhow::Result<()>>,
    /// The upstreams where nothing listens, held closed while the BFF runs.
    _closed: Vec<ClosedPort>,
}

/// A web folder that does not exist.
pub const NO_WEB: &str = "/nonexistent/web/dist";

impl Bff {
    /// Starts a BFF in front of `server_url` (a port where nothing listens when `None`), serving
    /// `web_dist`, with any further flags. Every upstream is named: the file server too is a
    /// port where nothing listens unless `flags` give `--files-url`, so no test reaches a
    /// default port, where a product running on the same machine may answer.
    pub async fn start(server_url: Option<&str>, web_dist: &str, flags: &[&str]) -> Self {
        let mut closed = Vec::new();
        let mut url_or_closed = |url: Option<&str>| match url {
            Some(url) => url.to_owned(),
            None => {
                let port = ClosedPort::new();
                let url = port.url();
                closed.push(port);
                url
            }
        };
        let server_url = url_or_closed(server_url);
        let files_url = (!flags.contains(&"--files-url")).then(|| url_or_closed(None));
        let mut args = vec![
            "repairs-bff",
            "--server-url",
            &server_url,
            "--web-dist",
            web_dist,
        ];
        if let Some(files_url) = &files_url {
            args.extend(["--files-url", files_url]);
        }
        let config = Config::try_parse_from(args.iter().chain(flags)).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            repairs_bff::serve(&config, listener, async {
                let _ = stopped.await;
            })
            .await
        });
        Self {
            addr,
            stop,
            task,
            _closed: closed,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap().unwrap();
    }
}

/// A port of 127.0.0.1 where nothing listens, held so while this lives: bound but not listening,
/// and without `SO_REUSEADDR`, so connections to it are refused and no other socket is given
/// it meanwhile (tests run side by side in one process, each binding ports of its own).
pub struct ClosedPort(TcpSocket);

impl ClosedPort {
    pub fn new() -> Self {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        Self(socket)
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.0.local_addr().unwrap())
    }
}

/// A header of the reply as text ("" when absent).
pub fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .map_or("", |value| value.to_str().unwrap())
}

/// Whether the reply says it depends on the request's Accept-Encoding (caches keep one copy
/// per encoding).
pub fn varies_by_encoding(response: &reqwest::Response) -> bool {
    response.headers().get_all("vary").iter().any(|value| {
        value
            .to_str()
            .unwrap_or_default()
            .contains("accept-encoding")
    })
}

pub fn assert_security_headers(response: &reqwest::Response) {
    for name in SECURITY_HEADERS {
        assert!(
            response.headers().contains_key(name),
            "{name} missing on {} {}",
            response.status(),
            response.url()
        );
    }
    assert_eq!(response.headers()["x-frame-options"], "DENY");
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
}
