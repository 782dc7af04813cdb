#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what fips-cpp needs to build and test on Debian 12 (as root), and
# the system user `fips` that the router and transport workers run as.
set -euo pipefail

PACKAGES=(
  meson ninja-build pkg-config g++ clang libclang-rt-14-dev python3
  libevent-dev libssl-dev libsecp256k1-dev capnproto libcapnp-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev libnftnl-dev libmnl-dev
  doctest-dev libcli11-dev nlohmann-json3-dev libseccomp-dev libcap-ng-dev
  libldns-dev libncurses-dev
  iproute2 nftables procps kmod bind9-dnsutils
  iputils-ping curl iperf3 tcpdump tmux
  socat jq ccache ethtool tor microsocks
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -q >/dev/null
    apt-get install -y -q "${missing[@]}" >/dev/null
  }
fi

if ! getent passwd fips >/dev/null; then
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin fips
  echo "created system user fips"
fi

# Debian's tor package enables tor.service, which dials the public Tor
# network. The tests start their own tor inside a namespace with no route
# out and never need it: on a host where systemd runs, stop and disable it.
if [ -d /run/systemd/system ] && systemctl is-enabled --quiet tor.service 2>/dev/null; then
  systemctl disable --now tor.service tor@default.service >/dev/null 2>&1 || true
  echo "disabled tor.service (the tests run their own tor, offline)"
fi
