"""The validator recomputes a bundled grain search (grain_check.py): the golden suite, quiet, with a grain run
beside it (stand-in records of a chosen speed-up curve, its report written by grain-report itself) is valid,
and the buyer's METG(50%) says the validator recomputed it; a stated METG(50%), answer or best team that its
records do not give, a record changed after the report, a missing plan or record, and top-level teams that are
not the static schedule's are each refused with a reason naming the member and both values; so are a record
that is not JSON (nested past the parser's stack), a plan out of the search's ranges, a .runs that drops, adds,
repeats or reorders a process of the plan's own expansion (replayed from the records, a resumed search's restarts
as its .full numbers them), and a process marked failed without its .full section ending so."""
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

    def test_a_record_nested_deeper_than_the_parser_goes_is_refused_as_not_json(self):
        with open(self.stage.path(STEM + "_t2z64r1.json"), "w") as f:
            f.write("[" * 200000 + "]" * 200000)
        out = self.refused("CLOMP_vm_1_grain_t2z64r1.json: not JSON (")
        self.assertNotIn("Traceback", out)

    def test_a_plan_whose_settings_the_search_cannot_have_had_is_refused(self):
        """A factor of 1 would make the replayed search step forever: refused before anything is replayed."""
        with open(self.stage.path(STEM + ".plan")) as f:
            plan = json.load(f)
        plan["settings"]["factor"] = 1
        with open(self.stage.path(STEM + ".plan"), "w") as f:
            json.dump(plan, f)
        self.refused("CLOMP_vm_1_grain.plan: not the grain search's plan (factor is not a whole number from 2 to 16)")

    def runs_lines(self):
        with open(self.stage.path(STEM + ".runs")) as f:
            return f.read().splitlines(True)

    def write_runs(self, lines):
        with open(self.stage.path(STEM + ".runs"), "w") as f:
            f.write("".join(lines))

    def test_a_runs_list_that_drops_or_adds_a_process_of_its_plan_is_refused(self):
        """The plan (64, 1024, 16384 zones x 4 processes at team 2: nothing left to bisect at x16 with no
        bisections) runs 12 processes, in that order."""
        lines = self.runs_lines()
        self.assertEqual(len(lines), 12)
        self.write_runs(lines[:6] + lines[7:])
        self.refused("CLOMP_vm_1_grain.runs lacks process 7 of its plan, CLOMP_vm_1_grain_t2z1024r3.json")
        self.write_runs(lines[:8])   # the last size's processes deleted outright
        self.refused("CLOMP_vm_1_grain.runs lacks process 9 of its plan, CLOMP_vm_1_grain_t2z16384r1.json (8 of its 12 "
                     "processes listed; the plan has no time cap)")
        self.write_runs(lines + [lines[0].replace("z64r1", "z4096r1")])
        self.refused("CLOMP_vm_1_grain.runs lists CLOMP_vm_1_grain_t2z4096r1.json as process 13: its plan runs no such "
                     "process")
        self.write_runs(lines + [lines[3]])
        self.refused("CLOMP_vm_1_grain.runs lists CLOMP_vm_1_grain_t2z64r4.json twice")
        self.write_runs(lines[:2] + [lines[3], lines[2]] + lines[4:])
        self.refused("CLOMP_vm_1_grain.runs lists CLOMP_vm_1_grain_t2z64r4.json as process 3: its plan runs "
                     "CLOMP_vm_1_grain_t2z64r3.json there")

    def write_full(self, lines, numbers):
        """STEM.full as the driver writes it: one section a .runs line, numbered NUMBERS, with its exit status."""
        def section(n, line):
            record, rc = line.split("\t")[:2]
            return "=== process %d: ./clomp --schedules=serial,static 2 1 64 16 32 1 1 --json=%s\nclomp output\n" \
                   "=== end of process %d: exit status %s\n" % (n, record, n, rc)
        with open(self.stage.path(STEM + ".full"), "w") as f:
            f.write("".join(section(n, line) for n, line in zip(numbers, lines)))

    def report_again(self):
        subprocess.run([CLI, "grain-report", self.stage.path(STEM), HELPER], check=True, stdout=subprocess.DEVNULL)

    def valid(self):
        self.stage.remanifest()
        rc, out, _ = self.stage.validate(self.stage.suite, timeout=120)
        self.assertIn(rc, (0, 3), out)

    def test_a_process_marked_failed_needs_its_section_in_the_full_text_ending_with_that_exit_status(self):
        """2 of the 4 processes at 1024 zones marked failed (exit status 1), their records gone and the report
        rewritten from what is left: refused without a .full or with one whose section says otherwise; valid
        with the driver's sections of all 12."""
        lines = self.runs_lines()
        for i in (4, 5):
            path = lines[i].split("\t")[0]
            os.unlink(self.stage.path(os.path.basename(path)))
            lines[i] = "%s\t1\t0.500\n" % path
        self.write_runs(lines)
        self.report_again()
        self.refused("CLOMP_vm_1_grain.runs marks process 5 (CLOMP_vm_1_grain_t2z1024r1.json) failed with exit status "
                     "1, but the bundle has no CLOMP_vm_1_grain.full, where its failure would be")
        self.write_full(lines[:5] + [lines[5].replace("\t1\t", "\t0\t")] + lines[6:], range(1, 13))
        self.refused("CLOMP_vm_1_grain.runs: process 6 (CLOMP_vm_1_grain_t2z1024r2.json, exit status 1) is not "
                     "CLOMP_vm_1_grain.full's section 6, process 6 (CLOMP_vm_1_grain_t2z1024r2.json) ending with exit "
                     "status 0")
        self.write_full(lines[:6], range(1, 7))
        self.refused("CLOMP_vm_1_grain.runs: process 7 (CLOMP_vm_1_grain_t2z1024r3.json, exit status 0) is not "
                     "CLOMP_vm_1_grain.full's section 7, which it lacks")
        self.write_full(lines, range(1, 13))
        self.valid()

    def test_a_search_a_resumed_suite_took_over_is_replayed_from_where_its_full_text_restarts(self):
        """Stopped after 6 processes (1024 zones: 2 of 4) and resumed: the new driver decides from the 6 records
        (1024 zones has no interval: on to 16384) and numbers its processes from 1 in the .full. Valid with that
        .full; without it, the same .runs is one that dropped 2 processes, and is refused."""
        lines = self.runs_lines()
        for line in lines[6:8]:
            os.unlink(self.stage.path(os.path.basename(line.split("\t")[0])))
        lines = lines[:6] + lines[8:]
        self.write_runs(lines)
        self.report_again()
        self.refused("CLOMP_vm_1_grain.runs lacks process 7 of its plan, CLOMP_vm_1_grain_t2z1024r3.json")
        self.write_full(lines, list(range(1, 7)) + list(range(1, 5)))
        self.valid()
        self.write_full(lines, range(1, 11))
        self.refused("CLOMP_vm_1_grain.runs lacks process 7 of its plan, CLOMP_vm_1_grain_t2z1024r3.json")


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
