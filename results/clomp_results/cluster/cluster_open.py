"""run_clomp.sh --nodes's options and the cluster folder it opens (issue 50,
docs/cluster.md): ``clomp-results nodes open ARGS...`` reads run_clomp.sh's
command line (--nodes all|N, --out DIR, --resume ID; every other word is the
node suites'), checks that this runs inside a Slurm allocation with srun and
flock, and opens the cluster folder DIR/CLOMP-cluster_ID: a new one (the
lowest free ID, its arguments file written NUL-separated) or, with --resume,
the one named (the node suites' arguments read back from it). Prints the
folder, its ID and the node suites' arguments, each ended by a NUL; a refusal
is one line on stderr, exit 2, and leaves no folder. cluster_launch then takes
the folder's lock and launches.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from typing import List, Tuple

from ..core.driver_files import Usage, make_out_dir   # the drivers' refusal and --out, one of each
from ..core.safe_io import for_terminal

# run_clomp.sh's modes that run on one node's folder, not across a cluster.
NOT_FOR_A_CLUSTER = ("--bundle", "--validate", "--dry-run", "--mpi", "--ompt-tax")
NOT_FOR_A_CLUSTER_PREFIXES = ("--compare", "--sweep")
MAX_CLUSTER_ID = 1000


def is_count(text: str) -> bool:
    return re.fullmatch(r"[1-9][0-9]*", text) is not None


def parse(args: List[str]) -> Tuple[str, str, str, List[str]]:
    """(want, out_dir, resume_id, node_args) of run_clomp.sh --nodes's command line."""
    want, out_dir, resume_id, node_args = "", "out", "", []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--nodes", "--out", "--resume"):
            if i + 1 >= len(args):
                raise Usage("%s: needs a value (see --help)" % arg)
            value = args[i + 1]
            i += 1
            if arg == "--nodes":
                want = value
            elif arg == "--out":
                out_dir = value
            else:
                resume_id = value
        elif arg.startswith("--nodes="):
            want = arg.split("=", 1)[1]
        elif arg in NOT_FOR_A_CLUSTER or arg.startswith(NOT_FOR_A_CLUSTER_PREFIXES):
            raise Usage("--nodes: %s is not for a cluster (run it on one node's folder: "
                        "DIR/CLOMP-cluster_ID/nodes/NODE)" % arg)
        else:
            node_args.append(arg)
        i += 1
    if not want:
        raise Usage("--nodes: needs all or a number of nodes")
    if resume_id and not is_count(resume_id):
        raise Usage("--resume: '%s' is not a cluster ID" % resume_id)
    return want, out_dir, resume_id, node_args


def check_environment(env: dict) -> None:
    if not env.get("SLURM_JOB_ID") or not (env.get("SLURM_JOB_NODELIST") or env.get("SLURM_NODELIST")):
        raise Usage("--nodes: not inside a Slurm allocation: submit slurm/clomp-nodes.sbatch (sbatch -N COUNT) "
                    "or run under salloc -N COUNT")
    if not shutil.which("srun"):
        raise Usage("--nodes: srun not found: Slurm is not installed here")
    if not shutil.which("flock"):
        raise Usage("flock (util-linux) is not installed: it keeps a second driver off a cluster")


def open_cluster(out_dir: str, resume_id: str, node_args: List[str]) -> Tuple[str, str, List[str]]:
    """(the cluster folder, its ID, the node suites' arguments): the one --resume names, or a new one."""
    if resume_id:
        cluster = os.path.join(out_dir, "CLOMP-cluster_" + resume_id)
        if not os.path.isdir(cluster) or os.path.islink(cluster) or not os.path.isfile(os.path.join(cluster, "nodes.txt")) \
                or not os.path.isfile(os.path.join(cluster, "arguments")):
            raise Usage("--resume: no cluster %s in %s" % (resume_id, out_dir))
        if node_args:
            raise Usage("--resume: the nodes' suites keep the arguments they started with (%s/arguments): give none"
                        % cluster)
        with open(os.path.join(cluster, "arguments"), "rb") as f:
            words = f.read().split(b"\0")
        return cluster, resume_id, [os.fsdecode(w) for w in words[:-1]]
    for n in range(1, MAX_CLUSTER_ID + 1):
        cluster = os.path.join(out_dir, "CLOMP-cluster_%d" % n)
        if os.path.lexists(cluster):
            continue
        try:
            os.mkdir(cluster)
        except OSError:
            continue
        with open(os.path.join(cluster, "arguments"), "wb") as f:
            f.write(b"".join(os.fsencode(a) + b"\0" for a in node_args))
        return cluster, str(n), node_args
    raise Usage("--out: no free cluster ID (1..%d) in %s" % (MAX_CLUSTER_ID, out_dir))


def main(argv: List[str]) -> int:
    try:
        want, out_dir, resume_id, node_args = parse(argv)
        check_environment(dict(os.environ))
        make_out_dir(out_dir)
        cluster, cluster_id, node_args = open_cluster(out_dir, resume_id, node_args)
    except Usage as e:
        print("run_clomp.sh: %s" % for_terminal(str(e)), file=sys.stderr)
        return 2
    sys.stdout.buffer.write(b"".join(os.fsencode(w) + b"\0" for w in [cluster, cluster_id, want] + node_args))
    return 0
