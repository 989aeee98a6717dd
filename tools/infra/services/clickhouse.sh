# shellcheck shell=bash
# ClickHouse's HTTP server from the engine npm's `chdb` installs (ClickHouse's clickhouse-local as a
# library; tools/infra/clickhouse/serve.py opens its HTTP listener). No other source serves a
# ClickHouse this recent here: Debian's clickhouse-server is 18.16, which rejects query parameters.
CLICKHOUSE_PORT="${CLICKHOUSE_PORT:-18123}"
_clickhouse_lib() { echo "$INFRA_DIR/../../node_modules/@chdb/lib-linux-x64-gnu/libchdb.so"; }
_clickhouse_pattern() { echo "clickhouse/serve.py"; }

clickhouse_version() {
  local pkg="$INFRA_DIR/../../node_modules/@chdb/lib-linux-x64-gnu/package.json"
  if [[ -f "$pkg" ]]; then sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$pkg" | head -1; else echo "not installed"; fi
}
clickhouse_ports() { echo "$CLICKHOUSE_PORT"; }
clickhouse_env() { echo "CLICKHOUSE_URL=http://$INFRA_HOST:$CLICKHOUSE_PORT"; }
clickhouse_installed() { [[ -f "$(_clickhouse_lib)" ]] && command -v python3 >/dev/null 2>&1; }

clickhouse_install() {
  command -v python3 >/dev/null 2>&1 || die "clickhouse: python3 is needed to start the engine's server"
  [[ -f "$(_clickhouse_lib)" ]] || die "clickhouse: the chdb engine is missing; run npm ci first"
}

clickhouse_start() {
  if running_pid clickhouse "$(_clickhouse_pattern)" >/dev/null; then return 0; fi
  require_free_port clickhouse "$CLICKHOUSE_PORT"
  local dd
  dd="$(data_dir clickhouse)"
  # Like Redis here, nothing persists: every start serves an empty engine.
  rm -rf "$dd/db"
  mkdir -p "$dd"
  start_daemon clickhouse python3 "$INFRA_DIR/clickhouse/serve.py" "$(_clickhouse_lib)" "$dd" \
    "$INFRA_HOST" "$CLICKHOUSE_PORT" >/dev/null
}

clickhouse_probe() { http_ok "http://$INFRA_HOST:$CLICKHOUSE_PORT/ping"; }

clickhouse_wait_ready() { await_ready clickhouse "$(_clickhouse_pattern)" clickhouse_probe "GET /ping" "$INFRA_HOST:$CLICKHOUSE_PORT"; }

clickhouse_stop() { stop_pid clickhouse "$(_clickhouse_pattern)" 15; }
clickhouse_pid() { running_pid clickhouse "$(_clickhouse_pattern)"; }
