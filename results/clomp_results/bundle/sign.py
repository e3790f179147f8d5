"""Signed submissions (issue 45, item 4): OpenSSH's ``ssh-keygen -Y sign``
and ``-Y verify`` over the bundle's bytes, in the namespace
``clomp-submission`` (a signature made for anything else never verifies
here). ssh-keygen comes with Debian's openssh-client (.ci/packages).

``clomp-results sign KEY BUNDLE``: BUNDLE.sig, the signature of BUNDLE by
KEY (a private key file, or a public key whose private half an ssh-agent
holds), written through safe_write (a new name beside it, renamed over it;
never through a link). ``run_clomp.sh --sign KEY`` signs the bundle it writes
(render.py); this signs one that exists. Exit 0 signed, 1 ssh-keygen
refused (its message), 2 usage or no such bundle.

``verify(bundle, signature, allowed_signers)``: the validator's and the
buyer's table's check (``--signers ALLOWED_SIGNERS``): ssh-keygen -Y
find-principals names the principals of ALLOWED_SIGNERS whose key made the
signature, and -Y verify checks it over the bundle's bytes (the open file
the validator then extracts, so the bytes verified are the bytes read).
What a good signature proves: the bundle is byte for byte what the holder of
that key signed. What it cannot: that the key's holder measured honestly.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from typing import List, NamedTuple

from ..core import safe_io, safe_write
from ..core.safe_io import for_terminal

NAMESPACE = "clomp-submission"
SIGNATURE_BYTES = 64 * 1024     # an SSH signature is under 2 KiB (RSA 16384 bits included)
SSH_KEYGEN_SECONDS = 120


class BadSignature(Exception):
    """The signature is missing, malformed, by no allowed signer, or not of these bytes (one line)."""


class NoSshKeygen(Exception):
    """ssh-keygen is not installed (Debian: openssh-client)."""


class Signer(NamedTuple):
    principal: str      # the allowed signers file's name for the key
    key: str            # ssh-keygen's words for the key: ED25519 key SHA256:...

    def text(self) -> str:
        return "%s (%s)" % (self.principal, self.key)


def ssh_keygen() -> str:
    found = shutil.which("ssh-keygen")
    if not found:
        raise NoSshKeygen("ssh-keygen is not installed (Debian: apt-get install openssh-client)")
    return found


def signature_path(bundle: str) -> str:
    return bundle + ".sig"


def _one_line(data: bytes) -> str:
    lines = [l for l in data.decode("utf-8", "replace").splitlines() if l.strip() and not l.startswith("Signing data")]
    return for_terminal(lines[-1][:200]) if lines else "no message"


def verify(bundle_file, signature: str, allowed_signers: str) -> Signer:
    """The signer of the bytes of BUNDLE_FILE (an open file, read from its start) by SIGNATURE (a path,
    read bounded and O_NOFOLLOW), among ALLOWED_SIGNERS; BadSignature otherwise."""
    keygen = ssh_keygen()
    if not os.path.lexists(signature):
        raise BadSignature("no signature %s (signers were given: a bundle must be signed)" % for_terminal(signature))
    try:
        data = safe_io.read_bounded(signature, SIGNATURE_BYTES, what=signature)
    except safe_io.Refused as e:
        raise BadSignature("signature %s" % e)
    if not data.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise BadSignature("%s is not an SSH signature" % for_terminal(signature))
    with tempfile.TemporaryDirectory(prefix="clomp-sig.") as tmp:
        sig = os.path.join(tmp, "bundle.sig")
        with open(sig, "wb") as f:
            f.write(data)
        found = subprocess.run([keygen, "-Y", "find-principals", "-s", sig, "-f", allowed_signers],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=SSH_KEYGEN_SECONDS)
        principals: List[str] = []
        for line in found.stdout.decode("utf-8", "replace").splitlines():
            principals += [p for p in line.strip().split(",") if p]
        if found.returncode != 0 or not principals:
            raise BadSignature("%s: its key is none of %s's allowed signers (%s)" % (
                for_terminal(signature), for_terminal(allowed_signers), _one_line(found.stderr)))
        why = ""
        for principal in principals:
            bundle_file.seek(0)
            done = subprocess.run([keygen, "-Y", "verify", "-f", allowed_signers, "-I", principal, "-n", NAMESPACE, "-s", sig],
                                  stdin=bundle_file, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=SSH_KEYGEN_SECONDS)
            said = done.stdout.decode("utf-8", "replace").strip()
            if done.returncode == 0 and said.startswith("Good "):
                key = said.split(" with ", 1)[1] if " with " in said else "key unknown"
                return Signer(for_terminal(principal[:200]), for_terminal(key[:200]))
            why = _one_line(done.stderr + done.stdout)
        raise BadSignature("%s does not verify the bundle as signed by %s in namespace %s: %s" % (
            for_terminal(signature), for_terminal(", ".join(principals)[:200]), NAMESPACE, why))


def sign(key: str, bundle: str) -> str:
    """BUNDLE.sig written (through safe_write); its path. BadSignature when ssh-keygen refuses."""
    keygen = ssh_keygen()
    fd = os.open(bundle, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        done = subprocess.run([keygen, "-Y", "sign", "-f", key, "-n", NAMESPACE], stdin=f, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    if done.returncode != 0 or not done.stdout.startswith(b"-----BEGIN SSH SIGNATURE-----"):
        raise BadSignature("ssh-keygen -Y sign with %s: %s" % (for_terminal(key), _one_line(done.stderr)))
    out = signature_path(bundle)
    directory, name = os.path.split(os.path.abspath(out))
    dir_fd = safe_write.open_dir(directory)
    try:
        safe_write.replace_file(dir_fd, name, done.stdout, out)
    finally:
        os.close(dir_fd)
    return out


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        print("usage: clomp-results sign KEY BUNDLE   (writes BUNDLE.sig: ssh-keygen -Y sign, namespace %s)" % NAMESPACE,
              file=sys.stderr)
        return 2
    key, bundle = argv
    for path, what in ((key, "key"), (bundle, "bundle")):
        if not os.path.isfile(path):
            print("clomp-results sign: %s %s: no such file" % (what, for_terminal(path)), file=sys.stderr)
            return 2
    try:
        print(sign(key, bundle))
    except (BadSignature, NoSshKeygen, safe_write.UnsafeTarget) as e:
        print("clomp-results sign: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("clomp-results sign: %s: %s" % (for_terminal(bundle), for_terminal(e.strerror or str(e))), file=sys.stderr)
        return 1
    return 0
