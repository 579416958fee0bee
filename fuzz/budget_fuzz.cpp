// Error budgets as starlens-compare reads them (read_budget: JSON, keys, types and ranges),
// and the limits as the report and manifest record them. InputError is the expected outcome of
// a bad budget; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "compare/budget.h"
#include "core/errors.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("budget.json");
  try {
    const starlens::compare::Budget budget =
        starlens::compare::read_budget(input.write(data, size));
    (void)starlens::compare::budget_to_json(budget).dump(2);
  } catch (const starlens::InputError&) {
  }
  return 0;
}
