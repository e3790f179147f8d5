"""Issue 45, item 4: signed submissions. A bundle signed with ssh-keygen -Y
sign (namespace clomp-submission; results/clomp-results sign) validates with
--signers naming its signer, and OpenSSH itself (the oracle) verifies the
signature the package wrote; a changed byte, another key, another namespace
or no signature is refused (exit 1); the buyer's table and archive record
the signer."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bundle_lib  # noqa: E402
from bundle_lib import CLI, TOP, Stage  # noqa: E402

COMPARE = os.path.join(TOP, "clomp_compare")


def keygen(directory, name, comment):
    key = os.path.join(directory, name)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key], check=True, timeout=60)
    return key


@unittest.skipUnless(shutil.which("ssh-keygen"), "no ssh-keygen (apt-get install openssh-client)")
class Signatures(unittest.TestCase):
    """Item 4: ssh-keygen -Y sign/verify, namespace clomp-submission."""

    def setUp(self):
        self.stage = Stage()
        self.keys = os.path.join(self.stage.root, "keys")
        os.mkdir(self.keys)
        self.key = keygen(self.keys, "vendor", "vendor")
        self.other = keygen(self.keys, "other", "other")
        self.signers = os.path.join(self.keys, "allowed_signers")
        with open(self.signers, "w") as f:
            f.write('vendor@example.com namespaces="clomp-submission" %s' % open(self.key + ".pub").read())
        self.bundle = self.stage.pack()

    def tearDown(self):
        self.assertTrue(self.stage.canary_intact())
        self.stage.close()

    def validate(self, *args):
        return self.stage.run([bundle_lib.VALIDATE] + list(args))

    def sign(self, key):
        rc, out, _ = self.stage.run([CLI, "sign", key, self.bundle])
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.strip().splitlines()[-1], self.bundle + ".sig")

    def test_a_signed_bundle_validates_naming_its_signer_and_ssh_keygen_agrees(self):
        self.sign(self.key)
        rc, out, _ = self.validate("--signers", self.signers, self.bundle)
        self.assertEqual(rc, 3, out)
        self.assertRegex(out, r"VALID, NOT SUBMISSION-GRADE, signed by vendor@example\.com \(ED25519 key SHA256:\S+\): 8 runs")
        # The oracle: OpenSSH itself, on the file this wrote.
        with open(self.bundle, "rb") as f:
            done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", self.signers, "-I", "vendor@example.com", "-n",
                                   "clomp-submission", "-s", self.bundle + ".sig"], stdin=f, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=60)
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_a_changed_byte_is_refused(self):
        self.sign(self.key)
        good = open(self.bundle, "rb").read()
        # A byte of the gzip header's time (the archive still unpacks), then one of the data (it does not).
        for at, said in ((4, r"INVALID \(1 reason\)\n  - signature: .*does not verify the bundle as signed by vendor@example\.com"),
                         (len(good) // 2, r"INVALID: refused: .*; signature: .*does not verify")):
            data = bytearray(good)
            data[at] ^= 1
            open(self.bundle, "wb").write(bytes(data))
            rc, out, _ = self.validate("--signers", self.signers, self.bundle)
            self.assertEqual(rc, 1, out)
            self.assertRegex(out, said)

    def test_a_signature_by_another_key_or_none_is_refused(self):
        self.sign(self.other)
        rc, out, _ = self.validate("--signers", self.signers, self.bundle)
        self.assertEqual(rc, 1, out)
        self.assertIn("its key is none of", out)
        os.unlink(self.bundle + ".sig")
        rc, out, _ = self.validate("--signers", self.signers, self.bundle)
        self.assertEqual(rc, 1, out)
        self.assertIn("no signature %s.sig" % self.bundle, out)
        rc, out, _ = self.validate(self.bundle)     # without --signers: not asked, not said
        self.assertEqual(rc, 3, out)
        self.assertNotIn("signed by", out)

    def test_a_signature_for_another_namespace_is_refused(self):
        with open(self.bundle, "rb") as f:
            sig = subprocess.run(["ssh-keygen", "-Y", "sign", "-f", self.key, "-n", "file"], stdin=f, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, check=True, timeout=60).stdout
        open(self.bundle + ".sig", "wb").write(sig)
        rc, out, _ = self.validate("--signers", self.signers, self.bundle)
        self.assertEqual(rc, 1, out)

    def test_the_buyers_table_and_archive_record_the_signer(self):
        self.sign(self.key)
        page, db = os.path.join(self.stage.root, "page"), os.path.join(self.stage.root, "a.sqlite")
        rc, out, _ = self.stage.run([COMPARE, "--signers", self.signers, "--archive", db, "--out", page, self.bundle], timeout=120)
        self.assertEqual(rc, 0, out)
        doc = json.load(open(os.path.join(page, "buyers_table.json")))
        signer = doc["submissions"][0]["signer"]
        self.assertRegex(signer, r"^vendor@example\.com \(ED25519 key SHA256:\S+\)$")
        self.assertIn(["signed by", signer], doc["submissions"][0]["header"])
        self.assertEqual(sqlite3.connect(db).execute("SELECT signer FROM submissions").fetchall(), [(signer,)])
        os.unlink(self.bundle + ".sig")
        rc, out, _ = self.stage.run([COMPARE, "--signers", self.signers, "--out", page, self.bundle], timeout=120)
        self.assertEqual(rc, 1, out)
        self.assertIn("no signature", out)


if __name__ == "__main__":
    unittest.main()
