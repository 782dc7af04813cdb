// SPDX-License-Identifier: MIT
// msg1 admission per source, per IPv6 /64 and globally (see
// handshake-admission.h). Runs in fips-router on unauthenticated addresses.
#include "router/link/handshake-admission.h"

#include <algorithm>
#include <string_view>

namespace fips::router::link {

namespace {

constexpr uint8_t KIND_IPV4 = 4;
constexpr uint8_t KIND_IPV6 = 6;
constexpr uint8_t KIND_IPV6_64 = 64;
constexpr size_t PREFIX_BYTES = 8;  // a /64

}  // namespace

AdmissionConfig admissionConfig(uint32_t handshakeBurst, double handshakeRate) {
  AdmissionConfig config;
  config.globalBurst = handshakeBurst;
  config.globalRate = handshakeRate;
  config.reserved = handshakeBurst / 4;
  return config;
}

size_t HandshakeAdmission::SourceKeyHash::operator()(const SourceKey& key) const {
  return std::hash<std::string_view>{}(
      std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
}

HandshakeAdmission::HandshakeAdmission(const AdmissionConfig& config, uint64_t nowMs)
    : config_(config), global_(config.globalBurst, config.globalRate, nowMs) {
  // An address and its prefix are both held while one msg1 is admitted.
  config_.maxSources = std::max<size_t>(config_.maxSources, 2);
}

TokenBucket& HandshakeAdmission::bucketFor(const SourceKey& key, uint32_t burst, double rate,
                                           uint64_t nowMs) {
  if (auto it = table_.find(key); it != table_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.age);
    return it->second.bucket;
  }
  if (table_.size() >= config_.maxSources) {
    table_.erase(lru_.back());
    lru_.pop_back();
    ++evictions_;
  }
  lru_.push_front(key);
  return table_.emplace(key, Entry{TokenBucket(burst, rate, nowMs), lru_.begin()})
      .first->second.bucket;
}

Admission HandshakeAdmission::admit(const TransportAddr& from, uint64_t nowMs,
                                    TokenBucket* established) {
  SourceKey addrKey{};
  addrKey[0] = from.isIpv6() ? KIND_IPV6 : KIND_IPV4;
  std::copy_n(from.ip.begin(), from.ipLen, addrKey.begin() + 1);
  TokenBucket& source = bucketFor(addrKey, config_.sourceBurst, config_.sourceRate, nowMs);
  const double sourceTokens = source.available(nowMs);
  if (sourceTokens < 1.0) return Admission::SOURCE_LIMITED;
  bool quiet = sourceTokens * 2 >= config_.sourceBurst;

  TokenBucket* prefix = nullptr;
  if (from.isIpv6()) {
    SourceKey prefixKey{};
    prefixKey[0] = KIND_IPV6_64;
    std::copy_n(from.ip.begin(), PREFIX_BYTES, prefixKey.begin() + 1);
    prefix = &bucketFor(prefixKey, config_.prefixBurst, config_.prefixRate, nowMs);
    const double prefixTokens = prefix->available(nowMs);
    if (prefixTokens < 1.0) return Admission::PREFIX_LIMITED;
    quiet = quiet && prefixTokens * 2 >= config_.prefixBurst;
  }

  if (established != nullptr) {
    if (!established->tryAcquire(nowMs)) return Admission::ESTABLISHED_LIMITED;
  } else if (!takeGlobal(quiet, nowMs)) {
    return Admission::GLOBAL_LIMITED;
  }
  source.tryAcquire(nowMs);
  if (prefix != nullptr) prefix->tryAcquire(nowMs);
  return Admission::ADMITTED;
}

bool HandshakeAdmission::takeGlobal(bool quiet, uint64_t nowMs) {
  // A busy source leaves the reserve to quiet ones.
  const double globalTokens = global_.available(nowMs);
  const double floor = quiet ? 0.0 : static_cast<double>(config_.reserved);
  if (globalTokens < 1.0 + floor) return false;
  if (globalTokens < 1.0 + config_.reserved) ++reserveAdmits_;
  return global_.tryAcquire(nowMs);
}

}  // namespace fips::router::link
