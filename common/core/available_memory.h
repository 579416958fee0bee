#pragma once
// How much memory a run may still take: what the kernel reports it can hand out without
// swapping (MemAvailable of /proc/meminfo), capped by the limit of the process's control group
// (cgroup v2 or v1: the limit less the group's anonymous memory) when one is set.
#include <cstdint>
#include <optional>
#include <string>

namespace starlens {

// nullopt when neither is readable (not Linux, /proc not mounted).
std::optional<std::uint64_t> available_memory_bytes();

// The "MemAvailable:" figure of a /proc/meminfo text, in bytes (its unit is kB = 1024 bytes).
std::optional<std::uint64_t> parse_mem_available(const std::string& meminfo);

// "6.4 GiB", "38 MiB": sizes in messages.
std::string describe_bytes(std::uint64_t bytes);

}  // namespace starlens
