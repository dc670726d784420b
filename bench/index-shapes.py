#!/usr/bin/env python3
"""Pages written per log row for three shapes of an index of rows by a random key.

The log's index of views by code (`hits_view_secret`; `hits_secret_time` before schema 9) gets each
new code's keyed hash at a random place, so each row dirties a leaf page of its own. This measures,
on a SQLite file shaped like the log (a rowid table with ~330-byte rows), what a row costs in WAL
frames (pages written) with

  none    no index (the table alone),
  index   a B-tree index on (key, time), as the log has now,
  runs    sorted runs: every RUN rows are written as one run, in key order, into a table led by the
          run's number (so a run is appended at the table's end), and FAN runs of a level are merged
          into one of the next (a log-structured merge),

for NEW rows written in batches of BATCH (one transaction each, as linkhost's writer commits) after
PRE rows already in the file. Frames are counted from the WAL's size after each commit, the WAL
being emptied before each batch: the count is the same on every run, whatever else the machine
does (time is not printed: Python's own and the checkpoints' would swamp it). See
docs/performance.md ("Time-led view tokens, 2026-11-28").

    python3 bench/index-shapes.py --pre 3000000 --new 200000
"""
import argparse
import base64
import hashlib
import os
import random
import sqlite3
import tempfile

PAGE = 4096


def run(shape, pre, new, batch, run_rows, fan, folder):
    path = os.path.join(folder, f"{shape}.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE hits (id INTEGER PRIMARY KEY, ts INTEGER, secret TEXT, pad TEXT)")
    if shape == "index":
        db.execute("CREATE INDEX hits_secret_time ON hits (secret, ts)")
    if shape == "runs":
        db.execute("CREATE TABLE secret_runs (run INTEGER, secret TEXT, ts INTEGER, id INTEGER, PRIMARY KEY (run, secret, ts, id)) WITHOUT ROWID")
        db.execute("CREATE TABLE run_levels (run INTEGER PRIMARY KEY, level INTEGER)")
    rng = random.Random(7)
    state = {"indexed": 0, "next_run": 1}

    def key():
        digest = hashlib.sha256(str(rng.random()).encode()).digest()[:16]
        return "hmac:" + base64.urlsafe_b64encode(digest).decode()

    def maintain(last_id):
        if shape != "runs" or last_id - state["indexed"] < run_rows:
            return
        number = state["next_run"]
        state["next_run"] += 1
        db.execute("INSERT INTO secret_runs SELECT ?, secret, ts, id FROM hits WHERE id > ? AND id <= ? ORDER BY secret, ts, id",
                   (number, state["indexed"], last_id))
        db.execute("INSERT INTO run_levels VALUES (?, 0)", (number,))
        state["indexed"] = last_id
        level = 0
        while True:
            runs = [row[0] for row in db.execute("SELECT run FROM run_levels WHERE level = ? ORDER BY run", (level,))]
            if len(runs) < fan:
                break
            merged = state["next_run"]
            state["next_run"] += 1
            listed = ",".join(map(str, runs))
            db.execute(f"INSERT INTO secret_runs SELECT ?, secret, ts, id FROM secret_runs WHERE run IN ({listed}) ORDER BY secret, ts, id", (merged,))
            db.execute(f"DELETE FROM secret_runs WHERE run IN ({listed})")
            db.execute(f"DELETE FROM run_levels WHERE run IN ({listed})")
            db.execute("INSERT INTO run_levels VALUES (?, ?)", (merged, level + 1))
            level += 1

    def write(count, first_id, counting):
        frames = 0
        next_id = first_id
        size = batch if counting else 16384
        while next_id < first_id + count:
            if counting:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("BEGIN IMMEDIATE")
            rows = [(next_id + k, 1_700_000_000_000 + next_id + k, key(), "x" * 300) for k in range(min(size, first_id + count - next_id))]
            db.executemany("INSERT INTO hits VALUES (?, ?, ?, ?)", rows)
            next_id += len(rows)
            maintain(next_id - 1)
            db.execute("COMMIT")
            wal = os.path.getsize(path + "-wal")
            if counting and wal > 32:
                frames += (wal - 32) // (PAGE + 24)
            if wal > 256 << 20:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return frames

    write(pre, 1, False)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    frames = write(new, pre + 1, True)
    db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return frames / new


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pre", type=int, default=3_000_000, help="rows in the file before the measured ones")
    parser.add_argument("--new", type=int, default=200_000, help="rows measured")
    parser.add_argument("--batch", type=int, default=500, help="rows a transaction")
    parser.add_argument("--run-rows", type=int, default=16384, help="rows a level-0 run holds")
    parser.add_argument("--fan", type=int, default=8, help="runs of a level merged into one of the next")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="linkhost-index-shapes.") as folder:
        for shape in ("none", "index", "runs"):
            pages = run(shape, args.pre, args.new, args.batch, args.run_rows, args.fan, folder)
            print(f"{shape:6s} {args.pre:>10,} rows before, {args.new:>8,} measured: {pages:6.3f} pages written a row", flush=True)


if __name__ == "__main__":
    main()
