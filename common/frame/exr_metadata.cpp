#include "frame/exr_metadata.h"

#include <ImfDoubleAttribute.h>
#include <ImfHeader.h>
#include <ImfIntAttribute.h>
#include <ImfStandardAttributes.h>
#include <ImfStringAttribute.h>
#include <ImfVecAttribute.h>

#include <cmath>

#include "core/errors.h"
#include "core/utf8.h"
#include "frame/exr_layout.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

namespace layout = exr_layout;

// The attribute `name` of type T, nullptr when absent; InputError when of another type.
template <typename T>
const T* typed(const Imf::Header& header, const std::string& path, const char* name,
               const char* type_name) {
  if (header.find(name) == header.end()) return nullptr;
  const T* attribute = header.findTypedAttribute<T>(name);
  if (!attribute) throw_input_error(path, name, std::string("is not ") + type_name);
  return attribute;
}

std::optional<double> read_double(const Imf::Header& header, const std::string& path,
                                  const char* name) {
  const auto* attribute = typed<Imf::DoubleAttribute>(header, path, name, "a double");
  if (!attribute) return std::nullopt;
  return attribute->value();
}

std::optional<std::string> read_string(const Imf::Header& header, const std::string& path,
                                       const char* name) {
  const auto* attribute = typed<Imf::StringAttribute>(header, path, name, "a string");
  if (!attribute) return std::nullopt;
  // Copied into reports and manifests (JSON, whose strings are UTF-8).
  require_utf8(attribute->value(), path, name);
  return attribute->value();
}

void add_camera(Imf::Header& header, const FrameCamera& camera) {
  header.insert(layout::kProjectionAttribute, Imf::StringAttribute(camera.projection));
  header.insert(layout::kFovAttribute, Imf::DoubleAttribute(camera.fov_deg));
  header.insert(layout::kLookRaAttribute, Imf::DoubleAttribute(camera.look_ra_deg));
  header.insert(layout::kLookDecAttribute, Imf::DoubleAttribute(camera.look_dec_deg));
  header.insert(layout::kRollAttribute, Imf::DoubleAttribute(camera.roll_deg));
  header.insert(layout::kCameraSizeAttribute,
                Imf::V2iAttribute(Imath::V2i(int(camera.width), int(camera.height))));
  // OpenEXR's own tag for a panorama of the whole sphere: viewers show it as one.
  if (camera.projection == "equirect") Imf::addEnvmap(header, Imf::ENVMAP_LATLONG);
}

void add_scene(Imf::Header& header, const FrameScene& scene) {
  header.insert(layout::kSpacetimeAttribute, Imf::StringAttribute(scene.spacetime));
  header.insert(layout::kRObsAttribute, Imf::DoubleAttribute(scene.r_obs));
  if (scene.spacetime == "kerr")
    header.insert(layout::kSpinAttribute, Imf::DoubleAttribute(scene.spin));
  header.insert(layout::kObserverAttribute, Imf::StringAttribute(scene.observer));
  const auto& v = scene.observer_velocity;
  header.insert(layout::kObserverVelocityAttribute,
                Imf::V3dAttribute(Imath::V3d(v[0], v[1], v[2])));
}

}  // namespace

void add_frame_metadata(Imf::Header& header, const FrameMetadata& metadata) {
  header.insert(layout::kFormatVersionAttribute, Imf::IntAttribute(kFrameFormatVersion));
  header.insert(layout::kRunDigestAttribute, Imf::StringAttribute(metadata.run_digest));
  header.insert(layout::kExposureAttribute, Imf::DoubleAttribute(metadata.exposure));
  if (metadata.frame_number)
    header.insert(layout::kFrameNumberAttribute, Imf::IntAttribute(int(*metadata.frame_number)));
  if (metadata.camera) add_camera(header, *metadata.camera);
  if (metadata.scene) add_scene(header, *metadata.scene);
}

FrameMetadata read_frame_metadata(const Imf::Header& header, const std::string& path) {
  FrameMetadata metadata;  // the run digest is the reader's (exr_reader.cpp)
  if (auto exposure = read_double(header, path, layout::kExposureAttribute)) {
    if (!(std::isfinite(*exposure) && *exposure > 0))
      throw_input_error(path, layout::kExposureAttribute,
                        std::to_string(*exposure) + " is not a positive, finite exposure");
    metadata.exposure = *exposure;
  }
  if (const auto* number =
          typed<Imf::IntAttribute>(header, path, layout::kFrameNumberAttribute, "an int"))
    metadata.frame_number = number->value();
  if (auto projection = read_string(header, path, layout::kProjectionAttribute)) {
    FrameCamera camera;
    camera.projection = *projection;
    camera.fov_deg = read_double(header, path, layout::kFovAttribute).value_or(0);
    camera.look_ra_deg = read_double(header, path, layout::kLookRaAttribute).value_or(0);
    camera.look_dec_deg = read_double(header, path, layout::kLookDecAttribute).value_or(0);
    camera.roll_deg = read_double(header, path, layout::kRollAttribute).value_or(0);
    if (const auto* size =
            typed<Imf::V2iAttribute>(header, path, layout::kCameraSizeAttribute, "a v2i")) {
      camera.width = std::uint32_t(std::max(0, size->value().x));
      camera.height = std::uint32_t(std::max(0, size->value().y));
    }
    metadata.camera = camera;
  }
  if (auto spacetime = read_string(header, path, layout::kSpacetimeAttribute)) {
    FrameScene scene;
    scene.spacetime = *spacetime;
    scene.r_obs = read_double(header, path, layout::kRObsAttribute).value_or(0);
    scene.spin = read_double(header, path, layout::kSpinAttribute).value_or(0);
    scene.observer = read_string(header, path, layout::kObserverAttribute).value_or("");
    if (const auto* velocity =
            typed<Imf::V3dAttribute>(header, path, layout::kObserverVelocityAttribute, "a v3d"))
      scene.observer_velocity = {velocity->value().x, velocity->value().y, velocity->value().z};
    metadata.scene = scene;
  }
  return metadata;
}

}  // namespace starlens
