#pragma once
// The threads that compute content hashes (block_tree_sha256.h): one small pool per process,
// shared by every hash a stage runs at once (its inputs in the background, the stream it writes
// or reads), so that together they never use more threads than --threads allows. Two queues:
// blocks of a stream come first (a writer or reader waits for their buffers), blocks of a file
// hashed in the background after. Tasks must not throw and must not wait for other tasks.
#include <functional>

namespace starlens {

enum class HashPriority { stream, background };

// The pool's size: `threads` > 0 sets it (--threads), 0 means one per hardware thread (the
// default until a tool sets it). Tasks already queued run on the new threads.
void set_hash_threads(int threads);
int hash_threads();
void submit_hash_task(std::function<void()> task, HashPriority priority);

}  // namespace starlens
