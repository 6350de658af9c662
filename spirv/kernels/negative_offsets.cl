// Pointers moved backward: an element index that is negative at run time, on its own or in a
// chain of pointer arithmetic (signed-offsets-as-integers; NVIDIA's driver lost these accesses).
kernel void stored_back(global int* out, int back) {
  size_t i = get_global_id(0);
  global int* here = out + (i + back);
  here[-back] = (int)i + 1;
}

kernel void loaded_back(global const int* in, global int* out, int back) {
  size_t i = get_global_id(0);
  global const int* here = in + (i + back);
  out[i] = here[-back] * 3;
}

kernel void back_then_forward(global int* out, int back) {
  size_t i = get_global_id(0);
  global int* before = out + (-back);
  before[i + back] = (int)i + 5;
}

// The CTS's half test: the last work-item writes three halves through a pointer moved back.
kernel void vstore_half3_back(global const float* in, global half* out, uint extra_last) {
  size_t i = get_global_id(0);
  size_t adjust = (i == get_global_size(0) - 1 && extra_last != 0) ? 3 - extra_last : 0;
  vstore_half3(vload3(i, in - adjust), i, out - adjust);
}

// A member of a struct reached through a pointer moved back: the chain's element index is
// negative and a member index follows it.
typedef struct {
  int first;
  int second;
} Pair;

kernel void member_back(global const Pair* pairs, global int* out, int back) {
  size_t i = get_global_id(0);
  global const Pair* here = pairs + (i + back);
  out[i] = here[-back].second - here[-back].first;
}
