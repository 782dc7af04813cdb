// SPDX-License-Identifier: MIT
// stats metrics table and Prometheus text (see metrics-render.h).
#include "ctl/metrics-render.h"

#include <cctype>

#include <fmt/format.h>

#include "ctl/table.h"

namespace fips::ctl {

namespace {

// Prometheus metric names allow [a-zA-Z0-9_:]; anything else becomes '_'.
std::string metricName(const std::string& family, const std::string& name) {
  std::string out = "fips_" + family + "_" + name + "_total";
  for (char& c : out) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') c = '_';
  }
  return out;
}

// A label value with \, " and newline escaped.
std::string labelValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string metricsTable(capnp::List<schema::Counter>::Reader counters) {
  std::vector<std::vector<std::string>> rows = {{"FAMILY", "COUNTER", "VALUE"}};
  for (auto c : counters) {
    std::string name = c.getName();
    if (c.getLabelName().size() > 0) {
      name += fmt::format("{{{}={}}}", c.getLabelName().cStr(), c.getLabelValue().cStr());
    }
    rows.push_back({c.getFamily(), name, std::to_string(c.getValue())});
  }
  return formatTable(rows);
}

std::string metricsPrometheus(capnp::List<schema::Counter>::Reader counters) {
  std::string out;
  std::string previous;
  for (auto c : counters) {
    const std::string name = metricName(c.getFamily(), c.getName());
    if (name != previous) {
      out += fmt::format("# HELP {} {}\n# TYPE {} counter\n", name, c.getHelp().cStr(), name);
      previous = name;
    }
    if (c.getLabelName().size() == 0) {
      out += fmt::format("{} {}\n", name, c.getValue());
    } else {
      out += fmt::format("{}{{{}=\"{}\"}} {}\n", name, c.getLabelName().cStr(),
                         labelValue(c.getLabelValue()), c.getValue());
    }
  }
  return out;
}

}  // namespace fips::ctl
