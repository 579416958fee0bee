#pragma once
// Small text inputs read whole (budgets, manifests): a folder, a device, a file that cannot be
// opened or one larger than the reader allows is bad input named with what it is, before any
// byte is parsed.
#include <cstdint>
#include <filesystem>
#include <string>

namespace starlens {

// Reads `path` whole. `what` names the expected content in messages ("budget", "manifest").
// Regular files and pipes are read; anything else (a folder, /dev/null and other devices, a
// socket), a path that cannot be opened or read, and more than `max_bytes` bytes throw
// InputError("<path>: <what it is>, not a <what>").
std::string read_text_input(const std::filesystem::path& path, const std::string& what,
                            std::uint64_t max_bytes);

}  // namespace starlens
