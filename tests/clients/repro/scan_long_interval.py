#!/usr/bin/python3
"""Found by tools/run-client-benchmarks.sh (pyopencl cumsum of 2^22 floats), not fixed yet:
through cl2vk on lavapipe, the first-level kernel of pyopencl's scan (GenericScanKernel,
"scan_intervals") gets the 65th full unit of every interval wrong. pyopencl picks, for lavapipe
as for PoCL (both CPU devices), 16 work-items of K = 256 items (a unit of 4096 elements) and at
most 3 * CL_DEVICE_MAX_COMPUTE_UNITS intervals; n = 1572864 (6 intervals of 64 units) is right,
n = 1572865 (intervals of 65 units) gives zeros or wrong sums in unit 64 of intervals 0 to 4 (the
last interval is shorter). PoCL runs the same kernel with the same sizes correctly. A plain loop of
65+ iterations with barriers (16 work-items, 4096 elements per iteration) runs correctly, so the
cause is in something else the scan kernel does. The same kernel generated for other sizes
(GenericScanKernel.generate_scan_kernel) goes wrong where an interval reaches 16384 elements per
work-item: with 16 work-items from interval offset 2^18 at K = 64, 128 and 256, with 32 work-items
(K = 128) from 2^19; 64 work-items with K = 64 and 16 with K = 16 stayed right over the lengths
tried (8256 and 16400 elements per work-item).

    OCL_ICD_VENDORS=<folder with cl2vk.icd> /usr/bin/python3 scan_long_interval.py [N]
"""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
from pyopencl.scan import get_cumsum_kernel
from pytools import uniform_interval_splitting

context = cl.Context([cl.get_platforms()[0].get_devices()[0]])
queue = cl.CommandQueue(context)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 1572865
values = np.random.default_rng(1).integers(-2, 3, n).astype(np.float32)
kernel = get_cumsum_kernel(context, np.float32, np.float32)
first = kernel.first_level_scan_info
unit = first.wg_size * first.k_group_size
interval, intervals = uniform_interval_splitting(n, unit, 3 * context.devices[0].max_compute_units)
print(f"work-group {first.wg_size}, K {first.k_group_size}, unit {unit}, "
      f"{intervals} intervals of {interval} ({interval / unit:.2f} units)")
device_values = cl_array.to_device(queue, values)
output = cl_array.empty_like(device_values)
interval_results = cl_array.empty(queue, intervals, np.float32)
partial = cl_array.zeros(queue, n, np.float32)
first.kernel(queue, (intervals,), (first.wg_size,), device_values.data, output.data, partial.data,
             n, interval, interval_results.data, g_times_l=True)
got = partial.get()
expected = np.concatenate([np.cumsum(values[i * interval:(i + 1) * interval].astype(np.int64))
                           for i in range(intervals)])
bad = np.flatnonzero(got != expected)
if bad.size:
    print(f"first-level scan wrong at {bad.size} elements, the first {bad[0]} (interval "
          f"{bad[0] // interval}, unit {bad[0] % interval // unit}): {got[bad[0]]}, "
          f"expected {expected[bad[0]]}")
    sys.exit(1)
print("first-level scan right")
