#pragma once
// The outputs of one run, committed together (docs/design.md section 2): each is written under
// a temporary name beside its final one, and commit() makes them visible in the order that
// keeps every output under a final name complete with its manifest:
//   1. every temporary is fsynced (the record, the manifest, is written last, after the
//      outputs' hashes);
//   2. outputs of an earlier run under the final names (--force) are removed;
//   3. the record is renamed into place and its folder fsynced;
//   4. the outputs are renamed into place, in the order they were added, and their folders
//      fsynced.
// A run killed between 2 and 4 leaves a record whose outputs are missing (not committed), never
// an output without its record. A failure in 2 to 4 removes every final name of the set, so a
// failed run leaves nothing under a final name. Each output is locked while the set holds it
// (flock on "<output>.lock", which names the holder's pid): a second writer is refused with
// InputError naming the output and the holder. Temporaries are named "<output>.tmp.<pid>.<n>";
// adding an output removes those of processes that are no longer alive.
#include <deque>
#include <filesystem>
#include <string>

namespace starlens {

// Scratch files that are never committed (an external sort's runs) need no lock.
enum class OutputLocking { lock, none };

class OutputSet {
 public:
  explicit OutputSet(bool force, OutputLocking locking = OutputLocking::lock)
      : force_(force), locking_(locking) {}
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  // Not committed: removes the temporaries and releases the locks.
  ~OutputSet();

  // Adds an output: checks its path (check_output_path), takes its lock, removes stale
  // temporaries of dead runs and returns the temporary path to write. Adding a path again
  // returns its temporary. Throws InputError for a path that may not be written or is locked.
  const std::filesystem::path& add(const std::filesystem::path& final_path);
  // Adds the run's record (its manifest), renamed before the other outputs.
  const std::filesystem::path& add_record(const std::filesystem::path& final_path);
  bool contains(const std::filesystem::path& final_path) const;
  // The temporary of an output added before; RunFailure otherwise.
  const std::filesystem::path& temp_path(const std::filesystem::path& final_path) const;

  // fsyncs an output's temporary now, so that a stage can overlap it with other work (commit
  // then finds it on the disk); RunFailure naming the output otherwise.
  void sync(const std::filesystem::path& final_path) const;
  // Makes every output visible in the order above; throws RunFailure naming the file and the
  // system's reason, after removing every final name of the set.
  void commit();
  // Removes the temporaries and releases the locks (the destructor does it when not committed).
  void abandon();

 private:
  struct Entry {
    std::filesystem::path final_path;
    std::filesystem::path temp_path;
    std::filesystem::path lock_path;
    int lock_fd = -1;
    bool record = false;
  };
  Entry& add_entry(const std::filesystem::path& final_path, bool record);
  void release_locks();
  // Removes every final name of the set and the temporaries, then throws.
  [[noreturn]] void roll_back(const std::string& file, const std::string& reason);

  bool force_;
  OutputLocking locking_;
  bool committed_ = false;
  std::deque<Entry> entries_;  // stable references to the temporaries
};

// Checks an output path without creating anything (used to validate all outputs before a
// long run starts). Throws InputError naming the path: missing or unwritable folder, a folder,
// or an existing file without `force`.
void check_output_path(const std::filesystem::path& final_path, bool force);

}  // namespace starlens
