// Program-scope variables (Needs OpenCL C 2.0): initialized scalars, arrays, structs and a pointer
// to another variable, shared by the kernels of the program and kept across launches
// (tests/kernels/global_variables_test.cc).

typedef struct {
  int id;
  float weights[3];
} Record;

global int counter = 5;
global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
global Record record = {7, {0.5f, 1.5f, 2.5f}};
global int* global counter_pointer = &counter;
global float* global third = &table[2];
global long zeroed[8];
constant int lut[3] = {10, 20, 30};

// Reads every variable into out, then changes some for the next launch and the other kernel.
kernel void read_and_bump(global long* out) {
  out[0] = counter;
  out[1] = (long)(table[1] * 10.0f);
  out[2] = record.id;
  out[3] = (long)(record.weights[2] * 10.0f);
  out[4] = *counter_pointer;
  out[5] = (long)(*third * 10.0f);
  out[6] = zeroed[get_global_id(0) % 8];
  out[7] = lut[1];
  counter += 1;
  zeroed[3] += 100;
  record.weights[2] += 1.0f;
  table[2] = 8.0f;
}

// The other kernel sees what read_and_bump left, through the variables and through the pointers.
kernel void read_back(global long* out) {
  out[0] = counter;
  out[1] = zeroed[3];
  out[2] = (long)(record.weights[2] * 10.0f);
  out[3] = (long)(*third * 10.0f);
  // llvm-spirv-15 leaves a variable reached only through another's initializer out of the entry
  // point's interface, which the corpus tests' validation refuses (the translator adds it back);
  // reading table here lists it.
  out[4] = (long)table[3];
  (*counter_pointer) += 1000;
}
