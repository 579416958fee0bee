#include "read_plan.h"

namespace starlens::produce {

std::vector<ReadUnit> plan_reads(const std::vector<std::uint64_t>& cells,
                                 catalog::CatalogStore& store, std::uint64_t block_stars) {
  std::vector<ReadUnit> units;
  std::size_t run_start = 0;
  while (run_start < cells.size()) {
    std::size_t run_end = run_start + 1;
    while (run_end < cells.size() && cells[run_end] == cells[run_end - 1] + 1) ++run_end;
    const std::uint64_t first = cells[run_start];
    const std::uint64_t end = cells[run_end - 1] + 1;
    const std::vector<std::uint64_t> offsets = store.read_offsets(first, end);
    std::uint64_t unit_first = first;
    for (std::uint64_t cell = first; cell < end; ++cell) {
      const std::uint64_t stars_before = offsets[cell - first] - offsets[unit_first - first];
      const std::uint64_t cell_stars = offsets[cell + 1 - first] - offsets[cell - first];
      if (cell > unit_first && stars_before + cell_stars > block_stars) {
        units.push_back({unit_first, cell, stars_before});
        unit_first = cell;
      }
    }
    units.push_back({unit_first, end, offsets[end - first] - offsets[unit_first - first]});
    run_start = run_end;
  }
  return units;
}

}  // namespace starlens::produce
