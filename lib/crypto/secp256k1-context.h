// SPDX-License-Identifier: MIT
// RAII owner of a libsecp256k1 context, randomized for side-channel blinding.
// One per process, created in main (or a test) and passed by reference.
#pragma once

#include <memory>

#include <secp256k1.h>

namespace fips::crypto {

// Owns a secp256k1_context able to sign and verify. Not copyable or movable.
class Secp256k1Context {
 public:
  // Creates and randomizes the context (32 bytes from RAND_bytes).
  // Throws std::runtime_error if the context cannot be created.
  Secp256k1Context();
  ~Secp256k1Context();
  Secp256k1Context(const Secp256k1Context&) = delete;
  Secp256k1Context& operator=(const Secp256k1Context&) = delete;

  const secp256k1_context* get() const { return ctx_; }

 private:
  secp256k1_context* ctx_;
};

}  // namespace fips::crypto
