#pragma once
// The two failure kinds of docs/design.md section 2: bad input (exit 2) and a failed run (exit 1).
// Messages are one line naming the file, the field and what was wrong.
#include <stdexcept>
#include <string>

namespace starlens {

// A bad argument or a bad input file: the tool exits with status 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that failed for another reason (I/O failure, GPU error, full disk): exit status 1.
class RunFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// Throws InputError("<file>: <field>: <reason>"); an empty field is left out.
[[noreturn]] void throw_input_error(const std::string& file, const std::string& field,
                                    const std::string& reason);
// Throws RunFailure("<what>: <reason>").
[[noreturn]] void throw_run_failure(const std::string& what, const std::string& reason);

}  // namespace starlens
