#!/usr/bin/env python3
"""Turns the wrk runs of bench/run into the side-by-side table and the JSON result file.

Per scenario and server it takes the median over rounds of requests/s, p50 and p99 latency, then
prints the linkhost/nginx ratio against the target for that scenario.
"""
import argparse
import base64
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from datetime import datetime, timezone

TARGETS = {  # scenario: minimum linkhost/nginx requests/s ratio
    "aasa": 1.0,
    "page": 0.8,
    "page-no-keepalive": 0.5,
    "invite": 0.8,
    # Pages of links never seen before: nginx serves a static copy, linkhost makes each page.
    "page-unique": 0.8,
    "invite-unique": 0.8,
}
UNIQUE_TARGET = 0.8  # a page for a new link, against linkhost's own one-link page in the same run
# Each unique-link scenario and the one-link scenario of the same page it is held to.
ONE_LINK = {"page-unique": "page", "invite-unique": "invite"}
OPENS_TARGET_RPS = 10_000  # app opens ingested per second, each one a log row
P99_LIMIT_MS = 10.0
RSS_LIMIT_MB = 64.0


def to_ms(text):
    value, unit = float(re.match(r"([\d.]+)", text).group(1)), re.search(r"(us|ms|s)$", text).group(1)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def parse(output):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    total = int(re.search(r"(\d+) requests in", output).group(1))
    p50 = to_ms(re.search(r"\s50%\s+(\S+)", output).group(1))
    p99 = to_ms(re.search(r"\s99%\s+(\S+)", output).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": rps, "requests": total, "p50_ms": p50, "p99_ms": p99,
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0,
    }


def parse_ab(output):
    """ApacheBench's summary: every request it sent was answered and read."""
    complete = int(re.search(r"Complete requests:\s+(\d+)", output).group(1))
    failed = int(re.search(r"Failed requests:\s+(\d+)", output).group(1))
    non2xx = re.search(r"Non-2xx responses:\s+(\d+)", output)
    return {
        "rps": float(re.search(r"Requests per second:\s+([\d.]+)", output).group(1)),
        "requests": complete, "non2xx": int(non2xx.group(1)) if non2xx else 0, "socket_errors": failed,
        "p50_ms": float(re.search(r"\n\s+50%\s+(\d+)", output).group(1)),
        "p99_ms": float(re.search(r"\n\s+99%\s+(\d+)", output).group(1)),
    }


def summarized(measured):
    """One server's rounds of one scenario: medians of the rates, latencies and processor times,
    totals of the counts."""
    return {
        "rps": statistics.median(r["rps"] for r in measured),
        "p50_ms": statistics.median(r["p50_ms"] for r in measured),
        "p99_ms": statistics.median(r["p99_ms"] for r in measured),
        "requests": sum(r["requests"] for r in measured),
        "non2xx": sum(r["non2xx"] for r in measured),
        "socket_errors": sum(r["socket_errors"] for r in measured),
        "rounds_rps": [r["rps"] for r in measured],
        "cpu_user_us": statistics.median(r["cpu_user_us"] for r in measured),
        "cpu_system_us": statistics.median(r["cpu_system_us"] for r in measured),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--peak-rss-kb", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--responses", type=int, required=True)
    parser.add_argument("--open-rows", type=int, required=True)
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()

    tick_us = 1e6 / os.sysconf("SC_CLK_TCK")
    runs = {}
    for line in open(args.results):
        scenario, server, encoded, *ticks = line.rstrip("\n").split("\t")
        text = base64.b64decode(encoded).decode()
        run = parse_ab(text) if server.endswith("-ab") else parse(text)
        if ticks:
            # Processor time per answered request, in microseconds (wrk's count leaves out the few
            # answers in flight when it stops, which makes this a hair high for either server).
            run["cpu_user_us"] = int(ticks[0]) * tick_us / run["requests"]
            run["cpu_system_us"] = int(ticks[1]) * tick_us / run["requests"]
        runs.setdefault(scenario, {}).setdefault(server, []).append(run)

    rows, notes, scenarios = [], [], {}
    for scenario in [name for name in ["aasa", "page", "page-no-keepalive", "page-unique", "invite", "invite-unique"] if name in runs]:
        summary = {server: summarized(runs[scenario][server]) for server in ["linkhost", "nginx"]}
        ratio = summary["linkhost"]["rps"] / summary["nginx"]["rps"]
        target = TARGETS[scenario]
        summary["ratio"] = ratio
        summary["target_ratio"] = target
        summary["meets_ratio"] = ratio >= target
        summary["meets_p99"] = summary["linkhost"]["p99_ms"] <= P99_LIMIT_MS
        scenarios[scenario] = summary
        rows.append((scenario, summary))
        if not summary["meets_ratio"]:
            notes.append(f"{scenario}: linkhost/nginx = {ratio:.2f}, target {target:.2f} (see README, Performance)")
        if not summary["meets_p99"]:
            notes.append(f"{scenario}: linkhost p99 {summary['linkhost']['p99_ms']:.2f} ms > {P99_LIMIT_MS} ms")
        if summary["linkhost"]["non2xx"] or summary["linkhost"]["socket_errors"]:
            notes.append(f"{scenario}: linkhost had {summary['linkhost']['non2xx']} non-2xx and {summary['linkhost']['socket_errors']} socket errors")

    # A new link's page against the one-link page, linkhost against itself in the same run: what a
    # real launch (every invitation its own code) gets of the figure a repeated link gets.
    for scenario, one_link in ONE_LINK.items():
        if scenario in scenarios and one_link in scenarios:
            unique = scenarios[scenario]["linkhost"]["rps"] / scenarios[one_link]["linkhost"]["rps"]
            scenarios[scenario]["one_link_scenario"] = one_link
            scenarios[scenario]["unique_over_one_link"] = unique
            scenarios[scenario]["meets_unique_target"] = unique >= UNIQUE_TARGET
            if unique < UNIQUE_TARGET:
                notes.append(f"{scenario}: {unique:.2f}x linkhost's one-link page ({one_link}), target {UNIQUE_TARGET}")

    # The same pairs with the hit log off (only the invitation is measured so): the page alone.
    for scenario, one_link in ONE_LINK.items():
        unique_off, one_off = runs.get(scenario, {}).get("linkhost-nolog"), runs.get(one_link, {}).get("linkhost-nolog")
        if scenario in scenarios and unique_off and one_off:
            scenarios[scenario]["linkhost_without_log"] = summarized(unique_off)
            scenarios[one_link]["linkhost_without_log"] = summarized(one_off)
            scenarios[scenario]["unique_over_one_link_without_log"] = (
                scenarios[scenario]["linkhost_without_log"]["rps"] / scenarios[one_link]["linkhost_without_log"]["rps"])

    nolog = runs.get("aasa", {}).get("linkhost-nolog")
    if nolog:
        nolog_summary = summarized(nolog)
        nolog_rps = nolog_summary["rps"]
        scenarios["aasa"]["linkhost_without_log"] = dict(nolog_summary, ratio=nolog_rps / scenarios["aasa"]["nginx"]["rps"])
        if not scenarios["aasa"]["meets_ratio"]:
            aasa = scenarios["aasa"]
            notes.append(f"aasa: with the hit log off linkhost serves {nolog_rps:,.0f} req/s ({nolog_rps / aasa['nginx']['rps']:.2f}x nginx); "
                         f"processor time per request: linkhost {aasa['linkhost']['cpu_user_us'] + aasa['linkhost']['cpu_system_us']:.1f} µs with the log, "
                         f"{aasa['linkhost_without_log']['cpu_user_us'] + aasa['linkhost_without_log']['cpu_system_us']:.1f} µs without, "
                         f"nginx {aasa['nginx']['cpu_user_us'] + aasa['nginx']['cpu_system_us']:.1f} µs (see README, Performance)")

    opens_runs = runs.get("opens", {}).get("linkhost-ab", [])
    opens = {
        "rps": statistics.median(r["rps"] for r in opens_runs),
        "p50_ms": statistics.median(r["p50_ms"] for r in opens_runs),
        "p99_ms": statistics.median(r["p99_ms"] for r in opens_runs),
        "answers_2xx": sum(r["requests"] - r["non2xx"] - r["socket_errors"] for r in opens_runs),
        "non2xx": sum(r["non2xx"] for r in opens_runs),
        "socket_errors": sum(r["socket_errors"] for r in opens_runs),
        "rows": args.open_rows,
        "target_rps": OPENS_TARGET_RPS,
        "rounds_rps": [r["rps"] for r in opens_runs],
    }
    opens["meets_target"] = opens["rps"] >= OPENS_TARGET_RPS
    opens["rows_equal_2xx"] = opens["rows"] == opens["answers_2xx"]
    scenarios["opens"] = opens
    if not opens["meets_target"]:
        notes.append(f"opens: {opens['rps']:,.0f}/s < target {OPENS_TARGET_RPS:,}/s")
    if not opens["rows_equal_2xx"]:
        notes.append(f"opens: {opens['rows']:,} app_open rows != {opens['answers_2xx']:,} 2xx answers")
    if opens["non2xx"] or opens["socket_errors"]:
        notes.append(f"opens: {opens['non2xx']} non-2xx answers and {opens['socket_errors']} socket errors")

    rss_mb = args.peak_rss_kb / 1024
    if rss_mb > RSS_LIMIT_MB:
        notes.append(f"linkhost peak RSS {rss_mb:.1f} MB > {RSS_LIMIT_MB} MB")
    if args.rows != args.responses:
        notes.append(f"log rows {args.rows} != responses {args.responses}")

    cpu = ""
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except Exception:
        pass
    machine = f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}"
    wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True)
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True)

    header = f"{'scenario':<20} {'linkhost req/s':>15} {'nginx req/s':>12} {'ratio':>6} {'target':>7}   {'p50 / p99 ms (linkhost)':>24}   {'p50 / p99 ms (nginx)':>21}"
    print()
    print(f"wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, {args.rounds} rounds (medians), {machine}")
    print(header)
    print("-" * len(header))
    for scenario, s in rows:
        l, n = s["linkhost"], s["nginx"]
        print(f"{scenario:<20} {l['rps']:>15,.0f} {n['rps']:>12,.0f} {s['ratio']:>6.2f} {'≥' + format(s['target_ratio'], '.1f'):>7}   "
              f"{l['p50_ms']:>10.2f} / {l['p99_ms']:>6.2f}{' ✓' if s['meets_p99'] else ' ✗'}     {n['p50_ms']:>9.2f} / {n['p99_ms']:>6.2f}")
    if nolog:
        print(f"{'aasa, log off':<20} {scenarios['aasa']['linkhost_without_log']['rps']:>15,.0f} {scenarios['aasa']['nginx']['rps']:>12,.0f} {scenarios['aasa']['linkhost_without_log']['ratio']:>6.2f}   (reference: linkhost with log.enabled false)")
    page_rps = scenarios["page"]["linkhost"]["rps"]
    print(f"{'opens (POST)':<20} {opens['rps']:>15,.0f} {'-':>12} {'':>6} {'≥' + format(OPENS_TARGET_RPS, ','):>7}   "
          f"{opens['p50_ms']:>10.2f} / {opens['p99_ms']:>6.2f}       (reference: linkhost page GET {page_rps:,.0f} req/s, {opens['rps'] / page_rps:.2f}x)")
    print()
    print("linkhost, a new link on every request beside the same link every time (same run; nginx serves one static copy for any query)")
    for scenario, one_link in ONE_LINK.items():
        if "unique_over_one_link" in scenarios.get(scenario, {}):
            u, o = scenarios[scenario]["linkhost"], scenarios[one_link]["linkhost"]
            print(f"  {scenario:<22} {u['rps']:>9,.0f} req/s ({u['cpu_user_us'] + u['cpu_system_us']:.1f} µs a request)   "
                  f"{one_link:<7} {o['rps']:>9,.0f} req/s ({o['cpu_user_us'] + o['cpu_system_us']:.1f} µs)   "
                  f"{scenarios[scenario]['unique_over_one_link']:.2f}x (target ≥{UNIQUE_TARGET})")
        if "unique_over_one_link_without_log" in scenarios.get(scenario, {}):
            u, o = scenarios[scenario]["linkhost_without_log"], scenarios[one_link]["linkhost_without_log"]
            label = f"{scenario}, log off"
            print(f"  {label:<22} {u['rps']:>9,.0f} req/s ({u['cpu_user_us'] + u['cpu_system_us']:.1f} µs a request)   "
                  f"{one_link:<7} {o['rps']:>9,.0f} req/s ({o['cpu_user_us'] + o['cpu_system_us']:.1f} µs)   "
                  f"{scenarios[scenario]['unique_over_one_link_without_log']:.2f}x (the page alone)")
    print()
    print("processor time per request, µs (user + system = total), medians of the rounds")
    def cpu_cells(measured):
        return f"{measured['cpu_user_us']:>5.1f} + {measured['cpu_system_us']:>5.1f} = {measured['cpu_user_us'] + measured['cpu_system_us']:>5.1f}"
    for scenario, s in rows:
        print(f"  {scenario:<20} linkhost {cpu_cells(s['linkhost'])}    nginx {cpu_cells(s['nginx'])}")
    if nolog:
        print(f"  {'aasa, log off':<20} linkhost {cpu_cells(scenarios['aasa']['linkhost_without_log'])}")
    print()
    print(f"app-open rows: {opens['rows']:,}, 2xx answers to opens: {opens['answers_2xx']:,} ({'equal' if opens['rows_equal_2xx'] else 'DIFFERENT'})")
    print(f"linkhost peak RSS: {rss_mb:.1f} MB (limit {RSS_LIMIT_MB:.0f} MB)")
    print(f"log rows: {args.rows:,}, responses sent: {args.responses:,} ({'equal' if args.rows == args.responses else 'DIFFERENT'})")
    if notes:
        print("missed:")
        for note in notes:
            print(f"  - {note}")
    else:
        print("every figure met")

    result = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine,
        "tools": {"wrk": (wrk.stdout or wrk.stderr).split("\n")[0], "nginx": (nginx.stderr or nginx.stdout).strip()},
        "settings": {"threads": args.threads, "connections": args.connections, "seconds": args.seconds, "rounds": args.rounds},
        "scenarios": scenarios,
        "linkhost_peak_rss_mb": rss_mb,
        "log_rows": args.rows,
        "responses_sent": args.responses,
        "missed": notes,
    }
    with open(args.json, "w") as handle:
        json.dump(result, handle, indent=2)
    print(f"results: {args.json}")


if __name__ == "__main__":
    sys.exit(main())
