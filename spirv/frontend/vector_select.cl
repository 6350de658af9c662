// A ternary on vectors with a scalar condition: at -O1 and above llvm-spirv-15 writes an OpSelect
// of vectors with a scalar condition, which only SPIR-V 1.4 allows, into the SPIR-V 1.2 that the
// runtime and the corpus ask for. cl2vk's repair-llvm-spirv splats the condition.

float4 shade(float4 colour, float t) { return t > 0.5f ? colour * t : (float4)(t)-colour; }

// Applies shade() with each of the n factors in turn, stopping once the x component passes 100.
kernel void vector_select(global float4* colours, global const float* factors, int n) {
  int i = get_global_id(0);
  float4 colour = colours[i];
  for (int k = 0; k < n; ++k) {
    colour = shade(colour, factors[k]);
    if (colour.x > 100.0f) break;
  }
  colours[i] = colour;
}
