#pragma once
// Each image's point magnification from rays traced at the image (docs/design.md section 3),
// for lens maps without a closed-form point lens (Kerr): the lens map's own spacetime and camera,
// rebuilt from its attributes (lensmap_spacetime.h), trace rays next to the image's
// interpolated position. Newton's method on the traced source direction moves the position to
// the star's exact image (the mesh's interpolation is within its tolerance, ~0.01 px, of it;
// about 8 rays an image), and central differences of the rays there (steps of kStepRad) give
// the Jacobian of the map:
//   mu = |(dr/dx x dr/dy) . r| / |(ds/dx x ds/dy) . s|
// for camera rays r and source directions s at pixel (x, y): the camera's solid angle over the
// source's, as for the mesh's triangles, but at the point, with the parity of their product's
// sign. g is the traced ray's at the image.
#include <memory>

#include "lensmap/camera.h"
#include "spacetime/spacetime.h"

namespace starlens::produce {

class TracedImages {
 public:
  // The central differences' step, as an angle on the camera's sky (converted to pixels at the
  // image): the rays' rounding (~1e-15 rad in the source direction) over it, and its square
  // over the square of the distance to the nearest critical curve or the shadow's edge (the
  // scale on which the map's Jacobian changes), are both ~1e-8 or less an image's mu from 1 px
  // of them on (the test measures it against the reference).
  static constexpr double kStepRad = 1.5e-6;
  // Newton's method stops after a step below this: the position is then within ~1e-4 of it
  // of the image (the Jacobian's error over the step), and mu, taken there, within ~1e-9 px
  // |grad ln mu|.
  static constexpr double kSettledPx = 1e-5;
  static constexpr int kMaxIterations = 8;
  // Farther than this from the interpolated position, the search is taken to have left the
  // image's triangle (for another image, or none): the triangle's values stand.
  static constexpr double kMaxMovePx = 1.0;
  // The bound of the point magnification over a triangle that the selection of visible stars
  // takes: its solid-angle mu times this. Within a triangle kept at the mesh's tolerance the
  // Jacobian varies by a few per cent (the mesh's interpolation error over an edge); next to a
  // critical curve, where the point value diverges, the mesh refines and drops triangles. Images
  // whose point mu exceeds the bound are counted (images_point_mu_above_bound).
  static constexpr double kMuMargin = 2;

  TracedImages(std::shared_ptr<const Spacetime> spacetime, const Camera& camera);

  // An image whose mu at the start (from the first Jacobian, ~0.01 px from the image) times this
  // is below the visible mu is taken as too faint without the search: mu changes by far less
  // than this over the mesh's tolerance but within ~0.05 px of a critical curve, where images
  // are bright.
  static constexpr double kStartMargin = 1.25;

  struct Image {
    bool found = false;  // false: a ray did not escape, or Newton's method did not settle
    // Too faint by its start: mu is the start's times kStartMargin, nothing else is filled in.
    bool faint = false;
    double x = 0, y = 0;
    double mu = 0;
    int parity = 0;
    double g = 0;
  };
  // The image of the star in direction `source` (unit vector) next to pixel (x, y), unless
  // its start shows it fainter than visible_mu (then `faint`).
  Image refine(const Vec3& source, double x, double y, double visible_mu = 0) const;

  const Spacetime& spacetime() const { return *spacetime_; }

 private:
  std::shared_ptr<const Spacetime> spacetime_;
  Camera camera_;
};

}  // namespace starlens::produce
