#!/usr/bin/env bash
# API fuzzing (the last step of `npm run test:all`): schemathesis, installed once per machine from
# PyPI into a virtual environment in the infra cache, against the committed OpenAPI document and a
# running all-in-one service (tools/fuzz/run.ts). Fails on any 5xx, any response that violates the
# document, and any response slower than 2 s.
#   tools/fuzz/fuzz.sh            install if needed, then fuzz
#   FUZZ_EXAMPLES=50 tools/fuzz/fuzz.sh   more cases per operation (default 20)
set -euo pipefail

# shellcheck source=../infra/lib.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../infra/lib.sh"
FUZZ_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"
ROOT="$(cd "$FUZZ_DIR/../.." && pwd -P)"
SCHEMATHESIS_VERSION="$(sed -n 's/^schemathesis==//p' "$FUZZ_DIR/requirements.txt")"

venv_dir() { cache_dir schemathesis "$SCHEMATHESIS_VERSION"; }
# A virtual environment cannot be moved into place (its scripts name their own path), so it is made
# where it stays and counts as installed only once its marker is written, last.
installed() { [[ -f "$(venv_dir)/.installed" ]]; }

install() {
  local dir
  dir="$(venv_dir)"
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  python3 -m venv "$dir" >/dev/null && "$dir/bin/pip" install --disable-pip-version-check --no-input -q \
    -r "$FUZZ_DIR/requirements.txt" >"$dir.pip.log" 2>&1 && "$dir/bin/schemathesis" --version >/dev/null || {
    tail -n 20 "$dir.pip.log" >&2
    rm -rf "$dir" "$dir.pip.log"
    return 1
  }
  rm -f "$dir.pip.log"
  touch "$dir/.installed"
}

if installed; then
  log "schemathesis: installed $SCHEMATHESIS_VERSION (cached)"
else
  need_cmd python3 "install Python 3 (the API fuzzer is a PyPI package)"
  t0="$(now_ms)"
  log "schemathesis: installing $SCHEMATHESIS_VERSION from PyPI ..."
  install_lock schemathesis
  installed || install || die "schemathesis: install failed"
  install_unlock
  log "schemathesis: installed $SCHEMATHESIS_VERSION $(since "$t0")"
fi

cd "$ROOT"
SCHEMATHESIS="$(venv_dir)/bin/schemathesis" node -r ./tools/testing/register-ts.cjs tools/fuzz/run.ts "$@"
