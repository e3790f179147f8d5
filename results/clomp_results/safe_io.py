"""The one safe way in for files this run did not make (issue 30, item 1).

A suite directory or a submission bundle may come from someone else: every
reader (the validator, --bundle, make plots, the buyer's tables) opens it
through this module and nothing else.

- ``open_input(path, limits)`` -> ``Input``: a bundle (``.tar.gz``) is
  extracted member by member into a private temporary directory; a directory
  is read in place. Members must be regular files or directories (no
  symbolic or hard links, devices, FIFOs), with relative names that stay
  inside (no absolute path, no ``..``); their count, each one's size and the
  total are bounded (``Limits``, overridable).
- ``Input.read(relpath)`` opens a file once with ``O_NOFOLLOW``, checks that
  what it opened is a regular file (``fstat``) and reads at most the bound.
- The temporary directory is removed on every exit path: ``with``, normal
  exit, an exception, SIGTERM, SIGINT and SIGHUP (``_cleanup_on_signals``).
- ``for_terminal(text)`` escapes control characters and newlines in names.

Errors are ``Refused`` (one line, naming the member and the rule broken) or
``NotABundle`` (the input is not a bundle at all).
"""
from __future__ import annotations

import errno
import os
import signal
import stat
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional

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
        if text.isdigit() and int(text) > 0:
            setattr(limits, field_name, int(text))
    return limits


DEFAULT_LIMITS = _limits_from_environment()


class Refused(Exception):
    """Input that breaks a rule: one line, naming the member and the rule."""


class NotABundle(Exception):
    """Input that is not a bundle or suite directory at all."""


def for_terminal(text: str) -> str:
    """Text safe to print on a terminal: control characters (ANSI escapes,
    newlines, carriage returns, DEL, C1) as visible escapes."""
    out = []
    for ch in str(text):
        code = ord(ch)
        if code < 0x20 or 0x7f <= code < 0xa0:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch, "\\x%02x" % code))
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


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
    return "/".join(parts)


def read_bounded(path: str, limit: int, dir_fd: Optional[int] = None, what: str = "") -> bytes:
    """The bytes of a regular file, opened once with O_NOFOLLOW (and
    O_NONBLOCK, so a FIFO cannot block the open), checked with fstat to be a
    regular file, read with at most `limit` bytes; Refused otherwise."""
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
            chunks.append(block)
            got += len(block)
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

    def read(self, rel: str) -> bytes:
        """The bytes of one listed file (Refused if it is not one)."""
        rel = check_member_name(rel)
        if rel not in self.files:
            raise Refused("%s: not a regular file of the input" % for_terminal(rel))
        return read_bounded(self.path(rel), self.limits.max_member_bytes, what=rel)

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


def _extract(bundle: str, dest: str, limits: Limits):
    import tarfile   # here, not at the top: the run loop's per-run step never opens a bundle (its start is cheaper)
    """Extract a gzip tar member by member into dest, checking each header
    before any byte is written; data copied with a size bound."""
    files: Dict[str, int] = {}
    dirs: List[str] = []
    total = 0
    count = 0
    fd = None
    try:
        fd = os.open(bundle, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise NotABundle("cannot be opened (%s)" % (e.strerror if e.errno != errno.ELOOP else "a symbolic link"))
    with os.fdopen(fd, "rb") as raw:
        st = os.fstat(raw.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise NotABundle("%s, not a regular file" % _kind(st.st_mode))
        if raw.read(2) != b"\x1f\x8b":
            raise NotABundle("not a gzip-compressed tar file")
        raw.seek(0)
        try:
            tar = tarfile.open(fileobj=raw, mode="r:gz")
        except (tarfile.TarError, OSError, EOFError) as e:
            raise NotABundle("the archive does not unpack: %s" % for_terminal(str(e)))
        with tar:
            try:
                for member in tar:
                    count += 1
                    if count > limits.max_members:
                        raise Refused("%s: more than %d members (the bound on members)" % (for_terminal(member.name), limits.max_members))
                    rel = check_member_name(member.name)
                    if len(rel.encode("utf-8", "surrogateescape")) > limits.max_name_bytes:
                        raise Refused("%s: a name longer than %d bytes" % (for_terminal(rel[:80]) + "...", limits.max_name_bytes))
                    target = os.path.join(dest, rel)
                    if member.isdir():
                        _make_dirs(dest, rel)
                        dirs.append(rel)
                        continue
                    if not member.isreg():
                        kind = ("a symbolic link" if member.issym() else "a hard link" if member.islnk()
                                else "a character device" if member.ischr() else "a block device" if member.isblk()
                                else "a FIFO" if member.isfifo() else "not a regular file")
                        raise Refused("%s: %s (only regular files and directories are allowed)" % (for_terminal(rel), kind))
                    if member.size > limits.max_member_bytes:
                        raise Refused("%s: %d bytes, over the bound of %d bytes per member" % (for_terminal(rel), member.size, limits.max_member_bytes))
                    total += member.size
                    if total > limits.max_total_bytes:
                        raise Refused("%s: the members reach %d bytes, over the bound of %d in all" % (for_terminal(rel), total, limits.max_total_bytes))
                    if rel in files:
                        raise Refused("%s: a member given twice" % for_terminal(rel))
                    if "/" in rel:
                        _make_dirs(dest, rel.rsplit("/", 1)[0])
                    source = tar.extractfile(member)
                    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                    with os.fdopen(out, "wb") as sink:
                        left = member.size
                        while left > 0:
                            block = source.read(min(1 << 20, left))
                            if not block:
                                break
                            sink.write(block)
                            left -= len(block)
                    files[rel] = member.size
                # To the end of the gzip stream, so that its CRC and length are checked;
                # bounded, as anything after the tar's end is.
                left = limits.max_total_bytes
                while left > 0:
                    block = tar.fileobj.read(min(1 << 20, left))
                    if not block:
                        break
                    left -= len(block)
                if left <= 0:
                    raise Refused("the archive holds more than %d bytes after its last member" % limits.max_total_bytes)
            except (tarfile.TarError, EOFError, OSError) as e:
                if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
                    raise
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


def open_input(path: str, limits: Limits = DEFAULT_LIMITS, only=None) -> Input:
    """A bundle (.tar.gz, extracted into a private temporary directory) or a
    suite directory (read in place), every member checked. The bundle must
    hold exactly one top directory. `only`: for a directory, which of its
    top-level entries belong to the input. NotABundle or Refused otherwise."""
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
        files, dirs = _extract(path, tmp, limits)
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


def read_in_top(inp: Input, rel: str) -> bytes:
    """One file of the suite, by its name inside the top directory."""
    if inp.top == inp.root:
        return inp.read(rel)
    return inp.read(os.path.relpath(inp.top, inp.root) + "/" + rel)
