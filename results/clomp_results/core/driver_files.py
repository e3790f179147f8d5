"""What the drivers of processes (run_clomp.sh --compare, --sweep, --ompt-tax:
compare_driver, sweep_driver, ompt_tax_driver) share with the suite driver's
shell (suite/common.sh), in Python: the output directory, a new ID claimed in
it, the host's name as file names carry it, appending to a file never through
a link, the .env header, the cores clomp counts and the target input's shape.

Every message names run_clomp.sh: it is the command users type. A refusal is
``Usage`` (one line, exit 2); the caller prints it."""
from __future__ import annotations

import errno
import glob
import os
import re
import stat
import subprocess
import sys
import time
from typing import List, Optional

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
_APPEND_FLAGS = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))


class Usage(Exception):
    """A refusal before anything ran: its one line (without run_clomp.sh: ) and exit status (2 unless said)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def help_asked(argv: List[str], usage: str) -> bool:
    """-h or --help before any "--": the help text (its own file, USAGE) printed, True."""
    for arg in argv:
        if arg in ("-h", "--help"):
            with open(usage, encoding="utf-8") as f:
                sys.stdout.write(f.read())
            return True
        if arg == "--":
            break
    return False


def file_host_name() -> str:
    """The host name as it goes into file names: its first label, in safe characters (suite/common.sh's)."""
    return re.sub(r"[^A-Za-z0-9.\n-]", "_", os.uname().nodename).split(".")[0]


def date_text() -> str:
    """date(1)'s default text in the C locale (what the shell drivers wrote)."""
    return time.strftime("%a %b %e %H:%M:%S %Z %Y")


def load_average() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii", errors="replace") as f:
            return f.read().rstrip("\n")
    except OSError:
        return "not available"


def make_out_dir(path: str) -> None:
    """--out's directory, made if need be; Usage with the system's reason when it cannot be."""
    if os.path.lexists(path) and not os.path.isdir(path):
        raise Usage("--out: %s is not a directory" % path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise Usage("--out: cannot create %s: %s" % (path, e.strerror)) from None


def claim_new_id(directory: str, host: str) -> str:
    """The base <DIR>/CLOMP_<host>_<n> of the lowest ID of which no file at all exists in DIR (a link,
    dangling or not, is a file), claimed by creating <base>.env exclusively (O_EXCL: atomic against other
    drivers); suite/common.sh's claim_new_id. Usage when 1..1000 are taken or DIR refuses the file."""
    for n in range(1, 1001):
        base = os.path.join(directory, "CLOMP_%s_%d" % (host, n)) if directory else "CLOMP_%s_%d" % (host, n)
        hidden = os.path.join(directory, ".CLOMP_%s_%d" % (host, n))
        if any(glob.glob(glob.escape(p) + tail) for p, tail in ((base, ".*"), (base, "_*"), (hidden, ".*"))):
            continue
        try:
            os.close(os.open(base + ".env", os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666))
            return base
        except OSError as e:
            if not os.path.lexists(base + ".env"):   # not taken meanwhile by another driver: DIR refused it
                raise Usage("--out: cannot write in %s: %s" % (directory, e.strerror)) from None
    raise Usage("no free suite ID (1..1000) in %s" % directory)


def append(path: str, data: bytes) -> None:
    """DATA appended to PATH, never through a link (O_NOFOLLOW), to a regular file only, synced
    (write/clomp_write.c's append)."""
    fd = os.open(path, _APPEND_FLAGS, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def env_header(base: str, lines: List[str]) -> None:
    """<base>.env's header: the date, uname -a, LINES, the CPU (lscpu) and the load average."""
    def output(argv: List[str]) -> Optional[bytes]:
        try:
            done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        except OSError:
            return None
        return done.stdout if done.returncode == 0 else None
    uname = output(["uname", "-a"]) or b"\n"
    cpu = output(["lscpu"]) or b"not available\n"
    text = b"date: " + date_text().encode() + b"\nuname: " + uname
    text += b"".join(os.fsencode(line) + b"\n" for line in lines)
    text += b"---- CPU (lscpu)\n" + cpu + b"---- load average: " + load_average().encode() + b"\n"
    append(base + ".env", text)


def count_cores() -> int:
    """The cores this job may use as clomp counts them (clomp --topology's cores: line), else the
    CPUs this process may run on (suite/common.sh's count_cores without --cores or a launcher)."""
    try:
        answer = subprocess.run([os.path.join(TOP, "clomp"), "--topology"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, universal_newlines=True)
        for line in answer.stdout.splitlines() if answer.returncode == 0 else []:
            if re.fullmatch(r"cores: [1-9][0-9]*", line):
                return int(line[7:])
    except OSError:
        pass
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def team_shape(threads: int, zones: int, target: int, warn: bool = True) -> List[int]:
    """[numParts, zonesPerPart]: parts follow the team (suite/common.sh's team_shape, one rule; the grain
    search's and the calibration's shapes are this one too): CLOMP 1.2's TARGET where THREADS divides it,
    else the multiple of THREADS nearest it whose zonesPerPart keeps the total within 5% of ZONES; WARN:
    say on stderr when no shape is within 5%."""
    best, best_err = None, None
    k = (target + threads // 2) // threads
    while k >= 1:
        parts = k * threads
        zpp = max(1, (zones + parts // 2) // parts)
        err = abs((parts * zpp - zones) * 1000) // zones   # per mille, truncated as the shell's
        if best is None or err < best_err:
            best, best_err = [parts, zpp], err
        if err <= 50:
            break
        k -= 1
    if best is None:
        return [threads, (zones + threads // 2) // threads]
    if best_err > 50 and warn:
        sys.stderr.write("run_clomp.sh: warning: %d threads: no shape within 5%% of %d zones (off by %d.%d%%)\n"
                         % (threads, zones, best_err // 10, best_err % 10))
    return best
