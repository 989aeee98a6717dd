# shellcheck shell=bash
# helm: install-only tool (no daemon). `infra.sh install helm` prints its path.
HELM_VERSION=3.21.4

helm_bin() { echo "$(cache_dir helm "$HELM_VERSION")/helm"; }
helm_version() { echo "$HELM_VERSION"; }
helm_installed() { [[ -x "$(helm_bin)" ]]; }

helm_install() {
  go_tool_install helm "$HELM_VERSION" helm.sh/helm/v3 ./cmd/helm helm \
    "-X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
}
