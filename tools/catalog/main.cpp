// starlens-catalog: real and synthetic star catalogues -> the HEALPix cell store catalog.h5
// (docs/design.md section 4, docs/usage/catalog.md). Subcommands: ingest, synth, info.
#include "core/errors.h"
#include "core/tool_main.h"
#include "info_command.h"
#include "ingest_command.h"
#include "manifest/replay.h"
#include "store_command.h"
#include "synth_command.h"

namespace starlens::catalog {
namespace {

int run(int argc, char** argv) {
  CLI::App app("starlens-catalog: star catalogues -> catalog.h5 (HEALPix NESTED cells)");
  add_version_flag(app, kToolName);
  app.require_subcommand(1);
  IngestOptions ingest;
  CLI::App* ingest_command = add_ingest_command(app, ingest);
  SynthOptions synth;
  CLI::App* synth_command = add_synth_command(app, synth);
  InfoOptions info;
  CLI::App* info_command = add_info_command(app, info);
  const int parsed = parse_command_line(app, argc, argv, kToolName);
  if (parsed >= 0) return parsed;
  if (ingest_command->parsed()) return run_ingest(ingest, argc, argv);
  if (synth_command->parsed()) return run_synth(synth, argc, argv);
  if (info_command->parsed()) return run_info(info, argc, argv);
  return kExitBadInput;
}

}  // namespace
}  // namespace starlens::catalog

int main(int argc, char** argv) {
  return starlens::run_stage_main(starlens::catalog::kToolName, argc, argv, starlens::catalog::run);
}
