// SPDX-License-Identifier: MIT
// One SenderReport and one ReceiverReport with distinct byte values, and the
// hex of their fields alone (spec 02 §9.1-§9.2, LE): the known answers shared
// by the link-report tests (router/fmp) and the session-report tests
// (router/fsp), which differ only in what precedes the fields. Test code only.
#pragma once

#include <string_view>

#include "router/fmp/link-reports.h"

namespace fips::router::fmp::test {

inline constexpr SenderReport SAMPLE_SENDER_REPORT{.intervalStartCounter = 0x0102030405060708ULL,
                                                   .intervalEndCounter = 0x1112131415161718ULL,
                                                   .intervalStartTimestamp = 0x21222324,
                                                   .intervalEndTimestamp = 0x31323334,
                                                   .intervalBytesSent = 0x41424344,
                                                   .cumulativePacketsSent = 0x5152535455565758ULL,
                                                   .cumulativeBytesSent = 0x6162636465666768ULL};

// The 44 field bytes of SAMPLE_SENDER_REPORT.
inline constexpr std::string_view SAMPLE_SENDER_FIELDS_HEX =
    "0807060504030201"   // interval_start_counter
    "1817161514131211"   // interval_end_counter
    "24232221"           // interval_start_timestamp
    "34333231"           // interval_end_timestamp
    "44434241"           // interval_bytes_sent
    "5857565554535251"   // cumulative_packets_sent
    "6867666564636261";  // cumulative_bytes_sent

inline constexpr ReceiverReport SAMPLE_RECEIVER_REPORT{
    .highestCounter = 0x0102030405060708ULL,
    .cumulativePacketsRecv = 0x1112131415161718ULL,
    .cumulativeBytesRecv = 0x2122232425262728ULL,
    .timestampEcho = 0x31323334,
    .dwellTime = 0x4142,
    .maxBurstLoss = 0x5152,
    .meanBurstLoss = 0x6162,
    .jitter = 0x71727374,
    .ecnCeCount = 0x81828384,
    .owdTrend = -123456,
    .burstLossCount = 0x91929394,
    .cumulativeReorderCount = 0xa1a2a3a4,
    .intervalPacketsRecv = 0xb1b2b3b4,
    .intervalBytesRecv = 0xc1c2c3c4};

// The 64 field bytes of SAMPLE_RECEIVER_REPORT.
inline constexpr std::string_view SAMPLE_RECEIVER_FIELDS_HEX =
    "0807060504030201"  // highest_counter
    "1817161514131211"  // cumulative_packets_recv
    "2827262524232221"  // cumulative_bytes_recv
    "34333231"          // timestamp_echo
    "4241"              // dwell_time
    "5251"              // max_burst_loss
    "6261"              // mean_burst_loss
    "0000"              // reserved
    "74737271"          // jitter
    "84838281"          // ecn_ce_count
    "c01dfeff"          // owd_trend -123456
    "94939291"          // burst_loss_count
    "a4a3a2a1"          // cumulative_reorder_count
    "b4b3b2b1"          // interval_packets_recv
    "c4c3c2c1";         // interval_bytes_recv

}  // namespace fips::router::fmp::test
