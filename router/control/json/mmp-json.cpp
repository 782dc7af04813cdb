// SPDX-License-Identifier: MIT
// show_mmp and the MMP/traffic blocks of show_peers|links (see mmp-json.h).
#include "router/control/json/mmp-json.h"

#include "router/control/json/snapshot-text.h"

namespace fips::router::control::json {

bool hasLqi(schema::LinkMmp::Reader m) {
  return m.getHasSrtt() && m.getHasSmoothedEtx();
}
double lqi(schema::LinkMmp::Reader m) {
  return m.getSmoothedEtx() * (1.0 + m.getSrttMs() / 100.0);
}

namespace {

void addTrend(Json& j, const char* key, capnp::Text::Reader trend) {
  if (trend.size() > 0) j[key] = std::string(trend);
}

}  // namespace

Json trafficJson(schema::LinkTraffic::Reader s) {
  return Json{{"packets_sent", s.getPacketsSent()},
              {"packets_recv", s.getPacketsRecv()},
              {"bytes_sent", s.getBytesSent()},
              {"bytes_recv", s.getBytesRecv()}};
}

Json peerMmpJson(schema::LinkMmp::Reader m) {
  Json j{{"mode", m.getMode()}};
  if (m.getHasSrtt()) j["srtt_ms"] = m.getSrttMs();
  j["loss_rate"] = m.getLossRate();
  j["etx"] = m.getEtx();
  j["goodput_bps"] = m.getGoodputBps();
  j["delivery_ratio_forward"] = m.getDeliveryRatioForward();
  j["delivery_ratio_reverse"] = m.getDeliveryRatioReverse();
  if (m.getHasSmoothedLoss()) j["smoothed_loss"] = m.getSmoothedLoss();
  if (m.getHasSmoothedEtx()) j["smoothed_etx"] = m.getSmoothedEtx();
  if (hasLqi(m)) j["lqi"] = lqi(m);
  return j;
}

Json sessionMmpJson(schema::LinkMmp::Reader m, uint16_t pathMtu) {
  Json j{{"mode", m.getMode()},
         {"loss_rate", m.getLossRate()},
         {"etx", m.getEtx()},
         {"goodput_bps", m.getGoodputBps()},
         {"delivery_ratio_forward", m.getDeliveryRatioForward()},
         {"delivery_ratio_reverse", m.getDeliveryRatioReverse()},
         {"path_mtu", pathMtu == 0 ? uint16_t{UINT16_MAX} : pathMtu}};
  if (m.getHasSrtt()) j["srtt_ms"] = m.getSrttMs();
  if (m.getHasSmoothedLoss()) j["smoothed_loss"] = m.getSmoothedLoss();
  if (m.getHasSmoothedEtx()) j["smoothed_etx"] = m.getSmoothedEtx();
  if (hasLqi(m)) j["sqi"] = lqi(m);
  return j;
}

Json mmpJson(capnp::List<schema::PeerStatus>::Reader peers) {
  Json list = Json::array();
  for (auto p : peers) {
    const auto m = p.getMmp();
    Json link{{"loss_rate", m.getLossRate()},
              {"etx", m.getEtx()},
              {"goodput_bps", m.getGoodputBps()},
              {"spin_bit_role", m.getSpinBitRole()}};
    if (m.getHasSmoothedLoss()) link["smoothed_loss"] = m.getSmoothedLoss();
    if (m.getHasSmoothedEtx()) link["smoothed_etx"] = m.getSmoothedEtx();
    if (m.getHasSrtt()) {
      link["srtt_ms"] = m.getSrttMs();
      if (m.getHasSmoothedEtx()) link["lqi"] = lqi(m);
    }
    addTrend(link, "rtt_trend", m.getRttTrend());
    addTrend(link, "loss_trend", m.getLossTrend());
    addTrend(link, "goodput_trend", m.getGoodputTrend());
    addTrend(link, "jitter_trend", m.getJitterTrend());
    link["delivery_ratio_forward"] = m.getDeliveryRatioForward();
    link["delivery_ratio_reverse"] = m.getDeliveryRatioReverse();
    link["ecn_ce_count"] = m.getEcnCeCount();
    list.push_back(Json{{"peer", hex(p.getNodeAddr())},
                        {"display_name", p.getDisplayName()},
                        {"mode", m.getMode()},
                        {"link_layer", std::move(link)}});
  }
  return Json{{"peers", list}, {"sessions", Json::array()}};
}

}  // namespace fips::router::control::json
