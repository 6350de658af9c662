// printf: each call leaves a record in the printf buffer, which the runtime formats on the host
// once the kernel is done (tests/kernels/printf_test.cc and tests/icd/printf_test.cc check the text).

// One line per work-item; printf's result (0, or -1 when the buffer is full) goes to out.
kernel void prints(global int* out) { out[get_global_id(0)] = printf("item %d\n", (int)get_global_id(0)); }

kernel void scalars(global const int* i, global const float* f, global const long* l, global int* result) {
  result[0] = printf("%d %i %u %x %X %o|%5d|%-5d|%05d|%+d\n", i[0], i[1], i[2], i[3], i[3], i[4], i[5], i[5], i[5],
                     i[5]);
  result[1] = printf("%f %.2f|%10.3f|%e %g %a %A\n", f[0], f[1], f[1], f[2], f[3], f[4], f[4]);
  result[2] = printf("%ld %lu %lx %hd %hhu\n", l[0], l[1], l[2], (short)i[6], (uchar)i[7]);
  result[3] = printf("%c%c %s|%10s|%-6s|%.2s %% done\n", 'o', (char)i[8], "str", "right", "left", "truncated");
}

kernel void vectors(global const int4* iv, global const float4* fv, global const short2* sv, global const uchar8* cv,
                    global const long2* lv, global int* result) {
  result[0] = printf("%v4hld|%v4hlf|%v2hx|%v8hhu|%v2ld\n", iv[0], fv[0], as_ushort2(sv[0]), cv[0], lv[0]);
  result[1] = printf("%v4hlf|%#.1v4hlf|%5v2hd\n", fv[0], fv[0], sv[0]);
}

// %p of a __global pointer prints its device address; %s of a string chosen by a constant index.
kernel void pointer(global int* out) { out[1] = printf("%p %s\n", out + 1, &"xyz"[1]); }
