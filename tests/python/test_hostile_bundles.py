"""Issue 30: hostile bundles and suite directories. Each is refused (exit
1, or 2 for not a bundle) within 10 seconds with one line naming the member
and the rule, nothing is written outside the test's own directory (the
canary), and no temporary directory is left behind."""
from __future__ import annotations

import gzip
import io
import os
import signal
import subprocess
import sys
import tarfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bundle_lib  # noqa: E402
from bundle_lib import NAME, Stage, member  # noqa: E402

ESC = "\x1b"


class HostileBundles(unittest.TestCase):
    def setUp(self):
        self.stage = Stage()

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact(), "the canary directory was touched")
        self.assertEqual(self.stage.leftovers(), [], "a temporary directory was left behind")
        self.stage.close()

    def refused(self, target, pattern, status=1):
        rc, out, seconds = self.stage.validate(target)
        self.assertEqual(rc, status, out)
        # No timed assertion here (a busy machine would fail it): the run's own
        # timeout ends a hang; the seconds are the bench's to quote.
        self.assertRegex(out, pattern)
        self.assertNotIn(ESC, out)
        return out

    def test_the_staged_bundle_is_valid_but_not_submission_grade(self):
        rc, out, _ = self.stage.validate(self.stage.pack())
        self.assertEqual(rc, 3, out)
        self.assertIn("VALID, NOT SUBMISSION-GRADE: 8 runs", out)

    def test_a_symbolic_link_member_is_refused_naming_it(self):
        b = self.stage.pack(extra=[member(NAME + "/CLOMP_vm_1_charts/efficacy.png", tarfile.SYMTYPE, linkname=self.stage.canary + "/file")])
        out = self.refused(b, r"INVALID: refused: CLOMP_vm_1/CLOMP_vm_1_charts/efficacy.png: a symbolic link")
        self.assertEqual(len(out.splitlines()), 1)

    def test_a_hard_link_member_is_refused(self):
        self.refused(self.stage.pack(extra=[member(NAME + "/x", tarfile.LNKTYPE, linkname="/etc/passwd")]), r"CLOMP_vm_1/x: a hard link")

    def test_a_fifo_a_character_and_a_block_device_are_refused(self):
        for kind, word in ((tarfile.FIFOTYPE, "a FIFO"), (tarfile.CHRTYPE, "a character device"), (tarfile.BLKTYPE, "a block device")):
            self.refused(self.stage.pack(extra=[member(NAME + "/CLOMP_vm_1_key.done", kind)]), "CLOMP_vm_1_key.done: " + word)

    def test_absolute_and_dotdot_members_are_refused(self):
        self.refused(self.stage.pack(extra=[member("/tmp/evil", data=b"x")]), r"/tmp/evil: an absolute path")
        self.refused(self.stage.pack(extra=[member(NAME + "/../../evil", data=b"x")]), r"\.\./\.\./evil: a '\.\.' path component")

    def test_a_fifo_or_a_link_to_dev_zero_in_a_suite_directory_is_refused(self):
        os.mkfifo(self.stage.path(NAME + "_key.done"))
        self.refused(self.stage.suite, r"CLOMP_vm_1_key.done: a FIFO")
        os.unlink(self.stage.path(NAME + "_key.done"))
        os.symlink("/dev/zero", self.stage.path(NAME + "_6400zones.summary.x"))
        self.refused(self.stage.suite, r"CLOMP_vm_1_6400zones.summary.x: a symbolic link")

    def test_a_huge_member_claimed_by_its_header_is_refused_before_it_is_read(self):
        # A header claiming 2 GiB and no data: the bound is checked first (a zip bomb is refused the same way).
        out = os.path.join(self.stage.root, "bomb.tar.gz")
        head = io.BytesIO()
        with tarfile.open(fileobj=head, mode="w") as tar:
            tar.add(self.stage.suite, arcname=NAME)
            end = tar.offset              # the end of the last member: what follows is end-of-archive blocks
        raw = head.getvalue()[:end]       # and padding to a whole record, whose length depends on the suite's size
        info, _ = member(NAME + "/big.full", size=2 << 30)
        with gzip.open(out, "wb") as f:
            f.write(raw + info.tobuf(format=tarfile.GNU_FORMAT))
        self.refused(out, r"CLOMP_vm_1/big.full: 2147483648 bytes, over the bound of")

    def test_a_bundle_that_expands_past_the_total_bound_is_refused(self):
        # The total bound lowered to 16 MiB (CLOMP_INPUT_MAX_TOTAL_BYTES): the same rule as the
        # default 512 MiB, at a size this shared test machine packs and extracts in a fraction of a
        # second: the second 8 MiB member takes the suite's files past it.
        zeros = b"\0" * (8 << 20)
        extra = [member(NAME + "/pad%d" % i, data=zeros) for i in range(3)]
        b = self.stage.pack(extra=extra)
        self.assertLess(os.path.getsize(b), 1 << 20)
        os.environ["CLOMP_INPUT_MAX_TOTAL_BYTES"] = str(16 << 20)
        try:
            self.refused(b, r"pad1: the members reach \d+ bytes, over the bound of 16777216 in all")
        finally:
            del os.environ["CLOMP_INPUT_MAX_TOTAL_BYTES"]

    def test_members_past_the_bound_of_2000_are_refused(self):
        # 2,001 empty members besides the suite's own (the full lane, make check-all: 20,000): one past
        # the bound is enough to be refused, and the refusal comes before the rest are read.
        count = 20000 if os.environ.get("CLOMP_TEST_LANE") == "full" else 2001
        extra = [member(NAME + "/m/%d" % i, data=b"") for i in range(count)]
        self.refused(self.stage.pack(extra=extra), r"more than 2000 members")

    def test_a_file_listed_many_times_in_the_manifest_is_invalid(self):
        with open(self.stage.path("MANIFEST"), "ab") as f:
            line = open(self.stage.path("MANIFEST"), "rb").readline()
            f.write(line * 100)
        out = self.refused(self.stage.pack(), r"MANIFEST: \S+ is listed twice")
        self.assertEqual(out.count("listed twice"), 1)

    def test_manifest_paths_outside_or_absolute_are_invalid(self):
        with open(self.stage.path("MANIFEST"), "ab") as f:
            f.write(b"%s  ../../../etc/passwd\n%s  /etc/passwd\n" % (b"0" * 64, b"0" * 64))
        out = self.refused(self.stage.pack(), r"MANIFEST: \.\./\.\./\.\./etc/passwd: a '\.\.' path component")
        self.assertRegex(out, r"MANIFEST: /etc/passwd: an absolute path")

    def test_escapes_in_a_manifest_line_are_shown_escaped(self):
        with open(self.stage.path("MANIFEST"), "ab") as f:
            f.write(b"\x1b[2J\x1b[HVALID\n")
        self.refused(self.stage.pack(), r"malformed line: '\\x1b\[2J\\x1b\[HVALID'")

    def test_a_member_named_outside_the_safe_characters_is_refused_at_the_door_shown_escaped(self):
        open(self.stage.path("CLOMP_vm_1_a\nb.txt"), "w").write("x")
        out = self.refused(self.stage.pack(), r"refused: CLOMP_vm_1/CLOMP_vm_1_a\\nb\.txt: a name with characters other than "
                                              r"letters, digits, '\.', '_' and '-'")
        self.assertEqual(len(out.splitlines()), 1)

    def test_a_manifest_that_is_a_link_to_a_secret_is_refused_without_reading_it(self):
        os.unlink(self.stage.path("MANIFEST"))
        secret = os.path.join(self.stage.canary, "file")
        os.symlink(secret, self.stage.path("MANIFEST"))
        out = self.refused(self.stage.pack(), r"CLOMP_vm_1/MANIFEST: a symbolic link")
        self.assertNotIn("canary", out)

    def test_an_injected_run_section_is_the_runs_last_and_disagrees_with_its_record(self):
        # The .full is read for the cross-check (issue 45): a run's last complete section is its text.
        with open(self.stage.path(NAME + "_key.full"), "a") as f:
            f.write("=== run 1/16: x\n=== end of run 1: exit status 0 (OK)\n")
        self.stage.remanifest()
        self.refused(self.stage.pack(), r"run 1 \(key\.full\): its text ran the inputs 'x', not the planned 2 -1 64 100 32 1 1")

    def test_an_oversubscribed_preflight_is_invalid_whatever_the_full_files_say(self):
        env = self.stage.path(NAME + ".env")
        text = open(env).read().replace("---- preflight warnings\n", "---- preflight warnings\nWARNING: 4 threads requested on 2 cores: oversubscribed\n")
        open(env, "w").write(text)
        with open(self.stage.path(NAME + "_key.full"), "a") as f:
            f.write("=== run 1/16: x\n")
        self.stage.remanifest()
        self.refused(self.stage.pack(), r"preflight warnings say the suite was oversubscribed")

    def test_a_damaged_gzip_trailer_is_invalid(self):
        b = self.stage.pack()
        data = bytearray(open(b, "rb").read())
        data[-6] ^= 0x55
        open(b, "wb").write(bytes(data))
        self.refused(b, r"the archive is damaged")

    def test_not_a_bundle_exits_2(self):
        p = os.path.join(self.stage.root, "t.tar.gz")
        open(p, "w").write("hello\n")
        self.refused(p, r"not a CLOMP bundle: not a gzip-compressed tar file", status=2)
        os.mkfifo(os.path.join(self.stage.root, "fifo.tar.gz"))
        self.refused(os.path.join(self.stage.root, "fifo.tar.gz"), r"not a CLOMP bundle: a FIFO, not a regular file", status=2)

    def test_sigterm_removes_the_temporary_directory(self):
        b = self.stage.pack()
        code = ("import sys, time; sys.path.insert(0, %r)\n"
                "from clomp_results.core import safe_io\n"
                "inp = safe_io.open_input(%r); print(inp.root, flush=True); time.sleep(30)\n") % (
                    os.path.join(bundle_lib.TOP, "results"), b)
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=dict(os.environ, TMPDIR=self.stage.tmp))
        root = p.stdout.readline().decode().strip()
        self.assertTrue(os.path.isdir(root))
        p.send_signal(signal.SIGTERM)
        rc = p.wait(10)
        p.stdout.close()
        self.assertEqual(rc, -signal.SIGTERM)
        self.assertFalse(os.path.exists(root))


class HostileSuiteDirectories(unittest.TestCase):
    """--bundle and make plots read a suite directory through the same door."""

    def setUp(self):
        self.stage = Stage()
        os.unlink(self.stage.path("MANIFEST"))
        self.out = os.path.dirname(self.stage.suite)
        for f in os.listdir(self.stage.suite):
            os.rename(self.stage.path(f), os.path.join(self.out, f))
        os.rmdir(self.stage.suite)

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact(), "the canary directory was touched")
        self.stage.close()

    def bundle(self):
        return self.stage.run([bundle_lib.CLI, "bundle", self.out])

    def test_the_bundle_of_a_clean_suite_validates(self):
        rc, out, _ = self.bundle()
        self.assertEqual(rc, 0, out)
        rc, out, _ = self.stage.validate(os.path.join(self.out, NAME + ".tar.gz"))
        self.assertEqual(rc, 3, out)

    def test_a_planted_chart_link_refuses_the_bundle_and_writes_nothing(self):
        os.mkdir(os.path.join(self.out, NAME + "_charts"))
        os.symlink(os.path.join(self.stage.canary, "file"), os.path.join(self.out, NAME + "_charts", "efficacy.png"))
        rc, out, _ = self.bundle()
        self.assertEqual(rc, 1, out)
        self.assertIn("CLOMP_vm_1_charts/efficacy.png: a symbolic link", out)
        self.assertFalse(os.path.exists(os.path.join(self.out, NAME + ".tar.gz")))

    def test_a_link_at_the_old_temporary_name_or_the_bundle_name_is_never_written_through(self):
        os.symlink(os.path.join(self.stage.canary, "file"), os.path.join(self.out, NAME + ".tar.gz.tmp"))
        rc, out, _ = self.bundle()
        self.assertEqual(rc, 0, out)
        os.unlink(os.path.join(self.out, NAME + ".tar.gz"))
        os.symlink(os.path.join(self.stage.canary, "new"), os.path.join(self.out, NAME + ".tar.gz"))
        rc, out, _ = self.bundle()
        self.assertEqual(rc, 1, out)
        self.assertIn("is not a regular file: not replaced", out)
        self.assertEqual([f for f in os.listdir(self.out) if f.startswith(".")], [], "a temporary file was left")


if __name__ == "__main__":
    unittest.main()
