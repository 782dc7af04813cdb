// SPDX-License-Identifier: MIT
// Raw UDP and raw AEAD baselines of bench-link (see raw-probes.h). Runs in
// the benchmark's controller (AEAD) and its forked raw sender and receiver.
#include "tests/bench/link/raw-probes.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <time.h>
#include <vector>

#include <openssl/evp.h>

#include "tests/bench/link/udp-batch.h"

namespace fips::bench {

namespace {

struct CipherCtxDeleter {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxDeleter>;

constexpr size_t HEADER = 16;  // FMP established header, the AAD
constexpr size_t TAG = 16;

// Pre-keyed seal and open contexts; one call seals a frame with a fresh
// counter nonce and opens it again, as the two ends of a link do.
class SealOpen {
 public:
  explicit SealOpen(size_t frameBytes)
      : plain_(frameBytes - HEADER - TAG, 1), cipher_(plain_.size()) {
    std::array<unsigned char, 32> key{};
    key.fill(7);
    if (!enc_ || !dec_ ||
        EVP_EncryptInit_ex(enc_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr) !=
            1 ||
        EVP_DecryptInit_ex(dec_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr) !=
            1) {
      throw std::runtime_error("EVP chacha20-poly1305 init failed");
    }
  }
  void operator()() {
    int len = 0;
    const int n = static_cast<int>(plain_.size());
    std::memcpy(nonce_.data() + 4, &counter_, 8);
    std::memcpy(header_.data() + 8, &counter_, 8);
    EVP_EncryptInit_ex(enc_.get(), nullptr, nullptr, nullptr, nonce_.data());
    EVP_EncryptUpdate(enc_.get(), nullptr, &len, header_.data(), HEADER);
    EVP_EncryptUpdate(enc_.get(), cipher_.data(), &len, plain_.data(), n);
    EVP_EncryptFinal_ex(enc_.get(), cipher_.data() + len, &len);
    EVP_CIPHER_CTX_ctrl(enc_.get(), EVP_CTRL_AEAD_GET_TAG, TAG, tag_.data());
    EVP_DecryptInit_ex(dec_.get(), nullptr, nullptr, nullptr, nonce_.data());
    EVP_DecryptUpdate(dec_.get(), nullptr, &len, header_.data(), HEADER);
    EVP_DecryptUpdate(dec_.get(), plain_.data(), &len, cipher_.data(), n);
    EVP_CIPHER_CTX_ctrl(dec_.get(), EVP_CTRL_AEAD_SET_TAG, TAG, tag_.data());
    if (EVP_DecryptFinal_ex(dec_.get(), plain_.data() + len, &len) != 1) std::abort();
    ++counter_;
  }

 private:
  CipherCtx enc_{EVP_CIPHER_CTX_new()};
  CipherCtx dec_{EVP_CIPHER_CTX_new()};
  std::array<unsigned char, HEADER> header_{};
  std::array<unsigned char, TAG> tag_{};
  std::array<unsigned char, 12> nonce_{};
  std::vector<unsigned char> plain_;
  std::vector<unsigned char> cipher_;
  uint64_t counter_ = 0;
};

// CPU time of the calling thread, seconds: the AEAD rate is per CPU-second,
// so other load on the machine does not lower it.
double threadCpuSecs() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

void runRawSender(int fd, const sockaddr_in& to, size_t bytes, bool gso, SharedCounters& shared) {
  TxBatch tx(fd, gso);
  const std::vector<uint8_t> payload(bytes, 0xAB);
  uint64_t sent = 0;
  shared.ready.fetch_or(READY_SENDER);
  for (;;) {
    for (size_t i = 0; i < BATCH; ++i) tx.queue(to, payload);
    sent += tx.flush();
    shared.sent.store(sent, std::memory_order_relaxed);
  }
}

void runRawReceiver(int fd, bool gro, SharedCounters& shared) {
  RxBatch rx(fd, gro);
  uint64_t got = 0;
  for (;;) {
    if (rx.receive(true) == 0) continue;
    rx.forEach([&](const sockaddr_in&, std::span<const uint8_t>) { ++got; });
    shared.delivered.store(got, std::memory_order_relaxed);
  }
}

double aeadFramesPerSec(size_t frameBytes, double secs) {
  SealOpen pair(frameBytes);
  std::array<double, 5> rates{};
  for (double& rate : rates) {
    uint64_t n = 0;
    const double t0 = threadCpuSecs();
    double elapsed = 0;
    do {
      for (int i = 0; i < 64; ++i) pair();
      n += 64;
      elapsed = threadCpuSecs() - t0;
    } while (elapsed < secs / static_cast<double>(rates.size()));
    rate = static_cast<double>(n) / elapsed;
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

}  // namespace fips::bench
