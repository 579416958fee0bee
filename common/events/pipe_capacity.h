#pragma once
// A pipe's buffer is 64 KiB by default: a stream written through it moves in 64 KiB pieces,
// one system call and one wake-up of the other end each. Enlarged to the system's limit
// (/proc/sys/fs/pipe-max-size, 1 MiB unless raised), writer and reader move MiB-sized pieces.
namespace starlens {

// If `descriptor` is a pipe, grows its buffer as far as the system allows; anything else, or a
// refusal (an unprivileged process over its pipe quota), leaves it as it is.
void enlarge_pipe(int descriptor);

// Whether the descriptor is a pipe (a FIFO).
bool is_pipe(int descriptor);

// The most bytes the pipe can hold, now or once its other end enlarges it as enlarge_pipe does:
// the larger of its capacity and the system's limit.
long pipe_capacity_bound(int descriptor);

}  // namespace starlens
