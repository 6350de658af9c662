#!/usr/bin/env python3
"""hashcat through cl2vk: known hashes cracked from a small word list, checked against the plain texts.

For each hash mode below, the hashes of some words of WORDS (computed here with hashlib, or with the
MD4 below for NTLM) and of some words that are not in it go to Debian's hashcat, which must find
exactly the first: each hash with its own plain text, nothing for the others. hashcat runs its own
self-test of the mode's kernels first and stops if it fails, so a wrong kernel fails here twice over.
Both of hashcat's attack kinds are used: a word list (-a 0, with a rule, so that the rule engine's
kernel runs too) and a mask (-a 3, whose kernels generate the candidates on the device). The test
suite runs a representative set of modes and attacks (REPRESENTATIVE); --all runs every pair.

hashcat runs on the OpenCL platform that OCL_ICD_VENDORS gives (the build tree's cl2vk.icd), its
kernel cache and settings in a fresh HOME, so every kernel goes through clang, llvm-spirv, the
translator and the Vulkan driver each time. Exits non-zero, naming the mode, when one fails. In a
sanitized build CL2VK_TEST_PRELOAD names the sanitizer's run-time library, which hashcat must load
first.
"""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

WORDS = ["hashcat", "password", "vulkan", "opencl", "letmein", "khronos", "spirv", "dragon",
         "monkey", "sunshine", "lavapipe", "compute"]
# Plain texts whose hashes are given but which no attack below produces.
ABSENT = ["not-in-the-list", "Vulkan1"]
# The rule applied to every word in the word-list attacks: append "1" (so "vulkan" gives "vulkan1").
RULE = "$1\n"


def md4(data):
    """MD4 (RFC 1320), which OpenSSL 3's hashlib no longer gives."""
    def rotl(x, n):
        return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF

    message = data + b"\x80" + b"\x00" * ((55 - len(data)) % 64) + struct.pack("<Q", 8 * len(data))
    state = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476]
    for offset in range(0, len(message), 64):
        x = struct.unpack("<16I", message[offset:offset + 64])
        a, b, c, d = state
        rounds = [
            (lambda b, c, d: (b & c) | (~b & d), 0, range(16), (3, 7, 11, 19)),
            (lambda b, c, d: (b & c) | (b & d) | (c & d), 0x5A827999,
             [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15], (3, 5, 9, 13)),
            (lambda b, c, d: b ^ c ^ d, 0x6ED9EBA1,
             [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15], (3, 9, 11, 15)),
        ]
        for function, constant, order, shifts in rounds:
            for i, k in enumerate(order):
                a = rotl((a + function(b, c, d) + x[k] + constant) & 0xFFFFFFFF, shifts[i % 4])
                a, b, c, d = d, a, b, c
        state = [(s + v) & 0xFFFFFFFF for s, v in zip(state, (a, b, c, d))]
    return struct.pack("<4I", *state).hex()


# mode, name, the hash of a plain text as hashcat's hash file writes it
MODES = [
    (0, "MD5", lambda word: hashlib.md5(word.encode()).hexdigest()),
    (100, "SHA1", lambda word: hashlib.sha1(word.encode()).hexdigest()),
    (1400, "SHA2-256", lambda word: hashlib.sha256(word.encode()).hexdigest()),
    (1700, "SHA2-512", lambda word: hashlib.sha512(word.encode()).hexdigest()),
    (1000, "NTLM", lambda word: md4(word.encode("utf-16-le"))),
]
# attack, its arguments after the hash file, the plain texts it must find, those it must not
ATTACKS = {
    "word list with a rule": (["-a", "0", "-r", "{rule}", "{words}"],
                              ["vulkan1", "khronos1", "compute1"], ["vulkan", "spirv"] + ABSENT),
    "mask": (["-a", "3", "k?l?l?lnos"], ["khronos"], ["vulkan"] + ABSENT),
}
# What the test suite runs: each pair builds hashcat's kernels through clang, cl2vk and llvmpipe,
# from under a minute of one core on lavapipe (MD5 by mask) to eight (a word list with a rule:
# llvmpipe compiles the rule engine into each kernel), several times that in the sanitized build
# CI runs beside the other suites, which must stay within CI's hour; so the suite takes one pair,
# MD5 by mask (its candidates made on the device); --all runs every mode with every attack (about
# 20 minutes on lavapipe, all passing when this was written), the rule engine's among them.
REPRESENTATIVE = [(0, "mask")]


def check_md4():
    """The MD4 above against RFC 1320's test suite, so that a wrong NTLM hash is never blamed on cl2vk."""
    expected = {b"": "31d6cfe0d16ae931b73c59d7e0c089c0", b"abc": "a448017aaf21d8525fc10ae87aa6729d",
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890":
                "e33b4ddc9c38f2199c3e7b164fcc0536"}
    for message, digest in expected.items():
        assert md4(message) == digest, f"md4({message!r}) is {md4(message)}, not {digest}"


def run_hashcat(home, arguments):
    env = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_CONFIG_HOME=os.path.join(home, "config"))
    preload = env.get("CL2VK_TEST_PRELOAD")
    if preload:
        # A sanitized libcl2vk_icd.so in hashcat, which is not: the sanitizer's run-time library
        # (and libstdc++, for its exception interceptor) loaded first, leaks not checked.
        env["LD_PRELOAD"] = preload + " libstdc++.so.6"
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    command = ["hashcat", "--force", "--potfile-disable", "--backend-ignore-cuda", "--quiet",
               "--logfile-disable", "--outfile-format", "1,2", "-D", "1,2,3"] + arguments
    return subprocess.run(command, capture_output=True, text=True, timeout=1200, env=env, cwd=home)


def crack(home, mode, name, hash_of, attack, arguments, found, missed):
    """hashcat's cracks for one mode and attack against the plain texts; a message when they differ."""
    hashes = {hash_of(word): word for word in found + missed}
    hash_file = os.path.join(home, f"hashes-{mode}.txt")
    out_file = os.path.join(home, f"cracked-{mode}.txt")
    with open(hash_file, "w") as f:
        f.write("".join(f"{h}\n" for h in hashes))
    if os.path.exists(out_file):
        os.remove(out_file)
    substitutions = {"rule": os.path.join(home, "append1.rule"), "words": os.path.join(home, "words.txt")}
    command = ["-m", str(mode), "--outfile", out_file, hash_file]
    command += [a.format(**substitutions) for a in arguments]
    result = run_hashcat(home, command)
    label = f"hashcat -m {mode} ({name}), {attack}"
    # hashcat's exit status: 0 when every hash was cracked, 1 when the candidates ran out first.
    if result.returncode not in (0, 1):
        return (f"{label}: exit status {result.returncode}\n--- stdout\n{result.stdout[-4000:]}"
                f"\n--- stderr\n{result.stderr[-4000:]}")
    cracked = {}
    if os.path.exists(out_file):
        with open(out_file) as f:
            for line in f.read().splitlines():
                digest, _, plain = line.partition(":")
                cracked[digest] = plain
    wanted = {hash_of(word): word for word in found}
    if cracked != wanted:
        return (f"{label}: cracked {sorted(cracked.values())}, wanted {sorted(wanted.values())}"
                f"\n--- stdout\n{result.stdout[-2000:]}\n--- stderr\n{result.stderr[-2000:]}")
    print(f"ok   {label}: {sorted(cracked.values())}", flush=True)
    return None


def main():
    run_all = sys.argv[1:] == ["--all"]
    if sys.argv[1:] not in ([], ["--all"]):
        print(f"usage: {sys.argv[0]} [--all]", file=sys.stderr)
        return 2
    if shutil.which("hashcat") is None:
        print("hashcat is not installed (tools/install-deps.sh installs it)", file=sys.stderr)
        return 1
    check_md4()
    failures = []
    with tempfile.TemporaryDirectory(prefix="cl2vk-hashcat-") as home:
        with open(os.path.join(home, "words.txt"), "w") as f:
            f.write("".join(f"{word}\n" for word in WORDS))
        with open(os.path.join(home, "append1.rule"), "w") as f:
            f.write(RULE)
        for mode, name, hash_of in MODES:
            for attack, (arguments, found, missed) in ATTACKS.items():
                if not run_all and (mode, attack) not in REPRESENTATIVE:
                    continue
                failure = crack(home, mode, name, hash_of, attack, arguments, found, missed)
                if failure:
                    print(f"FAIL {failure}", flush=True)
                    failures.append(failure.partition("\n")[0])
    if failures:
        print(f"\n{len(failures)} failed:\n  " + "\n  ".join(failures))
        return 1
    print(f"\nall {len(MODES) * len(ATTACKS) if run_all else len(REPRESENTATIVE)} cracks right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
