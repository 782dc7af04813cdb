// SPDX-License-Identifier: MIT
// The pattern and protocol tables (see pattern.h). Runs in fips-router.
#include "router/noise/pattern.h"

namespace fips::router::noise {

using enum Token;

const HandshakePattern FIPS_IK_PATTERN{{
    {{E, ES, S, SS}, true},
    {{E, EE, ES}, true},
}};

const HandshakePattern FIPS_XK_PATTERN{{
    {{E, ES}, false},
    {{E, EE}, true},
    {{S, SE}, true},
}};

const HandshakePattern STANDARD_IK_PATTERN{{
    {{E, ES, S, SS}, true},
    {{E, EE, SE}, true},
}};

const HandshakePattern STANDARD_XK_PATTERN{{
    {{E, ES}, true},
    {{E, EE}, true},
    {{S, SE}, true},
}};

const NoiseProtocol FIPS_IK{"Noise_IK_secp256k1_ChaChaPoly_SHA256", &FIPS_IK_PATTERN, true, true,
                            false};
const NoiseProtocol FIPS_XK{"Noise_XK_secp256k1_ChaChaPoly_SHA256", &FIPS_XK_PATTERN, true, true,
                            false};
const NoiseProtocol STANDARD_IK_25519{"Noise_IK_25519_ChaChaPoly_SHA256", &STANDARD_IK_PATTERN,
                                      false, false, true};
const NoiseProtocol STANDARD_XK_25519{"Noise_XK_25519_ChaChaPoly_SHA256", &STANDARD_XK_PATTERN,
                                      false, false, true};

}  // namespace fips::router::noise
