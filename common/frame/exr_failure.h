#pragma once
// OpenEXR's exceptions while a file is written under its temporary name, as the one-line
// failure that names the final one (the name the user gave).
#include <exception>
#include <string>

namespace starlens {

[[noreturn]] void throw_exr_write_failure(const std::exception& error, const std::string& temp,
                                          const std::string& name);

}  // namespace starlens
