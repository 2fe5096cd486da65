#!/usr/bin/env bash
# Installs what the project needs and is missing: npm packages, and the Debian packages
# the checkers and tests use (Chromium, poppler's pdftotext; Java for the DynamoDB Local fidelity tests is on the machine,
# and is installed too when missing). Safe to run again: it only acts on what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need_apt+=(ffmpeg)
command -v java >/dev/null 2>&1 || need_apt+=(openjdk-17-jre-headless)
# pdftotext reads the reports' PDFs back in the tests (docs/reports.md).
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
# Fonts so screenshots and videos show text, Chinese included (the default locale is zh).
[ -d /usr/share/fonts/truetype/dejavu ] || need_apt+=(fonts-dejavu-core)
[ -d /usr/share/fonts/opentype/noto ] || need_apt+=(fonts-noto-cjk)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# The lockfile must stay installable by a clean `npm ci` (what CI runs): a dev machine's
# node_modules can hide a lockfile npm ci refuses (e.g. an optional platform package the
# registry lacks), so check it on every run; the dry run takes under a second.
if ! npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null; then
  echo "setup: package-lock.json is not installable by a clean 'npm ci'; see the npm error above." >&2
  exit 1
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

# Everything runs on the Node of the `node` devDependency (the Node Lambda runs), which npm puts
# first on the PATH of every npm script. Its binary comes from that package's install script: a
# node_modules installed with --ignore-scripts lacks it, and the scripts would quietly run on the
# machine's Node instead.
want=$(node -p 'require("./package.json").devDependencies.node.split(".")[0]')
have=$(node_modules/.bin/node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  echo "setup: node_modules/.bin/node is Node '${have:-missing}', not Node $want; run 'rm -rf node_modules && npm ci'." >&2
  exit 1
fi
