#pragma once
// The point lens's images (docs/design.md section 3): the images of order 1 and more of a
// Schwarzschild map (the secondaries inside the Einstein ring and the photon ring's images of
// order 2 and more), found for each star from the point lens (schwarzschild_point_lens.h)
// rather than from the lens map's mesh. Each order n >= 1 has its critical curve phi = (n + 1)
// pi next to the shadow's edge (order 1's ~1 px from it, each further order about e^-pi
// closer), where the map's triangles are dropped or too coarse; the point lens places each
// image at its exact position with its point magnification. The class keeps the ring's name:
// its images all lie in the ring's band, from the shadow's edge out to the Einstein ring.
#include <cstdint>
#include <memory>
#include <vector>

#include "image_triangle.h"
#include "lensmap/camera.h"
#include "spacetime/observer_motion.h"
#include "spacetime/schwarzschild_point_lens.h"

namespace starlens::produce {

class PhotonRing {
 public:
  // The lowest order taken from the point lens; the mesh's images of this order and above are
  // not used when a run has the ring, so the mesh gives only the primaries (order 0).
  static constexpr int kFirstOrder = 1;

  PhotonRing(std::shared_ptr<const schwarzschild::PointLens> lens, const Camera& camera,
             const ObserverMotion& motion);

  // The quick estimate of mu (PointLens::start_of_order) may be off by this factor at most
  // (tests/common/spacetime/test_point_lens.cpp holds it within 1e-2 over every order from
  // kFirstOrder, order 1's whole range included); an image whose estimate
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
  // What the images of every order of one star share, computed once per star: its angle from
  // the hole, and the normal toward it (PointLens::toward_source), which image() forms at the
  // star's first image that passes the quick estimate (at the default visibility floor most
  // selected stars have none).
  struct Star {
    Vec3 source;
    schwarzschild::PointLens::SourceAngle angle;
    bool has_toward = false;
    Vec3 toward{};
  };
  Star star(const Vec3& source) const { return star(source, lens_->source_angle(source)); }
  // With the star's angle from the lens's source_angle.
  Star star(const Vec3& source, const schwarzschild::PointLens::SourceAngle& angle) const {
    return {source, angle};
  }
  // The image of `order` (>= kFirstOrder) of the star in direction `source` (unit vector),
  // unless the quick estimate shows it fainter than visible_mu (then `faint`).
  Image image(const Vec3& source, int order, double visible_mu = 0) const {
    Star of_source = star(source);
    return image(of_source, order, visible_mu);
  }
  Image image(Star& star, int order, double visible_mu = 0) const;

  // Bounds on the ring images of any star within `radius` rad of direction `centre`, for the
  // producer's selection of the stars that may be seen: mu <= A_max / (D_min^2 sin(gamma_min)),
  // A = sin(psi) / |phi'(psi)| over the part of the ring's band the disc's images reach (from
  // the closest approach out to phi = 2 pi - gamma_max, gamma_max the disc's largest angle from
  // the direction behind the hole: order 1's nearest approach to the Einstein ring, where A is
  // largest), sin(gamma_min) the smallest |s x h| over the disc (infinite where the disc reaches
  // +-h); g <= g_static D_max.
  // With first_order > kFirstOrder, the bound on the images of that order and above.
  double max_mu_near(const Vec3& centre, double radius, int first_order = kFirstOrder) const;
  double max_g() const { return max_g_; }

 private:
  std::shared_ptr<const schwarzschild::PointLens> lens_;
  Camera camera_;
  ObserverMotion motion_;
  double max_a_ = 0;  // A_max over the band, with its margin
  // The band's samples from the critical angle out: phi (falling) and the largest A up to each.
  std::vector<double> band_phi_;
  std::vector<double> band_max_a_;
  double motion_mu_ = 1;  // the largest 1 / D^2
  double max_g_ = 0;
};

}  // namespace starlens::produce
