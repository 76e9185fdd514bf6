// Pinocchio 3.7.0's sparse factor and solve as a peer (peer_extra.hpp), for the one scalar of the unit that
// includes this header (pinocchio_extra_double.cpp, pinocchio_extra_float.cpp). These units instantiate only
// crba and the cholesky module, so they compile in a fraction of pinocchio_double.cpp's time and leave it
// alone. Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// Conventions (the coordinate map is pinocchio_map.hpp's, shared with pinocchio_peer.hpp):
//   factor        cholesky::decompose(model, data) factors data.M (crba's upper triangle) as U D Uᵀ,
//                 cholesky::solve(model, data, x) overwrites x with M⁻¹ x: Pinocchio's own sparse route, the
//                 counterpart of treedyn's factor_H / solve_H. A row permutation P (the velocity map) relates
//                 the two, H_pin = P H Pᵀ, so x = Pᵀ H_pin⁻¹ P b
//   OSCM          computeDelassusMatrix (mu = 0) with one RigidConstraintModel CONTACT_6D per frame on the named
//                 joint, identity placement, reference frame LOCAL: its rows are [v; ω] in the frame, treedyn's
//                 [ω; v], so each frame's two halves are swapped (rows and columns); filled in the upper
//                 triangle only, mirrored for the check (the timed call keeps Pinocchio's storage)
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "pinocchio/algorithm/cholesky.hpp"
#include "pinocchio/algorithm/contact-info.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/delassus.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"

#include "peer_extra.hpp"
#include "pinocchio_map.hpp"

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
      : model_(load_pinocchio<S>(robot)), data_(model_), oscm_data_(model_), map_(model_, robot, layout) {}

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
    q_ = map_.q_to_pin(q);
    b_ = map_.to_pin(b);
    pinocchio::crba(model_, data_, q_);
    pinocchio::cholesky::decompose(model_, data_);
    x_ = b_;
  }

  VecX<S> check_solve() override {
    x_ = b_;
    pinocchio::cholesky::solve(model_, data_, x_);
    return map_.to_td(x_);
  }
  VecX<S> check_modified_aba() override { return VecX<S>(); }
  MatX<S> check_oscm() override {
    time_oscm();
    const MatX<S> rows = swap_halves<S>(mirrored_upper<S>(delassus_));
    return swap_halves<S>(MatX<S>(rows.transpose())).transpose();  // columns too (rows of the transpose)
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
  Model model_;
  Data data_, oscm_data_;
  std::vector<Contact, Eigen::aligned_allocator<Contact>> contacts_;
  std::vector<ContactData, Eigen::aligned_allocator<ContactData>> contact_data_;
  MatX<S> delassus_;
  PinocchioMap<S> map_;
  VecX<S> q_, b_, x_;
};

}  // namespace treedyn::peers
