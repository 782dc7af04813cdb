// SPDX-License-Identifier: MIT
// tor-control-probe: the Tor transport's control-port client
// (transports/tor/tor-control-client.h) as a command, for the integration
// tests against a real tor. Test tool, not installed.
//
//   tor-control-probe CONTROL AUTH status
//       prints the status GETINFOs as key=value lines
//   tor-control-probe CONTROL AUTH add-onion KEY_FILE PORT_SPEC [--detach] [--hold-ms N]
//       ADD_ONION with the key saved in KEY_FILE (made on first use); prints
//       "onion=<id>.onion" and "key=created|reused", then keeps the control
//       connection (and so a non-detached service) for N ms
//
// CONTROL: ADDR:PORT or a socket path; AUTH: cookie, cookie:/path, password:x.
// Exit 0: done; 1: tor refused or failed (reason on stderr); 2: usage.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "transports/tor/tor-control-client.h"

using namespace fips::transport::tor;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: tor-control-probe CONTROL AUTH status\n"
               "       tor-control-probe CONTROL AUTH add-onion KEY_FILE PORT_SPEC [--detach] "
               "[--hold-ms N]\n");
  return 2;
}

int failed(const std::string& why) {
  std::fprintf(stderr, "tor-control-probe: %s\n", why.c_str());
  return 1;
}

int printStatus(TorControlClient& client) {
  auto status = client.status();
  if (!status) return failed(client.error());
  if (status->bootstrap) {
    std::printf("bootstrap=%d\nbootstrap_tag=%s\n", status->bootstrap->progress,
                status->bootstrap->tag.c_str());
  }
  std::printf("circuit_established=%d\ntraffic_read=%llu\ntraffic_written=%llu\n",
              status->circuitEstablished ? 1 : 0,
              static_cast<unsigned long long>(status->trafficRead),
              static_cast<unsigned long long>(status->trafficWritten));
  std::printf("network_liveness=%s\nversion=%s\ndormant=%d\n", status->networkLiveness.c_str(),
              status->version.c_str(), status->dormant ? 1 : 0);
  for (const auto& l : status->socksListeners) std::printf("socks_listener=%s\n", l.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return usage();
  const auto auth = parseControlAuth(argv[2]);
  if (!auth) return usage();
  const std::string_view action = argv[3];
  std::string error;
  auto client = TorControlClient::connect(argv[1], std::chrono::seconds(10), error);
  if (!client) return failed(error);
  if (auto why = client->authenticate(*auth); !why.empty()) return failed(why);
  if (action == "status" && argc == 4) return printStatus(*client);
  if (action != "add-onion" || argc < 6) return usage();
  bool detach = false;
  long holdMs = 0;
  for (int i = 6; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--detach") {
      detach = true;
    } else if (arg == "--hold-ms" && i + 1 < argc) {
      holdMs = std::strtol(argv[++i], nullptr, 10);
    } else {
      return usage();
    }
  }
  auto service = addOnionWithSavedKey(*client, argv[4], {argv[5]}, detach);
  if (!service.error.empty()) return failed(service.error);
  std::printf("onion=%s\nkey=%s\n", service.hostname().c_str(),
              service.keyCreated ? "created" : "reused");
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
  return 0;
}
