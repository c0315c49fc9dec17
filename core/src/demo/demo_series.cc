// The demo's time-series generators: the lock-step events import (monotonic
// versus salted keys), OpenTSDB-style rows, the sensor series with its
// timeshifted metadata, the storage-cost pair, and the tall quadkey table.
#include <algorithm>
#include <array>

#include "demo/demo_data.h"

namespace keyscope::demo::detail {

namespace {

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

// Relative load by hour of the day (UTC), in percent: night trough, day peak.
constexpr std::array<int64_t, 24> kDiurnal = {20, 18, 16, 15, 15, 17, 25, 40, 60, 75, 85, 90,
                                              92, 90, 88, 85, 80, 75, 65, 55, 45, 35, 28, 23};
int64_t diurnal(int64_t millis) { return kDiurnal[static_cast<size_t>((millis / kHour) % 24)]; }

PutCell cell(const std::string& family, const std::string& qualifier, int64_t ts, std::string value) {
  return PutCell{family, qualifier, ts, std::move(value)};
}

}  // namespace

// 40,000 events, ~4 s apart, written in batches of 500 to both tables in turn:
// the same rows in the same order, only the keys differ.
Status generateEvents(const Context& ctx) {
  constexpr int kEvents = 40000;
  constexpr int kBatch = 500;
  static const std::array<const char*, 8> kTypes = {"view", "view", "view", "click", "click", "search", "cart",
                                                    "purchase"};
  Result<KeyEncoder> monotonic = KeyEncoder::forTable(ctx.ws, "events_monotonic");
  if (!monotonic) return monotonic.status();
  Result<KeyEncoder> salted = KeyEncoder::forTable(ctx.ws, "events_salted");
  if (!salted) return salted.status();
  TableWriter a(ctx, "events_monotonic", SIZE_MAX), b(ctx, "events_salted", SIZE_MAX);
  Rng rng(0x5a17ed);
  int64_t ts = kEpochMillis;
  for (int event = 0; event < kEvents; ++event) {
    ts += rng.between(1000, 7000);
    const std::string type = kTypes[rng.below(kTypes.size())];
    const std::string user = "user" + zeroPadded(rng.below(5000), 4);
    const auto id = static_cast<uint64_t>(event);
    Result<Bytes> keyA = monotonic->encode({ts, id});
    if (!keyA) return keyA.status();
    Result<Bytes> keyB = salted->encode({std::monostate{}, ts, id});
    if (!keyB) return keyB.status();
    if (Status s = a.add(Put{*keyA, {cell("e", "type", ts, type), cell("e", "user", ts, user)}}); !s) return s;
    if (Status s = b.add(Put{*keyB, {cell("e", "type", ts, type), cell("e", "user", ts, user)}}); !s) return s;
    if ((event + 1) % kBatch == 0 || event + 1 == kEvents) {
      ctx.ws.setClock(ts);  // the import's "now": the batch's newest event
      if (Status s = a.flushBatch(); !s) return s;
      if (Status s = b.flushBatch(); !s) return s;
    }
  }
  for (const char* table : {"events_monotonic", "events_salted"}) {
    if (Status s = ctx.ws.flush(table); !s) return s;
  }
  ctx.progress("events_monotonic, events_salted: " + grouped(a.rows()) + " rows each, one lock-step import in " +
               std::to_string((kEvents + kBatch - 1) / kBatch) + " batches");
  return Status::ok();
}

// metric | base hour | host rows, a point every 2 minutes as column "SSSS"
// (seconds into the hour), for 48 hours.
Status generateTsdb(const Context& ctx) {
  static const std::array<const char*, 4> kMetrics = {"net.bytes.in", "sys.cpu.system", "sys.cpu.user",
                                                      "sys.mem.free"};
  constexpr int kHosts = 6;
  constexpr int kStepSeconds = 120;
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "tsdb");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "tsdb", SIZE_MAX);
  Rng rng(0x75db);
  std::array<int64_t, kHosts> hostLoad{};  // each host's share of the traffic, percent
  for (int64_t& load : hostLoad) load = rng.between(60, 140);
  for (int64_t hourStart = kEpochMillis; hourStart < kEndMillis; hourStart += kHour) {
    const auto hourSeconds = static_cast<uint64_t>(hourStart / 1000);
    for (const char* metric : kMetrics) {
      const std::string name = metric;
      for (int host = 0; host < kHosts; ++host) {
        const std::string hostName = "web" + zeroPadded(static_cast<uint64_t>(host + 1), 2);
        Result<Bytes> key = keys->encode({name, hourSeconds, hostName});
        if (!key) return key.status();
        Put put{*key, {}};
        for (int offset = 0; offset < 3600; offset += kStepSeconds) {
          const int64_t ts = hourStart + offset * 1000;
          const int64_t load = diurnal(ts) * hostLoad[static_cast<size_t>(host)] / 100;  // 0..130
          std::string value;
          if (name == "sys.cpu.user") value = tenths(std::max<int64_t>(0, load * 6 + rng.between(-40, 40)));
          else if (name == "sys.cpu.system") value = tenths(std::max<int64_t>(0, load * 2 + rng.between(-15, 15)));
          else if (name == "sys.mem.free") value = std::to_string(16000 - load * 80 + rng.between(-300, 300));
          else value = std::to_string(load * 9000 + rng.between(0, 50000));
          put.cells.push_back(cell("t", zeroPadded(static_cast<uint64_t>(offset), 4), ts, std::move(value)));
        }
        if (Status s = writer.add(std::move(put)); !s) return s;
      }
    }
    ctx.ws.setClock(hourStart + kHour - 1);
    if (Status s = writer.flushBatch(); !s) return s;
  }
  if (Status s = ctx.ws.flush("tsdb"); !s) return s;
  ctx.progress("tsdb: " + grouped(writer.rows()) + " rows, " + grouped(writer.cells()) + " data points");
  return Status::ok();
}

// 16 sensors, a reading every 5 minutes for two days; sensor-09 is installed
// at noon on day 2, so day 1's store files span its key but lack its row (a
// get of it is skipped by their bloom filters, not their key ranges).
// Metadata is written at install time + 50,000 years.
Status generateSensorSeries(const Context& ctx) {
  constexpr int kSensors = 16;
  constexpr int kLateSensor = 9;
  constexpr int64_t kStep = 5 * kMinute;
  constexpr int64_t kLateInstall = kEpochMillis + kDay + 12 * kHour;
  static const std::array<const char*, 3> kModels = {"TH-100", "TH-200", "AQ-7"};
  static const std::array<const char*, 5> kSites = {"hall-a", "hall-b", "roof", "lab", "cold-store"};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "sensor_series");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "sensor_series", 1000);
  Rng rng(0x5e45);
  struct Sensor {
    Bytes key;
    int64_t installed = 0;
    int64_t base = 0;  // tenths of a degree
    int64_t humidity = 0;
  };
  std::vector<Sensor> sensors;
  for (int i = 1; i <= kSensors; ++i) {
    Sensor s;
    Result<Bytes> key = keys->encode({"sensor-" + zeroPadded(static_cast<uint64_t>(i), 2)});
    if (!key) return key.status();
    s.key = *key;
    s.installed = i == kLateSensor ? kLateInstall : kEpochMillis - rng.between(10 * kDay, 400 * kDay);
    s.base = rng.between(160, 240);
    s.humidity = rng.between(30, 60);
    sensors.push_back(std::move(s));
  }
  auto writeMetadata = [&](const Sensor& s) {
    const int64_t shifted = s.installed + kTimeshiftMillis;
    return writer.add(Put{s.key,
                          {cell("m", "installed", shifted, isoTime(s.installed)),
                           cell("m", "model", shifted, kModels[rng.below(kModels.size())]),
                           cell("m", "site", shifted, kSites[rng.below(kSites.size())])}});
  };
  for (const Sensor& s : sensors) {
    if (s.installed > kEpochMillis) continue;
    if (Status st = writeMetadata(s); !st) return st;
  }
  for (int64_t t = kEpochMillis; t < kEndMillis; t += kStep) {
    if (t == kEpochMillis + kDay) {  // end of day 1: its readings become one store file
      if (Status s = writer.flushBatch(); !s) return s;
      if (Status s = ctx.ws.flush("sensor_series"); !s) return s;
    }
    ctx.ws.setClock(t);
    for (const Sensor& s : sensors) {
      if (s.installed > t) continue;
      if (s.installed == t) {
        if (Status st = writeMetadata(s); !st) return st;
      }
      // Warmer by day: up to +4.6 degrees at the diurnal peak.
      const int64_t temp = s.base + diurnal(t) / 2 + rng.between(-5, 5);
      const int64_t humidity = s.humidity - diurnal(t) / 10 + rng.between(-2, 2);
      if (Status st = writer.add(Put{s.key, {cell("r", "temp", t, tenths(temp)),
                                             cell("r", "hum", t, std::to_string(humidity))}});
          !st)
        return st;
    }
  }
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("sensor_series"); !s) return s;
  ctx.progress("sensor_series: " + grouped(sensors.size()) + " sensors, " + grouped(writer.cells()) +
               " cells (readings and timeshifted metadata), one store file per day");
  return Status::ok();
}

// The same 6,000 readings under long text keys and names, and under 12-byte
// keys and one-letter names.
Status generateSizes(const Context& ctx) {
  constexpr int kDevices = 100;
  constexpr int kReadings = 60;
  constexpr int64_t kStep = 15 * kMinute;
  Result<KeyEncoder> verboseKeys = KeyEncoder::forTable(ctx.ws, "sizes_verbose");
  if (!verboseKeys) return verboseKeys.status();
  Result<KeyEncoder> compactKeys = KeyEncoder::forTable(ctx.ws, "sizes_compact");
  if (!compactKeys) return compactKeys.status();
  TableWriter verbose(ctx, "sizes_verbose", 1000), compact(ctx, "sizes_compact", 1000);
  Rng rng(0x512e);
  for (int reading = 0; reading < kReadings; ++reading) {
    const int64_t ts = kEpochMillis + reading * kStep;
    ctx.ws.setClock(ts);
    for (int device = 1; device <= kDevices; ++device) {
      const std::string temp = tenths(rng.between(150, 260));
      const std::string humidity = std::to_string(rng.between(30, 70));
      const auto id = static_cast<uint64_t>(device);
      Result<Bytes> longKey = verboseKeys->encode({"device-" + zeroPadded(id, 6) + "|" + isoTime(ts)});
      if (!longKey) return longKey.status();
      Result<Bytes> shortKey = compactKeys->encode({id, ts});
      if (!shortKey) return shortKey.status();
      if (Status s = verbose.add(Put{*longKey, {cell("measurements", "temperature_celsius", ts, temp),
                                                cell("measurements", "relative_humidity_percent", ts, humidity)}});
          !s)
        return s;
      if (Status s = compact.add(Put{*shortKey, {cell("m", "t", ts, temp), cell("m", "h", ts, humidity)}}); !s)
        return s;
    }
  }
  for (TableWriter* w : {&verbose, &compact}) {
    if (Status s = w->flushBatch(); !s) return s;
  }
  for (const char* table : {"sizes_verbose", "sizes_compact"}) {
    if (Status s = ctx.ws.flush(table); !s) return s;
  }
  ctx.progress("sizes_verbose, sizes_compact: " + grouped(verbose.rows()) + " readings each");
  return Status::ok();
}

// Traffic counts in zoom-16 tiles of one zoom-10 tile (64 x 64 tiles of about
// 600 m), clustered around five busy places.
Status generateGeoTiles(const Context& ctx) {
  constexpr int kObservations = 3000;
  constexpr uint32_t kZoom = 16;
  constexpr uint32_t kX0 = 550 << 6, kY0 = 335 << 6;  // the zoom-10 tile (550, 335), in zoom-16 tiles
  static const std::array<const char*, 4> kKinds = {"car", "bike", "bus", "pedestrian"};
  // The busy places, in zoom-16 tiles; the first is the examples' tile.
  static const std::array<std::pair<uint32_t, uint32_t>, 5> kHotspots = {
      {{kX0 + 37, kY0 + 21}, {kX0 + 12, kY0 + 40}, {kX0 + 50, kY0 + 50}, {kX0 + 30, kY0 + 8}, {kX0 + 5, kY0 + 5}}};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "geo_tiles");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "geo_tiles", 1000);
  Rng rng(0x6e0);
  for (int i = 0; i < kObservations; ++i) {
    uint32_t x, y;
    if (rng.chance(70)) {
      const auto& [hx, hy] = kHotspots[rng.skewed(kHotspots.size())];
      x = static_cast<uint32_t>(static_cast<int64_t>(hx) + rng.between(-2, 2));
      y = static_cast<uint32_t>(static_cast<int64_t>(hy) + rng.between(-2, 2));
    } else {
      x = kX0 + static_cast<uint32_t>(rng.below(64));
      y = kY0 + static_cast<uint32_t>(rng.below(64));
    }
    const int64_t ts = kEpochMillis + rng.between(0, 2 * 86400 - 1) * 1000;
    Result<Bytes> key = keys->encode({Tile{kZoom, x, y}, ts});
    if (!key) return key.status();
    const std::string kind = kKinds[rng.skewed(kKinds.size())];
    const std::string count = std::to_string(rng.between(1, 40) * diurnal(ts) / 10 + 1);
    if (Status s = writer.add(Put{*key, {cell("o", "kind", ts, kind), cell("o", "count", ts, count)}}); !s) return s;
  }
  ctx.ws.setClock(kEndMillis);
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("geo_tiles"); !s) return s;
  ctx.progress("geo_tiles: " + grouped(writer.rows()) + " traffic counts in zoom-16 tiles");
  return Status::ok();
}

}  // namespace keyscope::demo::detail
