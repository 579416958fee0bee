#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/atomic_output.h"
#include "core/errors.h"
#include "fresh_folder.h"

namespace fs = std::filesystem;
using starlens::AtomicOutput;
using starlens::InputError;

using starlens::testing::fresh_folder;

TEST_CASE("an output appears under its final name only after commit") {
  const auto folder = fresh_folder("atomic");
  const auto target = folder / "out.bin";
  {
    AtomicOutput output(target, false);
    std::ofstream(output.temp_path()) << "data";
    CHECK_FALSE(fs::exists(target));
    output.commit();
  }
  CHECK(fs::exists(target));
  CHECK(fs::file_size(target) == 4);
  fs::remove_all(folder);
}

TEST_CASE("an abandoned output leaves nothing behind") {
  const auto folder = fresh_folder("abandon");
  const auto target = folder / "out.bin";
  fs::path temp;
  {
    AtomicOutput output(target, false);
    temp = output.temp_path();
    std::ofstream(temp) << "partial";
  }
  CHECK_FALSE(fs::exists(target));
  CHECK_FALSE(fs::exists(temp));
  fs::remove_all(folder);
}

TEST_CASE("existing outputs need force; missing folders are bad input") {
  const auto folder = fresh_folder("force");
  const auto target = folder / "out.bin";
  std::ofstream(target) << "old";
  CHECK_THROWS_AS(AtomicOutput(target, false), InputError);
  CHECK_NOTHROW(AtomicOutput(target, true));
  CHECK_THROWS_WITH_AS(AtomicOutput(folder / "missing" / "x.png", true),
                       doctest::Contains("does not exist"), InputError);
  fs::remove_all(folder);
}

TEST_CASE("start_writeback is a hint: a written file keeps its bytes, a missing one is no error") {
  const auto folder = fresh_folder("writeback");
  const auto target = folder / "out.bin";
  {
    AtomicOutput output(target, false);
    std::ofstream(output.temp_path()) << "partly written";
    starlens::start_writeback(output.temp_path());
    std::ofstream(output.temp_path(), std::ios::app) << ", then finished";
    output.commit();
  }
  std::ifstream in(target);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(content == "partly written, then finished");
  CHECK_NOTHROW(starlens::start_writeback(folder / "missing.bin"));
  fs::remove_all(folder);
}
