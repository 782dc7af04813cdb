// SPDX-License-Identifier: MIT
// DNS message codec (see dns-message.h). Runs in fips-router on datagrams
// from local clients: every read is bounds-checked through Reader.
#include "router/dns/dns-message.h"

#include <algorithm>
#include <map>

namespace fips::router::dns {

namespace {

constexpr size_t HEADER_SIZE = 12;
constexpr size_t MAX_LABEL = 63;
constexpr size_t MAX_NAME = 255;
constexpr uint16_t RESERVED_Z = 0x0040;
constexpr size_t MAX_POINTER_OFFSET = 0x3fff;

// The record types simple-dns 0.11 knows; a question for any other type is
// refused by its parser (the packet gets no reply).
constexpr uint16_t KNOWN_TYPES[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  13,  14,
                                    15, 16, 17, 18, 19, 20, 21, 22, 23, 28, 29, 33,  35,  36,
                                    37, 41, 43, 45, 46, 47, 48, 49, 63, 64, 65, 108, 109, 257};

bool knownQtype(uint16_t t) {
  if (t >= 251 && t <= 255) return true;  // IXFR, AXFR, MAILB, MAILA, ANY
  return std::find(std::begin(KNOWN_TYPES), std::end(KNOWN_TYPES), t) != std::end(KNOWN_TYPES);
}

bool knownClass(uint16_t c) {
  return (c >= 1 && c <= 4) || c == 254;
}

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> data) : data_(data) {}

  size_t pos() const { return pos_; }
  void seek(size_t pos) { pos_ = pos; }
  bool u8(uint8_t& v) {
    if (pos_ + 1 > data_.size()) return false;
    v = data_[pos_++];
    return true;
  }
  bool u16(uint16_t& v) {
    if (pos_ + 2 > data_.size()) return false;
    v = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return true;
  }
  bool u32(uint32_t& v) {
    uint16_t hi = 0;
    uint16_t lo = 0;
    if (!u16(hi) || !u16(lo)) return false;
    v = (static_cast<uint32_t>(hi) << 16) | lo;
    return true;
  }
  bool bytes(size_t n, std::span<const uint8_t>& out) {
    if (n > data_.size() - pos_) return false;
    out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

// Reads labels up to a zero byte or a pointer; returns the pointer target in
// *pointer (or leaves it empty). `total` counts 1 + length per label.
std::optional<DnsError> readLabels(Reader& r, DnsName& name, size_t& total,
                                   std::optional<size_t>& pointer) {
  for (;;) {
    uint8_t len = 0;
    if (!r.u8(len)) return DnsError::TRUNCATED;
    if (len == 0) return std::nullopt;
    if ((len & 0xc0) == 0xc0) {
      uint8_t low = 0;
      if (!r.u8(low)) return DnsError::TRUNCATED;
      size_t target = (static_cast<size_t>(len & 0x3f) << 8) | low;
      // Strictly before the pointer itself: no loops, no forward references.
      if (target >= r.pos() - 2) return DnsError::BAD_POINTER;
      pointer = target;
      return std::nullopt;
    }
    total += 1 + len;
    if (total >= MAX_NAME) return DnsError::NAME_TOO_LONG;
    if (len > MAX_LABEL) return DnsError::BAD_LABEL;
    std::span<const uint8_t> label;
    if (!r.bytes(len, label)) return DnsError::TRUNCATED;
    name.labels.emplace_back(label.begin(), label.end());
  }
}

std::optional<DnsError> readName(Reader& r, DnsName& name) {
  size_t total = 0;
  std::optional<size_t> pointer;
  if (auto e = readLabels(r, name, total, pointer)) return e;
  const size_t resume = r.pos();
  while (pointer) {
    r.seek(*pointer);
    pointer.reset();
    if (auto e = readLabels(r, name, total, pointer)) return e;
  }
  r.seek(resume);
  return std::nullopt;
}

std::optional<DnsError> readQuestion(Reader& r, DnsQuestion& q) {
  if (auto e = readName(r, q.name)) return e;
  if (!r.u16(q.qtype) || !r.u16(q.qclass)) return DnsError::TRUNCATED;
  if (!knownQtype(q.qtype)) return DnsError::UNKNOWN_QTYPE;
  const uint16_t c = static_cast<uint16_t>(q.qclass & 0x7fff);
  if (!knownClass(c) && c != 255) return DnsError::UNKNOWN_CLASS;
  return std::nullopt;
}

std::optional<DnsError> readRecord(Reader& r, DnsRecord& rr) {
  if (auto e = readName(r, rr.owner)) return e;
  uint16_t rdlength = 0;
  if (!r.u16(rr.type) || !r.u16(rr.rclass) || !r.u32(rr.ttl) || !r.u16(rdlength)) {
    return DnsError::TRUNCATED;
  }
  std::span<const uint8_t> rdata;
  if (!r.bytes(rdlength, rdata)) return DnsError::TRUNCATED;
  rr.rdata.assign(rdata.begin(), rdata.end());
  // OPT's class is the sender's UDP payload size, not a class.
  if (rr.type != DNS_TYPE_OPT && !knownClass(static_cast<uint16_t>(rr.rclass & 0x7fff))) {
    return DnsError::UNKNOWN_CLASS;
  }
  return std::nullopt;
}

std::optional<DnsError> readRecords(Reader& r, uint16_t count, std::vector<DnsRecord>& out) {
  for (uint16_t i = 0; i < count; ++i) {
    DnsRecord rr;
    if (auto e = readRecord(r, rr)) return e;
    out.push_back(std::move(rr));
  }
  return std::nullopt;
}

class Writer {
 public:
  void u16(uint16_t v) {
    out_.push_back(static_cast<uint8_t>(v >> 8));
    out_.push_back(static_cast<uint8_t>(v));
  }
  void u32(uint32_t v) {
    u16(static_cast<uint16_t>(v >> 16));
    u16(static_cast<uint16_t>(v));
  }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }

  // Compresses against every suffix written so far (first occurrence wins).
  void name(const DnsName& n) {
    for (size_t i = 0; i < n.labels.size(); ++i) {
      std::vector<std::string> suffix(n.labels.begin() + static_cast<std::ptrdiff_t>(i),
                                      n.labels.end());
      auto it = seen_.find(suffix);
      if (it != seen_.end()) {
        u16(static_cast<uint16_t>(0xc000 | it->second));
        return;
      }
      if (out_.size() <= MAX_POINTER_OFFSET) {
        seen_.emplace(std::move(suffix), static_cast<uint16_t>(out_.size()));
      }
      const std::string& label = n.labels[i];
      out_.push_back(static_cast<uint8_t>(label.size()));
      out_.insert(out_.end(), label.begin(), label.end());
    }
    out_.push_back(0);
  }
  void record(const DnsRecord& rr) {
    name(rr.owner);
    u16(rr.type);
    u16(rr.rclass);
    u32(rr.ttl);
    u16(static_cast<uint16_t>(rr.rdata.size()));
    bytes(rr.rdata);
  }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
  std::map<std::vector<std::string>, uint16_t> seen_;
};

}  // namespace

const char* dnsErrorName(DnsError error) {
  switch (error) {
    case DnsError::TRUNCATED:
      return "truncated";
    case DnsError::RESERVED_FLAG:
      return "reserved header flag set";
    case DnsError::BAD_LABEL:
      return "bad label length";
    case DnsError::NAME_TOO_LONG:
      return "name too long";
    case DnsError::BAD_POINTER:
      return "bad compression pointer";
    case DnsError::UNKNOWN_QTYPE:
      return "unknown question type";
    case DnsError::UNKNOWN_CLASS:
      return "unknown class";
  }
  return "?";
}

std::string DnsName::toText() const {
  std::string text;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) text += '.';
    text += labels[i];
  }
  return text;
}

DnsName DnsName::fromText(std::string_view text) {
  DnsName name;
  size_t start = 0;
  while (start <= text.size()) {
    size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) dot = text.size();
    if (dot > start) name.labels.emplace_back(text.substr(start, dot - start));
    start = dot + 1;
  }
  return name;
}

DnsDecodeResult decodeDnsMessage(std::span<const uint8_t> datagram) {
  if (datagram.size() < HEADER_SIZE) return DnsError::TRUNCATED;
  Reader r(datagram);
  DnsMessage m;
  uint16_t counts[4] = {};
  r.u16(m.id);
  r.u16(m.flags);
  for (auto& c : counts) r.u16(c);
  if ((m.flags & RESERVED_Z) != 0) return DnsError::RESERVED_FLAG;
  for (uint16_t i = 0; i < counts[0]; ++i) {
    DnsQuestion q;
    if (auto e = readQuestion(r, q)) return *e;
    m.questions.push_back(std::move(q));
  }
  if (auto e = readRecords(r, counts[1], m.answers)) return *e;
  if (auto e = readRecords(r, counts[2], m.authority)) return *e;
  if (auto e = readRecords(r, counts[3], m.additional)) return *e;
  return m;
}

std::vector<uint8_t> encodeDnsMessage(const DnsMessage& message) {
  Writer w;
  w.u16(message.id);
  w.u16(message.flags);
  w.u16(static_cast<uint16_t>(message.questions.size()));
  w.u16(static_cast<uint16_t>(message.answers.size()));
  w.u16(static_cast<uint16_t>(message.authority.size()));
  w.u16(static_cast<uint16_t>(message.additional.size()));
  for (const auto& q : message.questions) {
    w.name(q.name);
    w.u16(q.qtype);
    w.u16(q.qclass);
  }
  for (const auto* section : {&message.answers, &message.authority, &message.additional}) {
    for (const auto& rr : *section) w.record(rr);
  }
  return w.take();
}

}  // namespace fips::router::dns
