#!/usr/bin/env bash
# npm test: the whole suite. Installs what is missing, checks types and lint, builds the web
# app for the end-to-end tests, then runs every vitest project.
#
# With arguments (`npm test -- tests/e2e/bank.test.ts`) it is one plain vitest run. Without, the
# projects run in three lanes at once, each its own vitest process, and one merged report follows.
# Why lanes: vitest runs every project that has fileParallelism off (integration, e2e, checker,
# restarts: they share one stack, or start stacks of their own) in a single serial group after the
# rest, so on 2 cores the suite was the sum of them all (about 23 minutes). Those projects mostly
# wait on I/O (the stack, Chromium, DynamoDB Local), so separate processes overlap them well. The
# infra project (CPU-bound synths) rides with the browser lane, which mostly waits on Chromium: on
# 2026-11-27 the lanes took 564 s (browser), 772 s (stack) and 854 s (engines, infra 102 s of it).
# Later that day the crash tests had grown the engines lane to 775 s (browser 630, stack 705), so the
# unit project (~56 s of pure, quick files) moved to the browser lane too.
# 2026-11-28, on a machine about twice as slow (lanes 1257-1428 s): the web, infra and fidelity
# projects shed most of their CPU (one module graph a worker; one DynamoDB engine a project), and the
# tests that run stacks of their own left the integration project for a `restarts` project in the
# engines lane. Lanes then took 920 s (stack), 1080 (engines) and 1209 (browser: infra and unit,
# then checker 263 s, then e2e 603 s, one after the other), so the checker project went to the stack lane.
# 2026-11-29: the lanes took 945 s (browser), 1122 (stack) and 1264 (engines: its parallel projects
# until ~840 s, then fidelity's files one at a time, 282 s, then restarts, 110 s), and the two cores
# sat 20-60 % idle over the last 320 s. Fidelity's files now run in parallel (one JVM, a table a file:
# alone 227 → 175 s wall, the same CPU) and restarts rides in the browser lane, after e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "test: typecheck"; npm run --silent typecheck
# One command a line: under `set -e` a failure on the left of `&&` does not stop the script.
echo "test: lint"; npx biome check . --diagnostic-level=error
echo "test: dependency cycles"; npm run --silent lint:cycles
echo "test: build web"; npx vite build --config web/vite.config.ts --logLevel warn

if [ "$#" -gt 0 ]; then
  echo "test: vitest"
  exec npx vitest run "$@"
fi

reports=.vitest-reports; logs=.vitest-reports-logs
rm -rf "$reports" "$logs"; mkdir -p "$reports" "$logs"
declare -A lanes=(
  [stack]="--project integration --project checker"
  [browser]="--project e2e --project infra --project unit"
  # Stacks of their own, one file at a time, mostly waiting on ticks and restarts: a lane of its own
  # so its waits overlap the others' work (in the browser lane it made that lane 20 min).
  [restarts]="--project restarts"
  [engines]="--project web --project data --project bank --project fidelity"
)
declare -A laneOf=()
start=$SECONDS
for lane in "${!lanes[@]}"; do
  # shellcheck disable=SC2086 # the lane's project flags are meant to split
  npx vitest run ${lanes[$lane]} --reporter=dot --reporter=blob --outputFile.blob="$reports/$lane.blob" \
    > "$logs/$lane.log" 2>&1 &
  laneOf[$!]=$lane
  echo "test: vitest lane '$lane' (${lanes[$lane]})"
done
status=0
for _ in "${!laneOf[@]}"; do
  if wait -n -p pid; then result=passed; else result=failed; status=1; fi
  lane=${laneOf[$pid]}
  echo "test: lane '$lane' $result after $((SECONDS - start)) s"
  # A lane that wrote no report (a crash, a failed globalSetup) has only its log to tell why.
  [ -f "$reports/$lane.blob" ] || { status=1; tail -n 60 "$logs/$lane.log"; }
done
echo "test: vitest report (all lanes)"
npx vitest run --merge-reports="$reports" || status=1
exit "$status"
