#!/usr/bin/env bash
# clinfo, through the ICD loader and the build tree's cl2vk.icd (OCL_ICD_VENDORS), lists the cl2vk
# platform with at least one device, and none of the hundred-odd queries it makes fails.
# In a sanitized build, CL2VK_TEST_PRELOAD names the sanitizer's run-time library, which clinfo (not
# sanitized itself) must load before libcl2vk_icd.so; nothing else in this script gets it.
set -euo pipefail
output=$(LD_PRELOAD="${CL2VK_TEST_PRELOAD:-}" clinfo 2>&1) || { echo "$output"; echo "FAIL: clinfo exited with status $?"; exit 1; }
fail() { echo "$output"; echo "FAIL: $1"; exit 1; }
grep -Eq '^ +Platform Name +cl2vk$' <<<"$output" || fail "no cl2vk platform"
grep -Eq '^ +Platform Version +OpenCL 3\.0 ' <<<"$output" || fail "the platform is not OpenCL 3.0"
devices=$(sed -nE 's/^Number of devices +([0-9]+)$/\1/p' <<<"$output" | head -1)
[ -n "$devices" ] && [ "$devices" -ge 1 ] || fail "no device listed"
grep -Eq '^ +Device Name +.+' <<<"$output" || fail "no device name"
if grep -nE 'CL_INVALID|CL_OUT_OF|<error' <<<"$output"; then fail "a query failed"; fi
echo "clinfo lists cl2vk with $devices device(s): $(sed -nE 's/^ +Device Name +//p' <<<"$output" | sort -u | paste -sd, -)"
