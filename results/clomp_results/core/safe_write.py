"""Writing the report's own files into a suite directory, and nothing else.

The suite directory may have come from someone else (a bundle, a copied
directory): a chart's .png or the report's .html may be a planted link to a
file elsewhere, a FIFO or a device.  Every file this package writes goes
through replace_file: the content is written to a new temporary name created
O_CREAT|O_EXCL|O_NOFOLLOW in the target's own directory, synced, then renamed
over the target, which must be a regular file or absent.  A link, device,
FIFO or directory at the target is refused (UnsafeTarget), never followed
or replaced.  Directories are opened O_NOFOLLOW|O_DIRECTORY, so a link
planted as the charts directory is refused as well.  Files that belong
together (--compare's report: .txt, .csv, .json) go through replace_files:
all written first, then renamed together.
"""
import errno
import os
import signal
import stat


class UnsafeTarget(Exception):
    """A path the report would write to is not a regular file or a new name."""


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_FATAL_SIGNALS = {signal.SIGTERM, signal.SIGHUP}   # no Python handler: they would end us mid-write, temporaries left
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def open_dir(path, create=False):
    """A descriptor of directory PATH (never through a link); created (0755) when asked."""
    if create:
        try:
            os.mkdir(path, 0o755)
        except FileExistsError:
            pass
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise UnsafeTarget("%s: no such directory" % path)
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeTarget("%s: not a directory (%s): refused" % (path, kind_of(st.st_mode)))
    try:
        return os.open(path, _DIR_FLAGS)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UnsafeTarget("%s: a symbolic link: refused" % path)
        raise


def kind_of(mode):
    """The name of a file type, for messages."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISREG, "a regular file")):
        if test(mode):
            return name
    return "not a regular file"


def check_target(dir_fd, name, shown):
    """Raise UnsafeTarget unless NAME in DIR_FD is absent or a regular file; its mode, or None."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeTarget("%s is %s: refused (the report writes only regular files)" % (shown, kind_of(st.st_mode)))
    return stat.S_IMODE(st.st_mode)


def replace_file(dir_fd, name, data, shown=None):
    """Write bytes DATA as NAME in directory DIR_FD: temp file, fsync, rename."""
    replace_files(dir_fd, [(name, data, shown)])


def replace_files(dir_fd, files):
    """Write each (NAME, DATA, SHOWN) of FILES in directory DIR_FD as a set: every one to its temporary
    name and synced first, then the renames back to back with TERM, HUP and INT held off, so that an
    interrupt leaves every file new or every file as it was (the temporary ones removed), never a new
    one beside old ones. TERM and HUP, which end the process without a Python handler, are held off
    for the whole call (they land once the set is in place); INT (KeyboardInterrupt) during the writes
    leaves every file as it was. A target that is not a regular file or absent is refused before any
    rename."""
    outer = signal.pthread_sigmask(signal.SIG_BLOCK, _FATAL_SIGNALS)
    try:
        _replace_files(dir_fd, files)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, outer)


def _replace_files(dir_fd, files):
    made = []   # (temporary name, name, shown)
    try:
        for name, data, shown in files:
            shown = shown or name
            if "/" in name or name in ("", ".", ".."):
                raise UnsafeTarget("%s: not a plain file name" % shown)
            mode = check_target(dir_fd, name, shown)
            fd = tmp = None
            for attempt in range(100):
                candidate = "%s.tmp.%d.%d" % (name, os.getpid(), attempt)
                try:
                    fd = os.open(candidate, _NEW_FLAGS, 0o644 if mode is None else mode, dir_fd=dir_fd)
                except FileExistsError:
                    continue
                tmp = candidate
                break
            if tmp is None:
                raise UnsafeTarget("%s: no free temporary name beside it" % shown)
            made.append((tmp, name, shown))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for tmp, name, shown in made:
            check_target(dir_fd, name, shown)   # planted while we wrote: still refused
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})   # TERM and HUP: already held (replace_files)
        try:
            while made:
                tmp, name, _ = made[0]
                os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
                made.pop(0)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    finally:
        for tmp, _, _ in made:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass


def write_text(directory, name, text):
    """replace_file for a text file NAME in the directory at path DIRECTORY."""
    fd = open_dir(directory)
    try:
        replace_file(fd, name, text.encode("utf-8"), os.path.join(directory, name))
    finally:
        os.close(fd)
