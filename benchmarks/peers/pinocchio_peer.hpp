// Pinocchio 3.7.0 as a peer (peer.hpp), for the one scalar of the unit that includes this header
// (pinocchio_double.cpp, pinocchio_float.cpp: one unit per scalar, never compiled two at once).
// Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// Conventions converted here (benchmarks/peers/README.md; the coordinate map is pinocchio_map.hpp's):
//   M, Minv       filled by crba and computeMinverse in the upper triangle only: mirrored for the checks
#pragma once

#include <string>
#include <vector>

#include "pinocchio/algorithm/aba.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/rnea.hpp"
#include "pinocchio/multibody/data.hpp"
#include "pinocchio/multibody/model.hpp"

#include "peer.hpp"
#include "pinocchio_map.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioPeer final : public Peer<S> {
 public:
  using Model = pinocchio::ModelTpl<S>;
  using Data = pinocchio::DataTpl<S>;

  PinocchioPeer(const Robot& robot, const std::vector<JointSlot>& layout)
      : model_(load_pinocchio<S>(robot)), data_(model_), map_(model_, robot, layout) {}

  std::string library() const override { return "pinocchio"; }
  int nv() const override { return model_.nv; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = map_.q_to_pin(q);
    v_ = map_.to_pin(v);
    a_ = map_.to_pin(a);
    tau_ = map_.to_pin(tau);
  }

  VecX<S> check_rnea() override { return map_.to_td(VecX<S>(pinocchio::rnea(model_, data_, q_, v_, a_))); }
  VecX<S> check_bias() override { return map_.to_td(VecX<S>(pinocchio::nonLinearEffects(model_, data_, q_, v_))); }
  MatX<S> check_crba() override {
    pinocchio::crba(model_, data_, q_);
    return map_.square_to_td(mirrored_upper<S>(data_.M));
  }
  VecX<S> check_aba() override { return map_.to_td(VecX<S>(pinocchio::aba(model_, data_, q_, v_, tau_))); }
  MatX<S> check_minverse() override {
    pinocchio::computeMinverse(model_, data_, q_);
    return map_.square_to_td(mirrored_upper<S>(data_.Minv));
  }

  void time_rnea() override { escape(pinocchio::rnea(model_, data_, q_, v_, a_).data()); }
  void time_bias() override { escape(pinocchio::nonLinearEffects(model_, data_, q_, v_).data()); }
  void time_crba() override { escape(pinocchio::crba(model_, data_, q_).data()); }
  void time_aba() override { escape(pinocchio::aba(model_, data_, q_, v_, tau_).data()); }
  void time_minverse() override { escape(pinocchio::computeMinverse(model_, data_, q_).data()); }

 private:
  Model model_;
  Data data_;
  PinocchioMap<S> map_;
  VecX<S> q_, v_, a_, tau_;
};

}  // namespace treedyn::peers
