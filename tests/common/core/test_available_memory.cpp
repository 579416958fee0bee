// The available-memory figure splat checks a frame against: /proc/meminfo's MemAvailable.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "core/available_memory.h"

using namespace starlens;

TEST_CASE("MemAvailable is read in kB of 1024 bytes") {
  const std::string meminfo =
      "MemTotal:       16318504 kB\nMemFree:          263540 kB\nMemAvailable:    9876543 kB\n";
  CHECK(parse_mem_available(meminfo) == std::uint64_t{9876543} * 1024);
  CHECK(!parse_mem_available("MemTotal: 5 kB\n"));
  CHECK(!parse_mem_available("MemAvailable: lots\n"));
  CHECK(describe_bytes(512) == "512 bytes");
  CHECK(describe_bytes(std::uint64_t{6} << 30) == "6.0 GiB");
  CHECK(describe_bytes(std::uint64_t{38} << 20) == "38.0 MiB");
}

TEST_CASE("this machine's available memory is known and within its total") {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t total_kb = 0;
  while (in >> key >> total_kb >> unit)
    if (key == "MemTotal:") break;
  REQUIRE(total_kb > 0);
  const auto available = available_memory_bytes();
  REQUIRE(available.has_value());
  CHECK(*available > 0);
  CHECK(*available <= total_kb * 1024);
}
