"""Writing the report's own files into a suite directory, and nothing else.

The suite directory may have come from someone else (a bundle, a copied
directory): a chart's .png or the report's .html may be a planted link to a
file elsewhere, a FIFO or a device.  Every file this package writes goes
through replace_file: the content is written to a new temporary name created
O_CREAT|O_EXCL|O_NOFOLLOW in the target's own directory, synced, then renamed
over the target, which must be a regular file or absent.  A link, device,
FIFO or directory at the target is refused (UnsafeTarget), never followed
or replaced.  Directories are opened O_NOFOLLOW|O_DIRECTORY, so a link
planted as the charts directory is refused as well.
"""
import errno
import os
import stat


class UnsafeTarget(Exception):
    """A path the report would write to is not a regular file or a new name."""


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
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
    shown = shown or name
    if "/" in name or name in ("", ".", ".."):
        raise UnsafeTarget("%s: not a plain file name" % shown)
    mode = check_target(dir_fd, name, shown)
    tmp = None
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
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        check_target(dir_fd, name, shown)   # planted while we wrote: still refused
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        tmp = None
    finally:
        if tmp is not None:
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
