// The map between treedyn's coordinates and a Pinocchio 3.7.0 model's, shared by every Pinocchio peer
// (pinocchio_peer.hpp, pinocchio_extra.hpp, pinocchio_whole_body.hpp), and Pinocchio's URDF loading.
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// Conventions (benchmarks/peers/README.md):
//   joints        matched by URDF joint name; the free flyer ("root_joint") by kind (nq = 7)
//   continuous    Pinocchio's RevoluteUnbounded joints have q = (cos θ, sin θ), nq = 2, nv = 1
//   free flyer    q = (p, quaternion x, y, z, w) in both; v is [v_O; ω] in Pinocchio, [ω; v_O] in treedyn,
//                 both in body coordinates, so the two halves are swapped
//   bodies        treedyn's body i (layout slot i) is Pinocchio's joint `joint[i]`; both place the body frame
//                 at the URDF joint frame, so their placements and Jacobians are of the same frame
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "pinocchio/multibody/model.hpp"
#include "pinocchio/parsers/urdf.hpp"

#include "peer.hpp"

namespace treedyn::peers {

/// The robot loaded by Pinocchio's URDF parser (which builds a double model), cast to S.
template <class S>
pinocchio::ModelTpl<S> load_pinocchio(const Robot& robot) {
  pinocchio::Model loaded;
  if (robot.floating)
    pinocchio::urdf::buildModel(robot.urdf, pinocchio::JointModelFreeFlyer(), loaded);
  else
    pinocchio::urdf::buildModel(robot.urdf, loaded);
  return loaded.template cast<S>();
}

/// treedyn's layout (treedyn_layout) against a Pinocchio model: configuration slots, the velocity
/// permutation and the joint of each treedyn body. Throws std::runtime_error if the two models differ.
template <class S>
class PinocchioMap {
 public:
  PinocchioMap(const pinocchio::ModelTpl<S>& model, const Robot& robot, const std::vector<JointSlot>& layout)
      : nq_(model.nq), nv_(model.nv) {
    const auto njoints = model.joints.size();
    for (const JointSlot& slot : layout) {
      pinocchio::JointIndex j = njoints;
      if (slot.nq == 7) {
        for (pinocchio::JointIndex k = 1; k < njoints; ++k)
          if (model.joints[k].nq() == 7) j = k;
      } else if (model.existJointName(slot.name)) {
        j = model.getJointId(slot.name);
      }
      if (j >= njoints)
        throw std::runtime_error("pinocchio: " + robot.name + ": no joint for treedyn's '" + slot.name + "'");
      const int pnq = model.joints[j].nq(), pnv = model.joints[j].nv();
      const int pq = model.joints[j].idx_q(), pv = model.joints[j].idx_v();
      if (pnv != slot.nv || !(pnq == slot.nq || (slot.nq == 1 && pnq == 2)))
        throw std::runtime_error("pinocchio: " + robot.name + ": joint '" + slot.name + "' has nq/nv " +
                                 std::to_string(pnq) + "/" + std::to_string(pnv) + " in Pinocchio, " +
                                 std::to_string(slot.nq) + "/" + std::to_string(slot.nv) + " in treedyn");
      q_slots_.push_back({slot.q_offset, slot.nq, pq, pnq});
      joint_.push_back(j);
      for (int k = 0; k < slot.nv; ++k) v_map_.push_back(slot.nv == 6 ? pv + (k < 3 ? k + 3 : k - 3) : pv + k);
    }
    // v_map_ is indexed in treedyn's order (slots come by v_offset): it must be a permutation of Pinocchio's
    std::vector<int> seen(static_cast<std::size_t>(nv_), 0);
    bool permutation = static_cast<int>(v_map_.size()) == nv_;
    for (int p : v_map_) permutation = permutation && p >= 0 && p < nv_ && ++seen[static_cast<std::size_t>(p)] == 1;
    if (!permutation)
      throw std::runtime_error("pinocchio: " + robot.name + ": nv " + std::to_string(nv_) +
                               " in Pinocchio; treedyn's velocities do not map one to one");
  }

  /// Pinocchio's configuration from treedyn's (a continuous joint's angle becomes (cos θ, sin θ)).
  VecX<S> q_to_pin(const VecX<S>& q) const {
    VecX<S> out = VecX<S>::Zero(nq_);
    for (const QSlot& s : q_slots_) {
      if (s.pnq == 2 && s.nq == 1) {
        out(s.pq) = std::cos(q(s.q));
        out(s.pq + 1) = std::sin(q(s.q));
      } else {
        out.segment(s.pq, s.pnq) = q.segment(s.q, s.nq);
      }
    }
    return out;
  }
  /// A velocity-space vector (v, q̈, τ, b) from treedyn's order to Pinocchio's.
  VecX<S> to_pin(const VecX<S>& x) const {
    VecX<S> out(nv_);
    for (int k = 0; k < nv_; ++k) out(v_map_[static_cast<std::size_t>(k)]) = x(k);
    return out;
  }
  /// Columns in Pinocchio's velocity order (a Jacobian, or rows too when `rows_too`) to treedyn's.
  MatX<S> to_td(const MatX<S>& x, bool rows_too) const {
    MatX<S> out(x.rows(), nv_);
    for (int r = 0; r < x.rows(); ++r)
      for (int k = 0; k < nv_; ++k)
        out(r, k) = x(rows_too ? v_map_[static_cast<std::size_t>(r)] : r, v_map_[static_cast<std::size_t>(k)]);
    return out;
  }
  VecX<S> to_td(const VecX<S>& x) const { return to_td(MatX<S>(x.transpose()), false).transpose(); }
  /// H or H⁻¹ (rows and columns both in velocity order) to treedyn's order.
  MatX<S> square_to_td(const MatX<S>& x) const { return to_td(x, true); }

  /// treedyn body i's joint in Pinocchio.
  [[nodiscard]] pinocchio::JointIndex joint(int body) const { return joint_[static_cast<std::size_t>(body)]; }
  [[nodiscard]] int nbodies() const { return static_cast<int>(joint_.size()); }

 private:
  struct QSlot {
    int q, nq, pq, pnq;
  };
  int nq_, nv_;
  std::vector<QSlot> q_slots_;
  std::vector<pinocchio::JointIndex> joint_;
  std::vector<int> v_map_;  ///< treedyn velocity index k ↔ Pinocchio's v_map_[k]
};

/// A matrix Pinocchio fills in its upper triangle only (M, Minv, the Delassus matrix), mirrored.
template <class S>
MatX<S> mirrored_upper(const MatX<S>& m) {
  MatX<S> out = m;
  out.template triangularView<Eigen::StrictlyLower>() = m.transpose();
  return out;
}

/// Rows of a stack of 6-row blocks from [v; ω] (Pinocchio's motion order) to [ω; v] (treedyn's), or back.
template <class S>
MatX<S> swap_halves(const MatX<S>& m) {
  MatX<S> out(m.rows(), m.cols());
  for (Eigen::Index r = 0; r < m.rows(); ++r) out.row(r) = m.row(r - r % 6 + (r % 6 + 3) % 6);
  return out;
}

/// Keeps a timed result alive without a store the compiler could see through.
inline void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

}  // namespace treedyn::peers
