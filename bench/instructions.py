#!/usr/bin/env python3
"""Instructions per request, counted by valgrind's callgrind: linkhost beside nginx.

Wall-clock figures on two cores shared with the load generator move by 10-20 % between runs;
instruction counts do not (the same binary given the same requests executes nearly the same
instructions, whatever else the machine is doing). So each server runs under
`valgrind --tool=callgrind`, is warmed up, has its counters zeroed (`callgrind_control -z`), answers
N requests sent one after another on one keep-alive connection, and has its counters dumped
(`callgrind_control -d`): the dump's total divided by N is the user-space instructions one request
costs, on every thread of the process (the hit log's writer included). Kernel time (system calls,
the network stack) is not counted: it is the same kind of work for both servers, and it is what
moves with the machine.

Scenarios, each for linkhost with the hit log on, linkhost with it off, and nginx (one worker,
`master_process off`, the same bytes, its access log on):
  aasa         the forums' apple-app-site-association file
  page         one fallback page asked for again and again (linkhost answers it from its page cache)
  page-unique  a fallback page with a new thread id on every request, as real traffic is
  open         POST /v1/opens, an app open (nginx answers the same bytes with `return`)

Every scenario runs `--runs` times in the same server process; the table shows the median and the
spread. With the log on, the writer's batches depend on timing (more rows per transaction when it
falls behind), which is what moves those figures between runs.
"""
import argparse
import json
import os
import re
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

HOST = "forums.somethingawful.com"
AASA_PATH = "/.well-known/apple-app-site-association"
PAGE_PATH = "/showthread.php?threadid=456&pagenumber=2&utm_source=bench"
OPEN_BODY = b'{"url":"https://forums.somethingawful.com/showthread.php?threadid=456&utm_campaign=bench","source":"universal-link"}'
SCENARIOS = ["aasa", "page", "page-unique", "open"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Connection:
    """One keep-alive HTTP/1.1 connection that sends a request and reads its whole answer."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=600)
        self.buffer = b""

    def request(self, method, target, body=b"", headers=()):
        lines = [f"{method} {target} HTTP/1.1", f"Host: {HOST}", "User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)"]
        lines += list(headers)
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
        size = int(length.group(1)) if length else 0
        while len(self.buffer) < size:
            self._read()
        answer, self.buffer = self.buffer[:size], self.buffer[size:]
        return status, answer

    def _read(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise RuntimeError("the server closed the connection")
        self.buffer += chunk

    def close(self):
        self.sock.close()


def send(connection, scenario, count, start, ingest_key):
    """Sends `count` requests of `scenario`; the unique pages are numbered from `start`."""
    for index in range(count):
        if scenario == "aasa":
            status, _ = connection.request("GET", AASA_PATH)
        elif scenario == "page":
            status, _ = connection.request("GET", PAGE_PATH)
        elif scenario == "page-unique":
            status, _ = connection.request("GET", f"/showthread.php?threadid={start + index}&pagenumber=2&utm_source=bench")
        else:
            status, _ = connection.request("POST", "/v1/opens", OPEN_BODY, [f"Authorization: Bearer {ingest_key}"])
        if status >= 300:
            raise RuntimeError(f"{scenario}: answered {status}")


class Measured:
    """A server running under callgrind, whose counters are zeroed and dumped around each run."""

    def __init__(self, name, command, port, work, env=None, admin_port=None):
        self.name, self.port, self.work, self.admin_port = name, port, work, admin_port
        self.out = os.path.join(work, f"callgrind.{name}.out")
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}", "--dump-instr=no", "--collect-jumps=no"] + command,
            stdout=open(os.path.join(work, f"{name}.stdout"), "w"), stderr=open(os.path.join(work, f"{name}.stderr"), "w"),
            env=env)
        self.dumps = 0
        deadline = time.monotonic() + 300
        # The admin listener starts after the public one: both must accept before anything is measured.
        for listening in [port] + ([admin_port] if admin_port else []):
            self.wait_for(listening, deadline)

    def wait_for(self, port, deadline):
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name} did not start: " + open(os.path.join(self.work, f"{self.name}.stderr")).read()[-2000:])
                time.sleep(0.2)

    def control(self, flag):
        subprocess.run(["callgrind_control", flag, str(self.process.pid)], check=True, capture_output=True)

    def zero(self):
        self.control("-z")

    def dump(self):
        """Dumps the counters and returns the dump's file and its total instruction count."""
        self.control("-d")
        self.dumps += 1
        path = f"{self.out}.{self.dumps}"
        deadline = time.monotonic() + 60
        while not (os.path.exists(path) and "totals:" in open(path).read()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no callgrind dump {path}")
            time.sleep(0.1)
        total = int(re.search(r"^totals:\s*(\d+)", open(path).read(), re.M).group(1))
        return path, total

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_psql = {}


def log_rows(database):
    if database.startswith("postgresql://"):
        # One psql session for every count: a connection each time would start a server process
        # each time, whose processor time would count as the writer's.
        if database not in _psql:
            _psql[database] = subprocess.Popen(["psql", "-Atq", "-d", database], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        session = _psql[database]
        session.stdin.write("SELECT count(*) FROM hits;\n")
        session.stdin.flush()
        return int(session.stdout.readline().strip())
    if not os.path.exists(database):
        return 0
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30) as connection:
        return connection.execute("SELECT count(*) FROM hits").fetchone()[0]


def cluster_ticks(pid_file):
    """User and system clock ticks of a PostgreSQL cluster's processes (the postmaster and its children)."""
    postmaster = open(pid_file).readline().strip()
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if entry == postmaster or fields[1] == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total


# The admin token of the logged server: the writer's counts are in the health report, on the admin
# listener's /healthz behind it (the public /healthz says only the status). Read there, outside the
# measured runs, they are no rows of the log either.
ADMIN_TOKEN = secrets.token_hex(16)


def writer_batches(admin_port):
    """The hit log writer's transactions so far, from the admin listener's `/healthz` on a connection of its own."""
    connection = Connection(admin_port)
    try:
        status, body = connection.request("GET", "/healthz", headers=[f"Authorization: Bearer {ADMIN_TOKEN}"])
    finally:
        connection.close()
    if status != 200:
        raise RuntimeError(f"the admin listener's /healthz answered {status}")
    # Builds before the count was shown (to compare with one) have none: `None`.
    return json.loads(body)["log"].get("batches")


def wait_for_rows(database, expected):
    """Waits until the writer has committed `expected` rows (so their cost is inside the dump)."""
    deadline = time.monotonic() + 300
    while log_rows(database) < expected:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the log has {log_rows(database)} rows, expected {expected}")
        time.sleep(0.2)


def top_functions(dump, count=10):
    """The functions with the most instructions of their own in a dump, with their share.

    Read from the dump itself: callgrind_annotate 3.19 charges a thread's entry function with its
    callees' cost when the counters were reset while that thread was inside it (the log writer's
    loop), so the self costs are summed here from the cost lines, leaving out each call's cost.
    """
    names, cost, current, after_call = {}, {}, None, False
    for line in open(dump):
        line = line.rstrip("\n")
        named = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if named:
            if named.group(2):
                names[named.group(1)] = named.group(2)
            if line.startswith("fn="):
                current, after_call = named.group(1), False
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if current and line[:1] and (line[0].isdigit() or line[0] in "+-*"):
            if after_call:
                after_call = False  # the cost of the call just named: its callee's, not this function's
                continue
            fields = line.split()
            if len(fields) >= 2:
                cost[current] = cost.get(current, 0) + int(fields[1])
    total = sum(cost.values())
    top = sorted(cost.items(), key=lambda item: -item[1])[:count]
    symbols = [names.get(key, key) for key, _ in top]
    demangled = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(symbols), capture_output=True, text=True).stdout.splitlines()
    if len(demangled) != len(symbols):
        demangled = symbols
    return [{"instructions": value, "share": value / total, "function": name[:140]} for (_, value), name in zip(top, demangled)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--public", required=True)
    parser.add_argument("--requests", type=int, default=int(os.environ.get("BENCH_INSTR_REQUESTS", 3000)))
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_INSTR_RUNS", 3)))
    parser.add_argument("--json")
    # A PostgreSQL log (bench/instructions with BENCH_INSTR_LOG=postgresql starts a throwaway cluster):
    # the writer's rows go there, and the database server's own processor time is read from /proc.
    parser.add_argument("--log-db")
    parser.add_argument("--db-pid-file", help="postmaster.pid of the log's cluster, to read its processor time")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="linkhost-instructions.")
    os.chmod(work, 0o755)
    servers = []
    try:
        # valgrind 3.19 cannot read the DWARF 5 debug information Swift's toolchain writes; a copy
        # without it keeps the symbol table, which is all the function names need.
        binary = os.path.join(work, "linkhost")
        subprocess.run(["objcopy", "--strip-debug", args.binary, binary], check=True)
        ingest_key = secrets.token_hex(16)
        base = json.load(open(args.config))
        base["server"]["publicDirectory"] = args.public
        for site in base["sites"]:
            site["ingest"] = {"rateLimit": {"burst": 1000000, "perSecond": 1000000}}
        logged = dict(base)
        nolog = dict(base, log={"enabled": False})
        json.dump(logged, open(os.path.join(work, "logged.json"), "w"))
        json.dump(nolog, open(os.path.join(work, "nolog.json"), "w"))
        # Deterministic hashing, so dictionaries do the same work in every run. glibc's memset and memcpy
        # use `rep stosb`/`rep movsb` above a size, which valgrind counts as one instruction per byte
        # (a CPU runs it as one instruction, at many bytes a cycle): the thresholds are raised so both
        # servers use the vector loops instead, whose instruction count is close to the work done.
        tunables = "glibc.cpu.x86_rep_stosb_threshold=0xffffffff:glibc.cpu.x86_rep_movsb_threshold=0xffffffff"
        env = dict(os.environ, LINKHOST_INGEST_KEY=ingest_key, SWIFT_DETERMINISTIC_HASHING="1", GLIBC_TUNABLES=tunables)

        results = {}  # (server, scenario) -> [instructions per request]
        dumps = {}
        answers = {}
        database = args.log_db or os.path.join(work, "log.sqlite")
        database_time = {}  # scenario -> [microseconds of the database server's processor time per request]
        rows_per_batch = {}  # scenario -> [rows per writer transaction in each run, log on]

        def run_scenarios(server, name, database=None):
            connection = Connection(server.port)
            rows = log_rows(database) if database else 0
            unique = 1_000_000
            for scenario in SCENARIOS:
                if scenario == "open" and name == "linkhost-nolog":
                    continue  # app opens are log rows: with the log off there is nothing to measure
                connection.close()
                connection = Connection(server.port)
                send(connection, scenario, args.warmup, unique, ingest_key)
                unique += args.warmup
                rows += args.warmup
                if database:
                    wait_for_rows(database, rows)
                for _ in range(args.runs):
                    batches = None
                    if database:
                        batches = writer_batches(server.admin_port)
                        wait_for_rows(database, rows)
                    # A connection of its own for each run, opened before the counters are zeroed: the
                    # pause between runs (rows waited for, a dump written) can outlast the server's
                    # limit for an idle keep-alive connection (`limits.headSeconds`) on a busy machine.
                    connection.close()
                    connection = Connection(server.port)
                    server.zero()
                    ticks = cluster_ticks(args.db_pid_file) if database and args.db_pid_file else None
                    send(connection, scenario, args.requests, unique, ingest_key)
                    unique += args.requests
                    rows += args.requests
                    if database:
                        wait_for_rows(database, rows)
                    if ticks is not None:
                        spent = cluster_ticks(args.db_pid_file) - ticks
                        database_time.setdefault(scenario, []).append(spent * 1e6 / os.sysconf("SC_CLK_TCK") / args.requests)
                    dump, total = server.dump()
                    results.setdefault((name, scenario), []).append(total / args.requests)
                    dumps[(name, scenario)] = dump
                    batching = ""
                    after = writer_batches(server.admin_port) if database else None
                    if batches is not None and after is not None:
                        # The writer's batch size moves the log's share of the figure: a transaction
                        # costs far more than a row, and how many rows one gathers depends on timing.
                        per_batch = args.requests / max(1, after - batches)
                        rows_per_batch.setdefault(scenario, []).append(per_batch)
                        batching = f", {per_batch:,.1f} rows a transaction"
                    print(f"  {name:<15} {scenario:<12} {total / args.requests:>12,.0f} instructions/request{batching}", file=sys.stderr)
            connection.close()

        # The logged server runs its admin listener too, for the writer's counts. Idle, it costs only its
        # accept loop's sweep of an empty connection table twice a second: a cost per second of a run,
        # not per request, and small beside the requests'.
        port, admin_port = free_port(), free_port()
        linkhost = Measured("linkhost", [binary, "serve", "--config", os.path.join(work, "logged.json"), "--host", "127.0.0.1",
                                         "--port", str(port), "--admin-port", str(admin_port), "--log-db", database, "--log-level", "warning"],
                            port, work, dict(env, LINKHOST_ADMIN_TOKEN=ADMIN_TOKEN), admin_port=admin_port)
        servers.append(linkhost)
        # The bytes nginx serves are linkhost's own answers.
        probe = Connection(port)
        answers["aasa"] = probe.request("GET", AASA_PATH)[1]
        answers["page"] = probe.request("GET", PAGE_PATH)[1]
        answers["open"] = probe.request("POST", "/v1/opens", OPEN_BODY, [f"Authorization: Bearer {ingest_key}"])[1]
        probe.close()
        run_scenarios(linkhost, "linkhost", database)
        linkhost.stop()

        port = free_port()
        quiet = Measured("linkhost-nolog", [binary, "serve", "--config", os.path.join(work, "nolog.json"), "--host", "127.0.0.1",
                                            "--port", str(port), "--log-level", "warning"], port, work, env)
        servers.append(quiet)
        run_scenarios(quiet, "linkhost-nolog")
        quiet.stop()

        www = os.path.join(work, "www")
        os.makedirs(os.path.join(www, ".well-known"))
        os.makedirs(os.path.join(work, "logs"))
        open(os.path.join(www, ".well-known", "apple-app-site-association"), "wb").write(answers["aasa"])
        open(os.path.join(www, "page.html"), "wb").write(answers["page"])
        port = free_port()
        open_answer = answers["open"].decode().replace("\\", "\\\\").replace("'", "\\'")
        open(os.path.join(work, "nginx.conf"), "w").write(f"""
worker_processes 1;
error_log {work}/logs/error.log warn;
pid {work}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
  access_log {work}/logs/access.log combined buffer=64k;
  keepalive_requests 1000000;
  client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fastcgi;
  uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {www};
    location = {AASA_PATH} {{ default_type application/json; }}
    location = /showthread.php {{ default_type "text/html; charset=utf-8"; try_files /page.html =404; }}
    location = /v1/opens {{ default_type application/json; return 200 '{open_answer}'; }}
  }}
}}
""")
        nginx = Measured("nginx", ["nginx", "-p", work, "-c", os.path.join(work, "nginx.conf"), "-g", "daemon off; master_process off;"], port, work,
                         dict(os.environ, GLIBC_TUNABLES=tunables))
        servers.append(nginx)
        run_scenarios(nginx, "nginx")
        nginx.stop()

        print()
        print(f"user-space instructions per request (callgrind), {args.requests:,} requests on one keep-alive connection, "
              f"{args.runs} runs each: median (min–max)")
        header = f"{'scenario':<12} {'linkhost, log on':>26} {'linkhost, log off':>26} {'nginx':>20} {'on/nginx':>9} {'off/nginx':>10}"
        print(header)
        print("-" * len(header))
        summary = {}

        def cell(values):
            if not values:
                return "-"
            return f"{statistics.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"

        for scenario in SCENARIOS:
            on = results.get(("linkhost", scenario), [])
            off = results.get(("linkhost-nolog", scenario), [])
            reference = results.get(("nginx", scenario), [])
            reference_median = statistics.median(reference)
            on_ratio = statistics.median(on) / reference_median if on else None
            off_ratio = statistics.median(off) / reference_median if off else None
            summary[scenario] = {
                "linkhost": on, "linkhost_log_off": off, "nginx": reference,
                "ratio_log_on": on_ratio, "ratio_log_off": off_ratio,
                "spread_log_on": (max(on) - min(on)) / statistics.median(on) if on else None,
            }
            print(f"{scenario:<12} {cell(on):>26} {cell(off):>26} {cell(reference):>20} "
                  f"{(f'{on_ratio:.2f}' if on_ratio else '-'):>9} {(f'{off_ratio:.2f}' if off_ratio else '-'):>10}")
        if rows_per_batch:
            print()
            print("rows a writer transaction gathered, log on (the log's cost per request falls as this grows): median (min–max)")
            for scenario, values in rows_per_batch.items():
                print(f"  {scenario:<12} {statistics.median(values):8.1f} ({min(values):.1f}–{max(values):.1f})")
        if database_time:
            print()
            print("the log's PostgreSQL server, processor time per request (user + system, from /proc): median (min–max)")
            for scenario, values in database_time.items():
                print(f"  {scenario:<12} {statistics.median(values):8.1f} µs ({min(values):.1f}–{max(values):.1f})")
        print()
        tops = {}
        for scenario in ["aasa", "page-unique", "open"]:
            top = top_functions(dumps[("linkhost", scenario)])
            tops[scenario] = top
            print(f"linkhost, log on, {scenario}: the ten functions with the most instructions of their own")
            for row in top:
                print(f"  {row['share'] * 100:5.1f} %  {row['function']}")
            print()
        if args.json:
            json.dump({
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "requests": args.requests, "runs": args.runs, "scenarios": summary, "top_functions": tops,
                "log": "postgresql" if args.log_db else "sqlite", "database_server_microseconds": database_time,
                "rows_per_batch": rows_per_batch,
            }, open(args.json, "w"), indent=2)
            print(f"results: {args.json}")
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.process.kill()
        if os.environ.get("BENCH_INSTR_KEEP"):
            print(f"kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
