#!/usr/bin/env python3
"""Groups the failures of a client-suite run by cause, in known_failures.txt's format.

    run_clients.sh python3 --junitxml=run.xml; python3 classify_failures.py run.xml

Each failed test becomes '<test id>  <cause>', the cause read from cl2vk's build log in the
exception (the translator's message) or from the assertion; the lines are grouped by cause with a
count, so that a new cause stands out. Nothing here decides what is known: the list is reviewed
by hand before it goes into known_failures.txt.
"""

import collections
import re
import sys
import xml.etree.ElementTree as ElementTree

# (pattern in the failure text, cause written into the list); the first that matches wins.
CAUSES = [
    (r"reinterpreting __local or __private memory as another type",
     "lower-pointers: reinterpreted __local/__private memory (OpBitcast) refused"),
    (r"OpCopyMemorySized .*copies memory between objects of different types",
     "lower-pointers: reinterpreted __private memory (OpCopyMemorySized between different types) refused"),
    (r"selects between __local or __private pointers into different objects",
     "lower-pointers: select between pointers to different private objects"),
    (r"a phi of __local or __private pointers into different objects",
     "lower-pointers: phi of pointers to different private objects"),
    (r"has not been defined|appears in the binary before its dominator",
     "input validation: llvm-spirv-15 block order (an ID used before its definition)"),
    (r"All OpVariable instructions in a function must be the first",
     "input validation: llvm-spirv-15 memmove temporary outside the entry block (repro/struct_copy_memmove.cl)"),
    (r"Expected vector sizes of Result Type and the condition to be equal: Select",
     "input validation: llvm-spirv-15 vector OpSelect with a scalar condition"),
    (r"OpenCL.std (\w+) is not supported on 64-bit floats",
     "double math refused: OpenCL.std {0} on 64-bit floats"),
    (r"OpenCL.std (\w+) is not supported",
     "OpenCL.std {0} not supported for any type (repro/opencl_std_unsupported.cl)"),
]


def cause_of(text):
    for pattern, cause in CAUSES:
        match = re.search(pattern, text)
        if match:
            return cause.format(*match.groups())
    match = re.search(r"program\.cl:\d+:\d+: (error: .*)", text)
    if match:
        return "clang: " + match.group(1)
    match = re.search(r"^E\s+(\w*(Error|Exception)\b.*)$", text, re.M)
    first = match.group(1) if match else text.strip().splitlines()[0]
    mismatch = re.search(r"Mismatched elements: .*|Max relative difference: .*", text)
    return (first + (" " + mismatch.group(0) if mismatch else "")).strip()[:200]


def main(paths):
    by_cause = collections.defaultdict(list)
    seen = set()
    for path in paths:
        for case in ElementTree.parse(path).getroot().iter("testcase"):
            failure = case.find("failure")
            if failure is None:
                failure = case.find("error")
            if failure is None:
                continue
            module = case.get("classname").split(".")[-1]
            test_id = f"{module}.py::{case.get('name')}"
            if test_id in seen:
                continue
            seen.add(test_id)
            by_cause[cause_of((failure.get("message") or "") + "\n" + (failure.text or ""))].append(test_id)
    for cause, tests in sorted(by_cause.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f"# {len(tests)}: {cause}")
        for test_id in tests:
            print(f"{test_id}  {cause}")
    print(f"# {len(seen)} failures in all", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
