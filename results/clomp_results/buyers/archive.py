"""The buyer's archive (issue 33, item 3): submissions kept in an SQLite
database (sqlite3, standard library) so that a page can be built again from
it (``--select``). Schema (docs/compare-submissions.md, "The archive"):

  meta(key PRIMARY KEY, value)             schema_version = 1
  submissions(id INTEGER PRIMARY KEY, sha256 UNIQUE, content_sha256, label,
      kind, source, host, suite, suite_id, compiler, runtime, target_input,
      validation_status, validation_exit, valid, conflict, record, signer)
      one row per submission; sha256: the bundle's (a directory's content
      hash, a text's own); conflict: not null when another row has the same
      host and suite id with other contents (both rows say so); record: the
      submission's record (JSON) the page is built from; signer: who signed
      the bundle (clomp_compare --signers: the allowed signer's name and
      key), "" when no signer verified it, or "not checked (no --signers)".
      An archive of schema 1 gains the column (its rows: NULL, unknown).
  runs(submission_id, run, set_name, args, numa, status)
  figures(submission_id, section, figure, threads, process, value)
      one row per value: section key (the target input), sweep, construct
      or target (LLNL cycles); process: its index among the figure's values.

Adding a submission whose sha256 or content is already there is a no-op.
Every statement takes its values as parameters: nothing from a submission
becomes SQL text.
"""
from __future__ import annotations

import json
import sqlite3
from typing import Dict, List, Tuple

from ..core.safe_text import clean

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS submissions(
    id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, content_sha256 TEXT NOT NULL, label TEXT NOT NULL,
    kind TEXT, source TEXT, host TEXT, suite TEXT, suite_id TEXT, compiler TEXT, runtime TEXT, target_input TEXT,
    validation_status TEXT, validation_exit INTEGER, valid INTEGER NOT NULL, conflict TEXT, record TEXT NOT NULL, signer TEXT);
CREATE TABLE IF NOT EXISTS runs(submission_id INTEGER NOT NULL REFERENCES submissions(id), run INTEGER, set_name TEXT,
    args TEXT, numa TEXT, status TEXT);
CREATE TABLE IF NOT EXISTS figures(submission_id INTEGER NOT NULL REFERENCES submissions(id), section TEXT NOT NULL,
    figure TEXT NOT NULL, threads TEXT, process INTEGER NOT NULL, value REAL);
CREATE INDEX IF NOT EXISTS submissions_host_id ON submissions(host, suite_id);
"""
SCHEMA_VERSION = "2"
SELECT_KEYS = {"host": "host = ?", "label": "label = ?", "suite": "suite = ?", "id": "suite_id = ?", "kind": "kind = ?",
               "sha256": "substr(sha256, 1, length(?)) = ?", "runtime": "instr(runtime, ?) > 0",
               "compiler": "instr(compiler, ?) > 0", "valid": "valid = ?", "signer": "instr(signer, ?) > 0"}


class ArchiveError(Exception):
    """The archive cannot be used, or a --select is malformed (one line)."""


def open_archive(path: str) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path)
        db.executescript(SCHEMA)
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
        elif row[0] == "1":      # schema 1 had no signer: the column added, its rows unknown (NULL)
            if "signer" not in [c[1] for c in db.execute("PRAGMA table_info(submissions)")]:
                db.execute("ALTER TABLE submissions ADD COLUMN signer TEXT")
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))
        elif row[0] != SCHEMA_VERSION:
            raise ArchiveError("%s: archive schema %s, this clomp_compare reads %s" % (path, row[0], SCHEMA_VERSION))
        db.commit()
        return db
    except sqlite3.DatabaseError as e:
        raise ArchiveError("%s: not a usable SQLite archive (%s)" % (path, e))


def _figure_rows(r) -> List[Tuple[str, str, str, int, float]]:
    rows = []
    for fid, values in r["key"].items():
        rows += [("key", fid, "", i, v) for i, v in enumerate(values)]
    for fid, by_threads in r["sweep"].items():
        for t, values in by_threads.items():
            rows += [("sweep", fid, t, i, v) for i, v in enumerate(values)]
    for name, values in r["constructs"].items():
        rows += [("construct", name, "", i, v) for i, v in enumerate(values)]
    for key, t in r["targets"].items():
        rows += [("target", key, "", i, v) for i, v in enumerate(t["cycles"])]
    return rows


def add(db: sqlite3.Connection, r) -> Tuple[str, int]:
    """('added' | 'already archived' | 'added, flagged', row id). One transaction."""
    with db:
        row = db.execute("SELECT id FROM submissions WHERE sha256 = ? OR content_sha256 = ?",
                         (r["sha256"], r["content_sha256"])).fetchone()
        if row is not None:
            return "already archived", row[0]
        cur = db.execute(
            "INSERT INTO submissions(sha256, content_sha256, label, kind, source, host, suite, suite_id, compiler, runtime,"
            " target_input, validation_status, validation_exit, valid, conflict, record, signer)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
            (r["sha256"], r["content_sha256"], r["label"], r["kind"], r["source"], r["host"], r["suite"], r["suite_id"],
             r.get("compiler", ""), r.get("runtime", ""), r["target_input"], r["validation"]["status"],
             r["validation"]["exit"], 1 if r["valid"] else 0, json.dumps(r), r.get("signer", "")))
        new = cur.lastrowid
        db.executemany("INSERT INTO runs(submission_id, run, set_name, args, numa, status) VALUES (?, ?, ?, ?, ?, ?)",
                       [(new, x["run"], x["set"], x["args"], x["numa"], x["status"]) for x in r["runs"]])
        db.executemany("INSERT INTO figures(submission_id, section, figure, threads, process, value) VALUES (?, ?, ?, ?, ?, ?)",
                       [(new,) + f for f in _figure_rows(r)])
        said = "added"
        if r["suite_id"]:
            group = db.execute("SELECT id, label FROM submissions WHERE host = ? AND suite_id = ? ORDER BY id",
                               (r["host"], r["suite_id"])).fetchall()
            if len(group) > 1:   # every row of the group names all the others
                for rid, _ in group:
                    others = ", ".join("%d (%s)" % g for g in group if g[0] != rid)
                    db.execute("UPDATE submissions SET conflict = ? WHERE id = ?",
                               ("same host and suite id as archived submission %s, other contents" % others, rid))
                said = "added, flagged: same host and suite id as archived submission %s with other contents" % (
                    ", ".join("%d (%s)" % g for g in group if g[0] != new))
        return said, new


def conflict_of(db: sqlite3.Connection, rid: int):
    """Archive row RID's conflict flag (None when it has none): a page made from files while they are
    archived says what the archive says of them, so that it equals the page --select builds."""
    row = db.execute("SELECT conflict FROM submissions WHERE id = ?", (rid,)).fetchone()
    return row[0] if row else None


def parse_select(spec: str) -> List[Tuple[str, str]]:
    """'host=vm,runtime=libgomp' -> [(key, value)]; '' or 'all': everything."""
    if spec.strip() in ("", "all"):
        return []
    out = []
    for part in spec.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in SELECT_KEYS:
            raise ArchiveError("--select: '%s' is not KEY=VALUE with KEY one of %s" % (part, ", ".join(sorted(SELECT_KEYS))))
        out.append((key, value.strip()))
    return out


def select(db: sqlite3.Connection, spec: str) -> List[Dict[str, object]]:
    """The records the selection names, in the order they were archived; each with its conflict, if any."""
    where, params = [], []
    for key, value in parse_select(spec):
        where.append(SELECT_KEYS[key])
        if key == "valid":
            value = "1" if value.lower() in ("1", "yes", "true") else "0"
        params += [value, value] if key == "sha256" else [value]
    sql = "SELECT id, label, conflict, record FROM submissions%s ORDER BY id" % (" WHERE " + " AND ".join(where) if where else "")
    out = []
    seen = set()
    from .process_figures import with_current_keys
    for rid, label, conflict, text in db.execute(sql, params):
        r = with_current_keys(json.loads(text))
        if label in seen:
            r["label"] = "%s #%d" % (label, rid)
        seen.add(r["label"])
        if conflict:
            r["conflict"] = conflict
        out.append(clean(r))    # an archive written by an older clomp may hold raw control characters
    return out


def count(db: sqlite3.Connection) -> int:
    return db.execute("SELECT count(*) FROM submissions").fetchone()[0]
