//! `/api/openapi.json`: the OpenAPI 3.1 description of the legacy surface, served by the BFF,
//! lists exactly the calls of the route table the BFF routes by, each under its method.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::helpers::{Bff, NO_WEB};

#[tokio::test]
async fn the_description_lists_every_legacy_route_and_nothing_else() {
    let bff = Bff::start(None, NO_WEB, &[]).await;
    let response = reqwest::get(bff.url("/api/openapi.json")).await.unwrap();
    assert_eq!(response.status(), 200);
    let document: Value = response.json().await.unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    let described: BTreeSet<(String, String)> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |verb| (verb.to_uppercase(), path.clone()))
        })
        .collect();
    let routed: BTreeSet<(String, String)> = repairs_bff::legacy::calls()
        .map(|call| (call.verb.as_str().to_owned(), call.path.to_owned()))
        .collect();
    assert_eq!(described, routed);
    assert_eq!(described.len(), 84);
    // Path parameters are declared, as OpenAPI requires.
    let check_link = &document["paths"]["/api/users/get-user1/{id}/{token}"]["get"];
    let names: Vec<&str> = check_link["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["id", "token"]);
    bff.stop().await;
}
