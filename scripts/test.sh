#!/usr/bin/env bash
# Runs every test of the product on a fresh machine (`make test`):
#   1. installs what is missing (redis-server, chromium) from Debian's packages, and, beside
#      the Rust compile, localstripe (the Stripe fake of the Stripe adapter's tests), moto (the
#      S3 server of the object storage tests), schemathesis and the deployment's linters into
#      target/, and the web app's packages,
#   2. starts a throwaway Postgres and Redis on 127.0.0.1 (stopped by process id on exit),
#   3. Rust: format; clippy while every target compiles once; unit and integration tests
#      (the server started for real), BFF tests,
#   4. beside the Rust tests: contracts (buf lint, buf breaking against the merge-base with
#      main); web: eslint, type-check, Vitest, production build,
#   5. end to end: the server, the BFF and the built web app started for real, driven by
#      headless Chromium; then the legacy REST API checked against its OpenAPI description
#      by schemathesis (installed into target/ like localstripe),
#   6. deployment: the Dockerfile, compose.yaml, the Kubernetes manifests and the scripts
#      against their linters, and the cluster test (two replicas; backup and restore); every
#      relative link of the Markdown (scripts/check-doc-links.py),
# and ends with one line `N passed, N failed` over all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/deploy-tools.sh

PASSED=0
FAILED=0
FAILURES=()
LOGS=$(mktemp -d /tmp/repairs-test-logs.XXXXXX)

cleanup() {
  stop_test_redis
  stop_test_postgres
}
trap cleanup EXIT

# A heading with the seconds since the start, so a slow part shows in CI's log.
section() { printf '\n==> [%s s] %s\n' "$SECONDS" "$*"; }

# Adds a suite's counts to the totals.
count() { # name passed failed
  PASSED=$((PASSED + $2))
  FAILED=$((FAILED + $3))
  [ "$3" -gt 0 ] && FAILURES+=("$1 ($3 failed)")
  printf -- '--- %s: %s passed, %s failed\n' "$1" "$2" "$3"
}

# A check that passes or fails as a whole (lint, type-check, build).
check() { # name command...
  local name=$1; shift
  if "$@" >"$LOGS/$name.log" 2>&1; then
    count "$name" 1 0
  else
    tail -n 40 "$LOGS/$name.log"
    count "$name" 0 1
  fi
}

install_missing() {
  local need=()
  command -v redis-server >/dev/null || need+=(redis-server)
  [ -x /usr/bin/chromium ] || need+=(chromium)
  python3 -c 'import ensurepip' 2>/dev/null || need+=(python3-venv)
  [ ${#need[@]} -eq 0 ] && return
  section "installing ${need[*]}"
  local sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}

# A Python dev tool that tests start (never shipped), in a virtual environment of its own
# under target/: the folder, the pip requirements, and the module that tells it is there.
install_python_tool() { # venv requirement module
  if ! "$1/bin/python" -c "import $3" 2>/dev/null; then
    section "installing $2"
    # shellcheck disable=SC2086 # $2 may hold several requirements
    python3 -m venv "$1" && "$1/bin/pip" install -q $2 \
      || echo "$2 could not be installed: the tests that start it will fail"
  fi
}

# localstripe, the Stripe fake the Stripe adapter's tests start (a GPL dev tool).
LOCALSTRIPE_VERSION=1.15.10
install_localstripe() {
  install_python_tool target/localstripe-venv "localstripe==$LOCALSTRIPE_VERSION" localstripe
  export LOCALSTRIPE_PYTHON="$PWD/target/localstripe-venv/bin/python"
}

# moto, the S3 server the object storage tests start: its S3 part and the web server only
# (moto[server] brings every AWS service's dependencies, twice the download).
MOTO_VERSION=5.2.5
install_moto() {
  install_python_tool target/moto-venv "moto[s3]==$MOTO_VERSION flask==3.1.3 flask-cors==6.0.5" moto.server
  export MOTO_SERVER="$PWD/target/moto-venv/bin/moto_server"
}

# schemathesis, which checks the legacy REST API against its OpenAPI description.
SCHEMATHESIS_VERSION=4.32.5
install_schemathesis() {
  install_python_tool target/schemathesis-venv "schemathesis==$SCHEMATHESIS_VERSION" schemathesis
  export SCHEMATHESIS="$PWD/target/schemathesis-venv/bin/st"
}

# Clippy lints the workspace's crates while they compile for the tests: clippy-driver is their
# compiler (the dependencies keep plain rustc), so each crate compiles once rather than once
# for `cargo clippy` and again for `cargo test`. CLIPPY_ARGS is how `cargo clippy -- -D warnings`
# hands its arguments to the driver, each followed by the separator.
with_clippy() {
  local driver
  if ! driver=$(command -v clippy-driver); then
    echo "clippy-driver is missing: rustup component add clippy" >&2
    return 1
  fi
  RUSTC_WORKSPACE_WRAPPER="$driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}

rust_build() {
  section "Rust: format"
  check cargo-fmt cargo fmt --all --check

  section "Rust: clippy, compiling every target once for the lints and the tests"
  check cargo-clippy with_clippy cargo build --workspace --all-targets
}

rust_tests() {
  section "Rust: unit and integration tests (the web suites run beside them)"
  wait_for_tools
  with_clippy cargo test --workspace --no-fail-fast 2>&1 | tee "$LOGS/cargo-test.log" | grep -E '^test result|FAILED|panicked' || true
  local p f
  p=$(grep -Eo '^test result: [a-zA-Z]+\. [0-9]+ passed' "$LOGS/cargo-test.log" | awk '{s+=$4} END {print s+0}')
  f=$(grep -Eo '; [0-9]+ failed' "$LOGS/cargo-test.log" | awk '{s+=$2} END {print s+0}')
  # A crate that does not compile has no result line: count it as a failure (not cargo's
  # closing lines about failed tests, which the result lines counted already).
  if grep -E '^error(\[E[0-9]+\])?:' "$LOGS/cargo-test.log" |
    grep -qvE '^error: (test failed|[0-9]+ targets? failed)'; then f=$((f + 1)); fi
  count cargo-test "$p" "$f"
}

# What `buf breaking` compares the contracts with: the merge-base with main (origin/main,
# else main); on main itself (the merge-base is HEAD, as in CI's fresh clone of main), the
# commit before; empty when there is none.
contracts_base() {
  local head ref base
  head=$(git rev-parse HEAD)
  for ref in origin/main main; do
    git rev-parse -q --verify "$ref" >/dev/null || continue
    base=$(git merge-base HEAD "$ref" 2>/dev/null) || continue
    if [ "$base" != "$head" ]; then echo "$base"; return; fi
  done
  git rev-parse -q --verify HEAD~1 || true
}

# The repository as buf reads it, from web/: its git folder (a worktree's `.git` is a file
# naming the shared one).
git_input() {
  local common
  common=$(git rev-parse --path-format=absolute --git-common-dir)
  echo "$common"
}

web_suites() {
  section "Web: install, contracts lint, lint, type-check, unit tests, build"
  if [ "$NPM_STATUS" -ne 0 ]; then
    tail -n 40 "$LOGS/npm-ci.log"
    count npm-ci 0 1
    return
  fi
  check buf-lint bash -c 'cd web && npm run --silent lint:proto'
  # The contracts may only grow: every file compared with where this branch left main (a
  # clone without history has nothing to compare with, and says so rather than counting a pass).
  local base
  base=$(contracts_base)
  if [ -n "$base" ]; then
    echo "buf breaking: against $base"
    check buf-breaking bash -c "cd web && npx buf breaking .. --against '$(git_input)#ref=$base'"
  else
    echo "buf breaking: this clone holds no earlier commit to compare the contracts with"
  fi
  check web-lint bash -c 'cd web && npm run --silent lint'
  check web-typecheck bash -c 'cd web && npm run --silent typecheck'
  local report="$LOGS/vitest.json"
  (cd web && npx vitest run --reporter=default --reporter=json --outputFile="$report") >"$LOGS/vitest.log" 2>&1
  if [ -s "$report" ]; then
    read -r p f < <(node -e 'const r=require(process.argv[1]); console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites||0))' "$report")
  else
    p=0 f=1
  fi
  [ "$f" -gt 0 ] && tail -n 60 "$LOGS/vitest.log"
  count vitest "$p" "$f"
  check web-build bash -c 'cd web && npm run --silent build'
}

# The web suites run beside the Rust tests, which wait on Postgres, Redis and the servers
# they start more than they use the processors: on two cores that saves minutes of CI. The
# web suites' lines are shown, and their counts added, once both are done.
start_web_suites() {
  NPM_STATUS=0
  wait "$NPM_PID" || NPM_STATUS=$?
  (
    PASSED=0 FAILED=0 FAILURES=()
    web_suites
    echo "$PASSED $FAILED" >"$LOGS/web-suites.counts"
    printf '%s\n' "${FAILURES[@]}" >"$LOGS/web-suites.failures"
  ) >"$LOGS/web-suites.out" 2>&1 &
  WEB_PID=$!
}

finish_web_suites() {
  wait "$WEB_PID"
  cat "$LOGS/web-suites.out"
  local p=0 f=1 failure
  [ -s "$LOGS/web-suites.counts" ] && read -r p f <"$LOGS/web-suites.counts"
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  if [ -f "$LOGS/web-suites.failures" ]; then
    while IFS= read -r failure; do
      [ -n "$failure" ] && FAILURES+=("$failure")
    done <"$LOGS/web-suites.failures"
  fi
  [ -s "$LOGS/web-suites.counts" ] || FAILURES+=("web suites (ended without counts)")
}

# What the landing page loads before it is interactive (its scripts and their static imports,
# gzip) may not pass the budget; the figure is printed either way. Under a second.
LANDING_JS_BUDGET_KB=150
SCREEN_JS_BUDGET_KB=420
landing_js_budget() {
  section "Web: landing page JavaScript, budget $LANDING_JS_BUDGET_KB kB (gzip)"
  check landing-js-budget node web/scripts/landing-js.mjs web/dist / --max "$LANDING_JS_BUDGET_KB"
  tail -n 1 "$LOGS/landing-js-budget.log"
  # The signed-in customer's pages of the emergency path: the app's code and the screen's
  # (357-392 kB when the budget was set; 402-440 kB once the More actions menu, the contract's
  # validation annotations and the landing page's membership price had come; 339-384 kB since
  # menus, dialogs, toasts and the professional landing page load when needed: create-request
  # 383.8, user-dashboard 342.2, pending-requests 338.7).
  section "Web: the emergency path's signed-in pages' JavaScript, budget $SCREEN_JS_BUDGET_KB kB (gzip)"
  local screen
  for screen in create-request:create-request-page user-dashboard:customer-dashboard-page \
    pending-requests:pending-requests-page; do
    check "screen-js-budget-${screen%%:*}" node web/scripts/landing-js.mjs web/dist "/${screen%%:*}" \
      --screen "src/features/requests/routes/${screen#*:}.tsx" --max "$SCREEN_JS_BUDGET_KB"
    tail -n 1 "$LOGS/screen-js-budget-${screen%%:*}.log"
  done
}

# One run of scripts/e2e.sh (a stack of its own) counted as suite NAME: the given test files,
# or the whole browser suite.
e2e_suite() { # name [test files...]
  local name=$1; shift
  if [ ! -f web/dist/index.html ]; then
    count "$name" 0 1
    return
  fi
  mkdir -p "$LOGS/$name"
  E2E_LOGS="$LOGS/$name" scripts/e2e.sh "$@" 2>&1 | tee "$LOGS/$name.log" | grep -E '^# (pass|fail)|^not ok|^# axe walk' || true
  local p f
  p=$(grep -Eo '^# pass [0-9]+' "$LOGS/$name.log" | awk '{print $3}' | tail -n 1)
  f=$(grep -Eo '^# fail [0-9]+' "$LOGS/$name.log" | awk '{print $3}' | tail -n 1)
  [ -z "$p" ] && { p=0; f=1; tail -n 40 "$LOGS/$name.log"; }
  [ "${f:-0}" -gt 0 ] && tail -n 60 "$LOGS/$name.log"
  count "$name" "${p:-0}" "${f:-0}"
}

end_to_end() {
  section "End to end: server + BFF + web app in headless Chromium"
  e2e_suite e2e
}

# The legacy REST API against its OpenAPI description: no 5xx, no reply the description does
# not allow (about 60 s: a stack of its own, then schemathesis within a 50 s budget; its
# install into target/ takes about 25 s more).
legacy_contract() {
  section "Contracts: the legacy REST API against /api/openapi.json (schemathesis)"
  e2e_suite schemathesis e2e/openapi.contract.mjs
}

# Deployment (docs/operations.md, "Running it across machines"): linters from
# target/deploy-venv, then scripts/cluster-test.sh on the debug build the Rust suites made.
deployment_suites() {
  section "Deployment: Dockerfile, compose.yaml, Kubernetes manifests, scripts; the cluster; the docs' links"
  check doc-links python3 scripts/check-doc-links.py
  if ! install_deploy_tools >"$LOGS/deploy-tools.log" 2>&1; then
    tail -n 20 "$LOGS/deploy-tools.log"
    count deploy-tools 0 1
    return
  fi
  check hadolint "$DEPLOY_VENV/bin/hadolint" Dockerfile
  check compose-schema "$DEPLOY_VENV/bin/check-jsonschema" --builtin-schema vendor.compose-spec compose.yaml
  check kubernetes-validate "$DEPLOY_VENV/bin/kubernetes-validate" --strict --quiet deploy/kubernetes/*.yaml
  check shellcheck "$DEPLOY_VENV/bin/shellcheck" -x scripts/cluster.sh scripts/cluster-test.sh \
    scripts/backup.sh scripts/restore.sh scripts/deploy-tools.sh scripts/http-health.sh
  scripts/cluster-test.sh >"$LOGS/cluster.log" 2>&1
  local p f
  read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGS/cluster.log" | tail -n 1 | awk '{print $1, $3}')
  [ -z "${p:-}" ] && { p=0; f=1; }
  [ "$f" -gt 0 ] && tail -n 80 "$LOGS/cluster.log"
  count cluster "$p" "$f"
}

# The downloads (Python tools into target/, the web app's packages) wait mostly on the
# network: they run beside the Rust compile, and each suite waits for what it needs.
install_in_background() {
  section "installing the test tools and the web packages in the background"
  export LOCALSTRIPE_PYTHON="$PWD/target/localstripe-venv/bin/python"
  export MOTO_SERVER="$PWD/target/moto-venv/bin/moto_server"
  export SCHEMATHESIS="$PWD/target/schemathesis-venv/bin/st"
  (install_localstripe; install_moto; install_schemathesis; install_deploy_tools) \
    >"$LOGS/tools.log" 2>&1 &
  TOOLS_PID=$!
  (cd web && npm ci --no-audit --no-fund --loglevel=error) >"$LOGS/npm-ci.log" 2>&1 &
  NPM_PID=$!
}

# Waits for the Python tools (a failed install shows in the tests that start the tool).
wait_for_tools() {
  wait "$TOOLS_PID" || true
  grep -h 'could not be installed' "$LOGS/tools.log" || true
}

start=$(date +%s)
install_missing
install_in_background
section "starting throwaway Postgres and Redis"
start_test_postgres
start_test_redis
echo "Postgres: $TEST_DATABASE_URL  Redis: $TEST_REDIS_URL"

rust_build
start_web_suites
rust_tests
finish_web_suites
landing_js_budget
end_to_end
legacy_contract
deployment_suites

section "done in $(( $(date +%s) - start )) s; logs in $LOGS"
for failure in "${FAILURES[@]}"; do echo "failed: $failure"; done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
