//! A trip to a job as the contract carries it: the estimate at the moment of reading, and
//! the position only for the request's customer.

use chrono::Utc;
use repairs_proto::marketplace as pb;

use super::convert::timestamp;
use crate::{
    requests::Viewed,
    store::trips::TripRow,
    trips::{EstimateSource, Progress},
};

/// `trip` to the job of `viewed`, as its viewer may see it.
pub fn trip_to_proto(trip: &TripRow, viewed: &Viewed) -> pb::Trip {
    let mut out = pb::Trip {
        start_time: Some(timestamp(trip.started_at)),
        professional_name: viewed
            .request
            .hired_professional_name
            .clone()
            .unwrap_or_default(),
        ..Default::default()
    };
    match trip.progress(Utc::now()) {
        Progress::Arrived { at } => {
            out.state = pb::TripState::Arrived as i32;
            out.arrival_time = Some(timestamp(at));
        }
        Progress::OnTheWay {
            arrive_at,
            meters_left,
            source,
            by_road,
        } => {
            out.state = pb::TripState::OnTheWay as i32;
            out.estimated_arrival_time = Some(timestamp(arrive_at));
            out.distance_left_m = meters_left;
            out.road_estimate_unavailable = !by_road;
            out.estimate_source = match source {
                EstimateSource::Route => pb::ArrivalEstimateSource::Route,
                EstimateSource::Position => pb::ArrivalEstimateSource::Position,
            } as i32;
            out.last_position_time = trip.position_at.map(timestamp);
            out.position = match (viewed.sees_trip_position, trip.latitude, trip.longitude) {
                (true, Some(latitude), Some(longitude)) => Some(pb::TripPosition {
                    latitude,
                    longitude,
                    accuracy_m: trip.accuracy_m.unwrap_or_default(),
                    time: trip.position_at.map(timestamp),
                }),
                _ => None,
            };
        }
    }
    out
}
