#pragma once
// Synthetic stars as 2MASS PSC rows (CATALOG_FORMATS.md section 2): 60 '|'-separated fields
// with the photometric quality a star of that brightness would get, so that `ingest` of
// synth's psc_*.gz exercises the real reader at scale.
#include <cstdint>
#include <string>

#include "synth_sampler.h"

namespace starlens::catalog {

// 2MASS 10-sigma limits used for the quality letters and upper limits (J, H, Ks).
constexpr double kPscLimit[3] = {15.8, 15.1, 14.3};

// Appends one row and its '\n'. `row_id` fills the source keys.
void append_psc_row(std::string& out, const SynthStar& star, std::uint64_t row_id);

// The ph_qual letter of a magnitude in band b (0 J, 1 H, 2 Ks): A-E by signal, U beyond
// the limit (then the row holds an upper limit).
char psc_quality(int band, double magnitude);

}  // namespace starlens::catalog
