// fma for half, float and double, correctly rounded, for devices whose GLSL.std.450 Fma is not
// fused (Vulkan bounds Fma as an OpFMul followed by an OpFAdd; llvmpipe and SwiftShader compute it
// so: fma(1 + 2^-23, 1 - 2^-23, -1) gave 0 for -2^-46, and fma(-FLT_MAX, -FLT_MAX, -inf) NaN).
// The exact product and sum are formed on the integer significands in 128 bits and rounded once
// to nearest even, denormals included. No floating-point arithmetic touches a finite operand in the
// general case, so the result is the same whatever the device does with denormals.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// A 128-bit unsigned integer.
typedef struct {
  ulong hi, lo;
} U128;

static U128 u128(ulong hi, ulong lo) {
  U128 r = {hi, lo};
  return r;
}

static U128 shiftLeft(U128 x, int n) {  // 0 <= n < 128
  if (n == 0) return x;
  if (n >= 64) return u128(x.lo << (n - 64), 0);
  return u128((x.hi << n) | (x.lo >> (64 - n)), x.lo << n);
}

static U128 shiftRight(U128 x, int n) {  // 0 <= n < 128
  if (n == 0) return x;
  if (n >= 64) return u128(0, x.hi >> (n - 64));
  return u128(x.hi >> n, (x.lo >> n) | (x.hi << (64 - n)));
}

static U128 add128(U128 a, U128 b) {
  ulong lo = a.lo + b.lo;
  return u128(a.hi + b.hi + (lo < a.lo ? 1 : 0), lo);
}

static U128 sub128(U128 a, U128 b) {  // a >= b
  return u128(a.hi - b.hi - (a.lo < b.lo ? 1 : 0), a.lo - b.lo);
}

static bool less128(U128 a, U128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

static bool isZero128(U128 x) { return (x.hi | x.lo) == 0; }

// x >> n with every bit shifted out ORed into the lowest bit (the sticky bit), so that rounding
// still sees that something was there; n >= 0, any size.
static U128 shiftRightSticky(U128 x, int n) {
  if (n >= 128) return u128(0, isZero128(x) ? 0 : 1);
  U128 r = shiftRight(x, n);
  if (less128(shiftLeft(r, n), x)) r.lo |= 1;
  return r;
}

static int msb128(U128 x) {  // x != 0
  return x.hi != 0 ? 127 - (int)clz(x.hi) : 63 - (int)clz(x.lo);
}

// A binary floating-point format: half (10, 5), float (23, 8), double (52, 11).
typedef struct {
  int mantissaBits, exponentBits;
} Format;

static int biasOf(Format f) { return (1 << (f.exponentBits - 1)) - 1; }

// A finite value as significand * 2^exponent, from its bits (sign ignored).
typedef struct {
  ulong significand;
  int exponent;
} Unpacked;

static Unpacked unpack(ulong bits, Format f) {
  ulong fraction = bits & ((1ul << f.mantissaBits) - 1);
  int field = (int)((bits >> f.mantissaBits) & ((1ul << f.exponentBits) - 1));
  Unpacked u;
  u.significand = field == 0 ? fraction : fraction | (1ul << f.mantissaBits);
  u.exponent = (field == 0 ? 1 : field) - biasOf(f) - f.mantissaBits;
  return u;
}

// The bits (sign cleared) of |a * b + c| rounded to nearest even in format `out`, for finite
// a, b and c with a * b nonzero, with the product's sign `productNegative` and the addend's
// `addendNegative`; *negative receives the result's sign. Significands of up to 53 bits.
static ulong fmaBits(Unpacked a, Unpacked b, Unpacked c, bool productNegative, bool addendNegative, Format out,
                     bool* negative) {
  // The exact product, moved up so that its top bit is at most bit 125 (two bits of headroom).
  U128 product = u128(mul_hi(a.significand, b.significand), a.significand * b.significand);
  int productShift = 126 - 2 * 53;
  product = shiftLeft(product, productShift);
  int exponent = a.exponent + b.exponent - productShift;  // of the lowest bit
  // The addend at the same scale: exactly where it fits, else the operand far below the other
  // goes into a sticky bit (at least 19 bits under where the result is rounded).
  U128 addend = u128(0, c.significand);
  int offset = c.exponent - exponent;
  const int addendRoom = 126 - 53;
  if (offset > addendRoom) {
    addend = shiftLeft(addend, addendRoom);
    product = shiftRightSticky(product, offset - addendRoom);
    exponent += offset - addendRoom;
  } else if (offset >= 0) {
    addend = shiftLeft(addend, offset);
  } else {
    addend = shiftRightSticky(addend, -offset);
  }
  U128 sum;
  *negative = productNegative;
  if (productNegative == addendNegative) {
    sum = add128(product, addend);
  } else if (less128(product, addend)) {
    sum = sub128(addend, product);
    *negative = addendNegative;
  } else {
    sum = sub128(product, addend);
  }
  if (isZero128(sum)) {
    *negative = false;  // an exact cancellation is +0 when rounding to nearest
    return 0;
  }
  // Keep mantissaBits + 1 bits from the leading one, or fewer where the result is a denormal.
  int bias = biasOf(out);
  int top = msb128(sum);
  int field = top + exponent + bias;  // the result's exponent field if normal
  int drop = field >= 1 ? top - out.mantissaBits : 1 - bias - out.mantissaBits - exponent;
  ulong kept;
  if (drop <= 0) {
    kept = shiftLeft(sum, -drop).lo;  // exact
  } else if (drop >= 128) {
    kept = 0;  // below half the smallest denormal
  } else {
    U128 quotient = shiftRight(sum, drop);
    U128 removed = sub128(sum, shiftLeft(quotient, drop));
    U128 halfway = shiftLeft(u128(0, 1), drop - 1);
    kept = quotient.lo;
    bool tie = removed.hi == halfway.hi && removed.lo == halfway.lo;
    if (less128(halfway, removed) || (tie && (kept & 1) != 0)) ++kept;
  }
  // The exponent field goes below the significand's leading bit, so that a carry out of rounding
  // (or a denormal rounded up to the smallest normal) moves it up by itself.
  ulong bits = (field >= 1 ? (ulong)(field - 1) << out.mantissaBits : 0) + kept;
  ulong infinity = ((1ul << out.exponentBits) - 1) << out.mantissaBits;
  return bits >= infinity || field > (1 << out.exponentBits) ? infinity : bits;
}

// The cases the integer form does not take: NaN and infinite operands, and a zero product (exact,
// so that the one rounding of the addition is IEEE's, signed zeros included). A zero addend it
// takes: the product is then rounded once, with its own sign.
#define FMA_SPECIAL_CASES                                                           \
  if (isnan(a) || isnan(b) || isnan(c) || isinf(a) || isinf(b) || a == 0 || b == 0) \
    return a * b + c;                                                               \
  if (isinf(c)) return c;

double __cl2vk_fma_f64(double a, double b, double c) {
  FMA_SPECIAL_CASES
  const Format f = {52, 11};
  bool negative;
  ulong bits = fmaBits(unpack(as_ulong(a), f), unpack(as_ulong(b), f), unpack(as_ulong(c), f),
                       signbit(a) != signbit(b), signbit(c), f, &negative);
  return as_double(bits | (negative ? 0x8000000000000000ul : 0));
}

float __cl2vk_fma_f32(float a, float b, float c) {
  FMA_SPECIAL_CASES
  const Format f = {23, 8};
  bool negative;
  ulong bits = fmaBits(unpack(as_uint(a), f), unpack(as_uint(b), f), unpack(as_uint(c), f), signbit(a) != signbit(b),
                       signbit(c), f, &negative);
  return as_float((uint)bits | (negative ? 0x80000000u : 0));
}

// half's fma, from operands the caller widened to float (exactly) and a float result that is a
// half (so that narrowing it is exact): the float fma rounded again to half would round twice.
float __cl2vk_fma_f16(float a, float b, float c) {
  FMA_SPECIAL_CASES
  const Format f = {23, 8}, h = {10, 5};
  bool negative;
  ulong bits = fmaBits(unpack(as_uint(a), f), unpack(as_uint(b), f), unpack(as_uint(c), f), signbit(a) != signbit(b),
                       signbit(c), h, &negative);
  // The half's bits as a float: a denormal half is m * 2^-24, a normal one moves its exponent.
  uint fraction = (uint)bits & 0x3ffu, field = (uint)bits >> 10;
  float magnitude = field == 0x1f ? INFINITY
                    : field == 0  ? (float)fraction * 0x1p-24f
                                  : as_float(((field + 112u) << 23) | (fraction << 13));
  return negative ? -magnitude : magnitude;
}
