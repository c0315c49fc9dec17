#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli shell` (docs/SHELL.md).

Real processes on real workspace files in a temporary directory: scripts run
through `--format jsonl` and compared as JSON, the HBase-style text output,
the -e / script / standard-input / terminal modes and exit codes. The binary
comes from the KEYSCOPE_CLI environment variable. Standard library only.
"""
import json
import os
import pty
import select
import subprocess
import tempfile
import time
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")


def shell(workspace, *args, stdin=None, env=None):
    """Runs `keyscope-cli shell WORKSPACE args...`; returns (exit status, stdout, stderr)."""
    proc = subprocess.run([CLI, "shell", workspace, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def jsonl(workspace, script, *args):
    """Runs a script from standard input in jsonl; returns (exit status, answers as dicts)."""
    status, out, err = shell(workspace, "--format", "jsonl", *args, stdin=script)
    return status, [json.loads(line) for line in out.splitlines()], err


def cell(row, qualifier, ts, value, family="d", kind="Put"):
    return {"row": row, "family": family, "qualifier": qualifier, "timestamp": ts, "type": kind, "value": value}


class ShellTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.ws = os.path.join(self.dir.name, "w.ksw")

    def tearDown(self):
        self.dir.cleanup()

    def script(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    # --- jsonl, exactly as DESIGN.md "Machine-readable output" specifies --------------

    def test_a_script_in_jsonl(self):
        path = self.script("session.hbase", """\
# A session: one JSON object per command.
create 'metrics', {NAME => 'd', VERSIONS => 3, COMPRESSION => 'ZSTD'}, SPLITS => ['m']
put 'metrics', 'cpu|host1', 'd:load', '0.5', 1000
put 'metrics', 'cpu|host1', 'd:load', '0.7', 2000
put 'metrics', "mem|\\x00host2", 'd:used', Bytes.toBytes(1024), 1500
scan 'metrics', {VERSIONS => 3}
get 'metrics', 'cpu|host1', {COLUMN => 'd:load', TIMERANGE => [0, 1500]}
scan 'metrics', {ROWPREFIXFILTER => 'mem', COLUMNS => ['d:used:toLong']}
count 'metrics'
incr 'metrics', 'counter', 'd:hits', 5
get_counter 'metrics', 'counter', 'd:hits'
list
exists 'metrics'
""")
        status, out, err = shell(self.ws, path, "--format", "jsonl")
        self.assertEqual((status, err), (0, ""))
        answers = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(answers, [
            {"cmd": "create", "ok": True},
            {"cmd": "put", "ok": True},
            {"cmd": "put", "ok": True},
            {"cmd": "put", "ok": True},
            {"cmd": "scan", "cells": [
                cell("cpu|host1", "load", 2000, "0.7"),
                cell("cpu|host1", "load", 1000, "0.5"),
                cell("mem|\\x00host2", "used", 1500, "\\x00\\x00\\x00\\x00\\x00\\x00\\x04\\x00"),
            ]},
            {"cmd": "get", "cells": [cell("cpu|host1", "load", 1000, "0.5")]},
            {"cmd": "scan", "cells": [cell("mem|\\x00host2", "used", 1500, "1024")]},
            {"cmd": "count", "rows": 2},
            {"cmd": "incr", "value": 5},
            {"cmd": "get_counter", "value": 5},
            {"cmd": "list", "tables": ["metrics"]},
            {"cmd": "exists", "result": True},
        ])

    def test_a_failed_command_is_reported_and_the_shell_goes_on(self):
        status, answers, err = jsonl(self.ws, """\
create 't', 'd'
put 't', 'r', 'nofamily:q', 'v'
scan 'missing'
create 'u', {NAME => 'f', VERSIONS 3}
frobnicate 't'
put 't', 'r', 'd:q', 'v', 7
scan 't'
""")
        self.assertEqual(status, 1)
        self.assertEqual(err, "")
        self.assertEqual(len(answers), 7)
        self.assertEqual(answers[0], {"cmd": "create", "ok": True})
        self.assertEqual(set(answers[1]), {"cmd", "error"})
        self.assertTrue(answers[1]["error"].startswith("line 2: "), answers[1])
        self.assertIn("nofamily", answers[1]["error"])
        self.assertEqual(answers[2], {"cmd": "scan", "error": "line 3: table 'missing' does not exist"})
        self.assertEqual(answers[3], {"cmd": "create",
                                      "error": "line 4, column 36: expected '=>' after 'VERSIONS', got the number 3"})
        self.assertEqual(answers[4], {"cmd": "frobnicate",
                                      "error": "line 5, column 1: unknown command 'frobnicate' (help lists the commands)"})
        self.assertEqual(answers[5], {"cmd": "put", "ok": True})
        self.assertEqual(answers[6], {"cmd": "scan", "cells": [cell("r", "q", 7, "v")]})

    def test_a_failed_command_changes_nothing(self):
        status, answers, _ = jsonl(self.ws, """\
create 't', {NAME => 'd', VERSIONS => 3}
alter 't', {NAME => 'd', VERSIONS => 5}, {NAME => 'nope', METHOD => 'delete'}
put 't', 'r', 'd:q', 'v', {'BAD' => 1}
describe 't'
count 't'
""")
        self.assertEqual(status, 1)
        self.assertEqual(answers[1], {"cmd": "alter", "error": "line 2, column 42: alter: table 't' has no family 'nope'"})
        self.assertEqual(answers[2]["error"], "line 3, column 28: unknown put option 'BAD'; put takes no options")
        self.assertEqual(answers[3]["table"]["families"][0]["versions"], 3)
        self.assertEqual(answers[4], {"cmd": "count", "rows": 0})

    def test_commands_span_lines_share_lines_and_take_comments(self):
        status, answers, _ = jsonl(self.ws, """\
create 't',
  {NAME => 'd',   # a comment inside a command
   VERSIONS => 2}
put 't', 'a', 'd:q', 'x', 1; put 't', 'b', 'd:q', 'y', 2
scan 't', {
  STARTROW => 'b',
  LIMIT => 1
}
""")
        self.assertEqual(status, 0)
        self.assertEqual([a["cmd"] for a in answers], ["create", "put", "put", "scan"])
        self.assertEqual(answers[3]["cells"], [cell("b", "q", 2, "y")])

    def test_binary_bytes_render_as_to_string_binary(self):
        _, answers, _ = jsonl(self.ws, """\
create 't', 'd'
put 't', "\\x00\\xff", "d:q\\x01", "caf\\u00e9 \\"quoted\\" \\\\", 1
put 't', 'single\\x00', 'd', 'raw', 2
scan 't'
""")
        self.assertEqual(answers[3]["cells"], [
            cell("\\x00\\xFF", "q\\x01", 1, "caf\\xC3\\xA9 \"quoted\" \\x5C", family="d"),
            cell("single\\x5Cx00", "", 2, "raw"),
        ])

    # --- HBase's semantics through the shell ------------------------------------------

    def test_a_delete_masks_later_puts_until_a_major_compaction(self):
        _, answers, _ = jsonl(self.ws, """\
create 't', {NAME => 'd', VERSIONS => 3}
put 't', 'r', 'd:q', 'v1', 100
deleteall 't', 'r', 'd:q', 200
put 't', 'r', 'd:q', 'written after the delete', 150
get 't', 'r', {VERSIONS => 3}
scan 't', {RAW => true, VERSIONS => 5}
flush 't'
major_compact 't'
put 't', 'r', 'd:q', 'after the compaction', 150
get 't', 'r'
""")
        self.assertEqual(answers[4], {"cmd": "get", "cells": []})
        self.assertEqual(answers[5]["cells"], [
            cell("r", "q", 200, "", kind="DeleteColumn"),
            cell("r", "q", 150, "written after the delete"),
            cell("r", "q", 100, "v1"),
        ])
        self.assertEqual(answers[9]["cells"], [cell("r", "q", 150, "after the compaction")])

    def test_versions_are_counted_inside_the_time_range(self):
        _, answers, _ = jsonl(self.ws, """\
create 't', {NAME => 'd', VERSIONS => 3}
put 't', 'r', 'd:q', 'a', 10
put 't', 'r', 'd:q', 'b', 20
put 't', 'r', 'd:q', 'c', 30
put 't', 'r', 'd:q', 'd', 40
get 't', 'r', {COLUMN => 'd:q', VERSIONS => 3}
get 't', 'r', {COLUMN => 'd:q', VERSIONS => 2, TIMERANGE => [0, 35]}
get 't', 'r', {COLUMN => 'd:q', TIMESTAMP => 20}
""")
        self.assertEqual([c["value"] for c in answers[5]["cells"]], ["d", "c", "b"])
        self.assertEqual([c["value"] for c in answers[6]["cells"]], ["c", "b"])
        self.assertEqual([c["value"] for c in answers[7]["cells"]], ["b"])

    def test_delete_is_one_version_and_deleteall_every_version(self):
        _, answers, _ = jsonl(self.ws, """\
create 't', {NAME => 'd', VERSIONS => 3}
put 't', 'r', 'd:q', 'old', 1
put 't', 'r', 'd:q', 'new', 2
delete 't', 'r', 'd:q'
get 't', 'r', {VERSIONS => 3}
deleteall 't', 'r', 'd:q'
get 't', 'r', {VERSIONS => 3}
""")
        self.assertEqual(answers[4]["cells"], [cell("r", "q", 1, "old")])
        self.assertEqual(answers[6]["cells"], [])

    def test_ttl_with_set_clock(self):
        _, answers, _ = jsonl(self.ws, """\
set_clock 1000000
create 't', {NAME => 'd', TTL => 10}
put 't', 'r', 'd:q', 'v'
get 't', 'r'
set_clock 1010000
get 't', 'r'
set_clock 1010001
get 't', 'r'
""")
        self.assertEqual(answers[3]["cells"], [cell("r", "q", 1000000, "v")])
        self.assertEqual(len(answers[5]["cells"]), 1)  # ts == now - ttl is still live
        self.assertEqual(answers[7]["cells"], [])

    def test_describe_and_regions_answer_as_the_batch_api_does(self):
        status, _, err = shell(self.ws, "-e", "create 't', {NAME => 'd', VERSIONS => 3, TTL => 100, "
                               "KEEP_DELETED_CELLS => 'TTL', COMPRESSION => 'ZSTD', BLOOMFILTER => 'ROWCOL', "
                               "BLOCKSIZE => 4096}, 'e', SPLITS => ['k'], KEY_SCHEMA => 'k:bytes', DESCRIPTION => 'x'",
                               "-e", "put 't', 'a', 'd:q', 'v', 1")
        self.assertEqual((status, err), (0, ""))
        _, answers, _ = jsonl(self.ws, "describe 't'\nregions 't'\n")
        proc = subprocess.run([CLI, "batch", self.ws], capture_output=True, text=True, timeout=60,
                              input='{"op":"describe","table":"t"}\n{"op":"regions","table":"t"}\n')
        batch = [json.loads(line) for line in proc.stdout.splitlines()]
        self.assertEqual(answers[0]["table"], batch[0]["table"])
        self.assertEqual(answers[0]["table"]["families"][0]["keep_deleted_cells"], "TTL")
        self.assertEqual(answers[1]["regions"], batch[1]["regions"])
        self.assertEqual([(r["start_row"], r["end_row"]) for r in answers[1]["regions"]], [("", "k"), ("k", "")])

    # --- regions, splits and servers ----------------------------------------------------

    def test_split_and_merge_region_change_the_regions_and_keep_the_data(self):
        rows = "".join(f"put 't', '{r}', 'd:q', '{r}', 1\n" for r in "abcdefgh")
        status, answers, err = jsonl(self.ws, "set_clock 1000\ncreate 't', 'd'\n" + rows + "split 't', 'e'\nregions 't'\n")
        self.assertEqual((status, err), (0, ""))
        daughters = answers[-2]["daughters"]
        regions = answers[-1]["regions"]
        self.assertEqual([r["id"] for r in regions], daughters)
        self.assertEqual([(r["start_row"], r["end_row"]) for r in regions], [("", "e"), ("e", "")])
        self.assertEqual({r["created"] for r in regions}, {1000})
        # The next process finds the split in the workspace, and merges it back.
        status, answers, _ = jsonl(self.ws, f"merge_region '{daughters[1]}', '{daughters[0]}'\nregions 't'\n"
                                            "regions 't', {HISTORY => true}\ncount 't'\n")
        self.assertEqual(status, 0)
        merged = answers[0]["region"]
        self.assertEqual([(r["id"], r["start_row"], r["end_row"]) for r in answers[1]["regions"]], [(merged, "", "")])
        history = answers[2]["history"]
        self.assertEqual(sorted((h["origin"], h["parents"]) for h in history),
                         sorted([("create", []), ("manual split", [history[0]["id"]]),
                                 ("manual split", [history[0]["id"]]), ("merge", sorted(daughters))]))
        self.assertEqual(answers[3], {"cmd": "count", "rows": 8})

    def test_split_errors_name_the_line_and_column(self):
        status, out, err = shell(self.ws, stdin="create 't', 'd'\nput 't', 'a', 'd:q', 'v'\nput 't', 'b', 'd:q', 'v'\n"
                                                "split 't', 'b'\nsplit 't', 'b'\nsplit 'missing'\nmerge_region '1', '1'\n")
        self.assertEqual(status, 1)
        self.assertTrue(out.startswith("Created table t\nSplit into regions "), out)
        lines = err.splitlines()
        self.assertEqual(len(lines), 3, err)
        self.assertRegex(lines[0], r"^ERROR: line 5, column 12: cannot split region \d+ of table 't' at 'b': "
                                   r"it is the region's start, so a daughter would be empty$")
        self.assertEqual(lines[1], "ERROR: line 6, column 7: table 'missing' does not exist")
        self.assertEqual(lines[2], "ERROR: line 7, column 19: merge_region: cannot merge region 1 with itself")

    def test_the_balancer_evens_out_regions_over_the_servers(self):
        rows = "".join(f"put 't', '{r}', 'd:q', 'v', 1\n" for r in "abcdefgh")
        status, answers, err = jsonl(self.ws, "balance_switch false\ncreate 't', 'd'\n" + rows +
                                     "split 't'\nsplit 't'\nbalancer\nservers\n")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(answers[0], {"cmd": "balance_switch", "previous": True})
        self.assertEqual(answers[-2], {"cmd": "balancer", "result": False, "moved": 0})
        self.assertEqual(sorted(s["regions"] for s in answers[-1]["servers"]), [0, 0, 0, 4])
        self.assertEqual(sum(s["writes"] for s in answers[-1]["servers"]), 8)
        # The switch is kept in the workspace: a new process finds it off.
        status, answers, _ = jsonl(self.ws, "balancer_enabled\nbalance_switch true\nbalancer\nservers\n"
                                            "set_servers 2\nservers\n")
        self.assertEqual(status, 0)
        self.assertEqual(answers[:3], [{"cmd": "balancer_enabled", "result": False},
                                       {"cmd": "balance_switch", "previous": False},
                                       {"cmd": "balancer", "result": True, "moved": 3}])
        self.assertEqual([s["regions"] for s in answers[3]["servers"]], [1, 1, 1, 1])
        self.assertEqual(answers[4], {"cmd": "set_servers", "ok": True})
        self.assertEqual([(s["server"], s["regions"]) for s in answers[5]["servers"]], [(0, 2), (1, 2)])

    def test_regions_and_servers_text(self):
        status, out, err = shell(self.ws, stdin="""\
set_clock 1000
create 't', 'd', SPLITS => ['m']
put 't', 'a', 'd:q', 'v', 1
put 't', 'x', 'd:q', 'v', 1
get 't', 'x'
set_servers 2
servers
balancer
balance_switch false
""")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, """\
Created table t
COLUMN  CELL
 d:q timestamp=1, value=v
1 row(s)
SERVER  REGIONS, READS, WRITES
 0 regions=1, reads=0, writes=1
 1 regions=1, reads=1, writes=1
2 row(s)
true
0 region(s) moved
Previous balancer state : true
""")
        status, out, _ = shell(self.ws, "-e", "regions 't'")
        lines = out.splitlines()
        self.assertEqual(lines[0], "REGION  START_ROW, END_ROW, SERVER, CREATED, STORE_FILES, CELLS, MEMSTORE_BYTES, "
                                   "STORED_BYTES, RAW_BYTES, READS, WRITES")
        self.assertRegex(lines[1], r"^ \d+ start_row=, end_row=m, server=0, created=1000, store_files=0, cells=0, "
                                   r"memstore_bytes=\d+, stored_bytes=0, raw_bytes=0, reads=0, writes=1$")
        self.assertRegex(lines[2], r"^ \d+ start_row=m, end_row=, server=1, created=1000, store_files=0, cells=0, "
                                   r"memstore_bytes=\d+, stored_bytes=0, raw_bytes=0, reads=1, writes=1$")
        self.assertEqual(lines[3:], ["2 row(s)"])

    def test_max_filesize_and_split_policy_in_create_alter_and_describe(self):
        status, answers, err = jsonl(self.ws, """\
create 't', 'd', MAX_FILESIZE => 1048576, SPLIT_POLICY => 'ConstantSizeRegionSplitPolicy'
describe 't'
alter 't', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'
alter 't', SPLIT_POLICY => 'org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy'
describe 't'
create 'u', 'd', SPLIT_POLICY => 'BusyRegionSplitPolicy'
""")
        self.assertEqual(status, 1)
        self.assertEqual((answers[1]["table"]["max_filesize"], answers[1]["table"]["split_policy"]),
                         (1048576, "ConstantSizeRegionSplitPolicy"))
        self.assertEqual((answers[4]["table"]["max_filesize"], answers[4]["table"]["split_policy"]),
                         (67108864, "DisabledRegionSplitPolicy"))
        self.assertTrue(answers[5]["error"].startswith("line 6, column 34: SPLIT_POLICY: expected "), answers[5])
        status, out, _ = shell(self.ws, "-e", "describe 't'")
        self.assertIn("t, {TABLE_ATTRIBUTES => {SPLIT_POLICY => 'DisabledRegionSplitPolicy'}}\n", out)

    # --- text output, like the HBase shell's ------------------------------------------

    def test_text_output_looks_like_the_hbase_shell(self):
        status, out, err = shell(self.ws, stdin="""\
create 't', {NAME => 'd', VERSIONS => 2}
put 't', 'r1', 'd:a', 'x', 5
put 't', 'r2', 'd:b', "\\x01\\x02", 6
scan 't'
get 't', 'r1'
count 't'
incr 't', 'r3', 'd:n', 3
describe 't'
""")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, """\
Created table t
ROW  COLUMN+CELL
 r1 column=d:a, timestamp=5, value=x
 r2 column=d:b, timestamp=6, value=\\x01\\x02
2 row(s)
COLUMN  CELL
 d:a timestamp=5, value=x
1 row(s)
2 row(s)
COUNTER VALUE = 3
Table t is ENABLED
t
COLUMN FAMILIES DESCRIPTION
{NAME => 'd', BLOOMFILTER => 'ROW', VERSIONS => '2', KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'NONE', \
TTL => 'FOREVER', MIN_VERSIONS => '0', BLOCKSIZE => '65536'}

1 row(s)
""")

    def test_text_errors_go_to_stderr_and_the_exit_status_is_1(self):
        status, out, err = shell(self.ws, "-e", "create 't', 'd'", "-e", "drop 't'", "-e", "disable 't'",
                                 "-e", "drop 't'", "-e", "list")
        self.assertEqual(status, 1)
        self.assertEqual(out, "Created table t\nTABLE\n0 row(s)\n")
        self.assertEqual(err, "ERROR: line 1: Table t is enabled. Disable it first.\n")

    # --- modes and exit codes -------------------------------------------------------

    def test_e_commands_run_in_order_and_exit_0(self):
        status, out, err = shell(self.ws, "-e", "create 't', 'd'; put 't', 'r', 'd:q', 'v', 1",
                                 "--format", "jsonl", "-e", "get 't', 'r'")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual([json.loads(line) for line in out.splitlines()], [
            {"cmd": "create", "ok": True}, {"cmd": "put", "ok": True},
            {"cmd": "get", "cells": [cell("r", "q", 1, "v")]}])

    def test_data_persists_across_processes(self):
        shell(self.ws, "-e", "create 't', 'd'", "-e", "put 't', 'r', 'd:q', 'v', 1")
        status, answers, _ = jsonl(self.ws, "get 't', 'r'\n")
        self.assertEqual((status, answers), (0, [{"cmd": "get", "cells": [cell("r", "q", 1, "v")]}]))

    def test_disabled_is_a_state_of_one_session(self):
        shell(self.ws, "-e", "create 't', 'd'", "-e", "disable 't'")
        status, answers, _ = jsonl(self.ws, "is_disabled 't'\ndrop 't'\n")
        self.assertEqual(status, 1)
        self.assertEqual(answers, [{"cmd": "is_disabled", "result": False},
                                   {"cmd": "drop", "error": "line 2: Table t is enabled. Disable it first."}])

    def test_script_and_dash_read_the_same_way(self):
        text = "create 't', 'd'\nput 't', 'r',\n  'd:q', 'v', 3\nscan 't'\n"
        path = self.script("s.hbase", text)
        first = shell(self.ws, path, "--format=jsonl")
        other = os.path.join(self.dir.name, "other.ksw")
        second = shell(other, "-", "--format", "jsonl", stdin=text)
        self.assertEqual(first, second)
        self.assertEqual(first[0], 0)
        self.assertEqual(json.loads(first[1].splitlines()[-1]), {"cmd": "scan", "cells": [cell("r", "q", 3, "v")]})

    def test_errors_name_the_script_line(self):
        path = self.script("bad.hbase", "create 't', 'd'\n\n# comment\nscan 't', {\n  LIMIT => 'ten'\n}\n")
        status, out, err = shell(self.ws, path)
        self.assertEqual(status, 1)
        self.assertEqual(err, "ERROR: line 5, column 12: LIMIT: expected an integer, got a string\n")

    def test_an_unterminated_string_is_reported_at_the_end(self):
        status, answers, _ = jsonl(self.ws, "list\nput 't', 'r', 'd:q', 'never closed\nlist\n")
        self.assertEqual(status, 1)
        self.assertEqual(answers, [
            {"cmd": "list", "tables": []},
            {"cmd": "put",
             "error": "line 2, column 22: unterminated string: the ' opened here is never closed"}])

    def test_exit_stops_reading(self):
        status, answers, _ = jsonl(self.ws, "list\nexit\nfrobnicate\n")
        self.assertEqual((status, answers), (0, [{"cmd": "list", "tables": []}, {"cmd": "exit", "ok": True}]))

    def test_usage_errors_exit_2(self):
        self.assertEqual(shell(self.ws, "--format", "xml")[0], 2)
        self.assertEqual(shell(self.ws, "-e")[0], 2)
        self.assertEqual(shell(self.ws, "--bogus")[0], 2)
        status, _, err = shell(self.ws, os.path.join(self.dir.name, "missing.hbase"))
        self.assertEqual(status, 2)
        self.assertIn("cannot read", err)
        self.assertEqual(shell(self.ws, self.script("s", "list\n"), "-e", "list")[0], 2)
        notes = self.script("notes.txt", "not a database\n" * 10)
        status, _, err = shell(notes, "-e", "list")
        self.assertEqual(status, 2)
        self.assertIn("not a Keyscope workspace", err)
        proc = subprocess.run([CLI, "shell"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("usage: keyscope-cli shell", proc.stderr)
        status, out, _ = shell(self.ws, "--help")
        self.assertEqual(status, 0)
        self.assertIn("usage: keyscope-cli shell", out)
        self.assertFalse(os.path.exists(self.ws))  # usage errors touch no workspace

    def test_answers_stream_before_input_ends(self):
        proc = subprocess.Popen([CLI, "shell", self.ws, "--format", "jsonl"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        try:
            proc.stdin.write("create 't',\n")
            proc.stdin.flush()
            proc.stdin.write("  'd'\n")
            proc.stdin.flush()
            self.assertEqual(json.loads(proc.stdout.readline()), {"cmd": "create", "ok": True})
        finally:
            proc.stdin.close()
            proc.wait(timeout=60)
            proc.stdout.close()

    def test_interactive_on_a_terminal(self):
        env = dict(os.environ, HOME=self.dir.name, TERM="dumb")
        pid, fd = pty.fork()
        if pid == 0:  # the child: the shell on a terminal
            os.execvpe(CLI, [CLI, "shell", self.ws], env)
        output = b""

        def read_until(marker, timeout=30):
            nonlocal output
            deadline = time.time() + timeout
            while marker not in output and time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        output += os.read(fd, 4096)
                    except OSError:
                        break
            return marker in output

        try:
            self.assertTrue(read_until(b"keyscope:001:0> "), output)
            os.write(fd, b"create 't',\n")
            self.assertTrue(read_until(b"keyscope:002:1* "), output)  # the command goes on
            os.write(fd, b"'d'\n")
            self.assertTrue(read_until(b"Created table t"), output)
            os.write(fd, b"list\n")
            self.assertTrue(read_until(b"1 row(s)"), output)
            os.write(fd, b"exit\n")
            _, status = os.waitpid(pid, 0)
            pid = 0
            self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        finally:
            if pid:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            os.close(fd)
        with open(os.path.join(self.dir.name, ".keyscope_history")) as f:
            history = f.read()
        self.assertIn("list", history)


if __name__ == "__main__":
    unittest.main()
