// The host half of printf: formats the records a kernel left in its printf buffer
// (cl2vk/reflection.h, PrintfBufferLayout) with OpenCL C's printf rules, vectors included.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/reflection.h"

namespace cl2vk::launch {

// The printf buffer's size in bytes (CL_DEVICE_PRINTF_BUFFER_SIZE): the header and the records.
inline constexpr uint32_t kPrintfBufferSize = 1024 * 1024;
// The words of it that records may fill (the rest is the header).
inline constexpr uint32_t kPrintfRecordWords = kPrintfBufferSize / 4 - PrintfBufferLayout::kFirstRecordWord;

// The text of one format with its arguments' words (`words` holds exactly what the record holds
// after the format's index).
std::string formatPrintf(const PrintfFormat& format, std::span<const uint32_t> words);

// The text of every whole record in `records` (the words after the buffer's header, as many as
// were written), in the order they were reserved. A record whose format index is unknown ends
// the walk.
std::string formatPrintfRecords(const std::vector<PrintfFormat>& formats, std::span<const uint32_t> records);

}  // namespace cl2vk::launch
