// SPDX-License-Identifier: MIT
// NIP-19 npub/nsec and secret-key parsing (see nip19.h). Runs in the
// supervisor, the router and fipsctl; inputs are untrusted. Buffers that hold
// secret bytes are cleansed on every exit path.
#include "lib/identity/nip19.h"

#include <array>
#include <vector>

#include <openssl/crypto.h>

#include <fmt/format.h>

#include "lib/crypto/secret.h"
#include "lib/identity/bech32.h"
#include "lib/identity/hex.h"

namespace fips::identity {

namespace {

constexpr std::string_view NPUB_HRP = "npub";
constexpr std::string_view NSEC_HRP = "nsec";
constexpr size_t KEY_SIZE = 32;

// Cleanses a vector's bytes when it goes out of scope.
class WipeOnExit {
 public:
  explicit WipeOnExit(std::vector<uint8_t>& bytes) : bytes_(bytes) {}
  ~WipeOnExit() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }
  WipeOnExit(const WipeOnExit&) = delete;
  WipeOnExit& operator=(const WipeOnExit&) = delete;

 private:
  std::vector<uint8_t>& bytes_;
};

// HRP and length checks shared by npub and nsec.
std::optional<IdentityError> checkPayload(const Bech32Decoded& decoded, std::string_view hrp) {
  if (decoded.hrp != hrp) {
    return IdentityError{
        IdentityErrorKind::WRONG_HRP,
        fmt::format("wrong bech32 prefix: expected '{}', got '{}'", hrp, decoded.hrp)};
  }
  if (decoded.data.size() != KEY_SIZE) {
    return IdentityError{
        IdentityErrorKind::WRONG_LENGTH,
        fmt::format("wrong length: expected {} bytes, got {}", KEY_SIZE, decoded.data.size())};
  }
  return std::nullopt;
}

bool isZero(std::span<const uint8_t, KEY_SIZE> bytes) {
  uint8_t acc = 0;
  for (uint8_t b : bytes) acc = static_cast<uint8_t>(acc | b);
  return acc == 0;
}

// The secret key of 32 bytes, or SCALAR_OUT_OF_RANGE naming why not.
IdentityResult<crypto::SecretKey> secretKeyFromBytes(const crypto::Secp256k1Context& ctx,
                                                     std::span<const uint8_t, KEY_SIZE> bytes) {
  auto key = crypto::SecretKey::fromBytes(ctx, bytes);
  if (!key) {
    return IdentityError{IdentityErrorKind::SCALAR_OUT_OF_RANGE,
                         isZero(bytes) ? "secret key is zero, not a valid scalar"
                                       : "secret key is not below the curve order n, "
                                         "not a valid scalar"};
  }
  return std::move(*key);
}

IdentityResult<crypto::SecretKey> parseHexSecret(const crypto::Secp256k1Context& ctx,
                                                 std::string_view text) {
  if (text.size() % 2 != 0) {
    return IdentityError{IdentityErrorKind::BAD_HEX,
                         fmt::format("bad hex: odd length ({} characters)", text.size())};
  }
  for (size_t i = 0; i < text.size(); ++i) {
    if (!isHexDigit(text[i])) {
      return IdentityError{IdentityErrorKind::BAD_HEX,
                           fmt::format("bad hex: invalid character (code {}) at position {}",
                                       static_cast<unsigned char>(text[i]), i)};
    }
  }
  if (text.size() != 2 * KEY_SIZE) {
    return IdentityError{
        IdentityErrorKind::WRONG_LENGTH,
        fmt::format("wrong length: expected {} bytes, got {}", KEY_SIZE, text.size() / 2)};
  }
  crypto::Secret<KEY_SIZE> bytes;
  decodeHexInto(text, bytes.mutableBytes());
  return secretKeyFromBytes(ctx, bytes.bytes());
}

}  // namespace

std::string encodeNpub(const crypto::PublicKey& key) {
  return bech32Encode(NPUB_HRP, key.xOnly());
}

IdentityResult<crypto::PublicKey> decodeNpub(std::string_view text) {
  auto decoded = bech32Decode(text);
  if (!decoded.ok()) return decoded.error();
  const Bech32Decoded& npub = decoded.value();
  if (auto err = checkPayload(npub, NPUB_HRP)) return std::move(*err);
  auto key =
      crypto::PublicKey::fromXOnly(std::span<const uint8_t, KEY_SIZE>(npub.data.data(), KEY_SIZE));
  if (!key) {
    return IdentityError{IdentityErrorKind::NOT_ON_CURVE,
                         "x coordinate is not on the secp256k1 curve"};
  }
  return *key;
}

bool hasNpubPrefix(std::string_view text) {
  return text.starts_with("npub1") || text.starts_with("NPUB1");
}

SecretString encodeNsec(const crypto::SecretKey& key) {
  return SecretString(bech32Encode(NSEC_HRP, key.secret().bytes()));
}

IdentityResult<crypto::SecretKey> decodeNsec(const crypto::Secp256k1Context& ctx,
                                             std::string_view text) {
  auto decoded = bech32Decode(text);
  if (!decoded.ok()) return decoded.error();
  Bech32Decoded& nsec = decoded.value();
  WipeOnExit wipe(nsec.data);
  if (auto err = checkPayload(nsec, NSEC_HRP)) return std::move(*err);
  return secretKeyFromBytes(ctx, std::span<const uint8_t, KEY_SIZE>(nsec.data.data(), KEY_SIZE));
}

IdentityResult<crypto::SecretKey> parseSecretKey(const crypto::Secp256k1Context& ctx,
                                                 std::string_view text) {
  if (text.starts_with("nsec1")) return decodeNsec(ctx, text);
  if (hasNpubPrefix(text)) {
    return IdentityError{IdentityErrorKind::WRONG_HRP,
                         "this is an npub (a public key, as in fips.pub), not a secret key: "
                         "expected an nsec or 64 hex characters (fips.key)"};
  }
  auto key = parseHexSecret(ctx, text);
  if (!key.ok()) {
    return IdentityError{key.error().kind,
                         "not an nsec or 64 hex characters: " + key.error().message};
  }
  return key;
}

std::string shortNpub(const crypto::PublicKey& key) {
  std::string npub = encodeNpub(key);
  std::string_view data = std::string_view(npub).substr(NPUB_HRP.size() + 1);
  return fmt::format("npub1{}...{}", data.substr(0, 4), data.substr(data.size() - 4));
}

}  // namespace fips::identity
