"""The validator recomputes a bundled grain search (grain_check.py): the golden suite, quiet, with a grain run
beside it (stand-in records of a chosen speed-up curve, its report written by grain-report itself) is valid,
and the buyer's METG(50%) says the validator recomputed it; a stated METG(50%), answer or best team that its
records do not give, a record changed after the report, a missing plan or record, and top-level teams that are
not the static schedule's are each refused with a reason naming the member and both values."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import unittest

from bundle_lib import CLI, NAME, TOP, Stage

from clomp_results.buyers import submissions

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
STEM = NAME + "_grain"
SIZES = (64, 1024, 16384)


def record(threads: int, zones: int, call: int) -> dict:
    """A stand-in process's record: Serial Ref's loop Z x 1 ns, Static OMP's that over 2Z / (Z + 300), each
    jittered by under 1% (tests/grain.t's stand-in clomp)."""
    serial = zones * 0.001 * (1 + (call % 7) / 1000)
    static = zones * 0.001 / (2 * zones / (zones + 300)) * (1 + (call % 5) / 1000)
    return {"schema": "clomp-result", "schema_version": 1, "noise_census": {"busy": False}, "measurements": [
        {"key": "serial", "name": "Serial Ref", "role": "reference", "selected": True, "threads": 1, "valid": True,
         "us_per_loop": serial},
        {"key": "static", "name": "Static OMP", "role": "checked", "selected": True, "threads": threads, "valid": True,
         "us_per_loop": static}]}


def add_grain_run(directory: str) -> None:
    """A grain search of team 2 beside the suite in DIRECTORY, as the suite leaves it (suite/grain.sh)."""
    stem = os.path.join(directory, STEM)
    subprocess.run([CLI, "grain-plan", "start", stem, "2", "--grain", "--teams", "2", "--replicates", "4", "--factor",
                    "16", "--bisections", "0", "--time-scale", "1", "--max-zones", "16384", "/bin/true"], check=True)
    call, runs = 0, []
    for zones in SIZES:
        for r in range(1, 5):
            call += 1
            path = "%s_t2z%dr%d.json" % (stem, zones, r)
            with open(path, "w") as f:
                json.dump(record(2, zones, call), f)
            runs.append("%s\t0\t0.500\n" % path)
    with open(stem + ".runs", "w") as f:
        f.write("".join(runs))
    subprocess.run([CLI, "grain-report", stem, HELPER], check=True, stdout=subprocess.DEVNULL)


class GrainCheck(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stage = Stage(quiet=True)
        add_grain_run(cls.stage.suite)
        cls.stage.remanifest()
        cls.pristine = cls.stage.suite + ".pristine"
        shutil.copytree(cls.stage.suite, cls.pristine)

    @classmethod
    def tearDownClass(cls):
        cls.stage.close()

    def setUp(self):
        shutil.rmtree(self.stage.suite)
        shutil.copytree(self.pristine, self.stage.suite)

    def grain(self):
        with open(self.stage.path(STEM + ".json")) as f:
            return json.load(f)

    def write_grain(self, doc):
        with open(self.stage.path(STEM + ".json"), "w") as f:
            json.dump(doc, f, indent=1)

    def refused(self, *must):
        self.stage.remanifest()
        rc, out, _ = self.stage.validate(self.stage.suite, timeout=120)
        self.assertEqual(rc, 1, out)
        for m in must:
            self.assertIn(m, out)
        return out

    def test_a_grain_run_its_records_give_is_valid_and_the_buyer_quotes_it_as_recomputed(self):
        rc, out, _ = self.stage.validate(self.stage.suite, timeout=120)
        self.assertIn(rc, (0, 3), out)
        team = self.grain()["schedules"][0]["teams"][0]
        self.assertTrue(team["half_efficiency"]["decided"], team["half_efficiency"])   # 1024 zones: 78% at 2 threads
        self.assertEqual(team["half_efficiency"]["zones"], 1024)
        node = submissions.load(self.stage.suite, "vm")[0]["node"]   # 4 processes: a median, no interval (6)
        self.assertRegex(node["grain_metg50_us"]["text"], r"^<= [0-9.]+ us at 2 threads \(1024 zones "
                         r"reached 50%; 64 zones, the size below, did not; from CLOMP_vm_1_grain.json, recomputed by the "
                         r"validator from its process records\)$")

    def test_a_stated_metg_its_records_do_not_give_is_refused(self):
        doc = self.grain()
        metg = doc["schedules"][0]["teams"][0]["half_efficiency"]["metg_us"]
        true_value = metg["value"]
        metg["value"] = true_value / 2
        doc["teams"] = doc["schedules"][0]["teams"]
        self.write_grain(doc)
        self.refused("CLOMP_vm_1_grain.json: Static OMP at 2 threads: half_efficiency.metg_us.value is %s, its process "
                     "records give %s" % (json.dumps(true_value / 2), json.dumps(true_value)))
        node = submissions.load(self.stage.suite, "vm")[0]["node"]
        self.assertIn("as bundled: the validator refused the submission", node["grain_metg50_us"]["text"])

    def test_a_stated_answer_or_best_team_its_records_do_not_give_is_refused(self):
        doc = self.grain()
        doc["schedules"][0]["teams"][0]["smallest_speedup"]["zones"] = 64
        doc["schedules"][0]["best_team"][0]["threads"] = 2
        doc["teams"], doc["best_team"] = doc["schedules"][0]["teams"], doc["schedules"][0]["best_team"]
        self.write_grain(doc)
        self.refused("Static OMP at 2 threads: smallest_speedup.zones is 64, its process records give 1024",
                     "Static OMP: best_team[0].threads is 2, its process records give 1")

    def test_a_record_changed_after_the_report_is_refused(self):
        path = self.stage.path(STEM + "_t2z1024r2.json")
        with open(path) as f:
            doc = json.load(f)
        doc["measurements"][1]["us_per_loop"] *= 3   # Static OMP three times slower: 1024 zones no longer reach 50%
        with open(path, "w") as f:
            json.dump(doc, f)
        self.refused("CLOMP_vm_1_grain.json: Static OMP at 2 threads: ", "its process records give")

    def test_a_grain_run_without_its_plan_or_a_record_is_refused(self):
        os.unlink(self.stage.path(STEM + ".plan"))
        os.unlink(self.stage.path(STEM + "_t2z64r3.json"))
        self.refused("CLOMP_vm_1_grain.json states the grain search's answers, but the bundle has no "
                     "CLOMP_vm_1_grain.plan: they cannot be recomputed")
        shutil.copy(os.path.join(self.pristine, STEM + ".plan"), self.stage.path(STEM + ".plan"))
        self.refused("CLOMP_vm_1_grain.runs names 1 record(s) of processes that ended OK which the bundle does not "
                     "carry (CLOMP_vm_1_grain_t2z64r3.json)")

    def test_top_level_teams_that_are_not_the_static_schedules_and_a_document_of_another_kind_are_refused(self):
        doc = self.grain()
        doc["teams"] = []
        self.write_grain(doc)
        self.refused("CLOMP_vm_1_grain.json: its top-level teams and best_team are not its static schedule's")
        self.write_grain({"schema": "clomp-result"})
        self.refused("CLOMP_vm_1_grain.json: not a clomp-grain document")



class GrainReportText(unittest.TestCase):
    def test_every_class_of_control_character_in_a_record_or_the_plan_reaches_no_text_or_csv_raw(self):
        """The 22 classes of the bundle tests in the schedule's name of every record and in the plan's binding
        and binary: the grain report's text and CSV carry none raw (safe_text.lines_text), by Python's Unicode
        database."""
        from clomp_results.grain import grain_report
        from test_untrusted_strings import CLASSES, raw_in_lines
        stage = Stage()
        try:
            add_grain_run(stage.suite)
            stem = stage.path(STEM)
            records = [stage.path(n) for n in os.listdir(stage.suite) if n.startswith(STEM + "_t")]
            with open(stem + ".plan") as f:
                plan = json.load(f)
            for cls, payload in CLASSES.items():
                for path in records:
                    with open(path) as f:
                        doc = json.load(f)
                    doc["measurements"][1]["name"] = "Static" + payload
                    with open(path, "w") as f:
                        json.dump(doc, f)
                plan["binding"], plan["settings"]["exe"] = "close" + payload, "./clomp" + payload
                with open(stem + ".plan", "w") as f:
                    json.dump(plan, f)
                text, csv_text, _, _ = grain_report.report(stem, HELPER)
                self.assertEqual(raw_in_lines(text) + raw_in_lines(csv_text), [], cls)
                self.assertIn("Static", text)
        finally:
            stage.close()


if __name__ == "__main__":
    unittest.main()
