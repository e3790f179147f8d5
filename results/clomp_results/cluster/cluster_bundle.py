"""The cluster bundle (issue 50): one archive for a `run_clomp.sh --nodes`
screening, OUT/CLOMP-cluster_ID.tar.gz, holding one directory
CLOMP-cluster_ID/ with

    CLUSTER.json               {"clomp_cluster_bundle": 1, "nodes": [{"node", "status", "failure",
                                "bundle": "nodes/NODE/CLOMP_<host>_<id>.tar.gz" or null,
                                "summary": "summaries/NODE.json"}, ...]}
    nodes/NODE/CLOMP_*.tar.gz  each node's own submission bundle, as its suite wrote it
    summaries/NODE.json        each node's summary (cluster_nodes' schema)
    cluster.txt .csv .json .html   the cluster report
    MANIFEST                   the SHA-256 of every other member (sha256sum format)

Its directory's name (CLOMP-cluster_, a hyphen) is never a suite's
(CLOMP_<host>_<id>), so no reader takes one for the other. The validator
checks the manifest and every node's bundle with the suite validator
(validate()), one line per node; the buyer's table reads each node's bundle
as a submission of its own, labelled LABEL:NODE.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import re
import zlib
from collections import OrderedDict
from typing import Dict, List, Optional

from . import cluster_nodes
from ..core import safe_io
from ..core.tar_writer import write_archive
from ..core.safe_io import NotABundle, Refused, for_terminal

NAME = re.compile(r"^CLOMP-cluster_[0-9]{1,9}$")
BUNDLE_MEMBER = re.compile(r"^nodes/[A-Za-z0-9._-]+/CLOMP_[A-Za-z0-9._-]+_[0-9]{1,9}\.tar\.gz$")
EXIT_VALID, EXIT_INVALID, EXIT_NOT_A_BUNDLE, EXIT_NOT_SUBMISSION_GRADE = 0, 1, 2, 3


def write(cluster: str, nodes: List[Dict[str, object]], report_files: Dict[str, bytes]) -> str:
    """Write OUT/CLOMP-cluster_ID.tar.gz beside the folder CLUSTER; NODES: per node its summary (and
    "bundle": the path of its suite's bundle, or None). Returns the archive's path."""
    name = os.path.basename(os.path.normpath(cluster))
    members: Dict[str, bytes] = {}
    index = []
    for s in nodes:
        node = str(s["node"])
        entry = OrderedDict((("node", node), ("status", s["status"]), ("failure", s["failure"]), ("bundle", None),
                             ("summary", "summaries/%s.json" % node)))
        members[entry["summary"]] = (json.dumps(s["summary"], indent=1) + "\n").encode()
        if s.get("bundle"):
            rel = "nodes/%s/%s" % (node, os.path.basename(str(s["bundle"])))
            members[rel] = safe_io.read_bounded(str(s["bundle"]), safe_io.DEFAULT_LIMITS.max_member_bytes, what=rel)
            entry["bundle"] = rel
        index.append(entry)
    members.update(report_files)
    members["CLUSTER.json"] = (json.dumps(OrderedDict((("clomp_cluster_bundle", 1), ("nodes", index))), indent=1)
                               + "\n").encode()
    members["MANIFEST"] = "".join("%s  %s\n" % (hashlib.sha256(data).hexdigest(), rel)
                                  for rel, data in sorted(members.items())).encode()
    out = os.path.join(os.path.dirname(os.path.abspath(cluster)), name + ".tar.gz")
    write_archive(members, name, out)
    return out


def is_cluster(path: str) -> bool:
    """PATH is a cluster bundle (its first member's top directory is CLOMP-cluster_ID) or its unpacked
    directory. Reads one tar header at most; never raises."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            return bool(NAME.match(os.path.basename(os.path.normpath(os.path.abspath(path))))) and \
                os.path.isfile(os.path.join(path, "CLUSTER.json"))
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as raw:
            if raw.read(2) != b"\x1f\x8b":
                return False
            raw.seek(0)
            head = gzip.GzipFile(fileobj=raw).read(4096)
    except (OSError, EOFError, ValueError, zlib.error):   # a damaged stream: not a cluster bundle (the door says why)
        return False
    top = head[:100].split(b"\0", 1)[0]
    if head[156:157] in (b"x", b"g"):   # a PAX header first: the member's path is its path= record
        m = re.search(rb"[0-9]+ path=([^\n]*)\n", head[512:1536])
        top = m.group(1) if m else b""
    return bool(NAME.match(top.split(b"/", 1)[0].decode("ascii", "replace")))


def _index(inp: safe_io.Input, files: Dict[str, int]) -> List[Dict[str, object]]:
    """CLUSTER.json's nodes, each checked: a safe node name, a known status, its summary and bundle members
    present; Refused otherwise."""
    if "CLUSTER.json" not in files:
        raise NotABundle("no CLUSTER.json in its directory")
    try:
        doc = json.loads(safe_io.read_in_top(inp, "CLUSTER.json", 1 << 24).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise Refused("CLUSTER.json: not JSON (%s)" % for_terminal(str(e))[:200])
    nodes = doc.get("nodes") if isinstance(doc, dict) and doc.get("clomp_cluster_bundle") == 1 else None
    if not isinstance(nodes, list) or not nodes:
        raise Refused("CLUSTER.json: no \"clomp_cluster_bundle\": 1 with a list of nodes")
    seen = set()
    for n in nodes:
        name = n.get("node") if isinstance(n, dict) else None
        if not isinstance(name, str) or not safe_io.SAFE_NAME.match(name) or name in seen:
            raise Refused("CLUSTER.json: a node without a safe name of its own")
        seen.add(name)
        if n.get("status") not in ("complete", "failed"):
            raise Refused("CLUSTER.json: node %s: status is neither complete nor failed" % name)
        if n.get("summary") != "summaries/%s.json" % name or n["summary"] not in files:
            raise Refused("CLUSTER.json: node %s: its summary summaries/%s.json is not in the bundle" % (name, name))
        b = n.get("bundle")
        if b is not None and (not isinstance(b, str) or not BUNDLE_MEMBER.match(b) or not b.startswith("nodes/%s/" % name)
                              or b not in files):
            raise Refused("CLUSTER.json: node %s: its bundle is not a member nodes/%s/CLOMP_<host>_<id>.tar.gz" % (name, name))
    return nodes


def validate(path: str, out, suite_validate) -> int:
    """The verdict on the cluster bundle PATH (one line, then one per node) and its exit status: 1 when
    the manifest or a summary is not intact, or a complete node's bundle is not valid; 3 when a node
    failed (its bundle, if any, is then its record, valid or not) or a node's bundle is valid but not
    submission-grade; 0 otherwise. SUITE_VALIDATE: the validate module, which calls this (passed in,
    not imported: the package has no import circle)."""
    shown = for_terminal(path)
    try:
        return _verdict(path, out, suite_validate, shown)
    except NotABundle as e:
        print("%s: %s: not a CLOMP bundle: %s" % (suite_validate.ME, shown, e), file=out)
        return EXIT_NOT_A_BUNDLE
    except Refused as e:
        print("%s: %s: INVALID: refused: %s" % (suite_validate.ME, shown, e), file=out)
        return EXIT_INVALID


def _verdict(path: str, out, suite_validate, shown: str) -> int:
    me = suite_validate.ME
    lines: List[str] = []
    reasons: List[str] = []
    worst = EXIT_VALID
    with safe_io.open_input(path) as inp:
        files = safe_io.files_under(inp)
        nodes = _index(inp, files)
        suite_validate.check_manifest(inp, files, reasons)
        for n in nodes:
            name = n["node"]
            try:
                cluster_nodes.summary_node(json.loads(safe_io.read_in_top(inp, n["summary"], cluster_nodes.SUMMARY_BYTES)
                                                      .decode("utf-8")), n["summary"])
            except (UnicodeDecodeError, ValueError, RecursionError, Refused) as e:
                reasons.append("node %s: its summary is not one: %s" % (name, for_terminal(str(e))[:200]))
            if n["bundle"] is None:
                if n["status"] == "complete":
                    reasons.append("node %s: complete but no bundle of its suite" % name)
                else:
                    worst = max(worst, EXIT_NOT_SUBMISSION_GRADE)
                    lines.append("  %s: FAILED, no bundle: %s" % (name, for_terminal(str(n.get("failure") or "no reason"))[:400]))
                continue
            buf = io.StringIO()
            inner = inp.path(safe_io.in_top(inp, n["bundle"]))
            with contextlib.redirect_stderr(buf):   # "not a CLOMP bundle" goes to stderr: here, the node's line
                rc = suite_validate.validate(inner, out=buf)
            said = buf.getvalue().replace(for_terminal(inner), n["bundle"]).replace("%s: " % me, "", 1).rstrip("\n")
            lines.append("  %s: %s" % (name, said.replace("\n", "\n  ")))
            if rc in (EXIT_INVALID, EXIT_NOT_A_BUNDLE) and n["status"] == "complete":
                reasons.append("node %s: its bundle is not valid (exit %d)" % (name, rc))
            elif rc != EXIT_VALID or n["status"] == "failed":   # a failed node's bundle (failed runs) is its record
                worst = max(worst, EXIT_NOT_SUBMISSION_GRADE)
    failed = sum(1 for n in nodes if n["status"] == "failed")
    what = "cluster bundle of %d node%s (%d failed)" % (len(nodes), "" if len(nodes) == 1 else "s", failed)
    if reasons:
        print("%s: %s: INVALID: %s (%d reasons)" % (me, shown, what, len(reasons)), file=out)
        suite_validate.say_reasons(reasons, out)
        worst = EXIT_INVALID
    elif worst == EXIT_NOT_SUBMISSION_GRADE:
        print("%s: %s: VALID, NOT SUBMISSION-GRADE: %s; manifest intact; every complete node's bundle valid" % (
            me, shown, what), file=out)
    else:
        print("%s: %s: VALID: %s; manifest intact; every node's bundle valid and submission-grade" % (me, shown, what), file=out)
    for line in lines:
        print(line, file=out)
    return worst


def submissions(path: str, label: str, signers: Optional[str], subs) -> List[Dict[str, object]]:
    """The buyer's table's submissions of a cluster bundle: each complete node's bundle, labelled LABEL:NODE
    (its own validation, sha256 of its bytes). Failed nodes are left out and named in the first
    submission's notes. SUBS: the submissions module, which calls this (passed in, not imported)."""
    out: List[Dict[str, object]] = []
    inp = safe_io.open_input(path)
    with inp:
        nodes = _index(inp, safe_io.files_under(inp))
        for n in nodes:
            if n["bundle"] is None or n["status"] == "failed":   # no submission: named in the notes
                continue
            inner = inp.path(safe_io.in_top(inp, n["bundle"]))
            data = safe_io.read_bounded(inner, safe_io.DEFAULT_LIMITS.max_total_bytes, what=n["bundle"])
            out.append(subs.from_suite(inner, "%s:%s" % (label, n["node"]), hashlib.sha256(data).hexdigest(), signers))
    if not out:
        raise subs.SubmissionError("%s: a cluster bundle with no complete node (every node failed)" % for_terminal(path))
    left = [n["node"] for n in nodes if n["bundle"] is None or n["status"] == "failed"]
    if left:
        out[0]["notes"].append("cluster bundle %s: node%s %s failed: left out" % (
            for_terminal(os.path.basename(path)), "" if len(left) == 1 else "s", " ".join(left)))
    return out
