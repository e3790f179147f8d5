"""The one safe way in for files this run did not make (issue 30, item 1).

A suite directory or a submission bundle may come from someone else: every
reader (the validator, --bundle, make plots, the buyer's tables) opens it
through this module and nothing else.

- ``open_input(path, limits)`` -> ``Input``: a bundle (``.tar.gz``) is
  extracted member by member into a private temporary directory; a directory
  is read in place. Members must be regular files or directories (no
  symbolic or hard links, devices, FIFOs), with relative names that stay
  inside (no absolute path, no ``..``) in safe characters (letters, digits,
  '.', '_', '-': ``SAFE_NAME``); their count, each one's size and the total
  are bounded (``Limits``, overridable). The tar headers are read by
  tar_reader, each judged before what it announces (a long name, a pax
  header, a member's data) is read; one bound covers everything inflated.
- ``Input.read(relpath)`` opens a file once with ``O_NOFOLLOW``, checks that
  what it opened is a regular file (``fstat``) and reads at most the bound.
- The temporary directory is removed on every exit path: ``with``, normal
  exit, an exception, SIGTERM, SIGINT and SIGHUP (``_cleanup_on_signals``).
- Text from outside is shown through safe_text (re-exported here): ``for_terminal``, ``no_controls``,
  ``clean``, ``check_suite_name``.

Errors are ``Refused`` (one line, naming the member and the rule broken) or
``NotABundle`` (the input is not a bundle at all).
"""
from __future__ import annotations

import errno
import hashlib
import os
import signal
import stat
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional

from .safe_text import SAFE_NAME, Refused, check_suite_name, clean, for_terminal, has_controls, no_controls

# The door's names: its own, and safe_text's rule for showing text from outside.
__all__ = ["Limits", "DEFAULT_LIMITS", "Refused", "NotABundle", "Input", "open_input", "read_bounded", "files_under",
           "in_top", "read_in_top", "check_member_name", "SAFE_NAME", "check_suite_name", "clean", "for_terminal",
           "has_controls", "no_controls"]

MiB = 1024 * 1024


@dataclass
class Limits:
    """Bounds on an input. The defaults hold the largest real suite (a
    default suite with --numa, 30 replicates and the construct sweep: about
    300 files, a .full of a few MB) with a wide margin."""
    max_members: int = 2000
    max_member_bytes: int = 64 * MiB
    max_total_bytes: int = 512 * MiB
    max_name_bytes: int = 255 * 4


def _limits_from_environment() -> Limits:
    """The stated defaults, each overridable by an environment variable
    (CLOMP_INPUT_MAX_MEMBERS, CLOMP_INPUT_MAX_MEMBER_BYTES, CLOMP_INPUT_MAX_TOTAL_BYTES)."""
    limits = Limits()
    for field_name in ("max_members", "max_member_bytes", "max_total_bytes"):
        text = os.environ.get("CLOMP_INPUT_" + field_name.upper(), "")
        if text.isascii() and text.isdigit() and 0 < len(text) < 20 and int(text) > 0:
            setattr(limits, field_name, int(text))
    return limits


DEFAULT_LIMITS = _limits_from_environment()


class NotABundle(Exception):
    """Input that is not a bundle or suite directory at all."""


_live_dirs: List[str] = []
_handlers_installed = False


def _remove_live_dirs() -> None:
    import shutil
    while _live_dirs:
        shutil.rmtree(_live_dirs.pop(), ignore_errors=True)


def _cleanup_on_signals() -> None:
    """Remove every temporary directory on SIGTERM, SIGINT and SIGHUP, then
    die of the signal as the caller would have (exit 128 + signal)."""
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True

    def handler(signum, frame):
        _remove_live_dirs()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        sys.exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        try:
            if signal.getsignal(sig) in (signal.SIG_DFL, signal.default_int_handler):
                signal.signal(sig, handler)
        except (ValueError, OSError):  # not the main thread
            pass


def check_member_name(name: str) -> str:
    """The member's path, normalised, or Refused: relative, no '..', no
    empty or control-character-only tricks."""
    if name.startswith("/"):
        raise Refused("%s: an absolute path (members must be relative)" % for_terminal(name))
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts:
        raise Refused("%s: an empty member name" % for_terminal(name))
    if ".." in parts:
        raise Refused("%s: a '..' path component (members must stay inside)" % for_terminal(name))
    if "\0" in name:
        raise Refused("%s: a NUL byte in the name" % for_terminal(name))
    for part in parts:
        if not SAFE_NAME.match(part):
            raise Refused("%s: a name with characters other than letters, digits, '.', '_' and '-' (a name from "
                          "outside reaches file names, make and terminals)" % for_terminal(name[:200]))
    return "/".join(parts)


def read_bounded(path: str, limit: int, dir_fd: Optional[int] = None, what: str = "", sink=None) -> bytes:
    """The bytes of a regular file, opened once with O_NOFOLLOW (and
    O_NONBLOCK, so a FIFO cannot block the open), checked with fstat to be a
    regular file, read with at most `limit` bytes; Refused otherwise. With
    SINK, each block goes to it instead (a stream: b"" is returned)."""
    name = what or path
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise Refused("%s: a symbolic link (only regular files are read)" % for_terminal(name))
        raise Refused("%s: cannot be opened (%s)" % (for_terminal(name), e.strerror))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("%s: not a regular file (%s)" % (for_terminal(name), _kind(st.st_mode)))
        if st.st_size > limit:
            raise Refused("%s: %d bytes, over the bound of %d bytes per file" % (for_terminal(name), st.st_size, limit))
        chunks = []
        got = 0
        while True:
            block = os.read(fd, min(1 << 20, limit + 1 - got))
            if not block:
                break
            got += len(block)
            if sink is None:
                chunks.append(block)
            elif got <= limit:
                sink(block)
            if got > limit:
                raise Refused("%s: grew past the bound of %d bytes per file while read" % (for_terminal(name), limit))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory")):
        if test(mode):
            return word
    return "not a regular file"


class Input:
    """A suite directory or an extracted bundle: ``root`` holds its files.
    ``top`` is the one directory a bundle holds (the suite's name); for a
    directory input it is the directory itself. ``files`` maps every regular
    file's path relative to ``root`` to its size; nothing else is there
    (anything else was refused)."""

    def __init__(self, root: str, top: str, files: Dict[str, int], limits: Limits,
                 tempdir: Optional[str], dirs: Optional[List[str]] = None):
        self.root = root
        self.top = top
        self.files = files
        self.dirs = dirs or []
        self.limits = limits
        self._tempdir = tempdir

    def path(self, rel: str) -> str:
        return os.path.join(self.root, rel)

    def read(self, rel: str, limit: Optional[int] = None) -> bytes:
        """The bytes of one listed file (Refused if it is not one, or over LIMIT: the bound per member)."""
        rel = check_member_name(rel)
        if rel not in self.files:
            raise Refused("%s: not a regular file of the input" % for_terminal(rel))
        return read_bounded(self.path(rel), limit or self.limits.max_member_bytes, what=rel)

    def sha256(self, rel: str) -> str:
        """The SHA-256 of one listed file, read as a stream (1 MiB at a time), within the bound per member."""
        rel = check_member_name(rel)
        if rel not in self.files:
            raise Refused("%s: not a regular file of the input" % for_terminal(rel))
        h = hashlib.sha256()
        read_bounded(self.path(rel), self.limits.max_member_bytes, what=rel, sink=h.update)
        return h.hexdigest()

    def text(self, rel: str) -> str:
        return self.read(rel).decode("utf-8", errors="replace")

    def close(self) -> None:
        if self._tempdir is not None:
            import shutil
            shutil.rmtree(self._tempdir, ignore_errors=True)
            if self._tempdir in _live_dirs:
                _live_dirs.remove(self._tempdir)
            self._tempdir = None

    def __enter__(self) -> "Input":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _scan_directory(root: str, limits: Limits, only=None):
    """Every regular file and directory under root (at the top, only the
    entries `only` accepts), without following links; Refused at the first
    link, device, FIFO or socket, or beyond the bounds."""
    files: Dict[str, int] = {}
    dirs: List[str] = []
    total = 0
    count = 0
    for here, subdirs, names in os.walk(root, followlinks=False):
        rel_here = os.path.relpath(here, root)
        if rel_here == "." and only is not None:
            subdirs[:] = [d for d in subdirs if only(d)]
            names = [n for n in names if only(n)]
        for name in sorted(subdirs) + sorted(names):
            rel = name if rel_here == "." else rel_here + "/" + name
            check_member_name(rel)
            st = os.lstat(os.path.join(here, name))
            count += 1
            if count > limits.max_members:
                raise Refused("%s: more than %d files (the bound on members)" % (for_terminal(rel), limits.max_members))
            if stat.S_ISDIR(st.st_mode):
                dirs.append(rel)
                continue
            if not stat.S_ISREG(st.st_mode):
                raise Refused("%s: %s (only regular files and directories are allowed)" % (for_terminal(rel), _kind(st.st_mode)))
            if st.st_size > limits.max_member_bytes:
                raise Refused("%s: %d bytes, over the bound of %d bytes per file" % (for_terminal(rel), st.st_size, limits.max_member_bytes))
            total += st.st_size
            if total > limits.max_total_bytes:
                raise Refused("%s: the files reach %d bytes, over the bound of %d in all" % (for_terminal(rel), total, limits.max_total_bytes))
            files[rel] = st.st_size
    return files, dirs


def _extract(bundle: str, dest: str, limits: Limits, verify=None):
    """Extract a gzip tar member by member into dest (tar_reader: every header
    judged before what it announces is read), data copied with a size bound.
    VERIFY, when given, is called with the open bundle (positioned at its
    start) before anything is extracted: the signature check reads the very
    file that is then extracted."""
    import gzip
    import zlib
    from . import tar_reader
    files: Dict[str, int] = {}
    dirs: List[str] = []
    total = 0
    count = 0
    try:
        fd = os.open(bundle, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise NotABundle("cannot be opened (%s)" % (e.strerror if e.errno != errno.ELOOP else "a symbolic link"))
    # Unbuffered: a seek is the file's own, so the signature check (another process on this
    # descriptor) and the extraction read the same bytes from the start.
    with os.fdopen(fd, "rb", buffering=0) as raw:
        st = os.fstat(raw.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise NotABundle("%s, not a regular file" % _kind(st.st_mode))
        if raw.read(2) != b"\x1f\x8b":
            raise NotABundle("not a gzip-compressed tar file")
        raw.seek(0)
        if verify is not None:
            verify(raw)
            raw.seek(0)
        gz = gzip.GzipFile(fileobj=raw, mode="rb")
        try:
            for member in tar_reader.members(gz, limits.max_total_bytes, limits.max_name_bytes):
                count += 1
                shown = member.name.decode("utf-8", "surrogateescape")
                if count > limits.max_members:
                    raise Refused("%s: more than %d members (the bound on members)" % (for_terminal(shown[:200]), limits.max_members))
                if len(member.name) > limits.max_name_bytes:
                    raise Refused("%s: a name longer than %d bytes" % (for_terminal(shown[:80]) + "...", limits.max_name_bytes))
                rel = check_member_name(shown)
                target = os.path.join(dest, rel)
                if member.is_directory:
                    _make_dirs(dest, rel)
                    dirs.append(rel)
                    continue
                if not member.is_regular:
                    raise Refused("%s: %s (only regular files and directories are allowed)" % (for_terminal(rel), member.kind_text))
                if member.size > limits.max_member_bytes:
                    raise Refused("%s: %d bytes, over the bound of %d bytes per member" % (for_terminal(rel), member.size, limits.max_member_bytes))
                total += member.size
                if total > limits.max_total_bytes:
                    raise Refused("%s: the members reach %d bytes, over the bound of %d in all" % (for_terminal(rel), total, limits.max_total_bytes))
                if rel in files:
                    raise Refused("%s: a member given twice" % for_terminal(rel))
                if "/" in rel:
                    _make_dirs(dest, rel.rsplit("/", 1)[0])
                out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                with os.fdopen(out, "wb") as sink:
                    member.copy_to(sink.write)
                files[rel] = member.size
        except tar_reader.OverBound as e:
            raise Refused(str(e))
        except (tar_reader.Damaged, EOFError, OSError, zlib.error) as e:
            if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
                raise
            if count == 0 and isinstance(e, tar_reader.Damaged):
                raise NotABundle("the archive does not unpack: %s" % for_terminal(str(e)))
            raise Refused("the archive is damaged after %d members: %s" % (count, for_terminal(str(e))))
    return files, dirs


def _make_dirs(dest: str, rel: str) -> None:
    """Make dest/rel one level at a time, never through a link."""
    here = dest
    for part in rel.split("/"):
        here = os.path.join(here, part)
        try:
            os.mkdir(here, 0o700)
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                raise Refused("%s: a member is both a file and a directory" % for_terminal(rel))


def open_input(path: str, limits: Limits = DEFAULT_LIMITS, only=None, verify=None) -> Input:
    """A bundle (.tar.gz, extracted into a private temporary directory) or a
    suite directory (read in place), every member checked. The bundle must
    hold exactly one top directory. `only`: for a directory, which of its
    top-level entries belong to the input. `verify`: for a bundle, called
    with the open file before it is extracted (its signature). NotABundle or
    Refused otherwise."""
    try:
        st = os.lstat(path)
    except OSError as e:
        raise NotABundle("no such file" if e.errno == errno.ENOENT else e.strerror)
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except OSError:
            raise NotABundle("a dangling symbolic link")
    if stat.S_ISDIR(st.st_mode):
        root = os.path.realpath(path)
        files, dirs = _scan_directory(root, limits, only)
        return Input(root, root, files, limits, None, dirs)
    import shutil
    import tempfile
    _cleanup_on_signals()
    tmp = tempfile.mkdtemp(prefix="clomp-input.")
    _live_dirs.append(tmp)
    try:
        files, dirs = _extract(path, tmp, limits, verify)
        tops = sorted({rel.split("/", 1)[0] for rel in list(files) + dirs})
        if len(tops) != 1 or tops[0] in files:
            raise NotABundle("it must hold exactly one directory CLOMP_<host>_<id>/ (it holds %s)" %
                             for_terminal(", ".join(tops[:5]) or "nothing"))
        return Input(tmp, os.path.join(tmp, tops[0]), files, limits, tmp, dirs)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if tmp in _live_dirs:
            _live_dirs.remove(tmp)
        raise


def files_under(inp: Input) -> Dict[str, int]:
    """The input's files relative to its top directory (the suite's own names)."""
    if inp.top == inp.root:
        return dict(inp.files)
    prefix = os.path.relpath(inp.top, inp.root) + "/"
    return {rel[len(prefix):]: size for rel, size in inp.files.items() if rel.startswith(prefix)}


def in_top(inp: Input, rel: str) -> str:
    """A file of the suite, by its name inside the top directory, as the input's own name."""
    return rel if inp.top == inp.root else os.path.relpath(inp.top, inp.root) + "/" + rel


def read_in_top(inp: Input, rel: str, limit: Optional[int] = None) -> bytes:
    """One file of the suite, by its name inside the top directory (at most LIMIT bytes, else Refused)."""
    return inp.read(in_top(inp, rel), limit)
