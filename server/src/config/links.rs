//! Every address the server hands out under PUBLIC_URL: the pages of the web app it links to
//! in emails and texts (and the page Stripe sends a professional back to), and the signed
//! file links of its replies. [`PAGES`] is the one list of those pages: the contract's README
//! (`proto/README.md`, "Links in emails and texts") lists each with what it opens, so that a
//! native app can open them itself (universal links). The tests below check both that the
//! README names every page and that no other module builds a link (none reads `public_url`).

use uuid::Uuid;

use super::Config;
use crate::domain::{Language, Role};

/// A page of the web app the server links to. Its [`path`](Page::path) names each parameter
/// in braces, as the README lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// A new request, for a professional it matches.
    ViewRequest,
    /// The quotes on a customer's request.
    RequestQuotes,
    /// A customer's request, with its conversations.
    CustomerRequest,
    /// The jobs a professional was hired on.
    ProfessionalJobs,
    /// A customer's hired jobs.
    CustomerJobs,
    /// The admins' order history.
    AdminOrders,
    /// A customer's orders and receipts.
    CustomerOrders,
    /// A professional's paid jobs.
    ProfessionalOrders,
    /// A professional's own profile, with the reviews of their work.
    ProfessionalProfile,
    /// Choosing a new password: customers.
    ResetPassword,
    /// Choosing a new password: professionals.
    ProfessionalResetPassword,
    /// Confirming the email address of a new account.
    VerifyEmail,
    /// How a professional is paid, where Stripe's onboarding sends them back.
    StripeConnect,
    /// The same page when Stripe's onboarding link expired: a new link is asked for.
    StripeConnectRefresh,
    /// The professionals' sign-in (French readers get the page under `/fr`).
    ProfessionalSignIn,
    /// A payment's printable receipt, for its payer, its payee or an admin.
    Receipt,
    /// A problem reported after a job, for admins.
    AdminProblem,
    /// A card dispute and its evidence, for admins.
    AdminDispute,
    /// Turning one kind of email off from its link, without signing in; also the address
    /// of the email's one-click `List-Unsubscribe` (a POST there turns it off).
    Unsubscribe,
    /// Keeping an account its person closed, before it is erased.
    KeepAccount,
    /// A customer's account settings: their data's copy, what reaches them, closing.
    CustomerAccount,
}

/// Every page the server links to.
pub const PAGES: [Page; 21] = [
    Page::ViewRequest,
    Page::RequestQuotes,
    Page::CustomerRequest,
    Page::ProfessionalJobs,
    Page::CustomerJobs,
    Page::AdminOrders,
    Page::CustomerOrders,
    Page::ProfessionalOrders,
    Page::ProfessionalProfile,
    Page::ResetPassword,
    Page::ProfessionalResetPassword,
    Page::VerifyEmail,
    Page::StripeConnect,
    Page::StripeConnectRefresh,
    Page::ProfessionalSignIn,
    Page::Receipt,
    Page::AdminProblem,
    Page::AdminDispute,
    Page::Unsubscribe,
    Page::KeepAccount,
    Page::CustomerAccount,
];

impl Page {
    /// The path under PUBLIC_URL, each parameter in braces.
    pub const fn path(self) -> &'static str {
        match self {
            Self::ViewRequest => "/view-request/{request_id}",
            Self::RequestQuotes => "/application-list/{request_id}",
            Self::CustomerRequest => "/user-view-request/{request_id}",
            Self::ProfessionalJobs => "/professional-active-requests",
            Self::CustomerJobs => "/user-active-requests",
            Self::AdminOrders => "/admin/order-history",
            Self::CustomerOrders => "/user-order-history",
            Self::ProfessionalOrders => "/professional-order-history",
            Self::ProfessionalProfile => "/view-professional-profile",
            Self::ResetPassword => "/reset-password/{account_id}/{token}",
            Self::ProfessionalResetPassword => "/prof-reset-password/{account_id}/{token}",
            Self::VerifyEmail => "/verify-email/{token}",
            Self::StripeConnect => "/stripe-connect",
            Self::StripeConnectRefresh => "/stripe-connect?refresh=1",
            Self::ProfessionalSignIn => "/login-as-professional",
            Self::Receipt => "/receipts/{payment_id}",
            Self::AdminProblem => "/admin/problems/{problem_id}",
            Self::AdminDispute => "/admin/disputes/{dispute_id}",
            Self::Unsubscribe => "/unsubscribe/{token}",
            Self::KeepAccount => "/keep-account/{token}",
            Self::CustomerAccount => "/user-account-setting",
        }
    }
}

/// A page's link in both languages: the French pages live under `/fr`, and a message gives
/// its reader the page in their language, so the app never opens in the other one first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageLink {
    english: String,
    french: String,
}

impl PageLink {
    /// The link for a reader of `language`.
    pub fn of(&self, language: Language) -> &str {
        language.pick(&self.english, &self.french)
    }
}

/// Links under one PUBLIC_URL ([`Config::links`]).
#[derive(Debug, Clone, Copy)]
pub struct Links<'a> {
    base: &'a str,
}

impl Config {
    /// The links under this server's PUBLIC_URL.
    pub fn links(&self) -> Links<'_> {
        Links::new(&self.public_url)
    }
}

impl<'a> Links<'a> {
    pub fn new(public_url: &'a str) -> Self {
        Self {
            base: public_url.trim_end_matches('/'),
        }
    }

    /// `page` with its parameters, in the order its path names them, in both languages.
    pub fn page(&self, page: Page, parameters: &[&str]) -> PageLink {
        PageLink {
            english: self.page_under("", page, parameters),
            french: self.page_under("/fr", page, parameters),
        }
    }

    /// `page` with its parameters under `prefix` ("" or "/fr").
    fn page_under(&self, prefix: &str, page: Page, parameters: &[&str]) -> String {
        let mut pieces = page.path().split('{');
        let mut link = format!("{}{prefix}{}", self.base, pieces.next().unwrap_or_default());
        let mut given = parameters.iter();
        for piece in pieces {
            // "name}rest": the parameter's value, then what follows it.
            let after = piece.split_once('}').map_or(piece, |(_, after)| after);
            link.push_str(given.next().copied().unwrap_or_default());
            link.push_str(after);
        }
        debug_assert!(given.next().is_none(), "{page:?} takes fewer parameters");
        link
    }

    pub fn view_request(&self, request_id: Uuid) -> PageLink {
        self.page(Page::ViewRequest, &[&request_id.to_string()])
    }

    pub fn request_quotes(&self, request_id: Uuid) -> PageLink {
        self.page(Page::RequestQuotes, &[&request_id.to_string()])
    }

    pub fn customer_request(&self, request_id: Uuid) -> PageLink {
        self.page(Page::CustomerRequest, &[&request_id.to_string()])
    }

    pub fn professional_jobs(&self) -> PageLink {
        self.page(Page::ProfessionalJobs, &[])
    }

    pub fn customer_jobs(&self) -> PageLink {
        self.page(Page::CustomerJobs, &[])
    }

    pub fn admin_problem(&self, problem_id: Uuid) -> PageLink {
        self.page(Page::AdminProblem, &[&problem_id.to_string()])
    }

    pub fn admin_dispute(&self, dispute_id: Uuid) -> PageLink {
        self.page(Page::AdminDispute, &[&dispute_id.to_string()])
    }

    pub fn admin_orders(&self) -> PageLink {
        self.page(Page::AdminOrders, &[])
    }

    pub fn customer_orders(&self) -> PageLink {
        self.page(Page::CustomerOrders, &[])
    }

    pub fn professional_orders(&self) -> PageLink {
        self.page(Page::ProfessionalOrders, &[])
    }

    pub fn professional_profile(&self) -> PageLink {
        self.page(Page::ProfessionalProfile, &[])
    }

    /// The reset page of the account's role (professionals have their own).
    pub fn reset_password(&self, role: Role, account_id: Uuid, token: &str) -> PageLink {
        let page = match role {
            Role::Professional => Page::ProfessionalResetPassword,
            Role::Customer | Role::Admin => Page::ResetPassword,
        };
        self.page(page, &[&account_id.to_string(), token])
    }

    pub fn verify_email(&self, token: &str) -> PageLink {
        self.page(Page::VerifyEmail, &[token])
    }

    /// Where Stripe's onboarding sends the professional back, and where it sends them when
    /// its link expired.
    pub fn stripe_connect(&self) -> (PageLink, PageLink) {
        (
            self.page(Page::StripeConnect, &[]),
            self.page(Page::StripeConnectRefresh, &[]),
        )
    }

    pub fn professional_sign_in(&self) -> PageLink {
        self.page(Page::ProfessionalSignIn, &[])
    }

    /// A payment's receipt for `reader`: a professional's or an admin's link names their
    /// session (`?as=professional`), which the web app opens it with when the browser holds
    /// several; a customer's is the page alone.
    pub fn receipt(&self, payment_id: Uuid, reader: Role) -> PageLink {
        let mut link = self.page(Page::Receipt, &[&payment_id.to_string()]);
        if reader != Role::Customer {
            for url in [&mut link.english, &mut link.french] {
                url.push_str("?as=");
                url.push_str(reader.as_str());
            }
        }
        link
    }

    /// The credit note of refund `refund_id` of payment `payment_id`: its receipt page
    /// showing that refund (`?refund=`).
    pub fn credit_note(&self, payment_id: Uuid, refund_id: Uuid, reader: Role) -> PageLink {
        let mut link = self.receipt(payment_id, reader);
        for url in [&mut link.english, &mut link.french] {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("refund=");
            url.push_str(&refund_id.to_string());
        }
        link
    }

    /// Where a person finds their own account: a customer's settings, a professional's
    /// profile.
    pub fn own_account(&self, role: Role) -> PageLink {
        match role {
            Role::Customer => self.page(Page::CustomerAccount, &[]),
            _ => self.professional_profile(),
        }
    }

    /// The page keeping a closed account before its erasure: token from
    /// `accounts::closure`.
    pub fn keep_account(&self, token: &str) -> PageLink {
        self.page(Page::KeepAccount, &[token])
    }

    /// The page (and one-click address) turning one kind of email off: token from
    /// `accounts::notifications::link`.
    pub fn unsubscribe(&self, token: &str) -> PageLink {
        self.page(Page::Unsubscribe, &[token])
    }

    /// Where Twilio posts the texts sent back to our number (the BFF's route), as Twilio signs
    /// it: `accounts::sms_replies`.
    pub fn sms_webhook(&self) -> String {
        self.absolute("/webhooks/sms")
    }

    /// A path of the server's own under PUBLIC_URL (a signed `/files/...` link), absolute.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const README: &str = include_str!("../../../proto/README.md");

    /// Each page once: a new page must be added here, and so to [`PAGES`].
    fn position(page: Page) -> usize {
        match page {
            Page::ViewRequest => 0,
            Page::RequestQuotes => 1,
            Page::CustomerRequest => 2,
            Page::ProfessionalJobs => 3,
            Page::CustomerJobs => 4,
            Page::AdminOrders => 5,
            Page::CustomerOrders => 6,
            Page::ProfessionalOrders => 7,
            Page::ProfessionalProfile => 8,
            Page::ResetPassword => 9,
            Page::ProfessionalResetPassword => 10,
            Page::VerifyEmail => 11,
            Page::StripeConnect => 12,
            Page::StripeConnectRefresh => 13,
            Page::ProfessionalSignIn => 14,
            Page::Receipt => 15,
            Page::AdminProblem => 16,
            Page::AdminDispute => 17,
            Page::Unsubscribe => 18,
            Page::KeepAccount => 19,
            Page::CustomerAccount => 20,
        }
    }

    #[test]
    fn a_professional_s_receipt_names_their_session_and_a_customer_s_does_not() {
        let links = Links::new("https://repairs.example/");
        let id = Uuid::nil();
        let professional = links.receipt(id, Role::Professional);
        assert_eq!(
            professional.of(Language::French),
            format!("https://repairs.example/fr/receipts/{id}?as=professional")
        );
        let customer = links.receipt(id, Role::Customer);
        assert_eq!(
            customer.of(Language::English),
            format!("https://repairs.example/receipts/{id}")
        );
    }

    #[test]
    fn every_page_is_in_the_list_once() {
        for (at, page) in PAGES.into_iter().enumerate() {
            assert_eq!(position(page), at, "{page:?}");
        }
    }

    #[test]
    fn the_contract_lists_every_page_the_server_links_to() {
        let section = README
            .split_once("## Links in emails and texts")
            .expect("proto/README.md has a section on the links")
            .1;
        for page in PAGES {
            let row = format!("| `{}` |", page.path());
            assert!(
                section.contains(&row),
                "proto/README.md does not list {} ({page:?})",
                page.path()
            );
        }
    }

    #[test]
    fn links_fill_each_parameter_under_the_public_url_in_both_languages() {
        let links = Links::new("https://repairs.example.ca/");
        let id = Uuid::from_u128(7);
        let cases = [
            (links.view_request(id), format!("/view-request/{id}")),
            (
                links.reset_password(Role::Professional, id, "t0k"),
                format!("/prof-reset-password/{id}/t0k"),
            ),
            (
                links.reset_password(Role::Customer, id, "t0k"),
                format!("/reset-password/{id}/t0k"),
            ),
            (links.stripe_connect().1, "/stripe-connect?refresh=1".into()),
            (
                links.professional_sign_in(),
                "/login-as-professional".into(),
            ),
        ];
        for (link, path) in cases {
            assert_eq!(
                link.of(Language::English),
                format!("https://repairs.example.ca{path}")
            );
            // The French pages live under /fr: a French reader never lands on English.
            assert_eq!(
                link.of(Language::French),
                format!("https://repairs.example.ca/fr{path}")
            );
        }
        assert_eq!(
            links.absolute("/files/a.pdf?exp=1&sig=ab"),
            "https://repairs.example.ca/files/a.pdf?exp=1&sig=ab"
        );
    }

    /// Every link is built here: no other module reads PUBLIC_URL.
    #[test]
    fn no_other_module_builds_links() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![src.clone()];
        let mut readers = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.starts_with(src.join("config"))
                    && std::fs::read_to_string(&path)
                        .unwrap()
                        .contains("public_url")
                {
                    readers.push(path.strip_prefix(&src).unwrap().display().to_string());
                }
            }
        }
        assert!(
            readers.is_empty(),
            "build links with `config.links()` (config/links.rs), not from public_url: {readers:?}"
        );
    }
}
