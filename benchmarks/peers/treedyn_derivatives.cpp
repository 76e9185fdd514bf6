// treedyn's dynamics derivatives as a peer (peer_derivatives.hpp), called as its users call them:
//   RNEADerivatives  rnea_derivatives(model, data, ws, q, q̇, q̈): ws.dtau_dq, ws.dtau_dv (and data.tau)
//   ABADerivatives   aba_derivatives(model, data, ws, q, q̇, τ): ws.ddq_dq, ws.ddq_dv, ws.ddq_dtau (and data.qdd)
// The model is treedyn_model's (treedyn_peer.hpp); the float model is its cast, as in treedyn_peer.cpp.
#include <stdexcept>
#include <utility>

#include "peer_derivatives.hpp"
#include "treedyn_peer.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace treedyn::peers {

namespace {

template <class S>
class TreedynDerivatives final : public DerivativesPeer<S> {
 public:
  explicit TreedynDerivatives(Model<S> model) : model_(std::move(model)), data_(model_), rws_(model_), aws_(model_) {}

  std::string library() const override { return "treedyn"; }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = q;
    v_ = v;
    a_ = a;
    tau_ = tau;
  }

  MatX<S> check_rnea_derivatives() override {
    ok(rnea_derivatives(model_, data_, rws_, q_, v_, a_), "rnea_derivatives");
    MatX<S> out(model_.nv(), 2 * model_.nv());
    out << rws_.dtau_dq, rws_.dtau_dv;
    return out;
  }
  MatX<S> check_aba_derivatives() override {
    ok(aba_derivatives(model_, data_, aws_, q_, v_, tau_), "aba_derivatives");
    MatX<S> out(model_.nv(), 2 * model_.nv());
    out << aws_.ddq_dq, aws_.ddq_dv;
    return out;
  }

  void time_rnea_derivatives() override {
    rnea_derivatives(model_, data_, rws_, q_, v_, a_);
    escape(rws_.dtau_dq.data());
  }
  void time_aba_derivatives() override {
    aba_derivatives(model_, data_, aws_, q_, v_, tau_);
    escape(aws_.ddq_dq.data());
  }

 private:
  static void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }
  static void ok(const Status& status, const char* call) {
    if (!status.ok()) throw std::runtime_error(std::string("treedyn derivatives: ") + call + " failed");
  }

  Model<S> model_;
  Data<S> data_;
  RneaDerivativesWorkspace<S> rws_;
  AbaDerivativesWorkspace<S> aws_;
  VecX<S> q_, v_, a_, tau_;
};

}  // namespace

std::unique_ptr<DerivativesPeer<double>> make_treedyn_derivatives_double(const Robot& robot) {
  return std::make_unique<TreedynDerivatives<double>>(treedyn_model(robot));
}

std::unique_ptr<DerivativesPeer<float>> make_treedyn_derivatives_float(const Robot& robot) {
  return std::make_unique<TreedynDerivatives<float>>(treedyn_model(robot).cast<float>());
}

}  // namespace treedyn::peers
