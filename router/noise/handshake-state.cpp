// SPDX-License-Identifier: MIT
// Generic Noise HandshakeState (see handshake-state.h), instantiated for the
// secp256k1 (FIPS) and X25519 (test vector) suites. Runs in fips-router;
// readMessage() takes untrusted bytes. Each step works on a copy of the state
// and commits only on success.
#include "router/noise/handshake-state.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "router/noise/dh-suites.h"

namespace fips::router::noise {

constexpr size_t TAG_SIZE = 16;

// A step's scratch copy of everything a message may change.
template <typename Suite>
struct HandshakeState<Suite>::Work {
  SymmetricState sym;
  std::optional<KeyPair> e;
  std::optional<Public> re;
  std::optional<Public> rs;
  size_t pos = 0;
};

template <typename Suite>
HandshakeState<Suite>::HandshakeState(const Suite& suite, const NoiseProtocol& protocol, Role role,
                                      KeyPair localStatic, std::optional<Public> remoteStatic,
                                      std::span<const uint8_t> prologue)
    : suite_(suite),
      protocol_(&protocol),
      role_(role),
      s_(std::move(localStatic)),
      rs_(std::move(remoteStatic)),
      symmetric_(protocol.name, protocol.emptyHandshakeAd) {
  if ((role == Role::INITIATOR) != rs_.has_value()) {
    throw std::invalid_argument(
        "initiator needs the responder static, responder must not have one");
  }
  if (protocol.mixPrologue) symmetric_.mixHash(prologue);
  // <- s: the responder static as a pre-message.
  const Public& responderStatic = role == Role::INITIATOR ? *rs_ : Suite::publicOf(s_);
  if (protocol.normalizePremessage) {
    symmetric_.mixHash(Suite::normalized(responderStatic));
  } else {
    symmetric_.mixHash(Suite::encode(responderStatic));
  }
}

template <typename Suite>
bool HandshakeState<Suite>::isMyTurn() const {
  return !isComplete() && ((next_ % 2 == 0) == (role_ == Role::INITIATOR));
}

template <typename Suite>
size_t HandshakeState<Suite>::messageSize(size_t payloadSize) const {
  if (isComplete()) return 0;
  const MessagePattern& msg = protocol_->pattern->messages[next_];
  bool keyed = symmetric_.hasKey();
  size_t size = 0;
  for (Token token : msg.tokens) {
    if (token == Token::E) {
      size += Suite::PUBLIC_SIZE;
    } else if (token == Token::S) {
      size += Suite::PUBLIC_SIZE + (keyed ? TAG_SIZE : 0);
    } else {
      keyed = true;
    }
  }
  if (msg.hasPayload) size += payloadSize + (keyed ? TAG_SIZE : 0);
  return size;
}

template <typename Suite>
std::optional<size_t> HandshakeState<Suite>::payloadSize(size_t size) const {
  if (isComplete()) return std::nullopt;
  const size_t fixed = messageSize(0);
  if (!protocol_->pattern->messages[next_].hasPayload) {
    return size == fixed ? std::optional<size_t>(0) : std::nullopt;
  }
  if (size < fixed) return std::nullopt;
  return size - fixed;
}

template <typename Suite>
bool HandshakeState<Suite>::mixDh(Work& work, Token token) const {
  const bool initiator = role_ == Role::INITIATOR;
  const KeyPair* local = nullptr;
  const Public* remote = nullptr;
  switch (token) {
    case Token::EE:  // ee
      local = work.e ? &*work.e : nullptr;
      remote = work.re ? &*work.re : nullptr;
      break;
    case Token::ES:  // es: initiator e × responder s
      local = initiator ? (work.e ? &*work.e : nullptr) : &s_;
      remote = initiator ? (work.rs ? &*work.rs : nullptr) : (work.re ? &*work.re : nullptr);
      break;
    case Token::SE:  // se: initiator s × responder e
      local = initiator ? &s_ : (work.e ? &*work.e : nullptr);
      remote = initiator ? (work.re ? &*work.re : nullptr) : (work.rs ? &*work.rs : nullptr);
      break;
    case Token::SS:  // ss
      local = &s_;
      remote = work.rs ? &*work.rs : nullptr;
      break;
    case Token::E:
    case Token::S:
      return false;
  }
  if (local == nullptr || remote == nullptr) return false;
  auto shared = suite_.dh(*local, *remote);
  return shared && work.sym.mixKey(shared->bytes());
}

template <typename Suite>
HandshakeStatus HandshakeState<Suite>::runTokens(Work& work, std::span<const uint8_t> in,
                                                 std::span<uint8_t> out, bool writing,
                                                 crypto::Rng* rng) const {
  constexpr size_t PUB = Suite::PUBLIC_SIZE;
  for (Token token : protocol_->pattern->messages[next_].tokens) {
    if (token == Token::E && writing) {  // e
      auto e = suite_.generate(*rng);
      if (!e) return HandshakeStatus::CRYPTO_FAILURE;
      const auto encoded = Suite::encode(Suite::publicOf(*e));
      std::copy(encoded.begin(), encoded.end(), out.begin() + static_cast<ptrdiff_t>(work.pos));
      work.sym.mixHash(encoded);
      work.e = std::move(e);
      work.pos += PUB;
    } else if (token == Token::E) {  // e (theirs)
      if (in.size() - work.pos < PUB) return HandshakeStatus::BAD_LENGTH;
      const auto bytes = in.subspan(work.pos, PUB);
      work.re = suite_.parsePublic(bytes);
      if (!work.re) return HandshakeStatus::BAD_POINT;
      work.sym.mixHash(bytes);
      work.pos += PUB;
    } else if (token == Token::S && writing) {  // s
      const size_t n = work.sym.encryptedSize(PUB);
      if (!work.sym.encryptAndHash(Suite::encode(Suite::publicOf(s_)), out.subspan(work.pos, n))) {
        return HandshakeStatus::CRYPTO_FAILURE;
      }
      work.pos += n;
    } else if (token == Token::S) {  // s (theirs)
      const size_t n = work.sym.encryptedSize(PUB);
      if (in.size() - work.pos < n) return HandshakeStatus::BAD_LENGTH;
      std::array<uint8_t, PUB> plain{};
      if (!work.sym.decryptAndHash(in.subspan(work.pos, n), plain)) {
        return HandshakeStatus::DECRYPT_FAILED;
      }
      work.rs = suite_.parsePublic(plain);
      if (!work.rs) return HandshakeStatus::BAD_POINT;
      work.pos += n;
    } else if (!mixDh(work, token)) {  // ee / es / se / ss
      return HandshakeStatus::CRYPTO_FAILURE;
    }
  }
  return HandshakeStatus::OK;
}

template <typename Suite>
HandshakeStatus HandshakeState<Suite>::writeMessage(std::span<const uint8_t> payload,
                                                    std::span<uint8_t> out, crypto::Rng& rng) {
  if (!isMyTurn()) return HandshakeStatus::UNEXPECTED_MESSAGE;
  const MessagePattern& msg = protocol_->pattern->messages[next_];
  if ((!msg.hasPayload && !payload.empty()) || out.size() != messageSize(payload.size())) {
    return HandshakeStatus::BAD_LENGTH;
  }
  Work work{symmetric_.clone(), e_ ? std::optional<KeyPair>(e_->clone()) : std::nullopt, re_, rs_};
  HandshakeStatus status = runTokens(work, {}, out, true, &rng);
  if (status != HandshakeStatus::OK) return status;
  // {payload}
  if (msg.hasPayload && !work.sym.encryptAndHash(payload, out.subspan(work.pos))) {
    return HandshakeStatus::CRYPTO_FAILURE;
  }
  symmetric_ = std::move(work.sym);
  e_ = std::move(work.e);
  ++next_;
  return HandshakeStatus::OK;
}

template <typename Suite>
HandshakeStatus HandshakeState<Suite>::readMessage(std::span<const uint8_t> message,
                                                   std::span<uint8_t> payloadOut) {
  if (isComplete() || isMyTurn()) return HandshakeStatus::UNEXPECTED_MESSAGE;
  const auto expected = payloadSize(message.size());
  if (!expected || *expected != payloadOut.size()) return HandshakeStatus::BAD_LENGTH;
  Work work{symmetric_.clone(), e_ ? std::optional<KeyPair>(e_->clone()) : std::nullopt, re_, rs_};
  HandshakeStatus status = runTokens(work, message, {}, false, nullptr);
  if (status != HandshakeStatus::OK) return status;
  // {payload}
  if (protocol_->pattern->messages[next_].hasPayload &&
      !work.sym.decryptAndHash(message.subspan(work.pos), payloadOut)) {
    return HandshakeStatus::DECRYPT_FAILED;
  }
  symmetric_ = std::move(work.sym);
  re_ = std::move(work.re);
  rs_ = std::move(work.rs);
  ++next_;
  return HandshakeStatus::OK;
}

template <typename Suite>
std::optional<TransportKeys> HandshakeState<Suite>::split() const {
  if (!isComplete()) return std::nullopt;
  crypto::Secret<32> k1;
  crypto::Secret<32> k2;
  if (!symmetric_.split(k1, k2)) return std::nullopt;
  TransportKeys keys;
  keys.handshakeHash = symmetric_.handshakeHash();
  keys.send = std::move(role_ == Role::INITIATOR ? k1 : k2);
  keys.recv = std::move(role_ == Role::INITIATOR ? k2 : k1);
  return keys;
}

template class HandshakeState<Secp256k1Suite>;
template class HandshakeState<X25519Suite>;

}  // namespace fips::router::noise
