"""Issue 45: untrusted names, forgeries, oversized headers, signed submissions.
Each case of the issue's second security trial, reproduced: a suite named
with quotes, $( ) or ESC runs and prints nothing; a forged bundle and an
empty one are INVALID with the mismatch named; a 15,000-run plan is answered
(a 60 s limit: the old validator ran past 120 s); tar headers are judged
before what they announce is read; a "²" is no number; CLOMP 1.2 text with
more processes than clomp-stats takes says so. Signed bundles:
test_signatures.py. The fuzz (random mutations of the golden bundle, fuzz()
below) runs in the full lane: test_untrusted_big.py."""
from __future__ import annotations

import contextlib
import glob
import gzip
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import CLI, NAME, TOP, Stage  # noqa: E402
from clomp_results.core import loader, safe_io, tables  # noqa: E402
from clomp_results.buyers import submissions  # noqa: E402
from clomp_results.bundle import validate  # noqa: E402

ESC = "\x1b"
COMPARE = os.path.join(TOP, "clomp_compare")
FULL_LANE = os.environ.get("CLOMP_TEST_LANE") == "full"


def forge(stage, records=None, env=None, files=None):
    """Edit the staged suite: RECORDS(doc) on every JSON record, ENV(text) on the .env, FILES {rel: text}
    written; the MANIFEST rewritten (a forger rewrites it too)."""
    for path in glob.glob(stage.path(NAME + "_*.run*.json")):
        if records is not None:
            doc = json.load(open(path))
            records(doc)
            json.dump(doc, open(path, "w"))
    if env is not None:
        text = open(stage.path(NAME + ".env")).read()
        open(stage.path(NAME + ".env"), "w").write(env(text))
    for rel, text in (files or {}).items():
        open(stage.path(rel), "w").write(text)
    stage.remanifest()


def submission_grade(doc):
    """The issue's forger: timeScale 100, bound threads, a quiet node, a barrier of 0.0001 us."""
    doc["inputs"]["timeScale"] = 100
    doc["numa"]["thread_placement"]["unbound_threads"] = 0
    for t in doc["noise_census"].get("threads") or []:
        t["lost_fraction"] = 0.01
    doc["noise_census"]["busy"] = False
    for m in doc["measurements"]:
        if m["key"] == "barrier":
            m["runtime_us_per_loop"] = m["us_per_loop"] = 0.0001


class Names(unittest.TestCase):
    """Case 1 and 8: names from outside never reach make, a shell or a terminal."""

    def setUp(self):
        self.stage = Stage()

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact())
        self.stage.close()

    def renamed(self, new):
        """The staged suite's directory and files renamed NEW (as a vendor could name them)."""
        dest = os.path.join(self.stage.root, "named", new)
        shutil.copytree(self.stage.suite, dest)
        for here, dirs, names in os.walk(dest, topdown=False):
            for n in names + dirs:
                if n.startswith(NAME):
                    os.rename(os.path.join(here, n), os.path.join(here, new + n[len(NAME):]))
        return dest

    def make_plots(self, out):
        """make plots OUT=OUT, run in the canary directory (where a `touch` would land)."""
        return subprocess.run(["make", "-s", "-f", os.path.join(TOP, "Makefile"), "plots", "OUT=" + out], cwd=self.stage.canary,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120).returncode

    def test_make_plots_runs_nothing_a_suite_name_or_out_holds(self):
        hostile = self.renamed("CLOMP_a';touch PWNED1;'_1")
        self.assertNotEqual(self.make_plots(hostile), 0)
        self.assertNotEqual(self.make_plots("$(shell touch PWNED2)"), 0)
        self.assertNotEqual(self.make_plots("x';touch PWNED3;'"), 0)
        self.assertEqual(sorted(os.listdir(self.stage.canary)), ["file"])

    def test_a_suite_named_with_quotes_is_refused_at_the_door_in_one_line(self):
        hostile = self.renamed("CLOMP_a';touch PWNED1;'_1")
        rc, out, _ = self.stage.validate(hostile)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"INVALID: refused: suite name 'CLOMP_a';touch PWNED1;'_1': characters other than letters")
        self.assertEqual(len(out.splitlines()), 1)
        rc, out, _ = self.stage.run([CLI, "tables", hostile, "--write"])
        self.assertEqual(rc, 2, out)
        self.assertIn("suite name", out)

    def test_a_bundle_whose_suite_name_holds_an_escape_prints_none(self):
        top = "CLOMP_a" + ESC + "[2J_1"
        out_path = os.path.join(self.stage.root, "esc.tar.gz")
        with tarfile.open(out_path, "w:gz") as tar:
            tar.add(self.stage.suite, arcname=top)
        rc, out, _ = self.stage.validate(out_path)
        self.assertEqual(rc, 1, out)
        self.assertNotIn(ESC, out)
        self.assertIn("\\x1b[2J", out)
        rc, out, _ = self.stage.run([COMPARE, "--out", os.path.join(self.stage.root, "page"), out_path], timeout=60)
        self.assertEqual(rc, 1, out)
        self.assertNotIn(ESC, out)

    def test_no_reason_line_carries_a_raw_control_character(self):
        # A plan whose set name holds an escape: every line the validator prints is escaped.
        forge(self.stage, env=lambda t: t.replace(";key||2 1 64", ";key\x1b[2J||2 1 64"))
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 1, out)
        self.assertNotIn(ESC, out)
        self.assertIn("plan: run 3's set 'key\\x1b[2J'", out)


class Forgeries(unittest.TestCase):
    """Case 3 and 4: what a bundle says about itself is checked against itself."""

    def setUp(self):
        self.stage = Stage()

    def tearDown(self):
        self.stage.close()

    def invalid(self):
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 1, out)
        return out

    def test_a_submission_grade_forgery_of_the_records_env_and_machine_is_invalid_naming_the_mismatches(self):
        forge(self.stage, records=submission_grade,
              env=lambda t: t.replace("time scale: 1\n", "time scale: 100\n").replace(" 32 1 1;", " 32 1 100;"),
              files={NAME + "_machine/lscpu-cores.csv": "# CPU,Core,Socket,Node\n" + "".join("%d,%d,0,0\n" % (i, i) for i in range(8))})
        out = self.invalid()
        self.assertIn("CLOMP_vm_1_key.summary, run 1: timeScale is '1', its record gives '100'", out)
        self.assertIn("run 1 calc_deposit: CLOMP_vm_1.csv says timeScale '1', its record '100'", out)
        self.assertIn("run 1 (key.full): its text ran the inputs '2 -1 64 100 32 1 1', not the planned 2 -1 64 100 32 1 100", out)
        self.assertIn("CLOMP_vm_1_machine/lscpu-cores.csv has 8 cores, CLOMP_vm_1.env's lscpu 2 (Core(s) per socket x Socket(s))", out)
        self.assertIn("run 1's record counts 2 online CPUs, CLOMP_vm_1_machine/lscpu-cores.csv 8", out)

    def test_a_forged_figure_is_named_in_the_table_the_csv_and_the_text(self):
        forge(self.stage, records=lambda d: [m.update(runtime_us_per_loop=0.0001) for m in d["measurements"] if m["key"] == "barrier"])
        out = self.invalid()
        self.assertIn("CLOMP_vm_1_key.summary, run 1: omp_barrier_us_per_loop is '0.25766242039854503', its record gives '0.0001'", out)
        self.assertIn("run 1 barrier: CLOMP_vm_1.csv says runtime_us_per_loop '0.25766242039854503', its record '0.0001'", out)
        self.assertIn("run 1 (key.full): its text prints OMP Barrier us/Loop 0.26, its record 0.0001", out)

    def test_bound_threads_and_a_quiet_node_claimed_by_the_records_alone_are_named(self):
        def bound_and_quiet(doc):
            doc["numa"]["thread_placement"]["unbound_threads"] = 0
            for t in doc["noise_census"].get("threads") or []:
                t["lost_fraction"] = 0.01
        forge(self.stage, records=bound_and_quiet)
        out = self.invalid()
        self.assertIn("run 1 (key.full): its text places 2 of 2 threads unbound, its record 0", out)
        forge(self.stage, records=lambda d: d["numa"]["thread_placement"].update(unbound_threads=2))
        out = self.invalid()
        self.assertIn("run 1 (key.full): its text says noise thread 0 lost 57.057%, its record 1.000%", out)

    def test_the_machine_description_and_the_env_must_agree(self):
        forge(self.stage, env=lambda t: t.replace("Core(s) per socket:                      2", "Core(s) per socket:                      8"))
        out = self.invalid()
        self.assertIn("CLOMP_vm_1_machine/lscpu.txt says Core(s) per socket '2', CLOMP_vm_1.env's lscpu '8'", out)

    def test_a_compiler_the_records_alone_claim_is_named_against_the_text_and_the_env(self):
        icx = "Intel(R) oneAPI DPC++/C++ Compiler 2025.0.0 (CC=icx)"
        forge(self.stage, records=lambda d: d["build"].update(compiler=icx[:-9], cc="icx"))
        out = self.invalid()
        self.assertIn("run 1 (key.full): its text says the compiler was 'GCC 12.2.0 (CC=gcc)', its record '%s'" % icx, out)
        self.assertIn("run 1's record was built with the compiler '%s', CLOMP_vm_1.env's build facts say 'GCC 12.2.0 (CC=gcc)'"
                      % icx, out)
        got = submissions.load(self.stage.pack(), "forged")[0]      # the buyer's table: invalid, the mismatch its reason
        self.assertFalse(got["valid"])
        self.assertTrue(any("its text says the compiler was" in r for r in got["validation"]["reasons"]), got["validation"])

    def test_an_empty_bundle_is_invalid_no_measured_run(self):
        for pattern in ("_*.run*.json", "_*.summary", "_*.full"):
            for f in glob.glob(self.stage.path(NAME + pattern)):
                os.unlink(f)
        forge(self.stage, env=lambda t: re.sub(r"(?m)^(plan: exe=\./clomp;launcher=;)(.*)$",
                                               lambda m: m.group(1) + re.sub(r"(^|;)\w+\|\|", r"\1oversubscribed||", m.group(2)), t),
              files={NAME + ".done": ""})
        out = self.invalid()
        self.assertIn("no measured run: none of the plan's 8 runs has a record of a run that ended ok", out)
        self.assertIn("plan: 8 runs in set oversubscribed; the team-size cliff adds one", out)
        self.assertIn("plan: no key run (the target input)", out)

    def test_a_plan_of_15000_runs_is_answered_and_its_reasons_are_bounded(self):
        forge(self.stage, env=lambda t: re.sub(r"(?m)^plan: .*$", "plan: exe=./clomp;launcher=;" + "key||2 -1 64 100 32 1 1;" * 15000, t))
        rc, out, _ = self.stage.validate(self.stage.pack(), timeout=60)   # a bound on a hang, not a speed target (bench/)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out.splitlines()[0], r"INVALID \(\d{5} reasons\)")
        self.assertLessEqual(len(out.splitlines()), validate.PRINTED + 2)
        self.assertIn("more reasons", out.splitlines()[-1])

    def test_the_unedited_suite_agrees_with_itself(self):
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 3, out)
        self.assertIn("agree with the tables, the text and the machine description", out)


def gnu_header(name, kind, size):
    """A GNU tar header of type KIND claiming SIZE bytes (no data after it)."""
    info = tarfile.TarInfo(name)
    info.type, info.size = kind, 0
    block = bytearray(info.tobuf(format=tarfile.GNU_FORMAT)[:512])
    block[124:136] = b"%011o\0" % size
    block[148:156] = b"        "
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


def suite_tar(stage) -> bytes:
    """The staged suite as tar members, without the end-of-archive blocks: a hostile tail goes after."""
    head = io.BytesIO()
    with tarfile.open(fileobj=head, mode="w") as tar:
        tar.add(stage.suite, arcname=NAME)
        end = tar.offset
    return head.getvalue()[:end]


class StagedHeaders:
    """A stage per test; nothing may be left in its temporary directory."""

    def setUp(self):
        self.stage = Stage()

    def tearDown(self):
        self.assertEqual(self.stage.leftovers(), [])
        self.stage.close()


class Headers(StagedHeaders, unittest.TestCase):
    """Case 6 and 7: tar headers bounded before what they announce is read; no recursion, no traceback."""

    def suite_tar(self):
        return suite_tar(self.stage)

    def packed(self, raw, name="h.tar.gz"):
        out = os.path.join(self.stage.root, name)
        with gzip.open(out, "wb", compresslevel=1) as f:
            f.write(raw)
        return out

    def refused(self, path, pattern):
        rc, out, _ = self.stage.validate(path)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, pattern)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertNotIn("Traceback", out)

    def test_a_gnu_long_name_of_300_mib_is_refused_on_its_header(self):
        raw = self.suite_tar() + gnu_header("././@LongLink", b"L", 300 << 20)
        self.refused(self.packed(raw), r"a GNU long-name header of 314572800 bytes, over the bound of 1020 bytes for a name")

    def test_a_pax_header_of_a_mebibyte_is_refused_on_its_header(self):
        raw = self.suite_tar() + gnu_header("pax", b"x", 1 << 20)
        self.refused(self.packed(raw), r"a pax header of 1048576 bytes, over the bound of 65536")

    def test_five_thousand_chained_long_name_headers_are_one_line(self):
        link = gnu_header("././@LongLink", b"L", 4) + b"abc\0".ljust(512, b"\0")
        self.refused(self.packed(self.suite_tar() + link * 5000), r"two GNU long-name headers before one member")

    def test_bytes_after_the_last_member_count_against_the_one_total(self):
        raw = self.suite_tar() + b"\0" * 1024 + b"\0" * (2 << 20)
        os.environ["CLOMP_INPUT_MAX_TOTAL_BYTES"] = str(1 << 20)
        try:
            self.refused(self.packed(raw), r"the archive inflates past 1048576 bytes")
        finally:
            del os.environ["CLOMP_INPUT_MAX_TOTAL_BYTES"]

    def test_a_machine_description_file_over_4_mib_is_refused_not_held(self):
        open(self.stage.path(NAME + "_machine/lstopo.txt"), "wb").write(b"x" * (5 << 20))
        self.stage.remanifest()
        self.refused(self.stage.pack(), r"CLOMP_vm_1/CLOMP_vm_1_machine/lstopo.txt: 5242880 bytes, over the bound of 4194304 bytes per file")

    def test_a_valid_pax_bundle_as_the_bundle_writer_makes_it_still_reads(self):
        with tarfile.open(os.path.join(self.stage.root, "pax.tar.gz"), "w:gz", format=tarfile.PAX_FORMAT) as tar:
            tar.add(self.stage.suite, arcname=NAME)
        rc, out, _ = self.stage.validate(os.path.join(self.stage.root, "pax.tar.gz"))
        self.assertEqual(rc, 3, out)


class Numbers(unittest.TestCase):
    """Case 7 and 9: numbers from a bundle or a text are numbers, or refused with one line."""

    def setUp(self):
        self.stage = Stage(quiet=True)   # run 5's sweep row is shown only from a process that was not busy

    def tearDown(self):
        self.stage.close()

    def test_a_gzip_stream_damaged_in_its_first_block_is_one_line(self):
        bad = os.path.join(self.stage.root, "damaged.tar.gz")
        with open(bad, "wb") as f:     # a gzip header, then a deflate block of the reserved type (zlib.error)
            f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 64)
        rc, out, _ = self.stage.validate(bad)
        self.assertEqual(rc, 1, out)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertRegex(out, r"INVALID: refused: the archive is damaged after 0 members: .*invalid block type")

    def test_a_superscript_thread_count_does_not_stop_the_buyers_table(self):
        path = self.stage.path(NAME + "_6400zones.run5.json")
        doc = json.load(open(path))
        doc["resolved"]["numThreads"] = "²"
        json.dump(doc, open(path, "w"))
        self.stage.remanifest()
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 3, out)     # the resolved team size is no figure a table or the text carries
        page = os.path.join(self.stage.root, "page")
        rc, out, _ = self.stage.run([COMPARE, "--out", page, self.stage.suite], timeout=120)
        self.assertEqual(rc, 0, out)
        self.assertNotIn("Traceback", out)
        self.assertIn("²", open(os.path.join(page, "buyers_table.html"), encoding="utf-8").read())

    def test_superscripts_in_a_plan_and_a_table_are_reasons_not_tracebacks(self):
        forge(self.stage, env=lambda t: t.replace(";key||2 1 64", ";key||² 1 64").replace("max threads: 2", "max threads: ²"))
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 1, out)
        self.assertIn("plan: run 3 (key) has the inputs '² 1 64 100 32 1 1', not seven whole numbers", out)
        self.assertNotIn("Traceback", out)

    def test_clomp12_text_with_more_processes_than_clomp_stats_takes_says_so(self):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from test_buyers_table import text12_output
        block = text12_output("old", [0.01, 0.30, 20.0, 19.0, 25.0, 60.0, 40.0])
        path = os.path.join(self.stage.root, "many.txt")
        open(path, "w").write(block * 10001)
        # The buyer's loader, in this process (./clomp_compare prints this line and exits 1).
        with self.assertRaisesRegex(safe_io.Refused, "10001 processes \\(summary blocks\\) of CLOMP 1.2 text, over the bound of 10000"):
            submissions.load(path, "many")
        # clomp-stats itself says so too, not "'20.1' is not a number".
        helper = os.environ.get("CLOMP_STATS", os.path.join(TOP, "build", "clomp-stats"))
        done = subprocess.run([helper, "summary", "--json"] + ["20.1"] * 10001, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=60)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(b"10001 values, over the bound of 10000", done.stderr)


def mutations(rng, files, good_tar, good_gz):
    """One random mutation of the golden bundle: (what, bundle bytes)."""
    how = rng.choice(["file", "file", "file", "tar", "gzip"])
    if how == "gzip":
        data = bytearray(good_gz)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return "gzip bytes", bytes(data)
    if how == "tar":
        data = bytearray(good_tar)
        for _ in range(rng.randint(1, 16)):
            i = rng.randrange(0, len(data), 512) + rng.choice([0, 100, 124, 148, 156, 257, 345, rng.randrange(512)])
            data[min(i, len(data) - 1)] = rng.randrange(256)
        return "tar bytes", gzip.compress(bytes(data), 1)
    rel = rng.choice(sorted(files))
    text = files[rel]
    ops = [lambda t: t.replace(b"2", "²".encode(), 1), lambda t: t[:rng.randrange(len(t) + 1)],
           lambda t: t.replace(b",", b",,", 1), lambda t: t.replace(b"1", b"9" * rng.randint(10, 5000), 1),
           lambda t: t + b"\x1b[2J\n\0", lambda t: t.replace(b"\n", b"\r\n"),
           lambda t: t.replace(b": ", b": [", 1), lambda t: t.replace(b"true", b"null"),
           lambda t: t.replace(b"{", b"[", 1), lambda t: bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))) + t,
           lambda t: t.replace(b"0", b"-1", 3), lambda t: t.replace(b"\"key\"", b"\"set\"")]
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(ops)(text)
    mutated = dict(files)
    mutated[rel] = text
    if rng.random() < 0.8:   # a forger rewrites the MANIFEST: the deeper checks run
        import hashlib
        mutated["MANIFEST"] = "".join("%s  %s\n" % (hashlib.sha256(d).hexdigest(), r) for r, d in sorted(mutated.items())
                                      if r != "MANIFEST").encode()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for r, d in sorted(mutated.items()):
            info = tarfile.TarInfo(NAME + "/" + r)
            info.size = len(d)
            tar.addfile(info, io.BytesIO(d))
    return "%s of %s" % ("file", rel), buf.getvalue()


def fuzz(test, count, seed):
    """COUNT mutations: the validator, the buyer's loader and the tables, in this process; an exception
    that is not the loaders' own one-line refusal fails the test, naming the seed and the mutation."""
    stage = Stage()
    try:
        files = {}
        for here, _, names in os.walk(stage.suite):
            for n in names:
                p = os.path.join(here, n)
                files[os.path.relpath(p, stage.suite)] = open(p, "rb").read()
        good_gz = open(stage.pack(), "rb").read()
        good_tar = gzip.decompress(good_gz)
        rng = random.Random(seed)
        target = os.path.join(stage.root, "fuzz.tar.gz")
        os.environ["TMPDIR"] = stage.tmp
        for i in range(count):
            what, data = mutations(rng, files, good_tar, good_gz)
            open(target, "wb").write(data)
            try:
                with contextlib.redirect_stderr(io.StringIO()):
                    rc = validate.validate(target, out=io.StringIO())
                    test.assertIn(rc, (0, 1, 2, 3))
                    try:
                        submissions.load(target, "fuzz")
                    except (submissions.SubmissionError, safe_io.Refused, safe_io.NotABundle, loader.SuiteError):
                        pass
                    try:
                        tables.render(loader.load_suite(target))
                    except (safe_io.Refused, safe_io.NotABundle, loader.SuiteError):
                        pass
            except Exception as e:   # noqa: B902 -- any other exception is the finding
                import traceback
                test.fail("mutation %d (seed %d, %s): %s\n%s" % (i, seed, what, e, traceback.format_exc()))
        test.assertEqual(stage.leftovers(), [], "a temporary directory was left behind")
    finally:
        os.environ.pop("TMPDIR", None)
        stage.close()


if __name__ == "__main__":
    unittest.main()
