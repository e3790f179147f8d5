"""Helpers of the render tests: a private copy of tests/golden/suite, its
tables rewritten by column name, the package on sys.path, a canary directory
outside the suite that nothing may touch, and the report run as
`clomp-results report` runs it."""
import csv
import io
import os
import shutil
import sys
import tempfile
from html.parser import HTMLParser

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(TOP, "tests", "golden", "suite")
NAME = "CLOMP_vm_1"
sys.path.insert(0, os.path.join(TOP, "results"))

from clomp_results.suite import report  # noqa: E402
from bundle_lib import quiet_node  # noqa: E402


class Scratch(object):
    """A temp dir holding suite/ (a copy of the golden suite) and canary/ (must stay empty)."""

    def __init__(self, quiet: bool = False):
        """QUIET: the golden suite as a quiet node would have left it (bundle_lib.quiet_node)."""
        self.root = tempfile.mkdtemp(prefix="clomp-render-test.")
        self.dir = os.path.join(self.root, "suite")
        self.canary = os.path.join(self.root, "canary")
        shutil.copytree(GOLDEN, self.dir)
        if quiet:
            quiet_node(self.dir)
        os.mkdir(self.canary)
        os.unlink(self.path(".html"))     # the old code's page: the test makes its own

    def path(self, suffix):
        return os.path.join(self.dir, NAME + suffix)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def edit_table(self, suffix, change):
        """Rewrite a CSV by column name: change(row) edits each row (a dict) in place."""
        with open(self.path(suffix), newline="") as f:
            rows = list(csv.DictReader(f))
            columns = list(rows[0].keys())
        for r in rows:
            change(r)
        out = io.StringIO()
        w = csv.DictWriter(out, columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        with open(self.path(suffix), "w", newline="") as f:
            f.write(out.getvalue())

    def render(self, charts="no"):
        """(exit status, stderr text, the page or None)."""
        err = io.StringIO()
        saved = sys.stdout
        sys.stdout = io.StringIO()
        try:
            rc = report.render(os.path.join(self.dir, NAME), charts, err)
        finally:
            sys.stdout = saved
        page = None
        if os.path.isfile(self.path(".html")) and not os.path.islink(self.path(".html")):
            with open(self.path(".html"), encoding="utf-8") as f:
                page = f.read()
        return rc, err.getvalue(), page

    def canary_untouched(self):
        return os.listdir(self.canary) == []


class Tables(HTMLParser):
    """Every <table> of a page: rows of cell texts (whitespace collapsed)."""

    def __init__(self, text):
        HTMLParser.__init__(self)
        self.tables, self.row, self.cell, self.tags = [], None, None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.row = []
            self.tables[-1].append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def read_page(path):
    with open(path, encoding="utf-8") as f:
        return f.read()
