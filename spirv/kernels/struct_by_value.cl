// Structs passed to and returned from helper functions by value. clang passes such a struct as a
// pointer with the ByVal attribute (at -O0 a pointer to the caller's own variable, trusting the
// callee to work on a copy) and returns one through an Sret pointer; noinline keeps the calls in
// the SPIR-V at every optimization level. A helper that writes to its parameter must not change
// the caller's struct.

typedef struct {
  char c;
  int i;
  short s;
  long l;
  float f;
} Mixed;

typedef struct {
  short tag;
  Mixed inner;
  char bytes[3];
  int values[4];
  float2 pair;
} Outer;

__attribute__((noinline)) int field_c(Mixed m) { return m.c; }
__attribute__((noinline)) int field_i(Mixed m) { return m.i; }
__attribute__((noinline)) int field_s(Mixed m) { return m.s; }
__attribute__((noinline)) long field_l(Mixed m) { return m.l; }
__attribute__((noinline)) float field_f(Mixed m) { return m.f; }

// Writes every field of its copy, and returns what it made of them.
__attribute__((noinline)) long scramble(Mixed m, int by) {
  m.c += (char)by;
  m.i *= by;
  m.s -= (short)by;
  m.l <<= 3;
  m.f *= 0.5f;
  return m.c + m.i + m.s + m.l + (long)m.f;
}

__attribute__((noinline)) Mixed make_mixed(int x) {
  Mixed m = {(char)(x & 0x7f), x * 3 - 7, (short)(x * 5), (long)x << 33, (float)x * 0.25f};
  return m;
}

// Reads nested members and array elements, and writes the nested copy too.
__attribute__((noinline)) int outer_sum(Outer o, int k) {
  o.inner.i += 1000;
  o.values[k & 3] = -1;
  return o.tag + o.inner.c + o.inner.i + o.bytes[2] + o.values[0] + o.values[1] + o.values[2] + o.values[3] +
         (int)o.pair.y;
}

__attribute__((noinline)) Outer make_outer(int x) {
  Outer o;
  o.tag = (short)(x - 50);
  o.inner = make_mixed(x + 1);
  o.bytes[0] = 1;
  o.bytes[1] = 2;
  o.bytes[2] = (char)(x & 0x3f);
  for (int k = 0; k < 4; ++k) o.values[k] = x * 10 + k;
  o.pair = (float2)((float)x, (float)x * 2.0f);
  return o;
}

// A by-value struct passed on through two helpers, the inner one writing its copy.
__attribute__((noinline)) int pass_on(Mixed m) {
  int before = field_i(m);
  long scrambled = scramble(m, 3);
  return before + (int)scrambled + m.i;
}

// out[kOutputs * i + j], from in[i]; struct_by_value_test.cc computes the same on the CPU.
kernel void struct_by_value(global const int* in, global long* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  global long* o = out + 16 * i;
  Mixed m = make_mixed(x);
  o[0] = field_c(m);
  o[1] = field_i(m);
  o[2] = field_s(m);
  o[3] = field_l(m);
  o[4] = (long)field_f(m);
  o[5] = scramble(m, x);
  o[6] = m.c + m.i + m.s + m.l + (long)m.f;  // unchanged by scramble
  Outer outer = make_outer(x);
  o[7] = outer_sum(outer, x);
  o[8] = outer.inner.i + outer.values[x & 3];  // unchanged by outer_sum
  o[9] = outer.tag + outer.bytes[2];
  o[10] = outer.inner.l + (long)outer.pair.x;
  o[11] = pass_on(m);
  o[12] = m.i;
  Mixed copy = m;  // a struct copied, then passed
  copy.i = -x;
  o[13] = field_i(copy) + field_i(m);
  o[14] = field_l(make_mixed(x + 2));  // a returned struct passed straight on
  o[15] = scramble(make_mixed(x), 2) + field_s(make_mixed(x));
}
