# The two commands of the README, and a few for day-to-day work.
.PHONY: run test build web lint fmt bench bench-alerts

## Build everything and run the whole product on its embedded default.
run:
	bash scripts/run.sh

## Run every test (installs what is missing, starts throwaway Postgres and Redis).
test:
	bash scripts/test.sh

## Build the server and the BFF.
build:
	cargo build -p repairs-server -p repairs-bff

## Build the web app into web/dist.
web:
	cd web && npm ci --no-audit --no-fund && npm run build

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cd web && npm run lint && npm run typecheck && npm run lint:proto

fmt:
	cargo fmt --all

## Print the speed and memory figures (docs/figures.md): release build, throwaway services.
bench:
	bash scripts/bench/run.sh

## Print how fast an emergency's first Web Push reaches the push service (docs/figures.md).
bench-alerts:
	bash scripts/bench/alerts.sh
