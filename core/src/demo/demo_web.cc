// The demo's web generators: visits by cookie and reverse timestamp, profiles
// rewritten whole (row-level timestamp consistency), domain-reversed pages,
// page-view counters kept with increments, and counts stored as timestamps.
#include <algorithm>
#include <array>
#include <map>

#include "demo/demo_data.h"

namespace keyscope::demo::detail {

namespace {

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

PutCell cell(const std::string& family, const std::string& qualifier, int64_t ts, std::string value) {
  return PutCell{family, qualifier, ts, std::move(value)};
}

// Paths of shop.example.com, most visited first.
const std::vector<std::string>& shopPaths() {
  static const std::vector<std::string> kPaths = [] {
    std::vector<std::string> paths = {"/", "/search", "/cart", "/products/1001", "/checkout", "/account",
                                      "/products/1002", "/help", "/products/1003", "/offers"};
    for (int i = 1004; i < 1040; ++i) paths.push_back("/products/" + std::to_string(i));
    return paths;
  }();
  return kPaths;
}

}  // namespace

// 400 cookies, 1 to 30 visits each over the 4 weeks before the demo's end;
// c0000042 (the examples' cookie) has 14. Written in time order.
Status generateWebVisits(const Context& ctx) {
  constexpr int kCookies = 400;
  static const std::array<const char*, 5> kReferrers = {"", "https://www.google.com/", "https://news.example.org/",
                                                        "https://www.bing.com/", "https://mail.example.com/"};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "web_visits");
  if (!keys) return keys.status();
  struct Visit {
    int64_t ts;
    int cookie;
  };
  Rng rng(0xc00c1e);
  std::vector<Visit> visits;
  for (int cookie = 1; cookie <= kCookies; ++cookie) {
    const int64_t n = cookie == 42 ? 14 : rng.between(1, 30);
    for (int64_t i = 0; i < n; ++i) visits.push_back({rng.between(kEndMillis - 28 * kDay, kEndMillis - 1), cookie});
  }
  std::sort(visits.begin(), visits.end(),
            [](const Visit& a, const Visit& b) { return a.ts != b.ts ? a.ts < b.ts : a.cookie < b.cookie; });
  TableWriter writer(ctx, "web_visits", 1000);
  for (const Visit& v : visits) {
    ctx.ws.setClock(v.ts);
    Result<Bytes> key = keys->encode({"c" + zeroPadded(static_cast<uint64_t>(v.cookie), 7), v.ts});
    if (!key) return key.status();
    const std::string url = "https://shop.example.com" + shopPaths()[rng.skewed(shopPaths().size())];
    Put put{*key, {cell("v", "url", v.ts, url), cell("v", "secs", v.ts, std::to_string(rng.between(2, 600)))}};
    const std::string referrer = kReferrers[rng.skewed(kReferrers.size())];
    if (!referrer.empty()) put.cells.push_back(cell("v", "ref", v.ts, referrer));
    if (Status s = writer.add(std::move(put)); !s) return s;
  }
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("web_visits"); !s) return s;
  ctx.progress("web_visits: " + grouped(writer.rows()) + " visits of " + std::to_string(kCookies) + " cookies");
  return Status::ok();
}

// 300 profiles, each written whole 1 to 4 times; a later version may drop a
// field without deleting it. user0007 (the examples' user) drops its phone.
Status generateProfiles(const Context& ctx) {
  constexpr int kUsers = 300;
  static const std::array<const char*, 12> kNames = {"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald",
                                                     "Margaret", "Ken", "Frances", "John", "Radia", "Leslie"};
  static const std::array<const char*, 6> kCities = {"Berlin", "Lisbon", "Oslo", "Austin", "Osaka", "Nairobi"};
  static const std::array<const char*, 3> kPlans = {"free", "pro", "team"};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "profiles");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "profiles", 1000);
  Rng rng(0x960f);
  for (int user = 1; user <= kUsers; ++user) {
    const std::string id = "user" + zeroPadded(static_cast<uint64_t>(user), 4);
    Result<Bytes> key = keys->encode({id});
    if (!key) return key.status();
    std::map<std::string, std::string> fields = {
        {"name", kNames[rng.below(kNames.size())]},
        {"email", id + "@example.com"},
        {"city", kCities[rng.below(kCities.size())]},
        {"plan", kPlans[rng.skewed(kPlans.size())]},
    };
    if (user == 7 || rng.chance(70)) fields["phone"] = "+1-555-" + zeroPadded(rng.below(10000), 4);
    const int64_t versions = user == 7 ? 3 : rng.between(1, 4);
    int64_t ts = kEpochMillis - rng.between(30, 90) * kDay;
    for (int64_t version = 1; version <= versions; ++version) {
      if (version > 1) {  // what changed since the last version
        ts += rng.between(1, 10) * kDay + rng.between(0, kDay - 1);
        if (user == 7 ? version == 2 : rng.chance(35)) fields.erase("phone");
        if (user == 7 ? version == 2 : rng.chance(40)) fields["plan"] = kPlans[rng.below(kPlans.size())];
        if (user == 7 ? version == 3 : rng.chance(30)) fields["city"] = kCities[rng.below(kCities.size())];
        if (rng.chance(10)) fields.erase("city");
      }
      ctx.ws.setClock(ts);
      Put put{*key, {cell("p", "v", ts, std::to_string(version))}};
      for (const auto& [name, value] : fields) put.cells.push_back(cell("p", name, ts, value));
      if (Status s = writer.add(std::move(put)); !s) return s;
    }
  }
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("profiles"); !s) return s;
  ctx.progress("profiles: " + std::to_string(kUsers) + " users, " + grouped(writer.rows()) + " whole-row writes");
  return Status::ok();
}

// Hosts of a few domains and their pages, with the links other hosts make to
// them; the shop and the blog add a few hundred generated pages.
Status generateWebPages(const Context& ctx) {
  struct Page {
    std::string url;  // host/path, as people write it
    std::string title;
  };
  std::vector<Page> pages = {
      {"apache.org/", "Welcome to The Apache Software Foundation!"},
      {"www.apache.org/", "Welcome to The Apache Software Foundation!"},
      {"www.apache.org/licenses/LICENSE-2.0", "Apache License, Version 2.0"},
      {"www.apache.org/foundation/", "About the ASF"},
      {"hbase.apache.org/", "Apache HBase - Apache HBase Home"},
      {"hbase.apache.org/book.html", "Apache HBase Reference Guide"},
      {"hbase.apache.org/downloads.html", "Apache HBase Downloads"},
      {"hbase.apache.org/team.html", "Apache HBase - Project Team"},
      {"hadoop.apache.org/", "Apache Hadoop"},
      {"hadoop.apache.org/releases.html", "Apache Hadoop Releases"},
      {"zookeeper.apache.org/", "Apache ZooKeeper"},
      {"en.wikipedia.org/wiki/Apache_HBase", "Apache HBase - Wikipedia"},
      {"en.wikipedia.org/wiki/Bigtable", "Bigtable - Wikipedia"},
      {"en.wikipedia.org/wiki/Z-order_curve", "Z-order curve - Wikipedia"},
      {"de.wikipedia.org/wiki/Apache_HBase", "Apache HBase - Wikipedia"},
      {"www.bbc.co.uk/", "BBC - Home"},
      {"www.bbc.co.uk/news", "Home - BBC News"},
      {"www.bbc.co.uk/weather", "BBC Weather"},
      {"news.bbc.co.uk/2/hi/technology/", "BBC NEWS | Technology"},
      {"www.debian.org/", "Debian -- The Universal Operating System"},
      {"wiki.debian.org/", "FrontPage - Debian Wiki"},
      {"packages.debian.org/bookworm/libsqlite3-dev", "Debian -- Details of package libsqlite3-dev in bookworm"},
      {"github.com/apache/hbase", "GitHub - apache/hbase: Apache HBase"},
      {"github.com/google/leveldb", "GitHub - google/leveldb"},
      {"www.example.com/", "Example Domain"},
      {"www.example.org/", "Example Domain"},
  };
  for (int i = 1001; i < 1240; ++i)
    pages.push_back({"shop.example.com/products/" + std::to_string(i), "Product " + std::to_string(i) + " - Example Shop"});
  for (int i = 1; i <= 120; ++i)
    pages.push_back({"blog.example.com/2024/" + zeroPadded(static_cast<uint64_t>(i % 12 + 1), 2) + "/post-" +
                         std::to_string(i),
                     "Post " + std::to_string(i) + " - Example Blog"});
  // Links: (from host, to url, text). The examples read the book's.
  static const std::array<std::array<const char*, 3>, 9> kLinks = {{
      {"en.wikipedia.org", "hbase.apache.org/book.html", "The Apache HBase Reference Guide"},
      {"www.apache.org", "hbase.apache.org/book.html", "HBase book"},
      {"github.com", "hbase.apache.org/book.html", "Documentation"},
      {"en.wikipedia.org", "hbase.apache.org/", "Official website"},
      {"www.apache.org", "hadoop.apache.org/", "Hadoop"},
      {"en.wikipedia.org", "en.wikipedia.org/wiki/Bigtable", "Bigtable"},
      {"hbase.apache.org", "en.wikipedia.org/wiki/Bigtable", "Bigtable paper"},
      {"www.bbc.co.uk", "www.bbc.co.uk/news", "News"},
      {"www.example.com", "shop.example.com/products/1001", "our best seller"},
  }};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "web_pages");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "web_pages", 1000);
  Rng rng(0x3eb);
  for (const Page& page : pages) {
    const int64_t crawled = kEpochMillis + rng.between(0, 2 * kDay - 1);
    Result<Bytes> key = keys->encode({page.url});
    if (!key) return key.status();
    Put put{*key, {cell("c", "title", crawled, page.title), cell("c", "size", crawled, std::to_string(rng.between(900, 250000)))}};
    for (const auto& [from, to, text] : kLinks) {
      if (page.url == to) put.cells.push_back(cell("anchor", from, crawled, text));
    }
    if (Status s = writer.add(std::move(put)); !s) return s;
  }
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("web_pages"); !s) return s;
  ctx.progress("web_pages: " + grouped(writer.rows()) + " pages");
  return Status::ok();
}

// 6,000 page views over the two days, each one increment of the page's total
// and of its day's counter.
Status generatePageCounters(const Context& ctx) {
  constexpr int kViews = 6000;
  static const std::array<const char*, 20> kPages = {
      "/", "/pricing", "/docs", "/docs/install", "/blog", "/login", "/signup", "/docs/key-design",
      "/blog/2024/salting", "/about", "/docs/shell", "/careers", "/contact", "/docs/regions", "/status",
      "/blog/2024/reverse-timestamps", "/legal/privacy", "/docs/csv", "/press", "/legal/terms"};
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "page_counters");
  if (!keys) return keys.status();
  Rng rng(0xc0de);
  uint64_t increments = 0;
  for (int view = 0; view < kViews; ++view) {
    if (view % 500 == 0) {
      if (Status s = ctx.checkCancelled(); !s) return s;
    }
    const int64_t ts = kEpochMillis + view * (2 * kDay / kViews);
    ctx.ws.setClock(ts);  // an increment's cell takes the clock's time
    Result<Bytes> key = keys->encode({std::string(kPages[rng.skewed(kPages.size())])});
    if (!key) return key.status();
    Increment inc{*key, {{"c", "views", 1}, {"d", isoDay(ts), 1}}};
    Result<std::vector<Cell>> result = ctx.ws.increment("page_counters", inc);
    if (!result) return result.status();
    ++increments;
  }
  ctx.summary.cells += increments;
  if (Status s = ctx.ws.flush("page_counters"); !s) return s;
  ctx.progress("page_counters: " + grouped(increments) + " increments of " + std::to_string(kPages.size()) + " pages");
  return Status::ok();
}

// 200 users' URLs, each a version of u:url at its (distinct) visit count.
Status generateTopUrls(const Context& ctx) {
  constexpr int kUsers = 200;
  std::vector<std::string> urls;
  for (const std::string& path : shopPaths()) urls.push_back("shop.example.com" + path);
  for (const char* other : {"news.example.org/", "news.example.org/world", "mail.example.com/inbox",
                            "blog.example.com/", "www.example.com/", "docs.example.com/start"})
    urls.emplace_back(other);
  Result<KeyEncoder> keys = KeyEncoder::forTable(ctx.ws, "top_urls");
  if (!keys) return keys.status();
  TableWriter writer(ctx, "top_urls", 200);
  Rng rng(0x70b);
  for (int user = 1; user <= kUsers; ++user) {
    Result<Bytes> key = keys->encode({"user" + zeroPadded(static_cast<uint64_t>(user), 4)});
    if (!key) return key.status();
    const int64_t wanted = user == 42 ? 12 : rng.between(3, 25);
    // Distinct URLs, popular ones first more often.
    std::vector<std::string> mine;
    while (static_cast<int64_t>(mine.size()) < wanted) {
      const std::string& url = urls[rng.skewed(urls.size())];
      if (std::find(mine.begin(), mine.end(), url) == mine.end()) mine.push_back(url);
    }
    // Strictly decreasing counts, a long tail as in real traffic: each count
    // is 35-90% of the one before, and at least the number of URLs still to
    // place (so the last is at least 1).
    int64_t count = user == 42 ? 120 : rng.between(wanted + 20, 150);
    Put put{*key, {}};
    for (size_t i = 0; i < mine.size(); ++i) {
      put.cells.push_back(cell("u", "url", count, mine[i]));
      const auto left = static_cast<int64_t>(mine.size() - i - 1);
      count = std::max(left, std::min(count - 1, count * rng.between(35, 90) / 100));
    }
    ctx.ws.setClock(kEndMillis);
    if (Status s = writer.add(std::move(put)); !s) return s;
  }
  if (Status s = writer.flushBatch(); !s) return s;
  if (Status s = ctx.ws.flush("top_urls"); !s) return s;
  ctx.progress("top_urls: " + std::to_string(kUsers) + " users, " + grouped(writer.cells()) + " URLs by visit count");
  return Status::ok();
}

}  // namespace keyscope::demo::detail
