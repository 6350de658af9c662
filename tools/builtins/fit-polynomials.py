#!/usr/bin/env python3
"""Fits the polynomials of cl2vk's builtin library (src/builtins/*.cl) with mpmath.

Each kernel g is approximated on its interval by a Chebyshev fit (near-minimax) of the given degree,
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


def expm1_kernel(r):
    # expm1(r) = r + r^2/2 + r^3 g(r)
    if r == 0:
        return mp.mpf(1) / 6
    return (mp.expm1(r) - r - r * r / 2) / r**3


def log_kernel(z):
    # log(1 + f) = 2 atanh(s) = 2 s + s z g(z), s = f / (2 + f), z = s^2
    if z == 0:
        return mp.mpf(2) / 3
    s = mp.sqrt(z)
    return (2 * mp.atanh(s) / s - 2) / z


def sin_kernel(z):
    # sin(r) = r + r z g(z), z = r^2
    if z == 0:
        return mp.mpf(-1) / 6
    r = mp.sqrt(z)
    return (mp.sin(r) - r) / (r * z)


def cos_kernel(z):
    # cos(r) = 1 - z/2 + z^2 g(z), z = r^2
    if z == 0:
        return mp.mpf(1) / 24
    r = mp.sqrt(z)
    return (mp.cos(r) - 1 + z / 2) / (z * z)


def erf_kernel(z):
    # erf(x) = x (2/sqrt(pi) + z g(z)), z = x^2
    if z == 0:
        return -2 / (3 * mp.sqrt(mp.pi))
    x = mp.sqrt(z)
    return (mp.erf(x) / x - 2 / mp.sqrt(mp.pi)) / z


def erfc_scaled(center):
    # erfc(x) e^(x^2) as a function of t = x - center
    return lambda t: mp.erfc(t + center) * mp.exp((t + center) ** 2)


def erfc_asymptotic(center):
    # x erfc(x) e^(x^2) as a function of t = 1/x^2 - center
    def g(t):
        x = 1 / mp.sqrt(t + center)
        return x * mp.erfc(x) * mp.exp(x * x)

    return g


ERF_SMALL = mp.mpf("0.84375")
PIO4_SQUARED = (mp.pi / 4) ** 2 * mp.mpf("1.0001")
HALF_LN2 = mp.log(2) / 2 + mp.mpf("0.0001")
LOG_ZMAX = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2 * mp.mpf("1.0001")

KERNELS = [
    # name, function, interval, degree
    ("atan f32, |f| <= 7/16", atan_kernel, 0, mp.mpf(7) ** 2 / 16**2, 5),
    ("asin f32, |x| <= 1/2", asin_kernel, 0, mp.mpf(1) / 4, 5),
    ("sin f32, |r| <= pi/4", sin_kernel, 0, PIO4_SQUARED, 3),
    ("cos f32, |r| <= pi/4", cos_kernel, 0, PIO4_SQUARED, 3),
    ("expm1 f32, |r| <= ln2/2", expm1_kernel, -HALF_LN2, HALF_LN2, 4),
    ("log f32, s^2 <= z_max", log_kernel, 0, LOG_ZMAX, 3),
    ("erf f32, |x| < 0.84375", erf_kernel, 0, ERF_SMALL**2, 5),
    ("erfc f32, x in [0.84375, 2], t = x - 1.421875", erfc_scaled(mp.mpf("1.421875")), ERF_SMALL - mp.mpf("1.421875"),
     2 - mp.mpf("1.421875"), 8),
    ("erfc f32, x in [2, 4], t = 1/x^2 - 0.15625", erfc_asymptotic(mp.mpf("0.15625")), mp.mpf(1) / 16 - mp.mpf("0.15625"),
     mp.mpf(1) / 4 - mp.mpf("0.15625"), 6),
    ("erfc f32, x in [4, 10.5], t = 1/x^2 - 0.03125", erfc_asymptotic(mp.mpf("0.03125")), mp.mpf(1) / 110 - mp.mpf("0.03125"),
     mp.mpf(1) / 16 - mp.mpf("0.03125"), 4),
    ("erf f64, |x| < 0.84375", erf_kernel, 0, ERF_SMALL**2, 10),
    ("erfc f64, x in [0.84375, 2], t = x - 1.421875", erfc_scaled(mp.mpf("1.421875")), ERF_SMALL - mp.mpf("1.421875"),
     2 - mp.mpf("1.421875"), 18),
    ("erfc f64, x in [2, 4], t = 1/x^2 - 0.15625", erfc_asymptotic(mp.mpf("0.15625")), mp.mpf(1) / 16 - mp.mpf("0.15625"),
     mp.mpf(1) / 4 - mp.mpf("0.15625"), 16),
    ("erfc f64, x in [4, 8], t = 1/x^2 - 0.0390625", erfc_asymptotic(mp.mpf("0.0390625")), mp.mpf(1) / 64 - mp.mpf("0.0390625"),
     mp.mpf(1) / 16 - mp.mpf("0.0390625"), 12),
    ("erfc f64, x in [8, 28], t = 1/x^2 - 0.0078125", erfc_asymptotic(mp.mpf("0.0078125")), mp.mpf(1) / 800 - mp.mpf("0.0078125"),
     mp.mpf(1) / 64 - mp.mpf("0.0078125"), 8),
    ("atan f64, |f| <= 7/16", atan_kernel, 0, mp.mpf(7) ** 2 / 16**2, 12),
    ("asin f64, |x| <= 1/2", asin_kernel, 0, mp.mpf(1) / 4, 13),
    ("expm1 f64, |r| <= ln2/2", expm1_kernel, -HALF_LN2, HALF_LN2, 10),
    ("log f64, s^2 <= z_max", log_kernel, 0, LOG_ZMAX, 7),
    ("sin f64, |r| <= pi/4", sin_kernel, 0, PIO4_SQUARED, 7),
    ("cos f64, |r| <= pi/4", cos_kernel, 0, PIO4_SQUARED, 7),
]

for name, function, low, high, degree in KERNELS:
    coefficients, error = mp.chebyfit(function, [low, high], degree + 1, error=True)
    print(f"{name}: degree {degree}, max error {mp.nstr(error, 3)}")
    for c in reversed(coefficients):
        print(f"  {float(c).hex()}  // {mp.nstr(c, 20)}")
