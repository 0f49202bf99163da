//! A TCP relay on 127.0.0.1 to a test service, cut to play the service going away (and
//! restored to play it coming back).

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use tokio::{net::TcpListener, sync::watch};

/// A TCP relay to the test Postgres or Redis that can be cut, as when it goes away.
pub struct Relay {
    pub addr: SocketAddr,
    open: Arc<AtomicBool>,
    /// Bumped at each cut: every relayed connection ends.
    cuts: watch::Sender<u64>,
}

impl Relay {
    pub async fn to(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let open = Arc::new(AtomicBool::new(true));
        let (cuts, _) = watch::channel(0);
        let (accepting, ends) = (open.clone(), cuts.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !accepting.load(Ordering::SeqCst) {
                    continue; // dropped: the connection closes at once
                }
                let mut cut = ends.subscribe();
                tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                            _ = cut.changed() => {}
                        }
                    }
                });
            }
        });
        Self { addr, open, cuts }
    }

    /// Closes every relayed connection and refuses new ones.
    pub fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        self.cuts.send_modify(|cuts| *cuts += 1);
    }

    /// Relays new connections again.
    pub fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
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
