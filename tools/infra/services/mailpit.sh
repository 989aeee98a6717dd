# shellcheck shell=bash
# Mailpit: SMTP catcher with a REST API (GET /api/v1/messages). Built from the
# Go module; the module has no compiled web UI, the API works.
MAILPIT_VERSION=1.30.5
MAILPIT_SMTP_PORT="${MAILPIT_SMTP_PORT:-1025}"
MAILPIT_HTTP_PORT="${MAILPIT_HTTP_PORT:-8025}"

_mailpit_bin() { echo "$(cache_dir mailpit "$MAILPIT_VERSION")/mailpit"; }
_mailpit_pattern() { echo "--database $(data_dir mailpit)/mailpit.db"; }

mailpit_version() { echo "$MAILPIT_VERSION"; }
mailpit_ports() { echo "smtp $MAILPIT_SMTP_PORT, http $MAILPIT_HTTP_PORT"; }
mailpit_env() { echo "SMTP_HOST=$INFRA_HOST SMTP_PORT=$MAILPIT_SMTP_PORT MAILPIT_URL=http://$INFRA_HOST:$MAILPIT_HTTP_PORT"; }
mailpit_installed() { [[ -x "$(_mailpit_bin)" ]]; }

mailpit_install() {
  go_tool_install mailpit "$MAILPIT_VERSION" github.com/axllent/mailpit . mailpit \
    "-X github.com/axllent/mailpit/config.Version=v$MAILPIT_VERSION"
}

mailpit_start() {
  if running_pid mailpit "$(_mailpit_pattern)" >/dev/null; then return 0; fi
  require_free_port mailpit "$MAILPIT_SMTP_PORT"
  require_free_port mailpit "$MAILPIT_HTTP_PORT"
  ensure_data_dir mailpit
  start_daemon mailpit "$(_mailpit_bin)" --database "$(data_dir mailpit)/mailpit.db" \
    --smtp "$INFRA_HOST:$MAILPIT_SMTP_PORT" --listen "$INFRA_HOST:$MAILPIT_HTTP_PORT" \
    --smtp-auth-accept-any --smtp-auth-allow-insecure --smtp-disable-rdns \
    --disable-version-check --max 5000 >/dev/null
}

mailpit_probe() {
  http_ok "http://$INFRA_HOST:$MAILPIT_HTTP_PORT/api/v1/info" && port_open "$MAILPIT_SMTP_PORT"
}

mailpit_wait_ready() { await_ready mailpit "$(_mailpit_pattern)" mailpit_probe "its API" "$INFRA_HOST:$MAILPIT_HTTP_PORT"; }

mailpit_stop() { stop_pid mailpit "$(_mailpit_pattern)" 10; }
mailpit_pid() { running_pid mailpit "$(_mailpit_pattern)"; }
