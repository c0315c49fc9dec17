#!/usr/bin/env python3
"""End-to-end tests of keyscope-cli on a full disk and beside a second process.

Real processes on real workspace files in a temporary directory:
- `import` of a CSV larger than the room left, under a file size limit
  (RLIMIT_FSIZE with SIGXFSZ ignored, as `ulimit -f` does) and on a small tmpfs
  filled with a ballast file (skipped where mounting is not allowed): a clear
  error naming the line where it stopped and how many records were imported,
  exit status 1, and exactly those records there afterwards;
- a background flush that fails (under a file size limit set with prlimit
  while the shell runs) is reported on stderr as it happens, once;
- `shell`, `batch` and `import` on a workspace another keyscope-cli holds
  open: refused with a message naming the file and the other process, exit
  status 2, and the first process goes on writing undisturbed; killed with
  SIGKILL, it releases the workspace.
The binary comes from the KEYSCOPE_CLI environment variable. Standard library only.
"""
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")

ROWS = 30000  # about 6 MB of CSV


def run(*args, stdin=None, preexec_fn=None):
    """Runs keyscope-cli; returns (exit status, stdout text, stderr text)."""
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, timeout=300, text=True,
                          preexec_fn=preexec_fn, restore_signals=False)
    return proc.returncode, proc.stdout, proc.stderr


def shell(workspace, *commands):
    """Runs shell commands; one JSON answer per command."""
    args = ["shell", workspace, "--format", "jsonl"]
    for command in commands:
        args += ["-e", command]
    status, out, err = run(*args)
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert status == 0, (answers, err)
    return answers


def file_size_limit(limit):
    """A preexec_fn: writes past `limit` bytes fail with EFBIG (the process is not killed)."""
    def limit_child():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    return limit_child


def csv_rows():
    rng = random.Random(8)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [("r%06d" % i, "".join(rng.choice(letters) for _ in range(200))) for i in range(ROWS)]


def largest_workspace_file(path):
    return max((os.path.getsize(path + suffix) for suffix in ("", "-wal", "-shm") if os.path.exists(path + suffix)),
               default=0)


class ImportOnAFullDisk(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="keyscope-disk-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.rows = csv_rows()
        self.csv = os.path.join(self.dir, "data.csv")
        with open(self.csv, "w") as f:
            f.write("row,d:v\n")
            f.writelines("%s,%s\n" % row for row in self.rows)

    def create_workspace(self, where):
        workspace = os.path.join(where, "ws.ksw")
        shell(workspace, "create 't', 'd'")
        return workspace

    def expect_stopped_import(self, workspace, status, err, what_ran_out):
        """The import stopped clearly, and exactly the records it counted are in."""
        self.assertEqual(status, 1, err)
        self.assertIn(what_ran_out, err)
        self.assertTrue(any(" while writing " + path in err for path in (workspace, os.path.realpath(workspace))), err)
        stopped = re.search(r"writing lines (\d+)-(\d+): .*; (\d+) records? were imported before it", err)
        self.assertIsNotNone(stopped, err)
        first_line, imported = int(stopped.group(1)), int(stopped.group(3))
        self.assertGreater(imported, 0, err)
        self.assertLess(imported, ROWS, err)
        self.assertEqual(first_line, imported + 2, "line 1 is the header; the import stops at a batch's first line")
        summary = re.search(r"data\.csv: [\d,]+ records, ([\d,]+) imported", err)
        self.assertIsNotNone(summary, err)
        self.assertEqual(int(summary.group(1).replace(",", "")), imported)
        # After the process exited (and its limit with it): exactly those rows.
        [scan] = shell(workspace, "scan 't'")
        self.assertEqual([(c["row"], c["value"]) for c in scan["cells"]], self.rows[:imported])
        return imported

    def test_an_import_over_the_file_size_limit_stops_clearly_and_keeps_what_it_counted(self):
        workspace = self.create_workspace(self.dir)
        limit = largest_workspace_file(workspace) + (1 << 20)
        status, _, err = run("import", workspace, "t", self.csv, preexec_fn=file_size_limit(limit))
        self.expect_stopped_import(workspace, status, err, "file size limit reached (ulimit -f: %d bytes)" % limit)
        # Without the limit the rest goes in: nothing was left half done.
        rest = os.path.join(self.dir, "rest.csv")
        [count] = shell(workspace, "count 't'")
        with open(rest, "w") as f:
            f.write("row,d:v\n")
            f.writelines("%s,%s\n" % row for row in self.rows[count["rows"]:])
        status, _, err = run("import", workspace, "t", rest)
        self.assertEqual(status, 0, err)
        [count] = shell(workspace, "count 't'")
        self.assertEqual(count["rows"], ROWS)

    def test_an_import_onto_a_full_file_system_stops_clearly_and_keeps_what_it_counted(self):
        mount = os.path.join(self.dir, "mnt")
        os.mkdir(mount)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount], capture_output=True,
                                 text=True)
        if mounted.returncode != 0:
            self.skipTest("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): " + mounted.stderr.strip())
        self.addCleanup(subprocess.run, ["umount", "-l", mount])
        workspace = self.create_workspace(mount)
        ballast = os.path.join(mount, "ballast")
        fs = os.statvfs(mount)
        with open(ballast, "wb") as f:
            f.write(b"x" * (fs.f_bavail * fs.f_frsize - (1 << 20)))
        status, _, err = run("import", workspace, "t", self.csv)
        os.remove(ballast)
        self.expect_stopped_import(workspace, status, err, "disk full")


class BackgroundFailures(unittest.TestCase):
    def test_a_failed_background_flush_is_reported_on_stderr_once(self):
        directory = tempfile.mkdtemp(prefix="keyscope-bg-")
        self.addCleanup(shutil.rmtree, directory, True)
        workspace = os.path.join(directory, "ws.ksw")
        shell(workspace, "create 't', {NAME => 'd'}, {MEMSTORE_FLUSHSIZE => 262144}")
        # A shell whose file size limit is set while it runs (prlimit), with
        # SIGXFSZ ignored so writes past it fail with EFBIG.
        holder = subprocess.Popen([CLI, "shell", workspace, "--format", "jsonl"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=lambda: signal.signal(signal.SIGXFSZ, signal.SIG_IGN),
                                  restore_signals=False)
        self.addCleanup(lambda: holder.poll() is None and holder.kill())
        rng = random.Random(3)
        value = lambda: "".join(rng.choice("abcdefghij") for _ in range(8192))

        def put(n):
            holder.stdin.write("put 't', 'r%03d', 'd:v', '%s'\n" % (n, value()))
            holder.stdin.flush()
            return json.loads(holder.stdout.readline())

        wal = workspace + "-wal"
        # 28 rows of 8 KiB (the flush size is 32): what a row costs in the
        # log, measured; then room for eight more, not for the flush.
        self.assertEqual(put(0), {"cmd": "put", "ok": True})  # the shell has the workspace open
        before = os.path.getsize(wal)
        for n in range(1, 28):
            self.assertEqual(put(n), {"cmd": "put", "ok": True})
        per_row = (os.path.getsize(wal) - before) // 27
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(holder.pid, resource.RLIMIT_FSIZE, (os.path.getsize(wal) + 8 * per_row, hard))
        acknowledged = 28
        for n in range(28, 60):
            if "error" in put(n):
                break
            acknowledged += 1
        self.assertLess(acknowledged, 60, "the log filled up")
        ready, _, _ = select.select([holder.stderr], [], [], 30)
        self.assertTrue(ready, "no background failure reported")
        report = holder.stderr.readline()
        self.assertIn("keyscope-cli: %s: background work failed (nothing is lost" % workspace, report)
        self.assertIn("flushing table 't' (region ", report)
        self.assertIn("file size limit reached", report)
        # With room again, writes go on (and the flush that failed goes through).
        resource.prlimit(holder.pid, resource.RLIMIT_FSIZE, (hard, hard))
        for n in range(100, 110):
            self.assertEqual(put(n), {"cmd": "put", "ok": True})
        holder.stdin.close()
        self.assertEqual(holder.wait(timeout=60), 1, "a command failed")
        rest = holder.stderr.read()
        self.assertNotIn("background work failed", rest, "reported once")
        holder.stdout.close()
        holder.stderr.close()
        [count] = shell(workspace, "count 't'")
        self.assertEqual(count["rows"], acknowledged + 10)


class OneProcessAtATime(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="keyscope-lock-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.workspace = os.path.join(self.dir, "ws.ksw")
        shell(self.workspace, "create 't', 'd'")
        self.csv = os.path.join(self.dir, "more.csv")
        with open(self.csv, "w") as f:
            f.write("row,d:v\nz1,1\n")

    def start_holder(self):
        """A `keyscope-cli shell` that holds the workspace open, reading commands from a pipe."""
        holder = subprocess.Popen([CLI, "shell", self.workspace, "--format", "jsonl"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        def stop():
            if holder.poll() is None:
                holder.kill()
            holder.wait()
            for stream in (holder.stdin, holder.stdout, holder.stderr):
                stream.close()
        self.addCleanup(stop)
        return holder

    def ask(self, holder, command):
        holder.stdin.write(command + "\n")
        holder.stdin.flush()
        ready, _, _ = select.select([holder.stdout], [], [], 30)
        self.assertTrue(ready, "the holder did not answer " + command)
        return json.loads(holder.stdout.readline())

    def test_shell_batch_and_import_are_refused_while_another_process_writes(self):
        holder = self.start_holder()
        self.assertEqual(self.ask(holder, "put 't', 'a1', 'd:v', 'one'"), {"cmd": "put", "ok": True})
        refusal = "%s is open in another Keyscope process (keyscope-cli, pid %d); close it there first" % (
            self.workspace, holder.pid)
        for n, args in enumerate([("shell", self.workspace, "-e", "put 't', 'b1', 'd:v', 'no'"),
                                  ("batch", self.workspace),
                                  ("import", self.workspace, "t", self.csv)]):
            status, out, err = run(*args, stdin='{"op":"put","table":"t","row":"b2","cells":[{"f":"d","q":"v","v":"no"}]}\n')
            self.assertEqual(status, 2, args)
            self.assertIn(refusal, err, args)
            self.assertEqual(out, "", args)
            # The holder goes on writing between the refusals.
            self.assertEqual(self.ask(holder, "put 't', 'a%d', 'd:v', 'more'" % (n + 2)), {"cmd": "put", "ok": True})
        holder.stdin.close()
        self.assertEqual(holder.wait(timeout=60), 0, holder.stderr.read())
        [scan] = shell(self.workspace, "scan 't'")
        self.assertEqual([c["row"] for c in scan["cells"]], ["a1", "a2", "a3", "a4"])

    def test_a_killed_holder_releases_the_workspace(self):
        holder = self.start_holder()
        self.assertEqual(self.ask(holder, "put 't', 'a1', 'd:v', 'kept'"), {"cmd": "put", "ok": True})
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
        [get] = shell(self.workspace, "get 't', 'a1'")
        self.assertEqual([c["value"] for c in get["cells"]], ["kept"])


if __name__ == "__main__":
    unittest.main()
