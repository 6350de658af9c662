#!/usr/bin/env python3
"""clpeak (Debian's) as a user runs it, one of its sections per process, reported as one
"CLIENT-RESULT {json}" line like the other clients: the section's best figure over its vector widths
(global memory bandwidth, single- and double-precision and integer compute), or kernel launches per
millisecond from its launch latency, so that a higher value is better in every row. clpeak runs on
the first device of the first platform the ICD loader lists (OCL_ICD_VENDORS names one). It checks
no results: these rows measure speed only, which their "check" says. Its host-transfer section is
what transfer_client.cc measures, with its results checked. Standard library only."""
import argparse
import json
import os
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ElementTree

# --bench: (clpeak's option, the XML element of its section, metric)
SECTIONS = {
    "global-bandwidth": ("--global-bandwidth", "global_memory_bandwidth", "GB/s"),
    "compute-sp": ("--compute-sp", "single_precision_compute", "GFLOP/s"),
    "compute-dp": ("--compute-dp", "double_precision_compute", "GFLOP/s"),
    "compute-integer": ("--compute-integer", "integer_compute", "GIOP/s"),
    "kernel-latency": ("--kernel-latency", "kernel_launch_latency", "launches/ms"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", required=True, choices=sorted(SECTIONS))
    parser.add_argument("--shape", default="default", help="ignored: clpeak chooses its own sizes")
    parser.add_argument("--runs", type=int, default=1, help="ignored: clpeak repeats each test itself")
    options = parser.parse_args()
    flag, element, metric = SECTIONS[options.bench]
    record = {"client": "clpeak", "bench": options.bench, "shape": options.shape, "variant": "default",
              "platform": "", "device": "", "metric": metric, "value": 0, "median_s": 0, "best_s": 0,
              "warmup_s": 0, "seconds": [], "t_start": 0, "t_end": 0, "verified": False,
              "check": "none: clpeak measures speed and checks no results", "error": ""}
    with tempfile.TemporaryDirectory() as folder:
        dump = os.path.join(folder, "clpeak.xml")
        record["t_start"] = time.time()
        run = subprocess.run(["clpeak", "-p", "0", "-d", "0", flag, "--enable-xml-dump", "-f", dump],
                             capture_output=True, text=True)
        record["t_end"] = time.time()
        print(run.stdout, end="")
        try:
            platform = ElementTree.parse(dump).getroot().find("platform")
            device = platform.find("device")
            record["platform"], record["device"] = platform.get("name"), device.get("name")
            section = device.find(element)
            if section is None:
                raise ValueError(f"clpeak wrote no {element} (exit {run.returncode}): {run.stderr.strip()[-300:]}")
            if options.bench == "kernel-latency":
                record["value"] = 1000.0 / float(section.text)
            else:
                record["value"] = max(float(width.text) for width in section)
            record["verified"] = run.returncode == 0
            if run.returncode != 0:
                record["error"] = f"clpeak exited with {run.returncode}: {run.stderr.strip()[-300:]}"
        except (OSError, ValueError, AttributeError, ElementTree.ParseError) as error:
            record["error"] = f"{type(error).__name__}: {error}".replace("\n", " ")[:400]
    print("CLIENT-RESULT " + json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
