#!/bin/sh
# The image's entrypoint: its first argument names the role (docs/deploy.md); the rest go to that role.
set -eu
role="${1:-web}"
[ "$#" -gt 0 ] && shift
# The health check (deploy/docker/healthcheck.mjs) asks the web server in the web role, and reads the worker's
# liveness file in the worker role.
echo "$role" >/tmp/framejury-role
case "$role" in
  web)
    # scripts/start.ts: refuses placeholder secrets, checks storage and single sign-on settings, applies pending
    # migrations (none after the migrate role), creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD, serves on PORT.
    # Judge workers run in their own containers (the worker role), so none beside it unless WORKERS says so.
    export WORKERS="${WORKERS:-0}"
    exec node --import tsx scripts/start.ts "$@" ;;
  worker)
    export WORKER_ALIVE_FILE=/tmp/framejury-worker-alive
    exec node --max-semi-space-size=64 --import tsx scripts/worker.ts "$@" ;;
  extract-worker)
    exec node --import tsx scripts/extract-worker.ts "$@" ;;
  cli)
    exec node --import tsx scripts/cli.ts "$@" ;;
  migrate)
    exec node --import tsx scripts/migrate.ts "$@" ;;
  backup)
    exec node --import tsx scripts/backup.ts "$@" ;;
  restore)
    exec node --import tsx scripts/restore.ts "$@" ;;
  import)
    exec node --import tsx scripts/import.ts "$@" ;;
  stub-llm)
    # A test tool: simulated answers, no model (docs/testing.md, "The stub LLM").
    exec node --import tsx scripts/stub-llm.ts "$@" ;;
  demo)
    # The demo (docs/guide/demo.md): its own embedded PostgreSQL under DATA_DIR, the stub LLM, simulated judgments.
    exec node --import tsx scripts/demo.ts "$@" ;;
  *)
    # Anything else runs as given: `docker run … framejury sh`.
    exec "$role" "$@" ;;
esac
