// The registry of peers compiled in, and helpers every peer shares.
#include <cstdio>
#include <cstdlib>

#include "peer.h"

namespace keyscope_bench {

const std::vector<PeerInfo>& availablePeers() {
  static const std::vector<PeerInfo> peers = [] {
    std::vector<PeerInfo> list;
#ifdef KEYSCOPE_BENCH_ENGINE
    list.push_back({"keyscope", "Keyscope", keyscopeDescription(), &makeKeyscopePeer});
#endif
    list.push_back({"rocksdb", "RocksDB", rocksDbDescription(), &makeRocksDbPeer});
    list.push_back({"sqlite", "SQLite", sqliteDescription(), &makeSqlitePeer});
#ifdef KEYSCOPE_BENCH_LEVELDB
    list.push_back({"leveldb", "LevelDB", levelDbDescription(), &makeLevelDbPeer});
#endif
    return list;
  }();
  return peers;
}

const PeerInfo* findPeer(std::string_view name) {
  for (const PeerInfo& peer : availablePeers()) {
    if (peer.name == name) return &peer;
  }
  return nullptr;
}

namespace {
bool g_reportErrorsOnStdout = false;
}  // namespace

void reportErrorsOnStdout() {
  g_reportErrorsOnStdout = true;
}

void die(const std::string& what) {
  std::fprintf(stderr, "keyscope-bench: %s\n", what.c_str());
  if (g_reportErrorsOnStdout) {
    std::printf("error %s\n", what.c_str());
    std::fflush(stdout);
  }
  std::fflush(stderr);
  std::exit(2);
}

std::string prefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty()) {
    const auto last = static_cast<unsigned char>(s.back());
    if (last != 0xFF) {
      s.back() = static_cast<char>(last + 1);
      return s;
    }
    s.pop_back();
  }
  return s;
}

}  // namespace keyscope_bench
