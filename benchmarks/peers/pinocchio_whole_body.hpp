// Pinocchio 3.7.0's whole-body kernels as a peer (peer_whole_body.hpp), for the one scalar of the unit that
// includes this header (pinocchio_whole_body_double.cpp, pinocchio_whole_body_float.cpp).
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// The calls, each as a Pinocchio user makes it:
//   CCRBA                 ccrba(model, data, q, v): data.Ag, data.hg, data.Ig. Ag's rows are [linear; angular],
//                         treedyn's [angular; linear]: swapped for the check
//   JacobianCoM           jacobianCenterOfMass(model, data, q) with its default computeSubtreeComs = true (the
//                         subtrees' centres of mass, which treedyn's call also writes)
//   ForwardKinematics     forwardKinematics(model, data, q): data.oMi, treedyn's X_world
//   FramePlacements       framesForwardKinematics(model, data, q): data.oMi and every frame's data.oMf (Pinocchio
//                         makes a frame of every joint and every link, treedyn one per body and merged link)
//   JacobianTimeVariation computeJointJacobiansTimeVariation(model, data, q, v), then, per frame,
//                         getJointJacobianTimeVariation(model, data, joint, LOCAL, dJ): J̇ of the frame at the
//                         joint's origin in its own axes, rows [v; ω] (treedyn [ω; v]: swapped for the check)
// Coordinates: pinocchio_map.hpp. oMi.rotation() is the body's axes in world coordinates, treedyn's Eᵀ.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "pinocchio/algorithm/center-of-mass.hpp"
#include "pinocchio/algorithm/centroidal.hpp"
#include "pinocchio/algorithm/frames.hpp"
#include "pinocchio/algorithm/jacobian.hpp"
#include "pinocchio/algorithm/kinematics.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"

#include "peer_whole_body.hpp"
#include "pinocchio_map.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioWholeBody final : public WholeBodyPeer<S> {
 public:
  using Model = pinocchio::ModelTpl<S>;
  using Data = pinocchio::DataTpl<S>;
  using Matrix6x = typename Data::Matrix6x;

  PinocchioWholeBody(const Robot& robot, const std::vector<JointSlot>& layout)
      : model_(load_pinocchio<S>(robot)), data_(model_), map_(model_, robot, layout) {}

  std::string library() const override { return "pinocchio"; }
  int nframes() const override { return static_cast<int>(model_.nframes); }

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints) {
      if (!model_.existJointName(name)) throw std::runtime_error("pinocchio whole body: no joint '" + name + "'");
      frames_.push_back(model_.getJointId(name));
      dJ_.push_back(Matrix6x::Zero(6, model_.nv));  // getJointJacobianTimeVariation writes the path's columns
    }
  }

  void set_state(const VecX<S>& q, const VecX<S>& v) override {
    q_ = map_.q_to_pin(q);
    v_ = map_.to_pin(v);
  }

  MatX<S> check_ccrba() override {
    time_ccrba();
    return map_.to_td(swap_halves<S>(data_.Ag), false);
  }
  MatX<S> check_jcom() override {
    time_jcom();
    return map_.to_td(MatX<S>(data_.Jcom), false);
  }
  MatX<S> check_placements(bool frames) override {
    if (frames)
      time_frame_placements();
    else
      time_forward_kinematics();
    MatX<S> out(12, map_.nbodies());
    for (int i = 0; i < map_.nbodies(); ++i) {
      const auto& M = data_.oMi[map_.joint(i)];
      out.col(i) << Eigen::Map<const VecX<S>>(M.rotation().data(), 9), M.translation();
    }
    return out;
  }
  MatX<S> check_jdot() override {
    time_jdot();
    MatX<S> out(6 * static_cast<Eigen::Index>(dJ_.size()), model_.nv);
    for (std::size_t f = 0; f < dJ_.size(); ++f) out.middleRows(6 * static_cast<Eigen::Index>(f), 6) = dJ_[f];
    return map_.to_td(swap_halves<S>(out), false);
  }

  void time_ccrba() override { escape(pinocchio::ccrba(model_, data_, q_, v_).data()); }
  void time_jcom() override { escape(pinocchio::jacobianCenterOfMass(model_, data_, q_).data()); }
  void time_forward_kinematics() override {
    pinocchio::forwardKinematics(model_, data_, q_);
    escape(data_.oMi.data());
  }
  void time_frame_placements() override {
    pinocchio::framesForwardKinematics(model_, data_, q_);
    escape(data_.oMf.data());
  }
  void time_jdot() override {
    pinocchio::computeJointJacobiansTimeVariation(model_, data_, q_, v_);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      pinocchio::getJointJacobianTimeVariation(model_, data_, frames_[f], pinocchio::LOCAL, dJ_[f]);
      escape(dJ_[f].data());
    }
  }

 private:
  Model model_;
  Data data_;
  PinocchioMap<S> map_;
  std::vector<pinocchio::JointIndex> frames_;
  std::vector<Matrix6x> dJ_;
  VecX<S> q_, v_;
};

}  // namespace treedyn::peers
