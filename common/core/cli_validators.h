#pragma once
// CLI11 validators the tools share: an output's name (standard output only where the output
// can be streamed, an extension that names another format refused) and a thread count. A
// refused value is a parse error: one line naming the flag, exit 2.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace starlens {

// `format` names the output's format for the message ("OpenEXR"), `extensions` the ones it
// takes (".exr"). A name whose extension is that of another known format (.png for an EXR
// output) is refused with the reason; names with other or no extensions are taken as given.
// "-" is refused unless `standard_output`.
CLI::Validator output_name(const std::string& format, const std::vector<std::string>& extensions,
                           bool standard_output = false);

// A thread count: a whole number >= 0, 0 for all cores.
CLI::Validator thread_count();

}  // namespace starlens
