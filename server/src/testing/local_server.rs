//! A local HTTP server for the provider tests and the benchmarks' stand-ins: an axum router
//! on 127.0.0.1, port 0, stopped by whoever started it.

use std::net::SocketAddr;

use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

pub struct LocalServer {
    pub addr: SocketAddr,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl LocalServer {
    pub async fn start(router: axum::Router) -> Self {
        Self::start_on(SocketAddr::from(([127, 0, 0, 1], 0)), router).await
    }

    /// The server on `addr` (a port chosen beforehand).
    pub async fn start_on(addr: SocketAddr, router: axum::Router) -> Self {
        let listener = TcpListener::bind(addr)
            .await
            .expect("bind the local server");
        let addr = listener.local_addr().expect("local address");
        let (shutdown, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
                .expect("local server runs");
        });
        Self {
            addr,
            shutdown,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn stop(self) {
        let _ = self.shutdown.send(());
        self.task.await.expect("local server stops");
    }
}
