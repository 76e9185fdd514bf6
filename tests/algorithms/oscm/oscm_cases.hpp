// The frame sets and references of the recursive OSCM tests (test_oscm.cpp, test_oscm_properties.cpp):
// random frame sets on mixed branches with mixed row selections, the humanoid's end frames, two copies of
// a model side by side, and the independent dense reference J·H⁻¹·Jᵀ (frame_jacobian local, crba's H and
// Eigen's LDLT; no treedyn factorization involved).
#pragma once

#include <cstdint>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "support/crba_dense.hpp"
#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/algorithms.hpp"

namespace treedyn::test {

/// A random placement ^F X_body (rotation from a random unit quaternion, offset in [−0.3, 0.3]³), built in
/// double and rounded to T.
template <class T>
Transform<T> random_placement(Rng& rng) {
  Eigen::Quaterniond quat(rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform());
  quat.normalize();
  const Eigen::Vector3d p(0.3 * rng.uniform(), 0.3 * rng.uniform(), 0.3 * rng.uniform());
  return transform_from(quat.toRotationMatrix(), p).template cast<T>();
}

/// Row selections cycled through by the random frame sets: all six, linear (contact), angular, and masks.
inline FrameRows mixed_rows(int k, Rng& rng) {
  switch (k % 4) {
    case 0: return FrameRows::all();
    case 1: return FrameRows::linear();
    case 2: return FrameRows::angular();
    default: return FrameRows{static_cast<std::uint8_t>(1 + rng.below(63))};
  }
}

/// `count` frames on random bodies (repeats allowed: several frames on one body), mixed rows.
template <class T>
OperationalFrames<T> random_frames(const Model<T>& model, int count, std::uint64_t seed) {
  Rng rng(seed);
  OperationalFrames<T> frames(model);
  for (int k = 0; k < count; ++k) frames.add(rng.below(model.nbodies()), random_placement<T>(rng), mixed_rows(k, rng));
  return frames;
}

/// Independent reference: the stacked selected rows of frame_jacobian(local), and J · H⁻¹ · Jᵀ with Eigen's
/// LDLT on crba's dense H (no treedyn factorization involved).
template <class T>
Eigen::MatrixX<T> stacked_jacobian(const Model<T>& model, Data<T>& data, const Eigen::VectorX<T>& q, const OperationalFrames<T>& frames) {
  forward_kinematics(model, data, q);
  Eigen::MatrixX<T> J(frames.rows(), model.nv());
  for (int a = 0; a < frames.size(); ++a) {
    const Eigen::MatrixX<T> Ja = frame_jacobian(model, data, frames.body(a), frames.placement(a), ReferenceFrame::local);
    for (int k = 0; k < frames.row_count(a); ++k) J.row(frames.row_offset(a) + k) = Ja.row(frames.row_index(a, k));
  }
  return J;
}

template <class T>
Eigen::MatrixX<T> dense_lambda(const Model<T>& model, Data<T>& data, const Eigen::VectorX<T>& q, const OperationalFrames<T>& frames) {
  const Eigen::MatrixX<T> J = stacked_jacobian(model, data, q, frames);
  const Eigen::MatrixX<T> H = crba_dense(model, data, q);
  return J * H.ldlt().solve(J.transpose());
}

/// c·n·ε·κ(H)·‖Λ⁻¹‖ (c = 8): the rounding a route to Λ⁻¹ can produce (every route solves with H once).
template <class T>
double lambda_tolerance(int n, double kappa, double scale) {
  return 8.0 * (n + 1) * eps<T>() * kappa * scale;
}

/// Two copies of `model` side by side on one fixed base: the second copy's roots are roots too.
template <class T>
Model<T> side_by_side(const Model<T>& model) {
  ModelBuilder<T> b;
  for (int copy = 0; copy < 2; ++copy)
    for (int i = 0; i < model.nbodies(); ++i) {
      const int p = model.parent(i);
      b.add_body(p == no_parent ? no_parent : p + copy * model.nbodies(), model.joint(i), model.tree_transform(i),
                 model.inertia(i), model.name(i) + "-copy" + std::to_string(copy));
    }
  return b.build();
}

/// The humanoid's four feet / hands: a frame 8 cm beyond the last link of each limb.
template <class T>
OperationalFrames<T> humanoid_end_frames(const Model<T>& humanoid, FrameRows rows = FrameRows::all()) {
  OperationalFrames<T> frames(humanoid);
  for (int limb = 0; limb < 4; ++limb)
    frames.add(6 + 6 * limb, xlt(Vector3<T>(T(0), T(0), T(-0.08))), rows);
  return frames;
}

}  // namespace treedyn::test
