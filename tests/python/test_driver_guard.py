"""core/driver_guard.py: a stop signal that arrives while a process is being started (inside Popen, after
its fork) still stops that process: the driver dies of the signal and leaves no process running. Before,
the signal raised inside Popen, the driver never knew the process, and it ran on after the driver died.
The oracle: the process's own pid, taken where Popen made it, is gone once the driver has died."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "results")

DRIVER = textwrap.dedent("""
    import os, signal, subprocess, sys
    sys.path.insert(0, sys.argv[1])
    from clomp_results.core import driver_guard
    real = subprocess.Popen

    class SignalledWhileStarting(real):   # the signal lands after the fork, before Popen returns
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            with open(sys.argv[2], "w") as f:
                f.write(str(self.pid))
            os.kill(os.getpid(), signal.SIGTERM)

    driver_guard.subprocess.Popen = SignalledWhileStarting
    sys.exit(driver_guard.guarded("--test", lambda guard: guard.run(["sleep", "30"], stdout=None)))
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:   # a zombie of ours is not running: reap it if it is one
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True


class SignalWhileStarting(unittest.TestCase):
    def test_the_process_started_as_the_signal_arrives_is_stopped_and_the_driver_dies_of_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            pid_file = os.path.join(tmp, "pid")
            driver = subprocess.run([sys.executable, "-c", DRIVER, RESULTS, pid_file], timeout=60)
            self.assertEqual(driver.returncode, -signal.SIGTERM)
            with open(pid_file) as f:
                pid = int(f.read())
            deadline = time.time() + 5
            while alive(pid) and time.time() < deadline:
                time.sleep(0.05)
            running = alive(pid)
            if running:
                os.kill(pid, signal.SIGKILL)
            self.assertFalse(running, "the process started as the signal arrived runs on after the driver died")


if __name__ == "__main__":
    unittest.main()
