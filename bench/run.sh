#!/usr/bin/env bash
# npm run bench (bench/bench.ts) and npm run bench:compare (bench/compare.ts): installs wrk if missing, builds the service, runs the script (see docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null 2>&1; then
  echo "installing wrk (Debian package) ..."
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq wrk; else sudo apt-get update -qq && sudo apt-get install -y -qq wrk; fi
fi
if ! command -v taskset >/dev/null 2>&1; then echo "taskset (util-linux) is needed to pin the server and wrk to separate cores" >&2; exit 1; fi
[ -d node_modules ] || npm install --no-audit --no-fund
npm run --silent build
script=bench
if [ "${1:-}" = compare ]; then script=compare; shift; fi
exec node --import tsx "bench/$script.ts" "$@"
