#!/usr/bin/env bash
# with-postgres.sh CMD [ARG…] — run CMD with a throwaway PostgreSQL cluster.
#
# Installs Debian's postgresql package when initdb is missing, initdb's a
# cluster into a temporary directory (as an unprivileged user when run as
# root: initdb refuses root), starts it on a free port on 127.0.0.1 with its
# unix socket inside that directory, exports
#   FRONTLATCH_TEST_POSTGRES_URL=postgres://USER@127.0.0.1:PORT/postgres?sslmode=disable
#   FRONTLATCH_TEST_POSTGRES_PGCTL="[runuser -u USER --] …/pg_ctl -D DATADIR"
# runs CMD, and always stops the cluster and removes the directory, exiting
# with CMD's exit code. When FRONTLATCH_TEST_POSTGRES_URL is already set it
# just runs CMD against that server.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARG…]" >&2
  exit 2
fi
if [ -n "${FRONTLATCH_TEST_POSTGRES_URL:-}" ]; then
  exec "$@"
fi

log() { echo "with-postgres: $*" >&2; }

find_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"; return 0
  fi
  return 1
}

if ! bindir=$(find_bin); then
  log "initdb missing, installing Debian's postgresql package"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bindir=$(find_bin) || { log "postgresql installed but initdb/pg_ctl not found"; exit 1; }
fi

# initdb and postgres refuse to run as root: use an unprivileged user.
run_as=()
pguser=$(id -un)
if [ "$(id -u)" = 0 ]; then
  pguser=frontlatch-pg
  if ! id -u "$pguser" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$pguser"
  fi
  run_as=(runuser -u "$pguser" --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/frontlatch-pg.XXXXXX")
chmod 0755 "$dir"
[ "${#run_as[@]}" -eq 0 ] || chown "$pguser" "$dir"

started=0
cleanup() {
  if [ "$started" = 1 ]; then
    "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
child=

"${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U "$pguser" --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { log "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }

# A free port: ask the kernel for one, then start; retry if another process
# took it in between.
free_port() {
  python3 - <<'EOF' 2>/dev/null || echo $(( 20000 + RANDOM % 20000 ))
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
EOF
}
for try in 1 2 3 4 5; do
  port=$(free_port)
  if "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c max_connections=200" \
      start >/dev/null 2>&1; then
    started=1
    break
  fi
  log "start on port $port failed (try $try):"; tail -n 5 "$dir/server.log" >&2 || true
done
[ "$started" = 1 ] || { log "could not start PostgreSQL"; exit 1; }

export FRONTLATCH_TEST_POSTGRES_URL="postgres://$pguser@127.0.0.1:$port/postgres?sslmode=disable"
# How a test restarts the server (pg_ctl restart reuses the start options),
# to prove that clients reconnect.
export FRONTLATCH_TEST_POSTGRES_PGCTL="${run_as[*]} $bindir/pg_ctl -D $dir/data"
log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $dir)"

# CMD runs in the background so that a signal to this script is handled at
# once (bash defers traps until a foreground command ends): it is passed on to
# CMD, and the cluster is stopped when CMD has ended.
forward() { [ -z "$child" ] || { kill -"$1" "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; }; }
trap 'forward INT; exit 130' INT
trap 'forward TERM; exit 143' TERM
set +e
"$@" <&0 &
child=$!
wait "$child"
rc=$?
set -e
exit "$rc"
