// SPDX-License-Identifier: MIT
// Little-endian load/store helpers for the FMP codecs (all FMP integers are
// LE, spec 00). Runs in fips-router. Callers check lengths first: the
// fixed-extent spans make every access size part of the type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace fips::router::fmp {

// Reads an N-byte little-endian unsigned integer.
template <size_t N>
constexpr uint64_t loadLe(std::span<const uint8_t, N> bytes) {
  static_assert(N <= 8);
  uint64_t v = 0;
  for (size_t i = N; i > 0; --i) v = (v << 8U) | bytes[i - 1];
  return v;
}

// Reads a u16/u32/u64 at byte offset off; the caller has checked off + size <= b.size().
inline uint16_t loadLe16(std::span<const uint8_t> b, size_t off) {
  return static_cast<uint16_t>(loadLe(b.subspan(off).first<2>()));
}
inline uint32_t loadLe32(std::span<const uint8_t> b, size_t off) {
  return static_cast<uint32_t>(loadLe(b.subspan(off).first<4>()));
}
inline uint64_t loadLe64(std::span<const uint8_t> b, size_t off) {
  return loadLe(b.subspan(off).first<8>());
}

// Writes the low N bytes of v little-endian into out.
template <size_t N>
constexpr void storeLe(std::span<uint8_t, N> out, uint64_t v) {
  static_assert(N <= 8);
  for (size_t i = 0; i < N; ++i) out[i] = static_cast<uint8_t>(v >> (8U * i));
}

// Writes a u16/u32/u64 at byte offset off; the caller has sized b.
inline void storeLe16(std::span<uint8_t> b, size_t off, uint16_t v) {
  storeLe(b.subspan(off).first<2>(), v);
}
inline void storeLe32(std::span<uint8_t> b, size_t off, uint32_t v) {
  storeLe(b.subspan(off).first<4>(), v);
}
inline void storeLe64(std::span<uint8_t> b, size_t off, uint64_t v) {
  storeLe(b.subspan(off).first<8>(), v);
}

}  // namespace fips::router::fmp
