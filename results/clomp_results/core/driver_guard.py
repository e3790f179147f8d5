"""The drivers of processes (compare_driver, sweep_driver, ompt_tax_driver)
under TERM, HUP and INT: what a signal to the driver does, in one place.

A signal stops the process running now (it gets the same signal, and is
waited for), removes what that process had begun (its JSON record) and the
driver's temporary directory, and the driver then dies of the signal itself,
as the shell drivers did (exit 128 + the signal to its caller): no report is
written from a stopped run, and every file already complete stays. A signal
ignored when the driver started (nohup's HUP, a background job's INT) stays
ignored, as it did for the shell. Processes are started from argument lists,
never through a shell."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from typing import IO, List, Optional, Sequence, Union

from .driver_files import Usage
from .safe_io import for_terminal

SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Signalled(BaseException):
    """A stop signal arrived: unwinds the driver (a BaseException: no `except Exception` swallows it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Guard:
    """The driver's temporary directory and its running process, under the stop signals."""

    def __init__(self) -> None:
        self.tmp = tempfile.mkdtemp(prefix="clomp-driver.")
        self.child: Optional[subprocess.Popen] = None
        self.partial: List[str] = []
        self.stopping: Optional[int] = None
        self.forwarded_to: Optional[int] = None
        self.starting = False   # a process is being started: a signal now is acted on once it is known
        for sig in SIGNALS:   # one ignored when the driver started (nohup, a background job) stays ignored
            if signal.getsignal(sig) != signal.SIG_IGN:
                signal.signal(sig, self._handler)

    def _handler(self, signum, frame) -> None:
        if self.stopping is None:
            self.stopping = signum
        if self.starting:   # raised inside Popen, after its fork, the process would run on unknown: wait for it
            return
        self._forward(signum)
        raise Signalled(signum)

    def _forward(self, signum: int) -> None:
        """The signal to the running process, once (a second one would interrupt its own handling)."""
        child = self.child
        if child is not None and child.returncode is None and child.pid != self.forwarded_to:
            self.forwarded_to = child.pid
            try:
                child.send_signal(signum)
            except OSError:
                pass

    def run(self, argv: Sequence[str], stdout: Union[int, IO, None], stderr: Union[int, IO, None] = None,
            partial: Sequence[str] = (), env: Optional[dict] = None, limit: Optional[float] = None) -> int:
        """ARGV's exit status (128 + N when signal N ended it); PARTIAL: the files it writes, removed
        if the driver is stopped while it runs. LIMIT: seconds it may run, then it gets SIGTERM and its
        status is 124 (timeout(1)'s, as the shell drivers ran it)."""
        self.partial = list(partial)
        self.starting = True
        try:
            self.child = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                          env=env)
        finally:
            self.starting = False
        if self.stopping is not None:   # arrived while it was being started: the process gets it, then the stop
            self._forward(self.stopping)
            raise Signalled(self.stopping)
        try:
            rc = self.child.wait(limit)
        except subprocess.TimeoutExpired:
            self.child.terminate()
            self.child.wait()
            rc = 124
        self.child, self.partial = None, []
        return 128 - rc if rc < 0 else rc

    def stop(self, signum: int) -> None:
        """The signal's work: the running process stopped and waited for, its files and the temporary
        directory removed, then the driver dies of the signal."""
        for sig in SIGNALS:   # one stop at a time: a second signal waits for this one
            signal.signal(sig, signal.SIG_IGN)
        if self.child is not None:
            self._forward(signum)
            try:
                self.child.wait()
            except OSError:
                pass
        for path in self.partial:
            try:
                os.unlink(path)
            except OSError:
                pass
        self.close()
        sys.stdout.flush()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        sys.exit(128 + signum)

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def guarded(word: str, body) -> int:
    """BODY(guard)'s exit status, under the stop signals (Guard.stop), the temporary directory removed
    on every way out; a refusal (driver_files.Usage) is its one line and status, a file the driver
    cannot write (a link planted there, a full disk) one line naming it and exit 3."""
    guard = Guard()
    try:
        return body(guard)
    except Usage as e:
        if str(e):
            sys.stderr.write("run_clomp.sh: %s\n" % for_terminal(str(e)))
        return e.status
    except OSError as e:
        sys.stderr.write("run_clomp.sh: %s: %s: %s (refused)\n" % (word, for_terminal(str(e.filename or "")),
                                                                  e.strerror or e))
        return 3
    except Signalled as s:
        guard.stop(s.signum)
        return 128 + s.signum
    finally:
        guard.close()
