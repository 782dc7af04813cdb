// SPDX-License-Identifier: MIT
// Received datagrams to the router in batches (see datagram-batcher.h).
#include "transports/worker/datagram-batcher.h"

#include <capnp/message.h>

#include "transport.capnp.h"

namespace fips::transport {

void DatagramBatcher::add(const privsep::SocketAddress& from, std::span<const uint8_t> payload) {
  if (!entries_.empty() && bytes_.size() + payload.size() > MAX_MESSAGE_PAYLOAD) flush();
  entries_.push_back({from, bytes_.size(), payload.size()});
  bytes_.insert(bytes_.end(), payload.begin(), payload.end());
}

void DatagramBatcher::flush() {
  if (entries_.empty()) return;
  capnp::MallocMessageBuilder msg;
  auto list =
      msg.initRoot<schema::TransportEvent>().initDatagrams(static_cast<unsigned>(entries_.size()));
  for (unsigned i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    privsep::toEndpoint(e.from, list[i].initPeer());
    list[i].setPayload(kj::arrayPtr(bytes_.data() + e.offset, e.length));
  }
  router_.send(msg);
  entries_.clear();
  bytes_.clear();
}

}  // namespace fips::transport
