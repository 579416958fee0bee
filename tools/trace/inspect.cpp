#include "inspect.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>

#include "core/atomic_output.h"
#include "core/errors.h"
#include "frame/frame_io.h"
#include "frame/raster_io.h"
#include "inspect_picture.h"
#include "lensmap/lensmap_metadata.h"
#include "lensmap_raster.h"

namespace starlens {
namespace {

constexpr std::uint64_t kRowsPerRead = 1 << 16;

enum class RasterFormat { none, exr, fits };

// The raster's format from its extension; InputError naming the flag for another one, for a
// raster without quantities or quantities without a raster.
RasterFormat raster_format(const InspectOptions& options) {
  if (options.raster.empty()) {
    if (!options.quantity.empty()) throw_input_error("(arguments)", "--quantity", "needs --raster");
    return RasterFormat::none;
  }
  if (options.quantity.empty()) throw_input_error("(arguments)", "--raster", "needs --quantity");
  const std::string extension = std::filesystem::path(options.raster).extension().string();
  if (extension == ".exr") return RasterFormat::exr;
  if (extension == ".fits" || extension == ".fit") return RasterFormat::fits;
  throw_input_error("(arguments)", "--raster",
                    "'" + options.raster + "' must end in .exr or .fits");
}

void print_summary(const LensmapReader& reader, std::ostream& out) {
  const LensmapAttributes& a = reader.attributes();
  std::array<std::uint64_t, 3> by_status{};
  for (std::uint64_t first = 0; first < reader.vertex_count(); first += kRowsPerRead)
    for (const auto& v :
         reader.read_vertices(first, std::min(kRowsPerRead, reader.vertex_count() - first)))
      ++by_status[v.status];
  std::map<int, std::uint64_t> by_depth;
  std::uint64_t mirrored = 0;
  double mu_min = std::numeric_limits<double>::infinity(), mu_max = 0;
  for (std::uint64_t first = 0; first < reader.triangle_count(); first += kRowsPerRead) {
    for (const auto& t :
         reader.read_triangles(first, std::min(kRowsPerRead, reader.triangle_count() - first))) {
      ++by_depth[t.depth];
      mirrored += t.parity < 0;
      mu_min = std::min(mu_min, t.mu);
      mu_max = std::max(mu_max, t.mu);
    }
  }
  out << "spacetime     " << a.spacetime << ", r_obs " << a.r_obs << " M, ray azimuth "
      << a.ray_azimuth << "\n"
      << "hole          " << a.bh_frame << " (" << a.bh_lon_deg << ", " << a.bh_lat_deg
      << ") deg = ICRS (" << a.bh_ra_deg << ", " << a.bh_dec_deg << ")\n"
      << "camera        " << a.projection << ", fov " << a.fov_deg << " deg, " << a.width << " x "
      << a.height << " px, look offset (" << a.look_dlon_deg << ", " << a.look_dlat_deg
      << ") deg, roll " << a.roll_deg << " deg\n"
      << "mesh          step " << a.mesh_step << " px, tol " << a.mesh_tol << " px, max source "
      << a.mesh_max_source_deg << " deg, max depth " << a.mesh_max_depth << '\n'
      << "vertices      " << reader.vertex_count() << " (escaped " << by_status[0] << ", captured "
      << by_status[1] << ", failed " << by_status[2] << ")\n"
      << "triangles     " << reader.triangle_count() << " kept (" << mirrored
      << " mirrored, parity -1), " << a.shadow_triangles << " in the shadow\n"
      << "dropped      ";
  for (const auto& [reason, count] : a.dropped) out << ' ' << reason << ' ' << count;
  out << "\ndepth         ";
  for (const auto& [depth, count] : by_depth) out << ' ' << depth << ':' << count;
  out << '\n';
  if (reader.triangle_count() > 0) out << "magnification " << mu_min << " .. " << mu_max << '\n';
}

}  // namespace

int run_inspect(const InspectOptions& options) {
  std::vector<LensmapQuantity> quantities;
  const RasterFormat format = raster_format(options);
  if (format != RasterFormat::none) quantities = parse_lensmap_quantities(options.quantity);
  if (format == RasterFormat::fits &&
      std::find(quantities.begin(), quantities.end(), LensmapQuantity::stmap) != quantities.end())
    throw_input_error("(arguments)", "--raster",
                      "stmap is written as EXR (its R, G, B, A channels), not FITS");
  const LensmapReader reader(options.lensmap);
  if (!options.png.empty()) check_output_path(options.png, options.force);
  if (format != RasterFormat::none) check_output_path(options.raster, options.force);
  print_summary(reader, std::cout);
  if (!options.png.empty()) {
    const Frame picture = render_lensmap_picture(reader, options.edges);
    write_frame_png(picture, options.png, 1.0, options.force);
    std::cout << "picture       " << options.png << '\n';
  }
  if (format != RasterFormat::none) {
    const Raster raster = rasterize_lensmap(reader, options.lensmap, quantities);
    FrameMetadata metadata;
    describe_lensmap(reader, options.lensmap, metadata);
    OutputSet outputs(options.force);
    if (format == RasterFormat::exr)
      write_raster_exr(raster, outputs, options.raster, metadata);
    else
      write_raster_fits(raster, outputs, options.raster, metadata);
    outputs.commit();
    std::cout << "raster        " << options.raster << " (";
    for (std::size_t k = 0; k < raster.planes.size(); ++k)
      std::cout << (k ? ", " : "") << raster.planes[k].name;
    std::cout << ")\n";
  }
  return kExitOk;
}

}  // namespace starlens
