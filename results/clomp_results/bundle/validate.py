"""``./clomp_validate BUNDLE``: checks a submission bundle (or its unpacked
directory), reading records by name (docs/suite.md, "Validating"):

- the input: through safe_io (links, devices, FIFOs, absolute or '..'
  members, too many or too large members: refused, naming the member);
- the MANIFEST: well-formed lines, paths relative, unique and inside, every
  file's SHA-256, nothing missing, nothing unlisted;
- every run of the plan: marked done, one .summary row in its set's file with
  its inputs and OK, one JSON record (status ok, exit status 0, inputs the
  planned ones); the suite recorded as complete;
- verification (record_checks.py): no selected measurement whose verification failed (the
  .csv and the records), every checksum field of an input identical across
  thread counts, placements and schedules;
- no fast-math build; not oversubscribed (threads, and MPI ranks x threads
  per host from the records' mpi.per_rank); the construct table
  (record_checks.py);
- then the submission grade (grade.py).

Exit 0 VALID (submission-grade), 3 VALID, NOT SUBMISSION-GRADE, 1 INVALID
(every reason printed), 2 not a bundle. Every line is escaped for the
terminal; nothing is written outside a private temporary directory.
"""
from __future__ import annotations

import os
import re
import sys
from collections import Counter
from typing import Dict, List, Optional

from ..cluster import cluster_bundle
from . import crosscheck, grade, record_checks, sign
from ..core import loader, manifest, safe_io
from ..core.loader import SuiteError
from ..core.records import count_of
from ..core.safe_io import NotABundle, Refused, for_terminal, no_controls

ME = "clomp_validate"
EXIT_VALID, EXIT_INVALID, EXIT_NOT_A_BUNDLE, EXIT_NOT_SUBMISSION_GRADE = 0, 1, 2, 3
MANIFEST_LINE = re.compile(r"^([0-9a-f]{64}) [ *](.+)$")
FAST_MATH = re.compile(r"-(ffast-math|Ofast|funsafe-math-optimizations|ffinite-math-only|fassociative-math|"
                       r"freciprocal-math|fno-signed-zeros)\b")
PRINTED = 100     # reasons printed; the count says how many in all
# What is checked is the records; a report is made from them, so it is quoted as regenerated.
REPORT_RULE = ("the records are what is checked; quote the HTML report only as regenerated from them "
               "(make plots OUT=DIR/CLOMP_<host>_<id>)")


def check_manifest(inp: safe_io.Input, files: Dict[str, int], reasons: List[str]) -> None:
    if "MANIFEST" not in files:
        reasons.append("MANIFEST is missing")
        return
    text = safe_io.read_in_top(inp, "MANIFEST").decode("utf-8", errors="replace")
    listed = set()
    twice = set()
    for line in text.splitlines():
        m = MANIFEST_LINE.match(line)
        if not m:
            reasons.append("MANIFEST: malformed line: '%s'" % for_terminal(line[:200]))
            continue
        digest, path = m.group(1), m.group(2)
        try:
            rel = safe_io.check_member_name(path)
        except Refused as e:
            reasons.append("MANIFEST: %s" % e)
            continue
        if rel != path:
            reasons.append("MANIFEST: %s: not a plain relative path" % for_terminal(path))
            continue
        if rel in listed:
            if rel not in twice:
                twice.add(rel)
                reasons.append("MANIFEST: %s is listed twice (or more)" % for_terminal(rel))
            continue
        listed.add(rel)
        if rel not in files:
            reasons.append("MANIFEST: %s is listed but missing from the bundle" % for_terminal(rel))
        elif inp.sha256(safe_io.in_top(inp, rel)) != digest:
            reasons.append("MANIFEST: %s has changed: its SHA-256 differs from the MANIFEST's" % for_terminal(rel))
    for rel in sorted(files):
        if rel != "MANIFEST" and rel not in listed:
            reasons.append("MANIFEST: %s is in the bundle but not in the MANIFEST" % for_terminal(rel))


def check_runs(suite, reasons: List[str]) -> None:
    name = suite.name
    source = manifest.source_name(suite)
    if not suite.plan:
        reasons.append("%s has no plan: the expected runs are unknown" % source)
    if not suite.env.complete:
        reasons.append("%s does not record the suite as complete" % source)
    rows = []   # (file set, row)
    by_run: Dict[str, list] = {}   # the rows of each run: one lookup a planned run (a plan of 15,000 runs: linear)
    for set_name, table in suite.summaries.items():
        for row in table.rows:
            rows.append((set_name, row))
            by_run.setdefault(row.get("run", ""), []).append((set_name, row))
    done = set(suite.done)
    for p in suite.plan:
        what = for_terminal(p.describe())
        if p.is_oversubscribed:
            continue   # never submitted: the bundle leaves it out, and the grade refuses it when carried (cliff.py)
        if p.index not in done:
            reasons.append("%s is not marked done in %s.done" % (what, name))
        mine = by_run.get(str(p.index), [])
        if not mine:
            reasons.append("%s has no row in any .summary file" % what)
        elif len(mine) > 1:
            reasons.append("%s has %d rows in the .summary files" % (what, len(mine)))
        else:
            set_name, row = mine[0]
            if set_name != p.set_name:
                reasons.append("%s is in %s_%s.summary, not %s_%s.summary" % (what, name, for_terminal(set_name), name, for_terminal(p.set_name)))
            row_args = " ".join(row.get(c, "") for c in loader.INPUT_NAMES)
            if row_args != p.args_text:
                reasons.append("%s: its .summary row has the inputs '%s'" % (what, for_terminal(row_args)))
            if row.get("status") != "OK" or row.get("exit_code") != "0":
                reasons.append("%s is marked %s (exit status %s) in %s_%s.summary: it did not run and verify" % (
                    what, for_terminal(row.get("status", "")), for_terminal(row.get("exit_code", "")), name, for_terminal(set_name)))
        rec = suite.record(p.index)
        if rec is None:
            reasons.append("%s has no JSON record (%s_%s.run%d.json)" % (what, name, for_terminal(p.set_name), p.index))
            continue
        if rec.set_name != p.set_name:
            reasons.append("%s: its record %s is of set %s" % (what, for_terminal(rec.file), for_terminal(rec.set_name)))
        if rec.status != "ok" or rec.exit_status != 0:
            reasons.append("%s: its record says status '%s', exit status %s" % (what, for_terminal(rec.status), rec.exit_status))
        given = " ".join(str(rec.inputs.get(c, "")) for c in loader.INPUT_NAMES)
        if given != p.args_text:
            reasons.append("%s: its record names the inputs '%s'" % (what, for_terminal(given)))
    if suite.plan and len(rows) > len(suite.plan):
        reasons.append("the .summary files have %d rows for %d planned runs" % (len(rows), len(suite.plan)))
    for problem in suite.problems:
        reasons.append(for_terminal(problem))


def core_count(suite) -> int:
    """Cores (unique core, socket pairs) from the machine description's
    lscpu -p table (its '# CPU,Core,Socket,Node' comment names the columns),
    else Core(s) per socket x Socket(s) of the manifest's lscpu."""
    text = suite.machine.get("lscpu-cores.csv", "")
    names: List[str] = []
    pairs = set()
    for line in text.splitlines():
        if line.startswith("#"):
            cells = [c.strip().lower() for c in line.lstrip("#").split(",")]
            if "core" in cells and "socket" in cells:
                names = cells
            continue
        cells = line.split(",")
        if names and len(cells) == len(names):
            pairs.add((cells[names.index("core")], cells[names.index("socket")]))
    if pairs:
        return len(pairs)
    lscpu = {}
    for line in suite.env.section("CPU"):
        k, _, v = line.partition(":")
        lscpu.setdefault(k.strip(), v.strip())
    per, sockets = lscpu.get("Core(s) per socket", ""), lscpu.get("Socket(s)", "")
    per, sockets = count_of(per), count_of(sockets)
    return per * sockets if per is not None and sockets is not None else 0


def check_build_and_cores(suite, reasons: List[str]) -> int:
    flags = [line for line in suite.env.section("build facts") if line.strip().startswith("CFLAGS:")]
    flags += [line for line in suite.machine.get("build.txt", "").splitlines() if line.strip().startswith("CFLAGS:")]
    flags += [str((rec.doc.get("build") or {}).get("cflags", "")) for rec in suite.records.values()]
    flags = [f for f in flags if f.strip()]
    if not flags:
        reasons.append("no build facts (CFLAGS) in %s or the runs' records" % manifest.source_name(suite))
    else:
        fast = sorted({m.group(0) for f in flags for m in FAST_MATH.finditer(f)})
        if fast:
            reasons.append("a fast-math build (%s): bit-for-bit verification is meaningless under it" % for_terminal(" ".join(fast)))
    cores = core_count(suite)
    if cores == 0:
        reasons.append("the core count is unknown (no lscpu in the bundle): oversubscription cannot be ruled out")
        return 0
    most = max([p.threads for p in suite.plan if not p.is_construct and not p.is_oversubscribed] or [0])
    for t in (suite.env.max_threads or 0, most):
        if t > cores:
            reasons.append("oversubscribed: runs with %d threads on %d cores" % (t, cores))
            break
    for run, rec in sorted(suite.records.items()):
        per_host = Counter(str(r.get("host", "")) for r in ((rec.doc.get("mpi") or {}).get("per_rank") or []) if isinstance(r, dict))
        threads = rec.resolved.get("numThreads") or 0
        for host, ranks in per_host.items():
            if isinstance(threads, int) and ranks * threads > cores:
                reasons.append("oversubscribed: run %d placed %d MPI ranks x %d threads on host %s, which has %d cores" % (
                    run, ranks, threads, for_terminal(host), cores))
                break
    if any("oversubscribed" in w for w in suite.env.preflight_warnings):
        reasons.append("%s's preflight warnings say the suite was oversubscribed" % manifest.source_name(suite))
    return cores


def say_reasons(reasons: List[str], out) -> None:
    """At most PRINTED reasons, one a line, every control character escaped (no_controls: whatever a
    check let through, nothing reaches the terminal raw); then how many more."""
    for r in reasons[:PRINTED]:
        print("  - %s" % no_controls(r), file=out)
    if len(reasons) > PRINTED:
        print("  - ... and %d more reasons" % (len(reasons) - PRINTED), file=out)


def _signature_check(path: str, signers: str, found: dict):
    """The callback safe_io gives the open bundle before extracting it: its signature verified over
    those very bytes; the signer, or the reason, left in FOUND."""
    def check(bundle_file) -> None:
        try:
            found["signer"] = sign.verify(bundle_file, sign.signature_path(path), signers)
        except sign.BadSignature as e:
            found["bad"] = "signature: %s" % e
    return check


def validate(path: str, out=sys.stdout, signers: Optional[str] = None, facts: Optional[dict] = None) -> int:
    """The verdict on PATH (printed to OUT) and its exit status. SIGNERS: an allowed signers file
    (ssh-keygen's format): PATH.sig must verify (sign.py); the signer is named in the verdict and left
    in FACTS["signer"]."""
    shown = for_terminal(path)
    if cluster_bundle.is_cluster(path):   # run_clomp.sh --nodes: every node's bundle in one
        if signers is not None:
            print("%s: %s: --signers: a cluster bundle is not signed (sign and check each node's bundle)" % (ME, shown),
                  file=sys.stderr)
            return EXIT_NOT_A_BUNDLE
        return cluster_bundle.validate(path, out, sys.modules[__name__])   # each node's bundle: validate() here
    found: dict = {}
    verify = None
    if signers is not None:
        try:
            sign.ssh_keygen()
        except sign.NoSshKeygen as e:
            print("%s: --signers: %s" % (ME, e), file=sys.stderr)
            return EXIT_NOT_A_BUNDLE
        if os.path.isdir(path):
            found["bad"] = "signature: %s is a directory: a signature covers a bundle file's bytes, give the bundle" % shown
        else:
            verify = _signature_check(path, signers, found)
    try:
        inp, name = loader.open_suite(path, verify=verify)
    except (NotABundle, SuiteError) as e:
        print("%s: %s: not a CLOMP bundle: %s" % (ME, shown, e), file=sys.stderr)
        return EXIT_NOT_A_BUNDLE
    except Refused as e:
        print("%s: %s: INVALID: refused: %s%s" % (ME, shown, e, "; " + found["bad"] if "bad" in found else ""), file=out)
        return EXIT_INVALID
    reasons: List[str] = [found["bad"]] if "bad" in found else []
    try:
        with inp:
            if not loader.SUITE_NAME.match(name):
                print("%s: %s: not a CLOMP bundle: its directory '%s' is not named CLOMP_<host>_<id>" % (ME, shown, for_terminal(name)), file=sys.stderr)
                return EXIT_NOT_A_BUNDLE
            files = safe_io.files_under(inp)
            if "MANIFEST" not in files and name + ".env" not in files:
                print("%s: %s: not a CLOMP bundle: no MANIFEST and no %s.env in %s/" % (ME, shown, for_terminal(name), for_terminal(name)), file=sys.stderr)
                return EXIT_NOT_A_BUNDLE
            check_manifest(inp, files, reasons)
            suite = loader.load_from_input(inp, name, source=path)
            check_runs(suite, reasons)
            record_checks.check_verification(suite, reasons)
            note = record_checks.check_constructs(suite, reasons)
            cores = check_build_and_cores(suite, reasons)
            crosscheck.check_all(suite, lambda rel: _text_of(inp, files, rel), reasons)
    except Refused as e:
        print("%s: %s: INVALID: refused: %s" % (ME, shown, e), file=out)
        return EXIT_INVALID
    signer = found.get("signer")
    signed = ", signed by %s" % signer.text() if signer is not None else ""
    if facts is not None and signer is not None:
        facts["signer"] = signer.text()
    if reasons:
        print("%s: %s: INVALID (%d reason%s)" % (ME, shown, len(reasons), "" if len(reasons) == 1 else "s"), file=out)
        say_reasons(reasons, out)
        return EXIT_INVALID
    summary = "%d runs, all present and verified; manifest intact; records match the plan and agree with the tables, the text and the machine description; no fast-math; %s threads on %d cores%s" % (
        len(suite.plan), suite.env.max_threads, cores, note)
    why = grade.submission_reasons(suite, cores)
    if why:
        print("%s: %s: VALID, NOT SUBMISSION-GRADE%s: %s (%d reason%s)" % (ME, shown, signed, summary, len(why),
                                                                             "" if len(why) == 1 else "s"), file=out)
        say_reasons([for_terminal(r) for r in why], out)
    else:
        print("%s: %s: VALID%s: %s" % (ME, shown, signed, summary), file=out)
    for label, line in (("note", grade.not_graded(suite, cores)), ("rule", REPORT_RULE)):
        if line:
            print("  %s: %s" % (label, for_terminal(line)), file=out)
    return EXIT_NOT_SUBMISSION_GRADE if why else EXIT_VALID


def _text_of(inp, files, rel: str):
    """A suite file's text for the cross-checks, or None when the input has none."""
    return safe_io.read_in_top(inp, rel).decode("utf-8", errors="replace") if rel in files else None


def main(argv: List[str]) -> int:
    signers = None
    if len(argv) == 3 and argv[0] == "--signers":
        signers, argv = argv[1], argv[2:]
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: %s [--signers ALLOWED_SIGNERS] BUNDLE (a CLOMP_<host>_<id>.tar.gz from run_clomp.sh, or its "
              "unpacked directory; --signers: BUNDLE.sig must verify, ssh-keygen -Y verify, namespace %s)"
              % (ME, sign.NAMESPACE), file=sys.stderr)
        return EXIT_NOT_A_BUNDLE
    if signers is not None and not os.path.isfile(signers):
        print("%s: --signers: %s: no such file" % (ME, for_terminal(signers)), file=sys.stderr)
        return EXIT_NOT_A_BUNDLE
    return validate(argv[0], signers=signers)


