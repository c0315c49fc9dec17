#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli check` (docs/CHECK.md).

Builds workspaces with `keyscope-cli shell`, damages them through Python's
sqlite3 module while they are closed, and checks the report, the exit
status (0 clean, 1 damaged, 2 not checkable, 3 repaired), what --repair
drops and says is lost, and that the rest reads afterwards. The binary
comes from the KEYSCOPE_CLI environment variable. Standard library only.
"""
import contextlib
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")

def script():
    """Tables t (families d, m; regions split at row50) and u, flushed, and one write in the log."""
    lines = ["create 't', {NAME => 'd', COMPRESSION => 'ZSTD', BLOCKSIZE => 4096}, {NAME => 'm'}, SPLITS => ['row50']",
             "create 'u', 'f'"]
    for i in range(100):
        padding = "x" * (i % 30)
        lines.append(f"put 't', 'row{i:02d}', 'd:payload', 'payload of row {i} {padding}', 10")
        lines.append(f"put 't', 'row{i:02d}', 'm:state', 's{i % 4}', 10")
        lines.append(f"put 'u', 'key{i:02d}', 'f:n', '{i * i}', 1")
    lines += ["flush 't'", "flush 'u'", "put 't', 'zz', 'm:state', 'only in the log', 20"]
    return "\n".join(lines) + "\n"


# Takes the exclusive flock every Keyscope process holds on an open
# workspace, says so, and keeps it until killed.
HOLD_LOCK = """
import fcntl, sys, time
f = open(sys.argv[1], "rb")
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(600)
"""


def run(*args, stdin=None, timeout=120):
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def scan_rows(workspace, table):
    status, out, err = run("shell", workspace, "--format", "jsonl", "-e", f"scan '{table}'")
    assert status == 0, (out, err)
    answer = json.loads(out.splitlines()[0])
    return [(c["row"], c["family"], c["value"]) for c in answer["cells"]]


class CheckCommand(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="keyscope-check-")
        self.ws = os.path.join(self.dir, "w.ksw")
        status, out, err = run("shell", self.ws, stdin=script())
        self.assertEqual(status, 0, err + out)
        self.before_t = scan_rows(self.ws, "t")
        self.before_u = scan_rows(self.ws, "u")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def db(self):
        """A connection to close before running keyscope-cli (its log is checkpointed then)."""
        return contextlib.closing(sqlite3.connect(self.ws, isolation_level=None))

    def file_of(self, table, family, row):
        """(file id, region id) of the store file holding `row` of `family`."""
        with self.db() as db:
            return db.execute(
                "SELECT s.file_id, s.region_id FROM store_files s JOIN regions r USING(region_id)"
                " JOIN tables t USING(table_id) WHERE t.name = ? AND s.family = ? AND r.start_row <= ?"
                " AND (r.end_row = x'' OR r.end_row > ?)",
                (table, family, row.encode(), row.encode())).fetchone()

    def flip_page_byte(self, file_id, page_no, at):
        rowid = (file_id << 20) | page_no
        with self.db() as db:
            data = bytearray(db.execute("SELECT data FROM pages WHERE page_id = ?", (rowid,)).fetchone()[0])
            data[at] ^= 0x20
            db.execute("UPDATE pages SET data = ? WHERE page_id = ?", (bytes(data), rowid))

    def test_a_healthy_workspace_is_clean(self):
        status, out, err = run("check", self.ws)
        self.assertEqual(status, 0, err)
        self.assertIn("SQLite structure: ok", out)
        self.assertIn("store files: 5 (", out)
        self.assertTrue(out.rstrip().endswith("Result: clean"), out)
        status, out, err = run("check", self.ws, "--json")
        self.assertEqual(status, 0, err)
        report = json.loads(out)
        self.assertTrue(report["clean"])
        self.assertEqual(report["sqlite"], "ok")
        self.assertEqual(report["counts"]["tables"], 2)
        self.assertEqual(report["counts"]["regions"], 3)
        self.assertEqual(report["counts"]["cells"], 300)
        self.assertEqual(report["counts"]["log_records"], 1)
        self.assertEqual(report["problems"], [])

    def test_a_damaged_page_is_reported_and_repair_drops_exactly_its_file(self):
        file_id, region = self.file_of("t", "d", "row70")
        self.flip_page_byte(file_id, 0, 40)
        with open(self.ws, "rb") as f:
            damaged_bytes = f.read()
        status, out, err = run("check", self.ws)
        self.assertEqual(status, 1, out + err)
        self.assertIn(f"table 't', region {region}, family 'd', store file {file_id}: page 0, block 0: "
                      "block checksum mismatch", out)
        self.assertIn(f"--repair drops store file {file_id}", out)
        self.assertIn("Result: DAMAGED (1 problem)", out)
        with open(self.ws, "rb") as f:
            self.assertEqual(f.read(), damaged_bytes, "a check changes nothing")
        report = json.loads(run("check", self.ws, "--json")[1])
        self.assertFalse(report["clean"])
        [problem] = report["problems"]
        self.assertEqual((problem["area"], problem["table"], problem["region"], problem["family"],
                          problem["store_file"], problem["page"], problem["repairable"]),
                         ("store file", "t", region, "d", file_id, 0, True))
        # Reads that need the page fail; the others work.
        status, out, err = run("shell", self.ws, "-e", "get 't', 'row70'")
        self.assertNotEqual(status, 0)
        self.assertIn(f"store file {file_id}, page 0, block 0: block checksum mismatch", out + err)
        status, out, err = run("shell", self.ws, "-e", "get 't', 'row10'")
        self.assertEqual(status, 0, out + err)

        status, out, err = run("check", self.ws, "--repair")
        self.assertEqual(status, 3, out + err)
        self.assertIn("Repair dropped (this data is LOST):\n"
                      f"  store file {file_id} (table 't', region {region}, family 'd'): "
                      "rows 'row50' to 'row99', timestamps 10 to 10, 50 cells\n", out)
        self.assertIn("After the repair:", out)
        self.assertIn("Result: repaired", out)
        status, out, err = run("check", self.ws)
        self.assertEqual(status, 0, out + err)
        expected = [c for c in self.before_t if not (c[0] >= "row50" and c[0] < "zz" and c[1] == "d")]
        self.assertEqual(scan_rows(self.ws, "t"), expected)
        self.assertEqual(scan_rows(self.ws, "u"), self.before_u)

    def live_log_frame(self):
        """(slot, byte) of the frame of the log's one unflushed record (log_slots.h)."""
        with self.db() as db:
            truncated = int(db.execute(
                "SELECT value FROM settings WHERE key = 'log_truncated_through'").fetchone()[0])
            for slot, data in db.execute("SELECT slot, data FROM wal_slots ORDER BY slot"):
                at = 0
                while at + 16 <= len(data):
                    length, seq = struct.unpack(">IQ", data[at:at + 12])
                    if length == 0 and seq == 0:
                        break
                    if seq > truncated:
                        return slot, at
                    at += 16 + length
        self.fail("no unflushed log record")

    def test_an_unreadable_log_frame_is_reported_and_repair_ends_its_slot_there(self):
        slot, at = self.live_log_frame()
        with self.db() as db:
            data = bytearray(db.execute("SELECT data FROM wal_slots WHERE slot = ?", (slot,)).fetchone()[0])
            data[at + 2] ^= 0x01  # the frame's length
            db.execute("UPDATE wal_slots SET data = ? WHERE slot = ?", (bytes(data), slot))
        status, out, err = run("shell", self.ws, "-e", "get 't', 'row10'")
        self.assertNotEqual(status, 0)
        self.assertIn(f"log slot {slot}, byte {at}: a record's frame fails its checksum", out + err)
        self.assertIn("check --repair", out + err)

        status, out, err = run("check", self.ws)
        self.assertEqual(status, 1, out + err)
        self.assertIn(f"log slot {slot}, byte {at}: a record's frame fails its checksum", out)
        self.assertIn("--repair ends the log slot there", out)
        status, out, err = run("check", self.ws, "--repair", "--json")
        self.assertEqual(status, 3, out + err)
        report = json.loads(out)
        [dropped] = report["repair"]["dropped_log_records"]
        self.assertEqual((dropped["log_slot"], dropped["from_byte"]), (slot, at))
        self.assertTrue(report["after_repair"]["clean"])
        self.assertEqual(scan_rows(self.ws, "t"), [c for c in self.before_t if c[0] != "zz"])
        self.assertEqual(scan_rows(self.ws, "u"), self.before_u)

    def test_unreadable_metadata_is_dropped_saying_its_contents_are_unknown(self):
        file_id, region = self.file_of("u", "f", "key00")
        with self.db() as db:
            meta = bytearray(db.execute("SELECT meta FROM store_files WHERE file_id = ?", (file_id,)).fetchone()[0])
            meta[20] ^= 1
            db.execute("UPDATE store_files SET meta = ? WHERE file_id = ?", (bytes(meta), file_id))
        status, out, err = run("check", self.ws, "--repair", "--json")
        self.assertEqual(status, 3, out + err)
        report = json.loads(out)
        [dropped] = report["repair"]["dropped_store_files"]
        self.assertEqual((dropped["store_file"], dropped["table"], dropped["region"], dropped["family"],
                          dropped["metadata_readable"]), (file_id, "u", region, "f", False))
        self.assertNotIn("cells", dropped)
        self.assertTrue(report["after_repair"]["clean"])
        self.assertEqual(scan_rows(self.ws, "u"), [])
        self.assertEqual(scan_rows(self.ws, "t"), self.before_t)

    def test_repair_refuses_damage_to_sqlites_structure_and_changes_nothing(self):
        with self.db() as db:
            root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'pages'").fetchone()[0]
        with open(self.ws, "r+b") as f:
            header = (root - 1) * 8192 + (100 if root == 1 else 0)
            f.seek(header + 7)
            fragmented = f.read(1)[0]
            f.seek(header + 7)
            f.write(bytes([(fragmented + 37) % 256]))
        with open(self.ws, "rb") as f:
            damaged_bytes = f.read()
        status, out, err = run("check", self.ws, "--repair")
        self.assertEqual(status, 1, out + err)
        self.assertIn("SQLite structure: DAMAGED", out)
        self.assertIn("Repair: SQLite's own structure is damaged", out)
        self.assertIn(".recover", out)
        with open(self.ws, "rb") as f:
            self.assertEqual(f.read(), damaged_bytes)

    def test_a_damaged_name_that_is_not_utf8_still_gives_json(self):
        with self.db() as db:
            db.execute("UPDATE tables SET name = CAST(x'75ff' AS TEXT) WHERE name = 'u'")
        status, out, err = run("check", self.ws, "--json")
        self.assertEqual(status, 1, err)
        report = json.loads(out)
        self.assertEqual(report["problems"][0]["area"], "catalog")
        self.assertIn("('u\ufffd') fails its checksum", report["problems"][0]["message"])

    def test_a_file_sqlite_cannot_read_is_damaged(self):
        path = os.path.join(self.dir, "garbage.ksw")
        with open(path, "wb") as f:
            f.write(b"SQLite format 3\0" + b"\x07" * 20000)
        status, out, err = run("check", path, "--repair")
        self.assertEqual(status, 1, out + err)
        self.assertIn("cannot be read as a workspace", out)
        self.assertIn(".recover", out)

    def test_what_cannot_be_checked_is_exit_status_2(self):
        self.assertEqual(run("check")[0], 2)
        self.assertEqual(run("check", self.ws, "--bogus")[0], 2)
        status, _, err = run("check", os.path.join(self.dir, "missing.ksw"))
        self.assertEqual(status, 2)
        self.assertIn("no workspace", err)
        text = os.path.join(self.dir, "notes.txt")
        with open(text, "w") as f:
            f.write("a shopping list\n")
        self.assertEqual(run("check", text)[0], 2)
        # Held by another process (the lock a Keyscope process takes on the
        # workspace, taken here directly): refused, naming the file.
        holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, self.ws], stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(holder.stdout.readline().strip(), "locked")
            status, _, err = run("check", self.ws)
            self.assertEqual(status, 2)
            self.assertIn("open in another Keyscope process", err)
            self.assertIn(self.ws, err)
        finally:
            holder.kill()
            holder.wait()

    def test_help(self):
        status, out, _ = run("check", "--help")
        self.assertEqual(status, 0)
        self.assertIn("--repair", out)
        self.assertIn("Exit status", out)


if __name__ == "__main__":
    unittest.main()
