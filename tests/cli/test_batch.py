#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli batch` (docs/BATCH-API.md).

Real processes on real workspace files in a temporary directory. The binary
comes from the KEYSCOPE_CLI environment variable. Standard library only.
"""
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")


def batch(workspace, ops, *extra):
    """Runs one batch; returns (exit status, answers as dicts, stderr)."""
    text = "\n".join(op if isinstance(op, str) else json.dumps(op) for op in ops) + "\n"
    proc = subprocess.run([CLI, "batch", workspace, *extra], input=text, capture_output=True, text=True, timeout=120)
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, answers, proc.stderr


def table(name="t", **family):
    return {"op": "create_table", "table": name, "families": [dict({"name": "d"}, **family)]}


def values(answer):
    return [(c["row"], c["qualifier"], c["timestamp"], c["value"]) for row in answer["rows"] for c in row["cells"]]


class BatchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.ws = os.path.join(self.dir.name, "w.ksw")

    def tearDown(self):
        self.dir.cleanup()

    def test_answers_each_operation_in_order(self):
        status, answers, _ = batch(self.ws, [
            table(versions=3),
            {"op": "put", "table": "t", "row": "r1", "cells": [{"f": "d", "q": "a", "ts": 5, "v": "x"},
                                                               {"f": "d", "q": "a", "ts": 7, "v": "y"}]},
            {"op": "get", "table": "t", "row": "r1", "max_versions": "all"},
        ])
        self.assertEqual(status, 0)
        self.assertEqual(answers[0], {"ok": True})
        self.assertEqual(answers[1], {"ok": True})
        self.assertEqual(values(answers[2]), [("r1", "a", 7, "y"), ("r1", "a", 5, "x")])

    def test_data_persists_across_processes(self):
        batch(self.ws, [table(), {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "q", "ts": 1, "v": "v"}]}])
        _, answers, _ = batch(self.ws, [{"op": "get", "table": "t", "row": "r"}])
        self.assertEqual(values(answers[0]), [("r", "q", 1, "v")])

    def test_byte_forms_and_renderings(self):
        _, answers, _ = batch(self.ws, [
            table(),
            {"op": "put", "table": "t", "row": {"hex": "00ff"}, "cells": [{"f": "d", "q": {"int": 1}, "ts": 2, "v": {"long": -1}}]},
            {"op": "scan", "table": "t"},
        ])
        self.assertEqual(values(answers[2]), [("\\x00\\xFF", "\\x00\\x00\\x00\\x01", 2, "\\xFF" * 8)])
        _, answers, _ = batch(self.ws, [{"op": "scan", "table": "t"}], "--bytes", "hex")
        self.assertEqual(values(answers[0]), [("00ff", "00000001", 2, "ff" * 8)])

    def test_a_failed_operation_is_reported_and_the_batch_goes_on(self):
        status, answers, _ = batch(self.ws, [
            table(),
            "this is not json",
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "nope", "v": "x"}]},
            {"op": "put", "table": "missing", "row": "r", "cells": [{"f": "d", "v": "x"}]},
            {"op": "get", "table": "t", "row": "r", "time_range": [10, 5]},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "q", "ts": -1, "v": "x"}]},
            {"op": "frobnicate"},
            {"op": "count", "table": "t"},
        ])
        self.assertEqual(status, 1)
        self.assertEqual(len(answers), 8)
        self.assertIn("line 2", answers[1]["error"])
        self.assertIn("no column family 'nope'", answers[2]["error"])
        self.assertIn("'missing' does not exist", answers[3]["error"])
        self.assertIn("max is less than min", answers[4]["error"])
        self.assertIn("'ts'", answers[5]["error"])
        self.assertIn("unknown op", answers[6]["error"])
        self.assertEqual(answers[7], {"rows": 0})  # nothing of the failed puts was applied

    def test_unknown_fields_are_refused_not_ignored(self):
        # A misspelt field used to be ignored: the put stored an empty value,
        # the get returned one version. Each is now an error naming the field
        # and what the operation knows, and nothing of the operation is done.
        status, answers, _ = batch(self.ws, [
            table(versions=3),
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "a", "ts": 1, "value": "x"}]},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "a", "ts": 1, "v": "x"},
                                                              {"f": "d", "q": "a", "ts": 2, "v": "y"}]},
            {"op": "get", "table": "t", "row": "r", "max_version": 3},
            {"op": "scan", "table": "t", "stop": "z"},
            {"op": "get", "table": "t", "row": "r", "columns": [{"f": "d", "qualifier": "a"}]},
            {"op": "delete", "table": "t", "row": "r", "specs": [{"type": "column_all", "f": "d", "qualifier": "a"}]},
            {"op": "increment", "table": "t", "row": "n", "columns": [{"f": "d", "q": "c", "amount": 2}]},
            {"op": "mutate", "table": "t", "mutations": [{"op": "put", "row": "m", "durability": "SKIP_WAL",
                                                          "cells": [{"f": "d", "q": "a", "v": "x"}]}]},
            {"op": "mutate", "table": "t", "mutations": [{"op": "put", "table": "other", "row": "m",
                                                          "cells": [{"f": "d", "q": "a", "v": "x"}]}]},
            {"op": "check_and_mutate", "table": "t", "row": "r", "family": "d", "f": "d", "q": "a", "value": "y",
             "mutations": [{"op": "delete", "specs": [{"type": "column_all", "f": "d", "q": "a"}]}]},
            {"op": "list", "verbose": True},
            {"op": "create_table", "table": "u", "famlies": ["d"]},
            {"op": "get", "table": "t", "row": "r", "max_versions": 3},
            {"op": "count", "table": "t"},
        ])
        self.assertEqual(status, 1)
        self.assertEqual(answers[1]["error"], "line 2: 'cells[0].value': unknown field (known: f, q, ts, v)")
        self.assertEqual(answers[2], {"ok": True})
        self.assertTrue(answers[3]["error"].startswith(
            "line 4: 'max_version': unknown field; did you mean 'max_versions'? (known: op, table, row, report, columns,"),
            answers[3]["error"])
        self.assertIn("'stop': unknown field (known:", answers[4]["error"])  # no guess: "op" is two edits away
        self.assertIn("stop_row", answers[4]["error"])
        self.assertIn("'columns.qualifier': unknown field (known: f, q)", answers[5]["error"])
        self.assertIn("'specs[0].qualifier': unknown field (known: type, f, q, ts)", answers[6]["error"])
        self.assertIn("'columns[0].amount': unknown field (known: f, q, delta)", answers[7]["error"])
        self.assertIn("'mutations.durability': unknown field (known: op, table, row, cells)", answers[8]["error"])
        self.assertIn("'mutations[0].table': \"other\" is not this operation's table 't'", answers[9]["error"])
        self.assertIn("'family': unknown field (known:", answers[10]["error"])
        self.assertIn("'verbose': unknown field (known: op)", answers[11]["error"])
        self.assertIn("'famlies': unknown field; did you mean 'families'?", answers[12]["error"])
        # Only the well-formed put was applied: both versions, nothing deleted, no other row.
        self.assertEqual(values(answers[13]), [("r", "a", 2, "y"), ("r", "a", 1, "x")])
        self.assertEqual(answers[14], {"rows": 1})

    def test_a_described_table_alters_back_unchanged(self):
        # describe's answer uses exactly the fields create_table and
        # alter_table take, so it can be edited and sent back.
        _, answers, _ = batch(self.ws, [
            table(versions=4, compression="ZSTD"),
            {"op": "describe", "table": "t"},
        ])
        definition = dict(answers[1]["table"], op="alter_table")
        definition["description"] = "altered"
        status, answers, _ = batch(self.ws, [definition, {"op": "describe", "table": "t"}])
        self.assertEqual(status, 0, answers)
        self.assertEqual(answers[0], {"ok": True})
        self.assertEqual(answers[1]["table"]["description"], "altered")
        self.assertEqual(answers[1]["table"]["families"][0]["versions"], 4)

    def test_limits_are_errors_that_name_the_limit_and_the_size(self):
        long_row = "r" * 32768
        long_q = "q" * 65536
        status, answers, _ = batch(self.ws, [
            table(),
            {"op": "put", "table": "t", "row": long_row, "cells": [{"f": "d", "q": "q", "v": "x"}]},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": long_q, "v": "x"}]},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "q", "v": "v" * (10 * 1024 * 1024 + 1)}]},
            {"op": "increment", "table": "t", "row": "c", "columns": [{"f": "d", "q": long_q, "delta": 1}]},
            {"op": "check_and_mutate", "table": "t", "row": "r", "f": "d", "q": "q", "compare": "EQUAL", "value": "a",
             "mutations": [{"op": "put", "cells": [{"f": "d", "q": long_q, "v": "1"}]}]},
            {"op": "delete", "table": "t", "row": "r", "specs": [{"type": "column_all", "f": "d", "q": long_q}]},
            {"op": "count", "table": "t"},
        ])
        self.assertEqual(status, 1)
        self.assertEqual(answers[1]["error"], "line 2: row key of 32768 bytes is longer than the limit of 32767")
        self.assertEqual(answers[2]["error"], "line 3: qualifier of 65536 bytes is longer than the limit of 65535")
        self.assertEqual(answers[3]["error"], "line 4: value of 10485761 bytes is larger than the limit of 10485760")
        self.assertEqual(answers[4]["error"], "line 5: qualifier of 65536 bytes is longer than the limit of 65535")
        self.assertEqual(answers[5]["error"], "line 6: qualifier of 65536 bytes is longer than the limit of 65535")
        self.assertEqual(answers[6]["error"], "line 7: qualifier of 65536 bytes is longer than the limit of 65535")
        self.assertEqual(answers[7], {"rows": 0})

    def test_a_put_of_many_cells_is_atomic(self):
        _, answers, _ = batch(self.ws, [
            table(),
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "a", "v": "1"}, {"f": "x", "q": "b", "v": "2"}]},
            {"op": "get", "table": "t", "row": "r"},
        ])
        self.assertIn("error", answers[1])
        self.assertEqual(answers[2], {"rows": []})

    def test_increment_and_check_and_mutate(self):
        _, answers, _ = batch(self.ws, [
            table(),
            {"op": "increment", "table": "t", "row": "c", "columns": [{"f": "d", "q": "n", "delta": 5}]},
            {"op": "increment", "table": "t", "row": "c", "columns": [{"f": "d", "q": "n", "delta": -7}]},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "s", "v": "short"}]},
            {"op": "increment", "table": "t", "row": "r", "columns": [{"f": "d", "q": "s"}]},
            # The supplied value is the left operand: "a" < "b" passes.
            {"op": "put", "table": "t", "row": "k", "cells": [{"f": "d", "q": "q", "v": "b"}]},
            {"op": "check_and_mutate", "table": "t", "row": "k", "f": "d", "q": "q", "compare": "LESS", "value": "a",
             "mutations": [{"op": "put", "cells": [{"f": "d", "q": "hit", "v": "1"}]}]},
            {"op": "check_and_mutate", "table": "t", "row": "k", "f": "d", "q": "q", "compare": "GREATER", "value": "a",
             "mutations": [{"op": "put", "cells": [{"f": "d", "q": "hit", "v": "2"}]}]},
            {"op": "get", "table": "t", "row": "k", "columns": ["d:hit"]},
        ])
        self.assertEqual(answers[1]["value"], 5)
        self.assertEqual(answers[2]["value"], -2)
        self.assertIn("not a long", answers[4]["error"])
        self.assertEqual(answers[6], {"result": True})
        self.assertEqual(answers[7], {"result": False})
        self.assertEqual([v for (_, _, _, v) in values(answers[8])], ["1"])

    def test_scan_options_filters_and_report(self):
        ops = [table()]
        for row in ["a1", "a2", "b1", "b2", "c1"]:
            ops.append({"op": "put", "table": "t", "row": row, "cells": [{"f": "d", "q": "q", "ts": 1, "v": row}]})
        ops += [
            {"op": "flush", "table": "t"},
            {"op": "scan", "table": "t", "prefix": "b"},
            {"op": "scan", "table": "t", "reversed": True, "start_row": "b2", "stop_row": "a1"},
            {"op": "scan", "table": "t", "filter": "PrefixFilter ('c')"},
            {"op": "scan", "table": "t", "filter": {"type": "PrefixFilter", "prefix": "a"}, "limit": 1},
            {"op": "get", "table": "t", "row": "zz", "report": True},
            {"op": "scan", "table": "t", "filter": "PrefixFilter ('c'"},
        ]
        status, answers, _ = batch(self.ws, ops)
        rows = lambda a: [r["row"] for r in a["rows"]]
        self.assertEqual(rows(answers[7]), ["b1", "b2"])
        self.assertEqual(rows(answers[8]), ["b2", "b1", "a2"])  # reversed: start is the high end, stop excluded
        self.assertEqual(rows(answers[9]), ["c1"])
        self.assertEqual(rows(answers[10]), ["a1"])
        report = answers[11]["report"]
        self.assertEqual(answers[11]["rows"], [])
        self.assertEqual(report["store_files_considered"], 1)
        self.assertEqual(report["store_files_skipped_by_key_range"] + report["store_files_skipped_by_bloom"], 1)
        self.assertIn("filter", answers[12]["error"])
        self.assertEqual(status, 1)

    def test_set_clock_makes_ttl_reproducible(self):
        _, answers, _ = batch(self.ws, [
            table(ttl=10),
            {"op": "set_clock", "now": 100000},
            {"op": "put", "table": "t", "row": "r", "cells": [{"f": "d", "q": "q", "v": "v"}]},
            {"op": "get", "table": "t", "row": "r"},
            {"op": "get", "table": "t", "row": "r", "now": 110001},
            {"op": "set_clock", "now": 110001},
            {"op": "get", "table": "t", "row": "r"},
        ])
        self.assertEqual(values(answers[3]), [("r", "q", 100000, "v")])
        self.assertEqual(answers[4], {"rows": []})  # a what-if read past the TTL
        self.assertEqual(answers[6], {"rows": []})

    def test_split_merge_and_region_history(self):
        ops = [{"op": "set_clock", "now": 1000}, table()]
        for row in "abcdefgh":
            ops.append({"op": "put", "table": "t", "row": row, "cells": [{"f": "d", "q": "q", "ts": 1, "v": row}]})
        ops += [
            {"op": "split", "table": "t", "row": "e"},
            {"op": "regions", "table": "t"},
        ]
        status, answers, _ = batch(self.ws, ops)
        self.assertEqual(status, 0)
        low, high = answers[-2]["daughters"]
        regions = answers[-1]["regions"]
        self.assertEqual([(r["id"], r["start_row"], r["end_row"]) for r in regions], [(low, "", "e"), (high, "e", "")])
        self.assertEqual(list(regions[0]), ["id", "start_row", "end_row", "server", "created", "memstore_bytes",
                                            "store_files", "stored_bytes", "raw_bytes", "cells", "reads", "writes"])
        self.assertEqual(regions[0]["created"], 1000)
        self.assertEqual(regions[0]["cells"] + regions[1]["cells"], 8)  # a split flushes its region first
        status, answers, _ = batch(self.ws, [
            {"op": "get", "table": "t", "row": "f"},
            {"op": "put", "table": "t", "row": "f", "cells": [{"f": "d", "q": "q", "ts": 2, "v": "f2"}]},
            {"op": "regions", "table": "t"},
            {"op": "split", "region": high},                       # at its mid key
            {"op": "merge_regions", "first": low, "second": high},  # high is gone now
            {"op": "regions", "table": "t"},
        ])
        self.assertEqual(status, 1)
        self.assertEqual([(r["reads"], r["writes"]) for r in answers[2]["regions"]], [(0, 0), (1, 1)])
        self.assertEqual(len(answers[3]["daughters"]), 2)
        self.assertIn(f"region {high} does not exist", answers[4]["error"])
        middle = answers[5]["regions"][1]["id"]
        _, answers, _ = batch(self.ws, [
            {"op": "merge_regions", "first": middle, "second": low},
            {"op": "regions", "table": "t"},
            {"op": "region_history", "table": "t"},
            {"op": "count", "table": "t"},
        ])
        merged = answers[0]["region"]
        self.assertEqual([(r["id"], r["start_row"]) for r in answers[1]["regions"]][0], (merged, ""))
        history = answers[2]["history"]
        self.assertEqual(list(history[0]), ["id", "start_row", "end_row", "created", "retired", "parents", "origin",
                                            "split_row"])
        by_id = {h["id"]: h for h in history}
        self.assertEqual(len(by_id), 6)  # the first region, its two daughters, high's two, one merge
        self.assertEqual((by_id[low]["origin"], by_id[low]["split_row"], by_id[low]["retired"] is None),
                         ("manual split", "e", False))
        self.assertEqual((by_id[merged]["origin"], sorted(by_id[merged]["parents"]), by_id[merged]["retired"]),
                         ("merge", sorted([low, middle]), None))
        self.assertEqual(answers[3], {"rows": 8})

    def test_split_and_merge_errors(self):
        status, answers, _ = batch(self.ws, [
            table(),
            {"op": "split", "table": "t"},
            {"op": "put", "table": "t", "row": "a", "cells": [{"f": "d", "q": "q", "v": "x"}]},
            {"op": "put", "table": "t", "row": "b", "cells": [{"f": "d", "q": "q", "v": "x"}]},
            {"op": "split", "table": "t", "row": "b"},
            {"op": "split", "table": "t", "row": "b"},
            {"op": "split", "table": "t", "region": 1},
            {"op": "split"},
            {"op": "split", "region": 99999},
            {"op": "merge_regions", "first": 1},
            {"op": "merge_regions", "first": "one", "second": 2},
            {"op": "split", "table": "nope"},
        ])
        self.assertEqual(status, 1)
        self.assertIn("can split: each is empty or holds a single row", answers[1]["error"])
        self.assertEqual(len(answers[4]["daughters"]), 2)
        self.assertIn("it is the region's start", answers[5]["error"])
        self.assertIn("'table' or 'region'", answers[6]["error"])
        self.assertIn("'table' or 'region'", answers[7]["error"])
        self.assertIn("region 99999 does not exist", answers[8]["error"])
        self.assertIn("'second': missing", answers[9]["error"])
        self.assertIn("'first': expected an integer", answers[10]["error"])
        self.assertIn("'nope' does not exist", answers[11]["error"])

    def test_balance_switch_balance_and_servers(self):
        ops = [{"op": "balance_switch", "enabled": False}, table()]
        for row in "abcdefgh":
            ops.append({"op": "put", "table": "t", "row": row, "cells": [{"f": "d", "q": "q", "ts": 1, "v": "v"}]})
        ops += [
            {"op": "split", "table": "t"},
            {"op": "split", "table": "t"},
            {"op": "balance"},
            {"op": "servers"},
            {"op": "balance_switch", "enabled": True},
            {"op": "balance"},
            {"op": "servers"},
            {"op": "set_servers", "count": 2},
            {"op": "servers"},
            {"op": "set_servers", "count": 0},
            {"op": "balance_switch"},
        ]
        status, answers, _ = batch(self.ws, ops)
        self.assertEqual(status, 1)
        self.assertEqual(answers[0], {"previous": True})
        self.assertEqual(answers[12], {"result": False, "moved": 0})
        self.assertEqual(sorted(s["regions"] for s in answers[13]["servers"]), [0, 0, 0, 4])
        self.assertEqual(list(answers[13]["servers"][0]), ["server", "regions", "reads", "writes"])
        self.assertEqual(sum(s["writes"] for s in answers[13]["servers"]), 8)
        self.assertEqual(answers[14], {"previous": False})
        self.assertEqual(answers[15], {"result": True, "moved": 3})
        self.assertEqual([(s["server"], s["regions"]) for s in answers[16]["servers"]], [(0, 1), (1, 1), (2, 1), (3, 1)])
        self.assertEqual(answers[17], {"ok": True})
        self.assertEqual([(s["server"], s["regions"]) for s in answers[18]["servers"]], [(0, 2), (1, 2)])
        self.assertIn("'count': 0 is out of range [1, 1000]", answers[19]["error"])
        self.assertIn("'enabled': expected true or false", answers[20]["error"])

    def test_table_options_max_filesize_and_split_policy(self):
        status, answers, _ = batch(self.ws, [
            dict(table(), max_filesize=1048576, split_policy="constant"),
            {"op": "describe", "table": "t"},
            dict(table("u"), split_policy="org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy"),
            {"op": "describe", "table": "u"},
            dict(table("v"), max_filesize=1000),
            dict(table("w"), split_policy="BusyRegionSplitPolicy"),
            dict(table("x"), split_policy=7),
        ])
        self.assertEqual(status, 1)
        described = answers[1]["table"]
        self.assertEqual((described["max_filesize"], described["split_policy"]), (1048576, "ConstantSizeRegionSplitPolicy"))
        described = answers[3]["table"]
        self.assertEqual((described["max_filesize"], described["split_policy"]), (67108864, "SteppingSplitPolicy"))
        self.assertIn("'max_filesize': 1000 is out of range", answers[4]["error"])
        self.assertIn("'split_policy': expected an HBase split policy class", answers[5]["error"])
        self.assertIn("'split_policy': expected an HBase split policy class", answers[6]["error"])

    def test_regions_render_rows_as_hex_too(self):
        batch(self.ws, [dict(table(), splits=[{"hex": "00ff"}])])
        _, answers, _ = batch(self.ws, [{"op": "regions", "table": "t"}, {"op": "region_history", "table": "t"}],
                              "--bytes", "hex")
        self.assertEqual([(r["start_row"], r["end_row"]) for r in answers[0]["regions"]], [("", "00ff"), ("00ff", "")])
        self.assertEqual([(h["start_row"], h["origin"], h["split_row"]) for h in answers[1]["history"]],
                         [("", "pre-split", None), ("00ff", "pre-split", None)])

    def test_answers_stream_before_input_ends(self):
        proc = subprocess.Popen([CLI, "batch", self.ws], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            proc.stdin.write(json.dumps(table()) + "\n")
            proc.stdin.flush()
            self.assertEqual(json.loads(proc.stdout.readline()), {"ok": True})
        finally:
            proc.stdin.close()
            proc.wait(timeout=60)
            proc.stdout.close()

    def test_a_workspace_has_one_writer_process_at_a_time(self):
        first = subprocess.Popen([CLI, "batch", self.ws], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            first.stdin.write(json.dumps(table()) + "\n")
            first.stdin.flush()
            self.assertEqual(json.loads(first.stdout.readline()), {"ok": True})
            status, _, err = batch(self.ws, [{"op": "list"}])
            self.assertEqual(status, 2)
            self.assertIn("open in another Keyscope process", err)
        finally:
            first.stdin.close()
            first.wait(timeout=60)
            first.stdout.close()
        status, answers, _ = batch(self.ws, [{"op": "list"}])
        self.assertEqual((status, answers), (0, [{"tables": ["t"]}]))

    def test_refuses_files_that_are_not_workspaces(self):
        text = os.path.join(self.dir.name, "notes.txt")
        with open(text, "w") as f:
            f.write("hello, this is not a database\n" * 10)
        status, answers, err = batch(text, [{"op": "list"}])
        self.assertEqual(status, 2)
        self.assertIn("not a Keyscope workspace", err)
        other = os.path.join(self.dir.name, "other.db")
        with sqlite3.connect(other) as db:
            db.execute("CREATE TABLE x(a)")
        status, _, err = batch(other, [{"op": "list"}])
        self.assertEqual(status, 2)
        self.assertIn("not a Keyscope workspace", err)
        with open(text, "rb") as f:
            self.assertTrue(f.read().startswith(b"hello"))  # untouched

    def test_refuses_a_newer_format(self):
        batch(self.ws, [table()])
        with sqlite3.connect(self.ws) as db:
            db.execute("PRAGMA user_version = 99")
        status, _, err = batch(self.ws, [{"op": "list"}])
        self.assertEqual(status, 2)
        self.assertIn("newer", err)


if __name__ == "__main__":
    unittest.main()
