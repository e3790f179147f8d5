"""Control characters in a bundle's strings (issue 45; the last review's
finding): ESC, BEL, CR, LF, TAB, BS, NUL, DEL, C1's CSI, the bidirectional
overrides and isolates and the line separators, put in every string field of
every JSON record (a brute-force loop: each class in every field at once,
then each field alone), never reach the buyer's table's HTML, CSV or JSON,
the archive, the validator's lines or the terminal raw; the fields the table
shows (the compiler, the runtime) show them escaped. A cluster node summary
shows any of them escaped in what it says (CPU model, runtime, plan, failure,
busy reason) and is refused with one in its node's name. The oracle is Python's
own Unicode database (category Cc, Cf (invisible format characters:
zero-width space, word joiner, byte-order mark, tags), Zl, Zp, and the bidirectional control
characters of Unicode's Bidi_Control property), not the package's pattern."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import unicodedata
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import NAME, TOP, Stage  # noqa: E402
from clomp_results.buyers import archive, buyers_cli, buyers_table, submissions  # noqa: E402
from clomp_results.cluster import cluster_figures, cluster_nodes  # noqa: E402
from clomp_results.suite import report  # noqa: E402
from clomp_results.core import stats_helper  # noqa: E402
from clomp_results.core.safe_io import Refused  # noqa: E402
from clomp_results.core.safe_text import for_terminal  # noqa: E402

COMPARE = os.path.join(TOP, "clomp_compare")
FULL_LANE = os.environ.get("CLOMP_TEST_LANE") == "full"
# One payload per class, each inside text so that a stripped or a raw character both show.
CLASSES = {
    "ESC": "\x1b[2J\x1b]0;owned\x07", "BEL": "\x07", "CR": "\rOK", "LF": "\nforged line", "TAB": "\t=cmd", "BS": "\x08\x08",
    "NUL": "\x00", "DEL": "\x7f", "C1 CSI": "\x9b31m", "C1 NEL": "\x85", "RLO": "\u202egpj.exe", "LRO": "\u202d",
    "RLI": "\u2067", "PDI": "\u2069", "RLM": "\u200f", "ALM": "\u061c", "LS": "\u2028", "PS": "\u2029",
    "ZWSP": "gcc\u200b", "WJ": "\u2060", "BOM": "\ufeff", "TAG": "\U000e0067\U000e0063\U000e0063",
}
BIDI_CONTROL = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def raw_controls(text: str):
    """The characters of TEXT no output may carry raw (the oracle)."""
    return sorted({c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") or ord(c) in BIDI_CONTROL})


def raw_in_lines(text: str):
    """raw_controls of a text of lines: its newlines are its own; any other control is not."""
    return raw_controls(text.replace("\n", ""))


def string_paths(doc, path=()):
    """Every string field of a JSON document: the path to it."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from string_paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from string_paths(v, path + (i,))
    elif isinstance(doc, str):
        yield path


def kind(path):
    """A field's path with its list indexes as '*': the same field of every measurement, thread, warning."""
    return tuple("*" if isinstance(k, int) else k for k in path)


def put(doc, path, payload):
    here = doc
    for k in path[:-1]:
        here = here[k]
    here[path[-1]] = here[path[-1]][:3] + payload + here[path[-1]][3:]


def all_strings(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from all_strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from all_strings(v)
    elif isinstance(obj, str):
        yield obj


class ForgedStrings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = Stage()
        cls.records = sorted(n for n in os.listdir(cls.stage.suite) if n.endswith(".json"))
        cls.golden = dict((n, open(os.path.join(cls.stage.suite, n)).read()) for n in cls.records)
        cls.helper = stats_helper.find()

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def forge(self, choose):
        """The staged suite with CHOOSE(record, path) -> payload or None applied to every string field of every
        record (its MANIFEST rewritten: the forger's)."""
        for name in self.records:
            doc = json.loads(self.golden[name])
            for path in list(string_paths(doc)):
                payload = choose(name, path)
                if payload is not None:
                    put(doc, path, payload)
            with open(self.stage.path(name), "w") as f:
                json.dump(doc, f)
        self.stage.remanifest()

    def table_outputs(self, where):
        """Every output of the buyer's table from the staged suite, in process: the files' texts, the JSON's
        strings, the records' strings."""
        subs = submissions.load(self.stage.suite, "forged")
        table = buyers_table.build(subs, self.helper)
        shutil.rmtree(where, ignore_errors=True)
        names = buyers_cli.write(where, subs, table)
        texts = dict((os.path.basename(n), open(n, encoding="utf-8").read()) for n in names)
        return subs, texts

    def assert_clean(self, subs, texts, what):
        for name, text in texts.items():
            self.assertEqual(raw_in_lines(text), [], "%s: %s carries raw control characters" % (what, name))
        strings = list(all_strings(json.loads(texts["buyers_table.json"]))) + list(all_strings(subs))
        bad = [s for s in strings if raw_controls(s)]
        self.assertEqual(bad[:3], [], "%s: strings of the records or the JSON carry raw control characters" % what)

    def test_each_class_in_every_string_field_reaches_no_output_raw(self):
        """Each class in every string field but "schema" (it unmakes the record): none raw, compiler and runtime escaped
        (the quick lane: six classes at a time, 4 tables instead of 22)."""
        out = os.path.join(self.stage.root, "table")
        classes = list(CLASSES.items())
        if not FULL_LANE:  # the quick lane: the classes six at a time, one after another in one payload
            classes = [(" ".join(c for c, _ in classes[i:i + 6]), "".join(p for _, p in classes[i:i + 6]))
                       for i in range(0, len(classes), 6)]
        for cls, payload in classes:
            self.forge(lambda name, path: payload if path != ("schema",) else None)
            subs, texts = self.table_outputs(out)
            self.assert_clean(subs, texts, cls)
            header = dict(subs[0]["header"])
            escaped = "".join(c if not raw_controls(c) else
                              ("\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c) if ord(c) < 0x10000
                               else "\\U%08x" % ord(c)) for c in payload)
            self.assertIn("GCC" + escaped, header["compiler"], cls)
            self.assertIn("lib" + escaped, header["OpenMP runtime"], cls)
            self.assertIn("GCC" + escaped, texts["buyers_table.csv"], cls)
        self.forge(lambda name, path: None)

    @unittest.skipUnless(FULL_LANE, "the full lane's (about 80 tables)")
    def test_each_field_alone_reaches_no_output_raw(self):
        """Each field alone (every record's, every list element's), so no refusal hides one: none raw."""
        out = os.path.join(self.stage.root, "table")
        kinds = sorted({kind(path) for name in self.records for path in string_paths(json.loads(self.golden[name]))})
        classes = list(CLASSES.items())
        for i, field in enumerate(kinds):
            cls, payload = classes[i % len(classes)]
            self.forge(lambda name, path: payload if kind(path) == field else None)
            subs, texts = self.table_outputs(out)
            self.assert_clean(subs, texts, "%s in %s" % (cls, ".".join(field)))
        self.assertGreater(len(kinds), 60)
        self.forge(lambda name, path: None)

    def test_the_validator_and_the_terminal_show_no_raw_control(self):
        """A bundle with the classes spread over its fields: clomp_validate's and clomp_compare's lines show none raw."""
        classes = list(CLASSES.values())
        counter = iter(range(10 ** 6))
        self.forge(lambda name, path: classes[next(counter) % len(classes)])
        bundle = self.stage.pack()
        rc, out, _ = self.stage.validate(bundle, timeout=120)
        self.assertIn(rc, (0, 1, 3), out)
        self.assertEqual(raw_in_lines(out), [], out)
        db = os.path.join(self.stage.root, "archive.db")
        page = os.path.join(self.stage.root, "page")
        rc, out, _ = self.stage.run([COMPARE, "--out", page, "--include-invalid", "--archive", db,
                                     "--name", "lab\x1bel\u202e=" + bundle], timeout=120)
        self.assertEqual(rc, 0, out)
        self.assertEqual(raw_in_lines(out), [], out)
        for name in os.listdir(page):
            with open(os.path.join(page, name), encoding="utf-8") as f:
                self.assertEqual(raw_in_lines(f.read()), [], name)
        self.forge(lambda name, path: None)

    def test_the_suites_own_page_shows_none_raw(self):
        """The suite's page (make plots, --bundle) from a suite with the classes spread over its fields: none raw."""
        classes = list(CLASSES.values())
        counter = iter(range(10 ** 6))
        self.forge(lambda name, path: classes[next(counter) % len(classes)] if path != ("schema",) else None)
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()):
            rc = report.render(os.path.join(self.stage.suite, NAME), "no", err)
        self.assertEqual(rc, 0, err.getvalue())
        with open(self.stage.path(NAME + ".html"), encoding="utf-8") as f:
            page = f.read()
        self.assertEqual(raw_in_lines(page), [])
        self.assertRegex(page, r"lib\\(x[0-9a-f]{2}|u[0-9a-f]{4})")   # the runtime, its character escaped, is on it
        self.forge(lambda name, path: None)

    def test_the_archive_escapes_what_an_older_clomp_stored_raw(self):
        subs = submissions._load(self.stage.suite, "raw")     # the record before the door's escaping
        subs[0]["header"].append(["compiler", "GCC\x1b[31m\u202e"])
        subs[0]["label"] = "raw\x07"
        db = archive.open_archive(os.path.join(self.stage.root, "old.db"))
        try:
            archive.add(db, subs[0])
            got = archive.select(db, "")
        finally:
            db.close()
        self.assertEqual([s for s in all_strings(got) if raw_controls(s)], [])
        self.assertIn("GCC\\x1b[31m\\u202e", [v for k, v in got[0]["header"] if k == "compiler"][-1])

    def test_a_cluster_node_summary_shows_any_class_in_a_text_it_says_escaped_and_refuses_it_in_a_name(self):
        """Each class in the CPU model, runtime, plan, failure and busy reason of two of three nodes: the cluster
        report's text, CSV, JSON and page carry none raw, and the text shows them escaped; in a node's name: refused."""
        from clomp_results.cluster import cluster, cluster_render
        good = {"clomp_node_summary": 1, "node": "node0001", "status": "failed", "failure": "exit 1",
                "facts": {"cpu_model": "Xeon", "cores": 8, "memory_gib": 64, "runtime": "libgomp", "plan": "quick"},
                "busy": True, "busy_reason": "a thread lost 40%", "figures": {}}
        cluster_nodes.summary_node(json.loads(json.dumps(good)), "node.json")
        said = [("failure",), ("busy_reason",)] + [("facts", k) for k in cluster_figures.FACTS
                                                   if isinstance(good["facts"][k], str)]
        where = os.path.join(self.stage.root, "cluster")
        os.environ["CLOMP_STATS"] = self.helper
        for cls, payload in CLASSES.items():
            shutil.rmtree(where, ignore_errors=True)
            os.makedirs(where)
            for i in range(3):
                doc = json.loads(json.dumps(good))
                doc["node"] = "node%04d" % i
                for path in said if i < 2 else []:
                    put(doc, path, payload)
                with open(os.path.join(where, "%d.json" % i), "w") as f:
                    json.dump(doc, f)
            for fmt in ("text", "csv", "json"):
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    rc = cluster.main(["--format", fmt, where])
                self.assertIn(rc, (0, 1), "%s: %s" % (cls, err.getvalue()))
                self.assertEqual(raw_in_lines(out.getvalue() + err.getvalue()), [], "%s in the %s report" % (cls, fmt))
                if fmt == "text":
                    self.assertIn("Xeo" + for_terminal(payload), out.getvalue(), cls)
            report = cluster.analyse(cluster_nodes.read_summaries([where]), self.helper)
            self.assertEqual(raw_in_lines(cluster_render.html_text(report)), [], "%s in the page (run_clomp.sh --nodes')" % cls)
            doc = json.loads(json.dumps(good))
            put(doc, ("node",), payload)
            with self.assertRaises(Refused, msg="%s in node" % cls) as e:
                cluster_nodes.summary_node(doc, "node.json")
            self.assertEqual(raw_controls(str(e.exception)), [])


if __name__ == "__main__":
    unittest.main()
