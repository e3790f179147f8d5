"""The charts are drawn by one gnuplot process for them all: each chart comes out exactly as gnuplot
draws it alone (the oracle: that chart's own script in its own gnuplot), however the chart before it
set its axes; should that one process fail, each chart is drawn by its own, and a chart gnuplot cannot
draw is named while the others are still drawn."""
import os
import re
import shutil
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "results"))
from clomp_results.suite import charts  # noqa: E402
from clomp_results.core import gnuplot  # noqa: E402

GNUPLOT = shutil.which("gnuplot")
ROWS = [[1, 2.0, 1.5, 2.5], [2, 3.5, 3.0, 4.0], [4, 6.0, 5.0, 7.5]]


def drawing(svg):
    """An SVG without its empty groups (<g ...></g>: nothing drawn). A fresh gnuplot opens its first
    output with one; one that drew a chart before does not: the only difference the batch makes."""
    return re.sub(rb"<g [^>]*>\n</g>\n", b"", svg)


def chart(stem, setup, clause="'%s.dat' using 1:2 with linespoints ls 1 title 'a series'"):
    return charts.Chart(stem, "Chart %s" % stem, setup, [clause % stem], {stem + ".dat": ROWS})


# The first chart changes every setting the others would inherit if nothing reset them.
LOUD = ("set logscale x 2; set format x '2^{%L}'; set xrange [0.8:5]; set yrange [1:100]; set key left bottom; "
        "set xlabel 'x'; set link y2 via y*3 inverse y/3; set y2tics; set bars large; set grid noxtics")
QUIET = "set xlabel 'threads'; set ylabel 'speedup'"


@unittest.skipUnless(GNUPLOT, "gnuplot is not installed")
class BatchedCharts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="clomp-charts-test.")
        self.log = os.path.join(self.dir, "calls.log")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def wrapper(self, refuse_batches=False):
        """A gnuplot that logs each start (and, with refuse_batches, fails a script of more than one chart)."""
        path = os.path.join(self.dir, "gnuplot-wrapper")
        with open(path, "w") as f:
            f.write("#!/bin/sh\nscript=$(cat)\necho start >>'%s'\n" % self.log)
            if refuse_batches:
                f.write("[ \"$(printf '%s\\n' \"$script\" | grep -c '^set output')\" -le 1 ] || exit 1\n")
            f.write("printf '%%s\\n' \"$script\" | exec '%s'\n" % GNUPLOT)
        os.chmod(path, stat.S_IRWXU)
        return path

    def alone(self, c, ext):
        """The oracle: the chart drawn by its own gnuplot, as the one-process-a-chart code drew it."""
        work = tempfile.mkdtemp(dir=self.dir)
        for name, rows in c.data.items():
            with open(os.path.join(work, name), "w") as f:
                f.write(gnuplot.data_file(rows))
        terminal = dict(charts.TERMINALS)[ext]
        ok, log = gnuplot.run(c.script(ext, terminal), work)
        self.assertTrue(ok, log)
        with open(os.path.join(work, "%s.%s" % (c.stem, ext)), "rb") as f:
            return f.read()

    def starts(self):
        with open(self.log) as f:
            return len(f.read().split())

    def test_one_gnuplot_draws_every_chart_as_it_would_be_drawn_alone(self):
        cs = [chart("first", LOUD), chart("second", QUIET), chart("third", QUIET + "; set logscale y 2")]
        drawn, errors = charts.draw(cs, os.path.join(self.dir, "out"), self.wrapper())
        self.assertEqual(errors, [])
        self.assertEqual(self.starts(), 1)
        for c in cs:
            self.assertEqual(sorted(drawn[c.stem]), ["png", "svg"])
            self.assertEqual(drawn[c.stem]["png"], self.alone(c, "png"), c.stem)   # the same bytes
            self.assertEqual(drawing(drawn[c.stem]["svg"]), drawing(self.alone(c, "svg")), c.stem)
            for ext in ("png", "svg"):
                with open(os.path.join(self.dir, "out", "%s.%s" % (c.stem, ext)), "rb") as f:
                    self.assertEqual(f.read(), drawn[c.stem][ext])

    def test_a_failed_batch_draws_each_chart_alone(self):
        cs = [chart("first", LOUD), chart("second", QUIET)]
        drawn, errors = charts.draw(cs, os.path.join(self.dir, "out"), self.wrapper(refuse_batches=True))
        self.assertEqual(errors, [])
        self.assertEqual(self.starts(), 1 + 2 * len(cs))
        for c in cs:
            self.assertEqual(drawn[c.stem]["svg"], self.alone(c, "svg"), c.stem)   # each drawn alone: the same bytes

    def test_a_chart_gnuplot_cannot_draw_is_named_and_the_others_are_drawn(self):
        cs = [chart("good", QUIET), chart("bad", QUIET, "'%s.dat' using 1:2 with nosuchstyle"), chart("after", QUIET)]
        drawn, errors = charts.draw(cs, os.path.join(self.dir, "out"), self.wrapper())
        self.assertEqual(sorted(drawn), ["after", "good"])
        self.assertEqual(len(errors), 2)
        self.assertTrue(all(e.startswith("gnuplot failed on bad.") for e in errors), errors)


if __name__ == "__main__":
    unittest.main()
