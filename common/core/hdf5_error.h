#pragma once
// The system's reason behind a failed HDF5 call, for messages that name it ("cannot flush:
// No space left on device") rather than guess.
#include <string>

namespace starlens {

// `what` followed by the reason HDF5's error stack holds for the call that just failed (its file
// driver records errno's message there), or by " (disk full?)" when the stack names none. Call
// it right after the failed call: the next HDF5 call clears the stack.
std::string hdf5_failure(const std::string& what);

}  // namespace starlens
