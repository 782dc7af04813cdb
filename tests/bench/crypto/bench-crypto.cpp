// SPDX-License-Identifier: MIT
// bench-crypto: handshake and AEAD throughput of router/noise next to the raw
// primitives measured in the same run. Developer tool, not a daemon; no
// external input. Run pinned: taskset -c 1 build/tests/bench/crypto/bench-crypto
//
// Prints: IK handshakes/s (initiator+responder on one core), IK responder
// handshakes/s against the bound set by its primitives (4 ECDH + keygen +
// 2 parses + 6 HKDF, measured raw here), XK handshakes/s, and AEAD seal+open
// bytes/s through SendCipher/RecvCipher vs raw OpenSSL EVP at 64..8192 bytes.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <secp256k1.h>
#include <secp256k1_ecdh.h>

#include "router/noise/cipher-state.h"
#include "router/noise/handshake.h"

namespace {

using fips::crypto::OpenSslRng;
using fips::crypto::Secp256k1Context;
using fips::crypto::SecretKey;
using namespace fips::router::noise;
using Clock = std::chrono::steady_clock;

volatile unsigned sink = 0;

// Calls per second of `fn` over one window of `seconds`.
template <typename Fn>
double once(Fn& fn, double seconds) {
  uint64_t n = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    for (int i = 0; i < 16; ++i) fn();
    n += 16;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(n) / elapsed;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median over 5 windows of ~0.4 s; returns calls per second.
template <typename Fn>
double rate(Fn&& fn) {
  std::vector<double> runs;
  for (int k = 0; k < 5; ++k) runs.push_back(once(fn, 0.4));
  return median(runs);
}

int hashX(unsigned char* out, const unsigned char* x, const unsigned char* /*y*/, void* /*d*/) {
  SHA256(x, 32, out);
  return 1;
}

// The raw primitive bound for one IK responder handshake, in handshakes/s.
double responderBound(const Secp256k1Context& ctx) {
  std::array<unsigned char, 32> sk{};
  sk.fill(0x11);
  std::array<unsigned char, 32> out{};
  secp256k1_pubkey pk{};
  if (secp256k1_ec_pubkey_create(ctx.get(), &pk, sk.data()) != 1) std::abort();
  std::array<unsigned char, 33> ser{};
  size_t len = ser.size();
  (void)secp256k1_ec_pubkey_serialize(ctx.get(), ser.data(), &len, &pk, SECP256K1_EC_COMPRESSED);
  const double keygen = rate([&] {
    sk[0]++;
    secp256k1_pubkey p{};
    sink = sink + static_cast<unsigned>(secp256k1_ec_pubkey_create(ctx.get(), &p, sk.data()));
    size_t l = 33;
    (void)secp256k1_ec_pubkey_serialize(ctx.get(), ser.data(), &l, &p, SECP256K1_EC_COMPRESSED);
  });
  const double ecdh = rate([&] {
    sink = sink + static_cast<unsigned>(
                      secp256k1_ecdh(ctx.get(), out.data(), &pk, sk.data(), hashX, nullptr));
  });
  const double parse = rate([&] {
    secp256k1_pubkey p{};
    sink = sink + static_cast<unsigned>(secp256k1_ec_pubkey_parse(ctx.get(), &p, ser.data(), 33));
  });
  const double hkdf = rate([&] {
    std::array<unsigned char, 32> t{};
    std::array<unsigned char, 33> o{};
    unsigned int l = 0;
    const unsigned char one = 1;
    HMAC(EVP_sha256(), sk.data(), 32, out.data(), 32, t.data(), &l);
    HMAC(EVP_sha256(), t.data(), 32, &one, 1, o.data(), &l);
    o[32] = 2;
    HMAC(EVP_sha256(), t.data(), 32, o.data(), 33, o.data(), &l);
    sink = sink + o[0];
  });
  std::printf("primitives: keygen %.0f/s  ecdh %.0f/s  parse %.0f/s  hkdf2 %.0f/s\n", keygen, ecdh,
              parse, hkdf);
  const double perHandshake = 1 / keygen + 4 / ecdh + 2 / parse + 6 / hkdf;
  return 1 / perHandshake;
}

void benchHandshakes(const Secp256k1Context& ctx) {
  const Secp256k1Suite suite(ctx);
  OpenSslRng rng;
  auto a = SecretKey::generate(ctx, rng);
  auto b = SecretKey::generate(ctx, rng);
  const Epoch epoch{1, 2, 3, 4, 5, 6, 7, 8};
  auto full = [&](FipsPattern pattern) {
    auto init = Handshake::initiator(pattern, suite, a->clone(), b->publicKey(), epoch);
    auto resp = Handshake::responder(pattern, suite, b->clone(), epoch);
    std::array<uint8_t, IK_MSG1_SIZE> buf{};
    while (!init.isComplete() || !resp.isComplete()) {
      Handshake& w = init.isMyTurn() ? init : resp;
      Handshake& r = init.isMyTurn() ? resp : init;
      const auto msg = std::span(buf).first(w.nextMessageSize());
      if (w.writeMessage(msg, rng) != HandshakeStatus::OK ||
          r.readMessage(msg) != HandshakeStatus::OK) {
        std::abort();
      }
    }
    sink = sink + init.split()->send.bytes()[0] + resp.split()->send.bytes()[0];
  };
  const double ik = rate([&] { full(FipsPattern::IK); });
  const double xk = rate([&] { full(FipsPattern::XK); });

  // Responder alone: a pool of distinct msg1s, answered one after another.
  std::vector<std::array<uint8_t, IK_MSG1_SIZE>> msg1s(256);
  for (auto& m : msg1s) {
    auto init = Handshake::initiator(FipsPattern::IK, suite, a->clone(), b->publicKey(), epoch);
    if (init.writeMessage(m, rng) != HandshakeStatus::OK) std::abort();
  }
  size_t next = 0;
  const double responder = rate([&] {
    auto resp = Handshake::responder(FipsPattern::IK, suite, b->clone(), epoch);
    std::array<uint8_t, IK_MSG2_SIZE> m2{};
    if (resp.readMessage(msg1s[next++ % msg1s.size()]) != HandshakeStatus::OK ||
        resp.writeMessage(m2, rng) != HandshakeStatus::OK) {
      std::abort();
    }
    sink = sink + resp.split()->send.bytes()[0];
  });
  const double bound = responderBound(ctx);
  std::printf("IK handshakes/s (initiator+responder, one core): %.0f\n", ik);
  std::printf("XK handshakes/s (initiator+responder, one core): %.0f\n", xk);
  std::printf("IK responder handshakes/s: %.0f   primitive bound: %.0f   ratio: %.1f %%\n",
              responder, bound, 100 * responder / bound);
}

// Raw EVP seal+open per packet: one pre-keyed context per direction.
class RawEvp {
 public:
  explicit RawEvp(size_t len) : buf_(len, 1), ct_(len), len_(static_cast<int>(len)) {
    std::array<unsigned char, 32> key{};
    key.fill(7);
    EVP_EncryptInit_ex(enc_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr);
    EVP_DecryptInit_ex(dec_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr);
  }
  void operator()() {
    int ol = 0;
    std::memcpy(nonce_.data() + 4, &n_, 8);
    std::memcpy(aad_.data() + 8, &n_, 8);
    EVP_EncryptInit_ex(enc_.get(), nullptr, nullptr, nullptr, nonce_.data());
    EVP_EncryptUpdate(enc_.get(), nullptr, &ol, aad_.data(), 16);
    EVP_EncryptUpdate(enc_.get(), ct_.data(), &ol, buf_.data(), len_);
    EVP_EncryptFinal_ex(enc_.get(), ct_.data() + ol, &ol);
    EVP_CIPHER_CTX_ctrl(enc_.get(), EVP_CTRL_AEAD_GET_TAG, 16, tag_.data());
    EVP_DecryptInit_ex(dec_.get(), nullptr, nullptr, nullptr, nonce_.data());
    EVP_DecryptUpdate(dec_.get(), nullptr, &ol, aad_.data(), 16);
    EVP_DecryptUpdate(dec_.get(), buf_.data(), &ol, ct_.data(), len_);
    EVP_CIPHER_CTX_ctrl(dec_.get(), EVP_CTRL_AEAD_SET_TAG, 16, tag_.data());
    if (EVP_DecryptFinal_ex(dec_.get(), buf_.data() + ol, &ol) <= 0) std::abort();
    ++n_;
  }

 private:
  struct Deleter {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
  };
  std::unique_ptr<EVP_CIPHER_CTX, Deleter> enc_{EVP_CIPHER_CTX_new()};
  std::unique_ptr<EVP_CIPHER_CTX, Deleter> dec_{EVP_CIPHER_CTX_new()};
  std::array<unsigned char, 16> aad_{};
  std::array<unsigned char, 16> tag_{};
  std::array<unsigned char, 12> nonce_{};
  std::vector<unsigned char> buf_;
  std::vector<unsigned char> ct_;
  int len_;
  uint64_t n_ = 0;
};

// The same through SendCipher::sealFrame + RecvCipher::openFrame (FMP header).
class Ours {
 public:
  explicit Ours(size_t len) : tx_(key()), rx_(key()), pt_(len, 1), ct_(len + 16) {}
  void operator()() {
    if (!tx_.sealFrame(header_, 8, pt_, ct_) ||
        rx_.openFrame(header_, 8, ct_, pt_) != OpenStatus::OK) {
      std::abort();
    }
  }

 private:
  static fips::crypto::Secret<32> key() {
    fips::crypto::Secret<32> k;
    k.mutableBytes()[0] = 7;
    return k;
  }
  SendCipher tx_;
  RecvCipher rx_;
  std::array<uint8_t, 16> header_{};
  std::vector<uint8_t> pt_;
  std::vector<uint8_t> ct_;
};

// Alternates 9 windows of each so both see the same machine load; reports
// median bytes/s and the median of the per-pair ratios.
void benchAead() {
  std::printf("%-8s %16s %16s %8s\n", "bytes", "ours B/s", "raw EVP B/s", "ratio");
  for (size_t len : {size_t{64}, size_t{1400}, size_t{1408}, size_t{8192}}) {
    RawEvp raw(len);
    Ours mine(len);
    std::vector<double> rawRates;
    std::vector<double> ourRates;
    std::vector<double> ratios;
    for (int k = 0; k < 9; ++k) {
      rawRates.push_back(once(raw, 0.2) * static_cast<double>(len));
      ourRates.push_back(once(mine, 0.2) * static_cast<double>(len));
      ratios.push_back(ourRates.back() / rawRates.back());
    }
    std::printf("%-8zu %16.3e %16.3e %7.1f%%\n", len, median(ourRates), median(rawRates),
                100 * median(ratios));
  }
}

}  // namespace

int main() {
  const Secp256k1Context ctx;
  std::printf("bench-crypto: one core; AEAD = seal+open per packet, 16-byte AAD\n");
  benchAead();
  benchHandshakes(ctx);
  return 0;
}
