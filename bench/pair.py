#!/usr/bin/env python3
"""Two or more linkhost builds side by side, logging, under the same load: requests a second and
the log writer's processor time per row written.

Each build serves the shipped config with the log on, into a fresh SQLite file of its own, on a
free port of 127.0.0.1; then, for every round and scenario, wrk runs against each build in turn
(the order alternating by round, so neither always gets the warmer machine). After each run the
script waits for the log to take in what was answered, then prints the requests a second, the
rows the run added, the log's user + system time (`/proc/<pid>/task/<tid>/stat` of the writer
thread, `linkhost-log`, and of the thread that checkpoints its WAL, `linkhost-wal`) and the bytes
the server had written to the disk (`write_bytes` of `/proc/<pid>/io`), each divided by the rows:
on two cores shared with wrk, requests a second move by a fifth between runs of one build, the
time and bytes per row by much less, so those are the figures to compare a change to the log
with. The log grows from run to run, as it does in a real
deployment, so compare the builds within a round, not a round with the next.

Scenarios: `invite` (one invitation link every time), `invite-unique` (a new code each request),
`open-same` and `open-unique` (`POST /v1/opens` reporting an invitation link, one code or a new one
each time, with a throwaway ingest key).

It needs wrk and release builds to compare, for example:

    bash scripts/ensure-packages.sh wrk
    swift build -c release --scratch-path .build-release --product linkhost --static-swift-stdlib
    cp .build-release/release/linkhost /tmp/linkhost-new   # then build the other commit the same way
    python3 bench/pair.py --seconds 6 --rounds 2 BUILD_A BUILD_B
    python3 bench/pair.py --scenarios open-same,open-unique .build-release/release/linkhost /tmp/old-linkhost
"""
import argparse
import json
import os
import re
import secrets
import socket
import sqlite3
import subprocess
import tempfile
import time

from instructions import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIOS = ["invite", "invite-unique", "open-same", "open-unique"]


def writer_seconds(pid):
    """User + system time of the process's log threads (the writer and its WAL's checkpoints), in
    seconds. A build from before the checkpoint thread has the writer alone."""
    total, found = 0, False
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as handle:
                stat = handle.read()
        except FileNotFoundError:
            continue
        if stat[stat.index("(") + 1:stat.rindex(")")].startswith(("linkhost-log", "linkhost-wal")):
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])
            found = True
    if not found:
        raise RuntimeError(f"no log writer thread in process {pid}")
    return total / os.sysconf("SC_CLK_TCK")


def disk_bytes(pid):
    """Bytes the process has had written to the disk (`write_bytes`, dirtied pages included)."""
    with open(f"/proc/{pid}/io") as handle:
        for line in handle:
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    raise RuntimeError(f"no write_bytes for process {pid}")


def rows(database):
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT COUNT(*) FROM hits").fetchone()[0]
    finally:
        connection.close()


def wait_until_settled(database):
    """Waits until the log stops growing: every answered request's row is in."""
    last = -1
    while True:
        count = rows(database)
        if count == last:
            return count
        last = count
        time.sleep(0.5)


def lua_scripts(folder, key):
    """wrk scripts: a new code per request, numbered per thread from the second the run began."""
    unique_prefix = '''local next_thread = 0
local started = tostring(os.time())
function setup(thread) thread:set("prefix", string.char(65 + next_thread) .. started); next_thread = next_thread + 1 end
local count = 0
local function code() count = count + 1; return prefix .. "C" .. string.format("%07d", count) end
'''
    opens = '{Host = "rowhni.com", ["Content-Type"] = "application/json", Authorization = "Bearer ' + key + '"}'
    scripts = {
        "invite-unique": unique_prefix + '''request = function()
  return wrk.format("GET", "/addfriend?code=" .. code() .. "&utm_campaign=launch", {Host = "rowhni.com"})
end
''',
        "open-unique": unique_prefix + '''request = function()
  return wrk.format("POST", "/v1/opens", ''' + opens + ''', '{"url":"https://rowhni.com/addfriend?code=' .. code() .. '","source":"universal-link"}')
end
''',
        "open-same": '''request = function()
  return wrk.format("POST", "/v1/opens", ''' + opens + ''', '{"url":"https://rowhni.com/addfriend?code=BENCH1","source":"universal-link"}')
end
''',
    }
    paths = {}
    for name, text in scripts.items():
        paths[name] = os.path.join(folder, name + ".lua")
        with open(paths[name], "w") as handle:
            handle.write(text)
    return paths


def start(build, folder, key):
    """Starts `build` on the shipped config, logging into `folder`; returns (process, port, database)."""
    with open(os.path.join(ROOT, "config.json")) as handle:
        config = json.load(handle)
    port = free_port()
    config["server"]["publicDirectory"] = os.path.join(ROOT, "Public")
    config["server"]["listen"] = {"address": "127.0.0.1", "port": port}
    database = os.path.join(folder, "log.sqlite")
    config["log"] = {"enabled": True, "database": database}
    for site in config["sites"]:
        site["ingest"] = {"rateLimit": {"burst": 1000000, "perSecond": 1000000}}
    config_path = os.path.join(folder, "config.json")
    with open(config_path, "w") as handle:
        json.dump(config, handle)
    output = open(os.path.join(folder, "linkhost.out"), "w")
    process = subprocess.Popen([build, "serve", "--config", config_path, "--log-level", "warning"], stdout=output, stderr=subprocess.STDOUT,
                               env=dict(os.environ, LINKHOST_INGEST_KEY=key))
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return process, port, database
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{build} did not start; see {output.name}")
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+", help="linkhost binaries to compare")
    parser.add_argument("--seconds", type=int, default=6, help="seconds a wrk run lasts")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every scenario")
    parser.add_argument("--scenarios", default="invite,invite-unique", help=f"comma-separated, of {', '.join(SCENARIOS)}")
    args = parser.parse_args()
    scenarios = args.scenarios.split(",")
    for scenario in scenarios:
        if scenario not in SCENARIOS:
            parser.error(f"--scenarios: {scenario!r} is not one of {', '.join(SCENARIOS)}")
    key = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="linkhost-pair.") as folder:
        scripts = lua_scripts(folder, key)
        servers = []
        try:
            for number, build in enumerate(args.builds):
                own = os.path.join(folder, str(number))
                os.mkdir(own)
                servers.append((build, *start(os.path.abspath(build), own, key)))
            print(f"wrk -t2 -c64 -d{args.seconds}s; the log threads' user + system time and the disk bytes per row the run added", flush=True)
            for round_number in range(args.rounds):
                for scenario in scenarios:
                    for build, process, port, database in servers if round_number % 2 == 0 else servers[::-1]:
                        before_rows, before_time, before_bytes = wait_until_settled(database), writer_seconds(process.pid), disk_bytes(process.pid)
                        if scenario == "invite":
                            target = ["-H", "Host: rowhni.com", f"http://127.0.0.1:{port}/addfriend?code=BENCH1&utm_campaign=launch"]
                        else:
                            target = ["-s", scripts[scenario], f"http://127.0.0.1:{port}/" + ("v1/opens" if scenario.startswith("open") else "")]
                        out = subprocess.run(["wrk", "-t2", "-c64", f"-d{args.seconds}s", *target], capture_output=True, text=True, check=True).stdout
                        rate = float(re.search(r"Requests/sec:\s*([\d.]+)", out).group(1))
                        added = wait_until_settled(database) - before_rows
                        per_row = (writer_seconds(process.pid) - before_time) / max(added, 1) * 1e6
                        bytes_per_row = (disk_bytes(process.pid) - before_bytes) / max(added, 1)
                        print(f"round {round_number + 1}  {scenario:<14} {build:<40} {rate:>9,.0f} req/s   writer {per_row:6.2f} µs a row   "
                              f"disk {bytes_per_row:6,.0f} B a row   {added:>9,} rows", flush=True)
        finally:
            for _, process, _, _ in servers:
                process.terminate()
                process.wait()


if __name__ == "__main__":
    main()
