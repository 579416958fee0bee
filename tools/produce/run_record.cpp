#include "run_record.h"

#include "colour/colour_table.h"
#include "photon_ring.h"

namespace starlens::produce {

nlohmann::json class_counts(const ProducerCounts& counts) {
  return {
      {"events", counts.events_written()},
      {"events_cache", counts.events_by_class[static_cast<int>(EventClass::cache)]},
      {"events_wing_clip", counts.events_by_class[static_cast<int>(EventClass::wing_clip)]},
      {"events_direct", counts.events_by_class[static_cast<int>(EventClass::direct)]},
      {"events_discarded_min_y", counts.events_by_class[static_cast<int>(EventClass::discarded)]},
      {"direct_bounded_by_max_radius", counts.direct_bounded},
      {"images", counts.images},
      {"images_by_order",
       {counts.images_by_order[0], counts.images_by_order[1], counts.images_by_order[2],
        counts.images_by_order[3]}},
      {"images_triangle_mu", counts.images_triangle_mu},
      {"images_point_mu_above_bound", counts.images_point_mu_above_bound},
      {"photon_ring",
       {{"first_order", PhotonRing::kFirstOrder},
        {"images", counts.ring_images},
        {"images_outside_frame", counts.ring_images_outside_frame}}},
      {"stars_read", counts.stars_read},
      {"stars_imaged", counts.stars_imaged},
      {"stars_too_faint", counts.stars_too_faint},
      {"stars_outside_sky_region", counts.stars_outside_region}};
}

nlohmann::json colour_section(ColourMode mode) {
  nlohmann::json colour = {{"mode", mode == ColourMode::table ? "table" : "exact"}};
  if (mode == ColourMode::table) {
    const ColourTableAccuracy& accuracy = colour_table_accuracy();
    const ColourTable& table = ColourTable::shared();
    colour["table_max_relative_error"] = accuracy.max_relative_error;
    colour["table_max_colour_error"] = accuracy.max_colour_error;
    colour["table_max_flux_error"] = accuracy.max_flux_error;
    colour["table_worst_temperature_k"] = accuracy.worst_temperature_k;
    colour["table_samples"] = accuracy.samples;
    colour["table_range_k"] = {table.first_temperature_k(), table.last_temperature_k()};
    colour["table_nodes_per_log_unit"] = table.nodes_per_log_unit();
  }
  return colour;
}

nlohmann::json index_section(const TriangleIndex& index) {
  const IndexStatistics& s = index.statistics();
  return {{"groups", s.groups},
          {"cell_group_pairs", s.cell_group_pairs},
          {"cell_grid_entries", s.cell_grid_entries},
          {"cell_grid_bins", s.cell_grid_bins},
          {"unprojected_entries", s.unprojected_entries},
          {"group_grid_entries", s.group_grid_entries},
          {"group_grid_bins", s.group_grid_bins},
          {"cells", index.cells().size()},
          {"build_seconds", s.build_seconds.all()}};
}

nlohmann::json throughput_section(const ProducerResult& result, int threads) {
  const double seconds = result.wall_seconds;
  const double events = static_cast<double>(result.counts.events_written());
  const double stars = static_cast<double>(result.counts.stars_read);
  return {{"produce_wall_s", seconds},
          {"events_per_second", seconds > 0 ? events / seconds : 0.0},
          {"events_per_second_per_thread", seconds > 0 ? events / seconds / threads : 0.0},
          {"stars_per_second", seconds > 0 ? stars / seconds : 0.0}};
}

}  // namespace starlens::produce
