"""``clomp-results manifest [--write] SUITE``: a suite's manifest, <base>.suite.json (manifest.py), on
standard output: its own, or for a suite from before it the one legacy.py builds from what it carries;
--write writes that beside the suite (never into a bundle, never over a manifest there; through
safe_write: not through a link). The driver's --resume of an old suite asks for it (suite/manifest.sh).
Exit 0; 1 refused or a write failed; 2 no suite there.
"""
from __future__ import annotations

import os
import sys
from typing import List

from ..core import loader, manifest, safe_io, safe_write
from ..core.safe_io import for_terminal


def main(argv: List[str]) -> int:
    write = "--write" in argv
    args = [a for a in argv if a != "--write"]
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: clomp-results manifest [--write] SUITE (a base path, its directory or a bundle)", file=sys.stderr)
        return 2
    try:
        inp, name = loader.open_suite(args[0])
        with inp:
            suite = loader.load_from_input(inp, name, source=args[0])
            base_dir = inp.top
            own = name + manifest.SUFFIX in safe_io.files_under(inp)
        text = manifest.render(suite.manifest)
        if write:
            if own:
                print("clomp-results manifest: %s%s is there already: left as it is" % (for_terminal(name), manifest.SUFFIX), file=sys.stderr)
                return 1
            if os.path.isfile(args[0]) and not args[0].endswith(".env"):
                print("clomp-results manifest: --write writes beside a suite's files, not into a bundle", file=sys.stderr)
                return 1
            safe_write.write_text(base_dir, name + manifest.SUFFIX, text)
            print(os.path.join(base_dir, name + manifest.SUFFIX))
        else:
            sys.stdout.write(text)
    except loader.SuiteError as e:
        print("clomp-results manifest: %s" % e, file=sys.stderr)
        return 2
    except (safe_io.Refused, safe_io.NotABundle, manifest.ManifestError, safe_write.UnsafeTarget, OSError) as e:
        print("clomp-results manifest: %s" % for_terminal(str(e)), file=sys.stderr)
        return 1
    return 0
