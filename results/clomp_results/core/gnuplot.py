"""Drawing with gnuplot without letting data become gnuplot code.

Rules (docs/security.md): gnuplot reads every value from a data file this
package wrote (numbers formatted here, NaN for a missing one); a title or
legend entry is a single-quoted gnuplot string made by quote() — gnuplot
substitutes nothing inside single quotes (no backquotes, no macros, no
escapes; '' is the only quote) — with control characters replaced, and drawn
noenhanced so no text markup applies either.  gnuplot runs with a fixed argv
(no shell), the script on its standard input, in a private temporary
directory; its output files are written there and moved into the charts
directory by safe_write, never written through a path in the suite.
"""
import math
import shutil
import subprocess

GNUPLOT_SECONDS = 60   # one chart; a hung gnuplot is killed


def quote(text):
    """TEXT as a gnuplot single-quoted string literal that can only ever be text."""
    s = "".join(c if (c >= " " and c != "\x7f") else " " for c in str(text))
    return "'" + s.replace("'", "''") + "'"


def number(value):
    """A value for a gnuplot data file: a finite float's shortest exact form, else NaN."""
    if value is None or isinstance(value, bool):
        return "NaN"
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "NaN"
    return repr(v) if math.isfinite(v) else "NaN"


def data_file(rows):
    """The text of a gnuplot data file: one line per row, every cell through number()."""
    return "".join(" ".join(number(v) for v in row) + "\n" for row in rows)


def available():
    """The gnuplot executable's path, or None."""
    return shutil.which("gnuplot")


def run(script, workdir, executable=None, charts=1):
    """Run gnuplot on SCRIPT (text, CHARTS charts) in WORKDIR; (ok, its output) — never raises for gnuplot's
    own failure. It may take GNUPLOT_SECONDS per chart."""
    exe = executable or available()
    if exe is None:
        return False, "gnuplot is not installed (apt-get install gnuplot-nox)"
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": workdir}
    try:
        done = subprocess.run([exe], input=script.encode("utf-8"), cwd=workdir, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=GNUPLOT_SECONDS * charts)
    except subprocess.TimeoutExpired:
        return False, "gnuplot ran past %d s" % (GNUPLOT_SECONDS * charts)
    except OSError as e:
        return False, "gnuplot could not run: %s" % e
    return done.returncode == 0, done.stdout.decode("utf-8", "replace")
