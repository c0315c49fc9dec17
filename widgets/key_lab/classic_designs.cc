// The classic designs (see classic_designs.h). Keep in step with the table in
// docs/KEY-SCHEMAS.md.
#include "key_lab/classic_designs.h"

#include <array>

namespace keyscope {

namespace {

// Timestamps are 2023-11-14 22:13:20 UTC (1700000000 s) in the unit each
// design uses: OpenTSDB's base hour is in seconds, the others in milliseconds.
constexpr std::array<ClassicDesign, 8> kDesigns = {{
    {"OpenTSDB: metric, base hour, tags", "metric:u32 | hour:u32 | tags:bytes",
     R"([4, 1699999200, "\\x00\\x00\\x01\\x00\\x00\\x07"])"},
    {"field swap: metric before time", "metric:utf8 | ts:i64", R"(["cpu.load", 1700000000000])"},
    {"cookie + reverse timestamp (newest visit first)", "cookie:bytes(16) | ts:revts",
     R"([{"hex": "5f3a9c0e12d84b7aa1c2e3f405162738"}, 1700000000000])"},
    {"md5(user) + reverse timestamp", "user:md5(8) | ts:revts hbase",
     R"([{"md5": "alice"}, 1700000000000])"},
    {"salted monotonic key, 16 buckets", "salt:salt(16, ts) | ts:i64",
     R"([null, 1700000000000])"},
    {"domain-reversed URL", "site:domain | path:utf8", R"(["www.example.com", "/index.html"])"},
    {"packed quadkey tiles + time", "tile:quadkey | ts:i64 desc",
     R"([[12, 2200, 1343], 1700000000000])"},
    {"timestamp lead (a monotonic key: what not to do)", "ts:i64 | user:utf8",
     R"([1700000000000, "alice"])"},
}};

}  // namespace

std::span<const ClassicDesign> classicDesigns() { return kDesigns; }

}  // namespace keyscope
