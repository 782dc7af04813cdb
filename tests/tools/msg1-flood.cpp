// SPDX-License-Identifier: MIT
// msg1-flood: a handshake flood for the integration tests (issue #25,
// failure 5). Builds COUNT valid FMP msg1s for the target's npub with the
// project's own Noise code (a fresh static key, ephemeral and sender index
// each, so each would cost the target an ECDH were it admitted), then sends
// them round-robin from one UDP socket at RATE per second for SECS seconds,
// in 1 ms batches. MODE forged (the default) flips a byte of each msg1's
// encrypted static key: the target pays one ECDH and the AEAD check before
// it can tell, and no link ever comes of it (so the attacker's address
// never becomes an established peer's). MODE valid sends them intact: each
// admitted one brings a link up. Prints what it sent. Test code only: run
// it against namespaces a test made, never anywhere else.
//
//   msg1-flood NPUB HOST PORT RATE SECS [COUNT [valid|forged]]
#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <variant>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/nip19.h"
#include "router/link/handshake-driver.h"
#include "router/noise/dh-suites.h"

namespace {

using namespace fips;

// A byte of the encrypted static key: after the 4-byte prefix, the 4-byte
// sender index and the 33-byte ephemeral (spec 02 §2.1).
constexpr size_t FORGED_BYTE = 4 + 4 + 33 + 10;

uint64_t nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000U + static_cast<uint64_t>(ts.tv_nsec);
}

int usage() {
  std::fprintf(stderr, "usage: msg1-flood NPUB HOST PORT RATE SECS [COUNT [valid|forged]]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) return usage();
  const auto target = identity::decodeNpub(argv[1]);
  const double rate = std::atof(argv[4]);
  const double secs = std::atof(argv[5]);
  const size_t count = argc > 6 ? std::strtoul(argv[6], nullptr, 10) : 500;
  const std::string mode = argc > 7 ? argv[7] : "forged";
  if (mode != "valid" && mode != "forged") return usage();
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(std::atoi(argv[3])));
  const crypto::PublicKey* key = target.ok() ? &target.value() : nullptr;
  if (key == nullptr || inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1 || rate <= 0 || secs <= 0 ||
      count == 0) {
    return usage();
  }
  crypto::Secp256k1Context ctx;
  router::noise::Secp256k1Suite suite(ctx);
  crypto::OpenSslRng rng;
  const auto remote = suite.parsePublic(key->compressed());
  if (!remote) return usage();
  const auto peer = identity::NodeAddr::fromPublicKey(*key);
  std::vector<std::vector<uint8_t>> packets;
  for (size_t i = 0; i < count; ++i) {
    const auto pair = suite.generate(rng);
    if (!pair) return 1;
    router::noise::Epoch epoch{};
    if (!rng.fill(epoch)) return 1;
    const router::link::LocalIdentity local{&suite, &*pair, epoch};
    const auto hs = router::link::startOutbound(local, *remote, peer, static_cast<uint32_t>(i + 1),
                                                router::link::TransportAddr{}, 0, 1000, rng);
    if (!hs) return 1;
    packets.emplace_back(hs->msg1.begin(), hs->msg1.end());
    if (mode == "forged") packets.back()[FORGED_BYTE] ^= 0x01;
  }
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return 1;
  const uint64_t start = nowNs();
  const auto end = start + static_cast<uint64_t>(secs * 1e9);
  uint64_t sent = 0;
  uint64_t errors = 0;
  for (uint64_t t = start; t < end; t = nowNs()) {
    // Catch up to where RATE says we should be by now, then sleep 1 ms.
    const auto due = static_cast<uint64_t>(static_cast<double>(t - start) * rate / 1e9);
    while (sent < due) {
      const auto& p = packets[sent % packets.size()];
      if (sendto(fd, p.data(), p.size(), 0, reinterpret_cast<const sockaddr*>(&dst), sizeof dst) <
          0) {
        ++errors;
      }
      ++sent;
    }
    const timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
  close(fd);
  const double took = static_cast<double>(nowNs() - start) / 1e9;
  std::printf("sent %llu %s msg1 (%zu distinct) in %.1f s: %.0f/s, %llu send errors\n",
              static_cast<unsigned long long>(sent), mode.c_str(), packets.size(), took,
              static_cast<double>(sent) / took, static_cast<unsigned long long>(errors));
  return 0;
}
