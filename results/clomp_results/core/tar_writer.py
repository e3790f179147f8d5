"""The one writer of a tar.gz archive (the submission bundle, bundle.py; the cluster bundle,
cluster_bundle.py): members under one top directory, written to a temporary file created with O_EXCL
beside the target (mkstemp: never a pre-existing name or link), fsynced, and renamed over the target only
when that is a regular file or absent. tar_reader.py is its reading side."""
from __future__ import annotations

import io
import os
import stat
import tarfile
import tempfile
import time
from typing import Dict


def write_archive(members: Dict[str, bytes], name: str, out: str) -> None:
    """The tar.gz of members under name/, via an O_EXCL temporary beside out."""
    directory = os.path.dirname(os.path.abspath(out))
    try:
        st = os.lstat(out)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("%s exists and is not a regular file: not replaced" % out)
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=".%s.tar.gz." % name, dir=directory)
    try:
        now = int(time.time())
        with os.fdopen(fd, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
                dirs = sorted({name} | {name + "/" + rel.rsplit("/", 1)[0] for rel in members if "/" in rel})
                for d in dirs:
                    info = tarfile.TarInfo(d)
                    info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, now
                    tar.addfile(info)
                for rel, data in sorted(members.items()):
                    info = tarfile.TarInfo(name + "/" + rel)
                    info.size, info.mode, info.mtime = len(data), 0o644, now
                    tar.addfile(info, io.BytesIO(data))
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
