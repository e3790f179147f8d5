"""``clomp-results bundle BASE|DIR``: the submission bundle <base>.tar.gz.

One directory named after the suite holding every file of that ID (read
through safe_io: a link, device or FIFO among them refuses the bundle), the
machine description <name>_machine/ (taken now, marked so, when the suite
has none), <name>_machine/openmp_runtime.txt (the OpenMP runtime library
that ran: runtime_library.py) and a MANIFEST with the SHA-256 of every
other file in ``sha256sum`` format; the suite manifest <name>.suite.json
(manifest.py: a suite from before it gets the one legacy.py builds). The archive is written to a temporary
file created with O_EXCL in the target directory (mkstemp: a fresh random
name, never a pre-existing name or link), fsynced, and renamed over
<base>.tar.gz only when that is a regular file or absent.
Prints the bundle's name; exit 0, 1 on failure, 2 when BASE is no suite.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

from ..core import cliff, loader, manifest, runtime_library, safe_io
from ..core.safe_io import for_terminal
from ..core.tar_writer import write_archive

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))   # results/
LEFT_OUT = (".tar.gz", ".tar.gz.tmp")


def _included(rel: str) -> bool:
    return not rel.endswith(LEFT_OUT) and ".tmp." not in rel


def machine_now() -> Dict[str, bytes]:
    """results/machine.sh's description of this machine, taken now."""
    tmp = tempfile.mkdtemp(prefix="clomp-machine.")
    try:
        target = os.path.join(tmp, "m")
        subprocess.run([os.path.join(HERE, "machine.sh"), target], stdout=subprocess.DEVNULL, check=True, timeout=120)
        out = {}
        for name in sorted(os.listdir(target)):
            out[name] = safe_io.read_bounded(os.path.join(target, name), safe_io.DEFAULT_LIMITS.max_member_bytes)
        out["NOTE.txt"] = ("taken when the bundle was made (%s), not when the suite ran\n" % time.strftime("%c")).encode()
        return out
    finally:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def bundle_members(inp: safe_io.Input, name: str) -> Dict[str, bytes]:
    """Every file of the bundle, by its path inside the suite's directory."""
    # The team-size cliff's oversubscribed run is never submission data (cliff.py): left out.
    members = {rel: safe_io.read_in_top(inp, rel) for rel in sorted(safe_io.files_under(inp))
               if _included(rel) and not cliff.never_submitted(rel, name)}
    suite = loader.load_from_input(inp, name)
    if not any(rel.startswith(name + "_machine/") for rel in members):
        for file, data in machine_now().items():
            members["%s_machine/%s" % (name, file)] = data
    if name + manifest.SUFFIX not in members:   # a suite from before the manifest: the one built from what it carries
        members[name + manifest.SUFFIX] = manifest.render(suite.manifest).encode()
    runtime = "%s_machine/openmp_runtime.txt" % name
    if runtime not in members:
        members[runtime] = runtime_library.describe(suite).encode()
    members.pop("MANIFEST", None)
    digests = "".join("%s  %s\n" % (hashlib.sha256(data).hexdigest(), rel) for rel, data in sorted(members.items()))
    members["MANIFEST"] = digests.encode()
    return members


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print("usage: clomp-results bundle BASE|DIR", file=sys.stderr)
        return 2
    try:
        inp, name = loader.open_suite(argv[0])
    except (loader.SuiteError, safe_io.NotABundle) as e:
        print("clomp-results bundle: %s" % e, file=sys.stderr)
        return 2
    except safe_io.Refused as e:
        print("clomp-results bundle: refused: %s" % e, file=sys.stderr)
        return 1
    if inp.root != inp.top or os.path.basename(inp.top) == name and name + ".env" not in inp.files:
        inp.close()
        print("clomp-results bundle: %s: not a suite's output directory or base name" % for_terminal(argv[0]), file=sys.stderr)
        return 2
    try:
        with inp:
            members = bundle_members(inp, name)
            out = os.path.join(inp.top, name + ".tar.gz")
    except safe_io.Refused as e:
        print("clomp-results bundle: refused: %s" % e, file=sys.stderr)
        return 1
    except (OSError, subprocess.SubprocessError) as e:
        print("clomp-results bundle: %s" % for_terminal(str(e)), file=sys.stderr)
        return 1
    try:
        write_archive(members, name, out)
    except OSError as e:
        print("clomp-results bundle: could not write %s: %s" % (for_terminal(out), for_terminal(str(e))), file=sys.stderr)
        return 1
    # A signature of the bundle this one replaced signs other bytes: it goes (the link itself, if one is there).
    try:
        os.unlink(out + ".sig")
        print("clomp-results bundle: removed %s.sig: it signed the bundle this one replaces (sign again: "
              "results/clomp-results sign KEY %s)" % (for_terminal(out), for_terminal(out)), file=sys.stderr)
    except FileNotFoundError:
        pass
    except OSError as e:
        print("clomp-results bundle: %s.sig signs the bundle this one replaces and could not be removed: %s"
              % (for_terminal(out), for_terminal(str(e))), file=sys.stderr)
        return 1
    print(out)
    return 0
