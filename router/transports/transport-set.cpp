// SPDX-License-Identifier: MIT
// fips-router's transport workers (see transport-set.h).
#include "router/transports/transport-set.h"

#include <algorithm>

#include <capnp/message.h>

#include "privsep/host-name.h"
#include "privsep/log.h"

namespace fips::router {

namespace {

privsep::ChannelLimits workerLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 256 * 1024;  // a batch of 64 datagrams of up to 2 KiB, plus framing
  limits.maxFds = 0;
  limits.traversalWords = 64 * 1024;
  return limits;
}

// Datagrams and payload bytes per TransportRequest.send message: each
// message must fit one SEQPACKET send (about 208 KiB of socket buffer) and
// the worker's 256 KiB receive cap.
constexpr size_t MAX_BATCH = 64;
constexpr size_t MAX_MESSAGE_PAYLOAD = 96 * 1024;
// Messages in flight to a worker beyond which new batches are dropped.
constexpr size_t MAX_QUEUED_MESSAGES = 64;
// Datagrams kept per transport while its worker is not bound.
constexpr size_t MAX_WAITING = 256;

// "192.0.2.1:2121" or "[2001:db8::1]:2121" (the worker's own bind, so only
// shaped here, never trusted to name a peer).
std::string describeEndpoint(schema::Endpoint::Reader endpoint) {
  auto ip = endpoint.getIp();
  auto addr = link::TransportAddr::make(0, std::span<const uint8_t>(ip.begin(), ip.size()),
                                        endpoint.getPort(), endpoint.getScopeId());
  return addr ? link::toText(*addr) : std::string("?");
}

}  // namespace

std::vector<TransportInfo> TransportSet::workers() const {
  std::vector<TransportInfo> out;
  for (const auto& [id, worker] : workers_) out.push_back(worker->info);
  return out;
}

std::optional<uint32_t> TransportSet::boundId(const std::string& name) const {
  auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  auto worker = workers_.find(it->second);
  if (worker == workers_.end() || worker->second->state != Worker::State::BOUND)
    return std::nullopt;
  return it->second;
}

std::string TransportSet::nameOf(uint32_t id) const {
  for (const auto& [name, known] : ids_) {
    if (known == id) return name;
  }
  return "";
}

TransportSet::TransportSet(privsep::EventBase& base, DatagramHandler onDatagram)
    : base_(base), onDatagram_(std::move(onDatagram)) {}

uint32_t TransportSet::idFor(const std::string& name) {
  auto [it, added] = ids_.try_emplace(name, static_cast<uint32_t>(ids_.size() + 1));
  return it->second;
}

void TransportSet::attach(const std::string& name, UniqueFd fd) {
  auto worker = std::make_unique<Worker>();
  worker->name = name;
  worker->id = idFor(name);
  worker->info.id = worker->id;
  worker->info.name = name;
  Worker* raw = worker.get();
  worker->channel = std::make_unique<privsep::Channel>(
      base_, std::move(fd), "router<-" + name, workerLimits(),
      [this, raw](capnp::MessageReader& r, std::vector<UniqueFd>&) { onEvent(*raw, r); },
      [this, raw] { onDetached(*raw); });
  // transport.capnp: a worker message that breaks the boundary's rules
  // closes that worker (it exits on EOF and the supervisor restarts it);
  // the router and the links over other transports carry on.
  raw->channel->setOnPeerFault([this, raw](const std::string& reason) {
    ++counters_.workerFaults;
    spdlog::error("router<-{}: {}: closing the worker's channel", raw->name, reason);
  });
  workers_[raw->id] = std::move(worker);
}

void TransportSet::onDetached(Worker& worker) {
  spdlog::info("transport {} detached", worker.name);
  const uint32_t id = worker.id;
  const std::set<uint32_t> unanswered = std::move(worker.resolving);
  auto it = workers_.find(id);
  if (it != workers_.end() && it->second.get() == &worker) workers_.erase(it);
  // `worker` may be gone now; only the copies above are used.
  for (uint32_t request : unanswered) {
    if (onResolved_) onResolved_(id, request, {}, "the transport worker went away");
  }
}

void TransportSet::onEvent(Worker& worker, capnp::MessageReader& reader) {
  auto event = reader.getRoot<schema::TransportEvent>();
  if (!worker.allow.admit(event.which(), static_cast<uint32_t>(worker.state))) {
    return worker.channel->fault(fmt::format("message {} not allowed in state {}",
                                             static_cast<int>(event.which()),
                                             static_cast<int>(worker.state)));
  }
  switch (event.which()) {
    case schema::TransportEvent::BOUND:
      worker.state = Worker::State::BOUND;
      worker.info.bound = true;
      for (auto endpoint : event.getBound().getLocal()) {
        worker.info.localAddrs.push_back(describeEndpoint(endpoint));
      }
      spdlog::info("transport {} bound ({} address(es))", worker.name,
                   event.getBound().getLocal().size());
      sendResolves(worker);
      flush();
      break;
    case schema::TransportEvent::DATAGRAMS:
      onDatagrams(worker, event.getDatagrams());
      break;
    case schema::TransportEvent::STATS: {
      auto stats = event.getStats();
      counters_.kernelDrops += stats.getKernelDrops() - worker.info.kernelDrops;
      worker.info.kernelDrops = stats.getKernelDrops();
      worker.info.workerRx = stats.getRxDatagrams();
      worker.info.workerTx = stats.getTxDatagrams();
      worker.info.sendErrors = stats.getSendErrors();
      onNamedCounters(worker, stats.getCounters());
      break;
    }
    case schema::TransportEvent::RESOLVED:
      onResolved(worker, event.getResolved());
      break;
    case schema::TransportEvent::PATH_MTU:
      onPathMtu(worker, event.getPathMtu());
      break;
  }
}

void TransportSet::onNamedCounters(Worker& worker,
                                   capnp::List<schema::NamedCounter>::Reader counters) {
  if (counters.size() > MAX_NAMED_COUNTERS) {
    privsep::fatal("router<-{}: stats with {} named counters", worker.name, counters.size());
  }
  worker.info.counters.clear();
  for (auto counter : counters) {
    const std::string name = counter.getName();
    const bool ok = !name.empty() && name.size() <= MAX_COUNTER_NAME &&
                    std::all_of(name.begin(), name.end(), [](char ch) {
                      return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
                    });
    if (!ok) privsep::fatal("router<-{}: stats with a malformed counter name", worker.name);
    worker.info.counters.emplace_back(name, counter.getValue());
  }
}

void TransportSet::onPathMtu(Worker& worker, schema::TransportEvent::PathMtu::Reader report) {
  auto endpoint = report.getPeer();
  auto ip = endpoint.getIp();
  auto peer = link::TransportAddr::make(worker.id, std::span<const uint8_t>(ip.begin(), ip.size()),
                                        endpoint.getPort(), endpoint.getScopeId());
  if (!peer) return worker.channel->fault("pathMtu with a malformed endpoint");
  if (onPathMtu_) onPathMtu_(*peer, report.getMtu());
}

void TransportSet::onResolved(Worker& worker, schema::TransportEvent::Resolved::Reader resolved) {
  const uint32_t id = resolved.getId();
  // A faulty answer leaves the id outstanding: onDetached answers it.
  if (!worker.resolving.contains(id)) {
    return worker.channel->fault(fmt::format("resolved {} answers no request", id));
  }
  auto list = resolved.getAddrs();
  if (list.size() > privsep::MAX_RESOLVED_ADDRS ||
      resolved.getError().size() > privsep::MAX_RESOLVE_ERROR) {
    return worker.channel->fault(fmt::format("resolved {} over its limits", id));
  }
  std::vector<link::TransportAddr> addrs;
  for (auto endpoint : list) {
    auto ip = endpoint.getIp();
    auto addr =
        link::TransportAddr::make(worker.id, std::span<const uint8_t>(ip.begin(), ip.size()),
                                  endpoint.getPort(), endpoint.getScopeId());
    if (!addr) {
      return worker.channel->fault(fmt::format("resolved {} has a malformed endpoint", id));
    }
    addrs.push_back(*addr);
  }
  worker.resolving.erase(id);
  if (onResolved_) onResolved_(worker.id, id, std::move(addrs), resolved.getError());
}

bool TransportSet::resolve(uint32_t transportId, uint32_t id, const std::string& host,
                           uint16_t port) {
  auto& waiting = pendingResolves_[transportId];
  auto it = workers_.find(transportId);
  const size_t outstanding =
      waiting.size() + (it == workers_.end() ? 0 : it->second->resolving.size());
  if (outstanding >= privsep::MAX_RESOLVES_IN_FLIGHT) return false;
  waiting.push_back({id, host, port});
  if (it != workers_.end()) sendResolves(*it->second);
  return true;
}

void TransportSet::sendResolves(Worker& worker) {
  if (worker.state != Worker::State::BOUND) return;
  auto& waiting = pendingResolves_[worker.id];
  for (const auto& request : waiting) {
    capnp::MallocMessageBuilder msg;
    auto resolve = msg.initRoot<schema::TransportRequest>().initResolve();
    resolve.setId(request.id);
    resolve.setHost(request.host);
    resolve.setPort(request.port);
    worker.channel->send(msg);
    worker.resolving.insert(request.id);
  }
  waiting.clear();
}

void TransportSet::onDatagrams(Worker& worker, capnp::List<schema::Datagram>::Reader batch) {
  for (auto datagram : batch) {
    auto peer = datagram.getPeer();
    auto ip = peer.getIp();
    auto from =
        link::TransportAddr::make(worker.id, std::span<const uint8_t>(ip.begin(), ip.size()),
                                  peer.getPort(), peer.getScopeId());
    if (!from) return worker.channel->fault("datagram with a malformed endpoint");
    auto payload = datagram.getPayload();
    ++counters_.datagramsIn;
    ++worker.info.packetsIn;
    worker.info.bytesIn += payload.size();
    onDatagram_(*from, std::span<const uint8_t>(payload.begin(), payload.size()));
  }
  flush();
}

void TransportSet::queue(const link::TransportAddr& to, std::span<const uint8_t> payload,
                         bool probe) {
  pending_[to.transportId].push_back(
      {to, std::vector<uint8_t>(payload.begin(), payload.end()), probe});
}

void TransportSet::flush() {
  for (auto& [id, batch] : pending_) {
    if (batch.empty()) continue;
    auto it = workers_.find(id);
    if (it == workers_.end() || it->second->state != Worker::State::BOUND) {
      // Not up yet (start-up, or a worker restarting): keep the newest few so
      // that a first msg1 leaves as soon as the worker has bound.
      if (batch.size() > MAX_WAITING) {
        counters_.droppedNoTransport += batch.size() - MAX_WAITING;
        batch.erase(batch.begin(), batch.end() - static_cast<std::ptrdiff_t>(MAX_WAITING));
      }
      continue;
    }
    if (it->second->channel->queued() >= MAX_QUEUED_MESSAGES) {
      // The worker is not keeping up: drop rather than queue without bound.
      counters_.droppedBackpressure += batch.size();
      batch.clear();
      continue;
    }
    for (size_t first = 0; first < batch.size();) {
      size_t end = first;
      size_t bytes = 0;
      while (end < batch.size() && end - first < MAX_BATCH &&
             (end == first || bytes + batch[end].payload.size() <= MAX_MESSAGE_PAYLOAD)) {
        bytes += batch[end].payload.size();
        ++end;
      }
      capnp::MallocMessageBuilder msg;
      auto list =
          msg.initRoot<schema::TransportRequest>().initSend(static_cast<unsigned>(end - first));
      for (size_t i = first; i < end; ++i) {
        const Outgoing& out = batch[i];
        auto entry = list[static_cast<unsigned>(i - first)];
        auto peer = entry.initPeer();
        peer.setIp(kj::arrayPtr(out.to.ip.data(), out.to.ipLen));
        peer.setPort(out.to.port);
        peer.setScopeId(out.to.scopeId);
        entry.setPayload(kj::arrayPtr(out.payload.data(), out.payload.size()));
        if (out.probe) entry.setProbe(true);
      }
      it->second->channel->send(msg);
      it->second->info.packetsOut += end - first;
      it->second->info.bytesOut += bytes;
      first = end;
    }
    counters_.datagramsOut += batch.size();
    batch.clear();
  }
}

}  // namespace fips::router
