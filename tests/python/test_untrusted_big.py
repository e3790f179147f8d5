"""Issue 45, the full lane: the oversized headers of the second security
trial as they were (a GNU long name of 300 MiB and of 1 GiB, really there,
gzip-compressed to a few MB), each refused with one line, the validator's
peak memory under 300 MB (the old reader held 626 MiB, then ran out at
1 GiB); and 300 random mutations of the golden bundle (test_untrusted.fuzz),
none ending in a traceback. Times are the
bench's (bench/hostile_bundles.py), not asserted here."""
from __future__ import annotations

import gzip
import os
import sys
import tarfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import NAME, VALIDATE  # noqa: E402
from test_untrusted import StagedHeaders, fuzz, gnu_header, suite_tar  # noqa: E402

PEAK_BYTES = 300 * 1000 * 1000


def long_name_bundle(stage, size, out_name):
    """The staged suite, then a GNU long-name header of SIZE bytes with all of them ('a's), then a member."""
    out = os.path.join(stage.root, out_name)
    chunk = b"a" * (1 << 20)
    with gzip.open(out, "wb", compresslevel=1) as f:
        f.write(suite_tar(stage))
        f.write(gnu_header("././@LongLink", b"L", size))
        for _ in range(size // len(chunk)):
            f.write(chunk)
        f.write(b"\0" * (-size % 512))
        info = tarfile.TarInfo(NAME + "/x")
        f.write(info.tobuf(format=tarfile.GNU_FORMAT))
    return out


def peak_of(stage, argv):
    """(exit status, output, peak resident bytes) of ARGV, measured by a wrapper process."""
    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)\n"
            "sys.stdout.write(p.stdout.decode('utf-8', 'replace'))\n"
            "print('PEAK %d %d' % (p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024))\n")
    rc, out, _ = stage.run([sys.executable, "-c", code] + argv, timeout=300)
    lines = out.strip().splitlines()
    _, status, peak = lines[-1].split()
    return int(status), "\n".join(lines[:-1]), int(peak)


class OversizedHeaders(StagedHeaders, unittest.TestCase):
    def test_a_real_300_mib_and_1_gib_long_name_are_refused_in_under_300_mb(self):
        for size in (300 << 20, 1 << 30):
            bundle = long_name_bundle(self.stage, size, "long.tar.gz")
            rc, out, peak = peak_of(self.stage, [VALIDATE, bundle])
            self.assertLess(peak, PEAK_BYTES, "peak resident memory %d bytes (%s)" % (peak, out[:200]))
            self.assertEqual(rc, 1, out)
            self.assertRegex(out, r"a GNU long-name header of %d bytes, over the bound of 1020 bytes for a name" % size)
            self.assertEqual(len(out.splitlines()), 1, out)
            os.unlink(bundle)


class ManyMutations(unittest.TestCase):
    def test_300_random_mutations_of_the_golden_bundle_end_in_no_traceback(self):
        fuzz(self, 300, int(os.environ.get("CLOMP_FUZZ_SEED", "4545")))


if __name__ == "__main__":
    unittest.main()
