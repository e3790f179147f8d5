"""Where each program's delay loop lies: within one 64-byte line, or across two.

Usage: python3 delay_placement.py LABEL=BINARY:FUNCTION ...

Prints one line: per program, its delay function's first backward jump (the
loop) and whether the bytes from the jump's target to the jump's end cross a
64-byte boundary. On the development VM's cores a delay loop that crossed one
ran 10% slower per addition (kernels/delay.c), so two programs compared at
the same delay length must have their loops placed alike; bench/constructs.sh
prints this beside its table. Needs objdump; says so when a function is not
found (a stripped binary, a renamed function).
"""
import os
import re
import shutil
import subprocess
import sys

JUMP = re.compile(r"\s*([0-9a-f]+):\s+j\w*\s+([0-9a-f]+) <")


def placement(binary, function):
    if not os.path.isfile(binary):
        return "no such program " + binary
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True).stdout
    head = f"<{function}>:\n"
    if head not in dis:
        return "no " + function
    lines = dis.split(head, 1)[1].split("\n\n", 1)[0].splitlines()
    for i, line in enumerate(lines):
        m = JUMP.match(line)
        if m and int(m.group(2), 16) < int(m.group(1), 16):
            start = int(m.group(2), 16)
            # The loop ends where the next instruction starts (a jump's length varies).
            after = re.match(r"\s*([0-9a-f]+):", lines[i + 1]) if i + 1 < len(lines) else None
            end = int(after.group(1), 16) if after else int(m.group(1), 16) + 2
            where = "across two 64-byte lines" if start // 64 != (end - 1) // 64 else "within a 64-byte line"
            return f"{function} loop {start:#x}..{end:#x} {where}"
    return f"{function}: no loop found"


def main(argv):
    if shutil.which("objdump") is None:
        print("delay loops: not shown (no objdump)")
        return 0
    parts = []
    for arg in argv[1:]:
        label, _, rest = arg.partition("=")
        binary, _, function = rest.rpartition(":")
        parts.append(f"{label}: {placement(binary, function)}")
    print("delay loops: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
