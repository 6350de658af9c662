#!/usr/bin/python3
"""pyopencl as a user calls it: array arithmetic (a + b * c), a reduction (sum) and a scan
(inclusive cumsum) on float32 arrays, on the device a program asking for "a GPU if there is one"
gets (CL2VK_CLIENT_DEVICE, a substring of the device name, picks another). One warm-up call, then
timed calls each ended by queue.finish(); the last result checked against numpy. Prints one line
"CLIENT-RESULT {json}" like the C++ clients. Runs under Debian's /usr/bin/python3, which has
python3-pyopencl and python3-numpy.

    pyopencl_client.py --bench arith|sum|cumsum --shape N [--runs R]
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array


def pick_device():
    wanted = os.environ.get("CL2VK_CLIENT_DEVICE")
    platforms = cl.get_platforms()
    for gpus_only in (True, False):
        for platform in platforms:
            for device in platform.get_devices():
                if wanted is not None:
                    if wanted in device.name:
                        return platform, device
                elif not gpus_only or device.type & cl.device_type.GPU:
                    return platform, device
    raise RuntimeError("no OpenCL device" + (f" named like {wanted}" if wanted else ""))


def time_calls(queue, runs, call):
    """The warm-up call (kernel builds included), then `runs` calls each followed by finish()."""
    start = time.perf_counter()
    result = call()
    queue.finish()
    warmup = time.perf_counter() - start
    seconds = []
    epoch_start = time.time()
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        queue.finish()
        seconds.append(time.perf_counter() - start)
    return result, seconds, warmup, epoch_start, time.time()


def arith(queue, n, runs, generator):
    a, b, c = (generator.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
    da, db, dc = (cl_array.to_device(queue, x) for x in (a, b, c))
    result, *timing = time_calls(queue, runs, lambda: da + db * dc)
    expected = a + b * c
    # One rounding of the product and one of the sum, or a single one where the kernel contracts
    # them into fma.
    bound = np.ldexp(np.abs(a) + np.abs(b * c), -22)
    got = result.get()
    bad = np.flatnonzero(~(np.abs(got - expected) <= bound))
    error = f"r[{bad[0]}] = {got[bad[0]]!r}, numpy gives {expected[bad[0]]!r}" if bad.size else ""
    return timing, 16.0 * n, "|r - r_numpy| <= 2^-22 * (|a| + |b c|)", error


def small_integers(generator, n):
    # Integers in {-2..2}: every partial sum of 2^26 of them stays far below 2^24, so float32 sums
    # in any order are exact.
    return generator.integers(-2, 3, n).astype(np.float32)


def total(queue, n, runs, generator):
    a = small_integers(generator, n)
    da = cl_array.to_device(queue, a)
    result, *timing = time_calls(queue, runs, lambda: cl_array.sum(da, queue=queue))
    expected = int(a.astype(np.int64).sum())
    got = float(result.get())
    error = "" if got == expected else f"sum = {got!r}, numpy gives {expected}"
    return timing, 4.0 * n, "exact (inputs are integers in [-2, 2])", error


def cumsum(queue, n, runs, generator):
    a = small_integers(generator, n)
    da = cl_array.to_device(queue, a)
    result, *timing = time_calls(queue, runs, lambda: cl_array.cumsum(da, queue=queue))
    expected = np.cumsum(a.astype(np.int64))
    got = result.get()
    bad = np.flatnonzero(got != expected)
    error = f"cumsum[{bad[0]}] = {got[bad[0]]!r}, numpy gives {expected[bad[0]]}" if bad.size else ""
    return timing, 8.0 * n, "exact (inputs are integers in [-2, 2])", error


BENCHES = {"arith": arith, "sum": total, "cumsum": cumsum}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", required=True, choices=sorted(BENCHES))
    parser.add_argument("--shape", required=True, type=int)
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    record = {"client": "pyopencl", "bench": options.bench, "shape": str(options.shape),
              "variant": "default", "platform": "", "device": "", "metric": "GB/s", "value": 0,
              "median_s": 0, "best_s": 0, "warmup_s": 0, "seconds": [], "t_start": 0,
              "t_end": 0, "verified": False, "check": "", "error": ""}
    try:
        platform, device = pick_device()
        record["platform"], record["device"] = platform.name, device.name
        context = cl.Context([device])
        queue = cl.CommandQueue(context)
        generator = np.random.default_rng(9)
        timing, work, check, error = BENCHES[options.bench](queue, options.shape, options.runs,
                                                            generator)
        seconds, warmup, epoch_start, epoch_end = timing
        median = float(np.median(seconds))
        record.update(value=work / median / 1e9, median_s=median, best_s=min(seconds),
                      warmup_s=warmup, seconds=seconds, t_start=epoch_start, t_end=epoch_end,
                      check=check, error=error, verified=not error)
    except Exception as exception:  # what failed goes into the table, not a traceback alone
        record["error"] = f"{type(exception).__name__}: {exception}".replace("\n", " ")[:400]
    print("CLIENT-RESULT " + json.dumps(record), flush=True)
    return 0 if record["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
