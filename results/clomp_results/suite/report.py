"""`make plots OUT=...` and the suite's own report: the charts (gnuplot) and
<base>.html of one suite, written into the suite's directory and nowhere
else (safe_write), from the records the loader reads through safe_io.

    report [--charts | --no-charts] BASE|DIR
exit 0; 1 when a chart or the page could not be written; 2 when there is no
suite, gnuplot is asked for but missing, or the suite refuses (a link,
device or FIFO among its files)."""
import os
import re
import sys

from . import charts as charts_mod, html_construct_kinds, html_page
from ..core import gnuplot, safe_write, view
from ..core.loader import SuiteError, load_suite
from ..core.records import count_of
from ..core.safe_io import NotABundle, Refused, for_terminal

NO_GNUPLOT = "gnuplot was not installed when this report was made (install gnuplot-nox, then <code>make plots OUT=...</code>)"
NOT_ASKED = "charts were not asked for (--no-plots); <code>make plots OUT=...</code> draws them"
NO_FIGURES = "no run gave figures to draw"
SWEEP_PAGE = re.compile(r"^CLOMP_[A-Za-z0-9._-]+_([0-9]+)_sweep\.html$")


def measurement_rows(suite):
    """The suite CSV's rows by name, each with its record's validity (fig-validity) when the record has one."""
    rows = suite.csv.rows if suite.csv is not None else []
    out = []
    for r in rows:
        row = dict(r)
        run = view.integer(r.get("run"))
        record = suite.records.get(run) if run is not None else None
        m = record.measurement(r.get("key", "")) if record is not None else None
        if m is not None and m.get("valid") is False:
            row["valid"] = False
            row["invalid_reason"] = m.get("invalid_reason") or row.get("invalid_reason") or ""
        out.append(row)
    return out


def first_failure(suite):
    """'F of N runs FAILED; first: run K (SET, exit status RC): REASON', or '': the driver's own line in
    manifest's history line 'complete DATE: ...' when the suite ended, else from the .summary rows and the run's record."""
    for line in reversed(suite.env.status_lines):
        if line.startswith("complete ") and ": " in line:
            return line.split(": ", 1)[1]
    failed = sorted((view.integer(r.get("run")) or 0, r) for t in suite.summaries.values() for r in t.rows
                    if r.get("status") == "FAILED")
    if not failed:
        return ""
    run, row = failed[0]
    record = suite.records.get(run)
    reason = (record.doc.get("failure") if record is not None else None) or "see the run's .full file"
    return "%d of %d runs FAILED; first: run %d (%s, exit status %s): %s" % (
        len(failed), len(suite.env.plan), run, row.get("set", ""), row.get("exit_code", ""), reason)


def sweep_pages(directory):
    """The run_clomp.sh --sweep pages in DIRECTORY (CLOMP_<host>_<id>_sweep.html), by ID."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = [(int(m.group(1)), n) for n in names for m in [SWEEP_PAGE.match(n)] if m]
    return [n for _, n in sorted(found)]


def suite_base(target):
    """The suite's base path (directory/CLOMP_<host>_<id>) for a base, .env or an output directory."""
    if os.path.isdir(target):
        names = []
        for entry in os.listdir(target):
            stem = entry[:-4]
            if entry.startswith("CLOMP_") and entry.endswith(".env") and count_of(stem.rsplit("_", 1)[-1]) is not None:
                names.append((int(stem.rsplit("_", 1)[-1]), stem))
        if not names:
            raise SuiteError("no suite (CLOMP_*.env) in %s" % for_terminal(target))
        return os.path.join(target, max(names)[1])
    base = target[:-4] if target.endswith(".env") else target
    if not os.path.isfile(base + ".env"):
        raise SuiteError("no suite at %s (%s.env is missing)" % (for_terminal(base), for_terminal(base)))
    return base


def render(target, want_charts="auto", err=sys.stderr):
    """Draw the charts and write the page; the exit status."""
    try:
        base = suite_base(target)
        suite = load_suite(base)
    except (SuiteError, Refused, NotABundle) as e:
        err.write("report: %s\n" % e)
        return 2
    have = gnuplot.available() is not None
    if want_charts == "yes" and not have:
        err.write("report: gnuplot is not installed: no charts can be drawn (apt-get install gnuplot-nox)\n")
        return 2
    if want_charts == "auto":
        if not have:
            err.write("report: notice: gnuplot is not installed: the report has no charts (install gnuplot-nox, then: "
                      "make plots OUT=%s)\n" % for_terminal(base))
        want_charts = "yes" if have else "no"
    directory, name = os.path.split(base)
    directory = directory or "."
    views = view.mesh_runs(measurement_rows(suite))
    rows = suite.constructs.rows if suite.constructs is not None else []
    legacy = rows and any(not r.get("kind") for r in rows)   # a table from before its kind column
    levels = view.construct_levels(rows, html_construct_kinds.construct_kinds() if legacy else {})
    status, drawn, why = 0, {}, ""
    charts_dir = os.path.join(directory, name + "_charts")
    try:
        if want_charts == "yes" and not views:
            why = NO_FIGURES
        elif want_charts == "yes":
            drawn, errors = charts_mod.draw(charts_mod.suite_charts(views, levels), charts_dir)
            for message in errors:
                err.write("report: %s\n" % for_terminal(message))
            status = 1 if errors else 0
        else:
            why = NOT_ASKED if have else NO_GNUPLOT
        for stem, exts in drawn.items():
            for ext, content in exts.items():
                suite.files["%s_charts/%s.%s" % (name, stem, ext)] = len(content)
        text = html_page.page(suite, views, drawn, name + "_charts", why, first_failure(suite), sweep_pages(directory))
        safe_write.write_text(directory, name + ".html", text)
    except safe_write.UnsafeTarget as e:
        err.write("report: %s\n" % for_terminal(str(e)))
        return 2
    except OSError as e:
        err.write("report: cannot write the report: %s\n" % for_terminal(str(e)))
        return 1
    print(base + ".html")
    return status


def main(argv):
    want = "auto"
    if argv and argv[0] in ("--charts", "--no-charts"):
        want = "yes" if argv[0] == "--charts" else "no"
        argv = argv[1:]
    if len(argv) != 1:
        sys.stderr.write("usage: report [--charts | --no-charts] BASE|DIR\n")
        return 2
    return render(argv[0], want)
