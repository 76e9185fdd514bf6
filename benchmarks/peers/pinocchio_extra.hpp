// Pinocchio 3.7.0's sparse factor and solve as a peer (peer_extra.hpp), for the one scalar of the unit that
// includes this header (pinocchio_extra_double.cpp, pinocchio_extra_float.cpp). These units instantiate only
// crba and the cholesky module, so they compile in a fraction of pinocchio_double.cpp's time and leave it
// alone. Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// Conventions (as pinocchio_peer.hpp, whose PinocchioPeer keeps its own copy of the same map):
//   joints        matched by URDF joint name; the free flyer ("root_joint") by kind
//   continuous    RevoluteUnbounded joints have q = (cos θ, sin θ), nq = 2, nv = 1
//   free flyer    v is [v_O; ω] in Pinocchio, [ω; v_O] in treedyn (both body coordinates): halves swapped
//   factor        cholesky::decompose(model, data) factors data.M (crba's upper triangle) as U D Uᵀ,
//                 cholesky::solve(model, data, x) overwrites x with M⁻¹ x: Pinocchio's own sparse route, the
//                 counterpart of treedyn's factor_H / solve_H. A row permutation P (the velocity map) relates
//                 the two, H_pin = P H Pᵀ, so x = Pᵀ H_pin⁻¹ P b
//   OSCM          computeDelassusMatrix (mu = 0) with one RigidConstraintModel CONTACT_6D per frame on the named
//                 joint, identity placement, reference frame LOCAL: its rows are [v; ω] in the frame, treedyn's
//                 [ω; v], so each frame's two halves are swapped (rows and columns); filled in the upper
//                 triangle only, mirrored for the check (the timed call keeps Pinocchio's storage)
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "pinocchio/algorithm/cholesky.hpp"
#include "pinocchio/algorithm/contact-info.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/delassus.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"
#include "pinocchio/parsers/urdf.hpp"

#include "peer_extra.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioExtra final : public ExtraPeer<S> {
 public:
  using Model = pinocchio::ModelTpl<S>;
  using Data = pinocchio::DataTpl<S>;
  using SE3 = pinocchio::SE3Tpl<S>;
  using Contact = pinocchio::RigidConstraintModelTpl<S>;
  using ContactData = pinocchio::RigidConstraintDataTpl<S>;

  PinocchioExtra(const Robot& robot, const std::vector<JointSlot>& layout)
      : model_(load(robot)), data_(model_), oscm_data_(model_) {
    for (const JointSlot& slot : layout) {
      pinocchio::JointIndex j = model_.joints.size();
      for (pinocchio::JointIndex k = 1; k < model_.joints.size(); ++k)
        if (slot.nq == 7 ? model_.joints[k].nq() == 7 : model_.names[k] == slot.name) j = k;
      if (j >= model_.joints.size() || model_.joints[j].nv() != slot.nv)
        throw std::runtime_error("pinocchio extra: " + robot.name + ": no joint like treedyn's '" + slot.name + "'");
      const int pnq = model_.joints[j].nq(), pv = model_.joints[j].idx_v();
      q_slots_.push_back({slot.q_offset, slot.nq, model_.joints[j].idx_q(), pnq});
      for (int k = 0; k < slot.nv; ++k) v_map_.push_back(slot.nv == 6 ? pv + (k < 3 ? k + 3 : k - 3) : pv + k);
    }
    if (static_cast<int>(v_map_.size()) != model_.nv)
      throw std::runtime_error("pinocchio extra: " + robot.name + ": nv differs from treedyn's");
  }

  std::string library() const override { return "pinocchio"; }

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints) {
      if (!model_.existJointName(name)) throw std::runtime_error("pinocchio extra: no joint '" + name + "'");
      contacts_.emplace_back(pinocchio::CONTACT_6D, model_, model_.getJointId(name), SE3::Identity(), pinocchio::LOCAL);
    }
    for (const auto& c : contacts_) contact_data_.emplace_back(c);
    pinocchio::initPvDelassus(model_, oscm_data_, contacts_);
    delassus_ = MatX<S>::Zero(6 * contacts_.size(), 6 * contacts_.size());
  }

  void set_state(const VecX<S>& q, const VecX<S>&, const VecX<S>&, const VecX<S>& b) override {
    q_ = VecX<S>::Zero(model_.nq);
    for (const QSlot& s : q_slots_) {
      if (s.pnq == 2 && s.nq == 1) {
        q_(s.pq) = std::cos(q(s.q));
        q_(s.pq + 1) = std::sin(q(s.q));
      } else {
        q_.segment(s.pq, s.pnq) = q.segment(s.q, s.nq);
      }
    }
    b_.resize(model_.nv);
    for (int k = 0; k < model_.nv; ++k) b_(v_map_[k]) = b(k);
    pinocchio::crba(model_, data_, q_);
    pinocchio::cholesky::decompose(model_, data_);
    x_ = b_;
  }

  VecX<S> check_solve() override {
    x_ = b_;
    pinocchio::cholesky::solve(model_, data_, x_);
    VecX<S> out(model_.nv);
    for (int k = 0; k < model_.nv; ++k) out(k) = x_(v_map_[k]);
    return out;
  }
  VecX<S> check_modified_aba() override { return VecX<S>(); }
  MatX<S> check_oscm() override {
    time_oscm();
    const int n = static_cast<int>(delassus_.rows());
    MatX<S> full = delassus_;
    full.template triangularView<Eigen::StrictlyLower>() = delassus_.transpose();
    std::vector<int> p(static_cast<std::size_t>(n));  // treedyn row r ↔ Pinocchio row p[r]
    for (int r = 0; r < n; ++r) p[static_cast<std::size_t>(r)] = r - r % 6 + (r % 6 + 3) % 6;
    MatX<S> out(n, n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) out(r, c) = full(p[static_cast<std::size_t>(r)], p[static_cast<std::size_t>(c)]);
    return out;
  }

  void time_factor() override { escape(pinocchio::cholesky::decompose(model_, data_).data()); }
  void time_solve() override {
    x_ = b_;
    escape(pinocchio::cholesky::solve(model_, data_, x_).data());
  }
  void time_modified_aba() override {}
  void time_oscm() override {
    pinocchio::computeDelassusMatrix(model_, oscm_data_, q_, contacts_, contact_data_, delassus_, S(0));
    escape(delassus_.data());
  }

 private:
  static Model load(const Robot& robot) {
    pinocchio::Model loaded;  // Pinocchio's URDF parser builds a double model
    if (robot.floating)
      pinocchio::urdf::buildModel(robot.urdf, pinocchio::JointModelFreeFlyer(), loaded);
    else
      pinocchio::urdf::buildModel(robot.urdf, loaded);
    return loaded.template cast<S>();
  }
  static void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

  struct QSlot {
    int q, nq, pq, pnq;
  };
  Model model_;
  Data data_, oscm_data_;
  std::vector<Contact, Eigen::aligned_allocator<Contact>> contacts_;
  std::vector<ContactData, Eigen::aligned_allocator<ContactData>> contact_data_;
  MatX<S> delassus_;
  std::vector<QSlot> q_slots_;
  std::vector<int> v_map_;  ///< treedyn velocity index k ↔ Pinocchio's v_map_[k]
  VecX<S> q_, b_, x_;
};

}  // namespace treedyn::peers
