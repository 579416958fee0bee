#include "core/tool_main.h"

#include <omp.h>

#include <iostream>

#include "build_info.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/one_line_message.h"
#include "git_describe.h"

namespace starlens {

void add_version_flag(CLI::App& app, const std::string& tool_name) {
  // Every option's default shows in --help (options added after this, and subcommands'
  // options, which inherit it).
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", tool_name + " " + STARLENS_VERSION + " (" +
                                        STARLENS_GIT_DESCRIBE + ", " + STARLENS_BUILD_TYPE + ", " +
                                        STARLENS_COMPILER + ", gpu " + STARLENS_GPU_BACKEND + ")");
}

void add_common_flags(CLI::App& app, CommonOptions& options, bool parallel) {
  app.add_flag("--force", options.force, "Overwrite existing outputs");
  app.add_flag("--quiet", options.quiet, "No progress bar");
  app.add_option("--from-manifest", options.from_manifest,
                 "Rerun with a manifest's parameters after checking its input hashes; report "
                 "whether outputs and counts match (outputs go to <name>.replay.<ext>, or -o)");
  if (parallel)
    app.add_option("--threads", options.threads, "Worker threads, 0 for all cores")
        ->check(thread_count());
}

int parse_command_line(CLI::App& app, int argc, char** argv, const std::string& tool_name) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 checks required options before it reports arguments it did not expect: a
    // misspelt flag would otherwise read as "--input is required".
    const std::vector<std::string> unexpected = app.remaining(true);
    if (!unexpected.empty() && !dynamic_cast<const CLI::ValidationError*>(&e)) {
      std::cerr << tool_name << ": error: command line: unknown argument '" << unexpected.front()
                << "' (see --help)\n";
      return kExitBadInput;
    }
    std::cerr << tool_name << ": error: command line: " << one_line_message(e.what())
              << " (see --help)\n";
    return kExitBadInput;
  }
  return -1;
}

int run_tool(const std::string& tool_name, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    std::cerr << tool_name << ": error: " << one_line_message(e.what()) << '\n';
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << tool_name << ": error: out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << tool_name << ": error: " << one_line_message(e.what()) << '\n';
    return kExitFailure;
  }
}

int apply_thread_count(int requested) {
  if (requested > 0) omp_set_num_threads(requested);
  return requested > 0 ? requested : omp_get_max_threads();
}

}  // namespace starlens
