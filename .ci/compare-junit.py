#!/usr/bin/env python3
"""Compares two JUnit reports of `quire conform` case by case: the in-process run and a run
over the test-kit protocol (`--engine testkit:URL`).

A case that passes in-process must pass over the test kit or be skipped there for a missing
capability ("needs capability ..."); a case that passes over the test kit must pass
in-process; a case skipped in-process must be skipped over the test kit; a case that fails
or errs in-process must do the same over the test kit. Any other difference fails (exit 1).

Usage: .ci/compare-junit.py IN-PROCESS.xml TESTKIT.xml
"""
import sys
import xml.etree.ElementTree as ElementTree


def outcomes(path):
    """Maps (file, case name, occurrence) to (status, message)."""
    found = {}
    seen = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        name = (case.get("file") or case.get("classname"), case.get("name"))
        seen[name] = seen.get(name, 0) + 1
        status, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            element = case.find(kind)
            if element is not None:
                status, message = kind, element.get("message") or ""
                break
        found[name + (seen[name],)] = (status, message)
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    local, remote = outcomes(sys.argv[1]), outcomes(sys.argv[2])
    problems = []
    for key in sorted(set(local) | set(remote), key=str):
        label = f"{key[0]} :: {key[1]}"
        if key not in local or key not in remote:
            problems.append(f"{label}: only in {'the in-process' if key in local else 'the test-kit'} report")
            continue
        (mine, _), (theirs, why) = local[key], remote[key]
        allowed = mine == theirs or (mine == "passed" and theirs == "skipped" and why.startswith("needs capability"))
        if not allowed:
            problems.append(f"{label}: {mine} in-process, {theirs} over the test kit{' (' + why + ')' if why else ''}")
    counts = {}
    for status, _ in remote.values():
        counts[status] = counts.get(status, 0) + 1
    carried = sum(1 for key, (status, _) in remote.items() if status == "passed")
    share = 100 * carried / len(remote) if remote else 0
    print(f"compare-junit: {len(remote)} cases; over the test kit {carried} passed ({share:.1f}% carried), "
          f"{counts.get('skipped', 0)} skipped, {counts.get('failure', 0) + counts.get('error', 0)} failed")
    for problem in problems:
        print(f"compare-junit: DIFFERENT {problem}", file=sys.stderr)
    if problems:
        print(f"compare-junit: {len(problems)} cases differ", file=sys.stderr)
        sys.exit(1)
    print("compare-junit: every case agrees")


if __name__ == "__main__":
    main()
