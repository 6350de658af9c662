#!/usr/bin/env python3
"""Single-operand substitution search over the corpus.

Every id operand of every instruction (in function bodies, or with WHERE=global in the global
section) is replaced, one at a time, by one value of each other type in the module, and by a type,
a label, a function, a string and the OpenCL.std import. Each mutant is assembled and validated
with spirv-val; a valid one is translated with cl2vk-opt. A crash of either (a signal), or an
"internal error" of cl2vk-opt, is reported with the mutant saved in OUT_DIR.

Mutants are deduplicated by (instruction, operand, original type, replacement type), so one
instruction kind is tried once per pairing across the corpus: tens of thousands of mutants, about
ten minutes per 2 cores. Where libFuzzer explores at random, this covers the one-substitution
neighbourhood of every corpus module exhaustively; it found docs/RELIABILITY.md's findings 7-11.

  tools/fuzz/substitution-search.py build/spirv/corpus.txt OUT_DIR
  env: JOBS (default: the CPU count), WHERE=body|global (default body),
       CL2VK_OPT (default build/tools/cl2vk-opt; copy it elsewhere if you rebuild meanwhile)
"""
import hashlib
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile

OPT = os.environ.get("CL2VK_OPT", "build/tools/cl2vk-opt")
NO_RESULT_TYPE = {"OpLabel", "OpExtInstImport", "OpString", "OpDecorationGroup"}
SKIPPED = {"OpFunction", "OpLabel", "OpFunctionEnd", "OpName", "OpMemberName", "OpSource", "OpString",
           "OpCapability", "OpExtension", "OpMemoryModel", "OpExtInstImport", "OpSourceExtension", "OpLine"}


def parse(text):
    """(result id or None, opcode, operand tokens) per line of `spirv-dis --raw-id` output."""
    instructions = []
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or tokens[0].startswith(";"):
            instructions.append(None)
        elif len(tokens) > 2 and tokens[1] == "=":
            instructions.append((tokens[0], tokens[2], tokens[3:]))
        else:
            instructions.append((None, tokens[0], tokens[1:]))
    return text.splitlines(), instructions


def has_result_type(result, opcode, operands):
    return (result is not None and opcode not in NO_RESULT_TYPE and not opcode.startswith("OpType")
            and operands and operands[0].startswith("%"))


def describe_type(type_id, types, depth=0):
    if type_id not in types or depth > 6:
        return type_id
    opcode, operands = types[type_id]
    return opcode + "(" + ",".join(describe_type(o, types, depth + 1) if o.startswith("%") else o
                                   for o in operands) + ")"


def run(command):
    try:
        done = subprocess.run(command, capture_output=True, timeout=120)
        return done.returncode, (done.stderr + done.stdout).decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def check(job):
    text, env, description = job
    with tempfile.TemporaryDirectory() as work:
        source, binary = os.path.join(work, "m.spvasm"), os.path.join(work, "m.spv")
        with open(source, "w") as f:
            f.write(text)
        if run(["spirv-as", "--target-env", env, source, "-o", binary])[0] != 0:
            return None
        tool = "spirv-val"
        status, message = run([tool, "--target-env", env, binary])
        if status == 1:
            return None  # invalid, and said so
        if status == 0:
            tool = "cl2vk-opt"
            status, message = run([OPT, binary, "-o", os.path.join(work, "out.spv")])
            if status in (0, 1) and "internal error" not in message:
                return None  # translated, or refused with a reason
        with open(binary, "rb") as f:
            return tool, status, description, f.read(), message[-400:]


def mutants(path, seen, where):
    text = subprocess.run(["spirv-dis", "--raw-id", path], capture_output=True, text=True, check=True).stdout
    version = re.search(r"; Version: 1\.(\d)", text)
    env = "spv1.%s" % (version.group(1) if version else "0")
    lines, instructions = parse(text)
    types, type_of, kinds = {}, {}, {}
    for instruction in instructions:
        if not instruction or instruction[0] is None:
            continue
        result, opcode, operands = instruction
        kinds[result] = opcode
        if opcode.startswith("OpType"):
            types[result] = (opcode, operands)
        elif has_result_type(result, opcode, operands):
            type_of[result] = operands[0]
    replacements = {}
    for value, type_id in type_of.items():
        replacements.setdefault(describe_type(type_id, types), value)
    for result, opcode in kinds.items():
        if opcode.startswith("OpType"):
            replacements.setdefault("a type", result)
        elif opcode in ("OpLabel", "OpFunction", "OpString", "OpExtInstImport"):
            replacements.setdefault(opcode, result)
    in_function = False
    for index, instruction in enumerate(instructions):
        if not instruction:
            continue
        result, opcode, operands = instruction
        in_function |= opcode == "OpFunction"
        if opcode in SKIPPED or in_function != (where == "body"):
            continue
        signature = opcode + (" " + operands[2] if opcode == "OpExtInst" and len(operands) > 2 else "")
        first = 1 if has_result_type(result, opcode, operands) else 0
        for k in range(first, len(operands)):
            if not operands[k].startswith("%"):
                continue
            original = describe_type(type_of.get(operands[k], "?"), types)
            for kind, replacement in replacements.items():
                key = (signature, k, original, kind)
                if kind == original or replacement == operands[k] or key in seen:
                    continue
                seen.add(key)
                changed = list(operands)
                changed[k] = replacement
                line = (result + " = " if result else "") + opcode + " " + " ".join(changed)
                yield ("\n".join(lines[:index] + [line] + lines[index + 1:]) + "\n", env,
                       "%s: %s operand %d <- %s (%s)" % (os.path.basename(path), signature, k, kind, replacement))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus = [line.strip() for line in open(sys.argv[1]) if line.strip()]
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    seen, jobs = set(), []
    for path in corpus:
        jobs.extend(mutants(path, seen, os.environ.get("WHERE", "body")))
    print("mutants:", len(jobs), flush=True)
    found = 0
    with multiprocessing.Pool(int(os.environ.get("JOBS", os.cpu_count()))) as pool:
        for n, finding in enumerate(pool.imap_unordered(check, jobs, chunksize=8)):
            if n % 5000 == 0:
                print("checked", n, flush=True)
            if not finding:
                continue
            found += 1
            tool, status, description, binary, message = finding
            name = hashlib.sha1(binary).hexdigest()[:12] + ".spv"
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(binary)
            print("FOUND", tool, status, description, name, message.replace("\n", " | "), flush=True)
    print("findings:", found)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
