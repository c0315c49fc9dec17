// Helpers for engine tests: a workspace in a fresh temporary directory, and
// one-line put/delete/get/scan wrappers so each assertion reads as a sentence.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "keyscope/workspace.h"

namespace keyscope::test {

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return m_path; }
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

// "ts:value" per cell, e.g. {"5:a", "3:b"}; markers as "ts:DeleteColumn".
std::vector<std::string> describe(const std::vector<Cell>& cells);
// "row/f:q@ts=value" per cell.
std::vector<std::string> describeFull(const std::vector<Cell>& cells);

class EngineFixture {
 public:
  explicit EngineFixture(const OpenOptions& options = {});
  Workspace& ws() { return *m_ws; }
  void reopen();
  std::string path() const { return m_dir.file("test.ksw"); }

  void createTable(const std::string& table, std::vector<FamilyOptions> families);
  void put(const std::string& table, const std::string& row, const std::string& column, int64_t ts,
           const std::string& value);
  void putNow(const std::string& table, const std::string& row, const std::string& column, const std::string& value);
  void deleteCells(const std::string& table, const std::string& row, DeleteScope scope, const std::string& column,
                   int64_t ts = kLatestTimestamp);
  void deleteRow(const std::string& table, const std::string& row, int64_t ts = kLatestTimestamp);
  std::vector<Cell> get(const std::string& table, GetOptions options);
  std::vector<Cell> getColumn(const std::string& table, const std::string& row, const std::string& column,
                              int32_t versions = 1, TimeRange range = {});
  std::vector<RowResult> scan(const std::string& table, const ScanOptions& options);
  std::vector<std::string> scanRows(const std::string& table, const ScanOptions& options);
  void flush(const std::string& table);
  void majorCompact(const std::string& table);

 private:
  TempDir m_dir;
  OpenOptions m_options;
  std::unique_ptr<Workspace> m_ws;
};

// "f:q" -> {family, qualifier}; "f" -> whole family.
ColumnSelector column(const std::string& spec);

}  // namespace keyscope::test
