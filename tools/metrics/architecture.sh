#!/usr/bin/env bash
# The architecture's measures, as the closing notes of refactors quote them:
#   - files outside a channel's own folders that name the channel;
#   - classes that inject the coordination store directly (typed stores excepted: they own it);
#   - use cases with a unit suite beside them;
#   - Date.now() calls outside the clock port;
#   - the largest three source files.
# A channel's own folders are any folder named after it (`slack`, `sender-slack`, `slack-peer`, …).
# Only production TypeScript counts: tests, test helpers and built output are left out.
set -euo pipefail
cd "$(dirname "$0")/../.."

sources() {
  git ls-files 'apps/*.ts' 'libs/*.ts' |
    grep -v -E '\.(spec|contract|e2e)\.ts$|/e2e/|/testing/|^libs/testing/|/dist/|\.d\.ts$'
}

# channel | pattern naming it (grep -E -i) | pattern of its folders (on the path)
channels=(
  'SLACK|slack|/([a-z-]*-)?slack(-[a-z-]*)?/'
  'SMS|sms|/([a-z-]*-)?(sms|twilio)(-[a-z-]*)?/'
  'WEB_PUSH|web.?push|/([a-z-]*-)?(web-push|push)(-[a-z-]*)?/'
  'INAPP_WEB|inapp|/([a-z-]*-)?inapp(-[a-z-]*)?/'
)
echo "files outside a channel's folders that name it:"
for entry in "${channels[@]}"; do
  IFS='|' read -r name names folders <<<"$entry"
  count=$({ sources | grep -v -E "$folders" | xargs grep -l -i -E "$names" || true; } | wc -l)
  printf '  %-10s %s\n' "$name" "$count"
done

injectors=$({ sources | xargs grep -l -E '@Inject\(COORDINATION\)' || true; } |
  { grep -v -E '^libs/data-access/cache/src/(stores/|coordination\.module)' || true; } | wc -l)
echo "classes injecting the coordination store (outside its typed stores): $injectors"

usecases=$(sources | grep -E '\.usecase\.ts$' || true)
total=$(echo "$usecases" | grep -c . || true)
tested=0
for file in $usecases; do [[ -f "${file%.ts}.spec.ts" ]] && tested=$((tested + 1)); done
echo "use cases with a unit suite: $tested of $total"

now=$({ sources | grep -v -E '^libs/util/src/time/clock\.ts$' | xargs grep -o 'Date\.now()' || true; } | wc -l)
echo "Date.now() calls outside the clock: $now"

echo "largest source files (lines):"
sources | xargs wc -l | grep -v ' total$' | sort -rn | head -3 | sed 's/^/  /'
