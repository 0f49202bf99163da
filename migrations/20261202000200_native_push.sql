-- Native apps' push: a subscription is a browser (Web Push: endpoint and keys) or a native
-- app's device (APNs for iOS, FCM for Android: its device token). Both count toward the
-- account's devices and get the same alerts through the outbox ('push' channel, the row's id
-- as recipient); a token the platform's service says is gone deletes its row.
alter table push_subscriptions
    add column platform text not null default 'web'
        constraint push_subscriptions_platform_check check (platform in ('web', 'ios', 'android')),
    add column device_token text
        constraint push_subscriptions_device_token_check check (length(device_token) between 1 and 1000),
    alter column endpoint drop not null,
    alter column p256dh drop not null,
    alter column auth drop not null,
    add constraint push_subscriptions_kind_check check (
        case platform
            when 'web' then endpoint is not null and p256dh is not null and auth is not null
                and device_token is null
            else device_token is not null and endpoint is null and p256dh is null and auth is null
        end);
-- A device token is one app on one device: it belongs to the last account that subscribed it.
create unique index push_subscriptions_device_key on push_subscriptions (platform, device_token)
    where device_token is not null;
