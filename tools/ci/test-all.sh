#!/usr/bin/env bash
# The whole test suite with the real backends: README's test command and what CI runs (.ci/run).
# Starts Kafka, the MongoDB-wire server, Redis, a ClickHouse server and stripe-mock from tools/infra (installing them, and Chromium for
# the browser tests, on first use),
# then lint, typecheck, every Jest tier, the benchmarks' smoke run and the API fuzzer. Backends this
# script started are stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
step() { printf '\n== %s (%ss)\n' "$1" "$((SECONDS - started))"; }

step "backends"
already_running=true
bash tools/infra/infra.sh status kafka mongo redis clickhouse stripe-mock >/dev/null 2>&1 || already_running=false
# Set before starting, so backends a failed start left running are stopped too.
if [[ "$already_running" == false ]]; then
  trap 'bash tools/infra/infra.sh down kafka mongo redis clickhouse stripe-mock >/dev/null 2>&1 || true' EXIT
fi
bash tools/infra/infra.sh up

step "browser (Debian's chromium, for the in-app browser tests)"
bash tools/infra/infra.sh install chromium >/dev/null
step "lint"
npm run --silent lint
step "typecheck"
npm run --silent typecheck
step "console (Vite build; initial JavaScript within its gzipped budget)"
npm run --silent build:console
npm run --silent console:budget
step "Kubernetes packaging (hadolint, helm lint/template, manifest validation)"
bash tools/helm/check.sh
step "tests (unit, contract, e2e)"
jest_log=$(mktemp)
npx jest --ci 2>&1 | tee "$jest_log"
step "benchmarks, smoke run (every scenario at tiny sizes: each still runs to the end)"
npm run --silent bench -- --smoke
step "API fuzzing (schemathesis against docs/openapi.json)"
# Schemathesis's report is kept out of the log unless it fails: its closing lines are shaped like
# pytest's ('== 1 warning in 0.41s =='), which CI's reader takes for a pytest run of no test.
fuzz_log=$(mktemp)
if ! bash tools/fuzz/fuzz.sh >"$fuzz_log" 2>&1; then
  cat "$fuzz_log"
  rm -f "$fuzz_log"
  exit 1
fi
grep -E '^fuzz: ' "$fuzz_log" | tee -a "$jest_log"
rm -f "$fuzz_log"
step "done: test:all passed in $((SECONDS - started))s"
# The counts again at the very end, where a reader of the tail of the log looks for them.
grep -E '^(Test Suites|Tests):|^fuzz: ' "$jest_log" || true
# And last, the plain closing line CI's reader counts ('N passed, N failed'), from Jest's own tally.
tally=$(grep -E '^Tests:' "$jest_log" | tail -1)
count() { grep -oE "[0-9]+ $1" <<<"$tally" | grep -oE '^[0-9]+' || echo 0; }
skipped=$(( $(count skipped) + $(count todo) ))
printf 'tests: %s passed, %s failed, %s skipped\n' "$(count passed)" "$(count failed)" "$skipped"
rm -f "$jest_log"
