"""Test library: stage a valid bundle from tests/golden/suite and mutate
it. Everything is made under one private temporary directory (``Stage``),
with TMPDIR pointing inside it, and a canary directory beside it that no
test may touch (``canary_intact``)."""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(TOP, "tests", "golden", "suite")
NAME = "CLOMP_vm_1"
VALIDATE = os.path.join(TOP, "clomp_validate")
CLI = os.path.join(TOP, "results", "clomp-results")
sys.path.insert(0, os.path.join(TOP, "results"))


def manifest_of(directory: str) -> bytes:
    lines = []
    for here, _, names in os.walk(directory):
        for n in names:
            rel = os.path.relpath(os.path.join(here, n), directory)
            if rel == "MANIFEST":
                continue
            with open(os.path.join(here, n), "rb") as f:
                lines.append("%s  %s\n" % (hashlib.sha256(f.read()).hexdigest(), rel))
    return "".join(sorted(lines, key=lambda line: line[66:])).encode()


# A quiet node's census: each thread lost 1% of the probe's time (clomp calls a node busy from 25%, and
# quiet, for a submission, up to 10%: docs/noise.md).
QUIET_LOST_FRACTION = 0.01
FULL_NOISE_THREAD = re.compile(r"(?m)^(   Noise thread [0-9]+: .*, lost )[0-9.]+%")


def quiet_node(directory: str) -> None:
    """The golden suite in DIRECTORY as a quiet node would have left it. Its runs were made on a loaded 2-core VM
    whose noise census lost 43-57% per thread: by clomp's rule (a record before schema minor 7 carries no verdict,
    given.census_busy applies the rule to its figures) every key process was busy and gives no figure. The tests
    of what a process that gave its figures becomes use this copy: each run's census threads lost
    QUIET_LOST_FRACTION, in its record and in its .full text alike (the validator compares them); every other
    figure is the run's own."""
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        if re.search(r"\.run[0-9]+\.json$", name):
            with open(path) as f:
                doc = json.load(f)
            for t in (doc.get("noise_census") or {}).get("threads") or []:
                t["lost_fraction"] = QUIET_LOST_FRACTION
            with open(path, "w") as f:
                json.dump(doc, f, indent=1)
        elif name.endswith(".full"):
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(FULL_NOISE_THREAD.sub(lambda m: m.group(1) + "%.3f%%" % (100 * QUIET_LOST_FRACTION), text))


class Stage:
    def __init__(self, quiet: bool = False):
        self.root = tempfile.mkdtemp(prefix="clomp-test.")
        self.tmp = os.path.join(self.root, "tmp")       # TMPDIR of every command run
        self.canary = os.path.join(self.root, "canary")
        os.mkdir(self.tmp)
        os.mkdir(self.canary)
        with open(os.path.join(self.canary, "file"), "w") as f:
            f.write("canary\n")
        self.suite = os.path.join(self.root, "suite", NAME)
        shutil.copytree(GOLDEN, self.suite, ignore=shutil.ignore_patterns("README.md"))
        if quiet:
            quiet_node(self.suite)
        self.remanifest()

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def canary_intact(self) -> bool:
        with open(os.path.join(self.canary, "file")) as f:
            return os.listdir(self.canary) == ["file"] and f.read() == "canary\n"

    def leftovers(self):
        return os.listdir(self.tmp)

    def path(self, rel: str) -> str:
        return os.path.join(self.suite, rel)

    def remanifest(self):
        with open(self.path("MANIFEST"), "wb") as f:
            f.write(manifest_of(self.suite))

    def pack(self, out_name="bundle.tar.gz", extra=()):
        """The staged directory as a bundle; extra: (TarInfo, bytes or None) appended raw."""
        out = os.path.join(self.root, out_name)
        with tarfile.open(out, "w:gz") as tar:
            tar.add(self.suite, arcname=NAME)
            for info, data in extra:
                tar.addfile(info, io.BytesIO(data) if data is not None else None)
        return out

    def run(self, argv, timeout=30):
        env = dict(os.environ, TMPDIR=self.tmp)
        t0 = time.time()
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=timeout)
        return done.returncode, done.stdout.decode("utf-8", "replace"), time.time() - t0

    def validate(self, target, timeout=30):
        return self.run([VALIDATE, target], timeout)


def member(name, kind=tarfile.REGTYPE, data=b"", linkname="", size=None):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    info.size = len(data) if size is None else size
    info.mtime = 0
    return info, (data if kind == tarfile.REGTYPE else None)
