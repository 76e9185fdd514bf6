// Pinocchio 3.7.0 as a peer (peer.hpp), for the one scalar of the unit that includes this header
// (pinocchio_double.cpp, pinocchio_float.cpp: one unit per scalar, never compiled two at once).
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// Conventions converted here (benchmarks/peers/README.md):
//   joints        matched by URDF joint name; the free flyer ("root_joint") by kind
//   continuous    Pinocchio's RevoluteUnbounded joints have q = (cos θ, sin θ), nq = 2, nv = 1
//   free flyer    q = (p, quaternion x, y, z, w) in both; v is [v_O; ω] in Pinocchio, [ω; v_O] in treedyn,
//                 both in body coordinates, so the two halves are swapped
//   M, Minv       filled by crba and computeMinverse in the upper triangle only: mirrored for the checks
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "pinocchio/algorithm/aba.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/rnea.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"
#include "pinocchio/parsers/urdf.hpp"

#include "peer.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioPeer final : public Peer<S> {
 public:
  using Model = pinocchio::ModelTpl<S>;
  using Data = pinocchio::DataTpl<S>;

  PinocchioPeer(const Robot& robot, const std::vector<JointSlot>& layout) : model_(load(robot)), data_(model_) {
    int nv_td = 0;
    for (const JointSlot& slot : layout) {
      pinocchio::JointIndex j = model_.joints.size();
      if (slot.nq == 7) {
        for (pinocchio::JointIndex k = 1; k < model_.joints.size(); ++k)
          if (model_.joints[k].nq() == 7) j = k;
      } else if (model_.existJointName(slot.name)) {
        j = model_.getJointId(slot.name);
      }
      if (j >= model_.joints.size())
        throw std::runtime_error("pinocchio peer: " + robot.name + ": no joint for treedyn's '" + slot.name + "'");
      const int pnq = model_.joints[j].nq(), pnv = model_.joints[j].nv();
      const int pq = model_.joints[j].idx_q(), pv = model_.joints[j].idx_v();
      if (pnv != slot.nv || !(pnq == slot.nq || (slot.nq == 1 && pnq == 2)))
        throw std::runtime_error("pinocchio peer: " + robot.name + ": joint '" + slot.name + "' has nq/nv " +
                                 std::to_string(pnq) + "/" + std::to_string(pnv) + " in Pinocchio, " +
                                 std::to_string(slot.nq) + "/" + std::to_string(slot.nv) + " in treedyn");
      q_slots_.push_back({slot.q_offset, slot.nq, pq, pnq});
      for (int k = 0; k < slot.nv; ++k) {
        int p = pv + k;
        if (slot.nv == 6) p = pv + (k < 3 ? k + 3 : k - 3);  // [ω; v] ↔ [v; ω]
        v_map_.push_back(p);
      }
      nv_td += slot.nv;
    }
    if (nv_td != model_.nv || static_cast<int>(v_map_.size()) != model_.nv)
      throw std::runtime_error("pinocchio peer: " + robot.name + ": nv " + std::to_string(model_.nv) +
                               " in Pinocchio, " + std::to_string(nv_td) + " in treedyn");
    // v_map_ is indexed in treedyn's order (slots are appended by v_offset): check it is a permutation
    std::vector<int> seen(model_.nv, 0);
    for (int p : v_map_) ++seen[p];
    for (int c : seen)
      if (c != 1) throw std::runtime_error("pinocchio peer: " + robot.name + ": the velocity map is not a permutation");
  }

  std::string library() const override { return "pinocchio"; }
  int nv() const override { return model_.nv; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = VecX<S>::Zero(model_.nq);
    for (const QSlot& s : q_slots_) {
      if (s.pnq == 2 && s.nq == 1) {
        q_(s.pq) = std::cos(q(s.q));
        q_(s.pq + 1) = std::sin(q(s.q));
      } else {
        q_.segment(s.pq, s.pnq) = q.segment(s.q, s.nq);
      }
    }
    v_ = to_pin(v);
    a_ = to_pin(a);
    tau_ = to_pin(tau);
  }

  VecX<S> check_rnea() override { return to_td(pinocchio::rnea(model_, data_, q_, v_, a_)); }
  VecX<S> check_bias() override { return to_td(pinocchio::nonLinearEffects(model_, data_, q_, v_)); }
  MatX<S> check_crba() override {
    pinocchio::crba(model_, data_, q_);
    return to_td(mirrored_upper(data_.M));
  }
  VecX<S> check_aba() override { return to_td(pinocchio::aba(model_, data_, q_, v_, tau_)); }
  MatX<S> check_minverse() override {
    pinocchio::computeMinverse(model_, data_, q_);
    return to_td(mirrored_upper(data_.Minv));
  }

  void time_rnea() override { escape(pinocchio::rnea(model_, data_, q_, v_, a_).data()); }
  void time_bias() override { escape(pinocchio::nonLinearEffects(model_, data_, q_, v_).data()); }
  void time_crba() override { escape(pinocchio::crba(model_, data_, q_).data()); }
  void time_aba() override { escape(pinocchio::aba(model_, data_, q_, v_, tau_).data()); }
  void time_minverse() override { escape(pinocchio::computeMinverse(model_, data_, q_).data()); }

 private:
  static Model load(const Robot& robot) {
    pinocchio::Model loaded;  // Pinocchio's URDF parser builds a double model
    if (robot.floating)
      pinocchio::urdf::buildModel(robot.urdf, pinocchio::JointModelFreeFlyer(), loaded);
    else
      pinocchio::urdf::buildModel(robot.urdf, loaded);
    return loaded.template cast<S>();
  }

  struct QSlot {
    int q, nq, pq, pnq;
  };

  static void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

  static MatX<S> mirrored_upper(const MatX<S>& m) {
    MatX<S> out = m;
    out.template triangularView<Eigen::StrictlyLower>() = m.transpose();
    return out;
  }
  VecX<S> to_pin(const VecX<S>& x) const {
    VecX<S> out(model_.nv);
    for (int k = 0; k < model_.nv; ++k) out(v_map_[k]) = x(k);
    return out;
  }
  VecX<S> to_td(const VecX<S>& x) const {
    VecX<S> out(model_.nv);
    for (int k = 0; k < model_.nv; ++k) out(k) = x(v_map_[k]);
    return out;
  }
  MatX<S> to_td(const MatX<S>& x) const {
    MatX<S> out(model_.nv, model_.nv);
    for (int k = 0; k < model_.nv; ++k)
      for (int l = 0; l < model_.nv; ++l) out(k, l) = x(v_map_[k], v_map_[l]);
    return out;
  }

  Model model_;
  Data data_;
  std::vector<QSlot> q_slots_;
  std::vector<int> v_map_;  ///< treedyn velocity index k ↔ Pinocchio's v_map_[k]
  VecX<S> q_, v_, a_, tau_;
};

}  // namespace treedyn::peers
