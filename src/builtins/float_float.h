// Exact sums and products of floats as an unevaluated pair (the rounded result and its error),
// for the float functions that carry more than a float's precision in between. Correct only when
// each operation rounds as written, hence FP_CONTRACT OFF (and NoContraction on load).
#pragma once
#pragma OPENCL FP_CONTRACT OFF

// a + b = the result + *error exactly (Knuth's two-sum).
static float twoSumF(float a, float b, float* error) {
  float sum = a + b;
  float bVirtual = sum - a;
  *error = (a - (sum - bVirtual)) + (b - bVirtual);
  return sum;
}

// a * b = the result + *error exactly, by Veltkamp's split (no fused multiply-add needed).
static float twoProductF(float a, float b, float* error) {
  float product = a * b;
  float ca = 4097.0f * a, cb = 4097.0f * b;  // 2^12 + 1
  float aHi = ca - (ca - a), aLo = a - aHi;
  float bHi = cb - (cb - b), bLo = b - bHi;
  *error = ((aHi * bHi - product) + aHi * bLo + aLo * bHi) + aLo * bLo;
  return product;
}

// The same by one fma, which must round once (the library's fused forms, Target::fusedLibraryForms).
static float twoProductFusedF(float a, float b, float* error) {
  float product = a * b;
  *error = fma(a, b, -product);
  return product;
}
