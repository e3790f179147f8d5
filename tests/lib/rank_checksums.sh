# shellcheck shell=bash
# rank_checksums JSON: from clomp_mpi's --json document, one line per rank and
# verified measurement, "RANK KEY Sum=.. Residue=.. Total=..", in the report's
# (and the oracle's) %-8.8g format, so that each line ends with the oracle's
# "Checksum:" text. Used by tests/mpi.t, tests/slurm.t and tests/scale.t.
rank_checksums() {
    python3 - "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["mpi"]["per_rank"]:
    for m in r["measurements"]:
        c = m["checksum"]
        if c is not None:
            print("%d %s Sum=%-8.8g Residue=%-8.8g Total=%-.9g" % (r["rank"], m["key"], c["sum"], c["residue"], c["total"]))
PY
}
