// Pinocchio 3.7.0's batched dynamics as a peer (peer_batch.hpp), for the one scalar of the unit that includes
// this header (pinocchio_batch_double.cpp, pinocchio_batch_float.cpp; built with OpenMP, which these calls
// need). Only Pinocchio's public API is called; nothing of it is copied into treedyn.
// The calls, as a Pinocchio user makes them (one state per OpenMP thread, each thread on its own model and data
// of a ModelPool), here with one thread, the pool built for one, so the figure is per core:
//   ABA   abaInParallel(1, pool, Q, V, TAU, A)    (it calls aba(..., Convention::WORLD) per column)
//   RNEA  rneaInParallel(1, pool, Q, V, A, TAU)
// Configurations and velocity-space columns are mapped once to Pinocchio's coordinates (pinocchio_map.hpp).
#pragma once

#include <vector>

#include "pinocchio/algorithm/parallel/aba.hpp"
#include "pinocchio/algorithm/parallel/rnea.hpp"
#include "pinocchio/multibody/pool/model.hpp"

#include "peer_batch.hpp"
#include "pinocchio_map.hpp"

namespace treedyn::peers {

template <class S>
class PinocchioBatch final : public BatchPeer<S> {
 public:
  PinocchioBatch(const Robot& robot, const std::vector<JointSlot>& layout)
      : model_(load_pinocchio<S>(robot)), pool_(model_, 1), map_(model_, robot, layout) {}

  std::string library() const override { return "pinocchio"; }

  void set_states(const MatX<S>& Q, const MatX<S>& V, const MatX<S>& A, const MatX<S>& TAU) override {
    const Eigen::Index n = Q.cols();
    q_.resize(model_.nq, n);
    v_.resize(model_.nv, n);
    a_.resize(model_.nv, n);
    tau_.resize(model_.nv, n);
    for (Eigen::Index k = 0; k < n; ++k) {
      q_.col(k) = map_.q_to_pin(Q.col(k));
      v_.col(k) = map_.to_pin(V.col(k));
      a_.col(k) = map_.to_pin(A.col(k));
      tau_.col(k) = map_.to_pin(TAU.col(k));
    }
    qdd_out_.resize(model_.nv, n);
    tau_out_.resize(model_.nv, n);
  }

  MatX<S> check_aba() override {
    time_aba();
    return columns_to_td(qdd_out_);
  }
  MatX<S> check_rnea() override {
    time_rnea();
    return columns_to_td(tau_out_);
  }

  void time_aba() override {
    pinocchio::abaInParallel(1, pool_, q_, v_, tau_, qdd_out_);
    escape(qdd_out_.data());
  }
  void time_rnea() override {
    pinocchio::rneaInParallel(1, pool_, q_, v_, a_, tau_out_);
    escape(tau_out_.data());
  }

 private:
  MatX<S> columns_to_td(const MatX<S>& x) const {
    MatX<S> out(x.rows(), x.cols());
    for (Eigen::Index k = 0; k < x.cols(); ++k) out.col(k) = map_.to_td(VecX<S>(x.col(k)));
    return out;
  }

  pinocchio::ModelTpl<S> model_;
  pinocchio::ModelPoolTpl<S> pool_;
  PinocchioMap<S> map_;
  MatX<S> q_, v_, a_, tau_, qdd_out_, tau_out_;
};

}  // namespace treedyn::peers
