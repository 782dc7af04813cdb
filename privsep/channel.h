// SPDX-License-Identifier: MIT
// Channel: one end of a privsep boundary. A SOCK_SEQPACKET socket carrying
// one Cap'n Proto message per packet, with file descriptors attached via
// SCM_RIGHTS, driven by the process's libevent loop (OpenBSD imsg with a
// schema). Runs in every process. The peer is trusted only as far as the
// schema header of the boundary says: a malformed packet, an oversize
// message, too many fds or a capnp decoding error is fatal to this process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <capnp/message.h>
#include <kj/array.h>

#include "privsep/libevent.h"

#include "lib/unique-fd.h"

namespace fips::privsep {

// What a receiver accepts from its peer. Exceeding any limit is fatal.
struct ChannelLimits {
  size_t maxBytes = 64 * 1024;         // largest message, bytes
  size_t maxFds = 0;                   // fds per message from the peer
  uint64_t traversalWords = 8 * 1024;  // capnp traversal limit, words
};

// One end of a SEQPACKET channel. Not copyable or movable (libevent holds a
// pointer to it). Messages are sent in order; a send that would block is
// queued and flushed when the socket becomes writable.
class Channel {
 public:
  // Called once per received message with the decoded message and the fds
  // that rode along (already checked against ChannelLimits::maxFds). A
  // kj::Exception thrown while the handler reads the message (bad pointer,
  // traversal limit) is fatal, naming the channel.
  using MessageHandler = std::function<void(capnp::MessageReader&, std::vector<UniqueFd>&)>;
  // Called once when the peer closes its end (EOF or ECONNRESET), or after
  // a peer fault closed the channel (setOnPeerFault).
  using CloseHandler = std::function<void()>;
  // Called once with the reason of the first peer fault (setOnPeerFault).
  using PeerFaultHandler = std::function<void(const std::string& reason)>;

  // Takes ownership of `fd` (made non-blocking) and starts reading from it
  // on `base`. `name` is used in every log line ("router<-udp").
  Channel(EventBase& base, UniqueFd fd, std::string name, ChannelLimits limits,
          MessageHandler onMessage, CloseHandler onClose);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Pass as `wipe` to send(): the serialized copy is zeroed once sent.
  static constexpr bool WIPE_AFTER_SEND = true;

  // Serializes `message` and sends it, with `fd` attached if >= 0 (the fd
  // is duplicated: the caller keeps its own). With `wipe`, the serialized
  // copy is zeroed after sending (messages holding key material). A send
  // error other than EAGAIN closes the channel (onClose is called from the
  // loop).
  void send(capnp::MessageBuilder& message, int fd = -1, bool wipe = false);

  // Called from inside a MessageHandler: zero the received bytes once the
  // handler returns (for messages holding key material).
  void wipeReceivedMessage() { wipeAfterDispatch_ = true; }

  // For a peer whose loss this process survives (a transport worker): a
  // peer fault calls `onFault` with the reason and closes the channel (no
  // further message is read; onClose follows from the loop) instead of
  // ending the process.
  void setOnPeerFault(PeerFaultHandler onFault) { onPeerFault_ = std::move(onFault); }
  // Called from inside a MessageHandler: the message broke the boundary's
  // rules (out of state, over a limit). Fatal to this process unless a
  // peer-fault handler is set; the caller must not read the message further.
  void fault(const std::string& reason);

  // Messages waiting for the socket to become writable: a sender that
  // produces faster than its peer reads sees this grow, and must slow down
  // or drop (the queue itself is unbounded).
  size_t queued() const { return queue_.size(); }
  // Called (from the loop) each time the queue has been fully flushed.
  void setOnDrained(std::function<void()> onDrained) { onDrained_ = std::move(onDrained); }

  const std::string& name() const { return name_; }
  int fd() const { return fd_.get(); }
  // True once the peer closed or a send failed.
  bool closed() const { return closed_; }

 private:
  struct Outgoing {
    kj::Array<capnp::word> words;
    UniqueFd fd;
    bool wipe = false;
  };

  static void onEvent(int fd, short what, void* arg);
  void readAll();
  bool readOne();
  void dispatch(size_t bytes, std::vector<UniqueFd>& fds);
  bool flush();
  void markClosed();
  void armWrite(bool on);

  UniqueFd fd_;
  std::string name_;
  ChannelLimits limits_;
  MessageHandler onMessage_;
  CloseHandler onClose_;
  PeerFaultHandler onPeerFault_;
  std::function<void()> onDrained_;
  kj::Array<capnp::word> buffer_;
  std::deque<Outgoing> queue_;
  EventPtr readEvent_;
  EventPtr writeEvent_;
  EventPtr closeEvent_;
  bool closed_ = false;
  bool writeArmed_ = false;
  bool wipeAfterDispatch_ = false;
};

// Creates a SOCK_SEQPACKET socketpair (close-on-exec). Throws
// std::system_error on failure.
std::pair<UniqueFd, UniqueFd> makeChannelPair();

}  // namespace fips::privsep
