// SPDX-License-Identifier: MIT
// Tests for Channel over a real SEQPACKET socketpair in one process: messages
// and fds arrive intact and in order; every limit violation is fatal (checked
// in a forked child, which must _exit(1)).
#include "privsep/channel.h"

#include <cstring>
#include <fcntl.h>
#include <functional>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <doctest/doctest.h>

#include "privsep/log.h"

#include "supervisor.capnp.h"

using fips::UniqueFd;
using fips::privsep::Channel;
using fips::privsep::ChannelLimits;
using fips::privsep::EventBase;

namespace {

void buildLogLevel(capnp::MallocMessageBuilder& b, fips::schema::LogLevel level) {
  b.initRoot<fips::schema::SupervisorRequest>().setSetLogLevel(level);
}

// Runs `body` in a forked child with a receiving Channel on one end; `feed`
// writes raw packets into the other end. Returns the child's exit status.
int childExitStatus(ChannelLimits limits, const std::function<void(int)>& feed) {
  auto [a, b] = fips::privsep::makeChannelPair();
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    fips::privsep::initLogging("test", spdlog::level::off);
    EventBase base;
    Channel ch(
        base, std::move(a), "test", limits,
        [](capnp::MessageReader& r, std::vector<UniqueFd>&) {
          (void)r.getRoot<fips::schema::SupervisorRequest>().which();
        },
        [&] { base.loopExit(); });
    feed(b.get());
    b.reset();
    base.dispatch();
    ::_exit(0);
  }
  a.reset();
  b.reset();
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("messages and fds cross in order") {
  fips::privsep::initLogging("test", spdlog::level::off);
  auto [a, b] = fips::privsep::makeChannelPair();
  EventBase base;
  std::vector<fips::schema::LogLevel> got;
  int fdsSeen = 0;
  ChannelLimits limits;
  limits.maxFds = 1;
  Channel rx(
      base, std::move(a), "rx", limits,
      [&](capnp::MessageReader& r, std::vector<UniqueFd>& fds) {
        got.push_back(r.getRoot<fips::schema::SupervisorRequest>().getSetLogLevel());
        for (auto& fd : fds) {
          CHECK(fd.get() >= 0);
          CHECK((::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC) != 0);
          ++fdsSeen;
        }
        if (got.size() == 3) base.loopExit();
      },
      [] {});
  Channel tx(
      base, std::move(b), "tx", ChannelLimits{}, [](auto&, auto&) {}, [] {});
  UniqueFd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  for (auto level : {fips::schema::LogLevel::DEBUG, fips::schema::LogLevel::WARN,
                     fips::schema::LogLevel::ERROR}) {
    capnp::MallocMessageBuilder msg;
    buildLogLevel(msg, level);
    tx.send(msg, level == fips::schema::LogLevel::WARN ? devnull.get() : -1);
  }
  base.dispatch();
  REQUIRE(got.size() == 3);
  CHECK(got[0] == fips::schema::LogLevel::DEBUG);
  CHECK(got[1] == fips::schema::LogLevel::WARN);
  CHECK(got[2] == fips::schema::LogLevel::ERROR);
  CHECK(fdsSeen == 1);
}

TEST_CASE("peer close reaches the close handler") {
  fips::privsep::initLogging("test", spdlog::level::off);
  CHECK(childExitStatus(ChannelLimits{}, [](int) {}) == 0);
}

TEST_CASE("an oversize message is fatal") {
  ChannelLimits limits;
  limits.maxBytes = 64;
  CHECK(childExitStatus(limits, [](int fd) {
          std::vector<char> big(4096, 0);
          REQUIRE(::send(fd, big.data(), big.size(), 0) == 4096);
        }) == 1);
}

TEST_CASE("a message that is not whole words is fatal") {
  CHECK(childExitStatus(ChannelLimits{}, [](int fd) {
          char odd[5] = {0, 0, 0, 0, 1};
          REQUIRE(::send(fd, odd, sizeof(odd), 0) == 5);
        }) == 1);
}

TEST_CASE("garbage that is not a capnp message is fatal") {
  CHECK(childExitStatus(ChannelLimits{}, [](int fd) {
          unsigned char junk[16];
          std::memset(junk, 0xff, sizeof(junk));
          REQUIRE(::send(fd, junk, sizeof(junk), 0) == 16);
        }) == 1);
}

TEST_CASE("an fd from a peer allowed none is fatal") {
  CHECK(childExitStatus(ChannelLimits{}, [](int fd) {
          capnp::MallocMessageBuilder msg;
          buildLogLevel(msg, fips::schema::LogLevel::INFO);
          auto words = capnp::messageToFlatArray(msg);
          auto bytes = words.asBytes();
          iovec iov{bytes.begin(), bytes.size()};
          alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
          msghdr m{};
          m.msg_iov = &iov;
          m.msg_iovlen = 1;
          m.msg_control = control;
          m.msg_controllen = sizeof(control);
          cmsghdr* c = CMSG_FIRSTHDR(&m);
          c->cmsg_level = SOL_SOCKET;
          c->cmsg_type = SCM_RIGHTS;
          c->cmsg_len = CMSG_LEN(sizeof(int));
          int in = 0;
          std::memcpy(CMSG_DATA(c), &in, sizeof(int));
          REQUIRE(::sendmsg(fd, &m, 0) > 0);
        }) == 1);
}

TEST_CASE("a traversal-limit overrun is fatal") {
  ChannelLimits limits;
  limits.traversalWords = 2;
  CHECK(childExitStatus(limits, [](int fd) {
          capnp::MallocMessageBuilder msg;
          auto req = msg.initRoot<fips::schema::SupervisorRequest>();
          req.setAttachTransport(std::string(256, 'x'));
          auto words = capnp::messageToFlatArray(msg);
          auto bytes = words.asBytes();
          REQUIRE(::send(fd, bytes.begin(), bytes.size(), 0) > 0);
        }) == 1);
}
