// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads `transports.*` (spec 08 §3.3) by
// TRANSPORT_KINDS (transport-fields.h), each type as one unnamed instance or
// a map of named ones, and applies the reference's forced values. Runs in the
// fips supervisor and fipsctl on operator-owned input; bad values become
// messages.
#include <string_view>

#include "privsep/config/config-parse.h"
#include "privsep/config/field-parse.h"
#include "privsep/config/transport-fields.h"

namespace fips::privsep::config {

namespace {

// Whether `key` is a map-valued field of any type's single form (tor's
// directory_service).
bool isSingleFormSection(std::string_view key) {
  bool found = false;
  forEachEntry(TRANSPORT_KINDS,
               [&](const auto& kind) { found = found || isSectionKey(*kind.fields, key); });
  return found;
}

// The named form: a non-empty map whose values are all maps, none of them a
// map-valued field of a single form. Anything else is read as the single
// form, where stray keys become unknown-key warnings.
bool isNamedForm(const YAML::Node& node) {
  if (!node.IsMap() || node.size() == 0) return false;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->second.IsMap()) return false;
    if (it->first.IsScalar() && isSingleFormSection(it->first.Scalar())) return false;
  }
  return true;
}

template <typename Kind>
void parseInstances(MapReader& transports, const Kind& kind, TransportsConfig& config) {
  std::optional<YAML::Node> node = transports.take(kind.type);
  if (!node || node->IsNull()) return;
  const std::string path = transports.pathOf(kind.type);
  const int line = transports.lineOf(kind.type);
  auto parseInstance = [&](MapReader& r, const std::string& name) {
    r.acceptNullAsDefault();
    typename std::decay_t<decltype(config.*kind.instances)>::mapped_type instance;
    readFields(r, instance, *kind.fields);
    if (kind.normalize != nullptr) kind.normalize(instance);
    (config.*kind.instances)[name] = std::move(instance);
  };
  if (!isNamedForm(*node)) {
    MapReader single(transports.context(), *node, path, line);
    parseInstance(single, "");
    single.finish();
    return;
  }
  MapReader named(transports.context(), *node, path, line);
  for (const std::string& name : named.keys()) {
    if (name.empty()) {
      named.context().error(named.lineOf(name), path, "an instance name must not be empty");
      named.take(name);
      continue;
    }
    named.section(name, [&](MapReader& r) { parseInstance(r, name); });
  }
  named.finish();
}

}  // namespace

void parseTransports(MapReader& r, TransportsConfig& out) {
  forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) { parseInstances(r, kind, out); });
}

}  // namespace fips::privsep::config
