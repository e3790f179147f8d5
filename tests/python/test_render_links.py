"""The report writes into the suite's directory and nowhere else: a chart
file, the charts directory or the page planted as a link to a file outside
is refused (exit 2) and the outside file keeps its bytes; a FIFO at the
page's name is refused without blocking; a link, FIFO or device among the
suite's files makes the loader (safe_io) refuse the suite; a .svg planted in
the charts directory is never inlined; temporary files are not left behind."""
import os
import shutil
import stat
import unittest

from render_fixture import NAME, Scratch


class PlantedFiles(unittest.TestCase):
    def setUp(self):
        self.s = Scratch()
        self.outside = os.path.join(self.s.canary, "precious")
        with open(self.outside, "w") as f:
            f.write("precious\n")

    def tearDown(self):
        self.s.close()

    def assert_outside_intact(self):
        with open(self.outside) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertEqual(os.listdir(self.s.canary), ["precious"])

    def assert_no_temporaries(self):
        for root, dirs, files in os.walk(self.s.dir):
            self.assertEqual([f for f in files + dirs if ".tmp." in f], [], root)

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
    def test_a_chart_linked_outside_is_refused(self):
        charts = self.s.path("_charts")
        os.mkdir(charts)
        os.symlink(self.outside, os.path.join(charts, "efficacy.png"))
        rc, err, _ = self.s.render("yes")
        self.assertEqual(rc, 2, err)
        self.assertIn("efficacy.png: a symbolic link", err)
        self.assertTrue(os.path.islink(os.path.join(charts, "efficacy.png")))
        self.assert_outside_intact()
        self.assert_no_temporaries()

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
    def test_a_charts_directory_linked_outside_is_refused(self):
        os.symlink(self.s.canary, self.s.path("_charts"))
        rc, err, _ = self.s.render("yes")
        self.assertEqual(rc, 2, err)
        self.assertIn("_charts: a symbolic link", err)
        self.assert_outside_intact()

    def test_a_page_linked_outside_is_refused(self):
        os.symlink(self.outside, self.s.path(".html"))
        rc, err, _ = self.s.render("no")
        self.assertEqual(rc, 2, err)
        self.assert_outside_intact()
        self.assert_no_temporaries()

    def test_a_fifo_at_the_page_is_refused_without_blocking(self):
        os.mkfifo(self.s.path(".html"))
        rc, err, _ = self.s.render("no")
        self.assertEqual(rc, 2, err)
        self.assertIn(".html: a FIFO", err)
        self.assertTrue(stat.S_ISFIFO(os.lstat(self.s.path(".html")).st_mode))

    def test_a_link_among_the_suite_files_refuses_the_suite(self):
        os.unlink(self.s.path("_key.processes.txt"))
        os.symlink(self.outside, self.s.path("_key.processes.txt"))
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 2, err)
        self.assertIsNone(page)
        self.assert_outside_intact()

    def test_a_fifo_among_the_suite_files_refuses_the_suite(self):
        os.unlink(self.s.path("_key.full"))
        os.mkfifo(self.s.path("_key.full"))
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 2, err)
        self.assertIsNone(page)

    def test_a_planted_svg_is_never_inlined(self):
        charts = self.s.path("_charts")
        os.mkdir(charts)
        with open(os.path.join(charts, "efficacy.svg"), "w") as f:
            f.write('<svg><script>alert("planted")</script></svg>\n')
        rc, err, page = self.s.render("no")     # no charts drawn in this process: nothing inlined
        self.assertEqual(rc, 0, err)
        self.assertNotIn("planted", page)
        self.assertNotIn("<svg", page)

    def test_the_page_replaces_a_regular_file_keeping_its_mode(self):
        with open(self.s.path(".html"), "w") as f:
            f.write("old\n")
        os.chmod(self.s.path(".html"), 0o640)
        rc, err, page = self.s.render("no")
        self.assertEqual(rc, 0, err)
        self.assertIn("<h1>CLOMP results: %s</h1>" % NAME, page)
        self.assertEqual(stat.S_IMODE(os.stat(self.s.path(".html")).st_mode), 0o640)
        self.assert_no_temporaries()

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed")
    def test_drawing_leaves_only_the_charts_and_the_page(self):
        before = set(os.listdir(self.s.dir))
        rc, err, page = self.s.render("yes")
        self.assertEqual(rc, 0, err)
        self.assertEqual(set(os.listdir(self.s.dir)) - before, {NAME + ".html", NAME + "_charts"})
        self.assert_no_temporaries()
        self.assertEqual(page.count("<svg"), len([f for f in os.listdir(self.s.path("_charts")) if f.endswith(".svg")]))


class SafeWrite(unittest.TestCase):
    """safe_write on its own (the loader refuses planted files first; this holds if one appears after it read)."""

    def setUp(self):
        self.s = Scratch()

    def tearDown(self):
        self.s.close()

    def test_replace_file_refuses_a_link_a_fifo_and_a_directory(self):
        from clomp_results.core import safe_write
        outside = os.path.join(self.s.canary, "precious")
        with open(outside, "w") as f:
            f.write("precious\n")
        os.symlink(outside, os.path.join(self.s.dir, "link.png"))
        os.mkfifo(os.path.join(self.s.dir, "fifo.png"))
        os.mkdir(os.path.join(self.s.dir, "dir.png"))
        for name, kind in (("link.png", "a symbolic link"), ("fifo.png", "a FIFO"), ("dir.png", "a directory")):
            with self.assertRaises(safe_write.UnsafeTarget) as caught:
                safe_write.write_text(self.s.dir, name, "data")
            self.assertIn("is %s: refused" % kind, str(caught.exception))
        with open(outside) as f:
            self.assertEqual(f.read(), "precious\n")
        self.assertEqual(sorted(f for f in os.listdir(self.s.dir) if ".tmp." in f), [])

    def test_open_dir_refuses_a_linked_directory(self):
        from clomp_results.core import safe_write
        os.symlink(self.s.canary, os.path.join(self.s.dir, "charts"))
        with self.assertRaises(safe_write.UnsafeTarget):
            safe_write.open_dir(os.path.join(self.s.dir, "charts"), create=True)


if __name__ == "__main__":
    unittest.main()
