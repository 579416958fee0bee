// read_text_input: what a budget or manifest path may be, and the message for what it is not.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "core/text_input.h"
#include "fresh_folder.h"

namespace fs = std::filesystem;
using starlens::InputError;
using starlens::read_text_input;

namespace {

using starlens::testing::fresh_folder;

std::string error_of(const fs::path& path, std::uint64_t max_bytes = 1000) {
  try {
    read_text_input(path, "budget", max_bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a regular file is read whole") {
  const auto folder = fresh_folder("text_input");
  std::ofstream(folder / "b.json") << "{\"max_rel\": 1}\n";
  CHECK(read_text_input(folder / "b.json", "budget", 1000) == "{\"max_rel\": 1}\n");
  std::ofstream(folder / "empty.json").close();
  CHECK(read_text_input(folder / "empty.json", "budget", 1000).empty());
  fs::remove_all(folder);
}

TEST_CASE("a folder, a device, a missing or oversized file is bad input saying what it is") {
  const auto folder = fresh_folder("text_input_bad");
  CHECK(error_of(folder) == folder.string() + ": is a folder, not a budget file");
  CHECK(error_of("/dev/null") == "/dev/null: is a character device, not a budget file");
  CHECK(error_of("/dev/zero") == "/dev/zero: is a character device, not a budget file");
  CHECK(error_of(folder / "missing.json") ==
        (folder / "missing.json").string() +
            ": budget cannot be opened: No such file or directory");
  std::ofstream(folder / "file") << "x";
  CHECK(error_of(folder / "file" / "below") ==
        (folder / "file" / "below").string() + ": budget cannot be opened: Not a directory");
  std::ofstream(folder / "big.json") << std::string(1001, ' ');
  CHECK(error_of(folder / "big.json") ==
        (folder / "big.json").string() +
            ": 1001 bytes: larger than any budget (1000 bytes at most)");
  CHECK(error_of(folder / "big.json", 1001) == "no error");
  fs::remove_all(folder);
}

TEST_CASE("a pipe is read to its end, within the limit") {
  const auto folder = fresh_folder("text_input_pipe");
  const fs::path fifo = folder / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const pid_t writer = ::fork();
  REQUIRE(writer >= 0);
  if (writer == 0) {
    std::ofstream(fifo) << std::string(70000, 'a');
    ::_exit(0);
  }
  CHECK(read_text_input(fifo, "budget", 100000) == std::string(70000, 'a'));
  ::waitpid(writer, nullptr, 0);
  const pid_t second = ::fork();
  REQUIRE(second >= 0);
  if (second == 0) {
    std::ofstream(fifo) << std::string(70000, 'a');
    ::_exit(0);
  }
  CHECK(error_of(fifo, 1000) == fifo.string() + ": more than 1000 bytes: larger than any budget");
  ::waitpid(second, nullptr, 0);  // killed by SIGPIPE: the reader stopped at the limit
  fs::remove_all(folder);
}
