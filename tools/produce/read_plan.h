#pragma once
// How the producer cuts the selected catalogue cells into read units: a fixed partition that
// depends on the cells and --block-stars only, never on the thread count, so that the event
// stream (written unit by unit, in unit order) does not either.
#include <cstdint>
#include <vector>

#include "catalog/store_reader.h"

namespace starlens::produce {

// Consecutive selected cells read in one go: [first_cell, end_cell) holding `stars` stars.
struct ReadUnit {
  std::uint64_t first_cell;
  std::uint64_t end_cell;
  std::uint64_t stars;
};

// Runs of consecutive cells (ascending), cut into units of at most block_stars stars (a larger
// cell is a unit of its own). Reads only the offsets of the selected cells.
std::vector<ReadUnit> plan_reads(const std::vector<std::uint64_t>& cells,
                                 catalog::CatalogStore& store, std::uint64_t block_stars);

}  // namespace starlens::produce
