//! The one LISTEN connection of a process: every hub's channel is listened to on it, and each
//! notification goes to the hub of its channel. A LISTEN holds its connection for as long as
//! the server runs, so it is a connection of its own (made like the pool's, never taken from
//! it), and one for all the channels rather than one each.

use std::{sync::Arc, time::Duration};

use sqlx::{
    PgPool,
    postgres::{PgListener, PgPoolOptions},
};
use tokio::{sync::watch, task::JoinHandle};

/// A Postgres channel and what hears it (`super::notify_hub::NotifyHub`).
pub trait Channel: Send + Sync {
    fn name(&self) -> &'static str;
    /// A notification's payload.
    fn heard(&self, payload: &str);
    /// Notifications may have been missed (the connection was lost and made again).
    fn missed(&self);
}

/// Listens on every channel until `stop`, handing each notification to its channel; makes
/// the connection again after losing it, and then tells every channel it may have missed some.
pub fn spawn(
    db: PgPool,
    channels: Vec<Arc<dyn Channel>>,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.changed() => return,
                result = listen(&db, &channels) => match result {
                    Ok(()) => tracing::warn!("listener lost; reconnecting"),
                    Err(error) => tracing::warn!(%error, "listener failed; reconnecting"),
                }
            }
            tokio::select! {
                _ = stop.changed() => return,
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
        }
    })
}

/// Listens until the connection is lost (`Ok`) or cannot be made (`Err`).
async fn listen(db: &PgPool, channels: &[Arc<dyn Channel>]) -> sqlx::Result<()> {
    let own = PgPoolOptions::new()
        .max_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_lazy_with(db.connect_options().as_ref().clone());
    let mut listener = PgListener::connect_with(&own).await?;
    listener
        .listen_all(channels.iter().map(|channel| channel.name()))
        .await?;
    // Listening again after a lost connection: what was sent meanwhile is unknown.
    for channel in channels {
        channel.missed();
    }
    loop {
        // `None`: the connection was lost. Listen again from scratch, so that the gap is
        // told only once listening again (recv would reconnect by itself, silently).
        let Some(notification) = listener.try_recv().await? else {
            return Ok(());
        };
        match channels
            .iter()
            .find(|channel| channel.name() == notification.channel())
        {
            Some(channel) => channel.heard(notification.payload()),
            None => tracing::warn!(
                channel = notification.channel(),
                "notification of a channel nobody hears"
            ),
        }
    }
}
