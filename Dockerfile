# syntax=docker/dockerfile:1
# The product's image: the release builds of the server and the BFF, with the web app baked in.
# One Dockerfile, two images (one per process, each with its own health check):
#
#   docker build --target server -t repairs-server .
#   docker build --target bff    -t repairs-bff .
#
# The server's migrations are compiled into its binary (sqlx::migrate!): it applies them at
# start, and `repairs-server migrate` applies them alone (the Kubernetes Job does that). The
# images run as an unprivileged user and need DATABASE_URL, REDIS_URL and JWT_SECRET
# (compose.yaml and deploy/kubernetes/ show the whole shape); the embedded Postgres of
# `make run` is not in them.

ARG RUST_VERSION=1.95
ARG NODE_VERSION=22
ARG DEBIAN_RELEASE=trixie

# The web app: generated from the contracts (buf, an npm package), built by Vite into dist/.
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY proto /src/proto
COPY web ./
RUN npm run build

# The server and the BFF, release builds. The server reads the web app's words (its pages'
# texts) and the contracts' README at compile time, so those come along.
FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY proto proto
COPY server server
COPY bff bff
COPY migrations migrations
COPY web/src/locales web/src/locales
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p repairs-server -p repairs-bff \
    && mkdir -p /out \
    && cp target/release/repairs-server target/release/repairs-bff /out/

# What both images share: a small Debian with CA certificates (Stripe, Twilio, SMTP, S3 over
# TLS) and an unprivileged user. Health checks talk HTTP through bash's /dev/tcp, so no curl.
FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 repairs \
    && useradd --system --uid 10001 --gid repairs --home-dir /var/lib/repairs --create-home repairs
COPY scripts/http-health.sh /usr/local/bin/http-health
ENV DATA_DIR=/var/lib/repairs \
    LOG_FORMAT=json
WORKDIR /var/lib/repairs
USER 10001:10001

# The gRPC server: gRPC (and gRPC-web) on 50051, file downloads, /healthz, /readyz and
# /metrics on 50052.
FROM runtime AS server
COPY --from=build /out/repairs-server /usr/local/bin/repairs-server
ENV GRPC_ADDR=0.0.0.0:50051 \
    HTTP_ADDR=0.0.0.0:50052
EXPOSE 50051 50052
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["http-health", "50052", "/healthz"]
ENTRYPOINT ["repairs-server"]
CMD ["serve"]

# The BFF: the web app, gRPC-web passthrough, the legacy /api, on 8080.
FROM runtime AS bff
COPY --from=build /out/repairs-bff /usr/local/bin/repairs-bff
COPY --from=web /src/web/dist /usr/share/repairs/web
ENV BFF_ADDR=0.0.0.0:8080 \
    WEB_DIST=/usr/share/repairs/web
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["http-health", "8080", "/healthz"]
ENTRYPOINT ["repairs-bff"]
