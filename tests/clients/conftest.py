"""The context, queue and device facts every client test uses.

The suite runs pyopencl (Debian's python3-pyopencl) on cl2vk through the ICD loader: the ctest entry
points OCL_ICD_VENDORS at the build tree's cl2vk.icd and sets PYOPENCL_TEST=cl2vk, which makes
pyopencl pick the cl2vk platform by name. A test that needs what the device lacks (double on a device
without fp64) is skipped with the reason; `-rs` prints every reason in the summary. Nothing is skipped
because cl2vk lacks something: such a test fails.
"""

import os

import numpy as np
import pyopencl as cl
import pytest


def _chosen_device():
    # create_some_context honours PYOPENCL_TEST / PYOPENCL_CTX ("cl2vk" picks the platform by name).
    context = cl.create_some_context(interactive=False)
    return context, context.devices[0]


@pytest.fixture(scope="session")
def ctx():
    context, device = _chosen_device()
    # The suite tests cl2vk; another platform answering would make every result meaningless here.
    platform = device.platform.name
    if "cl2vk" not in platform and not os.environ.get("CL2VK_CLIENTS_ANY_PLATFORM"):
        pytest.exit(f"the chosen OpenCL platform is '{platform}', not cl2vk: set PYOPENCL_TEST=cl2vk and "
                    "OCL_ICD_VENDORS to the build tree's icd/ directory (or CL2VK_CLIENTS_ANY_PLATFORM=1)",
                    returncode=2)
    return context


@pytest.fixture(scope="session")
def device(ctx):
    return ctx.devices[0]


@pytest.fixture
def queue(ctx):
    return cl.CommandQueue(ctx)


def device_has_double(device):
    return device.double_fp_config != 0 and "cl_khr_fp64" in device.extensions


@pytest.fixture(scope="session")
def has_double(device):
    return device_has_double(device)


def skip_without_dtype(device, dtype):
    """Skips (with the reason) a test of a double or complex128 type on a device without fp64."""
    dtype = np.dtype(dtype)
    if dtype in (np.float64, np.complex128) and not device_has_double(device):
        pytest.skip(f"{dtype} needs cl_khr_fp64, which the device '{device.name}' does not report")


def pytest_report_header(config):
    try:
        _, device = _chosen_device()
    except Exception as error:  # the header must not hide the real failure, which the tests show
        return f"OpenCL device: none ({error})"
    return (f"OpenCL device: {device.name} on {device.platform.name} ({device.platform.version}); "
            f"fp64: {device_has_double(device)}; "
            f"OCL_ICD_VENDORS={os.environ.get('OCL_ICD_VENDORS', '(unset)')}")
