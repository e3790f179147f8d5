"""clomp-stats, the tested C statistics (timing/), asked from Python: the
package computes no statistic of its own (issue 29: one implementation).

compare() names clomp-stats compare's fields once, here (compare/clomp_stats.c
documents them in this order); nothing else reads its output."""
import subprocess

COMPARE_FIELDS = ("n_a", "n_b", "median_a", "median_b", "scale", "estimate", "low", "high", "coverage", "u", "p",
                  "test", "detected", "estimate_text", "low_text", "high_text")
NUMBERS = ("median_a", "median_b", "estimate", "low", "high", "coverage", "u", "p")


class StatsError(Exception):
    """clomp-stats refused its input or could not run."""


def run(helper, args, stdin=None):
    try:
        done = subprocess.run([helper] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise StatsError("clomp-stats could not run: %s" % e)
    if done.returncode != 0:
        raise StatsError(done.stderr.decode("utf-8", "replace").strip() or "clomp-stats failed (exit %d)" % done.returncode)
    return done.stdout


def compare(helper, a, b, level):
    """One figure's A/B comparison as a dict by COMPARE_FIELDS; numbers float (None for NA)."""
    line = run(helper, ["compare", "--level", level, ",".join(repr(v) for v in a), ",".join(repr(v) for v in b)])
    cells = line.decode("utf-8", "replace").rstrip("\n").split("\t")
    if len(cells) != len(COMPARE_FIELDS):
        raise StatsError("clomp-stats compare answered %d fields, not %d" % (len(cells), len(COMPARE_FIELDS)))
    out = dict(zip(COMPARE_FIELDS, cells))
    out["raw"] = dict((k, "" if v == "NA" else v) for k, v in out.items())   # clomp-stats' own text, for the CSV
    for k in NUMBERS:
        out[k] = None if out[k] == "NA" else float(out[k])
    out["n_a"], out["n_b"], out["detected"] = int(out["n_a"]), int(out["n_b"]), out["detected"] == "1"
    return out


def comparison_json(helper, level, records):
    """The comparison's JSON document, written by clomp-stats comparison-json from RECORDS (text)."""
    return run(helper, ["comparison-json", "--level", level], records.encode("utf-8"))
