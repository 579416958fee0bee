// OutputSet: outputs and their record become visible together, failures leave no final name,
// a second writer is refused, stale temporaries of dead processes are removed.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/output_set.h"
#include "fresh_folder.h"

namespace fs = std::filesystem;
using starlens::InputError;
using starlens::OutputSet;
using starlens::RunFailure;

namespace {

fs::path fresh_folder(const std::string& name) {
  return starlens::testing::fresh_folder("set_" + name);
}

std::string content(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Names in `folder` other than those given.
int other_entries(const fs::path& folder, std::initializer_list<std::string> expected) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (std::find(expected.begin(), expected.end(), name) == expected.end()) {
      MESSAGE("unexpected entry: " << name);
      ++count;
    }
  }
  return count;
}

// The pid of a process that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

// Runs `body` in a child process; its exit status.
template <class Body>
int in_child(Body body) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(body());
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

}  // namespace

TEST_CASE("outputs and record appear together at commit, and not before") {
  const auto folder = fresh_folder("together");
  const auto frame = folder / "f.exr";
  const auto png = folder / "f.png";
  const auto record = folder / "f.exr.manifest.json";
  // An earlier run's complete outputs, replaced with force.
  std::ofstream(frame) << "old frame";
  std::ofstream(png) << "old png";
  std::ofstream(record) << "old record";
  {
    OutputSet outputs(true);
    std::ofstream(outputs.add(frame)) << "frame";
    std::ofstream(outputs.add(png)) << "png";
    std::ofstream(outputs.add_record(record)) << "record";
    CHECK(outputs.temp_path(frame).filename().string().rfind(
              "f.exr.tmp." + std::to_string(::getpid()) + ".", 0) == 0);
    CHECK(fs::exists(folder / "f.exr.lock"));
    CHECK(content(frame) == "old frame");  // nothing visible before the commit
    CHECK(content(record) == "old record");
    outputs.commit();
  }
  CHECK(content(frame) == "frame");
  CHECK(content(png) == "png");
  CHECK(content(record) == "record");
  // No temporaries and no lock files are left.
  CHECK(other_entries(folder, {"f.exr", "f.png", "f.exr.manifest.json"}) == 0);
  fs::remove_all(folder);
}

TEST_CASE("the commit removes earlier outputs, renames the record, then the outputs") {
  // The order, as the kernel reports it to a watcher of the folder (inotify).
  const auto folder = fresh_folder("order");
  for (const char* name : {"f.exr", "f.png", "f.exr.manifest.json"})
    std::ofstream(folder / name) << "old";
  OutputSet outputs(true);
  std::ofstream(outputs.add(folder / "f.exr")) << "frame";
  std::ofstream(outputs.add(folder / "f.png")) << "png";
  std::ofstream(outputs.add_record(folder / "f.exr.manifest.json")) << "record";
  const int watch = ::inotify_init1(IN_NONBLOCK);
  REQUIRE(watch >= 0);
  REQUIRE(::inotify_add_watch(watch, folder.c_str(), IN_MOVED_TO | IN_DELETE) >= 0);
  outputs.commit();
  std::vector<std::string> seen;
  alignas(inotify_event) char buffer[8192];
  for (ssize_t got; (got = ::read(watch, buffer, sizeof buffer)) > 0;) {
    for (char* at = buffer; at < buffer + got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(at);
      const std::string name = event->len > 0 ? event->name : "";
      if (name.find(".lock") == std::string::npos)
        seen.push_back(((event->mask & IN_DELETE) ? "delete " : "rename ") + name);
      at += sizeof(inotify_event) + event->len;
    }
  }
  ::close(watch);
  const std::vector<std::string> expected = {
      "delete f.exr", "delete f.png", "rename f.exr.manifest.json", "rename f.exr", "rename f.png"};
  CHECK(seen == expected);
  fs::remove_all(folder);
}

TEST_CASE("a run that fails before its commit leaves the earlier outputs as they were") {
  const auto folder = fresh_folder("abandon");
  const auto frame = folder / "f.exr";
  const auto record = folder / "f.exr.manifest.json";
  std::ofstream(frame) << "old frame";
  std::ofstream(record) << "old record";
  {
    OutputSet outputs(true);
    std::ofstream(outputs.add(frame)) << "partial";
    outputs.add_record(record);  // never written: the run failed before its manifest
  }
  CHECK(content(frame) == "old frame");
  CHECK(content(record) == "old record");
  CHECK(other_entries(folder, {"f.exr", "f.exr.manifest.json"}) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a commit with an unwritten output fails naming it and changes nothing") {
  const auto folder = fresh_folder("unwritten");
  const auto frame = folder / "f.exr";
  const auto record = folder / "f.exr.manifest.json";
  OutputSet outputs(false);
  std::ofstream(outputs.add_record(record)) << "record";
  outputs.add(frame);
  CHECK_THROWS_WITH_AS(outputs.commit(), doctest::Contains("f.exr: temporary output missing"),
                       RunFailure);
  CHECK(other_entries(folder, {}) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a rename that fails removes every final name of the set") {
  const auto folder = fresh_folder("rename");
  const auto frame = folder / "f.exr";
  const auto record = folder / "f.exr.manifest.json";
  std::ofstream(frame) << "old frame";
  OutputSet outputs(true);
  std::ofstream(outputs.add(frame)) << "frame";
  std::ofstream(outputs.add_record(record)) << "record";
  // Something takes the record's name after the checks: a folder with a file in it, which no
  // rename can replace.
  fs::create_directories(record / "x");
  CHECK_THROWS_WITH_AS(outputs.commit(), doctest::Contains("f.exr.manifest.json: rename failed"),
                       RunFailure);
  CHECK_FALSE(fs::exists(frame));  // the earlier frame was removed in step 2, the new one never
                                   // appeared
  CHECK(fs::is_directory(record));
  CHECK(other_entries(folder, {"f.exr.manifest.json"}) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a second writer of a locked output is refused, naming the holder's pid") {
  const auto folder = fresh_folder("lock");
  const auto frame = folder / "f.exr";
  const std::string parent = std::to_string(::getpid());
  {
    OutputSet outputs(true);
    std::ofstream(outputs.add(frame)) << "frame";
    const int refused = in_child([&] {
      try {
        OutputSet second(true);
        second.add(frame);
      } catch (const InputError& e) {
        const std::string message = e.what();
        return message.find("f.exr: output is being written by another process (pid " + parent +
                            ")") != std::string::npos
                   ? 0
                   : 2;
      } catch (...) {
        return 3;
      }
      return 1;  // not refused
    });
    CHECK(refused == 0);
    outputs.commit();
  }
  // Released at the commit: another process may write it now.
  const int accepted = in_child([&] {
    try {
      OutputSet second(true);
      std::ofstream(second.add(frame)) << "second";
      second.commit();
    } catch (...) {
      return 1;
    }
    return 0;
  });
  CHECK(accepted == 0);
  CHECK(content(frame) == "second");
  CHECK(other_entries(folder, {"f.exr"}) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a lock held through flock by another program refuses the writer") {
  const auto folder = fresh_folder("flock");
  const auto frame = folder / "f.exr";
  const auto lock = folder / "f.exr.lock";
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t holder = ::fork();
  if (holder == 0) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0666);
    ::flock(fd, LOCK_EX);
    const char byte = 1;
    (void)!::write(ready[1], &byte, 1);
    ::pause();
    ::_exit(0);
  }
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  OutputSet outputs(true);
  CHECK_THROWS_WITH_AS(outputs.add(frame), doctest::Contains("(pid unknown); refusing"),
                       InputError);
  ::kill(holder, SIGKILL);
  int status = 0;
  ::waitpid(holder, &status, 0);
  // The holder is gone: its lock file stays, unlocked, and is taken and removed.
  CHECK_NOTHROW(outputs.add(frame));
  outputs.abandon();
  CHECK(other_entries(folder, {}) == 0);
  ::close(ready[0]);
  ::close(ready[1]);
  fs::remove_all(folder);
}

TEST_CASE("adding an output removes the temporaries of dead processes, and only those") {
  const auto folder = fresh_folder("stale");
  const auto frame = folder / "f.exr";
  const std::string dead = std::to_string(dead_pid());
  const std::string alive = std::to_string(::getppid());
  const std::string stale = "f.exr.tmp." + dead + ".0";
  const std::string live = "f.exr.tmp." + alive + ".3";
  const std::string other_output = "g.exr.tmp." + dead + ".0";
  const std::string other_record = "f.exr.manifest.json.tmp." + dead + ".1";
  for (const std::string& name :
       {stale, live, other_output, other_record, std::string("f.exr.tmpx")})
    std::ofstream(folder / name) << "left";
  OutputSet outputs(false);
  outputs.add(frame);
  CHECK_FALSE(fs::exists(folder / stale));
  CHECK(fs::exists(folder / live));          // its process is alive
  CHECK(fs::exists(folder / other_output));  // another output's
  CHECK(fs::exists(folder / other_record));  // the record's, removed when it is added
  CHECK(fs::exists(folder / "f.exr.tmpx"));  // not a temporary's name
  outputs.add_record(folder / "f.exr.manifest.json");
  CHECK_FALSE(fs::exists(folder / other_record));
  outputs.abandon();
  fs::remove_all(folder);
}

TEST_CASE("paths are checked as before: folders, existing outputs without force") {
  const auto folder = fresh_folder("checks");
  std::ofstream(folder / "old.bin") << "old";
  OutputSet outputs(false);
  CHECK_THROWS_WITH_AS(outputs.add(folder / "old.bin"), doctest::Contains("output exists"),
                       InputError);
  CHECK_THROWS_WITH_AS(outputs.add(folder / "missing" / "x.bin"),
                       doctest::Contains("does not exist"), InputError);
  CHECK_THROWS_WITH_AS(outputs.add(folder), doctest::Contains("output path is a folder"),
                       InputError);
  CHECK_THROWS_AS((void)outputs.temp_path(folder / "never.bin"), RunFailure);
  fs::remove_all(folder);
}
