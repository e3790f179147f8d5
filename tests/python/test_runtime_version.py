"""Issue 49, item 4's remainder: the buyer's table and the suite's page name
each machine's OpenMP runtime and its version, one line, from the records
(ompt.runtime, runtime_file, runtime_path, runtime_version), the runtime
profiles (env/runtimes) and a bundle's openmp_runtime.txt; "version
unknown" with every reason when none says. The records here are the golden
suite's with the facts a newer clomp writes put in by the test; each
assertion names a fact the test put there."""
from __future__ import annotations

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import GOLDEN, TOP, Stage  # noqa: E402
from clomp_results.suite import html_page  # noqa: E402
from clomp_results.core import loader, machine_facts, runtime_profiles  # noqa: E402
from clomp_results.buyers import submissions  # noqa: E402

LLVM19 = runtime_profiles.load("libomp19").value("library")


def golden_record():
    with open(os.path.join(GOLDEN, "CLOMP_vm_1_key.run1.json")) as f:
        return json.load(f)


def with_runtime(doc, **ompt):
    doc = json.loads(json.dumps(doc))
    doc["ompt"].update(ompt)
    return doc


class RuntimeVersion(unittest.TestCase):
    def test_a_record_before_schema_minor_15_of_libgomp_says_unknown_and_why(self):
        said = machine_facts.runtime_version([golden_record()])
        self.assertTrue(said.startswith("libgomp (libgomp.so.1.0.0): version unknown: "), said)
        for why in ("libgomp has no OMPT", "no library path (a clomp before schema minor 15)", "no openmp_runtime.txt"):
            self.assertIn(why, said)

    def test_the_privately_unpacked_llvm_19_is_named_by_its_profile_and_its_path(self):
        path = os.path.join(TOP, LLVM19)
        doc = with_runtime(golden_record(), runtime="libomp", runtime_file="libomp.so.5", runtime_path=path,
                           runtime_version="LLVM OMP version: 5.0.20140926")
        said = machine_facts.runtime_version([doc, doc])
        self.assertEqual(said, "libomp (%s): profile libomp19; LLVM 19 (its path); OMPT says LLVM OMP version: 5.0.20140926" % path)

    def test_the_bundles_package_version_names_the_version_of_its_runtime_file(self):
        text = ("runtime: libomp (libomp.so.5), named by 1 run record(s)\n  version: 1:14.0.6-12\n"
                "runtime: libgomp (libgomp.so.1.0.0), named by 8 run record(s)\n  path: /usr/lib/libgomp.so.1\n  version: 12.2.0-14\n")
        said = machine_facts.runtime_version([golden_record()], text)
        self.assertEqual(said, "libgomp (libgomp.so.1.0.0): package version 12.2.0-14 on an unnamed machine, the machine "
                               "that made the bundle, not necessarily the runs' host vm (openmp_runtime.txt)")

    def test_the_package_version_is_the_runs_host_s_only_when_the_bundle_was_made_there(self):
        text = ("# bundled on: %s\nruntime: libgomp (libgomp.so.1.0.0), named by 8 run record(s)\n  version: 12.2.0-14\n")
        doc = golden_record()
        self.assertEqual(machine_facts.runtime_version([doc], text % doc["host"]),
                         "libgomp (libgomp.so.1.0.0): package version 12.2.0-14 (the bundle's openmp_runtime.txt, made "
                         "on the runs' host)")
        self.assertIn("12.2.0-14 on login1, the machine that made the bundle, not necessarily the runs' host %s"
                      % doc["host"], machine_facts.runtime_version([doc], text % "login1"))

    def test_processes_that_ran_different_runtimes_are_each_named_with_their_count(self):
        other = with_runtime(golden_record(), runtime="libomp", runtime_file="libomp.so.5", runtime_path="/usr/lib/llvm-16/lib/libomp.so.5")
        said = machine_facts.runtime_version([golden_record(), other, other])
        self.assertIn("libomp (/usr/lib/llvm-16/lib/libomp.so.5): LLVM 16 (its path) (2 processes)", said)
        self.assertIn("version unknown", said.split("; libomp")[0])
        self.assertIn("(1 process)", said)

    def test_a_record_without_its_runtime_says_unknown(self):
        doc = golden_record()
        del doc["ompt"]
        self.assertEqual(machine_facts.runtime_version([doc]), "unknown: the record names no OpenMP runtime (no ompt.runtime)")

    def test_the_buyers_table_and_the_suite_page_carry_the_line(self):
        stage = Stage()
        try:
            path = os.path.join(TOP, LLVM19)
            for name in os.listdir(stage.suite):
                if name.endswith(".json"):
                    with open(stage.path(name)) as f:
                        doc = with_runtime(json.load(f), runtime="libomp", runtime_file="libomp.so.5", runtime_path=path)
                    with open(stage.path(name), "w") as f:
                        json.dump(doc, f)
            want = "libomp (%s): profile libomp19; LLVM 19 (its path)" % path
            r = submissions.load(stage.suite, "s")[0]
            self.assertEqual(dict(r["header"])["OpenMP runtime version"], want)
            self.assertEqual(r["runtime_version"], want)
            suite = loader.load_suite(stage.suite)
            self.assertIn("<tr><th>OpenMP runtime and version</th><td>%s</td></tr>" % want,
                          "\n".join(html_page.environment_section(suite)))
        finally:
            stage.close()


if __name__ == "__main__":
    unittest.main()
