#include "input_checks.h"

#include "catalog/store_format.h"
#include "core/errors.h"
#include "core/hdf5_file.h"

namespace starlens::produce {

void check_inputs_belong_together(const catalog::CatalogStore& store) {
  const h5::File file = h5::open_file(store.path());
  if (!h5::has_attribute(file, catalog::store::kAttrFrame))
    throw_input_error(store.path(), "attribute frame",
                      "missing: the sky frame of ra/dec is unknown");
  const std::string frame = h5::read_string_attribute(file, catalog::store::kAttrFrame);
  if (frame != "ICRS")
    throw_input_error(
        store.path(), "attribute frame",
        "'" + frame + "': the lens map's source directions are ICRS, the catalogue must be too");
}

}  // namespace starlens::produce
