// starlens-trace: exact lens maps on an adaptive image-plane mesh (docs/design.md section 3), and
// `starlens-trace inspect` to summarise and picture one.
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/tool_main.h"
#include "inspect.h"
#include "manifest/replay.h"
#include "trace_run.h"

namespace starlens {
namespace {

constexpr char kTool[] = "starlens-trace";

int run(int argc, char** argv) {
  CLI::App app{
      "Trace a lens map: camera rays through a black-hole spacetime, on an adaptive "
      "image-plane mesh, written to lensmap.h5"};
  add_version_flag(app, kTool);
  TraceOptions trace;
  add_trace_flags(app, trace);
  add_common_flags(app, trace.common, true);
  InspectOptions inspect;
  CLI::App* inspect_command =
      app.add_subcommand("inspect", "Summarise a lensmap.h5 and optionally picture it");
  inspect_command->add_option("lensmap", inspect.lensmap, "The lens map")->required();
  inspect_command->add_option("--png", inspect.png, "Write a diagnostic picture")
      ->check(output_name("PNG", {".png"}));
  inspect_command->add_flag("--edges", inspect.edges, "Draw the triangles' edges too");
  inspect_command->add_option("--quantity", inspect.quantity,
                              "Per-pixel quantities for --raster, comma-separated: mu, parity, g, "
                              "deflection, source, critical, stmap");
  inspect_command->add_option("--raster", inspect.raster,
                              "Write the quantities as a raster: OUT.exr or OUT.fits (with WCS)");
  inspect_command->add_flag("--force", inspect.force, "Overwrite the picture and the raster");
  const int parsed = parse_command_line(app, argc, argv, kTool);
  if (parsed >= 0) return parsed;
  if (inspect_command->parsed()) {
    if (inspect.edges && inspect.png.empty())
      throw_input_error("(arguments)", "--edges", "needs --png");
    return run_inspect(inspect);
  }
  if (trace.frame && trace.path.empty())
    throw_input_error("(arguments)", "--frame", "needs --path");
  if (!trace.orbit_map.empty() && trace.path.empty())
    throw_input_error("(arguments)", "--orbit-map", "needs --path");
  if (!trace.path.empty())
    for (const std::string& flag : path_set_flags())
      if (app.count(flag) > 0)
        throw_input_error("(arguments)", flag, "not with --path (the path sets it)");
  return run_trace(trace, argc, argv);
}

}  // namespace
}  // namespace starlens

int main(int argc, char** argv) {
  // Maps traced before --ray-azimuth existed evaluated the closed form for every ray.
  return starlens::run_stage_main(starlens::kTool, argc, argv, starlens::run,
                                  {{"ray_azimuth", {"--ray-azimuth", "closed-form"}}});
}
