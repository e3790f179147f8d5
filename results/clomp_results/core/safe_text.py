"""Text from outside, made safe to show (issues 30, 45): the one rule for
what a bundle's strings may carry to a terminal, a CSV cell, an HTML page,
a JSON file or the archive.

A string a bundle carries (a record's build.compiler, invocation, host,
runtime names, a label, a reason quoting any of them) is data: it may hold
anything. What must never reach an output raw:
- C0 controls (NUL .. US: ESC starts terminal escapes, BEL rings, CR and
  backspace overwrite what was printed, LF and TAB split lines and cells),
  DEL, and C1 controls (U+0080 .. U+009F: CSI is a one-character ESC [);
- the Unicode bidirectional controls (U+061C, U+200E, U+200F, U+202A ..
  U+202E, U+2066 .. U+2069: a right-to-left override shows text in another
  order than it is stored, "Trojan Source") and the line and paragraph
  separators U+2028 and U+2029;
- the invisible format characters (zero-width space, joiners, word joiner
  and invisible operators U+200B .. U+200D, U+2060 .. U+2064, the byte-order
  mark U+FEFF, the tag block U+E0000 .. U+E007F): they show nothing, so a
  forged string (a compiler's name) could read as a genuine one.
Each is written as a visible escape (\\x1b, \\u202e); nothing else changes.

- ``no_controls(text)``: the escapes, backslashes left as they are, so it is
  idempotent: the door (submissions, the archive) and every writer may both
  apply it.
- ``for_terminal(text)``: the same, with backslashes doubled too (a name
  shown once, whose escapes must read unambiguously).
- ``for_html(value)``: no_controls, then html.escape (quotes too): every page's one way to write a value;
  ``for_html_lines(lines)`` the same per line, for a <pre>.
- ``lines_text(lines)``: no_controls on each line, joined by newlines: the text
  reports' (sweep, grain, --compare) last guard, for their .txt, .csv and terminal.
- ``clean(obj)``: no_controls on every string (keys too) of a JSON-able value.
- ``has_controls(text)``: whether any is there (for the readers that refuse).
- ``SAFE_NAME`` / ``check_suite_name``: the names that reach file names and
  make: letters, digits, '.', '_' and '-' only.
"""
from __future__ import annotations

import csv
import re
from html import escape

# Every name from outside (a member, a suite, a set): letters, digits, '.', '_' and '-' only.
SAFE_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                    "\ufeff\U000e0000-\U000e007f]")
SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


class Refused(Exception):
    """Input that breaks a rule: one line, naming the member and the rule."""


def _escape(ch: str) -> str:
    code = ord(ch)
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code if code < 0x10000 else "\\U%08x" % code


def has_controls(text: str) -> bool:
    return UNSAFE.search(str(text)) is not None


def no_controls(text: str) -> str:
    """TEXT with its control characters (C0, DEL, C1, bidirectional controls, line separators) as visible
    escapes, and nothing else changed: idempotent, the last guard before any output."""
    return UNSAFE.sub(lambda m: _escape(m.group(0)), str(text))


def for_terminal(text: str) -> str:
    """Text safe to print on a terminal: control characters as visible escapes (newlines, carriage returns
    and tabs as \\n, \\r, \\t), backslashes doubled."""
    return UNSAFE.sub(lambda m: SHORT.get(m.group(0)) or _escape(m.group(0)), str(text).replace("\\", "\\\\"))


def for_html(value) -> str:
    """VALUE as HTML text: its control characters as visible escapes (no_controls), then &, <, >, " and '
    escaped; every page (the suite's, the buyer's table, the sweep and grain pages) writes values through it."""
    return escape(no_controls(str(value)), quote=True)


def for_html_lines(lines) -> str:
    """LINES for a <pre>: each through for_html, joined by newlines (a newline inside one is escaped: no forged
    line)."""
    return "\n".join(for_html(line) for line in lines)


def lines_text(lines) -> str:
    """LINES as a text file: each through no_controls (a record's name, a host, a setting: whatever a line
    quotes), joined by newlines, with a last one; a newline inside a line is escaped (no forged line)."""
    return "".join(no_controls(line) + "\n" for line in lines)


def clean(obj):
    """OBJ (a record, a table: dicts, lists, tuples, strings, numbers) with no_controls on every string, keys
    included; tuples become lists (as JSON has them)."""
    if isinstance(obj, str):
        return no_controls(obj)
    if isinstance(obj, dict):
        return dict((clean(k) if isinstance(k, str) else k, clean(v)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    return obj


def check_suite_name(name: str) -> str:
    """NAME, when it is a suite's CLOMP_<host>_<id> in safe characters; Refused when it is one in
    other characters (quotes, $( ), ESC: it would reach make, file names and terminals)."""
    if not SAFE_NAME.match(name):
        raise Refused("suite name '%s': characters other than letters, digits, '.', '_' and '-' "
                      "(refused: a suite's name reaches file names, make and terminals)" % for_terminal(name[:200]))
    return name


NUMBER = re.compile(r"^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$")


class SpreadsheetSafeWriter:
    """csv.writer whose text cells cannot run as spreadsheet formulas: a submission's host, compiler or
    label that starts with = + - @ (or a tab or carriage return) is written with a leading apostrophe,
    which spreadsheets show as text; numbers are written as they are."""

    def __init__(self, buf):
        self.w = csv.writer(buf, lineterminator="\n")

    def writerow(self, row):
        self.w.writerow([("'" + c) if isinstance(c, str) and c[:1] in ("=", "+", "-", "@", "\t", "\r")
                         and not NUMBER.match(c) else c for c in row])
