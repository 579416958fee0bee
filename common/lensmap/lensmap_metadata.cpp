#include "lensmap/lensmap_metadata.h"

#include "lensmap/lensmap_camera.h"
#include "lensmap/lensmap_file.h"

namespace starlens {

void describe_lensmap(const std::string& path, FrameMetadata& metadata) {
  describe_lensmap(LensmapReader(path), path, metadata);
}

void describe_lensmap(const LensmapReader& reader, const std::string& path,
                      FrameMetadata& metadata) {
  const LensmapAttributes& attributes = reader.attributes();
  const Camera camera = lensmap_camera(attributes, path);
  FrameCamera frame_camera;
  frame_camera.projection = attributes.projection;
  frame_camera.fov_deg = attributes.fov_deg;
  frame_camera.look_ra_deg = attributes.look_ra_deg;
  frame_camera.look_dec_deg = attributes.look_dec_deg;
  frame_camera.roll_deg = attributes.roll_deg;
  frame_camera.width = camera.width();
  frame_camera.height = camera.height();
  frame_camera.forward = camera.axes().forward;
  frame_camera.right = camera.axes().right;
  frame_camera.up = camera.axes().up;
  frame_camera.focal_px = camera.focal_length();
  metadata.camera = frame_camera;

  FrameScene scene;
  scene.spacetime = attributes.spacetime;
  scene.r_obs = attributes.r_obs;
  scene.spin = attributes.spin;
  scene.observer = attributes.observer;
  scene.observer_velocity = attributes.observer_velocity;
  metadata.scene = scene;
}

}  // namespace starlens
