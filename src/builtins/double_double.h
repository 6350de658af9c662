// Exact sums and products of doubles as an unevaluated pair (the rounded result and its error),
// for the double functions that carry more than a double's precision in between. Correct only
// when each operation rounds as written, hence FP_CONTRACT OFF (and NoContraction on load).
#pragma once
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// a + b = the result + *error exactly (Knuth's two-sum).
static double twoSum(double a, double b, double* error) {
  double sum = a + b;
  double bVirtual = sum - a;
  *error = (a - (sum - bVirtual)) + (b - bVirtual);
  return sum;
}

// a * b = the result + *error exactly, by Veltkamp's split (no fused multiply-add needed).
static double twoProduct(double a, double b, double* error) {
  double product = a * b;
  double ca = 134217729.0 * a, cb = 134217729.0 * b;  // 2^27 + 1
  double aHi = ca - (ca - a), aLo = a - aHi;
  double bHi = cb - (cb - b), bLo = b - bHi;
  *error = ((aHi * bHi - product) + aHi * bLo + aLo * bHi) + aLo * bLo;
  return product;
}

// The same by one fma, which must round once (the library's fused forms, Target::fusedLibraryForms).
static double twoProductFused(double a, double b, double* error) {
  double product = a * b;
  *error = fma(a, b, -product);
  return product;
}
