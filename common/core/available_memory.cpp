#include "core/available_memory.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace starlens {
namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::uint64_t> read_number(const std::string& path) {
  const auto text = read_text(path);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::uint64_t value = 0;
  if (!(in >> value)) return std::nullopt;  // "max": no limit
  return value;
}

// The value of `key` in a memory.stat text ("anon 123456" lines, bytes).
std::optional<std::uint64_t> parse_stat_field(const std::string& stat, const std::string& key) {
  std::istringstream lines(stat);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    if (fields >> name >> value && name == key) return value;
  }
  return std::nullopt;
}

// Bytes the process's memory control group still allows: its limit less its anonymous memory
// (page cache counts in the usage but is reclaimed under the limit, as MemAvailable counts it as
// available). cgroup v2 (memory.max, memory.stat "anon") or v1 (memory.limit_in_bytes,
// memory.stat "total_rss"); a v1 hierarchy mounted as the container's own root is found there.
std::optional<std::uint64_t> cgroup_memory_left() {
  const auto text = read_text("/proc/self/cgroup");
  if (!text) return std::nullopt;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    const bool v2 = controllers.empty();
    if (!v2 && ("," + controllers + ",").find(",memory,") == std::string::npos) continue;
    const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    for (const std::string& folder : {root + path, root}) {
      const auto limit = read_number(folder + (v2 ? "/memory.max" : "/memory.limit_in_bytes"));
      if (!limit) continue;
      std::optional<std::uint64_t> used;
      if (const auto stat = read_text(folder + "/memory.stat"))
        used = parse_stat_field(*stat, v2 ? "anon" : "total_rss");
      if (!used) used = read_number(folder + (v2 ? "/memory.current" : "/memory.usage_in_bytes"));
      if (!used) continue;
      return *limit > *used ? *limit - *used : 0;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_mem_available(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("MemAvailable:")) continue;
    std::istringstream fields(line.substr(13));
    std::uint64_t kilobytes = 0;
    std::string unit;
    if (!(fields >> kilobytes >> unit) || unit != "kB") return std::nullopt;
    return kilobytes * 1024;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> available_memory_bytes() {
  std::optional<std::uint64_t> available;
  if (const auto meminfo = read_text("/proc/meminfo")) available = parse_mem_available(*meminfo);
  if (const auto left = cgroup_memory_left())
    available = available ? std::min(*available, *left) : *left;
  return available;
}

std::string describe_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace starlens
