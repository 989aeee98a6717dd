#!/usr/bin/env bash
# Kubernetes packaging checks, offline (CI runs this from tools/ci/test-all.sh):
#   hadolint on docker/Dockerfile; for the default values and deploy/values-{small,large}.yaml:
#   `helm lint --strict` (values.schema.json included) and `helm template`, then every rendered
#   object validated against the Kubernetes JSON schemas of the oldest supported and the newest
#   known Kubernetes (strict: unknown fields fail) and the CRD schemas in tools/helm/crd-schemas.
# Tools come from tools/infra (helm) and tools/helm/tools.sh (kubernetes-validate, hadolint).
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.."

CHART=helm/notify
# The chart's minimum (Chart.yaml kubeVersion) renders; validation also runs at the newest
# version kubernetes-validate knows, so an API removed since then fails here first.
KUBE_VERSION=1.30.0
VALIDATE_VERSIONS=(1.30.0 1.37.0)
VALUE_SETS=(default deploy/values-small.yaml deploy/values-large.yaml)

started=$SECONDS
step() { printf '[helm-check %3ss] %s\n' "$((SECONDS - started))" "$1" >&2; }

step "tools"
helm="$(bash tools/infra/infra.sh install helm | tail -n 1)"
tools="$(bash tools/helm/tools.sh install)"
kv_site="$(sed -n 's/^KV_SITE=//p' <<<"$tools")"
hadolint="$(sed -n 's/^HADOLINT=//p' <<<"$tools")"

step "hadolint docker/Dockerfile"
"$hadolint" docker/Dockerfile

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
rendered=()
for set in "${VALUE_SETS[@]}"; do
  args=()
  [[ "$set" == default ]] || args=(-f "$set")
  name="$(basename "$set" .yaml)"
  step "helm lint + template: $name"
  "$helm" lint --strict --quiet --kube-version "$KUBE_VERSION" "$CHART" "${args[@]}" >"$out/lint.log" 2>&1 || {
    cat "$out/lint.log" >&2
    exit 1
  }
  "$helm" template notify "$CHART" --namespace notify --kube-version "$KUBE_VERSION" "${args[@]}" >"$out/$name.yaml"
  rendered+=("$out/$name.yaml")
done

step "validate rendered manifests"
versions=()
for v in "${VALIDATE_VERSIONS[@]}"; do versions+=(--kube-version "$v"); done
PYTHONPATH="$kv_site" python3 tools/helm/validate.py "${versions[@]}" \
  --crd-schemas tools/helm/crd-schemas "${rendered[@]}"
step "chart checks passed"
