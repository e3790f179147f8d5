"""Hostile values travel through the charts and the HTML report as data:
a host name, arguments and cells with commas, quotes, '<', '&' and newlines
never break a table column or the page, and cells written as gnuplot or
HTML code (issue 30's cases) never run: a canary directory outside the
suite stays empty."""
import os
import re
import shutil
import subprocess
import unittest

from render_fixture import Scratch, Tables

HOSTILE = 'a,b "q" \'s\' <script>alert(1)</script> & x\nnext'


class HostileValues(unittest.TestCase):
    def setUp(self):
        self.s = Scratch()

    def tearDown(self):
        self.s.close()

    def plant(self):
        touch = os.path.join(self.s.canary, "pwned")

        def csv_cells(r):
            if r["run"] == "1":
                r["numa"] = HOSTILE                     # a run's numa cell (issue 30 item 4)
            if r["set"] == "6400zones" and r["run"] == "5":
                r["numThreads"] = '2"; system("touch %s"); set title "x' % touch   # issue 30 item 1
        self.s.edit_table(".csv", csv_cells)

        def construct_cells(r):
            if r["construct"] == "barrier":
                r["construct_name"] = "BARRIER'; system('touch %s') #\n%s" % (touch, HOSTILE)
            if r["construct"] == "single" and r["set"] == "constructs":
                r["inner_threads"] = HOSTILE
        self.s.edit_table(".constructs.csv", construct_cells)

        def process_cells(r):
            r["input"] = HOSTILE
        self.s.edit_table("_key.processes.csv", process_cells)
        with open(self.s.path(".env")) as f:
            env = f.read()
        env = re.sub(r"(?m)^host: .*$", "host: $'ev,il\"<b>&\\nx'", env, count=1)
        with open(self.s.path(".env"), "w") as f:
            f.write(env)

    def check_page(self, page):
        self.assertNotIn("<script", page)
        self.assertNotIn("<b>&", page)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; &amp; x", page)
        for table in Tables(page).tables:
            header = len(table[0])
            for row in table[1:]:
                # every row of a table has the header's cells (the construct table's level-2 note aside)
                self.assertEqual(len(row), header, "a row broke its table: %r" % (row,))

    def test_hostile_cells_stay_data_in_the_html(self):
        self.plant()
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        self.check_page(page)
        self.assertIn("BARRIER&#x27;; system(&#x27;touch", page)
        self.assertIn("ev,il&quot;&lt;b&gt;&amp;", page)

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
    def test_hostile_cells_never_run_in_gnuplot(self):
        self.plant()
        rc, err, page = self.s.render("yes")
        self.assertEqual(rc, 0, err)
        self.assertTrue(self.s.canary_untouched(), os.listdir(self.s.canary))
        self.check_page(page)
        # the hostile construct name is drawn as a legend entry: the chart exists and holds it as text
        with open(os.path.join(self.s.dir, "CLOMP_vm_1_charts", "constructs_sync.svg"), encoding="utf-8") as f:
            svg = f.read()
        self.assertIn("system(&apos;touch", svg.replace("&#39;", "&apos;").replace("'", "&apos;"))


@unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
class GnuplotQuoting(unittest.TestCase):
    """gnuplot itself is the oracle: a quoted string prints back as the text, and runs nothing."""

    def test_quoted_text_is_only_text(self):
        from clomp_results.core import gnuplot
        s = Scratch()
        try:
            touch = os.path.join(s.canary, "pwned")
            texts = ['2"; system("touch %s"); set title "x' % touch,
                     "BARRIER'; system('touch %s') #" % touch,
                     "`touch %s`" % touch, "@GPVAL_PWD", "a\\nb", "tab\there", "new\nline; system('touch %s')" % touch]
            script = "".join("print %s\n" % gnuplot.quote(t) for t in texts)
            done = subprocess.run(["gnuplot"], input=script.encode(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  cwd=s.root, timeout=30)
            printed = done.stdout.decode().splitlines()
            expected = ["".join(c if c >= " " else " " for c in t) for t in texts]
            self.assertEqual(printed, expected)
            self.assertTrue(s.canary_untouched())
        finally:
            s.close()


if __name__ == "__main__":
    unittest.main()
