// SPDX-License-Identifier: MIT
// bench-sim: the mesh simulator (tests/sim) at scale, issue #5. For each
// mesh size (default 1,000 and 10,000 nodes; a random geometric mesh of mean
// degree 4 made connected) it prints: the virtual time until every link is
// up and until the spanning tree is first consistent, the wall time the
// simulator takes for 60 virtual seconds, heap per node (and per peer),
// tree depth, lookup success and mean stretch over a sample of ordered
// pairs. First it runs the reference's own convergence case (100 nodes,
// 250 random edges, src/node/tests/spanning_tree.rs) and gives its
// convergence time next to the announce timers. Seeded: the figures repeat,
// except the wall times and RSS. Developer tool; see tests/bench/README.md.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "router/mesh/mesh-node.h"
#include "tests/bench/sim/heap-usage.h"
#include "tests/bench/sim/mesh-run.h"
#include "tests/sim/simulator.h"

namespace {

using fips::bench::MeshRunFigures;
using fips::bench::MeshRunPlan;
namespace sim = fips::sim;

constexpr size_t REFERENCE_NODES = 100;
constexpr size_t REFERENCE_EDGES = 250;
constexpr uint64_t REFERENCE_SEED = 42;  // the reference test's seed (our generator, not StdRng)

std::string ms(const std::optional<uint64_t>& v) {
  if (!v) return "never";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", static_cast<double>(*v) / 1000.0);
  return text;
}

double perNode(size_t bytes, size_t nodes) {
  return static_cast<double>(bytes) / static_cast<double>(nodes);
}

void printSizes() {
  using namespace fips::router;
  std::printf(
      "sizeof: MeshNode %zu B (TreeState %zu, BloomState %zu, LookupState %zu, CoordCache %zu, "
      "IdentityCache %zu, LinkManager %zu, SessionTable %zu); MeshConfig %zu B, one shared by "
      "every node; SimNode %zu B; per peer: ActiveLink %zu B, BloomFilter %zu B (a peer holds up "
      "to 2: inbound, last sent)\n",
      sizeof(mesh::MeshNode), sizeof(stp::TreeState), sizeof(bloom::BloomState),
      sizeof(lookup::LookupState), sizeof(routing::CoordCache), sizeof(routing::IdentityCache),
      sizeof(link::LinkManager), sizeof(fsp::SessionTable), sizeof(mesh::MeshConfig),
      sizeof(sim::SimNode), sizeof(link::ActiveLink), sizeof(bloom::BloomFilter));
}

void printRun(const MeshRunFigures& f, const MeshRunPlan& plan, double isolatedPerNode) {
  const double secs = static_cast<double>(plan.virtualMs) / 1000.0;
  const double ends = 2.0 * static_cast<double>(f.links);
  std::printf("  links up at %s; one consistent tree at %s (virtual; checked every %llu ms)\n",
              ms(f.linksUpMs).c_str(), ms(f.convergedMs).c_str(),
              static_cast<unsigned long long>(plan.checkEveryMs));
  std::printf(
      "  %.0f virtual s: %.1f s wall, %.1f s CPU in the simulator (+ %.1f s wall building the "
      "nodes, %.1f s in the bench's checks); %llu events, %llu datagrams, %.2f control "
      "msgs/node/s; trace hash %016llx\n",
      secs, f.runWallSecs, f.runCpuSecs, f.buildWallSecs, f.checkWallSecs,
      static_cast<unsigned long long>(f.events), static_cast<unsigned long long>(f.datagrams),
      static_cast<double>(f.controlMessages) / secs / static_cast<double>(f.nodes),
      static_cast<unsigned long long>(f.traceHash));
  std::printf("  tree at %.0f s: %zu root(s), depth max %zu mean %.2f\n", secs, f.tree.roots,
              f.tree.maxDepth, f.tree.meanDepth);
  if (plan.settle) {
    std::printf(
        "  settled %s after that (150 s without a parent switch): depth max %zu mean %.2f\n",
        ms(f.settledMs).c_str(), f.lookupTree.maxDepth, f.lookupTree.meanDepth);
  }
  const auto& h = f.heap;
  const double isolated = isolatedPerNode - static_cast<double>(sizeof(sim::SimNode));
  const double perEnd =
      (static_cast<double>(h.ran - h.before) - isolatedPerNode * static_cast<double>(f.nodes)) /
      ends;
  std::printf(
      "  memory per node (heap in use, mallinfo2, above the pre-simulator baseline): node state "
      "%.0f B (same nodes with no link: %.0f B per node less the %zu B SimNode); whole mesh %.0f B "
      "per node when built, %.0f B at convergence, %.0f B at %.0f s, %.0f B after the lookups; "
      "per peer (link end) at %.0f s: %.0f B (%.2f peers per node)\n",
      isolated, isolatedPerNode, sizeof(sim::SimNode), perNode(h.built - h.before, f.nodes),
      h.converged ? perNode(h.converged - h.before, f.nodes) : 0.0,
      perNode(h.ran - h.before, f.nodes), secs, perNode(h.looked - h.before, f.nodes), secs, perEnd,
      ends / static_cast<double>(f.nodes));
  std::printf(
      "  peak RSS of the process %.1f MiB = %.0f B per node (everything, not only node state)\n",
      static_cast<double>(f.peakRss) / (1024.0 * 1024.0), perNode(f.peakRss, f.nodes));
  const auto& r = f.routes;
  const size_t withinTtl = r.pairs - r.beyondTtl;
  const auto percent = [](size_t part, size_t whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  };
  const unsigned ttl = plan.config.lookup.ttl;
  std::printf(
      "  lookup success (TTL %u): all pairs %zu/%zu (%.2f %%); %zu pairs are farther apart in the "
      "tree than a TTL-%u request goes (%u hops), within it %zu/%zu (%.2f %%); routed %zu/%zu, "
      "stretch mean %.3f max %.2f; %.1f s wall for lookups and walks; trace hash then %016llx\n",
      ttl, r.resolved, r.pairs, percent(r.resolved, r.pairs), r.beyondTtl, ttl, ttl + 1,
      r.resolvedWithinTtl, withinTtl, percent(r.resolvedWithinTtl, withinTtl), r.routed, r.resolved,
      r.meanStretch, r.maxStretch, f.lookupWallSecs,
      static_cast<unsigned long long>(f.finalTraceHash));
}

void referenceCase(const MeshRunPlan& base) {
  MeshRunPlan plan = base;
  plan.link = sim::LinkParams{1, 0, 0.0};  // the reference runs it over in-process loopback
  plan.lookupRounds = REFERENCE_NODES;     // all 9,900 ordered pairs
  plan.settle = true;                      // as sim-report: lookups on the settled tree
  const sim::Topology t = sim::randomSpanningPlus(REFERENCE_NODES, REFERENCE_EDGES, REFERENCE_SEED);
  std::printf(
      "reference case: %zu nodes, %zu random edges (random spanning tree + extra edges, seed "
      "%llu), "
      "1 ms links; announce timers: TreeAnnounce min interval 500 ms per peer, rate-limited "
      "announces flushed on the 1 s tick\n",
      t.nodes, t.edges.size(), static_cast<unsigned long long>(REFERENCE_SEED));
  const double isolated = fips::bench::heapPerIsolatedNode(t.nodes, plan);
  const MeshRunFigures f = fips::bench::runMesh(t, plan);
  printRun(f, plan, isolated);
  if (f.linksUpMs && f.convergedMs) {
    const double after =
        (static_cast<double>(*f.convergedMs) - static_cast<double>(*f.linksUpMs)) / 1000.0;
    std::printf(
        "  convergence %.2f s after the last link came up = %.1f announce intervals (500 ms) = "
        "%.1f ticks (1 s)\n",
        after, after / 0.5, after);
  }
}

void sizedCase(size_t n, double meanDegree, size_t pairs, const MeshRunPlan& base) {
  MeshRunPlan plan = base;
  plan.lookupRounds = pairs == 0 ? n : std::max<size_t>(1, (pairs + n - 1) / n);
  // A consistency check of 10,000 nodes costs about 30 ms CPU: check every
  // 100 virtual ms there, every 10 ms on smaller meshes.
  plan.checkEveryMs = n > 2000 ? 100 : 10;
  const sim::GeometricMesh mesh = sim::randomGeometricDegree(n, meanDegree, base.seed);
  std::printf(
      "random geometric, %zu nodes: %zu links (mean degree %.2f, max %zu; radius %.4f, %zu links "
      "added to connect it), links %u ms + 0-%u ms jitter; lookups: %s\n",
      n, mesh.topology.edges.size(),
      2.0 * static_cast<double>(mesh.topology.edges.size()) / static_cast<double>(n),
      mesh.topology.degreeMax(), mesh.radius, mesh.bridges, base.link.latencyMs, base.link.jitterMs,
      plan.lookupRounds >= n - 1 ? "every ordered pair"
                                 : (std::to_string(plan.lookupRounds) + " rounds of " +
                                    std::to_string(n) + " (a random offset per round)")
                                       .c_str());
  std::fflush(stdout);
  const double isolated = fips::bench::heapPerIsolatedNode(n, plan);
  const MeshRunFigures f = fips::bench::runMesh(mesh.topology, plan);
  printRun(f, plan, isolated);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench-sim: the mesh simulator at 1,000 and 10,000 nodes (issue #5)"};
  std::vector<size_t> sizes{1000, 10000};
  uint64_t seed = 1;
  double virtualSecs = 60;
  double meanDegree = 4;
  size_t pairs = 20000;
  bool noReference = false;
  unsigned lookupTtl = 64;
  MeshRunPlan plan;
  app.add_option("--nodes", sizes, "mesh sizes to run (random geometric)")->delimiter(',');
  app.add_option("--seed", seed, "topology, keys and link randomness")->capture_default_str();
  app.add_option("--virtual-secs", virtualSecs, "virtual seconds timed")->capture_default_str();
  app.add_option("--mean-degree", meanDegree, "mean degree of the geometric meshes")
      ->capture_default_str();
  app.add_option("--pairs", pairs,
                 "ordered pairs looked up per mesh, rounded up to whole rounds of n (0: all)")
      ->capture_default_str();
  app.add_flag("--no-reference", noReference, "skip the reference's 100-node/250-edge case");
  app.add_option("--lookup-ttl", lookupTtl,
                 "node.lookup.ttl of every node (the reference's default 64)")
      ->check(CLI::Range(1, 255))
      ->capture_default_str();
  app.add_flag("--settle", plan.settle,
               "before the lookups, run until 150 virtual s pass without a parent switch");
  CLI11_PARSE(app, argc, argv);
  plan.seed = seed;
  plan.config.lookup.ttl = static_cast<uint8_t>(lookupTtl);
  plan.virtualMs = static_cast<uint64_t>(std::llround(virtualSecs * 1000));

  printSizes();
  std::fflush(stdout);
  if (!noReference) referenceCase(plan);
  for (size_t n : sizes) {
    if (n < 4) continue;
    std::fflush(stdout);
    sizedCase(n, meanDegree, pairs, plan);
  }
  return 0;
}
