"""python3 tests/python/tap.py PATTERN...: the unittest modules of tests/python
matching each PATTERN, each test one TAP line (prove reads it); failures and
errors as TAP diagnostics. Exit 0 when all pass."""
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)


class TapResult(unittest.TestResult):
    def __init__(self):
        unittest.TestResult.__init__(self)
        self.n = 0

    def line(self, ok, test, extra=""):
        self.n += 1
        doc = (test.shortDescription() or "").replace("#", "")
        name = "%s.%s" % (type(test).__name__, test._testMethodName)
        print("%s %d - %s%s%s" % ("ok" if ok else "not ok", self.n, name, (": " + doc) if doc else "", extra))
        sys.stdout.flush()

    def addSuccess(self, test):
        self.line(True, test)

    def diag(self, err):
        for text in self._exc_info_to_string(err, None).splitlines():
            print("# " + text)

    def addFailure(self, test, err):
        self.line(False, test)
        self.diag(err)

    def addError(self, test, err):
        self.line(False, test)
        self.diag(err)

    def addSkip(self, test, reason):
        self.line(True, test, " # SKIP " + reason)


def main():
    suite = unittest.TestSuite()
    for pattern in sys.argv[1:] or ["test_*.py"]:
        suite.addTests(unittest.defaultTestLoader.discover(here, pattern=pattern, top_level_dir=here))
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
