// More arguments than push constants hold on most devices: they travel in an argument buffer.
#define ARG(n) global int* p##n, int v##n
kernel void many_arguments(ARG(0), ARG(1), ARG(2), ARG(3), ARG(4), ARG(5), ARG(6), ARG(7), ARG(8), ARG(9),
                           ARG(10), ARG(11), ARG(12), ARG(13), ARG(14), ARG(15), ARG(16), ARG(17), ARG(18), ARG(19),
                           ARG(20), ARG(21), ARG(22), ARG(23)) {
  size_t i = get_global_id(0);
#define SET(n) p##n[i] = v##n + (int)i;
  SET(0) SET(1) SET(2) SET(3) SET(4) SET(5) SET(6) SET(7) SET(8) SET(9) SET(10) SET(11)
  SET(12) SET(13) SET(14) SET(15) SET(16) SET(17) SET(18) SET(19) SET(20) SET(21) SET(22) SET(23)
}
