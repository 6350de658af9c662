#!/usr/bin/env python3
"""ffmpeg's OpenCL filters through cl2vk, checked against ffmpeg's CPU filters.

Each filter runs on three frames of ffmpeg's test pattern, once as the OpenCL filter (the frames
uploaded to the OpenCL device that OCL_ICD_VENDORS and the first platform give) and once as its CPU
counterpart. ffmpeg's OpenCL kernels are not bit-exact ports of the CPU filters: they handle the
frame's edges their own way, and unsharp_opencl computes in float where unsharp uses fixed point.
So the frames must agree within `interior` (the largest difference of any pixel at least `margin`
pixels from the edges, in 8-bit levels) and on average over the whole frame within `mean`. The
tolerances are what the same filters give through PoCL (a CPU OpenCL implementation with images),
with which cl2vk's frames were compared bit for bit when this test was written (docs/images.md).
Exits non-zero, naming the filter, when one fails or does not run. In a sanitized build
CL2VK_TEST_PRELOAD names the sanitizer's run-time library, which ffmpeg must load first.
"""
import os
import subprocess
import sys

import numpy as np

WIDTH, HEIGHT, FRAMES = 320, 240, 3
SHARPEN = "0 -1 0 -1 5 -1 0 -1 0"
# name, OpenCL filter, CPU filter, margin, interior, mean
FILTERS = [
    ("avgblur", "avgblur_opencl=sizeX=3", "avgblur=sizeX=3", 3, 2, 0.5),
    ("boxblur", "boxblur_opencl", "boxblur", 3, 3, 0.5),
    ("convolution", f"convolution_opencl=0m={SHARPEN}:1m={SHARPEN}:2m={SHARPEN}",
     f"convolution=0m={SHARPEN}:1m={SHARPEN}:2m={SHARPEN}", 2, 2, 0.5),
    ("unsharp", "unsharp_opencl", "unsharp", 3, 10, 0.5),
    ("transpose", "transpose_opencl", "transpose", 0, 0, 0.0),
    ("nlmeans", "nlmeans_opencl", "nlmeans", 12, 2, 1.5),
    # A second input, a quarter of the frame, laid over the first: exact.
    ("overlay", "overlay_opencl=x=16:y=24", "overlay=x=16:y=24", 0, 0, 0.0),
]
OVERLAY_INPUT = f"testsrc2=size={WIDTH // 2}x{HEIGHT // 2}"


def run_ffmpeg(name, filter_, opencl):
    """The frames `filter_` makes of the test pattern (and, for overlay, of a second, smaller one)."""
    command = ["ffmpeg", "-v", "error"]
    if opencl:
        command += ["-init_hw_device", "opencl=gpu:0.0", "-filter_hw_device", "gpu"]
    command += ["-f", "lavfi", "-i", f"testsrc=size={WIDTH}x{HEIGHT}"]
    upload = ",hwupload" if opencl else ""
    download = "hwdownload," if opencl else ""
    if name == "overlay":
        command += ["-f", "lavfi", "-i", OVERLAY_INPUT, "-filter_complex",
                    f"[0:v]format=yuv420p{upload}[a];[1:v]format=yuv420p{upload}[b];"
                    f"[a][b]{filter_},{download}format=yuv420p"]
    else:
        command += ["-vf", f"format=yuv420p{upload},{filter_},{download}format=yuv420p"]
    command += ["-frames:v", str(FRAMES), "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]
    env = dict(os.environ)
    preload = env.get("CL2VK_TEST_PRELOAD")
    if opencl and preload:
        # A sanitized libcl2vk_icd.so in ffmpeg, which is not: the sanitizer's run-time library
        # (and libstdc++, for its exception interceptor) loaded first, leaks not checked.
        env["LD_PRELOAD"] = preload + " libstdc++.so.6"
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    result = subprocess.run(command, capture_output=True, timeout=600, env=env)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.decode(errors="replace").strip()[-2000:])
    return np.frombuffer(result.stdout, np.uint8)


def planes(data, width, height):
    """The Y, U and V planes of each yuv420p frame."""
    size = width * height
    chroma = (width // 2) * (height // 2)
    frame = size + 2 * chroma
    for start in range(0, len(data), frame):
        f = data[start:start + frame].astype(np.int32)
        yield f[:size].reshape(height, width)
        yield f[size:size + chroma].reshape(height // 2, width // 2)
        yield f[size + chroma:].reshape(height // 2, width // 2)


def compare(name, opencl_chain, cpu_chain, margin, interior, mean):
    try:
        got = run_ffmpeg(name, opencl_chain, True)
    except Exception as error:  # noqa: BLE001 - the message is the point
        return f"{name}: the OpenCL filter failed: {error}"
    expected = run_ffmpeg(name, cpu_chain, False)
    if got.size != expected.size:
        return f"{name}: {got.size} bytes of frames, expected {expected.size}"
    width, height = (HEIGHT, WIDTH) if name == "transpose" else (WIDTH, HEIGHT)
    worst_interior, worst_mean = 0, 0.0
    for a, b in zip(planes(got, width, height), planes(expected, width, height)):
        difference = np.abs(a - b)
        inside = difference[margin:difference.shape[0] - margin, margin:difference.shape[1] - margin]
        worst_interior = max(worst_interior, int(inside.max()) if inside.size else 0)
        worst_mean = max(worst_mean, float(difference.mean()))
    print(f"{name}: interior max difference {worst_interior} (at most {interior}), "
          f"mean {worst_mean:.4f} (at most {mean})")
    if worst_interior > interior or worst_mean > mean:
        return f"{name}: the OpenCL filter's frames differ from the CPU filter's beyond the tolerance"
    return None


def main():
    failures = [f for f in (compare(*spec) for spec in FILTERS) if f]
    for failure in failures:
        print("FAILED " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
