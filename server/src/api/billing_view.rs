//! Orders, payments, memberships and coupons as the billing contract carries them.

use repairs_proto::billing::{self as pb};

use super::{convert::timestamp, tax_view::tax_lines_to_proto};
use crate::{
    billing::{Payment, PaymentState, Purpose, admin::Target, membership::Membership},
    domain::Money,
    store::{coupons::CouponRow, orders as store_orders, refunds::RefundRow},
};

/// An order as its parties and admins see it (contacts once the request was hired).
/// An order as `orders.read` alone shows it: no one's name or contacts, the job's city and
/// province without its street.
pub(super) fn withhold_contacts(order: &mut pb::Order) {
    order.customer_name.clear();
    order.professional_name.clear();
    if let Some(contacts) = &mut order.contacts {
        contacts.customer = None;
        contacts.professional = None;
        if let Some(address) = &mut contacts.address {
            address.line1.clear();
            address.line2.clear();
            address.postal_code.clear();
        }
    }
}

pub(super) fn order_to_proto(view: store_orders::OrderView, payment: Option<Payment>) -> pb::Order {
    use repairs_proto::{marketplace as mpb, types};
    let state = payment
        .as_ref()
        .map(|p| order_state(p.state))
        .unwrap_or_default();
    let request_state = crate::domain::RepairRequestState::from_code(&view.request_state)
        .map(|s| super::request_view::state_to_proto(s) as i32)
        .unwrap_or_default();
    let contacts = view.order.hired_at.map(|_| mpb::JobContacts {
        customer: Some(mpb::PartyContact {
            id: view.order.customer_id.to_string(),
            name: view.customer_name.clone(),
            email: view.customer_email.clone(),
            phone: view.customer_phone.clone().unwrap_or_default(),
        }),
        professional: Some(mpb::PartyContact {
            id: view.order.professional_id.to_string(),
            name: view.professional_name.clone(),
            email: view.professional_email.clone(),
            phone: view.professional_phone.clone().unwrap_or_default(),
        }),
        address: Some(types::Address {
            line1: view.line1.clone(),
            line2: view.line2.clone(),
            city: view.city.clone(),
            province: view.province.clone(),
            postal_code: view.postal_code.clone(),
            country: "CA".to_owned(),
        }),
    });
    let order = view.order;
    pb::Order {
        id: order.id.to_string(),
        customer_id: order.customer_id.to_string(),
        customer_name: view.customer_name,
        customer_deleted: view.customer_deleted,
        professional_id: order.professional_id.to_string(),
        professional_name: view.professional_name,
        quote_id: order.quote_id.to_string(),
        repair_request_id: order.repair_request_id.to_string(),
        estimated_minutes: view.estimated_minutes,
        payment: payment.map(payment_to_proto),
        state,
        create_time: Some(timestamp(order.created_at)),
        repair_request_state: request_state,
        complete_time: order.completed_at.map(timestamp),
        contacts,
    }
}

pub(super) fn order_state(state: PaymentState) -> i32 {
    (match state {
        PaymentState::RequiresAction => pb::OrderState::RequiresAction,
        PaymentState::Authorized => pb::OrderState::Authorized,
        PaymentState::Captured => pb::OrderState::Captured,
        PaymentState::Canceled => pb::OrderState::Canceled,
        PaymentState::Expired => pb::OrderState::Expired,
        PaymentState::Failed => pb::OrderState::Failed,
        PaymentState::Refunded => pb::OrderState::Refunded,
        PaymentState::Disputed => pb::OrderState::Disputed,
        PaymentState::ChargedBack => pb::OrderState::ChargedBack,
    }) as i32
}

/// `price` is one month's (`Config::membership_price`).
pub(super) fn membership_to_proto(membership: &Membership, price: Money) -> pb::Membership {
    pb::Membership {
        professional_id: membership.professional_id.to_string(),
        active: membership.is_active(chrono::Utc::now()),
        expire_time: membership.expires_at.map(timestamp),
        monthly_price: Some(price.into()),
    }
}

pub(super) fn payment_state_to_proto(state: PaymentState) -> pb::PaymentState {
    match state {
        PaymentState::RequiresAction => pb::PaymentState::RequiresAction,
        PaymentState::Authorized => pb::PaymentState::Authorized,
        PaymentState::Captured => pb::PaymentState::Captured,
        PaymentState::Canceled => pb::PaymentState::Canceled,
        PaymentState::Expired => pb::PaymentState::Expired,
        PaymentState::Failed => pb::PaymentState::Failed,
        PaymentState::Refunded => pb::PaymentState::Refunded,
        PaymentState::Disputed => pb::PaymentState::Disputed,
        PaymentState::ChargedBack => pb::PaymentState::ChargedBack,
    }
}

pub(super) fn purpose_to_proto(purpose: Purpose) -> pb::PaymentPurpose {
    match purpose {
        Purpose::Hire => pb::PaymentPurpose::Hire,
        Purpose::Membership => pb::PaymentPurpose::Membership,
        Purpose::TestCharge => pb::PaymentPurpose::TestCharge,
    }
}

pub(super) fn payment_to_proto(payment: Payment) -> pb::Payment {
    let taxes = tax_lines_to_proto(&payment.sale);
    let subtotal = Some(payment.sale.subtotal.into());
    let state = payment_state_to_proto(payment.state);
    let purpose = purpose_to_proto(payment.purpose);
    pb::Payment {
        id: payment.id.to_string(),
        purpose: purpose as i32,
        payer_id: payment.payer_id.to_string(),
        amount: Some(payment.amount.into()),
        state: state as i32,
        next_action: payment
            .client_secret
            .filter(|_| payment.state == PaymentState::RequiresAction)
            .map(|client_secret| pb::PaymentAction {
                client_secret,
                redirect_url: String::new(),
            }),
        failure_message: payment
            .decline
            .map(|d| d.message().to_owned())
            .unwrap_or_default(),
        authorization_expire_time: payment.authorization_expires_at.map(timestamp),
        capture_time: payment.captured_at.map(timestamp),
        create_time: Some(timestamp(payment.created_at)),
        update_time: Some(timestamp(payment.updated_at)),
        test_mode: payment.test_mode,
        charge_id: payment.charge_id,
        subtotal,
        taxes,
        refunded: Some(payment.refunded.into()),
        refunds: Vec::new(),
    }
}

/// A payment with its refunds listed (RefundPayment, GetPayment).
pub(super) fn payment_with_refunds(payment: Payment, refunds: Vec<RefundRow>) -> pb::Payment {
    let mut view = payment_to_proto(payment);
    view.refunds = refunds
        .into_iter()
        .map(|row| pb::Refund {
            id: row.id.to_string(),
            amount: Some(repairs_proto::types::Money {
                amount_cents: row.amount_cents,
                currency: row.currency,
            }),
            reason: row.reason,
            create_time: Some(timestamp(row.created_at)),
            gateway_refund_id: row.gateway_refund_id.unwrap_or_default(),
        })
        .collect();
    view
}

pub(super) fn target(target: Option<pb::PaymentTarget>) -> Option<Target> {
    use pb::payment_target::Target as T;
    target.and_then(|t| t.target).map(|t| match t {
        T::OrderId(id) => Target::Order(id),
        T::PaymentId(id) => Target::Payment(id),
        T::ChargeId(id) => Target::Charge(id),
    })
}

pub(super) fn coupon_to_proto(row: CouponRow) -> pb::Coupon {
    pb::Coupon {
        id: row.id.to_string(),
        code: row.code,
        discount_percent: row.discount_percent,
        create_time: Some(timestamp(row.created_at)),
        expire_time: row.expires_at.map(timestamp),
        max_redemptions: row.max_redemptions,
        redemption_count: row.redemption_count,
        active: row.active,
    }
}
