// The schema design (key_design.h): any key schema, each component's value
// drawn from a generator (value_generator.h), derived components computed.
#include <algorithm>
#include <set>

#include "workload/key_design.h"
#include "workload/value_generator.h"

namespace keyscope::workload {

namespace {

struct ComponentSource {
  std::optional<ValueGenerator> generator;  // nullopt: derived
  int64_t maxNumber = 0;                    // for zero-padding text
};

class SchemaDesign final : public KeyDesignModel {
 public:
  SchemaDesign(KeySchema schema, std::vector<ComponentSource> sources, const RunPlan& plan)
      : KeyDesignModel(std::move(schema)), m_sources(std::move(sources)), m_plan(plan) {}

  Result<Bytes> writeKey(const KeyContext& ctx, Rng& rng) const override {
    Result<KeyTuple> tuple = drawTuple(ctx, rng);
    if (!tuple) return tuple.status();
    return encode(*tuple);
  }

  // The rows sharing a drawn key's leading component (with the salt or hash
  // in front of it, when there is one).
  Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng& rng) const override {
    Result<KeyTuple> tuple = drawTuple(ctx, rng);
    if (!tuple) return tuple.status();
    Result<KeyTuple> complete = completeTuple(schema(), *tuple);
    if (!complete) return complete.status();
    KeyTuple lead;
    for (size_t i = 0; i < complete->size(); ++i) {
      lead.push_back((*complete)[i]);
      if (!schema()[i].isDerived()) break;
    }
    Result<Bytes> prefix = encodeRaw(lead);
    if (!prefix) return prefix.status();
    return std::vector<ScanRange>{{*prefix, prefixEnd(*prefix)}};
  }

  // A leading salt: at its buckets. A leading generated component: evenly
  // over what it draws in the planned run (numbers) or over its choices.
  // Anything else (a hash, random bytes): evenly over the first two bytes.
  Result<std::vector<Bytes>> splitPoints(uint32_t regions) const override {
    const KeyComponent& first = schema()[0];
    std::vector<Bytes> keys;
    if (first.type == ComponentType::kSalt) {
      for (uint64_t k = 1; k < regions; ++k) {
        const uint64_t bucket = first.buckets * k / regions;
        if (bucket > 0) keys.push_back(Bytes(1, static_cast<char>(bucket)));
      }
    } else if (first.isDerived() || !m_sources[0].generator) {
      keys = evenByteSplits(regions);
    } else if (const ValueGenerator& g = *m_sources[0].generator; g.kind() == ValueGenerator::Kind::kChoice) {
      std::vector<Bytes> encoded;
      for (const std::string& choice : g.choices()) {
        Drawn d;
        d.kind = Drawn::Kind::kText;
        d.text = choice;
        if (Result<Bytes> key = encodeFirst(d)) encoded.push_back(*key);
      }
      std::sort(encoded.begin(), encoded.end());
      encoded.erase(std::unique(encoded.begin(), encoded.end()), encoded.end());
      for (uint64_t k = 1; k < regions && !encoded.empty(); ++k) keys.push_back(encoded[encoded.size() * k / regions]);
    } else if (std::optional<std::pair<int64_t, int64_t>> range = g.range(m_plan)) {
      const auto span = static_cast<uint64_t>(range->second) - static_cast<uint64_t>(range->first) + 1;
      for (uint64_t k = 1; k < regions; ++k) {
        Drawn d;
        d.number = static_cast<int64_t>(static_cast<uint64_t>(range->first) + span / regions * k + span % regions * k / regions);
        if (Result<Bytes> key = encodeFirst(d)) keys.push_back(*key);
      }
    } else {
      keys = evenByteSplits(regions);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::erase_if(keys, [](const Bytes& k) { return k.empty(); });
    return keys;
  }

  Result<KeyTuple> drawTuple(const KeyContext& ctx, Rng& rng) const {
    KeyTuple tuple(schema().size());
    for (size_t i = 0; i < tuple.size(); ++i) {
      const ComponentSource& source = m_sources[i];
      if (!source.generator) continue;
      Result<ComponentValue> v = toComponentValue(schema()[i], source.generator->draw(ctx, rng), source.maxNumber);
      if (!v) return failure(i, v.status());
      tuple[i] = *v;
    }
    return tuple;
  }

  // Checks that every value a generator can draw fits its component: both
  // ends of a range, every choice.
  Status checkRanges() const {
    for (size_t i = 0; i < m_sources.size(); ++i) {
      if (!m_sources[i].generator) continue;
      const ValueGenerator& g = *m_sources[i].generator;
      std::vector<std::pair<Drawn, std::string>> samples;
      if (std::optional<std::pair<int64_t, int64_t>> range = g.range(m_plan)) {
        for (int64_t end : {range->first, range->second}) {
          Drawn d;
          d.number = end;
          samples.emplace_back(d, std::to_string(end));
        }
      }
      if (g.kind() == ValueGenerator::Kind::kChoice) {
        for (const std::string& choice : g.choices()) {
          Drawn d;
          d.kind = Drawn::Kind::kText;
          d.text = choice;
          samples.emplace_back(d, "'" + choice + "'");
        }
      }
      for (const auto& [drawn, shown] : samples) {
        Result<ComponentValue> v = toComponentValue(schema()[i], drawn, m_sources[i].maxNumber);
        if (!v) return failure(i, v.status());
        if (Result<ComponentValue> checked = checkValue(schema()[i], *v); !checked)
          return failure(i, Status::invalidArgument(shown + ": " + checked.status().message()));
      }
    }
    return Status::ok();
  }

 private:
  Status failure(size_t i, const Status& why) const {
    return Status::invalidArgument("component '" + schema()[i].name + "' (" + schema().typeText(i) + ") from " +
                                   m_sources[i].generator->text() + ": " + why.message());
  }

  Result<Bytes> encodeFirst(const Drawn& d) const {
    Result<ComponentValue> v = toComponentValue(schema()[0], d, m_sources[0].maxNumber);
    if (!v) return v.status();
    return encodeRaw({*v});
  }

  std::vector<ComponentSource> m_sources;
  RunPlan m_plan;
};

std::string componentNames(const KeySchema& schema) {
  std::string names;
  for (const KeyComponent& c : schema.components()) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

}  // namespace

Result<std::unique_ptr<KeyDesignModel>> makeSchemaDesign(const KeyDesignOptions& options, const RunPlan& plan) {
  if (options.keySchema.empty()) return Status::invalidArgument("the schema design needs a key schema");
  Result<KeySchema> schema = KeySchema::parse(options.keySchema);
  if (!schema) return Status::invalidArgument("key schema: " + schema.status().message());
  if (schema->size() == 0) return Status::invalidArgument("key schema: no components");

  std::vector<ComponentSource> sources(schema->size());
  std::set<std::string> named;
  for (const auto& [name, spec] : options.generators) {
    const std::string where = "generator '" + name + "=" + spec + "': ";
    std::optional<size_t> index = schema->indexOf(name);
    if (!index)
      return Status::invalidArgument(where + "the key schema has no component '" + name + "' (it has " +
                                     componentNames(*schema) + ")");
    if ((*schema)[*index].isDerived())
      return Status::invalidArgument(where + "'" + name + "' is " + schema->typeText(*index) +
                                     ", computed from its fields: it takes no generator");
    if (!named.insert(name).second) return Status::invalidArgument(where + "'" + name + "' has a generator already");
    Result<ValueGenerator> g = ValueGenerator::parse(spec);
    if (!g) return Status::invalidArgument(where + g.status().message());
    sources[*index].generator = *g;
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    const KeyComponent& c = (*schema)[i];
    if (c.isDerived()) continue;
    if (!sources[i].generator) sources[i].generator = ValueGenerator::defaultFor(c, options.entities);
    if (std::optional<std::pair<int64_t, int64_t>> range = sources[i].generator->range(plan))
      sources[i].maxNumber = range->second;
  }
  auto design = std::make_unique<SchemaDesign>(std::move(schema).value(), std::move(sources), plan);
  if (Status s = design->checkRanges(); !s) return s;
  return std::unique_ptr<KeyDesignModel>(std::move(design));
}

}  // namespace keyscope::workload
