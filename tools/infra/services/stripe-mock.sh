# shellcheck shell=bash
# stripe-mock: Stripe's official API mock (bundled OpenAPI spec and fixtures).
STRIPE_MOCK_VERSION=0.197.0
STRIPE_MOCK_PORT="${STRIPE_MOCK_PORT:-12111}"
# stripe-mock also opens HTTPS, on every interface, unless told where (its
# -http-addr does not switch the HTTPS default off): pin it to loopback.
STRIPE_MOCK_HTTPS_PORT="${STRIPE_MOCK_HTTPS_PORT:-12112}"

_stripe_mock_bin() { echo "$(cache_dir stripe-mock "$STRIPE_MOCK_VERSION")/stripe-mock"; }
_stripe_mock_pattern() { _stripe_mock_bin; }

stripe_mock_version() { echo "$STRIPE_MOCK_VERSION"; }
stripe_mock_ports() { echo "$STRIPE_MOCK_PORT (https $STRIPE_MOCK_HTTPS_PORT)"; }
stripe_mock_env() { echo "STRIPE_API_BASE=http://$INFRA_HOST:$STRIPE_MOCK_PORT STRIPE_SECRET_KEY=sk_test_123"; }
stripe_mock_installed() { [[ -x "$(_stripe_mock_bin)" ]]; }

stripe_mock_install() {
  go_tool_install stripe-mock "$STRIPE_MOCK_VERSION" github.com/stripe/stripe-mock . stripe-mock
}

stripe_mock_start() {
  if running_pid stripe-mock "$(_stripe_mock_pattern)" >/dev/null; then return 0; fi
  require_free_port stripe-mock "$STRIPE_MOCK_PORT"
  require_free_port stripe-mock "$STRIPE_MOCK_HTTPS_PORT"
  start_daemon stripe-mock "$(_stripe_mock_bin)" -http-addr "$INFRA_HOST:$STRIPE_MOCK_PORT" \
    -https-addr "$INFRA_HOST:$STRIPE_MOCK_HTTPS_PORT" >/dev/null
}

stripe_mock_probe() {
  http_ok "http://$INFRA_HOST:$STRIPE_MOCK_PORT/v1/customers" -H "Authorization: Bearer sk_test_123"
}

stripe_mock_wait_ready() { await_ready stripe-mock "$(_stripe_mock_pattern)" stripe_mock_probe "GET /v1/customers" "$INFRA_HOST:$STRIPE_MOCK_PORT"; }

stripe_mock_stop() { stop_pid stripe-mock "$(_stripe_mock_pattern)" 10; }
stripe_mock_pid() { running_pid stripe-mock "$(_stripe_mock_pattern)"; }
