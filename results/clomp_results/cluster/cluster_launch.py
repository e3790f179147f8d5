"""run_clomp.sh --nodes all|N [--out DIR] [--resume ID] [run_clomp.sh options and arguments]
(issue 50, docs/cluster.md): ``clomp-results nodes-driver ARGS...``, which run_clomp.sh execs when
--nodes is among its arguments. The suite on every node (or the first N) of the Slurm allocation
this runs in, one srun step per node, all at once, each node's suite in DIR/CLOMP-cluster_ID/nodes/NODE
with its own records, report and bundle; then each node's summary, the cluster report and the cluster
bundle (cluster_suite.gather). --resume ID: the cluster's nodes again, each running only what it
misses (cluster_suite.plan), with the arguments it started with (cluster_open).
Exit: 0 every node complete, 1 a node failed (named, with the reason), 2 usage.
"""
from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from typing import Dict, List

from . import cluster_open, cluster_suite
from ..core.driver_files import Usage, make_out_dir
from ..core.safe_io import for_terminal

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def say(line: str) -> None:
    print(line, flush=True)


def refuse(message: str) -> int:
    print("run_clomp.sh: %s" % for_terminal(message), file=sys.stderr)
    return 2


def lock_cluster(cluster: str, cluster_id: str) -> int:
    """CLUSTER/.lock held (its descriptor, which the steps inherit, as the shell driver's fd 9 was)."""
    fd = os.open(os.path.join(cluster, ".lock"), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise Usage("another run_clomp.sh --nodes is running cluster %s (%s)" % (cluster_id, cluster))
    return fd


def plan_or_undo(cluster: str, nodelist: str, want: str) -> List[str]:
    """cluster_suite.plan's lines; a new cluster refused (more nodes than the allocation has) leaves
    nothing: its empty folder goes."""
    fresh = not os.path.isfile(os.path.join(cluster, "nodes.txt"))
    rc, lines = cluster_suite.guarded(cluster_suite.plan, cluster, nodelist, want)
    if rc == 0:
        return lines
    if fresh:
        for name in ("arguments", ".lock"):
            try:
                os.remove(os.path.join(cluster, name))
            except FileNotFoundError:
                pass
        for d in ("nodes", "steps", ""):
            os.rmdir(os.path.join(cluster, d))
    raise SystemExit(2)


def launch(cluster: str, lock_fd: int, plan: List[str], node_args: List[str], top: str) -> Dict[str, subprocess.Popen]:
    """One srun step per node to run, all at once, its output appended to CLUSTER/steps/NODE.log."""
    steps: Dict[str, subprocess.Popen] = {}

    def stop_steps(signum, frame):
        for step in steps.values():
            try:
                step.send_signal(signal.SIGTERM)
            except OSError:
                pass

    for s in STOP_SIGNALS:
        signal.signal(s, stop_steps)
    for line in plan:
        node, action, suite_id = (line.split() + [""])[:3]
        if action == "done":
            say("%s: complete, not run again" % node)
            continue
        again = ["--resume", suite_id] if action == "resume" else []
        os.makedirs(os.path.join(cluster, "nodes", node), exist_ok=True)
        log_path = os.path.join(cluster, "steps", node + ".log")
        with open(log_path, "ab") as log:
            log.write(("---- step on %s, %s%s\n" % (node, time.strftime("%a %b %e %H:%M:%S %Z %Y"),
                                                   ", resuming suite " + suite_id if again else "")).encode())
            log.flush()
            # One task on the node with every CPU the job has there (a step's default in Slurm 22.05 and
            # later without --exact): the node's suite sees the node as run_clomp.sh on it would.
            steps[node] = subprocess.Popen(
                ["srun", "--nodes=1", "--ntasks=1", "--nodelist=" + node, "--job-name=clomp-" + node,
                 "--kill-on-bad-exit=1", os.path.join(top, "run_clomp.sh"), "--out", os.path.join(cluster, "nodes", node)]
                + again + node_args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                pass_fds=(lock_fd,))
        say("%s: started (%s%s), log %s" % (node, action, " " + suite_id if suite_id else "", log_path))
    return steps


def main(argv: List[str]) -> int:
    for s in STOP_SIGNALS:   # as a shell's: a stop before the steps start ends the driver
        signal.signal(s, signal.SIG_DFL)
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    try:
        want, out_dir, resume_id, node_args = cluster_open.parse(argv)
        cluster_open.check_environment(dict(os.environ))
        make_out_dir(out_dir)
        cluster, cluster_id, node_args = cluster_open.open_cluster(out_dir, resume_id, node_args)
        lock_fd = lock_cluster(cluster, cluster_id)
        try:
            for d in ("nodes", "steps"):
                os.makedirs(os.path.join(cluster, d), exist_ok=True)
        except OSError:
            raise Usage("--out: cannot write in %s" % cluster)
    except Usage as e:
        return refuse(str(e))
    nodelist = os.environ.get("SLURM_JOB_NODELIST") or os.environ["SLURM_NODELIST"]
    plan = plan_or_undo(cluster, nodelist, want)
    say("CLOMP cluster %s: Slurm job %s, nodes %s"
        % (cluster, os.environ["SLURM_JOB_ID"], ",".join(line.split()[0] for line in plan)))
    steps = launch(cluster, lock_fd, plan, node_args, top)
    for node, step in steps.items():
        rc = step.wait()   # a signal's handler runs and the wait goes on (PEP 475)
        with open(os.path.join(cluster, "steps", node + ".rc"), "a") as f:
            f.write("%d\n" % (128 - rc if rc < 0 else rc))
    for s in STOP_SIGNALS:
        signal.signal(s, signal.SIG_DFL)
    refused, gathered = cluster_suite.guarded(cluster_suite.gather, cluster)
    if refused:
        return refused
    say("\n".join(gathered[1]))
    return gathered[0]


if __name__ == "__main__":   # pragma: no cover
    sys.exit(main(sys.argv[1:]))
