//! `grpc.health.v1.Health`: SERVING while this replica is ready (`crate::readiness`), for the
//! whole server ("") and each of its services alike; NOT_SERVING when Postgres or Redis is
//! out of reach or the server is stopping. A Watch stream sends each change and ends when
//! the server stops.

use std::pin::Pin;

use futures::Stream;
use tonic::{Request, Response, Status};
use tonic_health::pb::{
    HealthCheckRequest, HealthCheckResponse,
    health_check_response::ServingStatus,
    health_server::{Health, HealthServer},
};

use super::SERVICE_NAMES;
use crate::readiness::{Readiness, Status as ReadinessStatus};

pub fn service(readiness: Readiness) -> HealthServer<HealthApi> {
    HealthServer::new(HealthApi { readiness })
}

pub struct HealthApi {
    readiness: Readiness,
}

fn known(service: &str) -> Result<(), Status> {
    if service.is_empty() || SERVICE_NAMES.contains(&service) {
        Ok(())
    } else {
        Err(Status::not_found(format!("no service named {service:?}")))
    }
}

fn reply(status: &ReadinessStatus) -> HealthCheckResponse {
    let serving = if status.is_ready() {
        ServingStatus::Serving
    } else {
        ServingStatus::NotServing
    };
    HealthCheckResponse {
        status: serving.into(),
    }
}

#[tonic::async_trait]
impl Health for HealthApi {
    async fn check(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthCheckResponse>, Status> {
        known(&request.get_ref().service)?;
        Ok(Response::new(reply(&self.readiness.current())))
    }

    type WatchStream = Pin<Box<dyn Stream<Item = Result<HealthCheckResponse, Status>> + Send>>;

    async fn watch(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        known(&request.get_ref().service)?;
        // The current status, then each change of it; after the server stops, one last
        // NOT_SERVING (when it was not already said) and the end of the stream, so stopping
        // never waits on a watcher.
        let first = Some((self.readiness.subscribe(), None));
        let changes = futures::stream::unfold(first, |state| async move {
            let (mut receiver, mut said) = state?;
            loop {
                if said.is_some() {
                    receiver.changed().await.ok()?;
                }
                let status = receiver.borrow_and_update().clone();
                let reply = reply(&status);
                let stopped = status == ReadinessStatus::Stopped;
                if said.replace(reply.status) != Some(reply.status) {
                    let next = (!stopped).then_some((receiver, said));
                    return Some((Ok(reply), next));
                }
                if stopped {
                    return None;
                }
            }
        });
        Ok(Response::new(Box::pin(changes)))
    }
}
