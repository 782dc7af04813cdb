// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the YAML spelling of every enum of the
// config, written once and used by the parser, the writer and the docs.
// Compile-time only; runs in the fips supervisor and fipsctl.
#pragma once

#include <span>
#include <string_view>

#include "privsep/config/config.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config {

template <typename E>
inline constexpr std::span<const EnumName<E>> ENUM_NAMES = {};

inline constexpr EnumName<NostrPolicy> NOSTR_POLICY_NAMES[] = {
    {"disabled", NostrPolicy::DISABLED},
    {"configured_only", NostrPolicy::CONFIGURED_ONLY},
    {"open", NostrPolicy::OPEN},
};
template <>
inline constexpr std::span<const EnumName<NostrPolicy>> ENUM_NAMES<NostrPolicy> =
    NOSTR_POLICY_NAMES;

inline constexpr EnumName<MmpMode> MMP_MODE_NAMES[] = {
    {"full", MmpMode::FULL},
    {"lightweight", MmpMode::LIGHTWEIGHT},
    {"minimal", MmpMode::MINIMAL},
};
template <>
inline constexpr std::span<const EnumName<MmpMode>> ENUM_NAMES<MmpMode> = MMP_MODE_NAMES;

inline constexpr EnumName<TorMode> TOR_MODE_NAMES[] = {
    {"socks5", TorMode::SOCKS5},
    {"control_port", TorMode::CONTROL_PORT},
    {"directory", TorMode::DIRECTORY},
};
template <>
inline constexpr std::span<const EnumName<TorMode>> ENUM_NAMES<TorMode> = TOR_MODE_NAMES;

inline constexpr EnumName<ConnectPolicy> CONNECT_POLICY_NAMES[] = {
    {"auto_connect", ConnectPolicy::AUTO_CONNECT},
    {"on_demand", ConnectPolicy::ON_DEMAND},
    {"manual", ConnectPolicy::MANUAL},
};
template <>
inline constexpr std::span<const EnumName<ConnectPolicy>> ENUM_NAMES<ConnectPolicy> =
    CONNECT_POLICY_NAMES;

inline constexpr EnumName<Proto> PROTO_NAMES[] = {
    {"tcp", Proto::TCP},
    {"udp", Proto::UDP},
};
template <>
inline constexpr std::span<const EnumName<Proto>> ENUM_NAMES<Proto> = PROTO_NAMES;

// The YAML name of `value`.
template <typename E>
constexpr std::string_view enumName(E value) {
  for (const EnumName<E>& n : ENUM_NAMES<E>) {
    if (n.value == value) return n.name;
  }
  return ENUM_NAMES<E>.front().name;
}

}  // namespace fips::privsep::config
