#!/usr/bin/env python3
"""End-to-end tests of `keyscope-cli key encode|decode|explain`.

Real processes, real exit codes. The binary comes from the KEYSCOPE_CLI
environment variable (CMake's add_test sets it). Standard library only.
Expected bytes are computed here from docs/KEY-SCHEMAS.md, independently of
the C++ code (hashlib for salts).
"""
import hashlib
import json
import math
import os
import random
import struct
import subprocess
import tempfile
import unittest

CLI = os.environ.get("KEYSCOPE_CLI", "keyscope-cli")
# Errors in stdin mode start "line N: ", after an optional program name.
LINE_PREFIX = r"^(keyscope-cli: )?line %d: "


def run(*args, stdin=None):
    """Runs the CLI; returns (exit status, stdout, stderr) as text."""
    proc = subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def stderr_lines(err):
    return [line for line in err.splitlines() if line.strip()]


def i64_sorted(v):
    return struct.pack(">Q", (v & 0xFFFFFFFFFFFFFFFF) ^ (1 << 63)).hex()


def salt(h, n):
    return int.from_bytes(hashlib.md5(h).digest()[:4], "big") % n


class KeyEncode(unittest.TestCase):
    def test_encodes_one_array_to_lowercase_hex(self):
        code, out, err = run("key", "encode", "user:utf8 | ts:i64 desc", '["alice", 1]')
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, "616c6963650001" "7ffffffffffffffe\n")

    def test_golden_vectors_from_the_layout_table(self):
        cases = [
            ("x:i32", "[-1]", "7fffffff"),
            ("x:i32", "[0]", "80000000"),
            ("x:u16", "[258]", "0102"),
            ("x:f64", "[1.0]", "bff0000000000000"),
            ("x:f64", "[-0.0]", "7fffffffffffffff"),
            ("x:f64", '["NaN"]', "fff8000000000000"),
            ("x:f64", '["-Infinity"]', "000fffffffffffff"),
            ("x:utf8", '["ab"]', "61620001"),
            ("x:bytes", '["a\\\\x00"]', "6100ff0001"),
            ("x:bytes", '[{"hex": "00ff"}]', "00ffff0001"),
            ("x:bool desc", "[true]", "fe"),
            ("x:revts", "[0]", "ffffffffffffffff"),
            ("x:i64 hbase", "[-5]", "fffffffffffffffb"),
            ("x:domain", '["www.example.com/a"]', "com.example.www/a".encode().hex() + "0001"),
            ("x:quadkey", "[[1, 1, 0]]", "4000000000000001"),
        ]
        for schema, value, hexkey in cases:
            with self.subTest(schema=schema, value=value):
                code, out, err = run("key", "encode", schema, value)
                self.assertEqual((code, out, err), (0, hexkey + "\n", ""))

    def test_salt_is_computed_when_left_out(self):
        ts = 1700000000000
        expected = "%02x" % salt(struct.pack(">q", ts), 16) + i64_sorted(ts)
        for value in ("[%d]" % ts, "[null, %d]" % ts):
            with self.subTest(value=value):
                code, out, _ = run("key", "encode", "s:salt(16, ts) | ts:i64", value)
                self.assertEqual((code, out), (0, expected + "\n"))

    def test_bad_value_exits_2_with_one_line_naming_the_element(self):
        code, out, err = run("key", "encode", "user:utf8 | ts:i64", '["alice", "abc"]')
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn("ts", lines[0])

    def test_invalid_json_exits_2(self):
        code, out, err = run("key", "encode", "x:i64", "[1,")
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertEqual(len(stderr_lines(err)), 1, err)

    def test_malformed_schema_exits_2_naming_the_column(self):
        code, out, err = run("key", "encode", "user:utf8 | ts:int64", '["a", 1]')
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn("column 16", lines[0])

    def test_stdin_mode_prints_one_key_per_line_and_skips_blank_lines(self):
        code, out, err = run("key", "encode", "x:i32", stdin="[-1]\n\n[0]\n   \n[1]\n")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.splitlines(), ["7fffffff", "80000000", "80000001"])

    def test_stdin_mode_reports_bad_lines_by_number_and_keeps_going(self):
        code, out, err = run("key", "encode", "x:i8", stdin='[1]\n[300]\n\n[2]\n')
        self.assertEqual(code, 2)
        # A bad line may leave an empty line in its place (keeping output aligned with input).
        self.assertEqual([line for line in out.splitlines() if line], ["81", "82"])
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertRegex(lines[0], LINE_PREFIX % 2)

    def test_stdin_without_final_newline(self):
        code, out, _ = run("key", "encode", "x:u8", stdin="[1]\n[2]")
        self.assertEqual((code, out), (0, "01\n02\n"))


class KeyDecode(unittest.TestCase):
    def test_decodes_to_compact_json(self):
        code, out, err = run("key", "decode", "user:utf8 | ts:i64 desc", "616c6963650001" "7ffffffffffffffe")
        self.assertEqual((code, out, err), (0, '["alice",1]\n', ""))

    def test_each_type_prints_in_its_json_form(self):
        cases = [
            ("x:i32", "7fffffff", "[-1]"),
            ("x:u64", "ffffffffffffffff", "[18446744073709551615]"),
            ("x:bytes", "6100ff0001", '["a\\\\x00"]'),
            ("x:bytes(2)", "ff5c", '["\\\\xFF\\\\x5C"]'),
            ("x:f64", "fff8000000000000", '["NaN"]'),
            ("x:f64", "fff0000000000000", '["Infinity"]'),
            ("x:f64", "000fffffffffffff", '["-Infinity"]'),
            ("x:f64", "c004000000000000", "[2.5]"),
            ("x:bool", "01", "[true]"),
            ("x:revts", "ffffffffffffffff", "[0]"),
            ("x:domain", "com.example.www/a".encode().hex() + "0001", '["www.example.com/a"]'),
        ]
        for schema, hexkey, expected in cases:
            with self.subTest(schema=schema, key=hexkey):
                code, out, err = run("key", "decode", schema, hexkey)
                self.assertEqual((code, out, err), (0, expected + "\n", ""))

    def test_negative_zero_prints_with_its_sign(self):
        code, out, _ = run("key", "decode", "x:f64", "7fffffffffffffff")
        self.assertEqual(code, 0)
        value = json.loads(out)[0]
        self.assertEqual(value, 0.0)
        self.assertEqual(math.copysign(1, value), -1.0)

    def test_truncated_key_prints_the_partial_array_and_the_offset(self):
        code, out, err = run("key", "decode", "user:utf8 | ts:i64", "616c6963650001" "800001")
        self.assertEqual(code, 2)
        self.assertEqual(out, '["alice"]\n')
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn("offset 7", lines[0])
        self.assertIn("ts", lines[0])

    def test_salt_mismatch_prints_every_component_and_exits_2(self):
        code, out, err = run("key", "decode", "s:salt(16, ts) | ts:i64", "03" + i64_sorted(1700000000000))
        self.assertEqual(code, 2)
        self.assertEqual(out, "[3,1700000000000]\n")
        self.assertEqual(len(stderr_lines(err)), 1, err)
        self.assertIn("offset", err)

    def test_bad_hex_exits_2(self):
        code, out, err = run("key", "decode", "x:i8", "8g")
        self.assertEqual(code, 2)
        self.assertEqual(len(stderr_lines(err)), 1, err)

    def test_stdin_mode_decodes_one_key_per_line(self):
        code, out, err = run("key", "decode", "x:i32", stdin="7fffffff\n\n80000000\n")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out.splitlines(), ["[-1]", "[0]"])

    def test_stdin_mode_reports_the_line_of_a_bad_key(self):
        code, out, err = run("key", "decode", "x:i32", stdin="7fffffff\n8000\n80000001\n")
        self.assertEqual(code, 2)
        self.assertEqual(out.splitlines(), ["[-1]", "[]", "[1]"])
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertRegex(lines[0], LINE_PREFIX % 2)
        self.assertIn("offset 0", lines[0])

    def test_malformed_schema_exits_2_naming_the_column(self):
        code, _, err = run("key", "decode", "a:i64 | a:u8", "00")
        self.assertEqual(code, 2)
        lines = stderr_lines(err)
        self.assertEqual(len(lines), 1, err)
        self.assertIn("column", lines[0])


class KeyRoundTripThroughTheCli(unittest.TestCase):
    SCHEMA = "user:utf8 | ts:i64 desc | score:f64 | flag:bool | tag:bytes"

    def random_tuples(self, count):
        rng = random.Random(1234)
        specials = [0.0, -0.0, 1.5, -2.25, 1e300, -1e-300]
        tuples = []
        for _ in range(count):
            user = "".join(rng.choice(["a", "b", "\u00e9", "\u20ac", "\x00", " ", '"', "\\"])
                           for _ in range(rng.randrange(0, 6)))
            ts = rng.choice([0, 1, -1, 2**63 - 1, -2**63, rng.randrange(-2**63, 2**63)])
            score = rng.choice(specials + [rng.uniform(-1e6, 1e6)])
            tag = "".join(rng.choice(["a", "\\x00", "\\xFF", "\\x01"]) for _ in range(rng.randrange(0, 4)))
            tuples.append([user, ts, score, rng.random() < 0.5, tag])
        return tuples

    def test_thousands_of_keys_encode_in_one_process_and_decode_back(self):
        tuples = self.random_tuples(5000)
        lines = "\n".join(json.dumps(t) for t in tuples) + "\n"
        code, out, err = run("key", "encode", self.SCHEMA, stdin=lines)
        self.assertEqual((code, err), (0, ""))
        keys = out.splitlines()
        self.assertEqual(len(keys), len(tuples))
        for key in keys:
            self.assertRegex(key, "^[0-9a-f]+$")

        code, out, err = run("key", "decode", self.SCHEMA, stdin="\n".join(keys) + "\n")
        self.assertEqual((code, err), (0, ""))
        decoded = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(len(decoded), len(tuples))
        for original, back in zip(tuples, decoded):
            self.assertEqual(back, original)
            self.assertEqual(math.copysign(1, back[2]), math.copysign(1, original[2]))  # -0.0 keeps its sign

    def test_keys_sort_like_their_values(self):
        rng = random.Random(99)
        values = [rng.randrange(-2**63, 2**63) for _ in range(2000)] + [0, -1, 1, -2**63, 2**63 - 1]
        code, out, _ = run("key", "encode", "x:i64", stdin="".join("[%d]\n" % v for v in values))
        self.assertEqual(code, 0)
        keys = out.splitlines()
        by_key = [v for _, v in sorted(zip((bytes.fromhex(k) for k in keys), values))]
        self.assertEqual(by_key, sorted(values))

    def test_single_argument_decode_of_each_encoded_key(self):
        for value in ('["", 0, 0.0, false, ""]', '["x", -1, -0.0, true, "\\\\x00"]'):
            code, out, _ = run("key", "encode", self.SCHEMA, value)
            self.assertEqual(code, 0)
            code, back, _ = run("key", "decode", self.SCHEMA, out.strip())
            self.assertEqual(code, 0)
            self.assertEqual(json.loads(back), json.loads(value))
            self.assertEqual(math.copysign(1, json.loads(back)[2]), math.copysign(1, json.loads(value)[2]))


class KeyExplain(unittest.TestCase):
    def test_sorted_schema_preserves_value_order(self):
        code, out, err = run("key", "explain", "user:utf8 | ts:revts")
        self.assertEqual((code, err), (0, ""))
        self.assertIn("byte order: preserves value order", out)
        self.assertIn("user", out)
        self.assertIn("ts", out)

    def test_hbase_signed_integer_breaks_order(self):
        code, out, _ = run("key", "explain", "user:utf8 | x:i64 hbase")
        self.assertEqual(code, 0)
        self.assertIn("byte order: BROKEN", out)
        self.assertIn("x", out)

    def test_warnings_are_listed(self):
        code, out, _ = run("key", "explain", "ts:i64 | user:utf8")
        self.assertEqual(code, 0)
        self.assertIn("monotonic-lead", out)
        code, out, _ = run("key", "explain", "salt:salt(16, ts) | ts:i64")
        self.assertEqual(code, 0)
        self.assertIn("salt-fan-out", out)
        self.assertNotIn("monotonic-lead", out)

    def test_samples_file_feeds_the_advisor(self):
        schema = "k:utf8"  # a neutral name: 'id' alone already sounds numeric to the advisor
        code, out, _ = run("key", "encode", schema,
                           stdin="".join('["%d"]\n' % n for n in (9, 10, 12345, 987654321, 42, 100000)))
        self.assertEqual(code, 0)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(out)
            path = f.name
        try:
            code, explained, err = run("key", "explain", schema, "--samples", path)
            self.assertEqual((code, err), (0, ""))
            self.assertTrue(explained.endswith("\n"))
            self.assertIn("number-as-string", explained)
            code, plain, _ = run("key", "explain", schema)
            self.assertNotIn("number-as-string", plain)
        finally:
            os.unlink(path)

    def test_missing_samples_file_exits_nonzero(self):
        code, _, err = run("key", "explain", "id:utf8", "--samples", "/nonexistent/keys.txt")
        self.assertNotEqual(code, 0)
        self.assertEqual(len(stderr_lines(err)), 1, err)

    def test_malformed_schema_exits_2_with_one_line_naming_the_column(self):
        for schema in ("a:int64", "a:i64 desc hbase", "a:i64 | a:u8", "s:salt(300) | a:i64", "a:i64 x"):
            with self.subTest(schema=schema):
                code, out, err = run("key", "explain", schema)
                self.assertEqual(code, 2)
                lines = stderr_lines(err)
                self.assertEqual(len(lines), 1, err)
                self.assertIn("column", lines[0])


class Usage(unittest.TestCase):
    def test_unknown_subcommand_fails(self):
        code, _, err = run("key", "frobnicate", "x:i8")
        self.assertNotEqual(code, 0)
        self.assertNotEqual(err, "")

    def test_missing_schema_fails(self):
        code, _, _ = run("key", "encode")
        self.assertNotEqual(code, 0)


if __name__ == "__main__":
    unittest.main()
