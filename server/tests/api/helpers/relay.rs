//! A TCP relay on 127.0.0.1 to a test service, cut to play the service going away.

use std::net::SocketAddr;

use tokio::{net::TcpListener, task::JoinSet};

/// A TCP relay to the test Postgres or Redis that can be cut, as when it goes away.
pub struct Relay {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Relay {
    pub async fn to(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let mut links = JoinSet::new();
            while let Ok((mut inbound, _)) = listener.accept().await {
                links.spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Self { addr, task }
    }

    /// Closes the listener and every relayed connection.
    pub fn cut(&self) {
        self.task.abort();
    }
}

/// The `host:port` of a `postgres://user@host:port/db` URL.
fn host_port(url: &str) -> &str {
    let after_at = url.rsplit_once('@').map_or(url, |(_, rest)| rest);
    after_at.split('/').next().unwrap()
}

/// A relay to the service at a URL's `host:port` (`postgres://u@host:port/db`,
/// `redis://host:port`), and the URL through it.
pub async fn relayed(url: &str) -> (Relay, String) {
    let without_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let service = host_port(without_scheme);
    let target = std::net::ToSocketAddrs::to_socket_addrs(service)
        .unwrap()
        .next()
        .unwrap();
    let relay = Relay::to(target).await;
    let through = url.replacen(service, &relay.addr.to_string(), 1);
    (relay, through)
}
