#!/usr/bin/env python3
"""Counts the public declarations of each library module, so the public surface is a figure.

A declaration counts when its own modifiers say `public` or `open` (a line of Swift source whose
leading attributes and modifiers include one of them); `public import` does not count, nor does
anything under `@_spi(...)`: an SPI declaration, or any member inside the braces of one, is
reachable only by a client that asks for it with `@_spi(...) import`, so it is no part of the
surface an app sees. Enum cases and protocol requirements carry no modifier of their own and are
not counted (they come with their type).

    Tests/Scripts/public-declarations.py                      every module under Sources/
    Tests/Scripts/public-declarations.py Quire QuireConformance
    Tests/Scripts/public-declarations.py --max Quire=520 --max QuireConformance=60
    Tests/Scripts/public-declarations.py --list QuireConformance   each counted line

With `--max MODULE=N` it exits 1 when a module has more than N.
"""

import os
import re
import sys

MODIFIER = (
    r"(?:@[A-Za-z_]+(?:\([^)]*\))?|nonisolated|final|static|class|override|mutating|nonmutating|"
    r"convenience|required|indirect|dynamic|lazy|weak|unowned|(?:private|fileprivate|internal|package)\(set\))"
)
DECLARATION = re.compile(r"^\s*(?:" + MODIFIER + r"\s+)*(?:public|open)\s")
IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*public\s+import\s")
SPI = re.compile(r"^\s*@_spi\(")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources")


def braces(line):
    """The change in brace depth on a line, ignoring braces inside string literals and comments."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line.split("//")[0])
    return line.count("{") - line.count("}")


def declarations(path):
    """The counted lines of one file, as (line number, text)."""
    counted = []
    depth = 0
    spi_depth = None  # the depth outside an SPI declaration's body while inside it
    pending_spi = False  # an `@_spi` line whose declaration has not opened its body yet
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            if SPI.match(line):
                pending_spi = True
            change = braces(line)
            if pending_spi:
                if change > 0 and spi_depth is None:
                    spi_depth = depth
                if re.search(r"\b(public|open|func|var|let|init|subscript|enum|struct|class|protocol|extension)\b", line):
                    pending_spi = False
            elif spi_depth is None and DECLARATION.match(line) and not IMPORT.match(line):
                counted.append((number, line.rstrip()))
            depth += change
            if spi_depth is not None and depth <= spi_depth:
                spi_depth = None
    return counted


def module_lines(module):
    lines = []
    for directory, _, files in os.walk(os.path.join(ROOT, module)):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                lines += [(os.path.relpath(path, ROOT), n, text) for n, text in declarations(path)]
    return lines


def main(arguments):
    limits, listed, modules = {}, None, []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--max":
            module, _, limit = arguments.pop(0).partition("=")
            limits[module] = int(limit)
        elif argument == "--list":
            listed = arguments.pop(0)
        else:
            modules.append(argument)
    if listed:
        for path, number, text in module_lines(listed):
            print(f"{path}:{number}: {text.strip()}")
        return 0
    if not modules:
        modules = sorted(set(limits) or (name for name in os.listdir(ROOT)
                                          if not name.startswith(("C", "quire"))
                                          and os.path.isdir(os.path.join(ROOT, name))))
    status = 0
    for module in modules:
        count = len(module_lines(module))
        limit = limits.get(module)
        verdict = "" if limit is None else (f"  (at most {limit}: ok)" if count <= limit else f"  (at most {limit}: TOO MANY)")
        print(f"{module:22} {count:5}{verdict}")
        if limit is not None and count > limit:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
