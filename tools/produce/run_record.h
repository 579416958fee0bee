#pragma once
// What a produce run records in its manifest besides parameters and files: counts by class,
// the colour table's measured accuracy, the index's make-up and the throughput.
#include <nlohmann/json.hpp>

#include "event_assembly.h"
#include "producer.h"
#include "triangle_index.h"

namespace starlens::produce {

nlohmann::json class_counts(const ProducerCounts& counts);
nlohmann::json colour_section(ColourMode mode);
nlohmann::json index_section(const TriangleIndex& index);
nlohmann::json throughput_section(const ProducerResult& result, int threads);

}  // namespace starlens::produce
