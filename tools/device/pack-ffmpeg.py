#!/usr/bin/env python3
"""Packs this machine's ffmpeg for the GPU machine (no packages, and a carry too small for the 215
libraries Debian's ffmpeg links, 236 MB): the ffmpeg binary, its own libraries (libav*, libsw*,
libpostproc), every library it needs below 200 kB, and in place of each larger one (codecs,
containers, fonts, ICU ...) a stand-in: a library of the same name defining only the symbols, with
their versions, that the packed files reference, as empty functions. The OpenCL filter test
(tests/clients/ffmpeg/compare_filters.py) decodes ffmpeg's generated test pattern and writes raw
video, so it never calls them. Libraries the C library, libstdc++ and the carried Debian packages
(.device/debs: the Vulkan loader, glvnd, X, ocl-icd) provide are left to them: a stand-in for
libX11 would break NVIDIA's Vulkan driver in the same process.

    tools/device/pack-ffmpeg.py [--ffmpeg /usr/bin/ffmpeg] [--debs .device/debs] [--out .device/ffmpeg]

writes OUT/bin/ffmpeg, OUT/lib/ and OUT/stand-ins/ (the stand-ins' C sources and version scripts);
tools/device/run-gpu-tests.sh's `ffmpeg` step runs the test with OUT. Needs gcc and readelf.
"""
import argparse
import os
import re
import shutil
import subprocess

SYSTEM = re.compile(r"^(libc|libm|libpthread|libdl|librt|ld-linux[^.]*|libgcc_s|libstdc\+\+|libz)\.so")
OWN = re.compile(r"^(libav|libsw|libpostproc)")
SMALL = 200_000


def output(*command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\).*\[(.*)\]", output("readelf", "-d", path))


def dynamic_symbols(path):
    """(name, version or None, defined, type) of each dynamic symbol."""
    for line in output("readelf", "--dyn-syms", "-W", path).splitlines():
        fields = line.split()
        if len(fields) < 8 or not fields[0].endswith(":") or fields[4] not in ("GLOBAL", "WEAK"):
            continue
        name, version = fields[7], None
        if "@" in name:
            name, version = name.split("@", 1)
            version = version.lstrip("@")
        yield name, version, fields[6] != "UND", fields[3]


def deb_libraries(folder):
    names = set()
    for deb in os.listdir(folder):
        if deb.endswith(".deb"):
            for line in output("dpkg", "-c", os.path.join(folder, deb)).splitlines():
                match = re.search(r"/([^/ ]+\.so[.0-9]*)( ->.*)?$", line)
                if match:
                    names.add(match.group(1))
    return names


def stand_in(name, real, referenced, out):
    """Builds OUT/lib/NAME defining the symbols of `real` that `referenced` asks for."""
    sources = os.path.join(out, "stand-ins")
    lines = [f"/* stand-in for {name} (tools/device/pack-ffmpeg.py): never called by the filter test */"]
    versions, plain = set(), set()
    for index, (symbol, version, defined, kind) in enumerate(dynamic_symbols(real)):
        if not defined or ((symbol, version) not in referenced and (symbol, None) not in referenced):
            continue
        definition = "char {}[64];" if kind == "OBJECT" else "void {}(void) {{}}"
        if version is None or (symbol, None) in referenced:
            if symbol not in plain:
                lines.append(definition.format(symbol))
                plain.add(symbol)
        else:
            lines.append(definition.format(f"stand_in_{index}"))
            lines.append(f'__asm__(".symver stand_in_{index}, {symbol}@{version}");')
            versions.add(version)
    source = os.path.join(sources, name + ".c")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    command = ["gcc", "-shared", "-fPIC", "-o", os.path.join(out, "lib", name), source, "-Wl,-soname," + name]
    if versions:
        script = os.path.join(sources, name + ".map")
        with open(script, "w") as f:
            f.write("".join(f"{v} {{ }};\n" for v in sorted(versions)))
        command.append("-Wl,--version-script=" + script)
    subprocess.run(command, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ffmpeg", default="/usr/bin/ffmpeg")
    parser.add_argument("--debs", default=".device/debs")
    parser.add_argument("--out", default=".device/ffmpeg")
    args = parser.parse_args()

    paths = {}
    for line in output("ldd", args.ffmpeg).splitlines():
        match = re.match(r"\s*(\S+) => (\S+)", line)
        if match:
            paths[match.group(1)] = os.path.realpath(match.group(2))
    provided = deb_libraries(args.debs) if os.path.isdir(args.debs) else set()
    left_out = lambda name: SYSTEM.match(name) or name in provided
    packed = lambda name: OWN.match(name) or os.path.getsize(paths[name]) < SMALL

    # The libraries reachable from ffmpeg through packed ones: a stand-in needs nothing.
    users, reached, todo = [], set(), [args.ffmpeg]
    while todo:
        path = todo.pop()
        users.append(path)
        for name in needed(path):
            if left_out(name) or name in reached:
                continue
            reached.add(name)
            if packed(name):
                todo.append(paths[name])
    referenced = set()
    for path in users:
        referenced.update((name, version) for name, version, defined, _ in dynamic_symbols(path) if not defined)

    shutil.rmtree(args.out, ignore_errors=True)
    for folder in ("bin", "lib", "stand-ins"):
        os.makedirs(os.path.join(args.out, folder))
    shutil.copy(args.ffmpeg, os.path.join(args.out, "bin", "ffmpeg"))
    stand_ins = 0
    for name in sorted(reached):
        if packed(name):
            shutil.copy(paths[name], os.path.join(args.out, "lib", name))
        else:
            stand_in(name, paths[name], referenced, args.out)
            stand_ins += 1
    print(f"pack-ffmpeg: {len(reached) - stand_ins} libraries packed, {stand_ins} stand-ins, in {args.out}")


if __name__ == "__main__":
    main()
