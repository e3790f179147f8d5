"""clomp-stats, the tested C statistics (timing/), asked from Python: the
package computes no statistic of its own (issue 29: one implementation).
Its answers are JSON objects read by member name (`clomp-stats compare
--json`, stats/clomp_stats.c); numbers are kept as the text clomp-stats
wrote (for the CSV) beside their values.

One door (issue 46, item 3): `find` is where the package finds (or builds)
clomp-stats, and every request without input of its own goes to one
`clomp-stats batch` process per helper for the life of this Python process
(a report): requests in, one a line, answers back in order (`Batch`).
`outliers` and `comparison-json`, which read a request document, run as
their own process. STARTS counts the processes started."""
import atexit
import json
import os
import shutil
import subprocess
import sys

NUMBERS = ("median_a", "median_b", "estimate", "ci_low", "ci_high", "ci_coverage", "u", "p")


TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
STARTS = [0]   # clomp-stats processes this Python process started


class StatsError(Exception):
    """clomp-stats refused its input or could not run."""


def find() -> str:
    """clomp-stats: $CLOMP_STATS, else build/clomp-stats, built (make clomp-stats) when it is not there
    or older than one of its sources (a tree updated since: an older helper lacks newer requests)."""
    given = os.environ.get("CLOMP_STATS")
    if given and os.access(given, os.X_OK):
        return given
    helper = os.path.join(TOP, "build", "clomp-stats")
    if not os.access(helper, os.X_OK) or (_older_than_sources(helper) and shutil.which("make")):
        subprocess.run(["make", "-C", TOP, "--no-print-directory", "-s", "clomp-stats"], stdout=sys.stderr, check=False)
    return helper


def _older_than_sources(helper: str) -> bool:
    """Whether a source build/clomp-stats is made of (the Makefile's STATS_SRC and STATS_OBJ) is newer."""
    built = os.stat(helper).st_mtime
    sources = ["measure/llnl_targets.c", "measure/llnl_targets.h", "report/json.c", "report/json.h"]
    for folder in ("stats", "timing"):
        path = os.path.join(TOP, folder)
        sources += [os.path.join(folder, n) for n in (os.listdir(path) if os.path.isdir(path) else ())
                    if n.endswith((".c", ".h"))]
    return any(os.path.exists(os.path.join(TOP, f)) and os.stat(os.path.join(TOP, f)).st_mtime > built
               for f in sources)


class Batch:
    """One `clomp-stats batch` process (stats/clomp_stats.c): ask() writes a request (its words
    tab-separated, one line) and reads its answer up to "#end STATUS"."""

    def __init__(self, helper):
        try:
            self.process = subprocess.Popen([helper, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL)
        except OSError as e:
            raise StatsError("clomp-stats could not run: %s" % e)
        STARTS[0] += 1

    def ask(self, args):
        words = [str(a) for a in args]
        if any("\t" in w or "\n" in w for w in words):
            raise StatsError("clomp-stats: a request's word holds a tab or a newline")
        try:
            self.process.stdin.write(("\t".join(words) + "\n").encode("utf-8"))
            self.process.stdin.flush()
        except OSError as e:
            raise StatsError("clomp-stats batch is gone: %s" % e)
        lines = []
        for line in iter(self.process.stdout.readline, b""):
            if line.startswith(b"#end "):
                status = line[5:].strip()
                text = b"".join(lines)
                if status != b"0":
                    raise StatsError(text.decode("utf-8", "replace").strip() or "clomp-stats failed (exit %s)" % status.decode())
                return text
            lines.append(line)
        raise StatsError("clomp-stats batch ended before it answered %s" % words[:1])

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


_batches = {}


@atexit.register
def _close_batches():
    for b in _batches.values():
        b.close()
    _batches.clear()


def run(helper, args, stdin=None):
    """clomp-stats ARGS' answer (its standard output): a request of this process's batch, or with STDIN
    (outliers, comparison-json) a process of its own."""
    if stdin is None:
        if helper not in _batches:
            _batches[helper] = Batch(helper)
        try:
            return _batches[helper].ask(args)
        except StatsError:
            if _batches[helper].process.poll() is not None:   # gone: the next request starts another
                _batches.pop(helper).close()
            raise
    STARTS[0] += 1
    try:
        done = subprocess.run([helper] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise StatsError("clomp-stats could not run: %s" % e)
    if done.returncode != 0:
        raise StatsError(done.stderr.decode("utf-8", "replace").strip() or "clomp-stats failed (exit %d)" % done.returncode)
    return done.stdout


def compare(helper, a, b, level):
    """One figure's A/B comparison by member name; numbers float (None for null), their text in ["raw"]."""
    answer = run(helper, ["compare", "--json", "--level", level, ",".join(repr(v) for v in a),
                          ",".join(repr(v) for v in b)])
    try:
        doc = json.loads(answer.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats compare --json: not JSON (%s)" % e)
    if not isinstance(doc, dict) or any(k not in doc for k in NUMBERS + ("scale", "test", "detected", "n_a", "n_b")):
        raise StatsError("clomp-stats compare --json: members missing")
    out = dict(doc)
    out["raw"] = dict((k, "" if v is None else str(v)) for k, v in doc.items())
    for k in NUMBERS:
        out[k] = None if doc[k] is None else float(doc[k])
    out["n_a"], out["n_b"] = int(doc["n_a"]), int(doc["n_b"])
    out["detected"] = doc["detected"] is True or doc["detected"] in ("1", 1)
    return out


def comparison_json(helper, level, records):
    """The comparison's JSON document, written by clomp-stats comparison-json from RECORDS (text)."""
    return run(helper, ["comparison-json", "--level", level], records.encode("utf-8"))


PAIRED_NUMBERS = ("median_a", "median_b", "estimate", "ci_low", "ci_high", "ci_coverage", "w_plus", "p", "alpha",
                  "nominal_alpha", "overall_alpha", "sd_difference", "detectable_80", "pairs_needed_5pct", "p_b_greater",
                  "bm_statistic", "bm_df", "bm_p", "mad_a", "mad_b", "p_floor", "serial_lag1", "serial_lag1_corrected",
                  "effective_pairs", "serial_p", "sd_upper_80")


def answer(helper, args, numbers):
    """One `clomp-stats ... --json` answer by member name: the members in NUMBERS as floats (None for null),
    every member's text in ["raw"]."""
    text = run(helper, args)
    try:
        doc = json.loads(text.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats %s --json: not JSON (%s)" % (args[0], e))
    if not isinstance(doc, dict) or any(k not in doc for k in numbers):
        raise StatsError("clomp-stats %s --json: members missing" % args[0])
    out = dict(doc)
    out["raw"] = dict((k, "" if v is None else str(v)) for k, v in doc.items())
    for k in numbers:
        out[k] = None if doc[k] is None else float(doc[k])
    return out


def paired(helper, a, b, alpha="0.05", tests=1, looks=None, ci_level=None):
    """The paired comparison of B with A (pair i: a[i], b[i]): clomp-stats paired (stats/paired_answer.c);
    CI_LEVEL: the interval's level when not 1 - the decision's (a Holm figure's interval_level)."""
    args = ["paired", "--json", "--alpha", alpha, "--tests", str(tests)]
    if looks:
        args += ["--looks", ",".join(str(n) for n in looks)]
    if ci_level is not None:
        args += ["--ci-level", repr(float(ci_level))]
    out = answer(helper, args + [",".join(repr(v) for v in a), ",".join(repr(v) for v in b)], PAIRED_NUMBERS)
    for k in ("n", "tests", "look", "decided", "bm_degenerate", "ci_low_open", "ci_high_open", "serial", "ci_excludes_0"):
        out[k] = int(out[k])
    return out


def holm(helper, alpha, p_values):
    """Holm's procedure (clomp-stats holm, the one Holm of the package): {"rejected": [bool], "adjusted":
    [float], "step_level": [confidence level of its step], "interval_level": [the level its interval is
    drawn at: its step's when rejected, else 1 - alpha/m]}, in the order given. Nothing of it is recomputed
    here: the reports draw each interval at interval_level."""
    if not p_values:
        return {"rejected": [], "adjusted": [], "step_level": [], "interval_level": []}
    out = answer(helper, ["holm", "--json", repr(float(alpha)), ",".join(repr(float(p)) for p in p_values)], ())
    try:
        return {"rejected": [bool(int(x)) for x in out["reject"]], "adjusted": [float(x) for x in out["adjusted"]],
                "step_level": [float(x) for x in out["step_level"]],
                "interval_level": [float(x) for x in out["interval_level"]]}
    except (KeyError, TypeError, ValueError):
        raise StatsError("clomp-stats holm --json: members missing")


def summary(helper, values):
    """clomp-stats summary --json of VALUES (numbers), every member as its text (null: None)."""
    answer = run(helper, ["summary", "--json"] + [repr(float(v)) for v in values])
    try:
        return json.loads(answer.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats summary --json: not JSON (%s)" % e)


def judge(helper, bound, nominal_ghz, core, low, high, processes=None):
    """LLNL's target BOUND judged by clomp's own rule (clomp-stats judge, measure/llnl_targets.c): LOW .. HIGH
    cycles, nominal TSC cycles at NOMINAL_GHZ (None: core cycles already), CORE the cores' clock range (None:
    unknown: no verdict for nominal cycles); PROCESSES (2..5): LOW .. HIGH is those processes' min .. max, and
    the verdict covers them only. {"verdict", "core_low", "core_high", "qualified", "text"}."""
    core = core if core and None not in core else (None, None)
    args = ["judge", "--json", repr(float(bound)), "core" if not nominal_ghz else repr(float(nominal_ghz)),
            "unknown" if core[0] is None else repr(float(core[0])), "unknown" if core[1] is None else repr(float(core[1])),
            repr(float(low)), repr(float(high))]
    if processes is not None and 1 < processes < 6:
        args.append(str(int(processes)))
    out = answer(helper, args, ("core_low", "core_high"))
    out["qualified"] = bool(int(out["qualified"]))
    return out


def outliers(helper, request):
    """The outlier rule (timing/outlier_rule.h) for many distributions in one process: clomp-stats
    outliers (stats/outlier_answer.c) on REQUEST (its text); its answer, one dict per line in order."""
    text = run(helper, ["outliers"], request.encode("utf-8"))
    out = []
    for line in text.decode("utf-8", "replace").splitlines():
        try:
            doc = json.loads(line)
        except ValueError as e:
            raise StatsError("clomp-stats outliers: not JSON (%s)" % e)
        if not isinstance(doc, dict) or not ("distribution" in doc or "member" in doc):
            raise StatsError("clomp-stats outliers: members missing")
        out.append(doc)
    return out


def plan(helper, pairs, alpha="0.05"):
    """Whether PAIRS pairs can reach ALPHA with the exact signed-rank test at all (clomp-stats plan,
    stats/plan_answer.c): {"smallest_p", "pairs_needed", "reachable"}."""
    out = answer(helper, ["plan", "--json", str(int(pairs)), alpha], ("smallest_p", "pairs_needed", "reachable"))
    out["pairs_needed"], out["reachable"] = int(out["pairs_needed"]), int(out["reachable"])
    return out
