#!/usr/bin/env python3
"""Fits the polynomials of cl2vk's builtin library (src/builtins/*.cl) with mpmath.

Each kernel g(u) is approximated on [0, umax] by a Chebyshev fit (near-minimax) of the given degree,
in enough precision that the coefficients are right to the last bit of a double. Prints the
coefficients lowest first, with the fit's maximum absolute error, for pasting into the .cl file.

  python3 tools/builtins/fit-polynomials.py
"""
import mpmath as mp

mp.mp.dps = 60


def atan_kernel(u):
    # atan(f) = f + f * u * g(u), u = f^2
    if u == 0:
        return mp.mpf(-1) / 3
    f = mp.sqrt(u)
    return (mp.atan(f) / f - 1) / u


def asin_kernel(u):
    # asin(x) = x + x * u * g(u), u = x^2
    if u == 0:
        return mp.mpf(1) / 6
    x = mp.sqrt(u)
    return (mp.asin(x) / x - 1) / u


KERNELS = [
    # name, function, umax, degree
    ("atan f32, |f| <= 7/16", atan_kernel, mp.mpf(7) ** 2 / 16**2, 5),
    ("asin f32, |x| <= 1/2", asin_kernel, mp.mpf(1) / 4, 5),
    ("atan f64, |f| <= 7/16", atan_kernel, mp.mpf(7) ** 2 / 16**2, 11),
    ("asin f64, |x| <= 1/2", asin_kernel, mp.mpf(1) / 4, 11),
]

for name, function, umax, degree in KERNELS:
    coefficients, error = mp.chebyfit(function, [0, umax], degree + 1, error=True)
    print(f"{name}: degree {degree}, max error {mp.nstr(error, 3)}")
    for c in reversed(coefficients):
        print(f"  {float(c).hex()}  // {mp.nstr(c, 20)}")
