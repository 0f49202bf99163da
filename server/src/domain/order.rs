//! Where an order (one payment of a hire) stands, and the changes it may take. An order's
//! stage is kept as timestamps (`hired_at`, `completed_at`, `closed_at`) and its payment;
//! each change names the stages it starts from, and the store writes a change only to an
//! order in one of them.

/// Where an order stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderStage {
    /// Its hire claimed the request; the card is being authorised.
    Claimed,
    /// The card answered (held, or waiting on the cardholder); the hire is not written yet.
    Paid,
    /// The professional is hired on it.
    Hired,
    /// The job was marked done.
    Completed,
    /// No longer the request's live order (the hold lapsed, was released or lost a race).
    Closed,
}

impl OrderStage {
    /// The SQL condition an `orders` row in this stage meets.
    pub fn sql(self) -> &'static str {
        match self {
            Self::Claimed => "(payment_id is null and closed_at is null)",
            Self::Paid => "(payment_id is not null and hired_at is null and closed_at is null)",
            Self::Hired => "(hired_at is not null and completed_at is null and closed_at is null)",
            Self::Completed => "(completed_at is not null and closed_at is null)",
            Self::Closed => "(closed_at is not null)",
        }
    }
}

/// The changes of an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderChange {
    /// The card's answer (a payment) is attached to the claim.
    AttachPayment,
    /// The hire is written.
    Hire,
    /// The job is marked done.
    Complete,
    /// It stops being its request's live order.
    Close,
    /// A claim whose card was refused, or that nothing can resume, is removed.
    Unclaim,
}

impl OrderChange {
    pub fn allowed_from(self) -> &'static [OrderStage] {
        use OrderStage as S;
        match self {
            Self::AttachPayment | Self::Unclaim => &[S::Claimed],
            Self::Hire => &[S::Paid],
            Self::Complete => &[S::Hired],
            Self::Close => &[S::Claimed, S::Paid, S::Hired],
        }
    }

    /// The SQL condition of an order this change may start from.
    pub fn from_sql(self) -> String {
        let stages: Vec<&str> = self.allowed_from().iter().map(|s| s.sql()).collect();
        format!("({})", stages.join(" or "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completed_or_closed_order_is_never_closed_hired_or_unclaimed_again() {
        for change in [OrderChange::Close, OrderChange::Hire, OrderChange::Unclaim] {
            assert!(!change.allowed_from().contains(&OrderStage::Completed));
            assert!(!change.allowed_from().contains(&OrderStage::Closed));
        }
        assert_eq!(
            OrderChange::Unclaim.from_sql(),
            "((payment_id is null and closed_at is null))"
        );
    }
}
