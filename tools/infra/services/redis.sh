# shellcheck shell=bash
# Redis from Debian's redis-server package (apt), no persistence.
REDIS_PORT="${REDIS_PORT:-6380}"
# redis-server rewrites its process title to "redis-server HOST:PORT".
_redis_pattern() { echo "redis-server"; }

redis_version() {
  if command -v redis-server >/dev/null 2>&1; then
    redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p'
  else
    echo "not installed"
  fi
}
redis_ports() { echo "$REDIS_PORT"; }
redis_env() { echo "REDIS_URL=redis://$INFRA_HOST:$REDIS_PORT"; }
redis_installed() { command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; }

redis_install() {
  redis_installed && return 0
  local sudo=()
  if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "redis: redis-server missing and not root; run: apt-get install redis-server"
    sudo=(sudo)
  fi
  need_cmd apt-get "redis-server must be installed by hand on this OS"
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends install redis-server)
  if ! "${apt[@]}" >"$INFRA_CACHE/apt-redis.log" 2>&1; then
    # The package lists may be missing or stale: refresh them once and retry.
    "${sudo[@]}" apt-get -q update >>"$INFRA_CACHE/apt-redis.log" 2>&1 || true
    "${apt[@]}" >>"$INFRA_CACHE/apt-redis.log" 2>&1 || {
      tail -n 20 "$INFRA_CACHE/apt-redis.log" >&2
      return 1
    }
  fi
  redis_installed
}

redis_start() {
  if running_pid redis "$(_redis_pattern)" >/dev/null; then return 0; fi
  require_free_port redis "$REDIS_PORT"
  local dd
  dd="$(data_dir redis)"
  mkdir -p "$dd"
  start_daemon redis redis-server --daemonize no --bind "$INFRA_HOST" --port "$REDIS_PORT" \
    --protected-mode yes --save "" --appendonly no --dir "$dd" --logfile "" >/dev/null
}

redis_probe() {
  [[ "$(timeout 2 redis-cli -h "$INFRA_HOST" -p "$REDIS_PORT" PING 2>/dev/null)" == PONG ]]
}

redis_wait_ready() { await_ready redis "$(_redis_pattern)" redis_probe "PING" "$INFRA_HOST:$REDIS_PORT"; }

redis_stop() { stop_pid redis "$(_redis_pattern)" 10; }
redis_pid() { running_pid redis "$(_redis_pattern)"; }
