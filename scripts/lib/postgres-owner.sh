# Sourced by scripts/postgres and scripts/postgres-replicated: running PostgreSQL's programs as the cluster's owner.
#
# Run as root, a cluster belongs to the `postgres` user (initdb refuses root). Its programs then run with `runuser`
# from `/`: a program started as another user inherits the caller's working directory, and when that user cannot
# enter it (a checkout under root's mode-0700 home, a `mktemp -d` folder) PostgreSQL's tools warn
# `could not change directory to "…": Permission denied` on every call.

# Runs a PostgreSQL program as the cluster's owner, from `/`.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# Stops, before anything is made, with a message naming the folder and the fix when the cluster's owner could not
# reach DIR: every existing folder above it must let `postgres` pass (the x bit). `name` prefixes the message.
require_reachable() { # name dir
  [ "$(id -u)" -eq 0 ] || return 0
  local target blocked="" parent
  target="$(realpath -m "$2")"
  parent="$(dirname "$target")"
  while [ "$parent" != "/" ]; do
    if [ -d "$parent" ] && ! (cd / && runuser -u postgres -- test -x "$parent"); then blocked="$parent"; fi
    parent="$(dirname "$parent")"
  done
  [ -n "$blocked" ] || return 0
  echo "$1: the postgres user cannot enter $blocked (mode $(stat -c %a "$blocked"), owner $(stat -c %U "$blocked")), so it cannot keep a cluster in $target." >&2
  echo "$1: pass a DIR whose every parent folder it can enter (e.g. $(mktemp -u /tmp/journal-pg.XXXXXX)), or let it pass: chmod o+x $blocked" >&2
  exit 1
}
