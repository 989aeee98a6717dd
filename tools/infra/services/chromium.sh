# shellcheck shell=bash
# chromium: install-only tool (no daemon), Debian's package, for the browser tests (driven by
# playwright-core with executablePath; nothing downloads a browser). `infra.sh install chromium`
# prints the binary's path.

chromium_bin() { command -v chromium || command -v chromium-browser || true; }
chromium_version() { echo "debian"; }
chromium_installed() { [[ -n "$(chromium_bin)" ]]; }

chromium_install() {
  chromium_installed && return 0
  local sudo=()
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "chromium: missing and not root; run: apt-get install chromium"
    sudo=(sudo)
  fi
  need_cmd apt-get "chromium must be installed by hand on this OS"
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends install chromium)
  if ! "${apt[@]}" >"$INFRA_CACHE/apt-chromium.log" 2>&1; then
    # A stale package index is the usual cause: refresh it once and retry.
    "${sudo[@]}" apt-get -q update >>"$INFRA_CACHE/apt-chromium.log" 2>&1 || true
    "${apt[@]}" >>"$INFRA_CACHE/apt-chromium.log" 2>&1 || die "chromium: apt-get failed (see $INFRA_CACHE/apt-chromium.log)"
  fi
  chromium_installed
}
