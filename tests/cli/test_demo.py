#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli demo` (the demo workspace, keyscope/demo.h).

Builds the demo into a temporary directory and checks, through
`keyscope-cli shell --format jsonl`: every table exists with its description
and 2-5 example commands, every example runs, the lesson each table shows
holds in its data, a second build prints the same scans, and the command
refuses to overwrite what it should not. The binary comes from the
KEYSCOPE_CLI environment variable; KEYSCOPE_DEMO_SECONDS bounds the build
time (30 s by default; sanitizer builds pass more). Standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")
BUILD_SECONDS = float(os.environ.get("KEYSCOPE_DEMO_SECONDS", "30"))

TABLES = ["events_monotonic", "events_salted", "geo_tiles", "page_counters", "profiles", "sensor_series",
          "sizes_compact", "sizes_verbose", "top_urls", "tsdb", "web_pages", "web_visits"]
EPOCH = 1709251200000          # keyscope::demo::kEpochMillis, 2024-03-01T00:00:00Z
END = EPOCH + 2 * 86400000     # kEndMillis
TIMESHIFT = 50000 * 31556952000
LATEST = 2**63 - 1


def run(*args, stdin=None):
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def build(path, *extra):
    return run("demo", path, *extra)


def jsonl(workspace, script):
    """Runs a shell script in jsonl; returns (exit status, answers, stderr)."""
    status, out, err = run("shell", workspace, "--format", "jsonl", stdin=script)
    return status, [json.loads(line) for line in out.splitlines()], err


def one(workspace, command):
    """The answer to one shell command, which must not fail."""
    status, answers, err = jsonl(workspace, command + "\n")
    assert len(answers) == 1, (command, answers, err)
    assert "error" not in answers[0], (command, answers[0])
    return answers[0]


def binary(text):
    """Bytes from Bytes.toStringBinary text (printable ASCII, \\xNN for the rest)."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text.startswith("\\x", i) and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 2:i + 4] or ""):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)


def rows_of(cells):
    """Row keys of a scan's cells, in order, each once."""
    rows = []
    for c in cells:
        if not rows or rows[-1] != c["row"]:
            rows.append(c["row"])
    return rows


class DemoWorkspaceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.ws = os.path.join(cls.dir.name, "demo.ksw")
        started = time.monotonic()
        cls.status, cls.out, cls.err = build(cls.ws)
        cls.seconds = time.monotonic() - started

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def copy(self, name):
        """A copy of the demo for tests that write (the class's stays as built)."""
        path = os.path.join(self.dir.name, name)
        shutil.copyfile(self.ws, path)
        return path

    # --- the build ------------------------------------------------------------------

    def test_the_build_succeeds_quickly_and_reports_progress_on_stderr(self):
        self.assertEqual((self.status, self.out), (0, ""), self.err)
        self.assertLess(self.seconds, BUILD_SECONDS)
        lines = self.err.splitlines()
        self.assertTrue(all(line.startswith("demo: ") for line in lines), lines)
        self.assertIn("events_monotonic, events_salted: 40,000 rows each", self.err)
        self.assertRegex(lines[-1], r"^demo: 12 tables, [0-9,]+ rows, [0-9,]+ cells in [0-9.]+ s: ")
        self.assertEqual([f for f in os.listdir(self.dir.name) if ".building-" in f], [])  # no temporary files left

    def test_every_table_has_a_description_and_two_to_five_example_commands(self):
        self.assertEqual(one(self.ws, "list")["tables"], TABLES)
        for table in TABLES:
            with self.subTest(table=table):
                described = one(self.ws, f"describe '{table}'")["table"]
                self.assertGreater(len(described["description"]), 80)
                self.assertTrue(2 <= len(described["examples"]) <= 5, described["examples"])
                self.assertNotEqual(described["key_schema"], "")
                self.assertTrue(all(f"'{table}'" in e or f'"{table}"' in e for e in described["examples"]))

    def test_every_example_command_runs_and_finds_something(self):
        ws = self.copy("examples.ksw")
        for table in TABLES:
            examples = one(ws, f"describe '{table}'")["table"]["examples"]
            status, answers, err = jsonl(ws, "\n".join(examples) + "\n")
            with self.subTest(table=table):
                self.assertEqual((status, err), (0, ""))
                self.assertEqual(len(answers), len(examples))
                for example, answer in zip(examples, answers):
                    self.assertNotIn("error", answer, example)
                    if answer["cmd"] in ("get", "scan"):
                        self.assertTrue(answer["cells"], example)
                    elif answer["cmd"] == "count":
                        self.assertGreater(answer["rows"], 0, example)
                    elif answer["cmd"] in ("incr", "get_counter"):
                        self.assertGreater(answer["value"], 0, example)
                    elif answer["cmd"] == "regions" and "history" in answer:
                        self.assertTrue(answer["history"], example)
                    elif answer["cmd"] == "regions":
                        self.assertGreater(sum(r["cells"] for r in answer["regions"]), 0, example)

    def test_the_batch_api_reads_and_writes_the_examples(self):
        ws = self.copy("batch.ksw")
        ops = "\n".join(json.dumps(op) for op in [
            {"op": "describe", "table": "top_urls"},
            {"op": "create_table", "table": "noted", "families": ["d"], "description": "mine",
             "examples": ["scan 'noted'", "count 'noted'"]},
            {"op": "describe", "table": "noted"},
            {"op": "create_table", "table": "bad", "families": ["d"], "examples": "scan 'bad'"},
        ]) + "\n"
        status, out, err = run("batch", ws, stdin=ops)
        answers = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(answers), 4, err)
        self.assertEqual(len(answers[0]["table"]["examples"]), 3)
        self.assertEqual(answers[1], {"ok": True})
        self.assertEqual(answers[2]["table"]["examples"], ["scan 'noted'", "count 'noted'"])
        self.assertEqual(answers[2]["table"]["description"], "mine")
        self.assertIn("examples", answers[3]["error"])

    # --- the lessons --------------------------------------------------------------------

    def test_the_timeshifted_metadata_is_inside_an_open_ended_time_range(self):
        since = END - 3600000
        cells = one(self.ws, f"get 'sensor_series', 'sensor-07', {{TIMERANGE => [{since}, LATEST_TIMESTAMP]}}")["cells"]
        metadata = [c for c in cells if c["family"] == "m"]
        self.assertEqual(sorted(c["qualifier"] for c in metadata), ["installed", "model", "site"])
        self.assertTrue(all(EPOCH + TIMESHIFT - 400 * 86400000 <= c["timestamp"] < EPOCH + TIMESHIFT for c in metadata))
        self.assertTrue(any(c["family"] == "r" and since <= c["timestamp"] < END for c in cells))
        # A bounded range of the same hour has the readings only: the metadata's
        # real install time lies long before it.
        bounded = one(self.ws, f"get 'sensor_series', 'sensor-07', {{TIMERANGE => [{since}, {END}]}}")["cells"]
        self.assertEqual({c["family"] for c in bounded}, {"r"})

    def test_time_ranges_and_bloom_filters_skip_store_files(self):
        ranged = one(self.ws, "get 'sensor_series', 'sensor-07', "
                              f"{{COLUMN => 'r:temp', TIMERANGE => [{EPOCH + 86400000}, LATEST_TIMESTAMP], ALL_METRICS => true}}")
        self.assertGreaterEqual(ranged["report"]["store_files_skipped_by_time_range"], 1)
        late = one(self.ws, "get 'sensor_series', 'sensor-09', {ALL_METRICS => true}")
        self.assertGreaterEqual(late["report"]["store_files_skipped_by_bloom"], 2)  # day 1's r and m files
        self.assertTrue(all(c["timestamp"] >= EPOCH + 36 * 3600000 for c in late["cells"] if c["family"] == "r"))

    def test_reverse_timestamps_put_a_cookies_newest_visit_first(self):
        cells = one(self.ws, "scan 'web_visits', {ROWPREFIXFILTER => 'c0000042', COLUMNS => ['v:url']}")["cells"]
        stamps = [c["timestamp"] for c in cells]
        self.assertEqual(len(stamps), 14)
        self.assertEqual(stamps, sorted(stamps, reverse=True))
        self.assertEqual(len(set(stamps)), len(stamps))
        first = one(self.ws, "scan 'web_visits', {ROWPREFIXFILTER => 'c0000042', LIMIT => 1}")["cells"]
        self.assertEqual({c["timestamp"] for c in first}, {max(stamps)})
        # The key's last 8 bytes are Long.MAX_VALUE - ts.
        key = binary(cells[0]["row"])
        self.assertEqual(key[:8], b"c0000042")
        self.assertEqual(LATEST - int.from_bytes(key[8:], "big"), cells[0]["timestamp"])

    def test_salted_keys_spread_over_the_regions_and_monotonic_ones_rise_into_the_last(self):
        monotonic = one(self.ws, "regions 'events_monotonic'")["regions"]
        salted = one(self.ws, "regions 'events_salted'")["regions"]
        # Every row went past the pre-split points into the last region, which
        # split at its end as it grew: the seven pre-split regions stay empty,
        # and each split's lower daughter took no write after its split.
        self.assertEqual([r["cells"] for r in monotonic[:7]], [0] * 7)
        self.assertEqual(sum(r["cells"] for r in monotonic), 80000)
        self.assertGreater(len(monotonic), 8)
        self.assertEqual([r["writes"] for r in monotonic[:-1]], [0] * (len(monotonic) - 1))
        self.assertGreater(monotonic[-1]["writes"], 0)
        history = one(self.ws, "regions 'events_monotonic', {HISTORY => true}")["history"]
        self.assertTrue(all(h["origin"] in ("pre-split", "size split") for h in history), history)
        self.assertEqual(len(salted), 8)
        self.assertEqual(sum(r["cells"] for r in salted), 80000)
        for r in salted:
            self.assertTrue(80000 / 8 * 0.7 < r["cells"] < 80000 / 8 * 1.3, salted)

        keys_m = [binary(r) for r in rows_of(one(self.ws, "scan 'events_monotonic', {COLUMNS => ['e:type']}")["cells"])]
        keys_s = [binary(r) for r in rows_of(one(self.ws, "scan 'events_salted', {COLUMNS => ['e:type']}")["cells"])]
        self.assertEqual((len(keys_m), len(keys_s)), (40000, 40000))
        # Monotonic: key order is the order of the import (event ids rise with the keys).
        events = [int.from_bytes(k[8:12], "big") for k in keys_m]
        self.assertEqual(events, list(range(40000)))
        # Salted: the first byte is the bucket, all eight used; behind it the same keys.
        self.assertEqual(sorted({k[0] for k in keys_s}), list(range(8)))
        self.assertEqual(sorted(k[1:] for k in keys_s), keys_m)
        self.assertNotEqual([k[1:] for k in keys_s], keys_m)  # time order lost across buckets

    def test_the_counters_equal_the_number_of_increments(self):
        cells = one(self.ws, "scan 'page_counters', {FORMATTER => 'toLong'}")["cells"]
        totals, days = {}, {}
        for c in cells:
            if c["family"] == "c":
                totals[c["row"]] = int(c["value"])
            else:
                days[c["row"]] = days.get(c["row"], 0) + int(c["value"])
        self.assertEqual(sum(totals.values()), 6000)  # one increment per page view
        self.assertEqual(totals, days)
        ws = self.copy("counters.ksw")
        before = one(ws, "get_counter 'page_counters', '/pricing', 'c:views'")["value"]
        status, answers, _ = jsonl(ws, "incr 'page_counters', '/pricing', 'c:views'\n" * 3)
        self.assertEqual([a["value"] for a in answers], [before + 1, before + 2, before + 3])

    def test_only_cells_with_the_rows_latest_timestamp_count(self):
        everything = one(self.ws, "get 'profiles', 'user0007'")["cells"]
        latest = next(c["timestamp"] for c in everything if c["qualifier"] == "v")
        stale = [c["qualifier"] for c in everything if c["timestamp"] < latest]
        self.assertIn("phone", stale)
        consistent = one(self.ws, "get 'profiles', 'user0007', {FILTER => \"DependentColumnFilter ('p', 'v')\"}")["cells"]
        self.assertEqual(consistent, [c for c in everything if c["timestamp"] == latest])

    def test_counts_as_timestamps_give_the_most_visited_urls_first(self):
        every = one(self.ws, "get 'top_urls', 'user0042', {COLUMN => 'u:url', VERSIONS => 1000}")["cells"]
        self.assertEqual(len(every), 12)
        top = one(self.ws, "get 'top_urls', 'user0042', {COLUMN => 'u:url', VERSIONS => 3}")["cells"]
        self.assertEqual(top, every[:3])
        counts = [c["timestamp"] for c in every]
        self.assertEqual(counts, sorted(set(counts), reverse=True))

    def test_a_metric_is_one_range_in_time_order(self):
        cells = one(self.ws, "scan 'tsdb', {ROWPREFIXFILTER => \"sys.cpu.user\\x00\\x01\", COLUMNS => ['t:0000']}")["cells"]
        keys = [binary(c["row"]) for c in cells]
        self.assertEqual(len(keys), 48 * 6)
        prefix = b"sys.cpu.user\x00\x01"
        hours = [int.from_bytes(k[len(prefix):len(prefix) + 4], "big") for k in keys]
        self.assertEqual(hours, sorted(hours))
        self.assertEqual((hours[0], hours[-1]), (EPOCH // 1000, END // 1000 - 3600))

    def test_reversed_domains_keep_a_domains_hosts_together(self):
        rows = rows_of(one(self.ws, "scan 'web_pages', {ROWPREFIXFILTER => 'org.apache.', COLUMNS => ['c:title']}")["cells"])
        self.assertEqual({r.split("/")[0] for r in rows},
                         {"org.apache.hbase", "org.apache.hadoop", "org.apache.www", "org.apache.zookeeper"})
        self.assertEqual(rows, sorted(rows))

    def test_a_map_area_is_a_key_prefix(self):
        area = one(self.ws, "count 'geo_tiles', {ROWPREFIXFILTER => \"\\x62\\x4b\"}")["rows"]  # the zoom-8 tile
        everything = one(self.ws, "count 'geo_tiles'")["rows"]
        self.assertEqual(area, everything)
        zoom12 = one(self.ws, "count 'geo_tiles', {ROWPREFIXFILTER => \"\\x62\\x4b\\xe6\"}")["rows"]
        self.assertTrue(0 < zoom12 < everything)

    def test_long_keys_and_names_cost_more_than_twice_the_bytes(self):
        verbose = one(self.ws, "regions 'sizes_verbose'")["regions"]
        compact = one(self.ws, "regions 'sizes_compact'")["regions"]
        self.assertEqual(sum(r["cells"] for r in verbose), sum(r["cells"] for r in compact))
        self.assertGreater(sum(r["raw_bytes"] for r in verbose), 2 * sum(r["raw_bytes"] for r in compact))

    # --- determinism and the command line ---------------------------------------------

    def test_two_builds_hold_the_same_data(self):
        again = os.path.join(self.dir.name, "again.ksw")
        status, _, err = build(again, "--quiet")
        self.assertEqual((status, err), (0, ""))
        script = "".join(f"describe '{t}'\nregions '{t}'\nscan '{t}', {{RAW => true, VERSIONS => 100000}}\n"
                         for t in TABLES)
        first = run("shell", self.ws, "--format", "jsonl", stdin=script)
        second = run("shell", again, "--format", "jsonl", stdin=script)
        self.assertEqual(first[0], 0)
        self.assertGreater(len(first[1]), 1000000)

        def data(out):
            # A region's read count is a statistic, not data: other tests read the first workspace.
            answers = [json.loads(line) for line in out.splitlines()]
            for answer in answers:
                for region in answer.get("regions", []):
                    del region["reads"]
            return answers
        self.assertTrue(data(first[1]) == data(second[1]), "two demo builds differ")

    def test_an_existing_workspace_is_replaced_only_with_force(self):
        path = self.copy("mine.ksw")
        one(path, "create 'mine', 'd'")
        status, _, err = build(path)
        self.assertEqual(status, 2)
        self.assertIn("exists; pass --force", err)
        self.assertIn("mine", one(path, "list")["tables"])
        status, _, err = build(path, "--force", "--quiet")
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(one(path, "list")["tables"], TABLES)

    def test_a_file_that_is_not_a_workspace_is_never_replaced(self):
        path = os.path.join(self.dir.name, "notes.txt")
        with open(path, "w") as f:
            f.write("keep me\n")
        status, _, err = build(path, "--force")
        self.assertEqual(status, 2)
        self.assertIn("is not a Keyscope workspace", err)
        with open(path) as f:
            self.assertEqual(f.read(), "keep me\n")

    def test_bad_usage_and_unwritable_places_are_clean_errors(self):
        self.assertEqual(run("demo")[0], 2)
        self.assertEqual(run("demo", "a.ksw", "b.ksw")[0], 2)
        status, _, err = run("demo", "--frobnicate", os.path.join(self.dir.name, "x.ksw"))
        self.assertEqual(status, 2)
        self.assertIn("unknown option '--frobnicate'", err)
        status, _, err = build(os.path.join(self.dir.name, "no-such-dir", "d.ksw"))
        self.assertEqual(status, 2)
        self.assertIn("cannot create a file beside", err)
        self.assertEqual(run("demo", "--help")[0], 0)


if __name__ == "__main__":
    unittest.main()
