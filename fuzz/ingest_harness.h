#pragma once
// What the three catalogue harnesses share: a reader of ingest_sources.h run the way
// `starlens-catalog ingest` runs it (stars into an external sorter that spills into the
// harness's private folder, then merged), and the tally serialised as the ingest's manifest
// holds it (sources and rejections, whose strings come from the input).
#include <functional>

#include "catalog/external_sorter.h"
#include "core/progress.h"
#include "ingest_sources.h"

namespace starlens::fuzz {

using IngestReader =
    std::function<void(catalog::ExternalSorter&, catalog::IngestTally&, Progress&)>;

// InputError escapes (the expected outcome of a bad input); so does anything else.
void run_ingest(const IngestReader& reader);

}  // namespace starlens::fuzz
