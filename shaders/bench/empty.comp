#version 460
// Does nothing: the launch-overhead baseline.
layout(local_size_x_id = 0) in;

void main() {}
