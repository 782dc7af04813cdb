// SPDX-License-Identifier: MIT
// TreeState parent selection: evaluate_parent, the classify ladders, parent
// switch, self-root and parent-loss recovery (FIPS spec 03 §3, reference
// src/proto/stp/{state,core}.rs and src/node/tree.rs). Runs in fips-router.
#include <algorithm>
#include <limits>

#include "router/stp/tree-state.h"

namespace fips::router::stp {

TreeState::ParentEval TreeState::evaluateParent(const LinkCosts& costs) const {
  std::optional<NodeAddr> smallest;
  for (const auto& [addr, p] : peers_) {
    if (p.candidate() && (!smallest || *p.coords.root() < *smallest)) smallest = *p.coords.root();
  }
  // No peer coordinates, or we are the smallest node and must be root.
  if (!smallest || self_ <= *smallest) return {};

  std::optional<NodeAddr> best;
  double bestEff = 0.0;
  for (const auto& [addr, p] : peers_) {
    if (!p.candidate() || *p.coords.root() != *smallest || p.coords.contains(self_)) continue;
    double cost = 1.0;
    if (const auto c = costs.find(addr); c != costs.end()) {
      cost = c->second;
    } else if (!costs.empty()) {
      continue;  // unmeasured while others are measured: not eligible
    }
    const double eff = static_cast<double>(p.coords.depth()) + cost;
    if (!best || eff < bestEff) {  // map order: ties keep the smaller address
      best = addr;
      bestEff = eff;
    }
  }
  if (!best) return {};
  if (!isRoot() && decl_.parent == *best) return {};

  const auto current = peers_.find(decl_.parent);
  const bool parentKnown = current != peers_.end() && current->second.declaration;
  if (isRoot() || !parentKnown || *smallest < root_) return {Eval::MANDATORY, *best};

  double currentCost = costs.empty() ? 1.0 : std::numeric_limits<double>::infinity();
  if (const auto c = costs.find(decl_.parent); c != costs.end()) currentCost = c->second;
  const double currentEff = static_cast<double>(current->second.coords.depth()) + currentCost;
  const double hysteresis = std::clamp(config_.parentHysteresis, 0.0, 1.0);
  if (bestEff < currentEff * (1.0 - hysteresis)) return {Eval::DISCRETIONARY, *best};
  return {};
}

std::optional<NodeAddr> TreeState::switchTarget(const LinkCosts& costs, uint64_t nowMs) const {
  const auto eval = evaluateParent(costs);
  if (eval.kind == Eval::MANDATORY) return eval.peer;
  if (eval.kind == Eval::DISCRETIONARY && !flap_.suppressed(nowMs)) return eval.peer;
  return std::nullopt;
}

bool TreeState::shouldBeRoot() const {
  for (const auto& [addr, p] : peers_) {
    if (p.candidate() && *p.coords.root() < self_) return false;
  }
  return true;
}

void TreeState::setParent(const NodeAddr& parent, TreeNow now) {
  const bool changed = isRoot() || decl_.parent != parent;
  decl_ = {
      .node = self_, .parent = parent, .sequence = decl_.sequence + 1, .timestamp = now.unixSecs};
  flap_.markParentSet(now.monoMs);
  if (changed && flap_.recordParentChange(now.monoMs)) ++counters_.flapDampened;
}

void TreeState::recomputeCoords() {
  const AncestryEntry me{.addr = self_, .sequence = decl_.sequence, .timestamp = decl_.timestamp};
  const auto it = peers_.find(decl_.parent);
  if (!decl_.isRoot() && (it == peers_.end() || !it->second.declaration)) return;
  // Becoming a child of a root not smaller than us would break "root = path
  // minimum": stay root instead (same sequence and timestamp).
  if (decl_.isRoot() || self_ <= *it->second.coords.root()) {
    decl_.parent = self_;
    ancestry_ = {me};
  } else {
    ancestry_.clear();
    ancestry_.push_back(me);
    ancestry_.insert(ancestry_.end(), it->second.ancestry.begin(), it->second.ancestry.end());
  }
  coords_ = toCoordinates(ancestry_);
  root_ = ancestry_.back().addr;
}

void TreeState::becomeRoot(TreeNow now) {
  decl_ = {
      .node = self_, .parent = self_, .sequence = decl_.sequence + 1, .timestamp = now.unixSecs};
  recomputeCoords();
}

void TreeState::switchParent(const NodeAddr& parent, TreeNow now, TreeOutput& out) {
  const Coordinates before = coords_;
  setParent(parent, now);
  recomputeCoords();
  if (!sign()) return;
  ++counters_.parentSwitches;
  out.decision = TreeDecision::SWITCH;
  out.parentChanged = true;
  out.coordsChanged = coords_ != before;
  out.invalidateViaSelf = true;
  out.resetLookupBackoff = true;
  announceAll(now.monoMs, out);
}

void TreeState::selfRoot(TreeNow now, TreeOutput& out) {
  const Coordinates before = coords_;
  becomeRoot(now);
  if (!sign()) return;
  ++counters_.parentSwitches;
  out.decision = TreeDecision::SELF_ROOT;
  out.parentChanged = true;
  out.coordsChanged = coords_ != before;
  out.invalidateOtherRoots = true;
  out.resetLookupBackoff = true;
  announceAll(now.monoMs, out);
}

void TreeState::distrustPeersAfterLoss(const NodeAddr& lost) {
  // Departure from the reference (see tree-state.h). Run before recovery, so
  // root_ is still the root we had through `lost`. Children (paths through
  // us) are never candidates anyway.
  for (auto& [addr, p] : peers_) {
    if (!p.declaration || p.distrusted || p.coords.contains(self_)) continue;
    if (!p.coords.contains(lost) && *p.coords.root() <= root_) continue;
    p.distrusted = true;
    ++counters_.peersDistrusted;
  }
}

void TreeState::recoverParent(const LinkCosts& costs, TreeNow now) {
  if (const auto alt = switchTarget(costs, now.monoMs)) {
    setParent(*alt, now);
    recomputeCoords();
    return;
  }
  becomeRoot(now);
}

void TreeState::classify(const NodeAddr& from, const LinkCosts& costs, TreeNow now,
                         TreeOutput& out) {
  if (const auto target = switchTarget(costs, now.monoMs)) {
    switchParent(*target, now, out);
    return;
  }
  if (!isRoot() && shouldBeRoot()) {
    selfRoot(now, out);
    return;
  }
  if (isRoot() || decl_.parent != from) return;

  const Coordinates before = coords_;
  if (peers_.at(from).coords.contains(self_)) {
    ++counters_.loopsDetected;
    recoverParent(costs, now);
    if (!sign()) return;
    out.decision = TreeDecision::LOOP_DROP;
    out.parentChanged = true;
    out.coordsChanged = coords_ != before;
    out.invalidateViaSelf = true;
    out.invalidateOtherRoots = true;
    out.resetLookupBackoff = true;
    announceAll(now.monoMs, out);
    return;
  }
  setParent(from, now);
  recomputeCoords();
  if (!sign()) return;
  out.decision = TreeDecision::ANCESTRY_UPDATE;
  out.parentChanged = isRoot();  // only if demoted to root by the recompute
  out.invalidateViaSelf = true;
  out.resetLookupBackoff = true;
  if (coords_ != before) {
    ++counters_.ancestryChanged;
    out.coordsChanged = true;
    out.bloomRecheck = true;
    announceAll(now.monoMs, out);
  }
}

void TreeState::classifyPeriodic(const LinkCosts& costs, TreeNow now, TreeOutput& out) {
  if (const auto target = switchTarget(costs, now.monoMs)) {
    switchParent(*target, now, out);
  } else if (!isRoot() && shouldBeRoot()) {
    selfRoot(now, out);
  } else {
    out.decision = TreeDecision::PERIODIC_REBROADCAST;
    announceAll(now.monoMs, out);
  }
}

TreeOutput TreeState::reevaluate(const LinkCosts& costs, TreeNow now) {
  TreeOutput out;
  if (const auto target = switchTarget(costs, now.monoMs)) {
    switchParent(*target, now, out);
  } else if (!isRoot() && shouldBeRoot()) {
    selfRoot(now, out);
  }
  return out;
}

}  // namespace fips::router::stp
