// SPDX-License-Identifier: MIT
// Identity and user resolution for the supervisor (see identity-setup.h).
#include "privsep/supervisor/identity-setup.h"

#include <stdexcept>
#include <variant>

#include "privsep/log.h"

#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"
#include "lib/identity/resolve-identity.h"

namespace fips::privsep::supervisor {

namespace ident = fips::identity;

bool otherIdentity(const NodeIdentity& running, std::string_view nsec) {
  crypto::Secp256k1Context ctx;
  const auto key = ident::parseSecretKey(ctx, nsec);
  if (!key.ok()) return true;
  return ident::encodeNpub(key.value().publicKey()) != running.npub;
}

void prepareIdentityAndUser(SupervisorSettings& settings) {
  auto& cfg = settings.loaded.config;
  crypto::Secp256k1Context ctx;
  std::optional<std::string_view> nsec;
  if (cfg.node.identity.nsec) nsec = *cfg.node.identity.nsec;
  auto resolved =
      ident::resolveIdentity(ctx, nsec, cfg.node.identity.persistent, settings.loaded.keyDir);
  if (auto* error = std::get_if<std::string>(&resolved)) throw std::runtime_error(*error);
  auto& id = std::get<ident::ResolvedIdentity>(resolved);
  for (const auto& warning : id.warnings) spdlog::warn("{}", warning);
  auto pub = id.secretKey.publicKey();
  auto address = ident::FipsAddress::fromNodeAddr(ident::NodeAddr::fromPublicKey(pub));
  settings.identity.secret = id.secretKey.secret().clone();
  settings.identity.npub = ident::encodeNpub(pub);
  settings.identity.ipv6 = address.bytes();
  spdlog::info("identity {} ({})", settings.identity.npub, address.toString());
  config::wipeSecrets(cfg);

  bool fellBack = false;
  auto user = resolveUser(cfg.node.user, &fellBack);
  if (!user) throw std::runtime_error("user '" + cfg.node.user + "' does not exist (nor 'nobody')");
  if (fellBack) {
    spdlog::warn(
        "node.user: user '{}' does not exist: using 'nobody' (create it: useradd "
        "--system --no-create-home --shell /usr/sbin/nologin {})",
        cfg.node.user, cfg.node.user);
  }
  if (user->uid == 0) {
    throw std::runtime_error("node.user: '" + user->name +
                             "' is uid 0: fips-router and the transport workers must not run as "
                             "root (use an unprivileged user such as 'fips')");
  }
  settings.user = *user;
}

}  // namespace fips::privsep::supervisor
