# shellcheck shell=bash
# Common helpers for tools/infra: paths, logging, pid files, port waits.
# Sourced by infra.sh and by every services/<name>.sh. Never executed directly.

# ---------------------------------------------------------------- paths
# Resolve tools/infra through symlinks; the repo root is two levels up.
INFRA_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd -P)"
REPO_ROOT="$(cd "$INFRA_DIR/../.." && pwd -P)"
# Installs, shared by every clone on this machine (keyed <service>-<version>).
INFRA_CACHE="${NOTIFY_INFRA_CACHE:-$HOME/.cache/notify-infra}"
# Runtime data, logs and pid files (git-ignored .data/ of this clone).
INFRA_DATA="${NOTIFY_INFRA_DATA:-$REPO_ROOT/.data/infra}"
INFRA_HOST=127.0.0.1
# Seconds a backend gets to become ready after start.
INFRA_READY_TIMEOUT="${INFRA_READY_TIMEOUT:-90}"

# ---------------------------------------------------------------- logging
_INFRA_T0="${EPOCHREALTIME/[.,]/}"

# now_ms: milliseconds since the epoch.
now_ms() { local t="${EPOCHREALTIME/[.,]/}"; echo $((t / 1000)); }

# fmt_ms MS -> "1.23s"
fmt_ms() { printf '%d.%02ds' $(($1 / 1000)) $((($1 % 1000) / 10)); }

# log MSG... : one line on stderr, prefixed with the time since the command began.
log() {
  local t="${EPOCHREALTIME/[.,]/}"
  printf '[infra %7s] %s\n' "$(fmt_ms $(((t - _INFRA_T0) / 1000)))" "$*" >&2
}
warn() { log "WARN: $*"; }
die() { log "ERROR: $*"; exit 1; }

# since MS_START -> "(1.23s)", the time a step took.
since() { echo "($(fmt_ms $(($(now_ms) - $1))))"; }

# ---------------------------------------------------------------- dirs
cache_dir() { echo "$INFRA_CACHE/$1-$2"; }      # cache_dir SERVICE VERSION
data_dir() { echo "$INFRA_DATA/$1"; }           # data_dir SERVICE
pid_file() { echo "$INFRA_DATA/$1/$1.pid"; }
log_file() { echo "$INFRA_DATA/$1/$1.log"; }
ensure_data_dir() { mkdir -p "$INFRA_DATA/$1"; }

# install_lock SERVICE: serialise installs of one service across concurrent runs.
install_lock() {
  mkdir -p "$INFRA_CACHE"
  exec {INFRA_LOCK_FD}>"$INFRA_CACHE/.$1.lock"
  flock "$INFRA_LOCK_FD"
}
install_unlock() {
  if [[ -n "${INFRA_LOCK_FD:-}" ]]; then exec {INFRA_LOCK_FD}>&-; fi
  INFRA_LOCK_FD=
}

# atomic_install_dir FINAL_DIR -> prints a fresh temp dir next to it; call
# commit_install_dir TMP FINAL when the install succeeded. A half-done install
# therefore never looks like a cached one.
atomic_install_dir() {
  mkdir -p "$(dirname "$1")"
  mktemp -d "$1.tmp.XXXXXX"
}
commit_install_dir() { rm -rf "$2"; mv "$1" "$2"; }

need_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found: $2"
}

# ---------------------------------------------------------------- pids
# pid_alive PID PATTERN: the process exists, is not a zombie, and its command
# line contains PATTERN (guards against a recycled pid).
pid_alive() {
  local pid="$1" pattern="$2" state cmd
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/$pid/stat" ]] || return 1
  state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" || return 1
  [[ "$state" != Z ]] || return 1
  cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmd" == *"$pattern"* ]]
}

# running_pid SERVICE PATTERN: prints the pid and succeeds when the pid file
# names a live process of this service; removes a stale pid file.
running_pid() {
  local pf pid
  pf="$(pid_file "$1")"
  [[ -f "$pf" ]] || return 1
  pid="$(<"$pf")"
  if pid_alive "$pid" "$2"; then
    echo "$pid"
    return 0
  fi
  rm -f "$pf"
  return 1
}

# start_daemon SERVICE CMD...: runs CMD detached (own session, stdin from
# /dev/null, output appended to the service log) and writes its pid file.
start_daemon() {
  local svc="$1"
  shift
  ensure_data_dir "$svc"
  local lf pf pid="" _
  lf="$(log_file "$svc")"
  pf="$(pid_file "$svc")"
  rm -f "$pf"
  printf '\n===== %s start: %s\n' "$(date -Is)" "$*" >>"$lf"
  # The subshell closes our lock fds (a daemon must not hold them) and execs setsid, which runs
  # the service in a session of its own. setsid execs in place, unless its caller leads a process
  # group (a background job of a shell with job control): then it forks, and $! is a setsid that
  # has exited. So the process that becomes the service writes its own pid (sh's $$, which then
  # execs the service) instead of our reading $!.
  (
    for fd in "${DATA_LOCK_FD:-}" "${INFRA_LOCK_FD:-}"; do
      [[ -n "$fd" ]] && eval "exec $fd>&-"
    done
    # shellcheck disable=SC2016 # $$ and $@ are the inner shell's
    exec setsid sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pf" "$@" </dev/null >>"$lf" 2>&1
  ) &
  # Wait (at most 2 s) for the pid, then for the exec, so a check right after the start does not
  # take the inner sh for a service that died.
  for _ in $(seq 40); do
    [[ -s "$pf" ]] && pid="$(<"$pf")" && break
    sleep 0.05
  done
  for _ in $(seq 40); do
    [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || break
    [[ "$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")" == "sh -c "* ]] || break
    sleep 0.05
  done
  echo "$pid"
}

# stop_pid SERVICE PATTERN [GRACE_SECONDS]: TERM, wait, then KILL.
# Prints "stopped PID", "killed PID" or "not-running".
stop_pid() {
  local svc="$1" pattern="$2" grace="${3:-15}" pid i
  if ! pid="$(running_pid "$svc" "$pattern")"; then
    rm -f "$(pid_file "$svc")"
    echo "not-running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    pid_alive "$pid" "$pattern" || break
    sleep 0.1
  done
  if pid_alive "$pid" "$pattern"; then
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      pid_alive "$pid" "$pattern" || break
      sleep 0.1
    done
    rm -f "$(pid_file "$svc")"
    echo "killed $pid"
    return 0
  fi
  rm -f "$(pid_file "$svc")"
  echo "stopped $pid"
}

# ---------------------------------------------------------------- ports
# port_open PORT [HOST]: something accepts TCP connections there.
port_open() {
  timeout 1 bash -c "exec 3<>/dev/tcp/${2:-$INFRA_HOST}/$1" 2>/dev/null
}

# wait_until TIMEOUT_S PID PATTERN CMD...: polls CMD until it succeeds; fails
# early when PID dies, or after TIMEOUT_S seconds.
wait_until() {
  local timeout_s="$1" pid="$2" pattern="$3"
  shift 3
  local deadline=$(($(now_ms) + timeout_s * 1000))
  while (($(now_ms) < deadline)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if [[ -n "$pid" ]] && ! pid_alive "$pid" "$pattern"; then return 2; fi
    sleep 0.2
  done
  return 1
}

# wait_port PORT TIMEOUT_S [PID PATTERN]
wait_port() { wait_until "$2" "${3:-}" "${4:-}" port_open "$1"; }

# port_owner_hint PORT: who listens there (for error messages).
port_owner_hint() {
  command -v ss >/dev/null 2>&1 || return 0
  ss -ltnpH "sport = :$1" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/\1/p' | head -1
}

# require_free_port SERVICE PORT: fail clearly when another process holds it.
require_free_port() {
  if port_open "$2"; then
    local who
    who="$(port_owner_hint "$2")"
    die "$1: port $INFRA_HOST:$2 is already in use${who:+ by $who} (set the port env var to move it)"
  fi
}

# fail_start SERVICE REASON: stop what we started, show the log tail, exit 1.
fail_start() {
  local svc="$1" reason="$2" lf
  lf="$(log_file "$svc")"
  log "FAILED $svc: $reason; last lines of $lf:"
  tail -n "${INFRA_LOG_TAIL:-25}" "$lf" 2>/dev/null | cut -c1-300 | sed 's/^/    | /' >&2 || true
  "${svc//-/_}_stop" >/dev/null 2>&1 || true
  exit 1
}

# ---------------------------------------------------------------- java / go
# shellcheck disable=SC2034 # used by services/*.sh
JAVA_OPTS_COMMON=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -Djava.net.preferIPv4Stack=true)

need_java() {
  need_cmd java "install a JDK 17+ (e.g. apt-get install openjdk-17-jdk-headless)"
  need_cmd javac "install a JDK 17+ (javac is needed, not only a JRE)"
}

# maven_copy_deps DIR NAME VERSION GROUP:ARTIFACT:VERSION...: writes DIR/pom.xml depending on the
# given artifacts and resolves them, with their runtime dependencies, into DIR/lib.
maven_copy_deps() {
  local dir="$1" name="$2" version="$3" coordinate group artifact dep_version
  shift 3
  need_cmd mvn "install Maven 3.8+ (apt-get install maven)"
  {
    echo '<project xmlns="http://maven.apache.org/POM/4.0.0">'
    echo '  <modelVersion>4.0.0</modelVersion>'
    echo "  <groupId>local.notify.infra</groupId><artifactId>$name</artifactId><version>$version</version>"
    echo '  <packaging>pom</packaging>'
    echo '  <dependencies>'
    for coordinate in "$@"; do
      IFS=: read -r group artifact dep_version <<<"$coordinate"
      echo "    <dependency><groupId>$group</groupId><artifactId>$artifact</artifactId><version>$dep_version</version></dependency>"
    done
    echo '  </dependencies>'
    echo '</project>'
  } >"$dir/pom.xml"
  (cd "$dir" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib -DincludeScope=runtime) \
    >"$dir/mvn.log" 2>&1 || {
    tail -n 30 "$dir/mvn.log" >&2
    return 1
  }
}

# go_build_module MODULE VERSION PKG OUT [LDFLAGS]: builds PKG of MODULE@VERSION
# into OUT, with GOPATH/GOMODCACHE left at their defaults (shared module cache).
# `go install m@v` is avoided on purpose: it first lists the module's versions to
# look for a deprecation notice, and the module proxy reachable here answers 403
# to some of those lists (FerretDB, mailpit). Downloading the exact version and
# building inside it uses the module's own go.mod/go.sum, like `go install m@v`.
# Module zips carry vendor/modules.txt but not the vendored code: -mod=mod then.
go_build_module() {
  local module="$1" version="$2" pkg="$3" out="$4" ldflags="${5:-}" dir gofl=-buildvcs=false
  need_cmd go "install Go >= 1.26"
  dir="$(cd / && go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "$dir" && -d "$dir" ]] || {
    log "go mod download $module@$version failed"
    return 1
  }
  [[ -d "$dir/vendor" ]] && gofl="$gofl -mod=mod"
  (cd "$dir" && CGO_ENABLED="${CGO_ENABLED:-0}" GOFLAGS="$gofl" \
    go build -trimpath -ldflags "-s -w $ldflags" -o "$out" "$pkg")
}

# go_tool_install SERVICE VERSION MODULE PKG BINARY [LDFLAGS]: builds once into
# the cache dir SERVICE-VERSION/BINARY (atomically).
go_tool_install() {
  local svc="$1" version="$2" module="$3" pkg="$4" bin="$5" ldflags="${6:-}" final tmp
  final="$(cache_dir "$svc" "$version")"
  [[ -x "$final/$bin" ]] && return 0
  tmp="$(atomic_install_dir "$final")"
  go_build_module "$module" "v$version" "$pkg" "$tmp/$bin" "$ldflags" >"$tmp/build.log" 2>&1 || {
    tail -n 30 "$tmp/build.log" >&2
    rm -rf "$tmp"
    return 1
  }
  commit_install_dir "$tmp" "$final"
}

# http_ok URL [CURL_ARGS...]: a 2xx answer within 2 s.
http_ok() {
  local url="$1"
  shift
  curl -fsS -o /dev/null --max-time 2 "$@" "$url"
}

# await_ready SERVICE PATTERN PROBE_FN WHAT ADDRESS: after a start, wait until PROBE_FN succeeds
# (WHAT says what it asks, e.g. "a ping"); fail with the log tail if the process dies or times out.
await_ready() {
  local service=$1 pattern=$2 probe=$3 what=$4 address=$5 pid rc=0
  pid="$(running_pid "$service" "$pattern")" || fail_start "$service" "process exited right after start"
  wait_until "$INFRA_READY_TIMEOUT" "$pid" "$pattern" "$probe" || rc=$?
  case $rc in
    0) return 0 ;;
    2) fail_start "$service" "process exited before it answered $what" ;;
    *) fail_start "$service" "no answer to $what on $address within ${INFRA_READY_TIMEOUT}s" ;;
  esac
}
