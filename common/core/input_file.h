#pragma once
// What an input path is, said as it is: a missing path, a folder, a device or other special
// file, an empty file. Every reader of a named input file checks it first, so that /dev/zero,
// /dev/null or a folder is not reported as "no such file" or parsed as data.
#include <string>

namespace starlens {

enum class EmptyInput { refused, allowed };

// Throws InputError("<path>: [<field>: ]no such file | is a folder | is not a regular file
// (a device, FIFO or socket) | is empty") unless `path` is a regular file (a symbolic link is
// judged by its target) and, with EmptyInput::refused, holds at least one byte.
void require_input_file(const std::string& path, const std::string& field = "",
                        EmptyInput empty = EmptyInput::refused);

}  // namespace starlens
