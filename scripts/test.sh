#!/usr/bin/env bash
# The whole test suite: installs what the tests need, type-checks (tests included), runs every test file.
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh clone, or a package.json newer than the installed modules: install first.
if [ ! -d node_modules ] || [ package.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi
npm run --silent typecheck
mapfile -t files < <(find test -name '*.test.ts' | sort)
node --import tsx --test --test-concurrency=2 "${files[@]}"
