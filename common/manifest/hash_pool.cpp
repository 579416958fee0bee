// A fixed set of detached worker threads around two task queues. The pool lives for the whole
// process (never destroyed): a worker may still be parked on its condition variable at exit.
// Shrinking lets surplus workers leave when they next look for work.
#include "manifest/hash_pool.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace starlens {
namespace {

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

class HashPool {
 public:
  void resize(int threads) {
    std::lock_guard lock(mutex_);
    target_ = threads > 0 ? threads : hardware_threads();
    while (running_ < target_) {
      ++running_;
      std::thread([this] { work(); }).detach();
    }
    changed_.notify_all();  // surplus workers leave
  }

  int size() {
    std::lock_guard lock(mutex_);
    return target_;
  }

  void submit(std::function<void()> task, HashPriority priority) {
    {
      std::lock_guard lock(mutex_);
      if (target_ == 0) target_ = hardware_threads();
      while (running_ < target_) {
        ++running_;
        std::thread([this] { work(); }).detach();
      }
      (priority == HashPriority::stream ? stream_ : background_).push_back(std::move(task));
    }
    changed_.notify_one();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(
          lock, [this] { return running_ > target_ || !stream_.empty() || !background_.empty(); });
      if (running_ > target_) {
        --running_;
        changed_.notify_one();  // a wake-up meant for a worker that stays
        return;
      }
      auto& queue = stream_.empty() ? background_ : stream_;
      std::function<void()> task = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      task();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> stream_, background_;
  int target_ = 0;  // 0: not yet sized
  int running_ = 0;
};

HashPool& pool() {
  static HashPool* shared = new HashPool();  // never destroyed: workers outlive main()
  return *shared;
}

}  // namespace

void set_hash_threads(int threads) {
  pool().resize(threads);
}

int hash_threads() {
  const int size = pool().size();
  return size > 0 ? size : hardware_threads();
}

void submit_hash_task(std::function<void()> task, HashPriority priority) {
  pool().submit(std::move(task), priority);
}

}  // namespace starlens
