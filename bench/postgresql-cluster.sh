# A throwaway PostgreSQL cluster for the benchmarks, made as the tests make one
# (Sources/TestSupport/TemporaryPostgreSQL.swift): initdb in a folder of ours (as the postgres user
# when run as root: initdb refuses root), a password (scram-sha-256), pg_ctl on a free port of
# 127.0.0.1, stopped by the postmaster's process id. Sourced by bench/log-scale and bench/fleet.
#
#   pg_cluster_init FOLDER            # a new cluster in FOLDER/data, its password in FOLDER/password
#   pg_cluster_start FOLDER [-c name=value]...   # starts it (under nice), sets PG* and pg_url
#   pg_cluster_restart -m fast        # pg_ctl restart with the same options (cuts every connection)
#   pg_cluster_stop                   # stops the started one, waits until it is gone
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
pg_folder=
pg_options=

pg_as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_cluster_init() { # folder
  local folder=$1
  mkdir -p "$folder"
  python3 -c 'import secrets; print(secrets.token_hex(16))' >"$folder/password"
  if [[ $(id -u) -eq 0 ]]; then
    chown -R postgres: "$folder"
    # The postgres user must pass through the folders above ours (not read them).
    local up
    up=$(dirname "$folder")
    while [[ $up != / && $(stat -c %u "$up") -eq 0 ]]; do chmod o+x "$up"; up=$(dirname "$up"); done
  fi
  pg_as_owner "$pg_bin/initdb" -D "$folder/data" -U linkhost --auth=scram-sha-256 --pwfile="$folder/password" \
    -E UTF8 --locale=C --no-sync >/dev/null
}

pg_cluster_start() { # folder [-c name=value]...
  pg_folder=$1
  shift
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  pg_options="-p $port -k $pg_folder -c listen_addresses=127.0.0.1 $*"
  # Under nice like everything the benchmarks start: the machine is shared.
  pg_as_owner nice "$pg_bin/pg_ctl" -D "$pg_folder/data" -l "$pg_folder/server.log" -w -t 120 -o "$pg_options" start >/dev/null
  export PGHOST=127.0.0.1 PGPORT=$port PGUSER=linkhost PGDATABASE=postgres PGPASSWORD
  PGPASSWORD=$(cat "$pg_folder/password")
  pg_url="postgresql://linkhost:$PGPASSWORD@127.0.0.1:$port/postgres"
}

pg_cluster_restart() { # pg_ctl restart options, e.g. -m fast
  pg_as_owner nice "$pg_bin/pg_ctl" -D "$pg_folder/data" -l "$pg_folder/server.log" -w -t 120 -o "$pg_options" "$@" restart >/dev/null
}

pg_cluster_stop() {
  [[ -n $pg_folder && -f $pg_folder/data/postmaster.pid ]] || return 0
  local pid
  pid=$(head -1 "$pg_folder/data/postmaster.pid")
  kill -INT "$pid" 2>/dev/null || return 0
  for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
}
