# Writes a SPIR-V binary as a comma-separated list of 32-bit words, for #include inside a C++
# array initializer: cmake -DINPUT=<file.spv> -DOUTPUT=<file.inc> -P EmbedWords.cmake
# The binary is little-endian, as llvm-spirv writes it.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])"
       "0x\\4\\3\\2\\1u,\n" words "${hex}")
file(WRITE "${OUTPUT}" "${words}")
