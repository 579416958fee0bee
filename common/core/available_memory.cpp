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

// The cgroup v2 folder of this process ("0::/path" in /proc/self/cgroup).
std::optional<std::string> cgroup_folder() {
  const auto text = read_text("/proc/self/cgroup");
  if (!text) return std::nullopt;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("0::")) return "/sys/fs/cgroup" + line.substr(3);
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
  if (const auto folder = cgroup_folder()) {
    const auto limit = read_number(*folder + "/memory.max");
    const auto used = read_number(*folder + "/memory.current");
    if (limit && used) {
      const std::uint64_t left = *limit > *used ? *limit - *used : 0;
      available = available ? std::min(*available, left) : left;
    }
  }
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
