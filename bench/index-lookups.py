#!/usr/bin/env python3
"""What a lookup of a code's latest view costs: through a B-tree, sorted runs, or chains.

Pairing an app open that reports a code but no view token asks for the latest view of that code,
site and rule in the week before the open (`OpenCrediting.latestView`). The log answers it through
the B-tree `hits_view_secret`; the sorted runs measured in docs/performance.md ("The runs, built
and measured") answer it by taking each run's latest matching view (a walk of the run's key
backwards from the open's time) and the latest of those. This builds a SQLite file of VIEWS views,
each with its own code, split into RUNS runs (alternating two tables, as the runs shape keeps even
and odd levels apart), then times LOOKUPS lookups of codes that have a view and of codes that have
none (an open from someone who had the app), with each shape's SQL.

The third shape, chains, has no index at all: each view row holds the id of the view before it
whose code falls in the same one of BUCKETS buckets (a column, written with the row, so a new code
costs the writer no random page), and the newest view of every bucket is kept in memory (here a
Python list; in the server it would be the writer's). A lookup walks the code's bucket from its
newest view backwards, in one recursive statement, until the views are older than the week.

Processor time of this Python process, its own share included (a few microseconds a lookup, the
same for both shapes); the difference between the shapes is the figure.

    python3 bench/index-lookups.py --views 1000000 --runs 20
"""
import argparse
import base64
import hashlib
import os
import random
import sqlite3
import tempfile
import time
import zlib

WEEK = 7 * 86_400_000
START = 1_700_000_000_000


def key(number):
    digest = hashlib.sha256(str(number).encode()).digest()[:16]
    return "hmac:" + base64.urlsafe_b64encode(digest).decode()


def latest_in(table, run):
    by_run = f"entry.run = {run} AND " if run else ""
    return f"""SELECT entry.id FROM {table} AS entry CROSS JOIN hits AS seen ON seen.id = entry.id
        WHERE {by_run}entry.secret = ?1 AND entry.ts_ms BETWEEN ?2 - {WEEK} AND ?2 AND seen.site IS ?3 AND seen.rule IS ?4
        ORDER BY entry.ts_ms DESC, entry.id DESC LIMIT 1"""


RUNS_SQL = f"""SELECT (SELECT best.id FROM (
    SELECT ({latest_in("view_codes_recent", None)}) AS id
    UNION ALL SELECT ({latest_in("view_codes_0", "listed.run")}) FROM view_code_runs AS listed WHERE listed.level % 2 = 0
    UNION ALL SELECT ({latest_in("view_codes_1", "listed.run")}) FROM view_code_runs AS listed WHERE listed.level % 2 = 1
  ) AS candidate CROSS JOIN hits AS best ON best.id = candidate.id ORDER BY best.ts_ms DESC, best.id DESC LIMIT 1)"""

BTREE_SQL = f"""SELECT (SELECT seen.id FROM hits AS seen
    WHERE seen.secret = ?1 AND seen.ts_ms BETWEEN ?2 - {WEEK} AND ?2 AND seen.kind = 'fallback' AND seen.status = 200
      AND seen.site IS ?3 AND seen.rule IS ?4
    ORDER BY seen.ts_ms DESC, seen.id DESC LIMIT 1)"""


CHAINS_SQL = f"""WITH RECURSIVE walk(id, ts_ms, secret, site, rule, prev) AS (
    SELECT id, ts_ms, secret, site, rule, code_prev FROM hits WHERE id = ?5
    UNION ALL
    SELECT older.id, older.ts_ms, older.secret, older.site, older.rule, older.code_prev
      FROM walk CROSS JOIN hits AS older ON older.id = walk.prev WHERE walk.ts_ms >= ?2 - {WEEK})
  SELECT (SELECT id FROM walk WHERE secret = ?1 AND ts_ms BETWEEN ?2 - {WEEK} AND ?2 AND site IS ?3 AND rule IS ?4
          ORDER BY ts_ms DESC, id DESC LIMIT 1)"""


def bucket(code, buckets):
    return zlib.crc32(code.encode()) % buckets


def build(path, views, runs, buckets):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    entries = "(run INTEGER NOT NULL, secret TEXT NOT NULL, ts_ms INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (run, secret, ts_ms, id)) WITHOUT ROWID"
    db.executescript(f"""
        CREATE TABLE hits (id INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, site TEXT, kind TEXT, rule TEXT, status INTEGER, secret TEXT, pad TEXT, code_prev INTEGER);
        CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL;
        CREATE TABLE view_codes_recent (secret TEXT NOT NULL, ts_ms INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (secret, ts_ms, id)) WITHOUT ROWID;
        CREATE TABLE view_codes_0 {entries};
        CREATE TABLE view_codes_1 {entries};
        CREATE TABLE view_code_runs (run INTEGER PRIMARY KEY, level INTEGER NOT NULL, entries INTEGER NOT NULL);
    """)
    db.execute("BEGIN")
    heads = [None] * buckets

    def rows():
        for number in range(1, views + 1):
            code = key(number)
            slot = bucket(code, buckets)
            yield number, START + number, code, "x" * 200, heads[slot]
            heads[slot] = number

    db.executemany("INSERT INTO hits VALUES (?, ?, 'rowhni', 'fallback', 'addfriend', 200, ?, ?, ?)", rows())
    size = views // runs
    for run in range(runs):
        level = run % 4
        db.execute(f"INSERT INTO view_codes_{level % 2} SELECT ?, secret, ts_ms, id FROM hits WHERE id > ? AND id <= ? ORDER BY secret, ts_ms, id",
                   (run + 1, run * size, (run + 1) * size))
        db.execute("INSERT INTO view_code_runs VALUES (?, ?, ?)", (run + 1, level, size))
    db.execute("COMMIT")
    return db, heads


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--views", type=int, default=1_000_000, help="views in the file, each with a code of its own")
    parser.add_argument("--runs", type=int, default=20, help="runs the views are split into")
    parser.add_argument("--buckets", type=int, default=1 << 18, help="buckets of the chains shape")
    parser.add_argument("--lookups", type=int, default=5000, help="lookups timed per shape and kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="linkhost-index-lookups.") as folder:
        db, heads = build(os.path.join(folder, "log.sqlite"), args.views, args.runs, args.buckets)
        rng = random.Random(1)
        for shape, sql in (("btree", BTREE_SQL), ("runs", RUNS_SQL), ("chains", CHAINS_SQL)):
            for kind in ("a view", "no view"):
                started = time.process_time()
                for _ in range(args.lookups):
                    number = rng.randint(1, args.views) if kind == "a view" else args.views + rng.randint(1, 10**9)
                    code = key(number)
                    arguments = (code, START + args.views + 10, "rowhni", "addfriend")
                    if shape == "chains":
                        arguments += (heads[bucket(code, args.buckets)],)
                    found = db.execute(sql, arguments).fetchone()[0]
                    if found != (number if kind == "a view" else None):
                        raise SystemExit(f"{shape}: wrong view for code {number}: {found}")
                spent = (time.process_time() - started) / args.lookups * 1e6
                layout = f"{args.buckets:>7,} buckets" if shape == "chains" else f"{args.runs:>3} runs"
                print(f"{shape:6s} {layout}, {args.views:>10,} views, a code with {kind:8s} {spent:6.1f} µs a lookup", flush=True)
        db.close()


if __name__ == "__main__":
    main()
