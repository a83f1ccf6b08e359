#!/usr/bin/env bash
# The whole test suite: installs what the tests need, type-checks (tests included), lints, runs every test
# file on SQLite (its API traffic recorded, then replayed against the OpenAPI documents), then the HTTP-level suites
# again on a real PostgreSQL (one server for the run, started here and stopped on exit, whatever happens), and ends
# with the totals of both runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh clone, or a package.json newer than the installed modules: install first.
if [ ! -d node_modules ] || [ package.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi
# The browser tests drive Debian's Chromium (playwright-core downloads no browser), the bench's tests Debian's wrk:
# install what is missing, as root or through sudo (CI runs as root, with no terminal to answer a prompt).
missing=()
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then missing+=(chromium); fi
if ! command -v wrk >/dev/null 2>&1; then missing+=(wrk); fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo='sudo -n'; fi
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
# Type-checks src, test and bench as `npm run typecheck` does, and compiles them to .test-build/ (not committed): the
# test processes (one per file, over 200 in both runs) run JavaScript, where a TypeScript loader cost each of them
# about a second of CPU. Source maps keep a failure's stack on the TypeScript lines.
rm -rf .test-build
npx tsc -p tsconfig.test.json --noEmit false --outDir .test-build
# Modules find files by their path from themselves: the service its bundled rates (src/conversion/load-rates.ts), the
# error catalogue's generator docs/errors.md (scripts/gen-error-docs.ts). The same paths lead there from the copy.
ln -s ../rates .test-build/rates
ln -s ../docs .test-build/docs
# Formatter, linter and unused exports: code that fails them does not land.
npm run --silent lint

work=$(mktemp -d)
pg_pid=
stop_postgres() {
  if [ -n "$pg_pid" ] && kill -0 "$pg_pid" 2>/dev/null; then
    kill -TERM "$pg_pid" 2>/dev/null || true
    wait "$pg_pid" 2>/dev/null || true
  fi
  pg_pid=
}
trap 'stop_postgres; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The server starts in the background while the SQLite run goes on (test/pg/postgres-server.ts).
node --import tsx test/pg/postgres-server.ts "$work/pg.env" $$ >"$work/pg.log" 2>&1 &
pg_pid=$!

# A terminal gets the readable reporter; CI (no terminal) gets TAP. A TAP copy of each run is kept for the totals.
reporter=tap
if [ -t 1 ]; then reporter=spec; fi
# Test files at a time: one more than the cores on SQLite, where many files wait (on Chromium, a child process, a
# socket's grace time) and two left a fifth of the CPU idle (two cores: 391 s, three: 288 s); PostgreSQL's run keeps
# the cores busy with one per core (a third changed nothing there).
cores=$(nproc)
run_tests() {
  local name=$1 jobs=$2
  shift 2
  node --enable-source-maps --test --test-concurrency="$jobs" \
    --test-reporter="$reporter" --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$work/$name.tap" "$@"
}

# The folders of the longest files first, each file in a process of its own, so that none of them starts last and runs
# alone at the end (PostgreSQL's plan test seeds 100,000 dogs for over a minute; the browser, process and
# add-a-resource tests take 10 to 40 s; test/pg's files set process-wide hooks).
LONG='^\.test-build/test/(pg|browser|ops|resources)/'
# The other files share a process, up to GROUP of one folder at a time: a process costs about a second of CPU before its
# first test (Node, importing the service, the first build), and the short files were mostly that. A group file only
# imports its members, so their tests register and run in order as in their own process; a failure's stack still names
# the member's own lines.
GROUP=6
grouped() {
  local name=$1 files file dir prev='' count=0 n=0 group=''
  files=$(sort)
  grep -E "$LONG" <<<"$files" || true
  mkdir -p .test-build/groups
  while IFS= read -r file; do
    dir=$(dirname "$file")
    if [ "$dir" != "$prev" ] || [ "$count" -eq "$GROUP" ]; then
      n=$((n + 1))
      count=0
      prev=$dir
      group=".test-build/groups/$name-$n.test.js"
      : >"$group"
      echo "$group"
    fi
    echo "import '../${file#.test-build/}';" >>"$group"
    count=$((count + 1))
  done < <(grep -vE "$LONG" <<<"$files" || true)
}
mapfile -t all < <(find .test-build/test -name '*.test.js' -not -path '.test-build/test/pg/*' | grouped sqlite)
echo "# run 1: every suite on SQLite, its API traffic recorded, then replayed against the OpenAPI documents"
sqlite_status=0
mkdir "$work/traffic"
RECORD_TRAFFIC="$work/traffic" run_tests sqlite $((cores + 1)) "${all[@]}" || sqlite_status=$?
RECORD_TRAFFIC="$work/traffic" run_tests replay 1 .test-build/test/openapi/traffic-replay.check.js || sqlite_status=$?

echo "# run 2: the HTTP-level suites on PostgreSQL"
for _ in $(seq 1 600); do
  if [ -s "$work/pg.env" ] || ! kill -0 "$pg_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
postgres_status=0
if [ -s "$work/pg.env" ]; then
  cat "$work/pg.log"
  # The suites that build the app through build(t) (the portal's included), and the backend's own tests.
  mapfile -t http < <( (cd .test-build && find test/http test/conventions test/resources test/auth test/portal test/pg -name '*.test.js') | sed 's|^|.test-build/|' | grouped postgres)
  (set -a && . "$work/pg.env" && set +a && run_tests postgres "$cores" "${http[@]}") || postgres_status=$?
else
  echo "PostgreSQL for the tests did not start:" >&2
  cat "$work/pg.log" >&2
  postgres_status=1
fi
stop_postgres

# The totals of both runs, as the runner's own closing lines (CI reads the last ones).
if [ "$sqlite_status" -ne 0 ] || [ "$postgres_status" -ne 0 ]; then
  echo "# failed: the SQLite run exited $sqlite_status, the PostgreSQL run $postgres_status"
fi
total() { cat "$work"/*.tap 2>/dev/null | awk -v key="$1" '$1 == "#" && $2 == key { sum += $3 } END { print sum + 0 }'; }
echo "# totals of both runs: SQLite (every suite) and PostgreSQL (the HTTP-level suites and test/pg)"
for key in tests suites pass fail cancelled skipped todo; do echo "# $key $(total "$key")"; done
[ "$sqlite_status" -eq 0 ] && [ "$postgres_status" -eq 0 ]
