// Pinocchio 3.7.0's dynamics derivatives as a peer (peer_derivatives.hpp), for the one scalar of the unit that
// includes this header (pinocchio_derivatives_double.cpp, pinocchio_derivatives_float.cpp).
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// The calls, each as a Pinocchio user makes them:
//   RNEADerivatives  computeRNEADerivatives(model, data, q, v, a): data.dtau_dq, data.dtau_dv (and data.M)
//   ABADerivatives   computeABADerivatives(model, data, q, v, tau): data.ddq_dq, data.ddq_dv, data.Minv
//   FrameVelocityDerivatives      computeForwardKinematicsDerivatives(model, data, q, v, a), then per frame
//                                 getJointVelocityDerivatives(model, data, joint, LOCAL, dv_dq, dv_dv)
//   FrameAccelerationDerivatives  the same, then per frame getJointAccelerationDerivatives(model, data, joint,
//                                 LOCAL, dv_dq, da_dq, da_dv, da_da)
// (the frames at the tip joints' origins in their own axes, as treedyn's local frames; rows [v; ω] swapped)
// Both differentiate along Pinocchio's integrate (a body-frame increment, as treedyn's); rows and columns are
// in Pinocchio's velocity order with the free flyer's [v; ω], mapped to treedyn's (pinocchio_map.hpp).
#pragma once

#include <vector>

#include <string>

#include "pinocchio/algorithm/aba-derivatives.hpp"
#include "pinocchio/algorithm/kinematics-derivatives.hpp"
#include "pinocchio/algorithm/rnea-derivatives.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"

#include "peer_derivatives.hpp"
#include "pinocchio_map.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioDerivatives final : public DerivativesPeer<S> {
 public:
  using Model = pinocchio::ModelTpl<S>;
  using Data = pinocchio::DataTpl<S>;

  PinocchioDerivatives(const Robot& robot, const std::vector<JointSlot>& layout)
      : model_(load_pinocchio<S>(robot)), data_(model_), map_(model_, robot, layout) {}

  std::string library() const override { return "pinocchio"; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = map_.q_to_pin(q);
    v_ = map_.to_pin(v);
    a_ = map_.to_pin(a);
    tau_ = map_.to_pin(tau);
  }

  MatX<S> check_rnea_derivatives() override {
    time_rnea_derivatives();
    return both(MatX<S>(data_.dtau_dq), MatX<S>(data_.dtau_dv));
  }
  MatX<S> check_aba_derivatives() override {
    time_aba_derivatives();
    return both(MatX<S>(data_.ddq_dq), MatX<S>(data_.ddq_dv));
  }

  void set_frames(const std::vector<std::string>& joints) override {
    for (const std::string& name : joints) {
      joints_.push_back(model_.getJointId(name));
      frames_.emplace_back(model_.nv);  // the getters write the path's columns only
    }
  }
  MatX<S> check_frame_derivatives() override {
    time_frame_acceleration_derivatives();
    MatX<S> out(6 * static_cast<Eigen::Index>(frames_.size()), 4 * model_.nv);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      const FrameOutputs& o = frames_[f];
      out.middleRows(6 * static_cast<Eigen::Index>(f), 6) << rows_to_td(o.dv_dq), rows_to_td(o.da_dq),
          rows_to_td(o.da_dv), rows_to_td(o.da_da);
    }
    return out;
  }

  void time_rnea_derivatives() override {
    pinocchio::computeRNEADerivatives(model_, data_, q_, v_, a_);
    escape(data_.dtau_dq.data());
  }
  void time_aba_derivatives() override {
    pinocchio::computeABADerivatives(model_, data_, q_, v_, tau_);
    escape(data_.ddq_dq.data());
  }
  void time_frame_velocity_derivatives() override {
    pinocchio::computeForwardKinematicsDerivatives(model_, data_, q_, v_, a_);
    for (std::size_t f = 0; f < frames_.size(); ++f)
      pinocchio::getJointVelocityDerivatives(model_, data_, joints_[f], pinocchio::LOCAL, frames_[f].dv_dq,
                                             frames_[f].dv_dv);
    escape(frames_.data());
  }
  void time_frame_acceleration_derivatives() override {
    pinocchio::computeForwardKinematicsDerivatives(model_, data_, q_, v_, a_);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      FrameOutputs& o = frames_[f];
      pinocchio::getJointAccelerationDerivatives(model_, data_, joints_[f], pinocchio::LOCAL, o.dv_dq, o.da_dq,
                                                 o.da_dv, o.da_da);
    }
    escape(frames_.data());
  }

 private:
  MatX<S> both(const MatX<S>& dq, const MatX<S>& dv) const {
    MatX<S> out(dq.rows(), 2 * dq.cols());
    out << map_.square_to_td(dq), map_.square_to_td(dv);
    return out;
  }

  using Matrix6x = Eigen::Matrix<S, 6, Eigen::Dynamic>;
  struct FrameOutputs {  // one frame's derivatives, Pinocchio's rows [v; ω] and columns
    explicit FrameOutputs(int nv)
        : dv_dq(Matrix6x::Zero(6, nv)), dv_dv(Matrix6x::Zero(6, nv)), da_dq(Matrix6x::Zero(6, nv)),
          da_dv(Matrix6x::Zero(6, nv)), da_da(Matrix6x::Zero(6, nv)) {}
    Matrix6x dv_dq, dv_dv, da_dq, da_dv, da_da;
  };
  /// A 6 × nv block in treedyn's rows ([ω; v]) and columns.
  MatX<S> rows_to_td(const Matrix6x& x) const { return map_.to_td(swap_halves<S>(MatX<S>(x)), false); }

  Model model_;
  Data data_;
  PinocchioMap<S> map_;
  VecX<S> q_, v_, a_, tau_;
  std::vector<pinocchio::JointIndex> joints_;
  std::vector<FrameOutputs> frames_;
};

}  // namespace treedyn::peers
