#!/usr/bin/env python3
"""The Markdown table of tools/run-client-benchmarks.sh: reads the runs it made (runs.tsv: one line
per process with the implementation, the variant, the benchmark, the exit status, the log and the
GPU clock samples), finds each process's "CLIENT-RESULT {json}" line in its log, and prints one row
per benchmark with each implementation's GB/s or GFLOP/s, the ratio of the first implementation to
each other one and, where nvidia-smi sampled them, the clocks during the timed calls. Failed runs
are cells that say why; the exit status is 1 when any run failed or was not verified. Standard
library only, so any python3 runs it."""
import argparse
import datetime
import json
import math
import statistics

CLIENT_NAMES = {"clblast": "CLBlast", "clfft": "clFFT", "pyopencl": "pyopencl", "transfer": "clpeak transfer",
                "image": "image", "concurrency": "two kernels at once,", "multigpu": "GPUs:", "clpeak": "clpeak"}
CLPEAK_NAMES = {"global-bandwidth": "global memory bandwidth (best width)",
                "compute-sp": "single-precision compute (best width)",
                "compute-dp": "double-precision compute (best width)",
                "compute-integer": "integer compute (best width)",
                "kernel-latency": "kernel launches per ms (1000 / its launch latency)"}
CONCURRENCY_NAMES = {"serial": "one queue", "two-queues": "two queues", "out-of-order": "an out-of-order queue"}
IMAGE_NAMES = {"copy": "copy kernel, RGBA8", "copy-float": "copy kernel, RGBA float",
               "conv5x5": "5x5 convolution through a sampler, RGBA8",
               "bilinear": "bilinear resampling (linear sampler), RGBA8",
               "write": "clEnqueueWriteImage, RGBA8", "read": "clEnqueueReadImage, RGBA8"}
TRANSFER_NAMES = {"write": "clEnqueueWriteBuffer", "read": "clEnqueueReadBuffer",
                  "write-async": "clEnqueueWriteBuffer, not blocking",
                  "read-async": "clEnqueueReadBuffer, not blocking", "map-read": "clEnqueueMapBuffer (for read)",
                  "memcpy-from-map": "memcpy from the mapped pointer", "unmap-write": "clEnqueueUnmap (after write)",
                  "memcpy-to-map": "memcpy to the mapped pointer"}


def size_text(n):
    n = int(n)
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"
PYOPENCL_NAMES = {"arith": "a + b*c", "sum": "sum", "cumsum": "cumsum (inclusive scan)"}


def power_text(n):
    n = int(n)
    exponent = n.bit_length() - 1
    return f"2^{exponent}" if n == 1 << exponent and n >= 1024 * 4 else str(n)


def label(client, bench, shape, variant):
    dims = shape.split("x")
    if bench == "sgemm":
        what = f"sgemm {dims[0]}³" if len(set(dims)) == 1 else f"sgemm {shape}"
    elif bench == "fft":
        what = (f"FFT 1D {power_text(dims[0])} complex" if len(dims) == 1
                else f"FFT 2D {'×'.join(dims)} complex")
    elif client == "transfer":
        what = f"{TRANSFER_NAMES.get(bench, bench)}, {size_text(dims[0])}"
    elif client == "image":
        what = f"{IMAGE_NAMES.get(bench, bench)}, {'×'.join(dims)}"
    elif client == "clpeak":
        what = CLPEAK_NAMES.get(bench, bench)
    elif client == "concurrency":
        what = f"{CONCURRENCY_NAMES.get(bench, bench)}, {dims[0]} work-groups x {dims[1]} steps each"
    elif client == "pyopencl":
        what = f"{PYOPENCL_NAMES.get(bench, bench)}, {power_text(dims[0])} floats"
    else:
        what = f"{bench} {power_text(dims[0])}"
    if variant.startswith("params-"):
        what += f", {variant[len('params-'):]}'s parameters on both"
    return f"{CLIENT_NAMES.get(client, client)} {what}"


def read_clocks(path, start, end):
    """Median SM and memory clock (MHz) of the samples within [start, end], else of the process."""
    samples = []
    try:
        with open(path) as file:
            for line in file:
                fields = [f.strip() for f in line.split(",")]
                if len(fields) != 3:
                    continue
                try:
                    when = datetime.datetime.strptime(fields[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
                    samples.append((when, float(fields[1]), float(fields[2])))
                except ValueError:
                    continue
    except OSError:
        return None
    timed = [s for s in samples if start <= s[0] <= end]
    chosen, scope = (timed, "timed") if timed else (samples, "process")
    if not chosen:
        return None
    return {"sm_mhz": statistics.median(s[1] for s in chosen),
            "mem_mhz": statistics.median(s[2] for s in chosen), "samples": len(chosen),
            "scope": scope}


def read_run(fields):
    name, variant, bench_label, status, log, clock = (fields + [""] * 6)[:6]
    client, bench, shape = bench_label.split(" ")
    record = None
    tail = ""
    try:
        with open(log, errors="replace") as file:
            for line in file:
                if line.startswith("CLIENT-RESULT "):
                    record = json.loads(line[len("CLIENT-RESULT "):])
                elif line.strip():
                    tail = line.strip()
    except (OSError, ValueError) as error:
        tail = str(error)
    if record is None:
        record = {"client": client, "bench": bench, "shape": shape, "verified": False,
                  "error": f"no result (exit {status}): {tail}", "value": 0}
    elif not record.get("verified") and not record.get("error"):
        record["error"] = f"not verified (exit {status})"
    record.update(impl=name, variant=variant, exit=int(status), log=log, key=(client, bench, shape))
    if clock:
        record["clocks"] = read_clocks(clock, record.get("t_start", 0), record.get("t_end", 0))
    return record


def cell(record):
    if record is None:
        return "—"
    if record.get("error"):
        reason = record["error"].replace("|", "/")
        return "**failed**: " + (reason if len(reason) <= 100 else reason[:97] + "...")
    value = record["value"]
    return f"{value:.3g}" if value < 1000 else f"{value:.0f}"


def ratio(subject, reference):
    if not subject or not reference or subject.get("error") or reference.get("error"):
        return "—"
    if not reference["value"]:
        return "—"
    value = subject["value"] / reference["value"]
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def clock_cell(record):
    clocks = record and record.get("clocks")
    if not clocks:
        return "—"
    text = f"{clocks['sm_mhz']:.0f} / {clocks['mem_mhz']:.0f}"
    return text if clocks["scope"] == "timed" else text + " (process)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--subject", required=True)
    parser.add_argument("--size", default="")
    parser.add_argument("--runs", default="")
    parser.add_argument("--jsonl")
    options = parser.parse_args()

    with open(options.manifest) as file:
        records = [read_run(line.rstrip("\n").split("\t")) for line in file if line.strip()]
    impls = []
    for record in records:
        if record["impl"] not in impls:
            impls.append(record["impl"])
    references = [name for name in impls if name != options.subject]
    rows = []  # (key, variant) in the order they ran
    cells = {}
    for record in records:
        row = (record["key"], record["variant"])
        if row not in rows:
            rows.append(row)
        cells[(row, record["impl"])] = record
    with_clocks = any(record.get("clocks") for record in records)

    print(f"Size `{options.size}`, {options.runs} timed calls per process after one warm-up call; "
          "GB/s or GFLOP/s from the median call (host time of the call and clFinish).")
    print()
    for name in impls:
        devices = sorted({f"{r.get('platform', '?')} on {r.get('device', '?')}"
                          for r in records if r["impl"] == name and r.get("device")})
        print(f"- `{name}`: {'; '.join(devices) or 'no device reported'}")
    print()
    header = ["Benchmark", "unit"] + [f"`{name}`" for name in impls]
    header += [f"`{options.subject}` / `{name}`" for name in references]
    if with_clocks:
        header += [f"SM / mem MHz `{name}`" for name in impls]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(["---", "---"] + ["---:"] * (len(header) - 2)) + "|")
    failures = 0
    for row in rows:
        (client, bench, shape), variant = row
        present = [cells.get((row, name)) for name in impls]
        failures += sum(1 for r in present if r is not None and r.get("error"))
        metric = next((r.get("metric") for r in present if r and r.get("metric")), "")
        line = [label(client, bench, shape, variant), metric] + [cell(r) for r in present]
        subject = cells.get((row, options.subject))
        line += [ratio(subject, cells.get((row, name))) for name in references]
        if with_clocks:
            line += [clock_cell(r) for r in present]
        print("| " + " | ".join(line) + " |")
    print()
    checks = {}
    for record in records:
        if record.get("check"):
            checks.setdefault(f"{CLIENT_NAMES.get(record['client'], record['client'])} "
                              f"{record['bench']}", record["check"])
    print("Checked against the CPU: " + "; ".join(f"{k}: {v}" for k, v in checks.items()) + ".")

    if options.jsonl:
        with open(options.jsonl, "w") as file:
            for record in records:
                record = dict(record, key=list(record["key"]))
                file.write(json.dumps(record) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
