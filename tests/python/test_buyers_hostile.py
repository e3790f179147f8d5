"""Issue 33, item 4: hostile submissions to ./clomp_compare. Each is refused
(exit 1) with one line naming the member and the rule, nothing is written
(no page, nothing outside the test's own directory: the canary), and no
temporary directory is left behind. The extraction is safe_io's (issue 30)."""
from __future__ import annotations

import gzip
import io
import os
import sys
import tarfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import NAME, TOP, Stage, member  # noqa: E402

COMPARE = os.path.join(TOP, "clomp_compare")


class HostileSubmissions(unittest.TestCase):
    def setUp(self):
        self.stage = Stage()
        self.out = os.path.join(self.stage.root, "page")

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact(), "the canary directory was touched")
        self.assertEqual(self.stage.leftovers(), [], "a temporary directory was left behind")
        self.assertFalse(os.path.exists(self.out), "a page was written")
        self.stage.close()

    def refused(self, target, pattern, env=None):
        saved = dict(os.environ)
        os.environ.update(env or {})
        try:
            rc, out, _ = self.stage.run([COMPARE, "--out", self.out, target], timeout=60)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.assertEqual(rc, 1, out)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertRegex(out, r"^clomp_compare: .*refused: " + pattern)
        self.assertNotIn("\x1b", out)
        return out

    def test_a_path_traversal_member_is_refused(self):
        self.refused(self.stage.pack(extra=[member(NAME + "/../../evil", data=b"x")]), r".*\.\./\.\./evil: a '\.\.' path component")

    def test_an_absolute_member_is_refused(self):
        self.refused(self.stage.pack(extra=[member("/tmp/evil", data=b"x")]), r"/tmp/evil: an absolute path")

    def test_a_symbolic_link_leaving_the_bundle_is_refused(self):
        b = self.stage.pack(extra=[member(NAME + "/escape", tarfile.SYMTYPE, linkname=self.stage.canary + "/file")])
        self.refused(b, r"CLOMP_vm_1/escape: a symbolic link")

    def test_a_hard_link_leaving_the_bundle_is_refused(self):
        self.refused(self.stage.pack(extra=[member(NAME + "/x", tarfile.LNKTYPE, linkname="/etc/passwd")]), r"CLOMP_vm_1/x: a hard link")

    def test_a_fifo_member_and_a_fifo_given_as_the_submission_are_refused(self):
        self.refused(self.stage.pack(extra=[member(NAME + "/pipe", tarfile.FIFOTYPE)]), r"CLOMP_vm_1/pipe: a FIFO")
        fifo = os.path.join(self.stage.root, "submission.fifo")
        os.mkfifo(fifo)
        self.refused(fifo, r".*submission.fifo: not a regular file \(a FIFO\)")

    def test_more_members_than_the_bound_are_refused(self):
        extra = [member(NAME + "/m/%d" % i, data=b"") for i in range(60)]
        self.refused(self.stage.pack(extra=extra), r".*more than 50 members", env={"CLOMP_INPUT_MAX_MEMBERS": "50"})

    def test_a_member_larger_than_the_bound_is_refused_before_it_is_read(self):
        path = os.path.join(self.stage.root, "bomb.tar.gz")
        head = io.BytesIO()
        with tarfile.open(fileobj=head, mode="w") as tar:
            tar.add(self.stage.suite, arcname=NAME)
            end = tar.offset              # the end of the last member: end-of-archive blocks and padding follow
        info, _ = member(NAME + "/big.full", size=2 << 30)
        with gzip.open(path, "wb") as f:
            f.write(head.getvalue()[:end] + info.tobuf(format=tarfile.GNU_FORMAT))
        self.refused(path, r"CLOMP_vm_1/big.full: 2147483648 bytes, over the bound of")

    def test_names_with_newlines_quotes_and_html_are_refused_and_shown_escaped(self):
        name = NAME + '/a\nb"<img src=x onerror=alert(1)>'
        b = self.stage.pack(extra=[member(name, tarfile.SYMTYPE, linkname="/etc/passwd")])
        out = self.refused(b, r'CLOMP_vm_1/a\\nb"<img src=x onerror=alert\(1\)>: a name with characters other than')
        self.assertNotIn("a\nb", out)

    def test_a_regular_member_with_such_a_name_is_refused_at_the_door_even_with_include_invalid(self):
        # Names from a bundle are restricted to letters, digits, '.', '_' and '-' (issue 45): such a
        # member is not data to escape in the page but a refusal, and nothing is written.
        name = NAME + '/a\nb"<img src=x onerror=alert(1)>'
        b = self.stage.pack(extra=[member(name, data=b"x")])
        for args in ([], ["--include-invalid"]):
            rc, out, _ = self.stage.run([COMPARE] + args + ["--out", self.out, b], timeout=60)
            self.assertEqual(rc, 1, out)
            self.assertIn('refused: CLOMP_vm_1/a\\nb"<img src=x onerror=alert(1)>: a name with characters other than', out)
            self.assertNotIn("a\nb", out)
            self.assertFalse(os.path.exists(self.out))

if __name__ == "__main__":
    unittest.main()
