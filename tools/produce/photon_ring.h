#pragma once
// The photon ring's images (docs/design.md section 3): the images of order 2 and more of a
// Schwarzschild map, found for each star from the point lens (schwarzschild_point_lens.h)
// rather than from the lens map's mesh. They lie within about a pixel of the shadow's edge,
// each order about e^-pi closer than the one before, where the map's triangles are dropped or
// too coarse; the point lens places each at its exact position with its point magnification.
#include <cstdint>
#include <memory>

#include "image_triangle.h"
#include "lensmap/camera.h"
#include "spacetime/observer_motion.h"
#include "spacetime/schwarzschild_point_lens.h"

namespace starlens::produce {

class PhotonRing {
 public:
  // The lowest order taken from the point lens; the mesh's images of this order and above are
  // not used when a run has the ring.
  static constexpr int kFirstOrder = 2;

  PhotonRing(std::shared_ptr<const schwarzschild::PointLens> lens, const Camera& camera,
             const ObserverMotion& motion);

  // The quick estimate of mu (PointLens::start_of_order) may be off by this factor at most
  // (tests/common/spacetime/test_point_lens.cpp holds it within 1e-2); an image whose estimate
  // times it is below the visible mu is not solved.
  static constexpr double kEstimateMargin = 1.05;

  struct Image {
    // False where the image lies closer to the critical angle than the point lens reaches
    // (PointLens::closest_approach()), and so does every higher order, or where its search
    // did not settle.
    bool exists = false;
    // Too faint by the quick estimate: mu (the estimate) times kEstimateMargin is below the
    // visible mu asked for; nothing else is filled in.
    bool faint = false;
    bool in_frame = false;  // inside [0, width) x [0, height)
    ImagePoint point{};     // the camera's pixel position and g
    double mu = 0;          // the point magnification the camera sees (over D^2 when moving)
    double psi = 0;         // the image's angle from the hole, static frame
    int parity = 0;         // +1, or -1 where lensing mirrors the image (odd orders)
  };
  // The image of `order` (>= kFirstOrder) of the star in direction `source` (unit vector),
  // unless the quick estimate shows it fainter than visible_mu (then `faint`).
  Image image(const Vec3& source, int order, double visible_mu = 0) const;

  // Bounds on the ring images of any star within `radius` rad of direction `centre`, for the
  // producer's selection of the stars that may be seen: mu <= A_max / (D_min^2 sin(gamma_min)),
  // A = sin(psi) / |phi'(psi)| over the ring's band (orders >= kFirstOrder), sin(gamma_min)
  // the smallest |s x h| over the disc (infinite where the disc reaches +-h); g <= g_static
  // D_max.
  double max_mu_near(const Vec3& centre, double radius) const;
  double max_g() const { return max_g_; }

 private:
  std::shared_ptr<const schwarzschild::PointLens> lens_;
  Camera camera_;
  ObserverMotion motion_;
  double max_a_ = 0;      // A_max over the band, with its margin
  double motion_mu_ = 1;  // the largest 1 / D^2
  double max_g_ = 0;
};

}  // namespace starlens::produce
