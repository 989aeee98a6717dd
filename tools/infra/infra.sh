#!/usr/bin/env bash
# Local backends without Docker: install once (machine cache), run on 127.0.0.1.
#   tools/infra/infra.sh up [service...]       install if needed, start, wait until ready
#   tools/infra/infra.sh down [service...]     stop (TERM, wait, KILL)
#   tools/infra/infra.sh status [service...]   one line per service; exit 3 if any stopped
#   tools/infra/infra.sh install [service...]  install only, print install path (helm: the binary)
#   tools/infra/infra.sh env [service...]      print the env a service would use
# Services: kafka mongo redis clickhouse mailpit stripe-mock; install-only: helm chromium.
# `up` without services starts the test backends: kafka mongo redis clickhouse stripe-mock.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
for f in "$INFRA_DIR"/services/*.sh; do
  # shellcheck source=/dev/null
  source "$f"
done

DAEMONS=(kafka mongo redis clickhouse mailpit stripe-mock)
DEFAULT_UP=(kafka mongo redis clickhouse stripe-mock)
TOOLS=(helm chromium)

usage() {
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

fn() { echo "${1//-/_}"; }
is_daemon() { [[ " ${DAEMONS[*]} " == *" $1 "* ]]; }
is_tool() { [[ " ${TOOLS[*]} " == *" $1 "* ]]; }

check_names() {
  local s
  for s in "$@"; do
    is_daemon "$s" || is_tool "$s" || die "unknown service '$s' (known: ${DAEMONS[*]} ${TOOLS[*]})"
  done
}

# One process at a time may start or stop this clone's backends.
lock_data() {
  mkdir -p "$INFRA_DATA"
  [[ -f "$INFRA_DATA/.gitignore" ]] || echo '*' >"$INFRA_DATA/.gitignore"
  exec {DATA_LOCK_FD}>"$INFRA_DATA/.lock"
  if ! flock -n "$DATA_LOCK_FD"; then
    log "waiting for another infra.sh run (lock $INFRA_DATA/.lock) ..."
    flock -w 600 "$DATA_LOCK_FD" || die "another infra.sh still holds $INFRA_DATA/.lock after 600s"
  fi
}

install_one() {
  local s="$1" f t0
  f="$(fn "$s")"
  t0="$(now_ms)"
  if "${f}_installed"; then
    log "$s: installed $("${f}_version") (cached)"
    return 0
  fi
  mkdir -p "$INFRA_CACHE"
  log "$s: installing $("${f}_version") ..."
  install_lock "$s"
  "${f}_install" || die "$s: install failed"
  install_unlock
  log "$s: installed $("${f}_version") $(since "$t0")"
}

install_path() {
  case "$1" in
    helm) helm_bin ;;
    chromium) chromium_bin ;;
    redis) command -v redis-server ;;
    mongo) cache_dir mongo-java-server "$MONGO_JAVA_SERVER_VERSION" ;;
    *) cache_dir "$1" "$("$(fn "$1")_version")" ;;
  esac
}

cmd_install() {
  (($#)) || set -- "${DEFAULT_UP[@]}"
  check_names "$@"
  local s
  for s in "$@"; do install_one "$s"; done
  for s in "$@"; do install_path "$s"; done
}

cmd_up() {
  (($#)) || set -- "${DEFAULT_UP[@]}"
  check_names "$@"
  local s f t0 pid i
  for s in "$@"; do is_tool "$s" && die "$s is install-only: use 'infra.sh install $s'"; done
  lock_data
  for s in "$@"; do install_one "$s"; done
  local -a started=() already=()
  local -A t_start=()
  for s in "$@"; do
    f="$(fn "$s")"
    if pid="$("${f}_pid")"; then
      already+=("$s")
      continue
    fi
    t_start[$s]="$(now_ms)"
    "${f}_start"
    started+=("$s")
    log "$s: started pid $("${f}_pid" || echo '?'), $INFRA_HOST port $("${f}_ports")"
  done
  for s in "${already[@]}"; do
    f="$(fn "$s")"
    t0="$(now_ms)"
    "${f}_wait_ready"
    log "$s: already running pid $("${f}_pid"), ready $(since "$t0")"
  done
  # fastest first (reverse start order), so each line shows its own readiness time
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    s="${started[i]}"
    f="$(fn "$s")"
    "${f}_wait_ready"
    log "$s: ready, $INFRA_HOST port $("${f}_ports") $(since "${t_start[$s]}")"
  done
  log "up: $* ready"
  cmd_env "$@"
}

cmd_down() {
  (($#)) || set -- "${DAEMONS[@]}"
  check_names "$@"
  lock_data
  local s f t0 r i
  # reverse order: dependants first
  for ((i = $# ; i >= 1 ; i--)); do
    s="${!i}"
    is_tool "$s" && continue
    f="$(fn "$s")"
    t0="$(now_ms)"
    r="$("${f}_stop")"
    case "$r" in
      not-running) log "$s: not running" ;;
      *) log "$s: $r $(since "$t0")" ;;
    esac
  done
}

cmd_status() {
  (($#)) || set -- "${DAEMONS[@]}" "${TOOLS[@]}"
  check_names "$@"
  local s f pid state rc=0
  for s in "$@"; do
    f="$(fn "$s")"
    if is_tool "$s"; then
      if "${f}_installed"; then state="installed"; else state="not-installed"; fi
      printf '%-12s %-18s %-10s %-34s version %s\n' "$s" "$state" "-" "$(install_path "$s")" "$("${f}_version")"
      continue
    fi
    if pid="$("${f}_pid")"; then
      if "${f}_probe" >/dev/null 2>&1; then state="running"; else state="running(not-ready)"; fi
    else
      pid="-"
      state="stopped"
      rc=3
    fi
    printf '%-12s %-18s pid %-6s port %-28s version %s\n' "$s" "$state" "$pid" "$("${f}_ports")" "$("${f}_version")"
  done
  return $rc
}

cmd_env() {
  (($#)) || set -- "${DEFAULT_UP[@]}"
  check_names "$@"
  local s out=()
  for s in "$@"; do
    is_tool "$s" && continue
    out+=("$("$(fn "$s")_env")")
  done
  echo "${out[*]}"
}

main() {
  (($#)) || usage
  local cmd="$1"
  shift
  case "$cmd" in
    up | start) cmd_up "$@" ;;
    down | stop) cmd_down "$@" ;;
    status) cmd_status "$@" ;;
    install) cmd_install "$@" ;;
    env) cmd_env "$@" ;;
    -h | --help | help) usage ;;
    *) usage ;;
  esac
}

main "$@"
