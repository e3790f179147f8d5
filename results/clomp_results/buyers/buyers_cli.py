"""``./clomp_compare``: the buyer's table (issue 33, docs/compare-submissions.md).

    clomp_compare [--out DIR] [--name LABEL=PATH ...] [--baseline LABEL]
                  [--include-invalid] [--signers ALLOWED_SIGNERS]
                  [--archive DB [--select SPEC]] [SUBMISSION ...]

A submission: a bundle, a suite's directory, a run_clomp.sh --compare
result, or CLOMP 1.2's text output (submissions.py). Writes DIR/
buyers_table.html, .csv and .json (DIR: ./clomp-compare), each through
safe_write. --signers: each bundle's signature (BUNDLE.sig) must verify
(sign.py) and its signer is recorded (the header, the archive); a bundle
without one is invalid. Exit 0 written; 1 a submission refused (invalid: every reason,
unless --include-invalid; hostile: one line), nothing written; 2 usage, or
an input that is not a submission; 3 clomp-stats, the archive or a write failed.
"""
from __future__ import annotations

import io
import json
import os
import sqlite3
import sys
from typing import Dict, List

from . import archive, buyers_html, buyers_table, submissions
from ..core import safe_write, stats_helper
from ..core.stats_helper import find as find_stats_helper
from ..core.safe_io import Refused, clean, for_terminal
from ..core.safe_text import SpreadsheetSafeWriter

ME = "clomp_compare"
USAGE = ("usage: clomp_compare [--out DIR] [--name LABEL=PATH ...] [--baseline LABEL] [--include-invalid]\n"
         "                     [--signers ALLOWED_SIGNERS] [--archive DB [--select 'host=...,runtime=...']] [SUBMISSION ...]\n"
         "  SUBMISSION: a bundle CLOMP_<host>_<id>.tar.gz, a suite directory, a run_clomp.sh --compare result\n"
         "  (its .json, .txt or stem) or CLOMP 1.2's text output. docs/compare-submissions.md")
CSV_HEADER = ["section", "row", "threads", "submission", "submission_valid", "n", "median", "low", "high", "interval",
              "verdict", "text"]


def parse_args(argv):
    opts = {"out": "clomp-compare", "named": [], "baseline": None, "include_invalid": False, "archive": None, "select": None,
            "signers": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            return None
        if a in ("--out", "--name", "--baseline", "--archive", "--select", "--signers"):
            if i + 1 >= len(argv):
                raise ValueError("%s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "--name":
                label, sep, path = v.partition("=")
                if not sep or not label or not path:
                    raise ValueError("--name takes LABEL=PATH, not '%s'" % for_terminal(v))
                opts["named"].append((label, path))
            else:
                opts[a[2:]] = v
            continue
        if a == "--include-invalid":
            opts["include_invalid"] = True
        elif a.startswith("-"):
            raise ValueError("unknown option '%s'" % for_terminal(a))
        else:
            opts["named"].append((None, a))
        i += 1
    if opts["select"] is not None and not opts["archive"]:
        raise ValueError("--select needs --archive DB")
    if opts["signers"] is not None and not os.path.isfile(opts["signers"]):
        raise ValueError("--signers: %s: no such file" % for_terminal(opts["signers"]))
    if not opts["named"] and opts["select"] is None:
        raise ValueError("no submission given")
    return opts


def default_label(path: str) -> str:
    base = os.path.basename(os.path.normpath(path))
    for suffix in (".tar.gz", ".json", ".txt", ".csv", ".out"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    return base or path


def unique(label: str, taken: List[str]) -> str:
    out, k = label, 2
    while out in taken:
        out, k = "%s #%d" % (label, k), k + 1
    return out


def csv_text(subs, table) -> str:
    buf = io.StringIO()
    w = SpreadsheetSafeWriter(buf)
    w.writerow(CSV_HEADER)

    def cells(section, row, threads, row_cells):
        for c, s in zip(row_cells, subs):
            w.writerow([section, row, threads, s["label"], 1 if s["valid"] else 0, c.get("n", ""), _n(c.get("median")),
                        _n(c.get("low")), _n(c.get("high")), c.get("interval", ""), c.get("verdict", ""), c.get("text", "")])
    for s in subs:
        for k, v in s["header"]:
            w.writerow(["header", k, "", s["label"], 1 if s["valid"] else 0, "", "", "", "", "", "", v])
        for reason in s["validation"]["reasons"]:
            w.writerow(["validation", s["validation"]["status"], "", s["label"], 1 if s["valid"] else 0, "", "", "", "", "", "", reason])
    for row in table["key"]:
        cells("key", row["figure"], "", row["cells"])
    for row in table["targets"]:
        cells("llnl_target", row["target"], "", row["cells"])
    for row in table.get("node", []):
        for c, s in zip(row["cells"], subs):
            w.writerow(["node", row["figure"], "" if c["threads"] is None else c["threads"], s["label"],
                        1 if s["valid"] else 0, "", _n(c["median"]), _n(c["low"]),
                        _n(c["high"]), c["interval"], "", c["text"]])
    for row in table["normalised"]:
        for c, s in zip(row["cells"], subs):
            w.writerow(["core_cycles", row["figure"], "", s["label"], 1 if s["valid"] else 0, "", "", "", "", "", "", c["cycles"]])
    for fig in table["sweep"]:
        for row in fig["rows"]:
            cells("sweep", fig["figure"], row["threads"], row["cells"])
    for row in table["constructs"]:
        cells("construct", row["row"], row["inner"], row["cells"])
    by_label = dict((s["label"], s) for s in subs)
    for d in table["differences"]:
        s = by_label[d["label"]]
        for f in d["figures"]:
            w.writerow(["difference_from_" + table["baseline"], f["figure"], "", s["label"], 1 if s["valid"] else 0, "",
                        _n(f.get("estimate")), _n(f.get("low")), _n(f.get("high")), f.get("rule", ""), f["verdict"], f["text"]])
    if table["differences"] and table.get("family"):   # a row of the table, of no one submission
        w.writerow(["families", "", "", "", "", "", "", "", "", "", "", table["family"]])
    return buf.getvalue()


def controls_escaped(line: str) -> str:
    """A validator's line (escaped for the terminal there) with any control character escaped once more,
    its backslashes left as they are (for_terminal would double them)."""
    return "".join(for_terminal(c) if c < " " or "\x7f" <= c < "\xa0" else c for c in line)


def _n(v) -> str:
    return "" if v is None else repr(v)


def write(out_dir, subs, table) -> List[str]:
    """The page, CSV and JSON in OUT_DIR; every string escaped once more (safe_text.clean, idempotent): labels
    given on the command line, and what the archive held, are text from outside too."""
    subs, table = clean(subs), clean(table)
    os.close(safe_write.open_dir(out_dir, create=True))
    names = []
    for name, text in (("buyers_table.html", buyers_html.page(subs, table)), ("buyers_table.csv", csv_text(subs, table)),
                       ("buyers_table.json", json.dumps({"table": table, "submissions": subs}, indent=1) + "\n")):
        safe_write.write_text(out_dir, name, text)
        names.append(os.path.join(out_dir, name))
    return names


def load_all(named, include_invalid, err, signers=None) -> (List[Dict[str, object]], int):
    """The submissions' records, and the exit status so far (0, 1 refused or invalid, 2 not a submission)."""
    subs, status, labels = [], 0, []
    for label, path in named:
        try:
            got = submissions.load(path, label or default_label(path), signers)
        except submissions.SubmissionError as e:
            err.write("%s: %s\n" % (ME, e))
            status = max(status, 2)
            continue
        except Refused as e:
            err.write("%s: %s: refused: %s\n" % (ME, for_terminal(path), e))
            status = max(status, 1)
            continue
        for r in got:
            r["label"] = unique(r["label"], labels)
            labels.append(r["label"])
            if not r["valid"]:
                reasons = r["validation"]["reasons"]
                err.write("%s: %s (%s): %s (%d reasons)%s\n" % (ME, for_terminal(r["label"]), for_terminal(path),
                                                                r["validation"]["status"], len(reasons),
                                                                "" if not include_invalid else ": included (--include-invalid)"))
                for reason in reasons:
                    err.write("  - %s\n" % controls_escaped(reason))
                if not include_invalid:
                    status = max(status, 1)
                    continue
            subs.append(r)
    return subs, status


def main(argv: List[str]) -> int:
    err = sys.stderr
    try:
        opts = parse_args(argv)
    except ValueError as e:
        err.write("%s: %s\n%s\n" % (ME, e, USAGE))
        return 2
    if opts is None:
        print(USAGE)
        return 0
    subs, status = load_all(opts["named"], opts["include_invalid"], err, opts["signers"])
    if status:
        return status      # nothing written: every refusal said why above
    try:
        if opts["archive"]:
            db = archive.open_archive(opts["archive"])
            try:
                rows = []
                for r in subs:
                    said, rid = archive.add(db, r)
                    rows.append(rid)
                    print("%s: %s: %s (archive row %d)" % (ME, for_terminal(r["label"]), said, rid))
                for r, rid in zip(subs, rows):   # flags set by a later addition reach the earlier ones too
                    conflict = archive.conflict_of(db, rid)
                    if conflict:
                        r["conflict"] = conflict
                if opts["select"] is not None:
                    subs = archive.select(db, opts["select"])
                    if not subs:
                        err.write("%s: --select '%s' names no archived submission\n" % (ME, for_terminal(opts["select"])))
                        return 2
                print("%s: %s holds %d submissions" % (ME, for_terminal(opts["archive"]), archive.count(db)))
            finally:
                db.close()
        labels = [s["label"] for s in subs]
        if opts["baseline"] is not None and opts["baseline"] not in labels:
            err.write("%s: --baseline '%s' is none of the submissions (%s)\n" % (
                ME, for_terminal(opts["baseline"]), for_terminal(", ".join(labels))))
            return 2
        table = buyers_table.build(subs, find_stats_helper(), opts["baseline"])
        for path in write(opts["out"], subs, table):
            print("%s: wrote %s" % (ME, for_terminal(path)))
        for line in buyers_table.primary_lines(table):   # the answer last: and why, when it cannot decide
            print("%s: %s" % (ME, for_terminal(line)))
    except (archive.ArchiveError, sqlite3.Error) as e:
        err.write("%s: %s\n" % (ME, for_terminal(str(e))))
        return 3
    except (stats_helper.StatsError, safe_write.UnsafeTarget, OSError) as e:
        err.write("%s: %s\n" % (ME, for_terminal(str(e))))
        return 3
    return 0
