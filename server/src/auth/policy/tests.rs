//! The role table's own checks: every RPC of the contracts has a row, and rows say what the
//! product's screens need.

use std::collections::BTreeSet;

use prost::Message;
use prost_types::FileDescriptorSet;

use super::*;

fn contract_methods() -> BTreeSet<String> {
    let set = FileDescriptorSet::decode(repairs_proto::FILE_DESCRIPTOR_SET).unwrap();
    set.file
        .iter()
        .flat_map(|file| {
            let package = file.package().to_owned();
            file.service.iter().flat_map(move |service| {
                let package = package.clone();
                service
                    .method
                    .iter()
                    .map(move |method| format!("/{package}.{}/{}", service.name(), method.name()))
            })
        })
        .collect()
}

#[test]
fn every_rpc_of_the_contracts_has_exactly_one_rule() {
    let ruled: Vec<String> = rules().map(|(p, ..)| p).collect();
    let unique: BTreeSet<&str> = ruled.iter().map(String::as_str).collect();
    assert_eq!(unique.len(), ruled.len(), "a method has two rules");
    let missing: Vec<String> = contract_methods()
        .into_iter()
        .filter(|m| !unique.contains(m.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "RPCs without an access rule: {missing:?}"
    );
}

#[test]
fn every_rule_names_a_real_rpc() {
    let methods = contract_methods();
    let stray: Vec<String> = rules()
        .map(|(p, ..)| p)
        .filter(|p| !p.starts_with("/grpc.") && !methods.contains(p))
        .collect();
    assert!(
        stray.is_empty(),
        "rules for RPCs that do not exist: {stray:?}"
    );
}

#[test]
fn unknown_paths_have_no_rule() {
    assert_eq!(
        access_for("/repairs.accounts.v1.AccountsService/DropEverything"),
        None
    );
    assert_eq!(
        access_for("/repairs.accounts.v1.AccountsService/LogIn"),
        Some(Access::Anyone)
    );
}

#[test]
fn scopes_open_only_rpcs_admins_may_call_and_named_once() {
    let mut seen = BTreeSet::new();
    for (path, scopes) in SCOPED_RULES {
        assert!(seen.insert(*path), "{path} has two scope rules");
        assert!(!scopes.is_empty(), "{path}: a row without scopes");
        // A scope stands in for an admin's reach, never for a customer's or professional's
        // own account (whose data the RPC would then read as the caller's).
        match access_for(path) {
            Some(Access::Roles(roles)) => assert!(
                roles.contains(&Admin),
                "{path}: scoped, but not an admin's RPC"
            ),
            other => panic!("{path}: scoped but ruled {other:?}"),
        }
    }
    assert_eq!(
        scopes_for("/repairs.billing.v1.BillingService/ListOrders"),
        [crate::auth::service::Scope::OrdersRead]
    );
    assert!(scopes_for("/repairs.accounts.v1.AccountsService/CreateServiceAccount").is_empty());
}
