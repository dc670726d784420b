#!/usr/bin/env python3
"""Runs a walkthrough as a person with two terminals would: one that runs the server in the
foreground, one that types commands into one shell session (so `export` and `.` carry over).

Usage: two_terminals.py FOLDER PLAN.json. Runs the plan in FOLDER and prints one JSON object per
step on standard output, in order. The plan is a list of steps:

  {"server": ["cmd", ...], "ready": "text"}   start a server terminal: a new bash runs the commands
                                              in order (the last one becomes the server, by exec);
                                              the step ends when its output shows "ready", or fails
                                              when it exits first or 60 s pass
  {"stop": true}                              Ctrl-C: SIGINT to that server's process id, then wait
                                              for it to exit (60 s at most)
  {"command": "text", "until": "fact"}        one command in the second terminal's shell; with
                                              "until", run it again while its output lacks the fact
                                              (for what the server does after answering: log rows
                                              the writer commits, a reload that follows a signal),
                                              for at most 10 s

A result holds the step's index, exit status, standard output and error, and for "until" steps the
number of runs. The driver checks nothing itself: the test that wrote the plan does. Every server it
started is stopped by its process id before the driver exits, whatever happened.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

READY_SECONDS = 60
UNTIL_SECONDS = 10


class ServerTerminal:
    """A bash that runs the server block; its last command is `exec`ed, so its pid is the server's."""

    def __init__(self, commands, folder, environment):
        script = "set -e\n" + "\n".join(commands[:-1] + ["exec " + commands[-1]]) + "\n"
        self.process = subprocess.Popen(
            ["bash", "--norc", "--noprofile", "-c", script], cwd=folder, env=environment,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.output = []
        self.errors = []
        self.changed = threading.Condition()
        self.readers = [
            threading.Thread(target=self._drain, args=(self.process.stdout, self.output), daemon=True),
            threading.Thread(target=self._drain, args=(self.process.stderr, self.errors), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _drain(self, stream, into):
        for line in stream:
            with self.changed:
                into.append(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def text(self):
        with self.changed:
            return "".join(self.output), "".join(self.errors)

    def wait_for(self, ready):
        """True once standard output holds `ready`; False if the server exits first or time runs out."""
        deadline = time.monotonic() + READY_SECONDS
        with self.changed:
            while ready not in "".join(self.output):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    return False
                self.changed.wait(timeout=0.2)
        return True

    def interrupt(self):
        """Ctrl-C, by process id; the exit status, or None after 60 s (the server is then killed)."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
        try:
            status = self.process.wait(timeout=READY_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()
            status = None
        for reader in self.readers:
            reader.join(timeout=5)
        return status

    def kill(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()


class CommandTerminal:
    """One bash session; each command's output goes to files, its status comes back on a pipe."""

    def __init__(self, folder, environment):
        self.scratch = tempfile.mkdtemp(prefix="walkthrough-")
        self.shell = subprocess.Popen(
            ["bash", "--norc", "--noprofile"], cwd=folder, env=environment,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.count = 0

    def run(self, command):
        self.count += 1
        out = os.path.join(self.scratch, f"{self.count}.out")
        err = os.path.join(self.scratch, f"{self.count}.err")
        # A group, not a subshell: `export` and `.` change the session, as typed in a terminal.
        self.shell.stdin.write(f"{{ {command}\n}} >'{out}' 2>'{err}' </dev/null; echo \"__status__ $?\"\n")
        self.shell.stdin.flush()
        while True:
            line = self.shell.stdout.readline()
            if not line:
                return 255, "", "the shell ended"
            if line.startswith("__status__ "):
                status = int(line.split()[1])
                break
        with open(out, errors="replace", newline="") as stdout, open(err, errors="replace", newline="") as stderr:
            return status, stdout.read(), stderr.read()

    def close(self):
        self.shell.stdin.close()
        self.shell.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


def main():
    folder = sys.argv[1]
    with open(sys.argv[2]) as file:
        plan = json.load(file)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("LINKHOST_")}
    terminal = CommandTerminal(folder, environment)
    server = None
    started = []
    try:
        for index, step in enumerate(plan):
            result = {"index": index}
            if "server" in step:
                server = ServerTerminal(step["server"], folder, environment)
                started.append(server)
                ready = server.wait_for(step["ready"])
                output, errors = server.text()
                result.update(status=0 if ready else (server.process.poll() if server.process.poll() is not None else -1),
                              stdout=output, stderr=errors)
            elif "stop" in step:
                status = server.interrupt() if server else -1
                output, errors = server.text() if server else ("", "no server was running")
                result.update(status=-1 if status is None else status, stdout=output, stderr=errors)
                server = None
            else:
                deadline = time.monotonic() + UNTIL_SECONDS
                runs = 0
                while True:
                    status, output, errors = terminal.run(step["command"])
                    runs += 1
                    fact = step.get("until")
                    if fact is None or (status == 0 and fact in output) or time.monotonic() > deadline:
                        break
                    time.sleep(0.1)
                result.update(status=status, stdout=output, stderr=errors, runs=runs)
            print(json.dumps(result), flush=True)
    finally:
        for each in started:
            each.kill()
        terminal.close()


if __name__ == "__main__":
    main()
