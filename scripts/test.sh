#!/usr/bin/env bash
# npm test: the whole suite. Installs what is missing, checks types and lint, builds the web
# app for the end-to-end tests, then runs every vitest project in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "test: typecheck"; npm run --silent typecheck
echo "test: lint"; npx biome check . --diagnostic-level=error && npm run --silent lint:cycles
echo "test: build web"; npx vite build --config web/vite.config.ts --logLevel warn
echo "test: vitest"
exec npx vitest run "$@"
