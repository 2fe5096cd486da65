#!/usr/bin/env bash
# npm start: installs what is missing, builds the web app, starts the local stack.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html shared -newer web/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "start: building the web app"
  npx vite build --config web/vite.config.ts --logLevel warn
fi
exec node --import tsx scripts/local/main.ts
