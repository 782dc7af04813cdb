// SPDX-License-Identifier: MIT
// Start-up steps of the supervisor that touch the system: resolving the node
// identity (key files, spec 01 §4) and the unprivileged user. Runs in
// `fips` as root; inputs are the validated config and the key directory.
#pragma once

#include "privsep/supervisor/supervisor.h"

namespace fips::privsep::supervisor {

// Fills settings.identity (from node.identity.nsec, fips.key, or a new key)
// and settings.user (node.user, or "nobody" with a warning), then wipes the
// secrets the config holds. Throws std::runtime_error with a one-line
// reason (e.g. a key file that is a symlink, or cannot be written in
// persistent mode).
void prepareIdentityAndUser(SupervisorSettings& settings);

// Whether `nsec` (node.identity.nsec of a config re-read on SIGHUP) names a
// key other than the running identity; an unparsable one counts as other.
bool otherIdentity(const NodeIdentity& running, std::string_view nsec);

}  // namespace fips::privsep::supervisor
