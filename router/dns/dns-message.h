// SPDX-License-Identifier: MIT
// The DNS message codec of the `.fips` responder (RFC 1035 §4, with the
// acceptance rules of the reference's parser, simple-dns 0.11: spec 05 §4).
// Runs in fips-router; decodes datagrams from any local client (untrusted):
// never throws, never reads past the input, returns a typed error instead.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/result.h"

namespace fips::router::dns {

// Why a datagram is not a DNS message the reference would parse (no reply).
enum class DnsError {
  TRUNCATED,      // a field runs past the end of the datagram
  RESERVED_FLAG,  // the header's Z bit (0x0040) is set
  BAD_LABEL,      // label length 64..191 (neither a label nor a pointer)
  NAME_TOO_LONG,  // the labels add up to 255 bytes or more
  BAD_POINTER,    // a compression pointer that does not point backwards
  UNKNOWN_QTYPE,  // a question type the reference's parser does not know
  UNKNOWN_CLASS,  // a class other than IN, CS, CH, HS, NONE (ANY in questions)
};

const char* dnsErrorName(DnsError error);

// Header flag bits (RFC 1035 §4.1.1), network order once written.
inline constexpr uint16_t DNS_FLAG_QR = 0x8000;
inline constexpr uint16_t DNS_FLAG_AA = 0x0400;
inline constexpr uint16_t DNS_FLAG_RD = 0x0100;
inline constexpr uint16_t DNS_OPCODE_MASK = 0x7800;
inline constexpr uint16_t DNS_RCODE_MASK = 0x000f;
inline constexpr uint16_t DNS_RCODE_NXDOMAIN = 3;
inline constexpr uint16_t DNS_TYPE_SOA = 6;
inline constexpr uint16_t DNS_TYPE_AAAA = 28;
inline constexpr uint16_t DNS_TYPE_OPT = 41;
inline constexpr uint16_t DNS_CLASS_IN = 1;

// A domain name as its raw labels (1..63 bytes each, any byte values),
// decompressed. The root name has no labels.
struct DnsName {
  std::vector<std::string> labels;

  // The labels joined with '.', no trailing dot and no escaping (the
  // reference's Name::to_string; bytes are kept as they are).
  std::string toText() const;
  // Splits text at '.' skipping empty pieces (the reference's
  // Name::new_unchecked).
  static DnsName fromText(std::string_view text);

  bool operator==(const DnsName&) const = default;
};

struct DnsQuestion {
  DnsName name;
  uint16_t qtype = 0;
  uint16_t qclass = 0;  // as on the wire, mDNS unicast bit (0x8000) included

  bool operator==(const DnsQuestion&) const = default;
};

// A resource record; rdata is kept as the bytes it was received with.
struct DnsRecord {
  DnsName owner;
  uint16_t type = 0;
  uint16_t rclass = 0;  // as on the wire
  uint32_t ttl = 0;     // seconds
  std::vector<uint8_t> rdata;

  bool operator==(const DnsRecord&) const = default;
};

// A whole message. `flags` is the header's second 16-bit word.
struct DnsMessage {
  uint16_t id = 0;
  uint16_t flags = 0;
  std::vector<DnsQuestion> questions;
  std::vector<DnsRecord> answers;
  std::vector<DnsRecord> authority;
  std::vector<DnsRecord> additional;

  bool operator==(const DnsMessage&) const = default;
};

using DnsDecodeResult = Result<DnsMessage, DnsError>;

// Decodes a DNS message: header, then every record of every section the
// header counts. Bytes after the last record are ignored, as the reference
// does. Names may use backward compression pointers.
DnsDecodeResult decodeDnsMessage(std::span<const uint8_t> datagram);

// Encodes with name compression of owner and question names (a suffix is
// replaced by a pointer to its first occurrence at an offset < 0x4000, labels
// compared byte for byte, as the reference's writer does). rdata is copied
// as it is. Section counts come from the vectors (at most 65535 each).
std::vector<uint8_t> encodeDnsMessage(const DnsMessage& message);

}  // namespace fips::router::dns
