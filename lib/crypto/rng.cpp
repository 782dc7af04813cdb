// SPDX-License-Identifier: MIT
// OpenSSL and scripted random sources (see rng.h). Runs in fips-router.
#include "lib/crypto/rng.h"

#include <algorithm>
#include <array>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <climits>

namespace fips::crypto {

bool OpenSslRng::fill(std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    size_t chunk = std::min<size_t>(out.size() - done, INT_MAX);
    if (RAND_bytes(out.data() + done, static_cast<int>(chunk)) != 1) return false;
    done += chunk;
  }
  return true;
}

ScriptedRng::~ScriptedRng() {
  OPENSSL_cleanse(script_.data(), script_.size());
}

void ScriptedRng::push(std::span<const uint8_t> bytes) {
  script_.insert(script_.end(), bytes.begin(), bytes.end());
}

bool ScriptedRng::fill(std::span<uint8_t> out) {
  if (remaining() < out.size()) return false;
  std::copy_n(script_.begin() + static_cast<std::ptrdiff_t>(pos_), out.size(), out.begin());
  pos_ += out.size();
  return true;
}

bool uniformInt(Rng& rng, int64_t lo, int64_t hi, int64_t& out) {
  if (hi < lo) return false;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1U;
  // Reject draws from the incomplete top bucket so every value is equally likely.
  const uint64_t limit = span == 0 ? 0 : UINT64_MAX - (UINT64_MAX % span);
  for (;;) {
    uint64_t draw = 0;
    std::array<uint8_t, 8> raw{};
    if (!rng.fill(raw)) return false;
    for (uint8_t b : raw) draw = (draw << 8U) | b;
    if (span == 0) {
      out = static_cast<int64_t>(draw);
      return true;
    }
    if (draw < limit) {
      out = static_cast<int64_t>(static_cast<uint64_t>(lo) + draw % span);
      return true;
    }
  }
}

}  // namespace fips::crypto
