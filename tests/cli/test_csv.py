#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli import` and `export` (docs/CSV.md).

Real processes on real workspace files in a temporary directory. Python's own
csv module is the independent reader and writer: what export writes must read
back exactly with it, and what it writes must import exactly. The binary comes
from the KEYSCOPE_CLI environment variable. Standard library only.
"""
import base64
import csv
import io
import json
import os
import subprocess
import tempfile
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")

PLAIN = set(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" +
            b" `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?")


def to_string_binary(data: bytes) -> str:
    """HBase's Bytes.toStringBinary, written from its definition."""
    return "".join(chr(b) if b in PLAIN else "\\x%02X" % b for b in data)


RENDER = {
    "escaped": to_string_binary,
    "hex": lambda b: b.hex(),
    "base64": lambda b: base64.b64encode(b).decode("ascii"),
}

ALL_BYTES = bytes(range(256))

# Cells awkward for CSV: (row, family, qualifier, timestamp, value), as bytes.
AWKWARD = [
    (b"plain", "d", b"q", 10, b"value"),
    (b"plain", "d", b"q", 9, b"older"),
    (b"quote\"comma,", "d", b"\"q,\"", 10, b"a \"quoted\", value"),
    (b"lines\r\n", "d", b"\n", 10, b"l1\nl2\r\nl3\r"),
    (b"\x00\xff" + ALL_BYTES, "e", ALL_BYTES, 10, ALL_BYTES),
    ("caf\u00e9 \u2603".encode(), "e", "\u00fc".encode(), 10, "\u65e5\u672c".encode()),
]


def hexed(b: bytes) -> dict:
    return {"hex": b.hex()}


def run(*args, stdin=None):
    """Runs keyscope-cli; returns (exit status, stdout bytes, stderr text)."""
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


def batch(workspace, ops):
    text = "\n".join(json.dumps(op) for op in ops) + "\n"
    status, out, err = run("batch", workspace, stdin=text.encode())
    answers = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    assert status == 0, (answers, err)
    return answers


def create(workspace, table, **extra):
    op = {"op": "create_table", "table": table, "families": [{"name": "d", "versions": 3}, {"name": "e"}]}
    op.update(extra)
    batch(workspace, [op])


def fill(workspace, table, cells=AWKWARD):
    batch(workspace, [{"op": "put", "table": table, "row": hexed(row), "cells": [{"f": f, "q": hexed(q), "ts": ts, "v": hexed(v)}]}
                      for (row, f, q, ts, v) in cells])


def read_csv(data: bytes, **fmt):
    """Python's csv module on the exact bytes (RFC 4180: newline='')."""
    return list(csv.reader(io.StringIO(data.decode("utf-8", "surrogateescape"), newline=""), **fmt))


class CsvCliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.ws = self.path("w.ksw")

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def write(self, name, data: bytes):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def export(self, table, *args):
        status, out, err = run("export", self.ws, table, *args)
        self.assertEqual(status, 0, err)
        return out

    # --- export, read by Python's csv module ----------------------------------

    def expected_long(self, render, cells=AWKWARD, versions=1):
        """The long layout's lines for `cells`, newest `versions` per column, in cell order."""
        order = sorted(cells, key=lambda c: (c[0], c[1], c[2], -c[3]))
        rows, seen = [], {}
        for row, f, q, ts, v in order:
            seen[(row, f, q)] = seen.get((row, f, q), 0) + 1
            if seen[(row, f, q)] <= versions:
                rows.append([render(row), f, render(q), str(ts), "Put", render(v)])
        return [["row", "family", "qualifier", "timestamp", "type", "value"]] + rows

    def test_long_export_reads_back_exactly_with_python_csv(self):
        create(self.ws, "t")
        fill(self.ws, "t")
        for name, render in RENDER.items():
            with self.subTest(bytes=name):
                out = self.export("t", "--bytes", name, "--versions", "3")
                self.assertEqual(read_csv(out), self.expected_long(render, versions=3))
                self.assertTrue(out.endswith(b"\r\n"))

    def test_raw_bytes_read_back_exactly(self):
        create(self.ws, "t")
        fill(self.ws, "t")
        out = self.export("t", "--bytes", "raw")
        decode = lambda s: s.encode("utf-8", "surrogateescape")
        got = [[decode(f) for f in line] for line in read_csv(out)[1:]]
        want = [[row, f.encode(), q, str(ts).encode(), b"Put", v] for row, f, q, ts, v in
                sorted((c for c in AWKWARD if c[3] == 10), key=lambda c: (c[0], c[1], c[2]))]
        self.assertEqual(got, want)

    def test_wide_export_has_one_line_per_row_and_a_column_per_qualifier(self):
        create(self.ws, "t")
        fill(self.ws, "t", [(b"r1", "d", b"b", 1, b"1b"), (b"r1", "e", b"", 1, b"1e"),
                            (b"r2", "d", b"a", 1, b"x,\"y\"\n"), (b"r2", "d", b"b", 1, b"2b")])
        out = self.export("t", "--layout", "wide", "--line-ending", "lf", "--delimiter", ";")
        self.assertEqual(read_csv(out, delimiter=";"), [
            ["row", "d:a", "d:b", "e:"],
            ["r1", "", "1b", "1e"],
            ["r2", "x,\"y\"\\x0A", "2b", ""],
        ])
        self.assertNotIn(b"\r", out)

    def test_scan_options(self):
        create(self.ws, "t")
        fill(self.ws, "t", [(r, "d", b"q", 1, r) for r in (b"a1", b"a2", b"b1", b"b2", b"c1")])
        wide = lambda *a: [line[0] for line in read_csv(self.export("t", "--layout", "wide", "--no-header", *a))]
        self.assertEqual(wide("--prefix", "b"), ["b1", "b2"])
        self.assertEqual(wide("--start", "a2", "--stop", "c1"), ["a2", "b1", "b2"])
        self.assertEqual(wide("--reversed", "--limit", "2"), ["c1", "b2"])
        self.assertEqual(wide("--filter", "RowFilter(=, 'substring:1')"), ["a1", "b1", "c1"])

    def test_raw_export_shows_markers_and_time_ranges_select(self):
        create(self.ws, "t")
        fill(self.ws, "t", [(b"r", "d", b"q", 5, b"v5"), (b"r", "d", b"q", 3, b"v3")])
        batch(self.ws, [{"op": "delete", "table": "t", "row": "r", "specs": [{"type": "column_version", "f": "d", "q": "q", "ts": 5}]}])
        lines = read_csv(self.export("t", "--raw"))
        self.assertEqual([l[3:5] for l in lines[1:]], [["5", "Delete"], ["5", "Put"], ["3", "Put"]])
        lines = read_csv(self.export("t", "--versions", "all", "--time-range", "0,4"))
        self.assertEqual([l[3:6] for l in lines[1:]], [["3", "Put", "v3"]])

    # --- round trips ------------------------------------------------------------

    def test_export_import_export_is_identical(self):
        create(self.ws, "a")
        fill(self.ws, "a")
        cases = [("long", name, extra) for name in ("escaped", "hex", "base64", "raw") for extra in ([], ["--raw"])]
        cases += [("wide", name, []) for name in ("escaped", "hex", "base64", "raw")]
        for n, (layout, name, extra) in enumerate(cases):
            with self.subTest(layout=layout, bytes=name, extra=extra):
                table = "b%d" % n
                create(self.ws, table)
                args = ["--layout", layout, "--bytes", name] + (["--versions", "3"] + extra if layout == "long" else [])
                first = self.export("a", *args)
                status, _, err = run("import", self.ws, table, self.write("first.csv", first), "--bytes", name,
                                     "--bad-lines", "fail")
                self.assertEqual(status, 0, err)
                again = self.export(table, *args)
                self.assertEqual(again, first)
                self.assertGreater(len(read_csv(first)), 5)

    def test_python_written_csv_imports_exactly(self):
        create(self.ws, "t")
        values = ["plain", "comma, inside", "quote \" inside", "new\nline", "cr\r\nlf", "", " spaces ",
                  "caf\u00e9 \u2603", "\u65e5\u672c\u8a9e", "tab\there", "back\\slash"]
        for dialect in ("excel", "excel-tab"):
            with self.subTest(dialect=dialect):
                buf = io.StringIO(newline="")
                w = csv.writer(buf, dialect=dialect)
                w.writerow(["row", "d:v"])
                for i, v in enumerate(values):
                    w.writerow(["r%02d" % i, v])
                sep = "tab" if dialect == "excel-tab" else ","
                path = self.write("py.csv", buf.getvalue().encode())
                status, _, err = run("import", self.ws, "t", path, "--separator", sep, "--bytes", "raw", "--empty", "put",
                                     "--timestamp", "7")
                self.assertEqual(status, 0, err)
                lines = read_csv(self.export("t", "--layout", "wide", "--bytes", "raw"))
                self.assertEqual(lines[0], ["row", "d:v"])
                self.assertEqual([l[1] for l in lines[1:]], values)

    # --- import: ImportTsv style, key schemas -----------------------------------

    def test_importtsv_style_columns_and_timestamps(self):
        create(self.ws, "t")
        path = self.write("in.tsv", b"r1\tAlice\t1700\tx\nr2\tBob\t1800\t\n")
        status, _, err = run("import", self.ws, "t", path, "--separator", "tab",
                             "--columns", "HBASE_ROW_KEY,d:name,HBASE_TS_KEY,e")
        self.assertEqual(status, 0, err)
        self.assertIn("in.tsv: 2 records, 2 imported (3 cells) into 't'", err)
        self.assertEqual(read_csv(self.export("t"))[1:], [
            ["r1", "d", "name", "1700", "Put", "Alice"],
            ["r1", "e", "", "1700", "Put", "x"],
            ["r2", "d", "name", "1800", "Put", "Bob"],
        ])

    def test_key_schema_builds_keys_and_decode_key_splits_them(self):
        schema = "user:utf8 | ts:i64 desc"
        create(self.ws, "t")
        path = self.write("in.csv", b"user,when,d:v\nalice,5,x\nbob,-1,y\nalice,9,z\n")
        status, _, err = run("import", self.ws, "t", path, "--header", "skip", "--key-schema", schema,
                             "--columns", "row.user,row.ts,d:v")
        self.assertEqual(status, 0, err)
        out = self.export("t", "--layout", "wide", "--bytes", "hex", "--decode-key", "--key-schema", schema)
        lines = read_csv(out)
        self.assertEqual(lines[0], ["row", "row.user", "row.ts", "d:v"])
        # Rows sort by user, then newest ts first (desc); the key bytes are `key encode`'s.
        self.assertEqual([l[1:] for l in lines[1:]], [["alice", "9", "7a"], ["alice", "5", "78"], ["bob", "-1", "79"]])
        for line in lines[1:]:
            status, key, _ = run("key", "encode", schema, json.dumps([line[1], int(line[2])]))
            self.assertEqual(key.decode().strip(), line[0])
        # The decoded columns import back (the row column wins; row.NAME columns are noted).
        create(self.ws, "u")
        status, _, err = run("import", self.ws, "u", self.write("dec.csv", out), "--bytes", "hex")
        self.assertEqual(status, 0, err)
        self.assertIn("note: not read: row.user, row.ts (the row column gives the key)", err)
        self.assertEqual(self.export("u", "--layout", "wide", "--bytes", "hex", "--decode-key", "--key-schema", schema), out)

    # --- malformed input --------------------------------------------------------

    MALFORMED = (b"row,d:v,timestamp\r\n"
                 b"a,1,1\r\n"
                 b"b,\"unterminated,2\r\n"   # the quote never closes: runs to the end of the file...
                 b"c,3,3\r\n")

    BAD = (b"row,d:v,timestamp\n"
           b"a,1,1\n"
           b"b,2\n"                 # line 3: too few fields
           b"c,\"3\"x,3\n"          # line 4: data after a closing quote
           b"d,\"multi\nline\",4\n"  # lines 5-6: fine
           b"e,5,-5\n"              # line 7: negative timestamp
           b"f,6,6\n")

    def test_bad_lines_skip_imports_the_rest_and_names_each_line(self):
        create(self.ws, "t")
        status, _, err = run("import", self.ws, "t", self.write("bad.csv", self.BAD))
        self.assertEqual(status, 1, err)
        self.assertIn("bad.csv: line 3: expected 3 fields, got 2", err)
        self.assertIn("bad.csv: line 4, column 6: 'x' after the closing quote", err)
        self.assertIn("bad.csv: line 7, field 3 (timestamp): expected a timestamp", err)
        self.assertIn("bad.csv: 5 records, 3 imported (3 cells) into 't'; 3 bad lines (lines 3, 4, 7) skipped", err)
        self.assertEqual([l[0] + "=" + l[5] for l in read_csv(self.export("t"))[1:]], ["a=1", "d=multi\\x0Aline", "f=6"])

    def test_bad_lines_fail_leaves_the_table_exactly_as_before(self):
        create(self.ws, "t")
        fill(self.ws, "t")
        before = self.export("t", "--raw", "--bytes", "hex")
        for data, name in ((self.BAD, "bad.csv"), (self.MALFORMED, "malformed.csv")):
            with self.subTest(file=name):
                status, _, err = run("import", self.ws, "t", self.write(name, data), "--bad-lines", "fail", "--batch", "1")
                self.assertEqual(status, 2, err)
                self.assertIn("nothing was imported", err)
                self.assertEqual(self.export("t", "--raw", "--bytes", "hex"), before)
        self.assertIn("malformed.csv: line 3, column 3: quoted field never closed", err)
        # The same through standard input (spooled to a temporary file for the two passes).
        status, _, err = run("import", self.ws, "t", "-", "--bad-lines", "fail", stdin=self.BAD)
        self.assertEqual(status, 2, err)
        self.assertIn("<stdin>: line 3: expected 3 fields, got 2", err)
        self.assertEqual(self.export("t", "--raw", "--bytes", "hex"), before)

    def test_bad_lines_fail_imports_a_clean_file_from_stdin(self):
        create(self.ws, "t")
        status, _, err = run("import", self.ws, "t", "-", "--bad-lines", "fail", stdin=b"row,d:v\nx,1\ny,2\n")
        self.assertEqual(status, 0, err)
        self.assertEqual(len(read_csv(self.export("t"))), 3)

    # --- usage, progress, output files ------------------------------------------

    def test_usage_errors_are_one_line_and_exit_2(self):
        create(self.ws, "t")
        path = self.write("in.csv", b"row,d:v\nr,1\n")
        cases = [
            (["import", self.ws, "t", path, "--bogus", "1"], "unknown option '--bogus'"),
            (["import", self.ws, "nope", path], "table 'nope' does not exist"),
            (["import", self.ws, "t", self.path("missing.csv")], "cannot open"),
            (["import", self.ws, "t", self.write("h.csv", b"row,x:v\n")], "column 2 'x:v': table 't' has no column family 'x'"),
            (["import", self.path("none.ksw"), "t", path], "none.ksw"),
            (["export", self.ws, "t", "--layout", "wide", "--raw"], "the wide layout holds the latest value"),
            (["export", self.ws, "t", "--decode-key"], "decoding keys needs a key schema"),
            (["export", self.ws, "t", "--filter", "Nope()"], "--filter:"),
        ]
        for args, message in cases:
            with self.subTest(args=args[:1] + args[3:]):
                status, out, err = run(*args)
                self.assertEqual(status, 2, err)
                self.assertIn(message, err)
                self.assertEqual(out, b"")
        self.assertFalse(os.path.exists(self.path("none.ksw")))  # import never creates a workspace

    def test_export_to_a_file_is_complete_or_absent(self):
        create(self.ws, "t")
        fill(self.ws, "t")
        target = self.path("out.csv")
        status, out, err = run("export", self.ws, "t", "--out", target)
        self.assertEqual(status, 0, err)
        self.assertEqual(out, b"")
        self.assertIn("to " + target, err)
        self.assertEqual(sorted(os.listdir(self.dir.name)), ["out.csv", "w.ksw"])
        status, _, _ = run("export", self.ws, "t", "--layout", "wide", "--versions", "2", "--out", self.path("no.csv"))
        self.assertEqual(status, 2)
        self.assertEqual(sorted(os.listdir(self.dir.name)), ["out.csv", "w.ksw"])

    def test_progress_on_request(self):
        create(self.ws, "t")
        data = "row,d:v\n" + "".join("r%07d,%d\n" % (i, i) for i in range(100000))
        status, _, err = run("import", self.ws, "t", self.write("big.csv", data.encode()), "--progress")
        self.assertEqual(status, 0, err)
        self.assertRegex(err, r"importing .*big\.csv: \d+% of 1\.4 MiB, [\d,]+ records")
        self.assertIn("big.csv: 100,000 records, 100,000 imported (100,000 cells) into 't'", err)
        status, _, err = run("import", self.ws, "t", self.path("big.csv"))
        self.assertNotIn("importing", err)  # stderr is no terminal here


if __name__ == "__main__":
    unittest.main()
