"""A bounded reader of a gzip-compressed tar stream (issue 45, item 5): every
header is judged before a byte of what it announces is read.

Python's tarfile reads a GNU long-name header's whole data into memory (and
a pax header's) before its caller sees the member: a 1.3 MB bundle with a
300 MiB name held 626 MiB, a 1 GiB name ended in MemoryError, and 5,000
chained long-name headers a RecursionError. This reader walks the stream
block by block, iteratively, with one counter of everything inflated:

- a header (512 bytes) is checked (its checksum, its fields' digits) before
  anything after it is read;
- a GNU long name or long link name ('L', 'K') is read only when its size is
  within the bound on names; a pax header ('x', 'g') only within PAX_BYTES;
  two of the same kind in a row are refused (a chain is never followed);
- a member's data is handed on in blocks of at most 1 MiB; the caller
  bounds each member and the total before asking for it;
- every byte inflated counts against the one total: headers, names, data,
  padding and whatever follows the end-of-archive blocks.

``members(gz, total_bound, name_bound)`` yields ``Member`` objects; the caller
must call ``member.copy_to(write)`` or ``member.skip()`` before asking for the
next. Errors: ``Damaged`` (the stream is not a well-formed tar, one line) and
``OverBound`` (a header or the total over its bound, one line).
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, Optional

BLOCK = 512
PAX_BYTES = 64 * 1024            # a pax header's records (path, size, times): a real one is well under 1 KiB
CHUNK = 1 << 20
REGULAR, DIRECTORY = (b"0", b"\0", b"7"), b"5"
KINDS = {b"1": "a hard link", b"2": "a symbolic link", b"3": "a character device", b"4": "a block device",
         b"6": "a FIFO"}
EXTENDED = {b"L": "GNU long-name", b"K": "GNU long-link", b"x": "pax", b"g": "pax global"}
POSIX_MAGIC = b"ustar\x0000"
DIGITS = re.compile(rb"^[0-7]*$")


class Damaged(Exception):
    """The stream is not a well-formed tar archive (one line)."""


class OverBound(Exception):
    """A header, a name or the whole stream is over its bound (one line)."""


class Member:
    """One member: name (bytes), kind (b"0" regular, b"5" directory, or
    another type flag), size (bytes of data that follow), kind_text."""

    def __init__(self, reader, name: bytes, kind: bytes, size: int, first: bool):
        self._reader, self.name, self.kind, self.size, self.first = reader, name, kind, size, first
        self._left = size
        self._pad = -size % BLOCK

    @property
    def is_regular(self) -> bool:
        return self.kind in REGULAR

    @property
    def is_directory(self) -> bool:
        return self.kind == DIRECTORY

    @property
    def kind_text(self) -> str:
        return KINDS.get(self.kind, "a tar member of type %r" % self.kind.decode("latin-1"))

    def copy_to(self, write: Callable[[bytes], object]) -> None:
        """The member's data, in blocks, to WRITE; then its padding is skipped."""
        while self._left > 0:
            block = self._reader.read_exact(min(CHUNK, self._left))
            write(block)
            self._left -= len(block)
        self._reader.read_exact(self._pad)
        self._pad = 0

    def skip(self) -> None:
        self.copy_to(lambda block: None)


class Reader:
    """The stream with its one count of bytes inflated."""

    def __init__(self, gz, total_bound: int):
        self.gz, self.total_bound, self.total = gz, total_bound, 0

    def read_exact(self, n: int) -> bytes:
        if self.total + n > self.total_bound:
            raise OverBound("the archive inflates past %d bytes, the bound in all (headers, names, data and padding)"
                            % self.total_bound)
        parts, got = [], 0
        while got < n:
            block = self.gz.read(min(CHUNK, n - got))
            if not block:
                raise Damaged("it ends inside a member (%d of %d bytes read)" % (got, n))
            parts.append(block)
            got += len(block)
        self.total += n
        return b"".join(parts)

    def drain(self) -> int:
        """Everything after the end-of-archive block read to the end (so the gzip CRC and length are
        checked), counted in the total; the bytes read."""
        extra = 0
        while True:
            block = self.gz.read(min(CHUNK, self.total_bound - self.total + 1))
            if not block:
                return extra
            self.total += len(block)
            extra += len(block)
            if self.total > self.total_bound:
                raise OverBound("the archive inflates past %d bytes in all (%d bytes after its last member)"
                                % (self.total_bound, extra))


def _number(field: bytes, what: str) -> int:
    """A header's numeric field: octal digits (NUL or space ended), or GNU's base-256."""
    if field[:1] == b"\x80":
        return int.from_bytes(field[1:], "big")
    if field[:1] == b"\xff":
        raise Damaged("a negative %s in a header" % what)
    text = field.split(b"\0", 1)[0].strip(b" ")
    if not DIGITS.match(text):
        raise Damaged("a %s that is not a number in a header" % what)
    return int(text, 8) if text else 0


def _checksum_ok(header: bytes) -> bool:
    want = _number(header[148:156], "checksum")
    blanked = header[:148] + b" " * 8 + header[156:]
    unsigned = sum(blanked)
    signed = sum(b - 256 if b > 127 else b for b in blanked)
    return want in (unsigned, signed)


def _pax_records(data: bytes) -> dict:
    """A pax header's records ("LEN key=value\\n"), parsed without trusting LEN beyond the data."""
    out, i = {}, 0
    while i < len(data):
        if data[i:i + 1] == b"\0":
            break
        space = data.find(b" ", i, i + 21)
        if space < 0 or not data[i:space].isdigit():
            raise Damaged("a malformed pax header record")
        end = i + int(data[i:space])
        if end <= space or end > len(data) or data[end - 1:end] != b"\n":
            raise Damaged("a malformed pax header record")
        key, sep, value = data[space + 1:end - 1].partition(b"=")
        if not sep:
            raise Damaged("a malformed pax header record")
        out[key] = value
        i = end
    return out


def members(gz, total_bound: int, name_bound: int) -> Iterator[Member]:
    """The archive's members, in order; then the rest of the stream is drained (bounded)."""
    reader = Reader(gz, total_bound)
    long_name: Optional[bytes] = None
    pax: Optional[dict] = None
    extended = set()     # the extended headers since the last member: one of each kind at most
    first = True
    while True:
        head = reader.gz.read(BLOCK) if reader.total + BLOCK <= total_bound else None
        if head is None:
            raise OverBound("the archive inflates past %d bytes, the bound in all" % total_bound)
        while 0 < len(head) < BLOCK:
            more = reader.gz.read(BLOCK - len(head))
            if not more:
                break
            head += more
        if not head:
            if first:
                raise Damaged("an empty archive")
            return          # no end-of-archive blocks: tarfile accepts that too
        if len(head) < BLOCK:
            raise Damaged("it ends inside a header")
        reader.total += BLOCK
        if head == b"\0" * BLOCK:
            reader.drain()
            return
        if not _checksum_ok(head):
            raise Damaged("a header whose checksum is wrong" if not first else "not a tar archive (its first header's checksum is wrong)")
        kind = head[156:157]
        size = _number(head[124:136], "size")
        if kind in (b"L", b"K", b"x", b"g"):
            if kind in extended:
                raise Damaged("two %s headers before one member (a chain is not followed)" % EXTENDED[kind])
            extended.add(kind)
        if kind in (b"L", b"K"):
            if size > name_bound + 1:
                raise OverBound("a GNU long-%s header of %d bytes, over the bound of %d bytes for a name"
                                % ("name" if kind == b"L" else "link", size, name_bound))
            data = reader.read_exact(size + (-size % BLOCK))[:size]
            if kind == b"L":
                long_name = data.split(b"\0", 1)[0]
            first = False
            continue
        if kind in (b"x", b"g"):
            if size > PAX_BYTES:
                raise OverBound("a pax header of %d bytes, over the bound of %d" % (size, PAX_BYTES))
            records = _pax_records(reader.read_exact(size + (-size % BLOCK))[:size])
            if kind == b"x":
                pax = records
            first = False
            continue
        name = head[0:100].split(b"\0", 1)[0]
        if head[257:265] == POSIX_MAGIC:
            prefix = head[345:500].split(b"\0", 1)[0]
            if prefix:
                name = prefix + b"/" + name
        if long_name is not None:
            name = long_name
        if pax is not None:
            if b"path" in pax:
                name = pax[b"path"]
            if b"size" in pax:
                if not pax[b"size"].isdigit() or len(pax[b"size"]) > 20:
                    raise Damaged("a pax size that is not a number")
                size = int(pax[b"size"])
        long_name, pax = None, None
        extended.clear()
        member = Member(reader, name, kind, size if kind in REGULAR or kind == DIRECTORY else 0, first)
        first = False
        yield member
        if member._left or member._pad:
            member.skip()
