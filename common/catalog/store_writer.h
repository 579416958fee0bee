#pragma once
// Writes catalog.h5 from stars arriving in key order (docs/design.md section 4): the star table
// and the sources appended in batches to chunked compound datasets, the CSR cell offsets streamed
// as cells are passed, root attributes at the end. Memory stays bounded whatever the star count.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "catalog/chunked_dataset.h"
#include "catalog/photometry.h"
#include "catalog/sky_cells.h"
#include "catalog/star_record.h"
#include "catalog/store_rows.h"

namespace starlens::catalog {

struct StoreDescription {
  Band band;
  std::string teff_relation;  // name, or "given" / "synthetic"
  std::string id_scheme;      // what a star's id is (docs/formats/catalog.md, "Star ids")
  nlohmann::json sources =
      nlohmann::json::array();  // [{"path", "size", "hash", "sha256_tree", "rows"}]
  nlohmann::json generator = nlohmann::json::object();
  int deflate = 0;  // 0: chunks stored uncompressed (fastest reads and writes)
};

class StoreWriter {
 public:
  // Writes to `temp_path` (an AtomicOutput's temporary); `display_path` names it in messages.
  StoreWriter(const std::filesystem::path& temp_path, const std::string& display_path, int order,
              StoreDescription description);
  ~StoreWriter();
  // Stars must arrive sorted by key (checked: RunFailure otherwise).
  void append(std::span<const StarRecord> stars);
  // Writes the remaining offsets and the attributes and closes the file.
  void finish();
  std::uint64_t count() const { return count_; }
  std::uint64_t occupied_cells() const { return occupied_cells_; }
  std::uint64_t largest_cell() const { return largest_cell_; }

 private:
  void advance_offsets_to(std::uint64_t cell);
  void flush_offsets();

  h5::File file_;
  SkyCells cells_;
  StoreDescription description_;
  h5::Handle table_type_;
  h5::Handle source_type_;
  std::unique_ptr<AppendableDataset> table_;
  std::unique_ptr<AppendableDataset> source_;
  std::unique_ptr<AppendableDataset> offsets_;
  std::vector<StoredStar> table_batch_;
  std::vector<StoredSource> source_batch_;
  std::vector<std::int64_t> offsets_batch_;
  std::uint64_t next_cell_ = 0;  // offsets written for cells < next_cell_
  std::uint64_t count_ = 0;
  std::uint64_t last_key_ = 0;
  std::uint64_t occupied_cells_ = 0;
  std::uint64_t largest_cell_ = 0;
  std::uint64_t current_cell_stars_ = 0;
  bool finished_ = false;
};

}  // namespace starlens::catalog
