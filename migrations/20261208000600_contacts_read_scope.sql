-- contacts.read: with orders.read, the parties' names and contacts and the job's street in
-- ListOrders, audited at each use (`auth::service::Scope::ContactsRead`).
alter table service_accounts drop constraint service_accounts_scopes_check,
    add constraint service_accounts_scopes_check check (
        cardinality(scopes) between 1 and 5
        and scopes <@ array['orders.read', 'requests.read', 'content.write', 'audit.read',
                            'contacts.read']
    );
