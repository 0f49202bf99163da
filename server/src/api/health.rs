//! `grpc.health.v1.Health`: SERVING while this replica is ready (`crate::readiness`), for the
//! whole server ("") and each of its services alike; NOT_SERVING when Postgres or Redis is
//! out of reach or the server is stopping. A Watch stream sends each change and ends when
//! the server stops. As the health protocol asks, Check refuses a service this server does
//! not have (NOT_FOUND) while Watch says SERVICE_UNKNOWN and stays open.

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

fn is_known(service: &str) -> bool {
    service.is_empty() || SERVICE_NAMES.contains(&service)
}

fn known(service: &str) -> Result<(), Status> {
    if is_known(service) {
        Ok(())
    } else {
        Err(Status::not_found(format!("no service named {service:?}")))
    }
}

/// What a watcher of a service this server has (`known`) or not is told.
fn reply_to(known: bool, status: &ReadinessStatus) -> HealthCheckResponse {
    if !known {
        return HealthCheckResponse {
            status: ServingStatus::ServiceUnknown.into(),
        };
    }
    reply(status)
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
        let known = is_known(&request.get_ref().service);
        // The current status, then each change of it; after the server stops, one last
        // NOT_SERVING (when it was not already said) and the end of the stream, so stopping
        // never waits on a watcher.
        let first = Some((self.readiness.subscribe(), None));
        let changes = futures::stream::unfold(first, move |state| async move {
            let (mut receiver, mut said) = state?;
            loop {
                if said.is_some() {
                    receiver.changed().await.ok()?;
                }
                let status = receiver.borrow_and_update().clone();
                let reply = reply_to(known, &status);
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
