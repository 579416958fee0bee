#pragma once
// The lens map as the producer uses it (docs/design.md section 3): vertices with their pixel
// position, source direction and g, and the kept triangles with mu and parity. Filled from
// lensmap.h5 by lens_mesh_input.h; plain data so tests can build meshes directly.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sky/frames.h"
#include "spacetime/observer_motion.h"
#include "spacetime/schwarzschild_point_lens.h"

namespace starlens::produce {

class PhotonRing;    // photon_ring.h
class TracedImages;  // traced_images.h

struct LensMesh {
  std::uint32_t width = 0;  // frame size, px
  std::uint32_t height = 0;
  std::string projection = "pinhole";
  double pinhole_focal_px = 0;  // F = (W/2) / tan(fov/2) for pinhole maps, else 0

  // Per vertex.
  std::vector<std::array<double, 2>> xy;  // px
  std::vector<Vec3> direction;            // ICRS unit vector (NaN unless escaped)
  std::vector<double> g;                  // nu_obs / nu_inf

  // Per triangle, in file order; triangle t of this mesh is triangle first_triangle + t of
  // the file (a --triangles A:B run loads only that range).
  std::uint32_t first_triangle = 0;
  std::uint64_t file_triangle_count = 0;
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::vector<double> mu;
  std::vector<std::int8_t> parity;

  // The exact point magnification of each image (point_magnification.h), for a Schwarzschild
  // map; null otherwise. With it, per vertex its ray's angle psi from the hole (NaN unless
  // escaped). Per triangle, for a Schwarzschild map or a moving camera in flat space (whose
  // images also get point values), its image order and an upper bound of the point
  // magnification over it; empty otherwise (then an image has its triangle's mu).
  std::shared_ptr<const schwarzschild::PointLens> point_lens;
  std::vector<double> psi;
  std::vector<std::uint8_t> order;
  std::vector<double> max_point_mu;
  // The images of orders >= PhotonRing::kFirstOrder, from the point lens (photon_ring.h), for a
  // Schwarzschild map loaded whole; null otherwise.
  std::shared_ptr<const PhotonRing> photon_ring;
  // For a Kerr map, the rays its images' point magnifications are traced with
  // (traced_images.h), and max_point_mu holds each triangle's mu times TracedImages::kMuMargin;
  // null otherwise.
  std::shared_ptr<const TracedImages> traced_images;
  // The camera's motion (the lens map's observer velocity). With it, per triangle (when the
  // images get point values) a bound of the frequency ratio g over it: the point value can
  // exceed its vertices' largest.
  ObserverMotion motion{};
  std::vector<double> max_g;

  std::size_t triangle_count() const { return triangles.size(); }
};

// Weight of each vertex in the image-side interpolation (image_position.h): for a pinhole
// map the depth f . d of the vertex's camera ray d, F / sqrt(F^2 + dx^2 + dy^2), so that
// interpolation is exact for the identity map; 1 (plain linear) for other projections.
std::vector<double> interpolation_weights(const LensMesh& mesh);

}  // namespace starlens::produce
