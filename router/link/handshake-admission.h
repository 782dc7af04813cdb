// SPDX-License-Identifier: MIT
// Admission of msg1s from senders that are not established peers (spec 02
// §5 responder step 1, node.rate_limit.handshake_burst/rate), decided before
// any ECDH (#25). Anyone can build a msg1 (npubs are public), so one global
// bucket alone lets a single flooding source lock every new peer out. Here:
//   1. a token bucket per source address, and for IPv6 also per /64 prefix
//      (one host owns a whole /64), refusing a source that sends too fast,
//      whether or not an established link uses that address (one bogus
//      msg1 admitted makes the attacker's address one);
//   2. the global bucket (the node's handshake_burst/rate), whose last
//      `reserved` tokens only a quiet source may take (one whose own bucket
//      is at least half full), so sources that send at their limit cannot
//      drain it for the sources that do not;
//   3. a fixed-size table of sources, least recently seen evicted first, so
//      memory stays bounded whatever the number of sources.
// Runs in fips-router; the addresses are the unauthenticated UDP sources of
// untrusted datagrams. Clock injected (ms).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>

#include "router/link/token-bucket.h"
#include "router/link/transport-addr.h"

namespace fips::router::link {

struct AdmissionConfig {
  uint32_t globalBurst = 100;  // node.rate_limit.handshake_burst
  double globalRate = 10.0;    // node.rate_limit.handshake_rate, per second
  uint32_t reserved = 25;      // global tokens kept for quiet sources
  uint32_t sourceBurst = 4;    // per source address
  double sourceRate = 1.0;     // per second
  uint32_t prefixBurst = 16;   // per IPv6 /64
  double prefixRate = 4.0;     // per second
  size_t maxSources = 4096;    // addresses and prefixes tracked, together
};

// The configuration for a node's handshake_burst/rate: the reserve is a
// quarter of the burst.
AdmissionConfig admissionConfig(uint32_t handshakeBurst, double handshakeRate);

// The outcome of one msg1 (every refusal has its own drop counter).
enum class Admission : uint8_t {
  ADMITTED,
  SOURCE_LIMITED,       // the source address is out of tokens
  PREFIX_LIMITED,       // its IPv6 /64 is out of tokens
  GLOBAL_LIMITED,       // the global bucket is empty (or down to the reserve, for a busy source)
  ESTABLISHED_LIMITED,  // the caller's bucket for addresses of established links is empty
};

class HandshakeAdmission {
 public:
  HandshakeAdmission(const AdmissionConfig& config, uint64_t nowMs);

  // Charges one msg1 from `from`; anything but ADMITTED means drop it
  // before any cryptography. Tokens are taken only when admitted. A msg1
  // from the address of an established link (a rekey or restart, or an
  // attacker sharing or spoofing it) passes the per-source buckets like any
  // other, then draws from `established` instead of the global bucket.
  Admission admit(const TransportAddr& from, uint64_t nowMs, TokenBucket* established = nullptr);

  // Sources (addresses and prefixes) tracked now; at most maxSources.
  size_t tracked() const { return table_.size(); }
  // Sources forgotten to make room for a new one.
  uint64_t evictions() const { return evictions_; }
  // msg1s admitted from the reserve (the global bucket was down to it).
  uint64_t reserveAdmits() const { return reserveAdmits_; }

 private:
  // An IPv4 address, an IPv6 address or an IPv6 /64: a kind byte, then the bytes.
  using SourceKey = std::array<uint8_t, 17>;
  struct SourceKeyHash {
    size_t operator()(const SourceKey& key) const;
  };
  struct Entry {
    TokenBucket bucket;
    std::list<SourceKey>::iterator age;  // position in lru_
  };

  // One token of the global bucket; a busy (not quiet) source may not take
  // the last `reserved`. False if refused.
  bool takeGlobal(bool quiet, uint64_t nowMs);
  // The entry for key, made (full) if new, moved to the front of lru_.
  TokenBucket& bucketFor(const SourceKey& key, uint32_t burst, double rate, uint64_t nowMs);

  AdmissionConfig config_;
  TokenBucket global_;
  std::unordered_map<SourceKey, Entry, SourceKeyHash> table_;
  std::list<SourceKey> lru_;  // most recently seen first
  uint64_t evictions_ = 0;
  uint64_t reserveAdmits_ = 0;
};

}  // namespace fips::router::link
