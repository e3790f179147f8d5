"""Runs the package's unittest files and reports each test as a TAP line
(prove reads it): `python3 tests/python/tap_runner.py test_*.py ...`."""
from __future__ import annotations

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, ok, test, note=""):
        self.n += 1
        doc = (test.shortDescription() or test.id().rsplit(".", 1)[-1].replace("_", " ").replace("test ", "", 1))
        print("%s %d - %s: %s%s" % ("ok" if ok else "not ok", self.n, type(test).__name__, doc, note), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def _fail(self, test, err, store):
        store.append((test, self._exc_info_to_string(err, test)))
        self._line(False, test)
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# " + line)

    def addFailure(self, test, err):
        self._fail(test, err, self.failures)

    def addError(self, test, err):
        self._fail(test, err, self.errors)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP " + reason)


def main(files):
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for f in files:
        suite.addTests(loader.loadTestsFromName(os.path.splitext(os.path.basename(f))[0]))
    print("1..%d" % suite.countTestCases(), flush=True)
    result = TapResult()
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
