#pragma once
// Checks that a lens map and a catalogue belong together, beyond each file's own validation.
#include "catalog/store_reader.h"

namespace starlens::produce {

// The lens map's source directions are ICRS (docs/design.md section 3): a catalogue whose positions
// are in another frame does not belong with it. InputError naming the catalogue's attribute.
void check_inputs_belong_together(const catalog::CatalogStore& store);

}  // namespace starlens::produce
