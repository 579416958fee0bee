#include "scatter_command.h"

#include <filesystem>

#include "core/errors.h"
#include "core/output_set.h"
#include "core/stopwatch.h"
#include "manifest/manifest.h"
#include "manifest_base.h"
#include "scatter.h"

namespace starlens::produce {

CLI::App* add_scatter_command(CLI::App& app, ScatterOptions& options) {
  CLI::App* command = app.add_subcommand(
      "scatter",
      "Spatially scattered control: the same events at positions uniform over the frame");
  command->add_option("input", options.input, "Event stream (.sle), - for standard input")
      ->required();
  command->add_option("-o,--output", options.output, "Control stream (.sle), - for standard output")
      ->required();
  command->add_option("--manifest", options.manifest,
                      "Manifest path, ending in .manifest.json (default: beside the output)");
  command->add_option("--seed", options.seed, "Random seed of the positions");
  add_common_flags(*command, options.common, false);
  return command;
}

int run_scatter(const ScatterOptions& options, const char* tool, int argc, char** argv) {
  if (options.input != "-" && !std::filesystem::exists(options.input))
    throw_input_error(options.input, "", "no such file");
  if (options.output != "-") check_output_path(options.output, options.common.force);
  const auto base = manifest_base(options.manifest, options.output);
  if (base) check_output_path(manifest_path_for(*base), options.common.force);
  // Every output locked before the run, committed with the manifest after it.
  OutputSet outputs(options.common.force);
  if (options.output != "-") outputs.add(options.output);
  if (base) outputs.add_record(manifest_path_for(*base));
  PhaseTimes times;
  ScatterResult result;
  {
    ScopedPhase phase(times, "scatter");
    result =
        scatter_stream(options.input, outputs, options.output, options.seed, options.common.quiet);
  }
  Manifest manifest(tool, argc, argv);
  manifest.parameters() = {{"command", "scatter"},
                           {"input", options.input},
                           {"output", options.output},
                           {"manifest", options.manifest},
                           {"seed", options.seed}};
  for (const char* output_parameter : {"output", "manifest"})
    manifest.exclude_from_digest(output_parameter);
  manifest.add_input_hashed(options.input, "events", result.input_bytes, result.input_tree_sha256);
  manifest.add_output_hashed(options.output, "events_scatter_control", result.output_bytes,
                             result.output_tree_sha256);
  manifest.counts() = {{"events", result.events}, {"chunks", result.chunks}};
  manifest.section("control") = {{"kind", "scatter"},
                                 {"description",
                                  "positions uniform over the frame; counts, fluxes, colours and "
                                  "supports of the input kept chunk by chunk"},
                                 {"stream_flags", result.header.flags},
                                 {"source_sha256_tree", result.input_tree_sha256}};
  manifest.add_timings(times);
  if (base)
    manifest.commit(outputs, *base);
  else
    outputs.commit();
  return kExitOk;
}

}  // namespace starlens::produce
