// Pinocchio 3.7.0's dynamics derivatives as a peer (peer_derivatives.hpp), for the one scalar of the unit that
// includes this header (pinocchio_derivatives_double.cpp, pinocchio_derivatives_float.cpp).
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// The calls, each as a Pinocchio user makes them:
//   RNEADerivatives  computeRNEADerivatives(model, data, q, v, a): data.dtau_dq, data.dtau_dv (and data.M)
//   ABADerivatives   computeABADerivatives(model, data, q, v, tau): data.ddq_dq, data.ddq_dv, data.Minv
// Both differentiate along Pinocchio's integrate (a body-frame increment, as treedyn's); rows and columns are
// in Pinocchio's velocity order with the free flyer's [v; ω], mapped to treedyn's (pinocchio_map.hpp).
#pragma once

#include <vector>

#include "pinocchio/algorithm/aba-derivatives.hpp"
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

  void time_rnea_derivatives() override {
    pinocchio::computeRNEADerivatives(model_, data_, q_, v_, a_);
    escape(data_.dtau_dq.data());
  }
  void time_aba_derivatives() override {
    pinocchio::computeABADerivatives(model_, data_, q_, v_, tau_);
    escape(data_.ddq_dq.data());
  }

 private:
  MatX<S> both(const MatX<S>& dq, const MatX<S>& dv) const {
    MatX<S> out(dq.rows(), 2 * dq.cols());
    out << map_.square_to_td(dq), map_.square_to_td(dv);
    return out;
  }

  Model model_;
  Data data_;
  PinocchioMap<S> map_;
  VecX<S> q_, v_, a_, tau_;
};

}  // namespace treedyn::peers
