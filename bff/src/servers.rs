//! The servers behind the BFF: every address of SERVER_URL (several URLs, comma-separated, or
//! a host name that resolves to several addresses, as a Kubernetes headless Service does).
//! Calls are spread over them by one balanced gRPC channel (tonic's, power of two choices),
//! and every SERVER_CHECK_MS each address is resolved again and asked `grpc.health.v1`: an
//! address that does not answer SERVING (down, Postgres or Redis out of its reach, shutting
//! down) is taken out until it does. When none does, all are kept, so calls fail at once as
//! UNAVAILABLE rather than wait.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::time::Duration;

use http::Uri;
use tokio::sync::mpsc::Sender;
use tonic::transport::{Channel, Endpoint, channel::Change};
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};

/// The longest a health question may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

/// The balanced channel, filled and kept up to date by a task that ends when the last clone
/// of the channel is dropped. Must run inside the Tokio runtime.
pub fn balanced(urls: &[Uri], check_every: Duration) -> Channel {
    let (channel, changes) = Channel::balance_channel::<SocketAddr>(16);
    tokio::spawn(keep_up_to_date(urls.to_vec(), check_every, changes));
    channel
}

fn endpoint(addr: SocketAddr, connect_timeout: Duration) -> Endpoint {
    // An IP address and a port always make a valid URI.
    Endpoint::from(Uri::from_maybe_shared(format!("http://{addr}")).unwrap_or_default())
        .connect_timeout(connect_timeout)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_timeout(Duration::from_secs(10))
}

/// Every address of every URL, in order, each once; a name that does not resolve adds none.
async fn resolve(urls: &[Uri]) -> Vec<SocketAddr> {
    let mut addresses = Vec::new();
    for url in urls {
        let Some(host) = url.host() else { continue };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let port = url.port_u16().unwrap_or(80);
        match tokio::net::lookup_host((host, port)).await {
            Ok(found) => {
                for addr in found {
                    if !addresses.contains(&addr) {
                        addresses.push(addr);
                    }
                }
            }
            Err(error) => tracing::warn!(%url, %error, "server address does not resolve"),
        }
    }
    addresses
}

/// Asks `grpc.health.v1` on `channel` about the whole server: `Ok` when it says SERVING
/// within `limit`, else why not, in a few words.
pub async fn ask_health(channel: Channel, limit: Duration) -> Result<(), String> {
    let mut client = HealthClient::new(channel);
    match tokio::time::timeout(limit, client.check(HealthCheckRequest::default())).await {
        Ok(Ok(reply)) if reply.get_ref().status == ServingStatus::Serving as i32 => Ok(()),
        Ok(Ok(_)) => Err("the server is not serving".to_owned()),
        Ok(Err(status)) => Err(format!("server: {}", status.message())),
        Err(_) => Err(format!("no server answered within {limit:?}")),
    }
}

async fn keep_up_to_date(
    urls: Vec<Uri>,
    every: Duration,
    changes: Sender<Change<SocketAddr, Endpoint>>,
) {
    let mut in_use: HashSet<SocketAddr> = HashSet::new();
    // A connection of its own per address for the health questions, kept between rounds.
    let mut probes: HashMap<SocketAddr, Channel> = HashMap::new();
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = changes.closed() => return,
        }
        let addresses = resolve(&urls).await;
        probes.retain(|addr, _| addresses.contains(addr));
        let checks = addresses.iter().map(|addr| {
            let probe = probes
                .entry(*addr)
                .or_insert_with(|| endpoint(*addr, CHECK_TIMEOUT).connect_lazy())
                .clone();
            async move { ask_health(probe, CHECK_TIMEOUT).await.ok().map(|()| *addr) }
        });
        let serving: HashSet<SocketAddr> = futures::future::join_all(checks)
            .await
            .into_iter()
            .flatten()
            .collect();
        let wanted = if serving.is_empty() {
            addresses.into_iter().collect()
        } else {
            serving
        };
        for gone in in_use.difference(&wanted) {
            tracing::warn!(addr = %gone, "server not serving: calls go to the others");
            if changes.send(Change::Remove(*gone)).await.is_err() {
                return;
            }
        }
        for new in wanted.difference(&in_use) {
            tracing::info!(addr = %new, "server in use");
            let endpoint = endpoint(*new, Duration::from_secs(5));
            if changes.send(Change::Insert(*new, endpoint)).await.is_err() {
                return;
            }
        }
        in_use = wanted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(urls: &[&str]) -> Vec<Uri> {
        urls.iter().map(|url| url.parse().unwrap()).collect()
    }

    #[tokio::test]
    async fn every_address_of_every_url_counts_once() {
        let found = resolve(&urls(&[
            "http://127.0.0.1:50051",
            "http://localhost:50051",
            "http://127.0.0.2:50051",
            "http://[::1]:50061",
            "http://no-such-host.invalid:50051",
        ]))
        .await;
        let first: SocketAddr = "127.0.0.1:50051".parse().unwrap();
        assert_eq!(found.iter().filter(|addr| **addr == first).count(), 1);
        assert_eq!(found[0], first);
        assert!(found.contains(&"127.0.0.2:50051".parse().unwrap()));
        assert!(found.contains(&"[::1]:50061".parse().unwrap()));
    }
}
