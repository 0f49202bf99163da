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
        // The current status, then each change; after the server stops, one last NOT_SERVING
        // and the end of the stream, so stopping never waits on a watcher.
        let first = Some((self.readiness.subscribe(), true));
        let changes = futures::stream::unfold(first, |state| async move {
            let (mut receiver, first) = state?;
            if !first {
                receiver.changed().await.ok()?;
            }
            let status = receiver.borrow_and_update().clone();
            let next = (status != ReadinessStatus::Stopped).then_some((receiver, false));
            Some((Ok(reply(&status)), next))
        });
        Ok(Response::new(Box::pin(changes)))
    }
}
